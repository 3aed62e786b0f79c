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
///
/// A card that can be in no meld with the seven (no card of its number among them, none
/// of its suit within two places, no joker) is worked out without solving the eight: it
/// stays unmatched whatever is discarded, so the best is either to put it back or to
/// keep it instead of the card whose removal leaves the least deadwood; and it closes
/// only if the seven close, or if six of them are all in melds and it is worth no more
/// than the close limit.
pub fn outlook(solver: &Solver, seven: &[Card; 7], unseen: &Hand) -> Outlook {
    let Ok(a7) = solver.analyze(seven) else {
        return Outlook::default();
    };
    let deadwood = a7.deadwood();
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
    let (mut dw, mut close, mut md, mut ch) = (0u32, 0u32, 0u32, 0u32);
    let mut count = |k: u32, least: u16, c: Option<Close>| {
        dw += k * least as u32;
        match c {
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
    };
    // The least deadwood of six of the seven, through any card that joins none of them.
    let mut six: Option<u16> = None;
    for x in unseen.distinct() {
        let k = unseen.count(x) as u32;
        if !joins(solver, seven, x) {
            let least6 = match six {
                Some(m) => m,
                None => {
                    eight[7] = x;
                    let Ok(a) = solver.analyze(&eight) else {
                        continue;
                    };
                    let vx = solver.value(x) as u16;
                    let m = a
                        .discards()
                        .iter()
                        .take(7)
                        .map(|d| d.deadwood - vx)
                        .min()
                        .unwrap_or(deadwood);
                    six = Some(m);
                    m
                }
            };
            let vx = solver.value(x);
            let least = deadwood.min(least6 + vx as u16);
            let c = match a7.close() {
                Some(c) => Some(c),
                None if least6 == 0 && vx <= solver.close_limit() => Some(Close::Normal {
                    card: x,
                    points: vx,
                }),
                None => None,
            };
            count(k, least, c);
            continue;
        }
        eight[7] = x;
        let Ok(a) = solver.analyze(&eight) else {
            continue;
        };
        let least = a.discards().iter().map(|d| d.deadwood).min().unwrap_or(0);
        count(k, least, a.close());
    }
    let n = n as f64;
    o.next_deadwood = dw as f64 / n;
    o.p_close = close as f64 / n;
    o.p_menos_diez = md as f64 / n;
    o.p_chinchon = ch as f64 / n;
    o
}

/// Whether `x` can be in a meld with some of `seven`: it is a joker, or one of them is,
/// or one has its number, or one of its suit lies within two places.
fn joins(solver: &Solver, seven: &[Card; 7], x: Card) -> bool {
    if x.is_joker() {
        return true;
    }
    seven.iter().any(|&y| {
        y.is_joker()
            || (y.number() == x.number())
            || (y.suit() == x.suit()
                && matches!((solver.rank(x), solver.rank(y)), (Some(a), Some(b)) if a.abs_diff(b) <= 2))
    })
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
