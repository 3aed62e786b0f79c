//! The schema's migrations, on the database the tests run on (SQLite, or PostgreSQL with
//! `TAPETE_TEST_PG`): a database of every older version, with rows of each kind it held,
//! is brought to the head with its rows kept and changed as each version says, and ends
//! with the very schema a new database has; so do the fixtures of older releases. A
//! migration that fails changes nothing, and a newer database is refused.

use crate::support::stored::{
    batch, carry_over, catalog, catalog_difference, copy_of_fixture, empty_database, ints,
    number_on, on_test_database, open_and_close, pg_base, stored_version,
};
use crate::support::{fresh_postgres, roomy, Server};
use serde_json::json;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use tapete_server::store::{create_at, SCHEMA_VERSION};

fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The catalog of a new database of the kind the tests run on.
fn fresh_catalog(name: &str) -> Vec<String> {
    let db = empty_database(name);
    open_and_close(&db);
    catalog(&db)
}

fn assert_same_schema(db: &Path, fresh: &[String], what: &str) {
    let got = catalog(db);
    assert!(
        got == fresh,
        "{what}: its schema is not a new database's\n{}",
        catalog_difference(&got, fresh)
    );
}

const MUS_RULES: &str = r#"{"juegos":3,"mode":"8reyes","punto_y_miedo":true,"real31":false,"senas":false,"target":40,"vacas":1}"#;
const TIKKI_RULES: &str = r#"{"retreat":false,"rounds":0,"target":0,"top":13}"#;
/// The hash of the password "sota de copas" (Argon2id, as `serve` stores it).
const PASSWORD_HASH: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$LfeOFamkrsfAI8/EqvKjlw$7Mvy8Gw0F+OGd/PEvvyT1EI+wQzGzC+OYXhk1BxgEtI";

/// A database of tapete before versions (version 0): its tables as they were then, without
/// the timings of the bots unless `timings` (some builds of then had them).
const VERSION_0: &str = "
CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    nickname TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created INTEGER NOT NULL
);
CREATE TABLE tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    rules TEXT NOT NULL,
    seed INTEGER NOT NULL,
    creator INTEGER REFERENCES players(id),
    bot TEXT NOT NULL,
    pace_ms INTEGER NOT NULL,
    status TEXT NOT NULL,
    created INTEGER NOT NULL,
    finished INTEGER,
    outcome TEXT
);
CREATE INDEX tables_status ON tables(status);
CREATE TABLE seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    player INTEGER REFERENCES players(id),
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE table_players (
    table_id TEXT NOT NULL REFERENCES tables(id),
    player INTEGER NOT NULL REFERENCES players(id),
    seat INTEGER NOT NULL,
    PRIMARY KEY (table_id, player, seat)
);
CREATE INDEX table_players_player ON table_players(player);
CREATE TABLE actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
";

