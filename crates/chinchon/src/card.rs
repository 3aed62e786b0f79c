//! Chinchón's cards: the 48 Spanish cards and the joker, hands as multisets (two decks can
//! put two copies of a card in one hand), and the decks a table plays with.
//!
//! Notation: a number 1–12 and a suit letter (`1o`, `12b`, `7C` — upper case too), and `J`
//! (or `jk`) for the joker, printed `J`.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;
pub use tapete_cards::decks::DeckSpec;
use tapete_cards::decks::{Face, FaceCard};
pub use tapete_cards::Suit;

/// Distinct cards there are: the 48 Spanish cards and the joker.
pub const KINDS: usize = 49;

/// The most copies of one Spanish card in play: one per deck, two decks at most.
pub const MAX_COPIES: u8 = 2;

/// The most jokers in play: two per deck, two decks at most.
pub const MAX_JOKERS: u8 = 4;

/// One card: a Spanish card (index `suit * 12 + number - 1`, `0..48`) or the joker (48).
///
/// Cards order by suit (oros, copas, espadas, bastos), then number, the joker last: the
/// order in which a hand is shown, runs side by side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// The joker (comodín).
    pub const JOKER: Card = Card(48);

    /// The card with this number (1–12) and suit, or `None` for other numbers.
    pub const fn new(number: u8, suit: Suit) -> Option<Card> {
        if number >= 1 && number <= 12 {
            Some(Card(suit as u8 * 12 + number - 1))
        } else {
            None
        }
    }

    /// The card with index `0..49` (48 is the joker), or `None` past it.
    pub fn from_index(index: usize) -> Option<Card> {
        (index < KINDS).then_some(Card(index as u8))
    }

    /// This card's index `0..49`.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether this is the joker.
    pub fn is_joker(self) -> bool {
        self.0 == 48
    }

    /// The printed number (1–12; sota 10, caballo 11, rey 12), `None` for the joker.
    pub fn number(self) -> Option<u8> {
        (!self.is_joker()).then_some(self.0 % 12 + 1)
    }

    /// The suit, `None` for the joker.
    pub fn suit(self) -> Option<Suit> {
        (!self.is_joker()).then(|| Suit::ALL[(self.0 / 12) as usize])
    }

    /// Whether the card is an 8 or a 9, which the 40-card deck leaves out.
    pub fn is_eight_or_nine(self) -> bool {
        matches!(self.number(), Some(8 | 9))
    }

    /// Every card, the joker last.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..KINDS as u8).map(Card)
    }

    /// The Spanish name: "rey de oros", "as de bastos", "comodín".
    pub fn name(self) -> String {
        match (self.number(), self.suit()) {
            (Some(n), Some(s)) => {
                let n = match n {
                    1 => "as".to_string(),
                    10 => "sota".to_string(),
                    11 => "caballo".to_string(),
                    12 => "rey".to_string(),
                    n => n.to_string(),
                };
                format!("{n} de {}", s.name())
            }
            _ => "comodín".to_string(),
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.number(), self.suit()) {
            (Some(n), Some(s)) => write!(f, "{n}{}", s.letter()),
            _ => f.write_str("J"),
        }
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a text is not a card, or a card does not fit where it was put.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CardError {
    #[error("an empty text is not a card: write a number 1–12 and a suit o c e b (e.g. `7o`), or `J` for a joker")]
    Empty,
    #[error("`{0}` is not a card: numbers are 1–12 (1–7, 10–12 in the 40-card deck)")]
    Number(String),
    #[error("`{0}` is not a card: suits are o (oros), c (copas), e (espadas), b (bastos)")]
    Suit(String),
    #[error("`{0}` is not a card: write a number and a suit (`7o`, `12b`) or `J` for a joker")]
    Shape(String),
    #[error("{0} is not in the 40-card deck (it has no 8s or 9s)")]
    NotInForty(Card),
    #[error("this table plays without jokers")]
    NoJokers,
    #[error("{card} is there more than {max} times")]
    TooMany { card: Card, max: u8 },
}

fn suit_from_letter(c: char) -> Option<Suit> {
    match c.to_ascii_lowercase() {
        'o' => Some(Suit::Oros),
        'c' => Some(Suit::Copas),
        'e' => Some(Suit::Espadas),
        'b' => Some(Suit::Bastos),
        _ => None,
    }
}

impl FromStr for Card {
    type Err = CardError;

    fn from_str(s: &str) -> Result<Card, CardError> {
        let text = s.trim();
        if text.is_empty() {
            return Err(CardError::Empty);
        }
        let lower = text.to_lowercase();
        if matches!(lower.as_str(), "j" | "jk" | "joker" | "comodín" | "comodin") {
            return Ok(Card::JOKER);
        }
        let digits = lower.chars().take_while(char::is_ascii_digit).count();
        if digits == 0 {
            return Err(CardError::Shape(text.to_string()));
        }
        let (number, rest) = lower.split_at(digits);
        let mut letters = rest.chars();
        let suit = match (letters.next(), letters.next()) {
            (Some(c), None) => suit_from_letter(c).ok_or(CardError::Suit(text.to_string()))?,
            (None, _) => return Err(CardError::Suit(text.to_string())),
            (Some(_), Some(_)) => return Err(CardError::Shape(text.to_string())),
        };
        let number: u8 = number
            .parse()
            .map_err(|_| CardError::Number(text.to_string()))?;
        Card::new(number, suit).ok_or(CardError::Number(text.to_string()))
    }
}

tapete_cards::serde_as_text!(Card);

/// A multiset of cards — a hand, a deck, the cards not seen yet — in three words: which
/// Spanish cards are there at least once, which twice, and how many jokers. Copying it is
/// as cheap as copying a pointer and a half.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Hand {
    one: u64,
    two: u64,
    jokers: u8,
}

