//! Sets of cards as a 40-bit mask: cheap to copy, compare and count.

use crate::Card;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// Any subset of the Spanish deck, one bit per card index.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CardSet(u64);

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet(0);

    /// All 40 cards.
    pub fn full() -> CardSet {
        CardSet((1u64 << Card::COUNT) - 1)
    }

    /// The raw bitmask (bit `i` is the card with index `i`).
    pub fn bits(self) -> u64 {
        self.0
    }

    /// Number of cards in the set.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// True when the set holds no card.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when `card` is in the set.
    pub fn contains(self, card: Card) -> bool {
        self.0 & (1 << card.index()) != 0
    }

    /// Adds `card`; returns false if it was already there.
    pub fn insert(&mut self, card: Card) -> bool {
        let had = self.contains(card);
        self.0 |= 1 << card.index();
        !had
    }

    /// Removes `card`; returns false if it was not there.
    pub fn remove(&mut self, card: Card) -> bool {
        let had = self.contains(card);
        self.0 &= !(1 << card.index());
        had
    }

    /// Cards in both sets.
    pub fn intersection(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }

    /// Cards in either set.
    pub fn union(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }

    /// Cards of `self` not in `other`.
    pub fn difference(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }

    /// True when every card of `self` is in `other`.
    pub fn is_subset(self, other: CardSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// The cards in index order.
    pub fn iter(self) -> impl Iterator<Item = Card> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Card::from_index(i)
        })
    }

    /// The cards as a vector, in index order.
    pub fn to_vec(self) -> Vec<Card> {
        self.iter().collect()
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        let mut s = CardSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{self}}}")
    }
}

impl Serialize for CardSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for CardSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CardSet, D::Error> {
        let cards = Vec::<Card>::deserialize(d)?;
        Ok(cards.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let a: CardSet = ["12o", "1b", "5c"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        let b: CardSet = ["1b", "7e"].iter().map(|s| s.parse().unwrap()).collect();
        assert_eq!(a.len(), 3);
        assert_eq!(a.intersection(b).len(), 1);
        assert_eq!(a.union(b).len(), 4);
        assert_eq!(a.difference(b).len(), 2);
        assert!(a.intersection(b).is_subset(a));
        assert!(!b.is_subset(a));
        assert_eq!(CardSet::full().len(), 40);
        assert_eq!(a.to_string(), "12o 5c 1b");
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(json, r#"["12o","5c","1b"]"#);
        assert_eq!(serde_json::from_str::<CardSet>(&json).unwrap(), a);
    }
}
