//! Chinchón by its full rules (see `shared/spec/chinchon.md`).
//!
//! - [`card`]: the 48 Spanish cards and the joker, hands as multisets, decks;
//! - [`rules`]: the table options, each with the spec's default.

pub mod card;
pub mod rules;

pub use card::{Card, CardError, DeckSize, DeckSpec, Hand, Suit};
pub use rules::ChinchonRules;