impl Hand {
    /// No cards.
    pub const EMPTY: Hand = Hand {
        one: 0,
        two: 0,
        jokers: 0,
    };

    /// A multiset of these cards, or an error if one is there too often (more than twice,
    /// or more than four jokers).
    pub fn from_cards(cards: &[Card]) -> Result<Hand, CardError> {
        let mut h = Hand::EMPTY;
        for &c in cards {
            h.add(c)?;
        }
        Ok(h)
    }

    /// Adds one copy of `card`, or refuses (changing nothing) if that would be a third copy
    /// or a fifth joker.
    pub fn add(&mut self, card: Card) -> Result<(), CardError> {
        if card.is_joker() {
            if self.jokers >= MAX_JOKERS {
                return Err(CardError::TooMany {
                    card,
                    max: MAX_JOKERS,
                });
            }
            self.jokers += 1;
            return Ok(());
        }
        let bit = 1u64 << card.0;
        if self.one & bit == 0 {
            self.one |= bit;
        } else if self.two & bit == 0 {
            self.two |= bit;
        } else {
            return Err(CardError::TooMany {
                card,
                max: MAX_COPIES,
            });
        }
        Ok(())
    }

    /// Removes one copy of `card`; false (and nothing changes) if there is none.
    pub fn remove(&mut self, card: Card) -> bool {
        if card.is_joker() {
            if self.jokers == 0 {
                return false;
            }
            self.jokers -= 1;
            return true;
        }
        let bit = 1u64 << card.0;
        if self.two & bit != 0 {
            self.two &= !bit;
        } else if self.one & bit != 0 {
            self.one &= !bit;
        } else {
            return false;
        }
        true
    }

    /// How many copies of `card` there are.
    pub fn count(&self, card: Card) -> u8 {
        if card.is_joker() {
            return self.jokers;
        }
        let bit = 1u64 << card.0;
        u8::from(self.one & bit != 0) + u8::from(self.two & bit != 0)
    }

    /// Whether `card` is there at least once.
    pub fn contains(&self, card: Card) -> bool {
        self.count(card) > 0
    }

    /// Number of cards, copies counted.
    pub fn len(&self) -> usize {
        (self.one.count_ones() + self.two.count_ones()) as usize + self.jokers as usize
    }

    /// Whether there are no cards.
    pub fn is_empty(&self) -> bool {
        self.one == 0 && self.jokers == 0
    }

    /// Number of jokers.
    pub fn jokers(&self) -> u8 {
        self.jokers
    }

    /// The cards in order (suit, number, jokers last), each copy once.
    pub fn iter(&self) -> HandIter {
        HandIter {
            one: self.one,
            two: self.two,
            jokers: self.jokers,
        }
    }

