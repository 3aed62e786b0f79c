//! Accounts: sign up (a guest keeps its id and games), log in from another device, log
//! out, sessions listed and ended (at most so many per account), a new password ending
//! the other sessions; unique nicknames with no look-alikes (accents and other scripts'
//! capitals too); failed logins bounded and telling nothing, a known device apart from
//! everyone else's; passwords and tokens never stored as such; a database of schema
//! version 4 upgraded in place.

use crate::support::{error_of, legal, read, read_of, roomy, send, Server};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tapete_server::Limits;

/// Makes an account; returns (id, token).
fn sign_up(server: &Server, nickname: &str, password: &str) -> (i64, String) {
    let (code, a) = server.api(
        "POST",
        "/api/accounts",
        None,
        Some(json!({"nickname": nickname, "password": password})),
    );
    assert_eq!(code, 200, "{a}");
    assert_eq!(a["nickname"], nickname);
    (
        a["id"].as_i64().unwrap(),
        a["token"].as_str().unwrap().to_string(),
    )
}

fn log_in(server: &Server, nickname: &str, password: &str) -> (u16, Value) {
    server.api(
        "POST",
        "/api/sessions",
        None,
        Some(json!({"nickname": nickname, "password": password})),
    )
}

/// A request with a `User-Agent`, answering status, `Retry-After` and body.
fn call(
    server: &Server,
    method: &str,
    path: &str,
    token: Option<&str>,
    agent: &str,
    body: Option<Value>,
) -> (u16, Option<String>, Value) {
    let auth = token.map(|t| format!("Bearer {t}"));
    let mut headers = vec![("User-Agent", agent)];
    headers.extend(auth.iter().map(|a| ("Authorization", a.as_str())));
    let r = tapete_loadtest::client::request(method, &server.url(path), &headers, body.as_ref())
        .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    let retry = r.header("Retry-After").map(String::from);
    (r.status, retry, r.json().unwrap_or(Value::Null))
}

fn me(server: &Server, token: &str) -> (u16, Value) {
    server.api("GET", "/api/me", Some(token), None)
}

/// Plays a ring table of two seats (one hand) against its bot to the end.
fn finish_a_game(server: &Server, token: &str) -> String {
    let id = server.table(
        token,
        json!({"game": "ring", "seats": 2, "rules": {"hands": 1}, "start": true,
               "pace_ms": 0, "hold_s": 0}),
    );
    let mut ws = server.ws(&id, Some(token));
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        assert!(Instant::now() < deadline, "the game took too long");
        let s = read_of(&mut ws, "state");
        if !s["outcome"].is_null() {
            return id;
        }
        if !legal(&s).is_empty() {
            send(&mut ws, json!({"type": "act", "action": "1", "id": s["n"]}));
        }
    }
}

#[test]
fn an_account_logs_in_anywhere_lists_its_sessions_and_logs_out() {
    let server = Server::start("accounts-basic", roomy());
    let firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
    let (code, _, a) = call(
        &server,
        "POST",
        "/api/accounts",
        None,
        firefox,
        Some(json!({"nickname": "Ane", "password": "mus y envido"})),
    );
    assert_eq!(code, 200, "{a}");
    let (id, home) = (a["id"].as_i64().unwrap(), a["token"].as_str().unwrap());
    assert_eq!(home.len(), 32, "128 bits in hex");
    assert_eq!(
        me(&server, home),
        (200, json!({"id": id, "nickname": "Ane", "account": true}))
    );

    // Another device: a new session of the same player, with another token. The nickname
    // is found whatever its case.
    let phone =
        "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36";
    let (code, _, b) = call(
        &server,
        "POST",
        "/api/sessions",
        None,
        phone,
        Some(json!({"nickname": "ANE", "password": "mus y envido"})),
    );
    assert_eq!(code, 200, "{b}");
    assert_eq!(b["id"], id);
    assert_eq!(b["nickname"], "Ane");
    let away = b["token"].as_str().unwrap();
    assert_ne!(away, home);
    assert_eq!(me(&server, away).1["id"], id);

    let (code, list) = server.api("GET", "/api/sessions", Some(away), None);
    assert_eq!(code, 200, "{list}");
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 2, "{list:?}");
    let agents: Vec<&str> = list.iter().map(|s| s["agent"].as_str().unwrap()).collect();
    assert!(agents.contains(&"Firefox · Linux") && agents.contains(&"Chrome · Android"));
    let current: Vec<&Value> = list.iter().filter(|s| s["current"] == true).collect();
    assert_eq!(current.len(), 1);
    assert_eq!(current[0]["agent"], "Chrome · Android");
    for s in list {
        assert!(s["created"].as_i64().unwrap() > 0 && s["last_used"].as_i64().unwrap() > 0);
    }

    // Logging out ends this session only.
    let (code, out) = server.api("DELETE", "/api/sessions/current", Some(away), None);
    assert_eq!(code, 200, "{out}");
    let (code, e) = me(&server, away);
    assert_eq!(code, 401, "{e}");
    assert_eq!(me(&server, home).0, 200);
    let (code, list) = server.api("GET", "/api/sessions", Some(home), None);
    assert_eq!((code, list.as_array().unwrap().len()), (200, 1));

    // Bad passwords: too short, too long.
    for (nick, pw) in [("Short", "1234567".to_string()), ("Long", "x".repeat(257))] {
        let (code, e) = server.api(
            "POST",
            "/api/accounts",
            None,
            Some(json!({"nickname": nick, "password": pw})),
        );
        assert_eq!(code, 400, "{e}");
        assert!(error_of(&e).contains("password"), "{e}");
    }
}

