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
use tapete_mus::{Event, MusGame, MusRules};
use tapete_table::{Bot, Game};
use tapete_tournament::duplicate::{self, TableResult};
use tapete_tournament::swiss::{self, History, Options};
use tapete_tournament::{Played, Side};

/// The most actions one board may take: far more than any hand needs.
const BOARD_ACTIONS: usize = 2_000;

/// What a duplicate event needs besides its entrants.
pub struct DuplicateEvent<'a> {
    pub rules: MusRules,
    pub names: &'a [String],
    pub rounds: u32,
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
                Event::GameWon { pair, piedras, .. } => {
                    let target = i64::from(rules.target);
                    let net = target - i64::from(piedras[1 - pair]);
                    return Ok(if *pair == 0 { net } else { -net });
                }
                Event::HandStarted { hand, .. } if *hand > 1 => {
                    let p = g.view(0).scores.piedras;
                    return Ok(i64::from(p[0]) - i64::from(p[1]));
                }
                _ => {}
            }
        }
    }
    Err(format!("a board of seed {seed} did not end its hand"))
}

/// Plays a whole duplicate event and prints it.
pub fn run(ev: &DuplicateEvent<'_>, pool: &rayon::ThreadPool, json: bool) -> CliResult {
    let n = ev.names.len();
    let mut h = History::default();
    let mut results: Vec<TableResult> = Vec::new();
    let mut rounds_json = Vec::new();
    let mut text = String::new();
    let bar = progress_bar(u64::from(ev.rounds), "rounds", json);
    for _ in 0..ev.rounds {
        let round =
            swiss::pair(n, &h, &Options::default()).map_err(|e| CliError::run(e.to_string()))?;
        let seeds: Vec<u64> = (0..ev.boards as usize)
            .map(|b| match_seed(ev.seed, round.round, b))
            .collect();
        let tables: Vec<Vec<i64>> = pool
            .install(|| {
                round
                    .pairs
                    .par_iter()
                    .map(|&(first, second)| {
                        seeds
                            .iter()
                            .map(|&s| {
                                let table = (first * n + second) as u64;
                                play_board(&ev.rules, s, table, &ev.names[first], &ev.names[second])
                            })
                            .collect::<Result<Vec<i64>, String>>()
                    })
                    .collect::<Result<Vec<_>, String>>()
            })
            .map_err(CliError::run)?;
        let mut rows = vec![vec![
            "table".to_string(),
            "first".into(),
            "second".into(),
            "boards".into(),
            "net".into(),
        ]];
        let mut tables_json = Vec::new();
        for (t, (&(first, second), nets)) in round.pairs.iter().zip(&tables).enumerate() {
            for (&deals, &net) in seeds.iter().zip(nets) {
                results.push(TableResult {
                    round: round.round,
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
            h.played.push(Played::new(
                round.round,
                first,
                second,
                winner,
                total.max(0),
                (-total).max(0),
            ));
            rows.push(vec![
                (t + 1).to_string(),
                entrant_name(ev.names, first),
                entrant_name(ev.names, second),
                nets.iter()
                    .map(|x| format!("{x:+}"))
                    .collect::<Vec<_>>()
                    .join(" "),
                format!("{total:+}"),
            ]);
            tables_json.push(json!({"table": t + 1, "first": first, "second": second, "boards": nets, "net": total}));
        }
        if let Some(b) = round.bye {
            h.byes.push((round.round, b));
            rows.push(vec![
                "bye".into(),
                entrant_name(ev.names, b),
                String::new(),
                String::new(),
                String::new(),
            ]);
        }
        text.push_str(&format!("Round {}\n{}\n", round.round, table(&rows)));
        rounds_json.push(json!({"round": round.round, "tables": tables_json, "bye": round.bye, "repeats": round.repeats}));
        bar.inc(1);
    }
    bar.finish_and_clear();
    let st = duplicate::standings(n, &results);
    // The same tables scored the plain way, by the matches won.
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
    let mut rows = vec![vec![
        "place".to_string(),
        "entrant".into(),
        "matchpoints".into(),
        "%".into(),
        "net".into(),
    ]];
    for s in &st {
        rows.push(vec![
            s.place.to_string(),
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
