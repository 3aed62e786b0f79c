//! A toy game for 2 to 8 seats and its face, to show that the terminal assumes no seat
//! count and no game: seats take turns adding 1, 2 or 3 to a count, picked as a card of
//! their hand by place; whoever reaches 12 wins. Each seat also holds a secret card that
//! only it sees, so a test can check no other seat's secret is ever drawn.

use serde::Serialize;
use serde_json::Value;
use tapete_host::face::{
    CardFace, Centre, Face, HandScene, Ink, Line, Panel, Pick, Scene, SeatScene, Span, Tone,
    Vantage,
};
use tapete_host::story::Phrase;
use tapete_host::{Host, Narrate};
use tapete_table::{Bot, Game, Outcome, RandomBot, Seat, SetupError, ToAct};

/// The count to reach.
pub const GOAL: u8 = 12;

#[derive(Clone, Debug, PartialEq)]
pub struct Ring {
    seats: usize,
    count: u8,
    turn: Seat,
    secrets: Vec<u8>,
}

impl Ring {
    /// The secret card of `seat`.
    pub fn secret(&self, seat: Seat) -> u8 {
        self.secrets[seat]
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct RingView {
    pub seats: usize,
    pub count: u8,
    pub turn: Seat,
    pub secret: Option<u8>,
}

impl Game for Ring {
    const NAME: &'static str = "ring";
    type Rules = ();
    type Action = u8;
    type View = RingView;
    type Event = (Seat, u8);
    type Error = String;

    fn new(_: &(), seats: usize, seed: u64) -> Result<Ring, SetupError> {
        if !(2..=8).contains(&seats) {
            return Err(SetupError::Seats {
                wanted: "2–8",
                got: seats,
            });
        }
        let secrets = (0..seats)
            .map(|s| 10 * (s as u8 + 1) + (seed % 10) as u8)
            .collect();
        Ok(Ring {
            seats,
            count: 0,
            turn: 0,
            secrets,
        })
    }
    fn to_act(&self) -> ToAct {
        if self.count >= GOAL {
            ToAct::Over
        } else {
            ToAct::Seats(vec![self.turn])
        }
    }
    fn legal_actions(&self, seat: Seat) -> Vec<u8> {
        if seat == self.turn && self.count < GOAL {
            vec![1, 2, 3]
        } else {
            vec![]
        }
    }
    fn apply(&mut self, seat: Seat, a: &u8) -> Result<Vec<(Seat, u8)>, String> {
        if !self.legal_actions(seat).contains(a) {
            return Err(format!("seat {seat} cannot add {a} now"));
        }
        self.count += a;
        self.turn = (seat + 1) % self.seats;
        Ok(vec![(seat, *a)])
    }
    fn view(&self, seat: Seat) -> RingView {
        RingView {
            seats: self.seats,
            count: self.count,
            turn: self.turn,
            secret: self.secrets.get(seat).copied(),
        }
    }
    fn spectator_view(&self) -> RingView {
        RingView {
            secret: None,
            ..self.view(0)
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.count >= GOAL).then(|| {
            let winner = (self.turn + self.seats - 1) % self.seats;
            Outcome::winners_first(self.seats, vec![winner], vec![], format!("p{winner} wins"))
        })
    }
}

pub struct RingHost;

#[derive(Clone)]
pub struct RingNarrator {
    me: Option<Seat>,
}

impl Narrate<Ring> for RingNarrator {
    fn opening(&mut self, _: &Ring) -> Vec<tapete_host::story::Line> {
        vec![tapete_host::story::Line::plain(
            "story.ring.starts",
            "the ring starts at 0",
        )]
    }
    fn lines(&mut self, &(seat, added): &(Seat, u8)) -> Vec<tapete_host::story::Line> {
        let who = if self.me == Some(seat) {
            "you".to_string()
        } else {
            format!("p{seat}")
        };
        vec![Phrase::new("story.ring.adds")
            .seat("seat", seat)
            .num("added", added)
            .line(format!("{who} adds {added}"))]
    }
    fn begins_hand(&self, _: &(Seat, u8)) -> bool {
        false
    }
}

impl Host for RingHost {
    type G = Ring;
    type Narrator = RingNarrator;
    type Stats = ();
    const TITLE: &'static str = "Ring";
    const SEATS: std::ops::RangeInclusive<usize> = 2..=8;
    const DEFAULT_SEATS: usize = 5;

    fn bot_names() -> &'static [&'static str] {
        &["random"]
    }
    fn default_bot() -> &'static str {
        "random"
    }
    fn make_bot(name: &str) -> Result<Box<dyn Bot<Ring>>, String> {
        match name {
            "random" => Ok(Box::new(RandomBot)),
            _ => Err(format!("`{name}` is not a bot level: choose random")),
        }
    }
    fn parse_action(text: &str) -> Result<u8, String> {
        match text.trim() {
            "add 1" => Ok(1),
            "add 2" => Ok(2),
            "add 3" => Ok(3),
            _ => Err(format!("`{text}`: say add 1, add 2 or add 3")),
        }
    }
    fn validate_rules(_: &(), _: usize) -> Result<(), String> {
        Ok(())
    }
    fn narrator(_: &Ring, seat: Option<Seat>) -> RingNarrator {
        RingNarrator { me: seat }
    }
    fn at_boundary(game: &Ring) -> bool {
        game.count == 0
    }
    fn scores(_: &Ring) -> Value {
        Value::Null
    }
    fn score_rows(_: &Ring) -> Vec<Vec<String>> {
        Vec::new()
    }
    fn hands_rows(_: &Ring) -> Vec<Vec<String>> {
        Vec::new()
    }
    fn full_view(_: &Ring) -> Value {
        Value::Null
    }
}

