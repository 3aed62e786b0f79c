//! `basico`: placeholder, replaced below.
use crate::{Action, MusGame, MusView};
use rand_chacha::ChaCha8Rng;
use tapete_table::Bot;

#[derive(Clone, Debug, Default)]
pub struct Basico;

impl Bot<MusGame> for Basico {
    fn act(&mut self, _view: &MusView, legal: &[Action], _rng: &mut ChaCha8Rng) -> Action {
        legal[0].clone()
    }
}
