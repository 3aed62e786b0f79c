//! `tapete mus calibrate`: how a reading of the rivals' bets compares with the lances the
//! hands actually won, per lance and kind of bet, over games whose every hand the harness
//! knows. For bot authors tuning how much a bet says.

use crate::args::{parse_seed, parse_threads};
use crate::error::{CliError, CliResult};
use crate::text::{emit, percent, progress_bar, table};
use clap::Args;
use rayon::prelude::*;
use serde_json::json;
use tapete_host::row;
use tapete_mus::MusRules;
use tapete_mus_bots::calibrate::{self, Sample};
use tapete_mus_bots::policy;

/// Arguments of `tapete mus calibrate`.
#[derive(Args, Debug)]
#[command(
    after_help = "At every answer to a bet the harness notes the answering seat's chance at \
the lance before the bet (leyes, declarations, the partner's seña), its chance after reading \
the betting as experto does, and whether its pair's hands win the lance. γ is the exponent \
that turns the chances before the bet into the share won (p^(1+γ)): what a bet of that kind \
says about the hand behind it.\nExample: tapete mus calibrate --games 3000 --bots basico"
)]
pub struct CalibrateArgs {
    /// Games to play.
    #[arg(long, value_name = "N")]
    pub games: u64,
    /// Who plays all four seats (a level or style).
    #[arg(long, value_name = "LEVEL", default_value = "experto")]
    pub bots: String,
    /// Seed of the first game.
    #[arg(long, value_name = "S", default_value = "0", value_parser = parse_seed)]
    pub seed: u64,
    /// Worker threads, 1 to 256 (default: one per CPU).
    #[arg(long, value_name = "T", value_parser = parse_threads)]
    pub threads: Option<usize>,
}

/// Runs `tapete mus calibrate`.
pub fn run(a: &CalibrateArgs, json: bool) -> CliResult {
    if a.games == 0 {
        return Err(CliError::usage("--games must be at least 1"));
    }
    let name = a.bots.trim().to_string();
    if name.to_lowercase().starts_with("cmd:") {
        return Err(CliError::usage(
            "calibrate plays built-in players only: --bots takes a level or a style",
        ));
    }
    tapete_mus_bots::by_name(&name).map_err(CliError::usage)?;
    let rules = MusRules::default();
    let style = policy::experto_style();
    let pool = tapete_table::arena::thread_pool(a.threads).map_err(CliError::run)?;
    let bar = progress_bar(a.games, "games", json);
    let results: Vec<Result<Vec<Sample>, String>> = pool.install(|| {
        (0..a.games)
            .into_par_iter()
            .map(|i| {
                let mut players = (0..4)
                    .map(|_| tapete_mus_bots::by_name(&name))
                    .collect::<Result<Vec<_>, _>>()?;
                let r = calibrate::game(
                    &rules,
                    a.seed.wrapping_add(i),
                    &mut players,
                    &style,
                    100_000,
                );
                bar.inc(1);
                r
            })
            .collect()
    });
    bar.finish_and_clear();
    let mut samples = Vec::new();
    for r in results {
        samples.extend(r.map_err(CliError::run)?);
    }
    let lines = calibrate::summarize(&samples);
    if json {
        let v = json!({
            "games": a.games,
            "seed": a.seed,
            "bots": name,
            "answers": samples.len(),
            "lines": lines.iter().map(|l| json!({
                "lance": l.lance,
                "bet": l.kind.name(),
                "n": l.n,
                "prior": l.prior,
                "read": l.read,
                "won": l.won,
                "gamma": l.gamma,
            })).collect::<Vec<_>>(),
        });
        return emit(&format!("{v}\n"));
    }
    let mut rows = vec![row![
        "lance",
        "bet",
        "answers",
        "chance before",
        "read",
        "won",
        "γ"
    ]];
    for l in &lines {
        rows.push(row![
            l.lance.name(),
            l.kind.name(),
            l.n,
            percent(l.prior),
            percent(l.read),
            percent(l.won),
            l.gamma.map_or("–".to_string(), |g| format!("{g:.2}"))
        ]);
    }
    let mut out = format!(
        "{} answers to bets in {} games of {name} from seed {} (every hand known to the harness)\n\n",
        samples.len(),
        a.games,
        a.seed
    );
    out.push_str(&table(&rows));
    out.push_str(
        "\nchance before: the answering pair's chance at the lance before the bet (leyes, \
declarations, seña);\nread: after experto's reading of the betting; won: the share of those \
lances its hands won.\n",
    );
    emit(&out)
}
