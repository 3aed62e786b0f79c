//! What one seat may know: its own cards and everything shown to the table. Never another
//! player's hand nor the order of the stock.

use crate::card::{Card, Hand};
use crate::events::{CloseState, HandResult, SheetRow};
use crate::rules::ChinchonRules;
use serde::{Deserialize, Serialize};
use tapete_table::Seat;

/// Where a hand stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The player to act draws: robo (the stock) or tomo (the pile).
    Draw,
    /// The player to act holds eight cards: descarto or cierro.
    Discard,
    /// After a close, the player to act may lay cards onto the closer's melds (meto) or
    /// say listo.
    LayOff,
    /// The game is over.
    Over,
}

/// Everything one seat (or a spectator) may know.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChinchonView {
    /// The seat this view is for; `None` for a spectator.
    pub seat: Option<Seat>,
    /// Players at the table.
    pub seats: usize,
    /// The table's options.
    pub rules: ChinchonRules,
    /// Decks shuffled together (1 or 2).
    pub decks: u8,
    /// Hand number (1 for the first deal; a false close deals a new one).
    pub hand_number: u32,
    /// Who dealt this hand.
    pub dealer: Seat,
    /// Who played first this hand (the dealer's right).
    pub mano: Seat,
    /// Where the hand stands.
    pub phase: Phase,
    /// Whose turn it is (`None` once over).
    pub turn: Option<Seat>,
    /// Turns played this hand (each ends with a discard).
    pub turns: u32,
    /// Times this hand's stock has been rebuilt from the pile (the rules say how often
    /// it may be: `stock_rebuilds`).
    #[serde(default)]
    pub rebuilds: u8,
    /// Nothing has been done yet this hand.
    pub fresh: bool,
    /// This seat's cards (empty for a spectator or a player who is out).
    pub hand: Hand,
    /// How many cards each seat holds.
    pub hand_sizes: Vec<u8>,
    /// Cards in the stock (not which).
    pub stock: usize,
    /// The discard pile, bottom first: its last card is the one that can be taken.
    pub pile: Vec<Card>,
    /// The card turned face up at the deal.
    pub muestra: Card,
    /// By seat: every card taken from the pile this hand (a card taken again is counted
    /// again only up to the copies in the deck).
    pub took: Vec<Hand>,
    /// By seat: cards taken from the pile this hand and still held (so known to all).
    pub holds: Vec<Hand>,
    /// By seat: every card discarded this hand (a card discarded again is counted again
    /// only up to the copies in the deck).
    pub discarded: Vec<Hand>,
    /// Points by seat.
    pub scores: Vec<i32>,
    /// By seat: out of the game.
    pub out: Vec<bool>,
    /// By seat: has re-entered (reenganche) once already.
    pub reentered: Vec<bool>,
    /// Seats that went out, hand by hand, in order.
    pub out_order: Vec<Vec<Seat>>,
    /// The close on the table while the others lay cards onto it.
    pub close: Option<CloseState>,
    /// The previous hand, as shown to everybody at its end.
    pub last_hand: Option<HandResult>,
    /// The score sheet: every finished hand of the game, first to last.
    #[serde(default)]
    pub sheet: Vec<SheetRow>,
    /// The winners, once over.
    pub winners: Vec<Seat>,
    /// The seat whose chinchón won the game, if one did.
    pub chinchon: Option<Seat>,
}

impl ChinchonView {
    /// The card on top of the pile, which `tomo` takes.
    pub fn pile_top(&self) -> Option<Card> {
        self.pile.last().copied()
    }

    /// Seats still in the game, in seat order.
    pub fn active(&self) -> impl Iterator<Item = Seat> + '_ {
        (0..self.seats).filter(|&s| !self.out[s])
    }

    /// Cards every player has seen face up this hand: the muestra and every discard
    /// (whether still on the pile, taken, or shuffled back into the stock).
    pub fn seen_discarded(&self) -> Hand {
        let mut all = Hand::EMPTY;
        // A card seen more often than it has copies (taken and discarded again) is
        // counted once per copy: a refused add changes nothing.
        let _ = all.add(self.muestra);
        for c in self.discarded.iter().flat_map(Hand::iter) {
            let _ = all.add(c);
        }
        all
    }
}
