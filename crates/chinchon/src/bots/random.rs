//! `random`: any legal action, uniformly, but never a false close.

use crate::action::Action;
use crate::game::ChinchonGame;
use crate::meld::Solver;
use crate::view::ChinchonView;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use tapete_table::Bot;

/// Chooses uniformly among the legal actions, leaving out closes that do not meet the
/// rules (listed only when the table allows false closes, which are for people).
#[derive(Clone, Debug, Default)]
pub struct RandomChinchon;

/// Whether `cierro card` would be a false close for the seat whose view this is.
pub fn is_false_close(view: &ChinchonView, card: crate::Card) -> bool {
    let mut rest = view.hand;
    if !rest.remove(card) || rest.len() != 7 {
        return false;
    }
    let seven: Vec<crate::Card> = rest.iter().collect();
    Solver::new(&view.rules).closing(&seven).is_none()
}

impl Bot<ChinchonGame> for RandomChinchon {
    fn act(&mut self, view: &ChinchonView, legal: &[Action], rng: &mut ChaCha8Rng) -> Action {
        let fair: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|a| match a {
                Action::Cierro(c) => !view.rules.allow_false_close || !is_false_close(view, *c),
                _ => true,
            })
            .collect();
        let pool = if fair.is_empty() { legal } else { &fair };
        pool[rng.gen_range(0..pool.len())]
    }
}
