//! `tapete arena mus`: two bots, many games of one juego, seats swapped every game; who
//! is stronger, with a confidence interval, and how the lances went.

use crate::args::{parse_level, parse_seed, parse_threads, parse_timeout, TableArgs};
use crate::error::{CliError, CliResult};
use crate::row;
use crate::sim::{
    incidents_json, incidents_text, lance_index, lance_table, pct, ratio, run_mus, timing_json,
    timing_text, MusStats, RunSpec,
};
use crate::text::{emit, percent, table};
use clap::{Args, Subcommand};
use serde_json::json;
use std::time::Duration;
use tapete_mus::{Lance, MusRules};
use tapete_table::arena::ArenaReport;

/// Games that have an arena.
#[derive(Subcommand, Debug)]
pub enum ArenaGame {
    /// Pit two Mus bots against each other: pair A against pair B.
    Mus(ArenaArgs),
}

/// Arguments of `tapete arena mus`.
#[derive(Args, Debug)]
#[command(
    after_help = "Each game is one juego to the target. In even games A sits at \
seats 0 and 2 (seat 0 is the first mano), in odd games at 1 and 3. Game i uses seed S+i, so \
results do not depend on --threads.\n\nExamples:\n  tapete arena mus --a basico --b random \
--games 2000\n  tapete arena mus --a \"cmd:python3 examples/python/mus_bot.py\" --b basico --games 100"
)]
pub struct ArenaArgs {
    /// Bot of pair A: a level (random, basico, avanzado, experto, maestro:ms=N) or
    /// cmd:COMMAND for a program speaking the bot protocol.
    #[arg(long, value_name = "LEVEL", value_parser = parse_level)]
    pub a: String,
    /// Bot of pair B (same choices as --a).
    #[arg(long, value_name = "LEVEL", value_parser = parse_level)]
    pub b: String,
    /// How many games to play.
    #[arg(long, value_name = "N")]
    pub games: u64,
    /// Seed of the first game.
    #[arg(long, value_name = "S", default_value = "0", value_parser = parse_seed)]
    pub seed: u64,
    /// Worker threads, 1 to 256 (default: one per CPU).
    #[arg(long, value_name = "T", value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Longest wait for one answer of a cmd: bot, in seconds.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_timeout)]
    pub bot_timeout: Duration,
    #[command(flatten)]
    pub table: TableArgs,
}

/// Runs `tapete arena mus`.
pub fn run(a: &ArenaArgs, json: bool) -> CliResult {
    let rules = a.table.rules(1, 1);
    let bots = [a.a.clone(), a.b.clone()];
    // A Ctrl-C or `kill` must not leave cmd: bots (in process groups of their own) running.
    tapete_table::arena::stop_programs_on_signals()
        .map_err(|e| CliError::run(format!("cannot set up the signal handlers: {e}")))?;
    let report = run_mus(&RunSpec {
        rules: &rules,
        bots: &bots,
        bot_timeout: a.bot_timeout,
        games: a.games,
        seed: a.seed,
        threads: a.threads,
        alternate: true,
        json,
    })?;
    if json {
        emit(&format!("{}\n", to_json(a, &rules, &report)))
    } else {
        emit(&to_text(a, &rules, &report))
    }
}

/// `{"a": x, "b": y}`.
fn ab<T: serde::Serialize>(pair: [T; 2]) -> serde_json::Value {
    let [a, b] = pair;
    json!({ "a": a, "b": b })
}

fn to_json(a: &ArenaArgs, rules: &MusRules, r: &ArenaReport<MusStats>) -> serde_json::Value {
    let t = &r.stats;
    let (low, high) = r.ci95();
    let lances: serde_json::Map<String, serde_json::Value> = Lance::ALL
        .iter()
        .map(|&l| {
            let s = &t.lances[lance_index(l)];
            let v = json!({
                "settled": s.settled,
                "bet": s.bet,
                "opened": ab(s.opened),
                "accepted": s.accepted,
                "ordago": s.ordago,
                "ordago_won": ab(s.ordago_won),
                "declined": s.declined,
                "en_paso": s.en_paso,
                "unbet": s.unbet,
                "void": s.void,
            });
            (l.name().to_string(), v)
        })
        .collect();
    json!({
        "games": r.games,
        "seed": a.seed,
        "bots": { "a": a.a, "b": a.b },
        "rules": rules,
        "a_wins": r.wins[0],
        "b_wins": r.wins[1],
        "a_win_rate": r.a_win_rate(),
        "ci95": [low, high],
        "a_first": r.first[0],
        "hands": t.hands,
        "hands_per_game": ratio(t.hands, t.games),
        "actions": t.actions,
        "piedras": ab(t.piedras),
        "piedras_per_hand": ab(t.piedras.map(|p| ratio(p, t.hands))),
        "ordago_wins": ab(t.ordago_wins),
        "lances": lances,
        "incidents": incidents_json(&r.incidents),
        "timing": timing_json(r),
    })
}

fn to_text(a: &ArenaArgs, rules: &MusRules, r: &ArenaReport<MusStats>) -> String {
    let t = &r.stats;
    let (low, high) = r.ci95();
    let mut out = format!(
        "{} games of one juego to {} from seed {}: A ({}) against B ({}), seats swapped every game\n\n",
        r.games, rules.target, a.seed, a.a, a.b
    );
    let rows = vec![
        row![
            "side",
            "bot",
            "games won",
            "share",
            "piedras per hand",
            "won by órdago"
        ],
        row![
            "A",
            a.a,
            r.wins[0],
            pct(r.wins[0], r.games),
            format!("{:.2}", ratio(t.piedras[0], t.hands)),
            t.ordago_wins[0]
        ],
        row![
            "B",
            a.b,
            r.wins[1],
            pct(r.wins[1], r.games),
            format!("{:.2}", ratio(t.piedras[1], t.hands)),
            t.ordago_wins[1]
        ],
    ];
    out.push_str(&table(&rows));
    out.push_str(&format!(
        "\nA's win rate: {} (95% confidence interval {} – {}, Wilson)\n",
        percent(r.a_win_rate()),
        percent(low),
        percent(high)
    ));
    out.push_str(&format!(
        "hands per game: {:.2}; actions per game: {:.1}\n\n",
        ratio(t.hands, t.games),
        ratio(t.actions, t.games)
    ));
    out.push_str(&lance_table(t, ["A".into(), "B".into()]));
    out.push('\n');
    out.push_str(&incidents_text(&r.incidents, true));
    out.push_str(&timing_text(r));
    out
}
