//! Duplicate Mus: every table of a round plays the same boards, each pair scored in
//! matchpoints against the pairs that held the same cards (`tapete_tournament::duplicate`).
//!
//! A **board** is the first hand of a fresh juego to the table's target, from 0–0, dealt
//! from the board's seed: the same four hands in the same seats, the same mano (seat 0) at
//! every table. Its result is the first side's net piedras when the hand ends: won less
//! conceded; a juego won in the hand (reaching the target, or an órdago) counts the target
//! to its winner against what the losers had. The rounds are paired as a Swiss (the pair
//! whose boards netted more wins its table), the first side shared out; every board of a
//! round is played at every table.

use super::{entrant_name, match_seed};
use crate::error::{CliError, CliResult};
use crate::text::{emit, progress_bar, table};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde_json::json;
use std::collections::HashSet;
use tapete_host::row;
use tapete_mus::{Event as MusEvent, MusGame, MusRules};
use tapete_table::{Bot, Game};
use tapete_tournament::duplicate::{self, TableResult};
use tapete_tournament::event::{Event, MatchResult as EventResult};
use tapete_tournament::swiss::{self, Options};
use tapete_tournament::Side;

/// The most actions one board may take: far more than any hand needs.
const BOARD_ACTIONS: usize = 2_000;

/// What a duplicate event's tables need: the rules, the entrants' levels, the boards a
/// round, the seed.
pub struct DuplicateEvent<'a> {
    pub rules: MusRules,
    pub names: &'a [String],
    pub boards: u32,
    pub seed: u64,
}

/// Plays one board: `first`'s level at seats 0 and 2, `second`'s at 1 and 3. Answers the
/// first side's net piedras.
pub fn play_board(
    rules: &MusRules,
    seed: u64,
    table: u64,
    first: &str,
    second: &str,
) -> Result<i64, String> {
    let mut g = MusGame::new(rules, 4, seed).map_err(|e| e.to_string())?;
    let mut bots: Vec<Box<dyn Bot<MusGame>>> = (0..4)
        .map(|s| tapete_mus_bots::by_name(if s % 2 == 0 { first } else { second }))
        .collect::<Result<_, _>>()?;
    for (seat, bot) in bots.iter_mut().enumerate() {
        bot.start(seat, 4, rules);
    }
    // The cards are the board's; the players' own chances are the table's, so that two
    // tables of the same levels do not play as one.
    let mut rng = ChaCha8Rng::seed_from_u64(match_seed(seed, 0, table as usize));
    for _ in 0..BOARD_ACTIONS {
        let Some(&seat) = g.to_act().seats().first() else {
            break;
        };
        let legal = g.legal_actions(seat);
        if legal.is_empty() {
            return Err(format!(
                "seat {seat} was asked to act but has no legal action"
            ));
        }
        let view = g.view(seat);
        let action = bots[seat].act(&view, &legal, &mut rng);
        let events = g
            .apply(seat, &action)
            .map_err(|e| format!("seat {seat} chose `{action}`, refused: {e}"))?;
        for e in &events {
            match e {
                MusEvent::GameWon { pair, piedras, .. } => {
                    let target = i64::from(rules.target);
                    let net = target - i64::from(piedras[1 - pair]);
                    return Ok(if *pair == 0 { net } else { -net });
                }
                MusEvent::HandStarted { hand, .. } if *hand > 1 => {
                    let p = g.view(0).scores.piedras;
                    return Ok(i64::from(p[0]) - i64::from(p[1]));
                }
                _ => {}
            }
        }
    }
    Err(format!("a board of seed {seed} did not end its hand"))
}

