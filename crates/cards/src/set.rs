//! Sets of cards as a 64-bit mask, one bit per card of a deck: cheap to copy, compare and
//! count. One set type serves every game: it is generic over the card ([`CardIndex`]), so
//! Mus's Spanish cards and tikki's French ones share it.

use crate::Card;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;

/// A card with a place in its deck, `0..COUNT`: what a [`CardSet`] needs of it.
pub trait CardIndex: Copy {
    /// Cards in the deck, at most 64 (one bit each).
    const COUNT: usize;
    /// The card's place in the deck, `0..COUNT`.
    fn index(self) -> usize;
    /// The card at place `index`, or `None` past the deck.
    fn from_index(index: usize) -> Option<Self>;
}

impl CardIndex for Card {
    const COUNT: usize = Card::COUNT;

    fn index(self) -> usize {
        Card::index(self)
    }

    fn from_index(index: usize) -> Option<Card> {
        Card::from_index(index)
    }
}

/// Any subset of a deck, one bit per card index; by default of Mus's 40-card Spanish deck
/// ([`Card`]). Sets of one deck compare by their bits; a set iterates, prints and is stored
/// (as a list of cards) in index order.
pub struct CardSet<C = Card>(u64, PhantomData<fn() -> C>);

impl<C: CardIndex> CardSet<C> {
    /// The empty set.
    pub const EMPTY: CardSet<C> = CardSet(0, PhantomData);

    /// The bits of every card of the deck.
    const MASK: u64 = if C::COUNT >= 64 {
        u64::MAX
    } else {
        (1u64 << C::COUNT) - 1
    };

    /// Every card of the deck.
    pub fn full() -> CardSet<C> {
        CardSet(Self::MASK, PhantomData)
    }

    /// The set with these bits (bit `i` is the card with index `i`; bits past the deck
    /// are dropped).
    pub fn from_bits(bits: u64) -> CardSet<C> {
        CardSet(bits & Self::MASK, PhantomData)
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
    pub fn contains(self, card: C) -> bool {
        self.0 >> card.index() & 1 == 1
    }

    /// Adds `card`; returns false if it was already there.
    pub fn insert(&mut self, card: C) -> bool {
        let had = self.contains(card);
        self.0 |= 1 << card.index();
        !had
    }

    /// Removes `card`; returns false if it was not there.
    pub fn remove(&mut self, card: C) -> bool {
        let had = self.contains(card);
        self.0 &= !(1 << card.index());
        had
    }

    /// Cards in both sets.
    pub fn intersection(self, other: CardSet<C>) -> CardSet<C> {
        CardSet(self.0 & other.0, PhantomData)
    }

    /// Cards in either set.
    pub fn union(self, other: CardSet<C>) -> CardSet<C> {
        CardSet(self.0 | other.0, PhantomData)
    }

    /// Cards of `self` not in `other`.
    pub fn difference(self, other: CardSet<C>) -> CardSet<C> {
        CardSet(self.0 & !other.0, PhantomData)
    }

    /// True when every card of `self` is in `other`.
    pub fn is_subset(self, other: CardSet<C>) -> bool {
        self.0 & !other.0 == 0
    }

    /// The cards in index order.
    pub fn iter(self) -> impl Iterator<Item = C> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            C::from_index(i)
        })
    }

    /// The cards as a vector, in index order.
    pub fn to_vec(self) -> Vec<C> {
        self.iter().collect()
    }
}

impl<C> Clone for CardSet<C> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<C> Copy for CardSet<C> {}

impl<C> Default for CardSet<C> {
    fn default() -> Self {
        CardSet(0, PhantomData)
    }
}

impl<C> PartialEq for CardSet<C> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl<C> Eq for CardSet<C> {}

impl<C> PartialOrd for CardSet<C> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<C> Ord for CardSet<C> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.cmp(&other.0)
    }
}

impl<C> Hash for CardSet<C> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl<C: CardIndex> FromIterator<C> for CardSet<C> {
    fn from_iter<I: IntoIterator<Item = C>>(iter: I) -> CardSet<C> {
        let mut s = CardSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

impl<C: CardIndex + fmt::Display> fmt::Display for CardSet<C> {
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

impl<C: CardIndex + fmt::Display> fmt::Debug for CardSet<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{self}}}")
    }
}

impl<C: CardIndex + Serialize> Serialize for CardSet<C> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de, C: CardIndex + Deserialize<'de>> Deserialize<'de> for CardSet<C> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CardSet<C>, D::Error> {
        let cards = Vec::<C>::deserialize(d)?;
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
        assert_eq!(CardSet::<Card>::full().len(), 40);
        assert_eq!(a.to_string(), "12o 5c 1b");
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(json, r#"["12o","5c","1b"]"#);
        assert_eq!(serde_json::from_str::<CardSet>(&json).unwrap(), a);
    }

    #[test]
    fn bits_past_the_deck_are_dropped() {
        assert_eq!(CardSet::<Card>::from_bits(u64::MAX), CardSet::full());
        assert_eq!(CardSet::<Card>::from_bits(1 << 40), CardSet::EMPTY);
        assert!(
            CardSet::<Card>::EMPTY < CardSet::from_bits(1),
            "sets order by their bits"
        );
    }
}
