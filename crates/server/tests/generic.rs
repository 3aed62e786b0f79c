//! The server hosts any game it is given: seat counts per table within the game's range,
//! narration told from the events, each game's tools, pages as asset files, and a load
//! test of any game. Ring (`support/ring.rs`, 2–6 seats) stands for a game the server
//! has never heard of.

use crate::support;

use crate::support::{error_of, legal, read_of, roomy, send, state_until, Server, Story, Ws};
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tapete_loadtest::client::get;
use tapete_server::Limits;

#[test]
fn the_lobby_lists_every_game_with_its_seats_bots_and_tools() {
    let server = Server::start("kinds", Limits::default());
    let (code, games) = server.api("GET", "/api/games", None, None);
    assert_eq!(code, 200);
    let by_name = |name: &str| -> Value {
        games
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["name"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("{name} in {games}"))
    };
    let mus = by_name("mus");
    assert_eq!(mus["seats"], json!({"min": 4, "max": 4, "default": 4}));
    assert_eq!(mus["tools"], json!(["leyes"]));
    assert!(mus["bots"].as_array().unwrap().contains(&json!("basico")));
    let ring = by_name("ring");
    assert_eq!(ring["title"], "Ring");
    assert_eq!(ring["seats"], json!({"min": 2, "max": 6, "default": 3}));
    assert_eq!(ring["bots"], json!(["random"]));
    assert_eq!(ring["default_bot"], "random");
    assert_eq!(ring["rules"], json!({"hands": 2, "to": 6}));
    assert_eq!(ring["tools"], json!(["sum"]));
}

#[test]
fn a_table_is_made_for_a_seat_count_in_its_games_range() {
    let server = Server::start_file("seat-counts", roomy());
    let ane = server.player("Ane");
    let create = |body: Value| server.api("POST", "/api/tables", Some(&ane), Some(body));

    let (code, t) = create(json!({"game": "ring"}));
    assert_eq!(code, 200, "{t}");
    assert_eq!(
        t["seats"].as_array().unwrap().len(),
        3,
        "the game's default"
    );
    let (code, t) = create(json!({"game": "ring", "seats": 6, "seat": 5}));
    assert_eq!(code, 200, "{t}");
    assert_eq!(t["seats"].as_array().unwrap().len(), 6);
    assert_eq!(t["seats"][5]["player"]["nickname"], "Ane");
    assert_eq!(t["seats"][0]["bot"], "random");
    let (code, t) = create(json!({"game": "mus"}));
    assert_eq!(code, 200, "{t}");
    assert_eq!(t["seats"].as_array().unwrap().len(), 4);

    for (body, want) in [
        (json!({"game": "ring", "seats": 7}), "2 to 6 players"),
        (json!({"game": "ring", "seats": 1}), "2 to 6 players"),
        (json!({"game": "ring", "seats": 0}), "2 to 6 players"),
        (
            json!({"game": "mus", "seats": 3}),
            "Mus is played by 4 players",
        ),
        (
            json!({"game": "ring", "seats": 4, "seat": 4}),
            "there is no seat 4",
        ),
        (json!({"game": "ring", "seats": -1}), "seats"),
        // Options are checked for the seat count: to 4 is short for five seats.
        (
            json!({"game": "ring", "seats": 5, "rules": {"to": 4}}),
            "with 5 seats",
        ),
        (
            json!({"game": "ring", "rules": {"speed": 1}}),
            "unknown rule `speed`",
        ),
    ] {
        let (code, v) = create(body.clone());
        assert_eq!(code, 400, "{body}: {v}");
        assert!(error_of(&v).contains(want), "{body}: `{v}` lacks `{want}`");
    }
    let (code, t) = create(json!({"game": "ring", "seats": 3, "rules": {"to": 4}}));
    assert_eq!(code, 200, "to 4 is enough for three seats: {t}");
    assert_eq!(
        t["rules"],
        json!({"hands": 2, "to": 4}),
        "every key filled in"
    );

    // At a five-seat table seat 4 is there to sit at, seat 5 is not.
    let bea = server.player("Bea");
    let id = server.table(&ane, json!({"game": "ring", "seats": 5}));
    let mut b = server.ws(&id, Some(&bea));
    send(&mut b, json!({"type": "sit", "seat": 5}));
    let e = read_of(&mut b, "error");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("there is no seat 5: seats are 0 to 4"),
        "{e}"
    );
    send(&mut b, json!({"type": "sit", "seat": 4}));
    let s = state_until(&mut b, |s| s["you"]["seat"] == 4);
    assert_eq!(s["table"]["seats"].as_array().unwrap().len(), 5);
    let c = rusqlite::Connection::open(&server.db).unwrap();
    let stored: i64 = c
        .query_row("SELECT seats FROM tables WHERE id = ?1", [&id], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(stored, 5, "the seat count is stored with the table");
}

