//! The combination ranking against an independent search: every subset of small sets, every
//! combination of the deck for large ones; random sets, dense sets (whole suits, long runs,
//! whole ranks) and the spec's worked example.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tapete_tikki::brute::{best_by_catalog, best_by_subsets, classify};
use tapete_tikki::combo::{best, Kind};
use tapete_tikki::TikkiCards;
use tapete_tikki::{Card, Cards};

fn set(t: &str) -> Cards {
    t.split_whitespace().map(|c| c.parse().unwrap()).collect()
}

/// `best` agrees with a brute result: same value, same cards.
fn agrees(cards: Cards, brute: Option<((usize, u8, u8), Cards)>) {
    let ours = best(cards);
    match (ours, brute) {
        (None, None) => {}
        (Some(c), Some((value, bcards))) => {
            let v = classify(&c.cards.to_vec()).expect("best returns a real combination");
            assert_eq!(v, value, "{cards}: best says {c}, brute {bcards}");
            assert_eq!(c.cards, bcards, "{cards}");
            assert!(c.cards.is_subset(cards));
            assert_eq!(c.kind.len(), c.cards.len());
            let top = c.cards.iter().max_by_key(|x| x.strength()).unwrap();
            assert_eq!(c.top, top);
        }
        (o, b) => panic!("{cards}: best {o:?}, brute {b:?}"),
    }
}

#[test]
fn the_spec_worked_example() {
    let cards = set("3S 3H 4H 4D 5D");
    let b = best(cards).unwrap();
    assert_eq!(b.kind, Kind::StraightFlush2);
    assert_eq!(b.cards, set("4D 5D"));
    assert_eq!(b.top.to_string(), "5D");
    agrees(cards, best_by_subsets(cards));
}

#[test]
fn random_small_sets_match_every_subset() {
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    for _ in 0..3000 {
        let n = rng.gen_range(1..=9);
        let mut cards = Cards::EMPTY;
        // Dense picks: a few ranks and suits, so runs and groups are common.
        let low = rng.gen_range(1..=9u8);
        while cards.len() < n {
            let r = rng.gen_range(low..=(low + 4).min(13));
            let s = rng.gen_range(0..4);
            cards.insert(Card::from_index(usize::from(r - 1) * 4 + s).unwrap());
        }
        agrees(cards, best_by_subsets(cards));
    }
}

#[test]
fn dense_and_large_sets_match_the_catalog() {
    let suits = |mask: u8| -> Cards {
        (0..52)
            .filter_map(Card::from_index)
            .filter(|c| mask >> (c.index() % 4) & 1 == 1)
            .collect()
    };
    for mask in 1u8..16 {
        agrees(suits(mask), best_by_catalog(suits(mask)));
    }
    for top in 2..=13 {
        let deck = Cards::deck(top);
        agrees(deck, best_by_catalog(deck));
    }
    for s in 0..4 {
        for low in 1..=13u8 {
            for high in low..=13 {
                let run: Cards = (low..=high)
                    .filter_map(|r| Card::from_index(usize::from(r - 1) * 4 + s))
                    .collect();
                agrees(run, best_by_catalog(run));
            }
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(52);
    for _ in 0..1500 {
        let cards = Cards::from_bits(rng.gen::<u64>() & rng.gen::<u64>());
        agrees(cards, best_by_catalog(cards));
    }
}

#[test]
fn the_order_of_kinds_is_the_spec_list() {
    let cases = [
        ("1S 2S 3S 4S 5S 6S 7S", Kind::StraightFlush7),
        ("1S 2S 3S 4S 5S 6S", Kind::StraightFlush6),
        ("1S 2S 3S 4S 5S", Kind::StraightFlush5),
        ("13S 13H 13D 13C 12S 11S 10S", Kind::FourOfAKind),
        ("1C 2C 3C 4C 13S 13H 13D", Kind::StraightFlush4),
        ("1C 2C 3C 13S 13H 13D", Kind::StraightFlush3),
        ("13S 13H 13D 1C 2C", Kind::ThreeOfAKind),
        ("1C 2C 13S 13H", Kind::StraightFlush2),
        ("13S 13H 1C 3C", Kind::Pair),
        ("13S 1C 3C", Kind::Single),
    ];
    for (t, kind) in cases {
        assert_eq!(best(set(t)).unwrap().kind, kind, "{t}");
    }
    let a = best(set("5D 5C")).unwrap();
    let b = best(set("4S 4H")).unwrap();
    assert!(a > b, "rank before suit");
    assert!(best(set("4S 4H")).unwrap() > best(set("4D 4C")).unwrap());
    assert!(best(set("2C 3C")).unwrap() > best(set("13S 13H")).unwrap());
    // No wrap-around: king and ace of a suit are not a run.
    assert_eq!(best(set("13S 1S")).unwrap().kind, Kind::Single);
}

proptest! {
    #[test]
    fn any_hand_of_seven_matches_every_subset(bits in any::<u64>(), n in 1usize..=7) {
        let mut cards = Cards::EMPTY;
        for c in Cards::from_bits(bits).iter().take(n) {
            cards.insert(c);
        }
        prop_assume!(!cards.is_empty());
        agrees(cards, best_by_subsets(cards));
    }
}
