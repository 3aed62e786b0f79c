//! One card of the Spanish deck and its notation.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The four Spanish suits, in the order used for card indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Suit {
    Oros,
    Copas,
    Espadas,
    Bastos,
}

impl Suit {
    /// All suits in index order.
    pub const ALL: [Suit; 4] = [Suit::Oros, Suit::Copas, Suit::Espadas, Suit::Bastos];

    /// The letter used in card notation: `o`, `c`, `e`, `b`.
    pub fn letter(self) -> char {
        match self {
            Suit::Oros => 'o',
            Suit::Copas => 'c',
            Suit::Espadas => 'e',
            Suit::Bastos => 'b',
        }
    }

    /// The suit's Spanish name.
    pub fn name(self) -> &'static str {
        match self {
            Suit::Oros => "oros",
            Suit::Copas => "copas",
            Suit::Espadas => "espadas",
            Suit::Bastos => "bastos",
        }
    }

    fn from_letter(c: char) -> Option<Suit> {
        match c.to_ascii_lowercase() {
            'o' => Some(Suit::Oros),
            'c' => Some(Suit::Copas),
            'e' => Some(Suit::Espadas),
            'b' => Some(Suit::Bastos),
            _ => None,
        }
    }
}

/// The ten numbers of the 40-card Spanish deck, in index order.
pub const NUMBERS: [u8; 10] = [1, 2, 3, 4, 5, 6, 7, 10, 11, 12];

/// One card of the 40-card Spanish deck, stored as its index `0..40`
/// (`suit * 10 + position of the number in` [`NUMBERS`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// Number of cards in the Spanish deck.
    pub const COUNT: usize = 40;

    /// The card with this number (1–7, 10, 11, 12) and suit, or `None` for other numbers.
    pub fn new(number: u8, suit: Suit) -> Option<Card> {
        let pos = NUMBERS.iter().position(|&n| n == number)?;
        Some(Card(suit as u8 * 10 + pos as u8))
    }

    /// The card with index `0..40`, or `None` past the deck.
    pub fn from_index(index: usize) -> Option<Card> {
        (index < Self::COUNT).then_some(Card(index as u8))
    }

    /// This card's index `0..40`.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The printed number: 1–7, 10 (sota), 11 (caballo), 12 (rey).
    pub fn number(self) -> u8 {
        NUMBERS[(self.0 % 10) as usize]
    }

    /// The card's suit.
    pub fn suit(self) -> Suit {
        Suit::ALL[(self.0 / 10) as usize]
    }

    /// Every card of the deck in index order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..Self::COUNT as u8).map(Card)
    }

    /// The Spanish name, e.g. "rey de oros".
    pub fn name(self) -> String {
        let n = match self.number() {
            1 => "as".to_string(),
            10 => "sota".to_string(),
            11 => "caballo".to_string(),
            12 => "rey".to_string(),
            n => n.to_string(),
        };
        format!("{n} de {}", self.suit().name())
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.number(), self.suit().letter())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a text is not a card.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CardError {
    #[error("`{0}` is not a card: write number then suit, like `12o` or `1b`")]
    Malformed(String),
    #[error("`{0}` is not a card: numbers are 1–7, 10, 11, 12")]
    BadNumber(String),
    #[error("`{0}` is not a card: suits are o (oros), c (copas), e (espadas), b (bastos)")]
    BadSuit(String),
}

impl FromStr for Card {
    type Err = CardError;

    fn from_str(s: &str) -> Result<Card, CardError> {
        let t = s.trim();
        let digits: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
        let rest = &t[digits.len()..];
        if digits.is_empty() || rest.chars().count() != 1 {
            return Err(CardError::Malformed(t.to_string()));
        }
        let number: u8 = digits
            .parse()
            .map_err(|_| CardError::BadNumber(t.to_string()))?;
        let suit = rest
            .chars()
            .next()
            .and_then(Suit::from_letter)
            .ok_or_else(|| CardError::BadSuit(t.to_string()))?;
        Card::new(number, suit).ok_or_else(|| CardError::BadNumber(t.to_string()))
    }
}

crate::serde_as_text!(Card);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_round_trips_through_its_notation() {
        for c in Card::all() {
            assert_eq!(c.to_string().parse::<Card>(), Ok(c));
            assert_eq!(Card::from_index(c.index()), Some(c));
        }
        assert_eq!(Card::all().count(), 40);
    }

    #[test]
    fn bad_cards_name_the_problem() {
        let e = "13o".parse::<Card>().unwrap_err();
        assert!(e.to_string().contains("13o"));
        assert!(e.to_string().contains("1–7, 10, 11, 12"));
        assert!(matches!("8c".parse::<Card>(), Err(CardError::BadNumber(_))));
        assert!(matches!("5x".parse::<Card>(), Err(CardError::BadSuit(_))));
        assert!(matches!(
            "rey".parse::<Card>(),
            Err(CardError::Malformed(_))
        ));
        assert!(matches!("".parse::<Card>(), Err(CardError::Malformed(_))));
        assert!(matches!(
            "12oo".parse::<Card>(),
            Err(CardError::Malformed(_))
        ));
        assert!(matches!(
            "99999999999o".parse::<Card>(),
            Err(CardError::BadNumber(_))
        ));
    }

    #[test]
    fn names_are_spanish() {
        assert_eq!("12o".parse::<Card>().unwrap().name(), "rey de oros");
        assert_eq!("1b".parse::<Card>().unwrap().name(), "as de bastos");
        assert_eq!("7E".parse::<Card>().unwrap().to_string(), "7e");
    }
}