#[test]
fn a_guest_who_makes_an_account_keeps_its_id_games_and_tables() {
    let server = Server::start("accounts-guest", roomy());
    let (id, guest) = server.player_with_id("ane");
    let finished = finish_a_game(&server, &guest);
    let open = server.table(&guest, json!({"game": "mus"}));
    assert_eq!(me(&server, &guest).1["account"], false);

    // A guest cannot log out: its token is its only key.
    let (code, e) = server.api("DELETE", "/api/sessions/current", Some(&guest), None);
    assert_eq!(code, 409, "{e}");
    assert_eq!(me(&server, &guest).0, 200);

    let (code, a) = server.api(
        "POST",
        "/api/accounts",
        Some(&guest),
        Some(json!({"nickname": "Ane", "password": "sota de oros"})),
    );
    assert_eq!(code, 200, "{a}");
    assert_eq!(a["id"], id);
    assert_eq!(a["token"], guest, "the guest's token goes on");
    assert_eq!(
        me(&server, &guest).1,
        json!({"id": id, "nickname": "Ane", "account": true})
    );
    // Twice is refused.
    let (code, e) = server.api(
        "POST",
        "/api/accounts",
        Some(&guest),
        Some(json!({"nickname": "Ane2", "password": "sota de oros"})),
    );
    assert_eq!(code, 409, "{e}");

    // From another device: the same player, the same history, the same open table.
    let (code, s) = log_in(&server, "ane", "sota de oros");
    assert_eq!(code, 200, "{s}");
    assert_eq!(s["id"], id);
    let other = s["token"].as_str().unwrap();
    let (code, games) = server.api(
        "GET",
        &format!("/api/players/{id}/games"),
        Some(other),
        None,
    );
    assert_eq!(code, 200);
    assert_eq!(games[0]["table"], finished.as_str(), "{games}");
    let (code, t) = server.api("GET", &format!("/api/tables/{open}"), None, None);
    assert_eq!(code, 200);
    assert_eq!(t["seats"][0]["player"]["id"], id, "{t}");
    // The open table shows the account's name ("Ane", no longer the guest's "ane").
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let (_, t) = server.api("GET", &format!("/api/tables/{open}"), None, None);
        if t["seats"][0]["player"]["nickname"] == "Ane" {
            break;
        }
        assert!(Instant::now() < deadline, "the table still says {t}");
        std::thread::sleep(Duration::from_millis(20));
    }
    // An unknown token is not a guest to upgrade.
    let (code, e) = server.api(
        "POST",
        "/api/accounts",
        Some("00000000000000000000000000000000"),
        Some(json!({"nickname": "Nadie", "password": "sota de oros"})),
    );
    assert_eq!(code, 401, "{e}");
}

