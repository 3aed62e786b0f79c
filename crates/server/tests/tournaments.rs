//! Tournaments: a Swiss of 16 Mus pairs played to its end on a server — two pairs play
//! their first match through WebSockets; at the other matches one person comes and the
//! bot stands in, labelled, for the others after the courtesy time — with results read only from the tables' logs: the
//! standings the server shows equal those the test recomputes by replaying every table's
//! log, no pair meets another twice, and a restart changes nothing. Sign-up's refusals.

use crate::support::stored::ints;
use crate::support::{games, legal, read_of, roomy, send, Server, Ws};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::time::{Duration, Instant};
use tapete_server::table::WATCH_DELAY;
use tapete_tournament::event::{Event, Format, MatchKey, MatchResult};
use tapete_tournament::Side;

/// Quick Mus: one juego to 30.
fn rules() -> Value {
    json!({"target": 30, "juegos": 1, "vacas": 1})
}

fn get(server: &Server, token: &str, path: &str) -> Value {
    let (code, v) = server.api("GET", path, Some(token), None);
    assert_eq!(code, 200, "{path}: {v}");
    v
}

/// Plays every turn offered on `ws` until the game is over.
fn play_out(mut ws: Ws) {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        assert!(Instant::now() < deadline, "the match took too long");
        let s = read_of(&mut ws, "state");
        if !s["outcome"].is_null() {
            return;
        }
        if let Some(a) = legal(&s).first() {
            send(&mut ws, json!({"type": "act", "action": a, "id": s["n"]}));
        }
    }
}

