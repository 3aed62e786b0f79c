//! A game's first deal as its replay's first step names it (each seat's seven cards as the
//! full view lists them), pinned for a few seeds, tables and decks in
//! `tests/golden/first_deal.json`. The page that checks a table's deals (/verify/{id})
//! deals them again in the browser (chance.js and tikki.js's `firstDeal`), and
//! e2e/unit/chance.test.mjs holds it to this same file: a change to how tikki deals (the
//! dealer drawn by lot, then seven cards each from the dealer's left) fails here, a page
//! that deals otherwise fails there.

use serde_json::{json, Value};
use std::path::PathBuf;
use tapete_table::Game;
use tapete_tikki::{TikkiGame, TikkiRules};

/// The seeds, players and options (as a table's JSON gives them, missing keys at their
/// defaults) of the deals pinned: the seeds of chance.rs's goldens, and a seed past 2⁵³ (a
/// JavaScript number would round it); the full deck and a smaller one.
fn cases() -> Vec<(u64, usize, Value)> {
    vec![
        (0, 2, json!({})),
        (7, 4, json!({})),
        (u64::MAX, 5, json!({})),
        ((1 << 53) + 1, 3, json!({"top": 7})),
    ]
}

/// Each seat's cards after the first deal, as `TikkiHost::full_view` lists them.
fn first_hands(seed: u64, seats: usize, rules: &Value) -> Value {
    let rules: TikkiRules = serde_json::from_value(rules.clone()).expect("the case's rules");
    let game = TikkiGame::new(&rules, seats, seed).expect("a game");
    json!((0..seats).map(|s| game.hand(s)).collect::<Vec<_>>())
}

#[test]
fn first_deals_are_pinned() {
    let made = Value::Array(
        cases()
            .into_iter()
            .map(|(seed, seats, rules)| {
                let hands = first_hands(seed, seats, &rules);
                json!({"seed": seed.to_string(), "seats": seats, "rules": rules, "hands": hands})
            })
            .collect(),
    );
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/first_deal.json");
    let pinned: Value = std::fs::read_to_string(&path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(Value::Null);
    assert!(
        pinned == made,
        "{} no longer holds tikki's first deals: stored games would not replay, and the \
         verification page deals otherwise. They are now:\n{made}",
        path.display()
    );
}
