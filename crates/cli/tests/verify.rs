//! `tapete verify` of a record dealt by commit and reveal: it passes when the secret, the
//! contributions and the seed agree and the actions replay; it names what does not match
//! when any of them was changed; and it refuses a record with nothing to verify.

use crate::common::{tapete, tmp};
use serde_json::{json, Value};
use tapete_mus::{MusGame, MusRules};
use tapete_mus_bots as bots;
use tapete_table::fair::{commitment, seed_of, Fairness};
use tapete_table::{play_out, Bot, Game, Record};

/// A finished Mus game dealt from `secret` and two people's contributions, as a server's
/// record gives it.
fn dealt_record(secret: &str) -> Value {
    let given = vec![
        "00112233445566778899aabbccddeeff".to_string(),
        String::new(),
        "ffeeddccbbaa99887766554433221100".to_string(),
        String::new(),
    ];
    let seed = seed_of(secret, &given).unwrap();
    let rules = MusRules {
        juegos: 1,
        vacas: 1,
        target: 30,
        ..MusRules::default()
    };
    let mut game = MusGame::new(&rules, 4, seed).unwrap();
    let mut seats: Vec<Box<dyn Bot<MusGame>>> = (0..4)
        .map(|_| bots::by_name("random").expect("random bot"))
        .collect();
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(3);
    let mut record = Record::new(rules, 4, seed);
    play_out(
        &mut game,
        &mut seats,
        &mut rng,
        &mut record,
        100_000,
        |_, _, _, _| {},
    )
    .expect("plays");
    record.fairness = Some(Fairness {
        commitment: commitment(secret).unwrap(),
        contributions: Some(given),
        secret: Some(secret.to_string()),
        seed: Some(seed),
    });
    serde_json::to_value(&record).unwrap()
}

fn verify(record: &Value, name: &str, json: bool) -> (i32, String, String) {
    let file = tmp(name);
    std::fs::write(&file, record.to_string()).unwrap();
    let f = file.to_str().unwrap();
    let out = if json {
        tapete(&["verify", f, "--json"], "")
    } else {
        tapete(&["verify", f], "")
    };
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_record_dealt_by_commit_and_reveal_verifies_and_a_changed_one_does_not() {
    let secret = "ab".repeat(32);
    let record = dealt_record(&secret);
    let (code, out, err) = verify(&record, "good.json", false);
    assert_eq!(code, 0, "{out}{err}");
    for line in ["commitment", "seed", "deals"] {
        assert!(
            out.lines()
                .any(|l| l.starts_with(line) && l.contains(" ok ")),
            "{line}: {out}"
        );
    }
    let (code, out, _) = verify(&record, "good-json.json", true);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(out.trim()).expect("one JSON document");
    assert_eq!(v["verified"], true, "{v}");
    assert_eq!(v["checks"].as_array().unwrap().len(), 3, "{v}");

    // Another secret: its hash is not the commitment shown.
    let mut other = record.clone();
    other["fairness"]["secret"] = json!("cd".repeat(32));
    let (code, out, err) = verify(&other, "other-secret.json", false);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("NO MATCH") && err.contains("commitment does not match"),
        "{out}{err}"
    );
    // A contribution changed after the fact: the seed does not follow.
    let mut moved = record.clone();
    moved["fairness"]["contributions"][1] = json!("0123456789abcdef0123456789abcdef");
    let (code, out, err) = verify(&moved, "moved.json", true);
    assert_eq!(code, 1, "{out}{err}");
    let v: Value = serde_json::from_str(out.trim()).expect("only the verdict on stdout");
    assert_eq!(v["verified"], false, "{v}");
    assert_eq!(v["checks"][1]["check"], "seed");
    assert_eq!(v["checks"][1]["ok"], false, "{v}");
    // Another seed claimed for the same deal: the actions do not replay from the seed the
    // secret makes... or the seed check says so first.
    let mut reseeded = record.clone();
    reseeded["seed"] = json!(record["seed"].as_u64().unwrap() ^ 1);
    let (code, out, _) = verify(&reseeded, "reseeded.json", true);
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["checks"][1]["ok"], false, "{v}");

    // A record of a game dealt from a seed alone has nothing to verify (exit 2).
    let mut plain = record.clone();
    plain.as_object_mut().unwrap().remove("fairness");
    let (code, _, err) = verify(&plain, "plain.json", false);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no `fairness`"), "{err}");
}
