//! `tapete mus calibrate`: the lines add up to the answers seen, the shares are shares, the
//! result does not depend on the threads, and bad options are refused.

use crate::common::tapete;
use serde_json::Value;

fn calibrate(extra: &[&str]) -> Value {
    let mut args = vec!["mus", "calibrate", "--json"];
    args.extend_from_slice(extra);
    let out = tapete(&args, "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

#[test]
fn lines_add_up_and_do_not_depend_on_threads() {
    let one = calibrate(&[
        "--games",
        "6",
        "--bots",
        "agresivo",
        "--seed",
        "4",
        "--threads",
        "1",
    ]);
    let two = calibrate(&[
        "--games",
        "6",
        "--bots",
        "agresivo",
        "--seed",
        "4",
        "--threads",
        "2",
    ]);
    assert_eq!(one, two);
    let lines = one["lines"].as_array().unwrap();
    assert!(!lines.is_empty());
    let n: u64 = lines.iter().map(|l| l["n"].as_u64().unwrap()).sum();
    assert_eq!(n, one["answers"].as_u64().unwrap());
    for l in lines {
        for key in ["prior", "read", "won"] {
            let x = l[key].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&x), "{key} {x} in {l}");
        }
        // The reading only ever lowers a chance after a rival's bet.
        assert!(l["read"].as_f64() <= l["prior"].as_f64(), "{l}");
        assert!(l["gamma"].is_null() || l["gamma"].as_f64().unwrap() >= 0.0);
    }
}

#[test]
fn bad_options_are_refused() {
    for args in [
        vec!["mus", "calibrate", "--games", "0"],
        vec!["mus", "calibrate", "--games", "5", "--bots", "genius"],
        vec!["mus", "calibrate", "--games", "5", "--bots", "cmd:true"],
    ] {
        let out = tapete(&args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}
