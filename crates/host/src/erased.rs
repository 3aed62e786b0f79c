//! A game with its types erased, for hosts that pick games by name at run time (the
//! server's tables, the lobby): actions travel as text, views and rules as JSON, and each
//! audience's story is kept from the events every action returns.

use crate::story::Line;
use crate::{check_seats, parse_rules, read_rules, Host, Narrate};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use std::marker::PhantomData;
use std::ops::RangeInclusive;
use tapete_table::{Game, Outcome, Seat};

/// A kind of game, erased: what the lobby and table creation need.
pub trait Kind: Send + Sync {
    /// See [`Host::NAME`].
    fn name(&self) -> &'static str;
    /// See [`Host::TITLE`].
    fn title(&self) -> &'static str;
    /// See [`Host::SEATS`].
    fn seat_range(&self) -> RangeInclusive<usize>;
    /// See [`Host::DEFAULT_SEATS`].
    fn default_seats(&self) -> usize;
    /// The default table options, as JSON.
    fn default_rules(&self) -> Value;
    /// See [`Host::bot_names`].
    fn bot_names(&self) -> &'static [&'static str];
    /// See [`Host::default_bot`].
    fn default_bot(&self) -> &'static str;
    /// Checks options for a table of `seats` seats (missing keys take defaults, unknown
    /// keys are refused) and returns them with every key filled in.
    fn check_rules(&self, rules: &Value, seats: usize) -> Result<Value, String>;
    /// Options checked as [`Kind::check_rules`] checks them, made into a duplicate table's
    /// of `boards` boards (see [`Host::duplicate_rules`]).
    fn duplicate_rules(&self, rules: &Value, seats: usize, boards: u32) -> Result<Value, String>;
    /// Options checked as [`Kind::check_rules`] checks them, with one more juego given to
    /// `seat`'s side (see [`Host::give_juego`]); `None` when it would decide the match.
    fn give_juego(&self, rules: &Value, seats: usize, seat: Seat) -> Result<Option<Value>, String>;
    /// See [`Host::rematch_rules`]: a finished table's options as its rematch plays them
    /// (options it cannot read are kept as they are: the new table's check will say).
    fn rematch_rules(&self, rules: &Value) -> Value;
    /// A game from options, a seat count and a seed: a new table's (whose options went
    /// through [`Kind::check_rules`]) or a stored one's. Only what the game itself cannot
    /// play is refused here, so tables stored before an option's bounds still replay.
    fn new_game(
        &self,
        rules: &Value,
        seats: usize,
        seed: u64,
    ) -> Result<Box<dyn TableGame>, String>;
    /// See [`Host::tools`].
    fn tools(&self) -> &'static [&'static str];
    /// See [`Host::tool`].
    fn tool(&self, name: &str, query: &Value) -> Result<Value, String>;
    /// See [`Host::reviews`].
    fn reviews(&self) -> bool;
    /// See [`Host::screen`], for a game stored as options, seats, seed and the actions'
    /// texts.
    fn screen(&self, game: &StoredGame<'_>)
        -> Result<Vec<tapete_review::screen::Screened>, String>;
    /// See [`Host::review`], for a game stored as options, seats, seed and the actions'
    /// texts (each seat with its action).
    fn review(
        &self,
        game: &StoredGame<'_>,
        seat: Seat,
        settings: &tapete_review::Settings,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<tapete_review::Review, String>;
    /// See [`Host::PARTNERS`]: seats of one parity play together.
    fn partners(&self) -> bool;
    /// See [`Host::SCORES_AGAINST`]: the fewer points, the better.
    fn scores_against(&self) -> bool;
    /// See [`Host::rule_docs`].
    fn rule_docs(&self) -> &'static [(&'static str, &'static str)];
    /// See [`Host::WEB`].
    fn web(&self) -> crate::WebFace;
}

/// A game as stored: its options, seats, seed and every action's text with its seat.
#[derive(Clone, Copy, Debug)]
pub struct StoredGame<'a> {
    /// The options, as JSON.
    pub rules: &'a Value,
    /// Seats at the table.
    pub seats: usize,
    /// The shuffle seed.
    pub seed: u64,
    /// Every action in order, with the seat that took it.
    pub actions: &'a [(Seat, String)],
}

