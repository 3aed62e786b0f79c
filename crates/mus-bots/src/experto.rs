//! `experto`: the thesis' third level. On top of `avanzado`'s exact leyes, expected-value
//! discards and equity-based envites it adds:
//!
//! - a **mus policy**: cut with 31 or duples always; otherwise the bar on the hand's net
//!   value rises with what the best discard promises (a hand that draws well asks for mus),
//!   falls for each rival who asked for mus before us (his hand is weak, ours relatively
//!   better), rises when the partner asked for mus, and falls close to the target;
//! - **señas**: it passes the most informative truthful seña (the rarest its hand allows)
//!   and reads the partner's, conditioning the leyes on it (pares / juego / ciego) and
//!   crediting the pair at grande, chica, pares and juego for what it says;
//! - **faroles** at tuned rates, likelier from the last seat of the pair to speak, and a
//!   sharper reading of the betting (a partner's *no quiero* counts).

use crate::policy::{self, Ctx, Style};
use rand_chacha::ChaCha8Rng;
use tapete_mus::{Action, MusGame, MusView};
use tapete_table::Bot;

/// The expert player. Its randomness (mixed openings, faroles) comes from the rng.
#[derive(Clone, Debug)]
pub struct Experto {
    /// Its thresholds; [`policy::experto_style`] by default.
    pub style: Style,
}

impl Default for Experto {
    fn default() -> Self {
        Experto {
            style: policy::experto_style(),
        }
    }
}

impl Bot<MusGame> for Experto {
    fn act(&mut self, view: &MusView, legal: &[Action], rng: &mut ChaCha8Rng) -> Action {
        match Ctx::new(view, &self.style) {
            Some(ctx) => ctx.decide(legal, rng),
            None => crate::basico::choose(legal, Action::Paso),
        }
    }
}
