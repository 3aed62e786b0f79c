//! Cards for every tapete game: decks as data ([`decks`]: Spanish 40 and 48, French 52,
//! jokers, several decks together), the 40-card Spanish deck of Mus, card sets as bitmasks,
//! seeded shuffles and exact binomial coefficients.
//!
//! Games build on these pieces instead of re-inventing them: a [`Card`] parses and prints in
//! the notation players write (`12o` is the rey de oros, `1b` the as de bastos), a [`CardSet`]
//! holds any subset of the deck in one `u64`, and [`Deck`] deals from a ChaCha RNG so that a
//! seed reproduces a game exactly.
//!
//! ```
//! use tapete_cards::{Card, CardSet, Deck, Suit};
//!
//! let rey: Card = "12o".parse().unwrap();
//! assert_eq!(rey.number(), 12);
//! assert_eq!(rey.suit(), Suit::Oros);
//! assert!("13o".parse::<Card>().is_err());
//!
//! let mut deck = Deck::shuffled(7);
//! let hand: CardSet = deck.draw(4).into_iter().collect();
//! assert_eq!(hand.len(), 4);
//! assert_eq!(deck.len(), 36);
//! ```

mod binomial;
mod card;
pub mod chance;
mod deck;
pub mod decks;
mod set;

pub use binomial::{binomial, BINOMIAL};
pub use card::{Card, CardError, Suit, NUMBERS};
pub use chance::rng_from_seed;
pub use deck::Deck;
pub use set::{CardIndex, CardSet};

#[doc(hidden)]
pub use serde as __serde;

/// Implements `Serialize` and `Deserialize` for a type through its text form (`Display`
/// and `FromStr`): cards and actions are stored and sent as players write them, and a
/// stored one that does not parse is refused with the parser's own message.
#[macro_export]
macro_rules! serde_as_text {
    ($t:ty) => {
        impl $crate::__serde::Serialize for $t {
            fn serialize<S: $crate::__serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> $crate::__serde::Deserialize<'de> for $t {
            fn deserialize<D: $crate::__serde::Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                let s = <String as $crate::__serde::Deserialize>::deserialize(d)?;
                s.parse().map_err($crate::__serde::de::Error::custom)
            }
        }
    };
}
