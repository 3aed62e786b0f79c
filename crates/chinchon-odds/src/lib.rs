//! Exact Chinchón odds: with seven cards held and the cards known to be out of the stock,
//! the probability that the next stock card lets you close, which cards do ("outs"), and
//! the probability of being able to close within K draws when every discard is chosen to
//! make that as likely as possible (expectimax over the unseen cards).
//!
//! The cards you cannot see (the stock and the other hands) are exchangeable from where
//! you sit, so each draw is a uniform card of the unseen multiset, without replacement;
//! the cards you discard leave play. Probabilities are exact fractions: with `n` unseen
//! cards, the chance of closing within `k` draws is a whole count of ordered draw
//! sequences over `n (n−1) … (n−k+1)`, reduced.
//!
//! When the look-ahead asks for more draws than there are unseen cards, the stock runs out
//! on the way and is rebuilt as the game rebuilds it: the cards on the discard pile but its
//! top card (your last discard), shuffled. The model takes every seen card (`seen`) to lie
//! on the pile, so it comes back with the rebuilt stock together with your own discards;
//! only your own draws and discards are counted (others are not modelled). If the rules
//! allow no rebuild (`stock_rebuilds` 0: the hand ends when the stock runs out) or the
//! pile has nothing to rebuild from, no draw is left and the chance stays where it was.
//! So "within K" never falls as K grows: with one card unseen that closes, within 1 and
//! within 2 are both 1.
//!
//! ```
//! use tapete_chinchon::{Card, ChinchonRules};
//! use tapete_chinchon_odds::{odds, Query};
//!
//! let cards = |s: &str| s.split(' ').map(|c| c.parse::<Card>().unwrap()).collect::<Vec<_>>();
//! let q = Query {
//!     rules: ChinchonRules::default(),
//!     decks: 1,
//!     hand: cards("1o 2o 3o 7c 7e 7b 5b"),
//!     seen: vec![],
//!     draws: 1,
//! };
//! let o = odds(&q).unwrap();
//! // Any card ≤ 3 closes (discarding the 5b), as does a 4o, a 4b, a 6b, a 3b or the last 7.
//! assert!(o.outs.iter().any(|out| out.card.to_string() == "4o"));
//! assert_eq!(o.p_next, o.within[0].p);
//! ```

use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashMap;
use std::fmt;
use tapete_chinchon::meld::Solver;
use tapete_chinchon::ChinchonDeck;
use tapete_chinchon::{Card, ChinchonRules, Hand};

/// Most draws [`odds`] looks ahead.
pub const MAX_DRAWS: u8 = 3;

/// What to compute.
#[derive(Clone, Debug)]
pub struct Query {
    /// The table options (deck, jokers, close limit, figure values).
    pub rules: ChinchonRules,
    /// Decks shuffled together: 1, or 2 (tables above four players).
    pub decks: u8,
    /// The seven cards held.
    pub hand: Vec<Card>,
    /// Cards known to be out of the stock: the discard pile, cards others took from it.
    /// When the look-ahead spends the stock, they are taken to be on the pile and so come
    /// back in the rebuilt stock.
    pub seen: Vec<Card>,
    /// Look ahead this many draws (1–3).
    pub draws: u8,
}

/// An exact probability: `num / den`, reduced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ratio {
    pub num: u128,
    pub den: u128,
}

impl Ratio {
    /// `num / den` reduced (`den` must not be 0; 0/0 is taken as 0/1).
    pub fn new(num: u128, den: u128) -> Ratio {
        if den == 0 {
            return Ratio { num: 0, den: 1 };
        }
        let g = gcd(num, den);
        Ratio {
            num: num / g,
            den: den / g,
        }
    }

    /// As a float.
    pub fn value(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// Nothing: 0/1.
    pub const ZERO: Ratio = Ratio { num: 0, den: 1 };
    /// Certainty: 1/1.
    pub const ONE: Ratio = Ratio { num: 1, den: 1 };

    fn plus(self, o: Ratio) -> Ratio {
        let g = gcd(self.den, o.den);
        let den = self.den / g * o.den;
        Ratio::new(self.num * (o.den / g) + o.num * (self.den / g), den)
    }

    fn times(self, o: Ratio) -> Ratio {
        let a = Ratio::new(self.num, o.den);
        let b = Ratio::new(o.num, self.den);
        Ratio::new(a.num * b.num, a.den * b.den)
    }

    fn max(self, o: Ratio) -> Ratio {
        if self.num * o.den >= o.num * self.den {
            self
        } else {
            o
        }
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.num, self.den)
    }
}

