//! A straightforward meld solver that tries every partition of the cards into melds and
//! loose cards, written independently of [`crate::meld`] from the rules' words, for tests
//! and benchmarks to compare the fast one against. Not part of the API.

use crate::card::Card;
use crate::meld::{Close, Discard};
use crate::rules::ChinchonRules;

/// The card's place in the sequence of escaleras, from its number and the deck.
fn seq_rank(card: Card, rules: &ChinchonRules) -> Option<u8> {
    let n = card.number()?;
    if rules.deck.per_suit() == 12 {
        return Some(n - 1);
    }
    match n {
        1..=7 => Some(n - 1),
        10..=12 => Some(n - 3),
        _ => None,
    }
}

/// Whether the cards form one meld: 3 or more cards, at most one joker, and the real ones
/// either all of one number (4 cards at most) or of one suit with distinct places in the
/// sequence whose gaps the joker can fill (or, without gaps, that it can extend).
pub fn is_meld(cards: &[Card], rules: &ChinchonRules) -> bool {
    let jokers = cards.iter().filter(|c| c.is_joker()).count();
    let reals: Vec<Card> = cards.iter().copied().filter(|c| !c.is_joker()).collect();
    if cards.len() < 3 || jokers > 1 {
        return false;
    }
    let first = reals[0];
    if cards.len() <= 4 && reals.iter().all(|c| c.number() == first.number()) {
        return true;
    }
    is_run(cards, rules)
}

/// Whether the cards form one escalera (a joker, at most one, standing for a card).
pub fn is_run(cards: &[Card], rules: &ChinchonRules) -> bool {
    let jokers = cards.iter().filter(|c| c.is_joker()).count();
    let reals: Vec<Card> = cards.iter().copied().filter(|c| !c.is_joker()).collect();
    if cards.len() < 3 || jokers > 1 {
        return false;
    }
    let suit = reals[0].suit();
    if reals.iter().any(|c| c.suit() != suit) {
        return false;
    }
    let mut ranks = Vec::new();
    for c in &reals {
        match seq_rank(*c, rules) {
            Some(r) => ranks.push(r as usize),
            None => return false,
        }
    }
    ranks.sort_unstable();
    if ranks.windows(2).any(|w| w[0] == w[1]) {
        return false;
    }
    let span = ranks[ranks.len() - 1] - ranks[0] + 1;
    let gaps = span - ranks.len();
    if gaps > jokers {
        return false;
    }
    // A joker with no gap to fill extends the escalera: there must be room.
    gaps == jokers || span < rules.deck.per_suit() as usize
}

/// Calls `f` with the places left loose (as a bitmask) for every way of laying the cards
/// into disjoint melds.
pub fn partitions(cards: &[Card], rules: &ChinchonRules, f: &mut impl FnMut(u16)) {
    fn walk(cards: &[Card], rules: &ChinchonRules, rest: u16, loose: u16, f: &mut impl FnMut(u16)) {
        if rest == 0 {
            f(loose);
            return;
        }
        let bit = rest & rest.wrapping_neg();
        walk(cards, rules, rest ^ bit, loose | bit, f);
        let others = rest ^ bit;
        let mut sub = others;
        loop {
            let t = sub | bit;
            if t.count_ones() >= 3 {
                let meld: Vec<Card> = (0..cards.len())
                    .filter(|i| t & (1 << i) != 0)
                    .map(|i| cards[i])
                    .collect();
                if is_meld(&meld, rules) {
                    walk(cards, rules, rest ^ t, loose, f);
                }
            }
            if sub == 0 {
                break;
            }
            sub = (sub - 1) & others;
        }
    }
    let all = ((1u32 << cards.len()) - 1) as u16;
    walk(cards, rules, all, 0, f);
}

fn sum(cards: &[Card], mask: u16, rules: &ChinchonRules) -> u16 {
    (0..cards.len())
        .filter(|i| mask & (1 << i) != 0)
        .map(|i| rules.value(cards[i]) as u16)
        .sum()
}

/// The least deadwood over every partition.
pub fn deadwood(cards: &[Card], rules: &ChinchonRules) -> u16 {
    let mut best = u16::MAX;
    partitions(cards, rules, &mut |loose| {
        best = best.min(sum(cards, loose, rules))
    });
    best
}

/// How seven cards close: one escalera of seven is chinchón; a partition with nothing
/// loose is menos diez; one with a single loose card worth the limit or less is a normal
/// close (the least such value; the card is the first of that value).
pub fn close(seven: &[Card], rules: &ChinchonRules) -> Option<Close> {
    if seven.len() != 7 {
        return None;
    }
    if is_run(seven, rules) {
        return Some(Close::Chinchon);
    }
    let mut none_loose = false;
    let mut one_loose: Option<(u8, usize)> = None;
    partitions(seven, rules, &mut |loose| match loose.count_ones() {
        0 => none_loose = true,
        1 => {
            let i = loose.trailing_zeros() as usize;
            let v = rules.value(seven[i]);
            if v <= rules.close_limit && one_loose.is_none_or(|(b, j)| (v, i) < (b, j)) {
                one_loose = Some((v, i));
            }
        }
        _ => {}
    });
    if none_loose {
        return Some(Close::MenosDiez);
    }
    one_loose.map(|(points, i)| Close::Normal {
        card: seven[i],
        points,
    })
}

/// Each discard from eight cards with the deadwood and close of the seven left.
pub fn discards(eight: &[Card], rules: &ChinchonRules) -> Vec<Discard> {
    (0..eight.len())
        .map(|i| {
            let mut seven = eight.to_vec();
            let card = seven.remove(i);
            Discard {
                card,
                deadwood: deadwood(&seven, rules),
                close: close(&seven, rules),
            }
        })
        .collect()
}
