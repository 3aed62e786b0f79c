//! The exact method against brute force on small decks: every table and every pick of the
//! rest, counted one by one (4 suits × 3 values, 2 × 5, 3 × 4, every board and pick), and
//! the real game played over every ordering of a tiny deck.

use std::collections::BTreeMap;
use tapete_solitaire_odds::{
    distribution, types, win_count, win_probability, BigUint, Fraction, Params,
};

/// What brute force counts for one (board, pick).
#[derive(Default, Clone)]
struct Tally {
    /// (table, pick) pairs and the winning ones.
    pairs: u64,
    wins: u64,
    /// By type (parts, largest first): tables of the type, and the winning picks of each
    /// of them (all equal if the method is right).
    by_type: BTreeMap<Vec<u32>, (u64, Vec<u64>)>,
    /// Pairs by stacks, and by cards, left unhit.
    stacks: BTreeMap<usize, u64>,
    cards: BTreeMap<usize, u64>,
}

/// Every (table, pick) pair of a `suits × values` deck (card `i` has value `i % values`):
/// `tally[board][pick]`.
fn brute(suits: u32, values: u32) -> Vec<Vec<Tally>> {
    let deck = (suits * values) as usize;
    assert!(deck <= 16, "brute force is for small decks");
    let value = |card: usize| card % values as usize;
    let mut tally = vec![vec![Tally::default(); deck + 1]; deck + 1];
    let full: u32 = (1 << deck) - 1;
    for table in 0..=full {
        let board = table.count_ones() as usize;
        let mut stack = vec![0usize; values as usize];
        for card in (0..deck).filter(|&c| table >> c & 1 == 1) {
            stack[value(card)] += 1;
        }
        let mut parts: Vec<u32> = stack
            .iter()
            .filter(|&&s| s > 0)
            .map(|&s| s as u32)
            .collect();
        parts.sort_unstable_by(|a, b| b.cmp(a));
        let rest = full & !table;
        let mut winning_by_pick = vec![0u64; deck + 1];
        // Every subset of the rest, from the whole rest down to the empty one.
        let mut pick = rest;
        loop {
            let picked = pick.count_ones() as usize;
            let mut hit = vec![false; values as usize];
            for card in (0..deck).filter(|&c| pick >> c & 1 == 1) {
                hit[value(card)] = true;
            }
            let left: Vec<usize> = (0..values as usize)
                .filter(|&v| stack[v] > 0 && !hit[v])
                .collect();
            let t = &mut tally[board][picked];
            t.pairs += 1;
            if left.is_empty() {
                t.wins += 1;
                winning_by_pick[picked] += 1;
            }
            *t.stacks.entry(left.len()).or_default() += 1;
            let cards = left.iter().map(|&v| stack[v]).sum();
            *t.cards.entry(cards).or_default() += 1;
            if pick == 0 {
                break;
            }
            pick = (pick - 1) & rest;
        }
        for (picked, &w) in winning_by_pick.iter().enumerate() {
            let e = tally[board][picked]
                .by_type
                .entry(parts.clone())
                .or_default();
            e.0 += 1;
            e.1.push(w);
        }
    }
    tally
}

fn frac(n: u64, d: u64) -> Fraction {
    Fraction::new(n.into(), d.into()).expect("a denominator")
}

const DECKS: [(u32, u32); 3] = [(4, 3), (2, 5), (3, 4)];

/// Every (board, pick) of a deck with its brute-force tally.
fn each_case(mut check: impl FnMut(Params, &Tally)) {
    for (suits, values) in DECKS {
        let all = brute(suits, values);
        let deck = suits * values;
        for board in 0..=deck {
            for pick in 0..=deck - board {
                let p = Params {
                    suits,
                    values,
                    board,
                    pick,
                };
                check(p, &all[board as usize][pick as usize]);
            }
        }
    }
}

#[test]
fn the_fraction_is_the_count_of_winning_pairs() {
    let mut cases = 0;
    each_case(|p, t| {
        let c = win_count(&p).expect("valid parameters");
        assert_eq!(c.winning, BigUint::from(t.wins), "{p:?}");
        assert_eq!(c.total, BigUint::from(t.pairs), "{p:?}");
        assert_eq!(
            win_probability(&p).expect("valid"),
            frac(t.wins, t.pairs),
            "{p:?}"
        );
        cases += 1;
    });
    // 4 × 3 and 3 × 4: 91 (board, pick) each; 2 × 5: 66.
    assert_eq!(cases, 91 + 66 + 91);
    // Spot values, by hand from the counts: 4 × 3 with 4 + 4 is 3394/5775.
    let p = Params {
        suits: 4,
        values: 3,
        board: 4,
        pick: 4,
    };
    assert_eq!(win_probability(&p).expect("valid").to_string(), "3394/5775");
}

