//! `tapete odds solitaire`: the exact fraction and its decimal, the per-type breakdown and
//! the distribution adding up to 1, the simulation against the exact answer, and
//! degenerate or impossible parameters answered or refused.

use crate::common;

use crate::common::{input_error, ok_json, ok_text};
use serde_json::Value;

/// A reduced fraction `n/d` (small enough for `u128` here).
fn fraction(v: &Value) -> (u128, u128) {
    let s = v
        .as_str()
        .unwrap_or_else(|| panic!("{v} is not a fraction"));
    let (n, d) = s.split_once('/').expect("n/d");
    let f: (u128, u128) = (
        n.parse().expect("numerator"),
        d.parse().expect("denominator"),
    );
    assert!(f.1 > 0 && gcd(f.0, f.1) == 1, "{s} is not reduced");
    f
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Exact sum of fractions, reduced.
fn sum(fs: impl IntoIterator<Item = (u128, u128)>) -> (u128, u128) {
    fs.into_iter().fold((0, 1), |(n, d), (m, e)| {
        let g = gcd(d, e);
        let den = d / g * e;
        let num = n * (e / g) + m * (d / g);
        let r = gcd(num, den).max(1);
        (num / r, den / r)
    })
}

#[test]
fn the_classic_game_as_a_fraction_and_a_decimal() {
    let v = ok_json(&["odds", "solitaire", "--json"]);
    assert_eq!(v["fraction"], "964444044208/262190765217675");
    let p = v["probability"].as_f64().expect("probability");
    assert!((p - 964_444_044_208.0 / 262_190_765_217_675.0).abs() < 1e-18);
    for (key, want) in [("suits", 4), ("values", 13), ("board", 13), ("pick", 13)] {
        assert_eq!(v[key], want, "{key}");
    }
    assert_eq!(v["deck"], 52);
    assert_eq!(v["real_game"], true);
    for key in ["simulated", "stderr", "types", "distribution"] {
        assert!(v.get(key).is_none(), "{key} only when asked");
    }
    // The same through the explicit defaults.
    let same = ok_json(&[
        "odds",
        "solitaire",
        "--suits",
        "4",
        "--values",
        "13",
        "--board",
        "13",
        "--pick",
        "13",
        "--json",
    ]);
    assert_eq!(same, v);

    let text = ok_text(&["odds", "solitaire"]);
    assert!(
        text.contains("964444044208/262190765217675 = 0.0036784058485328534"),
        "{text}"
    );
    assert!(text.contains("13 third cards of the 39 left"), "{text}");
}

#[test]
fn types_add_up_to_one_and_to_the_answer() {
    let v = ok_json(&["odds", "solitaire", "--types", "--json"]);
    let ts = v["types"].as_array().expect("types");
    assert_eq!(ts.len(), 39);
    assert_eq!(ts[0]["parts"], serde_json::json!([4, 4, 4, 1]));
    assert_eq!(sum(ts.iter().map(|t| fraction(&t["fraction"]))), (1, 1));
    for t in ts {
        let parts: Vec<u64> = t["parts"]
            .as_array()
            .expect("parts")
            .iter()
            .map(|x| x.as_u64().expect("a part"))
            .collect();
        assert_eq!(parts.iter().sum::<u64>(), 13);
        let (n, d) = fraction(&t["win_fraction"]);
        let win = t["win"].as_f64().expect("win");
        assert!((win - n as f64 / d as f64).abs() < 1e-15);
        assert_eq!(
            n == 0,
            parts[0] == 4,
            "{parts:?}: a full stack cannot be won"
        );
    }
    let text = ok_text(&["odds", "solitaire", "--types"]);
    assert!(text.contains("39 table types"), "{text}");
    let header = text
        .lines()
        .find(|l| l.starts_with("type"))
        .expect("a header");
    assert!(header.contains("win given it"), "{header}");
    assert!(text
        .lines()
        .any(|l| l.starts_with("1 1 1 1 1 1 1 1 1 1 1 1 1 ")));
}

#[test]
fn the_distribution_adds_up_and_starts_with_the_win() {
    let v = ok_json(&["odds", "solitaire", "--distribution", "--json"]);
    let d = &v["distribution"];
    for key in ["stacks", "cards"] {
        let rows = d[key].as_array().expect("rows");
        assert_eq!(rows.len(), 14, "{key}: 0 to 13");
        assert_eq!(sum(rows.iter().map(|r| fraction(&r["fraction"]))), (1, 1));
        assert_eq!(rows[0]["left"], 0);
        assert_eq!(rows[0]["fraction"], v["fraction"], "nothing left is a win");
        let mean: f64 = rows
            .iter()
            .map(|r| r["left"].as_f64().expect("left") * r["probability"].as_f64().expect("p"))
            .sum();
        let said = d[format!("mean_{key}")].as_f64().expect("a mean");
        assert!((mean - said).abs() < 1e-9, "{key}: {mean} vs {said}");
    }
    let text = ok_text(&["odds", "solitaire", "--distribution"]);
    assert!(
        text.contains("stacks left when the deck runs out"),
        "{text}"
    );
    assert!(text.contains("cards left when the deck runs out"), "{text}");
}

#[test]
fn the_simulation_agrees_and_does_not_depend_on_threads() {
    let run = |threads: &str| {
        let mut v = ok_json(&[
            "odds",
            "solitaire",
            "--simulate",
            "100000",
            "--seed",
            "5",
            "--threads",
            threads,
            "--json",
        ]);
        assert_eq!(v["timing"]["threads"], threads.parse::<u64>().expect("n"));
        v.as_object_mut().expect("object").remove("timing");
        v
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    assert_eq!(one["games"], 100_000);
    assert_eq!(one["seed"], 5);
    let rate = one["simulated"].as_f64().expect("simulated");
    let se = one["stderr"].as_f64().expect("stderr");
    let exact = one["probability"].as_f64().expect("probability");
    assert!(
        se > 0.0 && (rate - exact).abs() <= 4.0 * se,
        "{rate} ± {se}"
    );
    let z = one["z"].as_f64().expect("z");
    assert!((z - (rate - exact) / se).abs() < 1e-9);
    assert_eq!(
        one["wins"].as_u64().map(|w| w as f64 / 100_000.0),
        Some(rate)
    );

    let text = ok_text(&["odds", "solitaire", "--simulate", "20000"]);
    assert!(
        text.contains("simulated 20,000 real games (seed 0)"),
        "{text}"
    );
    assert!(
        text.contains("standard errors from the exact answer"),
        "{text}"
    );
    // An empty table: every game is won, standard error 0, right on the answer.
    let v = ok_json(&[
        "odds",
        "solitaire",
        "--board",
        "0",
        "--simulate",
        "1000",
        "--json",
    ]);
    assert_eq!(
        (v["simulated"].as_f64(), v["z"].as_f64()),
        (Some(1.0), Some(0.0))
    );
}

#[test]
fn other_decks_and_degenerate_tables_are_answered() {
    let f = |args: &[&str]| {
        let mut all = vec!["odds", "solitaire", "--json"];
        all.extend_from_slice(args);
        ok_json(&all)["fraction"].clone()
    };
    assert_eq!(
        f(&["--suits", "4", "--values", "3", "--board", "4", "--pick", "4"]),
        "3394/5775"
    );
    assert_eq!(f(&["--board", "0"]), "1/1");
    assert_eq!(f(&["--pick", "0"]), "0/1");
    assert_eq!(f(&["--board", "52"]), "0/1");
    // Without --pick, the real game's: 52 − 10 = 42 cards left, 14 third cards.
    let v = ok_json(&["odds", "solitaire", "--board", "10", "--json"]);
    assert_eq!(
        (v["pick"].as_u64(), v["real_game"].as_bool()),
        (Some(14), Some(true))
    );
    let v = ok_json(&["odds", "solitaire", "--pick", "12", "--json"]);
    assert_eq!(v["real_game"], false);
    let text = ok_text(&["odds", "solitaire", "--pick", "12"]);
    assert!(
        text.contains("the real game turns 13 third cards"),
        "{text}"
    );
    // Two decks: the fraction needs more than 64 bits, the JSON still carries it whole.
    let v = ok_json(&[
        "odds",
        "solitaire",
        "--suits",
        "8",
        "--board",
        "26",
        "--json",
    ]);
    let s = v["fraction"].as_str().expect("a fraction");
    assert!(s.len() > 40, "{s}");
}

#[test]
fn impossible_parameters_are_refused_by_name() {
    let err = input_error(&["odds", "solitaire", "--pick", "40"]);
    assert!(err.contains("only 39 are left"), "{err}");
    let err = input_error(&["odds", "solitaire", "--board", "53"]);
    assert!(err.contains("53"), "{err}");
    let err = input_error(&["odds", "solitaire", "--suits", "0"]);
    assert!(err.contains("suit"), "{err}");
    let err = input_error(&["odds", "solitaire", "--values", "0"]);
    assert!(err.contains("value"), "{err}");
    let err = input_error(&["odds", "solitaire", "--suits", "100", "--values", "100"]);
    assert!(err.contains("at most 1000"), "{err}");
    let err = input_error(&["odds", "solitaire", "--pick", "10", "--simulate", "100"]);
    assert!(err.contains("pick must be 13"), "{err}");
    let err = input_error(&["odds", "solitaire", "--simulate", "0"]);
    assert!(err.contains("at least one game"), "{err}");
    input_error(&["odds", "solitaire", "--suits", "-1"]);
    input_error(&["odds", "solitaire", "--simulate", "10", "--threads", "0"]);

    let out = common::tapete(&["odds", "solitaire", "--pick", "40", "--json"], "");
    assert_eq!(out.status.code(), Some(2));
    let v: Value = serde_json::from_slice(&out.stdout).expect("a JSON error");
    assert_eq!(v["kind"], "input");
    assert!(v["error"].as_str().is_some_and(|e| e.contains("pick 40")));
}
