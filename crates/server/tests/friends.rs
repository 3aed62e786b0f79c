//! Friends: accounts only, both agree, online and at which table, invitations seen only by
//! the invitee, and the bounds; and a schema-5 database upgraded in place.

use crate::support::{read_of, roomy, Server};
use serde_json::{json, Value};
use std::time::Duration;
use tapete_server::Limits;

fn list(server: &Server, token: &str) -> Value {
    let (code, l) = server.api("GET", "/api/friends", Some(token), None);
    assert_eq!(code, 200, "{l}");
    l
}

fn ask(server: &Server, token: &str, nickname: &str) -> (u16, Value) {
    server.api(
        "POST",
        "/api/friends",
        Some(token),
        Some(json!({ "nickname": nickname })),
    )
}

fn nicknames(v: &Value) -> Vec<&str> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| p["nickname"].as_str().unwrap())
        .collect()
}

#[test]
fn guests_are_told_to_make_an_account() {
    let server = Server::start("friends-guest", roomy());
    let guest = server.player("Iker");
    let (code, e) = server.api("GET", "/api/friends", Some(&guest), None);
    assert_eq!(
        (code, e["code"].as_str()),
        (403, Some("friends_account_only"))
    );
    assert!(e["error"].as_str().unwrap().contains("make an account"));
    let (_, ane) = server.account("Ane");
    // Nor can a guest be asked.
    let (code, e) = ask(&server, &ane, "Iker");
    assert_eq!(
        (code, e["code"].as_str()),
        (404, Some("friends_no_such_account"))
    );
}

#[test]
fn friends_are_made_when_both_agree_and_either_may_end_it() {
    let server = Server::start("friends-agree", roomy());
    let (ane_id, ane) = server.account("Ane");
    let (bea_id, bea) = server.account("Bea");
    let (code, r) = ask(&server, &ane, "bea");
    assert_eq!(
        (code, r["status"].as_str()),
        (200, Some("requested")),
        "{r}"
    );
    assert_eq!(
        nicknames(&list(&server, &ane)["friends"]),
        Vec::<&str>::new()
    );
    assert_eq!(nicknames(&list(&server, &ane)["outgoing"]), ["Bea"]);
    assert_eq!(nicknames(&list(&server, &bea)["incoming"]), ["Ane"]);
    assert_eq!(
        nicknames(&list(&server, &bea)["friends"]),
        Vec::<&str>::new()
    );
    // Asking oneself is refused.
    assert_eq!(ask(&server, &ane, "Ane").0, 400);
    // Bea accepts by asking back: friends, both ways, no request left.
    let (code, r) = ask(&server, &bea, "Ane");
    assert_eq!((code, r["status"].as_str()), (200, Some("friends")));
    for t in [&ane, &bea] {
        let l = list(&server, t);
        assert_eq!(l["friends"].as_array().unwrap().len(), 1, "{l}");
        assert_eq!(l["incoming"], json!([]));
        assert_eq!(l["outgoing"], json!([]));
    }
    // Either ends it, for both.
    let (code, _) = server.api(
        "DELETE",
        &format!("/api/friends/{bea_id}"),
        Some(&ane),
        None,
    );
    assert_eq!(code, 200);
    assert_eq!(list(&server, &bea)["friends"], json!([]));
    // A request declined is gone; a second decline finds nothing.
    ask(&server, &bea, "Ane");
    let path = format!("/api/friends/requests/{bea_id}");
    assert_eq!(server.api("DELETE", &path, Some(&ane), None).0, 200);
    assert_eq!(list(&server, &bea)["outgoing"], json!([]));
    assert_eq!(server.api("DELETE", &path, Some(&ane), None).0, 404);
    let _ = ane_id;
}

