//! The server against clients that are not polite: connection floods, slow senders,
//! silent sockets, binary floods, creation floods, odd paths and bodies, replays of long
//! games asked for at once. Each runs a real server in this process, with limits small
//! enough to reach in a test.

use crate::support::{eventually, read, read_of, send, state_until, Server};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};
use tapete_loadtest::client::get;
use tapete_server::Limits;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::Message;

/// Whether the server closes a raw connection within `within` (reads until EOF).
fn closed_within(s: &mut TcpStream, within: Duration) -> bool {
    s.set_read_timeout(Some(within)).unwrap();
    let start = Instant::now();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return true,
            Err(_) => return false,
        }
        if start.elapsed() > within {
            return false;
        }
    }
}

#[test]
fn one_address_holds_a_bounded_number_of_connections() {
    let limits = Limits {
        conns_per_addr: 8,
        ..Limits::default()
    };
    let server = Server::start("conns", limits);
    let held: Vec<TcpStream> = (0..8)
        .map(|_| TcpStream::connect(server.addr).unwrap())
        .collect();
    let mut extra = TcpStream::connect(server.addr).unwrap();
    assert!(
        closed_within(&mut extra, Duration::from_secs(5)),
        "a ninth connection from the same address is closed at once"
    );
    drop(held);
    eventually(
        Duration::from_secs(5),
        "places come back when connections close",
        || get(&server.url("/api/games")).is_ok_and(|r| r.status == 200),
    );
}

#[test]
fn slow_senders_and_idle_connections_are_cut_off() {
    let limits = Limits {
        header_timeout: Duration::from_secs(1),
        request_timeout: Duration::from_secs(2),
        ..Limits::default()
    };
    let server = Server::start("slow", limits);
    // Headers sent a byte at a time and never finished.
    let mut slow = TcpStream::connect(server.addr).unwrap();
    slow.write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    assert!(
        closed_within(&mut slow, Duration::from_secs(5)),
        "half-sent headers"
    );
    // A connection that never sends a byte.
    let mut silent = TcpStream::connect(server.addr).unwrap();
    assert!(
        closed_within(&mut silent, Duration::from_secs(5)),
        "a silent connection"
    );
    // A body promised and never sent: the request times out with an answer.
    let mut body = TcpStream::connect(server.addr).unwrap();
    body.write_all(
        b"POST /api/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"nick",
    )
    .unwrap();
    body.set_read_timeout(Some(Duration::from_secs(6))).unwrap();
    let mut answer = String::new();
    let _ = body.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
}

#[test]
fn a_silent_websocket_is_closed_and_binary_floods_are_rate_limited() {
    let limits = Limits {
        ws_idle: Duration::from_millis(1500),
        ..Limits::default()
    };
    let server = Server::start("ws", limits);
    let ane = server.player("Ane");
    let id = server.table(&ane, json!({"game": "mus"}));
    let mut flood = server.ws(&id, None);
    read_of(&mut flood, "state");
    for _ in 0..100 {
        flood.send(Message::Binary(vec![1, 2, 3].into())).unwrap();
    }
    let mut binary_refusals = 0;
    let mut rate_refusals = 0;
    let deadline = Instant::now() + Duration::from_secs(10);
    while binary_refusals + rate_refusals < 41 && Instant::now() < deadline {
        let m = read_of(&mut flood, "error");
        let text = m["message"].as_str().unwrap();
        if text.contains("binary") {
            binary_refusals += 1;
        } else if text.contains("too many") {
            rate_refusals += 1;
        }
    }
    assert_eq!(binary_refusals, 40, "the burst, then the rate limit");
    assert_eq!(rate_refusals, 1);

    // A client that answers nothing (not even the server's pings) is closed: its socket
    // is read under the WebSocket, which would answer the pings.
    let mut silent = server.ws(&id, None);
    let MaybeTlsStream::Plain(raw) = silent.get_mut() else {
        unreachable!("a plain socket")
    };
    let start = Instant::now();
    assert!(
        closed_within(raw, Duration::from_secs(10)),
        "a silent connection is closed"
    );
    assert!(
        start.elapsed() >= Duration::from_millis(1000),
        "not before its time"
    );
}

