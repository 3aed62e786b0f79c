//! `tapete mus leyes`, `mus tables` and `mus simulate`: published counts, exact fractions,
//! conditions and their errors, the all-hands table, and thread-independent simulation.

use crate::common;

use crate::common::{input_error, ok_json, ok_text};
use serde_json::Value;

/// The count of the row called `name` in a list of table rows.
fn count(rows: &Value, name: &str) -> u64 {
    rows.as_array()
        .expect("rows")
        .iter()
        .find(|r| r["name"] == name)
        .unwrap_or_else(|| panic!("no row {name}"))["count"]
        .as_u64()
        .expect("a count")
}

#[test]
fn tables_reproduce_the_published_counts() {
    let t = ok_json(&["mus", "tables", "--json"]);
    assert_eq!(t["total"], 91_390);
    assert_eq!(t["jugadas"].as_array().map(Vec::len), Some(330));
    let cat = &t["categories"];
    assert_eq!(count(cat, "pares"), 51_710);
    assert_eq!(count(cat, "duples"), 3_486);
    assert_eq!(count(cat, "medias"), 4_448);
    assert_eq!(count(cat, "pares sencillos"), 43_776);
    assert_eq!(count(cat, "juego"), 24_444);
    assert_eq!(count(cat, "31"), 8_384);
    assert_eq!(count(cat, "31 con pares"), 4_800);
    assert_eq!(count(cat, "sin juego"), 66_946);
    assert_eq!(count(cat, "30 al punto"), 3_024);
    assert_eq!(count(&t["juego"], "31"), 8_384);
    assert_eq!(count(&t["punto"], "30"), 3_024);
    assert_eq!(count(&t["jugadas"], "RRAA"), 784);
    let total: u64 = t["jugadas"]
        .as_array()
        .expect("jugadas")
        .iter()
        .map(|r| r["count"].as_u64().expect("a count"))
        .sum();
    assert_eq!(total, 91_390);

    let t4 = ok_json(&["mus", "tables", "--mode", "4reyes", "--json"]);
    assert_eq!(t4["jugadas"].as_array().map(Vec::len), Some(715));

    let text = ok_text(&["mus", "tables"]);
    for line in ["pares            51710", "31 con pares     4800"] {
        assert!(text.contains(line), "no `{line}` in\n{text}");
    }
}

/// A reduced fraction `n/d`.
fn fraction(v: &Value) -> (u128, u128) {
    let s = v
        .as_str()
        .unwrap_or_else(|| panic!("{v} is not a fraction"));
    let (n, d) = s.split_once('/').expect("n/d");
    let f = (
        n.parse().expect("numerator"),
        d.parse().expect("denominator"),
    );
    assert!(f.1 > 0 && f.0 <= f.1 * 10, "{s}");
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
fn sum(fs: &[(u128, u128)]) -> (u128, u128) {
    fs.iter().fold((0, 1), |(n, d), &(m, e)| {
        let g = gcd(d, e);
        let den = d / g * e;
        let num = n * (e / g) + m * (d / g);
        let r = gcd(num, den).max(1);
        (num / r, den / r)
    })
}

/// Walks the float object and its `exact` twin: every fraction equals its float.
fn check_floats(float: &Value, exact: &Value, path: &str) {
    match float {
        Value::Object(m) => {
            for (k, v) in m {
                check_floats(v, &exact[k], &format!("{path}.{k}"));
            }
        }
        Value::Array(a) => {
            for (i, v) in a.iter().enumerate() {
                check_floats(v, &exact[i], &format!("{path}[{i}]"));
            }
        }
        Value::Number(x) if exact.is_string() => {
            let (n, d) = fraction(exact);
            let x = x.as_f64().expect("a float");
            assert!(
                (x - n as f64 / d as f64).abs() < 1e-12,
                "{path}: {x} vs {n}/{d}"
            );
        }
        _ => assert_eq!(float, exact, "{path}"),
    }
}

#[test]
fn leyes_fractions_match_the_floats_and_add_up() {
    let l = ok_json(&[
        "mus",
        "leyes",
        "RRCA",
        "--partner",
        "RC7A",
        "--json",
        "--exact",
    ]);
    assert_eq!(l["hand"], "RRCA");
    assert_eq!(l["partner"], "RC7A");
    assert_eq!(l["mode"], "8reyes");
    let positions = l["positions"].as_array().expect("positions");
    assert_eq!(positions.len(), 4);
    for (i, p) in positions.iter().enumerate() {
        assert_eq!(p["position"], i);
        let e = &p["exact"];
        for key in [
            "grande", "chica", "pares", "juego", "punto", "players", "piedras",
        ] {
            check_floats(&p[key], &e[key], key);
        }
        let pares = ["win", "lose", "void"].map(|k| fraction(&e["pares"][k]));
        assert_eq!(sum(&pares), (1, 1), "pares at {i}");
        let cuarto = [
            fraction(&e["juego"]["win"]),
            fraction(&e["juego"]["lose"]),
            fraction(&e["punto"]["win"]),
            fraction(&e["punto"]["lose"]),
        ];
        assert_eq!(sum(&cuarto), (1, 1), "juego/punto at {i}");
        // Partner known: only the two opponents are unknown.
        let rel: Vec<&Value> = p["players"]
            .as_array()
            .expect("players")
            .iter()
            .map(|x| &x["relation"])
            .collect();
        assert_eq!(rel, ["next", "prev"]);
    }
    // Being mano never hurts at grande.
    let g = |i: usize| positions[i]["grande"].as_f64().expect("grande");
    assert!(g(0) >= g(3));

    let one = ok_json(&[
        "mus",
        "leyes",
        "RRCA",
        "--partner",
        "RC7A",
        "--position",
        "2",
        "--json",
    ]);
    let ps = one["positions"].as_array().expect("positions");
    assert_eq!(ps.len(), 1);
    assert_eq!(ps[0]["position"], 2);
    assert_eq!(ps[0]["grande"], positions[2]["grande"]);
    assert!(ps[0].get("exact").is_none());
}

#[test]
fn card_notation_gives_the_same_leyes() {
    let by_jugada = ok_json(&["mus", "leyes", "RRCA", "--partner", "RC7A", "--json"]);
    let by_cards = ok_json(&[
        "mus",
        "leyes",
        "12o 3c 11e 1b",
        "--partner",
        "12e 11c 7o 1c",
        "--json",
    ]);
    assert_eq!(by_jugada, by_cards);
    // Four single-card arguments too.
    let split = ok_json(&["mus", "leyes", "12o", "3c", "11e", "1b", "--json"]);
    let alone = ok_json(&["mus", "leyes", "RRCA", "--json"]);
    assert_eq!(split, alone);
    // A card in both hands is refused.
    let err = input_error(&["mus", "leyes", "12o 3c 11e 1b", "--partner", "12o 7c 5e 1o"]);
    assert!(err.contains("12o"), "{err}");
}

/// `relation → (pares, juego)` of the first position.
fn players(l: &Value) -> Vec<(String, f64, f64)> {
    l["positions"][0]["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| {
            (
                p["relation"].as_str().expect("relation").to_string(),
                p["pares"].as_f64().expect("pares"),
                p["juego"].as_f64().expect("juego"),
            )
        })
        .collect()
}

