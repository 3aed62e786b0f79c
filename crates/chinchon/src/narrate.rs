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
use tapete_table::story::{texts, Arg, Line, Phrase};
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

    /// [`Narrator::who`] as a catalog argument.
    fn who_arg(&self, seat: Seat) -> Arg {
        if self.is_me(seat) {
            Arg::Key("story.you".into())
        } else {
            Arg::Seat(seat)
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

    /// The phrase of `key` told of `seat`: `key_you` without a name when it is the
    /// narrator's seat, else `key` with the seat as `who`.
    fn of(&self, seat: Seat, key: &str) -> Phrase {
        if self.is_me(seat) {
            Phrase::new(format!("{key}_you"))
        } else {
            Phrase::new(key).seat("who", seat)
        }
    }

    /// The lines for the state the narrator starts from: the current hand's deal (and the
    /// end, if the game is over).
    pub fn opening(&mut self, game: &ChinchonGame) -> Vec<String> {
        texts(&self.told_opening(game))
    }

    /// [`Narrator::opening`] as data.
    pub fn told_opening(&mut self, game: &ChinchonGame) -> Vec<Line> {
        let mut out = self.told(&game.deal_event());
        if let Some(c) = game.close_state() {
            self.melds = c.melds.clone();
        }
        if game.phase() == crate::view::Phase::Over {
            out.extend(self.told(&Event::GameOver {
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
        texts(&self.told(event))
    }

    /// The lines for one event as data (a catalog key, its arguments and the English text
    /// [`Narrator::lines`] returns), for front-ends that speak other languages.
    pub fn told(&mut self, event: &Event) -> Vec<Line> {
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
                let mano_text = if self.is_me(*mano) {
                    "you are mano".to_string()
                } else {
                    format!("seat {mano} is mano")
                };
                vec![Phrase::new("story.chinchon.hand_dealt")
                    .num("hand", *hand)
                    .phrase("deals", self.of(*dealer, "story.chinchon.deals"))
                    .phrase("mano", self.of(*mano, "story.chinchon.is_mano"))
                    .card("muestra", muestra)
                    .num("stock", *stock as i64)
                    .line(format!(
                    "hand {hand}: {deals}, {mano_text}; the muestra is {muestra} ({stock} cards in the stock)"
                ))]
            }
            Event::DrewStock { seat } => vec![self
                .of(*seat, "story.chinchon.drew")
                .line(self.says(*seat, "draw from the stock", "draws from the stock"))],
            Event::TookPile { seat, card } => vec![self
                .of(*seat, "story.chinchon.took")
                .card("card", card)
                .line(format!(
                    "{} {card} from the pile",
                    self.says(*seat, "take", "takes")
                ))],
            Event::Discarded { seat, card } => vec![self
                .of(*seat, "story.chinchon.discarded")
                .card("card", card)
                .line(format!("{} {card}", self.says(*seat, "discard", "discards")))],
            Event::StockRebuilt { cards } => vec![Phrase::new("story.chinchon.stock_rebuilt")
                .num("cards", *cards as i64)
                .line(format!(
                "the stock ran out: the pile but its top card, shuffled, is the new stock ({cards} cards)"
            ))],
            Event::HandRanOut {
                turns,
                rebuilds,
                stock_out,
            } => {
                const NTH: [&str; 11] = [
                    "", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
                    "ninth", "tenth", "eleventh",
                ];
                let (why, phrase) = if *stock_out {
                    match NTH.get(*rebuilds as usize) {
                        Some(&"") => (
                            "the stock ran out".to_string(),
                            Phrase::new("story.chinchon.why.stock_out"),
                        ),
                        Some(nth) => (
                            format!("the stock ran out a {nth} time"),
                            Phrase::new("story.chinchon.why.stock_out_nth")
                                .key("nth", format!("story.chinchon.nth.{}", rebuilds + 1)),
                        ),
                        None => (
                            format!("the stock ran out {} times", rebuilds + 1),
                            Phrase::new("story.chinchon.why.stock_out_times")
                                .num("times", *rebuilds as i64 + 1),
                        ),
                    }
                } else {
                    (
                        format!("{turns} turns were played"),
                        Phrase::new("story.chinchon.why.turns").num("turns", *turns as i64),
                    )
                };
                vec![Phrase::new("story.chinchon.ran_out")
                    .phrase("why", phrase)
                    .line(format!(
                    "nobody closed and {why}: the hand ends and everybody counts the cards in no meld"
                ))]
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
                    Close::Chinchon => self
                        .of(*seat, "story.chinchon.closed_chinchon")
                        .line(format!("{closes}: ¡chinchón! and wins the game")),
                    Close::MenosDiez => self
                        .of(*seat, "story.chinchon.closed_menos_diez")
                        .line(format!("{closes}: menos diez (-10)")),
                    Close::Normal { card, points } => self
                        .of(*seat, "story.chinchon.closed")
                        .card("card", card)
                        .phrase("points", points_phrase(*points as i32))
                        .line(format!(
                            "{closes} with {card} left ({})",
                            points_text(*points as i32)
                        )),
                };
                let shows = self.says(*seat, "show", "shows");
                let put = if self.is_me(*seat) { "put" } else { "puts" };
                vec![
                    first,
                    self.of(*seat, "story.chinchon.shows")
                        .arg("melds", melds_arg(melds))
                        .card("down", down)
                        .line(format!("{shows} {} and {put} {down} down", melds_text(melds))),
                ]
            }
            Event::FalseClose {
                seat,
                down,
                cards,
                penalty,
            } => vec![self
                .of(*seat, "story.chinchon.false_close")
                .cards("cards", cards)
                .card("down", down)
                .phrase("points", points_phrase(*penalty))
                .line(format!(
                "{} with {} and {down} down, which do not close: {}, and the hand is dealt again",
                self.says(*seat, "close falsely", "closes falsely"),
                cards_text(cards),
                points_text(*penalty)
            ))],
            Event::LaidOff(l) => {
                let (onto, phrase) = match self.melds.get(l.meld) {
                    Some(m) => (
                        m.to_string(),
                        self.of(l.seat, "story.chinchon.laid_off")
                            .cards("onto", &m.cards),
                    ),
                    None => (
                        format!("meld {}", l.meld + 1),
                        self.of(l.seat, "story.chinchon.laid_off_nth")
                            .num("n", l.meld as i64 + 1),
                    ),
                };
                if let Some(m) = self.melds.get(l.meld) {
                    if let Some(laid) = self.solver.laid(m, l.card) {
                        self.melds[l.meld] = laid;
                    }
                }
                vec![phrase.card("card", l.card).line(format!(
                    "{} {} on {onto} (meter cartas)",
                    self.says(l.seat, "lay", "lays"),
                    l.card
                ))]
            }
            Event::DoneLayingOff { seat } => vec![self.of(*seat, "story.chinchon.done").line(
                self.says(*seat, "are done laying cards (listo)", "is done laying cards (listo)"),
            )],
            Event::HandScored(r) => self.count_lines(r),
            Event::Reenganche { seat, score } => vec![self
                .of(*seat, "story.chinchon.reenganche")
                .phrase("points", points_phrase(*score))
                .line(format!(
                    "{} the target and {} (reenganche) with {}",
                    self.says(*seat, "pass", "passes"),
                    if self.is_me(*seat) { "re-enter" } else { "re-enters" },
                    points_text(*score)
                ))],
            Event::Eliminated { seat, score } => vec![self
                .of(*seat, "story.chinchon.eliminated")
                .phrase("points", points_phrase(*score))
                .line(format!(
                    "{} out ({})",
                    self.says(*seat, "are", "is"),
                    points_text(*score)
                ))],
            Event::GameOver { winners, chinchon } => {
                let names: Vec<String> = winners.iter().map(|&s| self.who(s)).collect();
                let how = if *chinchon { " with a chinchón" } else { "" };
                let suffix = if *chinchon { "_chinchon" } else { "" };
                let line = match (names.as_slice(), winners.as_slice()) {
                    ([one], [_]) if one == "you" => {
                        Phrase::new(format!("story.chinchon.won_you{suffix}"))
                            .line(format!("you win the game{how}"))
                    }
                    ([one], [seat]) => Phrase::new(format!("story.chinchon.won{suffix}"))
                        .seat("who", *seat)
                        .line(format!("{one} wins the game{how}")),
                    (many, _) => Phrase::new("story.chinchon.shared")
                        .arg(
                            "who",
                            Arg::List(winners.iter().map(|&s| self.who_arg(s)).collect()),
                        )
                        .line(format!("{} share the win", many.join(" and "))),
                };
                vec![line]
            }
        }
    }

    fn count_lines(&self, r: &HandResult) -> Vec<Line> {
        let mut out = vec![Phrase::new("story.chinchon.counted")
            .num("hand", r.hand)
            .line(format!("hand {} is counted:", r.hand))];
        for s in &r.results {
            out.push(self.seat_count(s, r));
        }
        out
    }

    fn seat_count(&self, s: &SeatResult, r: &HandResult) -> Line {
        let mut parts = Vec::new();
        let mut args = Vec::new();
        if !s.melds.is_empty() {
            parts.push(melds_text(&s.melds));
            args.push(Arg::Phrase(
                Phrase::new("story.chinchon.part.melds").arg("melds", melds_arg(&s.melds)),
            ));
        }
        if !s.unmatched.is_empty() {
            parts.push(format!("{} left", cards_text(&s.unmatched)));
            args.push(Arg::Phrase(
                Phrase::new("story.chinchon.part.left").cards("cards", &s.unmatched),
            ));
        }
        if !s.laid.is_empty() {
            parts.push(format!("{} laid", cards_text(&s.laid)));
            args.push(Arg::Phrase(
                Phrase::new("story.chinchon.part.laid").cards("cards", &s.laid),
            ));
        }
        if parts.is_empty() {
            parts.push("everything in melds".into());
            args.push(Arg::Key("story.chinchon.part.all".into()));
        }
        let total = r.scores.get(s.seat).copied().unwrap_or(0);
        Phrase::new("story.chinchon.count")
            .arg("who", self.who_arg(s.seat))
            .arg("parts", Arg::List(args))
            .phrase("points", points_phrase(s.points))
            .num("total", total)
            .line(format!(
                "  {}: {}: {} (total {total})",
                self.who(s.seat),
                parts.join(", "),
                points_text(s.points)
            ))
    }
}

/// "1 point", "12 points", as a catalog phrase.
fn points_phrase(points: i32) -> Phrase {
    Phrase::new("story.chinchon.points").num("count", points)
}

/// Melds as a catalog argument: a list of card lists.
fn melds_arg(melds: &[Meld]) -> Arg {
    Arg::List(
        melds
            .iter()
            .map(|m| Arg::Cards(m.cards.iter().map(|c| c.to_string()).collect()))
            .collect(),
    )
}

impl tapete_host::Narrate<ChinchonGame> for Narrator {
    fn opening(&mut self, game: &ChinchonGame) -> Vec<Line> {
        Narrator::told_opening(self, game)
    }

    fn lines(&mut self, event: &Event) -> Vec<Line> {
        Narrator::told(self, event)
    }

    fn begins_hand(&self, event: &Event) -> bool {
        Narrator::begins_hand(self, event)
    }
}
