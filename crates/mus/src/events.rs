//! What happens at a Mus table, as public events: safe to show every seat.
//!
//! Events never carry hidden cards: a discard says how many cards, not which; the hands
//! appear only in [`Event::Showdown`], when they are shown to the whole table.

use crate::betting::Settled;
use crate::eval::Evaluation;
use crate::{Action, Lance};
use serde::{Deserialize, Serialize};
use tapete_cards::CardSet;
use tapete_table::Seat;

/// How a lance ended, with pairs as seat pairs (0: seats 0 and 2, 1: seats 1 and 3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum LanceStatus {
    /// Everybody passed: paid at the counting (1 piedra in grande, chica and punto).
    EnPaso,
    /// A bet of `piedras` was accepted: paid to the winner at the counting.
    Accepted { piedras: u8 },
    /// An órdago was accepted: the winner of the lance won the game.
    OrdagoAccepted,
    /// The bet was declined: `pair` took `piedras` at once (the deje).
    Declined { pair: usize, piedras: u8 },
    /// Pares or juego held by one pair only: it wins without betting.
    Unbet { pair: usize },
    /// Nobody holds pares (or juego): nothing to play.
    Void,
}

impl LanceStatus {
    pub(crate) fn from_settled(s: Settled, seat_pair_of: impl Fn(usize) -> usize) -> LanceStatus {
        match s {
            Settled::EnPaso => LanceStatus::EnPaso,
            Settled::Accepted { piedras } => LanceStatus::Accepted { piedras },
            Settled::OrdagoAccepted => LanceStatus::OrdagoAccepted,
            Settled::Declined { pair, piedras } => LanceStatus::Declined {
                pair: seat_pair_of(pair),
                piedras,
            },
        }
    }

    /// True when a bet was made (accepted or not).
    pub fn was_bet(&self) -> bool {
        matches!(
            self,
            LanceStatus::Accepted { .. }
                | LanceStatus::OrdagoAccepted
                | LanceStatus::Declined { .. }
        )
    }
}

/// Why piedras were scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScoreReason {
    /// A declined bet, scored at once.
    Deje,
    /// A lance everybody passed, at the counting.
    EnPaso,
    /// An accepted bet, at the counting.
    Envite,
    /// The cuenta of pares or juego, or the piedra of punto, at the counting.
    Cuenta,
}

/// The hands shown at the end of a hand (at the counting or after an accepted órdago).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Showdown {
    /// Cards by seat.
    pub cards: [CardSet; 4],
    /// The seat that was mano.
    pub mano: Seat,
    /// Each lance's winning seat and why, in counting order.
    pub winners: Vec<LanceWinner>,
}

/// The winner of one lance at the showdown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LanceWinner {
    pub lance: Lance,
    /// Winning seat, or `None` when the lance was not played (no pares, punto with juego).
    pub seat: Option<Seat>,
    /// In players' words: "RRCA", "duples de reyes y caballos", "juego de 31, closer to mano".
    pub reason: String,
}

impl Showdown {
    pub(crate) fn new(cards: [CardSet; 4], mano: Seat, eval: &Evaluation) -> Showdown {
        let winners = Lance::ALL
            .iter()
            .filter(|&&l| !(l == Lance::Punto && eval.juego.is_some()))
            .filter(|&&l| !(l == Lance::Juego && eval.juego.is_none()))
            .map(|&lance| LanceWinner {
                lance,
                seat: eval.winner(lance).map(|p| (mano + p) % 4),
                reason: eval.reason(lance),
            })
            .collect();
        Showdown {
            cards,
            mano,
            winners,
        }
    }
}

/// One public happening at the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Cards were dealt for a new hand; `mano` speaks first.
    HandStarted { hand: u32, game: u32, mano: Seat },
    /// A player spoke: mus, no hay mus, paso, envido, quiero, a declaration…
    Said { seat: Seat, action: Action },
    /// A player discarded `count` cards (which ones stays hidden).
    Discarded { seat: Seat, count: u8 },
    /// Everybody discarded; each was served as many cards, from the mano.
    Served,
    /// The deck ran out: the discard pile, less the cards of the player being served,
    /// was shuffled into a new deck of `cards` cards.
    DeckRebuilt { cards: u8 },
    /// The betting of a lance begins.
    LanceStarted { lance: Lance },
    /// A lance's betting ended (or it was not bet).
    LanceSettled { lance: Lance, status: LanceStatus },
    /// A pair scored piedras.
    Scored {
        pair: usize,
        piedras: u8,
        lance: Lance,
        reason: ScoreReason,
        /// The pair's piedras after scoring.
        total: u8,
    },
    /// The hands were shown.
    Showdown(Showdown),
    /// A pair won a game (juego), by piedras or by an accepted órdago.
    GameWon {
        pair: usize,
        ordago: bool,
        /// Both pairs' piedras when the game ended (the next game starts from zero).
        piedras: [u8; 2],
    },
    /// A pair won a vaca.
    VacaWon { pair: usize },
    /// A pair won the match: the table is over.
    MatchWon { pair: usize },
    /// A board's hand is over (a match of boards): `net` is the piedras pair 0–2 won on it
    /// less those it conceded, `total` the same over the boards so far.
    BoardEnded { board: u32, net: i64, total: i64 },
    /// A match of boards ended level: the table is over, drawn.
    MatchDrawn,
}
