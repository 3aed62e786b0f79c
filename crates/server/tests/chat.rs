//! Table chat: the spectators' channel never reaches a seated player during the game (both
//! are shown after the end), messages bounded in size and rate, stored with the table and
//! shown again after a restart, text sent as written (the pages render it as text), mutes
//! and reports.

use crate::support::{legal, read, read_of, roomy, send, Server, Ws};
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tapete_server::chat::{BURST, MAX_BYTES, MAX_CHARS, REPORT_BURST};

/// A waiting ring table of two seats (one hand), Ane at seat 0: (table, Ane's token).
fn ring_table(server: &Server) -> (String, String) {
    let ane = server.player("Ane");
    let id = server.table(
        &ane,
        json!({"game": "ring", "seats": 2, "rules": {"hands": 1}, "seat": 0,
               "pace_ms": 0, "hold_s": 0}),
    );
    (id, ane)
}

/// Opens a connection and reads up to its chat history (sent once, after the state).
fn join(server: &Server, table: &str, token: Option<&str>) -> (Ws, Value) {
    let mut ws = server.ws(table, token);
    let h = read_of(&mut ws, "chat_history");
    (ws, h)
}

fn say(ws: &mut Ws, text: &str) {
    send(ws, json!({"type": "chat", "text": text}));
}

/// The next chat line or chat error, other messages skipped.
fn next_chat(ws: &mut Ws) -> Value {
    loop {
        let m = read(ws).expect("the connection stays open");
        if m["type"] == "chat" || (m["type"] == "error" && m["code"] != "rate_limited") {
            return m;
        }
    }
}

fn texts(history: &Value) -> Vec<String> {
    history["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn spectators_words_never_reach_a_seated_player_while_the_game_is_on() {
    let server = Server::start("chat-channels", roomy());
    let (id, ane) = ring_table(&server);
    let (mut a, _) = join(&server, &id, Some(&ane));
    let bea = server.player("Bea");
    let (mut b, _) = join(&server, &id, Some(&bea));
    let (mut anon, _) = join(&server, &id, None);
    send(&mut a, json!({"type": "start"}));

    say(&mut b, "she holds the nine");
    let line = next_chat(&mut b);
    assert_eq!(line["line"]["channel"], "spectators", "{line}");
    assert_eq!(line["line"]["nickname"], "Bea");
    assert_eq!(next_chat(&mut anon)["line"]["text"], "she holds the nine");
    // Ane speaks after: the first chat she is sent is her own line, so Bea's never came.
    say(&mut a, "buenas");
    let mine = next_chat(&mut a);
    assert_eq!(mine["line"]["text"], "buenas", "{mine}");
    assert_eq!(mine["line"]["channel"], "players");
    // Spectators hear the players.
    assert_eq!(next_chat(&mut b)["line"]["text"], "buenas");
    assert_eq!(next_chat(&mut anon)["line"]["text"], "buenas");
    // A reload shows Ane only the players' channel; the spectators both.
    let (_a2, h) = join(&server, &id, Some(&ane));
    assert_eq!(texts(&h), ["buenas"]);
    let (_b2, h) = join(&server, &id, Some(&bea));
    assert_eq!(texts(&h), ["she holds the nine", "buenas"]);
    // Without a nickname one reads but cannot write.
    say(&mut anon, "hi");
    assert_eq!(next_chat(&mut anon)["code"], "chat_no_nickname");

    // Once the game is over, Ane is sent both channels (on a new connection, whose first
    // state is her turn; its first history is the players' channel only).
    drop(a);
    let mut a = server.ws(&id, Some(&ane));
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        assert!(Instant::now() < deadline, "the game took too long");
        let m = read(&mut a).expect("open");
        if m["type"] == "chat_history" && m["lines"].as_array().unwrap().len() > 1 {
            assert_eq!(texts(&m), ["she holds the nine", "buenas"]);
            break;
        }
        if m["type"] == "chat_history" {
            assert_eq!(texts(&m), ["buenas"], "during the game");
        }
        if m["type"] == "state" && m["outcome"].is_null() && !legal(&m).is_empty() {
            send(&mut a, json!({"type": "act", "action": "1", "id": m["n"]}));
        }
    }
}

