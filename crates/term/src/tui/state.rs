//! What the full-screen table remembers between frames: the session, the narrated log,
//! the face's notes, the input line and messages.
//!
//! One typing model: every printable key goes on the input line and Enter runs the line.
//! Nothing acts while a word is being typed, so `envido 5`, `quiero` or `no hay mus` are
//! never cut short by a key. A line of one character is the game's short form for it
//! (`m` for mus, see [`Face::key`]), and a line of places (`1 3`) marks those cards of the
//! hand as it is typed.

use crate::command::{self, Command};
use crate::session::{Session, Turn};
use crate::PlayOptions;
use std::time::Instant;
use tapete_host::face::{ActionOf, EventOf, Scene, Shortcut, Vantage};
use tapete_host::{Face, Narrate};

/// What the table says once the match is over.
pub(crate) const OVER: &str = "the match is over: type q and Enter to leave";

/// A message under the table: a hint, or why an input was refused.
#[derive(Clone, Debug, Default)]
pub(crate) struct Message {
    pub text: String,
    pub error: bool,
}

/// Everything the screen shows that the game itself does not keep.
pub(crate) struct App<H: Face> {
    pub session: Session<H>,
    pub narrator: H::Narrator,
    /// What the face remembers of the events.
    pub notes: H::Notes,
    /// Every narrated line, oldest first.
    pub log: Vec<String>,
    /// Lines scrolled back from the bottom of the log.
    pub log_scroll: usize,
    /// The line being typed (empty when nothing is).
    pub input: String,
    pub message: Message,
    /// After the end of a hand, bots wait until the human presses a key.
    pub paused: bool,
    /// Set by `q` and Enter: Enter again leaves; any other key stays.
    pub confirm_quit: bool,
    pub help: bool,
    pub quit: bool,
    /// When the next bot may move.
    pub next_bot_at: Instant,
}

impl<H: Face> App<H> {
    pub fn new(opts: PlayOptions<H>) -> anyhow::Result<App<H>> {
        let seed = opts.seed;
        let session = Session::new(opts)?;
        let view = session.view();
        let mut narrator = H::narrator(&session.game, Some(session.human));
        let to_act = session.to_act();
        let at = Vantage {
            me: session.human,
            seats: session.seats(),
            to_act: &to_act,
            held: false,
        };
        let mut log = vec![format!(
            "{}; seed {seed}",
            H::intro(&view, &at, &session.names)
        )];
        log.extend(narrator.opening(&session.game).into_iter().map(|l| l.text));
        Ok(App {
            notes: H::notes(&view),
            narrator,
            session,
            log,
            log_scroll: 0,
            input: String::new(),
            message: Message {
                text: "welcome: type what you play and press Enter; F1 or ? and Enter for help"
                    .into(),
                error: false,
            },
            paused: false,
            confirm_quit: false,
            help: false,
            quit: false,
            next_bot_at: Instant::now() + super::BOT_DELAY,
        })
    }

    /// The scene the face makes of the human's view now.
    pub fn scene(&self) -> Scene {
        let to_act = self.session.to_act();
        let at = Vantage {
            me: self.session.human,
            seats: self.session.seats(),
            to_act: &to_act,
            held: self.paused,
        };
        H::scene(&self.session.view(), &self.notes, &at)
    }

    /// Takes in events: narrates them and lets the face note them; an event that ends a
    /// hand holds the table.
    pub fn absorb(&mut self, events: &[EventOf<H>]) {
        for e in events {
            self.log
                .extend(self.narrator.lines(e).into_iter().map(|l| l.text));
            if H::note(&mut self.notes, e) {
                self.paused = true;
            }
        }
        self.log_scroll = 0;
    }

    /// Plays the next action of the table's opening (`play --from`) at once, whoever's it
    /// is: the opening is history, so it neither waits for bots nor holds at a hand's end.
    pub fn opening_step(&mut self) -> anyhow::Result<()> {
        let (seat, action, events) = self.session.opening_step()?;
        if seat == self.session.human {
            self.log.extend(H::own_lines(&action));
        }
        self.absorb(&events);
        self.paused = false;
        self.next_bot_at = Instant::now() + super::BOT_DELAY;
        Ok(())
    }

