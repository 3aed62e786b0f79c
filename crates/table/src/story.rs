//! A line of narration as data: a catalog key, its typed arguments and its English text.
//!
//! Narrators tell events as [`Line`]s so that every front-end can speak the person's
//! language: the terminal and the command line print [`Line::text`] (English, as players
//! have always read it), while the server sends the key and arguments and each page fills
//! the key's text from its own catalog (`story.*` keys of the pages' catalogs).
//!
//! ```
//! use tapete_table::story::Phrase;
//!
//! let line = Phrase::new("story.chinchon.discarded")
//!     .seat("seat", 2)
//!     .card("card", "7o")
//!     .line("seat 2 discards 7o");
//! assert_eq!(line.to_string(), "seat 2 discards 7o");
//! assert_eq!(
//!     serde_json::to_string(&line).unwrap(),
//!     r#"{"key":"story.chinchon.discarded","args":{"card":{"card":"7o"},"seat":{"seat":2}},"text":"seat 2 discards 7o"}"#
//! );
//! ```

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// One argument of a phrase, typed so that a page can render it in its language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arg {
    /// A seat: the page names it by who sits there.
    Seat(usize),
    /// A partnership of seats of one parity (0: seats 0 and 2): the page names the side.
    Pair(usize),
    /// A number, told as it is (and choosing the plural form when named `count`).
    Num(i64),
    /// A card in the game's card code ("7o", "10H"); the page names it.
    Card(String),
    /// Cards in the game's card code, in order.
    Cards(Vec<String>),
    /// Text told as it is in every language: an action's words, a jugada ("RRCA").
    Text(String),
    /// Another catalog key's text (a lance, a position, a kind of meld).
    Key(String),
    /// Another catalog key with its own arguments.
    Phrase(Phrase),
    /// Several arguments told as a list ("Ane and Mikel", "Ane 2, Mikel 1").
    List(Vec<Arg>),
}

/// A catalog key and the arguments that fill its `{placeholders}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Phrase {
    /// The catalog key: `story.<game>.<what>`, or `story.<what>` when games share it.
    pub key: String,
    /// The arguments by placeholder name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub args: BTreeMap<String, Arg>,
}

impl Phrase {
    /// A phrase of `key`, with no arguments yet.
    pub fn new(key: impl Into<String>) -> Phrase {
        Phrase {
            key: key.into(),
            args: BTreeMap::new(),
        }
    }

    /// Adds the argument `name`.
    pub fn arg(mut self, name: &str, arg: Arg) -> Phrase {
        self.args.insert(name.to_string(), arg);
        self
    }

    /// Adds a seat.
    pub fn seat(self, name: &str, seat: usize) -> Phrase {
        self.arg(name, Arg::Seat(seat))
    }

    /// Adds a pair of partners.
    pub fn pair(self, name: &str, pair: usize) -> Phrase {
        self.arg(name, Arg::Pair(pair))
    }

    /// Adds a number.
    pub fn num(self, name: &str, n: impl Into<i64>) -> Phrase {
        self.arg(name, Arg::Num(n.into()))
    }

    /// Adds a card by its code.
    pub fn card(self, name: &str, card: impl ToString) -> Phrase {
        self.arg(name, Arg::Card(card.to_string()))
    }

    /// Adds cards by their codes.
    pub fn cards<C: ToString>(self, name: &str, cards: impl IntoIterator<Item = C>) -> Phrase {
        self.arg(
            name,
            Arg::Cards(cards.into_iter().map(|c| c.to_string()).collect()),
        )
    }

    /// Adds text told as it is.
    pub fn text(self, name: &str, text: impl Into<String>) -> Phrase {
        self.arg(name, Arg::Text(text.into()))
    }

    /// Adds another catalog key's text.
    pub fn key(self, name: &str, key: impl Into<String>) -> Phrase {
        self.arg(name, Arg::Key(key.into()))
    }

    /// Adds another phrase.
    pub fn phrase(self, name: &str, phrase: Phrase) -> Phrase {
        self.arg(name, Arg::Phrase(phrase))
    }

    /// The line of this phrase whose English text is `text`.
    pub fn line(self, text: impl Into<String>) -> Line {
        Line {
            phrase: self,
            text: text.into(),
        }
    }

