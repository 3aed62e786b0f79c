//! `tapete mus leyes`: exact odds of a hand (alone or with the partner's) per own position
//! and lance, conditioned on the declarations heard; `--all-hands` tabulates every jugada.

use crate::args::ModeArgs;
use crate::error::{CliError, CliResult};
use crate::text::{emit, percent, progress_bar, table};
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use std::time::Instant;
use tapete_cards::Card;
use tapete_host::row;
use tapete_mus_odds::catalog::Catalog;
use tapete_mus_odds::leyes::{Conditions, Declared, OddsError, Relation};
use tapete_mus_odds::query;
use tapete_mus_odds::report::{all_hands, Leyes, Piedras, PositionLeyes, Ratio};

/// Output format of `--format` (and of `--out`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One row per hand and position.
    Csv,
    /// An array with one leyes object per hand.
    Json,
}

/// Arguments of `tapete mus leyes`.
#[derive(Args, Debug)]
#[command(
    after_help = "Hands in jugada notation (RRCA) or as four cards in one argument \
(\"12o 3c 11e 1b\").\nDeclarations: --pares next=yes,prev=no --juego partner=no. `next` speaks \
right after us, `prev` right before us, `partner` only when the partner's hand is unknown; \
a player left out has not declared yet.\nExamples:\n  tapete mus leyes RRCA --partner RC7A \
--pares next=yes,prev=no --exact\n  tapete mus leyes --all-hands --format csv --out leyes.csv"
)]
pub struct LeyesArgs {
    /// Our hand.
    #[arg(
        value_name = "HAND",
        num_args = 1..=4,
        required_unless_present = "all_hands",
        conflicts_with = "all_hands"
    )]
    pub hand: Vec<String>,
    /// Our partner's hand, when known.
    #[arg(long, value_name = "HAND")]
    pub partner: Option<String>,
    /// Own position to show: 0 (mano) to 3 (postre), or all.
    #[arg(long, value_name = "0|1|2|3|all", default_value = "all", value_parser = parse_position)]
    pub position: Position,
    #[command(flatten)]
    pub mode: ModeArgs,
    /// Pares declarations heard, e.g. next=yes,prev=no.
    #[arg(long, value_name = "WHO=yes|no,…")]
    pub pares: Option<String>,
    /// Juego declarations heard, e.g. next=no,partner=yes.
    #[arg(long, value_name = "WHO=yes|no,…")]
    pub juego: Option<String>,
    /// Also show every probability as an exact fraction.
    #[arg(long, conflicts_with = "all_hands")]
    pub exact: bool,
    /// The leyes of every jugada as our hand (partner unknown), for all positions.
    #[arg(long, conflicts_with = "partner")]
    pub all_hands: bool,
    /// Write the leyes to FILE instead of stdout (csv by default, json with --json or
    /// --format json). The file is written whole when the work is done: an interrupted
    /// run leaves no file behind.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// csv (one row per hand and position) or json. Without it one hand prints as text
    /// (json with --json) and --all-hands as csv (json with --json).
    #[arg(long, value_name = "FORMAT")]
    pub format: Option<Format>,
}

/// Which own positions to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position(pub Option<usize>);

/// Parses an own position: 0–3 or `all`.
fn parse_position(s: &str) -> Result<Position, String> {
    match s.trim() {
        "all" => Ok(Position(None)),
        t => match t.parse::<usize>() {
            Ok(n) if n < 4 => Ok(Position(Some(n))),
            _ => Err(format!(
                "`{s}` is not a position: use 0 (mano), 1, 2, 3 (postre) or all"
            )),
        },
    }
}

/// The conditions of `--pares` and `--juego`.
fn conditions(a: &LeyesArgs) -> CliResult<Conditions> {
    query::conditions(a.pares.as_deref(), a.juego.as_deref()).map_err(CliError::input)
}

/// Joins the HAND arguments: one argument, or four single cards.
fn hand_text(args: &[String]) -> CliResult<String> {
    match args {
        [one] => Ok(one.clone()),
        _ if args.len() == 4 && args.iter().all(|a| a.trim().parse::<Card>().is_ok()) => {
            Ok(args.join(" "))
        }
        _ => Err(CliError::input(format!(
            "give one hand (got {} arguments); write its cards as one argument, like \
             \"12o 3c 11e 1b\"",
            args.len()
        ))),
    }
}

/// An odds error as a CLI error (all are about the input).
fn odds_error(e: OddsError) -> CliError {
    CliError::input(e.to_string())
}

