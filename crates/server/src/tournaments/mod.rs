//! Tournaments: an organiser names the game, the format, the rules and the start; people
//! sign up (a Mus entrant is a pair of accounts, a Chinchón or tikki entrant one person);
//! at the start the server pairs the rounds and opens each match's table with the seats
//! kept for its people; each table's **log** gives the match's result, and the standings
//! are recomputed from those results whenever asked — the same after any restart or
//! failover, since nothing but the logs (and who did not come) decides them.
//!
//! The pairing, brackets and standings are `tapete_tournament`'s, the same code the
//! `tapete tournament` command plays offline. Here: [`Settings`] (what the organiser chose,
//! checked and bounded), the stored tournament ([`Stored`]), the runner (`runner.rs`) that
//! starts what is due, and the view a page draws ([`view`]).
//!
//! A match's courtesy time (default [`DEFAULT_COURTESY_S`]) runs from its table's opening:
//! an entrant whose people have not all sat by then loses the match, unless the organiser
//! let bots stand in (every entrant saw so when signing up) and somebody came: then the
//! match starts and the table's bot plays the empty seats, shown as stand-ins. A match
//! nobody came to is lost by both (a bracket sends the higher seed on). With courtesy by
//! juegos ([`Settings::courtesy_juegos`]) a side that came is instead given a juego at the
//! end of each courtesy time the other side let pass, until the juego given would decide
//! the match: the juegos are written into the table's options, so its log still says all.
//!
//! Bounds: [`MAX_ENTRANTS`] entrants, [`MAX_OPEN_PER_ORGANISER`] tournaments not finished
//! per organiser, a name of [`MAX_NAME`] characters, a start within [`MAX_START_AHEAD_S`].

use crate::table::PlayerRef;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tapete_tournament::event::{Event, Format, MatchKey, MatchResult};
use tapete_tournament::Side;

mod runner;
mod store;

pub(crate) use runner::{
    advance, arena_end, arena_standings, boards_of, deals_in_play, results_of, run, standings_of,
    Outcomes,
};
pub use store::{BoardRow, EntryRow, Stored, TournamentRow};

/// Most entrants a tournament takes.
pub const MAX_ENTRANTS: usize = 128;
/// Most tournaments one organiser may have that are not finished.
pub const MAX_OPEN_PER_ORGANISER: usize = 5;
/// Longest name, in characters.
pub const MAX_NAME: usize = 80;
/// Furthest start from now (seconds): 60 days.
pub const MAX_START_AHEAD_S: i64 = 60 * 24 * 3600;
/// The courtesy time of a match when none is named (seconds).
pub const DEFAULT_COURTESY_S: u64 = 15 * 60;
/// The courtesy time's bounds (seconds).
pub const COURTESY_S: std::ops::RangeInclusive<u64> = 30..=3600;
/// Most Swiss (or duplicate) rounds.
pub const MAX_ROUNDS: u32 = 15;
/// The boards of a duplicate round's tables when none is named.
pub const DEFAULT_BOARDS: u32 = 4;
/// An arena's length in minutes: its bounds, and when none is named.
pub const ARENA_MINUTES: std::ops::RangeInclusive<u32> = 10..=240;
pub const DEFAULT_ARENA_MINUTES: u32 = 60;

/// Where a tournament is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Taking entries until its start.
    Signup,
    /// Its rounds are being played.
    Running,
    /// Nothing is left to play.
    Finished,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Signup => "signup",
            Status::Running => "running",
            Status::Finished => "finished",
        }
    }

    pub fn parse(s: &str) -> Option<Status> {
        match s {
            "signup" => Some(Status::Signup),
            "running" => Some(Status::Running),
            "finished" => Some(Status::Finished),
            _ => None,
        }
    }
}

