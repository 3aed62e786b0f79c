//! `tapete tournament GAME`: a whole tournament of bots, headless, through the same pairing
//! and scoring code as the online table (`tapete-tournament`).
//!
//! Each entrant is a bot level (in Mus a pair of that level); the list's order is the seed
//! order. Every match is one game with the table options given: in partnership games the
//! first side sits at seats 0 and 2 (seat 0 is mano in the first hand), the second at 1
//! and 3; other games are played heads-up, the first side at seat 0. A match's seed comes
//! from the tournament's seed, its round and its board, so results do not depend on
//! `--threads`.

mod duplicate;

use crate::args::{parse_seed, parse_threads};
use crate::error::{CliError, CliResult};
use crate::games::{self, GameArgs};
use crate::text::{emit, progress_bar, table};
use clap::{Args, ValueEnum};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tapete_host::{row, Host, Visitor};
use tapete_table::{play_out, Game, Record};

use tapete_tournament::bracket::{MatchId, Part};
use tapete_tournament::event::{Event, Format, MatchKey, MatchResult as EventResult, Pairing};
use tapete_tournament::swiss::{self, Options};
use tapete_tournament::{tres_ceros, Side, TournamentError, MAX_ENTRANTS};

/// A tournament's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Every round, each entrant meets one of about its score it has not met.
    Swiss,
    /// Everybody plays every round, paired by losses, until three lost matches put them
    /// out.
    TresCeros,
    /// A knockout bracket; with --consolation, Cuadro B for Cuadro A's first-round losers.
    Knockout,
    /// Double elimination: out after two losses (a losers' bracket, a grand final and,
    /// if the losers' champion wins it, a second final).
    Double,
    /// Duplicate Mus: every table of a round plays the same boards; pairs scored in
    /// matchpoints against those that held the same cards.
    Duplicate,
    /// Groups playing all-play-all (--group-size, --advance), then a knockout of the best
    /// of each group.
    Groups,
}

/// What `tapete tournament GAME` takes besides the table options.
#[derive(Args, Debug)]
#[command(
    after_help = "Entrants: bot levels, top seed first, LEVEL*K for K entrants of one \
level (in Mus each entrant is a pair of that level).\n\nExamples:\n  tapete tournament mus \
--format swiss --entrants experto*32,basico*32 --rounds 7\n  tapete tournament chinchon \
--format tres-ceros --entrants experto*4,basico*4 --target 50\n  tapete tournament tikki \
--format groups --group-size 4 --advance 2 --entrants experto*6,basico*6"
)]
pub struct TournamentArgs {
    /// The format.
    #[arg(long, value_enum, default_value = "swiss")]
    pub format: FormatArg,
    /// The entrants, top seed first: bot levels, LEVEL*K for K alike.
    #[arg(long, value_name = "LIST")]
    pub entrants: String,
    /// Swiss and duplicate: the rounds to play, 1 to the entrants less one (default: enough for one
    /// unbeaten winner, ⌈log2 entrants⌉).
    #[arg(long, value_name = "N")]
    pub rounds: Option<u32>,
    /// Duplicate: boards each round, every table the same (1 to 32).
    #[arg(long, value_name = "B", default_value = "4", value_parser = clap::value_parser!(u32).range(1..=32))]
    pub boards: u32,
    /// Knockout: Cuadro B, a second bracket for the losers of Cuadro A's first round.
    #[arg(long)]
    pub consolation: bool,
    /// Groups: the most entrants in a group, 3 to 8 (default 4; a field too small for
    /// groups of three within it plays fewer, larger groups).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(3..=8))]
    pub group_size: Option<u32>,
    /// Groups: how many go on from each group to the knockout, 1 to one fewer than the
    /// smallest group (default 2).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=7))]
    pub advance: Option<u32>,
    /// The seed of every match (each match's own comes from it, its round and board).
    #[arg(long, value_name = "S", default_value = "1", value_parser = parse_seed)]
    pub seed: u64,
    /// Worker threads, 1 to 256 (default: one per CPU): a round's matches are played at
    /// once.
    #[arg(long, value_name = "T", value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Most actions in one match: a match still going then is stopped and counted a draw
    /// (in a bracket it is played again with other deals).
    #[arg(long, value_name = "N", default_value = "20000", value_parser = crate::sim::parse_max_actions)]
    pub max_actions: usize,
}