#[test]
fn creation_is_rate_limited_and_open_tables_are_capped() {
    let limits = Limits {
        creates_per_minute: 3,
        open_tables_per_player: 2,
        ..Limits::default()
    };
    let server = Server::start("creates", limits);
    let ane = server.player("Ane");
    server.player("Bea");
    server.player("Cris");
    let (code, v) = server.api(
        "POST",
        "/api/players",
        None,
        Some(json!({"nickname": "Dani"})),
    );
    assert_eq!(code, 429, "{v}");
    assert!(v["error"].as_str().unwrap().contains("try again in"), "{v}");

    let server = Server::start(
        "open",
        Limits {
            open_tables_per_player: 2,
            ..Limits::default()
        },
    );
    let ane2 = server.player("Ane");
    server.table(&ane2, json!({"game": "mus"}));
    server.table(&ane2, json!({"game": "mus"}));
    let (code, v) = server.api(
        "POST",
        "/api/tables",
        Some(&ane2),
        Some(json!({"game": "mus"})),
    );
    assert_eq!(code, 429, "{v}");
    assert!(v["error"].as_str().unwrap().contains("not finished"), "{v}");
    drop(ane);
}

#[test]
fn answers_carry_security_headers_and_errors_are_json_in_web_words() {
    let server = Server::start("headers", Limits::default());
    let r = get(&server.url("/")).unwrap();
    let csp = r.header("content-security-policy").unwrap_or("");
    assert!(
        csp.contains("default-src 'self'") && csp.contains("frame-ancestors 'none'"),
        "{csp}"
    );
    assert_eq!(r.header("x-frame-options"), Some("DENY"));
    assert_eq!(r.header("x-content-type-options"), Some("nosniff"));

    let (code, v) = server.api("GET", "/api/players/abc/games", None, None);
    assert_eq!(code, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("number"), "{v}");
    let (code, v) = server.api("GET", "/api/tables/x/replay/notanumber", None, None);
    assert_eq!(code, 400, "{v}");
    let (code, v) = server.api("POST", "/api/players", None, Some(json!({"nickname": 7})));
    assert_eq!(code, 400, "{v}");
    for bad in ["Ane\u{200B}", "\u{202E}enA", "A\u{FEFF}ne", "Ane\u{2066}"] {
        let (code, v) = server.api("POST", "/api/players", None, Some(json!({"nickname": bad})));
        assert_eq!(code, 400, "{bad:?}: {v}");
        assert!(v["error"].as_str().unwrap().contains("invisible"), "{v}");
    }
    let (code, v) = server.api("GET", "/api/leyes?hand=RRCA&pares=next%3Dmaybe", None, None);
    assert_eq!(code, 400);
    let e = v["error"].as_str().unwrap();
    assert!(e.contains("pares") && !e.contains("--"), "{e}");
}