/// What the organiser chose, as stored (the `settings` column).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// The format, with its rounds or its Cuadro B.
    pub format: Format,
    /// The game's rules for every match, every key filled in.
    pub rules: Value,
    /// Seats at each match's table: 4 for Mus (two pairs), 2 for Chinchón and tikki.
    pub seats: usize,
    /// Whether the game is played by partners (an entrant is a pair).
    pub pairs: bool,
    /// Seconds an entrant has to sit once its match's table opens.
    pub courtesy_s: u64,
    /// Whether an absent side loses the match juego by juego: at the end of each courtesy
    /// time the side that came is given a juego and the courtesy time runs again, until a
    /// juego given would decide the match, which the absent side then loses (games with
    /// juegos; not with bot stand-ins, who would play instead).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub courtesy_juegos: bool,
    /// Whether the table's bot may play the seats of an entrant's people who did not come.
    pub bots: bool,
    /// The bot level of stand-ins (and of a person away mid-match).
    pub bot: String,
    /// Each person's turn clock (seconds; tournament tables always have one).
    pub turn_s: u64,
    /// The bots' pause between actions (milliseconds).
    pub pace_ms: u64,
    /// Duplicate: the secret every round's deals are made from (see [`round_secret`]);
    /// never shown while the tournament runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deals: Option<u64>,
    /// The longest a match may be played, from the end of its courtesy time (seconds):
    /// then it stops and the game's rules of who is ahead give its result. `None`: no
    /// limit (the turn clock and the bots still bring every match to an end).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_limit_s: Option<u64>,
}

/// A match's time limit's bounds (seconds): ten minutes to six hours.
pub const TIME_LIMIT_S: std::ops::RangeInclusive<u64> = 600..=21_600;

/// The secret every table of duplicate round `round` is dealt from (see
/// [`tapete_table::fair`]), made from the tournament's own: one secret for the round's
/// tables, which take no contributions, so they are all dealt the same boards; another
/// each round. It is revealed with the tables once the whole round is over, and tells
/// nothing of the tournament's secret or of the other rounds'.
pub fn round_secret(secret: u64, round: u32) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(format!("tapete duplicate {secret} round {round}"));
    tapete_table::fair::to_hex(&digest)
}

impl Settings {
    /// The seats of `side` at a match's table: a Mus pair sits across (0 and 2, or 1 and
    /// 3), a Chinchón or tikki entrant at seat 0 or 1. The first side is mano.
    pub fn seats_of(&self, side: Side) -> Vec<usize> {
        let first = match side {
            Side::First => 0,
            Side::Second => 1,
        };
        if self.pairs {
            vec![first, first + 2]
        } else {
            vec![first]
        }
    }
}

/// A match's key as stored: a Swiss board's round and board, a bracket match as round 0.
pub fn key_columns(key: MatchKey) -> (u32, u32) {
    match key {
        MatchKey::Board { round, board } => (round, board),
        MatchKey::Bracket(id) => (0, id as u32),
    }
}

/// The key of stored columns (see [`key_columns`]).
pub fn key_of(round: u32, board: u32) -> MatchKey {
    if round == 0 {
        MatchKey::Bracket(board as usize)
    } else {
        MatchKey::Board { round, board }
    }
}

/// The format's name as the API says it.
pub fn format_name(f: &Format) -> &'static str {
    match f {
        Format::Swiss { .. } => "swiss",
        Format::TresCeros => "tres_ceros",
        Format::Knockout { .. } => "knockout",
        Format::Double => "double",
        Format::Duplicate { .. } => "duplicate",
        Format::Arena { .. } => "arena",
        Format::Groups { .. } => "groups",
    }
}

/// A match's result from its table's outcome: which side's seats won, and the winner's
/// margin (the scores' gap, whichever way the game counts) as its points. A bracket
/// match nobody won goes to the first side (the higher seed, mano), as the rules of the
/// event say.
pub fn result_of(
    settings: &Settings,
    key: MatchKey,
    first: usize,
    second: usize,
    outcome: &tapete_table::Outcome,
) -> MatchResult {
    let won = |side: Side| {
        settings
            .seats_of(side)
            .iter()
            .any(|s| outcome.winners.contains(s))
    };
    let (a, b) = (won(Side::First), won(Side::Second));
    let mut winner = match (a, b) {
        (true, false) => Some(Side::First),
        (false, true) => Some(Side::Second),
        _ => None,
    };
    if winner.is_none() && matches!(key, MatchKey::Bracket(_)) {
        winner = Some(Side::First);
    }
    let score = |side: Side| {
        let s = settings.seats_of(side)[0];
        outcome.scores.get(s).copied().unwrap_or(0)
    };
    // A match of boards scores each side its net piedras: the winner's margin is its net.
    let margin = if outcome.boards.is_empty() {
        (score(Side::First) - score(Side::Second)).abs()
    } else {
        score(Side::First).abs()
    };
    let (first_points, second_points) = match winner {
        Some(Side::First) => (margin, 0),
        Some(Side::Second) => (0, margin),
        None => (0, 0),
    };
    MatchResult {
        key,
        first,
        second,
        winner,
        first_points,
        second_points,
    }
}