    /// Each distinct card once, in order.
    pub fn distinct(&self) -> impl Iterator<Item = Card> {
        let jokers = self.jokers > 0;
        Bits(self.one)
            .map(|i| Card(i as u8))
            .chain(jokers.then_some(Card::JOKER))
    }

    /// The cards as a vector, in order.
    pub fn to_vec(&self) -> Vec<Card> {
        self.iter().collect()
    }

    /// Whether every card of `other` is here, copies counted.
    pub fn contains_all(&self, other: &Hand) -> bool {
        other.one & !self.one == 0 && other.two & !self.two == 0 && other.jokers <= self.jokers
    }

    /// These cards without those of `other`, or `None` if `other` holds a card (or a copy)
    /// that is not here.
    pub fn minus(&self, other: &Hand) -> Option<Hand> {
        if !self.contains_all(other) {
            return None;
        }
        Some(Hand {
            one: (self.one & !other.one) | (self.two & other.one & !other.two),
            two: self.two & !other.one,
            jokers: self.jokers - other.jokers,
        })
    }

    /// These cards and those of `other`, or `None` if a card would be there a third time
    /// (or a fifth joker).
    pub fn plus(&self, other: &Hand) -> Option<Hand> {
        let over = (self.two & other.one) | (self.one & other.two);
        if over != 0 || self.jokers + other.jokers > MAX_JOKERS {
            return None;
        }
        Some(Hand {
            one: self.one | other.one,
            two: self.two | other.two | (self.one & other.one),
            jokers: self.jokers + other.jokers,
        })
    }
}

/// The set bits of a word, lowest first.
struct Bits(u64);

impl Iterator for Bits {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(i)
    }
}

/// The cards of a [`Hand`] in order, each copy once; allocates nothing.
#[derive(Clone, Copy, Debug)]
pub struct HandIter {
    one: u64,
    two: u64,
    jokers: u8,
}

impl Iterator for HandIter {
    type Item = Card;
    fn next(&mut self) -> Option<Card> {
        if self.one != 0 {
            let i = self.one.trailing_zeros();
            let bit = 1u64 << i;
            if self.two & bit != 0 {
                self.two &= !bit;
            } else {
                self.one &= !bit;
            }
            return Some(Card(i as u8));
        }
        if self.jokers > 0 {
            self.jokers -= 1;
            return Some(Card::JOKER);
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.one.count_ones() + self.two.count_ones()) as usize + self.jokers as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for HandIter {}

impl fmt::Display for Hand {
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

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{self}]")
    }
}

impl FromStr for Hand {
    type Err = CardError;

    /// Cards separated by spaces or commas: `1o 2o 3o, J`.
    fn from_str(s: &str) -> Result<Hand, CardError> {
        let cards: Vec<Card> = s
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .map(str::parse)
            .collect::<Result<_, _>>()?;
        Hand::from_cards(&cards)
    }
}

impl Serialize for Hand {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Hand {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Hand, D::Error> {
        let cards = Vec::<Card>::deserialize(d)?;
        Hand::from_cards(&cards).map_err(serde::de::Error::custom)
    }
}

/// The Spanish deck a table plays with: 40 cards (no 8s or 9s) or 48.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DeckSize {
    /// 1–7, sota, caballo, rey in each suit.
    #[default]
    Forty,
    /// 1–12 in each suit.
    FortyEight,
}

impl DeckSize {
    /// Cards per suit: 10 or 12.
    pub fn per_suit(self) -> u8 {
        match self {
            DeckSize::Forty => 10,
            DeckSize::FortyEight => 12,
        }
    }

    /// Cards in the deck: 40 or 48.
    pub fn cards(self) -> usize {
        4 * self.per_suit() as usize
    }
}

impl Serialize for DeckSize {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.cards() as u8)
    }
}

impl<'de> Deserialize<'de> for DeckSize {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<DeckSize, D::Error> {
        match u64::deserialize(d)? {
            40 => Ok(DeckSize::Forty),
            48 => Ok(DeckSize::FortyEight),
            n => Err(serde::de::Error::custom(format!(
                "the deck has 40 or 48 cards, not {n}"
            ))),
        }
    }
}

