//! Tikki through the generic commands the catalog drives: listed by `games`, played in
//! line mode (the retreat round too), recorded and replayed, simulated, pitted in the
//! arena, and played by the Python example over the bot protocol.

use crate::common::{input_error, ok_json, ok_text, tapete, tmp};
use serde_json::Value;
use std::io::{BufReader, Read, Write};
use std::process::{Command, Stdio};

#[test]
fn games_lists_tikki() {
    let text = ok_text(&["games"]);
    let line = text
        .lines()
        .find(|l| l.starts_with("Tikki"))
        .unwrap_or_else(|| panic!("no tikki in:\n{text}"));
    assert!(line.contains("tikki") && line.contains("2–5"), "{line}");
    assert!(line.contains("random, basico"), "{line}");
    let v = ok_json(&["games", "--json"]);
    let tikki = v
        .as_array()
        .and_then(|g| g.iter().find(|g| g["name"] == "tikki"))
        .cloned()
        .expect("tikki in the JSON list");
    assert_eq!(tikki["players"], serde_json::json!([2, 5]));
    assert_eq!(tikki["default_players"], 3);
    assert_eq!(tikki["default_bot"], "basico");
}

#[test]
fn a_whole_game_piped_in_line_mode_is_recorded_and_replays() {
    let f = tmp("tikki.json");
    let f = f.to_str().expect("path");
    // Lay the first card shown (the hand's best combination comes first), again and again.
    let script = "1\n".repeat(400);
    let out = tapete(
        &[
            "play", "tikki", "--seed", "5", "--bots", "basico", "--record", f, "--json",
        ],
        &script,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["game"], "tikki");
    assert_eq!(v["players"], 3, "three seats by default");
    assert_eq!(v["finished"], true, "{v}");
    assert_eq!(v["rules"]["retreat"], false);
    let table = String::from_utf8_lossy(&out.stderr);
    assert!(
        table.starts_with("tapete · tikki — you are seat 0 of 3, 3 rounds; bots: basico"),
        "{table}"
    );
    assert!(table.contains("lay CARDS (or their places) > 1"), "{table}");
    assert!(table.contains("your hand: 1:"), "{table}");
    assert!(table.contains("round 3 scored"), "{table}");
    assert!(table.contains("── the end ──"), "{table}");

    let r = ok_json(&["replay", f, "--json"]);
    assert_eq!(r["game"], "tikki");
    assert_eq!(r["outcome"], v["outcome"]);
    assert_eq!(r["scores"], v["scores"]);
    let text = ok_text(&["replay", f]);
    assert!(text.starts_with("Tikki with 3 players, seed 5"), "{text}");
    assert!(text.contains("takes the tikki"), "{text}");
    assert!(
        text.contains(" best "),
        "the hands are shown after each deal: {text}"
    );
    assert!(text.contains("result: seat"), "{text}");
}

