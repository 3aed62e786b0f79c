//! Ratings: rated tables (accounts only, standard rules, always a turn clock), every seat's
//! player rated once when the game ends (an account or the bot level), leaving still rated
//! and counted, what keeps ratings from being farmed (accounts sharing an address, seats the
//! bot played, provisional opponents, bot levels), profiles, leaderboards and their 404s,
//! and older databases upgraded in place.

use crate::support::{error_of, legal, read_of, roomy, send, state_until, Server, Ws};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use tapete_server::ratings::{update, Prior, Rated, SeatResult, BOT_STEP, SCALE};
use tapete_server::store::Db;
use tapete_server::Limits;

/// A rated ring table of `seats` seats made by `token` at seat 0 (not started).
fn rated_table(server: &Server, token: &str, seats: usize) -> String {
    server.table(
        token,
        json!({"game": "ring", "seats": seats, "rated": true, "pace_ms": 0, "hold_s": 0}),
    )
}

/// Plays every turn offered on `ws` until the game is over; returns the last state.
fn play_to_the_end(ws: &mut Ws) -> Value {
    let s = read_of(ws, "state");
    play_on(ws, s)
}

/// [`play_to_the_end`] from the state `s` already read.
fn play_on(ws: &mut Ws, mut s: Value) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        assert!(Instant::now() < deadline, "the game took too long");
        if !s["outcome"].is_null() {
            return s;
        }
        if let Some(a) = legal(&s).first() {
            send(ws, json!({"type": "act", "action": a, "id": s["n"]}));
        }
        s = read_of(ws, "state");
    }
}

/// Bea (from 10.0.0.2) sits at seat 1 of table `id`, then its creator (`ane`, from
/// 10.0.0.1, at seat 0) starts it: their connections (Ane's, Bea's) once it is under way.
fn start_with_bea(server: &Server, id: &str, ane: &str, bea: (i64, &str)) -> (Ws, Ws) {
    let mut bws = server.ws_from(BEA_AT, id, Some(bea.1));
    send(&mut bws, json!({"type": "sit", "seat": 1}));
    state_until(&mut bws, |s| {
        s["table"]["seats"][1]["player"]["id"] == bea.0
    });
    let mut ws = server.ws_from(ANE_AT, id, Some(ane));
    send(&mut ws, json!({"type": "start"}));
    state_until(&mut bws, |s| s["table"]["status"] == "playing");
    (ws, bws)
}

/// Where Ane and Bea play from when they play each other: two homes.
const ANE_AT: &str = "10.0.0.1";
const BEA_AT: &str = "10.0.0.2";

/// Ane and Bea, accounts made from their homes, on a server behind a balancer.
fn ane_and_bea(name: &str) -> (Server, (i64, String), (i64, String)) {
    let server = Server::start_behind_proxy(name, roomy());
    let ane = server.account_from(ANE_AT, "Ane");
    let bea = server.account_from(BEA_AT, "Bea");
    (server, ane, bea)
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
            assisted: false,
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
        db.call(move |c| tapete_server::ratings::rate_table(c, &t))
            .await
            .unwrap();
        db.close().await;
    });
    let server = Server::on(db_path, roomy());
    check(&server);
}

