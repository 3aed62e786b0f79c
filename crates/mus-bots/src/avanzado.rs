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

use crate::policy::{Ctx, Style};
use rand_chacha::ChaCha8Rng;
use tapete_mus::{Action, MusGame, MusView};
use tapete_table::Bot;

/// Avanzado's thresholds (see [`Style`] for each one's meaning).
pub fn style() -> Style {
    Style {
        cut_net: 2.0,
        cut_mano_bonus: 0.3,
        cut_step_per_mus: 0.5,
        mus_gain_weight: 0.0,
        rival_mus_read: 0.0,
        partner_mus_read: 0.0,
        open_min: 0.6,
        open_band: 0.1,
        open_big: 0.85,
        open_big_amount: 4,
        raise_min: 0.85,
        accept_margin: 0.05,
        pending_margin: 0.1,
        rival_bet_shrink: 0.6,
        partner_bet_help: 0.4,
        partner_decline_cut: 0.0,
        bluff_rate: 0.05,
        bluff_position_factor: 1.0,
        score_weight: 0.2,
        senas: false,
    }
}

/// The advanced player. Its randomness (mixed openings, faroles) comes from the rng.
#[derive(Clone, Debug)]
pub struct Avanzado {
    /// Its thresholds; [`style`] by default.
    pub style: Style,
}

impl Default for Avanzado {
    fn default() -> Self {
        Avanzado { style: style() }
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
