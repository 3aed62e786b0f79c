//! Arenas that stay honest: unfinished games counted apart, a bot that cannot start
//! stopping the run, every game's record kept and replayable, and positions taken from
//! records (`replay --at`, `play --from --at`); records with misspelt rules refused.

use crate::common::{ok_json, ok_text, tapete, tmp};
use serde_json::Value;
use std::path::Path;

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"))
}

/// A fresh, empty directory for one test.
fn fresh_dir(name: &str) -> std::path::PathBuf {
    let dir = tmp(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn games_past_the_action_limit_are_unfinished_and_the_run_goes_on() {
    // Random tikki games take about 50 actions: at most 50, some end and some do not.
    let args = [
        "arena",
        "tikki",
        "--a",
        "random",
        "--b",
        "random",
        "--games",
        "6",
        "--max-actions",
        "50",
    ];
    let mut with_json = args.to_vec();
    with_json.push("--json");
    let v = ok_json(&with_json);
    let unfinished = u(&v["unfinished"]["count"]);
    assert!(unfinished > 0 && unfinished < 6, "{v}");
    assert_eq!(u(&v["games"]), 6);
    assert_eq!(u(&v["finished"]), 6 - unfinished);
    assert_eq!(
        v["unfinished"]["list"].as_array().map(Vec::len),
        Some(unfinished as usize)
    );
    assert_eq!(u(&v["unfinished"]["max_actions"]), 50);
    // Wins, draws and the rate are over the finished games.
    let finished = u(&v["finished"]);
    assert_eq!(u(&v["a_wins"]) + u(&v["b_wins"]) + u(&v["draws"]), finished);
    let rate = v["a_win_rate"].as_f64().unwrap();
    assert!(
        (rate - u(&v["a_wins"]) as f64 / finished as f64).abs() < 1e-12,
        "{v}"
    );

    let text = ok_text(&args);
    assert!(
        text.contains(&format!(
            "unfinished games: {unfinished} of 6 (stopped at 50 actions"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("A's win rate over the {finished} finished games")),
        "{text}"
    );
}

/// Runs `tapete ARGS` that must fail while running with `says` on stderr, quickly.
fn fails_at_once(args: &[&str], says: &[&str]) {
    let start = std::time::Instant::now();
    let out = tapete(args, "");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} succeeded: {err}");
    for s in says {
        assert!(err.contains(s), "{args:?}: {err}");
    }
    assert!(!String::from_utf8_lossy(&out.stdout).contains("win rate"));
    assert!(
        start.elapsed().as_secs() < 20,
        "{args:?} took {:?}",
        start.elapsed()
    );
}

#[test]
fn a_bot_that_cannot_start_stops_every_command_at_once() {
    let missing = "cmd:/nonexistent/dir/my_bot --fast";
    let says: &[&str] = &[
        "cannot start the program",
        "`/nonexistent/dir/my_bot` does not exist",
    ];
    fails_at_once(
        &[
            "arena", "tikki", "--a", missing, "--b", "random", "--games", "20",
        ],
        says,
    );
    fails_at_once(
        &[
            "gauntlet",
            "tikki",
            "--a",
            missing,
            "--against",
            "random",
            "--games",
            "20",
        ],
        says,
    );
    fails_at_once(&["sim", "tikki", "--bots", missing, "--games", "20"], says);
    fails_at_once(&["play", "mus", "--rivals", missing, "--seed", "1"], says);
    // A command the shell cannot run (shell syntax keeps it from being checked first):
    // the shell's 127 stops the arena in its first game.
    fails_at_once(
        &[
            "arena",
            "tikki",
            "--a",
            "cmd:tapete-no-such-bot-xyz \"--quoted\"",
            "--b",
            "random",
            "--games",
            "20",
        ],
        &["cannot start the program", "exit status: 127", "no results"],
    );
}

#[test]
fn kept_records_replay_to_each_games_result() {
    let dir = fresh_dir("kept-records");
    let d = dir.display().to_string();
    let v = ok_json(&[
        "arena",
        "tikki",
        "--a",
        "basico",
        "--b",
        "random",
        "--games",
        "6",
        "--seed",
        "9",
        "--records",
        &d,
        "--json",
    ]);
    assert_eq!(u(&v["unfinished"]["count"]), 0, "{v}");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 6, "{files:?}");
    let seats = u(&v["players"]);
    let mut a_wins = 0;
    let mut seat_wins = vec![0u64; seats as usize];
    for (i, f) in files.iter().enumerate() {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        assert_eq!(
            name,
            format!("game-{i:06}-seed-{}.json", 9 + i),
            "{files:?}"
        );
        let r = ok_json(&["replay", &f.display().to_string(), "--json"]);
        assert_eq!(u(&r["seed"]), 9 + i as u64);
        assert_eq!(r["finished"], true, "{name}");
        let winners: Vec<u64> = r["outcome"]["winners"]
            .as_array()
            .unwrap()
            .iter()
            .map(u)
            .collect();
        for &w in &winners {
            seat_wins[w as usize] += 1;
        }
        // A sits at seat i mod N in game i.
        if winners.contains(&(i as u64 % seats)) {
            a_wins += 1;
        }
    }
    assert_eq!(a_wins, u(&v["a_wins"]), "{v}");
    let reported: Vec<u64> = v["seat_wins"].as_array().unwrap().iter().map(u).collect();
    assert_eq!(seat_wins, reported);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_gauntlet_says_whom_it_plays() {
    let named = ok_text(&[
        "gauntlet",
        "tikki",
        "--a",
        "basico",
        "--against",
        "random",
        "--games",
        "4",
    ]);
    let first = named.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("basico against random: 4 Tikki games each"),
        "{named}"
    );
    assert!(!named.contains("every"), "{named}");
    let all = ok_text(&["gauntlet", "tikki", "--a", "basico", "--games", "2"]);
    let first = all.lines().next().unwrap_or_default();
    assert!(
        first
            .starts_with("basico against every built-in player but itself and the search levels ("),
        "{all}"
    );
}

#[test]
fn a_bot_is_told_the_games_reason_once() {
    let dir = fresh_dir("said-once");
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("errors.txt");
    let bot = dir.join("bot.py");
    // Answers `xyz` to the first request, writes down the error it gets, then leaves.
    std::fs::write(
        &bot,
        format!(
            r#"import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "act":
        print(json.dumps({{"id": m["id"], "action": "xyz"}}), flush=True)
    elif m["type"] == "error":
        open({log:?}, "w").write(m["message"])
        sys.exit(0)
"#,
            log = log.display().to_string()
        ),
    )
    .unwrap();
    let cmd = format!("cmd:python3 {}", bot.display());
    ok_json(&[
        "sim", "tikki", "--a", &cmd, "--b", "random", "--games", "1", "--json",
    ]);
    let message = std::fs::read_to_string(&log).expect("the bot got an error");
    assert_eq!(
        message,
        "`xyz` is not an action: lay CARDS, retreat CARD reveal CARD, or keep"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Writes `text` to a temporary file; its path.
fn file(name: &str, text: &str) -> String {
    let path = tmp(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// Runs `tapete ARGS` that must fail as an input error; its stderr.
fn input_error(args: &[&str]) -> String {
    let out = tapete(args, "");
    assert_eq!(
        out.status.code(),
        Some(2),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn misspelt_rules_in_records_are_refused_in_every_game() {
    let tikki = file(
        "targett.json",
        r#"{"game":"tikki","rules":{"top":13,"rounds":0,"targett":50,"retreat":false},"seats":3,"seed":1,"actions":[]}"#,
    );
    let err = input_error(&["replay", &tikki]);
    assert!(err.contains("unknown field `targett`"), "{err}");
    let mus = file(
        "vacass.json",
        r#"{"game":"mus","rules":{"vacass":3},"seats":4,"seed":1,"actions":[]}"#,
    );
    let err = input_error(&["replay", &mus]);
    assert!(err.contains("unknown field `vacass`"), "{err}");
    let chinchon = file(
        "decks.json",
        r#"{"game":"chinchon","rules":{"decks":40},"seats":2,"seed":1,"actions":[]}"#,
    );
    let err = input_error(&["replay", &chinchon]);
    assert!(err.contains("unknown field `decks`"), "{err}");
    // The stored Mus record still replays.
    let legacy = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/legacy-mus-record.json");
    ok_json(&["replay", &legacy.display().to_string(), "--json"]);
}

#[test]
fn a_file_that_is_no_record_says_what_was_expected_and_found() {
    let list = file("list.json", "[1, 2]");
    let err = input_error(&["replay", &list]);
    assert!(
        err.contains("expected a JSON object with `game`, `rules`, `seats`, `seed` and `actions`"),
        "{err}"
    );
    assert!(err.contains("found an array"), "{err}");
    let other = file("other.json", r#"{"name": "x", "moves": []}"#);
    let err = input_error(&["replay", &other]);
    assert!(
        err.contains("one without `game` is read as an old Mus record"),
        "{err}"
    );
    assert!(
        err.contains("found an object with the keys `moves`, `name`"),
        "{err}"
    );
    assert!(!err.contains("not a tapete Mus record"), "{err}");
}

/// A record of one arena game of `game` (2 players), kept in a fresh directory.
fn arena_record(game: &str, name: &str) -> (std::path::PathBuf, Value) {
    let dir = fresh_dir(name);
    let d = dir.display().to_string();
    // Random Mus players settle a match in a handful of actions (an órdago accepted);
    // basico's last for hands, with their discards.
    let level = if game == "mus" { "basico" } else { "random" };
    ok_json(&[
        "arena",
        game,
        "--players",
        if game == "mus" { "4" } else { "2" },
        "--a",
        level,
        "--b",
        level,
        "--games",
        "1",
        "--seed",
        "4",
        "--records",
        &d,
        "--json",
    ]);
    let path = dir.join("game-000000-seed-4.json");
    let record: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    (path, record)
}

#[test]
fn replay_at_shows_the_position_a_bot_would_decide_in() {
    let (path, record) = arena_record("tikki", "replay-at");
    let p = path.display().to_string();
    let v = ok_json(&["replay", &p, "--at", "4", "--json"]);
    assert_eq!(u(&v["at"]), 4);
    assert_eq!(v["steps"].as_array().map(Vec::len), Some(4));
    let to_act: Vec<u64> = v["to_act"].as_array().unwrap().iter().map(u).collect();
    // The record's fifth action is taken by a seat to act there, and is legal.
    let (seat, action) = (&record["actions"][4][0], &record["actions"][4][1]);
    assert!(to_act.contains(&u(seat)), "{v}");
    let legal = v["legal"].as_array().unwrap();
    let mine = legal.iter().find(|l| &l["seat"] == seat).unwrap();
    assert!(
        mine["actions"].as_array().unwrap().contains(action),
        "{mine}"
    );
    assert_eq!(v["views"].as_array().map(Vec::len), Some(2));
    let text = ok_text(&["replay", &p, "--at", "4"]);
    assert!(text.contains("stopped at action 4 (--at)"), "{text}");
    assert!(
        text.contains(&format!("seat {} is to act; legal: ", u(seat))),
        "{text}"
    );
    let err = input_error(&["replay", &p, "--at", "100000"]);
    assert!(err.contains("--at 100000"), "{err}");
}

/// `play GAME --from RECORD --at N --seat SEAT` with no input: the opening is replayed as
/// recorded, the bots play on, and the game stops when the human must type.
fn play_from(game: &str, name: &str, at: usize, seat: usize) {
    let (path, record) = arena_record(game, name);
    let p = path.display().to_string();
    let out_path = tmp(&format!("{name}-out.json"));
    let out = out_path.display().to_string();
    let (at_text, seat_text) = (at.to_string(), seat.to_string());
    let o = tapete(
        &[
            "play", game, "--from", &p, "--at", &at_text, "--seat", &seat_text, "--bots", "random",
            "--record", &out, "--json",
        ],
        "",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!("its first {at} actions are replayed")),
        "{err}"
    );
    let played: Value = serde_json::from_str(&std::fs::read_to_string(&out_path).unwrap()).unwrap();
    assert_eq!(played["seed"], record["seed"]);
    assert_eq!(played["rules"], record["rules"]);
    let actions = played["actions"].as_array().unwrap();
    assert!(actions.len() >= at, "{played}");
    assert_eq!(actions[..at], record["actions"].as_array().unwrap()[..at]);
    // Options the record settles are refused with it.
    let o = tapete(&["play", game, "--from", &p, "--seed", "3"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--from plays the record's own table"));
}

#[test]
fn play_from_a_record_goes_on_from_its_position() {
    play_from("tikki", "from-tikki", 7, 0);
    play_from("chinchon", "from-chinchon", 9, 0);
    // Past Mus's first discards, which every seat makes at once and the record holds in
    // seat order: seat 3 is asked first at a table, but the recorded order stands.
    play_from("mus", "from-mus", 40, 3);
}
