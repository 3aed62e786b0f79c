//! Decks as data: which cards a game plays with, how many copies of each, and jokers.
//!
//! Mus plays the 40-card Spanish deck ([`crate::Card`]); Chinchón the 40 or 48-card one,
//! two decks shuffled together above four players, with jokers; tikki the French 52-card
//! deck or a smaller one (ranks 1..N). A [`DeckSpec`] says which, lists every card with its
//! copies, parses and prints the notation players write (`12o`, `10H`, `13♣`, `J` for a
//! joker), and shuffles with tapete's pinned shuffle so that a seed deals the same cards
//! after any dependency upgrade.
//!
//! ```
//! use tapete_cards::decks::{DeckSpec, Face};
//!
//! let two = DeckSpec::spanish48().with_copies(2).jokers(2);
//! assert_eq!(two.len(), 2 * (48 + 2));
//! let rey = two.parse("12o").unwrap();
//! assert_eq!(two.count(rey), 2);
//! assert_eq!(two.parse("J").unwrap(), Face::Joker);
//! assert!(DeckSpec::spanish40().parse("8o").is_err(), "no 8 in the 40-card deck");
//!
//! let french = DeckSpec::french52();
//! let ace = french.parse("1♠").unwrap();
//! assert_eq!(french.show(ace), "1S");
//! ```

use crate::chance::shuffle;
use rand::RngCore;
use std::fmt;

/// The family of a deck: its suits and how cards are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Oros, copas, espadas, bastos (`o c e b`); numbers 1–7, 10–12 (and 8, 9 in the 48).
    Spanish,
    /// Spades, hearts, diamonds, clubs (`S H D C` or `♠ ♥ ♦ ♣`, in that order of rank);
    /// ranks 1 (ace, lowest) to 13.
    French,
}

impl Family {
    /// The suit letters in suit order.
    pub fn suit_letters(self) -> [char; 4] {
        match self {
            Family::Spanish => ['o', 'c', 'e', 'b'],
            Family::French => ['S', 'H', 'D', 'C'],
        }
    }

    fn suit_of(self, c: char) -> Option<u8> {
        let c = match c {
            '♠' => 'S',
            '♥' => 'H',
            '♦' => 'D',
            '♣' => 'C',
            other => other,
        };
        let c = match self {
            Family::Spanish => c.to_ascii_lowercase(),
            Family::French => c.to_ascii_uppercase(),
        };
        self.suit_letters()
            .iter()
            .position(|&l| l == c)
            .map(|p| p as u8)
    }
}

/// One card face: a rank of a suit, or a joker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Face {
    /// `rank` (as printed: 1–12 Spanish, 1–13 French) of suit `suit` (0–3, in the family's
    /// order).
    Card { rank: u8, suit: u8 },
    /// A joker (comodín).
    Joker,
}

/// Why a card's text was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeckError {
    #[error("`{0}` is not a card: write a number then a suit, e.g. {1}")]
    Unreadable(String, &'static str),
    #[error("`{text}` is not in this deck: its numbers are {ranks}")]
    NoSuchRank { text: String, ranks: String },
    #[error("`{0}`: this deck has no jokers")]
    NoJokers(String),
}

/// A game's own card type, made from a deck's faces: what lets a [`DeckSpec`] list, count
/// and shuffle that game's cards.
pub trait FaceCard: Copy {
    /// The card of this face, or `None` for a face the game's cards cannot be.
    fn from_face(face: Face) -> Option<Self>;
    /// The card's face.
    fn face(self) -> Face;
}

impl FaceCard for Face {
    fn from_face(face: Face) -> Option<Face> {
        Some(face)
    }

    fn face(self) -> Face {
        self
    }
}

/// Which cards a game plays with: small and `Copy`, so a game keeps its deck by value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DeckSpec {
    family: Family,
    /// Bit `r` set for each rank `r` of every suit.
    ranks: u16,
    copies: u8,
    jokers: u8,
}

/// The bits of ranks `ranks`.
fn rank_bits(ranks: impl IntoIterator<Item = u8>) -> u16 {
    ranks.into_iter().fold(0, |bits, r| bits | 1 << r)
}

impl DeckSpec {
    /// The 40-card Spanish deck: 1–7 and 10–12 of each suit.
    pub fn spanish40() -> DeckSpec {
        DeckSpec {
            family: Family::Spanish,
            ranks: rank_bits([1, 2, 3, 4, 5, 6, 7, 10, 11, 12]),
            copies: 1,
            jokers: 0,
        }
    }

