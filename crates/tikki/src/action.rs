//! What a player can do, in the words players type and records store.
//!
//! | text | also | what |
//! |---|---|---|
//! | `lay 3S 4S` | `play 3S 4S` | lay these cards face down on the trick (one or more) |
//! | `retreat 5H reveal 7C` | `back 5H show 7C` | retreat round: take 5H back into the hand, turning 7C face up on the table |
//! | `keep` | `done`, `pass` | retreat round: take nothing (more) back |
//!
//! Cards are written rank then suit: `1S` … `13C`, also `1♠ 10♥ 13♣`, any case.
//! A retreat takes back one card for one card revealed; a player retreating two cards
//! types two retreats, then `keep`.

use crate::card::{Card, CardError, Cards};
use std::fmt;
use std::str::FromStr;

/// One decision of a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Lay these cards (at least one) face down on the trick.
    Lay(Cards),
    /// In the retreat round: take `back` into the hand and turn `reveal` face up; both must
    /// be among the player's laid cards still face down.
    Retreat {
        /// The card taken back.
        back: Card,
        /// The card turned face up, which stays on the table.
        reveal: Card,
    },
    /// In the retreat round: done, the laid cards stay.
    Keep,
}

/// Why a text is not an action.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseActionError {
    #[error("`{0}` is not an action: lay CARDS, retreat CARD reveal CARD, or keep")]
    Unknown(String),
    #[error("`lay` needs at least one card, e.g. `lay 3S 4S`")]
    NoCards,
    #[error("`{0}` is named twice")]
    Twice(Card),
    #[error("write a retreat as `retreat 5H reveal 7C`: one card back, one card shown")]
    BadRetreat,
    #[error("the card taken back and the card revealed must differ")]
    SameCard,
    #[error(transparent)]
    Card(#[from] CardError),
}

impl FromStr for Action {
    type Err = ParseActionError;

    fn from_str(s: &str) -> Result<Action, ParseActionError> {
        let words: Vec<&str> = s.split_whitespace().collect();
        let Some((&verb, rest)) = words.split_first() else {
            return Err(ParseActionError::Unknown(s.trim().to_string()));
        };
        match verb.to_lowercase().as_str() {
            "lay" | "play" => {
                if rest.is_empty() {
                    return Err(ParseActionError::NoCards);
                }
                let mut cards = Cards::EMPTY;
                for w in rest {
                    let c: Card = w.parse()?;
                    if !cards.insert(c) {
                        return Err(ParseActionError::Twice(c));
                    }
                }
                Ok(Action::Lay(cards))
            }
            "retreat" | "back" => match rest {
                [back, word, reveal]
                    if matches!(word.to_lowercase().as_str(), "reveal" | "show") =>
                {
                    let (back, reveal): (Card, Card) = (back.parse()?, reveal.parse()?);
                    if back == reveal {
                        return Err(ParseActionError::SameCard);
                    }
                    Ok(Action::Retreat { back, reveal })
                }
                _ => Err(ParseActionError::BadRetreat),
            },
            "keep" | "done" | "pass" if rest.is_empty() => Ok(Action::Keep),
            _ => Err(ParseActionError::Unknown(s.trim().to_string())),
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Lay(cards) => write!(f, "lay {cards}"),
            Action::Retreat { back, reveal } => write!(f, "retreat {back} reveal {reveal}"),
            Action::Keep => f.write_str("keep"),
        }
    }
}

tapete_cards::serde_as_text!(Action);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_round_trip_and_other_words_are_read() {
        let p = |s: &str| s.parse::<Action>().unwrap();
        for t in ["lay 3S", "lay 3S 3H 4D", "retreat 5H reveal 7C", "keep"] {
            assert_eq!(p(t).to_string(), t);
            let json = serde_json::to_string(&p(t)).unwrap();
            assert_eq!(serde_json::from_str::<Action>(&json).unwrap(), p(t));
        }
        assert_eq!(p("PLAY 4♦ 3♠").to_string(), "lay 3S 4D");
        assert_eq!(p("back 5h show 7c"), p("retreat 5H reveal 7C"));
        assert_eq!(p(" done "), Action::Keep);
    }

    #[test]
    fn bad_text_says_what_is_wrong() {
        let e = |s: &str| s.parse::<Action>().unwrap_err().to_string();
        assert!(e("").contains("is not an action"));
        assert!(e("fold").contains("is not an action"));
        assert!(e("keep 3S").contains("is not an action"));
        assert_eq!(e("lay"), "`lay` needs at least one card, e.g. `lay 3S 4S`");
        assert_eq!(e("lay 3S 3s"), "`3S` is named twice");
        assert!(e("lay 14S").contains("14S"));
        assert!(e("retreat 5H").contains("retreat 5H reveal 7C"));
        assert!(e("retreat 5H reveal 5H").contains("must differ"));
    }
}
