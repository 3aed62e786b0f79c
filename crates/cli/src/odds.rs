//! `tapete odds solitaire`: the exact odds of prisoner's solitaire for any deck, table and
//! pick, the per-type breakdown, what is left when the deck runs out, and the real game
//! simulated against the exact answer; and the same for the online table
//! ([`SolitaireOdds`], `GET /api/odds/solitaire`).

use crate::args::{parse_seed, parse_threads};
use crate::error::{CliError, CliResult};
use crate::text::{emit, percent, progress_bar, rate, table, thousands};
use clap::{Args, Subcommand};
use serde_json::{json, Value};
use std::time::Instant;
use tapete_host::row;
use tapete_server::OddsTool;
use tapete_solitaire_odds::{
    distribution, simulate, types, win_probability, Distribution, Fraction, OddsError, Params,
    Simulation, TypeOdds,
};

/// Odds of games tapete does not deal at its table.
#[derive(Subcommand, Debug)]
pub enum OddsCommand {
    /// Prisoner's solitaire: the exact chance to clear the table, as a fraction, by table
    /// types; the per-type breakdown, what is left when the deck runs out, and the real
    /// game simulated.
    Solitaire(SolitaireArgs),
}

/// Arguments of `tapete odds solitaire`.
#[derive(Args, Debug)]
#[command(
    after_help = "The game: BOARD cards of a SUITS × VALUES deck are dealt to the table, \
stacked by value; the rest is turned three at a time and the third card removes the stack of \
its value. Won if the table is cleared. Every third card is as random as any card, so this is \
PICK cards chosen from the rest, won iff they hold every table value; the real game has \
PICK = ⌊(deck − BOARD) / 3⌋.\nExample: tapete odds solitaire --types --simulate 1000000\n\n\
--json: {\"suits\", \"values\", \"board\", \"pick\", \"deck\", \"real_game\", \"fraction\" \
(\"num/den\"), \"probability\"}, with --types \"types\" ([{\"parts\", \"fraction\", \
\"probability\", \"win_fraction\", \"win\"}]) and \"types_total\", with --distribution \"distribution\" \
({\"stacks\", \"cards\": [{\"left\", \"fraction\", \"probability\"}], \"mean_stacks\", \
\"mean_cards\" and their \"…_fraction\"}), with --simulate \"simulated\", \"stderr\", \
\"games\", \"wins\", \"seed\", \"z\" (standard errors from the exact answer) and \"timing\"."
)]
pub struct SolitaireArgs {
    /// Suits of the deck: copies of each value.
    #[arg(long, value_name = "N", default_value = "4")]
    pub suits: u32,
    /// Values of the deck.
    #[arg(long, value_name = "N", default_value = "13")]
    pub values: u32,
    /// Cards dealt to the table.
    #[arg(long, value_name = "N", default_value = "13")]
    pub board: u32,
    /// Cards that count, picked from the rest [default: the real game's third cards,
    /// ⌊(suits × values − board) / 3⌋, 13 for the defaults].
    #[arg(long, value_name = "N")]
    pub pick: Option<u32>,
    /// The per-type breakdown: each table type (its stack sizes), its probability, and
    /// the win probability given it.
    #[arg(long)]
    pub types: bool,
    /// The exact distribution of the stacks and cards left when the deck runs out.
    #[arg(long)]
    pub distribution: bool,
    /// Play the real game N times and compare with the exact answer.
    #[arg(long, value_name = "N")]
    pub simulate: Option<u64>,
    /// Seed of the simulation.
    #[arg(long, value_name = "S", default_value = "0", value_parser = parse_seed)]
    pub seed: u64,
    /// Worker threads of the simulation, 1 to 256 (default: one per CPU).
    #[arg(long, value_name = "T", value_parser = parse_threads)]
    pub threads: Option<usize>,
}

/// What `tapete odds solitaire` computed.
struct Report {
    params: Params,
    win: Fraction,
    types: Option<Vec<TypeOdds>>,
    distribution: Option<Distribution>,
    simulation: Option<Run>,
}

/// A simulation with its timing.
struct Run {
    sim: Simulation,
    seed: u64,
    seconds: f64,
    threads: usize,
}

fn input(e: OddsError) -> CliError {
    CliError::input(e.to_string())
}