#[test]
fn a_friend_is_shown_online_and_at_which_table() {
    let server = Server::start("friends-online", roomy());
    let (_, ane) = server.account("Ane");
    let (_, bea) = server.account("Bea");
    ask(&server, &ane, "Bea");
    ask(&server, &bea, "Ane");
    let f = &list(&server, &ane)["friends"][0];
    assert_eq!(
        (f["online"].as_bool(), &f["table"]),
        (Some(false), &Value::Null)
    );
    let table = server.table(&bea, json!({"game": "mus", "pace_ms": 0, "seat": 0}));
    let mut ws = server.ws(&table, Some(&bea));
    read_of(&mut ws, "state");
    let f = &list(&server, &ane)["friends"][0];
    assert_eq!(f["online"], true, "{f}");
    assert_eq!(f["table"], json!({"id": table, "game": "mus"}));
}

#[test]
fn an_invitation_is_seen_only_by_the_invitee_and_only_from_a_friend() {
    let server = Server::start("friends-invite", roomy());
    let (_, ane) = server.account("Ane");
    let (_, bea) = server.account("Bea");
    let (_, cid) = server.account("Cid");
    for other in ["Bea", "Cid"] {
        ask(&server, &ane, other);
    }
    ask(&server, &bea, "Ane");
    ask(&server, &cid, "Ane");
    let table = server.table(&ane, json!({"game": "mus", "pace_ms": 0, "seat": 0}));
    let path = format!("/api/tables/{table}/invitations");
    let (code, inv) = server.api("POST", &path, Some(&ane), Some(json!({"nickname": "Bea"})));
    assert_eq!(code, 200, "{inv}");
    let got = list(&server, &bea)["invitations"].clone();
    assert_eq!(got[0]["table"], table.as_str(), "{got}");
    assert_eq!(got[0]["from"]["nickname"], "Ane");
    assert_eq!(got[0]["game"], "mus");
    assert_eq!(list(&server, &cid)["invitations"], json!([]));
    assert_eq!(list(&server, &ane)["invitations"], json!([]));
    // Bea has a notice of it, Cid and Ane none; reading after it gives nothing new.
    let (code, notices) = server.api("GET", "/api/notices", Some(&bea), None);
    assert_eq!(code, 200, "{notices}");
    assert_eq!(notices.as_array().map(Vec::len), Some(1), "{notices}");
    assert_eq!(notices[0]["kind"], "invitation");
    assert_eq!(notices[0]["url"], format!("/t/{table}"));
    assert_eq!(notices[0]["args"]["from"], "Ane");
    let after = format!("/api/notices?after={}", notices[0]["id"]);
    assert_eq!(server.api("GET", &after, Some(&bea), None).1, json!([]));
    for who in [&cid, &ane] {
        assert_eq!(
            server.api("GET", "/api/notices", Some(who), None).1,
            json!([])
        );
    }
    // Bea and Cid are not friends of each other: no invitation between them.
    let (code, e) = server.api("POST", &path, Some(&bea), Some(json!({"nickname": "Cid"})));
    assert_eq!(
        (code, e["code"].as_str()),
        (403, Some("friends_not_friends"))
    );
    // An unknown table is a 404.
    let (code, _) = server.api(
        "POST",
        "/api/tables/nosuchtb/invitations",
        Some(&ane),
        Some(json!({"nickname": "Bea"})),
    );
    assert_eq!(code, 404);
    // Nor can a private table be found by inviting to it without its link: to Ane, who never
    // sat there, it is a table that does not exist.
    let hidden = server.api(
        "POST",
        "/api/tables",
        Some(&cid),
        Some(json!({"game": "mus", "private": true})),
    );
    assert_eq!(hidden.0, 200, "{}", hidden.1);
    let hidden_path = format!(
        "/api/tables/{}/invitations",
        hidden.1["id"].as_str().unwrap()
    );
    let (code, e) = server.api(
        "POST",
        &hidden_path,
        Some(&ane),
        Some(json!({"nickname": "Bea"})),
    );
    assert_eq!(
        (code, e["code"].as_str()),
        (404, Some("table_not_found")),
        "{e}"
    );
    // Only the invitee (or the one who invited) may dismiss it.
    let dismiss = format!("/api/invitations/{}", inv["id"]);
    assert_eq!(server.api("DELETE", &dismiss, Some(&cid), None).0, 404);
    assert_eq!(server.api("DELETE", &dismiss, Some(&bea), None).0, 200);
    assert_eq!(list(&server, &bea)["invitations"], json!([]));
}