#[test]
fn account_nicknames_are_unique_without_case_width_or_look_alikes() {
    let server = Server::start("accounts-unique", roomy());
    sign_up(&server, "mikel", "12345678");
    sign_up(&server, "Ane", "12345678");
    for taken in [
        "mikel",
        "MIKEL",
        "Mikel",
        "ｍｉｋｅｌ",
        "rnikel",
        "Аne",
        "ANE",
    ] {
        let (code, e) = server.api(
            "POST",
            "/api/accounts",
            None,
            Some(json!({"nickname": taken, "password": "12345678"})),
        );
        assert_eq!(code, 409, "{taken}: {e}");
        assert!(error_of(&e).contains("choose another"), "{e}");
        assert_eq!(e["code"], "nickname_taken", "{e}");
        // Nor may a guest take it.
        let (code, e) = server.api(
            "POST",
            "/api/players",
            None,
            Some(json!({"nickname": taken})),
        );
        assert_eq!(code, 409, "guest {taken}: {e}");
    }
    // Look-alikes that the key alone let by: accents, and capitals of other scripts that
    // look like Latin ones once the key has folded them into other letters.
    sign_up(&server, "victim", "12345678");
    for taken in [
        "victím",
        "Víctim",
        "VІСТІМ",
        "vісtіm",
        "νictim",
        "vi\u{0301}ctim",
    ] {
        for (path, body) in [
            (
                "/api/accounts",
                json!({"nickname": taken, "password": "12345678"}),
            ),
            ("/api/players", json!({ "nickname": taken })),
        ] {
            let (code, e) = server.api("POST", path, None, Some(body));
            assert_eq!(code, 409, "{path} {taken}: {e}");
            assert_eq!(e["code"], "nickname_taken", "{e}");
        }
    }
    // Other nicknames are free, for accounts and guests; guests may share theirs.
    sign_up(&server, "Mikela", "12345678");
    server.player("Jon");
    server.player("Jon");
    sign_up(&server, "Ana", "12345678");
}