/// Runs `tapete odds solitaire`.
pub fn run(a: &SolitaireArgs, json: bool) -> CliResult {
    let mut params = Params {
        suits: a.suits,
        values: a.values,
        board: a.board,
        pick: 0,
    };
    params.pick = a.pick.unwrap_or_else(|| params.real_pick());
    params.check_answer(a.distribution).map_err(input)?;
    let win = win_probability(&params).map_err(input)?;
    let types = a.types.then(|| types(&params)).transpose().map_err(input)?;
    let distribution = a
        .distribution
        .then(|| distribution(&params))
        .transpose()
        .map_err(input)?;
    let simulation = match a.simulate {
        Some(games) => Some(run_simulation(&params, games, a, json)?),
        None => None,
    };
    let r = Report {
        params,
        win,
        types,
        distribution,
        simulation,
    };
    if json {
        emit(&format!("{}\n", to_json(&r)))
    } else {
        emit(&to_text(&r))
    }
}

/// Plays the real game `games` times with a progress bar; the timing goes to stderr.
fn run_simulation(p: &Params, games: u64, a: &SolitaireArgs, json: bool) -> CliResult<Run> {
    let pool = tapete_table::arena::thread_pool(a.threads).map_err(CliError::run)?;
    let threads = pool.current_num_threads();
    let bar = progress_bar(games, "games", json);
    let start = Instant::now();
    let sim = pool.install(|| simulate(p, games, a.seed, &|n| bar.inc(n)));
    let seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let sim = sim.map_err(input)?;
    let per_sec = if seconds > 0.0 {
        games as f64 / seconds
    } else {
        0.0
    };
    eprintln!(
        "{} games in {seconds:.2} s on {threads} thread{}: {}",
        thousands(games),
        if threads == 1 { "" } else { "s" },
        rate(per_sec, "games")
    );
    Ok(Run {
        sim,
        seed: a.seed,
        seconds,
        threads,
    })
}

/// How many standard errors the observed rate is from the exact answer; `None` when the
/// standard error is 0 and they differ (every game went the same way).
fn z_score(sim: &Simulation, exact: f64) -> Option<f64> {
    let diff = sim.rate - exact;
    if sim.stderr > 0.0 {
        Some(diff / sim.stderr)
    } else if diff == 0.0 {
        Some(0.0)
    } else {
        None
    }
}

/// A probability with six significant digits: fixed down to 0.0001, scientific below.
fn decimal(x: f64) -> String {
    if x == 0.0 || x == 1.0 {
        return format!("{x}");
    }
    if x < 1e-4 {
        return format!("{x:.5e}");
    }
    let digits = 5 - x.log10().floor() as i32;
    format!("{x:.*}", digits.max(0) as usize)
}