/// An invitation lasts an hour, on the server's clock (paused here): there a second
/// before, gone a second after.
#[test]
fn an_invitation_lasts_an_hour() {
    let hours = Duration::from_secs(3 * 3600);
    let server = Server::start_paused(
        "friends-invite-hour",
        Limits {
            // The table waits, with nobody at it, for longer than the invitation lasts.
            idle_table: hours,
            idle_waiting_table: hours,
            ..roomy()
        },
    );
    let (_, ane) = server.account("Ane");
    let (_, bea) = server.account("Bea");
    ask(&server, &ane, "Bea");
    ask(&server, &bea, "Ane");
    let table = server.table(&ane, json!({"game": "mus", "pace_ms": 0, "seat": 0}));
    let path = format!("/api/tables/{table}/invitations");
    let (code, inv) = server.api("POST", &path, Some(&ane), Some(json!({"nickname": "Bea"})));
    assert_eq!(code, 200, "{inv}");
    let ttl = Duration::from_secs(tapete_server::friends::INVITATION_TTL as u64);
    server.advance(ttl - Duration::from_secs(2));
    let got = list(&server, &bea)["invitations"].clone();
    assert_eq!(got[0]["table"], table.as_str(), "{got}");
    server.advance(Duration::from_secs(3));
    assert_eq!(list(&server, &bea)["invitations"], json!([]));
}

#[test]
fn an_invitation_opens_a_private_table_to_the_invitee_alone() {
    let server = Server::start("friends-invite-private", roomy());
    let (_, ane) = server.account("Ane");
    let (_, bea) = server.account("Bea");
    let (_, cid) = server.account("Cid");
    ask(&server, &cid, "Ane");
    ask(&server, &ane, "Cid");
    let id = private_mus(&server, &cid);
    let path = format!("/api/tables/{id}");
    assert_eq!(server.api("GET", &path, Some(&ane), None).0, 404);
    let (code, inv) = server.api(
        "POST",
        &format!("{path}/invitations"),
        Some(&cid),
        Some(json!({"nickname": "Ane"})),
    );
    assert_eq!(code, 200, "{inv}");
    // The invitation is the link: Ane sees the table and may sit; Bea still may not.
    let (code, seen) = server.api("GET", &path, Some(&ane), None);
    assert_eq!(
        (code, seen["id"].as_str()),
        (200, Some(id.as_str())),
        "{seen}"
    );
    assert_eq!(server.api("GET", &path, Some(&bea), None).0, 404);
    assert_eq!(server.api("GET", &path, None, None).0, 404);
    let mut ws = server.ws(&id, Some(&ane));
    read_of(&mut ws, "state");
    // Dismissed, it no longer opens the table to someone who never sat there.
    let (_, dan) = server.account("Dan");
    ask(&server, &cid, "Dan");
    ask(&server, &dan, "Cid");
    let (_, inv) = server.api(
        "POST",
        &format!("{path}/invitations"),
        Some(&cid),
        Some(json!({"nickname": "Dan"})),
    );
    assert_eq!(server.api("GET", &path, Some(&dan), None).0, 200);
    let dismiss = format!("/api/invitations/{}", inv["id"]);
    assert_eq!(server.api("DELETE", &dismiss, Some(&dan), None).0, 200);
    assert_eq!(server.api("GET", &path, Some(&dan), None).0, 404);
}

#[test]
fn requests_and_invitations_are_rate_capped() {
    let server = Server::start("friends-rate", roomy());
    let (_, ane) = server.account("Ane");
    let names: Vec<String> = (0..=tapete_server::friends::RATE_BURST)
        .map(|i| format!("P{i}"))
        .collect();
    for n in &names {
        server.account(n);
    }
    let mut codes = Vec::new();
    for n in &names {
        codes.push(ask(&server, &ane, n).0);
    }
    assert_eq!(codes.iter().filter(|c| **c == 200).count(), names.len() - 1);
    assert_eq!(*codes.last().unwrap(), 429, "{codes:?}");
    let (_, e) = ask(&server, &ane, &names[0]);
    assert!(e["error"].as_str().unwrap().contains("try again in"), "{e}");
}

