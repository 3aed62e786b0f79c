//! What a player can do, in the words players type and records store.
//!
//! | text | also | what |
//! |---|---|---|
//! | `robo` | `robar`, `taco`, `stock`, `draw` | draw the top card of the stock |
//! | `tomo` | `tomar`, `pozo`, `muestra`, `pile`, `take` | take the top card of the discard pile |
//! | `descarto 7o` | `tiro 7o`, `discard 7o` | put a card on the discard pile, ending the turn |
//! | `cierro 3b` | `corto 3b`, `close 3b` | close, putting that card down |
//! | `meto 5o` | `lay 5o` | after a close, lay a card onto the closer's melds (meter cartas) |
//! | `listo` | `done` | done laying cards |

use crate::card::{Card, CardError};
use std::fmt;
use std::str::FromStr;

/// One decision of a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Draw the top card of the stock (el taco), seen only by the player.
    Robo,
    /// Take the top card of the discard pile (el pozo), seen by all.
    Tomo,
    /// Put this card face up on the pile; the turn passes.
    Descarto(Card),
    /// Close (cortar), putting this card down: the seven left must close.
    Cierro(Card),
    /// Lay this card onto one of the closer's melds (meter cartas).
    Meto(Card),
    /// Done laying cards onto the closer's melds.
    Listo,
}

impl Action {
    /// The card the action names, if any.
    pub fn card(self) -> Option<Card> {
        match self {
            Action::Descarto(c) | Action::Cierro(c) | Action::Meto(c) => Some(c),
            Action::Robo | Action::Tomo | Action::Listo => None,
        }
    }
}

/// Why a text is not an action.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseActionError {
    #[error("`{0}` is not an action: robo, tomo, descarto CARD, cierro CARD, meto CARD or listo")]
    Unknown(String),
    #[error("`{0}` needs a card, e.g. `{0} 7o`")]
    NoCard(String),
    #[error("`{0}` takes one card only")]
    TooManyCards(String),
    #[error(transparent)]
    Card(#[from] CardError),
}

impl FromStr for Action {
    type Err = ParseActionError;

    fn from_str(s: &str) -> Result<Action, ParseActionError> {
        let text = s.trim().to_lowercase();
        let words: Vec<&str> = text.split_whitespace().collect();
        let Some((&verb, rest)) = words.split_first() else {
            return Err(ParseActionError::Unknown(s.trim().to_string()));
        };
        let with_card = |make: fn(Card) -> Action| -> Result<Action, ParseActionError> {
            match rest {
                [] => Err(ParseActionError::NoCard(verb.to_string())),
                [card] => Ok(make(card.parse()?)),
                _ => Err(ParseActionError::TooManyCards(verb.to_string())),
            }
        };
        let plain = |a: Action| -> Result<Action, ParseActionError> {
            if rest.is_empty() {
                Ok(a)
            } else {
                Err(ParseActionError::Unknown(s.trim().to_string()))
            }
        };
        match verb {
            "robo" | "robar" | "taco" | "stock" | "draw" => plain(Action::Robo),
            "tomo" | "tomar" | "pozo" | "muestra" | "pile" | "take" => plain(Action::Tomo),
            "listo" | "done" => plain(Action::Listo),
            "descarto" | "tiro" | "discard" => with_card(Action::Descarto),
            "cierro" | "corto" | "close" => with_card(Action::Cierro),
            "meto" | "lay" => with_card(Action::Meto),
            _ => Err(ParseActionError::Unknown(s.trim().to_string())),
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Robo => f.write_str("robo"),
            Action::Tomo => f.write_str("tomo"),
            Action::Descarto(c) => write!(f, "descarto {c}"),
            Action::Cierro(c) => write!(f, "cierro {c}"),
            Action::Meto(c) => write!(f, "meto {c}"),
            Action::Listo => f.write_str("listo"),
        }
    }
}

tapete_cards::serde_as_text!(Action);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_round_trip_through_text_and_json() {
        let c: Card = "7o".parse().unwrap();
        for a in [
            Action::Robo,
            Action::Tomo,
            Action::Descarto(c),
            Action::Cierro(Card::JOKER),
            Action::Meto(c),
            Action::Listo,
        ] {
            assert_eq!(a.to_string().parse::<Action>(), Ok(a));
            let json = serde_json::to_string(&a).unwrap();
            assert_eq!(serde_json::from_str::<Action>(&json).unwrap(), a);
        }
        assert_eq!(
            serde_json::to_string(&Action::Cierro(c)).unwrap(),
            r#""cierro 7o""#
        );
    }

    #[test]
    fn english_and_other_words_are_understood() {
        let p = |s: &str| s.parse::<Action>().unwrap();
        assert_eq!(p("stock"), Action::Robo);
        assert_eq!(p("PILE"), Action::Tomo);
        assert_eq!(p(" pozo "), Action::Tomo);
        assert_eq!(p("discard 12B"), Action::Descarto("12b".parse().unwrap()));
        assert_eq!(p("corto 1o"), Action::Cierro("1o".parse().unwrap()));
        assert_eq!(p("lay J"), Action::Meto(Card::JOKER));
        assert_eq!(p("done"), Action::Listo);
    }

    #[test]
    fn bad_text_says_what_is_wrong() {
        let e = |s: &str| s.parse::<Action>().unwrap_err().to_string();
        assert!(e("juego").contains("is not an action"));
        assert!(e("").contains("is not an action"));
        assert_eq!(e("descarto"), "`descarto` needs a card, e.g. `descarto 7o`");
        assert_eq!(e("cierro 1o 2o"), "`cierro` takes one card only");
        assert!(e("descarto 13o").contains("numbers are 1–12"));
        assert!(e("robo 7o").contains("is not an action"));
    }
}
