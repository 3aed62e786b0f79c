//! Screening finished games for cheating, whatever their game: the one place `tapete
//! screen` and a server's operator get their flags from.
//!
//! - **Collusion** ([`tapete_review::screen`]): every decision is weighed by its game's
//!   [`Kind::screen`] (Mus partners who see each other's cards; Chinchón and tikki players
//!   who help a friend), grouped by the pair of players, and a pair whose z-score passes
//!   the threshold over enough decisions is flagged, with its decisions that gained most
//!   from the other's hidden cards as evidence.
//! - **Win trading** ([`tapete_review::trading`]): every game's result by sides, and a
//!   pair of players whose results against each other stand far from what their other
//!   games show, over enough meetings, is flagged, with their games as evidence.

use crate::{Kind, StoredGame};
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use tapete_review::screen::{Screened, Tally};
use tapete_review::trading::{self, Meeting, Side};
use tapete_table::Seat;

/// The z-score from which a pair is flagged for collusion, when none is given.
pub const DEFAULT_THRESHOLD: f64 = 4.0;
/// The z-score from which a pair is flagged for win trading, when none is given. Lower
/// than collusion's: its tail is exact and allows for what the players' other games leave
/// unsure of their strength, while collusion's is a normal approximation over decisions
/// that are not quite independent.
pub const DEFAULT_TRADING_THRESHOLD: f64 = 3.5;
/// The fewest decisions a pair needs to be judged for collusion, when none is given.
pub const DEFAULT_MIN_DECISIONS: u64 = 300;
/// The fewest games two players need against each other to be judged for win trading,
/// when none is given.
pub const DEFAULT_MIN_MEETINGS: u64 = 10;
/// Decisions kept as a flagged pair's evidence.
pub const EVIDENCE_ROWS: usize = 20;

/// A finished game to screen, wherever it came from.
#[derive(Clone, Debug)]
pub struct Game {
    /// Where it was read: a record's file, a server's table id.
    pub source: String,
    /// The game's name in the catalog.
    pub game: String,
    pub rules: Value,
    pub seats: usize,
    pub seed: u64,
    /// Every action's seat and text, in order.
    pub actions: Vec<(Seat, String)>,
    /// Who played each seat: an account, an arena's bot; `None` unknown.
    pub players: Vec<Option<String>>,
    /// Whether only pairs of two people are judged (a server's games: a bot's seat beside
    /// a person is no partnership to suspect). People are the seats named in `people`.
    pub people: Vec<bool>,
}

/// What is judged and from where.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Collusion: flag from this z-score.
    pub threshold: f64,
    /// Win trading: flag from this z-score.
    pub trading_threshold: f64,
    /// Collusion: the fewest decisions weighed.
    pub min_decisions: u64,
    /// Collusion: the fewest games played together.
    pub min_games: u64,
    /// Win trading: the fewest games against each other.
    pub min_meetings: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            threshold: DEFAULT_THRESHOLD,
            trading_threshold: DEFAULT_TRADING_THRESHOLD,
            min_decisions: DEFAULT_MIN_DECISIONS,
            min_games: 1,
            min_meetings: DEFAULT_MIN_MEETINGS,
        }
    }
}

/// One decision shown as evidence: where it was taken and what it gained. No card.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Evidence {
    /// The game's source ([`Game::source`]).
    pub source: String,
    /// The decision's place in the game's log (0 the first action).
    pub step: usize,
    pub seat: Seat,
    /// What was decided (the action's text).
    pub action: String,
    /// What only the other's hidden cards explain of it (chance, 0–1).
    pub gain: f64,
}

/// A pair of players screened for collusion.
#[derive(Clone, Debug, Serialize)]
pub struct Pair {
    pub game: String,
    pub players: [String; 2],
    pub games: u64,
    #[serde(flatten)]
    pub tally: Tally,
    /// Enough games and decisions to judge.
    pub judged: bool,
    pub flagged: bool,
    /// The decisions that gained most (flagged pairs only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<Evidence>,
}

/// A pair of players screened for win trading.
#[derive(Clone, Debug, Serialize)]
pub struct Trade {
    pub game: String,
    /// The one who did better than expected against the other, then the other.
    pub players: [String; 2],
    pub games: u64,
    /// The first's score against the second (wins, halves for level places).
    pub score: f64,
    /// Its expectation from the skills their other games show.
    pub expected: f64,
    pub z: f64,
    pub flagged: bool,
    /// The games they met in, newest first as given (flagged pairs only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<String>,
}

/// Everything screened.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Report {
    /// Games read.
    pub games: u64,
    /// Games that could not be screened (unknown game, options that do not load, a log
    /// that does not replay), with why: skipped, not fatal.
    pub skipped: Vec<(String, String)>,
    pub pairs: Vec<Pair>,
    pub trading: Vec<Trade>,
}

/// A pair screened for collusion: its game and its two players, in order.
type PairKey = (String, String, String);
/// A pair's decisions (each with the index of its game) and how many games they shared.
type PairDecisions = (Vec<(usize, Screened)>, u64);
/// A side of a finished game: its seats and its place.
type SideSeats = (Vec<Seat>, u32);

