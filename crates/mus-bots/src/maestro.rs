//! `maestro` (being written): plays as `basico` for now.

use crate::Basico;
use rand_chacha::ChaCha8Rng;
use tapete_mus::{Action, MusGame, MusView};
use tapete_table::Bot;

/// Default thinking budget per decision, in milliseconds.
pub const DEFAULT_MS: u64 = 200;

/// A search player; `ms` is its budget per decision.
#[derive(Clone, Debug)]
pub struct Maestro {
    /// Thinking budget per decision, in milliseconds.
    pub ms: u64,
    inner: Basico,
}

impl Maestro {
    /// A maestro thinking `ms` milliseconds per decision.
    pub fn new(ms: u64) -> Maestro {
        Maestro {
            ms,
            inner: Basico::default(),
        }
    }
}

impl Bot<MusGame> for Maestro {
    fn act(&mut self, view: &MusView, legal: &[Action], rng: &mut ChaCha8Rng) -> Action {
        self.inner.act(view, legal, rng)
    }
}
