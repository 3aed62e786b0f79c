//! Chinchón computer players by level (the front-ends host the game in
//! `tapete-chinchon-front`).
//!
//! Levels, weakest first: `random` and `basico` (the engine's own: the source's rule-based
//! player), `experto` (tracks every card seen, reads what each opponent collects, draws and
//! discards by exact odds and expected deadwood, closes with the score in mind) and
//! `maestro` (search over states resampled from its view, its budget in its name:
//! `maestro:iters=1024,ms=1000` by default). Each sees only its own view.
//!
//! [`review`] is the game review: every real choice of one seat of a finished game valued
//! from its view, with the exact chance to close after each discard. [`screen`] weighs
//! every discard and close for soft play (friends who see each other's hands), and
//! [`collude`] is such a cheating player, to measure the screen against.
//!
//! ```
//! let bot = tapete_chinchon_bots::by_name("experto").unwrap();
//! assert!(tapete_chinchon_bots::by_name("genius").is_err());
//! # drop(bot);
//! ```

pub mod collude;
pub mod experto;
pub mod maestro;
pub mod outlook;
pub mod review;
pub mod screen;
pub mod tracker;
pub mod value;

pub use experto::Experto;
pub use maestro::Maestro;

use tapete_chinchon::ChinchonGame;
use tapete_table::Bot;

/// Every level, weakest first.
pub const LEVELS: &[&str] = &["random", "basico", "experto", "maestro"];

/// The player called `name` (a level, possibly with parameters after a colon:
/// `maestro:ms=200`), or an error naming the choices.
pub fn by_name(name: &str) -> Result<Box<dyn Bot<ChinchonGame>>, String> {
    let (level, params) = name.trim().split_once(':').unwrap_or((name.trim(), ""));
    match level.trim().to_lowercase().as_str() {
        "random" | "basico" | "básico" if params.trim().is_empty() => {
            tapete_chinchon::bots::by_name(level)
        }
        "experto" if params.trim().is_empty() => Ok(Box::new(Experto::default())),
        "maestro" => Ok(Box::new(maestro::from_params(params)?)),
        "random" | "basico" | "básico" | "experto" => {
            Err(format!("`{level}` takes no parameters: write just {level}"))
        }
        other => Err(format!(
            "`{other}` is not a Chinchón player: choose one of {}",
            LEVELS.join(", ")
        )),
    }
}
