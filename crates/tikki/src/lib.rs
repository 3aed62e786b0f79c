//! Tikki, the Finnish combination trick game (`shared/spec/tikki.md`).
//!
//! - [`card`]: the French cards (`1S` … `13C`, also `1♠`), sets of them, pile scoring;
//! - [`combo`]: the combinations and [`best`], which one a lay counts as (and why two
//!   combinations of a trick never tie).

#[doc(hidden)]
pub mod brute;
pub mod card;
pub mod combo;

pub use card::{Card, CardError, Cards, Suit};
pub use combo::{best, Combination, Kind};
