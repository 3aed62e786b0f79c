//! `random`: any legal action, uniformly.

use crate::action::Action;
use crate::game::TikkiGame;
use crate::view::TikkiView;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use tapete_table::Bot;

/// Chooses uniformly among the legal actions.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomTikki;

impl Bot<TikkiGame> for RandomTikki {
    fn act(&mut self, _view: &TikkiView, legal: &[Action], rng: &mut ChaCha8Rng) -> Action {
        legal[rng.gen_range(0..legal.len())]
    }
}
