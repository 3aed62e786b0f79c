//! Computer players. Each sees only its own [`MusView`] and the legal actions: no peeking.
//!
//! Choose one by name with [`by_name`]: `random`, `basico`.

mod basico;
mod random;
pub mod strength;

pub use basico::{choose, discard, Basico};
pub use random::RandomMus;

use crate::MusGame;
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