/// Rows of each kind a database of `version` held, in the columns it had (the same words
/// for both databases): guests Ane (1) and Bea (2) with tokens `token-1`, `token-2`, and
/// Mikel (3, an account from version 5, password "sota de copas"); a waiting Mus table
/// `waiting1` of Ane's and a playing one `playing1` where Ane and Bea sit at seats 0 and
/// 1; from version 6 a rated tikki table `rated1` not started, without a turn clock
/// before version 8, and two finished tables whose rating history has rows for Mikel
/// (`p3`, written in time order) and Ane; from version 9 a review of Mikel's seat of the
/// first; from version 12 a notice to Mikel and his Web Push subscription; from version
/// 13 the waiting table's committed deal and Ane's contribution to it; from version 14
/// Mikel suspended from rated play by Ane, the line of the operator's log that says so,
/// and a collusion flag on Ane and Mikel.
fn rows_of(version: i64, timings: bool) -> String {
    let mut sql = String::new();
    for (id, nickname) in [(1, "Ane"), (2, "Bea"), (3, "Mikel")] {
        sql += &format!(
            "INSERT INTO players (id, nickname, token_hash, created)
             VALUES ({id}, '{nickname}', '{}', {});\n",
            token_hash(&format!("token-{id}")),
            1000 + id
        );
    }
    let mut table = |id: &str, game: &str, status: &str, seated: &[(i64, i64)], seats: i64| {
        let rules = if game == "mus" {
            MUS_RULES
        } else {
            TIKKI_RULES
        };
        let mut columns =
            "id, game, rules, seed, creator, bot, pace_ms, status, created, finished".to_owned();
        let finished = if status == "finished" { "1600" } else { "NULL" };
        let mut values =
            format!("'{id}', '{game}', '{rules}', 7, 1, 'basico', 0, '{status}', 1500, {finished}");
        if version >= 1 || timings {
            columns += ", away_s, hold_s";
            values += ", 30, 10";
        }
        if version >= 2 {
            columns += ", seats";
            values += &format!(", {seats}");
        }
        if version >= 4 {
            // A rated table has a turn clock from version 8 on.
            columns += ", turn_s";
            values += if version >= 8 && game == "tikki" {
                ", 60"
            } else {
                ", 0"
            };
        }
        if version >= 6 {
            columns += ", rated";
            values += if game == "tikki" { ", 1" } else { ", 0" };
        }
        sql += &format!("INSERT INTO tables ({columns}) VALUES ({values});\n");
        for seat in 0..seats {
            let player = seated
                .iter()
                .find(|(_, s)| *s == seat)
                .map_or("NULL".to_owned(), |(p, _)| p.to_string());
            sql += &format!(
                "INSERT INTO seats (table_id, seat, player) VALUES ('{id}', {seat}, {player});\n"
            );
        }
        for (player, seat) in seated {
            sql += &format!(
                "INSERT INTO table_players (table_id, player, seat)
                 VALUES ('{id}', {player}, {seat});\n"
            );
        }
    };
    table("waiting1", "mus", "waiting", &[(1, 0)], 4);
    table("playing1", "mus", "playing", &[(1, 0), (2, 1)], 4);
    if version >= 6 {
        table("rated1", "tikki", "waiting", &[(3, 0)], 3);
        table("old1", "tikki", "finished", &[(3, 0), (1, 1)], 3);
        table("old2", "tikki", "finished", &[(3, 0), (1, 1)], 3);
    }
    if version >= 3 {
        sql += "INSERT INTO hand_seats (table_id, player, seat)
                VALUES ('playing1', 1, 0), ('playing1', 2, 1);\n";
    }
    if version >= 5 {
        sql += &format!(
            "INSERT INTO accounts (player, nick_key, password_hash, created)
             VALUES (3, 'rnikel', '{PASSWORD_HASH}', 1003);\n"
        );
        for id in 1..=3 {
            sql += &format!(
                "INSERT INTO sessions (token_hash, player, created, last_used, agent)
                 VALUES ('{}', {id}, 1000, 1000, '');\n",
                token_hash(&format!("token-{id}"))
            );
        }
    }
    if version >= 6 {
        // In time order: Mikel's game old1, then Ane's, then Mikel's old2.
        for (n, (table, who, player, at)) in [
            ("old1", "p3", 3, 2000),
            ("old1", "p1", 1, 2000),
            ("old2", "p3", 3, 3000),
        ]
        .into_iter()
        .enumerate()
        {
            let (seq_column, seq) = if version >= 7 {
                (", seq", format!(", {}", if n == 2 { 2 } else { 1 }))
            } else {
                ("", String::new())
            };
            sql += &format!(
                "INSERT INTO rating_history (table_id, who, game, player, mu, sigma, place,
                                             won, abandoned, at{seq_column})
                 VALUES ('{table}', '{who}', 'tikki', {player}, 25.0, 8.0, 1, 1, 0, {at}{seq});\n"
            );
        }
    }
    if version >= 9 {
        sql += "INSERT INTO reviews (table_id, seat, review, made_at)
                VALUES ('old1', 0, '{\"game\":\"tikki\",\"seat\":0}', 4000);\n";
    }
    if version >= 10 {
        // Mikel's cuadrilla (Thursdays 20:00 UTC), Ane in it, and old1 played among them.
        sql += "INSERT INTO cuadrillas (id, name, owner, invite, created, slot_minute,
                                        slot_offset, slot_noticed)
                VALUES ('cq1', 'Los del jueves', 3, 'secret', 5000, 5520, 120, 0);
                INSERT INTO cuadrilla_members (cuadrilla, player, joined)
                VALUES ('cq1', 3, 5000), ('cq1', 1, 5001);
                UPDATE tables SET cuadrilla = 'cq1' WHERE id = 'old1';\n";
    }
    if version >= 12 {
        // A notice to Mikel and his browser's Web Push subscription.
        sql += "INSERT INTO notices (player, kind, body, at)
                VALUES (3, 'invitation', '{\"url\":\"/t/old1\",\"args\":{\"from\":\"Ane\"}}', 5000);
                INSERT INTO push_subscriptions (endpoint, player, p256dh, auth, lang, created)
                VALUES ('https://push.example.com/m', 3, 'BKey', 'auth', 'es', 5000);\n";
    }
    if version >= 13 {
        // The waiting table's committed deal (secret 32 bytes of 0x11) and Ane's
        // contribution to it.
        sql += &format!(
            "INSERT INTO deals (table_id, secret, shared) VALUES ('waiting1', '{}', 0);
             INSERT INTO contributions (table_id, player, value)
             VALUES ('waiting1', 1, '00112233445566778899aabbccddeeff');\n",
            "11".repeat(32)
        );
    }
    if version >= 14 {
        sql += "INSERT INTO suspensions (player, scope, reason, by_operator, at)
                VALUES (3, 'rated', 'regala partidas', 1, 6000);
                INSERT INTO operator_log (operator, action, target, details, at)
                VALUES (1, 'suspend', '3', '{\"scope\":\"rated\"}', 6000);
                INSERT INTO flags (game, players, kind, statistic, evidence, created, status)
                VALUES ('tikki', '[1,3]', 'collusion', '{\"z\":3.1,\"gain\":0.2,\"se\":0.05,\"n\":40}',
                        '[{\"table\":\"old1\",\"step\":2,\"seat\":0,\"action\":\"paso\",\"what\":\"\"}]',
                        5900, 'open');\n";
    }
    sql
}

