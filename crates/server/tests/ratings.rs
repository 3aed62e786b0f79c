//! Ratings: rated tables (accounts only, standard rules), every seat's player rated once
//! when the game ends (an account or the bot level), leaving still rated and counted,
//! profiles, leaderboards and their 404s, and a schema-5 database upgraded in place.

use crate::support::{error_of, legal, read_of, roomy, send, state_until, Server, Ws};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use tapete_server::rating::{update, Rated, SeatResult, SCALE};
use tapete_server::store::Db;

/// A rated ring table of `seats` seats made by `token` at seat 0 (not started).
fn rated_table(server: &Server, token: &str, seats: usize) -> String {
    server.table(
        token,
        json!({"game": "ring", "seats": seats, "rated": true, "pace_ms": 0, "hold_s": 0}),
    )
}

/// Plays every turn offered on `ws` until the game is over; returns the last state.
fn play_to_the_end(ws: &mut Ws) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        assert!(Instant::now() < deadline, "the game took too long");
        let s = read_of(ws, "state");
        if !s["outcome"].is_null() {
            return s;
        }
        if let Some(a) = legal(&s).first() {
            send(ws, json!({"type": "act", "action": a, "id": s["n"]}));
        }
    }
}

/// Bea sits at seat 1 of table `id`, then its creator (`ane`, at seat 0) starts it:
/// their connections (Ane's, Bea's) once it is under way.
fn start_with_bea(server: &Server, id: &str, ane: &str, bea: (i64, &str)) -> (Ws, Ws) {
    let mut bws = server.ws(id, Some(bea.1));
    send(&mut bws, json!({"type": "sit", "seat": 1}));
    state_until(&mut bws, |s| {
        s["table"]["seats"][1]["player"]["id"] == bea.0
    });
    let mut ws = server.ws(id, Some(ane));
    send(&mut ws, json!({"type": "start"}));
    state_until(&mut bws, |s| s["table"]["status"] == "playing");
    (ws, bws)
}

/// Makes a rated table of three seats, sits its creator, starts it and plays it out.
fn rated_game(server: &Server, token: &str) -> (String, Value) {
    let id = rated_table(server, token, 3);
    let mut ws = server.ws(&id, Some(token));
    send(&mut ws, json!({"type": "start"}));
    let end = play_to_the_end(&mut ws);
    (id, end)
}

fn profile(server: &Server, id: i64) -> Value {
    let (code, p) = server.api("GET", &format!("/api/players/{id}"), None, None);
    assert_eq!(code, 200, "{p}");
    p
}

fn ring_rating(p: &Value) -> &Value {
    p["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game"] == "ring")
        .unwrap_or_else(|| panic!("a ring rating: {p}"))
}

#[test]
fn guests_are_refused_a_rated_table_and_its_seats() {
    let server = Server::start("rated-guests", roomy());
    let (_, guest) = server.player_with_id("Gus");
    let (code, e) = server.api(
        "POST",
        "/api/tables",
        Some(&guest),
        Some(json!({"game": "ring", "rated": true})),
    );
    assert_eq!(
        (code, e["code"].as_str()),
        (403, Some("rated_needs_account"))
    );
    assert!(error_of(&e).contains("account"), "{e}");

    let (_, ane) = server.account("Ane");
    let id = rated_table(&server, &ane, 3);
    let (_, t) = server.api("GET", &format!("/api/tables/{id}"), None, None);
    assert_eq!(t["rated"], true);
    let mut ws = server.ws(&id, Some(&guest));
    send(&mut ws, json!({"type": "sit", "seat": 1}));
    let e = read_of(&mut ws, "error");
    assert_eq!(e["code"], "rated_needs_account", "{e}");

    // A rated table plays the standard rules; other options are named.
    let (code, e) = server.api(
        "POST",
        "/api/tables",
        Some(&ane),
        Some(json!({"game": "ring", "rated": true, "rules": {"hands": 1}})),
    );
    assert_eq!((code, e["code"].as_str()), (400, Some("rated_rules")));
    assert!(error_of(&e).contains("`hands`"), "{e}");
    // An unrated table is not rated.
    let (_, t) = server.api(
        "POST",
        "/api/tables",
        Some(&guest),
        Some(json!({"game": "ring"})),
    );
    assert_eq!(t["rated"], false);
}

