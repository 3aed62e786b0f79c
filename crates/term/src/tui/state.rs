//! What the full-screen table remembers between frames: the session, the narrated log,
//! the face's notes, the cards picked, the input line and messages.

use crate::command::{self, Command};
use crate::session::{Session, Turn};
use crate::PlayOptions;
use std::time::Instant;
use tapete_host::face::{ActionOf, EventOf, Scene, Vantage};
use tapete_host::{Face, Narrate};

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
    /// The command being typed, when typing.
    pub input: String,
    pub typing: bool,
    pub message: Message,
    /// Cards picked by place (index 0 is place 1) for the next action taken with Enter.
    pub selected: Vec<bool>,
    /// After the end of a hand, bots wait until the human presses a key.
    pub paused: bool,
    /// Set by `q`: a second `q` leaves; any other key stays.
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
        log.extend(narrator.opening(&session.game));
        Ok(App {
            notes: H::notes(&view),
            narrator,
            session,
            log,
            log_scroll: 0,
            input: String::new(),
            typing: false,
            message: Message {
                text: "welcome: press ? for help".into(),
                error: false,
            },
            selected: Vec::new(),
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
            self.log.extend(self.narrator.lines(e));
            if H::note(&mut self.notes, e) {
                self.paused = true;
                self.selected.clear();
            }
        }
        self.log_scroll = 0;
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
                self.selected.clear();
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

    /// Empties the input line and stops typing.
    pub fn clear_input(&mut self) {
        self.input.clear();
        self.typing = false;
    }

    /// Shows a hint under the table.
    pub fn info(&mut self, text: impl Into<String>) {
        self.message = Message {
            text: text.into(),
            error: false,
        };
    }

    /// Runs a typed command line.
    pub fn submit(&mut self) {
        let text = std::mem::take(&mut self.input);
        self.typing = false;
        let view = self.session.view();
        match command::parse::<H>(&text, &view) {
            Err(e) => self.error(e),
            Ok(Command::Empty) => {}
            Ok(Command::Help) => self.help = !self.help,
            Ok(Command::Quit) => self.quit = true,
            Ok(Command::Act(a)) => self.act(a),
        }
    }

    /// The places (1-based) picked, in order.
    pub fn picked_places(&self) -> Vec<usize> {
        (0..self.selected.len())
            .filter(|&i| self.selected[i])
            .map(|i| i + 1)
            .collect()
    }

    /// Takes the action the picked cards make.
    pub fn act_on_picked(&mut self) {
        let places = self.picked_places();
        match H::picked(&self.session.view(), &places) {
            Ok(a) => self.act(a),
            Err(e) => self.error(e),
        }
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