#[test]
fn every_type_matches_its_tables() {
    each_case(|p, t| {
        let ts = types(&p).expect("valid parameters");
        let tables: u64 = t.by_type.values().map(|e| e.0).sum();
        let shapes: Vec<&Vec<u32>> = t.by_type.keys().rev().collect();
        let listed: Vec<&Vec<u32>> = ts.iter().map(|x| &x.parts).collect();
        assert_eq!(listed, shapes, "{p:?}: the types, largest stacks first");
        let picks_per_table = t.pairs / tables;
        for x in &ts {
            let (count, wins) = &t.by_type[&x.parts];
            assert_eq!(x.tables, BigUint::from(*count), "{p:?} {:?}", x.parts);
            assert_eq!(x.probability, frac(*count, tables), "{p:?} {:?}", x.parts);
            // Every table of a type has as many winning picks as the type says.
            for &w in wins {
                assert_eq!(x.winning_picks, BigUint::from(w), "{p:?} {:?}", x.parts);
            }
            assert_eq!(x.win, frac(wins[0], picks_per_table), "{p:?} {:?}", x.parts);
        }
    });
}

#[test]
fn the_distribution_of_what_is_left_matches() {
    each_case(|p, t| {
        let d = distribution(&p).expect("valid parameters");
        for (r, x) in d.stacks.iter().enumerate() {
            let n = t.stacks.get(&r).copied().unwrap_or(0);
            assert_eq!(*x, frac(n, t.pairs), "{p:?}: {r} stacks left");
        }
        for (c, x) in d.cards.iter().enumerate() {
            let n = t.cards.get(&c).copied().unwrap_or(0);
            assert_eq!(*x, frac(n, t.pairs), "{p:?}: {c} cards left");
        }
        assert!(t.stacks.keys().all(|&r| r < d.stacks.len()), "{p:?}");
        assert!(t.cards.keys().all(|&c| c < d.cards.len()), "{p:?}");
    });
}

/// Plays the real game on one ordering of the deck (card `i` has value `i % values`):
/// whether the table is cleared.
fn real_game(order: &[usize], values: usize, board: usize) -> bool {
    let mut on_table = vec![false; values];
    for &c in &order[..board] {
        on_table[c % values] = true;
    }
    let mut stacks = on_table.iter().filter(|&&x| x).count();
    let mut i = board + 2;
    while stacks > 0 && i < order.len() {
        let v = order[i] % values;
        if on_table[v] {
            on_table[v] = false;
            stacks -= 1;
        }
        i += 3;
    }
    stacks == 0
}

/// Wins of the real game over every ordering of the deck (Heap's algorithm), and the
/// number of orderings.
fn every_ordering(suits: usize, values: usize, board: usize) -> (u64, u64) {
    let n = suits * values;
    let mut order: Vec<usize> = (0..n).collect();
    let mut c = vec![0usize; n];
    let (mut wins, mut games) = (u64::from(real_game(&order, values, board)), 1u64);
    let mut i = 0;
    while i < n {
        if c[i] < i {
            if i % 2 == 0 {
                order.swap(0, i);
            } else {
                order.swap(c[i], i);
            }
            wins += u64::from(real_game(&order, values, board));
            games += 1;
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
    (wins, games)
}

#[test]
fn the_pick_model_is_the_real_game() {
    // Nine cards (3 × 3), three on the table, two third cards among the six left; eight
    // (2 × 4) with two on the table, two third cards and a card never turned third.
    for (suits, values, board) in [(3u32, 3u32, 3u32), (2, 4, 2), (2, 4, 3), (3, 3, 2)] {
        let p = Params::real_game(suits, values, board).expect("a game");
        let (wins, games) = every_ordering(suits as usize, values as usize, board as usize);
        assert_eq!(
            win_probability(&p).expect("valid"),
            frac(wins, games),
            "{p:?}"
        );
    }
}
