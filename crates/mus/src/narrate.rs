//! The table's events told in players' words, for terminals, replays, logs and servers.
//!
//! Game terms stay Spanish (envido, órdago, en paso, piedras, la cuenta), the rest is
//! English. Nothing here knows about terminals: every function returns plain text, one
//! line per string, so any front-end can print, colour or wrap it as it likes.
//!
//! Events carry seats but not positions; [`event_line`] names seats plainly ("seat 2"),
//! while a [`Narrator`] follows the hands (it learns the mano from
//! [`Event::HandStarted`]) and names seats with their position ("seat 2 (mano)"),
//! optionally from one player's point of view ("you", "nosotros", "ellos").
//!
//! ```
//! use tapete_mus::narrate::{event_line, seat_label, Narrator};
//! use tapete_mus::{Action, Event};
//!
//! assert_eq!(seat_label(1, 2), "seat 1 (postre)");
//! let said = Event::Said { seat: 2, action: Action::Envido(5) };
//! assert_eq!(event_line(&said), "seat 2: envido 5");
//! let mut n = Narrator::new();
//! n.lines(&Event::HandStarted { hand: 1, game: 1, mano: 2 });
//! assert_eq!(n.line(&said), "seat 2 (mano): envido 5");
//! ```

use crate::events::{LanceStatus, LanceWinner, ScoreReason, Showdown};
use crate::hand::Jugada;
use crate::{eval, rules, Action, Event, Lance, Mode};
use tapete_cards::Card;
use tapete_table::story::{texts, Arg, Line, Phrase};
use tapete_table::Seat;

/// The name of a position this hand: "mano", "2nd", "3rd", "postre".
pub fn position_name(position: usize) -> &'static str {
    match position % 4 {
        0 => "mano",
        1 => "2nd",
        2 => "3rd",
        _ => "postre",
    }
}

/// A seat with its position this hand, e.g. "seat 1 (postre)" when seat 2 is mano.
pub fn seat_label(seat: Seat, mano: Seat) -> String {
    format!("seat {seat} ({})", position_name((seat + 4 - mano) % 4))
}

/// A pair named by its seats: pair 0 is "pair 0–2", pair 1 is "pair 1–3".
pub fn pair_label(pair: usize) -> String {
    format!("pair {}–{}", pair % 2, pair % 2 + 2)
}

/// How two numbers per pair are ordered wherever they are told: pair 0–2 first, as in
/// [`crate::game::Scores`], whoever won.
pub const PAIR_ORDER: &str = "pair 0–2 against pair 1–3";

/// Two numbers per pair, in [`PAIR_ORDER`]: `[12, 30]` is "12–30".
pub fn in_pair_order(n: [u8; 2]) -> String {
    format!("{}–{}", n[0], n[1])
}

/// Cards in the notation players write, separated by spaces: "12o 3c 11e 1b".
pub fn cards_text(cards: &[Card]) -> String {
    cards
        .iter()
        .map(Card::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// What a hand holds, lance by lance, in a few words: "pares de reyes, juego de 31" or
/// "no pares, 27 al punto". Front-ends show it next to the player's own cards.
pub fn hand_summary(j: Jugada) -> String {
    let pares = eval::describe(Lance::Pares, j);
    let fourth = if rules::has_juego(j) {
        eval::describe(Lance::Juego, j)
    } else {
        eval::describe(Lance::Punto, j)
    };
    format!("{pares}, {fourth}")
}

/// The jugada of some cards (ranks high→low, e.g. "RRCA"), or `None` unless exactly four.
pub fn jugada_of(cards: &[Card], mode: Mode) -> Option<Jugada> {
    let four: [Card; 4] = cards.try_into().ok()?;
    Some(Jugada::from_cards(&four, mode))
}

/// The kinds of action in `legal`, for a prompt: "paso | envido N (2–40) | órdago".
/// Runs of envidos and reenvidos fold into one entry; discards into "descarto CARDS".
pub fn legal_summary(legal: &[Action]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let range = |name: &str, amounts: &[u8]| -> Option<String> {
        let lo = amounts.iter().min()?;
        let hi = amounts.iter().max()?;
        Some(if lo == hi {
            format!("{name} {lo}")
        } else {
            format!("{name} N ({lo}–{hi})")
        })
    };
    let envidos: Vec<u8> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Envido(n) => Some(*n),
            _ => None,
        })
        .collect();
    let reenvidos: Vec<u8> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Reenvido(n) => Some(*n),
            _ => None,
        })
        .collect();
    let mut discard_done = false;
    let mut envido_done = false;
    let mut reenvido_done = false;
    for a in legal {
        match a {
            Action::Descarto(_) if !discard_done => {
                discard_done = true;
                parts.push("descarto CARDS".into());
            }
            Action::Descarto(_) => {}
            Action::Envido(_) if !envido_done => {
                envido_done = true;
                parts.extend(range("envido", &envidos));
            }
            Action::Reenvido(_) if !reenvido_done => {
                reenvido_done = true;
                parts.extend(range("reenvido", &reenvidos));
            }
            Action::Envido(_) | Action::Reenvido(_) => {}
            other => parts.push(other.to_string()),
        }
    }
    parts.join(" | ")
}

