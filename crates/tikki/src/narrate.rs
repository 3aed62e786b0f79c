//! The table's events told in plain English, with the game's own word *tikki* for a trick
//! where it fits. A [`Narrator`] speaks to one audience: a seat ("you") or the spectators.
//!
//! ```
//! use tapete_tikki::narrate::Narrator;
//! use tapete_tikki::{Event, TikkiGame, TikkiRules};
//! use tapete_table::Game;
//!
//! let game = TikkiGame::new(&TikkiRules::default(), 3, 7).unwrap();
//! let you = Narrator::new(Some(1));
//! assert!(you.lines(&game.deal_event())[0].starts_with("round 1:"));
//! assert_eq!(you.lines(&Event::Laid { seat: 1, count: 2 }), ["you lay 2 cards face down"]);
//! assert_eq!(Narrator::new(None).lines(&Event::Laid { seat: 2, count: 1 }),
//!            ["seat 2 lays 1 card face down"]);
//! ```

use crate::combo::Kind;
use crate::events::{Event, Trick};
use tapete_table::story::{texts, Arg, Line, Phrase};
use tapete_table::Seat;

/// "1 card", "3 cards".
pub fn count_text(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// Tells events to one audience: a seat, spoken to as "you", or the spectators.
#[derive(Clone, Copy, Debug)]
pub struct Narrator {
    me: Option<Seat>,
}

impl Narrator {
    /// A narrator for `seat` ("you"), or for spectators with `None`.
    pub fn new(seat: Option<Seat>) -> Narrator {
        Narrator { me: seat }
    }

    /// "you" for the narrator's seat, "seat N" for the others.
    pub fn who(&self, seat: Seat) -> String {
        if self.me == Some(seat) {
            "you".into()
        } else {
            format!("seat {seat}")
        }
    }

    fn says(&self, seat: Seat, you: &str, they: &str) -> String {
        if self.me == Some(seat) {
            format!("you {you}")
        } else {
            format!("seat {seat} {they}")
        }
    }

    /// [`Narrator::who`] as a catalog argument.
    fn who_arg(&self, seat: Seat) -> Arg {
        if self.me == Some(seat) {
            Arg::Key("story.you".into())
        } else {
            Arg::Seat(seat)
        }
    }

    /// The phrase of `key` told of `seat`: `key_you` without a name when it is the
    /// narrator's seat, else `key` with the seat as `who`.
    fn of(&self, seat: Seat, key: &str) -> Phrase {
        if self.me == Some(seat) {
            Phrase::new(format!("{key}_you"))
        } else {
            Phrase::new(key).seat("who", seat)
        }
    }

    /// The lines of a revealed trick: each seat's cards and combination, then the winner.
    pub fn trick(&self, trick: &Trick) -> Vec<String> {
        texts(&self.told_trick(trick))
    }

    fn told_trick(&self, trick: &Trick) -> Vec<Line> {
        let seats = trick.laid.len();
        let mut out = Vec::new();
        for k in 0..seats {
            let s = (trick.leader + k) % seats;
            let (Some(best), laid) = (trick.best[s], trick.laid[s]) else {
                continue;
            };
            let extra = laid.len() - best.cards.len();
            let phrase = Phrase::new(if extra > 0 {
                "story.tikki.showed_extra"
            } else {
                "story.tikki.showed"
            })
            .arg("who", self.who_arg(s))
            .cards("laid", laid.iter())
            .phrase("kind", kind_phrase(best.kind))
            .cards("best", best.cards.iter());
            let (phrase, extra) = if extra > 0 {
                (
                    phrase.phrase("extra", count_phrase(extra)),
                    format!(" (and {})", count_text(extra, "other card")),
                )
            } else {
                (phrase, String::new())
            };
            out.push(phrase.line(format!(
                "{}: {} — {} {}{extra}",
                self.who(s),
                laid,
                best.kind,
                best.cards
            )));
        }
        let cards: usize = trick.laid.iter().map(|c| c.len()).sum();
        out.push(
            self.of(trick.winner, "story.tikki.took")
                .phrase("cards", cards_phrase(cards))
                .line(format!(
                    "{} the tikki, {}",
                    self.says(trick.winner, "take", "takes"),
                    count_text(cards, "card")
                )),
        );
        out
    }

    /// The lines for one event, in order.
    pub fn lines(&self, event: &Event) -> Vec<String> {
        texts(&self.told(event))
    }

    /// The lines for one event as data (a catalog key, its arguments and the English text
    /// [`Narrator::lines`] returns), for front-ends that speak other languages.
    pub fn told(&self, event: &Event) -> Vec<Line> {
        match event {
            Event::RoundDealt {
                round,
                dealer,
                leader,
                stock,
            } => vec![Phrase::new("story.tikki.round_dealt")
                .num("round", *round)
                .phrase("deals", self.of(*dealer, "story.tikki.deals"))
                .phrase("stock", cards_phrase(*stock))
                .phrase("leads", self.of(*leader, "story.tikki.leads"))
                .line(format!(
                    "round {round}: {} seven cards each, {} in the stock; {} the first tikki",
                    self.says(*dealer, "deal", "deals"),
                    count_text(*stock, "card"),
                    self.says(*leader, "lead", "leads"),
                ))],
            Event::Laid { seat, count } => vec![self
                .of(*seat, "story.tikki.laid")
                .phrase("cards", cards_phrase(*count))
                .line(format!(
                    "{} {} face down",
                    self.says(*seat, "lay", "lays"),
                    count_text(*count, "card")
                ))],
            Event::Retreated { seat, revealed } => vec![self
                .of(*seat, "story.tikki.retreated")
                .card("card", revealed)
                .line(format!(
                    "{} one card back, showing {revealed}",
                    self.says(*seat, "take", "takes")
                ))],
            Event::Kept { seat } => vec![self.of(*seat, "story.tikki.kept").line(format!(
                "{} the cards on the table",
                self.says(*seat, "keep", "keeps")
            ))],
            Event::Revealed { trick } => self.told_trick(trick),
            Event::Refilled { drawn, stock } => {
                let drew: Vec<(Seat, usize)> = drawn
                    .iter()
                    .enumerate()
                    .filter(|(_, &d)| d > 0)
                    .map(|(s, &d)| (s, d))
                    .collect();
                let parts: Vec<String> = drew
                    .iter()
                    .map(|&(s, d)| format!("{} {d}", self.who(s)))
                    .collect();
                let each = drew
                    .iter()
                    .map(|&(s, d)| {
                        Arg::Phrase(
                            Phrase::new("story.tikki.drew")
                                .arg("who", self.who_arg(s))
                                .num("n", d as i64),
                        )
                    })
                    .collect();
                vec![Phrase::new("story.tikki.refilled")
                    .arg("drawn", Arg::List(each))
                    .phrase("stock", cards_phrase(*stock))
                    .line(format!(
                        "from the stock: {}; {} left",
                        parts.join(", "),
                        count_text(*stock, "card")
                    ))]
            }
            Event::Leftover { seat, cards } => vec![self
                .of(*seat, "story.tikki.leftover")
                .cards("cards", cards.iter())
                .line(format!(
                    "{} the last cards, {cards}, to {} pile",
                    self.says(*seat, "put", "puts"),
                    if self.me == Some(*seat) {
                        "your"
                    } else {
                        "its"
                    }
                ))],
            Event::RoundScored {
                round,
                points,
                scores,
            } => {
                let each: Vec<String> = points
                    .iter()
                    .enumerate()
                    .map(|(s, p)| format!("{} {p} (total {})", self.who(s), scores[s]))
                    .collect();
                let args = points
                    .iter()
                    .enumerate()
                    .map(|(s, p)| {
                        Arg::Phrase(
                            Phrase::new("story.tikki.score")
                                .arg("who", self.who_arg(s))
                                .num("points", *p)
                                .num("total", scores.get(s).copied().unwrap_or(0)),
                        )
                    })
                    .collect();
                vec![Phrase::new("story.tikki.round_scored")
                    .num("round", *round)
                    .arg("each", Arg::List(args))
                    .line(format!("round {round} scored: {}", each.join(", ")))]
            }
            Event::GameOver { winners, scores } => {
                let names: Vec<String> = winners.iter().map(|&s| self.who(s)).collect();
                let top = winners.first().map_or(0, |&w| scores[w]);
                let (verb, key) = match (winners.len(), winners.first()) {
                    (1, Some(&w)) if self.me == Some(w) => ("win", "story.tikki.won_you"),
                    (1, _) => ("wins", "story.tikki.won"),
                    _ => ("share the win", "story.tikki.shared"),
                };
                let phrase = Phrase::new(key).phrase(
                    "points",
                    Phrase::new("story.tikki.points").num("count", top),
                );
                let phrase = if key == "story.tikki.won_you" {
                    phrase
                } else {
                    phrase.arg(
                        "who",
                        Arg::List(winners.iter().map(|&s| self.who_arg(s)).collect()),
                    )
                };
                vec![phrase.line(format!(
                    "game over: {} {verb} with {}",
                    names.join(" and "),
                    count_text(top as usize, "point")
                ))]
            }
        }
    }
}

/// "1 card", "3 cards", as a catalog phrase.
fn cards_phrase(n: usize) -> Phrase {
    Phrase::new("story.tikki.cards").num("count", n as i64)
}

/// "1 other card", "2 other cards", as a catalog phrase.
fn count_phrase(n: usize) -> Phrase {
    Phrase::new("story.tikki.other_cards").num("count", n as i64)
}

/// A combination's kind as a catalog phrase: "pair", "3-card straight flush".
fn kind_phrase(kind: Kind) -> Phrase {
    match kind {
        Kind::Single => Phrase::new("story.tikki.kind.single"),
        Kind::Pair => Phrase::new("story.tikki.kind.pair"),
        Kind::ThreeOfAKind => Phrase::new("story.tikki.kind.three"),
        Kind::FourOfAKind => Phrase::new("story.tikki.kind.four"),
        sf => Phrase::new("story.tikki.kind.straight_flush").num("n", sf.len() as i64),
    }
}