/// Runs `tapete mus leyes`.
pub fn run(a: &LeyesArgs, json: bool) -> CliResult {
    let cond = conditions(a)?;
    if a.all_hands {
        return run_all(a, &cond, json);
    }
    let text = hand_text(&a.hand)?;
    let (hand, partner) =
        query::parse_hands(&text, a.partner.as_deref(), a.mode.mode).map_err(CliError::input)?;
    query::check_partner_conditions(partner.is_some(), &cond).map_err(CliError::input)?;
    let cat = Catalog::new(a.mode.mode, a.mode.real31);
    let mut leyes = Leyes::compute(&cat, hand, partner, &cond).map_err(odds_error)?;
    if let Position(Some(p)) = a.position {
        leyes = leyes.only_position(p);
    }
    if let Some(path) = &a.out {
        crate::play::check_out_path("--out", path)?;
    }
    let format = a.format.or(if json {
        Some(Format::Json)
    } else if a.out.is_some() {
        Some(Format::Csv)
    } else {
        None
    });
    let body = match format {
        Some(Format::Csv) => to_csv(std::slice::from_ref(&leyes)),
        Some(Format::Json) => format!("{}\n", leyes.to_json(a.exact)),
        None => to_text(&leyes, a.exact),
    };
    match &a.out {
        Some(path) => {
            crate::play::write_whole(path, &body)?;
            if json {
                let v = serde_json::json!({ "out": path.display().to_string(), "hands": 1 });
                emit(&format!("{v}\n"))
            } else {
                Ok(())
            }
        }
        None => emit(&body),
    }
}

/// `0 mano`, `1`, `2`, `3 postre`.
fn position_name(p: usize) -> String {
    match p {
        0 => "0 mano".into(),
        3 => "3 postre".into(),
        _ => p.to_string(),
    }
}

fn relation_name(r: Relation) -> &'static str {
    match r {
        Relation::Next => "next",
        Relation::Partner => "partner",
        Relation::Prev => "prev",
    }
}

/// The declarations heard, as the user wrote them.
fn describe(c: &Conditions) -> String {
    let mut parts = Vec::new();
    for (lance, decl) in [("pares", &c.pares), ("juego", &c.juego)] {
        for (r, d) in Relation::ALL.iter().zip(decl) {
            let v = match d {
                Declared::Unknown => continue,
                Declared::Yes => "yes",
                Declared::No => "no",
            };
            parts.push(format!("{lance} {}={v}", relation_name(*r)));
        }
    }
    if parts.is_empty() {
        "no declarations heard".into()
    } else {
        format!("heard: {}", parts.join(", "))
    }
}

/// The probabilities of one position, labelled: (lance, outcome, ratio).
fn probabilities(p: &PositionLeyes) -> Vec<(&'static str, &'static str, Ratio)> {
    vec![
        ("grande", "win", p.grande),
        ("chica", "win", p.chica),
        ("pares", "win", p.pares.win),
        ("pares", "lose", p.pares.lose),
        ("pares", "void", p.pares.void),
        ("juego", "win", p.juego.win),
        ("juego", "lose", p.juego.lose),
        ("punto", "win", p.punto.win),
        ("punto", "lose", p.punto.lose),
    ]
}