/// A game in progress, erased. Actions travel as their text form.
pub trait TableGame: Send + Sync {
    /// The options the game was made with, every key filled in.
    fn rules(&self) -> Value;
    /// Seats at the table.
    fn seats(&self) -> usize;
    /// The seats that may act now (empty once over).
    fn to_act(&self) -> Vec<Seat>;
    /// The actions `seat` may take now, as text.
    fn legal(&self, seat: Seat) -> Vec<String>;
    /// The canonical text of `action` if `seat` may play it now, or why not. Equivalent
    /// spellings (`envido` for `envido 2`) become the one text records store.
    fn check(&self, seat: Seat, action: &str) -> Result<String, String>;
    /// Parses and applies one action; on error nothing changed. Returns what a spectator
    /// is told of it (each seat's story is kept too: see [`TableGame::lines`]).
    fn apply(&mut self, seat: Seat, action: &str) -> Result<Vec<Line>, String>;
    /// What `seat` may know (`None`: a spectator), as JSON.
    fn view(&self, seat: Option<Seat>) -> Value;
    /// The story of the previous and the current hand as told to `seat` (or a spectator):
    /// narrated from the events as they happened.
    fn lines(&self, seat: Option<Seat>) -> Vec<Line> {
        self.lines_from(seat, 0)
    }
    /// [`TableGame::lines`] from line `from` on: what was added since a story of `from`
    /// lines, as long as [`TableGame::story_mark`]'s hand count has not changed.
    fn lines_from(&self, seat: Option<Seat>, from: usize) -> Vec<Line>;
    /// How far `seat`'s story has gone, without copying it: the hands begun (each drops
    /// the hand before the last from the story) and the lines it holds now. A table
    /// compares marks after every action and copies only the lines added.
    fn story_mark(&self, seat: Option<Seat>) -> (u64, usize);
    /// What a page is sent of `seat`'s view ([`Host::page_view`]) as JSON text, made
    /// without an intermediate JSON tree where the game keeps the view as it is: what a
    /// table sends every seat after every action.
    fn view_text(&self, seat: Option<Seat>) -> String;
    /// The result, once over (or stopped: [`TableGame::stop`]).
    fn outcome(&self) -> Option<Outcome>;
    /// Stops a game still going at its time limit: from now on nothing may be played and
    /// its outcome is [`Host::adjudicate`]'s, where play stood. Whether it stopped (a game
    /// over, or one that cannot be adjudicated, does not).
    fn stop(&mut self) -> bool;
    /// See [`Host::at_boundary`].
    fn at_boundary(&self) -> bool;
    /// See [`Host::full_view`].
    fn full_view(&self) -> Value;
    /// See [`Host::score_rows`]: a header row, then one row per side.
    fn score_rows(&self) -> Vec<Vec<String>>;
    /// A copy of the game.
    fn clone_box(&self) -> Box<dyn TableGame>;
    /// What `action` by `seat` would lead to, without changing anything: the outcome if
    /// it ends the game, and whether the game is then at a hand's boundary. Cheaper than
    /// applying it to a copy (the stories stay where they are): a table learns this
    /// before it stores the action, and applies it once stored.
    fn preview(&self, seat: Seat, action: &str) -> Result<(Option<Outcome>, bool), String>;
    /// A decision for the bot `bot` at `seat`, packed to run on another thread: it holds
    /// only that seat's view and legal actions, never the game.
    fn bot_job(&self, seat: Seat, bot: &str, seed: u64) -> Result<BotJob, String>;
}