/// How a lance ended, e.g. "en paso", "quiero: 5 piedras to the counting".
pub fn status_text(lance: Lance, status: &LanceStatus) -> String {
    match status {
        LanceStatus::EnPaso => "en paso".into(),
        LanceStatus::Accepted { piedras } => {
            format!("bet accepted: {} to the counting", piedras_text(*piedras))
        }
        LanceStatus::OrdagoAccepted => "órdago accepted: the hands are shown".into(),
        LanceStatus::Declined { pair, piedras } => format!(
            "not accepted: {} takes {} now",
            pair_label(*pair),
            piedras_text(*piedras)
        ),
        LanceStatus::Unbet { pair } => format!("only {} has {lance}, not bet", pair_label(*pair)),
        LanceStatus::Void => format!("nobody has {lance}"),
    }
}

/// "1 piedra", "5 piedras".
pub fn piedras_text(n: u8) -> String {
    if n == 1 {
        "1 piedra".into()
    } else {
        format!("{n} piedras")
    }
}

/// Why piedras were scored, in players' words: "deje de grande", "cuenta de pares".
pub fn score_reason_text(lance: Lance, reason: ScoreReason) -> String {
    match (reason, lance) {
        (ScoreReason::Deje, _) => format!("deje de {lance}"),
        (ScoreReason::EnPaso, _) => format!("{lance} en paso"),
        (ScoreReason::Envite, _) => format!("envite de {lance}"),
        (ScoreReason::Cuenta, Lance::Punto) => "punto".into(),
        (ScoreReason::Cuenta, _) => format!("cuenta de {lance}"),
    }
}

/// One line telling what happened, naming seats without positions ("seat 2: envido 5").
/// A showdown takes several lines, joined with `\n`; see [`event_lines`] to get them apart.
pub fn event_line(event: &Event) -> String {
    event_lines(event).join("\n")
}

/// The lines telling what happened (one for most events, several for a showdown).
pub fn event_lines(event: &Event) -> Vec<String> {
    texts(&Narrator::new().describe(event))
}

/// Tells events in order, remembering the mano of the current hand so that seats are
/// named with their positions, and optionally speaking to one seat ("you", "nosotros").
#[derive(Clone, Debug, Default)]
pub struct Narrator {
    mano: Option<Seat>,
    me: Option<Seat>,
    mode: Mode,
}

impl Narrator {
    /// A narrator for a spectator; it learns the mano at the next hand start.
    pub fn new() -> Narrator {
        Narrator::default()
    }

    /// A narrator speaking to the player at `me`: that seat is "you", its pair
    /// "nosotros" and the other "ellos".
    pub fn for_seat(me: Seat) -> Narrator {
        Narrator {
            me: Some(me),
            ..Narrator::default()
        }
    }

