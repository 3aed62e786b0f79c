//! `tapete mus eval` on the spec's worked examples, in text and JSON, and its errors.

use serde_json::Value;
use std::process::{Command, Output};

fn tapete(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tapete"))
        .args(args)
        .output()
        .expect("the tapete binary runs")
}

fn eval_json(hands: &str) -> Value {
    let mut args = vec!["mus", "eval", "--json"];
    args.extend(hands.split_whitespace());
    let out = tapete(&args);
    assert!(
        out.status.success(),
        "{hands}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

fn eval_text(hands: &str) -> String {
    let mut args = vec!["mus", "eval"];
    args.extend(hands.split_whitespace());
    let out = tapete(&args);
    assert!(
        out.status.success(),
        "{hands}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// The winner column of the text row for `lance`.
fn text_winner(text: &str, lance: &str) -> String {
    let line = text
        .lines()
        .find(|l| l.split_whitespace().next() == Some(lance))
        .unwrap_or_else(|| panic!("no {lance} row in\n{text}"));
    line.split_whitespace()
        .nth(1)
        .unwrap_or_default()
        .to_string()
}

#[test]
fn spec_examples_json() {
    let cases: &[(&str, &str, Value)] = &[
        ("S777 SSSA 754A C54A", "grande", 3.into()),
        ("S777 SSSA 754A C54A", "chica", 2.into()),
        ("5444 7655 7654 RCSA", "chica", 3.into()),
        ("RAAA 44AA RAAA CS77", "chica", 0.into()),
        ("RRRC 44AA RAAA CS77", "pares", 1.into()),
        ("RR4A 7654 RRCS RRSA", "pares", 0.into()),
        ("RRR4 44AA RAAA CS75", "juego", 3.into()),
        ("RR4A R777 RCSA RRSA", "juego", 1.into()),
        ("RRAA 44AA RC55 RC44", "punto", 2.into()),
        ("RR4A R764 AAAA RR6A", "punto", 1.into()),
        ("RRAA 44AA RC55 RC44", "juego", Value::Null),
        ("RR4A R777 RCSA RRSA", "punto", Value::Null),
    ];
    for (hands, lance, want) in cases {
        let v = eval_json(hands);
        assert_eq!(&v[lance], want, "{hands} {lance}: {v}");
    }
}

#[test]
fn json_has_the_documented_keys() {
    let v = eval_json("S777 SSSA 754A C54A");
    for key in [
        "grande",
        "chica",
        "pares",
        "juego",
        "punto",
        "pares_bet",
        "juego_bet",
        "cuenta",
        "en_paso",
        "reasons",
        "hands",
    ] {
        assert!(v.get(key).is_some(), "missing {key}: {v}");
    }
    assert_eq!(v["cuenta"].as_array().map(Vec::len), Some(2));
    assert!(v["pares_bet"].is_boolean() && v["juego_bet"].is_boolean());
    // Each pair collects its cuenta, plus grande and chica when everything goes en paso.
    let sum = |k: &str| v[k][0].as_u64().unwrap_or(0) + v[k][1].as_u64().unwrap_or(0);
    assert_eq!(sum("en_paso"), sum("cuenta") + 2);
}

#[test]
fn unbet_lances() {
    // Only pair 0–2 holds pares: it takes the lance without betting.
    let v = eval_json("5444 7654 77AA RCSA");
    assert_eq!(v["pares_bet"], false);
    assert_eq!(v["pares"].as_u64().map(|p| p % 2), Some(0));
    // Only position 3 holds juego (40).
    let v = eval_json("5444 7654 77AA RCSS");
    assert_eq!(v["juego_bet"], false);
    assert_eq!(v["juego"], 3);
    let t = eval_text("5444 7654 77AA RCSA");
    assert!(t.contains("unbet: pair 0–2 takes it"), "{t}");
}

#[test]
fn spec_examples_text() {
    let t = eval_text("S777 SSSA 754A C54A");
    assert_eq!(text_winner(&t, "grande"), "3");
    assert_eq!(text_winner(&t, "chica"), "2");
    assert_eq!(text_winner(&eval_text("RRRC 44AA RAAA CS77"), "pares"), "1");
    assert_eq!(text_winner(&eval_text("RR4A R777 RCSA RRSA"), "juego"), "1");
    assert_eq!(text_winner(&eval_text("RRAA 44AA RC55 RC44"), "punto"), "2");
    let t = eval_text("RRAA 44AA RC55 RC44");
    assert!(t.contains("cuenta"), "{t}");
}

#[test]
fn cards_as_one_argument_each() {
    let out = tapete(&[
        "mus",
        "eval",
        "--json",
        "12o 3c 11e 1b",
        "7o 7c 7e 10o",
        "5o 4o 1o 1c",
        "6o 6c 5c 5e",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["hands"][0], "RRCA");
    assert_eq!(v["juego"], 0);
}

#[test]
fn impossible_deal_is_refused() {
    let out = tapete(&["mus", "eval", "RRCC", "RRRA", "RCCC", "RCSA"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("not a possible deal") && err.contains("6 caballos"),
        "{err}"
    );
    // The spec's second grande example holds 5 caballos: an illustration, not a deal.
    let out = tapete(&["mus", "eval", "RAAA", "CCCC", "RAAA", "CS77"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("5 caballos"));
    let out = tapete(&[
        "mus",
        "eval",
        "12o 3c 11e 1b",
        "12o 3e 11c 1c",
        "754A",
        "C54A",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("12o appears twice"));
}

#[test]
fn bad_input_names_the_problem() {
    let out = tapete(&["mus", "eval", "13o 3c 11e 1b", "SSSA", "754A", "C54A"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("13o"), "{err}");
    let out = tapete(&["mus", "eval", "--json", "RRCX", "SSSA", "754A", "C54A"]);
    assert_eq!(out.status.code(), Some(2));
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON error");
    assert!(
        v["error"].as_str().unwrap_or_default().contains("RRCX"),
        "{v}"
    );
    let out = tapete(&["mus", "eval", "RRCA", "SSSA"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("four hands"));
    let out = tapete(&[
        "mus", "eval", "--mode", "9reyes", "RRCA", "SSSA", "754A", "C54A",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("9reyes"));
}

#[test]
fn real31_and_four_reyes() {
    // S777 is a 31 real: with the option it beats the mano's plain 31.
    assert_eq!(eval_json("RCSA S777 RRAA 44AA")["juego"], 0);
    let out = tapete(&[
        "mus", "eval", "--json", "--real31", "RCSA", "S777", "RRAA", "44AA",
    ]);
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["juego"], 1, "{v}");
    // In 4 reyes a 3 is a three: 3332 has medias de treses, not reyes.
    let out = tapete(&[
        "mus", "eval", "--json", "--mode", "4reyes", "3332", "7654", "RCSA", "7652",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["hands"][0], "3332");
    assert_eq!(v["pares"], 0);
    assert_eq!(v["grande"], 2);
}
