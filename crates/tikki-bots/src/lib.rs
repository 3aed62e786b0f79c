//! Tikki computer players by level, and tikki as tapete's front-ends host it.
//!
//! Levels, weakest first: `random` and `basico` (the engine's own, in `tapete-tikki`).

use tapete_table::Bot;
use tapete_tikki::TikkiGame;

/// Every level, weakest first.
pub const LEVELS: &[&str] = &["random", "basico"];

/// The player called `name` (a level, possibly with parameters after a colon), or an error
/// naming the choices.
pub fn by_name(name: &str) -> Result<Box<dyn Bot<TikkiGame>>, String> {
    tapete_tikki::bots::by_name(name)
}

mod face;
mod host;

pub use face::TikkiNotes;
pub use host::{TikkiHost, TikkiNarrator};
