//! Reviews: a finished game's review of one seat is queued when first asked for (202) and
//! answered once made (200), made once and stored across restarts; a rated game's
//! accounts' reviews are made when it ends; refusals name the problem; a private table's
//! reviews are for the people who sat there; new reviews are bounded per person and per
//! address, the queue in length and the reviews made at once on the whole server.

use crate::support::{
    choose, eventually, games, legal, play_out, read_of, ring, roomy, send, Server,
};
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tapete_server::Limits;

/// A review made quickly: few worlds a decision.
fn quick() -> tapete_review::Settings {
    tapete_review::Settings {
        min_worlds: 2,
        max_worlds: 4,
        threads: 1,
        ..tapete_review::Settings::default()
    }
}

/// Roomy limits, and quick reviews.
fn limits() -> Limits {
    Limits {
        review: quick(),
        reviews_per_person: 100,
        review_reads_per_minute: 100_000,
        ..roomy()
    }
}

/// A ring table made by `token` at seat 0 with `options` (pace and holds none), started
/// with the bot in every other seat and played to its end; its id.
fn finished_ring(server: &Server, token: &str, options: Value) -> String {
    let mut body = json!({"game": "ring", "seats": 2, "start": true, "pace_ms": 0,
                          "hold_s": 0});
    for (k, v) in options.as_object().unwrap() {
        body[k] = v.clone();
    }
    let id = server.table(token, body);
    let mut ws = server.ws(&id, Some(token));
    play_out(&mut ws);
    id
}

fn ask(server: &Server, id: &str, query: &str, token: Option<&str>) -> (u16, Value) {
    server.api(
        "GET",
        &format!("/api/tables/{id}/review?{query}"),
        token,
        None,
    )
}

