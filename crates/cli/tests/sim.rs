//! `tapete sim mus`: counts add up and do not depend on the number of threads.

use serde_json::Value;
use std::process::Command;

fn sim(extra: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_tapete"))
        .args([
            "sim", "mus", "--games", "50", "--seed", "1", "--json", "--bots", "random",
        ])
        .args(extra)
        .output()
        .expect("the tapete binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"))
}

#[test]
fn fifty_random_games_have_sensible_stats() {
    let v = sim(&["--threads", "2"]);
    assert_eq!(u(&v["games"]), 50);
    assert_eq!(u(&v["wins"][0]) + u(&v["wins"][1]), 50, "{v}");
    assert!(u(&v["hands"]) >= 50);
    assert!(v["hands_per_game"].as_f64().unwrap_or(0.0) >= 1.0);
    let ordago_wins = u(&v["ordago_wins"]["a"]) + u(&v["ordago_wins"]["b"]);
    assert!(ordago_wins <= 50);
    assert!(v["piedras_per_hand"]["a"].as_f64().is_some());
    for lance in ["grande", "chica", "pares", "juego", "punto"] {
        let l = &v["lances"][lance];
        assert!(u(&l["bet"]) <= u(&l["settled"]), "{lance}: {l}");
        assert!(u(&l["accepted"]) <= u(&l["bet"]), "{lance}: {l}");
        assert!(u(&l["ordago"]) <= u(&l["accepted"]), "{lance}: {l}");
        assert_eq!(
            u(&l["settled"]),
            u(&l["accepted"])
                + u(&l["declined"])
                + u(&l["en_paso"])
                + u(&l["unbet"])
                + u(&l["void"]),
            "{lance}: {l}"
        );
    }
    // Every hand plays grande unless an earlier órdago ended it; never more than once.
    assert!(u(&v["lances"]["grande"]["settled"]) <= u(&v["hands"]));
    // Games won by órdago are exactly the accepted órdagos.
    let ordagos: u64 = ["grande", "chica", "pares", "juego", "punto"]
        .iter()
        .map(|l| u(&v["lances"][*l]["ordago"]))
        .sum();
    assert_eq!(ordagos, ordago_wins);
    assert!(v["timing"]["games_per_second"].as_f64().is_some());
}

#[test]
fn results_do_not_depend_on_threads() {
    let mut one = sim(&["--threads", "1"]);
    let mut two = sim(&["--threads", "2"]);
    assert_eq!(u(&one["timing"]["threads"]), 1);
    assert_eq!(u(&two["timing"]["threads"]), 2);
    one.as_object_mut().map(|o| o.remove("timing"));
    two.as_object_mut().map(|o| o.remove("timing"));
    assert_eq!(one, two);
}

#[test]
fn pairs_can_have_different_levels() {
    let v = sim(&["--a", "basico", "--b", "random"]);
    assert_eq!(v["bots"], serde_json::json!(["basico", "random"]));
    assert_eq!(u(&v["wins"][0]) + u(&v["wins"][1]), 50);
}

#[test]
fn bad_options_exit_with_2() {
    for args in [
        vec!["sim", "mus", "--games", "5", "--bots", "genius"],
        vec!["sim", "mus", "--games", "0"],
        vec!["sim", "mus", "--games", "5", "--target", "35"],
        vec!["sim", "mus", "--games", "5", "--threads", "0"],
        vec!["sim", "mus"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_tapete"))
            .args(&args)
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
}
