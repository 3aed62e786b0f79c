//! Two servers on one PostgreSQL database, as behind a balancer: each lobby lists the
//! other's tables, a friend online at one is online (and at which table) at the other,
//! an invitation made at one is read at the other, and a table the other runs is named
//! (`table_moved`) only to whoever may see it. `deploy/test-postgres.sh` runs it.

use crate::support::{eventually, fresh_postgres, read_of, roomy, Server};
use serde_json::{json, Value};
use std::time::Duration;

fn friends(server: &Server, token: &str) -> Value {
    let (code, l) = server.api("GET", "/api/friends", Some(token), None);
    assert_eq!(code, 200, "{l}");
    l
}

fn befriend(a: &Server, ane: &str, b: &Server, bea: &str) {
    let ask = |s: &Server, t: &str, who: &str| {
        let (code, r) = s.api(
            "POST",
            "/api/friends",
            Some(t),
            Some(json!({"nickname": who})),
        );
        assert_eq!(code, 200, "{r}");
    };
    ask(a, ane, "Bea");
    ask(b, bea, "Ane");
}

fn lobby_ids(server: &Server) -> Vec<String> {
    let (code, v) = server.api("GET", "/api/tables", None, None);
    assert_eq!(code, 200, "{v}");
    v.as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["id"].as_str().map(str::to_owned))
        .collect()
}

#[test]
#[ignore = "needs PostgreSQL: deploy/test-postgres.sh runs it"]
fn two_servers_share_lobby_presence_and_invitations_and_hide_private_tables() {
    let base =
        std::env::var("TAPETE_TEST_PG").expect("needs PostgreSQL: deploy/test-postgres.sh runs it");
    let db = fresh_postgres(&base, "nodes");
    let a = Server::on_node(db.clone(), roomy(), Some("a"));
    let b = Server::on_node(db, roomy(), Some("b"));
    let (_, ane) = a.account("Ane");
    let (_, bea) = b.account("Bea");
    let (_, cid) = b.account("Cid");
    befriend(&a, &ane, &b, &bea);
    let f = &friends(&b, &bea)["friends"][0];
    assert_eq!(
        (f["nickname"].as_str(), f["online"].as_bool()),
        (Some("Ane"), Some(false)),
        "{f}"
    );

    // Ane sits at a table of a: b's lobby lists it, and Bea's list at b shows Ane there.
    let table = a.table(&ane, json!({"game": "mus", "pace_ms": 0, "seat": 0}));
    let mut ws = a.ws(&table, Some(&ane));
    read_of(&mut ws, "state");
    eventually(Duration::from_secs(4), "b's lobby lists a's table", || {
        lobby_ids(&b).contains(&table)
    });
    eventually(
        Duration::from_secs(4),
        "Bea sees at b that Ane is at a's table",
        || {
            let f = friends(&b, &bea)["friends"][0].clone();
            f["online"] == true && f["table"] == json!({"id": table, "game": "mus"})
        },
    );

    // An invitation made at a is read at b; asked at b, the table is at a.
    let path = format!("/api/tables/{table}/invitations");
    let (code, inv) = a.api("POST", &path, Some(&ane), Some(json!({"nickname": "Bea"})));
    assert_eq!(code, 200, "{inv}");
    let got = friends(&b, &bea)["invitations"].clone();
    assert_eq!(got[0]["table"], table.as_str(), "{got}");
    let (code, e) = b.api("GET", &format!("/api/tables/{table}"), Some(&bea), None);
    assert_eq!(
        (code, e["code"].as_str(), e["node"].as_str()),
        (503, Some("table_moved"), Some("a")),
        "{e}"
    );

    // A private table of a: not in b's lobby; to Cid, who may not see it, b answers as
    // for a table that does not exist (over HTTP and WebSocket); to Bea, once invited,
    // b says where it is.
    let (code, p) = a.api(
        "POST",
        "/api/tables",
        Some(&ane),
        Some(json!({"game": "mus", "private": true, "pace_ms": 0})),
    );
    assert_eq!(code, 200, "{p}");
    let private = p["id"].as_str().unwrap().to_owned();
    let ppath = format!("/api/tables/{private}");
    let (code, e) = b.api("GET", &ppath, Some(&cid), None);
    assert_eq!(
        (code, e["code"].as_str()),
        (404, Some("table_not_found")),
        "{e}"
    );
    let (code, e) = b.api("GET", &ppath, None, None);
    assert_eq!(
        (code, e["code"].as_str()),
        (404, Some("table_not_found")),
        "{e}"
    );
    let (code, e) = b.api("GET", &ppath, Some(&bea), None);
    assert_eq!(
        (code, e["code"].as_str()),
        (404, Some("table_not_found")),
        "{e}"
    );
    let ws_answer = |token: &str| {
        let url = format!("ws://{}/ws/{private}?token={token}", b.addr);
        match tungstenite::connect(url) {
            Ok(_) => 101,
            Err(tungstenite::Error::Http(r)) => r.status().as_u16(),
            Err(e) => panic!("{e}"),
        }
    };
    assert_eq!(ws_answer(&cid), 404);
    let (code, inv) = a.api(
        "POST",
        &format!("{ppath}/invitations"),
        Some(&ane),
        Some(json!({"nickname": "Bea"})),
    );
    assert_eq!(code, 200, "{inv}");
    let (code, e) = b.api("GET", &ppath, Some(&bea), None);
    assert_eq!(
        (code, e["code"].as_str(), e["node"].as_str()),
        (503, Some("table_moved"), Some("a")),
        "{e}"
    );
    assert_eq!(ws_answer(&bea), 503);
    assert_eq!(ws_answer(&cid), 404);
    // Never in b's lobby: a public table made at a after it (published with it or
    // later, and heard in order) is listed at b first, and the private one is not.
    let later = a.table(&ane, json!({"game": "mus", "pace_ms": 0}));
    eventually(
        Duration::from_secs(4),
        "b's lobby lists a's later table",
        || lobby_ids(&b).contains(&later),
    );
    assert!(!lobby_ids(&b).contains(&private));
    drop(ws);
}
