//! The one contract every tapete game implements, and what can be built on it alone.
//!
//! A game is a deterministic state machine: rules + seed + the list of actions taken
//! reproduce it exactly. Front-ends (terminal, arena, bot protocol, server) drive games only
//! through [`Game`]: they ask who may act ([`Game::to_act`]), which actions are legal, apply
//! one (getting public [`Game::Event`]s back, or an error that changed nothing) and show each
//! seat its [`Game::view`], which is everything that seat may know and nothing more.
//!
//! ```
//! use tapete_table::{Game, Record, Seat, ToAct};
//!
//! /// A toy game: two seats take turns adding 1 or 2; whoever reaches 5 wins.
//! #[derive(Clone, PartialEq, Debug)]
//! struct Race { total: u8, turn: Seat }
//!
//! impl Game for Race {
//!     const NAME: &'static str = "race";
//!     type Rules = ();
//!     type Action = u8;
//!     type View = u8;
//!     type Event = u8;
//!     type Error = String;
//!     fn new(_: &(), seats: usize, _seed: u64) -> Result<Self, tapete_table::SetupError> {
//!         if seats != 2 { return Err(tapete_table::SetupError::Seats { wanted: "2", got: seats }); }
//!         Ok(Race { total: 0, turn: 0 })
//!     }
//!     fn to_act(&self) -> ToAct { if self.total >= 5 { ToAct::Over } else { ToAct::Seats(vec![self.turn]) } }
//!     fn legal_actions(&self, seat: Seat) -> Vec<u8> {
//!         if seat == self.turn && self.total < 5 { vec![1, 2] } else { vec![] }
//!     }
//!     fn apply(&mut self, seat: Seat, a: &u8) -> Result<Vec<u8>, String> {
//!         if !self.legal_actions(seat).contains(a) { return Err(format!("{a} is not legal")); }
//!         self.total += a; self.turn = 1 - seat; Ok(vec![self.total])
//!     }
//!     fn view(&self, _: Seat) -> u8 { self.total }
//!     fn spectator_view(&self) -> u8 { self.total }
//!     fn outcome(&self) -> Option<tapete_table::Outcome> {
//!         (self.total >= 5).then(|| tapete_table::Outcome::winners_first(2, vec![1 - self.turn], vec![], String::new()))
//!     }
//! }
//!
//! let mut g = Race::new(&(), 2, 0).unwrap();
//! let mut rec = Record::<Race>::new((), 2, 0);
//! for a in [2u8, 2, 1] {
//!     let seat = g.to_act().seats()[0];
//!     g.apply(seat, &a).unwrap();
//!     rec.actions.push((seat, a));
//! }
//! assert!(g.apply(0, &2).is_err());
//! assert_eq!(rec.replay().unwrap(), g);
//! ```

pub mod arena;
pub mod budget;
pub mod conformance;
mod drive;
pub mod fair;
pub mod first_deal;
pub mod protocol;
mod record;
pub mod search;
pub mod story;
#[doc(hidden)]
pub mod test_race;

pub use drive::{play_out, PlayError};
pub use protocol::{ProcessBot, ProcessOptions};
pub use record::{Record, ReplayError};

use rand_chacha::ChaCha8Rng;
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::fmt::{Debug, Display};
use std::str::FromStr;

/// A seat at the table, `0..seats`. Seats are fixed; games say which role each seat has.
pub type Seat = usize;

/// Who may act now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ToAct {
    /// These seats may act, each independently (several at once for simultaneous decisions).
    Seats(Vec<Seat>),
    /// The game is over.
    Over,
}

impl ToAct {
    /// The seats that may act (empty when over).
    pub fn seats(&self) -> &[Seat] {
        match self {
            ToAct::Seats(s) => s,
            ToAct::Over => &[],
        }
    }
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winning seats (a whole partnership in team games).
    pub winners: Vec<Seat>,
    /// Each seat's final score in the game's own unit (vacas in Mus, points in Chinchón),
    /// by seat. Empty in outcomes stored before scores were kept.
    #[serde(default)]
    pub scores: Vec<i64>,
    /// Each seat's place, by seat: 1 for the winners, ties sharing a place. Empty in
    /// outcomes stored before places were kept.
    #[serde(default)]
    pub places: Vec<u32>,
    /// A one-line human summary, e.g. "pair 1–3 wins the match (pair 0–2 against pair 1–3:
    /// vacas 0–1, juegos 0–1, piedras 10–40)".
    pub summary: String,
    /// A game played as duplicate boards (the same deals at every table given its seed):
    /// each board's score by seat, in the order played, so that a tournament can compare
    /// every board with the other tables' play of it. Empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub boards: Vec<Vec<i64>>,
}

impl Outcome {
    /// An outcome where the winners share first place and every other seat second.
    pub fn winners_first(
        seats: usize,
        winners: Vec<Seat>,
        scores: Vec<i64>,
        summary: String,
    ) -> Outcome {
        let places = (0..seats)
            .map(|s| if winners.contains(&s) { 1 } else { 2 })
            .collect();
        Outcome {
            winners,
            scores,
            places,
            summary,
            boards: Vec::new(),
        }
    }

    /// Places from an order of finishing: `order[k]` is the group of seats that shares
    /// place `1 + (seats placed before it)`, as in competition ranking (1, 1, 3 …).
    pub fn places_from_order(seats: usize, order: &[Vec<Seat>]) -> Vec<u32> {
        let mut places = vec![0; seats];
        let mut placed = 0u32;
        for group in order {
            for &s in group {
                if let Some(p) = places.get_mut(s) {
                    *p = placed + 1;
                }
            }
            placed += group.len() as u32;
        }
        places
    }