/// Lines the spectators were told, in English.
fn texts(lines: &[Value]) -> Vec<String> {
    lines.iter().map(crate::support::ring::text).collect()
}

/// Plays seat `me`'s turns (always adding 1) until `done` holds for a state.
fn play_until(
    ws: &mut Ws,
    story: &mut Story,
    me: u64,
    mut done: impl FnMut(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        assert!(Instant::now() < deadline, "took too long");
        let s = read_of(ws, "state");
        // The story is the current hand and the one before: hand h's first line (for
        // h ≥ 2) is hand h - 1's opening, and hand h - 2 is forgotten.
        let h = s["view"]["hand"].as_u64().unwrap();
        let told = texts(story.read(&s));
        if s["outcome"].is_null() {
            let first = h.saturating_sub(1).max(1);
            assert_eq!(told[0], format!("hand {first} begins"), "{told:?}");
            assert!(told.contains(&format!("hand {h} begins")), "{told:?}");
            assert!(!told.contains(&format!("hand {} begins", h.wrapping_sub(2))));
        }
        if s["view"]["turn"] == me && s["outcome"].is_null() {
            assert_eq!(legal(&s), vec!["1", "2"]);
        } else {
            assert!(legal(&s).is_empty(), "not its turn: {}", s["legal"]);
        }
        if done(&s) {
            return s;
        }
        if !legal(&s).is_empty() {
            send(ws, json!({"type": "act", "action": "1", "id": s["n"]}));
        }
    }
}