    /// Uses `mode` (8 or 4 reyes) to write the jugadas shown at a showdown.
    pub fn with_mode(mut self, mode: Mode) -> Narrator {
        self.mode = mode;
        self
    }

    /// Sets the mano of the current hand (useful when starting mid-hand).
    pub fn with_mano(mut self, mano: Seat) -> Narrator {
        self.mano = Some(mano);
        self
    }

    /// The mano it currently knows.
    pub fn mano(&self) -> Option<Seat> {
        self.mano
    }

    /// The lines for one event, in order (one for most events, several for a showdown).
    pub fn lines(&mut self, event: &Event) -> Vec<String> {
        texts(&self.told(event))
    }

    /// The lines for one event as data (a catalog key, its arguments and the English text
    /// [`Narrator::lines`] returns), for front-ends that speak other languages.
    pub fn told(&mut self, event: &Event) -> Vec<Line> {
        match event {
            Event::HandStarted { mano, .. } => self.mano = Some(*mano),
            Event::Showdown(s) => self.mano = Some(s.mano),
            _ => {}
        }
        self.describe(event)
    }

    /// The lines of one event joined with `\n`.
    pub fn line(&mut self, event: &Event) -> String {
        self.lines(event).join("\n")
    }

    /// A seat named for this narrator: "seat 1 (postre)", or "you (seat 1, postre)".
    pub fn seat(&self, seat: Seat) -> String {
        match (self.me == Some(seat), self.mano) {
            (true, Some(m)) => format!("you (seat {seat}, {})", position_name((seat + 4 - m) % 4)),
            (true, None) => format!("you (seat {seat})"),
            (false, Some(m)) => seat_label(seat, m),
            (false, None) => format!("seat {seat}"),
        }
    }

    /// [`Narrator::seat`] as a catalog argument.
    fn seat_arg(&self, seat: Seat) -> Arg {
        let position = |m: Seat| position_key((seat + 4 - m) % 4);
        match (self.me == Some(seat), self.mano) {
            (true, Some(m)) => Arg::Phrase(
                Phrase::new("story.mus.you_at")
                    .num("n", seat as i64)
                    .key("position", position(m)),
            ),
            (true, None) => Arg::Phrase(Phrase::new("story.mus.you").num("n", seat as i64)),
            (false, Some(m)) => Arg::Phrase(
                Phrase::new("story.mus.seat_at")
                    .seat("seat", seat)
                    .key("position", position(m)),
            ),
            (false, None) => Arg::Seat(seat),
        }
    }

    /// A pair named for this narrator: "pair 0–2", or "nosotros (pair 0–2)".
    pub fn pair(&self, pair: usize) -> String {
        match self.me {
            Some(me) if me % 2 == pair % 2 => format!("nosotros ({})", pair_label(pair)),
            Some(_) => format!("ellos ({})", pair_label(pair)),
            None => pair_label(pair),
        }
    }

    /// [`Narrator::pair`] as a catalog argument.
    fn pair_arg(&self, pair: usize) -> Arg {
        match self.me {
            Some(me) if me % 2 == pair % 2 => {
                Arg::Phrase(Phrase::new("story.mus.us").pair("pair", pair % 2))
            }
            Some(_) => Arg::Phrase(Phrase::new("story.mus.them").pair("pair", pair % 2)),
            None => Arg::Pair(pair % 2),
        }
    }

    fn status(&self, lance: Lance, status: &LanceStatus) -> (Phrase, String) {
        let lance_key = lance_key(lance);
        match status {
            LanceStatus::EnPaso => (
                Phrase::new("story.mus.status.en_paso"),
                status_text(lance, status),
            ),
            LanceStatus::Accepted { piedras } => (
                Phrase::new("story.mus.status.accepted")
                    .phrase("piedras", piedras_phrase(*piedras)),
                status_text(lance, status),
            ),
            LanceStatus::OrdagoAccepted => (
                Phrase::new("story.mus.status.ordago_accepted"),
                status_text(lance, status),
            ),
            LanceStatus::Declined { pair, piedras } => (
                Phrase::new("story.mus.status.declined")
                    .arg("pair", self.pair_arg(*pair))
                    .phrase("piedras", piedras_phrase(*piedras)),
                format!(
                    "not accepted: {} takes {} now",
                    self.pair(*pair),
                    piedras_text(*piedras)
                ),
            ),
            LanceStatus::Unbet { pair } => (
                Phrase::new("story.mus.status.unbet")
                    .arg("pair", self.pair_arg(*pair))
                    .key("lance", lance_key),
                format!("only {} has {lance}, not bet", self.pair(*pair)),
            ),
            LanceStatus::Void => (
                Phrase::new("story.mus.status.void").key("lance", lance_key),
                status_text(lance, status),
            ),
        }
    }