    /// The place of `seat`, if places are known.
    pub fn place(&self, seat: Seat) -> Option<u32> {
        self.places.get(seat).copied()
    }
}

/// Why a game could not be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("this game needs {wanted} seats, not {got}")]
    Seats { wanted: &'static str, got: usize },
    #[error("invalid rules: {0}")]
    Rules(String),
}

/// Why a full state could not be resampled from a seat's view (each game's `resample`,
/// the search players' source of worlds).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResampleError {
    #[error("a spectator's view holds no cards to build a game around")]
    Spectator,
    #[error("the game is over: nothing left to decide")]
    Over,
    #[error("no deal of the unseen cards fits what was declared")]
    NoConsistentDeal,
    #[error("the view is not consistent: {0}")]
    Inconsistent(String),
}

impl ResampleError {
    /// An inconsistent view, saying why.
    pub fn inconsistent<T>(why: impl Into<String>) -> Result<T, ResampleError> {
        Err(ResampleError::Inconsistent(why.into()))
    }
}

/// A game whose full state can be dealt again from what one seat knows: the worlds of the
/// search players ([`search`]) and the conformance check that views hide what they should.
///
/// The resampled state keeps everything `view` shows (the seat's own cards, every public
/// call and count) and deals the cards the seat has not seen at random from `rng`; it shows
/// that seat exactly `view` again.
pub trait Resample: Game {
    /// A full state consistent with `view` (a seat's view), or why there is none.
    fn resample(view: &Self::View, rng: &mut ChaCha8Rng) -> Result<Self, ResampleError>;
}

/// One game's rules as a deterministic state machine.
///
/// `apply` either changes the state and returns public events, or returns an error and
/// changes nothing. Randomness comes only from the seed given to `new`.
pub trait Game: Clone + Send + Sync + 'static {
    /// The game's name in records, on the command line and in the API (`"mus"`).
    const NAME: &'static str;
    /// Table options (modes, targets, variants).
    type Rules: Clone + Debug + Send + Sync + Serialize + DeserializeOwned;
    /// What a seat can do, with a text form players type and records store.
    type Action: Clone
        + Debug
        + Eq
        + Send
        + Sync
        + Serialize
        + DeserializeOwned
        + Display
        + FromStr<Err: Display>;
    /// Everything one seat may know, nothing more.
    type View: Clone + Serialize;
    /// What happened, public to every seat.
    type Event: Clone + Debug + Serialize;
    /// Why an action was refused.
    type Error: Display + Debug;

    /// A new game with these rules, number of seats and shuffle seed.
    fn new(rules: &Self::Rules, seats: usize, seed: u64) -> Result<Self, SetupError>;
    /// Which seats may act now, or [`ToAct::Over`].
    fn to_act(&self) -> ToAct;
    /// The actions `seat` may take now (empty when it is not that seat's turn).
    fn legal_actions(&self, seat: Seat) -> Vec<Self::Action>;
    /// Applies one action, or refuses it with an error and changes nothing.
    fn apply(&mut self, seat: Seat, action: &Self::Action)
        -> Result<Vec<Self::Event>, Self::Error>;
    /// What `seat` may know.
    fn view(&self, seat: Seat) -> Self::View;
    /// What someone watching, holding no cards, may know.
    fn spectator_view(&self) -> Self::View;
    /// The result once the game is over.
    fn outcome(&self) -> Option<Outcome>;
}

/// A player that is not a person. It sees only its view; its randomness comes from `rng`.
///
/// Hosts ([`play_out`], the arena, the terminal table) call [`Bot::start`] once before the
/// game, [`Bot::act`] for each decision and [`Bot::finish`] when it is over; only `act` is
/// required. Bots that run outside programs ([`ProcessBot`]) use the others to greet and
/// dismiss the program, and report what went wrong through [`Bot::incidents`].
pub trait Bot<G: Game>: Send {
    /// Chooses one of `legal` (never empty) from what `view` shows.
    fn act(&mut self, view: &G::View, legal: &[G::Action], rng: &mut ChaCha8Rng) -> G::Action;

    /// A game is about to start and this bot plays `seat` of `seats`, under `rules`.
    fn start(&mut self, _seat: Seat, _seats: usize, _rules: &G::Rules) {}

    /// The game is over (`outcome` is `None` if it stopped unfinished); `view` is this
    /// seat's last view.
    fn finish(&mut self, _outcome: Option<&Outcome>, _view: &G::View) {}

    /// Problems since the last call (a program that answered badly, timed out or died),
    /// one human sentence each; taking them clears the list. Bots that cannot misbehave
    /// have none.
    fn incidents(&mut self) -> Vec<String> {
        Vec::new()
    }

    /// Why this bot cannot play at all, if so: an outside program that could not be
    /// started (not found, not executable). A stand-in then plays its seat, so a caller
    /// measuring the bot should stop with this error rather than report the stand-in's
    /// results. Built-in bots are always able.
    fn unable(&self) -> Option<String> {
        None
    }
}

/// The simplest bot: a uniformly random legal action.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomBot;

impl<G: Game> Bot<G> for RandomBot {
    fn act(&mut self, _view: &G::View, legal: &[G::Action], rng: &mut ChaCha8Rng) -> G::Action {
        use rand::Rng;
        legal[rng.gen_range(0..legal.len())].clone()
    }
}