#[test]
fn sitting_down_or_standing_up_sends_the_history_of_the_channels_one_now_reads() {
    let server = Server::start("chat-sit", roomy());
    let (id, ane) = ring_table(&server);
    let (mut a, _) = join(&server, &id, Some(&ane));
    let bea = server.player("Bea");
    let (mut b, _) = join(&server, &id, Some(&bea));
    say(&mut a, "buenas");
    next_chat(&mut a);
    assert_eq!(next_chat(&mut b)["line"]["text"], "buenas");
    say(&mut b, "she holds the nine");
    assert_eq!(next_chat(&mut b)["line"]["channel"], "spectators");
    // Bea sits: her history is now the players' channel alone, without waiting for a reload.
    send(&mut b, json!({"type": "sit", "seat": 1}));
    let h = read_of(&mut b, "chat_history");
    assert_eq!(texts(&h), ["buenas"]);
    // She stands up again: a spectator reads both channels.
    send(&mut b, json!({"type": "stand"}));
    let h = read_of(&mut b, "chat_history");
    assert_eq!(texts(&h), ["buenas", "she holds the nine"]);
}

#[test]
fn messages_are_bounded_cleaned_and_rate_capped() {
    // Paused time: the wait is checked to the second.
    let server = Server::start_paused("chat-caps", roomy());
    let (id, ane) = ring_table(&server);
    let (mut a, _) = join(&server, &id, Some(&ane));
    say(&mut a, " \n\t ");
    assert_eq!(next_chat(&mut a)["code"], "chat_empty");
    say(&mut a, &"a".repeat(MAX_CHARS + 1));
    let e = next_chat(&mut a);
    assert_eq!(e["code"], "chat_too_long", "{e}");
    assert!(e["message"]
        .as_str()
        .unwrap()
        .contains("at most 300 characters"));
    say(&mut a, &"ñ".repeat(MAX_BYTES / 2 + 1));
    assert_eq!(next_chat(&mut a)["code"], "chat_too_long");
    // Control characters are stripped; markup is kept as the text it is.
    say(&mut a, "<img src=x onerror=alert(1)>\u{1b}[2J\u{7}");
    let l = next_chat(&mut a);
    assert_eq!(l["line"]["text"], "<img src=x onerror=alert(1)>[2J", "{l}");
    // A burst, then a clear error that says how long to wait.
    for i in 1..BURST {
        say(&mut a, &format!("m{i}"));
        assert_eq!(next_chat(&mut a)["line"]["text"], format!("m{i}"));
    }
    say(&mut a, "one too many");
    let e = next_chat(&mut a);
    assert_eq!(e["code"], "chat_rate_limited", "{e}");
    let wait = e["wait_s"].as_u64().unwrap();
    assert!(wait >= 1, "{e}");
    assert!(e["message"].as_str().unwrap().contains("wait"), "{e}");
    // The wait it names is the wait: a second short of it, refused still; then said.
    server.advance(Duration::from_secs(wait - 1));
    say(&mut a, "still too soon");
    assert_eq!(next_chat(&mut a)["code"], "chat_rate_limited");
    server.advance(Duration::from_secs(1));
    say(&mut a, "now");
    assert_eq!(next_chat(&mut a)["line"]["text"], "now");
}

#[test]
fn messages_are_stored_with_the_table_and_shown_after_a_restart() {
    let server = Server::start("chat-restart", roomy());
    let (id, ane) = ring_table(&server);
    let (mut a, h) = join(&server, &id, Some(&ane));
    assert_eq!(texts(&h), Vec::<String>::new());
    say(&mut a, "primera");
    next_chat(&mut a);
    say(&mut a, "segunda");
    next_chat(&mut a);
    drop(a);
    let server = server.restart();
    let (_a, h) = join(&server, &id, Some(&ane));
    assert_eq!(texts(&h), ["primera", "segunda"]);
    assert_eq!(h["lines"][0]["nickname"], "Ane");
    assert_eq!(h["lines"][1]["n"], 2);
}

