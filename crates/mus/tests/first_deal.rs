//! A match's first deal as its replay's first step names it (each seat's cards as the full
//! view lists them), pinned for a few seeds and options in `tests/golden/first_deal.json`.
//! The page that checks a table's deals (/verify/{id}) deals them again in the browser
//! (chance.js and mus.js's `firstDeal`), and e2e/unit/chance.test.mjs holds it to this
//! same file: a change to how Mus deals fails here, a page that deals otherwise fails there.

use serde_json::{json, Value};
use std::path::PathBuf;
use tapete_mus::{MusGame, MusRules};
use tapete_table::first_deal::{self, plain, revealed};
use tapete_table::Game;

/// The deals pinned, by seed and options (as a table's JSON gives them, missing keys at
/// their defaults): the seeds of chance.rs's goldens, then a seed past 2⁵³ (a JavaScript
/// number would round it) for a match of boards, whose first board is dealt from
/// `board_seed(seed, 0)`, with juegos given before play, which leave the deal be, and a
/// seed made by commit and reveal.
fn cases() -> Vec<Value> {
    vec![
        plain(0, 4, json!({})),
        plain(7, 4, json!({})),
        plain(u64::MAX, 4, json!({})),
        plain((1 << 53) + 1, 4, json!({"boards": 4})),
        plain(7, 4, json!({"juegos_given": [1]})),
        revealed(
            4,
            json!({}),
            &[
                "00112233445566778899aabbccddeeff",
                "",
                "ffeeddccbbaa99887766554433221100",
                "",
            ],
        ),
    ]
}

/// The case with each seat's cards after the first deal, as `MusHost::full_view` lists them.
fn with_hands(mut case: Value) -> Value {
    let seed = first_deal::seed(&case);
    let rules: MusRules = serde_json::from_value(case["rules"].clone()).expect("the case's rules");
    let game = MusGame::new(&rules, 4, seed).expect("a match");
    case["hands"] = (0..4)
        .map(|s| json!(game.cards_of(s).iter().collect::<Vec<_>>()))
        .collect();
    case
}

#[test]
fn first_deals_are_pinned() {
    let made = Value::Array(cases().into_iter().map(with_hands).collect());
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/first_deal.json");
    first_deal::check_pinned(&path, &made, "Mus");
}
