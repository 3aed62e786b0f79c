//! The full-screen table: the four seats around, your cards drawn, the scoreboard, a
//! scrolling log, and an input line taking the same words as line mode plus shortcuts.
//!
//! The terminal is restored on every way out: quitting, an error (a guard's `Drop`) and a
//! panic (ratatui's panic hook).

mod draw;
mod state;

use crate::session::Turn;
use crate::PlayOptions;
use crossterm::event::{self, Event as TermEvent, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::{cursor, execute, terminal};
use ratatui::backend::{Backend, CrosstermBackend};
use ratatui::Terminal;
use state::App;
use std::io::{self, Write};
use std::time::{Duration, Instant};
use tapete_mus::view::Phase;
use tapete_mus::{Action, MusGame};
use tapete_table::Record;

/// How long the table waits before each bot move, so the human can follow.
pub const BOT_DELAY: Duration = Duration::from_millis(400);

/// Where the full-screen table is drawn: stdout, or stderr when stdout is kept for
/// machine-readable output.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Screen {
    #[default]
    Stdout,
    Stderr,
}

impl Screen {
    /// Whether this stream is a terminal (a full-screen table can be drawn on it).
    pub fn is_terminal(self) -> bool {
        use std::io::IsTerminal;
        match self {
            Screen::Stdout => std::io::stdout().is_terminal(),
            Screen::Stderr => std::io::stderr().is_terminal(),
        }
    }
}

/// Writes to the chosen stream.
struct Out(Screen);

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.0 {
            Screen::Stdout => io::stdout().write(buf),
            Screen::Stderr => io::stderr().write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.0 {
            Screen::Stdout => io::stdout().flush(),
            Screen::Stderr => io::stderr().flush(),
        }
    }
}

/// Leaves raw mode and the alternate screen of `screen`, as far as possible.
fn restore(screen: Screen) {
    let _ = terminal::disable_raw_mode();
    let _ = execute!(Out(screen), terminal::LeaveAlternateScreen, cursor::Show);
}

/// Leaves raw mode and the alternate screen when dropped, whatever happened.
struct Restore(Screen);

impl Drop for Restore {
    fn drop(&mut self) {
        restore(self.0);
    }
}

pub(crate) fn play(opts: &PlayOptions, screen: Screen) -> anyhow::Result<Record<MusGame>> {
    // Set up (and refuse bad options) before touching the terminal.
    let mut app = App::new(opts)?;
    // A panic restores the terminal before its message is printed.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore(screen);
        hook(info);
    }));
    let _restore = Restore(screen);
    terminal::enable_raw_mode()?;
    execute!(Out(screen), terminal::EnterAlternateScreen)?;
    let mut terminal = Terminal::new(CrosstermBackend::new(Out(screen)))?;
    run(&mut terminal, &mut app)?;
    Ok(app.session.record)
}

fn run<B: Backend>(terminal: &mut Terminal<B>, app: &mut App) -> anyhow::Result<()> {
    loop {
        terminal.draw(|f| draw::draw(f, app))?;
        if app.quit {
            return Ok(());
        }
        let turn = app.session.turn();
        let now = Instant::now();
        match &turn {
            Turn::Auto(action) => {
                // The human's declaration is forced: apply it and show it, never ask.
                let action = action.clone();
                app.act(action);
                continue;
            }
            Turn::Bot(seat) if !app.paused && now >= app.next_bot_at => {
                let (_, events) = app.session.bot_move(*seat)?;
                app.absorb(&events);
                if app.message.error {
                    // The table moved on: an old refusal no longer applies.
                    app.message = state::Message::default();
                }
                app.next_bot_at = Instant::now() + BOT_DELAY;
                continue;
            }
            _ => {}
        }
        let wait = match turn {
            Turn::Bot(_) if !app.paused => app.next_bot_at.saturating_duration_since(now),
            _ => Duration::from_millis(250),
        };
        if event::poll(wait)? {
            match event::read()? {
                TermEvent::Key(key) if key.kind != KeyEventKind::Release => on_key(app, key),
                _ => {}
            }
        }
    }
}