#[test]
fn a_five_seat_table_plays_survives_a_restart_and_replays_with_its_own_narration() {
    let server = Server::start("five", roomy());
    let (ane_id, ane) = server.player_with_id("Ane");
    let id = server.table(
        &ane,
        json!({"game": "ring", "seats": 5, "seat": 2, "rules": {"hands": 3}, "start": true,
               "pace_ms": 0, "hold_s": 0}),
    );
    let mut a = server.ws(&id, Some(&ane));
    let mut story = Story::default();
    // Into the second hand, waiting on Ane (the bots wait for her too).
    let before = play_until(&mut a, &mut story, 2, |s| {
        s["view"]["hand"].as_u64() >= Some(2) && !legal(s).is_empty()
    });
    assert_eq!(before["view"]["seat"], 2);
    assert!(before["view"]["card"].is_u64(), "her own card");
    assert_eq!(before["view"]["wins"].as_array().unwrap().len(), 5);
    assert_eq!(before["table"]["seats"].as_array().unwrap().len(), 5);

    // Restored from its log: the same state, the story told again from the events.
    drop(a);
    let server = server.restart();
    assert_eq!(server.restored, 1);
    let mut a = server.ws(&id, Some(&ane));
    let after = read_of(&mut a, "state");
    for key in ["n", "view", "legal"] {
        assert_eq!(after[key], before[key], "{key} after the restart");
    }
    let told_before = story.0.clone();
    assert!(
        after["lines"].is_array(),
        "a new connection is told the whole story"
    );
    assert_eq!(
        story.read(&after),
        told_before,
        "the story after the restart"
    );
    send(&mut a, json!({"type": "act", "action": "2", "id": 0}));
    let end = play_until(&mut a, &mut story, 2, |s| !s["outcome"].is_null());
    let outcome = &end["outcome"];
    assert_eq!(outcome["scores"].as_array().unwrap().len(), 5);
    assert_eq!(outcome["places"].as_array().unwrap().len(), 5);
    let won: i64 = outcome["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_i64().unwrap())
        .sum();
    assert_eq!(won, 3, "three hands were played");
    drop(a);

    // Each replay step tells what its action told, and nothing else.
    let (code, index) = server.api("GET", &format!("/api/tables/{id}/replay"), None, None);
    assert_eq!(code, 200, "{index}");
    let steps = index["steps"].as_u64().unwrap();
    assert_eq!(steps, end["n"].as_u64().unwrap() + 1);
    let (_, deal) = server.api("GET", &format!("/api/tables/{id}/replay/0"), None, None);
    assert_eq!(texts(deal["lines"].as_array().unwrap()), ["hand 1 begins"]);
    assert_eq!(deal["lines"][0]["key"], "story.ring.begins");
    assert_eq!(deal["view"]["cards"].as_array().unwrap().len(), 5);
    let mut hands_won = 0;
    let mut hands_begun = 0;
    for n in 1..steps {
        let (code, step) = server.api("GET", &format!("/api/tables/{id}/replay/{n}"), None, None);
        assert_eq!(code, 200, "{step}");
        let told = texts(step["lines"].as_array().unwrap());
        let (seat, action) = (&step["seat"], step["action"].as_str().unwrap());
        assert!(
            told[0].starts_with(&format!("seat {seat} adds {action}: ")),
            "step {n}: {told:?}"
        );
        for line in &told[1..] {
            if line.contains(" won hand ") {
                hands_won += 1;
            } else if line.ends_with(" begins") {
                hands_begun += 1;
            } else {
                panic!("step {n}: `{line}` was not told by its action");
            }
        }
    }
    assert_eq!((hands_won, hands_begun), (3, 2));

    // The history names the five seats.
    let (_, games) = server.api("GET", &format!("/api/players/{ane_id}/games"), None, None);
    let g = &games[0];
    assert_eq!(g["table"], id.as_str());
    assert_eq!(g["players"].as_array().unwrap().len(), 5);
    assert_eq!(g["players"][2], "Ane");
    let ane_won = outcome["winners"].as_array().unwrap().contains(&json!(2));
    assert_eq!(g["won"], ane_won);
}

#[test]
fn game_tools_answer_at_their_address_and_bad_queries_are_refused() {
    let server = Server::start("tools", Limits::default());
    let (code, v) = server.api("GET", "/api/tools/ring/sum?a=2&b=%203", None, None);
    assert_eq!((code, &v), (200, &json!({"sum": 5})));
    let (code, v) = server.api("GET", "/api/sum?a=1&b=1", None, None);
    assert_eq!((code, &v), (200, &json!({"sum": 2})), "the short address");

    for (path, status, want) in [
        ("/api/tools/ring/sum?a=x&b=1", 400, "`x` is not a number"),
        ("/api/tools/ring/sum?a=1", 400, "give `b`"),
        ("/api/tools/ring/product?a=1", 404, "its tools are sum"),
        ("/api/tools/chess/sum", 404, "unknown game `chess`"),
        ("/api/nothing", 404, "no such page or API"),
    ] {
        let (code, v) = server.api("GET", path, None, None);
        assert_eq!(code, status, "{path}: {v}");
        assert!(error_of(&v).contains(want), "{path}: `{v}` lacks `{want}`");
    }

    // Mus's leyes, at its tool address and at the address it always had.
    let (code, tool) = server.api("GET", "/api/tools/mus/leyes?hand=RRCA", None, None);
    assert_eq!(code, 200, "{tool}");
    let (code, old) = server.api("GET", "/api/leyes?hand=RRCA", None, None);
    assert_eq!(code, 200, "{old}");
    assert_eq!(tool, old);
    assert_eq!(tool["positions"].as_array().unwrap().len(), 4);
}

#[test]
fn odds_tools_answer_at_their_address_and_bad_queries_are_refused() {
    let server = Server::start("odds", Limits::default());
    let (code, v) = server.api("GET", "/api/odds/coins?flips=4&heads=2", None, None);
    assert_eq!(code, 200, "{v}");
    assert_eq!(v["fraction"], "11/16");
    assert_eq!(v["probability"], 0.6875);

    for (path, status, want) in [
        (
            "/api/odds/coins?flips=x&heads=1",
            400,
            "flips: `x` is not a number",
        ),
        ("/api/odds/coins?flips=3", 400, "give `heads`"),
        ("/api/odds/coins?flips=101&heads=1", 400, "at most 100"),
        ("/api/odds/coins?flips=%FF&heads=1", 400, "is not a number"),
        (
            "/api/odds/dice?n=2",
            404,
            "no odds tool `dice`: the odds tools are coins, gate",
        ),
        ("/api/odds/", 404, "no such page or API"),
    ] {
        let (code, v) = server.api("GET", path, None, None);
        assert_eq!(code, status, "{path}: {v}");
        assert!(
            error_of(&v).to_lowercase().contains(&want.to_lowercase()),
            "{path}: `{v}` lacks `{want}`"
        );
    }
}

#[test]
fn odds_tools_must_have_plain_distinct_names() {
    use std::sync::Arc;
    use tapete_server::{check_odds, OddsTool};
    struct Named(&'static str);
    impl OddsTool for Named {
        fn name(&self) -> &'static str {
            self.0
        }
        fn answer(&self, _: &Value) -> Result<Value, String> {
            Ok(Value::Null)
        }
    }
    let tools = |names: &[&'static str]| -> Vec<Arc<dyn OddsTool>> {
        names
            .iter()
            .map(|n| Arc::new(Named(n)) as Arc<dyn OddsTool>)
            .collect()
    };
    assert_eq!(check_odds(&tools(&[])), Ok(()));
    assert_eq!(check_odds(&tools(&["solitaire", "coins-2"])), Ok(()));
    let e = check_odds(&tools(&["coins", "coins"])).unwrap_err();
    assert!(e.contains("two odds tools are called `coins`"), "{e}");
    for bad in ["", "a/b", "Coins", "a b"] {
        let e = check_odds(&tools(&[bad])).unwrap_err();
        assert!(e.contains("lowercase letters"), "{bad}: {e}");
    }
}

#[test]
fn a_calculation_keeps_its_turn_until_it_ends_even_when_its_request_gave_up() {
    let limits = Limits {
        calculations: 1,
        request_timeout: Duration::from_millis(300),
        ..Limits::default()
    };
    let server = Server::start("calculations", limits);
    // Dropped before the server, which waits for its calculations to end when it stops.
    let _open = support::coins::OpenOnDrop;
    // The only turn goes to a calculation that outlives its request.
    let (code, v) = server.api("GET", "/api/odds/gate", None, None);
    assert_eq!(code, 408, "{v}");
    support::coins::gate_entered(1);
    // It still runs: another calculation finds no turn free and waits for one past its
    // own request's time (a free turn would have answered at once).
    let (code, v) = server.api("GET", "/api/odds/coins?flips=2&heads=1", None, None);
    assert_eq!(code, 408, "{v}");
    let (code, v) = server.api("GET", "/api/tools/ring/sum?a=1&b=2", None, None);
    assert_eq!(code, 408, "a game's tool waits for the same turns: {v}");
    // Once it ends, its turn is free again.
    support::coins::open_gate();
    let (code, v) = server.api("GET", "/api/odds/coins?flips=2&heads=1", None, None);
    assert_eq!((code, &v["fraction"]), (200, &json!("3/4")), "{v}");
}

#[test]
fn pages_are_asset_files() {
    let server = Server::start("pages", Limits::default());
    for path in ["/", "/leyes", "/coins", "/history", "/t/abc", "/replay/abc"] {
        let r = get(&server.url(path)).unwrap();
        assert_eq!(r.status, 200, "{path}");
        assert!(
            r.header("content-type").unwrap_or("").contains("html"),
            "{path}"
        );
    }
    // An unknown address is a page for people; under /api/ it stays JSON.
    for path in ["/nothing", "/t/abc/more", "/rules/nothing", "/x<script>"] {
        let (code, html) = page(&server, path);
        assert_eq!(code, 404, "{path}");
        assert!(
            html.contains("No such page") && html.contains("href=\"/\""),
            "{html}"
        );
        assert!(html.contains("/assets/style.css") && !html.contains("<script>"));
    }
    let (code, v) = server.api("GET", "/api/nothing", None, None);
    assert_eq!(code, 404);
    assert!(error_of(&v).contains("no such page or API"), "{v}");
    // The games' files (their web faces, from their front-end crates) beside the platform's.
    for (file, kind) in [
        ("mus.js", "text/javascript"),
        ("chinchon-rules.js", "text/javascript"),
        ("tikki.css", "text/css"),
        ("leyes.js", "text/javascript"),
        ("kit.js", "text/javascript"),
        ("coins.html", "text/html"),
    ] {
        let r = get(&server.url(&format!("/assets/{file}"))).unwrap();
        assert_eq!(r.status, 200, "{file}");
        assert_eq!(
            r.header("content-type"),
            Some(format!("{kind}; charset=utf-8").as_str()),
            "{file}"
        );
    }
    // A page of an odds tool the server was not given is no page.
    let (code, _) = page(&server, "/solitaire");
    assert_eq!(code, 404);
}

#[test]
fn the_load_test_plays_any_game_at_its_seat_count() {
    let server = Server::start_file("load", roomy());
    let opts = tapete_loadtest::LoadOptions {
        addr: server.addr,
        game: "ring".into(),
        games: support::games(),
        tables: 2,
        // Long enough for a game to end on a loaded machine (2 s was not, once in CI).
        duration: Duration::from_secs(4),
        db: Some(server.db.clone()),
        seed: 3,
        think: Duration::ZERO,
    };
    let rt = tokio::runtime::Runtime::new().unwrap();
    let report = rt.block_on(tapete_loadtest::run(opts.clone())).unwrap();
    assert_eq!(report.game, "ring");
    assert_eq!((report.seats, report.clients), (3, 6));
    assert_eq!(report.errors, 0, "{:?}", report.error_samples);
    assert!(report.games_finished >= 1, "ring games are short");
    let replayed = report.replayed.unwrap();
    assert!(replayed.tables >= 2);
    assert_eq!(
        replayed.matched, replayed.tables,
        "{:?}",
        replayed.mismatches
    );

    let unknown = tapete_loadtest::LoadOptions {
        game: "chess".into(),
        ..opts
    };
    let e = rt.block_on(tapete_loadtest::run(unknown)).unwrap_err();
    assert!(e.contains("`chess` is not a game here"), "{e}");
}

#[test]
fn a_new_table_keeps_its_options_to_what_people_play_and_old_tables_still_open() {
    let server = Server::start_file("bounds", roomy());
    let ane = server.player("Ane");
    let ask = |rules: Value| {
        server.api(
            "POST",
            "/api/tables",
            Some(&ane),
            Some(json!({"game": "tikki", "seats": 3, "rules": rules})),
        )
    };
    for (rules, option, range) in [
        (json!({"rounds": 4_294_967_295u32}), "rounds", "to 20"),
        (json!({"rounds": 21}), "rounds", "to 20"),
        (json!({"target": 4_294_967_295u32}), "target", "to 100"),
        (json!({"target": 101}), "target", "to 100"),
    ] {
        let (code, e) = ask(rules.clone());
        assert_eq!(code, 400, "{rules}: {e}");
        let e = error_of(&e);
        assert!(e.contains(option) && e.contains(range), "{rules}: {e}");
    }
    let (code, t) = ask(json!({"rounds": 20, "target": 100}));
    assert_eq!(code, 200, "the bounds themselves are allowed: {t}");
    let (code, e) = server.api(
        "POST",
        "/api/tables",
        Some(&ane),
        Some(json!({"game": "mus", "rules": {"vacas": 255}})),
    );
    assert_eq!(code, 400, "{e}");
    assert!(error_of(&e).contains("vacas"), "{e}");

    // A table stored before the bounds, with 100 rounds, is restored and plays on.
    let id = server.table(
        &ane,
        json!({"game": "tikki", "seats": 3, "rules": {"rounds": 20}, "seat": 0,
               "start": true, "pace_ms": 0, "hold_s": 0}),
    );
    let db = server.db.clone();
    drop(server);
    {
        let c = rusqlite::Connection::open(&db).unwrap();
        c.execute(
            "UPDATE tables SET rules = ?2 WHERE id = ?1",
            [
                id.as_str(),
                r#"{"top":13,"rounds":100,"target":0,"retreat":false}"#,
            ],
        )
        .unwrap();
    }
    let server = Server::on(db, roomy());
    let mut a = server.ws(&id, Some(&ane));
    let s = state_until(&mut a, |s| !legal(s).is_empty());
    assert_eq!(s["view"]["rules"]["rounds"], 100, "{}", s["view"]["rules"]);
    let action = legal(&s)[0].clone();
    send(&mut a, json!({"type": "act", "action": action, "id": 1}));
    read_of(&mut a, "ack");
}

#[test]
fn senas_need_a_second_juego_and_the_turn_clock_its_bounds() {
    let server = Server::start("senas-clock", roomy());
    let ane = server.player("Ane");
    let ask = |body: Value| server.api("POST", "/api/tables", Some(&ane), Some(body));
    // Señas start at the match's second juego: one juego in one vaca would never show one.
    let (code, e) = ask(json!({"game": "mus", "rules": {"senas": true, "juegos": 1, "vacas": 1}}));
    assert_eq!(code, 400, "{e}");
    assert!(
        error_of(&e).contains("señas") && error_of(&e).contains("second juego"),
        "{e}"
    );
    for rules in [
        json!({"senas": true, "juegos": 3, "vacas": 1}),
        json!({"senas": true, "juegos": 1, "vacas": 3}),
        json!({"senas": false, "juegos": 1, "vacas": 1}),
    ] {
        let (code, t) = ask(json!({"game": "mus", "rules": rules}));
        assert_eq!(code, 200, "{rules}: {t}");
    }
    // The turn clock: off (0) or 10 to 600 seconds, 60 when not named.
    for turn_s in [5, 9, 601, 100_000] {
        let (code, e) = ask(json!({"game": "mus", "turn_s": turn_s}));
        assert_eq!(code, 400, "{turn_s}: {e}");
        assert!(error_of(&e).contains("10 to 600"), "{e}");
    }
    for (turn_s, shown) in [
        (json!(0), 0),
        (json!(10), 10),
        (json!(600), 600),
        (Value::Null, 60),
    ] {
        let mut body = json!({"game": "tikki", "seats": 3});
        if !turn_s.is_null() {
            body["turn_s"] = turn_s;
        }
        let (code, t) = ask(body);
        assert_eq!(code, 200, "{t}");
        assert_eq!(t["turn_s"], shown, "{t}");
    }
}

/// A page's status and text, whatever its status.
fn page(server: &Server, path: &str) -> (u16, String) {
    let r = get(&server.url(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(
        r.header("content-type").unwrap_or("").contains("html"),
        "{path}"
    );
    (r.status, r.text())
}

#[test]
fn every_game_has_a_rules_page_whose_links_work() {
    let server = Server::start("rules", Limits::default());
    for kind in tapete_catalog::kinds() {
        let path = format!("/rules/{}", kind.name());
        let (code, html) = page(&server, &path);
        assert_eq!(code, 200, "{path}");
        assert!(html.contains("<h1 id="), "{path}: a title");
        assert!(html.contains("<table>") || html.contains("<ul>"), "{path}");
        let mut links = 0;
        for part in html.split("href=\"").skip(1) {
            let href = part.split('"').next().unwrap().replace("&amp;", "&");
            links += 1;
            if let Some(anchor) = href.strip_prefix('#') {
                assert!(html.contains(&format!("id=\"{anchor}\"")), "{path}: {href}");
            } else if href.starts_with('/') {
                let (file, anchor) = href.split_once('#').unwrap_or((&href, ""));
                let (code, target) = page_or_asset(&server, file);
                assert_eq!(code, 200, "{path}: {href}");
                if !anchor.is_empty() {
                    assert!(
                        target.contains(&format!("id=\"{anchor}\"")),
                        "{path}: {href}"
                    );
                }
            } else {
                assert!(href.starts_with("https://"), "{path}: {href}");
            }
        }
        assert!(links >= 2, "{path}: the lobby and the page's own links");
    }
}

fn page_or_asset(server: &Server, path: &str) -> (u16, String) {
    let r = get(&server.url(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    (r.status, r.text())
}