/// A database of `version` on the kind the tests run on, with [`rows_of`] it; `timings`
/// gives a version 0 database the bots' timings.
fn old_database(version: i64, timings: bool, name: &str) -> PathBuf {
    let db = empty_database(name);
    if version == 0 && pg_base().is_none() {
        batch(&db, VERSION_0);
        if timings {
            batch(
                &db,
                "ALTER TABLE tables ADD COLUMN away_s INTEGER NOT NULL DEFAULT 30;
                 ALTER TABLE tables ADD COLUMN hold_s INTEGER NOT NULL DEFAULT 10;",
            );
        }
    } else if version == 0 {
        // PostgreSQL databases began at version 7: its version 0 is an empty database.
        return db;
    } else {
        create_at(&db, version).unwrap();
    }
    if version == 8 {
        // Version 8 as its first builds made it: nickname looks came later, without a
        // version of their own.
        batch(&db, "DROP TABLE nickname_looks");
    }
    assert_eq!(stored_version(&db), version);
    batch(&db, &rows_of(version, timings));
    if pg_base().is_some() {
        number_on(&db.to_string_lossy());
    }
    db
}

#[test]
fn a_database_of_every_version_upgrades_with_its_rows_to_a_new_ones_schema() {
    let fresh = fresh_catalog("schema-fresh");
    // Every version up to the head (version 8 as it was before nickname looks: see
    // below); and a database of tapete before versions that has the bots' timings.
    let mut olds: Vec<(i64, bool)> = (0..=SCHEMA_VERSION).map(|v| (v, false)).collect();
    olds.push((0, true));
    for (version, timings) in olds {
        let what = format!(
            "version {version}{}",
            if timings { " with timings" } else { "" }
        );
        let db = old_database(
            version,
            timings,
            &format!("schema-v{version}{}", if timings { "t" } else { "" }),
        );
        let empty = version == 0 && pg_base().is_some();
        let server = Server::on(db.clone(), roomy());
        if empty {
            drop(server);
            assert_eq!(stored_version(&db), SCHEMA_VERSION, "{what}");
            assert_same_schema(&db, &fresh, &what);
            continue;
        }
        // Its tables restore, its guests go on with their tokens, its account logs in.
        let rated = version >= 6;
        if stored_is_sqlite(&db) {
            // (On PostgreSQL a table no server held starts when it is first asked for.)
            assert_eq!(server.restored, 2 + usize::from(rated), "{what}");
        }
        for (token, id, nickname) in [("token-1", 1, "Ane"), ("token-2", 2, "Bea")] {
            let (code, me) = server.api("GET", "/api/me", Some(token), None);
            assert_eq!(
                (code, me),
                (
                    200,
                    json!({"id": id, "nickname": nickname, "account": false})
                ),
                "{what}"
            );
        }
        let (code, t) = server.api("GET", "/api/tables/playing1", None, None);
        assert_eq!(
            (code, &t["status"]),
            (200, &json!("playing")),
            "{what}: {t}"
        );
        assert_eq!(t["seats"].as_array().map(Vec::len), Some(4), "{what}: {t}");
        assert_eq!(t["seats"][1]["player"]["id"], 2, "{what}: {t}");
        if version >= 5 {
            let (code, s) = server.api(
                "POST",
                "/api/sessions",
                None,
                Some(json!({"nickname": "Mikel", "password": "sota de copas"})),
            );
            assert_eq!((code, &s["id"]), (200, &json!(3)), "{what}: {s}");
        }
        let (_, w) = server.api("GET", "/api/tables/waiting1", None, None);
        if version >= 13 {
            // The deal's commitment is shown as made from its secret.
            assert_eq!(
                w["fairness"]["commitment"],
                json!(tapete_table::fair::commitment(&"11".repeat(32)).unwrap()),
                "{what}: {w}"
            );
        } else {
            assert!(w.get("fairness").is_none(), "{what}: {w}");
        }
        if version >= 14 {
            // Mikel reads his suspension.
            let (code, me) = server.api("GET", "/api/me", Some("token-3"), None);
            assert_eq!(code, 200, "{what}: {me}");
            assert_eq!(
                (&me["suspension"]["scope"], &me["suspension"]["reason"]),
                (&json!("rated"), &json!("regala partidas")),
                "{what}: {me}"
            );
        }
        if version >= 12 {
            // Mikel's notice reads as it was stored.
            let (code, n) = server.api("GET", "/api/notices", Some("token-3"), None);
            assert_eq!(code, 200, "{what}: {n}");
            assert_eq!(
                (
                    &n[0]["kind"],
                    &n[0]["url"],
                    &n[0]["args"]["from"],
                    &n[0]["at"]
                ),
                (
                    &json!("invitation"),
                    &json!("/t/old1"),
                    &json!("Ane"),
                    &json!(5000)
                ),
                "{what}: {n}"
            );
        }
        if rated {
            let (code, t) = server.api("GET", "/api/tables/rated1", None, None);
            assert_eq!(code, 200, "{what}: {t}");
            assert_eq!(
                (&t["rated"], &t["turn_s"]),
                (&json!(true), &json!(60)),
                "{what}"
            );
        }
        drop(server);

        assert_eq!(stored_version(&db), SCHEMA_VERSION, "{what}");
        assert_same_schema(&db, &fresh, &what);
        // Each table's seat count is its seat rows'.
        assert_eq!(
            ints(
                &db,
                "SELECT t.seats, (SELECT count(*) FROM seats s WHERE s.table_id = t.id)
                 FROM tables t ORDER BY t.id"
            )
            .into_iter()
            .filter(|r| r[0] != r[1])
            .count(),
            0,
            "{what}"
        );
        // Who held which seat of the hand under way: who sits there.
        assert_eq!(
            ints(
                &db,
                "SELECT player, seat FROM hand_seats WHERE table_id = 'playing1' ORDER BY player"
            ),
            vec![vec![1, 0], vec![2, 1]],
            "{what}"
        );
        // Every player's token has its session (and the login made one more for Mikel).
        assert_eq!(
            ints(
                &db,
                "SELECT p.id, count(s.id) FROM players p
                 LEFT JOIN sessions s ON s.player = p.id AND s.token_hash = p.token_hash
                 GROUP BY p.id ORDER BY p.id"
            ),
            vec![vec![1, 1], vec![2, 1], vec![3, 1]],
            "{what}"
        );
        if version >= 5 {
            // The account's nickname look, made at start.
            assert_eq!(
                ints(&db, "SELECT player FROM nickname_looks"),
                vec![vec![3]],
                "{what}"
            );
        }
        if rated {
            // Each player's history numbered in the order it was written.
            let rows = ints(
                &db,
                "SELECT player, at, seq FROM rating_history ORDER BY player, seq",
            );
            assert_eq!(rows.len(), 3, "{what}");
            assert!(rows.iter().all(|r| r[2] > 0), "{what}: {rows:?}");
            let mikel: Vec<i64> = rows.iter().filter(|r| r[0] == 3).map(|r| r[1]).collect();
            assert_eq!(mikel, vec![2000, 3000], "{what}: {rows:?}");
            assert_eq!(
                ints(
                    &db,
                    "SELECT count(*) FROM rating_history WHERE assisted = 0 AND unrated IS NULL"
                ),
                vec![vec![3]],
                "{what}: nothing of before was assisted, everything was rated"
            );
        }
        if version >= 9 {
            assert_eq!(
                ints(
                    &db,
                    "SELECT seat, made_at FROM reviews WHERE table_id = 'old1'"
                ),
                vec![vec![0, 4000]],
                "{what}"
            );
        }
        if version >= 10 {
            assert_eq!(
                ints(
                    &db,
                    "SELECT c.owner, c.slot_minute, c.slot_offset, m.player, m.joined
                     FROM cuadrillas c JOIN cuadrilla_members m ON m.cuadrilla = c.id
                     JOIN tables t ON t.cuadrilla = c.id AND t.id = 'old1'
                     ORDER BY m.joined"
                ),
                vec![vec![3, 5520, 120, 3, 5000], vec![3, 5520, 120, 1, 5001]],
                "{what}"
            );
        }
        if version >= 12 {
            assert_eq!(
                ints(&db, "SELECT player, created FROM push_subscriptions"),
                vec![vec![3, 5000]],
                "{what}"
            );
        }
        if version >= 14 {
            assert_eq!(
                ints(
                    &db,
                    "SELECT s.player, s.by_operator, l.operator, l.at, f.created
                     FROM suspensions s, operator_log l, flags f"
                ),
                vec![vec![3, 1, 1, 6000, 5900]],
                "{what}"
            );
        }
    }
}

