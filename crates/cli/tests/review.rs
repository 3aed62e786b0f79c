//! `tapete review`: a recorded game's decisions valued, as JSON and as text, and its
//! refusals.

use crate::common::{input_error, ok_json, ok_text, tapete, tmp};
use std::path::PathBuf;

fn record() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/mus-review-record.json")
        .display()
        .to_string()
}

#[test]
fn a_seat_is_reviewed_as_json_and_as_text() {
    let file = record();
    let r = ok_json(&[
        "review",
        &file,
        "--seat",
        "1",
        "--max-worlds",
        "4",
        "--json",
    ]);
    assert_eq!(
        (r["game"].as_str(), r["seat"].as_u64()),
        (Some("mus"), Some(1))
    );
    let decisions = r["decisions"].as_array().unwrap();
    assert!(!decisions.is_empty());
    let rec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    for d in decisions {
        let at = d["at"].as_u64().unwrap() as usize;
        assert_eq!(rec["actions"][at][0], 1, "{d}");
        assert!(d["options"].as_array().unwrap().len() >= 2);
        for lance in ["grande", "chica", "pares", "juego", "punto"] {
            assert!(d["leyes"][lance].is_f64(), "{d}");
        }
        assert!(
            ["good", "inaccuracy", "mistake", "blunder"].contains(&d["label"].as_str().unwrap())
        );
    }
    assert!(!r["hands"].as_array().unwrap().is_empty());
    assert!(r["accuracy"]
        .as_f64()
        .is_some_and(|a| (0.0..=100.0).contains(&a)));

    let all = ok_json(&["review", &file, "--all", "--max-worlds", "2", "--json"]);
    let seats: Vec<u64> = all
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["seat"].as_u64().unwrap())
        .collect();
    assert_eq!(seats, [0, 1, 2, 3]);

    let text = ok_text(&["review", &file, "--max-worlds", "2"]);
    assert!(text.starts_with("mus review, seat 0: accuracy"), "{text}");
    assert!(text.contains("played") && text.contains("luck"), "{text}");
}

#[test]
fn bad_seats_records_and_options_are_refused_by_name() {
    let file = record();
    let out = tapete(&["review", &file, "--seat", "7"], "");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--seat 7") && err.contains("0–3"), "{err}");
    let out = tapete(&["review", &file, "--max-worlds", "1"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--max-worlds 1"));
    let out = tapete(&["review", &file, "--seat", "1", "--all"], "");
    assert_eq!(out.status.code(), Some(2));
    // A record whose actions do not replay names the action refused.
    let mut rec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    rec["actions"][0][0] = serde_json::json!(3);
    let bad = tmp("review-bad.json");
    std::fs::write(&bad, rec.to_string()).unwrap();
    let err = input_error(&["review", &bad.display().to_string()]);
    assert!(err.contains("action 0"), "{err}");
    let help = ok_text(&["review", "--help"]);
    for option in [
        "--seat",
        "--all",
        "--threads",
        "--seed",
        "--max-worlds",
        "--json",
    ] {
        assert!(help.contains(option), "{option} in {help}");
    }
}