/// A tournament of pairs made by the first of `people` from `body`, each pair (2i, 2i+1)
/// signed up by its first, the partner named by `nick(2i + 1)`, and started: its id and
/// the tournament as the start answered it.
fn started_pairs_event(
    server: &Server,
    people: &[(i64, String)],
    nick: impl Fn(usize) -> String,
    body: Value,
) -> (String, Value) {
    let org = &people[0].1;
    let (code, made) = server.api("POST", "/api/tournaments", Some(org), Some(body));
    assert_eq!(code, 200, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    let entries = format!("/api/tournaments/{id}/entries");
    for i in 0..people.len() / 2 {
        let body = json!({"partner": nick(2 * i + 1)});
        let (code, e) = server.api("POST", &entries, Some(&people[2 * i].1), Some(body));
        assert_eq!(code, 200, "{e}");
    }
    let (code, t) = server.api(
        "POST",
        &format!("/api/tournaments/{id}/start"),
        Some(org),
        None,
    );
    assert_eq!(code, 200, "{t}");
    (id, t)
}

/// The outcome of a finished Mus table, replayed by the test from its stored log.
fn replayed_outcome(server: &Server, token: &str, table: &str) -> tapete_table::Outcome {
    replayed_outcome_of(server, token, table, "mus")
}

/// The outcome of a finished table of `game`, replayed by the test from its stored log.
fn replayed_outcome_of(
    server: &Server,
    token: &str,
    table: &str,
    game: &str,
) -> tapete_table::Outcome {
    let r = get(server, token, &format!("/api/tables/{table}/replay"));
    let info = &r["table"];
    let kinds = games();
    let kind = kinds.iter().find(|k| k.name() == game).unwrap();
    let seed = ints(
        &server.db,
        &format!("SELECT seed FROM tables WHERE id = '{table}'"),
    )[0][0];
    let seats = info["seats"].as_array().unwrap().len();
    let mut game = kind
        .new_game(&info["rules"], seats, seed as u64)
        .expect("the table's game");
    for a in r["actions"].as_array().unwrap() {
        game.apply(
            a["seat"].as_u64().unwrap() as usize,
            a["action"].as_str().unwrap(),
        )
        .expect("the log replays");
    }
    game.outcome().expect("the log ends the game")
}

#[test]
fn a_swiss_of_16_pairs_is_played_out_from_the_tables_logs() {
    let server = Server::start_paused("tournament-swiss", roomy());
    let people: Vec<(i64, String)> = (0..32)
        .map(|i| server.account(&format!("P{i:02}")))
        .collect();
    let org = &people[0].1;
    let (code, made) = server.api(
        "POST",
        "/api/tournaments",
        Some(org),
        Some(
            json!({"name": "Campeonato de prueba", "game": "mus", "format": "swiss",
                    "rounds": 4, "rules": rules(), "bots": true, "courtesy_s": 30,
                    "pace_ms": 0, "turn_s": 10, "bot": "random"}),
        ),
    );
    assert_eq!(code, 200, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    let entries = format!("/api/tournaments/{id}/entries");
    for i in 0..16 {
        let body = json!({"partner": format!("P{:02}", 2 * i + 1)});
        let (code, e) = server.api("POST", &entries, Some(&people[2 * i].1), Some(body));
        assert_eq!(code, 200, "{e}");
    }
    // One entry each, a pair's partner named, only the organiser starts it.
    let (code, e) = server.api(
        "POST",
        &entries,
        Some(&people[3].1),
        Some(json!({"partner": "P05"})),
    );
    assert_eq!(
        (code, e["code"].as_str()),
        (409, Some("already_entered")),
        "{e}"
    );
    let (_, loner) = server.account("Solo");
    let (code, e) = server.api("POST", &entries, Some(&loner), Some(json!({})));
    assert_eq!(
        (code, e["code"].as_str()),
        (400, Some("entry_needs_partner")),
        "{e}"
    );
    let start = format!("/api/tournaments/{id}/start");
    let (code, e) = server.api("POST", &start, Some(&people[1].1), None);
    assert_eq!(
        (code, e["code"].as_str()),
        (403, Some("not_organiser")),
        "{e}"
    );
    let (code, t) = server.api("POST", &start, Some(org), None);
    assert_eq!(code, 200, "{t}");
    assert_eq!(t["status"], "running");
    let (code, e) = server.api(
        "POST",
        &entries,
        Some(&loner),
        Some(json!({"partner": "P00"})),
    );
    assert_eq!(
        (code, e["code"].as_str()),
        (409, Some("tournament_started")),
        "{e}"
    );

    // Round 1: eight tables. The two pairs of the first board take their seats and play
    // through WebSockets; nobody comes to the others.
    let path = format!("/api/tournaments/{id}");
    let t = get(&server, org, &path);
    let round1: Vec<&Value> = t["matches"].as_array().unwrap().iter().collect();
    assert_eq!(round1.len(), 8, "{t}");
    let top = round1.iter().find(|m| m["board"] == 0).unwrap();
    let table = top["table"].as_str().unwrap().to_string();
    let seeds = [
        top["first"].as_u64().unwrap(),
        top["second"].as_u64().unwrap(),
    ];
    let mut players = Vec::new();
    for e in t["entrants"].as_array().unwrap() {
        if seeds.contains(&e["seed"].as_u64().unwrap()) {
            for p in e["players"].as_array().unwrap() {
                let token = &people.iter().find(|(pid, _)| p["id"] == *pid).unwrap().1;
                let (code, sat) = server.api(
                    "POST",
                    &format!("/api/tournaments/{id}/play"),
                    Some(token),
                    None,
                );
                assert_eq!(code, 200, "{sat}");
                assert_eq!(sat["id"], table.as_str());
                players.push(server.ws(&table, Some(token)));
            }
        }
    }
    assert_eq!(players.len(), 4);
    let threads: Vec<_> = players
        .into_iter()
        .map(|ws| std::thread::spawn(move || play_out(ws)))
        .collect();

    // Time passes: courtesy times end, bots stand in, rounds follow one another.
    let deadline = Instant::now() + Duration::from_secs(180);
    let mut last = Value::Null;
    let t = loop {
        assert!(
            Instant::now() < deadline,
            "the tournament did not end: {}",
            last["matches"]
        );
        server.advance(Duration::from_secs(2));
        std::thread::sleep(Duration::from_millis(20));
        let t = get(&server, org, &path);
        if t["status"] == "finished" {
            break t;
        }
        one_sits_at_each(&server, &t, &people);
        last = t;
    };
    for th in threads {
        th.join().expect("the WebSocket players played out");
    }

    // 4 rounds of 8 matches, each with a winner, no pair met twice.
    let matches = t["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 32, "{t}");
    let mut met = BTreeSet::new();
    for m in matches {
        let (a, b) = (m["first"].as_u64().unwrap(), m["second"].as_u64().unwrap());
        assert!(met.insert((a.min(b), a.max(b))), "{a} and {b} met twice");
        assert!(!m["winner"].is_null(), "{m}");
        assert_eq!(m["status"], "finished", "{m}");
    }
    // The first board of round 1 was played by its people; at the others one person
    // came, and the bot stood in for the three others, labelled.
    for m in matches {
        let stand_ins = m["stand_ins"].as_array().unwrap().len();
        if m["table"] == table.as_str() {
            assert_eq!(stand_ins, 0, "{m}");
        } else {
            assert_eq!(stand_ins, 3, "{m}");
        }
    }

    // The standings, recomputed by the test from the logs alone.
    let mut results = Vec::new();
    for m in matches {
        let outcome = replayed_outcome(&server, org, m["table"].as_str().unwrap());
        let won = |seats: [usize; 2]| seats.iter().any(|s| outcome.winners.contains(s));
        let winner = if won([0, 2]) {
            Side::First
        } else {
            Side::Second
        };
        assert!(won([0, 2]) != won([1, 3]));
        let margin = (outcome.scores[0] - outcome.scores[1]).abs();
        let (fp, sp) = if winner == Side::First {
            (margin, 0)
        } else {
            (0, margin)
        };
        results.push(MatchResult {
            key: MatchKey::Board {
                round: m["round"].as_u64().unwrap() as u32,
                board: m["board"].as_u64().unwrap() as u32,
            },
            first: m["first"].as_u64().unwrap() as usize,
            second: m["second"].as_u64().unwrap() as usize,
            winner: Some(winner),
            first_points: fp,
            second_points: sp,
        });
    }
    let event = Event::new(Format::Swiss { rounds: 4 }, 16).unwrap();
    let (h, next) = event.history(&results).expect("the logs fit the event");
    assert!(next.over);
    let rows = tapete_tournament::swiss::standings(16, &h, &Default::default()).unwrap();
    assert_eq!(t["standings"]["rows"], serde_json::to_value(&rows).unwrap());

    // A restart reads the same from the same logs.
    let server = server.restart();
    let again = get(&server, org, &path);
    assert_eq!(again["standings"], t["standings"]);
    assert_eq!(again["matches"], t["matches"]);
}

/// A tournament of ring (persons, two seats a match) made by `org` with `extra` settings;
/// `n` entrants P0.. signed up; its id and the entrants' (id, token).
fn ring_event(server: &Server, name: &str, n: usize, extra: Value) -> (String, Vec<(i64, String)>) {
    let people: Vec<(i64, String)> = (0..n)
        .map(|i| server.account(&format!("{name}{i}")))
        .collect();
    let mut body = json!({"name": name, "game": "ring", "pace_ms": 0, "turn_s": 10,
                          "courtesy_s": 30, "bot": "random"});
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    let (code, made) = server.api("POST", "/api/tournaments", Some(&people[0].1), Some(body));
    assert_eq!(code, 200, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    let invite = made["invite"].as_str().map(String::from);
    for (_, token) in &people {
        let body = match &invite {
            Some(i) => json!({"invite": i}),
            None => json!({}),
        };
        let (code, e) = server.api(
            "POST",
            &format!("/api/tournaments/{id}/entries"),
            Some(token),
            Some(body),
        );
        assert_eq!(code, 200, "{e}");
    }
    (id, people)
}

/// [`ring_event`], started by its organiser (the first entrant): its id, the entrants,
/// and the tournament as the start answered it.
fn started_ring_event(
    server: &Server,
    name: &str,
    n: usize,
    extra: Value,
) -> (String, Vec<(i64, String)>, Value) {
    let (id, people) = ring_event(server, name, n, extra);
    let start = format!("/api/tournaments/{id}/start");
    let (code, t) = server.api("POST", &start, Some(&people[0].1), None);
    assert_eq!(code, 200, "{t}");
    (id, people, t)
}

/// Has one person of each match waiting for its people take their seat (the first
/// entrant's first player), so the match starts at the end of its courtesy time with bots
/// for the others.
fn one_sits_at_each(server: &Server, t: &Value, people: &[(i64, String)]) {
    let path = format!("/api/tournaments/{}/play", t["id"].as_str().unwrap());
    // An arena's entrant paused (its person did not come in time on a busy machine) comes
    // back at once.
    if t["format"] == "arena" && t["status"] == "running" {
        for e in t["entrants"].as_array().unwrap() {
            if e["withdrawn"].is_null() {
                continue;
            }
            let pid = e["players"][0]["id"].as_i64().unwrap();
            let token = &people.iter().find(|(p, _)| *p == pid).unwrap().1;
            server.api("POST", &path, Some(token), None);
        }
    }
    for m in t["matches"].as_array().unwrap() {
        if m["status"] != "waiting" || !m["absent"].is_null() {
            continue;
        }
        let e = t["entrants"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["seed"] == m["first"])
            .unwrap();
        let pid = e["players"][0]["id"].as_i64().unwrap();
        let token = &people.iter().find(|(p, _)| *p == pid).unwrap().1;
        server.api("POST", &path, Some(token), None);
    }
}

/// Moves a paused server's time on until the tournament is over; its last view. With
/// `people`, one person comes to each match ([`one_sits_at_each`]).
fn played_out(server: &Server, token: &str, id: &str, people: Option<&[(i64, String)]>) -> Value {
    played_out_every(server, token, id, people, Duration::from_secs(2))
}

/// [`played_out`], moving time on by `step` at each look (longer steps for long events).
fn played_out_every(
    server: &Server,
    token: &str,
    id: &str,
    people: Option<&[(i64, String)]>,
    step: Duration,
) -> Value {
    let path = format!("/api/tournaments/{id}");
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let t = get(server, token, &path);
        if t["status"] == "finished" {
            return t;
        }
        if let Some(people) = people {
            one_sits_at_each(server, &t, people);
        }
        assert!(Instant::now() < deadline, "not over: {t}");
        server.advance(step);
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn who_does_not_come_loses_and_who_withdraws_is_not_paired_again() {
    let server = Server::start_paused("tournament-absent", roomy());
    let (id, people, t) = started_ring_event(
        &server,
        "Ab",
        4,
        json!({"format": "swiss", "rounds": 2, "bots": false, "rules": {"hands": 1, "to": 6}}),
    );
    let org = &people[0].1;
    let matches = t["matches"].as_array().unwrap().clone();
    assert_eq!(matches.len(), 2);
    let token_of = |seed: u64| {
        let e = t["entrants"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["seed"] == seed)
            .unwrap();
        let pid = e["players"][0]["id"].as_i64().unwrap();
        people.iter().find(|(p, _)| *p == pid).unwrap().1.clone()
    };
    let play = format!("/api/tournaments/{id}/play");
    // Board 0: both sides sit. Board 1: only the first does.
    for seed in [
        &matches[0]["first"],
        &matches[0]["second"],
        &matches[1]["first"],
    ] {
        let (code, sat) = server.api("POST", &play, Some(&token_of(seed.as_u64().unwrap())), None);
        assert_eq!(code, 200, "{sat}");
    }
    // The second side of board 1 withdraws during round 1: it is out from round 2.
    let late = matches[1]["second"].as_u64().unwrap();
    let entry = t["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["seed"] == late)
        .unwrap()["entry"]
        .clone();
    let (code, w) = server.api(
        "DELETE",
        &format!("/api/tournaments/{id}/entries/{entry}"),
        Some(&token_of(late)),
        None,
    );
    assert_eq!(code, 200, "{w}");
    let t = played_out(&server, org, &id, None);
    let ms = t["matches"].as_array().unwrap();
    let absent = ms
        .iter()
        .find(|m| m["round"] == 1 && m["board"] == 1)
        .unwrap();
    assert_eq!(absent["absent"], "second", "{absent}");
    assert_eq!(absent["winner"], "first", "{absent}");
    // A match nobody played: its table, which never started, is gone from storage (the
    // person who came is not left at a table that waits for ever).
    assert!(
        absent["table"].is_null() && absent["status"].is_null(),
        "{absent}"
    );
    let gone = matches[1]["table"].as_str().unwrap();
    for (what, sql) in [
        (
            "table",
            format!("SELECT count(*) FROM tables WHERE id = '{gone}'"),
        ),
        (
            "seats",
            format!("SELECT count(*) FROM seats WHERE table_id = '{gone}'"),
        ),
        (
            "kept seats",
            format!("SELECT count(*) FROM tournament_seats WHERE table_id = '{gone}'"),
        ),
    ] {
        assert_eq!(
            ints(&server.db, &sql)[0][0],
            0,
            "{what} of {gone} still stored"
        );
    }
    let (code, e) = server.api("GET", &format!("/api/tables/{gone}"), Some(org), None);
    assert_eq!(
        (code, e["code"].as_str()),
        (404, Some("table_not_found")),
        "{e}"
    );
    // Round 2: three entrants in, one match and a bye; the withdrawn one not paired.
    let round2: Vec<&Value> = ms.iter().filter(|m| m["round"] == 2).collect();
    assert_eq!(round2.len(), 1, "{t}");
    assert!(round2[0]["first"] != late && round2[0]["second"] != late);
    let rows = t["standings"]["rows"].as_array().unwrap();
    let row = rows.iter().find(|r| r["entrant"] == late).unwrap();
    assert_eq!(row["withdrawn"], true);
}

#[test]
fn a_knockout_of_five_with_stand_ins_ends_with_a_champion_and_survives_a_restart() {
    let server = Server::start_paused("tournament-knockout", roomy());
    let (id, people, _) = started_ring_event(
        &server,
        "Ko",
        5,
        json!({"format": "knockout", "consolation": true, "bots": true,
               "rules": {"hands": 1, "to": 6}, "private": true}),
    );
    let org = &people[0].1;
    let t = played_out(&server, org, &id, Some(&people));
    let state = &t["standings"]["state"];
    assert!(state["over"].as_bool().unwrap(), "{t}");
    assert!(state["champion"].is_u64(), "{t}");
    // One person came to each match: the bot stood in for the other, and is shown so.
    for m in t["matches"].as_array().unwrap() {
        assert_eq!(m["stand_ins"].as_array().unwrap().len(), 1, "{m}");
        assert!(!m["winner"].is_null(), "{m}");
    }
    // A private tournament is not there for a stranger.
    let (_, stranger) = server.account("Stranger");
    let (code, e) = server.api(
        "GET",
        &format!("/api/tournaments/{id}"),
        Some(&stranger),
        None,
    );
    assert_eq!(
        (code, e["code"].as_str()),
        (404, Some("tournament_not_found"))
    );
    let stored = ints(
        &server.db,
        &format!("SELECT count(*) FROM tournaments WHERE id = '{id}' AND standings IS NOT NULL AND status = 'finished'"),
    );
    assert_eq!(stored[0][0], 1);
    let server = server.restart();
    let again = get(&server, org, &format!("/api/tournaments/{id}"));
    assert_eq!(again["standings"], t["standings"]);
}

#[test]
fn bad_settings_and_bounds_are_refused_by_name() {
    let server = Server::start("tournament-bounds", roomy());
    let (_, org) = server.account("Orga");
    let base = json!({"name": "T", "game": "ring", "format": "swiss", "rounds": 3});
    let with = |k: &str, v: Value| {
        let mut b = base.clone();
        b[k] = v;
        b
    };
    for (body, code) in [
        (with("format", json!("round_robin")), "bad_options"),
        (with("rounds", json!(0)), "bad_options"),
        (with("rounds", json!(99)), "bad_options"),
        (with("courtesy_s", json!(5)), "bad_options"),
        (with("turn_s", json!(0)), "bad_options"),
        (with("name", json!("x".repeat(81))), "bad_options"),
        (with("name", json!("  ")), "bad_options"),
        (with("game", json!("poker")), "unknown_game"),
        (with("bot", json!("genius")), "bot_not_found"),
        (with("start", json!(i64::MAX / 2)), "bad_options"),
        // A ring has no juegos to lose one by one.
        (with("courtesy_juegos", json!(true)), "bad_options"),
    ] {
        let (status, e) = server.api("POST", "/api/tournaments", Some(&org), Some(body.clone()));
        assert_eq!(
            (status, e["code"].as_str()),
            (400, Some(code)),
            "{body}: {e}"
        );
    }
    // A guest organises nothing.
    let guest = server.player("Guest");
    let (status, _) = server.api("POST", "/api/tournaments", Some(&guest), Some(base.clone()));
    assert_eq!(status, 403);
    // At most five not finished per organiser.
    let max = tapete_server::tournaments::MAX_OPEN_PER_ORGANISER;
    for _ in 0..max {
        let (status, e) = server.api("POST", "/api/tournaments", Some(&org), Some(base.clone()));
        assert_eq!(status, 200, "{e}");
    }
    let (status, e) = server.api("POST", "/api/tournaments", Some(&org), Some(base.clone()));
    assert_eq!(
        (status, e["code"].as_str()),
        (429, Some("too_many_tournaments")),
        "{e}"
    );
    // A one-against-one game takes no partner; an unknown tournament is a 404.
    let (_, list) = server.api("GET", "/api/tournaments", None, None);
    let id = list[0]["id"].as_str().unwrap().to_string();
    let (status, e) = server.api(
        "POST",
        &format!("/api/tournaments/{id}/entries"),
        Some(&org),
        Some(json!({"partner": "Orga"})),
    );
    assert_eq!(
        (status, e["code"].as_str()),
        (400, Some("entry_has_no_partner")),
        "{e}"
    );
    let (status, e) = server.api("GET", "/api/tournaments/nosuchid", None, None);
    assert_eq!(
        (status, e["code"].as_str()),
        (404, Some("tournament_not_found")),
        "{e}"
    );
    let (status, e) = server.api(
        "POST",
        &format!("/api/tournaments/{id}/play"),
        Some(&org),
        None,
    );
    assert_eq!(
        (status, e["code"].as_str()),
        (409, Some("no_match_now")),
        "{e}"
    );
}

#[test]
fn a_restart_while_the_matches_wait_for_their_people_loses_nothing() {
    let server = Server::start_paused("tournament-restart", roomy());
    let (id, people, t) = started_ring_event(
        &server,
        "Rs",
        4,
        json!({"format": "knockout", "bots": true, "rules": {"hands": 1, "to": 6}}),
    );
    let org = people[0].1.clone();
    assert_eq!(t["matches"].as_array().unwrap().len(), 2);
    server.advance(Duration::from_secs(10));
    let server = server.restart();
    let t = played_out(&server, &org, &id, Some(&people));
    assert_eq!(t["matches"].as_array().unwrap().len(), 3, "{t}");
    assert!(t["standings"]["state"]["champion"].is_u64(), "{t}");
}

#[test]
fn chinchon_stand_ins_play_a_knockout_out() {
    let server = Server::start_paused("tournament-chinchon", roomy());
    let people: Vec<(i64, String)> = (0..4).map(|i| server.account(&format!("Cf{i}"))).collect();
    let (code, made) = server.api(
        "POST",
        "/api/tournaments",
        Some(&people[0].1),
        Some(
            json!({"name": "Copa", "game": "chinchon", "format": "knockout",
                    "rules": {"target": 20}, "bots": true, "courtesy_s": 30,
                    "pace_ms": 0, "bot": "random"}),
        ),
    );
    assert_eq!(code, 200, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    for (_, p) in &people {
        let (code, e) = server.api(
            "POST",
            &format!("/api/tournaments/{id}/entries"),
            Some(p),
            Some(json!({})),
        );
        assert_eq!(code, 200, "{e}");
    }
    let (code, _) = server.api(
        "POST",
        &format!("/api/tournaments/{id}/start"),
        Some(&people[0].1),
        None,
    );
    assert_eq!(code, 200);
    let t = played_out(&server, &people[0].1, &id, Some(&people));
    assert_eq!(t["matches"].as_array().unwrap().len(), 3, "{t}");
    for m in t["matches"].as_array().unwrap() {
        assert_eq!(m["stand_ins"].as_array().unwrap().len(), 1, "{m}");
    }
}

#[test]
fn a_match_nobody_came_to_is_lost_by_both_and_a_bracket_goes_on() {
    let server = Server::start_paused("tournament-nobody", roomy());
    let (id, people, _) = started_ring_event(
        &server,
        "Nb",
        4,
        json!({"format": "knockout", "bots": true, "rules": {"hands": 1, "to": 6}}),
    );
    let org = &people[0].1;
    let t = played_out(&server, org, &id, None);
    // Nobody came anywhere: no game was played; the first side (the higher seed) went on.
    for m in t["matches"].as_array().unwrap() {
        assert_eq!(m["absent"], "both", "{m}");
        assert_eq!(m["winner"], "first", "{m}");
        // Its table, never started, is gone.
        assert!(m["status"].is_null() && m["table"].is_null(), "{m}");
    }
    assert_eq!(t["standings"]["state"]["champion"], 0);
    let left = ints(&server.db, "SELECT count(*) FROM tables");
    assert_eq!(
        left[0][0], 0,
        "tables of matches nobody played are still stored"
    );
}

#[test]
fn a_cuadrillas_tournament_is_for_its_members() {
    let server = Server::start("tournament-cuadrilla", roomy());
    let (_, ane) = server.account("Ane");
    let (_, bea) = server.account("Bea");
    let (_, cid) = server.account("Cid");
    let (code, c) = server.api(
        "POST",
        "/api/cuadrillas",
        Some(&ane),
        Some(json!({"name": "Los del jueves"})),
    );
    assert_eq!(code, 200, "{c}");
    let cq = c["id"].as_str().unwrap().to_string();
    let (code, e) = server.api(
        "POST",
        &format!("/api/cuadrillas/{cq}/members"),
        Some(&bea),
        Some(json!({"invite": c["invite"]})),
    );
    assert_eq!(code, 200, "{e}");
    let body = json!({"name": "Copa del jueves", "game": "mus", "format": "knockout",
                      "cuadrilla": cq});
    // Only a member organises one.
    let (code, e) = server.api("POST", "/api/tournaments", Some(&cid), Some(body.clone()));
    assert_eq!(
        (code, e["code"].as_str()),
        (404, Some("cuadrilla_not_found")),
        "{e}"
    );
    let (code, made) = server.api("POST", "/api/tournaments", Some(&ane), Some(body));
    assert_eq!(code, 200, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    // Members see it without its link; others do not, and are not listed it.
    let path = format!("/api/tournaments/{id}");
    assert_eq!(server.api("GET", &path, Some(&bea), None).0, 200);
    assert_eq!(server.api("GET", &path, Some(&cid), None).0, 404);
    let (_, list) = server.api("GET", "/api/tournaments", None, None);
    assert!(!list.to_string().contains(&id), "{list}");
    // A pair of members enters; a member with an outsider does not.
    let entries = format!("/api/tournaments/{id}/entries");
    let (code, e) = server.api(
        "POST",
        &entries,
        Some(&ane),
        Some(json!({"partner": "Cid"})),
    );
    assert_eq!(
        (code, e["code"].as_str()),
        (403, Some("tournament_members_only")),
        "{e}"
    );
    let (code, e) = server.api(
        "POST",
        &entries,
        Some(&ane),
        Some(json!({"partner": "Bea"})),
    );
    assert_eq!(code, 200, "{e}");
    // The cuadrilla's page lists it for its members.
    let (_, page) = server.api("GET", &format!("/api/cuadrillas/{cq}"), Some(&bea), None);
    assert_eq!(page["tournaments"][0]["id"], id.as_str(), "{page}");
}

/// Every message that has arrived on `ws` already, without waiting (pings passed over).
fn drain_all(ws: &mut Ws) -> Vec<Value> {
    crate::support::set_nonblocking(ws, true);
    let mut out = Vec::new();
    while let Ok(m) = ws.read() {
        if let tungstenite::Message::Text(t) = m {
            out.push(serde_json::from_str(t.as_str()).unwrap());
        }
    }
    crate::support::set_nonblocking(ws, false);
    out
}

#[test]
fn a_public_tournaments_match_is_watched_a_minute_behind() {
    let server = Server::start_paused("tournament-watch", roomy());
    let (id, people, t) = started_ring_event(
        &server,
        "Wt",
        2,
        json!({"format": "knockout", "bots": true, "pace_ms": 1000,
               "rules": {"hands": 9, "to": 30}}),
    );
    let table = t["matches"][0]["table"].as_str().unwrap().to_string();
    // Not among the lobby's tables to join.
    let (_, lobby) = server.api("GET", "/api/tables", None, None);
    assert!(!lobby.to_string().contains(&table), "{lobby}");
    let play = format!("/api/tournaments/{id}/play");
    let mut seats = Vec::new();
    for (_, token) in &people {
        let (code, sat) = server.api("POST", &play, Some(token), None);
        assert_eq!(code, 200, "{sat}");
        seats.push(server.ws(&table, Some(token)));
    }
    // A stranger watches (a public tournament's match).
    let (_, stranger) = server.account("Mirona");
    let mut watcher = server.ws(&table, Some(&stranger));
    // The two play four actions at once, the clock standing still.
    let mut live = 0;
    let mut acted = 0;
    while acted < 4 {
        for ws in seats.iter_mut() {
            for s in crate::support::drain_states(ws) {
                live = live.max(s["n"].as_u64().unwrap());
                if let Some(a) = legal(&s).first() {
                    if s["n"].as_u64() == Some(live) && acted < 4 {
                        send(ws, json!({"type": "act", "action": a, "id": s["n"]}));
                        acted += 1;
                    }
                }
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let until = Instant::now() + Duration::from_secs(5);
    while live < 4 && Instant::now() < until {
        for ws in seats.iter_mut() {
            for s in crate::support::drain_states(ws) {
                live = live.max(s["n"].as_u64().unwrap());
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(live, 4);
    // The watcher has seen none of it yet.
    std::thread::sleep(Duration::from_millis(200));
    let early: Vec<Value> = drain_all(&mut watcher)
        .into_iter()
        .filter(|m| m["type"] == "state")
        .collect();
    assert!(early.iter().all(|s| s["n"] == 0), "{early:?}");
    // A minute on (the turn clocks have the bot play meanwhile; every link read, so that
    // it answers the server's pings), the watcher sees the game as it was a minute ago:
    // four actions in, in the spectator's view.
    let mut all = Vec::new();
    let mut now_live = 0;
    for _ in 0..(WATCH_DELAY.as_secs() + 1) {
        server.advance(Duration::from_secs(1));
        std::thread::sleep(Duration::from_millis(20));
        all.extend(drain_all(&mut watcher));
        for ws in seats.iter_mut() {
            for s in crate::support::drain_states(ws) {
                now_live = now_live.max(s["n"].as_u64().unwrap());
            }
        }
    }
    // Sent at the minute's end: let a busy machine's writer deliver it (the clock stands
    // still meanwhile, so nothing later is due).
    let until = Instant::now() + Duration::from_secs(10);
    while !all.iter().any(|m| m["type"] == "state") && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
        all.extend(drain_all(&mut watcher));
    }
    let states: Vec<&Value> = all.iter().filter(|m| m["type"] == "state").collect();
    let Some(last) = states.last() else {
        panic!("no state of a minute ago: {all:?}");
    };
    assert_eq!(last["n"], 4, "{states:?}");
    assert!(
        states.iter().all(|s| s["n"].as_u64() <= Some(4)),
        "{states:?}"
    );
    assert!(
        last["you"]["seat"].is_null() && last["view"]["seat"].is_null(),
        "{last}"
    );
    assert!(now_live > 4, "the bot played on meanwhile ({now_live})");
}

#[test]
fn a_seat_the_bot_holds_for_who_did_not_come_stays_theirs() {
    let server = Server::start_paused("tournament-owners", roomy());
    let (id, people, t) = started_ring_event(
        &server,
        "Ow",
        2,
        json!({"format": "knockout", "bots": true, "pace_ms": 1000,
               "rules": {"hands": 9, "to": 9}}),
    );
    let table = t["matches"][0]["table"].as_str().unwrap().to_string();
    let first = t["matches"][0]["first"].as_u64().unwrap();
    let who = |seed: u64| {
        let e = t["entrants"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["seed"] == seed)
            .unwrap();
        let pid = e["players"][0]["id"].as_i64().unwrap();
        people.iter().find(|(p, _)| *p == pid).unwrap().1.clone()
    };
    let (came, absent) = (who(first), who(1 - first));
    let (code, _) = server.api(
        "POST",
        &format!("/api/tournaments/{id}/play"),
        Some(&came),
        None,
    );
    assert_eq!(code, 200);
    // The courtesy time ends: the match starts, the bot in the absent one's seat.
    server.advance(Duration::from_secs(30));
    let mut info = Value::Null;
    for _ in 0..20 {
        server.advance(Duration::from_secs(1));
        std::thread::sleep(Duration::from_millis(20));
        info = server
            .api("GET", &format!("/api/tables/{table}"), Some(&came), None)
            .1;
        if info["status"] == "playing" {
            break;
        }
    }
    assert_eq!(info["status"], "playing", "{info}");
    // Neither a stranger nor the opponent may take it; its own entrant may.
    let (_, stranger) = server.account("Intrusa");
    // What the table answers a "sit" at seat 1, read until `done` (a busy machine may take
    // a while to answer).
    let answers = |token: &str, done: &dyn Fn(&Value) -> bool| {
        let mut ws = server.ws(&table, Some(token));
        send(&mut ws, json!({"type": "sit", "seat": 1}));
        let deadline = Instant::now() + Duration::from_secs(15);
        let mut got = Vec::new();
        while Instant::now() < deadline && !got.iter().any(done) {
            std::thread::sleep(Duration::from_millis(50));
            got.extend(drain_all(&mut ws));
        }
        got
    };
    let kept = |m: &Value| m["type"] == "error" && m["code"] == "seat_kept";
    for token in [&stranger, &came] {
        let got = answers(token, &kept);
        assert!(got.iter().any(kept), "{got:?}");
    }
    let seated = |m: &Value| m["you"]["seat"] == 1 || m["you"]["pending_seat"] == 1;
    let got = answers(&absent, &seated);
    assert!(got.iter().all(|m| m["type"] != "error"), "{got:?}");
    assert!(got.iter().any(seated), "{got:?}");
}

#[test]
fn a_pairs_substitute_takes_the_seat_of_the_one_who_does_not_come() {
    let server = Server::start_paused("tournament-substitute", roomy());
    let (_, a0) = server.account("Sa0");
    server.account("Sa1");
    let (_, sub) = server.account("Suplente");
    let (_, b0) = server.account("Sb0");
    let (_, b1) = server.account("Sb1");
    let (code, made) = server.api(
        "POST",
        "/api/tournaments",
        Some(&a0),
        Some(
            json!({"name": "Con suplente", "game": "mus", "format": "knockout",
                    "rules": rules(), "courtesy_s": 30, "pace_ms": 0, "bot": "random"}),
        ),
    );
    assert_eq!(code, 200, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    let entries = format!("/api/tournaments/{id}/entries");
    for (token, body) in [
        (&a0, json!({"partner": "Sa1", "substitute": "Suplente"})),
        (&b0, json!({"partner": "Sb1"})),
    ] {
        let (code, e) = server.api("POST", &entries, Some(token), Some(body));
        assert_eq!(code, 200, "{e}");
    }
    let (code, t) = server.api(
        "POST",
        &format!("/api/tournaments/{id}/start"),
        Some(&a0),
        None,
    );
    assert_eq!(code, 200, "{t}");
    let table = t["matches"][0]["table"].as_str().unwrap().to_string();
    // Sa1 does not come; the pair's substitute sits in the seat kept for Sa1, and the match
    // starts with the four of them (no bot allowed, nobody lost by absence).
    let play = format!("/api/tournaments/{id}/play");
    for token in [&a0, &b0, &b1, &sub] {
        let (code, sat) = server.api("POST", &play, Some(token), None);
        assert_eq!(code, 200, "{sat}");
    }
    let (_, info) = server.api("GET", &format!("/api/tables/{table}"), Some(&a0), None);
    assert_eq!(info["status"], "playing", "{info}");
    let seated: Vec<&str> = info["seats"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["player"]["nickname"].as_str())
        .collect();
    assert!(
        seated.contains(&"Suplente") && !seated.contains(&"Sa1"),
        "{info}"
    );
    // Sa1's partner sits across from the substitute: they are one side.
    let seat_of = |name: &str| {
        info["seats"]
            .as_array()
            .unwrap()
            .iter()
            .position(|s| s["player"]["nickname"] == name)
            .unwrap()
    };
    assert_eq!(seat_of("Sa0") % 2, seat_of("Suplente") % 2, "{info}");
}

#[test]
fn a_swiss_asked_for_more_rounds_than_its_field_plays_as_many_as_it_can() {
    let server = Server::start_paused("tournament-rounds", roomy());
    let (id, people, t) = started_ring_event(
        &server,
        "Rd",
        4,
        json!({"format": "swiss", "rounds": 5, "bots": true, "rules": {"hands": 1, "to": 6}}),
    );
    assert_eq!(t["rounds"], 3, "four entrants meet in three rounds: {t}");
    let t = played_out(&server, &people[0].1, &id, Some(&people));
    assert_eq!(t["matches"].as_array().unwrap().len(), 6, "{t}");
}

#[test]
fn a_duplicate_deals_every_table_of_a_round_the_same_boards_and_scores_them_in_matchpoints() {
    let server = Server::start_paused("tournament-duplicate", roomy());
    let people: Vec<(i64, String)> = (0..12)
        .map(|i| server.account(&format!("D{i:02}")))
        .collect();
    let org = &people[0].1;
    // Duplicate is Mus's: another game is refused, and so are boards out of bounds.
    let (code, e) = server.api(
        "POST",
        "/api/tournaments",
        Some(org),
        Some(json!({"name": "x", "game": "ring", "format": "duplicate"})),
    );
    assert_eq!(
        (code, e["code"].as_str()),
        (400, Some("bad_options")),
        "{e}"
    );
    let (code, e) = server.api(
        "POST",
        "/api/tournaments",
        Some(org),
        Some(json!({"name": "x", "game": "mus", "format": "duplicate", "boards": 33})),
    );
    assert_eq!(
        (code, e["code"].as_str()),
        (400, Some("bad_options")),
        "{e}"
    );
    let (id, t) = started_pairs_event(
        &server,
        &people,
        |i| format!("D{i:02}"),
        json!({"name": "Dúplex", "game": "mus", "format": "duplicate", "rounds": 2,
               "boards": 2, "rules": {"target": 30}, "bots": true, "courtesy_s": 120,
               "pace_ms": 0, "turn_s": 10, "bot": "random"}),
    );
    assert_eq!(t["format"], "duplicate");
    assert_eq!(t["rules"]["boards"], 2, "{t}");
    assert!(t.get("deals").is_none() && !t.to_string().contains("\"deals\""));
    let t = played_out(&server, org, &id, Some(&people));
    let matches = t["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 6, "2 rounds of 3 tables: {t}");
    for m in matches {
        assert!(m["absent"].is_null(), "somebody came to every match: {m}");
    }

    // Every table of a round was dealt from one seed, each round from another; the deal
    // the replays show is the same at every table of the round.
    let mut results = Vec::new();
    let mut round_seeds = BTreeSet::new();
    for round in 1..=2u32 {
        let tables: Vec<&str> = matches
            .iter()
            .filter(|m| m["round"] == round)
            .map(|m| m["table"].as_str().unwrap())
            .collect();
        assert_eq!(tables.len(), 3);
        let seeds: BTreeSet<i64> = tables
            .iter()
            .map(|tb| {
                ints(
                    &server.db,
                    &format!("SELECT seed FROM tables WHERE id = '{tb}'"),
                )[0][0]
            })
            .collect();
        assert_eq!(seeds.len(), 1, "round {round}: {seeds:?}");
        round_seeds.extend(seeds);
        let deals: BTreeSet<String> = tables
            .iter()
            .map(|tb| {
                let step = get(&server, org, &format!("/api/tables/{tb}/replay/0"));
                step["view"]["hands"].to_string()
            })
            .collect();
        assert_eq!(
            deals.len(),
            1,
            "round {round}: the tables were dealt {deals:?}"
        );
        assert!(
            deals.iter().all(|d| d.matches(',').count() >= 15),
            "{deals:?}"
        );
        // The test's own scoring of every board, from each table's log.
        for m in matches.iter().filter(|m| m["round"] == round) {
            let o = replayed_outcome(&server, org, m["table"].as_str().unwrap());
            assert_eq!(o.boards.len(), 2, "{o:?}");
            for (k, b) in o.boards.iter().enumerate() {
                results.push(tapete_tournament::duplicate::TableResult {
                    round,
                    deals: u64::from(round) * 100 + k as u64,
                    first: m["first"].as_u64().unwrap() as usize,
                    second: m["second"].as_u64().unwrap() as usize,
                    first_net: b[0],
                });
            }
            // The match's winner is the pair that netted more over the boards.
            let net: i64 = o.boards.iter().map(|b| b[0]).sum();
            let winner = match net.signum() {
                1 => json!("first"),
                -1 => json!("second"),
                _ => Value::Null,
            };
            assert_eq!(m["winner"], winner, "{m}");
        }
    }
    assert_eq!(round_seeds.len(), 2, "each round its own boards");
    // The cards are shared, the players' choices are not: the random stand-ins play each
    // table their own way. (Their results may still agree: an órdago seen at every table
    // is won by the same cards.)
    for round in 1..=2u32 {
        let logs: BTreeSet<String> = matches
            .iter()
            .filter(|m| m["round"] == round)
            .map(|m| {
                let tb = m["table"].as_str().unwrap();
                get(&server, org, &format!("/api/tables/{tb}/replay"))["actions"].to_string()
            })
            .collect();
        assert!(logs.len() > 1, "round {round}: every table played the same");
    }
    let expected = tapete_tournament::duplicate::standings(6, &results);
    assert_eq!(t["standings"]["kind"], "duplicate");
    assert_eq!(
        t["standings"]["rows"],
        serde_json::to_value(&expected).unwrap(),
        "{t}"
    );
    // Every pair held the first and the second side's cards against three others'.
    for r in &expected {
        assert_eq!(r.tables, 4, "{r:?}");
        assert_eq!(r.max, 4 * 4, "{r:?}");
    }
    // Its tables are its people's only: a stranger does not find them.
    let (_, stranger) = server.account("Mirona");
    let table = matches[0]["table"].as_str().unwrap();
    let (code, e) = server.api(
        "GET",
        &format!("/api/tables/{table}/replay"),
        Some(&stranger),
        None,
    );
    assert_eq!(
        (code, e["code"].as_str()),
        (404, Some("table_not_found")),
        "{e}"
    );
    let server = server.restart();
    let again = get(&server, org, &format!("/api/tournaments/{id}"));
    assert_eq!(again["standings"], t["standings"]);
}

/// A two-seat match's result as the test reads it from its outcome: the side whose seat
/// won (a bracket's undecided match to the first side), the winner's margin its points.
fn ring_result(
    o: &tapete_table::Outcome,
    key: MatchKey,
    first: usize,
    second: usize,
) -> MatchResult {
    let mut winner = match (o.winners.contains(&0), o.winners.contains(&1)) {
        (true, false) => Some(Side::First),
        (false, true) => Some(Side::Second),
        _ => None,
    };
    if winner.is_none() && matches!(key, MatchKey::Bracket(_)) {
        winner = Some(Side::First);
    }
    let margin = (o.scores[0] - o.scores[1]).abs();
    let (first_points, second_points) = match winner {
        Some(Side::First) => (margin, 0),
        Some(Side::Second) => (0, margin),
        None => (0, 0),
    };
    MatchResult {
        key,
        first,
        second,
        winner,
        first_points,
        second_points,
    }
}

/// Each table's (created, finished) times, from storage.
fn table_times(server: &Server, table: &str) -> (i64, i64) {
    let row = ints(
        &server.db,
        &format!("SELECT created, coalesce(finished, -1) FROM tables WHERE id = '{table}'"),
    );
    (row[0][0], row[0][1])
}

#[test]
fn an_arena_pairs_whoever_is_free_until_its_time_is_up_and_scores_streaks() {
    let server = Server::start_paused("tournament-arena", roomy());
    let (id, people, started) = started_ring_event(
        &server,
        "Ar",
        5,
        json!({"format": "arena", "minutes": 10, "bots": true, "rules": {"hands": 1, "to": 6}}),
    );
    assert_eq!(started["format"], "arena");
    assert_eq!(started["minutes"], 10);
    // Five entrants: two matches at once, one waits for the first to finish.
    assert_eq!(started["matches"].as_array().unwrap().len(), 2, "{started}");
    let org = &people[0].1;
    let t = played_out_every(&server, org, &id, Some(&people), Duration::from_secs(4));
    assert_eq!(t["standings"]["kind"], "arena");
    let ends = t["standings"]["ends_at"].as_i64().unwrap();
    let matches = t["matches"].as_array().unwrap();
    assert!(
        matches.len() >= 20,
        "{} matches in ten minutes",
        matches.len()
    );
    // Numbered in the order they were paired; each opened before the end; nobody in two
    // matches at once.
    let mut spans: Vec<Vec<(i64, i64)>> = vec![Vec::new(); 5];
    let mut results = Vec::new();
    for (k, m) in matches.iter().enumerate() {
        assert_eq!(m["board"], k, "{m}");
        assert_eq!(m["status"], "finished", "{m}");
        let table = m["table"].as_str().unwrap();
        let (created, finished) = table_times(&server, table);
        assert!(created < ends, "a match opened after the end: {m}");
        assert!(
            finished >= created,
            "{table}: created {created}, finished {finished}"
        );
        let (a, b) = (
            m["first"].as_u64().unwrap() as usize,
            m["second"].as_u64().unwrap() as usize,
        );
        assert_ne!(a, b);
        for e in [a, b] {
            for &(c, f) in &spans[e] {
                assert!(
                    created >= f || finished <= c,
                    "entrant {e} in two matches at once"
                );
            }
            spans[e].push((created, finished));
        }
        // The test's own result from the table's log.
        let o = replayed_outcome_of(&server, org, table, "ring");
        let r = ring_result(
            &o,
            MatchKey::Board {
                round: 1,
                board: k as u32,
            },
            a,
            b,
        );
        assert_eq!(m["winner"], serde_json::to_value(r.winner).unwrap(), "{m}");
        results.push(tapete_tournament::Played::new(
            1,
            a,
            b,
            r.winner,
            r.first_points,
            r.second_points,
        ));
    }
    // Everybody played; the standings are lichess's scoring of the logs in their order.
    assert!(spans.iter().all(|s| s.len() >= 5), "{spans:?}");
    // The one left waiting is one who has played the most: nobody plays far less.
    let counts: Vec<usize> = spans.iter().map(Vec::len).collect();
    let (least, most) = (counts.iter().min().unwrap(), counts.iter().max().unwrap());
    assert!(most - least <= 2, "matches played: {counts:?}");
    let rows = tapete_tournament::arena::standings(5, &results);
    assert_eq!(
        t["standings"]["rows"],
        serde_json::to_value(&rows).unwrap(),
        "{t}"
    );
    let server = server.restart();
    let again = get(&server, org, &format!("/api/tournaments/{id}"));
    assert_eq!(again["standings"], t["standings"]);
}

#[test]
fn an_arena_pauses_who_does_not_come_until_they_are_back() {
    let server = Server::start_paused("tournament-arena-pause", roomy());
    let (id, people, started) = started_ring_event(
        &server,
        "Ap",
        3,
        json!({"format": "arena", "minutes": 10, "rules": {"hands": 1, "to": 6}}),
    );
    let org = &people[0].1;
    let path = format!("/api/tournaments/{id}");
    // Ap2 never comes; the others sit at every match of theirs.
    let seed_of = |t: &Value, who: i64| {
        t["entrants"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["players"][0]["id"] == who)
            .unwrap()["seed"]
            .as_u64()
            .unwrap()
    };
    let absent = seed_of(&started, people[2].0);
    let sit_all_but = |t: &Value, skip: Option<u64>| {
        for m in t["matches"].as_array().unwrap() {
            if m["status"] != "waiting" || !m["absent"].is_null() {
                continue;
            }
            for side in ["first", "second"] {
                let seed = m[side].as_u64().unwrap();
                if Some(seed) == skip {
                    continue;
                }
                let pid = t["entrants"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|e| e["seed"] == seed)
                    .unwrap()["players"][0]["id"]
                    .as_i64()
                    .unwrap();
                let token = &people.iter().find(|(p, _)| *p == pid).unwrap().1;
                server.api("POST", &format!("{path}/play"), Some(token), None);
            }
        }
    };
    // Until the absent entrant's first match is lost by absence: it is then paused.
    let deadline = Instant::now() + Duration::from_secs(60);
    let t = loop {
        assert!(Instant::now() < deadline, "no absence recorded");
        let t = get(&server, org, &path);
        if t["matches"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| !m["absent"].is_null())
        {
            break t;
        }
        sit_all_but(&t, Some(absent));
        server.advance(Duration::from_secs(2));
        std::thread::sleep(Duration::from_millis(10));
    };
    let lost = t["matches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| !m["absent"].is_null())
        .unwrap()
        .clone();
    let paused = t["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["seed"] == absent)
        .unwrap();
    assert!(!paused["withdrawn"].is_null(), "{t}");
    // Three minutes on: the two others play each other, never the one paused.
    for _ in 0..90 {
        let t = get(&server, org, &path);
        sit_all_but(&t, Some(absent));
        server.advance(Duration::from_secs(2));
        std::thread::sleep(Duration::from_millis(10));
    }
    let t = get(&server, org, &path);
    let after: Vec<&Value> = t["matches"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["board"].as_u64() > lost["board"].as_u64())
        .collect();
    assert!(after.len() >= 2, "the others went on playing: {t}");
    for m in &after {
        assert!(
            m["first"] != absent && m["second"] != absent,
            "a paused entrant was paired: {m}"
        );
    }
    // Back: paired again.
    let (code, r) = server.api("POST", &format!("{path}/play"), Some(&people[2].1), None);
    assert_eq!((code, &r["resumed"]), (200, &json!(true)), "{r}");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        assert!(
            Instant::now() < deadline,
            "the entrant back was not paired again"
        );
        let t = get(&server, org, &path);
        if t["matches"].as_array().unwrap().iter().any(|m| {
            m["board"].as_u64() > lost["board"].as_u64()
                && (m["first"] == absent || m["second"] == absent)
        }) {
            break;
        }
        sit_all_but(&t, None);
        server.advance(Duration::from_secs(2));
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn groups_then_a_knockout_are_played_out_from_the_tables_logs() {
    let server = Server::start_paused("tournament-groups", roomy());
    let (id, people, started) = started_ring_event(
        &server,
        "Gr",
        7,
        json!({"format": "groups", "group_size": 4, "advance": 2, "bots": true,
               "rules": {"hands": 1, "to": 6}}),
    );
    assert_eq!(started["format"], "groups");
    assert_eq!(started["standings"]["kind"], "groups", "{started}");
    // Seven in two groups (of four and three): round one pairs both.
    let groups = started["standings"]["groups"]["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 2, "{started}");
    let org = &people[0].1;
    let t = played_out(&server, org, &id, Some(&people));
    let state = &t["standings"]["groups"];
    assert_eq!(state["over"], true, "{t}");
    assert!(state["champion"].is_u64(), "{t}");
    // 6 + 3 group matches, then a knockout of four: 3 matches.
    let matches = t["matches"].as_array().unwrap();
    let group_matches = matches.iter().filter(|m| m["round"] != 0).count();
    let knockout = matches.iter().filter(|m| m["round"] == 0).count();
    assert_eq!((group_matches, knockout), (9, 3), "{t}");
    // The standings are the event's over the results the test reads from the logs.
    let mut results = Vec::new();
    for m in matches {
        let o = replayed_outcome_of(&server, org, m["table"].as_str().unwrap(), "ring");
        let key = if m["round"] == 0 {
            MatchKey::Bracket(m["board"].as_u64().unwrap() as usize)
        } else {
            MatchKey::Board {
                round: m["round"].as_u64().unwrap() as u32,
                board: m["board"].as_u64().unwrap() as u32,
            }
        };
        results.push(ring_result(
            &o,
            key,
            m["first"].as_u64().unwrap() as usize,
            m["second"].as_u64().unwrap() as usize,
        ));
    }
    let event = Event::new(
        Format::Groups {
            size: 4,
            advance: 2,
        },
        7,
    )
    .unwrap();
    let expected = event.groups(&results).expect("the logs fit the event");
    assert_eq!(state, &serde_json::to_value(&expected).unwrap());
    let server = server.restart();
    let again = get(&server, org, &format!("/api/tournaments/{id}"));
    assert_eq!(again["standings"], t["standings"]);
}

#[test]
fn a_field_too_small_for_its_groups_plays_what_it_can() {
    let server = Server::start_paused("tournament-groups-small", roomy());
    // Two entrants make no group: they play a knockout (a final).
    let (_, _, t) = started_ring_event(
        &server,
        "Gs",
        2,
        json!({"format": "groups", "group_size": 4, "advance": 2, "rules": {"hands": 1, "to": 6}}),
    );
    assert_eq!(t["standings"]["kind"], "bracket", "{t}");
    assert_eq!(t["matches"].as_array().unwrap().len(), 1);
    // Five in groups of up to five with four going on: one group of five, four go on.
    let (_, _, t) = started_ring_event(
        &server,
        "Gt",
        5,
        json!({"format": "groups", "group_size": 5, "advance": 4, "rules": {"hands": 1, "to": 6}}),
    );
    assert_eq!(t["standings"]["kind"], "groups", "{t}");
    assert_eq!(t["standings"]["groups"]["advance"], 4, "{t}");
    // Bad options are refused at once.
    let (_, tok) = server.account("Gu");
    for body in [
        json!({"name": "x", "game": "ring", "format": "groups", "group_size": 9}),
        json!({"name": "x", "game": "ring", "format": "groups", "advance": 4}),
        json!({"name": "x", "game": "ring", "format": "swiss", "advance": 2}),
    ] {
        let (code, e) = server.api("POST", "/api/tournaments", Some(&tok), Some(body));
        assert_eq!(
            (code, e["code"].as_str()),
            (400, Some("bad_options")),
            "{e}"
        );
    }
}

#[test]
fn a_match_past_its_time_limit_stops_and_whoever_is_ahead_wins_it() {
    let server = Server::start_paused("tournament-time-limit", roomy());
    // A long game (9 hands to 30, at least 135 turns) played slowly, a turn every 5 s: it
    // cannot end in ten minutes.
    let (id, people, _) = started_ring_event(
        &server,
        "Tl",
        2,
        json!({"format": "knockout", "bots": true, "time_limit_s": 600, "pace_ms": 5000,
               "rules": {"hands": 9, "to": 30}}),
    );
    let org = &people[0].1;
    let t = played_out_every(&server, org, &id, Some(&people), Duration::from_secs(5));
    assert_eq!(t["time_limit_s"], 600);
    let m = &t["matches"][0];
    assert_eq!(m["status"], "finished", "{t}");
    let table = m["table"].as_str().unwrap();
    let (created, finished) = table_times(&server, table);
    let courtesy_until = m["courtesy_until"].as_i64().unwrap();
    assert!(
        finished >= courtesy_until + 600 && finished <= courtesy_until + 610,
        "{created} {finished}"
    );
    // The log does not end the game: the result is who was ahead where it left it.
    let r = get(&server, org, &format!("/api/tables/{table}/replay"));
    let kinds = games();
    let kind = kinds.iter().find(|k| k.name() == "ring").unwrap();
    let seed = ints(
        &server.db,
        &format!("SELECT seed FROM tables WHERE id = '{table}'"),
    )[0][0];
    let mut game = kind.new_game(&r["table"]["rules"], 2, seed as u64).unwrap();
    for a in r["actions"].as_array().unwrap() {
        game.apply(
            a["seat"].as_u64().unwrap() as usize,
            a["action"].as_str().unwrap(),
        )
        .unwrap();
    }
    assert!(game.outcome().is_none(), "the game ended by itself");
    assert!(game.stop());
    let o = game.outcome().unwrap();
    assert!(o.summary.contains("time limit"), "{o:?}");
    let info = get(&server, org, &format!("/api/tables/{table}"));
    assert_eq!(info["outcome"]["winners"], json!(o.winners), "{info}");
    let first = m["first"].as_u64().unwrap() as usize;
    let r = ring_result(
        &o,
        MatchKey::Bracket(0),
        first,
        m["second"].as_u64().unwrap() as usize,
    );
    assert_eq!(m["winner"], serde_json::to_value(r.winner).unwrap(), "{m}");
    assert!(t["standings"]["state"]["champion"].is_u64(), "{t}");
    // Nothing more can be played there.
    let (code, _) = server.api(
        "POST",
        &format!("/api/tournaments/{id}/play"),
        Some(org),
        None,
    );
    assert_eq!(code, 409);
    // Bounds.
    let (code, e) = server.api(
        "POST",
        "/api/tournaments",
        Some(org),
        Some(json!({"name": "x", "game": "ring", "format": "knockout", "time_limit_s": 60})),
    );
    assert_eq!(
        (code, e["code"].as_str()),
        (400, Some("bad_options")),
        "{e}"
    );
}

#[test]
fn courtesy_by_juegos_gives_a_juego_each_courtesy_time_then_the_match() {
    let server = Server::start_paused("tournament-juegos", roomy());
    let people: Vec<(i64, String)> = (0..8).map(|i| server.account(&format!("J{i}"))).collect();
    let org = &people[0].1;
    // Best of three juegos: one given leaves the match to play, a second would win it.
    let (id, t) = started_pairs_event(
        &server,
        &people,
        |i| format!("J{i}"),
        json!({"name": "Cortesía a juegos", "game": "mus", "format": "swiss", "rounds": 1,
               "rules": {"target": 30, "juegos": 3, "vacas": 1}, "courtesy_s": 60,
               "courtesy_juegos": true, "pace_ms": 0, "turn_s": 10, "bot": "random"}),
    );
    assert_eq!(t["courtesy_juegos"], true);
    // Not with stand-ins, who would play instead; not on boards, which have no juegos.
    for (extra, why) in [
        (json!({"bots": true}), "exclude each other"),
        (json!({"format": "duplicate"}), "boards have no juegos"),
    ] {
        let mut body = json!({"name": "x", "game": "mus", "format": "swiss", "rounds": 1,
                              "courtesy_juegos": true});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        let (code, e) = server.api("POST", "/api/tournaments", Some(org), Some(body));
        assert_eq!(
            (code, e["code"].as_str()),
            (400, Some("bad_options")),
            "{e}"
        );
        assert!(e["error"].as_str().unwrap_or("").contains(why), "{e}");
    }
    let tokens_of = |t: &Value, seed: &Value| -> Vec<String> {
        let e = t["entrants"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["seed"] == *seed)
            .unwrap();
        e["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                people
                    .iter()
                    .find(|(id, _)| p["id"] == *id)
                    .unwrap()
                    .1
                    .clone()
            })
            .collect()
    };
    let sit = |t: &Value, seed: &Value| {
        for token in tokens_of(t, seed) {
            let (code, sat) = server.api(
                "POST",
                &format!("/api/tournaments/{id}/play"),
                Some(&token),
                None,
            );
            assert_eq!(code, 200, "{sat}");
        }
    };
    // At both matches the first pair sits; the second pairs do not come.
    let matches = t["matches"].as_array().unwrap().clone();
    assert_eq!(matches.len(), 2);
    for m in &matches {
        sit(&t, &m["first"]);
    }
    let first_until = matches[0]["courtesy_until"].as_i64().unwrap();
    let path = format!("/api/tournaments/{id}");
    // The courtesy time ends: each first pair is given a juego, and it runs again.
    let deadline = Instant::now() + Duration::from_secs(60);
    let t = loop {
        server.advance(Duration::from_secs(2));
        let t = get(&server, org, &path);
        let moved = t["matches"].as_array().unwrap().iter().all(|m| {
            m["courtesy_until"].as_i64() == Some(first_until + 60) && m["status"] == "waiting"
        });
        if moved {
            break t;
        }
        assert!(Instant::now() < deadline, "no juego given: {t}");
    };
    for m in t["matches"].as_array().unwrap() {
        let table = m["table"].as_str().unwrap();
        let info = get(&server, org, &format!("/api/tables/{table}"));
        assert_eq!(info["rules"]["juegos_given"], json!([0]), "{info}");
        assert_eq!(info["status"], "waiting", "{info}");
        assert!(m["absent"].is_null(), "{m}");
    }
    // Nothing is lost with a restart: the juego given is in the table's options.
    let server = server.restart();
    let t = get(&server, org, &path);
    let late = t["matches"][1].clone();
    let table = late["table"].as_str().unwrap().to_string();
    let info = get(&server, org, &format!("/api/tables/{table}"));
    assert_eq!(info["rules"]["juegos_given"], json!([0]), "{info}");
    // The late pair comes before the next courtesy time ends: its match starts a juego down.
    for token in tokens_of(&t, &late["second"]) {
        let (code, sat) = server.api(
            "POST",
            &format!("/api/tournaments/{id}/play"),
            Some(&token),
            None,
        );
        assert_eq!(code, 200, "{sat}");
    }
    let seated = tokens_of(&t, &late["first"]).remove(0);
    let mut ws = server.ws(&table, Some(&seated));
    let s = read_of(&mut ws, "state");
    drop(ws);
    let view = &s["view"];
    assert_eq!(view["scores"]["games"], json!([1, 0]), "{s}");
    // The other pair never comes: at the next end its juego would win the match, which
    // it loses outright; the late pair's match is played out by the seats' bots.
    let t = played_out_every(&server, org, &id, None, Duration::from_secs(5));
    let ms = t["matches"].as_array().unwrap();
    let never = ms
        .iter()
        .find(|m| m["board"] == matches[0]["board"])
        .unwrap();
    assert_eq!(never["absent"], "second", "{never}");
    assert_eq!(never["winner"], "first", "{never}");
    assert!(never["table"].is_null(), "{never}");
    let played = ms.iter().find(|m| m["board"] == late["board"]).unwrap();
    assert_eq!(played["status"], "finished", "{played}");
    assert!(played["absent"].is_null(), "{played}");
    // Its result is its log's, the juego given included: the log replays from the table's
    // options to the stored outcome.
    let o = replayed_outcome(&server, org, &table);
    let info = get(&server, org, &format!("/api/tables/{table}"));
    assert_eq!(info["outcome"]["winners"], json!(o.winners), "{info}");
    let winner = if o.winners.contains(&0) {
        "first"
    } else {
        "second"
    };
    assert_eq!(played["winner"], winner, "{played}");
    let r = get(&server, org, &format!("/api/tables/{table}/replay"));
    assert_eq!(r["table"]["rules"]["juegos_given"], json!([0]), "{r}");
    // Another game at that table ("otra") starts level.
    let (code, again) = server.api(
        "POST",
        &format!("/api/tables/{table}/rematch"),
        Some(&seated),
        None,
    );
    assert_eq!(code, 200, "{again}");
    let new = again["id"].as_str().unwrap();
    let info = get(&server, &seated, &format!("/api/tables/{new}"));
    assert!(info["rules"].get("juegos_given").is_none(), "{info}");
    assert_eq!(info["rules"]["juegos"], 3, "{info}");
}
