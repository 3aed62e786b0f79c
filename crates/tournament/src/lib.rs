//! Tournaments, pure and deterministic: who meets whom, and who stands where.
//!
//! Everything here is a function of the entrants (in seed order: 0 is the top seed) and the
//! results of the matches played so far, nothing else — no clock, no randomness, no
//! storage. The server keeps the results in its tables' action logs and calls these
//! functions again after any restart to the same answer; `tapete tournament` plays bots
//! through the same code.
//!
//! - [`swiss`]: Dutch-style pairing on scores, no rematches, the first seat alternated;
//!   standings with Buchholz, Sonneborn-Berger and the points difference.
//! - [`bracket`]: knockout (with Cuadro B, the consolation bracket of the first round's
//!   losers) and double elimination, as static trees of matches fed by seeds, winners and
//!   losers; byes for entrant counts that are not a power of two.
//! - [`tres_ceros`]: everybody plays every round, paired by losses, until three lost
//!   matches put them out.
//! - [`arena`]: lichess's scoring (2/1/0, double on a streak) and pairing of whoever is
//!   free, for a set time.
//! - [`duplicate`]: the same deals at every table of a round, each pair scored in
//!   matchpoints against the pairs that held the same cards.
//! - [`groups`]: groups playing all-play-all, then a knockout of the best of each group,
//!   crossed so that two of one group meet as late as can be.
//! - [`event`]: any of the formats as one function of its results — the matches to start
//!   now, the round, the bye — recomputed the same after any restart.
//! - [`league`]: a cuadrilla's league table from its games, per game, per person and per
//!   pair.
//!
//! ```
//! use tapete_tournament::swiss::{self, History, Options};
//! use tapete_tournament::{Played, Side};
//!
//! // Four entrants, round 1: the upper half meets the lower half, the boards alternate
//! // who sits first.
//! let mut h = History::default();
//! let round = swiss::pair(4, &h, &Options::default()).unwrap();
//! assert_eq!(round.pairs, vec![(0, 2), (3, 1)]);
//! // 0 beat 2, 1 beat 3: round 2 pairs the winners, and the losers.
//! h.played.push(Played::new(1, 0, 2, Some(Side::First), 2, 0));
//! h.played.push(Played::new(1, 3, 1, Some(Side::Second), 1, 2));
//! let round = swiss::pair(4, &h, &Options::default()).unwrap();
//! assert_eq!(round.pairs, vec![(1, 0), (2, 3)]);
//! ```

pub mod arena;
pub mod bracket;
pub mod duplicate;
pub mod event;
pub mod groups;
pub mod league;
pub mod swiss;
pub mod tres_ceros;

use serde::{Deserialize, Serialize};

/// An entrant: its place in the entry list, 0 the top seed (by rating, or by sign-up).
pub type Entrant = usize;

/// One side of a match: the first sits first (Mus: its pair is mano in the first hand;
/// chess's white).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    First,
    Second,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }
}

/// A match played (or given: a forfeit), as its table's log tells it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Played {
    /// The round it belongs to, from 1.
    pub round: u32,
    pub first: Entrant,
    pub second: Entrant,
    /// The side that won; `None` for a draw (games that have them).
    pub winner: Option<Side>,
    /// What each side scored in the match (Mus: juegos; Chinchón, tikki: the points the
    /// game counts up), for the points difference of the standings.
    pub first_points: i64,
    pub second_points: i64,
}

impl Played {
    /// A match of `round` between `first` and `second`, won by `winner`, with the points
    /// each scored.
    pub fn new(
        round: u32,
        first: Entrant,
        second: Entrant,
        winner: Option<Side>,
        first_points: i64,
        second_points: i64,
    ) -> Played {
        Played {
            round,
            first,
            second,
            winner,
            first_points,
            second_points,
        }
    }

    /// The entrant at `side`.
    pub fn at(&self, side: Side) -> Entrant {
        match side {
            Side::First => self.first,
            Side::Second => self.second,
        }
    }