#[test]
fn declarations_condition_the_players() {
    let free = players(&ok_json(&["mus", "leyes", "RRCA", "--json"]));
    assert_eq!(free.len(), 3);
    for (_, pares, juego) in &free {
        assert!(*pares > 0.0 && *pares < 1.0 && *juego > 0.0 && *juego < 1.0);
    }
    let heard = ok_json(&[
        "mus",
        "leyes",
        "RRCA",
        "--pares",
        "next=yes,prev=no",
        "--juego",
        "partner=yes,next=no",
        "--json",
    ]);
    let p = players(&heard);
    let of = |r: &str| p.iter().find(|x| x.0 == r).expect("player").clone();
    assert_eq!((of("next").1, of("next").2), (1.0, 0.0));
    assert_eq!(of("prev").1, 0.0);
    assert!(of("prev").2 > 0.0 && of("prev").2 < 1.0);
    assert_eq!(of("partner").2, 1.0);
    assert_eq!(heard["conditions"]["pares"][0], "yes");
    assert_eq!(heard["conditions"]["pares"][2], "no");
    // Conditions change the leyes themselves.
    assert_ne!(
        heard["positions"][0]["pares"],
        ok_json(&["mus", "leyes", "RRCA", "--json"])["positions"][0]["pares"]
    );
}

#[test]
fn condition_errors_are_clear() {
    let err = input_error(&[
        "mus",
        "leyes",
        "RRCA",
        "--partner",
        "RC7A",
        "--pares",
        "partner=yes",
    ]);
    assert!(err.contains("partner"), "{err}");

    // With every caballo and sota in our hands, the only figures left are reyes: a hand
    // with juego but no pares needs two different figures, so nobody can hold one.
    let args = [
        "mus",
        "leyes",
        "CCCC",
        "--partner",
        "SSSS",
        "--pares",
        "next=no",
        "--juego",
        "next=yes",
        "--json",
    ];
    let err = input_error(&args);
    assert!(err.contains("no deal satisfies"), "{err}");
    let out = common::tapete(&args, "");
    let v: Value = serde_json::from_slice(&out.stdout).expect("a JSON error");
    assert_eq!(v["kind"], "input");
    assert!(v["error"]
        .as_str()
        .is_some_and(|e| e.contains("juego next=yes")));

    let err = input_error(&["mus", "leyes", "RRCA", "--pares", "next=maybe"]);
    assert!(err.contains("`maybe`"), "{err}");
    let err = input_error(&["mus", "leyes", "RRCA", "--juego", "foo=yes"]);
    assert!(
        err.contains("`foo`") && err.contains("next, prev or partner"),
        "{err}"
    );
    let err = input_error(&["mus", "leyes", "RRCA", "--pares", "next"]);
    assert!(err.contains("WHO=yes"), "{err}");
    let err = input_error(&["mus", "leyes", "RRCA", "--pares", "next=yes,next=no"]);
    assert!(err.contains("both"), "{err}");
    let err = input_error(&[
        "mus",
        "leyes",
        "RRCA",
        "--partner",
        "RRRR",
        "--mode",
        "4reyes",
    ]);
    assert!(err.contains("reyes"), "{err}");
    input_error(&["mus", "leyes", "RRCA", "--position", "4"]);
    input_error(&["mus", "leyes", "RRXA"]);
}

