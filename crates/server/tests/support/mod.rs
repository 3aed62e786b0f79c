//! A server in this process for the tests, with the limits each test asks for, and a
//! few client helpers.
#![allow(dead_code)]

pub mod coins;
pub mod ring;
pub mod stored;

use serde_json::{json, Value};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::time::Duration;
use tapete_server::{Config, Limits};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

pub type Ws = WebSocket<MaybeTlsStream<TcpStream>>;

/// The odds tools a test server offers: [`coins::Coins`] and [`coins::Gate`].
pub fn odds() -> Vec<std::sync::Arc<dyn tapete_server::OddsTool>> {
    vec![
        std::sync::Arc::new(coins::Coins),
        std::sync::Arc::new(coins::Gate),
    ]
}

/// The games a test server offers: the catalog's, and [`ring::RingHost`] (2–6 seats).
pub fn games() -> Vec<std::sync::Arc<dyn tapete_server::Kind>> {
    let mut games = tapete_catalog::kinds();
    games.push(tapete_host::kind_of::<ring::RingHost>());
    games
}

/// A new, empty database `t_<pid>_<name>` on the PostgreSQL server of `base` (its
/// maintenance database's URL); its URL.
pub fn fresh_postgres(base: &str, name: &str) -> PathBuf {
    let db: String = format!("t_{}_{name}", std::process::id())
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .take(60)
        .collect();
    let mut c = postgres::Client::connect(base, postgres::NoTls)
        .unwrap_or_else(|e| panic!("TAPETE_TEST_PG={base}: {e}"));
    c.batch_execute(&format!("DROP DATABASE IF EXISTS {db}"))
        .unwrap();
    c.batch_execute(&format!("CREATE DATABASE {db}")).unwrap();
    let (head, _) = base.rsplit_once('/').expect("a URL ending in /database");
    PathBuf::from(format!("{head}/{db}"))
}

pub struct Server {
    pub addr: SocketAddr,
    pub db: PathBuf,
    /// Tables the server restored from the database when it started.
    pub restored: usize,
    /// What the server's connection queues hold, as the server keeps it.
    pub gauges: std::sync::Arc<tapete_server::net::outbox::Gauges>,
    limits: Limits,
    /// The balancer whose connections start with a PROXY line (`--proxy`), if any.
    proxy: Option<std::net::IpAddr>,
    /// The nicknames of its operators.
    operators: Vec<String>,
    /// A server on paused time: where [`Server::advance`] asks its runtime to move it.
    time: Option<tokio::sync::mpsc::UnboundedSender<(Duration, std::sync::mpsc::Sender<()>)>>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    /// A server of its own for the test `name`: on a fresh PostgreSQL database when
    /// `TAPETE_TEST_PG` names a server's maintenance database (a URL), else on a fresh
    /// SQLite file.
    pub fn start(name: &str, limits: Limits) -> Server {
        match std::env::var("TAPETE_TEST_PG") {
            Ok(base) if !base.is_empty() => Server::on(fresh_postgres(&base, name), limits),
            _ => Server::start_file(name, limits),
        }
    }