#[test]
fn a_table_keeps_its_watchers_within_bounds_and_tells_arrivals_in_small_messages() {
    let limits = Limits {
        watchers_per_table: 3,
        ..Limits::default()
    };
    let server = Server::start("watchers", limits);
    let ane = server.player("Ane");
    let bea = server.player("Bea");
    let id = server.table(&ane, json!({"game": "mus"}));
    let mut a = server.ws(&id, Some(&ane));
    read_of(&mut a, "state");
    let mut w: Vec<_> = (0..3).map(|_| server.ws(&id, None)).collect();
    for c in &mut w {
        read_of(c, "state");
    }
    let mut fourth = server.ws(&id, None);
    let m = read(&mut fourth).expect("told why");
    assert!(m["message"].as_str().unwrap().contains("watchers"), "{m}");
    assert!(read(&mut fourth).is_none(), "then closed");

    // Bea arrives (not seated: a watcher, over the cap) — refused; once seated at Ane's
    // table she is a person at a seat and always gets in.
    drop(w.pop());
    // Her place comes as soon as the table has seen the watcher leave.
    let mut b = loop {
        let mut b = server.ws(&id, Some(&bea));
        let m = read(&mut b).expect("an answer");
        if m["type"] == "state" {
            break b;
        }
        assert!(m["message"].as_str().unwrap().contains("watchers"), "{m}");
    };
    b.send(Message::Text(
        json!({"type": "sit", "seat": 1}).to_string().into(),
    ))
    .unwrap();
    // Everybody gets the new state.
    let s = read_of(&mut a, "state");
    assert_eq!(s["table"]["seats"][1]["player"]["nickname"], "Bea");
    // A second connection of a seated person: the others hear only a small message. Once
    // it has its state the table has dealt with its arrival; Ane's ping is answered after
    // anything the arrival sent her.
    let mut b2 = server.ws(&id, Some(&bea));
    read_of(&mut b2, "state");
    send(&mut a, json!({"type": "ping"}));
    let mut kinds = Vec::new();
    loop {
        let m = read(&mut a).expect("open");
        if m["type"] == "pong" {
            break;
        }
        kinds.push(m["type"].as_str().unwrap().to_string());
    }
    assert!(
        kinds.iter().all(|k| k != "state"),
        "an arrival sends no whole state to the others: {kinds:?}"
    );
}

#[test]
fn replays_are_small_indexes_with_steps_built_on_demand() {
    let server = Server::start("replay", Limits::default());
    let ane = server.player("Ane");
    let id = server.table(
        &ane,
        json!({"game": "mus", "rules": {"target": 40, "juegos": 3, "vacas": 1}, "seat": 0,
               "pace_ms": 0, "hold_s": 0, "start": true, "bot": "basico"}),
    );
    // Ane plays her turns quietly; the bots the rest. Two juegos at least: an órdago
    // ends only one, so the game is long whatever the deal.
    let mut a = server.ws(&id, Some(&ane));
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        assert!(Instant::now() < deadline, "the game did not end");
        let m = read(&mut a).expect("open");
        if m["type"] != "state" {
            continue;
        }
        if !m["outcome"].is_null() {
            break;
        }
        let legal: Vec<&str> = m["legal"]
            .as_array()
            .map(|l| l.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let pick = ["no hay mus", "paso", "no quiero"]
            .into_iter()
            .find(|p| legal.contains(p))
            .or(legal.first().copied());
        if let Some(pick) = pick {
            send(&mut a, json!({"type": "act", "action": pick, "id": m["n"]}));
        }
    }
    let text = get(&server.url(&format!("/api/tables/{id}/replay")))
        .unwrap()
        .text();
    let index: Value = serde_json::from_str(&text).unwrap();
    let steps = index["steps"].as_u64().unwrap();
    assert!(steps > 20, "{steps}");
    assert!(
        text.len() < 60 * steps as usize + 4096,
        "the index is the actions, not every view: {} bytes for {steps} steps",
        text.len()
    );
    // Many steps asked for at once: all answered, none over the concurrency bound.
    let handles: Vec<_> = (0..12)
        .map(|i| {
            let url = server.url(&format!("/api/tables/{id}/replay/{}", (i * 7) % steps));
            std::thread::spawn(move || get(&url).map(|r| r.status).ok())
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().unwrap(), Some(200));
    }
}

/// A WebSocket to `table` on a socket whose receive buffer is as small as the system
/// allows, that never reads a byte: the server's writes fill it at once.
fn never_reading(server: &Server, table: &str) -> TcpStream {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(1024).unwrap();
    let stream = rt.block_on(socket.connect(server.addr)).unwrap();
    let mut s = stream.into_std().unwrap();
    s.set_nonblocking(false).unwrap();
    let request = format!(
        "GET /ws/{table} HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
        server.addr
    );
    s.write_all(request.as_bytes()).unwrap();
    s
}

