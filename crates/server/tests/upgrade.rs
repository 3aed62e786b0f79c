//! A database made by `serve` before ratings, friends' tables and chat (schema version 5)
//! upgrades in place: its guest and its account go on with their tokens and password, its
//! tables are restored, and the new features work on it.

use crate::support::stored::{on_test_database, stored_version as version};
use crate::support::{roomy, Server};
use serde_json::json;
use std::path::PathBuf;

/// `tests/data/v5-accounts.db`, made by `serve` at schema version 5: a guest Ane (1), an
/// account Mikel (2, password "sota de copas"), a waiting Mus table of Mikel's (ce29ak76)
/// and a Chinchón table of three Ane started (kmzwbdk9).
const ANE: &str = "85afeb720b7f4d0f1ff7d3e559dae5fc";
const MIKEL: &str = "27116b520e7078c69c4b72519804d874";

fn copy_of_v5() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tapete-v5-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("v5.db");
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/v5-accounts.db");
    std::fs::copy(&fixture, &db).expect("the fixture tests/data/v5-accounts.db is there");
    db
}

#[test]
fn a_database_of_schema_5_upgrades_in_place_and_everything_goes_on() {
    let sqlite = copy_of_v5();
    assert_eq!(version(&sqlite), 5, "the fixture is a version 5 database");
    // On PostgreSQL too, when the tests run there: written at version 5, rows and all.
    let db = on_test_database(&sqlite, "v5-accounts");
    for round in 0..2 {
        let server = Server::on(db.clone(), roomy());
        // Both tables are back (and, the second time, the two made the first).
        if !tapete_server::store::pg::is_url(&db.to_string_lossy()) {
            // (On PostgreSQL a table no server held starts when it is first asked for.)
            assert_eq!(server.restored, 2 + 2 * round, "round {round}");
        }
        let (code, me) = server.api("GET", "/api/me", Some(ANE), None);
        assert_eq!(
            (code, me),
            (200, json!({"id": 1, "nickname": "Ane", "account": false}))
        );
        let (code, s) = server.api(
            "POST",
            "/api/sessions",
            None,
            Some(json!({"nickname": "mikel", "password": "sota de copas"})),
        );
        assert_eq!((code, &s["id"]), (200, &json!(2)), "{s}");
        let (code, me) = server.api("GET", "/api/me", Some(MIKEL), None);
        assert_eq!((code, &me["account"]), (200, &json!(true)));
        for (id, status) in [("ce29ak76", "waiting"), ("kmzwbdk9", "playing")] {
            let (code, t) = server.api("GET", &format!("/api/tables/{id}"), None, None);
            assert_eq!((code, t["status"].as_str()), (200, Some(status)), "{t}");
            assert_eq!((&t["rated"], &t["private"]), (&json!(false), &json!(false)));
        }
        // What schema 6 brought works on it: a rated table, a private one, friends, a profile.
        let (code, t) = server.api(
            "POST",
            "/api/tables",
            Some(MIKEL),
            Some(json!({"game": "tikki", "rated": true})),
        );
        assert_eq!((code, &t["rated"]), (200, &json!(true)), "{t}");
        let (code, t) = server.api(
            "POST",
            "/api/tables",
            Some(MIKEL),
            Some(json!({"game": "chinchon", "private": true})),
        );
        assert_eq!((code, &t["private"]), (200, &json!(true)), "{t}");
        assert!(t["invite"].is_string(), "{t}");
        let (code, f) = server.api("GET", "/api/friends", Some(MIKEL), None);
        assert_eq!(code, 200, "{f}");
        let (code, p) = server.api("GET", "/api/players/2", None, None);
        assert_eq!((code, &p["nickname"]), (200, &json!("Mikel")), "{p}");
        drop(server);
        assert_eq!(version(&db), tapete_server::store::SCHEMA_VERSION);
    }
}