impl Serialize for Ratio {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

/// A card whose draw lets you close, and how many of it are unseen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Out {
    /// The card.
    pub card: Card,
    /// Its unseen copies.
    pub unseen: u8,
}

/// The chance of closing within some draws.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Within {
    /// Draws.
    pub draws: u8,
    /// The probability, exact.
    pub exact: Ratio,
    /// The same as a float.
    pub p: f64,
}

/// The answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Odds {
    /// Cards you cannot see: the stock and the other hands.
    pub unseen: usize,
    /// Whether the seven cards held can close as they are (with no draw).
    pub closes_now: bool,
    /// The probability that the next stock card lets you close.
    pub p_next: f64,
    /// The same, exact.
    pub p_next_exact: Ratio,
    /// The cards that let you close, with their unseen copies.
    pub outs: Vec<Out>,
    /// For 1..=draws: the chance of closing within that many draws, discarding as well as
    /// possible.
    pub within: Vec<Within>,
}

/// Why a query was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OddsError {
    #[error("give the seven cards you hold, not {0}")]
    HandSize(usize),
    #[error("look ahead 1 to {MAX_DRAWS} draws, not {0}")]
    Draws(u8),
    #[error("{0}")]
    Rules(String),
    #[error("`{card}` is not in the deck{why}")]
    NotInDeck { card: Card, why: String },
    #[error("`{card}` is named {named} times (hand and seen cards together), but the deck holds {copies}")]
    TooMany {
        card: Card,
        named: usize,
        copies: u8,
    },
    #[error("no card is left unseen to draw")]
    NothingUnseen,
}

/// Computes the odds of `q` (see the crate's documentation).
pub fn odds(q: &Query) -> Result<Odds, OddsError> {
    odds_each(std::slice::from_ref(q))
        .pop()
        .unwrap_or(Err(OddsError::Draws(0)))
}

/// [`odds`] of several queries at once, in order. Queries with the same rules, decks and
/// unseen cards (a hand's discards weighed side by side: each leaves the same cards
/// unseen) share what is counted on the way — the hands of seven reached after a draw and
/// a discard are mostly the same — so they cost far less than one by one.
pub fn odds_each(queries: &[Query]) -> Vec<Result<Odds, OddsError>> {
    let prepared: Vec<Result<Prepared, OddsError>> = queries.iter().map(prepare).collect();
    let mut out: Vec<Option<Result<Odds, OddsError>>> = queries.iter().map(|_| None).collect();
    for i in 0..queries.len() {
        if out[i].is_some() {
            continue;
        }
        let p = match &prepared[i] {
            Ok(p) => p,
            Err(e) => {
                out[i] = Some(Err(e.clone()));
                continue;
            }
        };
        let solver = Solver::new(&queries[i].rules);
        let search = Search {
            solver: &solver,
            unseen0: p.unseen,
            last: std::sync::Mutex::new(HashMap::new()),
        };
        for j in i..queries.len() {
            if let Ok(pj) = &prepared[j] {
                let same = pj.unseen == p.unseen
                    && queries[j].decks == queries[i].decks
                    && queries[j].rules == queries[i].rules;
                if out[j].is_none() && same {
                    out[j] = Some(Ok(compute(&queries[j], pj, &search)));
                }
            }
        }
    }
    out.into_iter()
        .map(|o| o.unwrap_or(Err(OddsError::Draws(0))))
        .collect()
}

/// A query checked: its unseen cards, its hand sorted, the seen cards as a pile.
struct Prepared {
    unseen: Hand,
    hand: [Card; 7],
    pile: Hand,
}

