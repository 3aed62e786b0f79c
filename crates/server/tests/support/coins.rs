//! Odds tools for the server's tests, standing for any calculator the server is given:
//! `coins` (the exact chance of at least `heads` heads in `flips` fair flips) and `gate`
//! (a calculation that runs until the test lets it end).

use serde_json::{json, Value};
use std::sync::{Condvar, Mutex};
use tapete_server::OddsTool;

/// Most flips `coins` takes (2^flips must fit the arithmetic).
pub const MAX_FLIPS: u32 = 100;

pub struct Coins;

fn number(query: &Value, key: &str) -> Result<u32, String> {
    let text = query
        .get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("give `{key}`"))?;
    text.trim()
        .parse()
        .map_err(|_| format!("{key}: `{text}` is not a number"))
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

impl OddsTool for Coins {
    fn name(&self) -> &'static str {
        "coins"
    }

    /// A page of its own, `/coins`, and its words, as an odds tool's web face.
    fn web(&self) -> tapete_host::WebFace {
        tapete_host::WebFace {
            files: &[(
                "coins.html",
                b"<!doctype html><title data-i18n=\"coins.title\">Coins</title>",
            )],
            catalogs: &[
                ("en", r#"{"coins.title": "Coins"}"#),
                ("es", r#"{"coins.title": "Monedas"}"#),
            ],
        }
    }

    fn answer(&self, query: &Value) -> Result<Value, String> {
        let flips = number(query, "flips")?;
        let heads = number(query, "heads")?;
        if flips > MAX_FLIPS {
            return Err(format!("flips is {flips}: at most {MAX_FLIPS}"));
        }
        // Row `flips` of Pascal's triangle, summed from `heads` on.
        let mut row = vec![1u128];
        for _ in 0..flips {
            let mut next = vec![1u128; row.len() + 1];
            for i in 1..row.len() {
                next[i] = row[i - 1] + row[i];
            }
            row = next;
        }
        let num: u128 = row.iter().skip(heads as usize).sum();
        let den = 1u128 << flips;
        let g = gcd(num, den).max(1);
        Ok(json!({
            "fraction": format!("{}/{}", num / g, den / g),
            "probability": num as f64 / den as f64,
        }))
    }
}

/// Calculations of `gate` that have started, and whether they may end.
static GATE: (Mutex<(usize, bool)>, Condvar) = (Mutex::new((0, false)), Condvar::new());

/// A calculation that holds its thread until [`open_gate`]: a long computation whose
/// length the test decides.
pub struct Gate;

impl OddsTool for Gate {
    fn name(&self) -> &'static str {
        "gate"
    }

    fn answer(&self, _query: &Value) -> Result<Value, String> {
        let (lock, cv) = &GATE;
        let mut g = lock.lock().unwrap();
        g.0 += 1;
        cv.notify_all();
        while !g.1 {
            g = cv.wait(g).unwrap();
        }
        Ok(json!({"through": true}))
    }
}

/// Waits until `n` calculations of `gate` have started.
pub fn gate_entered(n: usize) {
    let (lock, cv) = &GATE;
    let mut g = lock.lock().unwrap();
    while g.0 < n {
        g = cv.wait(g).unwrap();
    }
}

/// Lets every calculation of `gate` end, now and later.
pub fn open_gate() {
    let (lock, cv) = &GATE;
    lock.lock().unwrap().1 = true;
    cv.notify_all();
}

/// Opens the gate when dropped: a test that fails midway still lets its server stop.
pub struct OpenOnDrop;

impl Drop for OpenOnDrop {
    fn drop(&mut self) {
        open_gate();
    }
}
