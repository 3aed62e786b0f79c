//! Chinchón by its full rules (see `shared/spec/chinchon.md`).
//!
//! - [`card`]: the 48 Spanish cards and the joker, hands as multisets, decks;
//! - [`rules`]: the table options, each with the spec's default;
//! - [`meld`]: the meld solver (least deadwood, closes, every discard);
//! - [`game`]: the game as a state machine; [`action`]: what players type;
//!   [`view`]: what a seat may know; [`events`]: what happened, in public;
//!   [`resample`]: a full game consistent with a view, for search;
//! - [`narrate`]: events in players' words;
//! - [`bots`]: computer players by name (`random`, `basico`).

pub mod action;
pub mod bots;
#[doc(hidden)]
pub mod brute;
pub mod card;
pub mod events;
pub mod game;
pub mod meld;
pub mod narrate;
pub mod resample;
pub mod rules;
pub mod view;

pub use action::{Action, ParseActionError};
pub use card::{Card, CardError, DeckSize, DeckSpec, Hand, Suit};
pub use events::Event;
pub use game::{ActionError, ChinchonGame, Deal};
pub use meld::{Analysis, Close, Meld, MeldKind, Solver};
pub use resample::ResampleError;
pub use rules::ChinchonRules;
pub use view::{ChinchonView, Phase};
