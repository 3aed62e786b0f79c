//! The table's events told in players' words, for terminals, replays, logs and servers.
//!
//! Game terms stay Spanish (la muestra, menos diez, chinchón, meter cartas, listo,
//! reenganche), the rest is English. Every function returns plain text, one line per
//! string. A [`Narrator`] speaks to one audience: a seat ("you") or the spectators; it
//! follows the closer's melds so that a card laid onto them is told with the meld.
//!
//! ```
//! use tapete_chinchon::narrate::Narrator;
//! use tapete_chinchon::{ChinchonGame, ChinchonRules, Event};
//! use tapete_table::Game;
//!
//! let game = ChinchonGame::new(&ChinchonRules::default(), 3, 7).unwrap();
//! let mut you = Narrator::for_game(&game, Some(1));
//! assert!(you.opening(&game)[0].starts_with("hand 1: seat 2 deals, seat 0 is mano"));
//! assert_eq!(you.lines(&Event::DrewStock { seat: 1 }), ["you draw from the stock"]);
//! let mut all = Narrator::for_game(&game, None);
//! let took = Event::TookPile { seat: 2, card: "7o".parse().unwrap() };
//! assert_eq!(all.lines(&took), ["seat 2 takes 7o from the pile"]);
//! assert!(all.begins_hand(&game.deal_event()));
//! ```

use crate::events::{Event, HandResult, SeatResult};
use crate::game::ChinchonGame;
use crate::meld::{Close, Meld, Solver};
use crate::rules::ChinchonRules;
use tapete_table::Seat;

