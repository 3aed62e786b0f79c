//! `tapete play mus` scripted through stdin, with `--record`, then `tapete replay` of it;
//! and `replay` of records made here, and of broken ones.

use crate::common::{tapete, tmp};
use serde_json::Value;
use std::process::Output;
use tapete_mus::{MusGame, MusRules};
use tapete_mus_bots as bots;
use tapete_table::{play_out, Bot, Game, Record};

fn last_json(out: &Output) -> Value {
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .rev()
        .find(|l| l.starts_with('{'))
        .unwrap_or_default();
    serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: no JSON summary in\n{text}"))
}

/// Lines a human might type, many times over: every prompt finds something legal soon.
fn script() -> String {
    "no hay mus\npaso\nno quiero\npaso\nquiero\npares no\npares sí\njuego no\njuego sí\n\
     descarto 1o\nmus\n"
        .repeat(300)
}

#[test]
fn played_game_replays_to_the_same_scores() {
    let file = tmp("played.json");
    let f = file.to_str().expect("utf-8 path");
    let args = [
        "play", "mus", "--seed", "5", "--juegos", "1", "--vacas", "1", "--bots", "random",
        "--record", f, "--json",
    ];
    let played = tapete(&args, &script());
    assert!(
        played.status.success(),
        "{}",
        String::from_utf8_lossy(&played.stderr)
    );
    let summary = last_json(&played);
    assert_eq!(summary["seed"], 5);
    assert_eq!(summary["finished"], true, "{summary}");
    let replayed = tapete(&["replay", f, "--json"], "");
    assert!(
        replayed.status.success(),
        "{}",
        String::from_utf8_lossy(&replayed.stderr)
    );
    let v = last_json(&replayed);
    assert_eq!(v["scores"], summary["scores"]);
    assert_eq!(v["outcome"], summary["outcome"]);
    assert_eq!(v["actions"], summary["actions"]);
    assert_eq!(
        v["steps"].as_array().map(Vec::len),
        summary["actions"].as_u64().map(|n| n as usize)
    );
    // The same seed and the same input make the same game.
    let again = tapete(&args, &script());
    assert_eq!(last_json(&again), summary);
    // Text replay ends with the same result line.
    let text = tapete(&["replay", f], "");
    assert!(text.status.success());
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("result:"), "{text}");
}

/// A finished random-bot game, recorded.
fn bot_record(seed: u64) -> (Record<MusGame>, MusGame) {
    let rules = MusRules {
        juegos: 1,
        vacas: 1,
        ..MusRules::default()
    };
    let mut game = MusGame::new(&rules, 4, seed).expect("game");
    let mut seats: Vec<Box<dyn Bot<MusGame>>> = (0..4)
        .map(|_| bots::by_name("random").expect("random bot"))
        .collect();
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed);
    let mut record = Record::new(rules, 4, seed);
    play_out(
        &mut game,
        &mut seats,
        &mut rng,
        &mut record,
        100_000,
        |_, _, _, _| {},
    )
    .expect("plays");
    (record, game)
}

#[test]
fn replay_of_a_bot_game_reaches_its_end() {
    let (record, game) = bot_record(11);
    let file = tmp("bots.json");
    std::fs::write(&file, serde_json::to_string_pretty(&record).expect("json")).expect("write");
    let f = file.to_str().expect("utf-8 path");
    let out = tapete(&["replay", f, "--json"], "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = last_json(&out);
    assert_eq!(
        v["scores"],
        serde_json::to_value(game.scores()).expect("json")
    );
    assert_eq!(v["finished"], true);
    assert_eq!(
        v["outcome"]["winners"],
        serde_json::to_value(game.outcome().map(|o| o.winners)).expect("json")
    );
    let out = tapete(&["replay", f], "");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().count() > record.actions.len(), "{text}");
    assert!(text.contains("result: pair"), "{text}");
}

#[test]
fn broken_records_are_refused_clearly() {
    let missing = tmp("missing.json");
    let out = tapete(&["replay", missing.to_str().expect("path")], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));

    let bad = tmp("bad.json");
    std::fs::write(&bad, "{\"seed\": 1}").expect("write");
    let out = tapete(&["replay", bad.to_str().expect("path")], "");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("expected a tapete record"), "{err}");
    assert!(
        err.contains("found an object with the keys `seed`"),
        "{err}"
    );

    // An action out of turn: the game refuses it, and the message says which.
    let (mut record, _) = bot_record(3);
    let (seat, _) = record.actions[0].clone();
    record.actions[0] = ((seat + 1) % 4, tapete_mus::Action::Mus);
    let refused = tmp("refused.json");
    std::fs::write(&refused, serde_json::to_string(&record).expect("json")).expect("write");
    let out = tapete(&["replay", refused.to_str().expect("path"), "--json"], "");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("action 0") && err.contains("refused"), "{err}");
}

#[test]
fn play_rejects_bad_options() {
    for args in [
        vec!["play", "mus", "--seat", "4"],
        vec!["play", "mus", "--juegos", "2"],
        vec!["play", "mus", "--bots", "genius"],
        vec!["play", "mus", "--seed", "-3"],
        vec!["play", "chess"],
    ] {
        let out = tapete(&args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

/// A record written by tapete before chance was pinned and records named their game
/// (`tests/data/legacy-mus-record.json`, from `tapete play mus --seed 7 --bots basico
/// --record …` with a scripted player) replays to the very result it had then.
#[test]
fn a_record_from_before_the_platform_change_still_replays() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/legacy-mus-record.json"
    );
    let out = tapete(&["replay", path, "--json"], "");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = last_json(&out);
    assert_eq!(v["game"], "mus");
    assert_eq!(v["finished"], true);
    assert_eq!(
        v["outcome"]["summary"],
        "pair 1–3 wins the match (pair 0–2 against pair 1–3: vacas 0–1, juegos 0–2, piedras 0–16)"
    );
    assert_eq!(v["outcome"]["winners"], serde_json::json!([1, 3]));
}

/// A record names its game; one of a game tapete does not know is refused by name.
#[test]
fn records_name_their_game() {
    let (record, _) = bot_record(4);
    let v = serde_json::to_value(&record).expect("json");
    assert_eq!(v["game"], "mus");
    let mut other = v.clone();
    other["game"] = "parchís".into();
    let f = tmp("parchis.json");
    std::fs::write(&f, other.to_string()).expect("write");
    let out = tapete(&["replay", f.to_str().expect("path")], "");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("`parchís` is not a game"), "{err}");
}

#[test]
fn play_stops_when_a_bot_program_cannot_run() {
    // Given through the shell (the quotes), a missing program is found only when the shell
    // exits 127: the game must stop with that reason, not seat a stand-in.
    let out = tapete(
        &[
            "play",
            "mus",
            "--seed",
            "1",
            "--bots",
            "cmd:tapete-no-such-bot-xyz \"--quoted\"",
        ],
        "mus\npaso\npaso\npaso\npaso\n",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success(),
        "exit 0 with an unrunnable bot: {err}"
    );
    assert!(err.contains("cannot play"), "{err}");
    assert!(err.contains("127"), "{err}");
    assert!(!err.contains("random player takes the seat"), "{err}");
}
