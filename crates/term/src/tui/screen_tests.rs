//! The typing model and small screens, checked on every game of the catalog's kind: every
//! word a player may type is typed key by key into the table's state machine, and crowded
//! tables are drawn at 80×24.

use super::state::App;
use super::tests::key;
use super::{draw, on_key};
use crate::session::Turn;
use crate::PlayOptions;
use crossterm::event::KeyCode;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use tapete_chinchon::ChinchonRules;
use tapete_chinchon_front::ChinchonHost;
use tapete_host::Face;
use tapete_mus::MusRules;
use tapete_mus_front::MusHost;
use tapete_tikki::TikkiRules;
use tapete_tikki_front::TikkiHost;

/// Moves the table on until the human is to choose (or the match ends): bots move, forced
/// actions are made.
fn to_the_human<H: Face>(app: &mut App<H>) -> Option<Vec<tapete_host::face::ActionOf<H>>> {
    for _ in 0..10_000 {
        match app.session.turn() {
            Turn::Over => return None,
            Turn::Opening(..) => panic!("no opening was given"),
            Turn::Auto(a) => app.act(a),
            Turn::Bot(seat) => {
                let (_, events) = app.session.bot_move(seat).expect("bot moves");
                app.absorb(&events);
            }
            Turn::Human(legal) => return Some(legal),
        }
    }
    panic!("the human never got a turn");
}

/// Types `word` key by key: after every key the input line reads exactly what was typed
/// and nothing was played, asked or opened.
fn type_word<H: Face>(app: &mut App<H>, word: &str, game: &str) {
    let played = app.session.record.actions.len();
    let mut typed = String::new();
    for c in word.chars() {
        on_key(app, key(KeyCode::Char(c)));
        typed.push(c);
        assert_eq!(app.input, typed, "{game}: typing `{word}`");
        assert_eq!(
            app.session.record.actions.len(),
            played,
            "{game}: `{typed}` of `{word}` played something"
        );
        assert!(
            !app.quit && !app.confirm_quit && !app.help,
            "{game}: `{typed}` of `{word}` asked to quit or opened the help"
        );
    }
}

/// Plays up to `turns` of the human's decisions. At each, every legal action's text, and
/// the other words the face reads, are typed whole then cleared with Esc; then one legal
/// action, picked at random, is typed and run with Enter, and must be what was played.
fn type_every_word<H: Face>(mut app: App<H>, game: &str, extra: &[&str], turns: usize) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut words_typed = 0;
    for _ in 0..turns {
        let Some(legal) = to_the_human(&mut app) else {
            break;
        };
        let mut words: Vec<String> = legal.iter().map(|a| a.to_string()).collect();
        words.extend(["help", "quit", "?"].iter().map(|w| w.to_string()));
        words.extend(extra.iter().map(|w| w.to_string()));
        for word in &words {
            type_word(&mut app, word, game);
            on_key(&mut app, key(KeyCode::Esc));
            assert!(app.input.is_empty(), "{game}: Esc clears `{word}`");
            words_typed += 1;
        }
        let chosen = legal[rng.gen_range(0..legal.len())].clone();
        let text = chosen.to_string();
        type_word(&mut app, &text, game);
        on_key(&mut app, key(KeyCode::Enter));
        assert!(!app.message.error, "{game}: `{text}`: {}", app.message.text);
        assert_eq!(
            app.session.record.actions.last(),
            Some(&(app.session.human, chosen)),
            "{game}: `{text}` and Enter"
        );
    }
    words_typed
}

#[test]
fn every_word_of_every_game_types_whole_and_acts_only_on_enter() {
    let mus = App::<MusHost>::new(
        PlayOptions::new(MusRules::default(), 4, 11, 0, "basico").expect("options"),
    )
    .expect("app");
    let n = type_every_word(
        mus,
        "mus",
        &[
            "no hay mus",
            "envido 5",
            "quiero",
            "no quiero",
            "descarto 1 3",
            "corto",
        ],
        60,
    );
    assert!(n > 100, "mus: only {n} words typed");
    let chinchon = App::<ChinchonHost>::new(
        PlayOptions::new(ChinchonRules::default(), 3, 4, 1, "basico").expect("options"),
    )
    .expect("app");
    let n = type_every_word(chinchon, "chinchon", &["7o", "3", "listo"], 60);
    assert!(n > 100, "chinchon: only {n} words typed");
    let rules = TikkiRules {
        retreat: true,
        ..TikkiRules::default()
    };
    let tikki = App::<TikkiHost>::new(PlayOptions::new(rules, 3, 2, 0, "basico").expect("options"))
        .expect("app");
    let n = type_every_word(tikki, "tikki", &["lay 1 2", "1 2", "keep", "retreat"], 60);
    assert!(n > 100, "tikki: only {n} words typed");
}

