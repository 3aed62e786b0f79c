//! Seats, fairness and people coming and going: no card is seen before it is yours, a
//! person who leaves does not freeze the table, the end of a hand waits for the people
//! reading it, and what a person asked for survives a restart.

use crate::support::{
    choose, drain_states, eventually, legal, read_of, send, state_until, Server, Ws,
};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};
use tapete_server::store::{Db, SCHEMA_VERSION};
use tapete_server::Limits;

/// Every state a connection receives until `done` holds, with `act` choosing what to do
/// in each (an action to play, or nothing). Asserts the person is never offered a single
/// forced action: the table plays those.
fn follow(
    ws: &mut Ws,
    log: &mut Vec<Value>,
    mut act: impl FnMut(&Value) -> Option<Value>,
    mut done: impl FnMut(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        assert!(Instant::now() < deadline, "took too long");
        let m = read_of(ws, "state");
        log.push(m.clone());
        assert_ne!(
            legal(&m).len(),
            1,
            "a forced decision was left to the person: {}",
            m["legal"]
        );
        if done(&m) {
            return m;
        }
        if let Some(msg) = act(&m) {
            send(ws, msg);
        }
    }
}

/// Plays the legal actions offered, says `next` when the end of a hand waits for us.
fn player(m: &Value) -> Option<Value> {
    let l = legal(m);
    if !l.is_empty() {
        return Some(json!({"type": "act", "action": choose(&l), "id": m["n"]}));
    }
    let me = &m["you"]["seat"];
    let held = m["hold"]["waiting"]
        .as_array()
        .is_some_and(|w| w.contains(me));
    held.then(|| json!({"type": "next"}))
}

fn hand(m: &Value) -> u64 {
    m["view"]["hand_number"].as_u64().unwrap_or(0)
}

/// Which seats' views each hand showed this connection (spectator views left out).
fn seats_seen(log: &[Value]) -> BTreeMap<u64, BTreeSet<u64>> {
    let mut out: BTreeMap<u64, BTreeSet<u64>> = BTreeMap::new();
    for m in log.iter().filter(|m| m["table"]["status"] == "playing") {
        if let Some(seat) = m["view"]["seat"].as_u64() {
            out.entry(hand(m)).or_default().insert(seat);
        }
    }
    out
}

fn cards(m: &Value) -> usize {
    m["view"]["cards"].as_array().map_or(0, Vec::len)
}

#[test]
fn no_card_reaches_anyone_before_the_start() {
    let server = Server::start("before", Limits::default());
    let ane = server.player("Ane");
    let bea = server.player("Bea");
    let id = server.table(&ane, json!({"game": "mus", "pace_ms": 0, "seat": 0}));
    let mut a = server.ws(&id, Some(&ane));
    let mut b = server.ws(&id, Some(&bea));
    let mut seen_b = vec![read_of(&mut b, "state")];
    // Bea walks through every seat before the start.
    for seat in [1, 2, 3] {
        send(&mut b, json!({"type": "sit", "seat": seat}));
        seen_b.push(state_until(&mut b, |s| s["you"]["seat"] == seat));
    }
    send(&mut a, json!({"type": "start"}));
    let started = state_until(&mut b, |s| s["table"]["status"] == "playing");
    let waiting: Vec<&Value> = seen_b
        .iter()
        .filter(|m| m["table"]["status"] == "waiting")
        .collect();
    assert_eq!(waiting.len(), 4);
    for m in waiting {
        assert_eq!(cards(m), 0, "a card before the start: {}", m["view"]);
        assert!(
            m["view"]["seat"].is_null(),
            "a seat's view before the start"
        );
        assert!(m["legal"].as_array().unwrap().is_empty());
        // The game before the start is a placeholder: none of its deal is told.
        let told = m.get("lines").or(m.get("more"));
        assert_eq!(told, Some(&json!([])), "a story before the start");
    }
    assert_eq!(started["view"]["seat"], 3, "the seat she ended at");
    assert!(
        !started["more"].as_array().unwrap().is_empty(),
        "the deal is told once started"
    );
    assert_eq!(cards(&started), 4);
    let a_start = state_until(&mut a, |s| s["table"]["status"] == "playing");
    assert_eq!(a_start["view"]["seat"], 0);
}