/// Reads `experto*3,basico` as [experto, experto, experto, basico].
fn expand(list: &str) -> CliResult<Vec<String>> {
    let mut out = Vec::new();
    for part in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (level, count) = match part.rsplit_once('*') {
            Some((l, k)) => {
                let k: usize = k.trim().parse().map_err(|_| {
                    CliError::usage(format!(
                        "--entrants: `{part}`: write LEVEL*K with K a whole number, e.g. experto*8"
                    ))
                })?;
                (l.trim(), k)
            }
            None => (part, 1),
        };
        if count == 0 || out.len() + count > MAX_ENTRANTS {
            return Err(CliError::usage(format!(
                "--entrants: 2 to {} entrants in all (`{part}`)",
                MAX_ENTRANTS
            )));
        }
        out.extend(std::iter::repeat_n(level.to_string(), count));
    }
    if out.len() < 2 {
        return Err(CliError::usage(
            "--entrants: a tournament needs at least 2 entrants, e.g. experto,basico",
        ));
    }
    Ok(out)
}

/// Runs `tapete tournament GAME …`.
pub fn run(a: &GameArgs, json: bool) -> CliResult {
    tapete_catalog::visit(
        &a.game,
        Tourney {
            rest: &a.rest,
            json,
        },
    )
    .map_err(|e| CliError::usage(e.to_string()))?
}

struct Tourney<'a> {
    rest: &'a [String],
    json: bool,
}

/// One match to play: its board in the round, the entrants (first, second).
struct Board {
    board: usize,
    first: usize,
    second: usize,
}

/// How a match went.
struct MatchOutcome {
    winner: Option<Side>,
    points: (i64, i64),
    unfinished: bool,
    /// A match of duplicate boards: the first side's net on each board.
    boards: Vec<i64>,
}