#[test]
fn q_asks_and_enter_then_leaves_while_words_starting_with_q_type() {
    let mut app = App::<MusHost>::new(
        PlayOptions::new(MusRules::default(), 4, 11, 0, "basico").expect("options"),
    )
    .expect("app");
    type_word(&mut app, "q", "mus");
    on_key(&mut app, key(KeyCode::Enter));
    assert!(app.confirm_quit && !app.quit, "q and Enter asks first");
    on_key(&mut app, key(KeyCode::Char('s')));
    assert!(!app.confirm_quit && !app.quit, "any other key stays");
    assert!(app.input.is_empty(), "the key that answered is not typed");
    type_word(&mut app, "q", "mus");
    on_key(&mut app, key(KeyCode::Enter));
    on_key(&mut app, key(KeyCode::Enter));
    assert!(app.quit);
}

/// The screen as rows of cells.
fn cells<H: Face>(app: &App<H>, w: u16, h: u16) -> Vec<Vec<String>> {
    let mut t = Terminal::new(TestBackend::new(w, h)).expect("test terminal");
    t.draw(|f| draw::draw(f, app)).expect("draws");
    let buf = t.backend().buffer().clone();
    (0..h)
        .map(|y| (0..w).map(|x| buf[(x, y)].symbol().to_string()).collect())
        .collect()
}

fn text(row: &[String]) -> String {
    row.concat()
}

const SIDES: [&str; 2] = ["│", "║"];

/// Checks that the player's own cards are drawn whole: a row with every card's corner
/// (rank) after its left border, two rows below it every card's suit, then every card's
/// bottom border.
fn own_cards_whole<H: Face>(app: &App<H>, w: u16, h: u16, what: &str) {
    let rows = cells(app, w, h);
    let screen: String = rows.iter().map(|r| text(r) + "\n").collect();
    let hand = app.scene().hand.cards;
    assert!(!hand.is_empty(), "{what}: no cards in hand");
    let starts_with = |row: &[String], x: usize, s: &str| -> bool {
        (x..)
            .zip(s.chars())
            .all(|(at, ch)| row.get(at).map(String::as_str) == Some(ch.to_string().as_str()))
    };
    let mut found = None;
    'rows: for (y, row) in rows.iter().enumerate() {
        let mut lefts = Vec::new();
        let mut from = 0;
        for card in &hand {
            let Some(x) = (from..row.len()).find(|&x| {
                SIDES.contains(&row[x].as_str()) && starts_with(row, x + 1, &card.corner)
            }) else {
                continue 'rows;
            };
            lefts.push(x);
            from = x + 1;
        }
        found = Some((y, lefts));
        break;
    }
    let (y, lefts) = found.unwrap_or_else(|| panic!("{what}: no row of ranks:\n{screen}"));
    let suit_row = rows
        .get(y + 2)
        .unwrap_or_else(|| panic!("{what}:\n{screen}"));
    let bottom_row = rows
        .get(y + 3)
        .unwrap_or_else(|| panic!("{what}:\n{screen}"));
    for (i, card) in hand.iter().enumerate() {
        let x = lefts[i];
        let end = lefts
            .get(i + 1)
            .copied()
            .unwrap_or(x + 8)
            .min(suit_row.len());
        if let Some(first) = card.bottom.chars().next() {
            assert!(
                suit_row[x..end].contains(&first.to_string()),
                "{what}: the suit of card {} ({}) is lost:\n{screen}",
                i + 1,
                card.text
            );
        }
        assert!(
            ["╰", "╚"].contains(&bottom_row[x].as_str()),
            "{what}: card {} is cut:\n{screen}",
            i + 1
        );
    }
}

#[test]
fn at_80x24_crowded_tables_show_your_cards_whole() {
    for seats in [5, 6, 8] {
        for human in [0, seats - 1] {
            let app = App::<ChinchonHost>::new(
                PlayOptions::new(ChinchonRules::default(), seats, 3, human, "basico")
                    .expect("options"),
            )
            .expect("app");
            own_cards_whole(&app, 80, 24, &format!("chinchon, {seats} seats"));
        }
    }
    let app = App::<TikkiHost>::new(
        PlayOptions::new(TikkiRules::default(), 5, 3, 0, "basico").expect("options"),
    )
    .expect("app");
    own_cards_whole(&app, 80, 24, "tikki, 5 seats");
    let app = App::<MusHost>::new(
        PlayOptions::new(MusRules::default(), 4, 3, 0, "basico").expect("options"),
    )
    .expect("app");
    own_cards_whole(&app, 80, 24, "mus");
}

#[test]
fn below_the_smallest_size_the_screen_says_what_it_needs() {
    let app = App::<ChinchonHost>::new(
        PlayOptions::new(ChinchonRules::default(), 5, 3, 0, "basico").expect("options"),
    )
    .expect("app");
    for (w, h) in [(40, 10), (79, 24), (80, 23), (60, 40)] {
        let screen: String = cells(&app, w, h).iter().map(|r| text(r) + " ").collect();
        let squeezed: String = screen.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            squeezed.contains("terminal too small (need 80×24)"),
            "{w}×{h}: {squeezed}"
        );
    }
    let screen: String = cells(&app, 80, 24).iter().map(|r| text(r)).collect();
    assert!(!screen.contains("too small"));
}
