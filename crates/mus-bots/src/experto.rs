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
//!   sharper reading of the betting (a partner's *no quiero* counts);
//! - **a read of the table** ([`crate::read`]): from the hands finished this match it
//!   learns how often the rival pair lets an envite go, and bluffs more the more they do
//!   (a pair that folds three envites in four pays for a farol almost every time); against
//!   a pair that lets its raises go, an opening it would let go it raises instead, as a
//!   farol, as often as they fold; a rival whose bets were shown weak more often than its
//!   own has them read as partly faroles.
//!   Until the answers show it, it plays as if the rivals were like itself.
//!
//! The opponent styles ([`crate::policy::style`]) are experto's reading with one trait
//! changed and no read of the table: the same people every game.

use crate::policy::{self, Ctx, Exploit, Style};
use crate::read::TableRead;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use tapete_mus::{Action, MusGame, MusView};
use tapete_table::Bot;

/// The expert player. Its randomness (mixed openings, faroles) comes from the rng.
#[derive(Clone, Debug)]
pub struct Experto {
    /// Its thresholds; [`policy::experto_style`] by default.
    pub style: Style,
    /// What it has read of the table this match, if it reads it (shared, so that copies of
    /// the player in a search are cheap).
    pub read: Option<Arc<TableRead>>,
}

impl Default for Experto {
    fn default() -> Self {
        Experto {
            style: policy::experto_style(),
            read: Some(Arc::default()),
        }
    }
}

impl Experto {
    /// A player of `style` that does not read the table: an opponent style.
    pub fn fixed(style: Style) -> Experto {
        Experto { style, read: None }
    }

    /// Records the view's last finished hand, if it reads the table and the hand is new.
    /// Every view it is shown should pass here, forced turns included, or a hand may be
    /// missed (a view shows only the last one).
    pub fn observe(&mut self, view: &MusView) {
        if let Some(read) = &mut self.read {
            if read.is_new(view) {
                Arc::make_mut(read).observe(view);
            }
        }
    }
}

impl Bot<MusGame> for Experto {
    fn act(&mut self, view: &MusView, legal: &[Action], rng: &mut ChaCha8Rng) -> Action {
        self.observe(view);
        match Ctx::new(view, &self.style) {
            Some(ctx) => {
                let exploit = self
                    .read
                    .as_deref()
                    .map(|r| Exploit::of(r, ctx.seat, &self.style));
                ctx.reading(exploit).decide(legal, rng)
            }
            None => crate::basico::choose(legal, Action::Paso),
        }
    }
}
