//! Cuadrillas: made by an account, joined by their link (a wrong one is a cuadrilla that
//! does not exist), left, members removed by the owner (which renews the link); their
//! tables are private tables every member opens and nobody else does; every bound refused
//! with its code; the league tables equal those replayed from the stored logs; and a weekly
//! slot's start is told to every member once.

use crate::support::{choose, games, legal, read_of, roomy, send, state_until, Server, Ws};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use tapete_server::cuadrillas::{Slot, MAX_MEMBERS, MAX_PER_PERSON};
use tapete_tournament::league::{tables, LeagueGame};

fn code((status, v): (u16, Value)) -> (u16, String) {
    (status, v["code"].as_str().unwrap_or("").to_string())
}

/// A new cuadrilla of `token`'s: its id and invitation secret.
fn cuadrilla(server: &Server, token: &str, name: &str) -> (String, String) {
    let (status, c) = server.api(
        "POST",
        "/api/cuadrillas",
        Some(token),
        Some(json!({ "name": name })),
    );
    assert_eq!(status, 200, "{c}");
    (
        c["id"].as_str().unwrap().to_string(),
        c["invite"].as_str().unwrap().to_string(),
    )
}

fn join(server: &Server, id: &str, invite: &str, token: &str) -> (u16, Value) {
    server.api(
        "POST",
        &format!("/api/cuadrillas/{id}/members"),
        Some(token),
        Some(json!({ "invite": invite })),
    )
}

fn get(server: &Server, id: &str, query: &str, token: Option<&str>) -> (u16, Value) {
    server.api("GET", &format!("/api/cuadrillas/{id}{query}"), token, None)
}

