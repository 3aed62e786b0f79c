//! What the full-screen table remembers between frames: the session, the narrated log,
//! each seat's last call and discards, the last showdown, the input line and messages.

use crate::command::{self, Command};
use crate::session::{Session, Turn};
use crate::PlayOptions;
use std::time::Instant;
use tapete_mus::events::Showdown;
use tapete_mus::narrate::{legal_summary, Narrator};
use tapete_mus::{Action, Event};

/// A message under the table: a hint, or why an input was refused.
#[derive(Clone, Debug, Default)]
pub(crate) struct Message {
    pub text: String,
    pub error: bool,
}

/// Everything the screen shows that the game itself does not keep.
pub(crate) struct App {
    pub session: Session,
    pub narrator: Narrator,
    /// Every narrated line, oldest first.
    pub log: Vec<String>,
    /// Lines scrolled back from the bottom of the log.
    pub log_scroll: usize,
    /// The command being typed, when typing.
    pub input: String,
    pub typing: bool,
    pub message: Message,
    /// Cards chosen (by place 1–4) for the next discard.
    pub selected: [bool; 4],
    /// Each seat's last call this hand, with its lance: "grande: envido 5".
    pub last_call: [Option<String>; 4],
    /// Cards each seat discarded in the latest mus round.
    pub discarded: [Option<u8>; 4],
    /// The hands shown at the end of the last hand.
    pub shown: Option<Showdown>,
    /// After a showdown, bots wait until the human presses a key.
    pub paused: bool,
    /// Set by `q`: a second `q` leaves; any other key stays.
    pub confirm_quit: bool,
    pub help: bool,
    pub quit: bool,
    /// When the next bot may move.
    pub next_bot_at: Instant,
    /// The lance being bet, as last announced.
    lance: Option<tapete_mus::Lance>,
}

impl App {
    pub fn new(opts: &PlayOptions) -> anyhow::Result<App> {
        let session = Session::new(opts)?;
        let view = session.view();
        let mut app = App {
            narrator: Narrator::for_seat(opts.human)
                .with_mode(opts.rules.mode)
                .with_mano(view.mano),
            session,
            log: vec![format!(
                "tapete · mus — you are seat {}, your partner seat {}; bots: {}; seed {}",
                opts.human,
                (opts.human + 2) % 4,
                opts.bots,
                opts.seed
            )],
            log_scroll: 0,
            input: String::new(),
            typing: false,
            message: Message {
                text: "welcome: press ? for help".into(),
                error: false,
            },
            selected: [false; 4],
            last_call: Default::default(),
            discarded: [None; 4],
            shown: None,
            paused: false,
            confirm_quit: false,
            help: false,
            quit: false,
            next_bot_at: Instant::now() + super::BOT_DELAY,
            lance: None,
        };
        app.absorb(&view.log);
        Ok(app)
    }

    /// Takes in events: narrates them and updates what the seats show.
    pub fn absorb(&mut self, events: &[Event]) {
        for e in events {
            self.log.extend(self.narrator.lines(e));
            match e {
                Event::HandStarted { .. } => {
                    self.last_call = Default::default();
                    self.discarded = [None; 4];
                    self.selected = [false; 4];
                    self.lance = None;
                }
                Event::Said { seat, action } => {
                    let call = match self.lance {
                        Some(l) if !matches!(action, Action::Pares(_) | Action::Juego(_)) => {
                            format!("{l}: {action}")
                        }
                        _ => action.to_string(),
                    };
                    if let Some(slot) = self.last_call.get_mut(*seat) {
                        *slot = Some(call);
                    }
                    if matches!(action, Action::Mus) && self.discarded.iter().all(Option::is_some) {
                        self.discarded = [None; 4];
                    }
                }
                Event::Discarded { seat, count } => {
                    if let Some(slot) = self.discarded.get_mut(*seat) {
                        *slot = Some(*count);
                    }
                }
                Event::LanceStarted { lance } => self.lance = Some(*lance),
                Event::Showdown(s) => {
                    self.shown = Some(s.clone());
                    self.paused = true;
                }
                Event::GameWon { .. } => self.paused = true,
                _ => {}
            }
        }
        self.log_scroll = 0;
    }

    /// Applies the human's action, or shows why it was refused (nothing changes then).
    pub fn act(&mut self, action: Action) {
        let human = self.session.human;
        match self.session.apply(human, &action) {
            Ok(events) => {
                if let Action::Descarto(cards) = &action {
                    self.log.push(format!("you throw {cards}"));
                }
                // Acting ends a pause, unless this very action ended the hand.
                self.paused = false;
                self.absorb(&events);
                self.selected = [false; 4];
                self.message = Message::default();
                self.next_bot_at = Instant::now() + super::BOT_DELAY;
            }
            Err(e) => self.error(e.to_string()),
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
        match command::parse(&text, &view) {
            Err(e) => self.error(e),
            Ok(Command::Empty) => {}
            Ok(Command::Help) => self.help = !self.help,
            Ok(Command::Quit) => self.quit = true,
            Ok(Command::Act(a)) => self.act(a),
        }
    }

    /// Discards the selected cards.
    pub fn discard_selected(&mut self) {
        let places: Vec<String> = (0..4)
            .filter(|&i| self.selected[i])
            .map(|i| (i + 1).to_string())
            .collect();
        if places.is_empty() {
            self.error("select cards with 1–4 first, then Enter to discard them".into());
            return;
        }
        let words: Vec<&str> = places.iter().map(String::as_str).collect();
        match command::discard_by_place(&words, &self.session.view()) {
            Ok(a) => self.act(a),
            Err(e) => self.error(e),
        }
    }

    /// The prompt for the human's current decision, when it is theirs.
    pub fn prompt(&self) -> Option<String> {
        match self.session.turn() {
            Turn::Human(legal) => Some(legal_summary(&legal)),
            _ => None,
        }
    }

    /// The first of `candidates` that is legal for the human now.
    pub fn first_legal(&self, candidates: &[Action]) -> Option<Action> {
        match self.session.turn() {
            Turn::Human(legal) => candidates.iter().find(|a| legal.contains(a)).cloned(),
            _ => None,
        }
    }
}
