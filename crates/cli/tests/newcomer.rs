//! What a newcomer meets first: each command's help for its game, errors that suggest the
//! right word, a printed command that deals the same game again, the rules an arena plays
//! by, and output files that are whole or absent.

use crate::common::{input_error, ok_json, ok_text, tapete, tmp};

#[test]
fn each_game_command_lists_its_own_options_and_the_games() {
    // (verb, an option of the verb, per game an option of the game)
    let verbs = [
        ("play", "--seed"),
        ("sim", "--games"),
        ("arena", "--b"),
        ("gauntlet", "--against"),
    ];
    let games = [
        ("mus", "--punto-y-miedo"),
        ("chinchon", "--close-limit"),
        ("tikki", "--retreat"),
    ];
    for (verb, own) in verbs {
        for (game, option) in games {
            for help in ["--help", "-h"] {
                let text = ok_text(&[verb, game, help]);
                assert!(
                    text.contains(&format!("tapete {verb} {game}")),
                    "{verb} {game} {help}: {text}"
                );
                assert!(
                    text.contains(own),
                    "{verb} {game} {help} lacks {own}: {text}"
                );
                assert!(
                    text.contains(option),
                    "{verb} {game} {help} lacks {option}: {text}"
                );
            }
        }
    }
    // Options before the game still reach the game's help.
    let text = ok_text(&["play", "--json", "tikki", "--help"]);
    assert!(text.contains("--retreat"), "{text}");
    // Without a game, the command's own help.
    let text = ok_text(&["play", "--help"]);
    assert!(text.contains("<GAME>"), "{text}");
}

#[test]
fn no_option_is_a_double_negative() {
    for game in ["mus", "chinchon", "tikki"] {
        let text = ok_text(&["play", game, "--help"]);
        assert!(!text.contains("--no-no-"), "{game}: {text}");
    }
    let text = ok_text(&["play", "chinchon", "--help"]);
    assert!(text.contains("--no-close-first-turn"), "{text}");
    assert!(text.contains("--close-first-turn "), "{text}");
    // Both forms work and set the option each way.
    let on = ok_json(&[
        "play",
        "chinchon",
        "--seed",
        "1",
        "--no-close-first-turn",
        "--json",
    ]);
    assert_eq!(on["rules"]["no_close_first_turn"], true);
    let off = ok_json(&[
        "play",
        "chinchon",
        "--seed",
        "1",
        "--close-first-turn",
        "--json",
    ]);
    assert_eq!(off["rules"]["no_close_first_turn"], false);
}

#[test]
fn misspelt_words_get_a_suggestion() {
    let e = input_error(&["play", "mus", "--bots", "experot", "--seed", "1"]);
    assert!(e.contains("did you mean `experto`?"), "{e}");
    let e = input_error(&[
        "arena",
        "mus",
        "--a",
        "maestor:iters=8",
        "--b",
        "basico",
        "--games",
        "2",
    ]);
    assert!(e.contains("did you mean `maestro`?"), "{e}");
    let e = input_error(&["play", "tiki", "--seed", "1"]);
    assert!(e.contains("did you mean `tikki`?"), "{e}");
    let e = input_error(&["play", "mus", "--tagret", "30"]);
    assert!(e.contains("'--target'"), "{e}");
    // Nothing close: no guess.
    let e = input_error(&["play", "mus", "--bots", "zzzzzz", "--seed", "1"]);
    assert!(!e.contains("did you mean"), "{e}");
}

/// The command a finished (or stopped) `tapete play` prints to deal the same game again.
fn replay_hint(args: &[&str]) -> Vec<String> {
    let out = tapete(args, "");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = text
        .lines()
        .find(|l| l.starts_with("seed: "))
        .unwrap_or_else(|| panic!("{args:?} printed no seed line: {text}"));
    let (_, command) = line.split_once('(').expect("a command in brackets");
    let command = command
        .strip_suffix(" deals the same cards)")
        .expect("the hint's words");
    command
        .split_whitespace()
        .skip(1)
        .map(str::to_string)
        .collect()
}

#[test]
fn the_printed_command_deals_the_same_game() {
    let cases: [&[&str]; 3] = [
        &[
            "play",
            "chinchon",
            "--seed",
            "3",
            "--jokers",
            "1",
            "--players",
            "3",
        ],
        &[
            "play",
            "tikki",
            "--seed",
            "4",
            "--retreat",
            "--players",
            "4",
        ],
        &[
            "play", "mus", "--seed", "5", "--mode", "4reyes", "--target", "30",
        ],
    ];
    for args in cases {
        let hint = replay_hint(args);
        for option in args.iter().filter(|a| a.starts_with("--")) {
            assert!(hint.iter().any(|h| h == option), "{args:?} → {hint:?}");
        }
        let mut original: Vec<&str> = args.to_vec();
        original.push("--json");
        let mut again: Vec<&str> = hint.iter().map(String::as_str).collect();
        again.push("--json");
        let (a, b) = (ok_json(&original), ok_json(&again));
        assert_eq!(a["rules"], b["rules"], "{args:?} → {hint:?}");
        assert_eq!(a["seed"], b["seed"]);
        assert_eq!(a["players"], b["players"]);
    }
}

