//! Mus computer players. Each sees only its own [`tapete_mus::MusView`] and the legal
//! actions: no peeking, ever.
//!
//! Choose one by name with [`by_name`]: `random`, `basico`.
//!
//! ```
//! let bot = tapete_mus_bots::by_name("basico").unwrap();
//! assert!(tapete_mus_bots::by_name("genius").is_err());
//! # drop(bot);
//! ```

mod basico;
pub mod strength;

pub use basico::Basico;
pub use tapete_mus::bots::RandomMus;

use tapete_mus::MusGame;
use tapete_table::Bot;

/// Names of every level, weakest first.
pub const LEVELS: &[&str] = &["random", "basico"];

/// The bot called `name` (`random`, `basico`), or an error listing the names.
pub fn by_name(name: &str) -> Result<Box<dyn Bot<MusGame>>, String> {
    match name.trim().to_lowercase().as_str() {
        "random" => Ok(Box::new(RandomMus)),
        "basico" | "básico" => Ok(Box::new(Basico::default())),
        other => Err(format!(
            "`{other}` is not a bot level: choose one of {}",
            LEVELS.join(", ")
        )),
    }
}