fn number(n: u8, up: bool, group: Option<u8>) -> CardFace {
    CardFace {
        text: format!("#{n}"),
        corner: n.to_string(),
        middle: "add".into(),
        bottom: "ring".into(),
        ink: Ink::Green,
        up,
        group,
    }
}

impl Face for RingHost {
    type Notes = Vec<u8>;

    fn notes(view: &RingView) -> Vec<u8> {
        vec![0; view.seats]
    }
    fn note(added: &mut Vec<u8>, &(seat, a): &(Seat, u8)) -> bool {
        if let Some(slot) = added.get_mut(seat) {
            *slot = a;
        }
        false
    }
    fn scene(view: &RingView, added: &Vec<u8>, at: &Vantage) -> Scene {
        let seats = (0..at.seats)
            .map(|s| SeatScene {
                label: if s == at.me {
                    Span::new("you", Tone::Own)
                } else {
                    Span::new(format!("p{s}"), Tone::Rival)
                },
                detail: format!("seat {s}"),
                cards: if s == at.me {
                    Vec::new()
                } else {
                    vec![CardFace::down()]
                },
                cards_note: String::new(),
                facts: vec![format!("added {}", added.get(s).copied().unwrap_or(0))],
            })
            .collect();
        let mut hand: Vec<CardFace> = (1..=3).map(|n| number(n, true, Some(0))).collect();
        if let Some(secret) = view.secret {
            hand.push(number(secret, true, None));
        }
        Scene {
            header: vec![
                Line::new(vec![
                    Span::new(" tapete · ring ", Tone::Title),
                    Span::plain(format!("  count {} of {GOAL}", view.count)),
                ]),
                Line::from(format!("{}/{GOAL}", view.count)),
            ],
            seats,
            centre: Centre {
                title: " ring ".into(),
                lines: vec![Line::of(format!("count {}", view.count), Tone::Strong)],
                cards: vec![number(view.count, true, None)],
            },
            hand: HandScene {
                cards: hand,
                info: vec![Line::of("pick 1–3 and Enter", Tone::Quiet)],
            },
            reveal: (view.count > 0).then(|| Panel {
                title: " last ".into(),
                forms: vec![vec![Line::from("a long line that only fits a wide panel")]],
            }),
            end: (view.count >= GOAL).then(|| vec![format!("the ring closed at {}", view.count)]),
        }
    }
    fn intro(_: &RingView, at: &Vantage, bots: &[Option<String>]) -> String {
        format!(
            "tapete · ring — you are seat {} of {}; bots: {}",
            at.me,
            at.seats,
            bots.iter().flatten().count()
        )
    }
    fn status(view: &RingView, _: &Vantage) -> Vec<String> {
        vec![format!("── count {} ──", view.count)]
    }
    fn prompt(_: &RingView, _: &[u8]) -> String {
        "add 1 | add 2 | add 3".into()
    }
    fn help() -> Vec<String> {
        vec!["add N — N from 1 to 3".into()]
    }
    fn pick(view: &RingView) -> Result<Pick, String> {
        if view.count >= GOAL {
            return Err("the ring is closed".into());
        }
        Ok(Pick {
            places: 3,
            hint: "Enter adds the picked card".into(),
        })
    }
    fn picked(_: &RingView, places: &[usize]) -> Result<u8, String> {
        match places {
            [one] if (1..=3).contains(one) => Ok(*one as u8),
            _ => Err("pick exactly one of the cards 1–3".into()),
        }
    }
    fn final_lines(view: &RingView, _: &Vantage, outcome: Option<&Outcome>) -> Vec<String> {
        vec![
            format!("count {}", view.count),
            outcome.map_or("unfinished".into(), |o| o.summary.clone()),
        ]
    }
}
