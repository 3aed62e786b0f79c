//! What one seat may know: its own cards and everything said in public. Nothing more.

use crate::events::{Event, LanceStatus};
use crate::game::Scores;
use crate::{Lance, MusRules, Sena};
use serde::Serialize;
use tapete_cards::{Card, CardSet};
use tapete_table::Seat;

/// Where the hand stands, as every seat sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// Speaking mus / no hay mus.
    Mus,
    /// Everybody said mus: discarding.
    Discard,
    /// The mus is cut: each player passes a seña to the partner.
    Senas,
    /// Declaring pares or juego.
    Declare { lance: Lance },
    /// Betting a lance.
    Bet { lance: Lance },
    /// The match is over.
    Over,
}

/// The bet on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BetView {
    /// Seat pair that made the last bet or raise (0: seats 0 and 2).
    pub pair: usize,
    /// Piedras at stake if accepted.
    pub total: u8,
    /// Piedras the betting pair takes if it is declined.
    pub deje: u8,
    /// True when it is an órdago.
    pub ordago: bool,
    /// By seat: who of the answering pair has still to answer this bet (the one whose turn
    /// it is included). A player whose partner is still to answer after him knows a *no
    /// quiero* of his own does not end the lance.
    pub answering: [bool; 4],
}

impl BetView {
    /// Whether `seat` has still to answer the bet.
    pub fn answers(&self, seat: Seat) -> bool {
        self.answering.get(seat).copied().unwrap_or(false)
    }
}

/// A finished hand: its public log, and the cards if they were shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct HandSummary {
    pub hand: u32,
    pub mano: Seat,
    /// Cards by seat, when shown (at the counting or after an accepted órdago).
    pub cards: Option<[CardSet; 4]>,
    pub lances: Vec<(Lance, LanceStatus)>,
    pub log: Vec<Event>,
}

/// Everything one seat (or a spectator) may know.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MusView {
    /// The seat this view is for; `None` for a spectator.
    pub seat: Option<Seat>,
    /// This seat's position this hand (0 = mano, 3 = postre).
    pub position: Option<usize>,
    pub rules: MusRules,
    pub hand_number: u32,
    pub game_number: u32,
    /// The seat that is mano this hand.
    pub mano: Seat,
    /// Own cards (empty for a spectator).
    pub cards: Vec<Card>,
    /// Piedras, games and vacas per pair.
    pub scores: Scores,
    pub phase: Phase,
    /// Seats that may act now.
    pub to_act: Vec<Seat>,
    /// The bet on the table, if any.
    pub bet: Option<BetView>,
    /// Which seats have discarded this mus round.
    pub discarded: [bool; 4],
    /// Own discard this round, while waiting for the others.
    pub my_discard: Option<CardSet>,
    /// Mus rounds played this hand.
    pub mus_rounds: u8,
    /// Cards left in the deck.
    pub deck_left: usize,
    /// Pares declarations by seat (`None`: not yet declared).
    pub pares: [Option<bool>; 4],
    /// Juego declarations by seat.
    pub juego: [Option<bool>; 4],
    /// Which seats have passed their seña this hand.
    pub senas_sent: [bool; 4],
    /// The seña this seat passed.
    pub my_sena: Option<Sena>,
    /// The seña the partner passed to this seat (never shown to anyone else).
    pub partner_sena: Option<Sena>,
    /// Lances settled so far this hand.
    pub lances: Vec<(Lance, LanceStatus)>,
    /// Every public event of this hand.
    pub log: Vec<Event>,
    /// The previous hand, with its showdown.
    pub last_hand: Option<HandSummary>,
    /// The pair that won the match, once over.
    pub winner: Option<usize>,
    /// Played as boards: the board being played, from 1 (the last one once over).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<u32>,
    /// Played as boards: each finished board's net piedras for pair 0–2.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub board_nets: Vec<i64>,
}

impl MusView {
    /// Position of a seat this hand.
    pub fn position_of(&self, seat: Seat) -> usize {
        (seat + 4 - self.mano) % 4
    }

    /// The pair (0 or 1) of a seat.
    pub fn pair_of(seat: Seat) -> usize {
        seat % 2
    }

    /// The lance being bet or declared, if any.
    pub fn lance(&self) -> Option<Lance> {
        match self.phase {
            Phase::Declare { lance } | Phase::Bet { lance } => Some(lance),
            _ => None,
        }
    }
}