#[test]
fn a_player_who_leaves_a_rated_game_gets_its_result_and_an_abandonment() {
    let (server, (ane_id, ane), (bea_id, bea)) = ane_and_bea("rated-leave");
    let id = Addr(Some(ANE_AT)).table(
        &server,
        &ane,
        json!({"game": "ring", "seats": 3, "rated": true, "pace_ms": 0, "hold_s": 0}),
    );
    let (mut ws, mut bws) = start_with_bea(&server, &id, &ane, (bea_id, &bea));
    // Bea leaves at once: the bot plays her seat.
    send(&mut bws, json!({"type": "stand"}));
    // Nobody else takes a seat of the game under way, not even Bea another one.
    crate::support::state_until(&mut bws, |s| s["you"]["seat"].is_null());
    send(&mut bws, json!({"type": "sit", "seat": 2}));
    let e = read_of(&mut bws, "error");
    assert_eq!(e["code"], "rated_in_play", "{e}");
    let end = play_to_the_end(&mut ws);
    let p = profile(&server, bea_id);
    let r = ring_rating(&p);
    assert_eq!(r["played"], 1, "{p}");
    assert_eq!(r["abandoned"], 1);
    assert_eq!(p["recent"][0]["abandoned"], true);
    // The bot played her seat: her result may cost her, never earn her.
    assert_eq!(p["recent"][0]["assisted"], true);
    assert_eq!(p["recent"][0]["unrated"], Value::Null);
    assert!(r["rating"].as_i64().unwrap() <= 1500, "{p}");
    let bea_place = end["outcome"]["places"][1].as_i64().unwrap();
    assert_eq!(p["recent"][0]["place"], bea_place);
    let a = profile(&server, ane_id);
    assert_eq!(ring_rating(&a)["abandoned"], 0);
    assert_eq!(a["recent"][0]["assisted"], false, "{a}");
}

#[test]
fn a_rated_game_everybody_left_is_played_out_by_the_bots_and_rated() {
    let (server, (ane_id, ane), (bea_id, bea)) = ane_and_bea("rated-all-left");
    let id = Addr(Some(ANE_AT)).table(
        &server,
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
    // Gone, the bot played for both: neither gained.
    for who in [ane_id, bea_id] {
        let p = profile(&server, who);
        assert!(ring_rating(&p)["rating"].as_i64().unwrap() <= 1500, "{p}");
        assert_eq!(p["recent"][0]["assisted"], true, "{p}");
    }
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
    let r = tapete_loadtest::client::request("GET", &server.url(path), &[], None).unwrap();
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
                 DROP TABLE signup_addresses; DROP TABLE table_addresses;
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
                tapete_server::ratings::rate_table(c, &table)?;
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
        assisted: false,
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
        || tapete_loadtest::client::get(&server.url(&format!("/api/players/{ane_id}"))).unwrap();
    assert_eq!(read().status, 200);
    let (code, _) = server.api("GET", "/api/leaderboard/ring", None, None);
    assert_eq!(code, 200);
    let r = read();
    assert_eq!(r.status, 429, "{}", r.text());
    assert_eq!(r.json().unwrap()["code"], "rate_limited");
    let wait: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
}

/// A person's shown rating in `game` (1500 before any rated game).
fn rating_in(server: &Server, id: i64, game: &str) -> i64 {
    profile(server, id)["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game"] == game)
        .map_or(1500, |g| g["rating"].as_i64().unwrap())
}

/// Plays every turn offered on `ws` at random, from its state `s`, until the game is over;
/// the last state.
fn play_at_random(ws: &mut Ws, mut s: Value, rng: &mut impl rand::Rng) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        assert!(Instant::now() < deadline, "the game took too long");
        if !s["outcome"].is_null() {
            return s;
        }
        let l = legal(&s);
        if !l.is_empty() {
            let a = &l[rng.gen_range(0..l.len())];
            send(ws, json!({"type": "act", "action": a, "id": s["n"]}));
        }
        s = read_of(ws, "state");
    }
}

/// Where each of the farm's people connects from: `None` is this host, `Some(ip)` an
/// address the server is told by a PROXY line.
#[derive(Clone, Copy)]
struct Addr<'a>(Option<&'a str>);

impl Addr<'_> {
    fn ws(self, server: &Server, table: &str, token: &str) -> Ws {
        match self.0 {
            Some(ip) => server.ws_from(ip, table, Some(token)),
            None => server.ws(table, Some(token)),
        }
    }

    fn account(self, server: &Server, nickname: &str) -> (i64, String) {
        match self.0 {
            Some(ip) => server.account_from(ip, nickname),
            None => server.account(nickname),
        }
    }

    fn table(self, server: &Server, token: &str, body: Value) -> String {
        let (code, t) = match self.0 {
            Some(ip) => server.api_from(ip, "POST", "/api/tables", Some(token), Some(body)),
            None => server.api("POST", "/api/tables", Some(token), Some(body)),
        };
        assert_eq!(code, 200, "{t}");
        t["id"].as_str().unwrap().to_string()
    }
}