fn ids(doc: &Value) -> Vec<i64> {
    doc["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_i64().unwrap())
        .collect()
}

#[test]
fn a_cuadrilla_is_joined_by_its_link_left_and_its_tables_are_its_members_alone() {
    let server = Server::start("cuadrilla-members", roomy());
    let (ane_id, ane) = server.account("Ane");
    let (bea_id, bea) = server.account("Bea");
    let (cris_id, cris) = server.account("Cris");
    let guest = server.player("Invitado");
    assert_eq!(
        code(server.api(
            "POST",
            "/api/cuadrillas",
            Some(&guest),
            Some(json!({"name": "x"}))
        )),
        (403, "account_only".into())
    );
    let (status, made) = server.api(
        "POST",
        "/api/cuadrillas",
        Some(&ane),
        Some(json!({"name": "  Los del jueves ",
                     "slot": {"day": 3, "time": "22:00", "offset_min": 120}})),
    );
    assert_eq!(status, 200, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    let invite = made["invite"].as_str().unwrap().to_string();

    // Without the link, or with a wrong one, it does not exist; with it, it is seen.
    for query in [String::new(), "?invite=nope".into()] {
        assert_eq!(
            code(get(&server, &id, &query, Some(&bea))),
            (404, "cuadrilla_not_found".into())
        );
    }
    assert_eq!(
        code(get(&server, "nosuchid", "", Some(&bea))),
        (404, "cuadrilla_not_found".into())
    );
    let (status, seen) = get(&server, &id, &format!("?invite={invite}"), None);
    assert_eq!(status, 200, "{seen}");
    assert_eq!(seen["name"], "Los del jueves");
    assert_eq!(seen["member"], false);
    assert!(
        seen.get("invite").is_none(),
        "the link is the members': {seen}"
    );
    assert_eq!(
        seen["slot"],
        json!({"day": 3, "time": "22:00", "offset_min": 120, "next": seen["slot"]["next"]})
    );
    assert_eq!(ids(&seen), [ane_id]);

    // Joining: a wrong link is a cuadrilla that does not exist; a guest may not.
    assert_eq!(
        code(join(&server, &id, "nope", &bea)),
        (404, "cuadrilla_not_found".into())
    );
    assert_eq!(
        code(join(&server, &id, &invite, &guest)),
        (403, "account_only".into())
    );
    let (status, doc) = join(&server, &id, &invite, &bea);
    assert_eq!(status, 200, "{doc}");
    assert_eq!(doc["member"], true);
    assert_eq!(ids(&doc), [ane_id, bea_id]);
    let (_, mine) = server.api("GET", "/api/me/cuadrillas", Some(&bea), None);
    assert_eq!(mine[0]["id"], id);
    assert_eq!(mine[0]["members"], 2);
    assert_eq!(mine[0]["owner"], false);

    // Its table: private, open to every member without the link, to nobody else.
    let (status, t) = server.api(
        "POST",
        "/api/tables",
        Some(&ane),
        Some(json!({"game": "ring", "seats": 2, "cuadrilla": id})),
    );
    assert_eq!(status, 200, "{t}");
    assert_eq!(t["private"], true);
    assert_eq!(t["cuadrilla"], id);
    let table = t["id"].as_str().unwrap().to_string();
    let (status, _) = server.api("GET", &format!("/api/tables/{table}"), Some(&bea), None);
    assert_eq!(status, 200);
    assert_eq!(
        code(server.api("GET", &format!("/api/tables/{table}"), Some(&cris), None)),
        (404, "table_not_found".into())
    );
    let (_, open) = server.api("GET", "/api/tables", None, None);
    assert!(!open.to_string().contains(&table), "in no list: {open}");
    // A member sits there through the WebSocket, without the link.
    let mut bws = server.ws(&table, Some(&bea));
    send(&mut bws, json!({"type": "sit", "seat": 1}));
    state_until(&mut bws, |s| {
        s["table"]["seats"][1]["player"]["id"] == bea_id
    });
    // Only members make its tables.
    assert_eq!(
        code(server.api(
            "POST",
            "/api/tables",
            Some(&cris),
            Some(json!({"game": "ring", "cuadrilla": id}))
        )),
        (404, "cuadrilla_not_found".into())
    );
    let (_, doc) = get(&server, &id, "", Some(&bea));
    assert_eq!(doc["open"][0]["id"], table, "{doc}");
    assert_eq!(doc["invite"], invite);

    // Only the owner renames, moves the slot or removes someone.
    assert_eq!(
        code(server.api(
            "PATCH",
            &format!("/api/cuadrillas/{id}"),
            Some(&bea),
            Some(json!({"name": "Otra"}))
        )),
        (403, "cuadrilla_owner_only".into())
    );
    assert_eq!(
        code(server.api(
            "DELETE",
            &format!("/api/cuadrillas/{id}/members/{ane_id}"),
            Some(&bea),
            None
        )),
        (403, "cuadrilla_owner_only".into())
    );
    let (status, doc) = server.api(
        "PATCH",
        &format!("/api/cuadrillas/{id}"),
        Some(&ane),
        Some(json!({"name": "Los de siempre", "slot": null})),
    );
    assert_eq!(status, 200, "{doc}");
    assert_eq!(
        (&doc["name"], &doc["slot"]),
        (&json!("Los de siempre"), &Value::Null)
    );

    // The owner removes Bea: she no longer sees the table she never played, nor comes
    // back by the old link, which is renewed.
    let (status, _) = server.api(
        "DELETE",
        &format!("/api/cuadrillas/{id}/members/{bea_id}"),
        Some(&ane),
        None,
    );
    assert_eq!(status, 200);
    drop(bws);
    assert_eq!(
        code(join(&server, &id, &invite, &bea)),
        (404, "cuadrilla_not_found".into())
    );
    let (_, doc) = get(&server, &id, "", Some(&ane));
    let renewed = doc["invite"].as_str().unwrap().to_string();
    assert_ne!(renewed, invite);
    assert_eq!(ids(&doc), [ane_id]);
    assert_eq!(
        code(server.api(
            "DELETE",
            &format!("/api/cuadrillas/{id}/members/{bea_id}"),
            Some(&ane),
            None
        )),
        (404, "cuadrilla_not_member".into())
    );

    // Cris joins by the new link and leaves; then the owner leaves and hands it on.
    assert_eq!(join(&server, &id, &renewed, &cris).0, 200);
    let (status, _) = server.api(
        "DELETE",
        &format!("/api/cuadrillas/{id}/members/{cris_id}"),
        Some(&cris),
        None,
    );
    assert_eq!(status, 200);
    assert_eq!(
        code(get(&server, &id, "", Some(&cris))),
        (404, "cuadrilla_not_found".into())
    );
    assert_eq!(join(&server, &id, &renewed, &cris).0, 200);
    let (status, _) = server.api(
        "DELETE",
        &format!("/api/cuadrillas/{id}/members/{ane_id}"),
        Some(&ane),
        None,
    );
    assert_eq!(status, 200);
    let (_, doc) = get(&server, &id, "", Some(&cris));
    assert_eq!(
        (doc["owner"].as_i64(), ids(&doc)),
        (Some(cris_id), vec![cris_id])
    );
}

#[test]
fn every_bound_of_cuadrillas_is_refused_with_its_code() {
    let server = Server::start("cuadrilla-bounds", roomy());
    let (_, ane) = server.account("Ane");
    let post = |body: Value| code(server.api("POST", "/api/cuadrillas", Some(&ane), Some(body)));
    for (body, want) in [
        (json!({"name": "  "}), "cuadrilla_name"),
        (json!({"name": "x".repeat(41)}), "cuadrilla_name"),
        (json!({"name": "a\u{200B}b"}), "cuadrilla_name"),
        (
            json!({"name": "x", "slot": {"day": 7, "time": "22:00"}}),
            "cuadrilla_slot",
        ),
        (
            json!({"name": "x", "slot": {"day": 1, "time": "25:00"}}),
            "cuadrilla_slot",
        ),
        (
            json!({"name": "x", "slot": {"day": 1, "time": "22:00", "offset_min": 5000}}),
            "cuadrilla_slot",
        ),
        (json!({"name": "x", "colour": "red"}), "bad_request"),
    ] {
        assert_eq!(post(body.clone()), (400, want.to_string()), "{body}");
    }
    // Five made at once, then the sixth waits.
    let mut made = Vec::new();
    for i in 0..5 {
        made.push(cuadrilla(&server, &ane, &format!("c{i}")));
    }
    let (status, e) = server.api(
        "POST",
        "/api/cuadrillas",
        Some(&ane),
        Some(json!({"name": "c5"})),
    );
    assert_eq!(
        (status, e["code"].as_str()),
        (429, Some("cuadrilla_rate_limited"))
    );
    assert!(e["retry_after"].as_u64().unwrap() > 0, "{e}");

    // Members: MAX_MEMBERS, then the cuadrilla is full.
    let (first, link) = &made[0];
    let people: Vec<(i64, String)> = (1..=MAX_MEMBERS)
        .map(|i| server.account(&format!("socio{i}")))
        .collect();
    for (_, token) in &people[..MAX_MEMBERS - 1] {
        assert_eq!(join(&server, first, link, token).0, 200);
    }
    assert_eq!(
        code(join(&server, first, link, &people[MAX_MEMBERS - 1].1)),
        (409, "cuadrilla_full".into())
    );

    // Cuadrillas per person: one belonging to MAX_PER_PERSON neither joins nor makes more.
    let (_, busy) = &people[MAX_MEMBERS - 1];
    let mut joined = 0;
    let mut makers = people.iter().take(6);
    while joined < MAX_PER_PERSON {
        let (_, maker) = makers.next().unwrap();
        for i in 0..5 {
            if joined == MAX_PER_PERSON {
                break;
            }
            let (id, invite) = cuadrilla(&server, maker, &format!("m{i}"));
            assert_eq!(join(&server, &id, &invite, busy).0, 200);
            joined += 1;
        }
    }
    assert_eq!(
        code(join(&server, &made[1].0, &made[1].1, busy)),
        (409, "cuadrilla_too_many".into())
    );
    assert_eq!(
        code(server.api(
            "POST",
            "/api/cuadrillas",
            Some(busy),
            Some(json!({"name": "una más"}))
        )),
        (409, "cuadrilla_too_many".into())
    );
    let (_, mine) = server.api("GET", "/api/me/cuadrillas", Some(busy), None);
    assert_eq!(mine.as_array().unwrap().len(), MAX_PER_PERSON);
}

/// Plays every turn offered on `ws` (quick choices) until the game is over.
fn play_out(mut ws: Ws) {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        assert!(Instant::now() < deadline, "the game took too long");
        let s = read_of(&mut ws, "state");
        if !s["outcome"].is_null() {
            return;
        }
        let l = legal(&s);
        if !l.is_empty() {
            send(
                &mut ws,
                json!({"type": "act", "action": choose(&l), "id": s["n"]}),
            );
        }
    }
}

/// A table (of cuadrilla `cuadrilla`, if any) made by `maker` (at seat 0), the others sitting at
/// their seats, started and played to its end by all of them (the bot elsewhere).
fn game(
    server: &Server,
    cuadrilla: Option<&str>,
    maker: &str,
    others: &[(&str, i64, usize)],
    body: Value,
) {
    let mut body = body;
    if let Some(c) = cuadrilla {
        body["cuadrilla"] = json!(c);
    }
    body["pace_ms"] = json!(0);
    body["hold_s"] = json!(0);
    let id = server.table(maker, body);
    let mut conns = Vec::new();
    for (token, player, seat) in others {
        let mut ws = server.ws(&id, Some(token));
        send(&mut ws, json!({"type": "sit", "seat": seat}));
        state_until(&mut ws, |s| {
            s["table"]["seats"][*seat]["player"]["id"] == *player
        });
        conns.push(ws);
    }
    let mut ws = server.ws(&id, Some(maker));
    send(&mut ws, json!({"type": "start"}));
    conns.push(ws);
    std::thread::scope(|s| {
        for ws in conns {
            s.spawn(move || play_out(ws));
        }
    });
}

/// The store of a stopped server's database.
fn open_store(db: &std::path::Path) -> tapete_server::store::Db {
    match db.to_str().filter(|d| tapete_server::store::pg::is_url(d)) {
        Some(url) => tapete_server::store::Db::open_postgres(url, "cuadrillas-test", None),
        None => tapete_server::store::Db::open(db),
    }
    .unwrap()
}

/// The league tables of cuadrilla `id`, recomputed from the logs stored: every finished
/// table of the cuadrilla replayed from its rules, seed and actions, its sides the
/// partnerships (seats of one parity, where the game has them) of the people at its seats.
fn replayed_league(db: &std::path::Path, id: &str) -> Value {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let store = open_store(db);
    let kinds = games();
    let league = rt.block_on(async {
        let id = id.to_string();
        let tables_of: Vec<String> = store
            .call(move |c| {
                let rows = c.query_raw(
                    "SELECT id FROM tables WHERE cuadrilla = ?1 AND status = 'finished'",
                    &[&id],
                )?;
                rows.iter().map(|r| r.get(0)).collect()
            })
            .await
            .unwrap();
        let mut played = Vec::new();
        for t in tables_of {
            let stored = store.table(t.clone()).await.unwrap().unwrap();
            let kind = kinds.iter().find(|k| k.name() == stored.row.game).unwrap();
            let mut g = kind
                .new_game(&stored.row.rules, stored.row.seats, stored.row.seed)
                .unwrap();
            for (seat, action) in &stored.actions {
                g.apply(*seat, action).unwrap();
            }
            let outcome = g.outcome().expect("a finished table's log ends its game");
            let n = stored.row.seats;
            let side = |s: usize| if kind.partners() { s % 2 } else { s };
            let count = if kind.partners() { 2 } else { n };
            let mut sides = vec![Vec::new(); count];
            for (s, who) in stored.seats.iter().enumerate() {
                sides[side(s)].push(who.as_ref().map(|w| w.0));
            }
            let mut winners: Vec<usize> = outcome.winners.iter().map(|s| side(*s)).collect();
            winners.sort_unstable();
            winners.dedup();
            let sign = if kind.scores_against() { -1 } else { 1 };
            let points = (0..count).map(|k| sign * outcome.scores[k]).collect();
            played.push(LeagueGame {
                game: stored.row.game.clone(),
                sides,
                winners,
                points,
            });
        }
        tables(&played)
    });
    rt.block_on(store.close());
    serde_json::to_value(league).unwrap()
}

#[test]
fn a_cuadrillas_league_equals_the_one_replayed_from_its_stored_logs() {
    let server = Server::start("cuadrilla-league", roomy());
    let (ane_id, ane) = server.account("Ane");
    let (bea_id, bea) = server.account("Bea");
    let (cris_id, cris) = server.account("Cris");
    let (id, invite) = cuadrilla(&server, &ane, "Los del jueves");
    for t in [&bea, &cris] {
        assert_eq!(join(&server, &id, &invite, t).0, 200);
    }
    // Mus: Ane and Bea partners (seats 0 and 2) against Cris and the bot.
    game(
        &server,
        Some(&id),
        &ane,
        &[(&bea, bea_id, 2), (&cris, cris_id, 1)],
        json!({"game": "mus", "rules": {"target": 30, "juegos": 1, "vacas": 1}}),
    );
    // Ring, twice: Ane, Cris and the bot; then Bea and Cris.
    game(
        &server,
        Some(&id),
        &ane,
        &[(&cris, cris_id, 1)],
        json!({"game": "ring", "seats": 3, "rules": {"hands": 1}}),
    );
    game(
        &server,
        Some(&id),
        &bea,
        &[(&cris, cris_id, 1)],
        json!({"game": "ring", "seats": 2, "rules": {"hands": 1}}),
    );
    // Chinchón, whose points count against: Ane and Cris.
    game(
        &server,
        Some(&id),
        &ane,
        &[(&cris, cris_id, 1)],
        json!({"game": "chinchon", "seats": 2, "rules": {"target": 20}}),
    );
    // A game of the same people outside the cuadrilla counts for nothing.
    game(
        &server,
        None,
        &ane,
        &[],
        json!({"game": "ring", "seats": 2, "rules": {"hands": 1}}),
    );
    let (status, doc) = get(&server, &id, "", Some(&cris));
    assert_eq!(status, 200, "{doc}");
    assert_eq!(doc["games"], 4, "{doc}");
    assert_eq!(doc["recent"].as_array().unwrap().len(), 4);
    let league = doc["league"].clone();
    // The pair of the Mus game, and every member in the person tables.
    let mut pair = vec![ane_id, bea_id];
    pair.sort_unstable();
    assert_eq!(league["mus"]["pairs"][0]["who"], json!(pair), "{league}");
    let ring: BTreeMap<i64, u64> = league["ring"]["persons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["who"][0].as_i64().unwrap(), r["played"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        ring,
        BTreeMap::from([(ane_id, 1), (bea_id, 1), (cris_id, 2)])
    );
    assert_eq!(league["chinchon"]["persons"].as_array().unwrap().len(), 2);
    let db = server.db.clone();
    drop(server);
    assert_eq!(league, replayed_league(&db, &id));
}

#[test]
fn a_weekly_slot_is_told_to_every_member_once_when_it_starts() {
    let server = Server::start_paused("cuadrilla-slot", roomy());
    let (_, ane) = server.account("Ane");
    let (_, bea) = server.account("Bea");
    let (_, cris) = server.account("Cris");
    // Three minutes on from now, on a clock at UTC+2.
    let epoch = tapete_server::Clock::default().epoch();
    let minute = (Slot::minute_of_week(epoch + 180) + 120) % (7 * 1440);
    let slot = json!({"day": minute / 1440, "time": format!("{:02}:{:02}", minute % 1440 / 60,
                      minute % 60), "offset_min": 120});
    let (status, c) = server.api(
        "POST",
        "/api/cuadrillas",
        Some(&ane),
        Some(json!({"name": "Los del jueves", "slot": slot})),
    );
    assert_eq!(status, 200, "{c}");
    let id = c["id"].as_str().unwrap();
    assert_eq!(
        join(&server, id, c["invite"].as_str().unwrap(), &bea).0,
        200
    );
    let told = |token: &str| -> Vec<Value> {
        let (_, n) = server.api("GET", "/api/notices", Some(token), None);
        n.as_array()
            .unwrap()
            .iter()
            .filter(|n| n["kind"] == "cuadrilla_game")
            .cloned()
            .collect()
    };
    server.advance(Duration::from_secs(60));
    assert!(told(&ane).is_empty(), "not before it starts");
    server.advance(Duration::from_secs(4 * 60));
    let deadline = Instant::now() + Duration::from_secs(10);
    while told(&ane).is_empty() || told(&bea).is_empty() {
        assert!(Instant::now() < deadline, "the slot was not told");
        server.advance(Duration::from_secs(1));
    }
    // Later polls, and the rest of the hour, tell nobody again; Cris is no member.
    server.advance(Duration::from_secs(60 * 60));
    for token in [&ane, &bea] {
        let n = told(token);
        assert_eq!(n.len(), 1, "{n:?}");
        assert_eq!(n[0]["url"], format!("/c/{id}"));
        assert_eq!(n[0]["args"]["name"], "Los del jueves");
    }
    assert!(told(&cris).is_empty());
    // Of servers sharing the database, the first to claim a start tells it, the others
    // find it told: the claim is one statement that moves the start told on.
    let db = server.db.clone();
    drop(server);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let store = open_store(&db);
    let row = rt
        .block_on(store.cuadrilla(id.to_string()))
        .unwrap()
        .unwrap();
    let told_at = row.noticed;
    assert_eq!(row.slot.unwrap().last_start(told_at), told_at);
    assert_eq!(
        rt.block_on(store.claim_slot(id.to_string(), told_at))
            .unwrap(),
        None
    );
    let next = told_at + 7 * 86400;
    let first = rt.block_on(store.claim_slot(id.to_string(), next)).unwrap();
    assert_eq!(first.map(|m| m.len()), Some(2));
    assert_eq!(
        rt.block_on(store.claim_slot(id.to_string(), next)).unwrap(),
        None
    );
    rt.block_on(store.close());
}
