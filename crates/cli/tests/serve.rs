//! The online table through the real binary: a server killed mid-game and started again
//! loses nothing; seats see only their own cards; bad messages are answered and change
//! nothing; the solitaire odds answer as the command does and refuse what they must.

use crate::common::{choose, held_for_me, legal};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn start(db: &Path) -> Server {
        Server::start_with(db, &[], Stdio::inherit())
    }

    /// A server with more arguments, its standard error going to `stderr`.
    fn start_with(db: &Path, args: &[&str], stderr: Stdio) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tapete"))
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(db)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("tapete serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("the server prints its address");
        let at = line.find("http://").expect("an address in the first line");
        let url = line[at..]
            .split_whitespace()
            .next()
            .unwrap()
            .trim_end_matches('/')
            .to_string();
        Server { child, url }
    }

    /// Kills the process at once (SIGKILL): no chance to save anything more.
    fn kill(mut self) {
        self.child.kill().expect("kill");
        self.child.wait().expect("wait");
    }

    fn api(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u16, Value) {
        let url = format!("{}{path}", self.url);
        let r = tapete_loadtest::client::request_as(method, &url, token, body.as_ref())
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        (r.status, r.json().expect("JSON"))
    }

    fn player(&self, nickname: &str) -> (i64, String) {
        let (code, p) = self.api(
            "POST",
            "/api/players",
            None,
            Some(json!({ "nickname": nickname })),
        );
        assert_eq!(code, 200, "{p}");
        (
            p["id"].as_i64().unwrap(),
            p["token"].as_str().unwrap().to_string(),
        )
    }

    fn connect(&self, table: &str, token: Option<&str>) -> Client {
        let ws = self.url.replacen("http://", "ws://", 1);
        let url = match token {
            Some(t) => format!("{ws}/ws/{table}?token={t}"),
            None => format!("{ws}/ws/{table}"),
        };
        let (socket, _) = tungstenite::connect(url).expect("websocket connects");
        if let MaybeTlsStream::Plain(s) = socket.get_ref() {
            s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        }
        Client {
            socket,
            last: None,
            story: Vec::new(),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Client {
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    last: Option<Value>,
    /// The narration so far, as a page keeps it: a state brings it whole (`lines`) or the
    /// lines added since this connection's last state (`more`).
    story: Vec<Value>,
}

impl Client {
    fn send(&mut self, v: Value) {
        self.send_text(&v.to_string());
    }

    fn send_text(&mut self, t: &str) {
        self.socket
            .send(Message::Text(t.to_string().into()))
            .expect("send");
    }

    /// The next message; panics after 20 s without one (the server's pings and heartbeats
    /// do not count).
    fn next(&mut self) -> Value {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            assert!(Instant::now() < deadline, "only pings for 20 s");
            match self.socket.read().expect("a message before the timeout") {
                Message::Text(t) if t.as_str() == tapete_server::BEAT => {}
                Message::Text(t) => {
                    let mut v: Value = serde_json::from_str(t.as_str()).expect("JSON");
                    if v["type"] == "state" {
                        // Each state read here carries the whole story in `lines`.
                        if let Some(all) = v["lines"].as_array() {
                            self.story = all.clone();
                        } else if let Some(more) = v["more"].as_array() {
                            self.story.extend(more.iter().cloned());
                        } else {
                            panic!("a state without its narration: {v}");
                        }
                        let n = self.story.len();
                        self.story.drain(..n.saturating_sub(200));
                        v["lines"] = Value::Array(self.story.clone());
                        self.last = Some(v.clone());
                    }
                    return v;
                }
                Message::Close(_) => panic!("closed"),
                _ => continue,
            }
        }
    }

    /// The next message of type `kind`.
    fn next_of(&mut self, kind: &str) -> Value {
        loop {
            let v = self.next();
            if v["type"] == kind {
                return v;
            }
        }
    }

    /// Reads states until `done` holds for one.
    fn state_until(&mut self, mut done: impl FnMut(&Value) -> bool) -> Value {
        if let Some(s) = self.last.clone() {
            if done(&s) {
                return s;
            }
        }
        loop {
            let v = self.next_of("state");
            if done(&v) {
                return v;
            }
        }
    }
}

fn temp_db(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tapete-serve-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("t.db")
}

/// Plays every decision offered until `stop` holds for a state (or the game ends),
/// saying `next` whenever the end of a hand waits for us.
fn play_until(c: &mut Client, mut stop: impl FnMut(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        assert!(Instant::now() < deadline, "the game took too long");
        let s = c.state_until(|s| {
            !legal(s).is_empty() || !s["outcome"].is_null() || stop(s) || held_for_me(s)
        });
        if !s["outcome"].is_null() || stop(&s) {
            return s;
        }
        if legal(&s).is_empty() {
            c.send(json!({"type": "next"}));
            c.last = None;
            continue;
        }
        let n = s["n"].as_u64().unwrap();
        // Within the rate limit (20 messages a second): a message over it is ignored.
        std::thread::sleep(Duration::from_millis(55));
        c.send(json!({"type": "act", "action": choose(&legal(&s)), "id": n}));
        let ack = c.next_of("ack");
        assert_eq!(ack["n"], n + 1, "{ack}");
        c.last = None;
    }
}

#[test]
fn a_server_killed_mid_game_restarts_exactly_where_it_was() {
    let db = temp_db("restart");
    let server = Server::start(&db);
    let (me, token) = server.player("Ane");
    // Play into a game, stopping at one of our own decisions past action 30. Each table's
    // deal is drawn afresh, and a game may end before that (an órdago): then another.
    let mut tries = 0;
    let (id, _open, before) = loop {
        tries += 1;
        assert!(tries <= 5, "five games ended too soon for this test");
        let (code, table) = server.api(
            "POST",
            "/api/tables",
            Some(&token),
            Some(
                json!({"game": "mus", "rules": {"target": 30, "juegos": 1}, "bot": "basico",
                        "pace_ms": 0, "start": true}),
            ),
        );
        assert_eq!(code, 200, "{table}");
        let id = table["id"].as_str().unwrap().to_string();
        let mut c = server.connect(&id, Some(&token));
        let before = play_until(&mut c, |s| {
            s["n"].as_u64().unwrap() >= 30 && !legal(s).is_empty()
        });
        if before["outcome"].is_null() {
            break (id, c, before);
        }
    };
    let n = before["n"].as_u64().unwrap();
    server.kill();

    let server = Server::start(&db);
    let (code, info) = server.api("GET", &format!("/api/tables/{id}"), None, None);
    assert_eq!(code, 200, "{info}");
    assert_eq!(info["actions"], n, "every acknowledged action survived");
    assert_eq!(info["status"], "playing");
    let mut c = server.connect(&id, Some(&token));
    let after = c.next_of("state");
    assert_eq!(after["n"], before["n"]);
    assert_eq!(
        after["view"], before["view"],
        "the same seat sees exactly the same"
    );
    assert_eq!(after["legal"], before["legal"]);
    assert_eq!(after["lines"], before["lines"]);

    // And the game goes on to its end.
    let end = play_until(&mut c, |_| false);
    assert!(!end["outcome"].is_null());
    let (_, games) = server.api("GET", &format!("/api/players/{me}/games"), None, None);
    let listed = games.as_array().unwrap();
    assert_eq!(listed.len(), 1, "{games}");
    assert_eq!(listed[0]["table"], id.as_str());
    let won = end["outcome"]["winners"]
        .as_array()
        .unwrap()
        .contains(&json!(0));
    assert_eq!(listed[0]["won"], won);
    let (code, replay) = server.api("GET", &format!("/api/tables/{id}/replay"), None, None);
    assert_eq!(code, 200);
    let last = end["n"].as_u64().unwrap();
    assert_eq!(replay["steps"].as_u64(), Some(last + 1));
    assert_eq!(replay["actions"].as_array().unwrap().len() as u64, last);
    let (code, deal) = server.api("GET", &format!("/api/tables/{id}/replay/0"), None, None);
    assert_eq!(code, 200, "{deal}");
    assert_eq!(deal["view"]["hands"].as_array().unwrap().len(), 4);
    assert!(deal["action"].is_null());
    let (code, fin) = server.api(
        "GET",
        &format!("/api/tables/{id}/replay/{last}"),
        None,
        None,
    );
    assert_eq!(code, 200, "{fin}");
    assert_eq!(
        fin["action"],
        replay["actions"][last as usize - 1]["action"]
    );
    let (code, past) = server.api(
        "GET",
        &format!("/api/tables/{id}/replay/{}", last + 1),
        None,
        None,
    );
    assert_eq!(code, 404, "{past}");
}

fn cards(state: &Value) -> Vec<String> {
    state["view"]["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn seats_see_only_their_cards_and_bad_messages_change_nothing() {
    let db = temp_db("private");
    let server = Server::start(&db);
    let (_, ane) = server.player("Ane");
    let (_, bea) = server.player("Bea");
    let (code, table) = server.api(
        "POST",
        "/api/tables",
        Some(&ane),
        Some(json!({"game": "mus", "pace_ms": 0, "seat": 0})),
    );
    assert_eq!(code, 200, "{table}");
    let id = table["id"].as_str().unwrap().to_string();
    let mut a = server.connect(&id, Some(&ane));
    let mut b = server.connect(&id, Some(&bea));
    let mut watcher = server.connect(&id, None);
    b.send(json!({"type": "sit", "seat": 2}));
    b.state_until(|s| s["you"]["seat"] == 2);
    // Only the creator starts.
    b.send(json!({"type": "start"}));
    assert!(b.next_of("error")["message"]
        .as_str()
        .unwrap()
        .contains("creator"));
    a.send(json!({"type": "start"}));
    let sa = a.state_until(|s| s["table"]["status"] == "playing");
    let sb = b.state_until(|s| s["table"]["status"] == "playing");
    let sw = watcher.state_until(|s| s["table"]["status"] == "playing");
    let (ca, cb) = (cards(&sa), cards(&sb));
    assert_eq!((ca.len(), cb.len()), (4, 4));
    assert!(
        ca.iter().all(|c| !cb.contains(c)),
        "partners hold different cards"
    );
    assert!(cards(&sw).is_empty(), "a spectator sees no cards");
    let text_b = sb.to_string();
    assert!(
        ca.iter().all(|c| !text_b.contains(&format!("\"{c}\""))),
        "B's state never names A's cards"
    );
    assert_eq!(
        sa["legal"],
        json!(["mus", "no hay mus"]),
        "seat 0 is mano and speaks first"
    );
    assert_eq!(sb["legal"], json!([]));

    // Bad input: each gets an error naming the problem, and nothing moves.
    let n = sa["n"].clone();
    for (msg, want) in [
        ("not json", "not JSON"),
        (r#"{"type":"dance"}"#, "unknown variant"),
        (r#"{"type":"act"}"#, "missing field `action`"),
        (r#"{"type":"act","action":"envido 5"}"#, "not seat 2's turn"),
        (r#"{"type":"sit","seat":0}"#, "taken by Ane"),
        (r#"{"type":"sit","seat":9}"#, "no seat 9"),
    ] {
        b.send_text(msg);
        let e = b.next_of("error");
        assert!(e["message"].as_str().unwrap().contains(want), "{msg}: {e}");
    }
    a.send(json!({"type": "act", "action": "descarto 13o", "id": 5}));
    let e = a.next_of("error");
    assert_eq!(e["id"], 5);
    assert!(e["message"].as_str().unwrap().contains("13o"), "{e}");
    b.send_text(&format!(
        r#"{{"type":"act","action":"{}"}}"#,
        "x".repeat(5000)
    ));
    assert!(b.next_of("error")["message"]
        .as_str()
        .unwrap()
        .contains("too large"));
    watcher.send(json!({"type": "act", "action": "mus"}));
    assert!(watcher.next_of("error")["message"]
        .as_str()
        .unwrap()
        .contains("spectators"));
    let (_, info) = server.api("GET", &format!("/api/tables/{id}"), None, None);
    assert_eq!(info["actions"], n, "no bad message changed the table");

    // A flood is cut down to the rate limit: the refusal is said (once, not once per
    // message), and the connection still works after.
    for _ in 0..100 {
        b.send(json!({"type": "ping"}));
    }
    b.send(json!({"type": "act", "action": "mus", "id": 77}));
    // Once the bucket has a token again (20 a second), an act the table refuses, sent
    // last: the server handles a connection's messages in order, so all the flood brought
    // comes before that refusal, and nothing of it can come after the count.
    std::thread::sleep(Duration::from_millis(150));
    b.send(json!({"type": "act", "action": "órdago", "id": 78}));
    let (mut pongs, mut refused) = (0, 0);
    loop {
        let m = b.next();
        match m["type"].as_str() {
            Some("pong") => pongs += 1,
            Some("error") if m["message"].as_str().unwrap().contains("too many") => refused += 1,
            Some("error") if m["id"] == 77 => panic!("the act past the limit was not ignored"),
            Some("error") if m["id"] == 78 => break,
            _ => {}
        }
    }
    assert!(
        refused == 1 && (20..=40).contains(&pongs),
        "{pongs} pongs, {refused} refusals"
    );
    b.send(json!({"type": "ping"}));
    b.next_of("pong");

    // The mano plays; everyone moves on.
    a.send(json!({"type": "act", "action": "mus", "id": 6}));
    assert_eq!(a.next_of("ack")["n"], 1);
    let sw = watcher.state_until(|s| s["n"] == 1);
    assert!(cards(&sw).is_empty());
    assert!(sw["lines"].to_string().contains("mus"), "{}", sw["lines"]);
}

#[test]
fn api_errors_name_the_problem() {
    let db = temp_db("api");
    let server = Server::start(&db);
    let (_, t) = server.player("Ane");
    let cases = [
        (
            "POST",
            "/api/players",
            None,
            json!({"nickname": ""}),
            400,
            "empty",
        ),
        (
            "POST",
            "/api/players",
            None,
            json!({"nick": "x"}),
            400,
            "nick",
        ),
        (
            "POST",
            "/api/tables",
            None,
            json!({"game": "mus"}),
            401,
            "nickname",
        ),
        (
            "POST",
            "/api/tables",
            Some(t.as_str()),
            json!({"game": "go"}),
            400,
            "unknown game `go`",
        ),
        (
            "POST",
            "/api/tables",
            Some(t.as_str()),
            json!({"game": "mus", "bot": "cmd:rm"}),
            400,
            "not a bot level",
        ),
        (
            "POST",
            "/api/tables",
            Some(t.as_str()),
            json!({"game": "mus", "rules": {"target": 35}}),
            400,
            "target 35",
        ),
        (
            "POST",
            "/api/tables",
            Some("0000"),
            json!({"game": "mus"}),
            401,
            "unknown token",
        ),
    ];
    for (method, path, token, body, status, want) in cases {
        let (code, v) = server.api(method, path, token, Some(body.clone()));
        assert_eq!(code, status, "{body}: {v}");
        assert!(v["error"].as_str().unwrap().contains(want), "{body}: {v}");
    }
    let (code, v) = server.api("GET", "/api/leyes?hand=13o%201c%202c%203c", None, None);
    assert_eq!(code, 400);
    assert!(v["error"].as_str().unwrap().contains("13o"), "{v}");
    let (code, v) = server.api("GET", "/api/tables/nosuch", None, None);
    assert_eq!(code, 404, "{v}");
}

#[test]
fn a_person_takes_over_a_bots_seat_at_the_next_hand() {
    let db = temp_db("takeover");
    let server = Server::start(&db);
    let (_, ane) = server.player("Ane");
    let (bea_id, bea) = server.player("Bea");
    let (_, table) = server.api(
        "POST",
        "/api/tables",
        Some(&ane),
        Some(json!({"game": "mus", "pace_ms": 0, "start": true, "bot": "random"})),
    );
    let id = table["id"].as_str().unwrap().to_string();
    let mut a = server.connect(&id, Some(&ane));
    // Ane speaks first, so the hand has begun when Bea asks for seat 2.
    let s = a.state_until(|s| !legal(s).is_empty());
    a.send(json!({"type": "act", "action": choose(&legal(&s)), "id": 1}));
    a.next_of("ack");
    let mut b = server.connect(&id, Some(&bea));
    b.send(json!({"type": "sit", "seat": 2}));
    let waiting = b.state_until(|s| s["you"]["pending_seat"] == 2);
    assert!(
        waiting["you"]["seat"].is_null(),
        "not mid-hand: {}",
        waiting["you"]
    );
    assert!(
        cards(&waiting).is_empty(),
        "still a spectator until the seat is hers"
    );
    // Ane plays on; at the next hand the seat is Bea's and the bot is gone.
    a.last = None;
    play_until(&mut a, |s| s["table"]["seats"][2]["player"]["id"] == bea_id);
    let seated = b.state_until(|s| s["you"]["seat"] == 2);
    assert_eq!(cards(&seated).len(), 4);
    assert!(seated["table"]["seats"][2]["bot"].is_null());
    assert!(seated["you"]["pending_seat"].is_null());
}

#[test]
fn the_loadtest_plays_checks_every_record_and_reports() {
    let out = Command::new(env!("CARGO_BIN_EXE_tapete"))
        .args(["loadtest", "--tables", "3", "--seconds", "2", "--json"])
        .output()
        .expect("tapete loadtest runs");
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["clients"], 12);
    assert_eq!(v["errors"], 0, "{v}");
    assert!(v["actions"].as_u64().unwrap() > 50, "{v}");
    let p = &v["latency_ms"];
    assert!(p["p50"].as_f64().unwrap() <= p["p99"].as_f64().unwrap());
    let r = &v["replayed"];
    assert!(r["tables"].as_u64().unwrap() >= 3, "{r}");
    assert_eq!(r["matched"], r["tables"], "{r}");
}

#[test]
fn the_account_limits_are_flags_of_serve() {
    let db = temp_db("logins");
    let server = Server::start_with(
        &db,
        &["--failed-logins-per-account", "2", "--password-hashes", "1"],
        Stdio::null(),
    );
    let (code, a) = server.api(
        "POST",
        "/api/accounts",
        None,
        Some(json!({"nickname": "Ane", "password": "a good long password"})),
    );
    assert_eq!(code, 200, "{a}");
    let wrong = || {
        server.api(
            "POST",
            "/api/sessions",
            None,
            Some(json!({"nickname": "Ane", "password": "not the password"})),
        )
    };
    assert_eq!(wrong().0, 401);
    assert_eq!(wrong().0, 401);
    let (code, e) = wrong();
    assert_eq!(code, 429, "the third failure is over the flag's two: {e}");
    // Out of range, refused by name before anything starts.
    let out = Command::new(env!("CARGO_BIN_EXE_tapete"))
        .args(["serve", "--password-hashes", "0"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--password-hashes"), "{err}");
}

#[test]
fn a_full_disk_is_said_in_words_and_the_table_backs_off() {
    let db = temp_db("full");
    let log_path = db.with_file_name("server.err");
    let log = std::fs::File::create(&log_path).unwrap();
    let server = Server::start_with(&db, &["--max-db-mb", "1"], Stdio::from(log));
    let (_, token) = server.player("Ane");
    let (code, table) = server.api(
        "POST",
        "/api/tables",
        Some(&token),
        Some(json!({"game": "mus", "pace_ms": 0, "hold_s": 0, "start": true, "bot": "basico"})),
    );
    assert_eq!(code, 200, "{table}");
    let id = table["id"].as_str().unwrap().to_string();
    let mut c = server.connect(&id, Some(&token));
    c.state_until(|s| !legal(s).is_empty());
    // The file is filled past its cap from outside: every write that needs a page fails.
    let junk = rusqlite::Connection::open(&db).unwrap();
    junk.execute_batch("CREATE TABLE junk (b BLOB); INSERT INTO junk VALUES (zeroblob(3000000));")
        .unwrap();
    // Ane plays on for a while; what cannot be stored is refused in words.
    if let MaybeTlsStream::Plain(s) = c.socket.get_ref() {
        s.set_read_timeout(Some(Duration::from_millis(200)))
            .unwrap();
    }
    // Play until the cap is first met (by Ane's action, refused, or a bot's, retried in the
    // log; at most 30 s, so a loaded machine's slower play still gets there), then 4 s more.
    let started = Instant::now();
    let (mut refused, mut acted, mut in_flight) = (0, 0, false);
    let mut capped_at: Option<Instant> = None;
    loop {
        match capped_at {
            Some(at) if at.elapsed() >= Duration::from_secs(4) => break,
            None if started.elapsed() >= Duration::from_secs(30) => break,
            _ => {}
        }
        if capped_at.is_none()
            && (refused > 0
                || std::fs::read_to_string(&log_path)
                    .unwrap_or_default()
                    .contains("trying again"))
        {
            capped_at = Some(Instant::now());
        }
        if let Ok(Message::Text(t)) = c.socket.read() {
            let m: Value = serde_json::from_str(t.as_str()).unwrap();
            match m["type"].as_str() {
                Some("state") => c.last = Some(m),
                Some("ack") => {
                    acted += 1;
                    in_flight = false;
                    c.last = None;
                }
                Some("error") => {
                    let e = m["message"].as_str().unwrap();
                    assert!(
                        e.contains("could not save") && e.contains("nothing changed"),
                        "{e}"
                    );
                    refused += 1;
                    in_flight = false;
                    std::thread::sleep(Duration::from_millis(100));
                }
                _ => {}
            }
        }
        let offered = c.last.as_ref().map(legal).unwrap_or_default();
        if !in_flight && !offered.is_empty() {
            let n = c.last.as_ref().unwrap()["n"].clone();
            std::thread::sleep(Duration::from_millis(55));
            c.send(json!({"type": "act", "action": choose(&offered), "id": n}));
            in_flight = true;
        }
    }
    if let MaybeTlsStream::Plain(s) = c.socket.get_ref() {
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    }
    let lines = std::fs::read_to_string(&log_path).unwrap();
    let retries = lines.matches("trying again").count();
    assert!(
        refused + retries > 0,
        "the cap was never reached ({acted} actions)"
    );
    assert!(
        retries <= 4,
        "a failing table backs off instead of flooding the log: {retries} lines in 4 s\n{lines}"
    );
    // Space again: the table goes on by itself.
    junk.execute_batch("DROP TABLE junk").unwrap();
    // (The last state read may be Ane's own decision: it stays, so she plays it.)
    let before = c.last.as_ref().map_or(0, |s| s["n"].as_u64().unwrap());
    let moved = play_until(&mut c, |s| s["n"].as_u64().unwrap() > before + 5);
    assert!(moved["n"].as_u64().unwrap() > before);
}

/// `tapete ARGS --json`, which must succeed.
fn cli_json(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_tapete"))
        .args(args)
        .arg("--json")
        .output()
        .expect("tapete runs");
    assert!(out.status.success(), "{args:?}");
    serde_json::from_slice(&out.stdout).expect("JSON")
}

#[test]
fn the_solitaire_odds_answer_as_the_command_does() {
    let db = temp_db("solitaire");
    let server = Server::start(&db);
    let (code, classic) = server.api("GET", "/api/odds/solitaire", None, None);
    assert_eq!(code, 200, "{classic}");
    assert_eq!(classic["fraction"], "964444044208/262190765217675");
    let p = classic["probability"].as_f64().unwrap();
    assert!((p - 964_444_044_208.0 / 262_190_765_217_675.0).abs() < 1e-18);
    assert_eq!(classic["types"].as_array().unwrap().len(), 39);
    let none_left = &classic["distribution"]["stacks"][0];
    assert_eq!(
        (&none_left["left"], &none_left["fraction"]),
        (&json!(0), &classic["fraction"]),
        "no stack left is the win"
    );
    assert_eq!(
        classic["distribution"]["stacks"].as_array().unwrap().len(),
        14
    );
    assert_eq!(
        classic["distribution"]["cards"].as_array().unwrap().len(),
        14
    );
    // Its page comes with the odds tool (crates/solitaire-odds/web), and its words join the
    // catalogs.
    for (path, kind) in [
        ("/solitaire", "text/html"),
        ("/assets/solitaire.js", "text/javascript"),
        ("/assets/solitaire.css", "text/css"),
    ] {
        let r =
            tapete_loadtest::client::request("GET", &format!("{}{path}", server.url), &[], None)
                .unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(r.status, 200, "{path}");
        assert!(
            r.header("content-type").unwrap_or("").starts_with(kind),
            "{path}"
        );
    }
    let (code, es) = server.api("GET", "/assets/i18n/es.json", None, None);
    assert_eq!(code, 200);
    assert!(
        es["sol.title"].is_string() && es["lobby.create"].is_string(),
        "{es}"
    );
    let (code, same) = server.api(
        "GET",
        "/api/odds/solitaire?suits=4&values=13&board=13&pick=13",
        None,
        None,
    );
    assert_eq!(code, 200, "{same}");
    assert_eq!(same, classic, "the defaults are the classic game");

    // Any game: the very JSON of the command with --types --distribution.
    for (query, args) in [
        (
            "suits=4&values=3&board=4&pick=4",
            [
                "--suits", "4", "--values", "3", "--board", "4", "--pick", "4",
            ],
        ),
        (
            "suits=2&values=5&board=3&pick=1",
            [
                "--suits", "2", "--values", "5", "--board", "3", "--pick", "1",
            ],
        ),
        (
            "suits=8&values=13&board=20&pick=20",
            [
                "--suits", "8", "--values", "13", "--board", "20", "--pick", "20",
            ],
        ),
    ] {
        let (code, web) = server.api("GET", &format!("/api/odds/solitaire?{query}"), None, None);
        assert_eq!(code, 200, "{query}: {web}");
        let mut cli = vec!["odds", "solitaire", "--types", "--distribution"];
        cli.extend(args);
        let mut whole = cli_json(&cli);
        // The server lists at most the 200 most probable types, each as the command does.
        let listed = web["types"].as_array().cloned().unwrap_or_default();
        let all = whole["types"].as_array().cloned().unwrap_or_default();
        assert_eq!(web["types_total"], json!(all.len()), "{query}");
        assert_eq!(listed.len(), all.len().min(200), "{query}");
        assert!(listed.iter().all(|t| all.contains(t)), "{query}");
        whole["types"] = Value::Array(listed);
        assert_eq!(web, whole, "{query}");
    }
    // Without pick, the real game's: 52 − 10 = 42 left, 14 third cards.
    let (code, v) = server.api("GET", "/api/odds/solitaire?board=10", None, None);
    assert_eq!(
        (code, &v["pick"], &v["real_game"]),
        (200, &json!(14), &json!(true)),
        "{v}"
    );
    let (code, v) = server.api("GET", "/api/odds/solitaire?board=0&pick=0", None, None);
    assert_eq!((code, &v["fraction"]), (200, &json!("1/1")), "{v}");
}

#[test]
fn bad_and_hostile_solitaire_queries_are_refused_by_name() {
    let db = temp_db("solitaire-bad");
    let server = Server::start(&db);
    let long = "9".repeat(5000);
    let long_query = format!("suits={long}");
    let cases: Vec<(&str, u16, &str)> = vec![
        ("suits=x", 400, "suits: `x` is not a whole number"),
        ("suits=-1", 400, "suits: `-1` is not a whole number"),
        ("board=1.5", 400, "board: `1.5` is not a whole number"),
        ("pick=", 400, "pick is empty"),
        (
            "suits=99999999999",
            400,
            "suits: 99999999999 is far too large",
        ),
        (&long_query, 400, "far too large"),
        (
            "values=%FF",
            400,
            "values: `\u{fffd}` is not a whole number",
        ),
        ("suits=0", 400, "at least one suit"),
        ("values=0", 400, "at least one value"),
        ("board=53", 400, "cannot take 53 cards from a deck of 52"),
        ("pick=40", 400, "only 39 are left"),
        (
            "suits=100&values=100",
            400,
            "10000 cards: this calculator takes decks of at most 208",
        ),
        ("suits=4294967295&values=4294967295", 400, "at most 208"),
        ("suits=16&values=13&board=100", 400, "too much work"),
        (
            "deck=52",
            400,
            "unknown parameter `deck`: the parameters are suits, values, board, pick",
        ),
    ];
    for (query, status, want) in &cases {
        let (code, v) = server.api("GET", &format!("/api/odds/solitaire?{query}"), None, None);
        assert_eq!(code, *status, "{query}: {v}");
        let e = v["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{query}: {v}"));
        assert!(
            e.to_lowercase().contains(&want.to_lowercase()),
            "{query}: `{e}` lacks `{want}`"
        );
        assert!(
            e.len() < 300,
            "{query}: the error does not echo the whole input: {e}"
        );
    }
    let (code, v) = server.api("GET", "/api/odds/poker", None, None);
    assert_eq!(code, 404, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("the odds tools are solitaire"),
        "{v}"
    );
    // Nothing broke: the classic game is still answered.
    let (code, v) = server.api("GET", "/api/odds/solitaire", None, None);
    assert_eq!(
        (code, &v["fraction"]),
        (200, &json!("964444044208/262190765217675"))
    );
}

#[test]
fn the_screen_reads_a_running_servers_finished_games() {
    let db = temp_db("screen");
    let server = Server::start(&db);
    let (_, ane) = server.player("Ane");
    let (_, bea) = server.player("Bea");
    // Ane and Bea partners (seats 0 and 2), bots across.
    let (code, table) = server.api(
        "POST",
        "/api/tables",
        Some(&ane),
        Some(
            json!({"game": "mus", "rules": {"target": 30, "juegos": 1}, "bot": "basico",
                    "pace_ms": 0, "seat": 0}),
        ),
    );
    assert_eq!(code, 200, "{table}");
    let id = table["id"].as_str().unwrap().to_string();
    let mut b = server.connect(&id, Some(&bea));
    b.next_of("state");
    b.send(json!({"type": "sit", "seat": 2}));
    b.state_until(|s| s["you"]["seat"] == 2);
    let mut a = server.connect(&id, Some(&ane));
    a.next_of("state");
    a.send(json!({"type": "start"}));
    let other = std::thread::spawn(move || play_until(&mut b, |_| false));
    let end = play_until(&mut a, |_| false);
    other.join().unwrap();
    assert!(!end["outcome"].is_null());
    let deadline = Instant::now() + Duration::from_secs(10);
    while server
        .api("GET", &format!("/api/tables/{id}"), None, None)
        .1["status"]
        != "finished"
    {
        assert!(
            Instant::now() < deadline,
            "the table is not stored finished"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let db_arg = db.to_str().unwrap();
    // Beside the running server: its unrated game, the partners by their accounts; the
    // bots' side is no partnership to screen.
    let v = cli_json(&[
        "screen",
        "--db",
        db_arg,
        "--unrated",
        "--min-decisions",
        "1",
    ]);
    assert_eq!(v["records"], 1, "{v}");
    let pairs = v["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 1, "{v}");
    assert_eq!(pairs[0]["players"], json!(["Ane", "Bea"]), "{v}");
    assert_eq!(pairs[0]["games"], 1, "{v}");
    assert!(pairs[0]["decisions"].as_u64().unwrap() >= 1, "{v}");
    // Rated games only by default: none here.
    let v = cli_json(&["screen", "--db", db_arg]);
    assert_eq!(
        (v["records"].clone(), v["pairs"].clone()),
        (json!(0), json!([])),
        "{v}"
    );
    // No such database: said, exit 2.
    let out = Command::new(env!("CARGO_BIN_EXE_tapete"))
        .args(["screen", "--db", "/nonexistent/tapete.db"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no such database file"));
}