/// One key. Only `q` pressed twice leaves the table (or Ctrl-C, the interrupt); Esc
/// clears the input line and never quits, and `y`/`s` are quiero.
fn on_key(app: &mut App, key: KeyEvent) {
    if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
        app.quit = true;
        return;
    }
    match key.code {
        KeyCode::PageUp => {
            app.log_scroll = app.log_scroll.saturating_add(5);
            return;
        }
        KeyCode::PageDown => {
            app.log_scroll = app.log_scroll.saturating_sub(5);
            return;
        }
        KeyCode::Esc => {
            app.clear_input();
            app.confirm_quit = false;
            app.help = false;
            app.message = state::Message::default();
            return;
        }
        _ => {}
    }
    if app.typing {
        match key.code {
            KeyCode::Enter => app.submit(),
            KeyCode::Backspace => {
                app.input.pop();
                if app.input.is_empty() {
                    app.typing = false;
                }
            }
            KeyCode::Char(c) => app.input.push(c),
            _ => {}
        }
        return;
    }
    if app.confirm_quit {
        app.confirm_quit = false;
        if key.code == KeyCode::Char('q') {
            app.quit = true;
        } else {
            app.info("staying at the table");
        }
        return;
    }
    let was_paused = app.paused;
    app.paused = false;
    match key.code {
        KeyCode::Char('q') => {
            app.confirm_quit = true;
            app.info("leave the table? press q again to quit, any other key to stay");
        }
        KeyCode::Char('?') | KeyCode::Char('h') => app.help = !app.help,
        KeyCode::Char(':') | KeyCode::Char('/') => app.typing = true,
        KeyCode::Char(c @ '1'..='4') => select(app, c),
        KeyCode::Enter => {
            if app.session.view().phase == Phase::Discard && app.selected.iter().any(|&s| s) {
                app.discard_selected();
            } else if !was_paused {
                app.typing = true;
            }
        }
        KeyCode::Char(' ') => {}
        KeyCode::Char(c) => shortcut(app, c),
        _ => {}
    }
}

/// Selects or unselects the card at place `c` for the discard.
fn select(app: &mut App, c: char) {
    let view = app.session.view();
    if view.phase != Phase::Discard || view.my_discard.is_some() {
        app.error(
            "cards are chosen with 1–4 only when discarding, after everybody says mus".into(),
        );
        return;
    }
    let i = (c as usize).saturating_sub('1' as usize);
    if i < view.cards.len() {
        app.selected[i] = !app.selected[i];
        app.info("Enter discards the selected cards");
    }
}

