//! Tikki as tapete's front-ends see it: [`TikkiHost`] (its name, 2–5 seats, the players by
//! name, narration, seat-change boundaries, the scores, the full view) and its terminal
//! face. The players themselves live in `tapete-tikki-bots`; this crate only presents the
//! game, so the catalog lists it and the terminal and the server reach it through the
//! [`tapete_host::Host`] contract alone.

mod face;
mod host;

pub use face::TikkiNotes;
pub use host::{TikkiHost, TikkiNarrator};
