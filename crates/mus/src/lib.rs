//! Mus by its full rules (see `docs/rules/mus.md`): how each lance compares hands, the
//! betting machine, and the whole match as one deterministic state machine behind the
//! [`tapete_table::Game`] contract, plus the computer players.
//!
//! Where to look:
//! - [`rules`]: who wins grande, chica, pares, juego and punto;
//! - [`betting`]: paso, envido, reenvido, quiero, no quiero, órdago and the deje;
//! - [`game`]: deal, mus and discards, declarations, counting, games, vacas, match;
//! - [`view`]: what one seat may know; [`events`]: what happened, in public;
//! - [`eval`]: four known hands resolved lance by lance (`tapete mus eval`);
//! - [`bots`]: computer players, which see only their view.
//!
//! ```
//! use tapete_mus::{Action, MusGame, MusRules};
//! use tapete_table::Game;
//!
//! let mut game = MusGame::new(&MusRules::default(), 4, 7).unwrap();
//! let mano = game.to_act().seats()[0];
//! assert!(game.legal_actions(mano).contains(&Action::NoHayMus));
//! // Out of turn: refused, nothing changes.
//! let before = game.clone();
//! assert!(game.apply((mano + 1) % 4, &Action::Mus).is_err());
//! assert_eq!(game, before);
//! game.apply(mano, &Action::NoHayMus).unwrap();
//! // The view of a seat holds its own four cards only.
//! assert_eq!(game.view(mano).cards.len(), 4);
//! ```

pub mod action;
pub mod betting;
pub mod bots;
pub mod eval;
pub mod events;
pub mod game;
pub mod hand;
pub mod narrate;
pub mod options;
pub mod resample;
pub mod rules;
pub mod senas;
pub mod view;

pub use action::{Action, ParseActionError};
pub use eval::Evaluation;
pub use events::{Event, LanceStatus};
pub use game::{board_seed, MusGame, RuleError, Scores};
pub use hand::{HandError, Jugada, Rank};
pub use options::{Mode, MusRules, MAX_BOARDS};
pub use resample::{Resample, ResampleError};
pub use rules::Lance;
pub use senas::Sena;
pub use view::MusView;