/// The farm: each of `feeders` new accounts (made from `feeder_from(i)`) sits at a rated
/// two-seat tikki table of the farmer's (at `farmer_from`), the farmer starts it and
/// closes his connection at once, so that the table's experto bot plays his seat, and the
/// feeder plays at random to the end. The farmer's tikki rating after each game.
fn farm(
    server: &Server,
    farmer: (i64, &str),
    farmer_from: Addr,
    feeders: usize,
    feeder_from: impl Fn(usize) -> Option<String>,
) -> Vec<i64> {
    let mut rng = rand::thread_rng();
    let mut after = Vec::new();
    for i in 0..feeders {
        let ip = feeder_from(i);
        let from = Addr(ip.as_deref());
        let (_, feeder) = from.account(server, &format!("Feeder{i}"));
        let table = farmer_from.table(
            server,
            farmer.1,
            json!({"game": "tikki", "seats": 2, "rated": true, "bot": "experto",
                   "pace_ms": 0, "hold_s": 0, "away_s": 0}),
        );
        let ws = farmer_from.ws(server, &table, farmer.1);
        let mut fws = from.ws(server, &table, &feeder);
        // The second seat taken, the table starts by itself; the farmer leaves at once.
        send(&mut fws, json!({"type": "sit", "seat": 1}));
        let s = state_until(&mut fws, |s| s["table"]["status"] == "playing");
        drop(ws);
        play_at_random(&mut fws, s, &mut rng);
        // The result is rated with the game's end, before its last state is sent.
        after.push(rating_in(server, farmer.0, "tikki"));
    }
    after
}

