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

use crate::events::{Event, Trick};
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

    /// The lines of a revealed trick: each seat's cards and combination, then the winner.
    pub fn trick(&self, trick: &Trick) -> Vec<String> {
        let seats = trick.laid.len();
        let mut out = Vec::new();
        for k in 0..seats {
            let s = (trick.leader + k) % seats;
            let (Some(best), laid) = (trick.best[s], trick.laid[s]) else {
                continue;
            };
            let extra = laid.len() - best.cards.len();
            let extra = if extra > 0 {
                format!(" (and {})", count_text(extra, "other card"))
            } else {
                String::new()
            };
            out.push(format!(
                "{}: {} — {} {}{extra}",
                self.who(s),
                laid,
                best.kind,
                best.cards
            ));
        }
        let cards: usize = trick.laid.iter().map(|c| c.len()).sum();
        out.push(format!(
            "{} the tikki, {}",
            self.says(trick.winner, "take", "takes"),
            count_text(cards, "card")
        ));
        out
    }

    /// The lines for one event, in order.
    pub fn lines(&self, event: &Event) -> Vec<String> {
        match event {
            Event::RoundDealt {
                round,
                dealer,
                leader,
                stock,
            } => vec![format!(
                "round {round}: {} seven cards each, {} in the stock; {} the first tikki",
                self.says(*dealer, "deal", "deals"),
                count_text(*stock, "card"),
                self.says(*leader, "lead", "leads"),
            )],
            Event::Laid { seat, count } => vec![format!(
                "{} {} face down",
                self.says(*seat, "lay", "lays"),
                count_text(*count, "card")
            )],
            Event::Retreated { seat, revealed } => vec![format!(
                "{} one card back, showing {revealed}",
                self.says(*seat, "take", "takes")
            )],
            Event::Kept { seat } => vec![format!(
                "{} the cards on the table",
                self.says(*seat, "keep", "keeps")
            )],
            Event::Revealed { trick } => self.trick(trick),
            Event::Refilled { drawn, stock } => {
                let parts: Vec<String> = drawn
                    .iter()
                    .enumerate()
                    .filter(|(_, &d)| d > 0)
                    .map(|(s, &d)| format!("{} {d}", self.who(s)))
                    .collect();
                vec![format!(
                    "from the stock: {}; {} left",
                    parts.join(", "),
                    count_text(*stock, "card")
                )]
            }
            Event::Leftover { seat, cards } => vec![format!(
                "{} the last cards, {cards}, to {} pile",
                self.says(*seat, "put", "puts"),
                if self.me == Some(*seat) {
                    "your"
                } else {
                    "its"
                }
            )],
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
                vec![format!("round {round} scored: {}", each.join(", "))]
            }
            Event::GameOver { winners, scores } => {
                let names: Vec<String> = winners.iter().map(|&s| self.who(s)).collect();
                let top = winners.first().map_or(0, |&w| scores[w]);
                let verb = match (winners.len(), winners.first()) {
                    (1, Some(&w)) if self.me == Some(w) => "win",
                    (1, _) => "wins",
                    _ => "share the win",
                };
                vec![format!(
                    "game over: {} {verb} with {}",
                    names.join(" and "),
                    count_text(top as usize, "point")
                )]
            }
        }
    }
}
