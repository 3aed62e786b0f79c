//! Combinations and [`best`]: which combination a lay of cards counts as.
//!
//! Best first: 7-, 6-, 5-card straight flush, four of a kind, 4-card straight flush,
//! 3-card straight flush, three of a kind, 2-card straight flush, pair, single card. A
//! straight flush is consecutive ranks of one suit (the ace is only low: no wrap-around).
//! Within a kind the combination's highest card decides: rank first, then suit
//! (♠ > ♥ > ♦ > ♣). Of the cards a player lays only the single best combination counts; the
//! other cards are ballast (they still go to the trick's winner).
//!
//! **Ties cannot happen.** Two combinations of the same kind with the same top card are
//! never laid by two players: the top card is one physical card of a single deck, so only
//! one player can hold it. Within one player's cards the best is unique too: a straight
//! flush is fixed by its top card and length, and a pair or three of a kind with a given top
//! card can only be chosen several ways when the player holds three or four of that rank,
//! and then three or four of a kind beats it. So comparing (kind, top card) orders the
//! combinations of a trick strictly.
//!
//! Lays of more than seven cards never happen in play (a hand holds seven), but [`best`]
//! takes any set: a longer run counts as its top seven cards.
//!
//! ```
//! use tapete_tikki::combo::{best, Kind};
//! use tapete_tikki::Cards;
//!
//! let cards: Cards = "3S 3H 4H 4D 5D".split(' ').map(|c| c.parse().unwrap()).collect();
//! let b = best(cards).unwrap();
//! assert_eq!(b.kind, Kind::StraightFlush2);
//! assert_eq!(b.cards.to_string(), "4D 5D");
//! assert_eq!(b.top.to_string(), "5D");
//! ```

use crate::card::{Card, Cards};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::fmt;

/// The kinds of combination, weakest first (so the derived order is the ranking).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// One card.
    Single,
    /// Two cards of a rank.
    Pair,
    /// Two consecutive ranks of one suit.
    #[serde(rename = "straight_flush_2")]
    StraightFlush2,
    /// Three cards of a rank.
    ThreeOfAKind,
    /// Three consecutive ranks of one suit.
    #[serde(rename = "straight_flush_3")]
    StraightFlush3,
    /// Four consecutive ranks of one suit.
    #[serde(rename = "straight_flush_4")]
    StraightFlush4,
    /// All four cards of a rank.
    FourOfAKind,
    /// Five consecutive ranks of one suit.
    #[serde(rename = "straight_flush_5")]
    StraightFlush5,
    /// Six consecutive ranks of one suit.
    #[serde(rename = "straight_flush_6")]
    StraightFlush6,
    /// Seven consecutive ranks of one suit.
    #[serde(rename = "straight_flush_7")]
    StraightFlush7,
}

impl Kind {
    /// Every kind, weakest first.
    pub const ALL: [Kind; 10] = [
        Kind::Single,
        Kind::Pair,
        Kind::StraightFlush2,
        Kind::ThreeOfAKind,
        Kind::StraightFlush3,
        Kind::StraightFlush4,
        Kind::FourOfAKind,
        Kind::StraightFlush5,
        Kind::StraightFlush6,
        Kind::StraightFlush7,
    ];

    /// The straight flush of `len` cards (2–7).
    pub fn straight_flush(len: usize) -> Option<Kind> {
        match len {
            2 => Some(Kind::StraightFlush2),
            3 => Some(Kind::StraightFlush3),
            4 => Some(Kind::StraightFlush4),
            5 => Some(Kind::StraightFlush5),
            6 => Some(Kind::StraightFlush6),
            7 => Some(Kind::StraightFlush7),
            _ => None,
        }
    }

    /// The `len` cards of one rank (1–4).
    pub fn of_a_kind(len: usize) -> Option<Kind> {
        match len {
            1 => Some(Kind::Single),
            2 => Some(Kind::Pair),
            3 => Some(Kind::ThreeOfAKind),
            4 => Some(Kind::FourOfAKind),
            _ => None,
        }
    }

    /// How many cards a combination of this kind has.
    pub fn len(self) -> usize {
        match self {
            Kind::Single => 1,
            Kind::Pair | Kind::StraightFlush2 => 2,
            Kind::ThreeOfAKind | Kind::StraightFlush3 => 3,
            Kind::FourOfAKind | Kind::StraightFlush4 => 4,
            Kind::StraightFlush5 => 5,
            Kind::StraightFlush6 => 6,
            Kind::StraightFlush7 => 7,
        }
    }

    /// Never true: every kind has at least one card (here for the `len` convention).
    pub fn is_empty(self) -> bool {
        false
    }