    fn describe(&self, event: &Event) -> Vec<Line> {
        let one = |l: Line| vec![l];
        match event {
            Event::HandStarted { hand, game, mano } => {
                let p = Phrase::new(if self.me == Some(*mano) {
                    "story.mus.hand_started_you"
                } else {
                    "story.mus.hand_started"
                })
                .num("hand", *hand as i64)
                .num("game", *game as i64);
                let p = if self.me == Some(*mano) {
                    p.num("n", *mano as i64)
                } else {
                    p.seat("mano", *mano)
                };
                one(p.line(format!(
                    "hand {hand} (game {game}): cards dealt, {} mano",
                    if self.me == Some(*mano) {
                        format!("you (seat {mano}) are")
                    } else {
                        format!("seat {mano} is")
                    }
                )))
            }
            Event::Said { seat, action } => one(Phrase::new("story.mus.said")
                .arg("who", self.seat_arg(*seat))
                .text("action", action.to_string())
                .line(format!("{}: {action}", self.seat(*seat)))),
            Event::Discarded { seat, count } => one(Phrase::new("story.mus.discarded")
                .arg("who", self.seat_arg(*seat))
                .num("count", *count as i64)
                .line(format!(
                    "{} discards {count} card{}",
                    self.seat(*seat),
                    if *count == 1 { "" } else { "s" }
                ))),
            Event::Served => one(Line::plain(
                "story.mus.served",
                "cards served, from the mano on",
            )),
            Event::DeckRebuilt { cards } => one(Phrase::new("story.mus.deck_rebuilt")
                .num("cards", *cards as i64)
                .line(format!(
                    "the deck ran out: the discards were shuffled into a new deck of {cards} cards"
                ))),
            Event::LanceStarted { lance } => one(Phrase::new("story.mus.lance_started")
                .key("lance", lance_key(*lance))
                .line(format!("{lance}: betting starts"))),
            Event::LanceSettled { lance, status } => {
                let (phrase, text) = self.status(*lance, status);
                one(Phrase::new("story.mus.lance_settled")
                    .key("lance", lance_key(*lance))
                    .phrase("status", phrase)
                    .line(format!("{lance}: {text}")))
            }
            Event::Scored {
                pair,
                piedras,
                lance,
                reason,
                total,
            } => one(Phrase::new("story.mus.scored")
                .arg("pair", self.pair_arg(*pair))
                .phrase("piedras", piedras_phrase(*piedras))
                .phrase("reason", score_reason_phrase(*lance, *reason))
                .num("total", *total)
                .line(format!(
                    "{} scores {} ({}) → {total}",
                    self.pair(*pair),
                    piedras_text(*piedras),
                    score_reason_text(*lance, *reason)
                ))),
            Event::Showdown(s) => self.showdown(s),
            Event::GameWon {
                pair,
                ordago,
                piedras,
            } => one(Phrase::new(if *ordago {
                "story.mus.game_won_ordago"
            } else {
                "story.mus.game_won"
            })
            .arg("pair", self.pair_arg(*pair))
            .pair("first", 0)
            .pair("second", 1)
            .num("a", piedras[0])
            .num("b", piedras[1])
            .line(format!(
                "{} win{} the game{} ({PAIR_ORDER}: piedras {})",
                self.pair(*pair),
                if self.me.is_some() { "" } else { "s" },
                if *ordago { " by órdago" } else { "" },
                in_pair_order(*piedras)
            ))),
            Event::VacaWon { pair } => one(Phrase::new("story.mus.vaca_won")
                .arg("pair", self.pair_arg(*pair))
                .line(format!(
                    "{} win{} the vaca",
                    self.pair(*pair),
                    if self.me.is_some() { "" } else { "s" }
                ))),
            Event::MatchWon { pair } => one(Phrase::new("story.mus.match_won")
                .arg("pair", self.pair_arg(*pair))
                .line(format!(
                    "{} win{} the match",
                    self.pair(*pair),
                    if self.me.is_some() { "" } else { "s" }
                ))),
            Event::BoardEnded { board, net, total } => one(Phrase::new("story.mus.board_ended")
                .num("board", *board)
                .pair("first", 0)
                .num("net", *net)
                .num("total", *total)
                .line(format!(
                    "board {board} ends: {} {net:+} net piedras ({total:+} over the boards)",
                    self.pair(0)
                ))),
            Event::MatchDrawn => one(Phrase::new("story.mus.match_drawn")
                .line("the match is drawn: the pairs are level over the boards")),
        }
    }

