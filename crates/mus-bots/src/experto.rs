//! `experto` (being written): plays as `basico` for now.

use crate::Basico;
use rand_chacha::ChaCha8Rng;
use tapete_mus::{Action, MusGame, MusView};
use tapete_table::Bot;

/// The thesis' third level.
#[derive(Clone, Debug, Default)]
pub struct Experto {
    inner: Basico,
}

impl Bot<MusGame> for Experto {
    fn act(&mut self, view: &MusView, legal: &[Action], rng: &mut ChaCha8Rng) -> Action {
        self.inner.act(view, legal, rng)
    }
}
