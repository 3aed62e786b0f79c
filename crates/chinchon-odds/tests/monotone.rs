//! "Within K draws" never falls as K grows — for random hands with many cards unseen and
//! near the stock's end, where the look-ahead spends the stock and it is rebuilt from the
//! pile — and the rebuild agrees with a plain enumeration over physical cards.

use proptest::prelude::*;
use tapete_chinchon::{Card, ChinchonRules, Solver};
use tapete_chinchon_odds::{odds, Query};

fn deck() -> Vec<Card> {
    ChinchonRules::default().deck.spec(0, 1).cards()
}

/// A shuffled 40-card deck: the first seven the hand, the next `seen` the pile.
fn split(order: &[usize], seen: usize) -> (Vec<Card>, Vec<Card>) {
    let cards = deck();
    let shuffled: Vec<Card> = order.iter().map(|&i| cards[i]).collect();
    (shuffled[..7].to_vec(), shuffled[7..7 + seen].to_vec())
}

fn within(hand: &[Card], seen: &[Card], draws: u8) -> Vec<(u128, u128)> {
    let q = Query {
        rules: ChinchonRules::default(),
        decks: 1,
        hand: hand.to_vec(),
        seen: seen.to_vec(),
        draws,
    };
    odds(&q)
        .unwrap()
        .within
        .iter()
        .map(|w| (w.exact.num, w.exact.den))
        .collect()
}

fn assert_growing(w: &[(u128, u128)]) {
    for pair in w.windows(2) {
        let ((a, b), (c, d)) = (pair[0], pair[1]);
        assert!(b > 0 && d > 0, "{w:?}");
        assert!(c * b >= a * d, "within K+1 below within K: {w:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn many_unseen(order in Just((0..40).collect::<Vec<usize>>()).prop_shuffle(), seen in 0usize..20) {
        let (hand, seen) = split(&order, seen);
        assert_growing(&within(&hand, &seen, 2));
    }

    #[test]
    fn near_the_stocks_end(order in Just((0..40).collect::<Vec<usize>>()).prop_shuffle(), unseen in 1usize..=3) {
        let (hand, seen) = split(&order, 33 - unseen);
        let w = within(&hand, &seen, 3);
        prop_assert_eq!(w.len(), 3);
        assert_growing(&w);
    }

    /// Hands a card from closing (1o 2o 3o and three 7s and one more), with one to three
    /// cards unseen, so that the first draws often close and the later ones come from the
    /// rebuilt stock.
    #[test]
    fn near_closing_near_the_stocks_end(order in Just((0..33).collect::<Vec<usize>>()).prop_shuffle(), unseen in 1usize..=3) {
        let base: Vec<Card> = "1o 2o 3o 7c 7e 7b"
            .split(' ')
            .map(|c| c.parse().unwrap())
            .collect();
        let others: Vec<Card> = deck().into_iter().filter(|c| !base.contains(c)).collect();
        let shuffled: Vec<Card> = order.iter().map(|&i| others[i]).collect();
        let mut hand = base.clone();
        hand.push(shuffled[0]);
        let seen = &shuffled[1 + unseen..];
        assert_growing(&within(&hand, seen, 3));
    }
}

/// The chance of closing within `k` draws, plainly: every physical card of the stock
/// drawn in turn, every discard tried, the stock rebuilt from the pile under its top card
/// when it runs out.
fn plain(
    solver: &Solver,
    hand: &[Card],
    stock: &[Card],
    pile: &[Card],
    top: Option<Card>,
    k: u8,
) -> f64 {
    if k == 0 {
        return 0.0;
    }
    let (stock, pile) = if stock.is_empty() {
        if pile.is_empty() {
            return 0.0;
        }
        (pile.to_vec(), Vec::new())
    } else {
        (stock.to_vec(), pile.to_vec())
    };
    let mut total = 0.0;
    for i in 0..stock.len() {
        let c = stock[i];
        let mut eight = hand.to_vec();
        eight.push(c);
        let closes = solver
            .analyze(&eight)
            .unwrap()
            .discards()
            .iter()
            .any(|d| d.can_close());
        if closes {
            total += 1.0;
            continue;
        }
        let mut rest = stock.clone();
        rest.remove(i);
        let mut under = pile.clone();
        under.extend(top);
        let best = (0..8)
            .map(|d| {
                let mut next = eight.clone();
                let down = next.remove(d);
                plain(solver, &next, &rest, &under, Some(down), k - 1)
            })
            .fold(0.0, f64::max);
        total += best;
    }
    total / stock.len() as f64
}

#[test]
fn the_rebuild_equals_a_plain_enumeration() {
    let c = |s: &str| {
        s.split_whitespace()
            .map(|x| x.parse::<Card>().unwrap())
            .collect::<Vec<_>>()
    };
    let solver = Solver::new(&ChinchonRules::default());
    let hand = c("1o 2o 3o 7c 7e 7b 12b");
    // Everything seen but the 4b and the 5e: two cards unseen, none of them an out, so
    // the third draw comes from the stock rebuilt from the pile.
    let all = deck();
    let unseen = c("4b 5e");
    let seen: Vec<Card> = all
        .iter()
        .copied()
        .filter(|x| !hand.contains(x) && !unseen.contains(x))
        .collect();
    let mut rest = deck();
    rest.retain(|x| !hand.contains(x) && !seen.contains(x));
    let w = within(&hand, &seen, 3);
    let q = Query {
        rules: ChinchonRules::default(),
        decks: 1,
        hand: hand.clone(),
        seen: seen.clone(),
        draws: 3,
    };
    let unseen_now = odds(&q).unwrap().unseen;
    assert_eq!(unseen_now, rest.len());
    for k in 1..=3u8 {
        let want = plain(&solver, &hand, &rest, &seen, None, k);
        let (num, den) = w[k as usize - 1];
        assert!(
            (num as f64 / den as f64 - want).abs() < 1e-12,
            "within {k}: {num}/{den} vs {want}"
        );
    }
    assert_eq!(w[1], (0, 1), "two draws take the two cards unseen");
    assert!(w[2].0 > 0, "the rebuilt stock holds outs: {w:?}");
    // A table that never rebuilds the stock ends the hand instead: no third draw.
    let never = Query {
        rules: ChinchonRules {
            stock_rebuilds: 0,
            ..ChinchonRules::default()
        },
        ..q
    };
    let w: Vec<String> = odds(&never)
        .unwrap()
        .within
        .iter()
        .map(|w| w.exact.to_string())
        .collect();
    assert_eq!(w, ["0/1", "0/1", "0/1"]);
}
