//! A game's first deal as its replay's first step names it (each seat's seven cards as the
//! full view lists them), pinned for a few seeds, tables and decks in
//! `tests/golden/first_deal.json`. The page that checks a table's deals (/verify/{id})
//! deals them again in the browser (chance.js and chinchon.js's `firstDeal`), and
//! e2e/unit/chance.test.mjs holds it to this same file: a change to how Chinchón deals fails
//! here, a page that deals otherwise fails there.

use serde_json::{json, Value};
use std::path::PathBuf;
use tapete_chinchon::{ChinchonGame, ChinchonRules};
use tapete_table::first_deal::{self, plain, revealed};

/// The deals pinned, by seed, players and options (as a table's JSON gives them, missing
/// keys at their defaults): the seeds of chance.rs's goldens, and a seed past 2⁵³ (a
/// JavaScript number would round it); one deck and two (from five players by default), 40
/// and 48 cards, with and without jokers; and a seed made by commit and reveal.
fn cases() -> Vec<Value> {
    vec![
        plain(0, 2, json!({})),
        plain(7, 4, json!({"deck": 48})),
        plain(u64::MAX, 5, json!({})),
        plain((1 << 53) + 1, 8, json!({"jokers": 2})),
        plain(
            7,
            3,
            json!({"two_decks_from": null, "jokers": 1, "deck": 48}),
        ),
        revealed(
            3,
            json!({"jokers": 1}),
            &[
                "",
                "00112233445566778899aabbccddeeff",
                "0123456789abcdef0123456789abcdef",
            ],
        ),
    ]
}

/// The case with each seat's cards after the first deal, as `ChinchonGame::full_view`
/// lists them.
fn with_hands(mut case: Value) -> Value {
    let seed = first_deal::seed(&case);
    let seats = case["seats"].as_u64().expect("players") as usize;
    let rules: ChinchonRules =
        serde_json::from_value(case["rules"].clone()).expect("the case's rules");
    let game = ChinchonGame::start(&rules, seats, seed).expect("a game");
    case["hands"] = game.full_view()["hands"].clone();
    case
}

#[test]
fn first_deals_are_pinned() {
    let made = Value::Array(cases().into_iter().map(with_hands).collect());
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/first_deal.json");
    first_deal::check_pinned(&path, &made, "Chinchón");
}