/// Plays a game at a two-seat table with the retreat round through the prompts: lays two
/// cards, takes one back once the retreat round asks, keeps otherwise. The transcript.
fn play_with_a_retreat(record: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tapete"))
        .args([
            "play",
            "tikki",
            "--players",
            "2",
            "--retreat",
            "--seed",
            "2",
            "--bots",
            "basico",
            "--record",
            record,
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tapete binary runs");
    let mut input = child.stdin.take().expect("stdin");
    let mut output = BufReader::new(child.stdout.take().expect("stdout"));
    let mut transcript = String::new();
    let mut line = Vec::new();
    let mut retreated = false;
    let mut refused = false;
    let mut byte = [0u8];
    for _ in 0..200_000 {
        if output.read(&mut byte).expect("reads") == 0 {
            break;
        }
        line.push(byte[0]);
        let text = String::from_utf8_lossy(&line).to_string();
        if byte[0] == b'\n' {
            refused |= text.starts_with("error: ");
            transcript.push_str(&text);
            line.clear();
            continue;
        }
        if !text.ends_with(" > ") {
            continue;
        }
        let answer = if let Some(down) = text.split("face down: ").nth(1) {
            let cards: Vec<&str> = down.split(')').next().unwrap_or("").split(' ').collect();
            if !retreated && cards.len() >= 2 {
                retreated = true;
                format!("retreat {} reveal {}", cards[0], cards[1])
            } else {
                "keep".to_string()
            }
        } else if refused {
            "1".to_string()
        } else {
            "1 2".to_string()
        };
        refused = false;
        transcript.push_str(&text);
        line.clear();
        if writeln!(input, "{answer}").is_err() {
            break;
        }
    }
    drop(input);
    let mut rest = String::new();
    let _ = output.read_to_string(&mut rest);
    transcript.push_str(&rest);
    let status = child.wait().expect("tapete finishes");
    assert!(status.success(), "{transcript}");
    transcript
}

#[test]
fn the_retreat_round_is_played_through_the_prompts() {
    let f = tmp("tikki-retreat.json");
    let f = f.to_str().expect("path");
    let out = play_with_a_retreat(f);
    assert!(out.contains("with the retreat round"), "{out}");
    let asked = out
        .lines()
        .find(|l| l.contains("retreat CARD reveal CARD (face down: "))
        .unwrap_or_else(|| panic!("the retreat round never asked:\n{out}"));
    assert!(asked.contains("| keep > retreat "), "{asked}");
    assert!(out.contains("you take one card back, showing"), "{out}");
    // The retreat is told once; the line before it names the card back in the hand.
    let lines: Vec<&str> = out.lines().collect();
    let told = lines
        .iter()
        .position(|l| l.starts_with("you take one card back, showing"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        told > 0 && lines[told - 1].ends_with(" is back in your hand"),
        "{out}"
    );
    assert!(
        !lines.iter().any(|l| l.contains(" back and show ")),
        "a retreat told twice:\n{out}"
    );
    assert!(out.contains("── the end ──"), "{out}");
    let r = ok_json(&["replay", f, "--json"]);
    assert_eq!(r["finished"], true);
    assert_eq!(r["rules"]["retreat"], true);
    let retreats = r["steps"]
        .as_array()
        .map(|s| {
            s.iter()
                .filter(|x| {
                    x["seat"] == 0
                        && x["action"]
                            .as_str()
                            .is_some_and(|a| a.starts_with("retreat "))
                })
                .count()
        })
        .unwrap_or(0);
    assert_eq!(retreats, 1, "exactly the one retreat asked for");
}

#[test]
fn sim_and_arena_play_tikki_with_its_options() {
    let v = ok_json(&["sim", "tikki", "--games", "12", "--retreat", "--json"]);
    assert_eq!(v["game"], "tikki");
    assert_eq!(v["games"], 12);
    assert_eq!(v["players"], 3);
    assert_eq!(v["rules"]["retreat"], true);
    let won: u64 = v["seat_wins"]
        .as_array()
        .map(|w| w.iter().filter_map(Value::as_u64).sum())
        .unwrap_or(0);
    assert!(
        won >= 12,
        "every game has a winner (level players share): {v}"
    );

    let v = ok_json(&[
        "arena",
        "tikki",
        "--a",
        "basico",
        "--b",
        "random",
        "--players",
        "3",
        "--games",
        "60",
        "--json",
    ]);
    assert_eq!(v["games"], 60);
    assert_eq!(v["players"], 3);
    assert!((v["fair_share"].as_f64().unwrap() - 1.0 / 3.0).abs() < 1e-12);
    assert_eq!(v["a_first"], 20, "A sits first in one game of three");
    assert!(
        v["a_wins"].as_u64().unwrap() > 20,
        "basico beats its fair share against random: {v}"
    );
    assert_eq!(v["incidents"]["count"], 0);
    let text = ok_text(&[
        "arena",
        "tikki",
        "--a",
        "basico",
        "--b",
        "random",
        "--players",
        "4",
        "--games",
        "8",
        "--top",
        "8",
    ]);
    assert!(text.contains("8 Tikki games"), "{text}");
    assert!(text.contains("A at one seat of 4"), "{text}");
}

#[test]
fn bad_tikki_options_are_refused_by_name() {
    let e = input_error(&[
        "sim",
        "tikki",
        "--players",
        "3",
        "--top",
        "5",
        "--games",
        "1",
    ]);
    assert!(e.contains("too few to deal 7"), "{e}");
    let out = tapete(
        &[
            "arena",
            "tikki",
            "--players",
            "6",
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
    assert!(String::from_utf8_lossy(&out.stderr).contains("2–5 players"));
    let out = tapete(&["play", "tikki", "--bots", "genius"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`genius` is not a tikki player"));
}

/// The Python example plays tikki through the protocol, with and without the retreat
/// round, without one incident, and beats random players.
#[test]
fn the_python_example_plays_tikki_without_incidents() {
    let bot = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/python/tikki_bot.py")
        .display()
        .to_string();
    let cmd = format!("cmd:python3 '{bot}'");
    for (players, retreat) in [("3", "--no-retreat"), ("4", "--retreat")] {
        let v = ok_json(&[
            "arena",
            "tikki",
            "--players",
            players,
            retreat,
            "--a",
            &cmd,
            "--b",
            "random",
            "--games",
            "8",
            "--seed",
            "3",
            "--json",
        ]);
        assert_eq!(v["games"], 8);
        assert_eq!(v["incidents"]["count"], 0, "{}", v["incidents"]);
        assert!(v["a_wins"].as_u64().unwrap() >= 4, "it beats random: {v}");
    }
}