#[test]
fn a_websocket_that_never_reads_holds_a_bounded_queue_and_is_let_go_while_the_table_plays_on() {
    // Far above one state (its story of at most 200 lines, each a key, its arguments and
    // its English text, is some 20–45 KB), far below the 2 MB a server allows by default.
    let bound = 96 * 1024;
    let limits = Limits {
        queued_bytes_per_conn: bound,
        ..Limits::default()
    };
    let server = Server::start("never-reads", limits);
    let ane = server.player("Ane");
    // Ane holds a seat but is away at once: the bots play every seat at full speed, and
    // every action is a state of some KB for each connection.
    let id = server.table(
        &ane,
        json!({"game": "mus", "rules": {"juegos": 5, "vacas": 5}, "seat": 0, "start": true,
               "pace_ms": 0, "hold_s": 0, "away_s": 0, "bot": "basico"}),
    );
    let mut watcher = server.ws(&id, None);
    read_of(&mut watcher, "state");
    let mut silent = never_reading(&server, &id);
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut n = 0;
    while server.gauges.slow_closed() == 0 {
        assert!(
            Instant::now() < deadline,
            "the client that never reads is still served ({} bytes queued in all)",
            server.gauges.queued_bytes()
        );
        let state = read_of(&mut watcher, "state");
        assert!(
            state["outcome"].is_null(),
            "the game ended after {} actions before the client was let go ({} bytes queued, the most {})",
            state["n"],
            server.gauges.queued_bytes(),
            server.gauges.most_queued_bytes()
        );
        n = state["n"].as_u64().unwrap();
    }
    eprintln!("let go after {n} actions");
    // Its queue never held more than the bound (each state is far smaller than it).
    let most = server.gauges.most_queued_bytes();
    assert!(most <= bound, "{most} bytes queued for one connection");
    // The table plays on for the watcher that reads.
    let on = state_until(&mut watcher, |s| s["n"].as_u64() > Some(n + 10));
    assert!(on["outcome"].is_null());
    // The silent client's socket is closed: reading it now meets its end, after what the
    // kernels still hold for it (megabytes). Its tiny window would let that through a
    // couple of KB a round trip, hundreds of reads that took more than 40 s on a loaded
    // machine: it reads with a window of a normal size now.
    socket2::SockRef::from(&silent)
        .set_recv_buffer_size(4 << 20)
        .unwrap();
    assert!(
        closed_within(&mut silent, Duration::from_secs(40)),
        "the server closes the socket of a client it let go"
    );
    // And nothing is held for it any more: what is queued is the watcher's, at most.
    assert!(server.gauges.queued_bytes() <= bound);
}

#[test]
fn a_chat_flood_and_huge_messages_leave_the_table_and_its_frames_bounded() {
    use tapete_server::chat::{BURST, KEEP, MAX_BYTES};
    let server = Server::start_file("chat-flood", crate::support::roomy());
    let ane = server.player("Ane");
    let id = server.table(&ane, json!({"game": "mus", "pace_ms": 0, "seat": 0}));
    let long = "ñ".repeat(MAX_BYTES / 2);
    // Many people each flood the table with messages of the largest size, sent raw as
    // fast as the socket takes them: each gets its burst, the rest is refused.
    let people = KEEP / BURST as usize + 5;
    for i in 0..people {
        let token = server.player(&format!("flood{i}"));
        let mut ws = server.ws(&id, Some(&token));
        read_of(&mut ws, "chat_history");
        for _ in 0..30 {
            let m = json!({"type": "chat", "text": long}).to_string();
            ws.send(Message::Text(m.into())).unwrap();
        }
        // A message far past the bounds is refused whole, and the connection goes on.
        let huge = json!({"type": "chat", "text": "x".repeat(60_000)}).to_string();
        ws.send(Message::Text(huge.into())).unwrap();
        let (mut refused_huge, mut mine) = (false, 0);
        while !refused_huge || mine < BURST {
            let m = read(&mut ws).expect("the connection stays open");
            if m["type"] == "chat" && m["line"]["nickname"] == format!("flood{i}") {
                mine += 1;
            }
            refused_huge |= m["type"] == "error"
                && m["message"]
                    .as_str()
                    .unwrap()
                    .starts_with("message too large");
        }
    }
    // A newcomer gets the last KEEP messages once, in one frame of bounded size.
    let mut ws = server.ws(&id, None);
    let h = read_of(&mut ws, "chat_history");
    assert_eq!(h["lines"].as_array().unwrap().len(), KEEP);
    // Messages are numbered as accepted: each person's burst, no more.
    assert_eq!(h["lines"][KEEP - 1]["n"], people * BURST as usize);
    let bytes = h.to_string().len();
    assert!(bytes < KEEP * (MAX_BYTES + 200), "{bytes} bytes of history");
    // The table stores no more than it keeps.
    let db = server.db.clone();
    let most = server.gauges.most_queued_bytes();
    assert!(most <= Limits::default().queued_bytes_per_conn, "{most}");
    drop(ws);
    drop(server);
    let c = rusqlite::Connection::open(&db).unwrap();
    let stored: i64 = c
        .query_row("SELECT count(*) FROM chat", [], |r| r.get(0))
        .unwrap();
    assert_eq!(stored, KEEP as i64);
}

