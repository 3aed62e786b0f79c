//! What one seat may know: its own hand and laid cards, how many cards every other seat
//! holds and has laid (never which until they are turned up), the retreat's revealed
//! cards at once, every revealed trick of the round, the piles, the stock's size, scores.

use crate::card::Cards;
use crate::events::Trick;
use crate::rules::TikkiRules;
use serde::{Deserialize, Serialize};
use tapete_table::Seat;

/// Where a round stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Players lay cards face down in turn from the leader.
    Lay,
    /// The retreat round: players in turn may take laid cards back.
    Retreat,
    /// The game is over.
    Over,
}

/// A finished round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundResult {
    /// Who dealt it.
    pub dealer: Seat,
    /// Each seat's pile at the end.
    pub piles: Vec<Cards>,
    /// Each pile's points.
    pub points: Vec<u32>,
    /// The trick that ended the round (`None` only for a round set up with no trick played).
    /// The next round is dealt in the same step, so without it no view would ever show the
    /// round's last reveal.
    pub last_trick: Option<Trick>,
}

/// Everything one seat (or a spectator) may know.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TikkiView {
    /// The table options.
    pub rules: TikkiRules,
    /// Players at the table.
    pub seats: usize,
    /// Whose view this is (`None`: a spectator's).
    pub seat: Option<Seat>,
    /// The round, from 1.
    pub round: u32,
    /// Who dealt this round.
    pub dealer: Seat,
    /// Who laid first in this trick.
    pub leader: Seat,
    /// Lay, retreat or over.
    pub phase: Phase,
    /// Who acts now (`None` when over).
    pub turn: Option<Seat>,
    /// The seat's own hand (empty for a spectator).
    pub hand: Cards,
    /// The seat's own cards on the table this trick (empty for a spectator).
    pub laid: Cards,
    /// Cards in each hand, by seat.
    pub hand_sizes: Vec<usize>,
    /// Which seats take part in this trick (those that held cards when it began).
    pub in_trick: Vec<bool>,
    /// Cards each seat has on the table this trick, face down or revealed.
    pub laid_counts: Vec<usize>,
    /// Cards each seat turned face up in the retreat round (they stay on the table).
    pub revealed: Vec<Cards>,
    /// Cards each seat took back in the retreat round, counted.
    pub retreated: Vec<usize>,
    /// Seats done with the retreat round this trick.
    pub retreat_done: Vec<bool>,
    /// The revealed tricks of this round, in order.
    pub tricks: Vec<Trick>,
    /// Each seat's trick pile this round (public: its cards were revealed when won).
    pub piles: Vec<Cards>,
    /// Cards left in the stock.
    pub stock: usize,
    /// Points so far, by seat (the finished rounds).
    pub scores: Vec<u32>,
    /// The finished rounds.
    pub history: Vec<RoundResult>,
    /// The winners once the game is over.
    pub winners: Vec<Seat>,
}

impl TikkiView {
    /// Whether every per-seat list holds one entry per seat: a view read from outside
    /// (a protocol bot, a stored game) is checked with this before it is indexed by seat.
    pub fn lists_fit(&self) -> bool {
        [
            self.hand_sizes.len(),
            self.in_trick.len(),
            self.laid_counts.len(),
            self.revealed.len(),
            self.retreated.len(),
            self.retreat_done.len(),
            self.piles.len(),
            self.scores.len(),
        ]
        .iter()
        .all(|&n| n == self.seats)
    }
}
