//! Ranks and jugadas: a Mus hand seen as the multiset of ranks that decides every lance.

use crate::Mode;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use tapete_cards::{Card, CardError, CardSet};

/// A rank as Mus compares it, low to high. In 8 reyes `Dos` and `Tres` never occur:
/// a 2 plays as an as (pito) and a 3 as a rey.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[repr(u8)]
pub enum Rank {
    As = 0,
    Dos,
    Tres,
    Cuatro,
    Cinco,
    Seis,
    Siete,
    Sota,
    Caballo,
    Rey,
}

impl Rank {
    /// All ranks, low to high.
    pub const ALL: [Rank; 10] = [
        Rank::As,
        Rank::Dos,
        Rank::Tres,
        Rank::Cuatro,
        Rank::Cinco,
        Rank::Seis,
        Rank::Siete,
        Rank::Sota,
        Rank::Caballo,
        Rank::Rey,
    ];

    /// The ranks a mode plays with, low to high.
    pub fn in_mode(mode: Mode) -> &'static [Rank] {
        match mode {
            Mode::OchoReyes => &[
                Rank::As,
                Rank::Cuatro,
                Rank::Cinco,
                Rank::Seis,
                Rank::Siete,
                Rank::Sota,
                Rank::Caballo,
                Rank::Rey,
            ],
            Mode::CuatroReyes => &Rank::ALL,
        }
    }

    /// The rank a card plays as in `mode`.
    pub fn of(card: Card, mode: Mode) -> Rank {
        match (card.number(), mode) {
            (1, _) | (2, Mode::OchoReyes) => Rank::As,
            (3, Mode::OchoReyes) | (12, _) => Rank::Rey,
            (2, _) => Rank::Dos,
            (3, _) => Rank::Tres,
            (4, _) => Rank::Cuatro,
            (5, _) => Rank::Cinco,
            (6, _) => Rank::Seis,
            (7, _) => Rank::Siete,
            (10, _) => Rank::Sota,
            _ => Rank::Caballo,
        }
    }

    /// Cards of this rank in a 40-card deck: 8 reyes and 8 ases in 8 reyes, otherwise 4.
    pub fn copies(self, mode: Mode) -> u8 {
        match (self, mode) {
            (Rank::Rey | Rank::As, Mode::OchoReyes) => 8,
            (Rank::Dos | Rank::Tres, Mode::OchoReyes) => 0,
            _ => 4,
        }
    }

    /// Points toward juego and punto: figures 10, as 1, others their number.
    pub fn value(self) -> u8 {
        match self {
            Rank::As => 1,
            Rank::Dos => 2,
            Rank::Tres => 3,
            Rank::Cuatro => 4,
            Rank::Cinco => 5,
            Rank::Seis => 6,
            Rank::Siete => 7,
            Rank::Sota | Rank::Caballo | Rank::Rey => 10,
        }
    }

    /// The letter of jugada notation: R C S 7 6 5 4 3 2 A.
    pub fn symbol(self) -> char {
        match self {
            Rank::As => 'A',
            Rank::Dos => '2',
            Rank::Tres => '3',
            Rank::Cuatro => '4',
            Rank::Cinco => '5',
            Rank::Seis => '6',
            Rank::Siete => '7',
            Rank::Sota => 'S',
            Rank::Caballo => 'C',
            Rank::Rey => 'R',
        }
    }

    /// The Spanish name, plural: "reyes", "pitos"…
    pub fn plural(self) -> &'static str {
        match self {
            Rank::As => "pitos",
            Rank::Dos => "doses",
            Rank::Tres => "treses",
            Rank::Cuatro => "cuatros",
            Rank::Cinco => "cincos",
            Rank::Seis => "seises",
            Rank::Siete => "sietes",
            Rank::Sota => "sotas",
            Rank::Caballo => "caballos",
            Rank::Rey => "reyes",
        }
    }

    fn from_symbol(c: char, mode: Mode) -> Option<Rank> {
        Some(match (c.to_ascii_uppercase(), mode) {
            ('R', _) | ('3', Mode::OchoReyes) => Rank::Rey,
            ('C', _) => Rank::Caballo,
            ('S', _) => Rank::Sota,
            ('7', _) => Rank::Siete,
            ('6', _) => Rank::Seis,
            ('5', _) => Rank::Cinco,
            ('4', _) => Rank::Cuatro,
            ('3', _) => Rank::Tres,
            ('2', Mode::CuatroReyes) => Rank::Dos,
            ('A' | '1' | '2', _) => Rank::As,
            _ => return None,
        })
    }
}

/// A jugada: the four ranks of a hand, high to low. Every lance is decided by it alone.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Jugada([Rank; 4]);

/// Why a text is not a hand.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HandError {
    #[error(transparent)]
    Card(#[from] CardError),
    #[error("`{0}`: a hand has exactly 4 cards")]
    Count(String),
    #[error("`{text}`: `{symbol}` is not a rank; ranks are R C S 7 6 5 4 3 2 A")]
    Symbol { text: String, symbol: char },
    #[error("`{0}` repeats a card")]
    Repeated(String),
    #[error("`{text}` holds {count} {rank}, but the deck has only {max}")]
    TooMany {
        text: String,
        rank: &'static str,
        count: usize,
        max: u8,
    },
}

impl Jugada {
    /// The jugada of four ranks in any order.
    pub fn new(mut ranks: [Rank; 4]) -> Jugada {
        ranks.sort_unstable_by(|a, b| b.cmp(a));
        Jugada(ranks)
    }

