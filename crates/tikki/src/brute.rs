//! A slow, independent ranking for tests: classify a list of cards by the spec's words and
//! search every subset (small sets) or every combination of the deck (large sets). It shares
//! nothing with [`crate::combo::best`] but the card type.

use crate::card::{Card, Cards, Suit};

/// The spec's list, best first; a combination's place in it (0 = 7-card straight flush).
const ORDER: [&str; 10] = [
    "sf7", "sf6", "sf5", "four", "sf4", "sf3", "three", "sf2", "pair", "single",
];

/// A combination's value as the spec states it: (place in the list counted from the
/// bottom, top rank, top suit counted from ♣ = 0 to ♠ = 3). Higher is better.
pub type Value = (usize, u8, u8);

fn suit_value(s: Suit) -> u8 {
    match s {
        Suit::Spades => 3,
        Suit::Hearts => 2,
        Suit::Diamonds => 1,
        Suit::Clubs => 0,
    }
}

/// What `cards` are, if they form exactly one combination.
pub fn classify(cards: &[Card]) -> Option<Value> {
    let mut v = cards.to_vec();
    v.sort_by_key(|c| (c.rank(), 3 - suit_value(c.suit())));
    let top = *v.iter().max_by_key(|c| (c.rank(), suit_value(c.suit())))?;
    let name = if v.iter().all(|c| c.rank() == top.rank()) {
        match v.len() {
            1 => "single",
            2 => "pair",
            3 => "three",
            4 => "four",
            _ => return None,
        }
    } else {
        let one_suit = v.iter().all(|c| c.suit() == top.suit());
        let consecutive = v.windows(2).all(|w| w[1].rank() == w[0].rank() + 1);
        if !(one_suit && consecutive) {
            return None;
        }
        match v.len() {
            2 => "sf2",
            3 => "sf3",
            4 => "sf4",
            5 => "sf5",
            6 => "sf6",
            7 => "sf7",
            _ => return None,
        }
    };
    let place = ORDER.iter().position(|&n| n == name)?;
    Some((ORDER.len() - place, top.rank(), suit_value(top.suit())))
}

/// The best value among all subsets of `cards` (at most 16 cards).
pub fn best_by_subsets(cards: Cards) -> Option<(Value, Cards)> {
    let v = cards.to_vec();
    assert!(v.len() <= 16, "too many cards for a search of subsets");
    let mut best: Option<(Value, Cards)> = None;
    for mask in 1u32..(1 << v.len()) {
        let pick: Vec<Card> = (0..v.len())
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| v[i])
            .collect();
        if let Some(val) = classify(&pick) {
            if best.is_none_or(|(b, _)| val > b) {
                best = Some((val, pick.into_iter().collect()));
            }
        }
    }
    best
}

/// Every combination the deck holds (each rank group of 1–4 cards, every run of 2–7).
pub fn all_combinations() -> Vec<Vec<Card>> {
    let mut out = Vec::new();
    for rank in 1..=13u8 {
        let four: Vec<Card> = Suit::ALL
            .iter()
            .filter_map(|&s| Card::new(rank, s))
            .collect();
        for mask in 1u32..16 {
            out.push(
                (0..4)
                    .filter(|i| mask >> i & 1 == 1)
                    .map(|i| four[i])
                    .collect(),
            );
        }
    }
    for suit in Suit::ALL {
        for len in 2..=7u8 {
            for low in 1..=(14 - len) {
                out.push(
                    (low..low + len)
                        .filter_map(|r| Card::new(r, suit))
                        .collect(),
                );
            }
        }
    }
    out
}

/// The best value among the deck's combinations contained in `cards` (any size).
pub fn best_by_catalog(cards: Cards) -> Option<(Value, Cards)> {
    all_combinations()
        .into_iter()
        .filter(|c| c.iter().all(|&x| cards.contains(x)))
        .filter_map(|c| classify(&c).map(|v| (v, c.into_iter().collect::<Cards>())))
        .max_by_key(|(v, _)| *v)
}