/// Expected piedras per lance, labelled.
fn piedras(x: &Piedras) -> [(&'static str, Ratio); 5] {
    [
        ("grande", x.grande),
        ("chica", x.chica),
        ("pares", x.pares),
        ("juego", x.juego),
        ("punto", x.punto),
    ]
}

/// The leyes as aligned text: positions side by side; with `exact`, then one table of
/// fractions per position.
pub fn to_text(l: &Leyes, exact: bool) -> String {
    let partner = match l.partner {
        Some(p) => format!(" with partner {p}"),
        None => ", partner unknown".into(),
    };
    let mut out = format!(
        "{}{partner}: mode {}, 31 real {}, {}\n\n",
        l.hand,
        l.mode,
        if l.real31 { "on" } else { "off" },
        describe(&l.conditions)
    );
    let mut header = row!["P(our pair)", ""];
    header.extend(l.positions.iter().map(|p| position_name(p.position)));
    let mut rows = vec![header];
    let per_position: Vec<_> = l.positions.iter().map(probabilities).collect();
    if let Some(first) = per_position.first() {
        for (i, &(lance, outcome, _)) in first.iter().enumerate() {
            let mut r = row![lance, outcome];
            r.extend(per_position.iter().map(|v| percent(v[i].2.value())));
            rows.push(r);
        }
    }
    out.push_str(&table(&rows));

    if let Some(p) = l.positions.first() {
        out.push('\n');
        let mut rows = vec![row!["unknown player", "P(pares)", "P(juego)"]];
        for pl in &p.players {
            rows.push(row![
                relation_name(pl.relation),
                percent(pl.pares.value()),
                percent(pl.juego.value())
            ]);
        }
        out.push_str(&table(&rows));
    }

    out.push_str("\nexpected piedras en paso\n");
    let mut h1 = row![""];
    let mut h2 = row!["lance"];
    for p in &l.positions {
        h1.extend([position_name(p.position), String::new()]);
        h2.extend(row!["us", "them"]);
    }
    let mut rows = vec![h1, h2];
    for i in 0..5 {
        let mut r = row![piedras(&l.positions[0].us)[i].0];
        for p in &l.positions {
            r.push(format!("{:.3}", piedras(&p.us)[i].1.value()));
            r.push(format!("{:.3}", piedras(&p.them)[i].1.value()));
        }
        rows.push(r);
    }
    let mut r = row!["total"];
    for p in &l.positions {
        r.push(format!("{:.3}", p.us.total()));
        r.push(format!("{:.3}", p.them.total()));
    }
    rows.push(r);
    out.push_str(&table(&rows));

    if exact {
        for p in &l.positions {
            out.push_str(&format!(
                "\nexact, position {}\n",
                position_name(p.position)
            ));
            let mut rows = vec![row!["", "", "probability", "fraction"]];
            for (lance, outcome, r) in probabilities(p) {
                rows.push(row![lance, outcome, percent(r.value()), r.fraction()]);
            }
            for pl in &p.players {
                let who = relation_name(pl.relation);
                for (what, r) in [("pares", pl.pares), ("juego", pl.juego)] {
                    rows.push(row![
                        format!("{who} has"),
                        what,
                        percent(r.value()),
                        r.fraction()
                    ]);
                }
            }
            for (pair, x) in [("us", &p.us), ("them", &p.them)] {
                for (lance, r) in piedras(x) {
                    rows.push(row![
                        format!("piedras {pair}"),
                        lance,
                        format!("{:.3}", r.value()),
                        r.fraction()
                    ]);
                }
            }
            out.push_str(&table(&rows));
        }
    }
    out
}

/// `--all-hands`: every jugada of the mode as our hand, in parallel, to CSV or JSON.
fn run_all(a: &LeyesArgs, cond: &Conditions, json: bool) -> CliResult {
    let format = a
        .format
        .unwrap_or(if json { Format::Json } else { Format::Csv });
    // Check the output first: a bad path fails before the long computation, not after;
    // the file itself is written only when the table is whole.
    if let Some(path) = &a.out {
        crate::play::check_out_path("--out", path)?;
    }
    let cat = Catalog::new(a.mode.mode, a.mode.real31);
    let n = cat.entries.len() as u64;
    let bar = progress_bar(n, "hands", json);
    let start = Instant::now();
    let results = all_hands(&cat, cond, &|| bar.inc(1));
    let elapsed = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let mut leyes = Vec::with_capacity(results.len());
    for (r, e) in results.into_iter().zip(&cat.entries) {
        let l = r.map_err(|err| CliError::input(format!("{}: {err}", e.jugada)))?;
        leyes.push(match a.position {
            Position(Some(p)) => l.only_position(p),
            Position(None) => l,
        });
    }
    let body = match format {
        Format::Csv => to_csv(&leyes),
        Format::Json => {
            let v: Vec<serde_json::Value> = leyes.iter().map(|l| l.to_json(false)).collect();
            format!("{}\n", serde_json::Value::Array(v))
        }
    };
    let rows: usize = leyes.iter().map(|l| l.positions.len()).sum();
    eprintln!(
        "{} hands ({rows} rows) of {} in {elapsed:.2} s",
        leyes.len(),
        a.mode.mode
    );
    match &a.out {
        Some(path) => {
            crate::play::write_whole(path, &body)?;
            if json {
                let v = serde_json::json!({
                    "out": path.display().to_string(),
                    "format": if format == Format::Csv { "csv" } else { "json" },
                    "hands": leyes.len(),
                    "rows": rows,
                    "seconds": elapsed,
                });
                emit(&format!("{v}\n"))
            } else {
                Ok(())
            }
        }
        None => emit(&body),
    }
}

/// The `--all-hands` CSV: one row per hand and position.
pub fn to_csv(leyes: &[Leyes]) -> String {
    let mut out = String::from(
        "hand,position,grande,chica,pares_win,pares_lose,pares_void,juego_win,juego_lose,\
         punto_win,punto_lose,piedras_us,piedras_them\n",
    );
    for l in leyes {
        for p in &l.positions {
            let mut cells = vec![l.hand.to_string(), p.position.to_string()];
            cells.extend(
                probabilities(p)
                    .iter()
                    .map(|(_, _, r)| r.value().to_string()),
            );
            cells.push(p.us.total().to_string());
            cells.push(p.them.total().to_string());
            out.push_str(&cells.join(","));
            out.push('\n');
        }
    }
    out
}
