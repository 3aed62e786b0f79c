//! A game as data: rules, seed and every action. Replaying it reproduces the state exactly.

use crate::{Game, Seat, SetupError};
use serde::{Deserialize, Serialize};

/// A finished or running game: `replay()` rebuilds the very same state.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Record<G: Game> {
    /// The game's name ([`Game::NAME`]). Records made before records named their game
    /// have none; they are Mus records, the only game there was.
    #[serde(default = "legacy_game")]
    pub game: String,
    /// The table options the game was created with.
    pub rules: G::Rules,
    /// Number of seats.
    pub seats: usize,
    /// The shuffle seed.
    pub seed: u64,
    /// Every action in the order applied, with the seat that took it.
    pub actions: Vec<(Seat, G::Action)>,
    /// Who played each seat, when the maker of the record knows (an arena names each
    /// seat's bot as it was given: `experto`, `cmd:…`); empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub players: Vec<String>,
    /// What the seed can be checked with, for a game dealt by commit and reveal (a
    /// server's table; see [`crate::fair`]); none for a game dealt from a seed alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fairness: Option<crate::fair::Fairness>,
}

fn legacy_game() -> String {
    "mus".into()
}

/// Why a record did not replay.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("this is a record of {found}, not of {expected}")]
    WrongGame {
        expected: &'static str,
        found: String,
    },
    #[error("the record's set-up is invalid: {0}")]
    Setup(#[from] SetupError),
    #[error("action {index} ({seat}: {action}) was refused: {reason}")]
    Refused {
        index: usize,
        seat: Seat,
        action: String,
        reason: String,
    },
}

impl<G: Game> Record<G> {
    /// An empty record for a game about to start.
    pub fn new(rules: G::Rules, seats: usize, seed: u64) -> Self {
        Record {
            game: G::NAME.to_string(),
            rules,
            seats,
            seed,
            actions: Vec::new(),
            players: Vec::new(),
            fairness: None,
        }
    }

    /// Re-runs every action from the start and returns the final state.
    pub fn replay(&self) -> Result<G, ReplayError> {
        self.replay_steps(|_, _, _| {})
    }

    /// Re-runs every action, calling `step(index, state_after, events)` after each one.
    pub fn replay_steps(
        &self,
        mut step: impl FnMut(usize, &G, &[G::Event]),
    ) -> Result<G, ReplayError> {
        if self.game != G::NAME {
            return Err(ReplayError::WrongGame {
                expected: G::NAME,
                found: self.game.clone(),
            });
        }
        let mut g = G::new(&self.rules, self.seats, self.seed)?;
        for (index, (seat, action)) in self.actions.iter().enumerate() {
            let events = g.apply(*seat, action).map_err(|e| ReplayError::Refused {
                index,
                seat: *seat,
                action: action.to_string(),
                reason: e.to_string(),
            })?;
            step(index, &g, &events);
        }
        Ok(g)
    }
}