fn parts_text(parts: &[u32]) -> String {
    if parts.is_empty() {
        return "(empty table)".into();
    }
    parts
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn to_text(r: &Report) -> String {
    let p = &r.params;
    let picked = if p.is_real_game() {
        format!("{} third cards of the {} left", p.pick, p.left())
    } else {
        format!(
            "{} cards picked of the {} left (the real game turns {} third cards)",
            p.pick,
            p.left(),
            p.real_pick()
        )
    };
    let x = r.win.to_f64();
    let odds = if r.win.is_zero() {
        "never won".to_string()
    } else {
        format!("one game in {:.1}", 1.0 / x)
    };
    let mut out = format!(
        "prisoner's solitaire: {} cards ({} suits × {} values), {} on the table, {picked}\n\
         win: {} = {x} ({}, {odds})\n",
        p.deck(),
        p.suits,
        p.values,
        p.board,
        r.win,
        percent(x),
    );
    if let Some(ts) = &r.types {
        out.push_str(&format!("\n{} table types:\n", ts.len()));
        let mut rows = vec![row!["type", "probability", "win given it", "share of wins"]];
        for t in ts {
            let share = if r.win.is_zero() {
                "—".to_string()
            } else {
                percent((&t.probability * &t.win).to_f64() / x)
            };
            rows.push(row![
                parts_text(&t.parts),
                decimal(t.probability.to_f64()),
                decimal(t.win.to_f64()),
                share
            ]);
        }
        out.push_str(&table(&rows));
    }
    if let Some(d) = &r.distribution {
        for (what, dist, mean) in [
            ("stacks", &d.stacks, d.mean_stacks()),
            ("cards", &d.cards, d.mean_cards()),
        ] {
            out.push_str(&format!(
                "\n{what} left when the deck runs out (mean {:.4}):\n",
                mean.to_f64()
            ));
            let mut rows = vec![row![format!("{what} left"), "probability"]];
            for (i, f) in dist.iter().enumerate() {
                rows.push(row![i, decimal(f.to_f64())]);
            }
            out.push_str(&table(&rows));
        }
    }
    if let Some(run) = &r.simulation {
        let s = &run.sim;
        let off = match z_score(s, x) {
            Some(z) => format!("{z:+.2} standard errors from the exact answer"),
            None => "the standard error is 0 and the exact answer differs".to_string(),
        };
        out.push_str(&format!(
            "\nsimulated {} real games (seed {}): {} won, rate {} ± {} (standard error), {off}\n",
            thousands(s.games),
            run.seed,
            thousands(s.wins),
            decimal(s.rate),
            decimal(s.stderr),
        ));
    }
    out
}

fn fraction_json(what: &str, i: usize, f: &Fraction) -> Value {
    json!({ what: i, "fraction": f.to_string(), "probability": f.to_f64() })
}

fn to_json(r: &Report) -> Value {
    let p = &r.params;
    let mut v = json!({
        "suits": p.suits,
        "values": p.values,
        "board": p.board,
        "pick": p.pick,
        "deck": p.deck(),
        "real_game": p.is_real_game(),
        "fraction": r.win.to_string(),
        "probability": r.win.to_f64(),
    });
    if let Some(ts) = &r.types {
        v["types_total"] = ts.len().into();
        v["types"] = ts
            .iter()
            .map(|t| {
                json!({
                    "parts": t.parts,
                    "fraction": t.probability.to_string(),
                    "probability": t.probability.to_f64(),
                    "win_fraction": t.win.to_string(),
                    "win": t.win.to_f64(),
                })
            })
            .collect();
    }
    if let Some(d) = &r.distribution {
        let list = |dist: &[Fraction]| -> Value {
            dist.iter()
                .enumerate()
                .map(|(i, f)| fraction_json("left", i, f))
                .collect()
        };
        let (ms, mc) = (d.mean_stacks(), d.mean_cards());
        v["distribution"] = json!({
            "stacks": list(&d.stacks),
            "cards": list(&d.cards),
            "mean_stacks": ms.to_f64(),
            "mean_stacks_fraction": ms.to_string(),
            "mean_cards": mc.to_f64(),
            "mean_cards_fraction": mc.to_string(),
        });
    }
    if let Some(run) = &r.simulation {
        let s = &run.sim;
        v["simulated"] = s.rate.into();
        v["stderr"] = s.stderr.into();
        v["games"] = s.games.into();
        v["wins"] = s.wins.into();
        v["seed"] = run.seed.into();
        v["z"] = z_score(s, r.win.to_f64()).map_or(Value::Null, Value::from);
        v["timing"] = json!({
            "seconds": run.seconds,
            "games_per_second": if run.seconds > 0.0 { s.games as f64 / run.seconds } else { 0.0 },
            "threads": run.threads,
        });
    }
    v
}

/// Largest deck the online table's calculator takes (`suits × values`): four French decks.
/// The command line goes up to the library's limit; anyone may ask the server, so its
/// questions stay small.
pub const WEB_MAX_DECK: u32 = 208;

/// Most word operations one question to the online table may take: the estimate of
/// [`Params::work`] times the passes of the answer (the fraction, the types and the
/// distribution). About a second of one core at most: 4 × 52 cards with 40 on the table
/// and 40 picked, 5.2 × 10⁸ by the estimate, take 0.5 s; 42 and 42, 6.6 × 10⁸, 0.95 s.
pub const WEB_MAX_WORK: u64 = 600_000_000;

/// Most table types one answer of the online table lists: the most probable ones, in
/// the usual order; `types_total` says how many there are.
pub const WEB_MAX_TYPES: usize = 200;

/// Most bytes of one answer of the online table's calculator.
pub const WEB_MAX_ANSWER: usize = 256 * 1024;

/// The parameters the online table's calculator takes.
const WEB_KEYS: [&str; 4] = ["suits", "values", "board", "pick"];

/// Prisoner's solitaire on the online table, `GET /api/odds/solitaire?suits=4&values=13&
/// board=13&pick=13` (each optional, `pick` defaulting to the real game's): the JSON of
/// `tapete odds solitaire --types --distribution --json`, within [`WEB_MAX_DECK`] and
/// [`WEB_MAX_WORK`].
pub struct SolitaireOdds;

impl OddsTool for SolitaireOdds {
    fn name(&self) -> &'static str {
        "solitaire"
    }

    /// The odds page, `/solitaire`, and its words (`crates/solitaire-odds/web`).
    fn web(&self) -> tapete_host::WebFace {
        tapete_host::WebFace {
            files: tapete_solitaire_odds::web::FILES,
            catalogs: tapete_solitaire_odds::web::CATALOGS,
        }
    }

    fn answer(&self, query: &Value) -> Result<Value, String> {
        let params = web_params(query)?;
        let e = |e: OddsError| e.to_string();
        let mut all_types = types(&params).map_err(e)?;
        let total = all_types.len();
        if total > WEB_MAX_TYPES {
            all_types.sort_by(|a, b| b.probability.cmp(&a.probability));
            all_types.truncate(WEB_MAX_TYPES);
            all_types.sort_by(|a, b| b.parts.cmp(&a.parts));
        }
        let r = Report {
            params,
            win: win_probability(&params).map_err(e)?,
            types: Some(all_types),
            distribution: Some(distribution(&params).map_err(e)?),
            simulation: None,
        };
        let mut v = to_json(&r);
        v["types_total"] = total.into();
        let bytes = v.to_string().len();
        if bytes > WEB_MAX_ANSWER {
            return Err(format!(
                "the answer would be {bytes} bytes (at most {WEB_MAX_ANSWER}): use fewer suits \
                 or a smaller table, or `tapete odds solitaire`"
            ));
        }
        Ok(v)
    }
}