/// Every page of the lobby's list, from the first, following `Link: rel="next"`: the ids
/// of each page, and the total the first page announced.
fn lobby_pages(server: &Server) -> (Vec<Vec<String>>, usize) {
    let mut pages = Vec::new();
    let mut total = 0;
    let mut path = Some("/api/tables".to_string());
    while let Some(p) = path {
        let r = get(&server.url(&p)).unwrap();
        assert_eq!(r.status, 200, "{p}: {}", r.text());
        if pages.is_empty() {
            total = r.header("x-total-count").unwrap().parse().unwrap();
        }
        let list = r.json().unwrap();
        let ids = list.as_array().unwrap().iter();
        pages.push(ids.map(|t| t["id"].as_str().unwrap().to_string()).collect());
        path = r.header("link").map(|l| {
            assert!(l.ends_with("rel=\"next\""), "{l}");
            l.trim_start_matches('<')
                .split('>')
                .next()
                .unwrap()
                .to_string()
        });
    }
    (pages, total)
}

/// The attack of a lobby flood: 49 tables people are at (from five addresses), then 198
/// tables made and left by eleven addresses. Each address keeps at most ten open, and the
/// lobby lists the tables people are at first: all 49 are on its first page, and every
/// table is on one page of it.
#[test]
fn a_flood_of_left_tables_from_many_addresses_keeps_the_tables_people_are_at_on_top() {
    let server = Server::start_behind_proxy("flood", Limits::default());
    let mut real = Vec::new();
    let mut people = Vec::new();
    for i in 0..49 {
        let ip = format!("10.1.0.{}", i / 10 + 1);
        let (code, p) = server.api_from(
            &ip,
            "POST",
            "/api/players",
            None,
            Some(json!({"nickname": format!("Real{i}")})),
        );
        assert_eq!(code, 200, "{p}");
        let token = p["token"].as_str().unwrap().to_string();
        let (code, t) = server.api_from(
            &ip,
            "POST",
            "/api/tables",
            Some(&token),
            Some(json!({"game": "mus"})),
        );
        assert_eq!(code, 200, "{t}");
        let id = t["id"].as_str().unwrap().to_string();
        let mut ws = server.ws(&id, Some(&token));
        read_of(&mut ws, "state");
        people.push(ws);
        real.push(id);
    }
    let (mut made, mut refused) = (0, 0);
    for a in 1..=11 {
        let ip = format!("10.2.0.{a}");
        for g in 0..2 {
            let (code, p) = server.api_from(
                &ip,
                "POST",
                "/api/players",
                None,
                Some(json!({"nickname": format!("junk{a}-{g}")})),
            );
            assert_eq!(code, 200, "{p}");
            let token = p["token"].as_str().unwrap().to_string();
            for _ in 0..9 {
                let (code, e) = server.api_from(
                    &ip,
                    "POST",
                    "/api/tables",
                    Some(&token),
                    Some(json!({"game": "mus"})),
                );
                match code {
                    200 => made += 1,
                    429 => {
                        assert_eq!(e["code"], "too_many_tables_from_address", "{e}");
                        refused += 1;
                    }
                    _ => panic!("{code}: {e}"),
                }
            }
        }
    }
    assert_eq!((made, refused), (110, 88), "ten open tables an address");
    let (pages, total) = lobby_pages(&server);
    assert_eq!(total, 49 + 110);
    let first: Vec<&String> = pages[0].iter().filter(|id| real.contains(id)).collect();
    println!(
        "tables people are at on the lobby's first page: {} of 49",
        first.len()
    );
    assert_eq!(
        first.len(),
        49,
        "every table people are at is on the first page"
    );
    assert_eq!(pages[0].len(), 50);
    let mut all: Vec<String> = pages.concat();
    assert_eq!(all.len(), total, "{} pages", pages.len());
    all.sort();
    all.dedup();
    assert_eq!(all.len(), total, "no table on two pages");
    let (code, e) = server.api("GET", "/api/tables?page=0", None, None);
    assert_eq!(code, 400, "{e}");
    drop(people);
}

