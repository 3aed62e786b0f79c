//! Computer players, chosen by name. They see only their view.
//!
//! - `random`: any legal action, uniformly (any non-empty part of the hand when laying;
//!   `keep` or any retreat pair in the retreat round);
//! - `basico`: greedy and sensible (see [`Basico`]).

mod basico;
mod random;

pub use basico::{Basico, Trick};
pub use random::RandomTikki;

use crate::game::TikkiGame;
use tapete_table::Bot;

/// The built-in players, weakest first.
pub const BOT_NAMES: &[&str] = &["random", "basico"];

/// A computer player by name (`random`, `basico`; `básico` too), or an error naming the
/// choices.
pub fn by_name(name: &str) -> Result<Box<dyn Bot<TikkiGame>>, String> {
    match name.trim().to_lowercase().as_str() {
        "random" => Ok(Box::new(RandomTikki)),
        "basico" | "básico" => Ok(Box::new(Basico)),
        other => Err(format!(
            "`{other}` is not a tikki player: choose {}",
            BOT_NAMES.join(" or ")
        )),
    }
}
