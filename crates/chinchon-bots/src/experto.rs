//! `experto`: to be written (see the brief); plays as `basico` meanwhile.

use rand_chacha::ChaCha8Rng;
use tapete_chinchon::bots::Basico;
use tapete_chinchon::{Action, ChinchonGame, ChinchonView};
use tapete_table::Bot;

/// The experto player.
#[derive(Clone, Debug, Default)]
pub struct Experto {
    inner: Basico,
}

impl Bot<ChinchonGame> for Experto {
    fn act(&mut self, view: &ChinchonView, legal: &[Action], rng: &mut ChaCha8Rng) -> Action {
        self.inner.act(view, legal, rng)
    }
}
