//! Tikki computer players by level (the front-ends host the game in `tapete-tikki-front`).
//!
//! Levels, weakest first: `random` and `basico` (the engine's own, in `tapete-tikki`), and
//! `experto` (determinized Monte Carlo from its own view, its budget in its name:
//! `experto:iters=600,ms=100` by default). Each sees only its own view.
//!
//! [`review`] is tikki's game review: every choice of one seat valued from its view.
//! [`screen`] weighs every lay for soft play (friends who see each other's hands), and
//! [`collude`] is such a cheating player, to measure the screen against.
//!
//! ```
//! let bot = tapete_tikki_bots::by_name("experto:iters=200").unwrap();
//! assert!(tapete_tikki_bots::by_name("genius").is_err());
//! # drop(bot);
//! ```

pub mod collude;
pub mod experto;
pub mod review;
pub mod screen;

pub use experto::Experto;

use tapete_table::Bot;
use tapete_tikki::TikkiGame;

/// Every level, weakest first.
pub const LEVELS: &[&str] = &["random", "basico", "experto"];

/// The player called `name` (a level, possibly with parameters after a colon:
/// `experto:ms=50`), or an error naming the choices.
pub fn by_name(name: &str) -> Result<Box<dyn Bot<TikkiGame>>, String> {
    let (level, params) = name.trim().split_once(':').unwrap_or((name.trim(), ""));
    match level.trim().to_lowercase().as_str() {
        "random" | "basico" | "básico" if params.trim().is_empty() => {
            tapete_tikki::bots::by_name(level)
        }
        "experto" => Ok(Box::new(experto::from_params(params)?)),
        "random" | "basico" | "básico" => {
            Err(format!("`{level}` takes no parameters: write just {level}"))
        }
        other => Err(format!(
            "`{other}` is not a tikki player: choose one of {}",
            LEVELS.join(", ")
        )),
    }
}
