//! What happened, told to every seat alike: nothing here names a card that was not shown
//! to the whole table (a draw from the stock says who drew, not what).

use crate::card::{Card, Hand};
use crate::meld::{Close, Meld};
use serde::{Deserialize, Serialize};
use tapete_table::Seat;

/// A card laid onto the closer's melds (meter cartas).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Laid {
    /// Who laid it.
    pub seat: Seat,
    /// The card.
    pub card: Card,
    /// Which of the closer's melds it went onto (its index).
    pub meld: usize,
}

/// A close on the table, while the others may lay cards onto it (and after).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CloseState {
    /// Who closed.
    pub closer: Seat,
    /// The card put down.
    pub down: Card,
    /// How it closed.
    pub close: Close,
    /// The closer's melds, with every card laid onto them so far.
    pub melds: Vec<Meld>,
    /// The closer's seven cards as shown (melds and the one left, if any).
    pub cards: Hand,
    /// Cards laid onto the melds, in order.
    pub laid: Vec<Laid>,
}

/// One player's part in a finished hand.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatResult {
    /// The player.
    pub seat: Seat,
    /// Its melds (the closer's with the cards others laid onto them).
    pub melds: Vec<Meld>,
    /// Its cards in no meld.
    pub unmatched: Vec<Card>,
    /// Cards it laid onto the closer's melds.
    pub laid: Vec<Card>,
    /// Points the hand adds to its score (−10 for menos diez, 50 for a false close).
    pub points: i32,
}

/// A finished hand, as everybody saw it at the end.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct HandResult {
    /// Hand number (1 for the first deal).
    pub hand: u32,
    /// Who closed; `None` when nobody did (the hand ran out: the stock spent for the
    /// last time or its turns played).
    pub closer: Option<Seat>,
    /// The card the closer put down (`None` when nobody closed).
    pub down: Option<Card>,
    /// How it closed; `None` for a false close (the hand is dealt again) or when nobody
    /// closed.
    pub close: Option<Close>,
    /// Each player still in the game, by seat (only the closer after a false close or a
    /// chinchón).
    pub results: Vec<SeatResult>,
    /// Every seat's score after the hand.
    pub scores: Vec<i32>,
}

/// One line of the score sheet: a finished hand and where it left everybody. The sheet is
/// public (every score and every elimination was shown), so a table rebuilt from a view —
/// a page reloaded, a spectator arriving late — still shows every hand of the game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SheetRow {
    /// Hand number.
    pub hand: u32,
    /// Who closed; `None` when nobody did (the hand ran out).
    pub closer: Option<Seat>,
    /// How it closed; `None` for a false close or when nobody closed.
    pub close: Option<Close>,
    /// Points the hand added, by seat (`None`: the seat was not counted in this hand).
    pub points: Vec<Option<i32>>,
    /// Every seat's score after the hand, before anyone re-entered.
    pub scores: Vec<i32>,
    /// By seat: out of the game after the hand.
    pub out: Vec<bool>,
    /// By seat: has re-entered after the hand.
    pub reentered: Vec<bool>,
}

/// Something that happened at the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// Seven cards to each player; the muestra face up on the pile; the rest the stock.
    HandDealt {
        hand: u32,
        dealer: Seat,
        mano: Seat,
        muestra: Card,
        stock: usize,
    },
    /// `seat` drew the top card of the stock.
    DrewStock { seat: Seat },
    /// `seat` took `card` from the discard pile.
    TookPile { seat: Seat, card: Card },
    /// `seat` discarded `card`.
    Discarded { seat: Seat, card: Card },
    /// The stock ran out: the pile but its top card, shuffled, is the new stock.
    StockRebuilt { cards: usize },
    /// The hand ended with nobody closing, after `turns` turns and `rebuilds` rebuilds of
    /// the stock: the stock ran out once more than the rules rebuild it (`stock_out`), or
    /// the hand's turns were played. A [`Event::HandScored`] without a closer follows.
    HandRanOut {
        turns: u32,
        rebuilds: u8,
        stock_out: bool,
    },
    /// `seat` closed, putting `down` down, and showed its melds.
    Closed {
        seat: Seat,
        down: Card,
        close: Close,
        melds: Vec<Meld>,
    },
    /// `seat` closed without meeting the rules: it shows its seven cards, takes the
    /// penalty and the hand is dealt again.
    FalseClose {
        seat: Seat,
        down: Card,
        cards: Vec<Card>,
        penalty: i32,
    },
    /// A card laid onto the closer's melds.
    LaidOff(Laid),
    /// `seat` has no more cards to lay (it said listo).
    DoneLayingOff { seat: Seat },
    /// The hand was counted.
    HandScored(HandResult),
    /// `seat` passed the target and re-entered with `score` points.
    Reenganche { seat: Seat, score: i32 },
    /// `seat` passed the target with `score` points and is out.
    Eliminated { seat: Seat, score: i32 },
    /// The game is over; `chinchon` when a chinchón won it.
    GameOver { winners: Vec<Seat>, chinchon: bool },
}
