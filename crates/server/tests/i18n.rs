//! The pages the server writes speak the person's language (the switch's cookie, else the
//! browser's `Accept-Language`, else English; a rules page also `?lang=`), and every error a
//! person meets carries a stable `code` the pages turn into their own words.

use crate::support::{legal, read_of, send, state_until, Server};
use serde_json::{json, Value};
use tapete_server::Limits;

/// A page's status and HTML, asked with these headers.
fn page(server: &Server, path: &str, headers: &[(&str, &str)]) -> (u16, String) {
    let r = tapete_loadtest::client::request("GET", &server.url(path), headers, None)
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    (r.status, r.text())
}

#[test]
fn the_rules_pages_speak_the_language_the_person_asks_for() {
    let server = Server::start("i18n-rules", Limits::default());
    let es = [("Accept-Language", "es-ES,es;q=0.9,en;q=0.8")];
    for game in ["mus", "chinchon", "tikki", "solitaire"] {
        let path = format!("/rules/{game}");
        let (code, html) = page(&server, &path, &es);
        assert_eq!(code, 200, "{path}");
        assert!(html.contains("<html lang=\"es\">"), "{path}: {html}");
        assert!(html.contains("Cómo se juega"), "{path}");
        assert!(
            html.contains(&format!("href=\"/rules/{game}?lang=en\"")),
            "{path}"
        );
        // The English page, by default and when asked.
        let (_, en) = page(&server, &path, &[]);
        assert!(
            en.contains("<html lang=\"en\">") && en.contains("How to play"),
            "{path}"
        );
        assert!(
            en.contains(&format!("href=\"/rules/{game}?lang=es\"")),
            "{path}"
        );
        let (_, asked) = page(&server, &format!("{path}?lang=en"), &es);
        assert!(asked.contains("<html lang=\"en\">"), "{path}?lang=en");
        assert_ne!(html, en, "{path}: the Spanish rules are the English ones");
        // The Spanish page's links within itself lead somewhere.
        for part in html.split("href=\"#").skip(1) {
            let anchor = part.split('"').next().unwrap();
            assert!(
                html.contains(&format!("id=\"{anchor}\"")),
                "{path}: #{anchor}"
            );
        }
    }
    // The switch's cookie wins over the browser's languages, both ways.
    let (_, html) = page(
        &server,
        "/rules/mus",
        &[
            ("Accept-Language", "es-ES"),
            ("Cookie", "x=1; tapete.lang=en"),
        ],
    );
    assert!(html.contains("<html lang=\"en\">"), "{html}");
    let (_, html) = page(
        &server,
        "/rules/mus",
        &[("Accept-Language", "en-US"), ("Cookie", "tapete.lang=es")],
    );
    assert!(html.contains("<html lang=\"es\">"), "{html}");
    // A language tapete does not speak is English.
    let (_, html) = page(&server, "/rules/mus?lang=fr", &[("Accept-Language", "de")]);
    assert!(html.contains("<html lang=\"en\">"), "{html}");
}

#[test]
fn the_not_found_page_speaks_the_language_the_person_asks_for() {
    let server = Server::start("i18n-404", Limits::default());
    for path in ["/nothing", "/rules/nothing"] {
        let (code, html) = page(&server, path, &[("Accept-Language", "es")]);
        assert_eq!(code, 404);
        assert!(
            html.contains("<html lang=\"es\">") && html.contains("Esta página no existe"),
            "{html}"
        );
        let (_, html) = page(&server, path, &[("Cookie", "tapete.lang=es")]);
        assert!(html.contains("Esta página no existe"), "{html}");
        let (_, html) = page(
            &server,
            path,
            &[("Accept-Language", "es"), ("Cookie", "tapete.lang=en")],
        );
        assert!(
            html.contains("<html lang=\"en\">") && html.contains("No such page"),
            "{html}"
        );
    }
}

#[test]
fn api_errors_carry_a_stable_code_beside_their_sentence() {
    let server = Server::start(
        "i18n-codes",
        Limits {
            creates_per_minute: 3,
            ..Limits::default()
        },
    );
    let check = |(status, v): (u16, Value), want_status: u16, code: &str| {
        assert_eq!(status, want_status, "{v}");
        assert_eq!(v["code"], code, "{v}");
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
    };
    let nick = |n: &str| server.api("POST", "/api/players", None, Some(json!({ "nickname": n })));
    check(nick("   "), 400, "nickname_empty");
    check(nick(&"x".repeat(25)), 400, "nickname_too_long");
    check(nick("a\u{200B}b"), 400, "nickname_invalid");
    check(
        server.api("GET", "/api/tables/nope", None, None),
        404,
        "table_not_found",
    );
    check(
        server.api("GET", "/api/nothing", None, None),
        404,
        "not_found",
    );
    check(
        server.api("GET", "/api/me", Some("nope"), None),
        401,
        "unknown_token",
    );
    // The fourth creation in a minute from one address is refused.
    let _ = nick("Ane");
    check(nick("Bea"), 429, "rate_limited");
}

