//! Everything a player can say or do at a Mus table, in the words players use.

use crate::senas::Sena;
use std::fmt;
use std::str::FromStr;
use tapete_cards::{Card, CardError, CardSet};

/// One player's decision. Its text form (`envido 5`, `descarto 12o 1b`, `no hay mus`) is
/// what players type, what records store and what the bot protocol sends.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Ask for a new deal of some cards.
    Mus,
    /// Cut the mus: play with these cards.
    NoHayMus,
    /// Discard these 1–4 cards after a mus.
    Descarto(CardSet),
    /// Pass (no bet on the table).
    Paso,
    /// Open the betting with N piedras (N ≥ 2; plain "envido" is 2).
    Envido(u8),
    /// Raise a standing bet by N more piedras.
    Reenvido(u8),
    /// Accept the standing bet.
    Quiero,
    /// Decline the standing bet.
    NoQuiero,
    /// Bet the whole game on this lance.
    Ordago,
    /// Declare, truthfully, whether one holds pares.
    Pares(bool),
    /// Declare, truthfully, whether one holds juego.
    Juego(bool),
    /// Pass a seña to the partner (only the partner sees it).
    Sena(Sena),
}

/// Why a text is not an action.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseActionError {
    #[error("`{0}` is not a Mus action: try mus, no hay mus, descarto 12o 1b, paso, envido [N], reenvido N, quiero, no quiero, órdago, pares sí/no, juego sí/no")]
    Unknown(String),
    #[error("`{0}`: the amount must be a whole number of piedras")]
    Amount(String),
    /// A whole number beyond what an amount can hold (above 255, or below 0).
    #[error("`{text}`: {amount} is too {}: an amount is a whole number of piedras from 0 to {}", if *.large { "large" } else { "small" }, u8::MAX)]
    OutOfRange {
        text: String,
        amount: String,
        large: bool,
    },
    #[error("`{0}`: name the cards to discard, like `descarto 12o 1b`")]
    NoCards(String),
    #[error("descarto: {0}")]
    Card(#[from] CardError),
    #[error("`{0}` names the same card twice")]
    Repeated(String),
    #[error("{0}")]
    Sena(String),
}

fn yes_no(word: &str) -> Option<bool> {
    match word {
        "si" | "sí" | "yes" | "tengo" => Some(true),
        "no" => Some(false),
        _ => None,
    }
}

/// Why `word` is not an amount: a whole number out of `u8`'s range, or not a number.
fn amount_error(word: &str, text: &str) -> ParseActionError {
    let (negative, digits) = match word.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, word.strip_prefix('+').unwrap_or(word)),
    };
    if !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) {
        let zero = digits.chars().all(|c| c == '0');
        if !(negative && zero) {
            return ParseActionError::OutOfRange {
                text: text.to_string(),
                amount: word.to_string(),
                large: !negative,
            };
        }
    }
    ParseActionError::Amount(text.to_string())
}

impl FromStr for Action {
    type Err = ParseActionError;

    fn from_str(s: &str) -> Result<Action, ParseActionError> {
        let text = s.trim().to_lowercase();
        let words: Vec<&str> = text.split_whitespace().collect();
        let amount = |w: &str| -> Result<u8, ParseActionError> {
            w.parse::<u8>().map_err(|_| amount_error(w, s.trim()))
        };
        let unknown = || ParseActionError::Unknown(s.trim().to_string());
        Ok(match words.as_slice() {
            ["mus"] => Action::Mus,
            ["no", "hay", "mus"] | ["corto"] | ["no", "mus"] => Action::NoHayMus,
            ["paso"] => Action::Paso,
            ["envido"] => Action::Envido(2),
            ["envido", n] => Action::Envido(amount(n)?),
            ["reenvido", n] | ["envido", n, "más"] | ["envido", n, "mas"] => {
                Action::Reenvido(amount(n)?)
            }
            [n, "más"] | [n, "mas"] => Action::Reenvido(amount(n)?),
            ["quiero"] | ["veo"] => Action::Quiero,
            ["no", "quiero"] => Action::NoQuiero,
            ["órdago"] | ["ordago"] => Action::Ordago,
            ["pares", w] => Action::Pares(yes_no(w).ok_or_else(unknown)?),
            ["juego", w] => Action::Juego(yes_no(w).ok_or_else(unknown)?),
            ["seña" | "sena", rest @ ..] if !rest.is_empty() => {
                Action::Sena(rest.join(" ").parse().map_err(ParseActionError::Sena)?)
            }
            ["descarto"] => return Err(ParseActionError::NoCards(s.trim().to_string())),
            ["descarto", cards @ ..] => {
                let list: Vec<Card> = cards
                    .iter()
                    .flat_map(|w| w.split(','))
                    .filter(|w| !w.is_empty())
                    .map(str::parse)
                    .collect::<Result<_, _>>()?;
                let set: CardSet = list.iter().copied().collect();
                if set.len() != list.len() {
                    return Err(ParseActionError::Repeated(s.trim().to_string()));
                }
                Action::Descarto(set)
            }
            _ => return Err(unknown()),
        })
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Mus => f.write_str("mus"),
            Action::NoHayMus => f.write_str("no hay mus"),
            Action::Descarto(cards) => write!(f, "descarto {cards}"),
            Action::Paso => f.write_str("paso"),
            Action::Envido(n) => write!(f, "envido {n}"),
            Action::Reenvido(n) => write!(f, "reenvido {n}"),
            Action::Quiero => f.write_str("quiero"),
            Action::NoQuiero => f.write_str("no quiero"),
            Action::Ordago => f.write_str("órdago"),
            Action::Pares(has) => write!(f, "pares {}", if *has { "sí" } else { "no" }),
            Action::Juego(has) => write!(f, "juego {}", if *has { "sí" } else { "no" }),
            Action::Sena(sena) => write!(f, "seña {sena}"),
        }
    }
}