fn prepare(q: &Query) -> Result<Prepared, OddsError> {
    if q.hand.len() != 7 {
        return Err(OddsError::HandSize(q.hand.len()));
    }
    if q.draws == 0 || q.draws > MAX_DRAWS {
        return Err(OddsError::Draws(q.draws));
    }
    q.rules.validate().map_err(OddsError::Rules)?;
    if q.decks == 0 || q.decks > 2 {
        return Err(OddsError::Rules(format!("decks: 1 or 2, not {}", q.decks)));
    }
    let deck = q.rules.deck.spec(q.rules.jokers, q.decks);
    let mut named: HashMap<Card, usize> = HashMap::new();
    for &c in q.hand.iter().chain(&q.seen) {
        let copies = deck.copies(c);
        if copies == 0 {
            let why = match deck.check(c) {
                Err(e) => format!(": {e}"),
                Ok(()) => String::new(),
            };
            return Err(OddsError::NotInDeck { card: c, why });
        }
        let n = named.entry(c).or_default();
        *n += 1;
        if *n > usize::from(copies) {
            return Err(OddsError::TooMany {
                card: c,
                named: *n,
                copies,
            });
        }
    }
    let mut unseen = deck.multiset();
    for &c in q.hand.iter().chain(&q.seen) {
        unseen.remove(c);
    }
    if unseen.is_empty() {
        return Err(OddsError::NothingUnseen);
    }
    let mut pile = Hand::EMPTY;
    for &c in &q.seen {
        // At most the deck's copies: checked above.
        let _ = pile.add(c);
    }
    Ok(Prepared {
        unseen,
        hand: sorted7(&q.hand),
        pile,
    })
}

/// The odds of a prepared query, counted with `search` (whose unseen cards are its own).
fn compute(q: &Query, p: &Prepared, search: &Search) -> Odds {
    let (unseen, hand, pile) = (p.unseen, p.hand, p.pile);
    let solver = search.solver;
    let closes_now = solver.closing(&hand).is_some();
    let n = unseen.len() as u128;
    let mut within = Vec::new();
    for k in 1..=q.draws {
        let exact = if u128::from(k) <= n {
            Ratio::new(search.best(&hand, &unseen, k), falling(n, k))
        } else {
            // The stock runs out on the way: rebuilt from the pile.
            let table = Table {
                stock: unseen,
                pile,
                top: None,
                rebuilds: q.rules.stock_rebuilds,
            };
            search.chance(&hand, &table, k)
        };
        within.push(Within {
            draws: k,
            exact,
            p: exact.value(),
        });
    }
    let outs: Vec<Out> = distinct(&unseen)
        .into_iter()
        .filter(|&c| search.closes_with(&hand, c))
        .map(|c| Out {
            card: c,
            unseen: unseen.count(c),
        })
        .collect();
    let p_next_exact = within[0].exact;
    Odds {
        unseen: unseen.len(),
        closes_now,
        p_next: p_next_exact.value(),
        p_next_exact,
        outs,
        within,
    }
}

/// `n (n−1) … (n−k+1)`: ordered draws of `k` from `n`.
fn falling(n: u128, k: u8) -> u128 {
    (0..u128::from(k)).map(|i| n.saturating_sub(i)).product()
}

fn sorted7(cards: &[Card]) -> [Card; 7] {
    let mut a = [Card::JOKER; 7];
    for (slot, c) in a.iter_mut().zip(cards) {
        *slot = *c;
    }
    a.sort();
    a
}

fn distinct(h: &Hand) -> Vec<Card> {
    h.distinct().collect()
}

/// Where the cards not held lie while the look-ahead spends and rebuilds the stock.
#[derive(Clone, Copy)]
struct Table {
    /// The cards that may be drawn (the unseen cards, then the rebuilt stock).
    stock: Hand,
    /// The discard pile under its top card: what a rebuild shuffles into the stock.
    pile: Hand,
    /// The pile's top card, which stays when the stock is rebuilt.
    top: Option<Card>,
    /// Rebuilds the rules still allow.
    rebuilds: u8,
}

/// For a hand of seven: how many of the starting unseen cards let it close, and which.
type LastDraws = HashMap<[Card; 7], (u128, Vec<Card>)>;

struct Search<'a> {
    solver: &'a Solver,
    /// The unseen cards at the start.
    unseen0: Hand,
    /// For a hand of seven: how many of the starting unseen cards (copies counted) let it
    /// close — the last draw's count, shared across every path that reaches the hand.
    last: std::sync::Mutex<LastDraws>,
}