    /// The jugada of four cards in `mode`.
    pub fn from_cards(cards: &[Card; 4], mode: Mode) -> Jugada {
        Jugada::new(cards.map(|c| Rank::of(c, mode)))
    }

    /// The jugada of a 4-card set; `None` if it does not hold exactly 4 cards.
    pub fn from_set(set: CardSet, mode: Mode) -> Option<Jugada> {
        let v = set.to_vec();
        let cards: [Card; 4] = v.try_into().ok()?;
        Some(Jugada::from_cards(&cards, mode))
    }

    /// Parses `RRCA`-style notation (any order, 3/2 allowed: in 8 reyes they read as R/A)
    /// or four cards like `12o 3c 11e 1b`. Checks the deck holds that many of each rank.
    pub fn parse(text: &str, mode: Mode) -> Result<Jugada, HandError> {
        let t = text.trim();
        let ranks: Vec<Rank> = if t.split_whitespace().count() > 1 {
            let cards: Vec<Card> = t
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|s| !s.is_empty())
                .map(str::parse)
                .collect::<Result<_, _>>()?;
            let set: CardSet = cards.iter().copied().collect();
            if set.len() != cards.len() {
                return Err(HandError::Repeated(t.to_string()));
            }
            cards.iter().map(|&c| Rank::of(c, mode)).collect()
        } else {
            t.chars()
                .map(|c| {
                    Rank::from_symbol(c, mode).ok_or(HandError::Symbol {
                        text: t.to_string(),
                        symbol: c,
                    })
                })
                .collect::<Result<_, _>>()?
        };
        let ranks: [Rank; 4] = ranks
            .try_into()
            .map_err(|_| HandError::Count(t.to_string()))?;
        let j = Jugada::new(ranks);
        for r in Rank::ALL {
            let count = j.count(r);
            if count > r.copies(mode) as usize {
                return Err(HandError::TooMany {
                    text: t.to_string(),
                    rank: r.plural(),
                    count,
                    max: r.copies(mode),
                });
            }
        }
        Ok(j)
    }

    /// The four ranks, high to low.
    pub fn ranks(self) -> [Rank; 4] {
        self.0
    }

    /// How many cards of `rank` it holds.
    pub fn count(self, rank: Rank) -> usize {
        self.0.iter().filter(|&&r| r == rank).count()
    }

    /// Sum of card values (juego / punto).
    pub fn value(self) -> u8 {
        self.0.iter().map(|r| r.value()).sum()
    }

    /// Every jugada of `mode` (330 in 8 reyes, 715 in 4 reyes), high to low by grande.
    pub fn all(mode: Mode) -> Vec<Jugada> {
        let ranks = Rank::in_mode(mode);
        let n = ranks.len();
        let mut out = Vec::new();
        for a in (0..n).rev() {
            for b in (0..=a).rev() {
                for c in (0..=b).rev() {
                    for d in (0..=c).rev() {
                        out.push(Jugada([ranks[a], ranks[b], ranks[c], ranks[d]]));
                    }
                }
            }
        }
        out
    }

    /// Number of 4-card hands from a full deck with this jugada.
    pub fn combinations(self, mode: Mode) -> u64 {
        Rank::in_mode(mode)
            .iter()
            .map(|&r| tapete_cards::binomial(r.copies(mode) as usize, self.count(r)))
            .product()
    }
}

impl fmt::Display for Jugada {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in self.0 {
            write!(f, "{}", r.symbol())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Jugada {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl Serialize for Jugada {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Jugada {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Jugada, D::Error> {
        let s = String::deserialize(d)?;
        Jugada::parse(&s, Mode::CuatroReyes).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jugada_counts_match_the_spec() {
        assert_eq!(Jugada::all(Mode::OchoReyes).len(), 330);
        assert_eq!(Jugada::all(Mode::CuatroReyes).len(), 715);
        for mode in [Mode::OchoReyes, Mode::CuatroReyes] {
            let total: u64 = Jugada::all(mode).iter().map(|j| j.combinations(mode)).sum();
            assert_eq!(total, 91_390, "C(40,4) in {mode}");
        }
    }

    #[test]
    fn parses_notation_and_cards() {
        let m = Mode::OchoReyes;
        assert_eq!(Jugada::parse("ACRR", m).unwrap().to_string(), "RRCA");
        assert_eq!(
            Jugada::parse("12o 3c 11e 1b", m).unwrap().to_string(),
            "RRCA"
        );
        assert_eq!(Jugada::parse("32AA", m).unwrap().to_string(), "RAAA");
        let c = Mode::CuatroReyes;
        assert_eq!(
            Jugada::parse("12o 3c 11e 2b", c).unwrap().to_string(),
            "RC32"
        );
        assert!(matches!(Jugada::parse("RRC", m), Err(HandError::Count(_))));
        assert!(matches!(
            Jugada::parse("RRCX", m),
            Err(HandError::Symbol { .. })
        ));
        assert!(matches!(
            Jugada::parse("CCCCC", m),
            Err(HandError::Count(_))
        ));
        assert!(matches!(
            Jugada::parse("RRRRR", m),
            Err(HandError::Count(_))
        ));
        assert!(matches!(
            Jugada::parse("12o 12o 1b 1c", m),
            Err(HandError::Repeated(_))
        ));
        assert!(matches!(
            Jugada::parse("13o 12c 1b 1c", m),
            Err(HandError::Card(_))
        ));
        // 8 reyes has 8 ases, 4 reyes only 4.
        assert!(Jugada::parse("AAAA", m).is_ok());
        assert!(Jugada::parse("AAAA", c).is_ok());
        assert!(matches!(Jugada::parse("333", c), Err(HandError::Count(_))));
    }
}
