//! A shuffled deck dealt from a seeded ChaCha RNG, so a seed reproduces every deal.

use crate::chance::{rng_from_seed, shuffle};
use crate::Card;
use rand_chacha::ChaCha8Rng;

/// Cards face down, dealt from the top (the end of the vector).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deck {
    cards: Vec<Card>,
}

impl Deck {
    /// A full 40-card deck shuffled with the RNG seeded by `seed`.
    pub fn shuffled(seed: u64) -> Deck {
        let mut rng = rng_from_seed(seed);
        Deck::from_cards(Card::all().collect(), &mut rng)
    }

    /// A deck made of `cards`, shuffled with `rng` by tapete's pinned shuffle.
    pub fn from_cards(mut cards: Vec<Card>, rng: &mut ChaCha8Rng) -> Deck {
        shuffle(&mut cards, rng);
        Deck { cards }
    }

    /// A deck of `cards` as they lie, the top last, not shuffled again (the rest of a
    /// [`crate::chance::deal`]).
    pub fn stacked(cards: Vec<Card>) -> Deck {
        Deck { cards }
    }

    /// Cards left.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// True when no card is left.
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// Takes the top card.
    pub fn pop(&mut self) -> Option<Card> {
        self.cards.pop()
    }

    /// Takes up to `n` cards from the top.
    pub fn draw(&mut self, n: usize) -> Vec<Card> {
        let keep = self.cards.len().saturating_sub(n);
        let mut taken = self.cards.split_off(keep);
        taken.reverse();
        taken
    }

    /// The cards still in the deck (hidden information: for invariant checks and audit).
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_deal() {
        assert_eq!(Deck::shuffled(42), Deck::shuffled(42));
        assert_ne!(Deck::shuffled(42), Deck::shuffled(43));
        let mut d = Deck::shuffled(1);
        let top = d.cards().last().copied();
        assert_eq!(d.pop(), top);
        assert_eq!(d.draw(100).len(), 39);
        assert!(d.is_empty());
    }
}
