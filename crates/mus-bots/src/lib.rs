//! Mus computer players. Each sees only its own [`tapete_mus::MusView`] and the legal
//! actions: no peeking, ever.
//!
//! Choose one by name with [`by_name`]: `random`, `basico`, `avanzado`, `experto`,
//! `maestro` (with its budget: `maestro:ms=200`).
//!
//! ```
//! let bot = tapete_mus_bots::by_name("basico").unwrap();
//! assert!(tapete_mus_bots::by_name("genius").is_err());
//! # drop(bot);
//! ```

mod avanzado;
mod basico;
mod experto;
pub mod maestro;
pub mod strength;

pub use avanzado::Avanzado;
pub use basico::Basico;
pub use experto::Experto;
pub use maestro::Maestro;
pub use tapete_mus::bots::RandomMus;

use tapete_mus::MusGame;
use tapete_table::Bot;

/// Names of every level, weakest first.
pub const LEVELS: &[&str] = &["random", "basico", "avanzado", "experto", "maestro"];

/// The bot called `name`, or an error listing the names. A level may carry parameters
/// after a colon: `maestro:ms=200`.
pub fn by_name(name: &str) -> Result<Box<dyn Bot<MusGame>>, String> {
    let spec = name.trim().to_lowercase();
    let (level, params) = spec.split_once(':').unwrap_or((spec.as_str(), ""));
    match level {
        "random" => Ok(Box::new(RandomMus)),
        "basico" | "básico" => Ok(Box::new(Basico::default())),
        "avanzado" => Ok(Box::new(Avanzado::default())),
        "experto" => Ok(Box::new(Experto::default())),
        "maestro" => Ok(Box::new(Maestro::new(maestro_ms(params)?))),
        other => Err(format!(
            "`{other}` is not a bot level: choose one of {}",
            LEVELS.join(", ")
        )),
    }
}

/// Parses maestro's parameters: empty, or `ms=N` (1–10000).
fn maestro_ms(params: &str) -> Result<u64, String> {
    if params.is_empty() {
        return Ok(maestro::DEFAULT_MS);
    }
    match params.split_once('=') {
        Some(("ms", n)) => match n.parse::<u64>() {
            Ok(ms) if (1..=10_000).contains(&ms) => Ok(ms),
            _ => Err(format!(
                "maestro:ms={n}: the budget is 1 to 10000 milliseconds"
            )),
        },
        _ => Err(format!(
            "`maestro:{params}`: maestro takes `ms=N`, e.g. maestro:ms=200"
        )),
    }
}