    fn showdown(&self, s: &Showdown) -> Vec<Line> {
        let shown = Narrator {
            mano: Some(s.mano),
            ..self.clone()
        };
        let labels: Vec<String> = (0..4).map(|seat| shown.seat(seat)).collect();
        let width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        let mut out = vec![Line::plain("story.mus.showdown", "showdown:")];
        for p in 0..4 {
            let seat = (s.mano + p) % 4;
            let cards = s.cards[seat].to_vec();
            let jugada = jugada_of(&cards, self.mode);
            let phrase = match jugada {
                Some(j) => Phrase::new("story.mus.shows_jugada").text("jugada", j.to_string()),
                None => Phrase::new("story.mus.shows"),
            };
            let jugada = jugada.map(|j| format!("  {j}")).unwrap_or_default();
            out.push(
                phrase
                    .arg("who", shown.seat_arg(seat))
                    .cards("cards", &cards)
                    .line(format!(
                        "  {:<width$} shows {}{jugada}",
                        labels[seat],
                        cards_text(&cards)
                    )),
            );
        }
        for w in &s.winners {
            out.push(shown.winner_told(w));
        }
        out
    }

    /// One lance's winner at the showdown: "grande: seat 1 (2nd) wins with RRCA".
    pub fn winner_line(&self, w: &LanceWinner) -> String {
        match w.seat {
            Some(seat) => format!("{}: {} wins — {}", w.lance, self.seat(seat), w.reason),
            None => format!("{}: {}", w.lance, w.reason),
        }
    }

    /// [`Narrator::winner_line`], indented as the showdown tells it, as data.
    fn winner_told(&self, w: &LanceWinner) -> Line {
        let text = format!("  {}", self.winner_line(w));
        let why = why_phrase(&w.reason);
        let p = match w.seat {
            Some(seat) => Phrase::new("story.mus.lance_won").arg("who", self.seat_arg(seat)),
            None => Phrase::new("story.mus.lance_unplayed"),
        };
        p.key("lance", lance_key(w.lance))
            .phrase("why", why)
            .line(text)
    }
}

/// The catalog key of a lance's name: "story.mus.lance.grande".
pub fn lance_key(lance: Lance) -> String {
    format!("story.mus.lance.{lance}")
}

/// The catalog key of a position's name: "story.mus.position.mano".
fn position_key(position: usize) -> String {
    let name = match position % 4 {
        0 => "mano",
        1 => "second",
        2 => "third",
        _ => "postre",
    };
    format!("story.mus.position.{name}")
}

/// "1 piedra", "5 piedras", as a catalog phrase.
fn piedras_phrase(n: u8) -> Phrase {
    Phrase::new("story.mus.piedras").num("count", n)
}