    /// A server on a fresh SQLite file, for the tests that look into the file.
    pub fn start_file(name: &str, limits: Limits) -> Server {
        let dir =
            std::env::temp_dir().join(format!("tapete-hostile-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Server::on(dir.join("t.db"), limits)
    }

    /// A server of its own for the test `name` (as [`Server::start`]) that takes this
    /// host for its balancer (`--proxy 127.0.0.1`): a connection that opens with a PROXY
    /// line is the address it names ([`Server::api_from`], [`Server::ws_from`]), one that
    /// does not is this host's.
    pub fn start_behind_proxy(name: &str, limits: Limits) -> Server {
        let db = match std::env::var("TAPETE_TEST_PG") {
            Ok(base) if !base.is_empty() => fresh_postgres(&base, name),
            _ => {
                let dir = std::env::temp_dir()
                    .join(format!("tapete-hostile-{}-{name}", std::process::id()));
                let _ = std::fs::remove_dir_all(&dir);
                std::fs::create_dir_all(&dir).unwrap();
                dir.join("t.db")
            }
        };
        Server::with(
            db,
            limits,
            None,
            Some([127, 0, 0, 1].into()),
            false,
            Vec::new(),
        )
    }

    /// A server of its own for the test `name` (as [`Server::start`]) whose time stands
    /// still: none of its timers (turn clocks, idle tables, heartbeats, timeouts, rate
    /// limits) moves until the test moves its clock with [`Server::advance`]. It runs on
    /// one thread, a runtime started paused whose clock does not jump to its next timer
    /// by itself (a blocking task held open keeps tokio from it), so a deadline passes
    /// exactly when the test says, and a check just before it cannot be passed late.
    pub fn start_paused(name: &str, limits: Limits) -> Server {
        let db = match std::env::var("TAPETE_TEST_PG") {
            Ok(base) if !base.is_empty() => fresh_postgres(&base, name),
            _ => {
                let dir = std::env::temp_dir()
                    .join(format!("tapete-hostile-{}-{name}", std::process::id()));
                let _ = std::fs::remove_dir_all(&dir);
                std::fs::create_dir_all(&dir).unwrap();
                dir.join("t.db")
            }
        };
        Server::with(db, limits, None, None, true, Vec::new())
    }

    /// Moves a paused server's clock ([`Server::start_paused`]) on by `by`, a second at a
    /// time, and returns once the tasks its timers woke have run as far as they can
    /// without waiting on the database or a socket.
    pub fn advance(&self, by: Duration) {
        let time = self.time.as_ref().expect("a server started paused");
        let (done, finished) = std::sync::mpsc::channel();
        time.send((by, done)).expect("the server runs");
        finished
            .recv_timeout(Duration::from_secs(20))
            .expect("the clock moved");
    }

    /// Whether this server's time is paused ([`Server::start_paused`]).
    pub fn is_paused(&self) -> bool {
        self.time.is_some()
    }

    /// Stops this server and starts another on the same database.
    pub fn restart(self) -> Server {
        let operators = self.operators.clone();
        self.restart_with_operators(operators)
    }

    /// Stops this server and starts another on the same database, with these accounts'
    /// nicknames for its operators (`tapete serve --operator`).
    pub fn restart_with_operators(self, operators: Vec<String>) -> Server {
        let (db, limits, proxy) = (self.db.clone(), self.limits.clone(), self.proxy);
        let paused = self.time.is_some();
        drop(self);
        Server::with(db, limits, None, proxy, paused, operators)
    }

    pub fn on(db: PathBuf, limits: Limits) -> Server {
        Server::on_node(db, limits, None)
    }

    /// A server on `db` whose operators are the accounts of these nicknames.
    pub fn on_operated(db: PathBuf, limits: Limits, operators: &[&str]) -> Server {
        let operators = operators.iter().map(|s| s.to_string()).collect();
        Server::with(db, limits, None, None, false, operators)
    }

    /// A server on `db` named `node` among the servers sharing it (PostgreSQL).
    pub fn on_node(db: PathBuf, limits: Limits, node: Option<&str>) -> Server {
        Server::with(db, limits, node, None, false, Vec::new())
    }

    fn with(
        db: PathBuf,
        limits: Limits,
        node: Option<&str>,
        proxy: Option<std::net::IpAddr>,
        paused: bool,
        operators: Vec<String>,
    ) -> Server {
        let node = node.map(str::to_owned);
        // The tests' rated games are reviewed as they end, in the background: with a few
        // worlds a decision, not the server's full effort, which would take the cores the
        // tests run on (the review tests choose their own settings).
        let mut limits = limits;
        if limits.review == Limits::default().review {
            limits.review = tapete_review::Settings {
                min_worlds: 2,
                max_worlds: 4,
                threads: 1,
                ..tapete_review::Settings::default()
            };
        }
        let (db2, limits2, operators2) = (db.clone(), limits.clone(), operators.clone());
        let gauges = std::sync::Arc::new(tapete_server::net::outbox::Gauges::default());
        let gauges2 = gauges.clone();
        let (addr_tx, addr_rx) = std::sync::mpsc::channel();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let (time, mut moves) =
            tokio::sync::mpsc::unbounded_channel::<(Duration, std::sync::mpsc::Sender<()>)>();
        let thread = std::thread::spawn(move || {
            let rt = if paused {
                tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .start_paused(true)
                    .build()
                    .unwrap()
            } else {
                tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(2)
                    .enable_all()
                    .build()
                    .unwrap()
            };
            // On paused time, a blocking task kept running stops tokio from jumping the
            // clock to the next timer whenever the runtime waits (on a socket, on the
            // database): only the test moves it.
            let (hold, held) = std::sync::mpsc::channel::<()>();
            if paused {
                rt.spawn_blocking(move || {
                    let _ = held.recv();
                });
                rt.spawn(async move {
                    while let Some((by, done)) = moves.recv().await {
                        let mut left: Duration = by;
                        while !left.is_zero() {
                            let step = left.min(Duration::from_secs(1));
                            tokio::time::advance(step).await;
                            left -= step;
                            // What the step's timers woke runs before the next step.
                            for _ in 0..8 {
                                tokio::task::yield_now().await;
                            }
                        }
                        let _ = done.send(());
                    }
                });
            } else {
                drop((held, moves));
            }
            let mut config = Config::new("127.0.0.1:0".parse().unwrap(), db, games());
            config.limits = limits;
            config.node = node;
            config.proxy = proxy;
            config.odds = odds();
            config.gauges = gauges2;
            config.operators = operators;
            let r = rt.block_on(tapete_server::serve(
                config,
                move |addr, restored| {
                    let _ = addr_tx.send(Ok((addr, restored)));
                },
                async {
                    let _ = stopped.await;
                },
            ));
            if let Err(e) = r {
                eprintln!("server: {e}");
            }
            // The runtime waits for its blocking tasks as it ends.
            drop(hold);
        });
        let (addr, restored): (SocketAddr, usize) = addr_rx
            .recv_timeout(Duration::from_secs(20))
            .expect("the server starts")
            .unwrap_or_else(|e: String| panic!("{e}"));
        Server {
            addr,
            restored,
            gauges,
            db: db2,
            limits: limits2,
            operators: operators2,
            proxy,
            time: paused.then_some(time),
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub fn api(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u16, Value) {
        let r = tapete_loadtest::client::request_as(method, &self.url(path), token, body.as_ref())
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        if r.status >= 400 {
            (r.status, r.json().expect("a JSON error"))
        } else {
            (r.status, r.json().unwrap_or(Value::Null))
        }
    }

    /// [`Server::api`] from the client address `ip` (a server [`Server::start_behind_proxy`]).
    pub fn api_from(
        &self,
        ip: &str,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u16, Value) {
        let from = SocketAddr::new(ip.parse().expect("an address"), 40000);
        let auth = token.map(|t| format!("Bearer {t}"));
        let headers: Vec<(&str, &str)> =
            auth.iter().map(|a| ("Authorization", a.as_str())).collect();
        let r = tapete_loadtest::client::request_from(
            Some(from),
            method,
            &self.url(path),
            &headers,
            body.as_ref(),
        )
        .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        (r.status, r.json().unwrap_or(Value::Null))
    }

    /// Makes an account of `nickname` from the address `ip`; its (id, token).
    pub fn account_from(&self, ip: &str, nickname: &str) -> (i64, String) {
        made(self.api_from(
            ip,
            "POST",
            "/api/accounts",
            None,
            Some(json!({"nickname": nickname, "password": "sota de copas"})),
        ))
    }

    /// [`Server::ws`] from the client address `ip` (a server [`Server::start_behind_proxy`]).
    pub fn ws_from(&self, ip: &str, table: &str, token: Option<&str>) -> Ws {
        use std::io::Write;
        let url = match token {
            Some(t) => format!("ws://{}/ws/{table}?token={t}", self.addr),
            None => format!("ws://{}/ws/{table}", self.addr),
        };
        let from = SocketAddr::new(ip.parse().expect("an address"), 40000);
        let mut stream = TcpStream::connect(self.addr).expect("the server is there");
        stream
            .write_all(tapete_loadtest::client::proxy_line(from, self.addr).as_bytes())
            .unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let (socket, _) = tungstenite::client::client(url, MaybeTlsStream::Plain(stream))
            .expect("websocket connects");
        socket
    }

    pub fn player(&self, nickname: &str) -> String {
        self.player_with_id(nickname).1
    }

    /// Makes an account of `nickname` (a password of the right length); its (id, token).
    pub fn account(&self, nickname: &str) -> (i64, String) {
        made(self.api(
            "POST",
            "/api/accounts",
            None,
            Some(json!({"nickname": nickname, "password": "sota de copas"})),
        ))
    }

    pub fn player_with_id(&self, nickname: &str) -> (i64, String) {
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

    pub fn table(&self, token: &str, body: Value) -> String {
        let (code, t) = self.api("POST", "/api/tables", Some(token), Some(body));
        assert_eq!(code, 200, "{t}");
        t["id"].as_str().unwrap().to_string()
    }

    pub fn ws(&self, table: &str, token: Option<&str>) -> WebSocket<MaybeTlsStream<TcpStream>> {
        let url = match token {
            Some(t) => format!("ws://{}/ws/{table}?token={t}", self.addr),
            None => format!("ws://{}/ws/{table}", self.addr),
        };
        let (socket, _) = tungstenite::connect(url).expect("websocket connects");
        if let MaybeTlsStream::Plain(s) = socket.get_ref() {
            s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        }
        socket
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The next JSON message, or `None` once the server closed the connection; panics after
/// 20 s without one (the server's pings and heartbeats do not count).
pub fn read(ws: &mut WebSocket<MaybeTlsStream<TcpStream>>) -> Option<Value> {
    read_text(ws).map(|t| serde_json::from_str(&t).unwrap())
}

/// The next text message as sent, or `None` once the server closed the connection; panics
/// after 20 s without one (the server's pings and heartbeats do not count).
pub fn read_text(ws: &mut WebSocket<MaybeTlsStream<TcpStream>>) -> Option<String> {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        match ws.read() {
            Ok(Message::Text(t)) if t.as_str() == tapete_server::BEAT => {
                assert!(
                    std::time::Instant::now() <= deadline,
                    "only heartbeats for 20 s"
                );
            }
            Ok(Message::Text(t)) => return Some(t.as_str().to_string()),
            Ok(Message::Close(_)) => return None,
            Ok(_) if std::time::Instant::now() > deadline => panic!("only pings for 20 s"),
            Ok(_) => continue,
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                panic!("no message before the timeout")
            }
            Err(_) => return None,
        }
    }
}

pub fn set_nonblocking(ws: &mut Ws, on: bool) {
    if let MaybeTlsStream::Plain(s) = ws.get_mut() {
        s.set_nonblocking(on).unwrap();
    }
}

/// The states that have arrived already, without waiting.
pub fn drain_states(ws: &mut Ws) -> Vec<Value> {
    set_nonblocking(ws, true);
    let mut out = Vec::new();
    while let Ok(Message::Text(t)) = ws.read() {
        let m: Value = serde_json::from_str(t.as_str()).unwrap();
        if m["type"] == "state" {
            out.push(m);
        }
    }
    set_nonblocking(ws, false);
    out
}

/// Sends a message, never faster than the server's rate limit allows (20 a second, in
/// bursts of 40): a message over it would be ignored. Each connection keeps a token bucket
/// a little inside the server's, so a test waits only when it would go over.
pub fn send(ws: &mut Ws, v: Value) {
    static BUCKETS: std::sync::Mutex<Vec<(SocketAddr, f64, std::time::Instant)>> =
        std::sync::Mutex::new(Vec::new());
    const RATE: f64 = 18.0;
    const BURST: f64 = 30.0;
    let me = match ws.get_ref() {
        MaybeTlsStream::Plain(s) => s.local_addr().expect("a local address"),
        _ => unreachable!("the tests' sockets are plain"),
    };
    let wait = {
        let mut buckets = BUCKETS.lock().unwrap_or_else(|p| p.into_inner());
        let now = std::time::Instant::now();
        let i = match buckets.iter().position(|(a, _, _)| *a == me) {
            Some(i) => i,
            None => {
                buckets.push((me, BURST, now));
                buckets.len() - 1
            }
        };
        let (_, tokens, at) = &mut buckets[i];
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * RATE).min(BURST) - 1.0;
        *at = now;
        // A negative balance is a debt paid by waiting.
        Duration::from_secs_f64((-*tokens / RATE).max(0.0))
    };
    std::thread::sleep(wait);
    ws.send(Message::Text(v.to_string().into())).expect("send");
}

/// Waits until `done` holds, asking again every few milliseconds; panics with `what`
/// after `within`.
pub fn eventually(within: Duration, what: &str, mut done: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + within;
    while !done() {
        assert!(std::time::Instant::now() < deadline, "{what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Reads states until `done` holds for one (other messages are skipped).
/// The (id, token) of an account just made, from the API's answer.
fn made((code, a): (u16, Value)) -> (i64, String) {
    assert_eq!(code, 200, "{a}");
    (
        a["id"].as_i64().unwrap(),
        a["token"].as_str().unwrap().to_string(),
    )
}

pub fn state_until(ws: &mut Ws, mut done: impl FnMut(&Value) -> bool) -> Value {
    loop {
        let m = read_of(ws, "state");
        if done(&m) {
            return m;
        }
    }
}

/// Plays every turn offered on `ws` (the first legal action) until the game is over; its
/// last state.
pub fn play_out(ws: &mut Ws) -> Value {
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        assert!(
            std::time::Instant::now() < deadline,
            "the game took too long"
        );
        let s = read_of(ws, "state");
        if !s["outcome"].is_null() {
            return s;
        }
        if let Some(a) = legal(&s).first() {
            send(
                ws,
                serde_json::json!({"type": "act", "action": a, "id": s["n"]}),
            );
        }
    }
}

pub fn legal(state: &Value) -> Vec<String> {
    state["legal"]
        .as_array()
        .map(|l| {
            l.iter()
                .filter_map(|a| a.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// A quick, always legal choice: pass or decline where possible, else the first.
pub fn choose(legal: &[String]) -> String {
    ["no hay mus", "paso", "no quiero"]
        .into_iter()
        .find(|p| legal.iter().any(|a| a == p))
        .map(String::from)
        .unwrap_or_else(|| legal[0].clone())
}

pub fn read_of(ws: &mut WebSocket<MaybeTlsStream<TcpStream>>, kind: &str) -> Value {
    loop {
        let m = read(ws).expect("the connection stays open");
        if m["type"] == kind {
            return m;
        }
    }
}

/// The narration a page holds, kept from the states it is sent: a state carries it whole
/// (`lines`) or only the lines after those its connection was sent before (`more`).
#[derive(Default)]
pub struct Story(pub Vec<Value>);

impl Story {
    /// Takes in state `s`'s narration; the whole story so far (its latest 200 lines).
    pub fn read(&mut self, s: &Value) -> &[Value] {
        if let Some(all) = s["lines"].as_array() {
            self.0 = all.clone();
        } else if let Some(more) = s["more"].as_array() {
            self.0.extend(more.iter().cloned());
            let n = self.0.len();
            self.0.drain(..n.saturating_sub(200));
        } else {
            panic!("a state without its narration: {s}");
        }
        &self.0
    }
}

/// Limits roomy enough for a test that makes many tables from one address and player.
pub fn roomy() -> Limits {
    Limits {
        creates_per_minute: 1000,
        open_tables_per_player: 1000,
        open_tables_per_addr: 1000,
        profile_reads_per_minute: 1000,
        ..Limits::default()
    }
}

/// The `error` sentence of an API error's JSON.
pub fn error_of(v: &Value) -> &str {
    v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("an error: {v}"))
}
