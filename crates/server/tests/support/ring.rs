//! Ring, a small game of 2–6 seats for the server's tests (what a game with a seat range,
//! hands, hidden cards, seat-dependent rules, a tool and a review looks like to the
//! server).
//!
//! Each hand every seat is dealt one hidden card (1–9); seats take turns adding 1 or 2
//! to a total, and the seat that brings it to `to` or past wins the hand. After `hands`
//! hands the seats with the most hands won win the game.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::ops::RangeInclusive;
use tapete_host::story::{Line, Phrase};
use tapete_host::{Host, Narrate};
use tapete_table::{
    Bot, Game, Outcome, RandomBot, Resample, ResampleError, Seat, SetupError, ToAct,
};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RingRules {
    /// Hands in a game.
    pub hands: u8,
    /// The total that wins a hand.
    pub to: u8,
}

impl Default for RingRules {
    fn default() -> Self {
        RingRules { hands: 2, to: 6 }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Ring {
    seats: usize,
    rules: RingRules,
    seed: u64,
    hand: u8,
    total: u8,
    turn: Seat,
    cards: Vec<u8>,
    wins: Vec<i64>,
    over: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct RingView {
    pub seat: Option<Seat>,
    pub rules: RingRules,
    pub hand: u8,
    pub total: u8,
    pub turn: Seat,
    /// This seat's card (none for a spectator).
    pub card: Option<u8>,
    pub wins: Vec<i64>,
}

#[derive(Clone, Debug, Serialize)]
pub enum RingEvent {
    Added { seat: Seat, n: u8, total: u8 },
    HandWon { seat: Seat, hand: u8 },
    HandStarted { hand: u8 },
}

impl Ring {
    fn deal(&mut self) {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed ^ u64::from(self.hand));
        self.cards = (0..self.seats).map(|_| rng.gen_range(1..=9)).collect();
    }
}

impl Game for Ring {
    const NAME: &'static str = "ring";
    type Rules = RingRules;
    type Action = u8;
    type View = RingView;
    type Event = RingEvent;
    type Error = String;

    fn new(rules: &RingRules, seats: usize, seed: u64) -> Result<Self, SetupError> {
        if !(2..=6).contains(&seats) {
            return Err(SetupError::Seats {
                wanted: "2 to 6",
                got: seats,
            });
        }
        let mut g = Ring {
            seats,
            rules: rules.clone(),
            seed,
            hand: 1,
            total: 0,
            turn: 0,
            cards: Vec::new(),
            wins: vec![0; seats],
            over: false,
        };
        g.deal();
        Ok(g)
    }
    fn to_act(&self) -> ToAct {
        if self.over {
            ToAct::Over
        } else {
            ToAct::Seats(vec![self.turn])
        }
    }
    fn legal_actions(&self, seat: Seat) -> Vec<u8> {
        if !self.over && seat == self.turn {
            vec![1, 2]
        } else {
            Vec::new()
        }
    }
    fn apply(&mut self, seat: Seat, a: &u8) -> Result<Vec<RingEvent>, String> {
        if !self.legal_actions(seat).contains(a) {
            return Err(format!("seat {seat} cannot add {a} now"));
        }
        self.total += a;
        let mut events = vec![RingEvent::Added {
            seat,
            n: *a,
            total: self.total,
        }];
        self.turn = (seat + 1) % self.seats;
        if self.total >= self.rules.to {
            self.wins[seat] += 1;
            events.push(RingEvent::HandWon {
                seat,
                hand: self.hand,
            });
            if self.hand >= self.rules.hands {
                self.over = true;
            } else {
                self.hand += 1;
                self.total = 0;
                self.turn = usize::from(self.hand - 1) % self.seats;
                self.deal();
                events.push(RingEvent::HandStarted { hand: self.hand });
            }
        }
        Ok(events)
    }
    fn view(&self, seat: Seat) -> RingView {
        RingView {
            card: self.cards.get(seat).copied(),
            seat: Some(seat),
            ..self.spectator_view()
        }
    }
    fn spectator_view(&self) -> RingView {
        RingView {
            seat: None,
            rules: self.rules.clone(),
            hand: self.hand,
            total: self.total,
            turn: self.turn,
            card: None,
            wins: self.wins.clone(),
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        if !self.over {
            return None;
        }
        let best = self.wins.iter().copied().max().unwrap_or(0);
        let winners: Vec<Seat> = (0..self.seats).filter(|s| self.wins[*s] == best).collect();
        let summary = format!("seats {winners:?} win with {best} hands");
        Some(Outcome::winners_first(
            self.seats,
            winners,
            self.wins.clone(),
            summary,
        ))
    }
}

impl Resample for Ring {
    /// The others' cards and the deals to come drawn afresh: only the seat's own card and
    /// the public score are kept.
    fn resample(view: &RingView, rng: &mut ChaCha8Rng) -> Result<Ring, ResampleError> {
        let me = view.seat.ok_or(ResampleError::Spectator)?;
        let seats = view.wins.len();
        let mut cards: Vec<u8> = (0..seats).map(|_| rng.gen_range(1..=9)).collect();
        cards[me] = view
            .card
            .ok_or_else(|| ResampleError::Inconsistent("a seat without its card".into()))?;
        Ok(Ring {
            seats,
            rules: view.rules.clone(),
            seed: rng.gen(),
            hand: view.hand,
            total: view.total,
            turn: view.turn,
            cards,
            wins: view.wins.clone(),
            over: false,
        })
    }
}

/// Ring's review: both additions weighed at every turn, rollouts at random, a hand's end
/// scored by the hands won against the best other seat's with the hands left.
pub struct RingReviewer;

impl tapete_review::Reviewer for RingReviewer {
    type G = Ring;
    type Policy = ();

    fn options(&self, _: &RingView, legal: &[u8], _: &u8) -> Option<Vec<u8>> {
        (legal.len() > 1).then(|| legal.to_vec())
    }
    fn policy(&self) {}
    fn rollout_action(
        &self,
        _: &mut (),
        _: &Ring,
        _: Seat,
        legal: &[u8],
        rng: &mut ChaCha8Rng,
    ) -> u8 {
        legal[rng.gen_range(0..legal.len())]
    }
    fn settle(&self, world: &Ring, events: &[RingEvent], seat: Seat) -> Option<f64> {
        events
            .iter()
            .any(|e| matches!(e, RingEvent::HandWon { .. }))
            .then(|| self.equity(world, seat))
    }
    fn equity(&self, game: &Ring, seat: Seat) -> f64 {
        let best_other = (0..game.seats)
            .filter(|s| *s != seat)
            .map(|s| game.wins[s])
            .max()
            .unwrap_or(0);
        let lead = game.wins[seat] - best_other;
        if game.over {
            return if lead >= 0 { 1.0 } else { 0.0 };
        }
        let left = i64::from(game.rules.hands) - i64::from(game.hand) + 1;
        (0.5 + lead as f64 / (2.0 * left as f64 + 1.0)).clamp(0.0, 1.0)
    }
    fn hand(&self, game: &Ring) -> u32 {
        u32::from(game.hand)
    }
}

/// The reviews of ring games played to this total wait at a gate until
/// [`open_review_gate`]: a test holds them while they are being made.
pub const GATED_TO: u8 = 29;

/// Reviews that reached the gate, and whether it is open.
static REVIEW_GATE: (std::sync::Mutex<(usize, bool)>, std::sync::Condvar) =
    (std::sync::Mutex::new((0, false)), std::sync::Condvar::new());

/// How many reviews of games to [`GATED_TO`] have reached the gate.
pub fn review_gate_reached() -> usize {
    REVIEW_GATE.0.lock().unwrap_or_else(|p| p.into_inner()).0
}

/// Lets every review of a game to [`GATED_TO`] go on, now and later.
pub fn open_review_gate() {
    let (lock, cv) = &REVIEW_GATE;
    lock.lock().unwrap_or_else(|p| p.into_inner()).1 = true;
    cv.notify_all();
}

/// The host of [`Ring`].
pub struct RingHost;

/// Tells a seat "you add 2: 5" and everybody else "seat 1 adds 2: 5".
#[derive(Clone)]
pub struct RingNarrator {
    me: Option<Seat>,
}

impl RingNarrator {
    fn who(&self, seat: Seat) -> String {
        if self.me == Some(seat) {
            "you".into()
        } else {
            format!("seat {seat}")
        }
    }
}

/// A ring line as pages receive it (key and arguments), in the English its narrator tells
/// spectators.
pub fn text(line: &serde_json::Value) -> String {
    let a = &line["args"];
    match line["key"].as_str() {
        Some("story.ring.begins") => format!("hand {} begins", a["hand"]["num"]),
        Some("story.ring.added") => format!(
            "seat {} adds {}: {}",
            a["seat"]["seat"], a["n"]["num"], a["total"]["num"]
        ),
        Some("story.ring.won") => {
            format!("seat {} won hand {}", a["seat"]["seat"], a["hand"]["num"])
        }
        _ => panic!("not a ring line: {line}"),
    }
}

impl Narrate<Ring> for RingNarrator {
    fn opening(&mut self, game: &Ring) -> Vec<Line> {
        vec![Phrase::new("story.ring.begins")
            .num("hand", game.hand as i64)
            .line(format!("hand {} begins", game.hand))]
    }
    fn lines(&mut self, e: &RingEvent) -> Vec<Line> {
        match e {
            RingEvent::Added { seat, n, total } => {
                let verb = if self.me == Some(*seat) {
                    "add"
                } else {
                    "adds"
                };
                vec![Phrase::new("story.ring.added")
                    .seat("seat", *seat)
                    .num("n", *n as i64)
                    .num("total", *total as i64)
                    .line(format!("{} {verb} {n}: {total}", self.who(*seat)))]
            }
            RingEvent::HandWon { seat, hand } => vec![Phrase::new("story.ring.won")
                .seat("seat", *seat)
                .num("hand", *hand as i64)
                .line(format!("{} won hand {hand}", self.who(*seat)))],
            RingEvent::HandStarted { hand } => vec![Phrase::new("story.ring.begins")
                .num("hand", *hand as i64)
                .line(format!("hand {hand} begins"))],
        }
    }
    fn begins_hand(&self, e: &RingEvent) -> bool {
        matches!(e, RingEvent::HandStarted { .. })
    }
}

impl Host for RingHost {
    type G = Ring;
    type Narrator = RingNarrator;
    type Stats = ();
    const TITLE: &'static str = "Ring";
    const SEATS: RangeInclusive<usize> = 2..=6;
    const DEFAULT_SEATS: usize = 3;

    fn bot_names() -> &'static [&'static str] {
        &["random"]
    }
    /// Stopped, the most hands won is ahead.
    fn adjudicate(game: &Ring) -> Option<Outcome> {
        let best = game.wins.iter().copied().max().unwrap_or(0);
        let winners: Vec<Seat> = (0..game.seats).filter(|s| game.wins[*s] == best).collect();
        Some(Outcome::winners_first(
            game.seats,
            winners,
            game.wins.clone(),
            format!("stopped at its time limit with {best} hands won"),
        ))
    }
    fn scores(game: &Ring) -> Value {
        json!({ "wins": game.wins })
    }
    fn score_rows(game: &Ring) -> Vec<Vec<String>> {
        let mut rows = vec![vec![String::new(), "hands won".to_string()]];
        rows.extend(
            game.wins
                .iter()
                .enumerate()
                .map(|(s, w)| vec![format!("seat {s}"), w.to_string()]),
        );
        rows
    }
    fn hands_rows(game: &Ring) -> Vec<Vec<String>> {
        game.cards
            .iter()
            .enumerate()
            .map(|(s, c)| vec![format!("seat {s}"), c.to_string()])
            .collect()
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
            "1" => Ok(1),
            "2" => Ok(2),
            _ => Err(format!("`{text}`: add 1 or 2")),
        }
    }
    fn validate_rules(rules: &RingRules, seats: usize) -> Result<(), String> {
        if !(1..=9).contains(&rules.hands) {
            return Err(format!("hands {}: play 1 to 9 hands", rules.hands));
        }
        if usize::from(rules.to) < seats || rules.to > 30 {
            return Err(format!(
                "to {}: with {seats} seats a hand goes to {seats}–30",
                rules.to
            ));
        }
        Ok(())
    }
    fn narrator(_: &Ring, seat: Option<Seat>) -> RingNarrator {
        RingNarrator { me: seat }
    }
    fn at_boundary(game: &Ring) -> bool {
        game.total == 0 || game.over
    }
    fn full_view(game: &Ring) -> Value {
        json!({"hand": game.hand, "total": game.total, "cards": game.cards, "wins": game.wins})
    }
    fn tools() -> &'static [&'static str] {
        &["sum"]
    }
    fn reviews() -> bool {
        true
    }
    fn review(
        record: &tapete_table::Record<Ring>,
        seat: Seat,
        settings: &tapete_review::Settings,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<tapete_review::Review, tapete_review::ReviewError> {
        if record.rules.to == GATED_TO {
            let (lock, cv) = &REVIEW_GATE;
            let mut g = lock.lock().unwrap_or_else(|p| p.into_inner());
            g.0 += 1;
            cv.notify_all();
            while !g.1 {
                g = cv.wait(g).unwrap_or_else(|p| p.into_inner());
            }
        }
        tapete_review::review(&RingReviewer, record, seat, settings, progress)
    }
    fn tool(name: &str, query: &Value) -> Result<Value, String> {
        if name != "sum" {
            return Err(format!("ring has no tool `{name}`"));
        }
        let number = |key: &str| -> Result<i64, String> {
            let text = query
                .get(key)
                .and_then(Value::as_str)
                .ok_or_else(|| format!("give `{key}`"))?;
            text.trim()
                .parse()
                .map_err(|_| format!("{key}: `{text}` is not a number"))
        };
        Ok(json!({"sum": number("a")? + number("b")?}))
    }
}
