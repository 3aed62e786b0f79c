//! Computer players, chosen by name. They see only their view.
//!
//! - `random`: a uniformly random legal action (never a false close, which a table may
//!   allow a person but the engine does not let a computer player make);
//! - `basico`: the source's rule-based player (see [`Basico`]).

mod basico;
mod random;

pub use basico::Basico;
pub use random::RandomChinchon;

use crate::game::ChinchonGame;
use tapete_table::Bot;

/// The built-in players, weakest first.
pub const BOT_NAMES: &[&str] = &["random", "basico"];

/// A computer player by name (`random`, `basico`; `básico` too), or an error naming the
/// choices.
pub fn by_name(name: &str) -> Result<Box<dyn Bot<ChinchonGame>>, String> {
    match name.trim().to_lowercase().as_str() {
        "random" => Ok(Box::new(RandomChinchon)),
        "basico" | "básico" => Ok(Box::new(Basico::default())),
        other => Err(format!(
            "`{other}` is not a Chinchón player: choose {}",
            BOT_NAMES.join(" or ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_by_name() {
        assert!(by_name("random").is_ok());
        assert!(by_name("Básico").is_ok());
        let e = by_name("maestro").err().unwrap();
        assert_eq!(
            e,
            "`maestro` is not a Chinchón player: choose random or basico"
        );
    }
}