#[test]
fn a_rated_game_rates_every_seat_by_place_once_even_across_a_restart() {
    let server = Server::start_file("rated-places", roomy());
    let (ane_id, ane) = server.account("Ane");
    let (id, end) = rated_game(&server, &ane);
    // What the crate says for these places (ties share one), from the defaults.
    let places: Vec<u32> = serde_json::from_value(end["outcome"]["places"].clone()).unwrap();
    let bot = Rated::Bot("random".into());
    let seats: Vec<SeatResult> = places
        .iter()
        .enumerate()
        .map(|(s, &place)| SeatResult {
            who: if s == 0 {
                Rated::Player(ane_id)
            } else {
                bot.clone()
            },
            team: s,
            place,
        })
        .collect();
    let want = update(&seats, &BTreeMap::new());
    let check = |server: &Server| {
        let p = profile(server, ane_id);
        assert_eq!(p["account"], true);
        let r = ring_rating(&p);
        let mine = &want[&Rated::Player(ane_id)];
        assert_eq!(r["rating"], (mine.rating * SCALE).round() as i64, "{r}");
        assert_eq!(r["deviation"], (mine.uncertainty * SCALE).round() as i64);
        assert_eq!(r["played"], 1);
        assert_eq!(r["won"], (places[0] == 1) as i64);
        assert_eq!(r["abandoned"], 0);
        assert_eq!(r["provisional"], true);
        assert_eq!(r["history"].as_array().unwrap().len(), 1);
        assert_eq!(r["history"][0]["table"], id);
        assert_eq!(p["recent"][0]["table"], id);
        assert_eq!(p["recent"][0]["replay"], format!("/replay/{id}"));
        let (code, b) = server.api("GET", "/api/bots/random", None, None);
        assert_eq!(code, 200, "{b}");
        let r = ring_rating(&b);
        assert_eq!(r["played"], 1, "one game for the level, whatever its seats");
        assert_eq!(
            r["rating"],
            (want[&bot].rating * SCALE).round() as i64,
            "{r}"
        );
    };
    check(&server);
    // Started again on the same database: nothing is rated twice.
    let server = server.restart();
    check(&server);
    // Rating the finished table again, as a crash and a second finish would, changes
    // nothing.
    let db_path = server.db.clone();
    drop(server);
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let db = Db::open(&db_path).unwrap();
        let t = id.clone();
        db.call(move |c| tapete_server::rating::rate_table(c, &t))
            .await
            .unwrap();
        db.close().await;
    });
    let server = Server::on(db_path, roomy());
    check(&server);
}

#[test]
fn a_player_who_leaves_a_rated_game_gets_its_result_and_an_abandonment() {
    let server = Server::start("rated-leave", roomy());
    let (ane_id, ane) = server.account("Ane");
    let (bea_id, bea) = server.account("Bea");
    let id = rated_table(&server, &ane, 3);
    let (mut ws, mut bws) = start_with_bea(&server, &id, &ane, (bea_id, &bea));
    // Bea leaves at once: the bot plays her seat.
    send(&mut bws, json!({"type": "stand"}));
    // Nobody else takes a seat of the game under way, not even Bea another one.
    std::thread::sleep(Duration::from_millis(100));
    send(&mut bws, json!({"type": "sit", "seat": 2}));
    let e = read_of(&mut bws, "error");
    assert_eq!(e["code"], "rated_in_play", "{e}");
    let end = play_to_the_end(&mut ws);
    let p = profile(&server, bea_id);
    let r = ring_rating(&p);
    assert_eq!(r["played"], 1, "{p}");
    assert_eq!(r["abandoned"], 1);
    assert_eq!(p["recent"][0]["abandoned"], true);
    let bea_place = end["outcome"]["places"][1].as_i64().unwrap();
    assert_eq!(p["recent"][0]["place"], bea_place);
    assert_eq!(ring_rating(&profile(&server, ane_id))["abandoned"], 0);
}