    /// The name in the JSON of `tapete tikki best`: `straight_flush_7`, `pair`, `single`…
    pub fn key(self) -> &'static str {
        match self {
            Kind::Single => "single",
            Kind::Pair => "pair",
            Kind::StraightFlush2 => "straight_flush_2",
            Kind::ThreeOfAKind => "three_of_a_kind",
            Kind::StraightFlush3 => "straight_flush_3",
            Kind::StraightFlush4 => "straight_flush_4",
            Kind::FourOfAKind => "four_of_a_kind",
            Kind::StraightFlush5 => "straight_flush_5",
            Kind::StraightFlush6 => "straight_flush_6",
            Kind::StraightFlush7 => "straight_flush_7",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Kind::Single => f.write_str("single card"),
            Kind::Pair => f.write_str("pair"),
            Kind::ThreeOfAKind => f.write_str("three of a kind"),
            Kind::FourOfAKind => f.write_str("four of a kind"),
            sf => write!(f, "{}-card straight flush", sf.len()),
        }
    }
}

/// The combination a lay counts as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Combination {
    /// Its kind.
    #[serde(rename = "type")]
    pub kind: Kind,
    /// The cards that make it.
    pub cards: Cards,
    /// Its highest card, which decides between combinations of one kind.
    pub top: Card,
}

impl Combination {
    /// A number that orders combinations as the rules do (higher is better):
    /// kind first, then the top card's [`Card::strength`].
    pub fn score(&self) -> u16 {
        score(self.kind, self.top)
    }
}

fn score(kind: Kind, top: Card) -> u16 {
    (kind as u16) * 64 + u16::from(top.strength())
}

impl PartialOrd for Combination {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Combination {
    /// By the rules: kind, then top card. (Two different combinations with the same
    /// kind and top never meet in a trick; the cards break the tie only to keep the order
    /// total.)
    fn cmp(&self, other: &Self) -> Ordering {
        self.score()
            .cmp(&other.score())
            .then(self.cards.cmp(&other.cards))
    }
}

impl fmt::Display for Combination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.kind, self.cards)
    }
}

/// The best combination among `cards`, or `None` when there are none.
///
/// One pass over the thirteen ranks for groups of a kind and one over each suit for runs;
/// no allocation, so bots may call it for every subset of a hand.
pub fn best(cards: Cards) -> Option<Combination> {
    let bits = cards.bits();
    if bits == 0 {
        return None;
    }
    let mut found: Option<(u16, Kind, u64, u8)> = None;
    let mut consider = |kind: Kind, set: u64, top: u8| {
        let Some(card) = Card::from_index(usize::from(top)) else {
            return;
        };
        let s = score(kind, card);
        if found.is_none_or(|(b, ..)| s > b) {
            found = Some((s, kind, set, top));
        }
    };
    for r in 0..13u32 {
        let group = (bits >> (4 * r)) & 0xF;
        if group == 0 {
            continue;
        }
        let n = group.count_ones() as usize;
        // The strongest suit has the lowest index.
        let top = (4 * r + group.trailing_zeros()) as u8;
        if let Some(kind) = Kind::of_a_kind(n) {
            consider(kind, group << (4 * r), top);
        }
    }
    for suit in 0..4u32 {
        let mut run = 0usize;
        for r in 0..13u32 {
            let i = 4 * r + suit;
            if bits >> i & 1 == 0 {
                run = 0;
                continue;
            }
            run += 1;
            if run >= 2 {
                let len = run.min(7);
                let set = (0..len as u32).fold(0u64, |acc, k| acc | 1 << (i - 4 * k));
                if let Some(kind) = Kind::straight_flush(len) {
                    consider(kind, set, i as u8);
                }
            }
        }
    }
    let (_, kind, set, top) = found?;
    Some(Combination {
        kind,
        cards: Cards::from_bits(set),
        top: Card::from_index(usize::from(top))?,
    })
}

/// The score of [`best`] (0 for no cards): what bots compare when they only need the order.
pub fn best_score(cards: Cards) -> u16 {
    best(cards).map_or(0, |c| c.score())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(t: &str) -> Cards {
        t.split_whitespace().map(|c| c.parse().unwrap()).collect()
    }

    #[test]
    fn the_spec_example() {
        let b = best(set("3S 3H 4H 4D 5D")).unwrap();
        assert_eq!(
            (b.kind, b.cards, b.top),
            (Kind::StraightFlush2, set("4D 5D"), "5D".parse().unwrap())
        );
    }

    #[test]
    fn long_runs_count_their_top_seven() {
        let b = best(set("1H 2H 3H 4H 5H 6H 7H 8H 9H")).unwrap();
        assert_eq!(b.kind, Kind::StraightFlush7);
        assert_eq!(b.cards, set("3H 4H 5H 6H 7H 8H 9H"));
        assert_eq!(best(Cards::EMPTY), None);
        let q = best(set("9S 9H 9D 9C 1S 2S 3S 4S")).unwrap();
        assert_eq!(
            q.kind,
            Kind::FourOfAKind,
            "four of a kind beats a 4-card straight flush"
        );
    }

    #[test]
    fn kinds_serialize_as_the_cli_names_them() {
        for k in Kind::ALL {
            assert_eq!(
                serde_json::to_string(&k).unwrap(),
                format!("\"{}\"", k.key())
            );
        }
        assert_eq!(Kind::StraightFlush3.to_string(), "3-card straight flush");
    }
}