#[test]
fn every_fixture_of_an_older_release_upgrades_to_a_new_ones_schema() {
    let fresh = fresh_catalog("schema-fixtures-fresh");
    for (file, version) in [
        ("legacy-v1.db", 1),
        ("v4-guests.db", 4),
        ("v5-accounts.db", 5),
        ("v8-rated.db", 8),
    ] {
        let sqlite = copy_of_fixture(file, &format!("schema-{version}"));
        assert_eq!(stored_version(&sqlite), version, "{file}");
        let db = on_test_database(&sqlite, &format!("schema-fixture-{version}"));
        assert_eq!(stored_version(&db), version, "{file}");
        open_and_close(&db);
        assert_eq!(stored_version(&db), SCHEMA_VERSION, "{file}");
        assert_same_schema(&db, &fresh, file);
    }
}

/// `tests/data/v8-rated.db`: a database the release before this list of migrations made
/// (its test server: an account Ane, password "sota de copas", who played a rated ring
/// game, 77v9fcab, against the bots) reads as it did, on either database.
#[test]
fn a_database_of_the_previous_release_reads_as_it_did() {
    let sqlite = copy_of_fixture("v8-rated.db", "schema-previous-release");
    let db = on_test_database(&sqlite, "schema-previous-release");
    let server = Server::on(db.clone(), roomy());
    let (code, s) = server.api(
        "POST",
        "/api/sessions",
        None,
        Some(json!({"nickname": "Ane", "password": "sota de copas"})),
    );
    assert_eq!((code, &s["id"]), (200, &json!(1)), "{s}");
    let (code, p) = server.api("GET", "/api/players/1", None, None);
    assert_eq!(code, 200, "{p}");
    let ring = p["ratings"]
        .as_array()
        .and_then(|r| r.iter().find(|r| r["game"] == "ring"))
        .unwrap_or_else(|| panic!("a rating at ring: {p}"));
    assert_eq!(ring["played"], 1, "{ring}");
    assert_eq!(ring["history"][0]["table"], "77v9fcab", "{ring}");
    let (code, t) = server.api("GET", "/api/tables/77v9fcab", None, None);
    assert_eq!(
        (code, &t["status"], &t["rated"]),
        (200, &json!("finished"), &json!(true)),
        "{t}"
    );
    drop(server);
    assert_eq!(stored_version(&db), SCHEMA_VERSION);
}