/// [`score_reason_text`] as a catalog phrase.
fn score_reason_phrase(lance: Lance, reason: ScoreReason) -> Phrase {
    let key = match (reason, lance) {
        (ScoreReason::Deje, _) => "story.mus.reason.deje",
        (ScoreReason::EnPaso, _) => "story.mus.reason.en_paso",
        (ScoreReason::Envite, _) => "story.mus.reason.envite",
        (ScoreReason::Cuenta, Lance::Punto) => return Phrase::new("story.mus.reason.punto"),
        (ScoreReason::Cuenta, _) => "story.mus.reason.cuenta",
    };
    Phrase::new(key).key("lance", lance_key(lance))
}

const UNBET: &str = ", only one pair has it: not bet";
const TIES: &str = ", ties with position ";
const CLOSER: &str = " and is closer to mano";

/// Why a lance was won at the showdown, as the engine words it ([`LanceWinner::reason`]),
/// told as a catalog phrase: the hand in players' notation, and whether it was not bet
/// or won a tie by position. A reason of another shape is told as it is.
fn why_phrase(reason: &str) -> Phrase {
    let fixed = match reason {
        "nobody has pares" => Some("story.mus.why.no_pares"),
        "nobody has juego: punto is played" => Some("story.mus.why.no_juego"),
        "not played: somebody has juego" => Some("story.mus.why.punto_unplayed"),
        _ => None,
    };
    if let Some(key) = fixed {
        return Phrase::new(key);
    }
    let (rest, ties) = match reason.split_once(TIES) {
        Some((rest, tail)) => match tail.strip_suffix(CLOSER) {
            Some(positions) => (rest, Some(positions)),
            None => (reason, None),
        },
        None => (reason, None),
    };
    let (hand, unbet) = match rest.strip_suffix(UNBET) {
        Some(hand) => (hand, true),
        None => (rest, false),
    };
    let key = match (unbet, ties.is_some()) {
        (false, false) => "story.mus.why.hand",
        (true, false) => "story.mus.why.unbet",
        (false, true) => "story.mus.why.tie",
        (true, true) => "story.mus.why.unbet_tie",
    };
    let p = Phrase::new(key).text("hand", hand);
    match ties {
        Some(positions) => p.text("positions", positions),
        None => p,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tapete_cards::CardSet;

    fn set(cards: &str) -> CardSet {
        cards
            .split_whitespace()
            .map(|c| c.parse::<Card>().unwrap())
            .collect()
    }

    #[test]
    fn seats_and_pairs_are_named() {
        assert_eq!(seat_label(0, 0), "seat 0 (mano)");
        assert_eq!(seat_label(1, 2), "seat 1 (postre)");
        assert_eq!(seat_label(3, 2), "seat 3 (2nd)");
        assert_eq!(pair_label(0), "pair 0–2");
        assert_eq!(pair_label(1), "pair 1–3");
        let n = Narrator::for_seat(1).with_mano(2);
        assert_eq!(n.seat(1), "you (seat 1, postre)");
        assert_eq!(n.pair(1), "nosotros (pair 1–3)");
        assert_eq!(n.pair(0), "ellos (pair 0–2)");
    }

    #[test]
    fn calls_and_lances_in_players_words() {
        let mut n = Narrator::new();
        assert_eq!(
            n.line(&Event::HandStarted {
                hand: 3,
                game: 1,
                mano: 2
            }),
            "hand 3 (game 1): cards dealt, seat 2 is mano"
        );
        assert_eq!(
            n.line(&Event::Said {
                seat: 2,
                action: Action::Envido(5)
            }),
            "seat 2 (mano): envido 5"
        );
        assert_eq!(
            n.line(&Event::LanceSettled {
                lance: Lance::Grande,
                status: LanceStatus::EnPaso
            }),
            "grande: en paso"
        );
        assert_eq!(
            n.line(&Event::LanceSettled {
                lance: Lance::Pares,
                status: LanceStatus::Unbet { pair: 1 }
            }),
            "pares: only pair 1–3 has pares, not bet"
        );
        assert_eq!(
            n.line(&Event::Scored {
                pair: 0,
                piedras: 3,
                lance: Lance::Pares,
                reason: ScoreReason::Cuenta,
                total: 17
            }),
            "pair 0–2 scores 3 piedras (cuenta de pares) → 17"
        );
        assert_eq!(
            n.line(&Event::Discarded { seat: 3, count: 1 }),
            "seat 3 (2nd) discards 1 card"
        );
        assert_eq!(
            n.line(&Event::LanceSettled {
                lance: Lance::Chica,
                status: LanceStatus::Declined {
                    pair: 1,
                    piedras: 1
                }
            }),
            "chica: not accepted: pair 1–3 takes 1 piedra now"
        );
        assert_eq!(
            event_line(&Event::GameWon {
                pair: 1,
                ordago: true,
                piedras: [12, 30]
            }),
            "pair 1–3 wins the game by órdago (pair 0–2 against pair 1–3: piedras 12–30)"
        );
        assert_eq!(
            Narrator::for_seat(0).line(&Event::MatchWon { pair: 0 }),
            "nosotros (pair 0–2) win the match"
        );
    }

    #[test]
    fn legal_actions_fold_into_kinds() {
        let mut legal = vec![Action::Paso];
        legal.extend((2..=40).map(Action::Envido));
        legal.push(Action::Ordago);
        assert_eq!(legal_summary(&legal), "paso | envido N (2–40) | órdago");
        let mut facing = vec![Action::Quiero, Action::NoQuiero];
        facing.extend((2..=40).map(Action::Reenvido));
        facing.push(Action::Ordago);
        assert_eq!(
            legal_summary(&facing),
            "quiero | no quiero | reenvido N (2–40) | órdago"
        );
        let discards = vec![Action::Descarto(set("1b")), Action::Descarto(set("1b 12o"))];
        assert_eq!(legal_summary(&discards), "descarto CARDS");
        assert_eq!(
            legal_summary(&[Action::Mus, Action::NoHayMus]),
            "mus | no hay mus"
        );
    }

    #[test]
    fn showdown_shows_each_hand_and_each_winner() {
        let cards = [
            set("12o 3c 11e 1b"),
            set("4o 4c 5e 6b"),
            set("10o 10c 7e 7b"),
            set("1o 2c 1e 4b"),
        ];
        let jugadas = cards.map(|c| Jugada::from_set(c, Mode::OchoReyes).unwrap());
        // Seat 1 is mano: positions are seats 1, 2, 3, 0.
        let by_pos = [1, 2, 3, 0].map(|s| jugadas[s]);
        let ev = crate::Evaluation::new(by_pos, false);
        let s = Showdown::new(cards, 1, &ev);
        let lines = event_lines(&Event::Showdown(s));
        assert_eq!(lines[0], "showdown:");
        assert!(lines[1].contains("seat 1 (mano)") && lines[1].contains("shows 4o 4c 5e 6b"));
        assert!(lines[4].contains("seat 0 (postre)") && lines[4].contains("RRCA"));
        let grande = lines
            .iter()
            .find(|l| l.trim_start().starts_with("grande:"))
            .unwrap();
        assert!(grande.contains("seat 0 (postre) wins"), "{grande}");
        let chica = lines
            .iter()
            .find(|l| l.trim_start().starts_with("chica:"))
            .unwrap();
        assert!(chica.contains("seat 3 (3rd) wins"), "{chica}");
        let pares = lines
            .iter()
            .find(|l| l.trim_start().starts_with("pares:"))
            .unwrap();
        assert!(pares.contains("seat 2 (2nd) wins"), "{pares}");
        assert!(lines.len() >= 8);
    }

    #[test]
    fn summaries_of_a_hand() {
        let j = Jugada::parse("RRCA", Mode::OchoReyes).unwrap();
        assert_eq!(hand_summary(j), "pares de reyes, juego de 31");
        let cards: Vec<Card> = set("12o 3c 11e 1b").to_vec();
        assert_eq!(jugada_of(&cards, Mode::OchoReyes), Some(j));
        assert_eq!(cards_text(&cards[..2]), "12o 3c");
    }
}