#[test]
fn a_muted_person_is_not_shown_and_a_report_is_stored_for_the_operator() {
    let server = Server::start_file("chat-mute", roomy());
    let (id, ane) = ring_table(&server);
    let (mut a, _) = join(&server, &id, Some(&ane));
    let cid = server.player("Cid");
    let (mut c, _) = join(&server, &id, Some(&cid));
    let bea = server.player("Bea");
    let (mut b, _) = join(&server, &id, Some(&bea));

    // Ane, seated, writes; Bea mutes her by the number her line carries.
    say(&mut a, "spam spam");
    let spam = next_chat(&mut a);
    let ane_id = spam["line"]["player"].as_i64().unwrap();
    assert_eq!(next_chat(&mut b)["line"]["text"], "spam spam");
    assert_eq!(next_chat(&mut c)["line"]["text"], "spam spam");
    send(&mut b, json!({"type": "mute", "player": ane_id}));
    let h = read_of(&mut b, "chat_history");
    assert_eq!(h["muted"], json!([ane_id]));
    assert_eq!(
        texts(&h),
        Vec::<String>::new(),
        "her lines are hidden at once"
    );
    say(&mut a, "more spam");
    assert_eq!(next_chat(&mut c)["line"]["text"], "more spam");
    say(&mut c, "hola");
    assert_eq!(
        next_chat(&mut b)["line"]["text"],
        "hola",
        "Bea is not sent Ane's line"
    );
    // The mute is Bea's for good: a new connection (a reload) still leaves Ane out.
    let (_b2, h) = join(&server, &id, Some(&bea));
    assert_eq!(texts(&h), ["hola"]);
    assert_eq!(h["muted"], json!([ane_id]));
    send(
        &mut b,
        json!({"type": "mute", "player": ane_id, "on": false}),
    );
    let h = read_of(&mut b, "chat_history");
    assert_eq!(texts(&h), ["spam spam", "more spam", "hola"]);

    // Cid reports Ane's line: stored with the table, the text and both people.
    let n = spam["line"]["n"].as_u64().unwrap();
    send(&mut c, json!({"type": "report", "n": n}));
    assert_eq!(read_of(&mut c, "chat_reported")["n"], n);
    send(&mut c, json!({"type": "report", "n": 999}));
    assert_eq!(next_chat(&mut c)["code"], "chat_no_such_message");
    // Reports are capped per person.
    for _ in 1..REPORT_BURST {
        send(&mut c, json!({"type": "report", "n": n}));
        read_of(&mut c, "chat_reported");
    }
    send(&mut c, json!({"type": "report", "n": n}));
    assert_eq!(next_chat(&mut c)["code"], "chat_report_rate_limited");
    let db = server.db.clone();
    drop((a, b, c));
    drop(server);
    let conn = rusqlite::Connection::open(&db).unwrap();
    let rows: Vec<(String, String, String, String)> = conn
        .prepare(
            "SELECT r.table_id, r.text, r.author_nickname, p.nickname FROM reports r
             JOIN players p ON p.id = r.reporter",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        rows,
        [(id, "spam spam".into(), "Ane".into(), "Cid".into())],
        "one report, stored once however often it was sent"
    );
}

#[test]
fn a_mute_holds_at_once_at_every_table_the_person_is_at() {
    let server = Server::start("chat-mute-everywhere", roomy());
    let (one, ane) = ring_table(&server);
    let two = server.table(
        &ane,
        json!({"game": "ring", "seats": 2, "rules": {"hands": 1}, "seat": 0, "pace_ms": 0}),
    );
    let bea = server.player("Bea");
    let (mut a1, _) = join(&server, &one, Some(&ane));
    let (mut a2, _) = join(&server, &two, Some(&ane));
    let (mut b1, _) = join(&server, &one, Some(&bea));
    let (mut b2, _) = join(&server, &two, Some(&bea));
    say(&mut a1, "spam");
    let ane_id = next_chat(&mut a1)["line"]["player"].as_i64().unwrap();
    assert_eq!(next_chat(&mut b1)["line"]["text"], "spam");
    // Bea mutes Ane at table one; at table two, still open, Ane's next line does not reach her.
    send(&mut b1, json!({"type": "mute", "player": ane_id}));
    read_of(&mut b1, "chat_history");
    say(&mut a2, "more spam");
    assert_eq!(next_chat(&mut a2)["line"]["text"], "more spam");
    say(&mut b2, "hola");
    assert_eq!(
        next_chat(&mut b2)["line"]["text"],
        "hola",
        "Bea is not sent Ane's line at the other table"
    );
}

#[test]
fn a_seated_player_cannot_report_a_spectators_line_by_its_number() {
    let server = Server::start("chat-probe", roomy());
    let (id, ane) = ring_table(&server);
    let (mut a, _) = join(&server, &id, Some(&ane));
    let bea = server.player("Bea");
    let (mut b, _) = join(&server, &id, Some(&bea));
    say(&mut b, "psst");
    let n = next_chat(&mut b)["line"]["n"].clone();
    send(&mut a, json!({"type": "report", "n": n}));
    assert_eq!(next_chat(&mut a)["code"], "chat_no_such_message");
}