#[test]
fn every_refusal_of_accounts_and_tables_has_a_code_of_its_own() {
    let server = Server::start("i18n-refusals", Limits::default());
    let check = |(status, v): (u16, Value), want_status: u16, code: &str| {
        assert_eq!(
            (status, v["code"].as_str()),
            (want_status, Some(code)),
            "{v}"
        );
    };
    let account = |n: &str, p: &str| {
        server.api(
            "POST",
            "/api/accounts",
            None,
            Some(json!({ "nickname": n, "password": p })),
        )
    };
    let (status, _) = account("Zorro", "una contraseña larga");
    assert_eq!(status, 200);
    // Taken, also by a nickname that only looks the same.
    check(
        account("Zorro", "otra contraseña larga"),
        409,
        "nickname_taken",
    );
    check(
        account("ZORRO", "otra contraseña larga"),
        409,
        "nickname_taken",
    );
    check(account("Lince", "corta"), 400, "password_too_short");
    let login = |n: &str, p: &str| {
        server.api(
            "POST",
            "/api/sessions",
            None,
            Some(json!({ "nickname": n, "password": p })),
        )
    };
    check(login("Zorro", "no es esta"), 401, "wrong_login");
    check(login("NoExiste", "no es esta"), 401, "wrong_login");
    let ane = server.player("Ane");
    let table = |rules: Value| server.api("POST", "/api/tables", Some(&ane), Some(rules));
    check(table(json!({"game": "parchis"})), 400, "unknown_game");
    check(
        table(json!({"game": "mus", "bot": "nadie"})),
        400,
        "bot_not_found",
    );
    check(
        table(json!({"game": "mus", "seats": 3})),
        400,
        "bad_options",
    );
    check(
        table(json!({"game": "mus", "pace_ms": 999_999})),
        400,
        "bad_options",
    );
    check(
        table(json!({"game": "mus", "rules": {"target": 7}})),
        400,
        "bad_options",
    );
    check(
        server.api(
            "POST",
            "/api/friends",
            Some(&ane),
            Some(json!({"nickname": "x"})),
        ),
        403,
        "friends_account_only",
    );
}

#[test]
fn table_refusals_carry_a_stable_code_beside_their_sentence() {
    let server = Server::start("i18n-ws", Limits::default());
    let ane = server.player("Ane");
    let bea = server.player("Bea");
    let id = server.table(&ane, json!({"game": "mus", "seat": 0, "pace_ms": 5000}));
    let mut wa = server.ws(&id, Some(&ane));
    let mut wb = server.ws(&id, Some(&bea));
    let refusal = |ws: &mut _, msg: Value| {
        send(ws, msg);
        read_of(ws, "error")
    };
    let e = refusal(&mut wa, json!({"type": "act", "action": "paso", "id": 1}));
    assert_eq!(e["code"], "not_started", "{e}");
    let e = refusal(&mut wb, json!({"type": "sit", "seat": 0}));
    assert_eq!(e["code"], "seat_taken", "{e}");
    assert!(e["message"].as_str().unwrap().contains("taken"), "{e}");
    let e = refusal(&mut wb, json!({"type": "sit", "seat": 9}));
    assert_eq!(e["code"], "no_such_seat", "{e}");
    send(&mut wa, json!({"type": "start"}));
    // Ane is mano: first to speak; a lance's word is not legal before the mus is cut.
    let st = state_until(&mut wa, |s| !legal(s).is_empty());
    assert!(legal(&st).contains(&"mus".to_string()), "{st}");
    let e = refusal(&mut wa, json!({"type": "act", "action": "quiero", "id": 2}));
    assert_eq!(e["code"], "illegal_action", "{e}");
    send(&mut wa, json!({"type": "act", "action": "mus", "id": 3}));
    // Now the bot at seat 1 speaks (slowly): Ane's turn is over.
    read_of(&mut wa, "ack");
    let e = refusal(&mut wa, json!({"type": "act", "action": "mus", "id": 4}));
    assert_eq!(e["code"], "not_your_turn", "{e}");
    let e = refusal(&mut wb, json!({"type": "act", "action": "mus", "id": 5}));
    assert_eq!(e["code"], "not_seated", "{e}");
    let mut watcher = server.ws(&id, None);
    let e = refusal(&mut watcher, json!({"type": "sit", "seat": 1}));
    assert_eq!(e["code"], "pick_nickname", "{e}");
}

#[test]
fn the_rules_pages_speak_to_players_and_keep_the_terminal_in_a_box_at_the_end() {
    let server = Server::start("i18n-rules-players", Limits::default());
    // What only a developer or the terminal reads: the source tree, flags, commands, JSON,
    // seats and pairs by number.
    let developer = [
        "crates/",
        "--",
        "<code>tapete ",
        "JSON",
        "sitio 0",
        "sitios 0",
        "asiento s",
        "posición 0",
        "posiciones 0",
        "pareja 0",
        "pareja 1",
        "seat 0",
        "seats 0",
        "seat s",
        "position 0",
        "positions 0",
        "pair 0",
        "pair 1",
    ];
    for game in ["mus", "chinchon", "tikki", "solitaire"] {
        for lang in ["es", "en"] {
            let path = format!("/rules/{game}?lang={lang}");
            let (code, html) = page(&server, &path, &[]);
            assert_eq!(code, 200, "{path}");
            let article = html
                .split("data-testid=\"rules\">")
                .nth(1)
                .and_then(|a| a.split("</article>").next())
                .unwrap_or_else(|| panic!("{path}: no rules"));
            let (rules, boxed) = article
                .split_once("<aside class=\"box\">")
                .unwrap_or_else(|| panic!("{path}: no box for the terminal"));
            for word in developer {
                assert!(!rules.contains(word), "{path}: `{word}` outside the box");
            }
            assert!(
                boxed.contains("--") && boxed.contains("<code>tapete "),
                "{path}: the box holds the terminal's options"
            );
            assert!(
                boxed.trim_end().ends_with("</aside>") && !boxed.contains("<h2"),
                "{path}: the box is the page's end"
            );
        }
    }
}