#[test]
fn a_schema_5_database_upgrades_in_place_and_keeps_its_people() {
    // A database as the release before chat and friends wrote it: today's schema without
    // the new tables, version 5.
    let server = Server::start_file("friends-v5", roomy());
    let (ane_id, ane) = server.account("Ane");
    let guest = server.player("Iker");
    let table = server.table(&guest, json!({"game": "mus", "pace_ms": 0, "seat": 0}));
    let db = server.db.clone();
    drop(server);
    let c = rusqlite::Connection::open(&db).unwrap();
    c.execute_batch(
        "DROP TABLE chat; DROP TABLE mutes; DROP TABLE reports; DROP TABLE friends;
         DROP TABLE friend_requests; DROP TABLE invitations; PRAGMA user_version = 5;",
    )
    .unwrap();
    drop(c);
    let server = Server::on(db.clone(), roomy());
    let (code, me) = server.api("GET", "/api/me", Some(&ane), None);
    assert_eq!((code, me["id"].as_i64()), (200, Some(ane_id)));
    assert_eq!(server.api("GET", "/api/me", Some(&guest), None).0, 200);
    assert_eq!(
        server
            .api("GET", &format!("/api/tables/{table}"), None, None)
            .0,
        200
    );
    assert_eq!(list(&server, &ane)["friends"], json!([]));
    drop(server);
    let c = rusqlite::Connection::open(&db).unwrap();
    let version: i64 = c
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, tapete_server::store::SCHEMA_VERSION);
    // Opened again at version 6, nothing changes.
    drop(c);
    let server = Server::on(db, roomy());
    assert_eq!(server.api("GET", "/api/me", Some(&ane), None).0, 200);
}

/// `a` and `b` become friends (each asks the other).
/// A private Mus table made by `token`; its id.
fn private_mus(server: &Server, token: &str) -> String {
    let (code, t) = server.api(
        "POST",
        "/api/tables",
        Some(token),
        Some(json!({"game": "mus", "private": true, "pace_ms": 0})),
    );
    assert_eq!(code, 200, "{t}");
    t["id"].as_str().unwrap().to_string()
}

fn befriend(server: &Server, a: &str, b: (&str, &str)) {
    let (b_token, b_name) = b;
    let (code, me) = server.api("GET", "/api/me", Some(a), None);
    assert_eq!(code, 200, "{me}");
    ask(server, a, b_name);
    let (code, r) = ask(server, b_token, me["nickname"].as_str().unwrap());
    assert_eq!((code, r["status"].as_str()), (200, Some("friends")), "{r}");
}

/// `from` invites `nickname` to `table`: the invitation's id.
fn invite(server: &Server, from: &str, table: &str, nickname: &str) -> i64 {
    let (code, inv) = server.api(
        "POST",
        &format!("/api/tables/{table}/invitations"),
        Some(from),
        Some(json!({ "nickname": nickname })),
    );
    assert_eq!(code, 200, "{inv}");
    inv["id"].as_i64().unwrap()
}