/// A table that never started goes, from the lobby and from storage, a short while after
/// its last person left (its creator may make another then); one with a person at it
/// stays, and so does a game under way nobody is at. On paused time, with the default
/// while (two minutes).
#[test]
fn a_table_that_never_started_goes_soon_after_its_people_left() {
    let waiting_end = Limits::default().idle_waiting_table;
    let server = Server::start_paused(
        "waiting-gone",
        Limits {
            open_tables_per_player: 3,
            // The person who stays at a table reads nothing while the clock moves: her
            // link is not closed as silent.
            ws_idle: Duration::from_secs(24 * 3600),
            ..Limits::default()
        },
    );
    let ane = server.player("Ane");
    // A private table waits for the friends its link was sent to, however long its
    // creator is away: it is not removed.
    let (code, private) = server.api(
        "POST",
        "/api/tables",
        Some(&ane),
        Some(json!({"game": "mus", "private": true})),
    );
    assert_eq!(code, 200, "{private}");
    let private_id = private["id"].as_str().unwrap().to_string();
    let invite = private["invite"].as_str().unwrap().to_string();
    {
        let mut gone = server.ws(&private_id, Some(&ane));
        read_of(&mut gone, "state");
    }
    let left = server.table(&ane, json!({"game": "mus"}));
    let kept = server.table(&ane, json!({"game": "mus"}));
    let (code, e) = server.api(
        "POST",
        "/api/tables",
        Some(&ane),
        Some(json!({"game": "mus"})),
    );
    assert_eq!(
        (code, e["code"].as_str()),
        (429, Some("too_many_tables")),
        "{e}"
    );
    let mut here = server.ws(&kept, Some(&ane));
    read_of(&mut here, "state");
    {
        let mut gone = server.ws(&left, Some(&ane));
        read_of(&mut gone, "state");
    }
    let listed = |id: &str| {
        let (_, open) = server.api("GET", "/api/tables", None, None);
        open.as_array().unwrap().iter().any(|t| t["id"] == id)
    };
    // (The clock moves on until the table has seen its last connection go: its while
    // counts from then.)
    eventually(
        Duration::from_secs(20),
        "the left table leaves the lobby",
        || {
            server.advance(waiting_end);
            !listed(&left)
        },
    );
    let (code, e) = server.api("GET", &format!("/api/tables/{left}"), None, None);
    assert_eq!(
        (code, e["code"].as_str()),
        (404, Some("table_not_found")),
        "{e}"
    );
    // Gone from storage too (a stored table would be loaded again and answered).
    if !server.db.to_string_lossy().starts_with("postgres") {
        let c = rusqlite::Connection::open(&server.db).unwrap();
        let rows: i64 = c
            .query_row(
                "SELECT count(*) FROM seats WHERE table_id = ?1",
                [&left],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(rows, 0);
    }
    assert!(listed(&kept), "a table with a person at it stays");
    let (code, e) = server.api(
        "GET",
        &format!("/api/tables/{private_id}?invite={invite}"),
        None,
        None,
    );
    assert_eq!(code, 200, "a private table waits for its friends: {e}");
    // Its creator has room for another now; a game under way nobody is at stays. Made at
    // the same moment (the clock stands still in between), a waiting table of Bea's that
    // nobody opens goes when the while has passed: once it is gone, the game under way
    // has been as long without anyone, and is still there.
    let playing = server.table(&ane, json!({"game": "mus", "start": true, "pace_ms": 5000}));
    let bea = server.player("Bea");
    let probe = server.table(&bea, json!({"game": "mus"}));
    server.advance(waiting_end);
    eventually(
        Duration::from_secs(10),
        "the waiting table nobody opened leaves the lobby",
        || !listed(&probe),
    );
    assert!(
        listed(&playing),
        "a game under way went with the waiting tables"
    );
    assert!(listed(&kept));
    drop(here);
}

#[test]
fn the_tables_an_address_holds_open_are_bounded_and_come_back_as_they_end() {
    let server = Server::start_behind_proxy(
        "tables-per-addr",
        Limits {
            open_tables_per_addr: 3,
            idle_waiting_table: Duration::from_millis(500),
            ..Limits::default()
        },
    );
    let guest = |ip: &str, n: &str| {
        let (_, p) = server.api_from(
            ip,
            "POST",
            "/api/players",
            None,
            Some(json!({ "nickname": n })),
        );
        p["token"].as_str().unwrap().to_string()
    };
    let make = |ip: &str, token: &str| {
        server.api_from(
            ip,
            "POST",
            "/api/tables",
            Some(token),
            Some(json!({"game": "mus"})),
        )
    };
    let (a, b) = ("192.0.2.1", "192.0.2.2");
    let tokens: Vec<String> = (0..4).map(|i| guest(a, &format!("p{i}"))).collect();
    // Each creator sits at their table with a connection, so none goes for standing empty
    // however slowly this runs: the bound alone refuses the fourth.
    let mut held = Vec::new();
    for t in &tokens[..3] {
        let (code, table) = make(a, t);
        assert_eq!(code, 200, "{table}");
        let mut ws = server.ws_from(a, table["id"].as_str().unwrap(), Some(t));
        read_of(&mut ws, "state");
        held.push(ws);
    }
    let (code, e) = make(a, &tokens[3]);
    assert_eq!(code, 429, "{e}");
    assert_eq!(e["code"], "too_many_tables_from_address");
    assert!(e["error"].as_str().unwrap().contains("at most 3"), "{e}");
    // Another address is not touched; and once the first's tables went (their creators
    // left, and nobody came), it may make tables again.
    let other = guest(b, "q");
    assert_eq!(make(b, &other).0, 200);
    drop(held);
    eventually(
        Duration::from_secs(10),
        "the address has room again",
        || make(a, &tokens[3]).0 == 200,
    );
}

#[test]
fn guests_accounts_and_tables_are_created_on_budgets_of_their_own() {
    let server = Server::start(
        "creates-apart",
        Limits {
            creates_per_minute: 2,
            ..Limits::default()
        },
    );
    let ane = server.player("Ane");
    server.player("Bea");
    let (code, e) = server.api(
        "POST",
        "/api/players",
        None,
        Some(json!({"nickname": "Cris"})),
    );
    assert_eq!(
        (code, e["code"].as_str()),
        (429, Some("rate_limited")),
        "{e}"
    );
    // Two guests spent nothing of the accounts' budget nor of the tables'.
    server.account("Dani");
    server.table(&ane, json!({"game": "mus"}));
    server.table(&ane, json!({"game": "mus"}));
    let (code, _) = server.api(
        "POST",
        "/api/tables",
        Some(&ane),
        Some(json!({"game": "mus"})),
    );
    assert_eq!(code, 429);
}
