//! Chinchón by its full rules (see `shared/spec/chinchon.md`).
//!
//! - [`card`]: the 48 Spanish cards and the joker, hands as multisets, decks;
//! - [`rules`]: the table options, each with the spec's default;
//! - [`meld`]: the meld solver (least deadwood, closes, every discard).

#[doc(hidden)]
pub mod brute;
pub mod card;
pub mod meld;
pub mod rules;

pub use card::{Card, CardError, DeckSize, DeckSpec, Hand, Suit};
pub use meld::{Analysis, Close, Meld, MeldKind, Solver};
pub use rules::ChinchonRules;