    /// The 48-card Spanish deck: 1–12 of each suit.
    pub fn spanish48() -> DeckSpec {
        DeckSpec {
            family: Family::Spanish,
            ranks: rank_bits(1..=12),
            copies: 1,
            jokers: 0,
        }
    }

    /// The French 52-card deck: 1 (ace) to 13 of each suit.
    pub fn french52() -> DeckSpec {
        DeckSpec::french(13)
    }

    /// A French deck of ranks 1..=`top` (2–13; tikki's smaller decks).
    pub fn french(top: u8) -> DeckSpec {
        DeckSpec {
            family: Family::French,
            ranks: rank_bits(1..=top.clamp(1, 13)),
            copies: 1,
            jokers: 0,
        }
    }

    /// The same deck `n` times over (two decks shuffled together: `with_copies(2)`).
    pub fn with_copies(mut self, n: u8) -> DeckSpec {
        self.copies = n.max(1);
        self
    }

    /// With `n` jokers in each copy of the deck.
    pub fn jokers(mut self, n: u8) -> DeckSpec {
        self.jokers = n;
        self
    }

    /// The deck's family.
    pub fn family(&self) -> Family {
        self.family
    }

    /// The ranks of each suit, lowest first.
    pub fn ranks(&self) -> Vec<u8> {
        (0..16).filter(|&r| self.has_rank(r)).collect()
    }

    /// Whether every suit has rank `rank`.
    fn has_rank(&self, rank: u8) -> bool {
        rank < 16 && self.ranks >> rank & 1 == 1
    }

    /// Jokers in each copy of the deck.
    pub fn jokers_per_copy(&self) -> u8 {
        self.jokers
    }

    /// Cards in one copy of the deck, its jokers left out (40 or 48 Spanish, 52 French).
    pub fn suited_len(&self) -> usize {
        self.ranks.count_ones() as usize * 4
    }

    /// How many times the deck is repeated.
    pub fn copy_count(&self) -> u8 {
        self.copies
    }

    /// Jokers in all copies together.
    pub fn joker_count(&self) -> usize {
        usize::from(self.jokers) * usize::from(self.copies)
    }

    /// Cards in all, copies and jokers included.
    pub fn len(&self) -> usize {
        (self.suited_len() + usize::from(self.jokers)) * usize::from(self.copies)
    }

    /// True for a deck with no cards (never, for the decks made here).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many copies of `face` the deck holds (0 if it has none).
    pub fn count(&self, face: Face) -> usize {
        usize::from(self.copies(face))
    }

    /// The distinct faces, suit by suit and rank by rank, the joker last if any.
    pub fn faces(&self) -> Vec<Face> {
        let ranks = self.ranks();
        let mut out: Vec<Face> = (0..4u8)
            .flat_map(|suit| ranks.iter().map(move |&rank| Face::Card { rank, suit }))
            .collect();
        if self.jokers > 0 {
            out.push(Face::Joker);
        }
        out
    }

    /// Every card of the deck, copies included, as faces or as a game's own cards, in a
    /// fixed order: copy by copy, suit by suit, rank by rank, then that copy's jokers (the
    /// order a shuffle starts from, so part of what a seed means). Faces the card type
    /// cannot be are left out.
    pub fn cards<C: FaceCard>(&self) -> Vec<C> {
        let ranks = self.ranks();
        let mut out = Vec::with_capacity(self.len());
        for _ in 0..self.copies {
            for suit in 0..4u8 {
                out.extend(
                    ranks
                        .iter()
                        .filter_map(|&rank| C::from_face(Face::Card { rank, suit })),
                );
            }
            for _ in 0..self.jokers {
                out.extend(C::from_face(Face::Joker));
            }
        }
        out
    }

    /// Every card, in [`DeckSpec::cards`]'s order shuffled by tapete's pinned shuffle; the
    /// last card is the top.
    pub fn shuffled<C: FaceCard>(&self, rng: &mut impl RngCore) -> Vec<C> {
        let mut cards = self.cards();
        shuffle(&mut cards, rng);
        cards
    }

    /// How many copies of `card` the deck holds (0 if none).
    pub fn copies<C: FaceCard>(&self, card: C) -> u8 {
        match card.face() {
            Face::Joker => self.jokers.saturating_mul(self.copies),
            Face::Card { rank, suit } if suit < 4 && self.has_rank(rank) => self.copies,
            Face::Card { .. } => 0,
        }
    }