#[test]
fn accounts_that_look_alike_from_before_both_go_on() {
    // Two accounts whose nicknames look alike, as a database from before looks were kept
    // could hold them: `victim` and `victím` (made here as `Otro`, then renamed in the
    // file, with the login key its nickname makes, and no looks kept at all).
    let server = Server::start_file("accounts-old-looks", roomy());
    sign_up(&server, "victim", "sota de oros");
    sign_up(&server, "Otro", "caballo de copas");
    let db = server.db.clone();
    drop(server);
    let c = rusqlite::Connection::open(&db).unwrap();
    c.execute(
        "UPDATE players SET nickname = 'victím' WHERE nickname = 'Otro'",
        [],
    )
    .unwrap();
    c.execute(
        "UPDATE accounts SET nick_key = ?1 WHERE nick_key = 'otro'",
        ["victi\u{301}rn"],
    )
    .unwrap();
    c.execute("DELETE FROM nickname_looks", []).unwrap();
    drop(c);

    // The server starts, gives both their look, and both log in as before.
    let server = Server::on(db.clone(), roomy());
    assert_eq!(log_in(&server, "victim", "sota de oros").0, 200);
    let (code, s) = log_in(&server, "victím", "caballo de copas");
    assert_eq!(code, 200, "{s}");
    assert_eq!(s["nickname"], "victím");
    // A third that looks like them is refused.
    let (code, e) = server.api(
        "POST",
        "/api/accounts",
        None,
        Some(json!({"nickname": "VICTÍM", "password": "rey de espadas"})),
    );
    assert_eq!(
        (code, e["code"].as_str()),
        (409, Some("nickname_taken")),
        "{e}"
    );
    drop(server);
    let c = rusqlite::Connection::open(&db).unwrap();
    let looks: i64 = c
        .query_row(
            "SELECT count(DISTINCT player) FROM nickname_looks",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(looks, 2);
}

#[test]
fn a_failed_login_never_says_whether_the_nickname_exists() {
    let server = Server::start(
        "accounts-enum",
        Limits {
            failed_logins_per_account: 100,
            failed_logins_per_addr: 100,
            ..roomy()
        },
    );
    sign_up(&server, "Ane", "buena contraseña");
    server.player("Guest"); // a guest has no password to log in with
    let wrong = log_in(&server, "Ane", "mala contraseña");
    let unknown = log_in(&server, "Nadie", "mala contraseña");
    let guest = log_in(&server, "Guest", "mala contraseña");
    assert_eq!(wrong.0, 401, "{}", wrong.1);
    assert_eq!(wrong, unknown);
    assert_eq!(wrong, guest);

    // An unknown nickname pays a hash too, so it takes about as long as a wrong password:
    // without one it would answer tens of times faster. (The fastest of a few tries each,
    // taken in turns; a hash's own time varies about twofold with the memory it is given.)
    let (mut known, mut nobody) = (Duration::MAX, Duration::MAX);
    for _ in 0..6 {
        for (nick, best) in [("Ane", &mut known), ("Nadie", &mut nobody)] {
            let t = Instant::now();
            assert_eq!(log_in(&server, nick, "mala contraseña").0, 401);
            *best = (*best).min(t.elapsed());
        }
    }
    println!("a wrong password: {known:?}; an unknown nickname: {nobody:?}");
    assert!(
        nobody * 4 >= known,
        "an unknown nickname answers in {nobody:?}, a wrong password in {known:?}"
    );
}

#[test]
fn failed_logins_are_bounded_per_account_and_per_address() {
    // Paused time: the wait is checked to the second.
    let server = Server::start_paused(
        "accounts-brute",
        Limits {
            failed_logins_per_account: 3,
            failed_logins_per_addr: 100,
            ..roomy()
        },
    );
    sign_up(&server, "Ane", "buena contraseña");
    for _ in 0..3 {
        assert_eq!(log_in(&server, "Ane", "mala contraseña").0, 401);
    }
    let (code, retry, e) = call(
        &server,
        "POST",
        "/api/sessions",
        None,
        "test",
        Some(json!({"nickname": "ane", "password": "mala contraseña"})),
    );
    assert_eq!(code, 429, "{e}");
    let wait = e["retry_after"].as_u64().unwrap();
    assert!((1..=60).contains(&wait), "{e}");
    assert_eq!(retry, Some(wait.to_string()));
    assert!(
        error_of(&e).contains(&format!("try again in {wait} s")),
        "{e}"
    );
    // While it waits, even the right password waits; another nickname does not.
    assert_eq!(log_in(&server, "Ane", "buena contraseña").0, 429);
    assert_eq!(log_in(&server, "Jon", "mala contraseña").0, 401);
    // An unknown nickname is limited the same way (nothing told by the limit either).
    for _ in 0..3 {
        assert_eq!(log_in(&server, "Nadie", "mala contraseña").0, 401);
    }
    assert_eq!(log_in(&server, "Nadie", "mala contraseña").0, 429);
    // The wait it names is the wait: a second short of it, refused still; then the right
    // password logs in.
    server.advance(Duration::from_secs(wait - 1));
    assert_eq!(log_in(&server, "Ane", "buena contraseña").0, 429);
    server.advance(Duration::from_secs(1));
    assert_eq!(log_in(&server, "Ane", "buena contraseña").0, 200);
    drop(server);

    let server = Server::start(
        "accounts-brute-addr",
        Limits {
            failed_logins_per_account: 100,
            failed_logins_per_addr: 3,
            ..roomy()
        },
    );
    sign_up(&server, "Ane", "buena contraseña");
    for nick in ["a", "b", "c"] {
        assert_eq!(log_in(&server, nick, "mala contraseña").0, 401);
    }
    let (code, retry, e) = call(
        &server,
        "POST",
        "/api/sessions",
        None,
        "test",
        Some(json!({"nickname": "Ane", "password": "buena contraseña"})),
    );
    assert_eq!(code, 429, "{e}");
    assert!(error_of(&e).contains("from your address"), "{e}");
    assert!(retry.is_some());
}

/// A login as `nickname` with `password`, from a browser holding `device` (if any).
fn log_in_from(
    server: &Server,
    nickname: &str,
    password: &str,
    device: Option<&str>,
) -> (u16, Value) {
    let mut body = json!({"nickname": nickname, "password": password});
    if let Some(d) = device {
        body["device"] = json!(d);
    }
    server.api("POST", "/api/sessions", None, Some(body))
}

#[test]
fn a_stranger_polling_wrong_passwords_never_shuts_out_the_owners_known_device() {
    let server = Server::start(
        "accounts-devices",
        Limits {
            failed_logins_per_account: 3,
            failed_logins_per_addr: 1000,
            failed_logins_per_device: 2,
            wrong_passwords_per_session: 2,
            ..roomy()
        },
    );
    // The browser that made the account is one it knows; so is one that logged in.
    let (code, a) = server.api(
        "POST",
        "/api/accounts",
        None,
        Some(json!({"nickname": "Ane", "password": "sota de oros"})),
    );
    assert_eq!(code, 200, "{a}");
    let mut session = a["token"].as_str().unwrap().to_string();
    let mut device = a["device"].as_str().expect("a device token").to_string();
    let (code, b) = server.api(
        "POST",
        "/api/accounts",
        None,
        Some(json!({"nickname": "Bea", "password": "caballo de copas"})),
    );
    assert_eq!(code, 200, "{b}");
    let beas_device = b["device"].as_str().unwrap().to_string();

    // A stranger polls wrong passwords, twelve of them; the owner logs in from her device
    // after every third, and every time she is let in.
    let (mut tries, mut refused, mut owner_in) = (0, 0, 0);
    while tries < 12 {
        let (code, e) = log_in_from(&server, "Ane", "a guess", None);
        tries += 1;
        match code {
            401 => {}
            429 => {
                assert_eq!(e["code"], "login_throttled", "{e}");
                refused += 1;
            }
            _ => panic!("{code}: {e}"),
        }
        if tries % 3 == 0 {
            let (code, s) = log_in_from(&server, "Ane", "sota de oros", Some(&device));
            assert_eq!(code, 200, "the owner's known device is let in: {s}");
            // Each login gives the device a fresh token (the same device).
            device = s["device"].as_str().unwrap().to_string();
            session = s["token"].as_str().unwrap().to_string();
            owner_in += 1;
        }
    }
    assert!(tries > 6 && refused >= tries - 3, "{refused} of {tries}");
    println!("the stranger: {refused} of {tries} refused; the owner let in {owner_in} times");

    // Anyone else is shut out for that nickname: the owner on a new device too, and a
    // device token of another account's counts as no device.
    for d in [None, Some(beas_device.as_str()), Some("d1.forged.0.0")] {
        let (code, e) = log_in_from(&server, "Ane", "sota de oros", d);
        assert_eq!(code, 429, "{d:?}: {e}");
        assert_eq!(e["code"], "login_throttled");
        assert!(e["retry_after"].as_u64().is_some(), "{e}");
    }
    // Bea's account is not touched by Ane's attacker.
    assert_eq!(log_in_from(&server, "Bea", "caballo de copas", None).0, 200);

    // A new password, during the attack: the account's failed logins do not stop it.
    let change = |token: &str, old: &str, new: &str| {
        server.api(
            "POST",
            "/api/me/password",
            Some(token),
            Some(json!({"old": old, "new": new})),
        )
    };
    let (code, r) = change(&session, "sota de oros", "rey de espadas");
    assert_eq!(code, 200, "{r}");
    // Its own wrong tries are bounded, per session.
    for _ in 0..2 {
        assert_eq!(change(&session, "a guess", "as de bastos").0, 403);
    }
    let (code, e) = change(&session, "rey de espadas", "as de bastos");
    assert_eq!(code, 429, "{e}");
    assert_eq!(e["code"], "login_throttled");

    // A known device has a small budget of its own: its own failures spend it.
    for _ in 0..2 {
        assert_eq!(log_in_from(&server, "Ane", "a guess", Some(&device)).0, 401);
    }
    let (code, e) = log_in_from(&server, "Ane", "rey de espadas", Some(&device));
    assert_eq!(code, 429, "{e}");
    assert!(error_of(&e).contains("from this device"), "{e}");
}

#[test]
fn an_account_holds_so_many_sessions_and_a_new_login_ends_the_least_used() {
    let server = Server::start(
        "accounts-sessions",
        Limits {
            sessions_per_account: 4,
            ..roomy()
        },
    );
    let (_, first) = sign_up(&server, "Ane", "sota de oros");
    let tokens: Vec<String> = (0..6)
        .map(|_| {
            let (code, s) = log_in(&server, "Ane", "sota de oros");
            assert_eq!(code, 200, "{s}");
            s["token"].as_str().unwrap().to_string()
        })
        .collect();
    let (code, list) = server.api("GET", "/api/sessions", Some(&tokens[5]), None);
    assert_eq!(code, 200);
    assert_eq!(list.as_array().unwrap().len(), 4, "{list}");
    // The four newest go on; the first three (sign-up's and two logins) ended.
    for t in &tokens[2..] {
        assert_eq!(me(&server, t).0, 200);
    }
    for t in [&first, &tokens[0], &tokens[1]] {
        assert_eq!(me(&server, t).0, 401);
    }
}

#[test]
fn the_database_holds_hashes_never_passwords_or_tokens() {
    let server = Server::start_file("accounts-bytes", roomy());
    let password = "Contraseña-Muy-Secreta-7";
    let (_, token) = sign_up(&server, "Ane", password);
    let (_, guest) = server.player_with_id("Jon");
    let (code, s) = log_in(&server, "Ane", password);
    assert_eq!(code, 200);
    let other = s["token"].as_str().unwrap().to_string();
    let db = server.db.clone();
    drop(server);
    let mut bytes = Vec::new();
    for suffix in ["", "-wal"] {
        let mut name = db.clone().into_os_string();
        name.push(suffix);
        if let Ok(b) = std::fs::read(PathBuf::from(name)) {
            bytes.extend(b);
        }
    }
    let has = |needle: &str| bytes.windows(needle.len()).any(|w| w == needle.as_bytes());
    assert!(has("$argon2id$v=19$m=19456,t=2,p=1$"), "the hash is stored");
    for secret in [password, &token, &guest, &other] {
        assert!(!has(secret), "`{secret}` is in the database file");
    }
}

#[test]
fn a_new_password_ends_every_other_session() {
    let server = Server::start("accounts-password", roomy());
    let (_, here) = sign_up(&server, "Ane", "primera clave");
    let there = log_in(&server, "Ane", "primera clave").1["token"]
        .as_str()
        .unwrap()
        .to_string();
    let change = |old: &str, new: &str| {
        server.api(
            "POST",
            "/api/me/password",
            Some(&here),
            Some(json!({"old": old, "new": new})),
        )
    };
    let (code, e) = change("otra clave", "segunda clave");
    assert_eq!(code, 403, "{e}");
    let (code, e) = change("primera clave", "corta");
    assert_eq!(code, 400, "{e}");
    assert_eq!(me(&server, &there).0, 200, "nothing changed yet");

    let (code, r) = change("primera clave", "segunda clave");
    assert_eq!(code, 200, "{r}");
    assert_eq!(me(&server, &here).0, 200, "this session goes on");
    assert_eq!(me(&server, &there).0, 401, "the other one ended");
    assert_eq!(log_in(&server, "Ane", "primera clave").0, 401);
    assert_eq!(log_in(&server, "Ane", "segunda clave").0, 200);

    // A guest has no password to change.
    let guest = server.player("Jon");
    let (code, e) = server.api(
        "POST",
        "/api/me/password",
        Some(&guest),
        Some(json!({"old": "12345678", "new": "87654321"})),
    );
    assert_eq!(code, 403, "{e}");
}

#[test]
fn an_ended_session_is_refused_on_the_api_and_the_websocket() {
    let server = Server::start("accounts-revoke", roomy());
    let (_, here) = sign_up(&server, "Ane", "primera clave");
    let (_, s) = log_in(&server, "Ane", "primera clave");
    let there = s["token"].as_str().unwrap().to_string();
    let table = server.table(&here, json!({"game": "mus"}));
    let mut ws = server.ws(&table, Some(&there));
    let _ = read_of(&mut ws, "state");

    let (_, list) = server.api("GET", "/api/sessions", Some(&here), None);
    let theirs = list
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["current"] == false)
        .unwrap()["id"]
        .as_i64()
        .unwrap();
    let (code, e) = server.api("DELETE", "/api/sessions/999999", Some(&here), None);
    assert_eq!(code, 404, "{e}");
    let (code, r) = server.api(
        "DELETE",
        &format!("/api/sessions/{theirs}"),
        Some(&here),
        None,
    );
    assert_eq!(code, 200, "{r}");

    // The open connection is told and closed.
    loop {
        match read(&mut ws) {
            Some(m) if m["type"] == "error" => {
                assert!(m["message"].as_str().unwrap().contains("ended"), "{m}");
            }
            Some(_) => {}
            None => break,
        }
    }
    assert_eq!(me(&server, &there).0, 401);
    let url = format!("ws://{}/ws/{table}?token={there}", server.addr);
    match tungstenite::connect(url) {
        Err(tungstenite::Error::Http(r)) => assert_eq!(r.status(), 401),
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("an ended session's token opened a table"),
    }
    // The session that ended it goes on, on both.
    assert_eq!(me(&server, &here).0, 200);
    let mut ws = server.ws(&table, Some(&here));
    let _ = read_of(&mut ws, "state");
}

