//! `avanzado`: the thesis' second level, built on the exact leyes instead of fixed rules.
//!
//! Like `basico` it decides cut/discard and the envites lance by lance from its own hand,
//! position, the declarations and the score, but every judgement is read off the exact
//! probabilities ([`crate::leyes_cache`]):
//!
//! - **corte**: cut when the hand's exact net value en paso at our position clears a bar
//!   (lower for the mano and after each mus);
//! - **descarte**: the discard with the best expected value over every possible draw
//!   ([`crate::discard`]);
//! - **envite**: the pair's chance from the leyes conditioned on the declarations heard,
//!   moved by the partner's and the rivals' envites; accept when the game equity of seeing
//!   the bet beats that of the deje, open above a threshold with a mixed band below it, raise
//!   a strong hand, órdago when the score calls for it; a few faroles.
//!
//! It plays without señas (it passes "ninguna") and has no mus policy beyond the bar: that
//! is `experto`.

use crate::policy::{self, Ctx, Style};
use rand_chacha::ChaCha8Rng;
use tapete_mus::{Action, MusGame, MusView};
use tapete_table::Bot;

/// The advanced player. Its randomness (mixed openings, faroles) comes from the rng.
#[derive(Clone, Debug)]
pub struct Avanzado {
    /// Its thresholds; [`policy::avanzado_style`] by default.
    pub style: Style,
}

impl Default for Avanzado {
    fn default() -> Self {
        Avanzado {
            style: policy::avanzado_style(),
        }
    }
}

impl Bot<MusGame> for Avanzado {
    fn act(&mut self, view: &MusView, legal: &[Action], rng: &mut ChaCha8Rng) -> Action {
        match Ctx::new(view, &self.style) {
            Some(ctx) => ctx.decide(legal, rng),
            None => crate::basico::choose(legal, Action::Paso),
        }
    }
}
