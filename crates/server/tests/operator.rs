//! The operator: only the accounts named at start reach `/api/operator/…` (everybody else
//! gets one 403, whatever they ask), each of their actions is in the log, suspensions keep
//! an account from what they cover until lifted, a finished private game is replayed whole
//! for the operator alone, flags and reports carry no card, and a screen's flags are
//! stored as `Db::store_flags` promises.

use crate::support::{games, play_out, read, read_of, roomy, send, Server, Ws};
use serde_json::{json, Value};
use std::path::Path;
use tapete_server::operator::{Evidence, FlagKind, FlagStatus, NewFlag, Statistic, MAX_EVIDENCE};
use tapete_server::store::Db;

/// A database's store, for a server stopped on it (or one never started).
fn open_store(db: &Path) -> Db {
    match db.to_str().filter(|d| tapete_server::store::pg::is_url(d)) {
        Some(url) => Db::open_postgres(url, "operator-test", None),
        None => Db::open(db),
    }
    .unwrap()
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// Stores `flags` in the database of a stopped server: the ids stored.
fn store_flags(db: &Path, flags: Vec<NewFlag>) -> Vec<Option<i64>> {
    let rt = runtime();
    rt.block_on(async {
        let store = open_store(db);
        let ids = store.store_flags(flags).await.unwrap();
        store.close().await;
        ids
    })
}

/// A flag of `kind` on `players` with a statistic of `z`, and evidence that names cards.
fn flag(game: &str, players: Vec<i64>, kind: FlagKind, z: f64, rows: usize) -> NewFlag {
    NewFlag {
        game: game.into(),
        players,
        kind,
        statistic: Statistic {
            z,
            gain: 0.12,
            se: 0.04,
            n: 321,
        },
        evidence: (0..rows)
            .map(|i| Evidence {
                table: "abcdefgh".into(),
                step: i as u64 + 1,
                seat: i % 4,
                action: "descarto 12o 1b".into(),
                what: "envido 2 holding 7♦ and 10H, partner's J".into(),
            })
            .collect(),
    }
}

/// Every card's text in `text` as tapete's decks write them: a rank (1–14, A, J, Q, K)
/// then a suit letter (Spanish o c e b, French S H D C) or symbol, or the joker `J`.
fn cards_in(text: &str) -> Vec<String> {
    let word = |c: char| c.is_alphanumeric() || "♠♥♦♣".contains(c);
    let mut found = Vec::new();
    for w in text.split(|c: char| !word(c)).filter(|w| !w.is_empty()) {
        let mut chars: Vec<char> = w.chars().collect();
        let suit = chars.pop().unwrap();
        let rank: String = chars.into_iter().collect();
        let is_rank = ["A", "J", "Q", "K"].contains(&rank.as_str())
            || rank
                .parse::<u8>()
                .is_ok_and(|n| (1..=14).contains(&n) && !rank.starts_with('0'));
        if w == "J" || (is_rank && "ocebSHDC♠♥♦♣".contains(suit)) {
            found.push(w.to_string());
        }
    }
    found
}

/// A server whose operator is the account `boss`, with the accounts `others` made before
/// it started: the server, boss's token and each other's (id, token).
fn operated(name: &str, others: &[&str]) -> (Server, String, Vec<(i64, String)>) {
    let server = Server::start(name, roomy());
    let (_, boss) = server.account("boss");
    let people: Vec<(i64, String)> = others.iter().map(|n| server.account(n)).collect();
    let server = server.restart_with_operators(vec!["boss".into()]);
    (server, boss, people)
}

/// A ring table of two seats played to its end by `token`'s person at seat 0 and the bot:
/// its id (and its invitation, when private).
fn finished_ring(server: &Server, token: &str, private: bool) -> (String, Option<String>) {
    let (code, t) = server.api(
        "POST",
        "/api/tables",
        Some(token),
        Some(
            json!({"game": "ring", "seats": 2, "rules": {"hands": 1, "to": 3},
                    "pace_ms": 0, "hold_s": 0, "start": true, "private": private}),
        ),
    );
    assert_eq!(code, 200, "{t}");
    let id = t["id"].as_str().unwrap().to_string();
    let mut ws = server.ws(&id, Some(token));
    play_out(&mut ws);
    (id, t["invite"].as_str().map(String::from))
}

/// Sends `sit` and reads the table's answer: the error, or the state that seats them.
fn sit(ws: &mut Ws, seat: usize, me: i64) -> Value {
    send(ws, json!({"type": "sit", "seat": seat}));
    loop {
        let m = read(ws).expect("the connection stays open");
        if m["type"] == "error" {
            return m;
        }
        if m["type"] == "state" && m["table"]["seats"][seat]["player"]["id"] == me {
            return m;
        }
    }
}

#[test]
fn nobody_but_an_operator_reaches_any_operator_endpoint_nor_learns_what_exists() {
    // `Boss` is a guest made before the account `boss` (the operator): the same nickname
    // to the eye, another player.
    let server = Server::start("operator-only", roomy());
    let (_, guest_boss) = server.player_with_id("Boss");
    let (_, boss) = server.account("boss");
    let (ane_id, ane) = server.account("ane");
    let (_, cid) = server.account("cid");
    let guest = server.player("Guest");
    let server = server.restart_with_operators(vec!["boss".into()]);
    let (finished, _) = finished_ring(&server, &cid, true);
    // Ane suspended: a suspended account is no operator either.
    let (code, s) = server.api(
        "POST",
        "/api/operator/suspensions",
        Some(&boss),
        Some(json!({"player": ane_id, "scope": "site", "reason": "insultos en el chat"})),
    );
    assert_eq!(code, 200, "{s}");
    let suspension = s["id"].as_i64().unwrap();

    // Every operator endpoint, on things that exist and things that do not, with bodies
    // good and bad.
    let endpoints: Vec<(&str, String, Option<Value>)> = vec![
        ("GET", "/api/operator/flags".into(), None),
        ("GET", "/api/operator/flags?page=999999".into(), None),
        (
            "POST",
            "/api/operator/flags/1".into(),
            Some(json!({"status": "dismissed", "note": ""})),
        ),
        (
            "POST",
            "/api/operator/flags/424242".into(),
            Some(json!({"status": "dismissed"})),
        ),
        ("POST", "/api/operator/flags/x".into(), Some(json!("no"))),
        ("GET", "/api/operator/reports".into(), None),
        ("GET", "/api/operator/suspensions".into(), None),
        (
            "POST",
            "/api/operator/suspensions".into(),
            Some(json!({"player": "cid", "scope": "rated", "reason": "x"})),
        ),
        (
            "POST",
            "/api/operator/suspensions".into(),
            Some(json!({"player": "nobody-here", "scope": "rated", "reason": "x"})),
        ),
        (
            "DELETE",
            format!("/api/operator/suspensions/{suspension}"),
            None,
        ),
        ("DELETE", "/api/operator/suspensions/424242".into(), None),
        ("GET", "/api/operator/log".into(), None),
        ("POST", "/api/operator/screen".into(), None),
        (
            "GET",
            format!("/api/operator/tables/{finished}/replay"),
            None,
        ),
        (
            "GET",
            format!("/api/operator/tables/{finished}/replay/0"),
            None,
        ),
        ("GET", "/api/operator/tables/nosuch42/replay".into(), None),
        ("GET", "/api/operator/tables/nosuch42/replay/3".into(), None),
    ];
    let refused =
        json!({"error": "only the server's operators may do that", "code": "not_operator"});
    let callers: [(&str, Option<&str>); 6] = [
        ("no session", None),
        (
            "a token that is no one's",
            Some("0123456789abcdef0123456789abcdef"),
        ),
        ("a guest", Some(&guest)),
        ("a guest with the operator's nickname", Some(&guest_boss)),
        ("an account", Some(&cid)),
        ("a suspended account", Some(&ane)),
    ];
    for (who, token) in callers {
        for (method, path, body) in &endpoints {
            let (code, answer) = server.api(method, path, token, body.clone());
            assert_eq!((code, &answer), (403, &refused), "{who}: {method} {path}");
        }
    }
    // Nothing of it changed anything: Ane is still suspended, Cid is not.
    let (_, me) = server.api("GET", "/api/me", Some(&ane), None);
    assert_eq!(me["suspension"]["scope"], "site", "{me}");
    let (_, me) = server.api("GET", "/api/me", Some(&cid), None);
    assert!(me.get("suspension").is_none(), "{me}");
    assert!(me.get("operator").is_none(), "{me}");
    // The operator reaches them (so the refusals above were not for want of a route).
    let (_, me) = server.api("GET", "/api/me", Some(&boss), None);
    assert_eq!(me["operator"], true, "{me}");
    for path in [
        "/api/operator/flags".to_string(),
        "/api/operator/reports".into(),
        "/api/operator/suspensions".into(),
        "/api/operator/log".into(),
        format!("/api/operator/tables/{finished}/replay"),
    ] {
        let (code, answer) = server.api("GET", &path, Some(&boss), None);
        assert_eq!(code, 200, "{path}: {answer}");
    }
    let (code, e) = server.api(
        "GET",
        "/api/operator/tables/nosuch42/replay",
        Some(&boss),
        None,
    );
    assert_eq!((code, &e["code"]), (404, &json!("table_not_found")), "{e}");
    let (code, e) = server.api(
        "DELETE",
        "/api/operator/suspensions/424242",
        Some(&boss),
        None,
    );
    assert_eq!(
        (code, &e["code"]),
        (404, &json!("suspension_not_found")),
        "{e}"
    );
}

#[test]
fn each_of_the_operators_actions_is_in_the_log() {
    let server = Server::start("operator-log", roomy());
    let (boss_id, boss) = server.account("boss");
    let (bea_id, _) = server.account("bea");
    let (cid_id, cid) = server.account("cid");
    let db = server.db.clone();
    drop(server);
    let ids = store_flags(
        &db,
        vec![flag(
            "mus",
            vec![bea_id, cid_id],
            FlagKind::Collusion,
            3.2,
            3,
        )],
    );
    let flag_id = ids[0].expect("stored");
    let server = Server::on_operated(db, roomy(), &["boss"]);
    let (table, _) = finished_ring(&server, &cid, true);

    let call = |method: &str, path: &str, body: Option<Value>| {
        let (code, v) = server.api(method, path, Some(&boss), body);
        assert_eq!(code, 200, "{method} {path}: {v}");
        v
    };
    call("GET", "/api/operator/flags", None);
    call(
        "POST",
        &format!("/api/operator/flags/{flag_id}"),
        Some(json!({"status": "dismissed", "note": "pareja de siempre, juegan bien"})),
    );
    call("GET", "/api/operator/reports", None);
    let s = call(
        "POST",
        "/api/operator/suspensions",
        Some(json!({"player": "bea", "scope": "rated", "reason": "ganancias regaladas"})),
    );
    let sid = s["id"].as_i64().unwrap();
    call("DELETE", &format!("/api/operator/suspensions/{sid}"), None);
    // A screen now: the finished game has one person, so nothing to read.
    let screened = call("POST", "/api/operator/screen", None);
    assert_eq!(
        (screened["games"].clone(), screened["flagged"].clone()),
        (json!(0), json!(0)),
        "{screened}"
    );
    call("GET", &format!("/api/operator/tables/{table}/replay"), None);
    call(
        "GET",
        &format!("/api/operator/tables/{table}/replay/1"),
        None,
    );
    call(
        "GET",
        &format!("/api/operator/tables/{table}/replay/2"),
        None,
    );

    let log = call("GET", "/api/operator/log", None);
    let rows: Vec<(String, String)> = log
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            assert_eq!(r["operator"]["id"], boss_id, "{r}");
            (
                r["action"].as_str().unwrap().to_string(),
                r["target"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let want: Vec<(String, String)> = [
        ("replay", table.clone()),
        ("screen", String::new()),
        ("lift", bea_id.to_string()),
        ("suspend", bea_id.to_string()),
        ("read_reports", String::new()),
        ("judge_flag", flag_id.to_string()),
        ("read_flags", String::new()),
    ]
    .into_iter()
    .map(|(a, t)| (a.to_string(), t))
    .collect();
    // Newest first; a replay read a step at a time is one line.
    assert_eq!(rows, want, "{log}");
    let judged = &log[5]["details"];
    assert_eq!(judged["status"], "dismissed", "{judged}");
    assert_eq!(judged["note"], "pareja de siempre, juegan bien", "{judged}");
    assert_eq!(log[3]["details"]["reason"], "ganancias regaladas");
    assert_eq!(log[1]["details"]["games"], 0, "{log}");
}

#[test]
fn a_suspension_keeps_its_account_from_what_it_covers_until_it_is_lifted() {
    let (server, boss, people) = operated("operator-suspend", &["ane", "bea"]);
    let (ane_id, ane) = (people[0].0, people[0].1.clone());
    let (bea_id, bea) = (people[1].0, people[1].1.clone());
    let suspend = |scope: &str, reason: &str| -> i64 {
        let (code, s) = server.api(
            "POST",
            "/api/operator/suspensions",
            Some(&boss),
            Some(json!({"player": "bea", "scope": scope, "reason": reason})),
        );
        assert_eq!(code, 200, "{s}");
        assert_eq!(s["player"]["id"], bea_id, "{s}");
        s["id"].as_i64().unwrap()
    };
    let lift = |id: i64| {
        let (code, s) = server.api(
            "DELETE",
            &format!("/api/operator/suspensions/{id}"),
            Some(&boss),
            None,
        );
        assert_eq!(code, 200, "{s}");
    };
    let table = |rated: bool| -> String {
        server.table(
            &ane,
            json!({"game": "ring", "seats": 3, "rated": rated, "pace_ms": 0, "hold_s": 0}),
        )
    };
    let make = |rated: bool| {
        server.api(
            "POST",
            "/api/tables",
            Some(&bea),
            Some(json!({"game": "ring", "seats": 2, "rated": rated})),
        )
    };
    let reason = "se deja ganar por su amigo en las partidas puntuables";
    // A game Bea finishes before any suspension: she asks for another later.
    let (played, _) = finished_ring(&server, &bea, false);
    let rated_only = suspend("rated", reason);
    // Bea reads her suspension and its reason.
    let (_, me) = server.api("GET", "/api/me", Some(&bea), None);
    assert_eq!(me["suspension"]["scope"], "rated", "{me}");
    assert_eq!(me["suspension"]["reason"], reason, "{me}");

    // No seat at a rated table, no rated table of her own...
    let rated = table(true);
    let mut ws = server.ws(&rated, Some(&bea));
    let e = sit(&mut ws, 1, bea_id);
    assert_eq!(e["code"], "suspended", "{e}");
    assert!(
        e["message"].as_str().is_some_and(|m| m.contains(reason)),
        "{e}"
    );
    let (code, e) = make(true);
    assert_eq!((code, &e["code"]), (403, &json!("suspended")), "{e}");
    assert!(e["error"].as_str().unwrap().contains(reason), "{e}");
    // ...nor a rated tournament; an unrated one is open to her.
    for (rated, want) in [(true, 403), (false, 200)] {
        let (code, t) = server.api(
            "POST",
            "/api/tournaments",
            Some(&ane),
            Some(
                json!({"name": "Liga", "game": "ring", "format": "swiss", "rounds": 1,
                        "rated": rated}),
            ),
        );
        assert_eq!(code, 200, "{t}");
        let id = t["id"].as_str().unwrap();
        let (code, e) = server.api(
            "POST",
            &format!("/api/tournaments/{id}/entries"),
            Some(&bea),
            Some(json!({})),
        );
        assert_eq!(code, want, "rated {rated}: {e}");
    }
    // But an unrated table seats her, and she chats.
    let unrated = table(false);
    let mut ws = server.ws(&unrated, Some(&bea));
    let s = sit(&mut ws, 1, bea_id);
    assert_eq!(s["type"], "state", "{s}");
    assert_eq!(make(false).0, 200);

    // From the whole site: no seat anywhere, no chat, no table, no tournament.
    lift(rated_only);
    let site = suspend("site", "insultos reiterados");
    let unrated2 = table(false);
    let mut ws = server.ws(&unrated2, Some(&bea));
    read_of(&mut ws, "chat_history");
    let e = sit(&mut ws, 1, bea_id);
    assert_eq!(e["code"], "suspended", "{e}");
    send(&mut ws, json!({"type": "chat", "text": "hola"}));
    let e = loop {
        let m = read(&mut ws).unwrap();
        if m["type"] == "error" || m["type"] == "chat" {
            break m;
        }
    };
    assert_eq!(e["code"], "suspended", "{e}");
    let (code, e) = make(false);
    assert_eq!((code, &e["code"]), (403, &json!("suspended")), "{e}");
    let (code, e) = server.api(
        "POST",
        "/api/tournaments",
        Some(&bea),
        Some(json!({"name": "Mía", "game": "ring", "format": "swiss", "rounds": 1})),
    );
    assert_eq!((code, &e["code"]), (403, &json!("suspended")), "{e}");
    let (code, e) = server.api(
        "POST",
        &format!("/api/tables/{played}/rematch"),
        Some(&bea),
        None,
    );
    assert_eq!((code, &e["code"]), (403, &json!("suspended")), "{e}");
    // She still logs in and reads why.
    let (code, s) = server.api(
        "POST",
        "/api/sessions",
        None,
        Some(json!({"nickname": "bea", "password": "sota de copas"})),
    );
    assert_eq!(code, 200, "{s}");
    let (_, me) = server.api("GET", "/api/me", s["token"].as_str(), None);
    assert_eq!(me["suspension"]["reason"], "insultos reiterados", "{me}");

    // Lifted: she sits again, at a rated table too.
    lift(site);
    let (_, me) = server.api("GET", "/api/me", Some(&bea), None);
    assert!(me.get("suspension").is_none(), "{me}");
    let s = sit(&mut ws, 1, bea_id);
    assert_eq!(s["type"], "state", "{s}");
    let mut ws = server.ws(&rated, Some(&bea));
    let s = sit(&mut ws, 1, bea_id);
    assert_eq!(s["type"], "state", "{s}");
    // Ane was never suspended.
    let _ = ane_id;
}

#[test]
fn the_operator_replays_a_private_game_whole_that_a_stranger_cannot_find() {
    let (server, boss, people) = operated("operator-replay", &["ane", "cid"]);
    let (ane, cid) = (people[0].1.clone(), people[1].1.clone());
    let (id, _) = finished_ring(&server, &ane, true);
    for path in [
        format!("/api/tables/{id}/replay"),
        format!("/api/tables/{id}/replay/0"),
    ] {
        let (code, e) = server.api("GET", &path, Some(&cid), None);
        assert_eq!(
            (code, &e["code"]),
            (404, &json!("table_not_found")),
            "{path}"
        );
    }
    let (code, r) = server.api(
        "GET",
        &format!("/api/operator/tables/{id}/replay"),
        Some(&boss),
        None,
    );
    assert_eq!(code, 200, "{r}");
    let steps = r["steps"].as_u64().unwrap();
    assert!(steps > 1, "{r}");
    assert_eq!(r["table"]["private"], true, "{r}");
    assert!(r["table"].get("invite").is_none(), "{r}");
    for n in 0..steps {
        let (code, step) = server.api(
            "GET",
            &format!("/api/operator/tables/{id}/replay/{n}"),
            Some(&boss),
            None,
        );
        assert_eq!(code, 200, "{step}");
        // Every seat's card, each hidden from the others while it was played.
        let cards = step["view"]["cards"].as_array().unwrap();
        assert_eq!(cards.len(), 2, "{step}");
        assert!(cards
            .iter()
            .all(|c| c.as_u64().is_some_and(|c| (1..=9).contains(&c))));
    }
    let (code, e) = server.api(
        "GET",
        &format!("/api/operator/tables/{id}/replay/{steps}"),
        Some(&boss),
        None,
    );
    assert_eq!((code, &e["code"]), (404, &json!("no_such_step")), "{e}");
    // A game still played is not replayed, even to the operator.
    let live = server.table(&ane, json!({"game": "ring", "seats": 2, "private": true}));
    let (code, e) = server.api(
        "GET",
        &format!("/api/operator/tables/{live}/replay"),
        Some(&boss),
        None,
    );
    assert_eq!((code, &e["code"]), (403, &json!("not_finished")), "{e}");
}

#[test]
fn flags_and_reports_reach_the_operator_without_a_card() {
    let server = Server::start("operator-cards", roomy());
    let (_, boss) = server.account("boss");
    let (ane_id, ane) = server.account("ane");
    let (bea_id, bea) = server.account("bea");
    let db = server.db.clone();
    drop(server);
    store_flags(
        &db,
        vec![
            flag("mus", vec![ane_id, bea_id], FlagKind::Collusion, 3.0, 30),
            flag("chinchon", vec![bea_id], FlagKind::SoftPlay, 2.7, 2),
        ],
    );
    let server = Server::on_operated(db, roomy(), &["boss"]);
    // Bea reports what Ane wrote at their table.
    let id = server.table(&ane, json!({"game": "ring", "seats": 2}));
    let mut a = server.ws(&id, Some(&ane));
    read_of(&mut a, "chat_history");
    let mut b = server.ws(&id, Some(&bea));
    read_of(&mut b, "chat_history");
    send(
        &mut a,
        json!({"type": "chat", "text": "sois unos paquetes"}),
    );
    let line = read_of(&mut b, "chat");
    send(&mut b, json!({"type": "report", "n": line["line"]["n"]}));
    read_of(&mut b, "chat_reported");

    let (code, reports) = server.api("GET", "/api/operator/reports", Some(&boss), None);
    assert_eq!(code, 200, "{reports}");
    let r = &reports[0];
    assert_eq!(r["text"], "sois unos paquetes", "{r}");
    assert_eq!(r["author"]["id"], ane_id, "{r}");
    assert_eq!(r["author"]["nickname"], "ane", "{r}");
    assert_eq!(r["reporter"]["nickname"], "bea", "{r}");
    assert_eq!(r["table"], id, "{r}");
    assert!(
        r["at"].as_i64().is_some() && r["written"].as_i64().is_some(),
        "{r}"
    );

    let (code, flags) = server.api("GET", "/api/operator/flags", Some(&boss), None);
    assert_eq!(code, 200, "{flags}");
    let list = flags.as_array().unwrap();
    assert_eq!(list.len(), 2, "{flags}");
    let mus = list.iter().find(|f| f["game"] == "mus").unwrap();
    assert_eq!(mus["evidence"].as_array().unwrap().len(), MAX_EVIDENCE);
    assert_eq!(
        mus["statistic"],
        json!({"z": 3.0, "gain": 0.12, "se": 0.04, "n": 321})
    );
    assert_eq!(mus["players"][0]["nickname"], "ane", "{mus}");
    assert_eq!(mus["status"], "open");
    let row = &mus["evidence"][0];
    assert_eq!(
        (&row["table"], &row["step"], &row["action"]),
        (&json!("abcdefgh"), &json!(1), &json!("descarto ? ?")),
        "{row}"
    );
    // The check finds the cards the screen wrote, and none reaches the operator.
    assert_eq!(
        cards_in("descarto 12o 1b; envido 2 holding 7♦ and 10H, partner's J"),
        ["12o", "1b", "7♦", "10H", "J"]
    );
    for (what, json) in [("flags", &flags), ("reports", &reports)] {
        let text = json.to_string();
        assert!(
            cards_in(&text).is_empty(),
            "{what}: {:?} in {text}",
            cards_in(&text)
        );
    }
}

#[test]
fn a_screen_s_flags_replace_the_open_ones_and_a_dismissed_one_stays_closed() {
    let dir = std::env::temp_dir().join(format!("tapete-flags-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = match std::env::var("TAPETE_TEST_PG") {
        Ok(base) if !base.is_empty() => crate::support::fresh_postgres(&base, "flags"),
        _ => dir.join("t.db"),
    };
    let rt = runtime();
    rt.block_on(async {
        let store = open_store(&db);
        let operator = store
            .create_guest(
                "boss".into(),
                "boss".into(),
                "boss".into(),
                "token-of-boss".into(),
                String::new(),
            )
            .await
            .unwrap()
            .unwrap();
        let open = |store: &Db| {
            let store = store.clone();
            async move {
                store
                    .flags(1)
                    .await
                    .unwrap()
                    .into_iter()
                    .filter(|f| f.status == FlagStatus::Open)
                    .map(|f| (f.id, f.game, f.kind, f.statistic.z))
                    .collect::<Vec<_>>()
            }
        };
        let ids = store
            .store_flags(vec![flag("mus", vec![9, 4], FlagKind::Collusion, 3.0, 1)])
            .await
            .unwrap();
        let first = ids[0].unwrap();
        // The same players in another order, and a lower z: it replaces the open one.
        let ids = store
            .store_flags(vec![flag(
                "mus",
                vec![4, 9, 4],
                FlagKind::Collusion,
                2.5,
                1,
            )])
            .await
            .unwrap();
        let second = ids[0].unwrap();
        assert_ne!(first, second);
        assert_eq!(
            open(&store).await,
            [(second, "mus".to_string(), FlagKind::Collusion, 2.5)]
        );
        // Dismissed: the same evidence again, or weaker, does not raise it again...
        let judged = store
            .judge_flag(second, FlagStatus::Dismissed, "no".into(), operator)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(judged.status, FlagStatus::Dismissed);
        assert_eq!(judged.decided_by.map(|p| p.id), Some(operator));
        for z in [2.5, 1.0] {
            let ids = store
                .store_flags(vec![flag("mus", vec![4, 9], FlagKind::Collusion, z, 1)])
                .await
                .unwrap();
            assert_eq!(ids, [None], "z {z}");
        }
        assert_eq!(open(&store).await, []);
        // ...a larger z does, beside the dismissed one; other games, kinds and players are
        // flags of their own.
        let ids = store
            .store_flags(vec![
                flag("mus", vec![4, 9], FlagKind::Collusion, 2.6, 1),
                flag("mus", vec![4, 9], FlagKind::WinTrading, 1.0, 1),
                flag("tikki", vec![4, 9], FlagKind::Collusion, 1.0, 1),
                flag("mus", vec![4], FlagKind::SoftPlay, 1.0, 1),
            ])
            .await
            .unwrap();
        assert!(ids.iter().all(Option::is_some), "{ids:?}");
        assert_eq!(open(&store).await.len(), 4);
        let all = store.flags(1).await.unwrap();
        assert_eq!(all.len(), 5);
        assert_eq!(all[4].status, FlagStatus::Dismissed, "the judged come last");
        // A flag that is no flag stops the whole call: nothing is stored.
        for bad in [
            flag("mus", vec![], FlagKind::Collusion, 5.0, 1),
            flag("mus", vec![1, 2], FlagKind::Collusion, f64::NAN, 1),
            flag("", vec![1, 2], FlagKind::Collusion, 5.0, 1),
            flag("mus", (1..=9).collect(), FlagKind::Collusion, 5.0, 1),
        ] {
            let r = store
                .store_flags(vec![
                    flag("mus", vec![7, 8], FlagKind::Collusion, 5.0, 1),
                    bad,
                ])
                .await;
            assert!(r.is_err(), "{r:?}");
        }
        assert_eq!(store.flags(1).await.unwrap().len(), 5);
        // What one flag keeps is bounded, its texts without cards.
        store
            .store_flags(vec![flag("mus", vec![1], FlagKind::Collusion, 4.0, 50)])
            .await
            .unwrap();
        let stored = store.flags(1).await.unwrap();
        let big = stored
            .iter()
            .find(|f| f.players.len() == 1 && f.players[0].id == 1);
        let big = big.unwrap();
        assert_eq!(big.evidence.len(), MAX_EVIDENCE);
        assert!(cards_in(&serde_json::to_string(&big.evidence).unwrap()).is_empty());
        store.close().await;
    });
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_operator_who_is_no_account_stops_the_server_at_start() {
    let server = Server::start("operator-nobody", roomy());
    server.account("boss");
    server.player("guest");
    let db = server.db.clone();
    drop(server);
    for operators in [vec!["NOBODY"], vec!["boss", "NOBODY"], vec!["guest"]] {
        let mut config =
            tapete_server::Config::new("127.0.0.1:0".parse().unwrap(), db.clone(), games());
        config.operators = operators.iter().map(|s| s.to_string()).collect();
        let mut started = false;
        let r = runtime().block_on(tapete_server::serve(config, |_, _| started = true, async {}));
        let e = r.expect_err("the server does not start");
        let named = operators.last().unwrap();
        assert!(
            e.contains(&format!("`{named}`")) && e.contains("no account"),
            "{operators:?}: {e}"
        );
        assert!(!started, "{operators:?}");
    }
    // Named as it is, or in another case, the account is found: the server starts.
    let server = Server::on_operated(db, roomy(), &["BOSS"]);
    let (code, _) = server.api("GET", "/api/games", None, None);
    assert_eq!(code, 200);
}