#[test]
fn leyes_text_is_a_table_per_position() {
    let text = ok_text(&["mus", "leyes", "RRCA", "--pares", "next=yes", "--exact"]);
    let grande = text
        .lines()
        .find(|l| l.starts_with("grande"))
        .expect("a grande row");
    assert_eq!(grande.matches('%').count(), 4, "{grande}");
    assert!(text.contains("heard: pares next=yes"));
    assert!(text.contains("unknown player"));
    assert!(text.contains("expected piedras en paso"));
    assert_eq!(text.matches("exact, position").count(), 4);
    assert!(!text.contains("NaN"));
}

#[test]
fn all_hands_csv_has_a_row_per_hand_and_position() {
    let out = common::tapete(&["mus", "leyes", "--all-hands", "--format", "csv"], "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = String::from_utf8(out.stdout).expect("utf-8");
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some(
            "hand,position,grande,chica,pares_win,pares_lose,pares_void,juego_win,juego_lose,\
             punto_win,punto_lose,piedras_us,piedras_them"
        )
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 330 * 4);
    let mut hands = std::collections::HashSet::new();
    for r in &rows {
        assert_eq!(r.len(), 13, "{r:?}");
        hands.insert(r[0]);
        let x: Vec<f64> = r[2..]
            .iter()
            .map(|c| c.parse().expect("a number"))
            .collect();
        assert!((x[2] + x[3] + x[4] - 1.0).abs() < 1e-9, "{r:?}");
        assert!((x[5] + x[6] + x[7] + x[8] - 1.0).abs() < 1e-9, "{r:?}");
    }
    assert_eq!(hands.len(), 330);
    let rrcc: Vec<_> = rows.iter().filter(|r| r[0] == "RRCA").collect();
    assert_eq!(rrcc.len(), 4);
    // The same numbers as the single-hand command.
    let one = ok_json(&["mus", "leyes", "RRCA", "--position", "1", "--json"]);
    let g: f64 = rrcc[1][2].parse().expect("grande");
    assert_eq!(Some(g), one["positions"][0]["grande"].as_f64());
    assert!(String::from_utf8_lossy(&out.stderr).contains("330 hands"));
}

#[test]
fn simulate_does_not_depend_on_threads() {
    let run = |threads: &str| {
        let mut v = ok_json(&[
            "mus",
            "simulate",
            "--deals",
            "200000",
            "--seed",
            "1",
            "--threads",
            threads,
            "--json",
        ]);
        assert_eq!(v["timing"]["threads"], threads.parse::<u64>().expect("n"));
        v.as_object_mut().expect("object").remove("timing");
        v
    };
    let one = run("1");
    let two = run("2");
    assert_eq!(one, two);
    assert_eq!(one["deals"], 200_000);
    let jugadas = one["jugadas"].as_array().expect("jugadas");
    assert_eq!(jugadas.len(), 330);
    let mut common = 0;
    for j in jugadas {
        let exact = j["exact"].as_f64().expect("exact");
        if exact >= 0.01 {
            common += 1;
            let err = j["relative_error"].as_f64().expect("error");
            assert!(err < 0.05, "{}: {err}", j["jugada"]);
        }
        for g in j["gain"]
            .as_array()
            .expect("gains")
            .iter()
            .flat_map(|g| g.as_object())
        {
            let mean = g["mean"].as_f64().expect("mean");
            let ci = g["ci95"].as_array().expect("ci");
            assert!(ci[0].as_f64() <= Some(mean) && Some(mean) <= ci[1].as_f64());
        }
    }
    assert!(common > 10);

    let text = ok_text(&["mus", "simulate", "--deals", "10000", "--no-gains"]);
    assert!(text.contains("rel. error") && !text.contains("gain 0"));
    input_error(&["mus", "simulate", "--deals", "0"]);
    input_error(&["mus", "simulate", "--deals", "10", "--threads", "0"]);
}
