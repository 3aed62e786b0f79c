//! Discards chosen by expected value over the possible draws.
//!
//! For each of the 15 ways to throw 1–4 cards, every multiset of ranks that can be drawn in
//! their place is enumerated with its exact weight — the product of binomials C(unseen of
//! that rank, drawn of that rank), the same counting as the odds catalogue — and the value of
//! the resulting jugada is averaged. The value is the jugada's exact expected net piedras en
//! paso at our position (ours less the rivals', [`crate::leyes_cache::values`]): a single
//! number that already weighs every lance by its cuenta and by the chance it is played.
//!
//! The cards we cannot see are the 36 not in our hand (the deck, the other hands and the
//! discards are all unknown to us and equally likely to be served). With the per-jugada
//! values precomputed, one decision is ~1,000 (8 reyes) or ~2,000 (4 reyes) table lookups:
//! a few microseconds.

use crate::leyes_cache::{dense, values};
use std::sync::OnceLock;
use tapete_cards::{binomial, Card, CardSet};
use tapete_mus::{Jugada, Mode, Rank};

/// Multisets of `k` ranks (k = 1..4) from a mode's ranks, as rank-count vectors.
fn multisets(mode: Mode) -> &'static [Vec<[u8; 10]>; 5] {
    static OCHO: OnceLock<[Vec<[u8; 10]>; 5]> = OnceLock::new();
    static CUATRO: OnceLock<[Vec<[u8; 10]>; 5]> = OnceLock::new();
    let cell = match mode {
        Mode::OchoReyes => &OCHO,
        Mode::CuatroReyes => &CUATRO,
    };
    cell.get_or_init(|| {
        let ranks = Rank::in_mode(mode);
        let mut out: [Vec<[u8; 10]>; 5] = Default::default();
        // Grow multisets one rank at a time, non-decreasing rank index, to avoid repeats.
        fn grow(
            ranks: &[Rank],
            from: usize,
            cur: &mut [u8; 10],
            size: usize,
            out: &mut [Vec<[u8; 10]>; 5],
        ) {
            out[size].push(*cur);
            if size == 4 {
                return;
            }
            for i in from..ranks.len() {
                cur[ranks[i] as usize] += 1;
                grow(ranks, i, cur, size + 1, out);
                cur[ranks[i] as usize] -= 1;
            }
        }
        grow(ranks, 0, &mut [0; 10], 0, &mut out);
        out
    })
}

/// Expected value of keeping `kept` (rank counts) and drawing `k` cards from `unseen`.
fn expected(kept: &[u8; 10], k: usize, unseen: &[u8; 10], mode: Mode, position: usize) -> f64 {
    let table = values(mode);
    let (mut sum, mut weight) = (0.0f64, 0u64);
    for draw in &multisets(mode)[k] {
        let mut w = 1u64;
        let mut ranks = [Rank::As; 4];
        let mut n = 0;
        for r in 0..10 {
            let d = draw[r] as usize;
            if d > 0 {
                w *= binomial(unseen[r] as usize, d);
            }
            for _ in 0..(d + kept[r] as usize) {
                if n < 4 {
                    ranks[n] = Rank::ALL[r];
                }
                n += 1;
            }
        }
        if w == 0 || n != 4 {
            continue;
        }
        sum += w as f64 * table[dense(Jugada::new(ranks))][position.min(3)] as f64;
        weight += w;
    }
    if weight == 0 {
        f64::NEG_INFINITY
    } else {
        sum / weight as f64
    }
}

/// Every non-empty discard of a 4-card hand with its expected value, best first.
pub fn ranked(cards: &[Card], mode: Mode, position: usize) -> Vec<(CardSet, f64)> {
    let ranks: Vec<Rank> = cards.iter().map(|&c| Rank::of(c, mode)).collect();
    let mut unseen = [0u8; 10];
    for &r in Rank::in_mode(mode) {
        unseen[r as usize] = r.copies(mode);
    }
    for r in &ranks {
        unseen[*r as usize] = unseen[*r as usize].saturating_sub(1);
    }
    let n = cards.len().min(4);
    let mut out: Vec<(CardSet, f64)> = Vec::with_capacity(15);
    for mask in 1u32..(1 << n) {
        let mut kept = [0u8; 10];
        let mut thrown = CardSet::default();
        for i in 0..n {
            if mask & (1 << i) != 0 {
                thrown.insert(cards[i]);
            } else {
                kept[ranks[i] as usize] += 1;
            }
        }
        let k = mask.count_ones() as usize;
        out.push((thrown, expected(&kept, k, &unseen, mode, position)));
    }
    // Best value first; among equal values, fewer cards thrown, then card order.
    out.sort_by(|a, b| {
        b.1.total_cmp(&a.1)
            .then(a.0.len().cmp(&b.0.len()))
            .then(a.0.to_vec().cmp(&b.0.to_vec()))
    });
    out
}

/// The discard with the highest expected value (never empty for a 4-card hand).
pub fn best(cards: &[Card], mode: Mode, position: usize) -> Option<CardSet> {
    ranked(cards, mode, position).first().map(|d| d.0)
}

/// The expected value of the best discard: what asking for mus promises this hand.
pub fn best_value(cards: &[Card], mode: Mode, position: usize) -> f64 {
    ranked(cards, mode, position)
        .first()
        .map_or(f64::NEG_INFINITY, |d| d.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(s: &str) -> Vec<Card> {
        s.split_whitespace().map(|c| c.parse().unwrap()).collect()
    }

    #[test]
    fn multiset_counts() {
        let m = multisets(Mode::OchoReyes);
        assert_eq!(
            [m[1].len(), m[2].len(), m[3].len(), m[4].len()],
            [8, 36, 120, 330]
        );
        assert_eq!(multisets(Mode::CuatroReyes)[4].len(), 715);
    }

    #[test]
    fn keeps_reyes_and_throws_the_middle() {
        let d = best(&cards("12o 3b 6c 5e"), Mode::OchoReyes, 0).unwrap();
        assert_eq!(d, cards("6c 5e").into_iter().collect::<CardSet>());
        assert_eq!(ranked(&cards("12o 3b 6c 5e"), Mode::OchoReyes, 0).len(), 15);
    }
}
