//! `random`: any legal action, picked so that every kind of call is equally likely.

use crate::{Action, MusGame, MusView};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use tapete_table::Bot;

/// Picks a kind of action uniformly (paso, envido, órdago…), then an amount if needed.
/// Uniform over the raw list would be nearly always an envido, since every amount is listed.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomMus;

fn kind(a: &Action) -> u8 {
    match a {
        Action::Envido(_) => 1,
        Action::Reenvido(_) => 2,
        _ => 0,
    }
}

impl Bot<MusGame> for RandomMus {
    fn act(&mut self, _view: &MusView, legal: &[Action], rng: &mut ChaCha8Rng) -> Action {
        let mut kinds: Vec<&Action> = Vec::new();
        for a in legal {
            if kind(a) == 0 || !kinds.iter().any(|k| kind(k) == kind(a)) {
                kinds.push(a);
            }
        }
        let pick = kinds[rng.gen_range(0..kinds.len())];
        if kind(pick) == 0 {
            return pick.clone();
        }
        // Amounts are drawn from the small ones players actually use.
        let same: Vec<&Action> = legal
            .iter()
            .filter(|a| kind(a) == kind(pick))
            .take(9)
            .collect();
        same[rng.gen_range(0..same.len())].clone()
    }
}