#[test]
fn a_rated_game_everybody_left_is_played_out_by_the_bots_and_rated() {
    let server = Server::start("rated-all-left", roomy());
    let (ane_id, ane) = server.account("Ane");
    let (bea_id, bea) = server.account("Bea");
    let id = server.table(
        &ane,
        json!({"game": "ring", "seats": 3, "rated": true, "pace_ms": 0, "hold_s": 0,
               "away_s": 0}),
    );
    let (ws, bws) = start_with_bea(&server, &id, &ane, (bea_id, &bea));
    // Both close the page: nobody is connected, and the game still ends, rated.
    drop((ws, bws));
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let p = profile(&server, ane_id);
        let played = p["ratings"]
            .as_array()
            .and_then(|r| r.iter().find(|g| g["game"] == "ring"))
            .map(|g| g["played"].clone());
        if played == Some(json!(1)) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the game was not played out: {p}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(ring_rating(&profile(&server, bea_id))["played"], 1);
    let (_, t) = server.api("GET", &format!("/api/tables/{id}"), None, None);
    assert_eq!(t["status"], "finished", "{t}");
}

#[test]
fn the_leaderboard_lists_accounts_from_ten_rated_games_with_the_bots_beside() {
    let server = Server::start("rated-board", roomy());
    let (ane_id, ane) = server.account("Ane");
    for _ in 0..9 {
        rated_game(&server, &ane);
    }
    let board = |server: &Server| {
        let (code, b) = server.api("GET", "/api/leaderboard/ring", None, None);
        assert_eq!(code, 200, "{b}");
        b
    };
    let b = board(&server);
    assert_eq!(b["players"], json!([]), "nine games are not enough: {b}");
    assert_eq!(b["min_games"], 10);
    assert_eq!(b["bots"][0]["nickname"], "random");
    rated_game(&server, &ane);
    let b = board(&server);
    let p = profile(&server, ane_id);
    let r = ring_rating(&p);
    assert_eq!(r["played"], 10);
    assert_eq!(r["provisional"], false);
    assert_eq!(r["history"].as_array().unwrap().len(), 10);
    assert_eq!(
        b["players"],
        json!([{"rank": 1, "id": ane_id, "nickname": "Ane", "rating": r["rating"],
                "deviation": r["deviation"], "provisional": false, "played": 10,
                "won": r["won"]}])
    );
    assert_eq!(b["bots"][0]["played"], 10);
    let (code, e) = server.api("GET", "/api/leaderboard/ring?page=3", None, None);
    assert_eq!(code, 400, "{e}");
    // Her profile is at /@/Ane, by the API too.
    let (code, q) = server.api("GET", "/api/profiles/ane", None, None);
    assert_eq!((code, &q["id"]), (200, &json!(ane_id)));
}

/// Status and body text of a page.
fn page(server: &Server, path: &str) -> (u16, String) {
    let r = tapete_server::client::request("GET", &server.url(path), &[], None).unwrap();
    (r.status, String::from_utf8_lossy(&r.body).into_owned())
}

#[test]
fn unknown_players_games_and_bot_levels_are_404s() {
    let server = Server::start("rated-404", roomy());
    let (_, _ane) = server.account("Ane");
    let (_, _guest) = server.player_with_id("Gus");
    for (path, code) in [
        ("/api/players/999999", "player_not_found"),
        ("/api/profiles/Nadie", "player_not_found"),
        ("/api/profiles/Gus", "player_not_found"),
        ("/api/bots/nobody", "bot_not_found"),
        ("/api/leaderboard/nogame", "unknown_game"),
    ] {
        let (status, e) = server.api("GET", path, None, None);
        assert_eq!(
            (status, e["code"].as_str()),
            (404, Some(code)),
            "{path}: {e}"
        );
    }
    for path in [
        "/@/Nadie",
        "/@/Gus",
        "/bot/nobody",
        "/leaderboard/nogame",
        "/p/999999",
        "/p/x",
    ] {
        let (status, body) = page(&server, path);
        assert_eq!(status, 404, "{path}");
        assert!(body.contains("no-such-page"), "{path}: the site's page");
    }
    for path in [
        "/@/Ane",
        "/@/ane",
        "/bot/random",
        "/leaderboard/ring",
        "/p/1",
    ] {
        let (status, body) = page(&server, path);
        assert_eq!(status, 200, "{path}");
        assert!(body.contains("<!doctype html>"), "{path}");
    }
    let (status, e) = server.api("GET", "/api/players/x", None, None);
    assert_eq!(status, 400, "{e}");
}

