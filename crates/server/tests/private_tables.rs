//! Friends' tables: private tables reached only through their link (or by who sat
//! there), seats kept for named accounts, and the rematch ("otra").

use crate::support::{read_of, roomy, send, Server, Ws};
use serde_json::{json, Value};
use std::time::Duration;

/// A connection's answer: the WebSocket, or the HTTP status of the refusal and its body.
fn try_ws(server: &Server, path: &str) -> Result<Ws, (u16, Value)> {
    let url = format!("ws://{}{path}", server.addr);
    match tungstenite::connect(url) {
        Ok((ws, _)) => Ok(ws),
        Err(tungstenite::Error::Http(r)) => {
            let body = r.body().clone().unwrap_or_default();
            Err((
                r.status().as_u16(),
                serde_json::from_slice(&body).unwrap_or(Value::Null),
            ))
        }
        Err(e) => panic!("{path}: {e}"),
    }
}

/// A quick game of Ring (one hand to 3) for two: Ane made it at seat 0.
fn ring(private: bool) -> Value {
    json!({"game": "ring", "seats": 2, "rules": {"hands": 1, "to": 3}, "private": private,
           "pace_ms": 0, "away_s": 0, "hold_s": 0, "turn_s": 0})
}

/// The answer to a table that does not exist, with its id replaced by `ID`.
fn missing(body: &Value, id: &str) -> String {
    body.to_string().replace(id, "ID")
}