/// The farmer's place on the tikki leaderboard, if he is on it.
fn place_of(server: &Server, id: i64) -> Option<i64> {
    let (code, b) = server.api("GET", "/api/leaderboard/tikki", None, None);
    assert_eq!(code, 200, "{b}");
    b["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == id)
        .map(|p| p["rank"].as_i64().unwrap())
}

#[test]
fn a_farm_of_accounts_from_one_address_raises_the_farmer_nothing() {
    let server = Server::start("rated-farm", roomy());
    let (farmer, token) = server.account("Farmer");
    let ratings = farm(&server, (farmer, &token), Addr(None), 12, |_| None);
    let place = place_of(&server, farmer);
    eprintln!(
        "farm from one address, 12 feeders: 1500 -> {ratings:?}, leaderboard place {place:?}"
    );
    assert!(
        ratings.iter().all(|r| *r == 1500),
        "the farmer's rating moved: {ratings:?}"
    );
    assert_eq!(
        place, None,
        "the farmer is not ranked from games against his own accounts"
    );
    // Each game is on his profile, unrated, saying why.
    let p = profile(&server, farmer);
    let recent = p["recent"].as_array().unwrap();
    assert_eq!(recent.len(), 12, "{p}");
    assert!(
        recent.iter().all(|g| g["unrated"] == "shared_address"),
        "{p}"
    );
    assert_eq!(p["ratings"], json!([]), "no rated game: {p}");
}

#[test]
fn a_farm_from_many_addresses_gains_nothing_for_the_seat_the_bot_plays() {
    // Every feeder from an address of its own: they rate against the farmer, but the bot
    // played his seat.
    let server = Server::start_behind_proxy("rated-farm-apart", roomy());
    let (farmer, token) = server.account_from("10.0.0.1", "Farmer");
    let ratings = farm(&server, (farmer, &token), Addr(Some("10.0.0.1")), 12, |i| {
        Some(format!("10.0.1.{}", i + 1))
    });
    let place = place_of(&server, farmer);
    eprintln!("farm from 12 addresses, bot plays the farmer: 1500 -> {ratings:?}, place {place:?}");
    let mut last = 1500;
    for r in &ratings {
        assert!(*r <= last, "the farmer gained: {ratings:?}");
        last = *r;
    }
    let p = profile(&server, farmer);
    assert!(
        p["recent"]
            .as_array()
            .unwrap()
            .iter()
            .all(|g| g["assisted"] == true),
        "{p}"
    );
}

#[test]
fn a_farmer_who_plays_new_accounts_himself_gains_a_tenth_at_most() {
    // The farmer plays his own seat against twelve new accounts of other addresses that
    // play at random: each is provisional, so each game counts a tenth for him.
    let server = Server::start_behind_proxy("rated-farm-self", roomy());
    let (farmer, token) = server.account_from("10.0.0.1", "Farmer");
    let mut rng = rand::thread_rng();
    let mut ratings = vec![1500];
    for i in 0..12 {
        let ip = format!("10.0.1.{}", i + 1);
        let (_, feeder) = server.account_from(&ip, &format!("Feeder{i}"));
        let table = Addr(Some("10.0.0.1")).table(
            &server,
            &token,
            json!({"game": "tikki", "seats": 2, "rated": true, "bot": "experto",
                   "pace_ms": 0, "hold_s": 0}),
        );
        let mut ws = server.ws_from("10.0.0.1", &table, Some(&token));
        let mut fws = server.ws_from(&ip, &table, Some(&feeder));
        send(&mut fws, json!({"type": "sit", "seat": 1}));
        // Both play at random (the farmer's first state comes with the start).
        let fs = state_until(&mut fws, |s| s["table"]["status"] == "playing");
        let s = state_until(&mut ws, |s| s["table"]["status"] == "playing");
        let farmer_plays = std::thread::spawn(move || {
            let mut rng = rand::thread_rng();
            play_at_random(&mut ws, s, &mut rng);
        });
        play_at_random(&mut fws, fs, &mut rng);
        farmer_plays.join().unwrap();
        ratings.push(rating_in(&server, farmer, "tikki"));
    }
    let gains: Vec<i64> = ratings.windows(2).map(|w| w[1] - w[0]).collect();
    eprintln!(
        "the farmer playing 12 new accounts himself: {ratings:?}, gains {gains:?}, place {:?}",
        place_of(&server, farmer)
    );
    // A full first win is some +160 (+316 at most); against a new account, a tenth.
    assert!(gains.iter().all(|g| *g <= 32), "{gains:?}");
    assert!(*ratings.last().unwrap() <= 1500 + 12 * 32);
}

#[test]
fn standing_up_at_a_rated_chinchon_table_gains_nothing_when_the_bot_wins() {
    // Ane and Bea play from two addresses, so that they rate against each other.
    let server = Server::start_behind_proxy("rated-stand", roomy());
    let (ane_id, ane) = server.account_from("10.0.0.1", "Ane");
    let (bea_id, bea) = server.account_from("10.0.0.2", "Bea");
    let mut rng = rand::thread_rng();
    let mut won = 0;
    for game in 0..30 {
        let before = rating_in(&server, ane_id, "chinchon");
        let id = Addr(Some("10.0.0.1")).table(
            &server,
            &ane,
            json!({"game": "chinchon", "seats": 3, "rated": true, "pace_ms": 0, "hold_s": 0}),
        );
        let mut bws = server.ws_from("10.0.0.2", &id, Some(&bea));
        send(&mut bws, json!({"type": "sit", "seat": 1}));
        state_until(&mut bws, |s| {
            s["table"]["seats"][1]["player"]["id"] == bea_id
        });
        let mut ws = server.ws_from("10.0.0.1", &id, Some(&ane));
        send(&mut ws, json!({"type": "start"}));
        let s = state_until(&mut bws, |s| s["table"]["status"] == "playing");
        // Ane stands up at once: the bot plays her seat to the end.
        send(&mut ws, json!({"type": "stand"}));
        let end = play_at_random(&mut bws, s, &mut rng);
        let after = rating_in(&server, ane_id, "chinchon");
        let place = end["outcome"]["places"][0].as_i64();
        eprintln!("game {game}: Ane stood up, her seat's place {place:?}: {before} -> {after}");
        assert!(after <= before, "standing up gained {}", after - before);
        if place == Some(1) {
            won += 1;
            if won == 2 {
                return;
            }
        }
    }
    panic!("the bot won none of Ane's seats in 30 games");
}

#[test]
fn a_rated_table_always_has_a_turn_clock() {
    let server = Server::start("rated-clock", roomy());
    let (_, ane) = server.account("Ane");
    let (code, e) = server.api(
        "POST",
        "/api/tables",
        Some(&ane),
        Some(json!({"game": "ring", "rated": true, "turn_s": 0})),
    );
    assert_eq!(
        (code, e["code"].as_str()),
        (400, Some("rated_needs_clock")),
        "{e}"
    );
    assert!(error_of(&e).contains("turn_s"), "{e}");
    let id = server.table(&ane, json!({"game": "ring", "rated": true}));
    let (_, t) = server.api("GET", &format!("/api/tables/{id}"), None, None);
    assert_eq!(t["turn_s"], 60, "{t}");
}

#[test]
fn a_player_who_never_acts_at_a_rated_table_is_played_for_by_the_clock_and_gains_nothing() {
    // The turn clock on the server's own clock, moved by the test: no ten seconds waited.
    let server = Server::start_paused(
        "rated-stall",
        Limits {
            // Ane reads nothing while the clock moves: her link is not closed as silent.
            ws_idle: Duration::from_secs(24 * 3600),
            ..roomy()
        },
    );
    let (ane_id, ane) = server.account("Ane");
    let id = server.table(
        &ane,
        json!({"game": "ring", "seats": 2, "rated": true, "pace_ms": 0, "hold_s": 0,
               "turn_s": 10}),
    );
    let mut ws = server.ws(&id, Some(&ane));
    send(&mut ws, json!({"type": "start"}));
    state_until(&mut ws, |s| s["table"]["status"] == "playing");
    // Ane stays connected and never acts: her clock runs out, and the bot plays for her
    // to the end.
    server.advance(Duration::from_secs(11));
    let end = state_until(&mut ws, |s| !s["outcome"].is_null());
    eprintln!(
        "a rated game whose player never acts ended, her place {}",
        end["outcome"]["places"][0]
    );
    let p = profile(&server, ane_id);
    let r = ring_rating(&p);
    assert_eq!(r["played"], 1, "{p}");
    assert!(r["rating"].as_i64().unwrap() <= 1500, "{p}");
    assert_eq!(p["recent"][0]["assisted"], true, "{p}");
}

#[test]
fn accounts_from_two_homes_rate_against_each_other_and_from_one_do_not() {
    let (server, (ane_id, ane), (bea_id, bea)) = ane_and_bea("rated-homes");
    // Each plays from home: a rated game between two new accounts.
    let mut ids = Vec::new();
    let mut game = |ane_at: &str, bea_at: &str| {
        let id = Addr(Some(ane_at)).table(
            &server,
            &ane,
            json!({"game": "ring", "seats": 2, "rated": true, "pace_ms": 0, "hold_s": 0}),
        );
        let mut bws = server.ws_from(bea_at, &id, Some(&bea));
        let mut ws = server.ws_from(ane_at, &id, Some(&ane));
        send(&mut bws, json!({"type": "sit", "seat": 1}));
        let bs = state_until(&mut bws, |s| s["table"]["status"] == "playing");
        let s = state_until(&mut ws, |s| s["table"]["status"] == "playing");
        // Bea plays at random, so that some game has a winner.
        let bea_plays =
            std::thread::spawn(move || play_at_random(&mut bws, bs, &mut rand::thread_rng()));
        let end = play_on(&mut ws, s);
        bea_plays.join().unwrap();
        ids.push(id);
        end
    };
    // Games until one is won (ties between equal ratings move nothing).
    let mut rated = 0;
    let places = loop {
        assert!(rated < 20, "twenty ties");
        let end = game(ANE_AT, BEA_AT);
        rated += 1;
        let places = end["outcome"]["places"].clone();
        if places[0] != places[1] {
            break places;
        }
    };
    let (a, b) = (profile(&server, ane_id), profile(&server, bea_id));
    for p in [&a, &b] {
        assert_eq!(ring_rating(p)["played"], rated, "{p}");
        assert_eq!(p["recent"][0]["unrated"], Value::Null, "{p}");
    }
    let (ra, rb) = (
        ring_rating(&a)["rating"].as_i64().unwrap(),
        ring_rating(&b)["rating"].as_i64().unwrap(),
    );
    eprintln!("two homes: {rated} games, the last places {places}, Ane {ra}, Bea {rb}");
    let (winner, loser) = if places[0] == 1 { (ra, rb) } else { (rb, ra) };
    assert!(winner > 1500 && loser < 1500, "{ra} {rb}");
    // Two new accounts: a tenth of a full game each way.
    assert!(winner - 1500 <= 32, "{winner}");
    // Both at Ane's home: not rated, and each is told why.
    game(ANE_AT, ANE_AT);
    // Both at Bea's: Ane visits her.
    game(BEA_AT, BEA_AT);
    // And accounts made at one address do not rate against each other from two.
    let (cai_id, cai) = server.account_from(ANE_AT, "Cai");
    let id = Addr(Some("10.0.0.9")).table(
        &server,
        &cai,
        json!({"game": "ring", "seats": 2, "rated": true, "pace_ms": 0, "hold_s": 0}),
    );
    let mut cws = server.ws_from("10.0.0.9", &id, Some(&cai));
    let mut ws = server.ws_from("10.0.0.8", &id, Some(&ane));
    send(&mut ws, json!({"type": "sit", "seat": 1}));
    let s = state_until(&mut ws, |s| s["table"]["status"] == "playing");
    let cs = state_until(&mut cws, |s| s["table"]["status"] == "playing");
    let ane_plays = std::thread::spawn(move || play_on(&mut ws, s));
    play_on(&mut cws, cs);
    ane_plays.join().unwrap();
    let (a, b, c) = (
        profile(&server, ane_id),
        profile(&server, bea_id),
        profile(&server, cai_id),
    );
    assert_eq!(
        ring_rating(&a)["played"],
        rated,
        "only the games from two homes: {a}"
    );
    assert_eq!(ring_rating(&b)["played"], rated, "{b}");
    assert_eq!(ring_rating(&a)["rating"], ra, "{a}");
    assert_eq!(ring_rating(&b)["rating"], rb, "{b}");
    for (p, unrated) in [(&a, 3), (&b, 2)] {
        let recent = p["recent"].as_array().unwrap();
        assert_eq!(recent.len() as i64, rated + unrated, "{p}");
        assert!(recent[..unrated as usize]
            .iter()
            .all(|g| g["unrated"] == "shared_address"));
    }
    assert_eq!(c["ratings"], json!([]), "{c}");
    assert_eq!(c["recent"][0]["unrated"], "shared_address", "{c}");
}

#[test]
fn a_bot_level_moves_only_a_step_and_only_for_established_people() {
    let server = Server::start_file("rated-level", roomy());
    let (ane_id, ane) = server.account("Ane");
    let (code, b) = server.api("GET", "/api/bots/random", None, None);
    assert_eq!((code, b["ratings"].clone()), (200, json!([])), "{b}");
    // Ten games of a new account: the level learns nothing from them.
    for _ in 0..10 {
        rated_game(&server, &ane);
    }
    let (_, b) = server.api("GET", "/api/bots/random", None, None);
    let r = ring_rating(&b);
    assert_eq!(
        (&r["rating"], &r["deviation"], &r["played"]),
        (&json!(1500), &json!(500), &json!(10))
    );
    // Now established, she moves it, by a step of what the model says.
    let stored = |who: &str| -> (f64, f64, i64) {
        let c = rusqlite::Connection::open(&server.db).unwrap();
        c.query_row(
            "SELECT mu, sigma, games FROM ratings WHERE game = 'ring' AND who = ?1",
            [who],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap()
    };
    let (me, level) = (Rated::Player(ane_id), Rated::Bot("random".into()));
    let key = format!("p{ane_id}");
    let (mine, theirs) = (stored(&key), stored("b:random"));
    let (_, end) = rated_game(&server, &ane);
    let places: Vec<u32> = serde_json::from_value(end["outcome"]["places"].clone()).unwrap();
    let seats: Vec<SeatResult> = places
        .iter()
        .enumerate()
        .map(|(s, &place)| SeatResult {
            who: if s == 0 { me.clone() } else { level.clone() },
            team: s,
            place,
            assisted: false,
        })
        .collect();
    let prior = |r: (f64, f64, i64)| Prior {
        rating: skillratings::weng_lin::WengLinRating::from((r.0, r.1)),
        games: r.2,
    };
    let want = update(
        &seats,
        &BTreeMap::from([(me.clone(), prior(mine)), (level.clone(), prior(theirs))]),
    );
    // The model's own change for the level, every pair counted fully.
    let full = {
        let teams: Vec<Vec<skillratings::weng_lin::WengLinRating>> = seats
            .iter()
            .map(|s| vec![prior(if s.who == me { mine } else { theirs }).rating])
            .collect();
        let ranked: Vec<_> = teams
            .iter()
            .zip(&places)
            .map(|(t, p)| {
                (
                    t.as_slice(),
                    skillratings::MultiTeamOutcome::new(*p as usize),
                )
            })
            .collect();
        let out = skillratings::weng_lin::weng_lin_multi_team(
            &ranked,
            &skillratings::weng_lin::WengLinConfig::new(),
        );
        out[1][0].rating + out[2][0].rating - 2.0 * theirs.0
    };
    let now = stored("b:random");
    eprintln!(
        "an established player's game: level {:.4} -> {:.4} (the model alone: {:+.4})",
        theirs.0, now.0, full
    );
    assert!(
        (now.0 - want[&level].rating).abs() < 1e-9,
        "{now:?} {:?}",
        want[&level]
    );
    assert!((stored(&key).0 - want[&me].rating).abs() < 1e-9);
    // Its seats against each other count nothing, Ane's seat a step.
    assert!((now.0 - theirs.0).abs() <= BOT_STEP * full.abs() + 1e-9 || full == 0.0);
}

#[test]
fn a_schema_7_database_upgrades_in_place_and_its_rated_tables_get_a_clock() {
    let server = Server::start("rated-v7", roomy());
    let (ane_id, ane) = server.account("Ane");
    rated_game(&server, &ane);
    let before = profile(&server, ane_id);
    // A rated table under way with no clock, as schema 7 allowed.
    let id = rated_table(&server, &ane, 3);
    let mut ws = server.ws(&id, Some(&ane));
    send(&mut ws, json!({"type": "start"}));
    state_until(&mut ws, |s| s["table"]["status"] == "playing");
    drop(ws);
    let db = server.db.clone();
    drop(server);
    // As schema 7 wrote it: no counts of the bot's decisions, no notes, no addresses.
    let downgrade = format!(
        "UPDATE tables SET turn_s = 0 WHERE id = '{id}';
         DROP TABLE signup_addresses; DROP TABLE table_addresses;
         ALTER TABLE rated_seats DROP COLUMN helped;
         ALTER TABLE rating_history DROP COLUMN assisted;
         ALTER TABLE rating_history DROP COLUMN unrated;"
    );
    let url = db.to_string_lossy().to_string();
    if tapete_server::store::pg::is_url(&url) {
        let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        c.batch_execute(&downgrade).unwrap();
        c.batch_execute("UPDATE meta SET value = '7' WHERE key = 'schema'")
            .unwrap();
    } else {
        let c = rusqlite::Connection::open(&db).unwrap();
        c.execute_batch(&downgrade).unwrap();
        c.execute_batch("PRAGMA user_version = 7").unwrap();
    }
    let server = Server::on(db, roomy());
    assert_eq!(
        profile(&server, ane_id),
        before,
        "its history reads as before"
    );
    let (_, t) = server.api("GET", &format!("/api/tables/{id}"), None, None);
    assert_eq!(t["turn_s"], 60, "{t}");
    // And it rates as now.
    let mut ws = server.ws(&id, Some(&ane));
    let s = read_of(&mut ws, "state");
    let mut rng = rand::thread_rng();
    play_at_random(&mut ws, s, &mut rng);
    rated_game(&server, &ane);
    let p = profile(&server, ane_id);
    assert_eq!(ring_rating(&p)["played"], 3, "{p}");
}