    /// A card from the notation players write: number then suit letter (`12o`, `10H`,
    /// `1♠`; any letter case), or `J` / `jk` / `joker` for a joker.
    pub fn parse(&self, text: &str) -> Result<Face, DeckError> {
        let t = text.trim();
        let example = match self.family {
            Family::Spanish => "12o (rey de oros) or 1b",
            Family::French => "10H or 13♣",
        };
        if matches!(
            t.to_lowercase().as_str(),
            "j" | "jk" | "joker" | "comodín" | "comodin"
        ) {
            return if self.jokers > 0 {
                Ok(Face::Joker)
            } else {
                Err(DeckError::NoJokers(t.to_string()))
            };
        }
        let split = t
            .char_indices()
            .find(|(_, c)| !c.is_ascii_digit())
            .map(|(i, _)| i)
            .unwrap_or(t.len());
        let (num, rest) = t.split_at(split);
        let mut letters = rest.chars();
        let (Some(letter), None) = (letters.next(), letters.next()) else {
            return Err(DeckError::Unreadable(t.to_string(), example));
        };
        let suit = self
            .family
            .suit_of(letter)
            .ok_or_else(|| DeckError::Unreadable(t.to_string(), example))?;
        let rank: u8 = num
            .parse()
            .map_err(|_| DeckError::Unreadable(t.to_string(), example))?;
        if !self.has_rank(rank) {
            return Err(DeckError::NoSuchRank {
                text: t.to_string(),
                ranks: ranges(&self.ranks()),
            });
        }
        Ok(Face::Card { rank, suit })
    }

    /// A card in the notation [`DeckSpec::parse`] reads (`12o`, `10H`, `J`).
    pub fn show(&self, face: Face) -> String {
        match face {
            Face::Joker => "J".into(),
            Face::Card { rank, suit } => {
                let letter = self.family.suit_letters()[usize::from(suit % 4)];
                format!("{rank}{letter}")
            }
        }
    }
}

/// Ranks as runs: `1–7, 10–12`.
fn ranges(ranks: &[u8]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < ranks.len() {
        let start = ranks[i];
        let mut end = start;
        while i + 1 < ranks.len() && ranks[i + 1] == end + 1 {
            i += 1;
            end = ranks[i];
        }
        parts.push(if start == end {
            start.to_string()
        } else {
            format!("{start}–{end}")
        });
        i += 1;
    }
    parts.join(", ")
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Family::Spanish => "Spanish",
            Family::French => "French",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chance::rng_from_seed;

    #[test]
    fn sizes_and_copies() {
        assert_eq!(DeckSpec::spanish40().len(), 40);
        assert_eq!(DeckSpec::spanish48().len(), 48);
        assert_eq!(DeckSpec::french52().len(), 52);
        assert_eq!(DeckSpec::french(6).len(), 24);
        let two = DeckSpec::spanish40().with_copies(2).jokers(1);
        assert_eq!(two.len(), 82);
        assert_eq!(two.cards::<Face>().len(), 82);
        assert_eq!(two.faces().len(), 41);
        for face in two.faces() {
            let n = two.cards::<Face>().iter().filter(|&&c| c == face).count();
            assert_eq!(n, two.count(face), "{face:?}");
        }
    }

    #[test]
    fn notation_reads_back_and_errors_name_the_problem() {
        for spec in [
            DeckSpec::spanish48().jokers(2),
            DeckSpec::french52().jokers(1),
        ] {
            for face in spec.faces() {
                assert_eq!(spec.parse(&spec.show(face)), Ok(face));
            }
        }
        let s40 = DeckSpec::spanish40();
        assert_eq!(
            s40.parse("8o").unwrap_err().to_string(),
            "`8o` is not in this deck: its numbers are 1–7, 10–12"
        );
        assert!(matches!(s40.parse("J"), Err(DeckError::NoJokers(_))));
        assert!(matches!(s40.parse("12x"), Err(DeckError::Unreadable(..))));
        assert!(matches!(s40.parse("o"), Err(DeckError::Unreadable(..))));
        assert!(matches!(s40.parse("1oo"), Err(DeckError::Unreadable(..))));
        let fr = DeckSpec::french52();
        assert_eq!(fr.parse("13♣"), fr.parse("13c"));
        assert_eq!(fr.parse("1s"), Ok(Face::Card { rank: 1, suit: 0 }));
    }

    #[test]
    fn a_seed_deals_the_same_deck() {
        let spec = DeckSpec::spanish48().with_copies(2).jokers(2);
        let a: Vec<Face> = spec.shuffled(&mut rng_from_seed(9));
        assert_eq!(a, spec.shuffled::<Face>(&mut rng_from_seed(9)));
        assert_ne!(a, spec.shuffled::<Face>(&mut rng_from_seed(10)));
        let mut sorted = a.clone();
        sorted.sort();
        let mut all: Vec<Face> = spec.cards();
        all.sort();
        assert_eq!(sorted, all, "a shuffle is a permutation");
    }
}