#[test]
fn password_hashing_is_bounded_and_answers_busy_beyond() {
    let server = Server::start(
        "accounts-busy",
        Limits {
            password_hashes: 1,
            password_queue: 0,
            failed_logins_per_addr: 1000,
            failed_logins_per_account: 1000,
            ..roomy()
        },
    );
    sign_up(&server, "Ane", "buena contraseña");
    let n = 8;
    let barrier = std::sync::Barrier::new(n);
    let codes: Vec<(u16, Option<String>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..n)
            .map(|_| {
                s.spawn(|| {
                    barrier.wait();
                    let (code, retry, _) = call(
                        &server,
                        "POST",
                        "/api/sessions",
                        None,
                        "test",
                        Some(json!({"nickname": "Ane", "password": "mala contraseña"})),
                    );
                    (code, retry)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(codes.iter().any(|(c, _)| *c == 401), "{codes:?}");
    assert!(
        codes.iter().any(|(c, r)| *c == 503 && r.is_some()),
        "one hash at a time and no queue: the others are busy ({codes:?})"
    );
    assert!(
        codes.iter().all(|(c, _)| *c == 401 || *c == 503),
        "{codes:?}"
    );
}

/// A copy of `tests/data/v4-guests.db`, made by `serve` before accounts (schema version
/// 4): guests Ane (1) and mikel (2), a finished ring game of both, an open Mus table of
/// mikel's.
fn copy_of_v4(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tapete-v4-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("v4.db");
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/v4-guests.db");
    std::fs::copy(&fixture, &db).expect("the fixture tests/data/v4-guests.db is there");
    db
}

#[test]
fn a_database_from_before_accounts_upgrades_and_its_guests_go_on() {
    use crate::support::stored::stored_version;
    const ANE: &str = "b7fcbd65b513cf5d60a82ad630a1c790";
    const MIKEL: &str = "b7a26ab9bb18c744ca7698bef726c0a8";
    let sqlite = copy_of_v4("guests");
    assert_eq!(
        stored_version(&sqlite),
        4,
        "the fixture is a version 4 database"
    );
    // On PostgreSQL too, when the tests run there: written at version 4, rows and all.
    let db = crate::support::stored::on_test_database(&sqlite, "v4-guests");

    let server = Server::on(db.clone(), roomy());
    assert_eq!(
        me(&server, ANE),
        (200, json!({"id": 1, "nickname": "Ane", "account": false}))
    );
    assert_eq!(me(&server, MIKEL).1["id"], 2);
    let (_, games) = server.api("GET", "/api/players/1/games", None, None);
    assert_eq!(games[0]["table"], "yruhghpv", "{games}");
    assert_eq!(games[0]["players"], json!(["Ane", "mikel"]));
    let (code, list) = server.api("GET", "/api/sessions", Some(ANE), None);
    assert_eq!((code, list.as_array().unwrap().len()), (200, 1), "{list}");

    // mikel makes an account of his guest, and finds his open table from a new device.
    let (code, a) = server.api(
        "POST",
        "/api/accounts",
        Some(MIKEL),
        Some(json!({"nickname": "Mikel", "password": "as de bastos"})),
    );
    assert_eq!(code, 200, "{a}");
    assert_eq!(a["id"], 2);
    drop(server);

    // And it all holds after a restart, on a database now of this version.
    let server = Server::on(db.clone(), roomy());
    let (code, s) = log_in(&server, "mikel", "as de bastos");
    assert_eq!(code, 200, "{s}");
    assert_eq!(s["id"], 2);
    let (code, t) = server.api("GET", "/api/tables/2awmkpkh", None, None);
    assert_eq!(code, 200);
    assert_eq!(t["seats"][0]["player"]["id"], 2, "{t}");
    assert_eq!(me(&server, ANE).1["nickname"], "Ane");
    assert_eq!(me(&server, MIKEL).1["account"], true);
    drop(server);
    assert_eq!(stored_version(&db), tapete_server::store::SCHEMA_VERSION);
}
