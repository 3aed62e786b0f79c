//! A match's first deal as its replay's first step names it (each seat's cards as the full
//! view lists them), pinned for a few seeds and options in `tests/golden/first_deal.json`.
//! The page that checks a table's deals (/verify/{id}) deals them again in the browser
//! (chance.js and mus.js's `firstDeal`), and e2e/unit/chance.test.mjs holds it to this
//! same file: a change to how Mus deals fails here, a page that deals otherwise fails there.

use serde_json::{json, Value};
use std::path::PathBuf;
use tapete_mus::{MusGame, MusRules};
use tapete_table::Game;

/// The seeds and the options (as a table's JSON gives them, missing keys at their
/// defaults) of the deals pinned: the seeds of chance.rs's goldens, then a seed past 2⁵³
/// (a JavaScript number would round it) for a match of boards, whose first board is dealt
/// from `board_seed(seed, 0)`, and with juegos given before play, which leave the deal be.
fn cases() -> Vec<(u64, Value)> {
    vec![
        (0, json!({})),
        (7, json!({})),
        (u64::MAX, json!({})),
        ((1 << 53) + 1, json!({"boards": 4})),
        (7, json!({"juegos_given": [1]})),
    ]
}

/// Each seat's cards after the first deal, as `MusHost::full_view` lists them.
fn first_hands(seed: u64, rules: &Value) -> Value {
    let rules: MusRules = serde_json::from_value(rules.clone()).expect("the case's rules");
    let game = MusGame::new(&rules, 4, seed).expect("a match");
    Value::Array(
        (0..4)
            .map(|s| json!(game.cards_of(s).iter().collect::<Vec<_>>()))
            .collect(),
    )
}

#[test]
fn first_deals_are_pinned() {
    let made = Value::Array(
        cases()
            .into_iter()
            .map(|(seed, rules)| {
                let hands = first_hands(seed, &rules);
                json!({"seed": seed.to_string(), "seats": 4, "rules": rules, "hands": hands})
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
        "{} no longer holds Mus's first deals: stored games would not replay, and the \
         verification page deals otherwise. They are now:\n{made}",
        path.display()
    );
}