impl DeckSize {
    /// The deck a table shuffles: `decks` decks of this size (1 or 2), each with
    /// `jokers_per_deck` jokers (0–2).
    pub fn spec(self, jokers_per_deck: u8, decks: u8) -> DeckSpec {
        let one = match self {
            DeckSize::Forty => DeckSpec::spanish40(),
            DeckSize::FortyEight => DeckSpec::spanish48(),
        };
        one.jokers(jokers_per_deck).with_copies(decks)
    }
}

impl FaceCard for Card {
    fn from_face(face: Face) -> Option<Card> {
        match face {
            Face::Card { rank, suit } => Card::new(rank, *Suit::ALL.get(usize::from(suit))?),
            Face::Joker => Some(Card::JOKER),
        }
    }

    fn face(self) -> Face {
        match (self.number(), self.suit()) {
            (Some(rank), Some(suit)) => Face::Card {
                rank,
                suit: suit as u8,
            },
            _ => Face::Joker,
        }
    }
}

/// What Chinchón asks of its deck beyond [`DeckSpec`]'s own: why a card cannot be in it,
/// and the whole deck as a multiset.
pub trait ChinchonDeck {
    /// Whether `card` can be in this deck at all, or why not.
    fn check(&self, card: Card) -> Result<(), CardError>;
    /// Every card as a multiset.
    fn multiset(&self) -> Hand;
}

impl ChinchonDeck for DeckSpec {
    fn check(&self, card: Card) -> Result<(), CardError> {
        match self.copies(card) {
            0 if card.is_joker() => Err(CardError::NoJokers),
            0 => Err(CardError::NotInForty(card)),
            _ => Ok(()),
        }
    }

