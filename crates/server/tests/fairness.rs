//! Deals anyone can verify: a table shows its commitment before any card, takes each
//! person's contribution when they sit (a bad one refused, the seat not taken), fixes the
//! contributions at the start, and reveals its secret at the end — never before. The seed
//! is recomputed here from the documented formula with plain SHA-256 (the `sha2` crate and
//! the system's `sha256sum`, not tapete's code), and the record replays from it.

use crate::support::{games, play_out, read, read_of, roomy, send, Server, Ws};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
        .collect()
}

/// The seed by the documented formula, with the `sha2` crate alone.
fn seed_by_formula(secret: &str, contributions: &[&str]) -> u64 {
    let text = std::iter::once(secret)
        .chain(contributions.iter().copied())
        .collect::<Vec<_>>()
        .join(":");
    let d = Sha256::digest(text.as_bytes());
    u64::from_le_bytes(d[..8].try_into().unwrap())
}

/// The same with the system's `sha256sum` (as docs/fairness.md tells a player to).
fn seed_by_sha256sum(secret: &str, contributions: &[&str]) -> u64 {
    let text = std::iter::once(secret)
        .chain(contributions.iter().copied())
        .collect::<Vec<_>>()
        .join(":");
    let mut child = Command::new("sha256sum")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("sha256sum runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let digest = String::from_utf8(out.stdout).unwrap();
    let first: Vec<u8> = unhex(&digest[..16]);
    u64::from_le_bytes(first.try_into().unwrap())
}

/// The next error message on `ws`, other messages skipped.
fn next_error(ws: &mut Ws) -> Value {
    loop {
        let m = read(ws).expect("the connection stays open");
        if m["type"] == "error" {
            return m;
        }
    }
}

#[test]
fn a_tables_deal_is_committed_before_the_cards_and_checks_out_after_the_end() {
    let server = Server::start("fairness", roomy());
    let ane = server.player("Ane");
    let bea = server.player("Bea");
    let c0 = "00112233445566778899aabbccddeeff";
    // A bad contribution at the making is refused, and no table made.
    let (code, e) = server.api(
        "POST",
        "/api/tables",
        Some(&ane),
        Some(json!({"game": "ring", "seats": 2, "seat": 0, "seed": "xyz"})),
    );
    assert_eq!(
        (code, e["code"].as_str()),
        (400, Some("bad_contribution")),
        "{e}"
    );
    let id = server.table(
        &ane,
        json!({"game": "ring", "seats": 2, "rules": {"hands": 1}, "seat": 0,
               "pace_ms": 0, "hold_s": 0, "seed": c0}),
    );
    let path = format!("/api/tables/{id}");
    let (_, info) = server.api("GET", &path, Some(&ane), None);
    let shown = info["fairness"]["commitment"].as_str().unwrap().to_string();
    assert_eq!(shown.len(), 64, "{info}");
    assert!(info["fairness"].get("secret").is_none(), "{info}");
    assert!(info["fairness"].get("contributions").is_none(), "{info}");
    // Nothing is revealed before the end.
    let fair = format!("/api/tables/{id}/fairness");
    let (code, e) = server.api("GET", &fair, Some(&ane), None);
    assert_eq!(
        (code, e["code"].as_str()),
        (403, Some("not_revealed")),
        "{e}"
    );

    // Bea sits: first with a contribution that is not 32 hex digits (refused, the seat
    // not taken), then with one in capitals (taken as lowercase); her seat starts it.
    let mut wb = server.ws(&id, Some(&bea));
    read_of(&mut wb, "state");
    send(&mut wb, json!({"type": "sit", "seat": 1, "seed": "12345"}));
    let err = next_error(&mut wb);
    assert_eq!(err["code"], "bad_contribution", "{err}");
    let (_, info) = server.api("GET", &path, Some(&ane), None);
    assert!(info["seats"][1]["player"].is_null(), "{info}");
    assert_eq!(info["status"], "waiting");
    let c1 = "FEDCBA98765432100123456789ABCDEF";
    send(&mut wb, json!({"type": "sit", "seat": 1, "seed": c1}));
    let deadline = Instant::now() + Duration::from_secs(10);
    let info = loop {
        let (_, info) = server.api("GET", &path, Some(&ane), None);
        if info["status"] == "playing" {
            break info;
        }
        assert!(Instant::now() < deadline, "not started: {info}");
        std::thread::sleep(Duration::from_millis(20));
    };
    let c1 = c1.to_ascii_lowercase();
    assert_eq!(
        info["fairness"]["contributions"],
        json!([c0, c1]),
        "the contributions are fixed and public from the start: {info}"
    );
    assert!(info["fairness"].get("secret").is_none(), "{info}");
    let (code, e) = server.api("GET", &fair, Some(&bea), None);
    assert_eq!(
        (code, e["code"].as_str()),
        (403, Some("not_revealed")),
        "{e}"
    );
    send(&mut wb, json!({"type": "contribute", "seed": c0}));
    let err = next_error(&mut wb);
    assert_eq!(err["code"], "already_started", "{err}");

    // Both play it out.
    let mut wa = server.ws(&id, Some(&ane));
    let t = std::thread::spawn(move || {
        play_out(&mut wa);
    });
    play_out(&mut wb);
    t.join().unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    let info = loop {
        let (_, info) = server.api("GET", &path, Some(&ane), None);
        if info["status"] == "finished" {
            break info;
        }
        assert!(Instant::now() < deadline, "not finished: {info}");
        std::thread::sleep(Duration::from_millis(20));
    };
    let (code, f) = server.api("GET", &fair, None, None);
    assert_eq!(code, 200, "{f}");
    assert_eq!(
        f, info["fairness"],
        "the table and its fairness say the same"
    );
    let secret = f["secret"].as_str().unwrap();
    assert_eq!(secret.len(), 64);
    // Checked with plain SHA-256: the secret hashes to what was shown before the deal,
    // and the seed follows from it and the contributions.
    assert_eq!(hex(&Sha256::digest(unhex(secret))), shown);
    let seed = seed_by_formula(secret, &[c0, &c1]);
    assert_eq!(seed, seed_by_sha256sum(secret, &[c0, &c1]));
    assert_eq!(f["seed"], json!(seed.to_string()), "{f}");
    // The record carries them, and its actions replay from that seed to the same end.
    let (code, record) = server.api("GET", &format!("{path}/record"), Some(&ane), None);
    assert_eq!(code, 200, "{record}");
    assert_eq!(record["seed"], json!(seed), "{record}");
    assert_eq!(record["fairness"], f);
    let kinds = games();
    let kind = kinds.iter().find(|k| k.name() == "ring").unwrap();
    let mut game = kind.new_game(&record["rules"], 2, seed).unwrap();
    for a in record["actions"].as_array().unwrap() {
        game.apply(a[0].as_u64().unwrap() as usize, a[1].as_str().unwrap())
            .expect("the record replays from the revealed seed");
    }
    assert_eq!(
        json!(game.outcome().unwrap().winners),
        info["outcome"]["winners"]
    );

    // Another game draws a new secret.
    let (code, again) = server.api("POST", &format!("{path}/rematch"), Some(&ane), None);
    assert_eq!(code, 200, "{again}");
    assert_ne!(again["fairness"]["commitment"], json!(shown), "{again}");
}

#[test]
fn a_bot_or_a_person_who_gave_nothing_contributes_the_empty_string() {
    let server = Server::start("fairness-bots", roomy());
    let ane = server.player("Ane");
    let id = server.table(
        &ane,
        json!({"game": "ring", "seats": 3, "rules": {"hands": 1}, "seat": 1, "start": true,
               "pace_ms": 0, "hold_s": 0}),
    );
    let (_, info) = server.api("GET", &format!("/api/tables/{id}"), Some(&ane), None);
    assert_eq!(info["status"], "playing", "{info}");
    assert_eq!(
        info["fairness"]["contributions"],
        json!(["", "", ""]),
        "{info}"
    );
    // A table from before deals were committed has nothing to show.
    let (code, e) = server.api("GET", "/api/tables/nosuch/fairness", None, None);
    assert_eq!(code, 404, "{e}");
}