    /// Applies the human's action, or shows why it was refused (nothing changes then).
    pub fn act(&mut self, action: ActionOf<H>) {
        let human = self.session.human;
        match self.session.apply(human, &action) {
            Ok(events) => {
                self.log.extend(H::own_lines(&action));
                // Acting ends a pause, unless this very action ended the hand.
                self.paused = false;
                self.absorb(&events);
                self.message = Message::default();
                self.next_bot_at = Instant::now() + super::BOT_DELAY;
            }
            Err(e) => self.error(e),
        }
    }

    /// Shows a refusal under the table and clears the input line: the message says what
    /// was wrong, and the next key starts afresh.
    pub fn error(&mut self, text: String) {
        self.message = Message { text, error: true };
        self.clear_input();
    }

    /// Empties the input line.
    pub fn clear_input(&mut self) {
        self.input.clear();
    }

    /// Shows a hint under the table.
    pub fn info(&mut self, text: impl Into<String>) {
        self.message = Message {
            text: text.into(),
            error: false,
        };
    }

    /// Runs the input line: nothing typed says what is expected, one character is the
    /// game's short form (or `q`, which asks before leaving), anything else is a command.
    pub fn submit(&mut self) {
        let text = std::mem::take(&mut self.input);
        let line = text.trim();
        let view = self.session.view();
        let mut chars = line.chars();
        if let (Some(c), None) = (chars.next(), chars.next()) {
            let c = c.to_ascii_lowercase();
            if c == 'q' {
                self.confirm_quit = true;
                self.info("leave the table? Enter leaves, any other key stays");
                return;
            }
            if let Some(short) = H::key(c, &view) {
                match short {
                    Shortcut::First(candidates) => self.first_of(&candidates),
                    Shortcut::Type { text, hint } => {
                        self.input = text;
                        self.info(hint);
                    }
                }
                return;
            }
        }
        let places = self.picked_places_in(line);
        if !places.is_empty() {
            return match H::picked(&view, &places) {
                Ok(a) => self.act(a),
                Err(e) => self.error(e),
            };
        }
        match command::parse::<H>(line, &view) {
            Err(e) => self.error(e),
            Ok(Command::Empty) => match self.session.turn() {
                Turn::Human(legal) => self.info(H::expected(&view, &legal)),
                Turn::Over => self.info(OVER),
                _ => {}
            },
            Ok(Command::Help) => self.help = !self.help,
            Ok(Command::Quit) => self.quit = true,
            Ok(Command::Act(a)) => self.act(a),
        }
    }

    /// Plays the first of `candidates` that is legal; when none is, lets the engine say
    /// why the first one is refused.
    fn first_of(&mut self, candidates: &[ActionOf<H>]) {
        match self.first_legal(candidates) {
            Some(a) => self.act(a),
            None => match self.session.turn() {
                Turn::Human(_) => {
                    if let Some(a) = candidates.first() {
                        self.act(a.clone());
                    }
                }
                Turn::Over => self.info(OVER),
                _ => self.error("it is not your turn".into()),
            },
        }
    }

    /// The places (1-based) the input line names, when it is nothing but places of the
    /// hand and cards can be picked now: those cards are marked as the line is typed.
    pub fn picked_places(&self) -> Vec<usize> {
        self.picked_places_in(&self.input)
    }

    fn picked_places_in(&self, line: &str) -> Vec<usize> {
        let Ok(pick) = H::pick(&self.session.view()) else {
            return Vec::new();
        };
        let mut places = Vec::new();
        for word in line.split_whitespace() {
            match word.parse::<usize>() {
                Ok(p) if (1..=pick.places).contains(&p) => places.push(p),
                _ => return Vec::new(),
            }
        }
        places
    }

    /// The prompt for the human's current decision, when it is theirs.
    pub fn prompt(&self) -> Option<String> {
        match self.session.turn() {
            Turn::Human(legal) => Some(H::prompt(&self.session.view(), &legal)),
            _ => None,
        }
    }

    /// The first of `candidates` that is legal for the human now.
    pub fn first_legal(&self, candidates: &[ActionOf<H>]) -> Option<ActionOf<H>> {
        match self.session.turn() {
            Turn::Human(legal) => candidates.iter().find(|a| legal.contains(a)).cloned(),
            _ => None,
        }
    }
}
