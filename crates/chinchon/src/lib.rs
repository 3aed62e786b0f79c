//! Chinchón by its full rules (see `shared/spec/chinchon.md`).
//!
//! - [`card`]: the 48 Spanish cards and the joker, hands as multisets, decks.

pub mod card;

pub use card::{Card, CardError, DeckSize, DeckSpec, Hand, Suit};
