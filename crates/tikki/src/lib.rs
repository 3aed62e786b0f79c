//! Tikki, the Finnish combination trick game (`shared/spec/tikki.md`).
//!
//! - [`card`]: the French cards (`1S` … `13C`, also `1♠`), sets of them, pile scoring;
//! - [`combo`]: the combinations and [`best`], which one a lay counts as (and why two
//!   combinations of a trick never tie);
//! - [`rules`]: the table options; [`game`]: the state machine; [`action`]: what players
//!   type; [`view`]: what a seat may know; [`events`]: what happened, in public.

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
pub use card::{Card, CardError, Cards, Suit};
pub use combo::{best, Combination, Kind};
pub use events::{Event, Trick};
pub use game::{ActionError, TikkiGame};
pub use narrate::Narrator;
pub use resample::ResampleError;
pub use rules::TikkiRules;
pub use view::{Phase, RoundResult, TikkiView};
