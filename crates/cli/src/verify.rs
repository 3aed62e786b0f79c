//! `tapete verify`: checks a server's finished game against what its table showed before
//! the deal — the secret hashes to the commitment, the seed follows from the secret and the
//! contributions, and the record's actions replay from that seed (so every deal came from
//! it by tapete's pinned shuffle). See docs/fairness.md.

use crate::error::{CliError, CliResult};
use crate::text::{emit, table};
use clap::Args;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use tapete_host::{Host, Visitor};
use tapete_table::fair;
use tapete_table::{Game, Record};

/// Arguments of `tapete verify`.
#[derive(Args, Debug)]
#[command(
    after_help = "A server's finished table gives its record at /api/tables/ID/record.\n\nExamples:\n  tapete verify game.json\n  tapete verify game.json --json"
)]
pub struct VerifyArgs {
    /// The record to check (JSON: game, rules, seats, seed, actions and fairness).
    #[arg(value_name = "FILE.json")]
    pub file: PathBuf,
}

/// Runs `tapete verify`.
pub fn run(a: &VerifyArgs, json: bool) -> CliResult {
    let (game, value) = crate::replay::load(&a.file)?;
    let file = a.file.as_path();
    tapete_catalog::visit(&game, Verify { file, value, json })
        .map_err(|e| CliError::input(format!("{}: {e}", file.display())))?
}

struct Verify<'a> {
    file: &'a Path,
    value: Value,
    json: bool,
}

/// One line of the verdict: what was checked, whether it holds, and how it stands.
struct Check {
    name: &'static str,
    ok: bool,
    detail: String,
}

impl Visitor for Verify<'_> {
    type Output = CliResult;
    fn visit<H: Host>(self) -> CliResult {
        let file = self.file;
        let record: Record<H::G> = serde_json::from_value(self.value).map_err(|e| {
            CliError::input(format!(
                "{} is not a valid {} record: {e}",
                file.display(),
                H::TITLE
            ))
        })?;
        let Some(f) = &record.fairness else {
            return Err(CliError::input(format!(
                "{} has no `fairness`: it is a game dealt from a seed alone (as `tapete play` \
                 and the arenas deal), with nothing to verify; a server's finished table gives \
                 a record that has it at /api/tables/ID/record",
                file.display()
            )));
        };
        let (Some(secret), Some(contributions)) = (&f.secret, &f.contributions) else {
            return Err(CliError::input(format!(
                "{}: the record has no secret or no contributions yet: the secret is revealed \
                 when the game is over",
                file.display()
            )));
        };
        let checks = checks::<H>(&record, &f.commitment, secret, contributions);
        let verified = checks.iter().all(|c| c.ok);
        if self.json {
            let doc = json!({
                "game": H::NAME,
                "seed": record.seed.to_string(),
                "verified": verified,
                "checks": checks
                    .iter()
                    .map(|c| json!({"check": c.name, "ok": c.ok, "detail": c.detail}))
                    .collect::<Vec<_>>(),
            });
            emit(&format!("{doc}\n"))?;
        } else {
            let rows: Vec<Vec<String>> = checks
                .iter()
                .map(|c| {
                    vec![
                        c.name.to_string(),
                        if c.ok { "ok" } else { "NO MATCH" }.to_string(),
                        c.detail.clone(),
                    ]
                })
                .collect();
            emit(&format!(
                "{} with {} players, seed {}\n{}",
                H::TITLE,
                record.seats,
                record.seed,
                table(&rows)
            ))?;
        }
        match checks.iter().find(|c| !c.ok) {
            None => Ok(()),
            Some(c) if self.json => Err(CliError::shown(format!(
                "{}: {} does not match: {}",
                file.display(),
                c.name,
                c.detail
            ))),
            Some(c) => Err(CliError::run(format!(
                "{}: {} does not match: {}",
                file.display(),
                c.name,
                c.detail
            ))),
        }
    }
}

/// The three checks of a record: commitment, seed, replay.
fn checks<H: Host>(
    record: &Record<H::G>,
    commitment: &str,
    secret: &str,
    contributions: &[String],
) -> Vec<Check> {
    let mut out = Vec::new();
    let committed = fair::commitment(secret);
    out.push(match committed {
        Ok(hash) if hash.eq_ignore_ascii_case(commitment.trim()) => Check {
            name: "commitment",
            ok: true,
            detail: format!("SHA-256 of the secret is {hash}, as shown before the deal"),
        },
        Ok(hash) => Check {
            name: "commitment",
            ok: false,
            detail: format!("SHA-256 of the secret is {hash}, but the table showed {commitment}"),
        },
        Err(e) => Check {
            name: "commitment",
            ok: false,
            detail: e.to_string(),
        },
    });
    let given = contributions.iter().filter(|c| !c.is_empty()).count();
    out.push(match fair::seed_of(secret, contributions) {
        Ok(seed) if seed == record.seed => Check {
            name: "seed",
            ok: true,
            detail: format!(
                "{seed} follows from the secret and {} contributions ({given} from people)",
                contributions.len()
            ),
        },
        Ok(seed) => Check {
            name: "seed",
            ok: false,
            detail: format!(
                "the secret and the contributions make {seed}, but the game was dealt from {}",
                record.seed
            ),
        },
        Err(e) => Check {
            name: "seed",
            ok: false,
            detail: e.to_string(),
        },
    });
    if contributions.len() != record.seats {
        out.push(Check {
            name: "contributions",
            ok: false,
            detail: format!(
                "{} contributions for a table of {} seats",
                contributions.len(),
                record.seats
            ),
        });
    }
    out.push(match record.replay() {
        Ok(game) => Check {
            name: "deals",
            ok: true,
            detail: format!(
                "{} actions replay from that seed: {}",
                record.actions.len(),
                game.outcome()
                    .map(|o| o.summary)
                    .unwrap_or_else(|| "the game goes on where the record ends".into())
            ),
        },
        Err(e) => Check {
            name: "deals",
            ok: false,
            detail: e.to_string(),
        },
    });
    out
}
