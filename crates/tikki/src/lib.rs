//! Tikki, the Finnish combination trick game (`docs/rules/tikki.md`): the engine every
//! front-end will play through — a deterministic state machine behind
//! [`tapete_table::Game`] for 2–5 players, with the smaller deck and the retreat round
//! (perääntymiskierros) as table options, the combination ranking [`best`], resampling for
//! search players, narration and the computer players `random` and `basico`.
//!
//! Each trick, every player lays one or more cards face down; only the single best
//! combination among a player's cards counts, and it takes every card of the trick to its
//! pile. Piles score by rank groups (1 card 1, 2 cards 5, 3 cards 10, 4 cards 20), so
//! ballast laid on a winning combination is banked, and a lost lay feeds a rival's pile.
//!
//! ```
//! use tapete_tikki::{Action, Phase, TikkiGame, TikkiRules};
//! use tapete_table::Game;
//!
//! let mut game = TikkiGame::new(&TikkiRules::default(), 3, 7).unwrap();
//! let leader = game.to_act().seats()[0];
//! assert_eq!(leader, (game.dealer() + 1) % 3, "the dealer's left leads");
//! // Every non-empty part of the hand may be laid: 127 choices for seven cards.
//! assert_eq!(game.legal_actions(leader).len(), 127);
//! // A card not in the hand is refused and nothing changes.
//! let stranger = game.hand((leader + 1) % 3).iter().next().unwrap();
//! let before = game.clone();
//! assert!(game.apply(leader, &Action::Lay([stranger].into_iter().collect())).is_err());
//! assert_eq!(game, before);
//! let card = game.hand(leader).iter().next().unwrap();
//! game.apply(leader, &format!("lay {card}").parse().unwrap()).unwrap();
//! // Others see how many cards were laid, not which.
//! let view = game.view((leader + 1) % 3);
//! assert_eq!((view.laid_counts[leader], view.phase), (1, Phase::Lay));
//! assert!(view.laid.is_empty());
//! ```
//!
//! What players type (also what records store):
//!
//! | action | also | what |
//! |---|---|---|
//! | `lay 3S 4S` | `play 3S 4S` | lay these cards face down (one or more) |
//! | `retreat 5H reveal 7C` | `back 5H show 7C` | retreat round: take 5H back, turning 7C face up for good |
//! | `keep` | `done`, `pass` | retreat round: take nothing (more) back |
//!
//! Cards are written `1S` … `13C` (suits S H D C, also ♠ ♥ ♦ ♣, any case). A round moves
//! on by itself: after the last trick the piles are scored and the next round is dealt.
//!
//! Rule defaults ([`TikkiRules`]): the full 52-card deck; one round per player, so every
//! seat deals once (or a fixed number of rounds, or a target score ending the game with the
//! round that reaches it); the retreat round off. The most points wins; players level on
//! the most points share the win.
//!
//! Where to look:
//! - [`card`]: the French cards, sets of them, pile scoring;
//! - [`combo`]: the combinations and [`best`] (and why two combinations of a trick never
//!   tie);
//! - [`rules`]: the table options; [`game`]: the state machine; [`action`]: what players
//!   type; [`view`]: what a seat may know; [`events`]: what happened, in public;
//!   [`resample`]: a full game consistent with a view, for search;
//! - [`narrate`]: events in plain English; [`bots`]: computer players by name.

pub mod action;
pub mod bots;
#[doc(hidden)]
pub mod brute;
pub mod card;
pub mod combo;
pub mod events;
pub mod game;
pub mod narrate;
pub mod resample;
pub mod rules;
pub mod view;

pub use action::{Action, ParseActionError};
pub use card::{Card, CardError, Cards, Suit, TikkiCards};
pub use combo::{best, Combination, Kind};
pub use events::{Event, Trick};
pub use game::{ActionError, TikkiGame};
pub use narrate::Narrator;
pub use resample::{Resample, ResampleError};
pub use rules::TikkiRules;
pub use view::{Phase, RoundResult, TikkiView};