    /// The side `e` played, if it played this match.
    pub fn side_of(&self, e: Entrant) -> Option<Side> {
        if self.first == e {
            Some(Side::First)
        } else if self.second == e {
            Some(Side::Second)
        } else {
            None
        }
    }

    /// The winner, if any.
    pub fn winner(&self) -> Option<Entrant> {
        self.winner.map(|s| self.at(s))
    }

    /// The loser, if any.
    pub fn loser(&self) -> Option<Entrant> {
        self.winner.map(|s| self.at(s.other()))
    }
}

/// Why a tournament cannot go on as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TournamentError {
    #[error("a tournament needs at least {min} entrants; it has {got}")]
    TooFew { min: usize, got: usize },
    #[error("a tournament takes at most {max} entrants; it has {got}")]
    TooMany { max: usize, got: usize },
    #[error("entrant {0} is not in this tournament")]
    NoSuchEntrant(Entrant),
    #[error("entrant {0} plays itself in round {1}")]
    SelfMatch(Entrant, u32),
    #[error("round {round} cannot be paired without a rematch: every way left repeats a match")]
    NoPairing { round: u32 },
    #[error("a Swiss of this field plays 1 to {max} rounds, not {rounds}")]
    Rounds { rounds: u32, max: u32 },
    #[error("this format has no rounds of its own: it is a bracket")]
    NotRounds,
    #[error("this format has no bracket")]
    NotBracket,
    #[error("an arena has no rounds: whoever is free is paired again at once")]
    Continuous,
    #[error("this format has no groups")]
    NotGroups,
    #[error(
        "a group holds {} to {} entrants, not {size}",
        groups::MIN_GROUP,
        groups::MAX_GROUP
    )]
    GroupSize { size: u32 },
    #[error("1 to {max} can go on from each group (fewer than the group size, and than this field's smallest group holds), not {advance}")]
    Advance { advance: u32, max: u32 },
    #[error("only one entrant would go on from the groups, and a knockout needs two: more groups, or more going on from each")]
    NoKnockout,
    #[error("{0} was never paired: a result for it does not fit this event")]
    Unpaired(event::MatchKey),
    #[error("{0} has two results")]
    Twice(event::MatchKey),
    #[error("{key} was paired {}–{}, but its result is for {}–{}", paired.0, paired.1, got.0, got.1)]
    NotThePairing {
        key: event::MatchKey,
        paired: (Entrant, Entrant),
        got: (Entrant, Entrant),
    },
    #[error("{0} is a bracket's match and cannot be drawn: somebody goes on")]
    DrawInBracket(event::MatchKey),
    #[error("the tournament is over: no round {0}")]
    Over(u32),
    #[error("there is no match {0} in this bracket")]
    NoSuchMatch(bracket::MatchId),
    #[error("match {0} cannot have a result yet: a side of it is not known")]
    NotReady(bracket::MatchId),
    #[error("match {0} is not played: a side of it is a bye")]
    Walkover(bracket::MatchId),
    #[error("match {0} is not played: the winners' champion won the grand final")]
    NotNeeded(bracket::MatchId),
    #[error("match {0} already has a result")]
    AlreadyPlayed(bracket::MatchId),
}

/// The most entrants any format takes: a server bounds its tournaments by this, or less.
pub const MAX_ENTRANTS: usize = 1024;

/// Numbers the places of `rows`, already sorted best first: each row's place is its
/// position from 1, or the place of the row before when `key` says they are tied on
/// everything that ranks them.
pub(crate) fn number_places<T, K: PartialEq>(
    rows: &mut [T],
    key: impl Fn(&T) -> K,
    place: impl Fn(&mut T) -> &mut usize,
) {
    for i in 0..rows.len() {
        let p = if i > 0 && key(&rows[i]) == key(&rows[i - 1]) {
            *place(&mut rows[i - 1])
        } else {
            i + 1
        };
        *place(&mut rows[i]) = p;
    }
}