#[test]
fn arenas_say_the_rules_they_play_and_their_help_agrees() {
    let help = ok_text(&["arena", "mus", "--help"]);
    let juegos = help
        .lines()
        .find(|l| l.trim_start().starts_with("--juegos"))
        .expect("a --juegos line");
    assert!(juegos.contains("(default: 1)"), "{juegos}");
    let help = ok_text(&["play", "mus", "--help"]);
    let juegos = help
        .lines()
        .find(|l| l.trim_start().starts_with("--juegos"))
        .expect("a --juegos line");
    assert!(juegos.contains("(default: 3)"), "{juegos}");
    let text = ok_text(&[
        "arena", "mus", "--a", "basico", "--b", "random", "--games", "2",
    ]);
    assert!(
        text.lines()
            .nth(1)
            .is_some_and(|l| l.starts_with("rules: ")),
        "{text}"
    );
    assert!(text.contains("juegos 1"), "{text}");
    let v = ok_json(&[
        "arena", "mus", "--a", "basico", "--b", "random", "--games", "2", "--json",
    ]);
    assert_eq!(v["rules"]["juegos"], 1);
    let text = ok_text(&["sim", "mus", "--games", "2", "--juegos", "3"]);
    assert!(text.contains("juegos 3"), "{text}");
    let text = ok_text(&[
        "gauntlet",
        "tikki",
        "--a",
        "basico",
        "--against",
        "random",
        "--games",
        "2",
    ]);
    assert!(text.contains("rules: "), "{text}");
}

#[test]
fn leyes_of_one_hand_take_a_format_and_a_file() {
    let csv = ok_text(&["mus", "leyes", "RRCA", "--format", "csv"]);
    assert!(csv.starts_with("hand,position,grande"), "{csv}");
    assert_eq!(csv.lines().count(), 5, "a header and four positions: {csv}");
    let json = ok_text(&["mus", "leyes", "RRCA", "--format", "json"]);
    assert!(
        serde_json::from_str::<serde_json::Value>(&json).is_ok(),
        "{json}"
    );
    let path = tmp("one-hand.csv");
    let _ = std::fs::remove_file(&path);
    let p = path.to_str().expect("utf-8 path");
    ok_text(&["mus", "leyes", "RRCA", "--out", p]);
    assert_eq!(std::fs::read_to_string(&path).expect("written"), csv);
}

#[test]
#[cfg(target_os = "linux")]
fn an_output_file_is_checked_first_and_written_whole() {
    let missing = tmp("no-such-dir").join("leyes.csv");
    let m = missing.to_str().expect("utf-8 path");
    let e = input_error(&["mus", "leyes", "--all-hands", "--out", m]);
    assert!(e.contains("does not exist"), "{e}");
    assert!(!missing.exists());
    // A run stopped before its end leaves no file: the file appears only once whole. It
    // is stopped once it computes — its threads are up, so its check of the output path
    // is behind it — and long before the table is done (seconds of work).
    let path = tmp("all-hands.csv");
    let _ = std::fs::remove_file(&path);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tapete"))
        .args(["mus", "leyes", "--all-hands", "--out"])
        .arg(&path)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("runs");
    let tasks = format!("/proc/{}/task", child.id());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while std::fs::read_dir(&tasks).map_or(0, |d| d.count()) < 2 {
        assert!(
            child.try_wait().expect("waitable").is_none(),
            "it ended before it was stopped: nothing was checked"
        );
        assert!(
            std::time::Instant::now() < deadline,
            "it never started computing"
        );
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    assert!(
        child.try_wait().expect("waitable").is_none(),
        "it ended before it was stopped"
    );
    let _ = child.kill();
    let _ = child.wait();
    assert!(!path.exists(), "a file appeared before its table was whole");
    let dir = path.parent().expect("a directory");
    let parts = std::fs::read_dir(dir)
        .expect("listable")
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".part"))
        .count();
    assert_eq!(parts, 0, "a partial file was left behind");
}

#[test]
fn solitaire_odds_refuse_at_once_what_would_take_too_long() {
    for extra in [&["--types"][..], &["--distribution"][..], &[][..]] {
        let mut args = vec![
            "odds",
            "solitaire",
            "--suits",
            "4",
            "--values",
            "250",
            "--board",
            "200",
        ];
        args.extend_from_slice(extra);
        let e = input_error(&args);
        assert!(e.contains("word operations"), "{args:?}: {e}");
    }
    // The distribution is refused before the fraction is worked out, not after.
    let e = input_error(&[
        "odds",
        "solitaire",
        "--suits",
        "4",
        "--values",
        "52",
        "--board",
        "60",
        "--distribution",
    ]);
    assert!(e.contains("at most"), "{e}");
    // The classic game still answers, with every type.
    let v = ok_json(&["odds", "solitaire", "--types", "--distribution", "--json"]);
    assert_eq!(v["types"].as_array().map(Vec::len), Some(39));
}

#[test]
fn the_games_list_names_the_bot_play_seats() {
    let games = ok_json(&["games", "--json"]);
    for g in games.as_array().expect("a list") {
        let name = g["name"].as_str().expect("a name");
        let played = ok_json(&["play", name, "--seed", "1", "--json"]);
        let seated: Vec<&str> = played["bots"]
            .as_array()
            .expect("bots by seat")
            .iter()
            .filter_map(|b| b.as_str())
            .collect();
        assert!(!seated.is_empty(), "{name}: {played}");
        assert!(
            seated.iter().all(|b| *b == g["default_bot"]),
            "{name}: games says {} but play seats {seated:?}",
            g["default_bot"]
        );
        assert!(g["table_bot"].is_string(), "{name}: {g}");
    }
}