/// `tests/data/pg-v8.sql`: a PostgreSQL database the release before this list of
/// migrations made (its schema then was SQLite's DDL in PostgreSQL's words).
#[test]
#[ignore = "needs PostgreSQL: deploy/test-postgres.sh runs it"]
fn a_postgres_database_of_the_previous_release_opens_with_the_schema_of_a_new_one() {
    const ANE: &str = "32670d22c24e1edd6306f2a3e0918a95";
    const MIKEL: &str = "ad3c92c818f6f982dff04a3925b342ed";
    let base = pg_base().expect("TAPETE_TEST_PG names a PostgreSQL server");
    let fresh = fresh_catalog("schema-pg-fresh");
    let db = fresh_postgres(&base, "schema-pg-v8");
    let dump = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/pg-v8.sql"),
    )
    .unwrap();
    batch(&db, &dump);
    assert_eq!(stored_version(&db), 8);
    let before = catalog(&db);
    let server = Server::on(db.clone(), roomy());
    let (code, me) = server.api("GET", "/api/me", Some(ANE), None);
    assert_eq!(
        (code, me),
        (200, json!({"id": 1, "nickname": "Ane", "account": false}))
    );
    let (code, me) = server.api("GET", "/api/me", Some(MIKEL), None);
    assert_eq!((code, &me["account"]), (200, &json!(true)), "{me}");
    let (code, s) = server.api(
        "POST",
        "/api/sessions",
        None,
        Some(json!({"nickname": "Mikel", "password": "sota de copas"})),
    );
    assert_eq!((code, &s["id"]), (200, &json!(2)), "{s}");
    for (id, rated) in [("86st3bmm", false), ("2aq52dug", true)] {
        let (code, t) = server.api("GET", &format!("/api/tables/{id}"), None, None);
        assert_eq!((code, &t["rated"]), (200, &json!(rated)), "{t}");
    }
    // New rows take the next ids.
    let (code, p) = server.api(
        "POST",
        "/api/players",
        None,
        Some(json!({"nickname": "Iker"})),
    );
    assert_eq!((code, &p["id"]), (200, &json!(3)), "{p}");
    drop(server);
    assert_eq!(stored_version(&db), SCHEMA_VERSION);
    assert_same_schema(&db, &fresh, "pg-v8.sql");
    // What came since: the reviews (version 9), cuadrillas and their tables (10),
    // tournaments (11), notices and Web Push subscriptions (12), committed deals (13),
    // the operator's work (14).
    let since = |l: &&String| {
        l.split_whitespace().nth(1).is_some_and(|what| {
            [
                "reviews.",
                "cuadrillas.",
                "cuadrilla_members.",
                "tables.cuadrilla",
                "tables.tables_cuadrilla",
                "tournaments.",
                "tournament_entries.",
                "tournament_tables.",
                "tournament_seats.",
                "notices.",
                "push_subscriptions.",
                "deals.",
                "contributions.",
                "suspensions.",
                "operator_log.",
                "flags.",
            ]
            .iter()
            .any(|p| what.starts_with(p))
        })
    };
    let fresh_then: Vec<String> = fresh.iter().filter(|l| !since(l)).cloned().collect();
    assert!(
        fresh.iter().any(|l| since(&l)),
        "a new database has reviews"
    );
    assert_eq!(
        before, fresh_then,
        "the previous release's schema is a new database's, but for what came since"
    );
}