/// The review of `seat`, asked for until it is made: every answer before is a 202 saying
/// where it stands.
fn made(server: &Server, id: &str, seat: usize, token: Option<&str>) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (code, r) = ask(server, id, &format!("seat={seat}"), token);
        if code == 200 {
            return r;
        }
        assert_eq!(code, 202, "{r}");
        match r["status"].as_str() {
            Some("queued") => assert!(r["position"].as_u64() >= Some(1), "{r}"),
            Some("running") => assert_eq!(r["position"], 0, "{r}"),
            _ => panic!("where a review stands: {r}"),
        }
        assert!(Instant::now() < deadline, "the review took too long: {r}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_finished_games_review_is_queued_made_once_and_kept_across_a_restart() {
    let server = Server::start("review-ring", limits());
    let ane = server.player("Ane");
    let id = finished_ring(&server, &ane, json!({"rules": {"hands": 3}}));
    // A casual game's review waits to be asked for.
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(server.gauges.reviews_made(), 0);
    let (code, first) = ask(&server, &id, "seat=0", Some(&ane));
    assert_eq!(code, 202, "{first}");
    let review = made(&server, &id, 0, Some(&ane));
    assert_eq!(
        (&review["game"], &review["seat"]),
        (&json!("ring"), &json!(0))
    );
    // One decision for each action of seat 0 (ring offers two at every turn), each
    // option valued in its worlds.
    let (code, replay) = server.api("GET", &format!("/api/tables/{id}/replay"), None, None);
    assert_eq!(code, 200, "{replay}");
    let mine: Vec<(u64, String)> = replay["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["seat"] == 0)
        .map(|a| {
            (
                a["n"].as_u64().unwrap() - 1,
                a["action"].as_str().unwrap().into(),
            )
        })
        .collect();
    let decisions: Vec<(u64, String)> = review["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["at"].as_u64().unwrap(),
                d["played"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert!(!mine.is_empty());
    assert_eq!(decisions, mine, "{review}");
    for d in review["decisions"].as_array().unwrap() {
        let options = d["options"].as_array().unwrap();
        assert_eq!(options.len(), 2, "{d}");
        assert!(
            options.iter().all(|o| o["worlds"].as_u64() >= Some(2)),
            "{d}"
        );
    }
    assert_eq!(server.gauges.reviews_made(), 1);
    // Asked again, by anyone: the stored one, not made again.
    let (code, again) = ask(&server, &id, "seat=0", None);
    assert_eq!((code, &again), (200, &review));
    assert_eq!(server.gauges.reviews_made(), 1);
    // A new server reads it from storage at once.
    let server = server.restart();
    let (code, after) = ask(&server, &id, "seat=0", None);
    assert_eq!((code, &after), (200, &review));
    assert_eq!(server.gauges.reviews_made(), 0);
}

#[test]
fn refusals_name_the_problem() {
    let server = Server::start("review-refusals", limits());
    let ane = server.player("Ane");
    let code_of =
        |(status, body): (u16, Value)| (status, body["code"].as_str().unwrap_or("").to_owned());
    assert_eq!(
        code_of(ask(&server, "nosuchtb", "seat=0", None)),
        (404, "table_not_found".into())
    );
    // A game under way: no seat of it is reviewed.
    let live = server.table(
        &ane,
        json!({"game": "ring", "seats": 2, "start": true, "pace_ms": 0}),
    );
    assert_eq!(
        code_of(ask(&server, &live, "seat=1", Some(&ane))),
        (409, "not_finished".into())
    );
    let id = finished_ring(&server, &ane, json!({"rules": {"hands": 1}}));
    for query in ["", "seat=", "seat=x", "seat=-1", "invite=x"] {
        let (code, e) = ask(&server, &id, query, None);
        assert_eq!(
            (code, &e["code"]),
            (400, &json!("review_needs_seat")),
            "{query}: {e}"
        );
    }
    let (code, e) = ask(&server, &id, "seat=9", None);
    assert_eq!((code, &e["code"]), (400, &json!("no_such_seat")), "{e}");
    assert!(e["error"].as_str().unwrap().contains("0 to 1"), "{e}");
    // A game without a review (while the catalog has one).
    if let Some(kind) = games().into_iter().find(|k| !k.reviews()) {
        let t = server.table(&ane, json!({"game": kind.name()}));
        assert_eq!(
            code_of(ask(&server, &t, "seat=0", Some(&ane))),
            (404, "review_unsupported".into()),
            "{}",
            kind.name()
        );
    }
    // A finished game of a game this server does not offer (any more).
    crate::support::stored::batch(
        &server.db,
        "INSERT INTO tables (id, game, rules, seed, creator, bot, pace_ms, status, created,
                             finished, away_s, hold_s, seats, turn_s, rated)
         VALUES ('gonegame', 'gone', '{}', 1, NULL, 'random', 0, 'finished', 1, 2, 30, 10,
                 2, 0, 0);
         INSERT INTO seats (table_id, seat, player) VALUES ('gonegame', 0, NULL),
                                                           ('gonegame', 1, NULL);",
    );
    let (code, e) = ask(&server, "gonegame", "seat=0", None);
    assert_eq!(
        (code, &e["code"]),
        (404, &json!("review_unsupported")),
        "{e}"
    );
    assert!(
        e["error"].as_str().unwrap().contains("gone has no review"),
        "{e}"
    );
    // None of it queued anything.
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(server.gauges.reviews_made(), 0);
}

#[test]
fn a_private_tables_reviews_are_only_for_the_people_who_sat_there() {
    let server = Server::start("review-private", limits());
    let ane = server.player("Ane");
    let bea = server.player("Bea");
    let (code, t) = server.api(
        "POST",
        "/api/tables",
        Some(&ane),
        Some(
            json!({"game": "ring", "seats": 2, "rules": {"hands": 1}, "private": true,
                    "start": true, "pace_ms": 0, "hold_s": 0}),
        ),
    );
    assert_eq!(code, 200, "{t}");
    let id = t["id"].as_str().unwrap().to_string();
    let invite = format!("invite={}", t["invite"].as_str().unwrap());
    let mut ws = server.ws(&id, Some(&ane));
    play_out(&mut ws);
    let refused = |query: &str, token: Option<&str>| {
        let (code, e) = ask(&server, &id, query, token);
        (code, e["code"].as_str().unwrap_or("").to_owned())
    };
    // Without the link the table does not exist; with it, it is watched, not reviewed.
    for token in [None, Some(bea.as_str())] {
        assert_eq!(refused("seat=0", token), (404, "table_not_found".into()));
        assert_eq!(
            refused(&format!("seat=0&{invite}"), token),
            (403, "review_players_only".into())
        );
    }
    let review = made(&server, &id, 0, Some(&ane));
    assert_eq!(review["seat"], 0);
    // Made, it is still Ane's alone.
    assert_eq!(
        refused(&format!("seat=0&{invite}"), Some(&bea)),
        (403, "review_players_only".into())
    );
    assert_eq!(server.gauges.reviews_made(), 1);
}

/// A rated ring game of three made by `token` at seat 0 (the bot in the other two), played
/// to its end; its id.
fn finished_rated_ring(server: &Server, token: &str) -> String {
    let id = server.table(
        token,
        json!({"game": "ring", "seats": 3, "rated": true, "pace_ms": 0, "hold_s": 0}),
    );
    let mut ws = server.ws(&id, Some(token));
    send(&mut ws, json!({"type": "start"}));
    play_out(&mut ws);
    id
}

#[test]
fn a_rated_games_end_makes_the_reviews_of_its_accounts_seats() {
    let server = Server::start("review-rated", limits());
    let (_, ane) = server.account("Ane");
    let id = finished_rated_ring(&server, &ane);
    // Nobody asks: Ane's seat is reviewed, the bot's seats are not.
    eventually(Duration::from_secs(30), "Ane's review is made", || {
        server.gauges.reviews_made() == 1
    });
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(server.gauges.reviews_made(), 1);
    let (code, review) = ask(&server, &id, "seat=0", Some(&ane));
    assert_eq!((code, &review["seat"]), (200, &json!(0)), "{review}");
    let (code, bot) = ask(&server, &id, "seat=1", Some(&ane));
    assert_eq!(code, 202, "{bot}");
}

#[test]
fn a_rated_games_reviews_a_stopped_server_had_not_made_are_made_when_it_starts_again() {
    let server = Server::start("review-resume", limits());
    let (_, ane) = server.account("Ane");
    let id = finished_rated_ring(&server, &ane);
    eventually(Duration::from_secs(30), "Ane's review is made", || {
        server.gauges.reviews_made() == 1
    });
    // As if the server had stopped before making it: no review stored.
    let db = server.db.clone();
    drop(server);
    let url = db.to_string_lossy().to_string();
    if tapete_server::store::pg::is_url(&url) {
        let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        c.batch_execute("DELETE FROM reviews").unwrap();
    } else {
        let c = rusqlite::Connection::open(&db).unwrap();
        c.execute_batch("DELETE FROM reviews").unwrap();
    }
    // Started again, it makes Ane's review without anyone asking, and no other.
    let server = Server::on(db, limits());
    eventually(
        Duration::from_secs(30),
        "Ane's review is made again",
        || server.gauges.reviews_made() == 1,
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(server.gauges.reviews_made(), 1);
    let (code, review) = ask(&server, &id, "seat=0", Some(&ane));
    assert_eq!((code, &review["seat"]), (200, &json!(0)), "{review}");
}

#[test]
fn review_requests_are_counted_per_address() {
    let server = Server::start(
        "review-reads",
        Limits {
            review_reads_per_minute: 5,
            ..limits()
        },
    );
    for _ in 0..5 {
        let (code, _) = ask(&server, "nosuchtb", "seat=0", None);
        assert_eq!(code, 404);
    }
    let r =
        tapete_loadtest::client::get(&server.url("/api/tables/nosuchtb/review?seat=0")).unwrap();
    let body = r.json().unwrap();
    assert_eq!(
        (r.status, &body["code"]),
        (429, &json!("rate_limited")),
        "{body}"
    );
    let wait: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!(wait >= 1 && body["retry_after"] == wait, "{body}");
}

/// A review answer's status, code, and the wait it names (`Retry-After`, which the body's
/// `retry_after` repeats).
fn asked_from(
    server: &Server,
    ip: &str,
    id: &str,
    seat: usize,
    token: Option<&str>,
) -> (u16, String, Option<u64>) {
    let from = std::net::SocketAddr::new(ip.parse().unwrap(), 40000);
    let auth = token.map(|t| format!("Bearer {t}"));
    let headers: Vec<(&str, &str)> = auth.iter().map(|a| ("Authorization", a.as_str())).collect();
    let r = tapete_loadtest::client::request_from(
        Some(from),
        "GET",
        &server.url(&format!("/api/tables/{id}/review?seat={seat}")),
        &headers,
        None,
    )
    .unwrap();
    let body = r.json().unwrap_or(Value::Null);
    let wait = r.header("retry-after").map(|w| w.parse().unwrap());
    if let Some(w) = wait {
        assert_eq!(body["retry_after"], w, "{body}");
    }
    let code = body["code"]
        .as_str()
        .or(body["status"].as_str())
        .unwrap_or("")
        .to_owned();
    (r.status, code, wait)
}

#[test]
fn a_finished_mus_games_review_values_the_seats_choices() {
    let server = Server::start("review-mus", limits());
    let ane = server.player("Ane");
    let id = server.table(
        &ane,
        json!({"game": "mus", "rules": {"target": 30, "juegos": 1, "vacas": 1},
               "bot": "basico", "start": true, "pace_ms": 0, "hold_s": 0}),
    );
    let mut ws = server.ws(&id, Some(&ane));
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        assert!(Instant::now() < deadline, "the game took too long");
        let s = read_of(&mut ws, "state");
        if !s["outcome"].is_null() {
            break;
        }
        let legal = legal(&s);
        if !legal.is_empty() {
            // Choices of every kind but those that can end the match at once (an órdago,
            // or taking one).
            let n = s["n"].as_u64().unwrap_or(0) as usize;
            let calm: Vec<String> = legal
                .iter()
                .filter(|a| !a.contains("órdago") && *a != "quiero")
                .cloned()
                .collect();
            let action = match calm.len() {
                0 => choose(&legal),
                k => calm[n % k].clone(),
            };
            send(
                &mut ws,
                json!({"type": "act", "action": action, "id": s["n"]}),
            );
        }
    }
    let (code, first) = ask(&server, &id, "seat=0", Some(&ane));
    assert_eq!(code, 202, "{first}");
    let started = Instant::now();
    let review = made(&server, &id, 0, Some(&ane));
    let took = started.elapsed();
    assert_eq!(
        (&review["game"], &review["seat"]),
        (&json!("mus"), &json!(0))
    );
    let decisions = review["decisions"].as_array().unwrap();
    assert!(!decisions.is_empty(), "{review}");
    // Each a choice of seat 0's, among the options weighed; beside them, Mus's leyes.
    let (_, replay) = server.api("GET", &format!("/api/tables/{id}/replay"), None, None);
    let actions = replay["actions"].as_array().unwrap();
    for d in decisions {
        let at = d["at"].as_u64().unwrap() as usize;
        assert_eq!(actions[at]["seat"], 0, "{d}");
        assert_eq!(actions[at]["action"], d["played"], "{d}");
        let options = d["options"].as_array().unwrap();
        assert!(options.len() >= 2, "{d}");
        assert!(options.iter().any(|o| o["action"] == d["played"]), "{d}");
    }
    assert!(decisions.iter().any(|d| d["leyes"].is_object()), "{review}");
    assert!(!review["hands"].as_array().unwrap().is_empty(), "{review}");
    eprintln!(
        "a Mus review of {} decisions ({} actions) made in {took:?}",
        decisions.len(),
        actions.len()
    );
    assert_eq!(server.gauges.reviews_made(), 1);
    // Every seat's view in the first hand, up to its first discard (the discards go back
    // into the deck when it runs out), hides the others' cards.
    let checked = views_hide_the_others_cards(&server, &id, 4, &ane, |full| {
        full["game_number"] == 1 && full["hand_number"] == 1 && full["mus_rounds"] == 0
    });
    assert!(checked >= 8, "{checked} views checked");
}

#[test]
fn a_chinchon_seats_view_at_a_decision_never_holds_another_seats_hidden_card() {
    let server = Server::start("review-view-chinchon", limits());
    let ane = server.player("Ane");
    let id = server.table(
        &ane,
        json!({"game": "chinchon", "seats": 3, "rules": {"target": 20}, "bot": "basico",
               "start": true, "pace_ms": 0, "hold_s": 0}),
    );
    let mut ws = server.ws(&id, Some(&ane));
    play_out(&mut ws);
    // The first hand: the next deals again.
    let checked =
        views_hide_the_others_cards(&server, &id, 3, &ane, |full| full["hand_number"] == 1);
    assert!(checked >= 12, "{checked} views checked");
}

/// Opens the gate of ring's reviews when dropped, so that a failing test does not leave
/// its server waiting for them.
struct Opens;

impl Drop for Opens {
    fn drop(&mut self) {
        ring::open_review_gate();
    }
}

#[test]
fn a_flood_of_new_reviews_is_bounded_per_person_per_address_and_server_wide() {
    const AT_ONCE: usize = 2;
    const QUEUE: usize = 5;
    let server = Server::start_behind_proxy(
        "review-flood",
        Limits {
            reviews_at_once: AT_ONCE,
            review_queue: QUEUE,
            reviews_per_person: 3,
            ..limits()
        },
    );
    // Dropped before the server, which waits for the reviews being made as it stops.
    let _opens = Opens;
    let (_, ane) = server.account_from("10.1.0.1", "Ane");
    // Four finished games of three seats, whose reviews wait at the gate until it opens:
    // twelve reviews to ask for.
    let tables: Vec<String> = (0..4)
        .map(|_| {
            finished_ring(
                &server,
                &ane,
                json!({"seats": 3, "rules": {"hands": 1, "to": ring::GATED_TO}}),
            )
        })
        .collect();
    let keys: Vec<(&str, usize)> = tables
        .iter()
        .flat_map(|t| (0..3).map(move |s| (t.as_str(), s)))
        .collect();
    // Ane, an account, asks for three new reviews: two are made at once, one waits.
    for (t, s) in &keys[..3] {
        let (code, what, _) = asked_from(&server, "10.1.0.1", t, *s, Some(&ane));
        assert_eq!((code, what.as_str()), (202, "queued"));
    }
    eventually(
        Duration::from_secs(10),
        "two reviews are being made",
        || ring::review_gate_reached() == AT_ONCE,
    );
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(ring::review_gate_reached(), AT_ONCE, "no more at once");
    assert_eq!(server.gauges.reviewing(), AT_ONCE);
    let (code, what, _) = asked_from(&server, "10.1.0.1", keys[2].0, keys[2].1, Some(&ane));
    assert_eq!((code, what.as_str()), (202, "queued"));
    // Then she is refused new ones, with the wait.
    for (t, s) in &keys[3..6] {
        let (code, what, wait) = asked_from(&server, "10.1.0.1", t, *s, Some(&ane));
        assert_eq!((code, what.as_str()), (429, "review_rate_limited"));
        assert!(wait.is_some_and(|w| w >= 60), "{wait:?}");
    }
    // One she asked for already costs her nothing: she waits for the same review.
    let (code, what, _) = asked_from(&server, "10.1.0.1", keys[0].0, keys[0].1, Some(&ane));
    assert_eq!((code, what.as_str()), (202, "running"));
    // Guests and visitors are counted by their address, together.
    let (_, cid) = server.api_from(
        "10.3.0.1",
        "POST",
        "/api/players",
        None,
        Some(json!({"nickname": "Cid"})),
    );
    let cid = cid["token"].as_str().unwrap().to_owned();
    for (t, s) in &keys[3..6] {
        let (code, what, _) = asked_from(&server, "10.3.0.1", t, *s, Some(&cid));
        assert_eq!((code, what.as_str()), (202, "queued"));
    }
    let (code, what, _) = asked_from(&server, "10.3.0.1", keys[6].0, keys[6].1, None);
    assert_eq!((code, what.as_str()), (429, "review_rate_limited"));
    // Visitors from many addresses, one new review each: the queue takes one more (five
    // wait), then refuses with the wait.
    for (i, (t, s)) in keys.iter().enumerate().skip(6) {
        let (code, what, wait) = asked_from(&server, &format!("10.2.0.{i}"), t, *s, None);
        if i == 6 {
            assert_eq!((code, what.as_str()), (202, "queued"));
        } else {
            assert_eq!((code, what.as_str()), (503, "review_queue_full"), "{i}");
            assert!(wait.is_some_and(|w| w >= 1));
        }
    }
    assert_eq!(ring::review_gate_reached(), AT_ONCE);
    ring::open_review_gate();
    // Every review queued is made, once, no more than two at once.
    eventually(
        Duration::from_secs(60),
        "the reviews queued are made",
        || server.gauges.reviews_made() == (AT_ONCE + QUEUE) as u64,
    );
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(server.gauges.reviews_made(), (AT_ONCE + QUEUE) as u64);
    assert_eq!(server.gauges.reviewing(), 0);
    assert_eq!(server.gauges.most_reviewing(), AT_ONCE);
}

/// Two servers on one PostgreSQL database: a review of a table one of them ran is made
/// and answered by the other, from the database.
#[test]
#[ignore = "needs PostgreSQL: deploy/test-postgres.sh runs it"]
fn any_server_of_a_cluster_makes_and_answers_any_tables_review() {
    let base =
        std::env::var("TAPETE_TEST_PG").expect("needs PostgreSQL: deploy/test-postgres.sh runs it");
    let db = crate::support::fresh_postgres(&base, "review-nodes");
    let a = Server::on_node(db.clone(), limits(), Some("a"));
    let b = Server::on_node(db, limits(), Some("b"));
    let ane = a.player("Ane");
    let id = finished_ring(&a, &ane, json!({"rules": {"hands": 2}}));
    let review = made(&b, &id, 1, Some(&ane));
    assert_eq!(review["seat"], 1);
    assert_eq!((a.gauges.reviews_made(), b.gauges.reviews_made()), (0, 1));
    let (code, same) = ask(&a, &id, "seat=1", None);
    assert_eq!((code, &same), (200, &review));
}

/// Every card code in a JSON answer: its strings, and each word of a text ("lay 3D 6D").
/// French cards (tikki: `10H`, `KS` as `13S`) and Spanish ones (Mus, Chinchón: `12o`,
/// `1b`).
fn card_codes(v: &Value, out: &mut std::collections::BTreeSet<String>) {
    match v {
        Value::String(s) => {
            for w in s.split(|c: char| c.is_whitespace() || c == ',') {
                let Some((last, _)) = w.char_indices().last() else {
                    continue;
                };
                let (rank, suit) = w.split_at(last);
                let rank_ok = rank.parse::<u8>().is_ok_and(|r| (1..=13).contains(&r));
                if rank_ok && matches!(suit, "S" | "H" | "D" | "C" | "o" | "c" | "e" | "b") {
                    out.insert(w.to_owned());
                }
            }
        }
        Value::Array(xs) => xs.iter().for_each(|x| card_codes(x, out)),
        Value::Object(m) => m.values().for_each(|x| card_codes(x, out)),
        _ => {}
    }
}

fn cards_in(v: &Value) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    card_codes(v, &mut out);
    out
}

/// The name of a view's phase, written as a word or as `{"phase": word, …}`.
fn phase_of(view: &Value) -> &str {
    view["phase"]
        .as_str()
        .or(view["phase"]["phase"].as_str())
        .unwrap_or("")
}

/// Checks every seat's view (`/view?seat&at`) of the finished table `id` at every step the
/// replay's full view passes `keep` at: the seat sees its own hand and none of the cards
/// hidden from it then — the others' hands and the stock, less what the table shows
/// everybody (a card taken from the pile, a close laid down). Answers the views checked.
fn views_hide_the_others_cards(
    server: &Server,
    id: &str,
    seats: usize,
    token: &str,
    keep: impl Fn(&Value) -> bool,
) -> usize {
    let (_, replay) = server.api("GET", &format!("/api/tables/{id}/replay"), None, None);
    let actions = replay["actions"].as_array().unwrap().len();
    let mut checked = 0;
    for at in 0..=actions {
        let (code, step) = server.api("GET", &format!("/api/tables/{id}/replay/{at}"), None, None);
        assert_eq!(code, 200, "{step}");
        let full = &step["view"];
        if phase_of(full) == "over" || !keep(full) {
            continue;
        }
        let mut public = full.clone();
        if let Some(m) = public.as_object_mut() {
            m.remove("hands");
            m.remove("stock_cards");
        }
        let public = cards_in(&public);
        for seat in 0..seats {
            let (code, seen) = server.api(
                "GET",
                &format!("/api/tables/{id}/view?seat={seat}&at={at}"),
                Some(token),
                None,
            );
            assert_eq!(code, 200, "{seen}");
            assert_eq!((&seen["seat"], &seen["at"]), (&json!(seat), &json!(at)));
            let shown = cards_in(&seen);
            let own = cards_in(&full["hands"][seat]);
            let mut hidden: std::collections::BTreeSet<String> = (0..seats)
                .filter(|&o| o != seat)
                .flat_map(|o| cards_in(&full["hands"][o]))
                .collect();
            hidden.extend(cards_in(&full["stock_cards"]));
            hidden.retain(|c| !public.contains(c));
            if hidden.is_empty() || own.is_empty() {
                // Nothing to tell: a hand played out or put down to discard.
                continue;
            }
            // The check can fail: the replay's full view holds every hidden card.
            assert!(hidden.is_subset(&cards_in(full)));
            assert!(
                own.is_subset(&shown),
                "seat {seat} sees its hand at {at}: {seen}"
            );
            let leaked: Vec<_> = shown.intersection(&hidden).collect();
            assert!(
                leaked.is_empty(),
                "seat {seat} at {at} sees {leaked:?}: {seen}"
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn a_seats_view_at_a_decision_never_holds_another_seats_hidden_card() {
    let server = Server::start("review-view", limits());
    let ane = server.player("Ane");
    let id = server.table(
        &ane,
        json!({"game": "tikki", "seats": 2, "start": true, "pace_ms": 0, "hold_s": 0}),
    );
    let mut ws = server.ws(&id, Some(&ane));
    play_out(&mut ws);
    // The first round only: the next one deals the cards again, and a card shown in the
    // last round may be in another hand then.
    let checked = views_hide_the_others_cards(&server, &id, 2, &ane, |full| full["round"] == 1);
    assert!(checked >= 8, "{checked} views checked");
}

#[test]
fn a_seats_view_is_for_finished_games_under_the_reviews_rules() {
    let server = Server::start("review-view-rules", limits());
    let ane = server.player("Ane");
    let bea = server.player("Bea");
    let code_of =
        |(status, body): (u16, Value)| (status, body["code"].as_str().unwrap_or("").to_owned());
    let view = |id: &str, query: &str, token: Option<&str>| {
        code_of(server.api(
            "GET",
            &format!("/api/tables/{id}/view?{query}"),
            token,
            None,
        ))
    };
    assert_eq!(
        view("nosuchtb", "seat=0&at=0", None),
        (404, "table_not_found".into())
    );
    let live = server.table(
        &ane,
        json!({"game": "ring", "seats": 2, "start": true, "pace_ms": 0}),
    );
    assert_eq!(
        view(&live, "seat=0&at=0", Some(&ane)),
        (409, "not_finished".into())
    );
    // A private game: its views are for the people who sat there, as its reviews.
    let (code, t) = server.api(
        "POST",
        "/api/tables",
        Some(&ane),
        Some(
            json!({"game": "ring", "seats": 2, "rules": {"hands": 1}, "private": true,
                    "start": true, "pace_ms": 0, "hold_s": 0}),
        ),
    );
    assert_eq!(code, 200, "{t}");
    let id = t["id"].as_str().unwrap().to_string();
    let invite = format!("invite={}", t["invite"].as_str().unwrap());
    let mut ws = server.ws(&id, Some(&ane));
    play_out(&mut ws);
    for token in [None, Some(bea.as_str())] {
        assert_eq!(
            view(&id, "seat=0&at=1", token),
            (404, "table_not_found".into())
        );
        assert_eq!(
            view(&id, &format!("seat=0&at=1&{invite}"), token),
            (403, "review_players_only".into())
        );
    }
    assert_eq!(view(&id, "seat=1&at=1", Some(&ane)), (200, String::new()));
    for query in ["at=1", "seat=x&at=1"] {
        assert_eq!(
            view(&id, query, Some(&ane)),
            (400, "review_needs_seat".into()),
            "{query}"
        );
    }
    for query in ["seat=0", "seat=0&at=-1", "seat=0&at=x"] {
        assert_eq!(
            view(&id, query, Some(&ane)),
            (400, "bad_request".into()),
            "{query}"
        );
    }
    assert_eq!(
        view(&id, "seat=2&at=1", Some(&ane)),
        (400, "no_such_seat".into())
    );
    let (_, replay) = server.api(
        "GET",
        &format!("/api/tables/{id}/replay?{invite}"),
        None,
        None,
    );
    let n = replay["actions"].as_array().unwrap().len();
    assert_eq!(
        view(&id, &format!("seat=0&at={n}"), Some(&ane)),
        (200, String::new())
    );
    assert_eq!(
        view(&id, &format!("seat=0&at={}", n + 1), Some(&ane)),
        (404, "no_such_step".into())
    );
}
