//! What happened at the table, public to every seat: a lay says how many cards, never
//! which; cards are named once they are face up (a retreat's revealed card, the reveal, a
//! player's leftover cards going to the pile).

use crate::card::{Card, Cards};
use crate::combo::Combination;
use serde::{Deserialize, Serialize};
use tapete_table::Seat;

/// A trick once revealed: who laid what, each one's best combination, who took it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trick {
    /// Who laid first.
    pub leader: Seat,
    /// The cards each seat had on the table at the reveal, by seat (empty for a seat that
    /// held no cards and so sat the trick out).
    pub laid: Vec<Cards>,
    /// Cards each seat took back in the retreat round, counted (which ones stay hidden).
    pub retreated: Vec<usize>,
    /// Each seat's best combination, by seat (`None` for a seat out of the trick).
    pub best: Vec<Option<Combination>>,
    /// Who had the best combination and took every card of the trick.
    pub winner: Seat,
}

impl Trick {
    /// Every card of the trick: what the winner adds to its pile.
    pub fn cards(&self) -> Cards {
        self.laid.iter().fold(Cards::EMPTY, |a, &c| a.union(c))
    }
}

/// One thing that happened, in public.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A round was dealt: seven cards each, one at a time from the dealer's left.
    RoundDealt {
        /// The round, from 1.
        round: u32,
        /// Who dealt.
        dealer: Seat,
        /// Who leads the first trick (the dealer's left).
        leader: Seat,
        /// Cards left in the stock.
        stock: usize,
    },
    /// A seat laid cards face down: how many, not which.
    Laid { seat: Seat, count: usize },
    /// Retreat round: a seat took one laid card back and turned `revealed` face up.
    Retreated { seat: Seat, revealed: Card },
    /// Retreat round: a seat is done taking cards back.
    Kept { seat: Seat },
    /// The cards were turned up and the best combination took the trick.
    Revealed { trick: Trick },
    /// The stock refilled the hands: cards drawn by seat, and the stock left.
    Refilled { drawn: Vec<usize>, stock: usize },
    /// One player alone still held cards: they went to that player's pile.
    Leftover { seat: Seat, cards: Cards },
    /// The round was scored: each pile's points, and the game's scores after them.
    RoundScored {
        round: u32,
        points: Vec<u32>,
        scores: Vec<u32>,
    },
    /// The game is over: the winners (several when level on the most points).
    GameOver {
        winners: Vec<Seat>,
        scores: Vec<u32>,
    },
}