#[test]
fn a_private_table_is_seen_only_through_its_link_or_by_who_sat_there() {
    let server = Server::start("friends-private", roomy());
    let ane = server.player("Ane");
    let bea = server.player("Bea");
    let cris = server.player("Cris");
    let (code, made) = server.api("POST", "/api/tables", Some(&ane), Some(ring(true)));
    assert_eq!(code, 200, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    let invite = made["invite"]
        .as_str()
        .expect("the creator gets the link")
        .to_string();
    assert!(invite.len() >= 24, "at least 96 bits: {invite}");
    assert_eq!(made["private"], true);
    // In no list, whoever asks.
    for who in [None, Some(ane.as_str()), Some(bea.as_str())] {
        let (_, list) = server.api("GET", "/api/tables", who, None);
        assert!(
            list.as_array().unwrap().iter().all(|t| t["id"] != id),
            "{list}"
        );
    }
    // Without the link (or with a wrong one) it is a table that does not exist.
    let (code, none) = server.api("GET", "/api/tables/nosuchtb", Some(&bea), None);
    assert_eq!(code, 404);
    for path in [
        format!("/api/tables/{id}"),
        format!("/api/tables/{id}?invite=0123456789abcdef0123456789abcdef"),
        format!("/api/tables/{id}?invite="),
    ] {
        let (code, body) = server.api("GET", &path, Some(&bea), None);
        assert_eq!(code, 404, "{path}");
        assert_eq!(missing(&body, &id), missing(&none, "nosuchtb"), "{path}");
    }
    for path in [
        format!("/ws/{id}"),
        format!("/ws/{id}?token={bea}"),
        format!("/ws/{id}?token={bea}&invite=wrong"),
    ] {
        let refused = try_ws(&server, &path).map(|_| ()).expect_err("refused");
        let (_, nothing) = try_ws(&server, "/ws/nosuchtb")
            .map(|_| ())
            .expect_err("refused");
        assert_eq!(refused.0, 404, "{path}");
        assert_eq!(missing(&refused.1, &id), missing(&nothing, "nosuchtb"));
    }
    // With the link: seen, watched and joined; the secret is not in the description.
    let (code, seen) = server.api(
        "GET",
        &format!("/api/tables/{id}?invite={invite}"),
        Some(&bea),
        None,
    );
    assert_eq!(code, 200, "{seen}");
    assert!(seen.get("invite").is_none(), "{seen}");
    let mut watcher = try_ws(&server, &format!("/ws/{id}?invite={invite}")).unwrap();
    read_of(&mut watcher, "state");
    drop(watcher);
    let mut b = try_ws(&server, &format!("/ws/{id}?token={bea}&invite={invite}")).unwrap();
    read_of(&mut b, "state");
    send(&mut b, json!({"type": "sit", "seat": 1}));
    crate::support::state_until(&mut b, |s| s["table"]["status"] != "waiting");
    drop(b);
    // The creator needs no link.
    let (code, _) = server.api("GET", &format!("/api/tables/{id}"), Some(&ane), None);
    assert_eq!(code, 200);
    // After a restart the people who sat keep their access; nobody else gets it.
    let server = server.restart();
    let (code, _) = server.api("GET", &format!("/api/tables/{id}"), Some(&bea), None);
    assert_eq!(code, 200, "Bea sat there");
    let mut b = try_ws(&server, &format!("/ws/{id}?token={bea}")).unwrap();
    read_of(&mut b, "state");
    let (code, _) = server.api("GET", &format!("/api/tables/{id}"), Some(&cris), None);
    assert_eq!(code, 404, "Cris never sat there");
    // Not even "the game is not over" from its replay.
    let (code, e) = server.api(
        "GET",
        &format!("/api/tables/{id}/replay"),
        Some(&cris),
        None,
    );
    assert_eq!((code, e["code"].as_str()), (404, Some("table_not_found")));
    let (code, e) = server.api("GET", &format!("/api/tables/{id}/replay"), Some(&bea), None);
    assert_eq!((code, e["code"].as_str()), (403, Some("not_finished")));
    let (_, list) = server.api("GET", "/api/tables", Some(&bea), None);
    assert!(list.as_array().unwrap().iter().all(|t| t["id"] != id));
}

#[test]
fn a_finished_private_game_is_in_no_stranger_s_history_or_replay() {
    let server = Server::start("friends-history", roomy());
    let (ane_id, ane) = server.player_with_id("Ane");
    let bea = server.player("Bea");
    let cris = server.player("Cris");
    let (id, _) = finished_pair(&server, &ane, &bea, true);
    let listed = |who: &str| -> bool {
        let (code, games) = server.api(
            "GET",
            &format!("/api/players/{ane_id}/games"),
            Some(who),
            None,
        );
        assert_eq!(code, 200, "{games}");
        games.as_array().unwrap().iter().any(|g| g["table"] == id)
    };
    assert!(listed(&ane));
    assert!(listed(&bea), "Bea sat there");
    assert!(!listed(&cris), "Cris did not");
    let (code, _) = server.api("GET", &format!("/api/players/{ane_id}/games"), None, None);
    assert_eq!(code, 200);
    for path in [
        format!("/api/tables/{id}/replay"),
        format!("/api/tables/{id}/replay/0"),
    ] {
        assert_eq!(server.api("GET", &path, Some(&bea), None).0, 200, "{path}");
        assert_eq!(server.api("GET", &path, Some(&cris), None).0, 404, "{path}");
        assert_eq!(server.api("GET", &path, None, None).0, 404, "{path}");
    }
}

/// A game of Ring played to its end by Ane (seat 0) and Bea (seat 1), gone from the table
/// so that the bot plays for them at once (a watcher keeps the table going): the table's id and its invite (if private).
fn finished_pair(server: &Server, ane: &str, bea: &str, private: bool) -> (String, Option<String>) {
    let (code, made) = server.api("POST", "/api/tables", Some(ane), Some(ring(private)));
    assert_eq!(code, 200, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    let invite = made["invite"].as_str().map(String::from);
    let q = invite
        .as_ref()
        .map(|i| format!("&invite={i}"))
        .unwrap_or_default();
    let mut b = try_ws(server, &format!("/ws/{id}?token={bea}{q}")).unwrap();
    read_of(&mut b, "state");
    send(&mut b, json!({"type": "sit", "seat": 1}));
    crate::support::state_until(&mut b, |s| s["table"]["status"] != "waiting");
    drop(b);
    // A table nobody watches stops playing: a watcher stays until the end.
    let watch = format!("/ws/{id}{}", q.replacen('&', "?", 1));
    let mut w = try_ws(server, &watch).unwrap();
    read_of(&mut w, "state");
    wait_status(server, &id, ane, "finished");
    drop(w);
    (id, invite)
}

/// Waits (up to 20 s) until table `id` has `status`; its description then. A server on
/// paused time has its clock moved on ten seconds at each look.
fn wait_status(server: &Server, id: &str, token: &str, status: &str) -> Value {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        if server.is_paused() {
            server.advance(Duration::from_secs(10));
        }
        let last = server
            .api("GET", &format!("/api/tables/{id}"), Some(token), None)
            .1;
        if last["status"] == status {
            return last;
        }
        assert!(std::time::Instant::now() < deadline, "not {status}: {last}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_seat_kept_for_an_account_is_taken_by_that_account_alone() {
    let server = Server::start("friends-reserve", roomy());
    let ane = server.player("Ane");
    let bea = server.player("Bea");
    let (mikel_id, mikel) = server.account("mikel");
    let mut body = json!({"game": "ring", "seats": 3, "reserve": {"1": "Mikel"}});
    // Refusal at creation: an unknown account, a seat the table lacks, the creator's seat.
    for (reserve, status, code) in [
        (json!({"1": "nobody"}), 404, "unknown_account"),
        (json!({"5": "mikel"}), 400, "no_such_seat"),
        (json!({"0": "mikel"}), 400, "seat_taken"),
        (json!({"1": "mikel", "2": "MIKEL"}), 400, "already_at_table"),
    ] {
        let mut b = body.clone();
        b["reserve"] = reserve;
        let (s, e) = server.api("POST", "/api/tables", Some(&ane), Some(b));
        assert_eq!((s, e["code"].as_str().unwrap()), (status, code), "{e}");
    }
    let (code, made) = server.api("POST", "/api/tables", Some(&ane), Some(body.take()));
    assert_eq!(code, 200, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    assert_eq!(made["reserved"][1]["nickname"], "mikel");
    assert_eq!(made["reserved"][1]["id"], mikel_id);
    assert!(made.get("invite").is_none(), "a public table has no secret");
    // Bea may not sit there; Mikel may.
    let mut b = server.ws(&id, Some(&bea));
    read_of(&mut b, "state");
    send(&mut b, json!({"type": "sit", "seat": 1}));
    let e = read_of(&mut b, "error");
    assert_eq!(e["code"], "seat_kept", "{e}");
    assert!(e["message"].as_str().unwrap().contains("mikel"));
    // Only the creator keeps or frees seats; the account must exist.
    let (s, e) = keep(&server, &id, &bea, 2, "mikel");
    assert_eq!((s, e["code"].as_str().unwrap()), (403, "not_creator"));
    let (s, e) = keep(&server, &id, &ane, 2, "nobody");
    assert_eq!((s, e["code"].as_str().unwrap()), (404, "unknown_account"));
    let (s, e) = keep(&server, &id, &ane, 2, "mikel");
    assert_eq!((s, e["code"].as_str().unwrap()), (409, "already_at_table"));
    let (s, e) = server.api(
        "DELETE",
        &format!("/api/tables/{id}/seats/1"),
        Some(&bea),
        None,
    );
    assert_eq!((s, e["code"].as_str().unwrap()), (403, "not_creator"));
    // Kept across a restart.
    drop(b);
    let server = server.restart();
    let (_, t) = server.api("GET", &format!("/api/tables/{id}"), Some(&ane), None);
    assert_eq!(t["reserved"][1]["nickname"], "mikel", "{t}");
    let mut m = server.ws(&id, Some(&mikel));
    read_of(&mut m, "state");
    send(&mut m, json!({"type": "sit", "seat": 1}));
    let s = crate::support::state_until(&mut m, |s| s["table"]["seats"][1]["player"].is_object());
    assert_eq!(s["table"]["seats"][1]["player"]["id"], mikel_id);
    assert!(s["table"]["reserved"][1].is_null(), "taken: kept no more");
    // The creator frees the seat Mikel holds: he stands up.
    let (s, t) = server.api(
        "DELETE",
        &format!("/api/tables/{id}/seats/1"),
        Some(&ane),
        None,
    );
    assert_eq!(s, 200, "{t}");
    assert!(t["seats"][1]["player"].is_null(), "{t}");
    // Kept for Mikel again, then freed: anyone may sit there.
    let (s, t) = server.api(
        "POST",
        &format!("/api/tables/{id}/seats/1/reserve"),
        Some(&ane),
        Some(json!({"nickname": "mikel"})),
    );
    assert_eq!(s, 200, "{t}");
    assert_eq!(t["reserved"][1]["nickname"], "mikel");
    let (s, t) = server.api(
        "DELETE",
        &format!("/api/tables/{id}/seats/1"),
        Some(&ane),
        None,
    );
    assert_eq!(s, 200);
    assert!(t["reserved"][1].is_null(), "{t}");
    let (s, e) = server.api(
        "DELETE",
        &format!("/api/tables/{id}/seats/7"),
        Some(&ane),
        None,
    );
    assert_eq!((s, e["code"].as_str().unwrap()), (400, "no_such_seat"));
    // Once started, seats are neither kept nor freed.
    let (s, t) = keep(&server, &id, &ane, 1, "mikel");
    assert_eq!(s, 200, "{t}");
    let mut a = server.ws(&id, Some(&ane));
    read_of(&mut a, "state");
    send(&mut a, json!({"type": "start"}));
    crate::support::state_until(&mut a, |s| s["table"]["status"] == "playing");
    let (s, t) = server.api("GET", &format!("/api/tables/{id}"), Some(&ane), None);
    assert_eq!(s, 200);
    assert!(
        t["reserved"][1].is_null(),
        "a seat still kept at the start goes to the bot"
    );
    let (s, e) = keep(&server, &id, &ane, 1, "mikel");
    assert_eq!((s, e["code"].as_str().unwrap()), (409, "already_started"));
    let (s, e) = server.api(
        "DELETE",
        &format!("/api/tables/{id}/seats/2"),
        Some(&ane),
        None,
    );
    assert_eq!((s, e["code"].as_str().unwrap()), (409, "already_started"));
}

/// Keeps `seat` of table `id` for `nickname`, as `token` asks.
fn keep(server: &Server, id: &str, token: &str, seat: usize, nickname: &str) -> (u16, Value) {
    server.api(
        "POST",
        &format!("/api/tables/{id}/seats/{seat}/reserve"),
        Some(token),
        Some(json!({"nickname": nickname})),
    )
}

#[test]
fn otra_seats_the_same_people_one_seat_on_in_one_new_table() {
    let server = Server::start("friends-rematch", roomy());
    let (ane_id, ane) = server.player_with_id("Ane");
    let (bea_id, bea) = server.player_with_id("Bea");
    let cris = server.player("Cris");
    let (id, invite) = finished_pair(&server, &ane, &bea, true);
    let invite = invite.unwrap();
    // Only the people of the finished table may ask, and only once it is over.
    let path = format!("/api/tables/{id}/rematch?invite={invite}");
    let (s, e) = server.api("POST", &path, Some(&cris), None);
    assert_eq!((s, e["code"].as_str().unwrap()), (403, "not_a_player"));
    let (code, t) = server.api("POST", "/api/tables", Some(&ane), Some(ring(false)));
    assert_eq!(code, 200);
    let waiting = t["id"].as_str().unwrap();
    let (s, e) = server.api(
        "POST",
        &format!("/api/tables/{waiting}/rematch"),
        Some(&ane),
        None,
    );
    assert_eq!((s, e["code"].as_str().unwrap()), (409, "not_finished"));
    // Ane asks: a new private table, a new secret, herself one seat on, Bea's seat kept.
    let mut watch = server.ws(&id, Some(&bea));
    let first = read_of(&mut watch, "state");
    assert!(first["table"]["rematch"].is_null());
    let (code, new) = server.api(
        "POST",
        &format!("/api/tables/{id}/rematch"),
        Some(&ane),
        None,
    );
    assert_eq!(code, 200, "{new}");
    let new_id = new["id"].as_str().unwrap().to_string();
    assert_ne!(new_id, id);
    assert_eq!(new["status"], "waiting");
    assert_eq!(new["game"], "ring");
    assert_eq!(new["rules"], first["table"]["rules"]);
    assert_eq!(new["rematch_of"], id.as_str());
    assert_eq!(new["private"], true);
    let new_invite = new["invite"].as_str().expect("a new secret").to_string();
    assert_ne!(new_invite, invite);
    assert_eq!(
        new["seats"][1]["player"]["id"], ane_id,
        "seat 0 moves to seat 1"
    );
    assert_eq!(new["reserved"][0]["id"], bea_id, "seat 1 moves to seat 0");
    // Bea is offered it on the finished table's connection.
    let offered = loop {
        let m = crate::support::read(&mut watch).expect("open");
        if m["type"] == "table" || m["type"] == "state" {
            let t = &m["table"];
            if !t["rematch"].is_null() {
                break t.clone();
            }
        }
    };
    assert_eq!(offered["rematch"], new_id.as_str());
    // The new table is in no list; Bea sees it without its secret (her seat is kept).
    let (_, list) = server.api("GET", "/api/tables", Some(&bea), None);
    assert!(list
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t["id"] != new_id.as_str()));
    // Bea asks too: the same table, she sits, everybody accepted: it starts.
    let (code, again) = server.api(
        "POST",
        &format!("/api/tables/{id}/rematch"),
        Some(&bea),
        None,
    );
    assert_eq!(code, 200, "{again}");
    assert_eq!(again["id"], new_id.as_str());
    assert_eq!(again["invite"], new_invite.as_str());
    assert_eq!(again["seats"][0]["player"]["id"], bea_id);
    let t = wait_status(&server, &new_id, &bea, "playing");
    assert!(t["seats"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["player"].is_object()));
    // Asking again changes nothing.
    let (code, third) = server.api(
        "POST",
        &format!("/api/tables/{id}/rematch"),
        Some(&ane),
        None,
    );
    assert_eq!((code, third["id"].as_str()), (200, Some(new_id.as_str())));
}

#[test]
fn otra_starts_at_its_time_with_the_bot_for_who_did_not_accept() {
    // Real time and a short wait: on paused time the clock moved on while the bots played
    // the first game, and the watcher keeping it going was cut off as silent.
    let limits = tapete_server::Limits {
        rematch_wait: Duration::from_secs(2),
        ..roomy()
    };
    let server = Server::start("friends-rematch-time", limits);
    let ane = server.player("Ane");
    let (bea_id, bea) = server.player_with_id("Bea");
    let (id, _) = finished_pair(&server, &ane, &bea, false);
    let (code, new) = server.api(
        "POST",
        &format!("/api/tables/{id}/rematch"),
        Some(&bea),
        None,
    );
    assert_eq!(code, 200, "{new}");
    assert!(
        new.get("invite").is_none(),
        "a public rematch has no secret"
    );
    let new_id = new["id"].as_str().unwrap().to_string();
    assert_eq!(new["seats"][0]["player"]["id"], bea_id);
    // Across a restart the old table still offers it, and the new one still waits.
    let server = server.restart();
    let (_, old) = server.api("GET", &format!("/api/tables/{id}"), Some(&ane), None);
    assert_eq!(old["rematch"], new_id.as_str());
    let t = wait_status(&server, &new_id, &ane, "playing");
    assert!(t["seats"][1]["player"].is_null(), "Ane did not accept: {t}");
    assert_eq!(t["seats"][1]["bot"], t["bot"]);
    assert!(t["reserved"][1].is_null());
    // Ane asking now is told the table: she can watch it.
    let (code, late) = server.api(
        "POST",
        &format!("/api/tables/{id}/rematch"),
        Some(&ane),
        None,
    );
    assert_eq!((code, late["id"].as_str()), (200, Some(new_id.as_str())));
}

#[test]
fn a_schema_5_database_upgrades_in_place_and_keeps_everything() {
    let server = Server::start_file("friends-upgrade", roomy());
    let (ane_id, ane) = server.player_with_id("Ane");
    let (mikel_id, _) = server.account("mikel");
    let id = server.table(&ane, json!({"game": "ring", "seats": 3}));
    let db = server.db.clone();
    drop(server);
    // The database as schema 5 left it: none of the friends' tables.
    {
        let c = rusqlite::Connection::open(&db).unwrap();
        c.execute_batch(
            "DROP TABLE private_tables; DROP TABLE reserved_seats; DROP TABLE rematches;
             PRAGMA user_version = 5;",
        )
        .unwrap();
    }
    for _ in 0..2 {
        let server = Server::on(db.clone(), roomy());
        assert!(server.restored >= 1, "the waiting table is back");
        let (code, t) = server.api("GET", &format!("/api/tables/{id}"), None, None);
        assert_eq!(code, 200, "{t}");
        assert_eq!(t["private"], false);
        assert_eq!(t["seats"][0]["player"]["id"], ane_id);
        let (code, me) = server.api("GET", "/api/me", Some(&ane), None);
        assert_eq!((code, me["id"].as_i64()), (200, Some(ane_id)));
        let (code, s) = server.api(
            "POST",
            "/api/sessions",
            None,
            Some(json!({"nickname": "mikel", "password": "sota de copas"})),
        );
        assert_eq!((code, s["id"].as_i64()), (200, Some(mikel_id)), "{s}");
        // The new tables are there: a private table with a kept seat is stored.
        let (code, t) = server.api(
            "POST",
            "/api/tables",
            Some(&ane),
            Some(json!({"game": "ring", "seats": 2, "private": true, "reserve": {"1": "mikel"}})),
        );
        assert_eq!(code, 200, "{t}");
        drop(server);
        let c = rusqlite::Connection::open(&db).unwrap();
        let version: i64 = c
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, tapete_server::store::SCHEMA_VERSION);
    }
}
