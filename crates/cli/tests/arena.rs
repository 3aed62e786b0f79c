//! `tapete arena mus`: the report's keys and sums, independence from the thread count, and
//! bots speaking the protocol — the example Python bot cleanly, broken ones with
//! incidents but complete games.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tapete(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tapete"))
        .args(args)
        .output()
        .expect("the tapete binary runs")
}

fn arena(extra: &[&str]) -> Value {
    let mut args = vec!["arena", "mus", "--json"];
    args.extend_from_slice(extra);
    let out = tapete(&args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"))
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// A directory of its own for this test's scripts.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tapete-arena-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, body).expect("write script");
    path.display().to_string()
}

#[test]
fn report_has_its_keys_and_adds_up() {
    let v = arena(&[
        "--a", "basico", "--b", "random", "--games", "60", "--seed", "5",
    ]);
    for key in [
        "games",
        "a_wins",
        "b_wins",
        "a_win_rate",
        "ci95",
        "piedras_per_hand",
        "lances",
        "incidents",
        "timing",
    ] {
        assert!(v.get(key).is_some(), "missing `{key}` in {v}");
    }
    assert_eq!(u(&v["games"]), 60);
    assert_eq!(u(&v["a_wins"]) + u(&v["b_wins"]), 60, "{v}");
    let rate = f(&v["a_win_rate"]);
    assert!((rate - u(&v["a_wins"]) as f64 / 60.0).abs() < 1e-12);
    let (low, high) = (f(&v["ci95"][0]), f(&v["ci95"][1]));
    assert!(
        0.0 <= low && low <= rate && rate <= high && high <= 1.0,
        "{v}"
    );
    // Seats alternate: each side is first mano in half the games.
    assert_eq!(u(&v["a_first"]), 30);
    assert!(f(&v["piedras_per_hand"]["a"]) > 0.0);
    assert!(f(&v["piedras_per_hand"]["b"]) > 0.0);
    assert_eq!(u(&v["incidents"]["count"]), 0);
    let mut ordagos = 0;
    for lance in ["grande", "chica", "pares", "juego", "punto"] {
        let l = &v["lances"][lance];
        assert!(u(&l["bet"]) <= u(&l["settled"]), "{lance}: {l}");
        assert!(u(&l["accepted"]) <= u(&l["bet"]), "{lance}: {l}");
        assert_eq!(u(&l["opened"]["a"]) + u(&l["opened"]["b"]), u(&l["bet"]));
        assert_eq!(
            u(&l["ordago_won"]["a"]) + u(&l["ordago_won"]["b"]),
            u(&l["ordago"])
        );
        ordagos += u(&l["ordago"]);
    }
    assert_eq!(
        ordagos,
        u(&v["ordago_wins"]["a"]) + u(&v["ordago_wins"]["b"])
    );
    // basico beats random clearly, even over 60 games.
    assert!(low > 0.5, "{v}");
    assert!(f(&v["timing"]["games_per_second"]) > 0.0);
}

#[test]
fn results_do_not_depend_on_threads() {
    let base = [
        "--a", "random", "--b", "basico", "--games", "40", "--seed", "9",
    ];
    let mut one = arena(&[&base[..], &["--threads", "1"]].concat());
    let mut two = arena(&[&base[..], &["--threads", "2"]].concat());
    assert_eq!(u(&one["timing"]["threads"]), 1);
    assert_eq!(u(&two["timing"]["threads"]), 2);
    one.as_object_mut().map(|o| o.remove("timing"));
    two.as_object_mut().map(|o| o.remove("timing"));
    assert_eq!(one, two);
}

#[test]
fn text_report_names_sides_interval_and_speed() {
    let out = tapete(&[
        "arena", "mus", "--a", "basico", "--b", "random", "--games", "10", "--target", "30",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for needle in [
        "A (basico) against B (random)",
        "95% confidence interval",
        "bot protocol: no incidents",
        "games/s",
        "grande",
    ] {
        assert!(text.contains(needle), "`{needle}` not in:\n{text}");
    }
}

#[test]
fn bad_options_exit_with_2() {
    for args in [
        vec![
            "arena", "mus", "--a", "basico", "--b", "genius", "--games", "5",
        ],
        vec![
            "arena", "mus", "--a", "basico", "--b", "random", "--games", "0",
        ],
        vec!["arena", "mus", "--a", "basico", "--games", "5"],
        vec![
            "arena", "mus", "--a", "basico", "--b", "random", "--games", "5", "--target", "35",
        ],
        vec![
            "arena",
            "mus",
            "--a",
            "basico",
            "--b",
            "random",
            "--games",
            "5",
            "--threads",
            "0",
        ],
        vec![
            "arena", "mus", "--a", "cmd:", "--b", "random", "--games", "5",
        ],
        vec![
            "arena",
            "mus",
            "--a",
            "basico",
            "--b",
            "random",
            "--games",
            "5",
            "--bot-timeout",
            "0",
        ],
    ] {
        let out = tapete(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn the_python_example_plays_through_the_protocol_without_incidents() {
    let bot = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/python/mus_bot.py")
        .display()
        .to_string();
    let cmd = format!("cmd:python3 '{bot}'");
    let v = arena(&["--a", &cmd, "--b", "random", "--games", "4", "--seed", "11"]);
    assert_eq!(u(&v["a_wins"]) + u(&v["b_wins"]), 4, "{v}");
    assert_eq!(u(&v["incidents"]["count"]), 0, "{}", v["incidents"]);
    // The command is kept as written, case and quotes included.
    assert_eq!(v["bots"]["a"], serde_json::json!(cmd));
    // As every seat in sim, too.
    let out = tapete(&["sim", "mus", "--games", "1", "--bots", &cmd, "--json"]);
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(u(&v["incidents"]["count"]), 0, "{}", v["incidents"]);
}

/// Plays 2 games with `bot` as side A and checks they complete with incidents whose
/// messages contain `expect`.
fn misbehaving(bot: &str, expect: &str, extra: &[&str]) -> Value {
    let cmd = format!("cmd:{bot}");
    let mut args = vec!["--a", &cmd, "--b", "random", "--games", "2", "--seed", "3"];
    args.extend_from_slice(extra);
    let v = arena(&args);
    assert_eq!(u(&v["a_wins"]) + u(&v["b_wins"]), 2, "{v}");
    let inc = &v["incidents"];
    assert!(u(&inc["count"]) > 0, "{v}");
    assert_eq!(u(&inc["games"]), 2, "{inc}");
    let list = inc["list"].as_array().expect("a list");
    for i in list {
        assert_eq!(i["side"], "A", "{i}");
        let msg = i["message"].as_str().unwrap_or_default();
        assert!(msg.contains(expect), "`{expect}` not in: {msg}");
    }
    v
}

#[test]
fn a_bot_answering_garbage_gets_errors_and_the_game_goes_on() {
    let dir = scratch("garbage");
    let bot = script(
        &dir,
        "garbage.sh",
        "while read -r line; do echo 'I would rather not'; done\n",
    );
    let v = misbehaving(&format!("sh {bot}"), "not JSON", &[]);
    let first = v["incidents"]["list"][0]["message"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(first.contains("3 bad answers"), "{first}");
    assert!(first.contains("was played at random"), "{first}");
}

#[test]
fn a_bot_answering_illegal_actions_is_told_why() {
    let dir = scratch("illegal");
    // Reads each request and answers an action that is never legal there.
    let bot = script(
        &dir,
        "illegal.py",
        r#"import json, sys
legal = []
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "act":
        legal = msg["legal"]
    if msg["type"] in ("act", "error"):
        wrong = "paso" if "mus" in legal else "mus"
        print(json.dumps({"id": msg["id"], "action": wrong}), flush=True)
    elif msg["type"] == "end":
        break
"#,
    );
    misbehaving(&format!("python3 {bot}"), "is not legal now", &[]);
}

#[test]
fn a_bot_that_exits_is_replaced_and_its_last_words_reported() {
    let dir = scratch("exits");
    let bot = script(&dir, "exits.sh", "echo 'no cards for me' >&2\nexit 3\n");
    misbehaving(&format!("sh {bot}"), "no cards for me", &[]);
    // The program that cannot even start stops the arena: no results stand in for it.
    let err = refused(&[
        "arena",
        "mus",
        "--a",
        "cmd:/nonexistent/tapete-bot",
        "--b",
        "random",
        "--games",
        "2",
    ]);
    assert!(err.contains("cannot start the program"), "{err}");
}

#[test]
fn a_bot_that_does_not_answer_in_time_is_stopped() {
    let v = misbehaving(
        "sleep 30",
        "no answer to request 1 within 0.3 s",
        &["--bot-timeout", "0.3"],
    );
    // At most one incident per seat and game (a seat may never be asked, if an órdago
    // ends the game first): after it the seat plays at random.
    let n = u(&v["incidents"]["count"]);
    assert!((2..=4).contains(&n), "{}", v["incidents"]);
}

#[test]
fn incidents_show_in_the_text_report() {
    let dir = scratch("text");
    let bot = script(&dir, "exits.sh", "exit 1\n");
    let cmd = format!("cmd:sh {bot}");
    let out = tapete(&["arena", "mus", "--a", &cmd, "--b", "random", "--games", "1"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("bot protocol: 2 incidents in 1 game"),
        "{text}"
    );
    assert!(text.contains("a random player takes the seat"), "{text}");
}

/// Runs a command that must fail; answers what it said on stderr.
fn refused(args: &[&str]) -> String {
    let out = tapete(args);
    assert!(!out.status.success(), "{args:?} should fail");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A successful command's JSON answer.
fn ok_json(out: &std::process::Output) -> Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

/// The opponents a gauntlet's JSON names, in order.
fn opponent_names(v: &Value) -> Vec<&str> {
    v["opponents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["b"].as_str().unwrap())
        .collect()
}

#[test]
fn a_gauntlet_plays_a_sample_of_umbral_members_and_sums_them() {
    let out = tapete(&[
        "gauntlet",
        "mus",
        "--a",
        "basico",
        "--against",
        "umbral:3,random,umbral:tight,cut=never",
        "--games",
        "4",
        "--seed",
        "2",
        "--target",
        "30",
        "--json",
    ]);
    let v = ok_json(&out);
    let names = opponent_names(&v);
    assert_eq!(
        names,
        [
            "umbral:seed=1",
            "umbral:seed=2",
            "umbral:seed=3",
            "random",
            "umbral:tight,cut=never"
        ]
    );
    let sample = &v["samples"][0];
    assert_eq!(sample["name"], "umbral:3");
    assert_eq!(u(&sample["members"]), 3);
    assert_eq!(u(&sample["games"]), 12);
    let members = &v["opponents"].as_array().unwrap()[..3];
    let wins: u64 = members.iter().map(|l| u(&l["a_wins"])).sum();
    assert_eq!(u(&sample["a_wins"]), wins);
    assert_eq!(
        v["samples"].as_array().unwrap().len(),
        1,
        "random and umbral:tight,cut=never are one player each"
    );
    // A sample too large, or of a player that is no family, is refused by name.
    let err = refused(&[
        "gauntlet",
        "mus",
        "--a",
        "basico",
        "--against",
        "umbral:0",
        "--games",
        "1",
    ]);
    assert!(
        err.contains("umbral:0: a sample is from 1 to 1000"),
        "{err}"
    );
}

#[test]
fn a_gauntlet_is_one_arena_per_opponent() {
    // Each line equals the arena of the same pair and seed.
    let out = tapete(&[
        "gauntlet",
        "mus",
        "--a",
        "basico",
        "--against",
        "random,pasivo",
        "--games",
        "12",
        "--seed",
        "3",
        "--target",
        "30",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    let lines = v["opponents"].as_array().expect("a line per opponent");
    assert_eq!(lines.len(), 2);
    for line in lines {
        let b = line["b"].as_str().unwrap();
        let alone = arena(&[
            "--a", "basico", "--b", b, "--games", "12", "--seed", "3", "--target", "30",
        ]);
        assert_eq!(line["a_wins"], alone["a_wins"], "against {b}");
        assert_eq!(line["ci95"], alone["ci95"], "against {b}");
        assert_eq!(u(&line["games"]), 12);
    }
    assert_eq!(f(&v["fair_share"]), 0.5);

    // Without --against: every built-in player but itself and maestro, styles included.
    let out = tapete(&["gauntlet", "mus", "--a", "basico", "--games", "1", "--json"]);
    let v = ok_json(&out);
    let names = opponent_names(&v);
    assert!(
        names.contains(&"experto") && names.contains(&"cortamus"),
        "{names:?}"
    );
    assert!(
        !names.contains(&"basico") && !names.contains(&"maestro"),
        "{names:?}"
    );

    // An unknown opponent is refused before any game, naming the choices.
    let out = tapete(&[
        "gauntlet",
        "mus",
        "--a",
        "basico",
        "--against",
        "random,genius",
        "--games",
        "5",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("genius"));
}
