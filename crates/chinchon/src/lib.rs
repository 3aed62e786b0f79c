//! Chinchón by its full rules (`docs/rules/chinchon.md`): the engine every front-end
//! plays through — a deterministic state machine behind [`tapete_table::Game`] for 2–8
//! players with every house rule of the spec as a table option, the meld solver that
//! counts hands and closes (fast enough for bots and exact odds), resampling for search
//! players, narration in players' words and the computer players `random` and `basico`.
//!
//! ```
//! use tapete_chinchon::{Action, ChinchonGame, ChinchonRules, Phase};
//! use tapete_table::Game;
//!
//! let mut game = ChinchonGame::new(&ChinchonRules::default(), 3, 7).unwrap();
//! let mano = game.to_act().seats()[0];
//! assert_eq!(game.legal_actions(mano), vec![Action::Robo, Action::Tomo]);
//! // Discarding before drawing: refused, nothing changes.
//! let before = game.clone();
//! assert!(game.apply(mano, &"descarto 7o".parse().unwrap()).is_err());
//! assert_eq!(game, before);
//! game.apply(mano, &"robo".parse().unwrap()).unwrap();
//! let view = game.view(mano);
//! assert_eq!((view.hand.len(), view.phase), (8, Phase::Discard));
//! // Others see how many cards the mano holds, not which.
//! assert_eq!(game.view((mano + 1) % 3).hand_sizes[mano], 8);
//! ```
//!
//! What players type (also what records store; English words are understood too):
//!
//! | action | also | what |
//! |---|---|---|
//! | `robo` | `robar`, `taco`, `stock`, `draw` | draw the top card of the stock (el taco) |
//! | `tomo` | `tomar`, `pozo`, `muestra`, `pile`, `take` | take the top card of the discard pile |
//! | `descarto 7o` | `tiro 7o`, `discard 7o` | discard a card, ending the turn |
//! | `cierro 3b` | `corto 3b`, `close 3b` | close (cortar), putting 3b down |
//! | `meto 5o` | `lay 5o` | after a close, lay 5o onto the closer's melds (meter cartas) |
//! | `listo` | `done` | done laying cards |
//!
//! Cards are written `1o`…`12b` (suits o c e b; upper case too) and `J` for the joker.
//! A hand moves on by itself: after the count the next hand is dealt at once, so no action
//! confirms it.
//!
//! Where to look:
//! - [`card`]: the 48 Spanish cards and the joker, hands as multisets, decks;
//! - [`rules`]: the table options, each with the spec's default;
//! - [`meld`]: the meld solver (least deadwood, closes, every discard; why a joker may be
//!   part of a chinchón);
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
pub use card::{Card, CardError, ChinchonDeck, DeckSize, DeckSpec, Hand, Suit};
pub use events::Event;
pub use game::{ActionError, ChinchonGame, Deal};
pub use meld::{Analysis, Close, Meld, MeldKind, Solver};
pub use narrate::Narrator;
pub use resample::{Resample, ResampleError};
pub use rules::ChinchonRules;
pub use view::{ChinchonView, Phase};
