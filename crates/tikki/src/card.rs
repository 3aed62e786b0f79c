//! The French cards of tikki and sets of them.
//!
//! A [`Card`] is a rank 1 (ace, the lowest) to 13 of a suit; suits rank ♠ > ♥ > ♦ > ♣. Cards
//! are written rank then suit letter (`1S`, `10H`, `13C`); the suit symbols (`1♠`) and lower
//! case are read too, the letter form is printed. A [`Cards`] is any set of them in one
//! `u64`, so hands, tricks and piles are cheap to copy, compare and count.
//!
//! Card `index` is `(rank - 1) * 4 + suit` with suit 0 = ♠ … 3 = ♣: a set iterates by rank,
//! lowest first, and within a rank from ♠ to ♣, which is how hands read best ("3S 3H 4H").

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use tapete_cards::decks::{DeckError, DeckSpec, Face};
use tapete_cards::{CardIndex, CardSet};

/// The four suits, strongest first (their index in card notation order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Suit {
    /// ♠, the strongest.
    Spades,
    /// ♥.
    Hearts,
    /// ♦.
    Diamonds,
    /// ♣, the weakest.
    Clubs,
}

impl Suit {
    /// All suits, strongest first.
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// The letter of card notation: `S`, `H`, `D`, `C`.
    pub fn letter(self) -> char {
        ['S', 'H', 'D', 'C'][self as usize]
    }

    /// The suit's symbol: ♠ ♥ ♦ ♣.
    pub fn symbol(self) -> char {
        ['♠', '♥', '♦', '♣'][self as usize]
    }
}

/// One card: a rank 1–13 of a suit, stored as its index `0..52`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// Cards in the full deck.
    pub const COUNT: usize = 52;

    /// The card of `rank` (1–13) and `suit`, or `None` for another rank.
    pub fn new(rank: u8, suit: Suit) -> Option<Card> {
        (1..=13)
            .contains(&rank)
            .then(|| Card((rank - 1) * 4 + suit as u8))
    }

    /// The card with index `0..52`.
    pub fn from_index(index: usize) -> Option<Card> {
        (index < Self::COUNT).then_some(Card(index as u8))
    }

    /// The index `(rank - 1) * 4 + suit`.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The rank, 1 (ace, lowest) to 13.
    pub fn rank(self) -> u8 {
        self.0 / 4 + 1
    }

    /// The suit.
    pub fn suit(self) -> Suit {
        Suit::ALL[usize::from(self.0 % 4)]
    }

    /// How strong the card is as the top of a combination: rank first, then suit
    /// (♠ > ♥ > ♦ > ♣). Higher is stronger; `0..52`, all different.
    pub fn strength(self) -> u8 {
        (self.0 / 4) * 4 + (3 - self.0 % 4)
    }

    fn from_face(face: Face) -> Option<Card> {
        match face {
            Face::Card { rank, suit } if suit < 4 => Card::new(rank, Suit::ALL[usize::from(suit)]),
            _ => None,
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank(), self.suit().letter())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a text is not a card.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CardError(String);

impl From<DeckError> for CardError {
    fn from(e: DeckError) -> CardError {
        CardError(e.to_string())
    }
}

impl FromStr for Card {
    type Err = CardError;

    fn from_str(s: &str) -> Result<Card, CardError> {
        let face = DeckSpec::french52().parse(s)?;
        Card::from_face(face).ok_or_else(|| CardError(format!("`{}` is not a card", s.trim())))
    }
}

tapete_cards::serde_as_text!(Card);

/// A set of tikki's cards: tapete's [`CardSet`] over the French deck, one bit per card
/// index, iterating by rank, lowest first, then ♠ to ♣. What only tikki asks of a set (its
/// smaller decks, rank counts, pile points) is [`TikkiCards`].
pub type Cards = CardSet<Card>;

impl CardIndex for Card {
    const COUNT: usize = Card::COUNT;

    fn index(self) -> usize {
        Card::index(self)
    }

    fn from_index(index: usize) -> Option<Card> {
        Card::from_index(index)
    }
}

/// What tikki asks of a set of its cards beyond [`CardSet`]'s own.
pub trait TikkiCards {
    /// Ranks 1..=`top` of every suit: the deck of that size.
    fn deck(top: u8) -> Self;
    /// How many cards of `rank` (1–13) the set holds.
    fn count_rank(self, rank: u8) -> u32;
    /// The points of a trick pile: cards grouped by rank, a group of 1 card scores 1, of
    /// 2 cards 5, of 3 cards 10, of 4 cards 20.
    fn pile_points(self) -> u32;
}

impl TikkiCards for Cards {
    fn deck(top: u8) -> Cards {
        Cards::from_bits((1u64 << (4 * u32::from(top.min(13)))) - 1)
    }

    fn count_rank(self, rank: u8) -> u32 {
        (self.bits() >> ((u32::from(rank) - 1) * 4) & 0xF).count_ones()
    }

    fn pile_points(self) -> u32 {
        const GROUP: [u32; 5] = [0, 1, 5, 10, 20];
        (1..=13).map(|r| GROUP[self.count_rank(r) as usize]).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_and_symbols_read() {
        for i in 0..52 {
            let c = Card::from_index(i).unwrap();
            assert_eq!(c.to_string().parse::<Card>(), Ok(c));
        }
        assert_eq!("1♠".parse::<Card>().unwrap().to_string(), "1S");
        assert_eq!("13c".parse::<Card>().unwrap().to_string(), "13C");
        assert!("14S"
            .parse::<Card>()
            .unwrap_err()
            .to_string()
            .contains("14S"));
        assert!("5X".parse::<Card>().is_err());
        assert!("".parse::<Card>().is_err());
        assert!("J".parse::<Card>().is_err());
    }

    #[test]
    fn strength_is_rank_then_suit() {
        let s = |t: &str| t.parse::<Card>().unwrap().strength();
        assert!(s("5D") > s("4H"));
        assert!(s("4S") > s("4H") && s("4H") > s("4D") && s("4D") > s("4C"));
        assert!(s("2C") > s("1S"));
        assert_eq!(s("13S"), 51);
        assert_eq!(s("1C"), 0);
    }

    #[test]
    fn piles_score_by_rank_groups() {
        let p = |t: &str| {
            t.split_whitespace()
                .map(|c| c.parse::<Card>().unwrap())
                .collect::<Cards>()
                .pile_points()
        };
        assert_eq!(p(""), 0);
        assert_eq!(p("3S"), 1);
        assert_eq!(p("3S 3H"), 5);
        assert_eq!(p("3S 3H 3D"), 10);
        assert_eq!(p("3S 3H 3D 3C"), 20);
        assert_eq!(p("3S 3H 4D 13C 13S 13H"), 5 + 1 + 10);
        assert_eq!(Cards::deck(13).pile_points(), 13 * 20);
        assert_eq!(Cards::deck(9).len(), 36);
    }
}