    fn multiset(&self) -> Hand {
        let mut h = Hand::EMPTY;
        for c in self.cards::<Card>() {
            // A valid spec has at most two decks of two jokers: every add fits.
            let _ = h.add(c);
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn cards_parse_and_print_in_players_notation() {
        assert_eq!(c("1o").to_string(), "1o");
        assert_eq!(c("12b").to_string(), "12b");
        assert_eq!(c("7C"), c("7c"));
        assert_eq!(c(" 10e "), Card::new(10, Suit::Espadas).unwrap());
        for j in ["J", "j", "jk", "JK", "comodín"] {
            assert_eq!(c(j), Card::JOKER, "{j}");
        }
        assert_eq!(Card::JOKER.to_string(), "J");
        for card in Card::all() {
            assert_eq!(card.to_string().parse::<Card>(), Ok(card));
            let json = serde_json::to_string(&card).unwrap();
            assert_eq!(serde_json::from_str::<Card>(&json).unwrap(), card);
        }
        assert_eq!(c("8o").number(), Some(8));
        assert_eq!(Card::JOKER.number(), None);
        assert_eq!(c("11c").name(), "caballo de copas");
        assert_eq!(Card::JOKER.name(), "comodín");
    }

    #[test]
    fn parse_errors_name_the_problem() {
        let err = |s: &str| s.parse::<Card>().unwrap_err().to_string();
        assert_eq!(
            err("13o"),
            "`13o` is not a card: numbers are 1–12 (1–7, 10–12 in the 40-card deck)"
        );
        assert!(err("0b").contains("numbers are 1–12"));
        assert!(err("999999999999o").contains("numbers are 1–12"));
        assert!(err("7x").contains("suits are o (oros)"), "{}", err("7x"));
        assert!(err("7").contains("suits are"));
        assert!(err("oro").contains("write a number and a suit"));
        assert!(err("7oo").contains("write a number and a suit"));
        assert!(err("").contains("empty"));
    }

    #[test]
    fn hands_are_multisets() {
        let mut h: Hand = "5o 5o J 1b".parse().unwrap();
        assert_eq!(h.len(), 4);
        assert_eq!(h.count(c("5o")), 2);
        assert_eq!(h.to_string(), "5o 5o 1b J");
        assert_eq!(
            h.add(c("5o")),
            Err(CardError::TooMany {
                card: c("5o"),
                max: 2
            })
        );
        assert_eq!(h.len(), 4, "a refused add changes nothing");
        assert!(h.remove(c("5o")));
        assert_eq!(h.count(c("5o")), 1);
        assert!(!h.remove(c("7c")));
        assert_eq!(h.distinct().count(), 3);
        let other: Hand = "5o J".parse().unwrap();
        assert!(h.contains_all(&other));
        assert_eq!(h.minus(&other).unwrap().to_string(), "1b");
        assert_eq!(h.minus(&"7c".parse().unwrap()), None);
        assert_eq!(h.plus(&other).unwrap().to_string(), "5o 5o 1b J J");
        let two: Hand = "5o 5o".parse().unwrap();
        assert_eq!(h.plus(&two), None, "a third 5o");
        let json = serde_json::to_string(&h).unwrap();
        assert_eq!(json, r#"["5o","1b","J"]"#);
        assert_eq!(serde_json::from_str::<Hand>(&json).unwrap(), h);
        let mut jokers = Hand::EMPTY;
        for _ in 0..4 {
            jokers.add(Card::JOKER).unwrap();
        }
        assert!(jokers.add(Card::JOKER).is_err());
        assert!("1o 1o 1o".parse::<Hand>().is_err());
    }

    #[test]
    fn minus_and_plus_agree_with_counting() {
        // Every pair of count vectors over one card kind: 0..=2 copies each.
        let card = c("3e");
        for a in 0..=2u8 {
            for b in 0..=2u8 {
                let mut x = Hand::EMPTY;
                let mut y = Hand::EMPTY;
                (0..a).for_each(|_| x.add(card).unwrap());
                (0..b).for_each(|_| y.add(card).unwrap());
                let diff = x.minus(&y).map(|h| h.count(card));
                assert_eq!(diff, a.checked_sub(b), "{a} - {b}");
                let sum = x.plus(&y).map(|h| h.count(card));
                assert_eq!(sum, (a + b <= 2).then_some(a + b), "{a} + {b}");
            }
        }
    }

    #[test]
    fn decks_from_options() {
        let spec = |size: DeckSize, jokers_per_deck, decks| size.spec(jokers_per_deck, decks);
        let forty = spec(DeckSize::Forty, 0, 1);
        assert_eq!(forty.cards::<Card>().len(), 40);
        assert!(forty.cards::<Card>().iter().all(|c| !c.is_eight_or_nine()));
        assert_eq!(forty.check(c("8o")), Err(CardError::NotInForty(c("8o"))));
        assert_eq!(
            forty.check(c("8o")).unwrap_err().to_string(),
            "8o is not in the 40-card deck (it has no 8s or 9s)"
        );
        assert_eq!(forty.check(Card::JOKER), Err(CardError::NoJokers));
        assert_eq!(spec(DeckSize::FortyEight, 0, 1).cards::<Card>().len(), 48);
        let big = spec(DeckSize::FortyEight, 2, 2);
        assert_eq!(big.len(), 100);
        assert_eq!(big.cards::<Card>().len(), 100);
        assert_eq!(big.copies(c("9b")), 2);
        assert_eq!(big.copies(Card::JOKER), 4);
        let all = big.multiset();
        assert_eq!(all.len(), 100);
        assert_eq!(all.count(c("1o")), 2);
        assert_eq!(all.jokers(), 4);
        let two_forty = spec(DeckSize::Forty, 1, 2);
        assert_eq!(two_forty.multiset().len(), 82);
        let mut rng = tapete_cards::rng_from_seed(3);
        let mut shuffled: Vec<Card> = two_forty.shuffled(&mut rng);
        assert_ne!(shuffled, two_forty.cards::<Card>());
        shuffled.sort();
        let mut sorted: Vec<Card> = two_forty.cards();
        sorted.sort();
        assert_eq!(shuffled, sorted, "a shuffle keeps every copy");
    }

    #[test]
    fn deck_size_serde_is_the_card_count() {
        assert_eq!(serde_json::to_string(&DeckSize::FortyEight).unwrap(), "48");
        assert_eq!(
            serde_json::from_str::<DeckSize>("40").unwrap(),
            DeckSize::Forty
        );
        let e = serde_json::from_str::<DeckSize>("52").unwrap_err();
        assert!(e.to_string().contains("40 or 48 cards, not 52"), "{e}");
    }
}