impl Search<'_> {
    /// Whether seven cards and `drawn` can close (discarding one of the eight).
    fn closes_with(&self, hand: &[Card; 7], drawn: Card) -> bool {
        let mut eight = [Card::JOKER; 8];
        eight[..7].copy_from_slice(hand);
        eight[7] = drawn;
        self.solver
            .analyze(&eight)
            .map(|a| a.discards().iter().any(|d| d.can_close()))
            .unwrap_or(false)
    }

    /// The closing cards of `hand` among the starting unseen cards, and their count.
    fn last_draw(&self, hand: &[Card; 7]) -> (u128, Vec<Card>) {
        if let Some(hit) = self.last.lock().ok().and_then(|m| m.get(hand).cloned()) {
            return hit;
        }
        let mut count = 0u128;
        let mut outs = Vec::new();
        for c in self.unseen0.distinct() {
            if self.closes_with(hand, c) {
                count += u128::from(self.unseen0.count(c));
                outs.push(c);
            }
        }
        if let Ok(mut m) = self.last.lock() {
            m.insert(*hand, (count, outs.clone()));
        }
        (count, outs)
    }

    /// The chance that `hand` can close within `k` draws from `table`, discarding as well
    /// as possible, the stock rebuilt from the pile whenever it runs out (as long as the
    /// rules allow and the pile holds a card under its top). Exact and plain: used only
    /// when the stock runs out within the look-ahead, so with few cards left to draw
    /// before the rebuild.
    fn chance(&self, hand: &[Card; 7], table: &Table, k: u8) -> Ratio {
        if k == 0 {
            return Ratio::ZERO;
        }
        let mut t = *table;
        if t.stock.is_empty() {
            if t.rebuilds == 0 || t.pile.is_empty() {
                return Ratio::ZERO;
            }
            t.stock = t.pile;
            t.pile = Hand::EMPTY;
            t.rebuilds -= 1;
        }
        let n = t.stock.len() as u128;
        let mut total = Ratio::ZERO;
        for c in t.stock.distinct() {
            let share = Ratio::new(u128::from(t.stock.count(c)), n);
            let p = if self.closes_with(hand, c) {
                Ratio::ONE
            } else if k == 1 {
                Ratio::ZERO
            } else {
                let mut after = t;
                after.stock.remove(c);
                if let Some(top) = t.top {
                    // Buried under the new discard; at most the deck's copies.
                    let _ = after.pile.add(top);
                }
                let mut best = Ratio::ZERO;
                for (d, next) in discards(hand, c) {
                    after.top = Some(d);
                    best = best.max(self.chance(&next, &after, k - 1));
                }
                best
            };
            total = total.plus(share.times(p));
        }
        total
    }

    /// Ordered sequences of `k` draws from `unseen` after which `hand` can close at some
    /// draw, discarding as well as possible: the chance times `n (n−1) … (n−k+1)`.
    fn best(&self, hand: &[Card; 7], unseen: &Hand, k: u8) -> u128 {
        let n = unseen.len() as u128;
        if k == 1 {
            // The cards that close among the starting unseen ones, less those drawn since.
            let (count, outs) = self.last_draw(hand);
            let gone: u128 = outs
                .iter()
                .map(|&c| u128::from(self.unseen0.count(c) - unseen.count(c)))
                .sum();
            return count - gone;
        }
        let rest = falling(n.saturating_sub(1), k - 1);
        let cards = distinct(unseen);
        let one = |c: Card| -> u128 {
            let copies = u128::from(unseen.count(c));
            if self.closes_with(hand, c) {
                return copies * rest;
            }
            let mut after = *unseen;
            after.remove(c);
            let mut best = 0u128;
            for (_, next) in discards(hand, c) {
                best = best.max(self.best(&next, &after, k - 1));
            }
            copies * best
        };
        if k >= 3 {
            cards.par_iter().map(|&c| one(c)).sum()
        } else {
            cards.iter().map(|&c| one(c)).sum()
        }
    }
}

/// Each distinct card of `hand` and `drawn` that can be discarded, with the seven cards it
/// leaves, sorted: the choices after a draw.
fn discards(hand: &[Card; 7], drawn: Card) -> Vec<(Card, [Card; 7])> {
    let mut eight = [Card::JOKER; 8];
    eight[..7].copy_from_slice(hand);
    eight[7] = drawn;
    let mut out: Vec<(Card, [Card; 7])> = Vec::with_capacity(8);
    for (i, &d) in eight.iter().enumerate() {
        if out.iter().any(|(t, _)| *t == d) {
            continue;
        }
        let mut next = [Card::JOKER; 7];
        let kept = eight
            .iter()
            .enumerate()
            .filter(|&(pos, _)| pos != i)
            .map(|(_, &x)| x);
        for (slot, x) in next.iter_mut().zip(kept) {
            *slot = x;
        }
        next.sort();
        out.push((d, next));
    }
    out
}

#[cfg(test)]
mod tests;