tapete_cards::serde_as_text!(Action);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_round_trip_through_text() {
        let discard: CardSet = ["12o", "1b"].iter().map(|c| c.parse().unwrap()).collect();
        for a in [
            Action::Mus,
            Action::NoHayMus,
            Action::Descarto(discard),
            Action::Paso,
            Action::Envido(2),
            Action::Envido(15),
            Action::Reenvido(3),
            Action::Quiero,
            Action::NoQuiero,
            Action::Ordago,
            Action::Pares(true),
            Action::Pares(false),
            Action::Juego(true),
            Action::Juego(false),
            Action::Sena(Sena::DosReyes),
            Action::Sena(Sena::TreintaYUna),
            Action::Sena(Sena::Ninguna),
        ] {
            assert_eq!(a.to_string().parse::<Action>(), Ok(a.clone()), "{a}");
            let json = serde_json::to_string(&a).unwrap();
            assert_eq!(serde_json::from_str::<Action>(&json).unwrap(), a);
        }
    }

    #[test]
    fn amounts_out_of_range_say_so() {
        for text in [
            "envido 4294967295",
            "envido 300",
            "reenvido 256",
            "99999999999999999999999 más",
        ] {
            let err = text.parse::<Action>().expect_err(text);
            assert!(
                matches!(err, ParseActionError::OutOfRange { large: true, .. }),
                "{text}: {err:?}"
            );
            let msg = err.to_string();
            assert!(
                msg.contains("too large") && msg.contains("from 0 to 255"),
                "{msg}"
            );
            assert!(!msg.contains("must be a whole number"), "{msg}");
        }
        let err = "envido -3".parse::<Action>().expect_err("negative");
        assert!(err.to_string().contains("-3 is too small"), "{err}");
        assert_eq!("envido 255".parse(), Ok(Action::Envido(255)));
        assert_eq!("envido 0".parse(), Ok(Action::Envido(0)));
        for text in ["envido mucho", "envido 2.5", "envido -", "envido 1e3"] {
            assert!(
                matches!(text.parse::<Action>(), Err(ParseActionError::Amount(_))),
                "{text}"
            );
        }
    }

    #[test]
    fn players_words_are_understood() {
        assert_eq!("envido".parse(), Ok(Action::Envido(2)));
        assert_eq!("  Ordago ".parse(), Ok(Action::Ordago));
        assert_eq!("corto".parse(), Ok(Action::NoHayMus));
        assert_eq!("3 más".parse(), Ok(Action::Reenvido(3)));
        assert_eq!("pares si".parse(), Ok(Action::Pares(true)));
        assert!(matches!(
            "descarto 13o".parse::<Action>(),
            Err(ParseActionError::Card(_))
        ));
        assert!(matches!(
            "descarto".parse::<Action>(),
            Err(ParseActionError::NoCards(_))
        ));
        assert!(matches!(
            "descarto 1b 1b".parse::<Action>(),
            Err(ParseActionError::Repeated(_))
        ));
        assert!(matches!(
            "envido mucho".parse::<Action>(),
            Err(ParseActionError::Amount(_))
        ));
        assert!(matches!(
            "envido 2.5".parse::<Action>(),
            Err(ParseActionError::Amount(_))
        ));
        assert!(matches!(
            "hola".parse::<Action>(),
            Err(ParseActionError::Unknown(_))
        ));
    }
}