/// Screens `games` with the catalog's `kinds`.
pub fn screen(games: &[Game], kinds: &[Arc<dyn Kind>], s: &Settings) -> Report {
    let mut report = Report {
        games: games.len() as u64,
        ..Report::default()
    };
    // Collusion: decisions by (game, pair).
    let mut pairs: BTreeMap<PairKey, PairDecisions> = BTreeMap::new();
    // Win trading: meetings by game, with their source.
    let mut meetings: BTreeMap<String, (Vec<Meeting>, Vec<usize>)> = BTreeMap::new();
    let mut judged_names: BTreeSet<String> = BTreeSet::new();
    for (i, g) in games.iter().enumerate() {
        let Some(kind) = kinds.iter().find(|k| k.name() == g.game) else {
            report
                .skipped
                .push((g.source.clone(), format!("no game `{}`", g.game)));
            continue;
        };
        let stored = StoredGame {
            rules: &g.rules,
            seats: g.seats,
            seed: g.seed,
            actions: &g.actions,
        };
        let name = |s: Seat| -> String {
            g.players
                .get(s)
                .cloned()
                .flatten()
                .unwrap_or_else(|| format!("seat {s}"))
        };
        let person = |s: Seat| g.people.get(s).copied().unwrap_or(false);
        let anyone = g.people.is_empty();
        for s in 0..g.seats {
            if anyone || person(s) {
                judged_names.insert(name(s));
            }
        }
        match kind.screen(&stored) {
            Ok(weighed) => {
                let mut seen = BTreeSet::new();
                for w in weighed {
                    let judged = anyone || (person(w.seat) && person(w.partner));
                    if !judged {
                        continue;
                    }
                    let (x, y) = (name(w.seat), name(w.partner));
                    let key = if x <= y {
                        (g.game.clone(), x, y)
                    } else {
                        (g.game.clone(), y, x)
                    };
                    let pair = pairs.entry(key.clone()).or_default();
                    pair.0.push((i, w));
                    if seen.insert(key) {
                        pair.1 += 1;
                    }
                }
            }
            Err(e) => {
                report.skipped.push((g.source.clone(), e));
                continue;
            }
        }
        match sides(kind.as_ref(), g) {
            Ok(Some(sides)) => {
                let m = meetings.entry(g.game.clone()).or_default();
                m.0.push(Meeting {
                    sides: sides
                        .into_iter()
                        .map(|(seats, place)| Side {
                            players: seats.into_iter().map(name).collect(),
                            place,
                        })
                        .collect(),
                });
                m.1.push(i);
            }
            Ok(None) => {}
            Err(e) => report.skipped.push((g.source.clone(), e)),
        }
    }
    for ((game, x, y), (decisions, n)) in pairs {
        let ds: Vec<Screened> = decisions.iter().map(|(_, d)| d.clone()).collect();
        let tally = Tally::of(&ds);
        let judged = tally.n >= s.min_decisions && n >= s.min_games;
        let flagged = judged && tally.z >= s.threshold;
        let evidence = if flagged {
            let mut best: Vec<&(usize, Screened)> = decisions.iter().collect();
            best.sort_by(|a, b| b.1.gain().total_cmp(&a.1.gain()));
            best.into_iter()
                .take(EVIDENCE_ROWS)
                .map(|(i, d)| Evidence {
                    source: games[*i].source.clone(),
                    step: d.index,
                    seat: d.seat,
                    action: d.action.clone(),
                    gain: d.gain(),
                })
                .collect()
        } else {
            Vec::new()
        };
        report.pairs.push(Pair {
            game,
            players: [x, y],
            games: n,
            tally,
            judged,
            flagged,
            evidence,
        });
    }
    for (game, (list, index)) in meetings {
        let min = usize::try_from(s.min_meetings).unwrap_or(usize::MAX);
        let judged = |a: &str, b: &str| judged_names.contains(a) && judged_names.contains(b);
        for t in trading::screen(&list, min, judged) {
            let flagged = t.z >= s.trading_threshold;
            report.trading.push(Trade {
                game: game.clone(),
                players: t.players,
                games: t.games.len() as u64,
                score: t.score,
                expected: t.expected,
                z: t.z,
                flagged,
                evidence: if flagged {
                    t.games
                        .iter()
                        .map(|&m| games[index[m]].source.clone())
                        .collect()
                } else {
                    Vec::new()
                },
            });
        }
    }
    report
}

/// A finished game's sides (seats, and place: 1 best), replayed from its log: partners
/// one side, every other seat its own. `None` for a game that did not end.
fn sides(kind: &dyn Kind, g: &Game) -> Result<Option<Vec<SideSeats>>, String> {
    let mut game = kind.new_game(&g.rules, g.seats, g.seed)?;
    for (i, (seat, action)) in g.actions.iter().enumerate() {
        game.apply(*seat, action)
            .map_err(|e| format!("action {i} ({action}): {e}"))?;
    }
    let Some(outcome) = game.outcome() else {
        return Ok(None);
    };
    if outcome.places.len() != g.seats {
        return Ok(None);
    }
    let mut sides: BTreeMap<Seat, (Vec<Seat>, u32)> = BTreeMap::new();
    for (seat, &place) in outcome.places.iter().enumerate() {
        let team = if kind.partners() { seat % 2 } else { seat };
        let side = sides.entry(team).or_insert((Vec::new(), place));
        side.0.push(seat);
        side.1 = side.1.min(place);
    }
    Ok(Some(sides.into_values().collect()))
}