/// The online table's parameters, checked: known names, whole numbers, a deck within
/// [`WEB_MAX_DECK`], a possible game, and work within [`WEB_MAX_WORK`].
fn web_params(query: &Value) -> Result<Params, String> {
    let empty = serde_json::Map::new();
    let q = query.as_object().unwrap_or(&empty);
    if let Some(k) = q.keys().find(|k| !WEB_KEYS.contains(&k.as_str())) {
        return Err(format!(
            "unknown parameter `{k}`: the parameters are {}",
            WEB_KEYS.join(", ")
        ));
    }
    let number = |key: &str| -> Result<Option<u32>, String> {
        let Some(v) = q.get(key) else {
            return Ok(None);
        };
        let text = v.as_str().unwrap_or_default().trim();
        if text.is_empty() {
            return Err(format!("{key} is empty: give a whole number"));
        }
        let short: String = text.chars().take(20).collect();
        let long = if short.len() < text.len() { "…" } else { "" };
        if !text.chars().all(|c| c.is_ascii_digit()) {
            return Err(format!(
                "{key}: `{short}{long}` is not a whole number (0, 1, 2…)"
            ));
        }
        text.parse()
            .map(Some)
            .map_err(|_| format!("{key}: {short}{long} is far too large"))
    };
    let d = Params::default();
    let mut p = Params {
        suits: number("suits")?.unwrap_or(d.suits),
        values: number("values")?.unwrap_or(d.values),
        board: number("board")?.unwrap_or(d.board),
        pick: 0,
    };
    let deck = u64::from(p.suits) * u64::from(p.values);
    if deck > u64::from(WEB_MAX_DECK) {
        return Err(format!(
            "{} suits × {} values is {deck} cards: this calculator takes decks of at most \
             {WEB_MAX_DECK} cards (`tapete odds solitaire` takes larger ones)",
            p.suits, p.values
        ));
    }
    p.pick = match number("pick")? {
        Some(pick) => pick,
        None => p.real_pick(),
    };
    p.validate().map_err(|e| e.to_string())?;
    let passes = 4 * (u64::from(p.board) + 1) + 2;
    let work = p.work().saturating_mul(passes);
    if work > WEB_MAX_WORK {
        return Err(format!(
            "{} suits × {} values with {} on the table and {} picked is too much work for \
             this calculator (about {work} operations, at most {WEB_MAX_WORK}): use fewer \
             suits or a smaller table, or `tapete odds solitaire`",
            p.suits, p.values, p.board, p.pick
        ));
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_keep_six_significant_digits() {
        assert_eq!(decimal(0.0), "0");
        assert_eq!(decimal(1.0), "1");
        assert_eq!(decimal(0.003_678_405_848_532_853), "0.00367841");
        assert_eq!(decimal(0.5), "0.500000");
        assert_eq!(decimal(0.25), "0.250000");
        assert_eq!(decimal(1.5e-9), "1.50000e-9");
    }

    fn query(pairs: &[(&str, &str)]) -> Value {
        Value::Object(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), Value::String(v.to_string())))
                .collect(),
        )
    }

    #[test]
    fn the_online_tables_questions_default_to_the_classic_game_and_the_real_pick() {
        assert_eq!(web_params(&query(&[])), Ok(Params::default()));
        let p = web_params(&query(&[("board", "10")])).unwrap();
        assert_eq!((p.board, p.pick), (10, 14));
        let p = web_params(&query(&[
            ("suits", " 2 "),
            ("values", "104"),
            ("pick", "3"),
        ]))
        .unwrap();
        assert_eq!(
            p,
            Params {
                suits: 2,
                values: 104,
                board: 13,
                pick: 3
            }
        );
        let answer = SolitaireOdds.answer(&query(&[])).unwrap();
        assert_eq!(answer["fraction"], "964444044208/262190765217675");
        assert_eq!(answer["types"].as_array().map(Vec::len), Some(39));
    }

    #[test]
    fn the_online_tables_questions_are_bounded() {
        let refused = |pairs: &[(&str, &str)]| web_params(&query(pairs)).unwrap_err();
        let e = refused(&[("suits", "5"), ("values", "42")]);
        assert!(e.contains("210 cards") && e.contains("at most 208"), "{e}");
        let e = refused(&[("suits", "4294967295"), ("values", "4294967295")]);
        assert!(e.contains("at most 208"), "{e}");
        // The largest deck is answered with a small table, refused with a large one.
        assert!(web_params(&query(&[("values", "52"), ("board", "40"), ("pick", "40")])).is_ok());
        let e = refused(&[("values", "52"), ("board", "42"), ("pick", "42")]);
        assert!(
            e.contains("too much work") && e.contains("at most 600000000"),
            "{e}"
        );
        let e = refused(&[("suits", "4294967296")]);
        assert!(e.contains("far too large"), "{e}");
        let e = refused(&[("board", "")]);
        assert!(e.contains("board is empty"), "{e}");
        let e = refused(&[("pick", "+3")]);
        assert!(e.contains("not a whole number"), "{e}");
        let e = refused(&[("suit", "4")]);
        assert!(e.contains("unknown parameter `suit`"), "{e}");
        let e = refused(&[("board", "53")]);
        assert!(e.contains("53"), "{e}");
    }

    #[test]
    fn the_online_tables_answers_are_bounded_in_bytes() {
        // Nothing picked on a large table: little work, but thousands of table types.
        let q = query(&[
            ("suits", "5"),
            ("values", "34"),
            ("board", "96"),
            ("pick", "0"),
        ]);
        let answer = SolitaireOdds.answer(&q).unwrap();
        let listed = answer["types"].as_array().map_or(0, Vec::len);
        let total = answer["types_total"].as_u64().unwrap_or(0);
        assert_eq!(listed, WEB_MAX_TYPES);
        assert!(total > WEB_MAX_TYPES as u64, "{total}");
        assert!(answer.to_string().len() <= WEB_MAX_ANSWER);
        // The most probable types are the ones kept.
        let all = types(&web_params(&q).unwrap()).unwrap();
        let mut p: Vec<f64> = all.iter().map(|t| t.probability.to_f64()).collect();
        p.sort_by(|a, b| b.total_cmp(a));
        let least_kept = answer["types"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|t| t["probability"].as_f64())
            .fold(f64::INFINITY, f64::min);
        assert_eq!(least_kept, p[WEB_MAX_TYPES - 1]);
        // A small question lists every type.
        let answer = SolitaireOdds.answer(&query(&[])).unwrap();
        assert_eq!(answer["types_total"], 39);
    }

    #[test]
    fn types_are_written_largest_first() {
        assert_eq!(parts_text(&[4, 4, 4, 1]), "4 4 4 1");
        assert_eq!(parts_text(&[]), "(empty table)");
    }
}