#[test]
fn a_seat_change_once_playing_waits_for_the_next_deal() {
    let server = Server::start("boundary", Limits::default());
    let ane = server.player("Ane");
    let (bea_id, bea) = server.player_with_id("Bea");
    let cris = server.player("Cris");
    let id = server.table(
        &ane,
        json!({"game": "mus", "pace_ms": 0, "hold_s": 0, "seat": 0, "bot": "basico"}),
    );
    let mut a = server.ws(&id, Some(&ane));
    let mut b = server.ws(&id, Some(&bea));
    let mut log_b = Vec::new();
    send(&mut b, json!({"type": "sit", "seat": 2}));
    state_until(&mut b, |s| s["you"]["seat"] == 2);
    send(&mut a, json!({"type": "start"}));
    // At the very start (a hand boundary: nobody has spoken) Bea has seen seat 2's cards:
    // she asks for seat 1, stands up, asks for seat 3. None of it is granted this hand.
    let first = follow(
        &mut b,
        &mut log_b,
        |_| None,
        |s| s["table"]["status"] == "playing",
    );
    assert_eq!(first["view"]["seat"], 2);
    // Seat 1 is the other partnership: confirmed at once.
    send(&mut b, json!({"type": "sit", "seat": 1, "confirm": true}));
    let asked = follow(
        &mut b,
        &mut log_b,
        |_| None,
        |s| s["you"]["pending_seat"] == 1,
    );
    assert_eq!(asked["you"]["seat"], 2, "still at seat 2 this hand");
    send(&mut b, json!({"type": "stand"}));
    follow(&mut b, &mut log_b, |_| None, |s| s["you"]["seat"].is_null());
    send(&mut b, json!({"type": "sit", "seat": 3}));
    let asked = follow(
        &mut b,
        &mut log_b,
        |_| None,
        |s| s["you"]["pending_seat"] == 3,
    );
    assert!(asked["you"]["seat"].is_null());
    assert_eq!(cards(&asked), 0, "standing, she watches as a spectator");

    // Cris, who has seen nothing, takes seat 1 at once: the hand has not begun.
    let mut c = server.ws(&id, Some(&cris));
    send(&mut c, json!({"type": "sit", "seat": 1}));
    let cris_in = state_until(&mut c, |s| {
        s["you"]["seat"] == 1 || !s["you"]["pending_seat"].is_null()
    });
    assert_eq!(
        cris_in["you"]["seat"], 1,
        "granted at once: {}",
        cris_in["you"]
    );
    assert_eq!(cards(&cris_in), 4);

    // Ane and Cris play; at the next hand Bea is at seat 3.
    let mut log_a = Vec::new();
    let mut log_c = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(90);
    let mut b_seated = None;
    while b_seated.is_none() {
        assert!(Instant::now() < deadline, "the hand did not end");
        for (ws, log) in [(&mut a, &mut log_a), (&mut c, &mut log_c)] {
            for m in drain_states(ws) {
                if let Some(reply) = player(&m) {
                    send(ws, reply);
                }
                log.push(m);
            }
        }
        for m in drain_states(&mut b) {
            if m["you"]["seat"] == 3 {
                b_seated = Some(m.clone());
            }
            log_b.push(m);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let seated = b_seated.unwrap();
    assert_eq!(hand(&seated), 2, "granted at the next deal");
    assert_eq!(seated["table"]["seats"][3]["player"]["id"], bea_id);
    // At this new boundary she asks for seat 1's… no: Cris holds it; seat 2 is a bot's
    // (the other partnership: confirmed at once).
    send(&mut b, json!({"type": "sit", "seat": 2, "confirm": true}));
    let again = follow(
        &mut b,
        &mut log_b,
        |_| None,
        |s| s["you"]["pending_seat"] == 2,
    );
    assert_eq!(again["you"]["seat"], 3);

    let seen = seats_seen(&log_b);
    for (h, seats) in &seen {
        assert_eq!(
            seats.len(),
            1,
            "hand {h}: Bea saw the views of seats {seats:?}"
        );
    }
    assert_eq!(seen.get(&1), Some(&BTreeSet::from([2])));
    assert_eq!(seen.get(&2), Some(&BTreeSet::from([3])));
}

#[test]
fn a_person_who_leaves_is_played_by_the_bot_and_plays_again_on_return() {
    let server = Server::start("away", Limits::default());
    let ane = server.player("Ane");
    let bea = server.player("Bea");
    let id = server.table(
        &ane,
        json!({"game": "mus", "pace_ms": 0, "hold_s": 0, "away_s": 1, "seat": 0, "bot": "basico"}),
    );
    let mut a = server.ws(&id, Some(&ane));
    let mut b = server.ws(&id, Some(&bea));
    send(&mut b, json!({"type": "sit", "seat": 2}));
    state_until(&mut b, |s| s["you"]["seat"] == 2);
    send(&mut a, json!({"type": "start"}));
    // Ane is mano and speaks first; she closes her page instead.
    let mine = state_until(&mut a, |s| !legal(s).is_empty());
    assert_eq!(mine["n"], 0);
    drop(a);
    let mut log_b = Vec::new();
    let gone = follow(&mut b, &mut log_b, player, |s| {
        s["table"]["seats"][0]["away"] == true
    });
    assert_eq!(gone["table"]["seats"][0]["connected"], false);
    // Bea plays on to the end of the hand; seat 0's turns are played for Ane.
    let next_hand = follow(&mut b, &mut log_b, player, |s| hand(s) >= 2);
    assert!(next_hand["n"].as_u64().unwrap() > 4);
    // Ane comes back (the same token): the seat is hers again, she decides when it is her turn.
    let mut a = server.ws(&id, Some(&ane));
    let back = read_of(&mut a, "state");
    assert_eq!(back["you"]["seat"], 0);
    // Bea plays her turns; Ane's next decision is offered to her, not to the bot.
    let deadline = Instant::now() + Duration::from_secs(60);
    let decision = 'found: loop {
        assert!(Instant::now() < deadline, "Ane was never asked again");
        for m in drain_states(&mut b) {
            if let Some(reply) = player(&m) {
                send(&mut b, reply);
            }
        }
        for m in drain_states(&mut a) {
            assert_ne!(legal(&m).len(), 1);
            if !legal(&m).is_empty() {
                break 'found m;
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(decision["table"]["seats"][0]["away"], false);
    assert_eq!(decision["table"]["seats"][0]["connected"], true);
    // Nobody plays for her now: her decision is hers to play (others may still act where
    // several seats decide at once, as in a discard), and it is taken.
    let pick = choose(&legal(&decision));
    send(&mut a, json!({"type": "act", "action": pick, "id": 999}));
    let answer = loop {
        let m = crate::support::read(&mut a).expect("open");
        if m["id"] == 999 {
            break m;
        }
        if m["type"] == "state" {
            assert_eq!(m["table"]["seats"][0]["away"], false, "she is back");
        }
    };
    assert_eq!(
        answer["type"], "ack",
        "her decision waited for her: {answer}"
    );
}

#[test]
fn the_end_of_a_hand_waits_for_next_from_the_people_at_the_table() {
    let server = Server::start("hold", Limits::default());
    let ane = server.player("Ane");
    let id = server.table(
        &ane,
        json!({"game": "mus", "pace_ms": 0, "hold_s": 60, "seat": 0, "start": true,
               "bot": "basico"}),
    );
    let mut a = server.ws(&id, Some(&ane));
    let mut log = Vec::new();
    let held = follow(
        &mut a,
        &mut log,
        |m| {
            let l = legal(m);
            (!l.is_empty()).then(|| json!({"type": "act", "action": choose(&l), "id": m["n"]}))
        },
        |s| !s["hold"].is_null() || !s["outcome"].is_null(),
    );
    assert!(held["outcome"].is_null(), "the game ended in one hand");
    assert_eq!(held["hold"]["waiting"], json!([0]));
    assert!(
        held["view"]["last_hand"].is_object(),
        "the hand just ended is in the view"
    );
    // The bots wait (seat 1 is the new mano, a bot): no action is played while the end
    // is held, however long Ane takes to read the table's description.
    let (_, info) = server.api("GET", &format!("/api/tables/{id}"), None, None);
    assert_eq!(info["actions"], held["n"], "the bots wait for Ane");
    send(&mut a, json!({"type": "next"}));
    // Every state up to her `next` is still the held end; the first one past it moves on.
    let moved = state_until(&mut a, |s| {
        if s["n"] == held["n"] {
            return false;
        }
        assert!(
            s["hold"].is_null(),
            "a bot played during the hold: {}",
            s["n"]
        );
        true
    });
    assert!(moved["n"].as_u64() > held["n"].as_u64());
}

#[test]
fn the_end_of_a_hand_waits_for_the_person_whose_action_ended_it() {
    // Ring to 3, Ane second to play: the bot adds 1 or 2, Ane adds 2 and wins the hand with
    // her own action. That end waits for her `next` like any other.
    let server = Server::start("hold-own", Limits::default());
    let ane = server.player("Ane");
    let id = server.table(
        &ane,
        json!({"game": "ring", "seats": 2, "rules": {"hands": 2, "to": 3}, "pace_ms": 0,
               "hold_s": 60, "seat": 1, "start": true}),
    );
    let mut a = server.ws(&id, Some(&ane));
    let turn = state_until(&mut a, |s| !legal(s).is_empty());
    assert_eq!(turn["view"]["hand"], 1);
    send(&mut a, json!({"type": "act", "action": "2", "id": 1}));
    let held = state_until(&mut a, |s| s["view"]["hand"] == 2);
    assert_eq!(
        held["view"]["wins"],
        json!([0, 1]),
        "her action won the hand"
    );
    assert_eq!(
        held["hold"]["waiting"],
        json!([1]),
        "the hand she ended waits for her next"
    );
    send(&mut a, json!({"type": "next"}));
    let seen = state_until(&mut a, |s| s["hold"].is_null());
    assert_eq!(seen["n"], held["n"], "next changes nothing else");
}

#[test]
fn a_seat_asked_for_mid_hand_survives_a_restart() {
    let server = Server::start("pending", Limits::default());
    let ane = server.player("Ane");
    let bea = server.player("Bea");
    let id = server.table(
        &ane,
        json!({"game": "mus", "pace_ms": 0, "hold_s": 0, "seat": 0, "start": true,
               "bot": "basico"}),
    );
    let mut a = server.ws(&id, Some(&ane));
    let s = state_until(&mut a, |s| !legal(s).is_empty());
    send(
        &mut a,
        json!({"type": "act", "action": choose(&legal(&s)), "id": 1}),
    );
    read_of(&mut a, "ack");
    let mut b = server.ws(&id, Some(&bea));
    send(&mut b, json!({"type": "sit", "seat": 2}));
    state_until(&mut b, |s| s["you"]["pending_seat"] == 2);
    drop((a, b));
    let server = server.restart();
    let mut b = server.ws(&id, Some(&bea));
    let back = read_of(&mut b, "state");
    if back["you"]["seat"] != 2 {
        assert_eq!(back["you"]["pending_seat"], 2, "{}", back["you"]);
        let mut a = server.ws(&id, Some(&ane));
        let mut log = Vec::new();
        follow(&mut a, &mut log, player, |s| {
            s["table"]["seats"][2]["player"]["nickname"] == "Bea"
        });
    }
    let seated = state_until(&mut b, |s| s["you"]["seat"] == 2);
    assert_eq!(cards(&seated), 4);
}

#[test]
fn a_table_nobody_is_at_stops_and_comes_back_when_opened() {
    // Paused time, the default idle time (half an hour).
    let idle = Limits::default().idle_table;
    let server = Server::start_paused("idle", Limits::default());
    let ane = server.player("Ane");
    let id = server.table(&ane, json!({"game": "mus", "pace_ms": 0, "start": true}));
    let mut a = server.ws(&id, Some(&ane));
    let s = state_until(&mut a, |s| !legal(s).is_empty());
    drop(a);
    let listed = |server: &Server| {
        let (_, open) = server.api("GET", "/api/tables", None, None);
        open.as_array()
            .unwrap()
            .iter()
            .any(|t| t["id"] == id.as_str())
    };
    // The table has seen her go (its idle time counts from then).
    eventually(Duration::from_secs(10), "Ane's seat shown gone", || {
        let (_, t) = server.api("GET", &format!("/api/tables/{id}"), None, None);
        t["seats"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["player"]["nickname"] == "Ane" && s["connected"] == false)
    });
    // A second short of its idle time it still runs: the clock passed every earlier
    // moment, and the table's task ends on its timer, so an early end has happened.
    server.advance(idle - Duration::from_secs(1));
    assert!(listed(&server), "stopped before its idle time");
    server.advance(Duration::from_secs(1));
    eventually(
        Duration::from_secs(10),
        "gone from the lobby's open list",
        || !listed(&server),
    );
    // Opened again, it is exactly where it was.
    let mut a = server.ws(&id, Some(&ane));
    let again = read_of(&mut a, "state");
    assert_eq!(again["n"], s["n"]);
    assert_eq!(again["view"], s["view"]);
    assert!(listed(&server));
    send(&mut a, json!({"type": "ping"}));
    read_of(&mut a, "pong");
}

#[test]
fn storage_refuses_what_it_cannot_trust() {
    let dir = std::env::temp_dir().join(format!("tapete-store-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.db");

    // A second server on the same file is refused while the first holds it.
    let first = Db::open(&path).expect("opens");
    let second = Db::open(&path).err().expect("refused");
    assert!(
        second.to_string().contains("another tapete server"),
        "{second}"
    );
    // Closed, it lets the file go before `close` returns.
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(first.close());
    drop(first);

    // A schema from the future is refused.
    {
        let c = rusqlite::Connection::open(&path).unwrap();
        c.execute_batch("PRAGMA user_version = 99").unwrap();
    }
    let e = Db::open(&path).err().expect("refused");
    assert!(e.to_string().contains("newer"), "{e}");
    {
        let c = rusqlite::Connection::open(&path).unwrap();
        c.execute_batch(&format!("PRAGMA user_version = {SCHEMA_VERSION}"))
            .unwrap();
    }

    // Stored rules that do not parse: that table is not restored (never the defaults),
    // the others are.
    let server = Server::on(path.clone(), Limits::default());
    let ane = server.player("Ane");
    let good = server.table(&ane, json!({"game": "mus", "start": true}));
    let bad = server.table(&ane, json!({"game": "mus", "start": true}));
    drop(server);
    {
        let c = rusqlite::Connection::open(&path).unwrap();
        c.execute("UPDATE tables SET rules = 'not json' WHERE id = ?1", [&bad])
            .unwrap();
    }
    let server = Server::on(path.clone(), Limits::default());
    let (code, _) = server.api("GET", &format!("/api/tables/{good}"), None, None);
    assert_eq!(code, 200);
    let (code, v) = server.api("GET", &format!("/api/tables/{bad}"), None, None);
    assert_eq!(code, 500, "{v}");
    assert!(
        !v["error"].as_str().unwrap().contains("json"),
        "no internals in answers: {v}"
    );
}

#[test]
fn a_stored_log_that_is_over_makes_a_finished_table() {
    let server = Server::start_file("over", Limits::default());
    let ane = server.player("Ane");
    let id = server.table(
        &ane,
        json!({"game": "mus", "rules": {"target": 40, "juegos": 1, "vacas": 1}, "pace_ms": 0,
               "hold_s": 0, "start": true, "bot": "basico"}),
    );
    let mut a = server.ws(&id, Some(&ane));
    let mut log = Vec::new();
    let end = follow(&mut a, &mut log, player, |s| !s["outcome"].is_null());
    drop(a);
    let db = server.db.clone();
    drop(server);
    {
        // As a crash between the last action and the status would have left it.
        let c = rusqlite::Connection::open(&db).unwrap();
        let n: i64 = c
            .query_row(
                "SELECT count(*) FROM actions WHERE table_id = ?1",
                [&id],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(
            Some(n as u64),
            end["n"].as_u64(),
            "every action stored with the end"
        );
        c.execute(
            "UPDATE tables SET status = 'playing', outcome = NULL, finished = NULL WHERE id = ?1",
            [&id],
        )
        .unwrap();
    }
    let server = Server::on(db, Limits::default());
    // Restored, the table sees its log is over and says so.
    eventually(Duration::from_secs(10), "the table is finished", || {
        let (_, info) = server.api("GET", &format!("/api/tables/{id}"), None, None);
        info["status"] == "finished"
    });
    let (_, open) = server.api("GET", "/api/tables", None, None);
    assert!(open
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t["id"] != id.as_str()));
}

/// Bea sits at seat 2 of a Mus table as its first hand is dealt (she sees seat 2's
/// cards), stands up, and the table is started again from storage by `reload`; at the
/// same boundary she asks for seat 1: it waits for the next deal, as without the reload.
fn seat_after_a_reload(server: Server, reload: fn(Server, &str) -> Server) {
    let ane = server.player("Ane");
    let bea = server.player("Bea");
    let id = server.table(
        &ane,
        json!({"game": "mus", "pace_ms": 0, "hold_s": 0, "away_s": 600, "seat": 0,
               "bot": "basico"}),
    );
    let mut a = server.ws(&id, Some(&ane));
    let mut b = server.ws(&id, Some(&bea));
    send(&mut b, json!({"type": "sit", "seat": 2}));
    state_until(&mut b, |s| s["you"]["seat"] == 2);
    send(&mut a, json!({"type": "start"}));
    // The mano (Ane) speaks first: nothing is played while nobody acts for her.
    let dealt = state_until(&mut b, |s| s["table"]["status"] == "playing");
    assert_eq!(dealt["view"]["seat"], 2);
    assert_eq!(cards(&dealt), 4, "she has seen seat 2's hand");
    send(&mut b, json!({"type": "stand"}));
    state_until(&mut b, |s| s["you"]["seat"].is_null());
    drop((a, b));
    let server = reload(server, &id);

    let mut b = server.ws(&id, Some(&bea));
    let back = read_of(&mut b, "state");
    assert_eq!(back["n"], 0, "nothing was played: the same boundary");
    send(&mut b, json!({"type": "sit", "seat": 1}));
    let answer = state_until(&mut b, |s| {
        s["you"]["seat"] == 1 || s["you"]["pending_seat"] == 1
    });
    assert!(
        answer["you"]["seat"].is_null(),
        "she saw seat 2's cards of this hand: seat 1 waits for the next deal ({})",
        answer["you"]
    );
    assert_eq!(answer["you"]["pending_seat"], 1);
    assert_eq!(cards(&answer), 0, "she still watches as a spectator");

    // Her place comes with the next hand.
    let mut a = server.ws(&id, Some(&ane));
    let mut log = Vec::new();
    follow(&mut a, &mut log, player, |s| {
        s["table"]["seats"][1]["player"]["nickname"] == "Bea"
    });
    let seated = state_until(&mut b, |s| s["you"]["seat"] == 1);
    assert_eq!(hand(&seated), 2, "granted at the next deal");
}

#[test]
fn a_look_at_a_hand_is_remembered_across_a_restart() {
    let server = Server::start("seen-restart", Limits::default());
    seat_after_a_reload(server, |server, _| server.restart());
}

#[test]
fn a_look_at_a_hand_is_remembered_across_an_idle_unload() {
    // Paused time, the default idle time.
    let server = Server::start_paused("seen-idle", Limits::default());
    seat_after_a_reload(server, |server, id| {
        // Nobody is connected: once its idle time has passed, the table's task ends and
        // it leaves the lobby. (The clock moves again until then: the table may count its
        // idle time from a moment after the test let go of its connections.)
        let idle = Limits::default().idle_table;
        eventually(
            Duration::from_secs(20),
            "the idle table was not unloaded",
            || {
                server.advance(idle);
                let (_, open) = server.api("GET", "/api/tables", None, None);
                !open.as_array().unwrap().iter().any(|t| t["id"] == id)
            },
        );
        server
    });
}

#[test]
fn a_move_to_the_other_partnership_mid_match_is_asked_first_and_needs_a_confirm() {
    let server = Server::start("sides", Limits::default());
    let ane = server.player("Ane");
    let id = server.table(
        &ane,
        json!({"game": "mus", "pace_ms": 0, "hold_s": 0, "seat": 0, "start": true,
               "bot": "basico", "turn_s": 0}),
    );
    let mut a = server.ws(&id, Some(&ane));
    state_until(&mut a, |s| s["table"]["status"] == "playing");
    // Seat 1 plays against seat 0: asked, with the side and the score, and nothing changes.
    send(&mut a, json!({"type": "sit", "seat": 1}));
    let asked = read_of(&mut a, "error");
    let question = asked["message"].as_str().unwrap();
    assert!(
        question.contains("other side (seats 1 and 3)") && question.contains("piedras 0–0"),
        "{question}"
    );
    assert_eq!(
        asked["ask"],
        json!({"type": "sit", "seat": 1, "confirm": true})
    );
    send(&mut a, json!({"type": "ping"}));
    loop {
        let m = crate::support::read(&mut a).expect("open");
        if m["type"] == "pong" {
            break;
        }
        assert!(
            m["you"]["pending_seat"].is_null() && m["you"]["seat"] != 1,
            "an unconfirmed move to the other side changes nothing: {m}"
        );
    }
    // The partner's seat is the same side: no question.
    send(&mut a, json!({"type": "sit", "seat": 2}));
    state_until(&mut a, |s| {
        s["you"]["pending_seat"] == 2 || s["you"]["seat"] == 2
    });
    // Confirmed, the other side is granted (at the next hand, as any seat once dealt).
    send(&mut a, json!({"type": "sit", "seat": 3, "confirm": true}));
    state_until(&mut a, |s| {
        s["you"]["pending_seat"] == 3 || s["you"]["seat"] == 3
    });
}

#[test]
fn two_people_of_one_nickname_are_told_apart_at_the_table() {
    let server = Server::start("two-anes", Limits::default());
    let (first, ane) = server.player_with_id("Ane");
    let (second, ane2) = server.player_with_id("Ane");
    let id = server.table(&ane, json!({"game": "mus", "seat": 0}));
    let mut b = server.ws(&id, Some(&ane2));
    send(&mut b, json!({"type": "sit", "seat": 2}));
    let s = state_until(&mut b, |s| s["you"]["seat"] == 2);
    let seats = &s["table"]["seats"];
    assert_eq!(seats[0]["player"], json!({"id": first, "nickname": "Ane"}));
    assert_eq!(
        seats[2]["player"],
        json!({"id": second, "nickname": "Ane (2)"})
    );
    // The lobby's description says the same.
    let (_, t) = server.api("GET", &format!("/api/tables/{id}"), None, None);
    assert_eq!(t["seats"][2]["player"]["nickname"], "Ane (2)");
}

#[test]
fn a_restart_right_after_the_old_server_stops_always_finds_the_database_free() {
    let mut server = Server::start("quick-restart", Limits::default());
    let ane = server.player("Ane");
    let id = server.table(
        &ane,
        json!({"game": "mus", "pace_ms": 0, "hold_s": 0, "seat": 0, "start": true,
               "bot": "basico", "turn_s": 10, "away_s": 0}),
    );
    // Ane is away at once (she is not connected; a watcher is): the bots play every seat,
    // writing all the while, and each server is stopped in the middle of that and another
    // started at once on the file.
    for _ in 0..5 {
        let mut a = server.ws(&id, None);
        let first = state_until(&mut a, |s| s["table"]["status"] == "playing");
        // Stopped once the bots have written a few actions, while they go on writing.
        let n = first["n"].as_u64().unwrap();
        state_until(&mut a, |s| s["n"].as_u64() >= Some(n + 3));
        drop(a);
        server = server.restart();
        assert_eq!(server.restored, 1);
    }
}