#[test]
fn a_schema_5_database_upgrades_in_place_and_keeps_its_tables_and_accounts() {
    let server = Server::start_file("rated-upgrade", roomy());
    let (ane_id, ane) = server.account("Ane");
    let table = server.table(&ane, json!({"game": "ring"}));
    let db_path = server.db.clone();
    drop(server);
    // Today's database as schema 5 wrote it: no rating tables, no `rated` column.
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let db = Db::open(&db_path).unwrap();
        db.call(|c| {
            c.execute_batch(
                "DROP TABLE rated_seats; DROP TABLE rating_history; DROP TABLE ratings;
                 ALTER TABLE tables DROP COLUMN rated; PRAGMA user_version = 5;",
            )?;
            Ok(())
        })
        .await
        .unwrap();
        db.close().await;
    });
    let server = Server::on(db_path.clone(), roomy());
    let (code, me) = server.api("GET", "/api/me", Some(&ane), None);
    assert_eq!((code, &me["account"]), (200, &json!(true)), "{me}");
    let (code, t) = server.api("GET", &format!("/api/tables/{table}"), None, None);
    assert_eq!((code, &t["rated"]), (200, &json!(false)), "{t}");
    let (code, _) = server.api(
        "POST",
        "/api/sessions",
        None,
        Some(json!({"nickname": "Ane", "password": "sota de copas"})),
    );
    assert_eq!(code, 200);
    // And it rates from now on.
    rated_game(&server, &ane);
    assert_eq!(ring_rating(&profile(&server, ane_id))["played"], 1);
    drop(server);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let version = rt.block_on(async {
        let db = Db::open(&db_path).unwrap();
        let v = db
            .call(|c| Ok(c.query_row("PRAGMA user_version", (), |r| r.get::<_, i64>(0))?))
            .await
            .unwrap();
        db.close().await;
        v
    });
    assert_eq!(version, tapete_server::store::SCHEMA_VERSION);
}

#[test]
fn a_schema_6_database_numbers_its_rating_history_in_its_old_order() {
    let server = Server::start_file("rated-v6", roomy());
    let (ane_id, ane) = server.account("Ane");
    rated_game(&server, &ane);
    rated_game(&server, &ane);
    let before = profile(&server, ane_id);
    let db_path = server.db.clone();
    drop(server);
    // Schema 6 ordered a player's history by SQLite's row order: no `seq`.
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let db = Db::open(&db_path).unwrap();
        db.call(|c| {
            c.execute_batch(
                "DROP INDEX rating_history_seq; ALTER TABLE rating_history DROP COLUMN seq;
                 PRAGMA user_version = 6;",
            )?;
            Ok(())
        })
        .await
        .unwrap();
        db.close().await;
    });
    let server = Server::on(db_path.clone(), roomy());
    assert_eq!(profile(&server, ane_id), before);
    rated_game(&server, &ane);
    let after = profile(&server, ane_id);
    assert_eq!(ring_rating(&after)["played"], 3);
    drop(server);
    let c = rusqlite::Connection::open(&db_path).unwrap();
    let (ane_rows, out_of_order): (i64, i64) = c
        .query_row(
            "SELECT (SELECT count(*) FROM rating_history WHERE who = ?1),
                    (SELECT count(*) FROM rating_history a JOIN rating_history b
                     ON a.who = b.who AND a.rowid < b.rowid AND a.seq >= b.seq)",
            [format!("p{ane_id}")],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(ane_rows, 3);
    assert_eq!(
        out_of_order, 0,
        "every player's rows numbered in the order they came"
    );
}

