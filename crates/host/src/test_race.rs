//! The toy race game of `tapete_table::test_race`, hosted: for tests of front-ends (not
//! part of the API).

use crate::story::{Line, Phrase};
use crate::{Host, Narrate};
use serde_json::{json, Value};
use tapete_table::test_race::Race;
use tapete_table::{Bot, RandomBot, Seat};

/// Hosts [`Race`] for 2 seats, with `random` as its only bot.
pub struct RaceHost;

/// Tells "seat 0 adds 2: 2".
#[derive(Clone)]
pub struct RaceNarrator {
    turn: Seat,
}

impl Narrate<Race> for RaceNarrator {
    fn opening(&mut self, game: &Race) -> Vec<Line> {
        self.turn = game.turn;
        Vec::new()
    }
    fn lines(&mut self, total: &u8) -> Vec<Line> {
        let seat = self.turn;
        self.turn = 1 - seat;
        vec![Phrase::new("story.race.adds")
            .seat("seat", seat)
            .num("total", *total)
            .line(format!("seat {seat} adds: {total}"))]
    }
    fn begins_hand(&self, _: &u8) -> bool {
        false
    }
}

impl Host for RaceHost {
    type G = Race;
    type Narrator = RaceNarrator;
    type Stats = ();
    const TITLE: &'static str = "Race";
    const SEATS: std::ops::RangeInclusive<usize> = 2..=2;
    const DEFAULT_SEATS: usize = 2;

    fn bot_names() -> &'static [&'static str] {
        &["random"]
    }
    fn default_bot() -> &'static str {
        "random"
    }
    fn make_bot(name: &str) -> Result<Box<dyn Bot<Race>>, String> {
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
    fn validate_rules(_: &(), _: usize) -> Result<(), String> {
        Ok(())
    }
    fn narrator(game: &Race, _: Option<Seat>) -> RaceNarrator {
        RaceNarrator { turn: game.turn }
    }
    fn at_boundary(game: &Race) -> bool {
        game.total == 0
    }
    fn scores(game: &Race) -> Value {
        json!({ "total": game.total })
    }
    fn score_rows(game: &Race) -> Vec<Vec<String>> {
        vec![vec!["total".into()], vec![game.total.to_string()]]
    }
    fn hands_rows(_: &Race) -> Vec<Vec<String>> {
        Vec::new()
    }
    fn full_view(game: &Race) -> Value {
        json!({ "total": game.total, "turn": game.turn })
    }
}

impl crate::face::Face for RaceHost {
    /// How many moves were seen.
    type Notes = u32;

    fn notes(_: &u8) -> u32 {
        0
    }
    fn note(moves: &mut u32, _: &u8) -> bool {
        *moves += 1;
        false
    }
    fn scene(total: &u8, moves: &u32, at: &crate::face::Vantage) -> crate::face::Scene {
        use crate::face::{Centre, HandScene, Line, Scene, SeatScene, Span, Tone};
        let seats = (0..at.seats)
            .map(|s| SeatScene {
                label: if s == at.me {
                    Span::new("you", Tone::Own)
                } else {
                    Span::new("rival", Tone::Rival)
                },
                detail: format!("seat {s}"),
                ..SeatScene::default()
            })
            .collect();
        Scene {
            header: vec![
                Line::new(vec![
                    Span::new(" tapete · race ", Tone::Title),
                    Span::plain(format!("  total {total} of 5 after {moves} moves")),
                ]),
                Line::from(format!("total {total}")),
            ],
            seats,
            centre: Centre {
                title: " race ".into(),
                lines: vec![Line::of(format!("total {total} of 5"), Tone::Strong)],
                cards: Vec::new(),
            },
            hand: HandScene {
                cards: Vec::new(),
                info: vec![Line::from("add 1 or 2: whoever reaches 5 wins")],
            },
            reveal: None,
            end: (*total >= 5).then(|| vec![format!("the race is over at {total}")]),
        }
    }
    fn intro(_: &u8, at: &crate::face::Vantage, bots: &[Option<String>]) -> String {
        let names: Vec<&str> = bots.iter().flatten().map(String::as_str).collect();
        format!(
            "tapete · race — you are seat {}; bots: {}",
            at.me,
            names.join(", ")
        )
    }
    fn status(total: &u8, _: &crate::face::Vantage) -> Vec<String> {
        vec![format!("── total {total} of 5 ──")]
    }
    fn prompt(_: &u8, legal: &[u8]) -> String {
        let words: Vec<String> = legal.iter().map(u8::to_string).collect();
        words.join(" | ")
    }
    fn help() -> Vec<String> {
        vec!["1 | 2 — add one or two to the total".into()]
    }
    fn key(key: char, _: &u8) -> Option<crate::face::Shortcut<u8>> {
        match key {
            '1' => Some(crate::face::Shortcut::First(vec![1])),
            '2' => Some(crate::face::Shortcut::First(vec![2])),
            _ => None,
        }
    }
    fn key_bar() -> Vec<(&'static str, &'static str)> {
        vec![("1", "add 1"), ("2", "add 2")]
    }
    fn final_lines(
        total: &u8,
        at: &crate::face::Vantage,
        outcome: Option<&tapete_table::Outcome>,
    ) -> Vec<String> {
        match outcome {
            Some(o) if o.winners.contains(&at.me) => vec![format!("you win at {total}")],
            Some(_) => vec![format!("you lose at {total}")],
            None => vec!["the race did not finish".into()],
        }
    }
}