/// A match's seed: the tournament's, mixed with its round and board.
fn match_seed(seed: u64, round: u32, board: usize) -> u64 {
    let mut x =
        seed ^ (u64::from(round) << 32) ^ (board as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

impl Visitor for Tourney<'_> {
    type Output = CliResult;
    fn visit<H: Host>(self) -> CliResult {
        let Some(p) = games::parse::<TournamentArgs, H>(
            "tournament",
            &format!("Play a whole {} tournament of bots", H::TITLE),
            self.rest,
            self.json,
        )?
        else {
            return Ok(());
        };
        let a = &p.args;
        let names = expand(&a.entrants)?;
        for n in &names {
            games::check_bot::<H>(n)?;
        }
        // Partnership games seat pairs at their usual table; the others play heads-up.
        let seats = if H::PARTNERS { H::DEFAULT_SEATS } else { 2 };
        let seats = games::seats::<H>(Some(seats))?;
        let rules = games::rules::<H>(H::arena_rules(), &p.given, seats)?;
        let n = names.len();
        // Swiss and duplicate: by default enough rounds for one unbeaten winner at most.
        let rounds = a
            .rounds
            .unwrap_or_else(|| (n as f64).log2().ceil().max(1.0) as u32);
        let format =
            match (a.format, a.rounds) {
                (FormatArg::TresCeros, Some(_)) => {
                    return Err(CliError::usage(
                        "--rounds: a tres ceros goes on until one entrant is left",
                    ))
                }
                (FormatArg::Knockout | FormatArg::Double, Some(_)) => {
                    return Err(CliError::usage(
                        "--rounds: a bracket goes on until its final is played",
                    ))
                }
                (FormatArg::Groups, Some(_)) => return Err(CliError::usage(
                    "--rounds: groups play all-play-all, then a knockout (--group-size, --advance)",
                )),
                (FormatArg::Groups, None) => Format::Groups {
                    size: a.group_size.unwrap_or(4),
                    advance: a.advance.unwrap_or(2),
                },
                (FormatArg::Swiss, _) => Format::Swiss { rounds },
                (FormatArg::Duplicate, _) => Format::Duplicate { rounds },
                (FormatArg::TresCeros, None) => Format::TresCeros,
                (FormatArg::Knockout, None) => Format::Knockout {
                    consolation: a.consolation,
                },
                (FormatArg::Double, None) => Format::Double,
            };
        if a.consolation && a.format != FormatArg::Knockout {
            return Err(CliError::usage(
                "--consolation: Cuadro B belongs to a knockout (--format knockout)",
            ));
        }
        if (a.group_size.is_some() || a.advance.is_some()) && a.format != FormatArg::Groups {
            return Err(CliError::usage(
                "--group-size, --advance: they belong to groups (--format groups)",
            ));
        }
        let event = Event::new(format, n).map_err(|e| {
            let option = match e {
                TournamentError::GroupSize { .. } => "--group-size",
                TournamentError::Advance { .. } | TournamentError::NoKnockout => "--advance",
                TournamentError::TooFew { .. } | TournamentError::TooMany { .. } => "--entrants",
                _ => "--rounds",
            };
            CliError::usage(format!("{option}: {e}"))
        })?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(a.threads.unwrap_or(0))
            .build()
            .map_err(|e| CliError::run(format!("cannot start the worker threads: {e}")))?;
        // Duplicate: the game's own duplicate tables, every table of a round given the
        // round's seed (the same boards); the players' chances stay each table's own.
        let duplicate = a.format == FormatArg::Duplicate;
        let rules = if duplicate {
            H::duplicate_rules(rules, a.boards)
                .map_err(|e| CliError::usage(format!("--format duplicate: {e}")))?
        } else {
            rules
        };
        let play = |round: u32, b: &Board| -> CliResult<MatchOutcome> {
            let own = match_seed(a.seed, round, b.board);
            let seed = if duplicate {
                match_seed(a.seed, round, 0)
            } else {
                own
            };
            let mut g = H::G::new(&rules, seats, seed)
                .map_err(|e| CliError::input(format!("the table options: {e}")))?;
            let mut rec = Record::new(rules.clone(), seats, seed);
            let first_at = |s: usize| {
                if H::PARTNERS {
                    s.is_multiple_of(2)
                } else {
                    s == 0
                }
            };
            let mut bots = (0..seats)
                .map(|s| {
                    let who = if first_at(s) { b.first } else { b.second };
                    games::make_bot::<H>(&names[who], Duration::from_secs(10))
                })
                .collect::<Result<Vec<_>, _>>()
                .map_err(CliError::usage)?;
            let mut rng = ChaCha8Rng::seed_from_u64(own);
            let finished = match play_out(
                &mut g,
                &mut bots,
                &mut rng,
                &mut rec,
                a.max_actions,
                |_, _, _, _| {},
            ) {
                Ok(()) => true,
                Err(tapete_table::PlayError::TooLong(_)) => false,
                Err(e) => {
                    return Err(CliError::run(format!(
                        "round {round}, board {}: {e}",
                        b.board + 1
                    )))
                }
            };
            let outcome = g.outcome();
            let score = |s: usize| {
                outcome
                    .as_ref()
                    .and_then(|o| o.scores.get(s).copied())
                    .unwrap_or(0)
            };
            let winner = outcome.as_ref().and_then(|o| {
                let first = o.winners.iter().any(|&s| first_at(s));
                let second = o.winners.iter().any(|&s| !first_at(s));
                match (first, second) {
                    (true, false) => Some(Side::First),
                    (false, true) => Some(Side::Second),
                    _ => None,
                }
            });
            // A match of boards: the first side's net on each, its margin the total.
            let boards: Vec<i64> = outcome
                .as_ref()
                .map(|o| {
                    o.boards
                        .iter()
                        .map(|b| b.first().copied().unwrap_or(0))
                        .collect()
                })
                .unwrap_or_default();
            let points = if boards.is_empty() {
                (score(0), score(1))
            } else {
                let net: i64 = boards.iter().sum();
                (net.max(0), (-net).max(0))
            };
            Ok(MatchOutcome {
                winner,
                points,
                unfinished: !finished,
                boards,
            })
        };

        let driven = drive(&event, &play, &pool, p.json)?;
        if duplicate {
            return duplicate::report::<H>(&event, &driven, &names, a, p.json);
        }
        if let Format::Groups { .. } = event.format {
            return groups_event::<H>(&event, &driven, &names, a, p.json);
        }
        if event.bracket().is_ok() {
            return bracket_event::<H>(&event, &driven, &names, a, p.json);
        }
        rounds_event::<H>(&event, &driven, &names, a, p.json)
    }
}

/// A match of an event as it was played: its pairing, how it went, how many times it was
/// played (an undecided bracket match is played again).
struct PlayedMatch {
    pairing: Pairing,
    result: MatchOutcome,
    tries: usize,
}

/// An event played to its end.
struct Driven {
    /// The results as the event reads them.
    results: Vec<EventResult>,
    played: Vec<PlayedMatch>,
    /// Each round's bye.
    byes: Vec<(u32, usize)>,
    /// How long each call for the next matches took (the whole event recomputed from its
    /// results, as a server does), in milliseconds.
    pairing_ms: Vec<f64>,
}

/// Plays `event` to its end: every match it has pending at once, then asks it again. An
/// undecided match of a bracket (a draw, or stopped unfinished) is played again with other
/// deals, up to [`REPLAYS`] times, before the first side goes on (a groups event's
/// knockout likewise; its group matches may be drawn).
fn drive(
    event: &Event,
    play: &(dyn Fn(u32, &Board) -> CliResult<MatchOutcome> + Sync),
    pool: &rayon::ThreadPool,
    json: bool,
) -> CliResult<Driven> {
    let bracket = event.bracket().ok();
    let stride = bracket.as_ref().map_or(1 << 16, |b| b.matches().len());
    let mut d = Driven {
        results: Vec::new(),
        played: Vec::new(),
        byes: Vec::new(),
        pairing_ms: Vec::new(),
    };
    let bar = progress_bar(0, "matches", json);
    loop {
        let started = Instant::now();
        let next = event
            .next(&d.results)
            .map_err(|e| CliError::run(e.to_string()))?;
        d.pairing_ms.push(started.elapsed().as_secs_f64() * 1e3);
        if next.over {
            break;
        }
        if let Some(b) = next.bye {
            d.byes.push((next.round, b));
        }
        bar.inc_length(next.pending.len() as u64);
        let outcomes: Vec<PlayedMatch> = pool.install(|| {
            next.pending
                .par_iter()
                .map(|&pairing| {
                    let (round, board) = match pairing.key {
                        MatchKey::Board { round, board } => (round, board as usize),
                        MatchKey::Bracket(id) => (0, id),
                    };
                    let in_bracket = matches!(pairing.key, MatchKey::Bracket(_));
                    let mut tries = 0;
                    loop {
                        let b = Board {
                            board: board + tries * stride,
                            first: pairing.first,
                            second: pairing.second,
                        };
                        let result = play(round, &b)?;
                        tries += 1;
                        if result.winner.is_some() || !in_bracket || tries > REPLAYS {
                            return Ok(PlayedMatch {
                                pairing,
                                result,
                                tries,
                            });
                        }
                    }
                })
                .collect::<CliResult<Vec<_>>>()
        })?;
        for m in outcomes {
            let r = &m.result;
            // The standings' points difference is the winner's margin: the scores' gap,
            // whichever way the game counts (Chinchón's points count against).
            let margin = (r.points.0 - r.points.1).abs();
            let winner = match r.winner {
                // A bracket goes on: the first side, after its replays.
                None if matches!(m.pairing.key, MatchKey::Bracket(_)) => Some(Side::First),
                w => w,
            };
            let (fp, sp) = match r.winner {
                Some(Side::First) => (margin, 0),
                Some(Side::Second) => (0, margin),
                None => (0, 0),
            };
            d.results.push(EventResult {
                key: m.pairing.key,
                first: m.pairing.first,
                second: m.pairing.second,
                winner,
                first_points: fp,
                second_points: sp,
            });
            d.played.push(m);
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    d.played.sort_by_key(|m| m.pairing.key);
    Ok(d)
}

/// Prints a round-based event (Swiss, tres ceros): every round, then the standings.
fn rounds_event<H: Host>(
    event: &Event,
    d: &Driven,
    names: &[String],
    a: &TournamentArgs,
    json: bool,
) -> CliResult {
    let n = names.len();
    let (h, _) = event
        .history(&d.results)
        .map_err(|e| CliError::run(e.to_string()))?;
    let mut met = std::collections::HashSet::new();
    let mut shown_rounds: Vec<Value> = Vec::new();
    let mut text_rounds: Vec<String> = Vec::new();
    let (mut repeats, mut unfinished) = (0, 0);
    let last = d.played.iter().filter_map(|m| match m.pairing.key {
        MatchKey::Board { round, .. } => Some(round),
        MatchKey::Bracket(_) => None,
    });
    let rounds = last.max().unwrap_or(0);
    for round in 1..=rounds {
        let mut lines = vec![row!["board", "first", "", "second", "score"]];
        let mut board_json = Vec::new();
        let mut round_repeats = 0;
        for m in d
            .played
            .iter()
            .filter(|m| matches!(m.pairing.key, MatchKey::Board { round: r, .. } if r == round))
        {
            let MatchKey::Board { board, .. } = m.pairing.key else {
                continue;
            };
            let (first, second, r) = (m.pairing.first, m.pairing.second, &m.result);
            if !met.insert((first.min(second), first.max(second))) {
                round_repeats += 1;
            }
            unfinished += usize::from(r.unfinished);
            let mark = match r.winner {
                Some(Side::First) => "beats",
                Some(Side::Second) => "loses to",
                None if r.unfinished => "unfinished",
                None => "draws",
            };
            lines.push(row![
                board + 1,
                entrant_name(names, first),
                mark,
                entrant_name(names, second),
                format!("{}–{}", r.points.0, r.points.1),
            ]);
            board_json.push(json!({
                "board": board + 1,
                "first": first,
                "second": second,
                "winner": r.winner,
                "points": [r.points.0, r.points.1],
                "unfinished": r.unfinished,
            }));
        }
        let bye = d.byes.iter().find(|b| b.0 == round).map(|b| b.1);
        if let Some(bye) = bye {
            lines.push(row!["bye", entrant_name(names, bye), "", "", ""]);
        }
        repeats += round_repeats;
        shown_rounds.push(json!({
            "round": round,
            "boards": board_json,
            "bye": bye,
            "repeats": round_repeats,
            "pairing_ms": d.pairing_ms.get(round as usize - 1),
        }));
        text_rounds.push(format!("Round {round}\n{}", table(&lines)));
    }
    let slowest = d.pairing_ms.iter().copied().fold(0.0, f64::max);
    let (standing_rows, standing_json) = match event.format {
        Format::Swiss { .. } => {
            let st = swiss::standings(n, &h, &Options::default())
                .map_err(|e| CliError::run(e.to_string()))?;
            let mut rows = vec![row!["place", "entrant", "score", "buchholz", "s-b", "diff"]];
            for s in &st {
                rows.push(row![
                    s.place,
                    entrant_name(names, s.entrant),
                    half(s.score),
                    half(s.buchholz),
                    half(s.sonneborn_berger),
                    format!("{:+}", s.points_diff),
                ]);
            }
            (rows, serde_json::to_value(&st).unwrap_or(Value::Null))
        }
        _ => {
            let st = tres_ceros::standings(n, &h);
            let mut rows = vec![row!["place", "entrant", "wins", "losses", "out in"]];
            for s in &st {
                rows.push(row![
                    s.place,
                    entrant_name(names, s.entrant),
                    s.wins,
                    s.losses,
                    s.out_in.map_or("—".into(), |r| format!("round {r}")),
                ]);
            }
            (rows, serde_json::to_value(&st).unwrap_or(Value::Null))
        }
    };
    if json {
        let v = json!({
            "game": H::NAME,
            "format": format_name(a.format),
            "seed": a.seed,
            "entrants": names,
            "rounds": shown_rounds,
            "standings": standing_json,
            "repeats": repeats,
            "unfinished": unfinished,
            "slowest_pairing_ms": slowest,
        });
        return emit(&format!("{v}\n"));
    }
    let mut out = format!(
        "{} tournament ({}), {n} entrants, seed {}\n\n",
        H::TITLE,
        format_name(a.format),
        a.seed
    );
    for r in &text_rounds {
        out.push_str(r);
        out.push('\n');
    }
    out.push_str("Standings\n");
    out.push_str(&table(&standing_rows));
    out.push_str(&format!(
        "\n{} rounds, {repeats} repeated pairings, {unfinished} unfinished matches, slowest pairing {slowest:.1} ms\n",
        text_rounds.len()
    ));
    emit(&out)
}

/// `experto #3`: the level and the entrant's number (from 1, the top seed).
fn entrant_name(names: &[String], e: usize) -> String {
    format!("{} #{}", names.get(e).map_or("?", String::as_str), e + 1)
}

/// A score in halves: `3`, `2½`.
fn half(x: f64) -> String {
    let whole = x.floor();
    if x - whole >= 0.5 {
        if whole == 0.0 {
            "½".into()
        } else {
            format!("{whole}½")
        }
    } else {
        format!("{whole}")
    }
}

fn format_name(f: FormatArg) -> &'static str {
    match f {
        FormatArg::Swiss => "swiss",
        FormatArg::TresCeros => "tres-ceros",
        FormatArg::Knockout => "knockout",
        FormatArg::Double => "double",
        FormatArg::Duplicate => "duplicate",
        FormatArg::Groups => "groups",
    }
}

/// A bracket part's name in the output.
fn part_name(p: Part) -> &'static str {
    match p {
        Part::Main => "A",
        Part::Consolation => "B",
        Part::Losers => "losers",
        Part::GrandFinal => "final",
        Part::Reset => "final again",
    }
}

/// Times an undecided bracket match (a draw, or stopped unfinished) is played again with
/// fresh deals before the first side goes on.
const REPLAYS: usize = 3;

/// Prints a bracket event (knockout, double elimination): every match by part and round,
/// then the places.
fn bracket_event<H: Host>(
    event: &Event,
    d: &Driven,
    names: &[String],
    a: &TournamentArgs,
    json: bool,
) -> CliResult {
    let bracket = event.bracket().map_err(|e| CliError::run(e.to_string()))?;
    let done = event
        .bracket_results(&d.results)
        .map_err(|e| CliError::run(e.to_string()))?;
    let state = bracket
        .state(&done)
        .map_err(|e| CliError::run(e.to_string()))?;
    let played: Vec<(MatchId, usize, usize, &MatchOutcome, usize)> = d
        .played
        .iter()
        .filter_map(|m| match m.pairing.key {
            MatchKey::Bracket(id) => {
                Some((id, m.pairing.first, m.pairing.second, &m.result, m.tries))
            }
            MatchKey::Board { .. } => None,
        })
        .collect();
    let matches = bracket.matches();
    if json {
        let shown: Vec<Value> = played
            .iter()
            .map(|(id, first, second, r, tries)| {
                json!({
                    "match": id,
                    "part": matches[*id].part,
                    "round": matches[*id].round,
                    "first": first,
                    "second": second,
                    "winner": r.winner.unwrap_or(Side::First),
                    "decided": r.winner.is_some(),
                    "points": [r.points.0, r.points.1],
                    "played": tries,
                })
            })
            .collect();
        let v = json!({
            "game": H::NAME,
            "format": format_name(a.format),
            "consolation": a.consolation,
            "seed": a.seed,
            "entrants": names,
            "matches": shown,
            "walkovers": state.walkovers,
            "champion": state.champion,
            "consolation_champion": state.consolation_champion,
            "placings": state.placings,
        });
        return emit(&format!("{v}\n"));
    }
    let mut out = format!(
        "{} tournament ({}{}), {} entrants, seed {}\n\n",
        H::TITLE,
        format_name(a.format),
        if a.consolation { " with Cuadro B" } else { "" },
        names.len(),
        a.seed
    );
    let mut rows = vec![row!["cuadro", "round", "first", "", "second", "score"]];
    let mut ordered: Vec<&(MatchId, usize, usize, &MatchOutcome, usize)> = played.iter().collect();
    ordered.sort_by_key(|p| (matches[p.0].part, matches[p.0].round, p.0));
    for (id, first, second, r, tries) in ordered {
        let mark = match r.winner {
            Some(Side::First) => "beats",
            Some(Side::Second) => "loses to",
            None => "goes on (undecided) against",
        };
        let again = if *tries > 1 {
            format!(" ({tries} played)")
        } else {
            String::new()
        };
        rows.push(row![
            part_name(matches[*id].part),
            matches[*id].round,
            entrant_name(names, *first),
            mark,
            entrant_name(names, *second),
            format!("{}–{}{again}", r.points.0, r.points.1),
        ]);
    }
    out.push_str(&table(&rows));
    out.push_str("\nPlaces\n");
    let mut places = vec![row!["place", "entrant"]];
    for (e, place) in &state.placings {
        places.push(row![place, entrant_name(names, *e)]);
    }
    out.push_str(&table(&places));
    if let Some(c) = state.consolation_champion {
        out.push_str(&format!("\nCuadro B: {}\n", entrant_name(names, c)));
    }
    out.push_str(&format!(
        "\n{} matches played, {} walkovers\n",
        played.len(),
        state.walkovers.len()
    ));
    emit(&out)
}

/// Prints a groups event: each group's matches and table, then the knockout's matches and
/// the places.
fn groups_event<H: Host>(
    event: &Event,
    d: &Driven,
    names: &[String],
    a: &TournamentArgs,
    json: bool,
) -> CliResult {
    let state = event
        .groups(&d.results)
        .map_err(|e| CliError::run(e.to_string()))?;
    let knockout = state
        .knockout
        .as_ref()
        .ok_or_else(|| CliError::run("the group stage did not end"))?;
    let unfinished = d.played.iter().filter(|m| m.result.unfinished).count();
    let mark = |r: &MatchOutcome| match r.winner {
        Some(Side::First) => "beats",
        Some(Side::Second) => "loses to",
        None if r.unfinished => "unfinished",
        None => "draws",
    };
    let group_played: Vec<(u32, u32, &PlayedMatch)> = d
        .played
        .iter()
        .filter_map(|m| match m.pairing.key {
            MatchKey::Board { round, board } => Some((round, board, m)),
            MatchKey::Bracket(_) => None,
        })
        .collect();
    let knockout_played: Vec<(MatchId, &PlayedMatch)> = d
        .played
        .iter()
        .filter_map(|m| match m.pairing.key {
            MatchKey::Bracket(id) => Some((id, m)),
            MatchKey::Board { .. } => None,
        })
        .collect();
    let matches = &knockout.matches;
    if json {
        let group_matches: Vec<Value> = group_played
            .iter()
            .map(|(round, board, m)| {
                json!({
                    "round": round,
                    "board": board + 1,
                    "first": m.pairing.first,
                    "second": m.pairing.second,
                    "winner": m.result.winner,
                    "points": [m.result.points.0, m.result.points.1],
                    "unfinished": m.result.unfinished,
                })
            })
            .collect();
        let knockout_matches: Vec<Value> = knockout_played
            .iter()
            .map(|(id, m)| {
                json!({
                    "match": id,
                    "round": matches[*id].round,
                    "first": m.pairing.first,
                    "second": m.pairing.second,
                    "winner": m.result.winner.unwrap_or(Side::First),
                    "decided": m.result.winner.is_some(),
                    "points": [m.result.points.0, m.result.points.1],
                    "played": m.tries,
                })
            })
            .collect();
        let v = json!({
            "game": H::NAME,
            "format": format_name(a.format),
            "group_size": state.size,
            "advance": state.advance,
            "seed": a.seed,
            "entrants": names,
            "groups": state.groups,
            "group_matches": group_matches,
            "knockout": {
                "seeds": knockout.seeds,
                "matches": knockout_matches,
                "walkovers": knockout.state.walkovers,
                "placings": knockout.state.placings,
            },
            "champion": state.champion,
            "unfinished": unfinished,
        });
        return emit(&format!("{v}\n"));
    }
    let mut out = format!(
        "{} tournament (groups of at most {}, {} going on from each), {} entrants, seed {}\n",
        H::TITLE,
        state.size,
        state.advance,
        names.len(),
        a.seed
    );
    for g in &state.groups {
        let who: Vec<String> = g.entrants.iter().map(|&e| entrant_name(names, e)).collect();
        out.push_str(&format!("\nGroup {}: {}\n", g.name, who.join(", ")));
        // Each round's matches, then its bye.
        let mut lines: Vec<(u32, Vec<String>)> = group_played
            .iter()
            .filter(|(_, _, m)| g.entrants.contains(&m.pairing.first))
            .map(|(round, _, m)| {
                let line = row![
                    round,
                    entrant_name(names, m.pairing.first),
                    mark(&m.result),
                    entrant_name(names, m.pairing.second),
                    format!("{}–{}", m.result.points.0, m.result.points.1),
                ];
                (*round, line)
            })
            .collect();
        for (round, e) in &g.byes {
            lines.push((*round, row![round, entrant_name(names, *e), "bye", "", ""]));
        }
        lines.sort_by_key(|(round, _)| *round);
        let mut shown = vec![row!["round", "first", "", "second", "score"]];
        shown.extend(lines.into_iter().map(|(_, line)| line));
        out.push_str(&table(&shown));
        let mut rows = vec![row![
            "place", "entrant", "played", "won", "drawn", "lost", "points", "diff", ""
        ]];
        for r in &g.rows {
            rows.push(row![
                r.place,
                entrant_name(names, r.entrant),
                r.played,
                r.won,
                r.drawn,
                r.lost,
                r.points,
                format!("{:+}", r.points_diff),
                match (r.qualified, r.withdrawn) {
                    (true, _) => "goes on",
                    (false, true) => "withdrew",
                    (false, false) => "",
                },
            ]);
        }
        out.push('\n');
        out.push_str(&table(&rows));
    }
    out.push_str("\nKnockout\n");
    // By round, then down the draw: the matches played and the byes.
    let mut lines: Vec<(MatchId, Vec<String>)> = knockout_played
        .iter()
        .map(|&(id, m)| {
            let r = &m.result;
            let again = if m.tries > 1 {
                format!(" ({} played)", m.tries)
            } else {
                String::new()
            };
            let line = row![
                matches[id].round,
                entrant_name(names, m.pairing.first),
                match r.winner {
                    None => "goes on (undecided) against",
                    Some(_) => mark(r),
                },
                entrant_name(names, m.pairing.second),
                format!("{}–{}{again}", r.points.0, r.points.1),
            ];
            (id, line)
        })
        .collect();
    for &(id, e) in &knockout.state.walkovers {
        let line = row![matches[id].round, entrant_name(names, e), "bye", "", ""];
        lines.push((id, line));
    }
    lines.sort_by_key(|(id, _)| (matches[*id].round, *id));
    let mut rows = vec![row!["round", "first", "", "second", "score"]];
    rows.extend(lines.into_iter().map(|(_, line)| line));
    out.push_str(&table(&rows));
    out.push_str("\nPlaces\n");
    let mut places = vec![row!["place", "entrant"]];
    for (e, place) in &knockout.state.placings {
        places.push(row![place, entrant_name(names, *e)]);
    }
    out.push_str(&table(&places));
    out.push_str(&format!(
        "\n{} group matches, {} knockout matches played, {} byes, {unfinished} unfinished matches\n",
        group_played.len(),
        knockout_played.len(),
        knockout.state.walkovers.len()
    ));
    emit(&out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entrants_expand_by_count_and_refuse_bad_lists() {
        assert_eq!(
            expand("experto*2, basico").unwrap(),
            vec!["experto", "experto", "basico"]
        );
        assert!(expand("experto").is_err());
        assert!(expand("experto*x").is_err());
        assert!(expand("experto*0,basico").is_err());
        assert!(expand("experto*5000").is_err());
        assert_eq!(
            (half(2.5), half(0.5), half(3.0)),
            ("2½".into(), "½".into(), "3".into())
        );
    }

    #[test]
    fn match_seeds_differ_by_round_and_board() {
        let a = match_seed(1, 1, 0);
        assert_ne!(a, match_seed(1, 1, 1));
        assert_ne!(a, match_seed(1, 2, 0));
        assert_ne!(a, match_seed(2, 1, 0));
        assert_eq!(a, match_seed(1, 1, 0));
    }
}