/// A bot's decision waiting to run; it returns the action's text.
pub type BotJob = Box<dyn FnOnce() -> String + Send>;

struct KindOf<H>(PhantomData<fn() -> H>);

/// The erased kind of host `H`.
pub fn kind_of<H: Host>() -> std::sync::Arc<dyn Kind> {
    std::sync::Arc::new(KindOf::<H>(PhantomData))
}

impl<H: Host> Kind for KindOf<H> {
    fn name(&self) -> &'static str {
        H::NAME
    }
    fn title(&self) -> &'static str {
        H::TITLE
    }
    fn seat_range(&self) -> RangeInclusive<usize> {
        H::SEATS
    }
    fn default_seats(&self) -> usize {
        H::DEFAULT_SEATS
    }
    fn default_rules(&self) -> Value {
        serde_json::to_value(<H::G as Game>::Rules::default()).unwrap_or(Value::Null)
    }
    fn bot_names(&self) -> &'static [&'static str] {
        H::bot_names()
    }
    fn default_bot(&self) -> &'static str {
        H::default_bot()
    }
    fn check_rules(&self, rules: &Value, seats: usize) -> Result<Value, String> {
        check_seats::<H>(seats)?;
        let parsed = parse_rules::<H>(rules, seats)?;
        serde_json::to_value(parsed).map_err(|e| format!("rules: {e}"))
    }
    fn duplicate_rules(&self, rules: &Value, seats: usize, boards: u32) -> Result<Value, String> {
        check_seats::<H>(seats)?;
        let parsed = parse_rules::<H>(rules, seats)?;
        let made = H::duplicate_rules(parsed, boards)?;
        H::validate_rules(&made, seats)?;
        serde_json::to_value(made).map_err(|e| format!("rules: {e}"))
    }
    fn rematch_rules(&self, rules: &Value) -> Value {
        read_rules::<H>(rules)
            .ok()
            .and_then(|r| serde_json::to_value(H::rematch_rules(r)).ok())
            .unwrap_or_else(|| rules.clone())
    }
    fn give_juego(&self, rules: &Value, seats: usize, seat: Seat) -> Result<Option<Value>, String> {
        check_seats::<H>(seats)?;
        if seat >= seats {
            return Err(format!("seat {seat} does not exist"));
        }
        let parsed = parse_rules::<H>(rules, seats)?;
        match H::give_juego(parsed, seat)? {
            Some(more) => {
                H::validate_rules(&more, seats)?;
                serde_json::to_value(more)
                    .map(Some)
                    .map_err(|e| format!("rules: {e}"))
            }
            None => Ok(None),
        }
    }
    fn new_game(
        &self,
        rules: &Value,
        seats: usize,
        seed: u64,
    ) -> Result<Box<dyn TableGame>, String> {
        check_seats::<H>(seats)?;
        let rules = read_rules::<H>(rules)?;
        let game = H::G::new(&rules, seats, seed).map_err(|e| e.to_string())?;
        let audiences = (0..seats).map(Some).chain([None]);
        let mut narrators = Vec::with_capacity(seats + 1);
        let mut story = Vec::with_capacity(seats + 1);
        for seat in audiences {
            let mut n = H::narrator(&game, seat);
            story.push(Story {
                previous: Vec::new(),
                current: n.opening(&game),
                hands: 0,
            });
            narrators.push(n);
        }
        Ok(Box::new(Erased::<H> {
            game,
            stopped: None,
            rules,
            seats,
            narrators,
            story,
        }))
    }
    fn tools(&self) -> &'static [&'static str] {
        H::tools()
    }
    fn tool(&self, name: &str, query: &Value) -> Result<Value, String> {
        H::tool(name, query)
    }
    fn partners(&self) -> bool {
        H::PARTNERS
    }
    fn scores_against(&self) -> bool {
        H::SCORES_AGAINST
    }
    fn reviews(&self) -> bool {
        H::reviews()
    }
    fn screen(
        &self,
        game: &StoredGame<'_>,
    ) -> Result<Vec<tapete_review::screen::Screened>, String> {
        Ok(H::screen(&record_of::<H>(game)?))
    }
    fn review(
        &self,
        game: &StoredGame<'_>,
        seat: Seat,
        settings: &tapete_review::Settings,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<tapete_review::Review, String> {
        if !H::reviews() {
            return Err(format!("{} has no review", H::TITLE));
        }
        let record = record_of::<H>(game)?;
        H::review(&record, seat, settings, progress).map_err(|e| e.to_string())
    }
    fn rule_docs(&self) -> &'static [(&'static str, &'static str)] {
        H::rule_docs()
    }
    fn web(&self) -> crate::WebFace {
        H::WEB
    }
}