#[test]
fn an_invitation_seats_the_invitee_at_a_private_table_and_lasts_until_they_sit() {
    let server = Server::start("friends-invite-join", roomy());
    let (_, cid) = server.account("Cid");
    let (ane_id, ane) = server.account("Ane");
    let (dan_id, dan) = server.account("Dan");
    let (_, fay) = server.account("Fay");
    let (_, bea) = server.account("Bea");
    for other in [(&ane, "Ane"), (&dan, "Dan"), (&fay, "Fay")] {
        befriend(&server, &cid, (other.0.as_str(), other.1));
    }
    let (code, t) = server.api(
        "POST",
        "/api/tables",
        Some(&cid),
        Some(json!({"game": "mus", "private": true, "pace_ms": 0, "reserve": {"3": "Dan"}})),
    );
    assert_eq!(code, 200, "{t}");
    let id = t["id"].as_str().unwrap().to_string();
    let path = format!("/api/tables/{id}");
    let (_, nothing) = server.api("GET", "/api/tables/nosuchtb", Some(&bea), None);
    let inv = invite(&server, &cid, &id, "Ane");
    let accept = format!("/api/invitations/{inv}/accept");
    // Nobody but the invitee may use it; to a stranger the table is still no table.
    let (code, e) = server.api("POST", &accept, Some(&bea), None);
    assert_eq!(
        (code, e["code"].as_str()),
        (404, Some("friends_no_invitation"))
    );
    let (code, e) = server.api("GET", &path, Some(&bea), None);
    assert_eq!(code, 404);
    assert_eq!(
        e.to_string().replace(&id, "ID"),
        nothing.to_string().replace("nosuchtb", "ID")
    );
    // Opening the table leaves the invitation there: it is Ane's way in until she sits.
    assert_eq!(server.api("GET", &path, Some(&ane), None).0, 200);
    assert_eq!(list(&server, &ane)["invitations"][0]["id"], inv);
    // Accepting seats her at the first free seat (seat 3 is kept for Dan), and answers it.
    let (code, seated) = server.api("POST", &accept, Some(&ane), None);
    assert_eq!(code, 200, "{seated}");
    assert_eq!(seated["id"], id.as_str());
    assert_eq!(seated["seats"][1]["player"]["id"], ane_id, "{seated}");
    assert_eq!(list(&server, &ane)["invitations"], json!([]), "answered");
    let (code, e) = server.api("POST", &accept, Some(&ane), None);
    assert_eq!(
        (code, e["code"].as_str()),
        (404, Some("friends_no_invitation"))
    );
    // She sat there: the table stays open to her; still to nobody else.
    assert_eq!(server.api("GET", &path, Some(&ane), None).0, 200);
    assert_eq!(server.api("GET", &path, Some(&bea), None).0, 404);
    // An invitee a seat is kept for is seated there.
    let inv = invite(&server, &cid, &id, "Dan");
    let (code, t) = server.api(
        "POST",
        &format!("/api/invitations/{inv}/accept"),
        Some(&dan),
        None,
    );
    assert_eq!(code, 200, "{t}");
    assert_eq!(t["seats"][3]["player"]["id"], dan_id, "{t}");
    assert!(t["reserved"][3].is_null());
    // Declined, an invitation is gone and opens nothing.
    let inv = invite(&server, &cid, &id, "Fay");
    assert_eq!(server.api("GET", &path, Some(&fay), None).0, 200);
    let dismiss = format!("/api/invitations/{inv}");
    assert_eq!(server.api("DELETE", &dismiss, Some(&fay), None).0, 200);
    assert_eq!(list(&server, &fay)["invitations"], json!([]));
    let (code, e) = server.api(
        "POST",
        &format!("/api/invitations/{inv}/accept"),
        Some(&fay),
        None,
    );
    assert_eq!(
        (code, e["code"].as_str()),
        (404, Some("friends_no_invitation"))
    );
    assert_eq!(server.api("GET", &path, Some(&fay), None).0, 404);
}

#[test]
fn sitting_by_the_table_s_own_seats_answers_the_invitation_too() {
    let server = Server::start("friends-invite-sit", roomy());
    let (_, cid) = server.account("Cid");
    let (ane_id, ane) = server.account("Ane");
    befriend(&server, &cid, (&ane, "Ane"));
    let id = private_mus(&server, &cid);
    invite(&server, &cid, &id, "Ane");
    // The invitation opens the table's WebSocket to her, without its link; she sits.
    let mut ws = server.ws(&id, Some(&ane));
    read_of(&mut ws, "state");
    crate::support::send(&mut ws, json!({"type": "sit", "seat": 2}));
    crate::support::state_until(&mut ws, |s| {
        s["table"]["seats"][2]["player"]["id"] == ane_id
    });
    assert_eq!(list(&server, &ane)["invitations"], json!([]));
}