/// One-key actions; amounts are prefilled on the input line to be confirmed or changed.
fn shortcut(app: &mut App, c: char) {
    let candidates: &[Action] = match c {
        'm' => &[Action::Mus],
        'n' => &[Action::NoHayMus, Action::NoQuiero],
        'c' => &[Action::NoHayMus],
        'p' => &[Action::Paso],
        's' | 'y' => &[Action::Quiero],
        'o' => &[Action::Ordago],
        'e' | 'r' => {
            let bet = app.session.view().bet.is_some();
            app.input = if bet { "reenvido 2" } else { "envido 2" }.into();
            app.typing = true;
            app.info("Enter bets; change the amount first if you like");
            return;
        }
        other => {
            // Any other letter starts typing a command.
            app.input.push(other);
            app.typing = true;
            return;
        }
    };
    match app.first_legal(candidates) {
        Some(a) => app.act(a),
        None => match app.session.turn() {
            Turn::Human(_) => {
                // Let the engine say why the first candidate is refused.
                if let Some(a) = candidates.first() {
                    app.act(a.clone());
                }
            }
            Turn::Over => app.info("the match is over: press q twice to leave"),
            _ => app.error("it is not your turn".into()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyEventState;
    use ratatui::backend::TestBackend;

    fn key(c: KeyCode) -> KeyEvent {
        KeyEvent {
            code: c,
            modifiers: KeyModifiers::NONE,
            kind: KeyEventKind::Press,
            state: KeyEventState::NONE,
        }
    }

    fn screen(app: &App, w: u16, h: u16) -> String {
        let mut t = Terminal::new(TestBackend::new(w, h)).expect("test terminal");
        t.draw(|f| draw::draw(f, app)).expect("draws");
        let buf = t.backend().buffer().clone();
        let mut s = String::new();
        for y in 0..h {
            for x in 0..w {
                s.push_str(buf[(x, y)].symbol());
            }
            s.push('\n');
        }
        s
    }

    #[test]
    fn draws_at_any_size_and_shows_only_own_cards() {
        let app = App::new(&PlayOptions::default()).expect("app");
        for (w, h) in [(80, 24), (120, 40), (200, 60), (40, 12), (10, 5)] {
            let s = screen(&app, w, h);
            if w >= 80 {
                assert!(s.contains("you · seat 0 · mano"), "{s}");
                assert!(s.contains("nosotros"));
            }
        }
        let s = screen(&app, 80, 24);
        let mine = app.session.view().cards;
        // The hand as text appears nowhere but in the own box's card faces.
        for seat in 1..4 {
            for c in app.session.game.cards_of(seat).iter() {
                assert!(
                    !s.contains(&format!(" {c} ")),
                    "{c} of seat {seat} shown:\n{s}"
                );
            }
        }
        assert_eq!(mine.len(), 4);
    }

    #[test]
    fn keys_act_and_refusals_change_nothing() {
        let mut app = App::new(&PlayOptions::default()).expect("app");
        // Seat 0 is mano of the first hand: envido is not possible during the mus.
        on_key(&mut app, key(KeyCode::Char(':')));
        for c in "envido 1".chars() {
            on_key(&mut app, key(KeyCode::Char(c)));
        }
        on_key(&mut app, key(KeyCode::Enter));
        assert!(app.message.error);
        assert!(app.session.record.actions.is_empty());
        assert!(
            !app.typing && app.input.is_empty(),
            "the input line is cleared after an error"
        );
        on_key(&mut app, key(KeyCode::Char('n')));
        assert_eq!(app.session.record.actions, vec![(0, Action::NoHayMus)]);
        on_key(&mut app, key(KeyCode::Char('1')));
        assert!(app.message.error, "cards are picked only when discarding");
        on_key(&mut app, key(KeyCode::Char('q')));
        assert!(app.confirm_quit && !app.quit);
        on_key(&mut app, key(KeyCode::Char('q')));
        assert!(app.quit);
    }

    fn typed(app: &mut App, text: &str) {
        on_key(app, key(KeyCode::Char(':')));
        for c in text.chars() {
            on_key(app, key(KeyCode::Char(c)));
        }
    }

    #[test]
    fn every_error_clears_the_input_line() {
        let mut app = App::new(&PlayOptions::default()).expect("app");
        // Not understood, and understood but refused: both leave an empty line.
        for text in ["hola", "envido 1", "envido 4294967295", "descarto 9"] {
            typed(&mut app, text);
            assert_eq!(app.input, text);
            on_key(&mut app, key(KeyCode::Enter));
            assert!(app.message.error, "{text}");
            assert!(
                app.input.is_empty() && !app.typing,
                "{text}: {:?}",
                app.input
            );
            let s = screen(&app, 100, 30);
            assert!(s.contains("error: "), "{s}");
            assert!(
                !s.contains(&format!("> {text}")),
                "{text} still shown:\n{s}"
            );
        }
        // A shortcut refused (cards are picked only when discarding) also clears it.
        typed(&mut app, "mu");
        on_key(&mut app, key(KeyCode::Esc));
        on_key(&mut app, key(KeyCode::Char('1')));
        assert!(app.message.error && app.input.is_empty() && !app.typing);
        assert!(app.session.record.actions.is_empty(), "nothing was played");
    }

    #[test]
    fn only_q_twice_quits() {
        let mut app = App::new(&PlayOptions::default()).expect("app");
        // Esc never quits, alone, twice or after a q; it clears the input line.
        typed(&mut app, "envido 5");
        on_key(&mut app, key(KeyCode::Esc));
        assert!(app.input.is_empty() && !app.typing && !app.quit);
        on_key(&mut app, key(KeyCode::Esc));
        on_key(&mut app, key(KeyCode::Esc));
        assert!(!app.quit && !app.confirm_quit);
        for second in [KeyCode::Esc, KeyCode::Char('y'), KeyCode::Char('s')] {
            on_key(&mut app, key(KeyCode::Char('q')));
            assert!(app.confirm_quit && !app.quit);
            on_key(&mut app, key(second));
            assert!(!app.quit, "q then {second:?} quit");
            assert!(!app.confirm_quit, "{second:?} cancels leaving");
        }
        // y and s alone are quiero, never a way out.
        on_key(&mut app, key(KeyCode::Char('y')));
        on_key(&mut app, key(KeyCode::Char('s')));
        assert!(!app.quit);
        assert!(
            app.session.record.actions.is_empty(),
            "no quiero without a bet"
        );
        on_key(&mut app, key(KeyCode::Char('q')));
        on_key(&mut app, key(KeyCode::Char('q')));
        assert!(app.quit);
    }

    /// Plays the whole match, the human passing and declining whenever possible.
    fn play_to_the_end(app: &mut App) {
        for _ in 0..100_000 {
            match app.session.turn() {
                Turn::Over => return,
                Turn::Auto(a) => app.act(a),
                Turn::Human(legal) => {
                    // Never bet nor accept a bet: the match is decided on points.
                    let calm = [Action::NoHayMus, Action::Paso, Action::NoQuiero];
                    let a = calm.iter().find(|a| legal.contains(a)).unwrap_or(&legal[0]);
                    app.act(a.clone());
                }
                Turn::Bot(seat) => {
                    let (_, events) = app.session.bot_move(seat).expect("bot moves");
                    app.absorb(&events);
                }
            }
            assert!(!app.message.error, "{}", app.message.text);
        }
        panic!("the match did not end");
    }

    #[test]
    fn the_end_screen_keeps_the_score_and_quits_only_on_q_twice() {
        let opts = PlayOptions {
            rules: tapete_mus::MusRules {
                juegos: 1,
                vacas: 1,
                ..Default::default()
            },
            seed: 7,
            human: 1,
            bots: "basico".into(),
            ..PlayOptions::default()
        };
        let mut app = App::new(&opts).expect("app");
        play_to_the_end(&mut app);
        let view = app.session.view();
        assert_eq!(view.phase, Phase::Over);
        let s = view.scores;
        let w = view.winner.expect("a winner");
        assert_eq!((s.games[w], s.vacas[w]), (1, 1), "the last juego counts");
        let last_game = view.log.iter().rev().find_map(|e| match e {
            tapete_mus::Event::GameWon { piedras, .. } => Some(*piedras),
            _ => None,
        });
        assert_eq!(Some(s.piedras), last_game, "the final piedras stay");
        assert!(s.piedras[w] > 0, "a game won on points: {s:?}");
        let screen_text = screen(&app, 110, 30);
        for part in [
            "pair 0–2 against pair 1–3:".to_string(),
            format!(
                "vacas {}–{} · juegos {}–{}",
                s.vacas[0], s.vacas[1], s.games[0], s.games[1]
            ),
            format!("piedras {}–{}", s.piedras[0], s.piedras[1]),
        ] {
            assert!(screen_text.contains(&part), "{part}:\n{screen_text}");
        }
        assert!(screen_text.contains("win the match"), "{screen_text}");
        assert!(
            screen_text.contains(&format!("game {}", view.game_number)) && view.game_number == 1,
            "{screen_text}"
        );
        for k in [
            KeyCode::Esc,
            KeyCode::Char('y'),
            KeyCode::Char('s'),
            // Enter opens the input line, Esc clears it.
            KeyCode::Enter,
            KeyCode::Esc,
        ] {
            on_key(&mut app, key(k));
            assert!(!app.quit, "{k:?} quit the finished table");
        }
        on_key(&mut app, key(KeyCode::Char('q')));
        assert!(!app.quit, "one q asks first");
        on_key(&mut app, key(KeyCode::Char('q')));
        assert!(app.quit);
    }
}
