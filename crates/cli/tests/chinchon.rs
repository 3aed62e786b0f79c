//! `tapete chinchon analyze|odds`, and Chinchón played, recorded, replayed, simulated and
//! pitted in the arena through the generic commands.

use crate::common::{tapete, tmp};
use serde_json::Value;

fn json_of(args: &[&str]) -> Value {
    let out = tapete(args, "");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON document")
}

#[test]
fn analyze_gives_the_issues_keys() {
    let v = json_of(&[
        "chinchon", "analyze", "1o", "2o", "3o", "7c", "7e", "7b", "12o", "--json",
    ]);
    assert_eq!(v["deadwood"], 12);
    assert_eq!(v["can_close"], false);
    assert_eq!(v["unmatched"], serde_json::json!(["12o"]));
    assert_eq!(v["melds"].as_array().map(Vec::len), Some(2));
    assert_eq!(v["menos_diez"], false);
    assert_eq!(v["chinchon"], false);
    assert!(v.get("discards").is_none(), "seven cards have no discards");

    let v = json_of(&["chinchon", "analyze", "1o 2o 3o 7c 7e 7b 12o 4o", "--json"]);
    assert_eq!(v["best_discard"], "12o");
    assert_eq!(v["discards"].as_array().map(Vec::len), Some(8));
    let best = v["discards"]
        .as_array()
        .and_then(|d| d.iter().find(|x| x["card"] == "12o"))
        .cloned()
        .expect("12o among the discards");
    assert_eq!(best["can_close"], true);
    assert_eq!(best["deadwood"], 0);
    assert_eq!(v["menos_diez"], true);

    // Options change the answer: with the 3b worth 3 the close is normal at limit 3,
    // and refused at a limit the rules do not have.
    let v = json_of(&["chinchon", "analyze", "1o 2o 3o 7c 7e 7b 3b", "--json"]);
    assert_eq!(v["can_close"], true);
    let out = tapete(&["chinchon", "analyze", "1o", "--close-limit", "9"], "");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn bad_cards_are_refused_by_name() {
    for (args, says) in [
        (
            vec!["chinchon", "analyze", "13o", "2o"],
            "`13o` is not a card",
        ),
        (vec!["chinchon", "analyze", "8o", "2o"], "8o"),
        (vec!["chinchon", "analyze", "J", "2o"], "joker"),
        (vec!["chinchon", "odds", "1o 2o 3o"], "seven cards"),
        (
            vec!["chinchon", "odds", "1o 2o 3o 7c 7e 7b 12b", "--seen", "12b"],
            "12b",
        ),
        (
            vec!["chinchon", "odds", "1o 2o 3o 7c 7e 7b 12b", "--draws", "4"],
            "1 to 3",
        ),
    ] {
        let out = tapete(&args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr).to_lowercase();
        assert!(err.contains(&says.to_lowercase()), "{args:?}: {err}");
    }
}

#[test]
fn odds_give_outs_and_growing_chances() {
    let v = json_of(&[
        "chinchon",
        "odds",
        "1o 2o 3o 7c 7e 7b 12b",
        "--seen",
        "4o 3c",
        "--draws",
        "3",
        "--json",
    ]);
    let outs: Vec<&str> = v["outs"]
        .as_array()
        .map(|o| o.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    assert!(outs.contains(&"1c") && outs.contains(&"7o"), "{outs:?}");
    assert!(
        !outs.contains(&"4o") && !outs.contains(&"3c"),
        "seen cards are not outs"
    );
    let unseen = v["unseen"].as_u64().unwrap();
    assert_eq!(unseen, 40 - 7 - 2);
    let counted: u64 = v["outs_unseen"]
        .as_array()
        .map(|o| o.iter().filter_map(|x| x["unseen"].as_u64()).sum())
        .unwrap_or(0);
    let p_next = v["p_next"].as_f64().unwrap();
    assert!((p_next - counted as f64 / unseen as f64).abs() < 1e-12);
    let within: Vec<f64> = v["within"]
        .as_array()
        .map(|w| w.iter().filter_map(|x| x["p"].as_f64()).collect())
        .unwrap_or_default();
    assert_eq!(within.len(), 3);
    assert_eq!(within[0], p_next);
    assert!(within[0] < within[1] && within[1] < within[2], "{within:?}");
}

#[test]
fn analyze_refuses_a_card_named_more_often_than_the_deck_holds_it() {
    let out = tapete(&["chinchon", "analyze", "1o 1o 3o 7c 7e 7b 12b"], "");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("`1o` is named 2 times, but the deck holds 1"),
        "{err}"
    );
    // Two decks hold two of each card, not three.
    let v = json_of(&[
        "chinchon",
        "analyze",
        "1o 1o 2o 3o 7c 7e 7b 12b",
        "--decks",
        "2",
        "--json",
    ]);
    assert_eq!(v["cards"].as_array().map(Vec::len), Some(8));
    let out = tapete(&["chinchon", "analyze", "1o 1o 1o 3o", "--decks", "2"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("named 3 times"));
    let out = tapete(&["chinchon", "analyze", "1o", "--decks", "3"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--decks: 1, or 2"));
}

#[test]
fn odds_past_the_last_unseen_card_rebuild_the_stock() {
    // One card unseen, the 4o, and it closes: within 1 draw and within 2 are both sure.
    let seen = "5o 6o 7o 10o 11o 12o 1c 2c 3c 4c 5c 6c 10c 11c 12c 1e 2e 3e 4e 5e 6e 10e \
                11e 12e 1b 2b 3b 4b 5b 6b 10b 11b";
    let v = json_of(&[
        "chinchon",
        "odds",
        "1o 2o 3o 7c 7e 7b 12b",
        "--draws",
        "3",
        "--seen",
        seen,
        "--json",
    ]);
    assert_eq!(v["unseen"], 1);
    let fractions: Vec<&str> = v["within"]
        .as_array()
        .map(|w| w.iter().filter_map(|x| x["fraction"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(fractions, ["1/1", "1/1", "1/1"]);
}

#[test]
fn a_game_played_in_line_mode_is_recorded_and_replays() {
    let f = tmp("chinchon.json");
    let f = f.to_str().expect("path");
    // Draw from the stock and throw the first card shown, over and over: bots close.
    let script = "robo\n1\nlisto\n".repeat(3000);
    let out = tapete(
        &[
            "play",
            "chinchon",
            "--players",
            "3",
            "--seed",
            "4",
            "--bots",
            "basico",
            "--target",
            "30",
            "--record",
            f,
            "--json",
        ],
        &script,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["game"], "chinchon");
    assert_eq!(v["players"], 3);
    assert_eq!(v["finished"], true, "{v}");
    assert_eq!(v["rules"]["target"], 30);
    let r = json_of(&["replay", f, "--json"]);
    assert_eq!(r["game"], "chinchon");
    assert_eq!(r["outcome"], v["outcome"]);
    assert_eq!(r["scores"], v["scores"]);
    let text = tapete(&["replay", f], "");
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("Chinchón with 3 players"), "{text}");
    assert!(text.contains("result:"), "{text}");
}

#[test]
fn the_arena_seats_one_against_the_rest() {
    let v = json_of(&[
        "arena",
        "chinchon",
        "--players",
        "3",
        "--a",
        "basico",
        "--b",
        "random",
        "--games",
        "30",
        "--json",
    ]);
    assert_eq!(v["games"], 30);
    assert!((v["fair_share"].as_f64().unwrap() - 1.0 / 3.0).abs() < 1e-12);
    assert_eq!(v["a_first"], 10, "A sits first in one game of three");
    assert!(v["a_wins"].as_u64().unwrap() >= 25, "{v}");
    let seat_wins: u64 = v["seat_wins"]
        .as_array()
        .map(|w| w.iter().filter_map(Value::as_u64).sum())
        .unwrap_or(0);
    assert_eq!(seat_wins, 30);
    // Table options come as flags, and the game's players are checked.
    let out = tapete(
        &[
            "arena",
            "chinchon",
            "--players",
            "9",
            "--a",
            "random",
            "--b",
            "random",
            "--games",
            "1",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("2–8 players"));
    let out = tapete(
        &[
            "sim",
            "chinchon",
            "--games",
            "3",
            "--close-limit",
            "4",
            "--json",
        ],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The Python example plays Chinchón through the protocol, in an arena and at a
/// four-seat table, without one incident.
#[test]
fn the_python_example_plays_chinchon_without_incidents() {
    let bot = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/python/chinchon_bot.py")
        .display()
        .to_string();
    let cmd = format!("cmd:python3 '{bot}'");
    for players in ["2", "4"] {
        let v = json_of(&[
            "arena",
            "chinchon",
            "--players",
            players,
            "--a",
            &cmd,
            "--b",
            "random",
            "--games",
            "4",
            "--seed",
            "3",
            "--json",
        ]);
        assert_eq!(v["games"], 4);
        assert_eq!(v["incidents"]["count"], 0, "{}", v["incidents"]);
        assert!(v["a_wins"].as_u64().unwrap() >= 3, "it beats random: {v}");
    }
}