    /// Every phrase in this one, itself first, then those among its arguments (depth
    /// first): what a catalog must hold to tell it.
    pub fn walk(&self) -> Vec<&Phrase> {
        fn arg<'a>(a: &'a Arg, out: &mut Vec<&'a Phrase>) {
            match a {
                Arg::Phrase(p) => out.extend(p.walk()),
                Arg::List(xs) => xs.iter().for_each(|x| arg(x, out)),
                _ => {}
            }
        }
        let mut out = vec![self];
        for a in self.args.values() {
            arg(a, &mut out);
        }
        out
    }
}

/// One line of narration: a phrase, and the English text terminals print.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    /// What the line says, as a catalog key and its arguments.
    #[serde(flatten)]
    pub phrase: Phrase,
    /// The line in English, as the terminal and the command line print it.
    pub text: String,
}

impl Line {
    /// A line of plain text under `key` with no arguments.
    pub fn plain(key: impl Into<String>, text: impl Into<String>) -> Line {
        Phrase::new(key).line(text)
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Where a line sits in a log, as the narrators lay their English text out: a hand's first
/// line ("hand 3 …"), an indented one (a showdown's hands, a count's seats: it starts with
/// spaces), a score (" scores 2"), or any other. Pages that tell the line in another
/// language style it by this.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Plain,
    Hand,
    Indent,
    Score,
}

impl Line {
    /// Where this line sits in a log; see [`Kind`].
    pub fn kind(&self) -> Kind {
        let t = self.text.as_str();
        let hand = t
            .strip_prefix("hand ")
            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()));
        let score = [" scores ", " score "].iter().any(|w| {
            t.match_indices(w)
                .any(|(i, _)| t[i + w.len()..].starts_with(|c: char| c.is_ascii_digit()))
        });
        if hand {
            Kind::Hand
        } else if t.starts_with(char::is_whitespace) {
            Kind::Indent
        } else if score {
            Kind::Score
        } else {
            Kind::Plain
        }
    }

    /// The line as pages receive it: its key and arguments, and its [`Kind`] unless plain
    /// (no English text: each page tells it from its own catalog).
    pub fn wire(&self) -> serde_json::Value {
        let mut v = serde_json::to_value(&self.phrase).unwrap_or(serde_json::Value::Null);
        let kind = self.kind();
        if kind != Kind::Plain {
            v["kind"] = serde_json::to_value(kind).unwrap_or(serde_json::Value::Null);
        }
        v
    }
}

/// The English texts of `lines`, in order.
pub fn texts(lines: &[Line]) -> Vec<String> {
    lines.iter().map(|l| l.text.clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_phrases_are_walked_and_round_trip() {
        let seat = Phrase::new("story.mus.seat")
            .seat("seat", 1)
            .key("position", "story.mus.pos.postre");
        let line = Phrase::new("story.mus.said")
            .phrase("who", seat)
            .text("action", "envido 2")
            .line("seat 1 (postre): envido 2");
        let keys: Vec<&str> = line.phrase.walk().iter().map(|p| p.key.as_str()).collect();
        assert_eq!(keys, ["story.mus.said", "story.mus.seat"]);
        let json = serde_json::to_string(&line).unwrap();
        let back: Line = serde_json::from_str(&json).unwrap();
        assert_eq!(back, line);
    }

    #[test]
    fn a_line_kind_follows_the_layout_of_its_text() {
        let kind = |t: &str| Line::plain("story.x", t).kind();
        assert_eq!(
            kind("hand 3 (game 1): cards dealt, seat 1 is mano"),
            Kind::Hand
        );
        assert_eq!(kind("hand over"), Kind::Plain);
        assert_eq!(kind("  seat 2: RRCA"), Kind::Indent);
        assert_eq!(kind("pair 0-2 scores 5 (grande)"), Kind::Score);
        assert_eq!(kind("pair 0-2 scores nothing"), Kind::Plain);
        assert_eq!(kind("seat 1 discards 7o"), Kind::Plain);
    }

    #[test]
    fn pages_get_the_phrase_and_its_kind_without_the_english_text() {
        let line = Phrase::new("story.mus.scored")
            .pair("pair", 0)
            .num("points", 5)
            .line("pair 0-2 scores 5");
        assert_eq!(
            line.wire(),
            serde_json::json!({"key": "story.mus.scored", "args": {"pair": {"pair": 0}, "points": {"num": 5}}, "kind": "score"})
        );
        let plain = Line::plain("story.mus.passes", "seat 1 passes");
        assert_eq!(plain.wire(), serde_json::json!({"key": "story.mus.passes"}));
    }
}