/// A stored game as `H`'s record: its options read, its actions parsed.
fn record_of<H: Host>(game: &StoredGame<'_>) -> Result<tapete_table::Record<H::G>, String> {
    check_seats::<H>(game.seats)?;
    let rules = read_rules::<H>(game.rules)?;
    let mut record = tapete_table::Record::<H::G>::new(rules, game.seats, game.seed);
    for (i, (s, text)) in game.actions.iter().enumerate() {
        let action = H::parse_action(text).map_err(|e| format!("action {i} (`{text}`): {e}"))?;
        record.actions.push((*s, action));
    }
    Ok(record)
}

/// What one audience has been told of the previous and the current hand.
#[derive(Clone, Default)]
struct Story {
    previous: Vec<Line>,
    current: Vec<Line>,
    /// Hands begun so far: how many times `current` became `previous`.
    hands: u64,
}

struct Erased<H: Host> {
    game: H::G,
    /// Stopped at a time limit: the result where play stood.
    stopped: Option<Outcome>,
    rules: <H::G as Game>::Rules,
    seats: usize,
    /// One per seat, then the spectators'.
    narrators: Vec<H::Narrator>,
    story: Vec<Story>,
}

impl<H: Host> Clone for Erased<H> {
    fn clone(&self) -> Self {
        Erased {
            game: self.game.clone(),
            stopped: self.stopped.clone(),
            rules: self.rules.clone(),
            seats: self.seats,
            narrators: self.narrators.clone(),
            story: self.story.clone(),
        }
    }
}

impl<H: Host> Erased<H> {
    fn audience(&self, seat: Option<Seat>) -> usize {
        match seat {
            Some(s) if s < self.seats => s,
            _ => self.seats,
        }
    }

    fn seat_view(&self, seat: Option<Seat>) -> <H::G as Game>::View {
        match seat {
            Some(s) if s < self.seats => self.game.view(s),
            _ => self.game.spectator_view(),
        }
    }
}