/// Who did not come to a match in its courtesy time (stored as `forfeit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Absent {
    First,
    Second,
    Both,
}

impl Absent {
    /// Who is missing of the two sides (`None`: neither).
    pub fn of(first_missing: bool, second_missing: bool) -> Option<Absent> {
        match (first_missing, second_missing) {
            (true, true) => Some(Absent::Both),
            (true, false) => Some(Absent::First),
            (false, true) => Some(Absent::Second),
            (false, false) => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Absent::First => "first",
            Absent::Second => "second",
            Absent::Both => "both",
        }
    }

    pub fn parse(s: &str) -> Option<Absent> {
        match s {
            "first" => Some(Absent::First),
            "second" => Some(Absent::Second),
            "both" => Some(Absent::Both),
            _ => None,
        }
    }

    /// The match's result: the side that came wins (0–0); if neither came, a bracket
    /// sends the first side on and a Swiss counts a draw.
    pub fn result(self, key: MatchKey, first: usize, second: usize) -> MatchResult {
        let winner = match self {
            Absent::First => Some(Side::Second),
            Absent::Second => Some(Side::First),
            Absent::Both if matches!(key, MatchKey::Bracket(_)) => Some(Side::First),
            Absent::Both => None,
        };
        MatchResult {
            key,
            first,
            second,
            winner,
            first_points: 0,
            second_points: 0,
        }
    }
}

/// The event a stored tournament plays: its format over its entrants in seed order, with
/// its withdrawals. A Swiss asked for more rounds than its field can be paired in without
/// repeats plays as many as it can (the field is known only at the start).
pub fn event_of(t: &Stored) -> Result<Event, String> {
    let n = t.entries.len();
    let format = match t.settings.format {
        Format::Swiss { rounds } => Format::Swiss {
            rounds: rounds.min(tapete_tournament::swiss::max_rounds(n)).max(1),
        },
        Format::Duplicate { rounds } => Format::Duplicate {
            rounds: rounds.min(tapete_tournament::swiss::max_rounds(n)).max(1),
        },
        Format::Groups { size, advance } => groups_for(n, size, advance),
        ref f => f.clone(),
    };
    let mut event = Event::new(format, n).map_err(|e| e.to_string())?;
    for e in &t.entries {
        if let (Some(seed), Some(from)) = (e.seed, e.withdrawn) {
            event
                .withdraw(seed as usize, from as u32)
                .map_err(|e| e.to_string())?;
        }
    }
    Ok(event)
}

/// The groups a field of `n` known only at the start can play: as asked if it can; else
/// with as many going on from each group as its groups allow (fewer, or more for a field
/// that makes one group); a field too small for groups plays a plain knockout.
fn groups_for(n: usize, size: u32, advance: u32) -> Format {
    let fits = |advance: u32| {
        let f = Format::Groups { size, advance };
        Event::new(f.clone(), n).is_ok().then_some(f)
    };
    fits(advance)
        .or_else(|| (1..advance).rev().find_map(fits))
        .or_else(|| (advance + 1..size).find_map(fits))
        .unwrap_or(Format::Knockout { consolation: false })
}

/// The people of an entrant, as pages show them.
#[derive(Clone, Debug, Serialize)]
pub struct EntrantView {
    /// Its place in the seeding (from 0), once the tournament started.
    pub seed: Option<usize>,
    pub entry: i64,
    pub players: Vec<PlayerRef>,
    pub substitute: Option<PlayerRef>,
    /// The round from which it is out of the event (withdrawn).
    pub withdrawn: Option<i64>,
}
