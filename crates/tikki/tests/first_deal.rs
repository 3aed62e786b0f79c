//! A game's first deal as its replay's first step names it (each seat's seven cards as the
//! full view lists them), pinned for a few seeds, tables and decks in
//! `tests/golden/first_deal.json`. The page that checks a table's deals (/verify/{id})
//! deals them again in the browser (chance.js and tikki.js's `firstDeal`), and
//! e2e/unit/chance.test.mjs holds it to this same file: a change to how tikki deals (the
//! dealer drawn by lot, then seven cards each from the dealer's left) fails here, a page
//! that deals otherwise fails there.

use serde_json::{json, Value};
use std::path::PathBuf;
use tapete_table::first_deal::{self, plain, revealed};
use tapete_table::Game;
use tapete_tikki::{TikkiGame, TikkiRules};

/// The deals pinned, by seed, players and options (as a table's JSON gives them, missing
/// keys at their defaults): the seeds of chance.rs's goldens, and a seed past 2⁵³ (a
/// JavaScript number would round it); the full deck and a smaller one; and a seed made by
/// commit and reveal.
fn cases() -> Vec<Value> {
    vec![
        plain(0, 2, json!({})),
        plain(7, 4, json!({})),
        plain(u64::MAX, 5, json!({})),
        plain((1 << 53) + 1, 3, json!({"top": 7})),
        revealed(
            3,
            json!({}),
            &[
                "ffeeddccbbaa99887766554433221100",
                "",
                "00112233445566778899aabbccddeeff",
            ],
        ),
    ]
}

/// The case with each seat's cards after the first deal, as `TikkiHost::full_view` lists
/// them.
fn with_hands(mut case: Value) -> Value {
    let seed = first_deal::seed(&case);
    let seats = case["seats"].as_u64().expect("players") as usize;
    let rules: TikkiRules =
        serde_json::from_value(case["rules"].clone()).expect("the case's rules");
    let game = TikkiGame::new(&rules, seats, seed).expect("a game");
    case["hands"] = json!((0..seats).map(|s| game.hand(s)).collect::<Vec<_>>());
    case
}

#[test]
fn first_deals_are_pinned() {
    let made = Value::Array(cases().into_iter().map(with_hands).collect());
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/first_deal.json");
    first_deal::check_pinned(&path, &made, "tikki");
}