impl<H: Host> TableGame for Erased<H> {
    fn rules(&self) -> Value {
        serde_json::to_value(&self.rules).unwrap_or(Value::Null)
    }
    fn seats(&self) -> usize {
        self.seats
    }
    fn to_act(&self) -> Vec<Seat> {
        if self.stopped.is_some() {
            return Vec::new();
        }
        self.game.to_act().seats().to_vec()
    }
    fn legal(&self, seat: Seat) -> Vec<String> {
        if self.stopped.is_some() {
            return Vec::new();
        }
        self.game
            .legal_actions(seat)
            .iter()
            .map(ToString::to_string)
            .collect()
    }
    fn check(&self, seat: Seat, action: &str) -> Result<String, String> {
        let parsed = H::parse_action(action)?;
        if self.stopped.is_some() {
            return Err("the match was stopped at its time limit".into());
        }
        if !self.game.to_act().seats().contains(&seat) {
            return Err(format!("it is not seat {seat}'s turn"));
        }
        let legal = self.game.legal_actions(seat);
        if legal.contains(&parsed) {
            Ok(parsed.to_string())
        } else {
            let list: Vec<String> = legal.iter().map(ToString::to_string).collect();
            Err(format!(
                "`{parsed}` is not legal now; legal: {}",
                list.join(", ")
            ))
        }
    }
    fn apply(&mut self, seat: Seat, action: &str) -> Result<Vec<Line>, String> {
        let parsed = H::parse_action(action)?;
        if self.stopped.is_some() {
            return Err("the match was stopped at its time limit".into());
        }
        let events = self.game.apply(seat, &parsed).map_err(|e| e.to_string())?;
        let mut told = Vec::new();
        let spectators = self.seats;
        for (audience, (narrator, story)) in
            self.narrators.iter_mut().zip(&mut self.story).enumerate()
        {
            for e in &events {
                if narrator.begins_hand(e) {
                    story.previous = std::mem::take(&mut story.current);
                    story.hands += 1;
                }
                let lines = narrator.lines(e);
                if audience == spectators {
                    told.extend(lines.iter().cloned());
                }
                story.current.extend(lines);
            }
        }
        Ok(told)
    }
    fn view(&self, seat: Option<Seat>) -> Value {
        serde_json::to_value(self.seat_view(seat)).unwrap_or(Value::Null)
    }
    fn lines_from(&self, seat: Option<Seat>, from: usize) -> Vec<Line> {
        let s = &self.story[self.audience(seat)];
        s.previous
            .iter()
            .chain(&s.current)
            .skip(from)
            .cloned()
            .collect()
    }
    fn story_mark(&self, seat: Option<Seat>) -> (u64, usize) {
        let s = &self.story[self.audience(seat)];
        (s.hands, s.previous.len() + s.current.len())
    }
    fn view_text(&self, seat: Option<Seat>) -> String {
        serde_json::to_string(&H::page_view(&self.seat_view(seat)))
            .unwrap_or_else(|_| "null".into())
    }
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome().or_else(|| self.stopped.clone())
    }
    fn stop(&mut self) -> bool {
        if self.game.outcome().is_some() || self.stopped.is_some() {
            return false;
        }
        self.stopped = H::adjudicate(&self.game);
        self.stopped.is_some()
    }
    fn at_boundary(&self) -> bool {
        H::at_boundary(&self.game)
    }
    fn full_view(&self) -> Value {
        H::full_view(&self.game)
    }
    fn score_rows(&self) -> Vec<Vec<String>> {
        H::score_rows(&self.game)
    }
    fn clone_box(&self) -> Box<dyn TableGame> {
        Box::new(self.clone())
    }
    fn preview(&self, seat: Seat, action: &str) -> Result<(Option<Outcome>, bool), String> {
        let parsed = H::parse_action(action)?;
        if self.stopped.is_some() {
            return Err("the match was stopped at its time limit".into());
        }
        let mut next = self.game.clone();
        next.apply(seat, &parsed).map_err(|e| e.to_string())?;
        Ok((next.outcome(), H::at_boundary(&next)))
    }
    fn bot_job(&self, seat: Seat, bot: &str, seed: u64) -> Result<BotJob, String> {
        if self.stopped.is_some() {
            return Err(format!(
                "seat {seat} has nothing to do: the match was stopped"
            ));
        }
        let mut b = H::make_bot(bot)?;
        let view = self.game.view(seat);
        let legal = self.game.legal_actions(seat);
        if legal.is_empty() {
            return Err(format!("seat {seat} has nothing to do"));
        }
        b.start(seat, self.seats, &self.rules);
        Ok(Box::new(move || {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let a = b.act(&view, &legal, &mut rng);
            // A bot answering outside `legal` would be a bot bug; the table refuses it
            // like any other action, so the first legal one is the safe fallback.
            if legal.contains(&a) {
                a.to_string()
            } else {
                legal[0].to_string()
            }
        }))
    }
}
