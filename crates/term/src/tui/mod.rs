//! The full-screen table: the seats around, your cards drawn, the header, a scrolling log,
//! and an input line taking the same words as line mode plus the game's short forms.
//!
//! The terminal is restored on every way out: quitting, an error (a guard's `Drop`) and a
//! panic (ratatui's panic hook).

mod draw;
#[cfg(test)]
mod screen_tests;
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
use tapete_host::Face;
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

pub(crate) fn play<H: Face>(opts: PlayOptions<H>, screen: Screen) -> anyhow::Result<Record<H::G>> {
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

fn run<H: Face, B: Backend>(terminal: &mut Terminal<B>, app: &mut App<H>) -> anyhow::Result<()> {
    loop {
        terminal.draw(|f| draw::draw(f, app))?;
        if app.quit {
            return Ok(());
        }
        if step(app)? {
            continue;
        }
        let wait = match app.session.turn() {
            Turn::Bot(_) if !app.paused => {
                app.next_bot_at.saturating_duration_since(Instant::now())
            }
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

/// Moves the table on without the human when it may: a forced action of the human's, or
/// a bot whose time has come. Returns whether something was played.
fn step<H: Face>(app: &mut App<H>) -> anyhow::Result<bool> {
    match app.session.turn() {
        Turn::Auto(action) => {
            // The human's action is forced: apply it and show it, never ask.
            app.act(action);
            Ok(true)
        }
        Turn::Opening(..) => {
            app.opening_step()?;
            Ok(true)
        }
        Turn::Bot(seat) if !app.paused && Instant::now() >= app.next_bot_at => {
            let (_, events) = app.session.bot_move(seat)?;
            let incidents: Vec<String> = app.session.incidents.drain(..).collect();
            app.log
                .extend(incidents.into_iter().map(|i| format!("bot protocol: {i}")));
            app.absorb(&events);
            if app.message.error {
                // The table moved on: an old refusal no longer applies.
                app.message = state::Message::default();
            }
            app.next_bot_at = Instant::now() + BOT_DELAY;
            Ok(true)
        }
        _ => Ok(false),
    }
}

/// One key: the whole typing model of the table, a pure step from the app and a key to
/// the app changed, with no terminal behind it.
///
/// Every printable key goes on the input line, so a word is never cut short by a key;
/// Enter runs the line (a one-character line is the game's short form, `q` asks before
/// leaving). Besides: Backspace, Esc (clears the line, closes the help, stays), F1 (the
/// help), the page keys (the log) and Ctrl-C (leaves at once). While the table is held
/// after a hand any key goes on; a printable one also starts the line.
fn on_key<H: Face>(app: &mut App<H>, key: KeyEvent) {
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        if key.code == KeyCode::Char('c') {
            app.quit = true;
        }
        return;
    }
    if app.confirm_quit {
        app.confirm_quit = false;
        if key.code == KeyCode::Enter {
            app.quit = true;
        } else {
            app.info("staying at the table");
        }
        return;
    }
    match key.code {
        KeyCode::PageUp => return app.log_scroll = app.log_scroll.saturating_add(5),
        KeyCode::PageDown => return app.log_scroll = app.log_scroll.saturating_sub(5),
        _ => {}
    }
    let was_paused = std::mem::take(&mut app.paused);
    match key.code {
        KeyCode::Esc => {
            app.clear_input();
            app.help = false;
            app.message = state::Message::default();
        }
        KeyCode::F(1) => app.help = !app.help,
        KeyCode::Enter if was_paused && app.input.trim().is_empty() => {}
        KeyCode::Enter => app.submit(),
        KeyCode::Backspace => {
            app.input.pop();
        }
        // A space leads nothing: on an empty line it only goes on.
        KeyCode::Char(' ') if app.input.is_empty() => {}
        KeyCode::Char(c) => {
            app.input.push(c);
            if let (false, Ok(pick)) =
                (app.picked_places().is_empty(), H::pick(&app.session.view()))
            {
                app.info(pick.hint);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_ring::RingHost;
    use crossterm::event::KeyEventState;
    use ratatui::backend::TestBackend;
    use tapete_host::test_race::RaceHost;
    use tapete_mus::view::Phase;
    use tapete_mus::{Action, MusRules, MusView};
    use tapete_mus_front::MusHost;
    use tapete_table::Game;

    /// A key pressed with no modifier.
    pub(super) fn key(c: KeyCode) -> KeyEvent {
        KeyEvent {
            code: c,
            modifiers: KeyModifiers::NONE,
            kind: KeyEventKind::Press,
            state: KeyEventState::NONE,
        }
    }

    fn screen<H: Face>(app: &App<H>, w: u16, h: u16) -> String {
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

    fn mus(rules: MusRules, seed: u64, human: usize) -> App<MusHost> {
        App::new(PlayOptions::new(rules, 4, seed, human, "basico").expect("options")).expect("app")
    }

    fn mus_app() -> App<MusHost> {
        mus(MusRules::default(), 0, 0)
    }

    #[test]
    fn draws_at_any_size_and_shows_only_own_cards() {
        let app = mus_app();
        for (w, h) in [(80, 24), (120, 40), (200, 60), (40, 12), (10, 5)] {
            let s = screen(&app, w, h);
            if w >= 80 {
                assert!(s.contains("you · seat 0 · mano"), "{s}");
                assert!(s.contains("nosotros"));
                assert!(s.contains("partner · seat 2 · 3rd"), "{s}");
                assert!(
                    s.contains("seat 1 · 2nd") && s.contains("seat 3 · postre"),
                    "{s}"
                );
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
    fn lines_act_on_enter_and_refusals_change_nothing() {
        let mut app = mus_app();
        // Seat 0 is mano of the first hand: envido is not possible during the mus.
        typed(&mut app, "envido 1");
        assert!(
            app.session.record.actions.is_empty(),
            "nothing before Enter"
        );
        on_key(&mut app, key(KeyCode::Enter));
        assert!(app.message.error);
        assert!(app.session.record.actions.is_empty());
        assert!(
            app.input.is_empty(),
            "the input line is cleared after an error"
        );
        typed(&mut app, "n");
        assert!(app.session.record.actions.is_empty(), "n alone types");
        on_key(&mut app, key(KeyCode::Enter));
        assert_eq!(app.session.record.actions, vec![(0, Action::NoHayMus)]);
        typed(&mut app, "1");
        on_key(&mut app, key(KeyCode::Enter));
        assert!(app.message.error, "cards are picked only when discarding");
        typed(&mut app, "q");
        on_key(&mut app, key(KeyCode::Enter));
        assert!(app.confirm_quit && !app.quit);
        on_key(&mut app, key(KeyCode::Enter));
        assert!(app.quit);
    }

    fn typed<H: Face>(app: &mut App<H>, text: &str) {
        for c in text.chars() {
            on_key(app, key(KeyCode::Char(c)));
        }
    }

    #[test]
    fn every_error_clears_the_input_line() {
        let mut app = mus_app();
        // Not understood, and understood but refused: both leave an empty line.
        for text in ["hola", "envido 1", "envido 4294967295", "descarto 9"] {
            typed(&mut app, text);
            assert_eq!(app.input, text);
            on_key(&mut app, key(KeyCode::Enter));
            assert!(app.message.error, "{text}");
            assert!(app.input.is_empty(), "{text}: {:?}", app.input);
            let s = screen(&app, 100, 30);
            assert!(s.contains("error: "), "{s}");
            assert!(
                !s.contains(&format!("> {text}")),
                "{text} still shown:\n{s}"
            );
        }
        // A short form refused (cards are picked only when discarding) also clears it.
        typed(&mut app, "mu");
        on_key(&mut app, key(KeyCode::Esc));
        assert!(app.input.is_empty(), "Esc clears the line");
        typed(&mut app, "1");
        on_key(&mut app, key(KeyCode::Enter));
        assert!(app.message.error && app.input.is_empty());
        assert!(app.session.record.actions.is_empty(), "nothing was played");
    }

    #[test]
    fn only_q_and_enter_then_enter_quits() {
        let mut app = mus_app();
        // Esc never quits, alone, twice or after a q; it clears the input line.
        typed(&mut app, "envido 5");
        on_key(&mut app, key(KeyCode::Esc));
        assert!(app.input.is_empty() && !app.quit);
        on_key(&mut app, key(KeyCode::Esc));
        on_key(&mut app, key(KeyCode::Esc));
        assert!(!app.quit && !app.confirm_quit);
        for second in [KeyCode::Esc, KeyCode::Char('y'), KeyCode::Char('q')] {
            typed(&mut app, "q");
            on_key(&mut app, key(KeyCode::Enter));
            assert!(app.confirm_quit && !app.quit);
            on_key(&mut app, key(second));
            assert!(!app.quit, "q then {second:?} quit");
            assert!(!app.confirm_quit, "{second:?} cancels leaving");
        }
        // y and s are quiero, never a way out.
        for short in ["y", "s"] {
            typed(&mut app, short);
            on_key(&mut app, key(KeyCode::Enter));
            assert!(app.message.error, "no quiero without a bet");
        }
        assert!(!app.quit);
        assert!(app.session.record.actions.is_empty());
        typed(&mut app, "q");
        on_key(&mut app, key(KeyCode::Enter));
        on_key(&mut app, key(KeyCode::Enter));
        assert!(app.quit);
    }

    /// A table where everybody said mus and the human is to discard: the first seed whose
    /// bots all take the mus.
    fn at_the_discard() -> App<MusHost> {
        for seed in 0..500 {
            let mut app = mus(MusRules::default(), seed, 0);
            typed(&mut app, "m");
            on_key(&mut app, key(KeyCode::Enter));
            while let Turn::Bot(seat) = app.session.turn() {
                let (_, events) = app.session.bot_move(seat).expect("bot moves");
                app.absorb(&events);
            }
            if app.session.view().phase == Phase::Discard {
                return app;
            }
        }
        panic!("no deal in 500 where every bot takes the mus");
    }

    #[test]
    fn discards_are_typed_by_place_marked_and_made_with_enter() {
        let mut app = at_the_discard();
        let view = app.session.view();
        typed(&mut app, "1 3");
        assert_eq!(app.picked_places(), vec![1, 3]);
        assert_eq!(app.message.text, "Enter discards the selected cards");
        let s = screen(&app, 100, 30);
        assert!(s.contains("[x]") && s.contains("[2]"), "{s}");
        on_key(&mut app, key(KeyCode::Enter));
        let mut thrown = tapete_cards::CardSet::EMPTY;
        thrown.insert(view.cards[0]);
        thrown.insert(view.cards[2]);
        assert_eq!(
            app.session.record.actions.last(),
            Some(&(0, Action::Descarto(thrown)))
        );
        assert!(app.log.iter().any(|l| l.starts_with("you throw")));
    }

    /// `play --from` at a terminal: the recorded opening (here, a match's first half:
    /// several hands, their ends and the simultaneous discards) is played at once, in the
    /// record's order and without holding at a hand's end, before the human is asked.
    #[test]
    fn a_recorded_opening_is_played_before_anyone_is_asked() {
        let mut whole = mus(MusRules::default(), 3, 2);
        play_to_the_end(&mut whole);
        let actions = whole.session.record.actions.clone();
        let hands = |app: &App<MusHost>| app.log.iter().filter(|l| l.contains("mano")).count();
        let cut = actions.len() / 2;
        let mut opts =
            PlayOptions::<MusHost>::new(MusRules::default(), 4, 3, 2, "basico").expect("options");
        opts.opening = actions[..cut].to_vec();
        let mut app = App::new(opts).expect("app");
        let before = hands(&app);
        let mut steps = 0;
        while matches!(app.session.turn(), Turn::Opening(..)) {
            assert!(step(&mut app).expect("the opening plays"));
            steps += 1;
        }
        assert_eq!(steps, cut);
        assert_eq!(app.session.record.actions, actions[..cut]);
        assert!(!app.paused, "the opening does not hold the table");
        assert!(
            hands(&app) > before,
            "the opening is narrated: {:?}",
            app.log
        );
        assert!(matches!(app.session.turn(), Turn::Human(_) | Turn::Bot(_)));
    }

    /// Plays the whole match, the human passing and declining whenever possible.
    fn play_to_the_end(app: &mut App<MusHost>) {
        for _ in 0..100_000 {
            match app.session.turn() {
                Turn::Over => return,
                Turn::Opening(..) => panic!("no opening was given"),
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
        let rules = MusRules {
            juegos: 1,
            vacas: 1,
            ..Default::default()
        };
        let mut app = mus(rules, 7, 1);
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
            KeyCode::Enter,
            KeyCode::Enter,
            KeyCode::Esc,
        ] {
            on_key(&mut app, key(k));
            assert!(!app.quit, "{k:?} quit the finished table");
        }
        typed(&mut app, "q");
        on_key(&mut app, key(KeyCode::Enter));
        assert!(!app.quit, "q and Enter ask first");
        on_key(&mut app, key(KeyCode::Enter));
        assert!(app.quit);
    }

    #[test]
    fn the_hands_are_shown_after_a_showdown_until_a_key() {
        let rules = MusRules {
            juegos: 1,
            vacas: 1,
            ..Default::default()
        };
        let mut app = mus(rules, 9, 0);
        for _ in 0..10_000 {
            if app.paused {
                break;
            }
            match app.session.turn() {
                Turn::Over => break,
                Turn::Opening(..) => panic!("no opening was given"),
                Turn::Auto(a) => app.act(a),
                Turn::Human(legal) => {
                    let calm = [Action::NoHayMus, Action::Paso, Action::NoQuiero];
                    let a = calm.iter().find(|a| legal.contains(a)).unwrap_or(&legal[0]);
                    app.act(a.clone());
                }
                Turn::Bot(seat) => {
                    let (_, events) = app.session.bot_move(seat).expect("bot moves");
                    app.absorb(&events);
                }
            }
        }
        assert!(app.paused, "a hand ended and held the table");
        let s = screen(&app, 120, 40);
        assert!(s.contains("la cuenta: the hands"), "{s}");
        assert!(s.contains("any key goes on"), "{s}");
        assert!(
            step(&mut app).map(|moved| !moved).unwrap_or(false),
            "no bot moves while held"
        );
        on_key(&mut app, key(KeyCode::Char(' ')));
        assert!(!app.paused);
        let s = screen(&app, 120, 40);
        assert!(s.contains("table log"), "{s}");
    }

    /// The widest header form that fits is drawn, whole, on one row.
    fn header_rows(view: &MusView, width: u16) -> (String, String) {
        let me = view.seat.unwrap_or(0);
        let at = tapete_host::face::Vantage {
            me,
            seats: 4,
            to_act: &[],
            held: false,
        };
        let scene = MusHost::scene(view, &MusHost::notes(view), &at);
        let mut t = Terminal::new(TestBackend::new(width, 2)).expect("test terminal");
        t.draw(|f| draw::header(f, ratatui::layout::Rect::new(0, 0, width, 1), &scene.header))
            .expect("draws");
        let buf = t.backend().buffer().clone();
        let row = |y: u16| -> String { (0..width).map(|x| buf[(x, y)].symbol()).collect() };
        (row(0), row(1))
    }

    /// A view late in a long match: three-digit hand, two-digit piedras, several vacas.
    fn late_view(seat: usize) -> MusView {
        let mut view = mus(MusRules::default(), 0, seat).session.view();
        view.hand_number = 123;
        view.game_number = 3;
        view.scores.piedras = [39, 38];
        view.scores.games = [2, 1];
        view.scores.vacas = [4, 3];
        view
    }

    #[test]
    fn the_header_fits_110_columns_in_words_and_pair_order() {
        for seat in [0, 1] {
            let view = late_view(seat);
            let (ours, theirs) = if seat == 0 {
                ("nosotros", "ellos")
            } else {
                ("ellos", "nosotros")
            };
            let (row, below) = header_rows(&view, 110);
            let expected = [
                "hand 123 · game 3 · to 40".to_string(),
                format!("{ours} 0–2: 39 piedras 2 juegos 4 vacas"),
                format!("{theirs} 1–3: 38 piedras 1 juego 3 vacas"),
            ];
            for part in &expected {
                assert!(row.contains(part.as_str()), "`{part}` cut at 110:\n{row}");
            }
            assert!(
                row.find(expected[1].as_str()) < row.find(expected[2].as_str()),
                "pair 0–2 first:\n{row}"
            );
            assert!(row.ends_with(' '), "the last column is free:\n{row}");
            assert!(below.trim().is_empty(), "nothing wraps:\n{below}");
        }
    }

    #[test]
    fn the_header_is_never_cut_at_any_width() {
        let view = late_view(0);
        for width in [200, 140, 120, 100, 90, 80, 60] {
            let (row, _) = header_rows(&view, width);
            let text = row.trim_end();
            // Every number is there, whatever the form.
            for part in ["123", "39", "38", "ellos"] {
                assert!(text.contains(part), "{part} missing at {width}:\n{row}");
            }
            assert!(
                text.ends_with('v') || text.ends_with("vacas"),
                "cut at {width}:\n{row}"
            );
        }
        let (wide, _) = header_rows(&view, 140);
        assert!(
            wide.contains(" tapete · mus "),
            "the title when there is room:\n{wide}"
        );
    }

    /// The toy race: two seats, a view that is only a number, keys of its own.
    fn race(human: usize) -> App<RaceHost> {
        App::new(PlayOptions::new((), 2, 7, human, "random").expect("options")).expect("app")
    }

    #[test]
    fn a_game_with_no_cards_and_two_seats_is_drawn_and_played_by_its_keys() {
        let mut app = race(0);
        for (w, h) in [(80, 24), (120, 40), (40, 12), (10, 5)] {
            let s = screen(&app, w, h);
            if w >= 80 {
                assert!(s.contains(" you · seat 0 "), "{s}");
                assert!(s.contains(" rival · seat 1 "), "{s}");
                assert!(s.contains("total 0 of 5"), "{s}");
                assert!(s.contains("add 1 or 2"), "{s}");
                assert!(!s.contains("mus") && !s.contains("nosotros"), "{s}");
            }
        }
        assert!(screen(&app, 120, 40).contains(" tapete · race "));
        // Digits are the race's own short forms: no card picking here.
        typed(&mut app, "2");
        assert!(
            app.session.record.actions.is_empty(),
            "nothing before Enter"
        );
        on_key(&mut app, key(KeyCode::Enter));
        assert_eq!(app.session.record.actions, vec![(0, 2)]);
        typed(&mut app, "3");
        on_key(&mut app, key(KeyCode::Enter));
        assert!(app.message.error, "3 is not a move of the race");
        typed(&mut app, "1");
        on_key(&mut app, key(KeyCode::Enter));
        assert_eq!(app.message.text, "it is not your turn");
        assert_eq!(app.session.record.actions.len(), 1);
        for _ in 0..20 {
            match app.session.turn() {
                Turn::Over => break,
                Turn::Opening(..) => panic!("no opening was given"),
                Turn::Human(_) => {
                    typed(&mut app, "1");
                    on_key(&mut app, key(KeyCode::Enter));
                }
                Turn::Bot(seat) => {
                    let (_, events) = app.session.bot_move(seat).expect("bot moves");
                    app.absorb(&events);
                }
                Turn::Auto(_) => panic!("the race forces nothing"),
            }
        }
        assert!(app.session.game.outcome().is_some());
        let s = screen(&app, 100, 30);
        assert!(s.contains("the race is over at"), "{s}");
        assert!(s.contains("q and Enter leave"), "{s}");
        assert!(
            app.log.iter().any(|l| l.starts_with("seat 1 adds")),
            "{:?}",
            app.log
        );
        assert!(app.session.record.replay().is_ok());
    }

    #[test]
    fn every_seat_count_from_two_to_eight_is_laid_out_showing_only_own_secret() {
        for seats in 2..=8 {
            for human in [0, seats - 1] {
                let app = App::<RingHost>::new(
                    PlayOptions::new((), seats, 3, human, "random").expect("options"),
                )
                .expect("app");
                for (w, h) in [(80, 24), (120, 40), (200, 60), (30, 10)] {
                    let s = screen(&app, w, h);
                    if w < 120 {
                        continue;
                    }
                    assert!(s.contains(" you "), "{seats} seats:\n{s}");
                    for seat in (0..seats).filter(|&s| s != human) {
                        assert!(
                            s.contains(&format!(" p{seat} ")),
                            "p{seat} of {seats}:\n{s}"
                        );
                    }
                    let mine = format!("#{}", app.session.game.secret(human));
                    assert!(
                        s.contains(&app.session.game.secret(human).to_string()),
                        "{mine}"
                    );
                    for seat in (0..seats).filter(|&s| s != human) {
                        let theirs = app.session.game.secret(seat).to_string();
                        assert!(
                            !s.contains(&theirs),
                            "seat {seat}'s secret {theirs} shown to {human} of {seats}:\n{s}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn cards_picked_by_place_make_the_action_and_bad_picks_change_nothing() {
        let mut app =
            App::<RingHost>::new(PlayOptions::new((), 5, 1, 0, "random").expect("options"))
                .expect("app");
        typed(&mut app, "1 2");
        assert_eq!(app.picked_places(), vec![1, 2]);
        assert_eq!(app.message.text, "Enter adds the picked card");
        let s = screen(&app, 120, 40);
        assert!(s.contains("[x]") && s.contains("[3]"), "{s}");
        on_key(&mut app, key(KeyCode::Enter));
        assert!(app.message.error, "two cards make no action");
        assert!(app.session.record.actions.is_empty());
        // A number past the places marks nothing.
        typed(&mut app, "7");
        assert!(app.input == "7" && app.picked_places().is_empty());
        on_key(&mut app, key(KeyCode::Esc));
        typed(&mut app, "2");
        on_key(&mut app, key(KeyCode::Enter));
        assert_eq!(app.session.record.actions, vec![(0, 2)]);
        assert!(app.picked_places().is_empty(), "the pick is spent");
        typed(&mut app, "add 9");
        on_key(&mut app, key(KeyCode::Enter));
        assert!(app.message.error && app.message.text.contains("add 1, add 2 or add 3"));
    }
}