#[test]
fn a_rated_mus_game_rates_its_partnerships_as_teams() {
    let server = Server::start_file("rated-mus", roomy());
    let (ane_id, ane) = server.account("Ane");
    let table = server.table(
        &ane,
        json!({"game": "mus", "rated": true, "start": true, "bot": "random"}),
    );
    let db_path = server.db.clone();
    drop(server);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let roster = rt.block_on(async {
        let db = Db::open(&db_path).unwrap();
        let roster = db
            .call(move |c| {
                let mut st = c.prepare(
                    "SELECT seat, team, player FROM rated_seats WHERE table_id = ?1 ORDER BY seat",
                )?;
                let rows = st
                    .query_map([&table], |r| {
                        Ok((
                            r.get::<_, i64>(0)?,
                            r.get::<_, i64>(1)?,
                            r.get::<_, Option<i64>>(2)?,
                        ))
                    })?
                    .collect::<Result<Vec<_>, _>>()?;
                // The pair of seats 0 and 2 wins: rated as the storage does at the end.
                c.execute(
                    "UPDATE tables SET status = 'finished', finished = 1, outcome = ?2
                     WHERE id = ?1",
                    [
                        table.as_str(),
                        r#"{"winners":[0,2],"places":[1,2,1,2],"summary":"pair 0-2 wins"}"#,
                    ],
                )?;
                tapete_server::rating::rate_table(c, &table)?;
                let mine: (f64, f64) = c.query_row(
                    "SELECT mu, sigma FROM ratings WHERE who = ?1",
                    [format!("p{ane_id}")],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )?;
                let bot: (f64, f64) = c.query_row(
                    "SELECT mu, sigma FROM ratings WHERE who = 'b:random' AND game = 'mus'",
                    (),
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )?;
                Ok((rows, mine, bot))
            })
            .await
            .unwrap();
        db.close().await;
        roster
    });
    let (roster, mine, bot) = roster;
    // Seats 0 and 2 against 1 and 3: Ane and her partner bot are one team.
    assert_eq!(
        roster,
        vec![
            (0, 0, Some(ane_id)),
            (1, 1, None),
            (2, 0, None),
            (3, 1, None)
        ]
    );
    // A team update: Ane and the bot's seat beside her against two of the bot's seats.
    let (a, b) = (Rated::Player(ane_id), Rated::Bot("random".into()));
    let seat = |who: &Rated, team, place| SeatResult {
        who: who.clone(),
        team,
        place,
    };
    let want = update(
        &[
            seat(&a, 0, 1),
            seat(&b, 1, 2),
            seat(&b, 0, 1),
            seat(&b, 1, 2),
        ],
        &BTreeMap::new(),
    );
    assert!(
        (mine.0 - want[&a].rating).abs() < 1e-9 && mine.0 > 25.0,
        "{mine:?}"
    );
    assert!((mine.1 - want[&a].uncertainty).abs() < 1e-9);
    assert!((bot.0 - want[&b].rating).abs() < 1e-9, "{bot:?}");
}

#[test]
fn a_private_rated_game_is_on_no_profile_and_profiles_are_read_at_a_bounded_rate() {
    let server = Server::start(
        "rated-private",
        tapete_server::Limits {
            profile_reads_per_minute: 5,
            ..roomy()
        },
    );
    let (ane_id, ane) = server.account("Ane");
    let (public, _) = rated_game(&server, &ane);
    let hidden = server.table(
        &ane,
        json!({"game": "ring", "seats": 3, "rated": true, "private": true, "pace_ms": 0,
               "hold_s": 0}),
    );
    let mut ws = server.ws(&hidden, Some(&ane));
    send(&mut ws, json!({"type": "start"}));
    play_to_the_end(&mut ws);

    // Rated, and counted, but to a stranger the private table does not exist: its game is
    // not among the recent ones, and its point of the history names no table.
    let p = profile(&server, ane_id);
    assert!(!p.to_string().contains(&hidden), "{p}");
    let recent: Vec<&Value> = p["recent"].as_array().unwrap().iter().collect();
    assert_eq!(recent.len(), 1, "{p}");
    assert_eq!(recent[0]["table"], public.as_str());
    let r = ring_rating(&p);
    assert_eq!(r["played"], 2, "{r}");
    let tables: Vec<&Value> = r["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| &h["table"])
        .collect();
    assert_eq!(tables, [&json!(public), &Value::Null], "{r}");
    // Nor on the bot level's profile, nor by nickname.
    let (_, bot) = server.api("GET", "/api/bots/random", None, None);
    assert!(!bot.to_string().contains(&hidden), "{bot}");
    let (_, by_name) = server.api("GET", "/api/profiles/ane", None, None);
    assert_eq!(by_name["recent"], p["recent"]);

    // Profiles are public, but read at a bounded rate: five a minute here (three read).
    let read =
        || tapete_server::client::get(&server.url(&format!("/api/players/{ane_id}"))).unwrap();
    assert_eq!(read().status, 200);
    let (code, _) = server.api("GET", "/api/leaderboard/ring", None, None);
    assert_eq!(code, 200);
    let r = read();
    assert_eq!(r.status, 429, "{}", r.text());
    assert_eq!(r.json().unwrap()["code"], "rate_limited");
    let wait: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
}
