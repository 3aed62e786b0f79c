//! What seven cards promise with the next draw: exact over the unseen cards, each a
//! uniform draw (the stock and the others' hidden cards are alike from where the player
//! sits). For every unseen card the eight cards are solved once, which gives the best
//! discard after it: so the chance to close with the next card (the exact `p_next` of
//! `tapete-chinchon-odds`), to close with menos diez or better, with a chinchón, and the
//! expected least deadwood after that draw.

use tapete_chinchon::meld::{Close, Solver};
use tapete_chinchon::{Card, Hand};

/// What seven cards are worth now and after one more draw (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Outlook {
    /// The least deadwood of the seven.
    pub deadwood: u16,
    /// Expected least deadwood after drawing a card and discarding the best one.
    pub next_deadwood: f64,
    /// Chance the next card lets them close.
    pub p_close: f64,
    /// Chance the next card makes menos diez or a chinchón.
    pub p_menos_diez: f64,
    /// Chance the next card makes a chinchón.
    pub p_chinchon: f64,
}

/// The outlook of `seven` cards when the next card is drawn from `unseen` (see the module
/// docs). With nothing unseen it is the seven as they are.
pub fn outlook(solver: &Solver, seven: &[Card; 7], unseen: &Hand) -> Outlook {
    let deadwood = solver.deadwood(seven).unwrap_or(u16::MAX);
    let n = unseen.len();
    let mut o = Outlook {
        deadwood,
        next_deadwood: deadwood as f64,
        ..Outlook::default()
    };
    if n == 0 {
        return o;
    }
    let mut eight = [Card::JOKER; 8];
    eight[..7].copy_from_slice(seven);
    let (mut dw, mut close, mut md, mut ch) = (0.0, 0u32, 0u32, 0u32);
    for x in unseen.distinct() {
        let k = unseen.count(x) as u32;
        eight[7] = x;
        let Ok(a) = solver.analyze(&eight) else {
            continue;
        };
        let least = a.discards().iter().map(|d| d.deadwood).min().unwrap_or(0);
        dw += (k * least as u32) as f64;
        match a.close() {
            Some(Close::Chinchon) => {
                close += k;
                md += k;
                ch += k;
            }
            Some(Close::MenosDiez) => {
                close += k;
                md += k;
            }
            Some(Close::Normal { .. }) => close += k,
            None => {}
        }
    }
    let n = n as f64;
    o.next_deadwood = dw / n;
    o.p_close = close as f64 / n;
    o.p_menos_diez = md as f64 / n;
    o.p_chinchon = ch as f64 / n;
    o
}

/// The cards of `hand` without one copy of `card`, as seven (when `hand` holds eight).
pub fn without(hand: &Hand, card: Card) -> Option<[Card; 7]> {
    let mut rest = *hand;
    if !rest.remove(card) || rest.len() != 7 {
        return None;
    }
    let mut seven = [Card::JOKER; 7];
    for (slot, c) in seven.iter_mut().zip(rest.iter()) {
        *slot = c;
    }
    Some(seven)
}