#[test]
fn a_migration_that_fails_changes_nothing() {
    // A database of version 3 whose `sessions` (a table of version 5) is not the one
    // version 5 makes: version 4 adds the turn clock, then version 5 fails.
    let db = old_database(3, false, "schema-fails");
    batch(&db, "CREATE TABLE sessions (token_hash TEXT NOT NULL);");
    let before = catalog(&db);
    let e = match stored_is_sqlite(&db) {
        true => tapete_server::store::Db::open(&db).err(),
        false => tapete_server::store::Db::open_postgres(&db.to_string_lossy(), "n", None).err(),
    }
    .expect("the database is refused");
    assert!(e.0.contains("schema version 5"), "{e}");
    assert_eq!(stored_version(&db), 3);
    assert_eq!(catalog(&db), before, "nothing of versions 4 and 5 stays");
}

fn stored_is_sqlite(db: &Path) -> bool {
    !tapete_server::store::pg::is_url(&db.to_string_lossy())
}

#[test]
fn a_database_of_a_newer_version_is_refused_and_left_as_it_is() {
    let db = empty_database("schema-newer");
    open_and_close(&db);
    let newer = SCHEMA_VERSION + 1;
    if stored_is_sqlite(&db) {
        batch(&db, &format!("PRAGMA user_version = {newer}"));
    } else {
        batch(
            &db,
            &format!("UPDATE meta SET value = '{newer}' WHERE key = 'schema'"),
        );
    }
    let before = catalog(&db);
    let e = match stored_is_sqlite(&db) {
        true => tapete_server::store::Db::open(&db).err(),
        false => tapete_server::store::Db::open_postgres(&db.to_string_lossy(), "n", None).err(),
    }
    .expect("refused");
    assert!(e.0.contains("newer than this tapete knows"), "{e}");
    assert_eq!(stored_version(&db), newer);
    assert_eq!(catalog(&db), before);
}

/// A SQLite fixture carried over to PostgreSQL holds the same rows (what the fixture
/// tests rely on when they run on PostgreSQL).
#[test]
#[ignore = "needs PostgreSQL: deploy/test-postgres.sh runs it"]
fn a_fixture_carried_over_to_postgres_holds_its_rows() {
    let base = pg_base().expect("TAPETE_TEST_PG names a PostgreSQL server");
    let sqlite = copy_of_fixture("legacy-v1.db", "schema-carry");
    let url = fresh_postgres(&base, "schema-carry");
    carry_over(&sqlite, &url);
    for sql in [
        "SELECT count(*), CAST(sum(seed % 1000) AS BIGINT), CAST(sum(length(rules)) AS BIGINT)
         FROM tables",
        "SELECT count(*), CAST(sum(n) AS BIGINT), CAST(sum(length(action)) AS BIGINT)
         FROM actions",
        "SELECT count(*), CAST(sum(coalesce(player, 0)) AS BIGINT) FROM seats",
        "SELECT count(*), CAST(sum(id) AS BIGINT), CAST(sum(length(token_hash)) AS BIGINT)
         FROM players",
    ] {
        assert_eq!(ints(&url, sql), ints(&sqlite, sql), "{sql}");
    }
}
