//! `--json` keeps stdout to JSON (the game, and every error, argument errors included);
//! `--record` is checked before any game; `--threads` has bounds.

use crate::common::{tapete, tmp};
use serde_json::Value;
use std::process::Output;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The whole of stdout as one JSON document (nothing before or after it).
fn only_json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not one JSON document ({e}):\n{}\nstderr:\n{}",
            text(&out.stdout),
            text(&out.stderr)
        )
    })
}

/// Answers that move every decision on, many times over.
fn script() -> String {
    "no hay mus\npaso\nno quiero\npaso\nquiero\ndescarto 1\nmus\n".repeat(400)
}

const QUICK_GAME: [&str; 10] = [
    "play", "mus", "--seed", "5", "--juegos", "1", "--vacas", "1", "--bots", "random",
];

#[test]
fn play_with_json_prints_only_json_on_stdout() {
    let args = [&QUICK_GAME[..], &["--json"]].concat();
    let out = tapete(&args, &script());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v = only_json(&out);
    assert_eq!(v["seed"], 5);
    assert_eq!(v["seat"], 0);
    assert_eq!(v["game"], "mus");
    assert_eq!(
        v["bots"],
        serde_json::json!([null, "random", "random", "random"])
    );
    assert_eq!(v["finished"], true, "{v}");
    assert!(v["actions"].as_u64().unwrap_or(0) > 0, "{v}");
    assert!(v["scores"]["piedras"].is_array(), "{v}");
    assert!(v["outcome"]["summary"].is_string(), "{v}");
    assert!(v["record"].is_null(), "{v}");
    // The table itself, prompts included, went to stderr.
    let err = text(&out.stderr);
    assert!(err.contains("cards dealt") && err.contains(" > "), "{err}");
    assert!(err.contains("── the end ──"), "{err}");

    // Without --json the table is on stdout, as before.
    let plain = tapete(&QUICK_GAME, &script());
    assert!(plain.status.success());
    assert!(text(&plain.stdout).contains("cards dealt"));
    assert!(serde_json::from_slice::<Value>(&plain.stdout).is_err());
}

#[test]
fn argument_errors_honour_json_for_every_command() {
    let bad: &[&[&str]] = &[
        &["play", "mus", "--seat", "9"],
        &["play", "chess"],
        &[
            "mus", "eval", "--mode", "9reyes", "RRCA", "7654", "RRSS", "C754",
        ],
        &["mus", "leyes", "--mode", "x", "RRCA"],
        &["mus", "tables", "--mode", "x"],
        &["mus", "simulate", "--deals", "many"],
        &["sim", "mus", "--games", "x"],
        &["sim", "mus"],
        &["arena", "mus", "--a", "basico"],
        &["replay"],
        &["serve", "--no-such-option"],
        &["loadtest", "--tables", "x"],
        &["no-such-command"],
    ];
    for args in bad {
        // --json anywhere: after the command and before it.
        for json_first in [false, true] {
            let mut all: Vec<&str> = args.to_vec();
            if json_first {
                all.insert(0, "--json");
            } else {
                all.push("--json");
            }
            let out = tapete(&all, "");
            assert_eq!(out.status.code(), Some(2), "{all:?}");
            let v = only_json(&out);
            let msg = v["error"].as_str().unwrap_or_default();
            assert!(!msg.is_empty() && !msg.contains('\n'), "{all:?}: {v}");
            assert!(!msg.starts_with("error:"), "{all:?}: {v}");
            assert_eq!(v["kind"], "usage", "{all:?}: {v}");
            assert!(
                !out.stderr.is_empty(),
                "{all:?}: the message is on stderr too"
            );
        }
        // Without --json: the message on stderr only, as clap gives it.
        let out = tapete(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}: {}", text(&out.stdout));
        assert!(text(&out.stderr).contains("error:"), "{args:?}");
    }
    // The message says what was wrong.
    let out = tapete(&["sim", "mus", "--json"], "");
    let v = only_json(&out);
    assert!(
        v["error"].as_str().unwrap_or_default().contains("--games"),
        "{v}"
    );
    // No command at all.
    let out = tapete(&["--json"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(only_json(&out)["error"]
        .as_str()
        .unwrap_or_default()
        .contains("subcommand"));
    // Help and version are not errors.
    let out = tapete(&["--json", "--version"], "");
    assert!(out.status.success());
    assert!(text(&out.stdout).starts_with("tapete "));
}

#[test]
fn a_bad_record_path_fails_before_the_game() {
    let missing_dir = tmp("no-such-dir").join("game.json");
    let a_file = tmp("plain-file");
    std::fs::write(&a_file, "not a directory").expect("write");
    let under_a_file = a_file.join("game.json");
    let a_dir = tmp("a-dir");
    std::fs::create_dir_all(&a_dir).expect("dir");
    for (path, why) in [
        (&missing_dir, "does not exist"),
        (&under_a_file, "is not a directory"),
        (&a_dir, "is a directory"),
    ] {
        let p = path.to_str().expect("utf-8 path");
        for json in [false, true] {
            let mut args = [&QUICK_GAME[..], &["--record", p]].concat();
            if json {
                args.push("--json");
            }
            let out = tapete(&args, &script());
            assert_eq!(out.status.code(), Some(2), "{p}");
            let err = text(&out.stderr);
            assert!(err.contains("--record") && err.contains(why), "{p}: {err}");
            let all = format!("{}{err}", text(&out.stdout));
            assert!(!all.contains("cards dealt"), "a game was played:\n{all}");
            if json {
                let v = only_json(&out);
                assert!(v["error"].as_str().unwrap_or_default().contains(why), "{v}");
            }
        }
    }
    assert!(!missing_dir.exists());
    assert_eq!(
        std::fs::read_to_string(&a_file).expect("read"),
        "not a directory"
    );

    // A good path: checking leaves nothing behind, the game writes the record.
    let good = tmp("good.json");
    let _ = std::fs::remove_file(&good);
    let p = good.to_str().expect("utf-8 path");
    let out = tapete(
        &[&QUICK_GAME[..], &["--record", p, "--json"]].concat(),
        "quit\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(only_json(&out)["record"], p);
    let rec: Value =
        serde_json::from_str(&std::fs::read_to_string(&good).expect("the record")).expect("json");
    assert_eq!(rec["seed"], 5);
}

#[test]
fn threads_are_bounded_with_a_clear_error() {
    let commands: &[&[&str]] = &[
        &["sim", "mus", "--games", "2", "--bots", "random"],
        &[
            "arena", "mus", "--a", "random", "--b", "random", "--games", "2",
        ],
        &["mus", "simulate", "--deals", "10"],
    ];
    for cmd in commands {
        for threads in ["0", "257", "100000", "18446744073709551616", "two", " "] {
            let out = tapete(&[cmd, &["--threads", threads][..]].concat(), "");
            assert_eq!(out.status.code(), Some(2), "{cmd:?} --threads {threads}");
            let err = text(&out.stderr);
            assert!(err.contains("use 1 to 256"), "{cmd:?} {threads}: {err}");
        }
        for threads in ["1", "256"] {
            let out = tapete(&[cmd, &["--threads", threads, "--json"][..]].concat(), "");
            assert!(
                out.status.success(),
                "{cmd:?} {threads}: {}",
                text(&out.stderr)
            );
            let v = only_json(&out);
            assert_eq!(v["timing"]["threads"].as_str(), None);
            assert_eq!(v["timing"]["threads"], threads.parse::<u64>().expect("n"));
        }
    }
}