/// Cards in the notation players write, separated by spaces: "1o 2o 3o".
pub fn cards_text(cards: &[crate::Card]) -> String {
    cards
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Melds separated by " · ": "1o 2o 3o · 7c 7e 7b".
pub fn melds_text(melds: &[Meld]) -> String {
    melds
        .iter()
        .map(Meld::to_string)
        .collect::<Vec<_>>()
        .join(" · ")
}

/// "1 point", "12 points", "-10 points".
pub fn points_text(points: i32) -> String {
    if points == 1 {
        "1 point".into()
    } else {
        format!("{points} points")
    }
}

/// Tells events to one audience: a seat, spoken to as "you", or the spectators.
#[derive(Clone, Debug)]
pub struct Narrator {
    me: Option<Seat>,
    solver: Solver,
    melds: Vec<Meld>,
}

impl Narrator {
    /// A narrator for `seat` ("you"), or for spectators with `None`, at a table with these
    /// options.
    pub fn new(rules: &ChinchonRules, seat: Option<Seat>) -> Narrator {
        Narrator {
            me: seat,
            solver: Solver::new(rules),
            melds: Vec::new(),
        }
    }

    /// A narrator for `seat` (or spectators) of `game`, knowing the close on the table.
    pub fn for_game(game: &ChinchonGame, seat: Option<Seat>) -> Narrator {
        let mut n = Narrator::new(game.rules(), seat);
        if let Some(c) = game.close_state() {
            n.melds = c.melds.clone();
        }
        n
    }

    /// "you" for the narrator's seat, "seat N" for the others.
    pub fn who(&self, seat: Seat) -> String {
        if self.me == Some(seat) {
            "you".into()
        } else {
            format!("seat {seat}")
        }
    }

    fn is_me(&self, seat: Seat) -> bool {
        self.me == Some(seat)
    }

    /// `who` and the verb agreeing with it: ("you", "draw") or ("seat 2", "draws").
    fn says(&self, seat: Seat, you: &str, they: &str) -> String {
        if self.is_me(seat) {
            format!("you {you}")
        } else {
            format!("seat {seat} {they}")
        }
    }

    /// The lines for the state the narrator starts from: the current hand's deal (and the
    /// end, if the game is over).
    pub fn opening(&mut self, game: &ChinchonGame) -> Vec<String> {
        let mut out = self.lines(&game.deal_event());
        if let Some(c) = game.close_state() {
            self.melds = c.melds.clone();
        }
        if game.phase() == crate::view::Phase::Over {
            out.extend(self.lines(&Event::GameOver {
                winners: game.winners().to_vec(),
                chinchon: game.chinchon().is_some(),
            }));
        }
        out
    }

    /// Whether `event` begins a new hand.
    pub fn begins_hand(&self, event: &Event) -> bool {
        matches!(event, Event::HandDealt { .. })
    }

    /// The lines for one event, in order.
    pub fn lines(&mut self, event: &Event) -> Vec<String> {
        match event {
            Event::HandDealt {
                hand,
                dealer,
                mano,
                muestra,
                stock,
            } => {
                self.melds.clear();
                let deals = self.says(*dealer, "deal", "deals");
                let mano = if self.is_me(*mano) {
                    "you are mano".to_string()
                } else {
                    format!("seat {mano} is mano")
                };
                vec![format!(
                    "hand {hand}: {deals}, {mano}; the muestra is {muestra} ({stock} cards in the stock)"
                )]
            }
            Event::DrewStock { seat } => {
                vec![self.says(*seat, "draw from the stock", "draws from the stock")]
            }
            Event::TookPile { seat, card } => vec![format!(
                "{} {card} from the pile",
                self.says(*seat, "take", "takes")
            )],
            Event::Discarded { seat, card } => {
                vec![format!("{} {card}", self.says(*seat, "discard", "discards"))]
            }
            Event::StockRebuilt { cards } => vec![format!(
                "the stock ran out: the pile but its top card, shuffled, is the new stock ({cards} cards)"
            )],
            Event::HandRanOut {
                turns,
                rebuilds,
                stock_out,
            } => {
                let why = if *stock_out {
                    const NTH: [&str; 11] = [
                        "", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
                        "ninth", "tenth", "eleventh",
                    ];
                    match NTH.get(*rebuilds as usize) {
                        Some(&"") => "the stock ran out".to_string(),
                        Some(nth) => format!("the stock ran out a {nth} time"),
                        None => format!("the stock ran out {} times", rebuilds + 1),
                    }
                } else {
                    format!("{turns} turns were played")
                };
                vec![format!(
                    "nobody closed and {why}: the hand ends and everybody counts the cards in no meld"
                )]
            }
            Event::Closed {
                seat,
                down,
                close,
                melds,
            } => {
                self.melds = melds.clone();
                let closes = self.says(*seat, "close", "closes");
                let first = match close {
                    Close::Chinchon => format!("{closes}: ¡chinchón! and wins the game"),
                    Close::MenosDiez => format!("{closes}: menos diez (-10)"),
                    Close::Normal { card, points } => {
                        format!("{closes} with {card} left ({})", points_text(*points as i32))
                    }
                };
                let shows = self.says(*seat, "show", "shows");
                let put = if self.is_me(*seat) { "put" } else { "puts" };
                vec![
                    first,
                    format!("{shows} {} and {put} {down} down", melds_text(melds)),
                ]
            }
            Event::FalseClose {
                seat,
                down,
                cards,
                penalty,
            } => vec![format!(
                "{} with {} and {down} down, which do not close: {}, and the hand is dealt again",
                self.says(*seat, "close falsely", "closes falsely"),
                cards_text(cards),
                points_text(*penalty)
            )],
            Event::LaidOff(l) => {
                let onto = self
                    .melds
                    .get(l.meld)
                    .map(Meld::to_string)
                    .unwrap_or_else(|| format!("meld {}", l.meld + 1));
                if let Some(m) = self.melds.get(l.meld) {
                    if let Some(laid) = self.solver.laid(m, l.card) {
                        self.melds[l.meld] = laid;
                    }
                }
                vec![format!(
                    "{} {} on {onto} (meter cartas)",
                    self.says(l.seat, "lay", "lays"),
                    l.card
                )]
            }
            Event::DoneLayingOff { seat } => {
                vec![self.says(*seat, "are done laying cards (listo)", "is done laying cards (listo)")]
            }
            Event::HandScored(r) => self.count_lines(r),
            Event::Reenganche { seat, score } => vec![format!(
                "{} the target and {} (reenganche) with {}",
                self.says(*seat, "pass", "passes"),
                if self.is_me(*seat) { "re-enter" } else { "re-enters" },
                points_text(*score)
            )],
            Event::Eliminated { seat, score } => vec![format!(
                "{} out ({})",
                self.says(*seat, "are", "is"),
                points_text(*score)
            )],
            Event::GameOver { winners, chinchon } => {
                let names: Vec<String> = winners.iter().map(|&s| self.who(s)).collect();
                let how = if *chinchon { " with a chinchón" } else { "" };
                let line = match names.as_slice() {
                    [one] if one == "you" => format!("you win the game{how}"),
                    [one] => format!("{one} wins the game{how}"),
                    many => format!("{} share the win", many.join(" and ")),
                };
                vec![line]
            }
        }
    }

    fn count_lines(&self, r: &HandResult) -> Vec<String> {
        let mut out = vec![format!("hand {} is counted:", r.hand)];
        for s in &r.results {
            out.push(self.seat_count(s, r));
        }
        out
    }

    fn seat_count(&self, s: &SeatResult, r: &HandResult) -> String {
        let mut parts = Vec::new();
        if !s.melds.is_empty() {
            parts.push(melds_text(&s.melds));
        }
        if !s.unmatched.is_empty() {
            parts.push(format!("{} left", cards_text(&s.unmatched)));
        }
        if !s.laid.is_empty() {
            parts.push(format!("{} laid", cards_text(&s.laid)));
        }
        if parts.is_empty() {
            parts.push("everything in melds".into());
        }
        let total = r.scores.get(s.seat).copied().unwrap_or(0);
        format!(
            "  {}: {}: {} (total {total})",
            self.who(s.seat),
            parts.join(", "),
            points_text(s.points)
        )
    }
}

impl tapete_host::Narrate<ChinchonGame> for Narrator {
    fn opening(&mut self, game: &ChinchonGame) -> Vec<String> {
        Narrator::opening(self, game)
    }

    fn lines(&mut self, event: &Event) -> Vec<String> {
        Narrator::lines(self, event)
    }

    fn begins_hand(&self, event: &Event) -> bool {
        Narrator::begins_hand(self, event)
    }
}
