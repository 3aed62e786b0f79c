//! The toy race game of `tapete_table::test_race`, hosted: for tests of front-ends (not
//! part of the API).

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
    fn opening(&mut self, game: &Race) -> Vec<String> {
        self.turn = game.turn;
        Vec::new()
    }
    fn lines(&mut self, total: &u8) -> Vec<String> {
        let seat = self.turn;
        self.turn = 1 - seat;
        vec![format!("seat {seat} adds: {total}")]
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