/// Plays a whole duplicate event and prints it: `event` pairs each round from the tables'
/// results (the pair whose boards netted more wins its table), every table plays the
/// round's boards.
pub fn run(
    ev: &DuplicateEvent<'_>,
    event: &Event,
    pool: &rayon::ThreadPool,
    json: bool,
) -> CliResult {
    let n = ev.names.len();
    let mut tables_done: Vec<EventResult> = Vec::new();
    let mut results: Vec<TableResult> = Vec::new();
    let mut met = HashSet::new();
    let mut rounds_json = Vec::new();
    let mut text = String::new();
    let bar = progress_bar(0, "tables", json);
    loop {
        let next = event
            .next(&tables_done)
            .map_err(|e| CliError::run(e.to_string()))?;
        if next.over {
            break;
        }
        let round = next.round;
        bar.inc_length(next.pending.len() as u64);
        let seeds: Vec<u64> = (0..ev.boards as usize)
            .map(|b| match_seed(ev.seed, round, b))
            .collect();
        let tables: Vec<Vec<i64>> = pool
            .install(|| {
                next.pending
                    .par_iter()
                    .map(|p| {
                        let table = (p.first * n + p.second) as u64;
                        seeds
                            .iter()
                            .map(|&s| {
                                play_board(
                                    &ev.rules,
                                    s,
                                    table,
                                    &ev.names[p.first],
                                    &ev.names[p.second],
                                )
                            })
                            .collect::<Result<Vec<i64>, String>>()
                    })
                    .collect::<Result<Vec<_>, String>>()
            })
            .map_err(CliError::run)?;
        let mut rows = vec![row!["table", "first", "second", "boards", "net"]];
        let mut tables_json = Vec::new();
        let mut repeats = 0;
        for (t, (p, nets)) in next.pending.iter().zip(&tables).enumerate() {
            let (first, second) = (p.first, p.second);
            if !met.insert((first.min(second), first.max(second))) {
                repeats += 1;
            }
            for (&deals, &net) in seeds.iter().zip(nets) {
                results.push(TableResult {
                    round,
                    deals,
                    first,
                    second,
                    first_net: net,
                });
            }
            let total: i64 = nets.iter().sum();
            let winner = match total.signum() {
                1 => Some(Side::First),
                -1 => Some(Side::Second),
                _ => None,
            };
            tables_done.push(EventResult {
                key: p.key,
                first,
                second,
                winner,
                first_points: total.max(0),
                second_points: (-total).max(0),
            });
            let boards: Vec<String> = nets.iter().map(|x| format!("{x:+}")).collect();
            rows.push(row![
                t + 1,
                entrant_name(ev.names, first),
                entrant_name(ev.names, second),
                boards.join(" "),
                format!("{total:+}"),
            ]);
            tables_json.push(json!({"table": t + 1, "first": first, "second": second, "boards": nets, "net": total}));
            bar.inc(1);
        }
        if let Some(b) = next.bye {
            rows.push(row!["bye", entrant_name(ev.names, b), "", "", ""]);
        }
        text.push_str(&format!("Round {round}\n{}\n", table(&rows)));
        rounds_json.push(
            json!({"round": round, "tables": tables_json, "bye": next.bye, "repeats": repeats}),
        );
    }
    bar.finish_and_clear();
    let st = duplicate::standings(n, &results);
    // The same tables scored the plain way, by the matches won.
    let (h, _) = event
        .history(&tables_done)
        .map_err(|e| CliError::run(e.to_string()))?;
    let plain =
        swiss::standings(n, &h, &Options::default()).map_err(|e| CliError::run(e.to_string()))?;
    if json {
        let v = json!({
            "game": "mus",
            "format": "duplicate",
            "seed": ev.seed,
            "boards": ev.boards,
            "entrants": ev.names,
            "rounds": rounds_json,
            "standings": st,
            "plain_standings": plain,
        });
        return emit(&format!("{v}\n"));
    }
    let mut out = format!(
        "Mus tournament (duplicate, {} boards a round), {n} entrants, seed {}\n\n{text}",
        ev.boards, ev.seed
    );
    let mut rows = vec![row!["place", "entrant", "matchpoints", "%", "net"]];
    for s in &st {
        rows.push(row![
            s.place,
            entrant_name(ev.names, s.entrant),
            format!("{}/{}", s.matchpoints, s.max),
            format!("{:.1}", s.percent),
            format!("{:+}", s.net),
        ]);
    }
    out.push_str("Standings\n");
    out.push_str(&table(&rows));
    emit(&out)
}
