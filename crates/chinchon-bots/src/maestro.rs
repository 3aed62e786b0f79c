//! `maestro`: to be written (see the brief); plays as `experto` meanwhile.

use rand_chacha::ChaCha8Rng;
use tapete_chinchon::{Action, ChinchonGame, ChinchonView};
use tapete_table::Bot;

/// The maestro player.
#[derive(Clone, Debug, Default)]
pub struct Maestro {
    inner: crate::Experto,
}

/// A maestro from its parameters (`ms=N`, `iters=N`; empty for the defaults).
pub fn from_params(params: &str) -> Result<Maestro, String> {
    if params.trim().is_empty() {
        Ok(Maestro::default())
    } else {
        Err(format!("`maestro:{params}`: maestro takes ms=N or iters=N"))
    }
}

impl Bot<ChinchonGame> for Maestro {
    fn act(&mut self, view: &ChinchonView, legal: &[Action], rng: &mut ChaCha8Rng) -> Action {
        self.inner.act(view, legal, rng)
    }
}
