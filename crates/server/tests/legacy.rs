//! A database written by the release before seat counts were stored (schema version 1:
//! 29 finished and 3 playing Mus tables, made by its load test) opens with this server:
//! it is migrated, the playing tables restore and take their next legal action, and every
//! finished table's log replays to the outcome stored then.

use crate::support::stored::{ints, on_test_database, stored_version};
use crate::support::{legal, read_of, send, state_until, Server};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::PathBuf;
use tapete_server::store::SCHEMA_VERSION;
use tapete_server::Limits;
use tapete_table::Outcome;

struct Stored {
    status: String,
    rules: Value,
    seed: u64,
    outcome: Option<Outcome>,
    actions: Vec<(usize, String)>,
}

/// Every table of the database as the old release left it.
fn stored_tables(db: &std::path::Path) -> BTreeMap<String, Stored> {
    let c = rusqlite::Connection::open(db).unwrap();
    let mut out = BTreeMap::new();
    let mut st = c
        .prepare("SELECT id, status, rules, seed, outcome FROM tables")
        .unwrap();
    let rows: Vec<(String, String, String, i64, Option<String>)> = st
        .query_map([], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    for (id, status, rules, seed, outcome) in rows {
        let actions: Vec<(usize, String)> = c
            .prepare("SELECT seat, action FROM actions WHERE table_id = ?1 ORDER BY n")
            .unwrap()
            .query_map([&id], |r| Ok((r.get::<_, i64>(0)? as usize, r.get(1)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        out.insert(
            id,
            Stored {
                status,
                rules: serde_json::from_str(&rules).unwrap(),
                seed: seed as u64,
                // Outcomes stored then have no scores or places.
                outcome: outcome.map(|o| serde_json::from_str(&o).expect("an old outcome reads")),
                actions,
            },
        );
    }
    out
}

/// A copy of the old database (the fixture itself is never written), whose players get
/// known tokens `token-ID` so that the test can speak for them: only their token hashes
/// were stored.
fn copy_of_legacy(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tapete-legacy-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("legacy.db");
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/legacy-v1.db");
    std::fs::copy(&fixture, &db).expect("the fixture tests/data/legacy-v1.db is there");
    let c = rusqlite::Connection::open(&db).unwrap();
    let version: i64 = c
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, 1, "the fixture is a version 1 database");
    let ids: Vec<i64> = c
        .prepare("SELECT id FROM players")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    for id in ids {
        c.execute(
            "UPDATE players SET token_hash = ?2 WHERE id = ?1",
            rusqlite::params![id, token_hash(&format!("token-{id}"))],
        )
        .unwrap();
    }
    db
}

fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn a_version_1_database_migrates_restores_and_replays() {
    let sqlite = copy_of_legacy("open");
    let old = stored_tables(&sqlite);
    // On PostgreSQL too, when the tests run there: written at version 1, rows and all.
    let db = on_test_database(&sqlite, "legacy");
    let playing: Vec<&String> = old
        .iter()
        .filter(|(_, t)| t.status == "playing")
        .map(|(id, _)| id)
        .collect();
    let finished: Vec<&String> = old
        .iter()
        .filter(|(_, t)| t.status == "finished")
        .map(|(id, _)| id)
        .collect();
    assert_eq!((playing.len(), finished.len()), (3, 29));

    let server = Server::on(db.clone(), Limits::default());
    if !tapete_server::store::pg::is_url(&db.to_string_lossy()) {
        // (On PostgreSQL a table no server held starts when it is first asked for.)
        assert_eq!(server.restored, 3, "the three playing tables restore");
    }
    assert_eq!(stored_version(&db), SCHEMA_VERSION);
    let seats: Vec<i64> = ints(&db, "SELECT seats FROM tables")
        .into_iter()
        .map(|r| r[0])
        .collect();
    assert_eq!(seats, vec![4; 32], "every Mus table has its four seats");

    // The playing tables are where they were and take their next legal action.
    for id in &playing {
        let (code, info) = server.api("GET", &format!("/api/tables/{id}"), None, None);
        assert_eq!(code, 200, "{info}");
        assert_eq!(info["status"], "playing");
        assert_eq!(info["seats"].as_array().unwrap().len(), 4);
        let people: Vec<i64> = info["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["player"]["id"].as_i64().expect("a person at every seat"))
            .collect();
        let mut acted = false;
        for (seat, player) in people.iter().enumerate() {
            let mut ws = server.ws(id, Some(&format!("token-{player}")));
            let s = state_until(&mut ws, |_| true);
            assert_eq!(s["you"]["seat"], seat);
            let n = s["n"].as_u64().unwrap();
            assert!(n as usize >= old[*id].actions.len(), "nothing was lost");
            let l = legal(&s);
            if l.is_empty() {
                continue;
            }
            send(&mut ws, json!({"type": "act", "action": l[0], "id": 1}));
            let ack = read_of(&mut ws, "ack");
            assert_eq!(ack["n"], n + 1, "table {id}: the action is the next one");
            acted = true;
            break;
        }
        assert!(acted, "table {id}: some seat could act");
    }

    // Every finished table replays, from its seed and log, to the outcome stored then.
    let mus = tapete_catalog::kinds()
        .into_iter()
        .find(|k| k.name() == "mus")
        .unwrap();
    for id in &finished {
        let t = &old[*id];
        let stored = t
            .outcome
            .as_ref()
            .expect("a finished table has its outcome");
        let mut game = mus.new_game(&t.rules, 4, t.seed).unwrap();
        for (i, (seat, action)) in t.actions.iter().enumerate() {
            game.apply(*seat, action)
                .unwrap_or_else(|e| panic!("table {id}: action {} `{action}`: {e}", i + 1));
        }
        let replayed = game.outcome().expect("the log ends the match");
        assert_eq!(replayed.winners, stored.winners, "table {id}");
        assert_eq!(replayed.summary, stored.summary, "table {id}");
        // The server agrees, and shows the replay's last step.
        let (code, info) = server.api("GET", &format!("/api/tables/{id}"), None, None);
        assert_eq!(code, 200, "{info}");
        assert_eq!(info["outcome"]["winners"], json!(stored.winners));
        assert_eq!(info["outcome"]["summary"], json!(stored.summary));
    }
    let id = finished[0];
    let last = old[id].actions.len();
    let (code, step) = server.api(
        "GET",
        &format!("/api/tables/{id}/replay/{last}"),
        None,
        None,
    );
    assert_eq!(code, 200, "{step}");
    assert_eq!(step["view"]["hands"].as_array().unwrap().len(), 4);
    // A player's history lists the old games, whose outcomes have no scores.
    let (code, games) = server.api("GET", "/api/players/1/games", None, None);
    assert_eq!(code, 200, "{games}");
    assert!(!games.as_array().unwrap().is_empty());
}
