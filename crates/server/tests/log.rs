//! The server's log: every line logged while a request is handled names the request (the
//! id its answer carries in `x-request-id`), and a WebSocket's lines name the connection
//! and its table.

use crate::support::{eventually, read_of, roomy, Server};
use serde_json::json;
use std::io::Write;
use std::sync::Mutex;
use std::time::Duration;
use tapete_loadtest::client;

/// Every line the server logs in this test binary, once [`capture`] was called.
static LINES: Mutex<Vec<u8>> = Mutex::new(Vec::new());

struct Captured;

impl Write for Captured {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        LINES.lock().unwrap_or_else(|p| p.into_inner()).extend(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Sends the server's log, at the debug level, into [`LINES`] (for the whole binary: the
/// subscriber is global, as the command line's is).
fn capture() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::new("tapete_server=debug"))
            .with_writer(|| Captured)
            .with_ansi(false)
            .without_time()
            .init();
    });
}

/// The captured lines that contain every one of `words`.
fn lines_with(words: &[&str]) -> Vec<String> {
    let all = LINES.lock().unwrap_or_else(|p| p.into_inner());
    String::from_utf8_lossy(&all)
        .lines()
        .filter(|l| words.iter().all(|w| l.contains(w)))
        .map(str::to_owned)
        .collect()
}

#[test]
fn a_request_and_a_websocket_are_named_on_the_lines_they_log() {
    capture();
    let server = Server::start_paused("log", roomy());
    let ane = server.player("Ane");
    let id = server.table(&ane, json!({"game": "mus", "pace_ms": 0, "start": true}));
    // A connection's lines carry its number, its table and its person.
    let mut ws = server.ws(&id, Some(&ane));
    read_of(&mut ws, "state");
    drop(ws);
    let table = format!("table={id}");
    eventually(Duration::from_secs(10), "the connection's lines", || {
        lines_with(&["ws{conn=", &table, "closed"]).len() == 1
    });
    let opened = lines_with(&["ws{conn=", &table, "connected"]);
    assert_eq!(opened.len(), 1, "{opened:?}");
    assert!(opened[0].contains("player="), "{}", opened[0]);
    // Nobody there: the table stops; asked for again, a request starts it from storage,
    // and that line names the request, by the id of its answer.
    let idle = tapete_server::Limits::default().idle_table;
    let url = server.url(&format!("/api/tables/{id}"));
    let mut answer = None;
    for _ in 0..5 {
        server.advance(idle);
        let r = client::get(&url).unwrap();
        assert_eq!(r.status, 200, "{}", r.text());
        let rid = r.header("x-request-id").expect("a request id").to_owned();
        if !lines_with(&["started from storage", &table]).is_empty() {
            answer = Some(rid);
            break;
        }
    }
    let answer = answer.expect("the table was started again from storage");
    let named = lines_with(&[&format!("request{{id={answer} "), "started from storage"]);
    assert_eq!(
        named.len(),
        1,
        "the line does not name request {answer}: {:?}",
        lines_with(&["started from storage", &table])
    );
    let line = &named[0];
    assert!(
        line.contains("method=GET") && line.contains(&format!("path=/api/tables/{id}")),
        "{line}"
    );
    assert!(line.contains(&table), "{line}");
    // Each request its own id; one a balancer gave, if plain, is kept.
    let a = client::get(&server.url("/api/games")).unwrap();
    let b = client::get(&server.url("/api/games")).unwrap();
    assert_ne!(a.header("x-request-id"), b.header("x-request-id"));
    let given = client::request(
        "GET",
        &server.url("/api/games"),
        &[("X-Request-Id", "haproxy-1a2b.3")],
        None,
    )
    .unwrap();
    assert_eq!(given.header("x-request-id"), Some("haproxy-1a2b.3"));
    let odd = client::request(
        "GET",
        &server.url("/api/games"),
        &[("X-Request-Id", "two words")],
        None,
    )
    .unwrap();
    let made = odd.header("x-request-id").expect("a request id");
    assert!(!made.contains(' '), "{made}");
}
