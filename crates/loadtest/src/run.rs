//! `tapete loadtest`: many tables of one game, a WebSocket client in every seat (the
//! game's default seat count), playing as fast as the rules let them, for a fixed time;
//! then every table's stored record is replayed and checked against what its players
//! last saw.
//!
//! Each client plays a uniformly random legal action as soon as its state shows one, and
//! times each action from sending it to its `ack` (written to the database and applied).
//! A table whose game ends is replaced by a new one for the same players.

use futures_util::{SinkExt, StreamExt};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tapete_host::Kind;
use tokio_tungstenite::tungstenite::Message;

/// What to run.
#[derive(Clone)]
pub struct LoadOptions {
    /// The server to drive.
    pub addr: SocketAddr,
    /// The game every table plays (`"mus"`), at its default seat count.
    pub game: String,
    /// The games known here (`tapete_catalog::kinds()`): where `game`'s seat count comes
    /// from, and what replays the stored records.
    pub games: Vec<Arc<dyn Kind>>,
    /// Tables played at once (a client in every seat).
    pub tables: usize,
    /// How long to play.
    pub duration: Duration,
    /// The server's database, to replay every record at the end (skipped if `None`).
    pub db: Option<PathBuf>,
    /// Seed of the clients' choices.
    pub seed: u64,
    /// How long each client waits before it acts, as a person reads the table (zero: as
    /// fast as the server lets a connection act, to find the most it can take).
    pub think: Duration,
}

impl std::fmt::Debug for LoadOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LoadOptions")
            .field("addr", &self.addr)
            .field("game", &self.game)
            .field("tables", &self.tables)
            .field("duration", &self.duration)
            .field("db", &self.db)
            .field("seed", &self.seed)
            .finish()
    }
}

/// What was measured.
#[derive(Clone, Debug, Serialize)]
pub struct LoadReport {
    /// The game played.
    pub game: String,
    pub tables: usize,
    /// Seats at each table (one client each).
    pub seats: usize,
    pub clients: usize,
    /// Milliseconds each client waited before acting.
    pub think_ms: u64,
    /// How long the clients played (actions are sent until then).
    pub seconds: f64,
    /// Actions acknowledged by the server.
    pub actions: u64,
    pub actions_per_second: f64,
    /// Milliseconds from sending an action to its acknowledgement.
    pub latency_ms: Latency,
    /// Games that reached their end during the run.
    pub games_finished: u64,
    /// Refused actions, failed connections and other errors (should be 0).
    pub errors: u64,
    /// The first few errors, in words.
    pub error_samples: Vec<String>,
    /// Tables whose record was replayed from the database and matched (or `None` when no
    /// database was given).
    pub replayed: Option<ReplayCheck>,
}

/// Latency percentiles, in milliseconds.
#[derive(Clone, Debug, Serialize)]
pub struct Latency {
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    pub max: f64,
}

/// The end-of-run replay of stored records.
#[derive(Clone, Debug, Serialize)]
pub struct ReplayCheck {
    pub tables: usize,
    pub matched: usize,
    pub mismatches: Vec<String>,
}

#[derive(Default)]
struct Shared {
    latencies_us: Vec<u64>,
    actions: u64,
    games_finished: u64,
    errors: u64,
    samples: Vec<String>,
    /// Per table: the last state each seat saw (n, view).
    last_seen: HashMap<String, HashMap<usize, (u64, String)>>,
}

impl Shared {
    fn error(&mut self, e: String) {
        self.errors += 1;
        if self.samples.len() < 10 {
            self.samples.push(e);
        }
    }
}

type SharedRef = Arc<Mutex<Shared>>;

/// The parts of a server message a load client reads; the view is kept as raw text.
#[derive(Deserialize)]
struct Incoming {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    id: Option<u64>,
    #[serde(default)]
    n: u64,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    you: Option<You>,
    #[serde(default)]
    legal: Vec<String>,
    #[serde(default)]
    view: Option<Box<RawValue>>,
    #[serde(default)]
    outcome: Option<Box<RawValue>>,
}

#[derive(Deserialize)]
struct You {
    seat: Option<usize>,
}

fn lock(s: &SharedRef) -> std::sync::MutexGuard<'_, Shared> {
    s.lock().unwrap_or_else(|p| p.into_inner())
}

/// A blocking JSON request (run off the async runtime); the answer and the server that
/// gave it (`X-Tapete-Node`, behind a balancer).
fn request(
    base: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> Result<(Value, Option<String>), String> {
    let r = crate::client::request_as(method, &format!("{base}{path}"), token, body.as_ref())
        .map_err(|e| format!("{method} {path}: {e}"))?;
    if r.status >= 400 {
        return Err(format!("{method} {path}: {} {}", r.status, r.text()));
    }
    let node = r.header("x-tapete-node").map(str::to_owned);
    Ok((r.json().map_err(|e| format!("{path}: {e}"))?, node))
}

async fn request_async(
    base: String,
    method: &'static str,
    path: String,
    token: Option<String>,
    body: Option<Value>,
) -> Result<(Value, Option<String>), String> {
    tokio::task::spawn_blocking(move || request(&base, method, &path, token.as_deref(), body))
        .await
        .map_err(|e| e.to_string())?
}

/// Runs the load and, if a database is given, checks every record.
pub async fn run(opts: LoadOptions) -> Result<LoadReport, String> {
    let kind = opts
        .games
        .iter()
        .find(|k| k.name() == opts.game)
        .ok_or_else(|| {
            let names: Vec<&str> = opts.games.iter().map(|k| k.name()).collect();
            format!(
                "`{}` is not a game here: choose one of {}",
                opts.game,
                names.join(", ")
            )
        })?;
    let seats = kind.default_seats();
    let base = format!("http://{}", opts.addr);
    let shared: SharedRef = Arc::new(Mutex::new(Shared::default()));
    // Players first: one per seat of every table.
    let mut tokens = Vec::new();
    for i in 0..opts.tables * seats {
        let (p, _) = request_async(
            base.clone(),
            "POST",
            "/api/players".into(),
            None,
            Some(json!({"nickname": format!("load{i}")})),
        )
        .await?;
        let token = p["token"]
            .as_str()
            .ok_or("the server gave no token")?
            .to_string();
        tokens.push(token);
    }
    let start = Instant::now();
    let deadline = start + opts.duration;
    let mut groups = Vec::new();
    for (t, players) in tokens.chunks(seats).enumerate() {
        let players: Vec<String> = players.to_vec();
        let (base, shared) = (base.clone(), shared.clone());
        let name = opts.game.clone();
        let think = opts.think;
        let seed = opts.seed ^ (t as u64).wrapping_mul(0x9E37_79B9);
        groups.push(tokio::spawn(async move {
            let mut game = 0u64;
            while Instant::now() < deadline {
                let r = play_table(
                    &base,
                    &name,
                    &players,
                    deadline,
                    think,
                    seed ^ game,
                    &shared,
                )
                .await;
                if let Err(e) = r {
                    lock(&shared).error(e);
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                game += 1;
            }
        }));
    }
    for g in groups {
        let _ = g.await;
    }
    // Actions are sent only until the deadline; the drain after it only reads.
    let seconds = deadline.duration_since(start).as_secs_f64();
    // Let the last acknowledged actions settle before reading the database.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut s = std::mem::take(&mut *lock(&shared));
    s.latencies_us.sort_unstable();
    let pct = |p: f64| -> f64 {
        if s.latencies_us.is_empty() {
            return 0.0;
        }
        let i = ((s.latencies_us.len() as f64 - 1.0) * p).round() as usize;
        s.latencies_us[i] as f64 / 1000.0
    };
    let latency = Latency {
        p50: pct(0.50),
        p90: pct(0.90),
        p99: pct(0.99),
        max: pct(1.0),
    };
    let replayed = match &opts.db {
        Some(path) => {
            let logs = stored_logs(path, s.last_seen.keys().cloned().collect()).await?;
            Some(check_records(logs, &opts.games, &s.last_seen))
        }
        None => None,
    };
    Ok(LoadReport {
        game: opts.game,
        tables: opts.tables,
        seats,
        clients: opts.tables * seats,
        think_ms: opts.think.as_millis() as u64,
        seconds,
        actions: s.actions,
        actions_per_second: s.actions as f64 / seconds.max(1e-9),
        latency_ms: latency,
        games_finished: s.games_finished,
        errors: s.errors,
        error_samples: s.samples,
        replayed,
    })
}

/// One table of `game`, a player per token, until its game ends or time is up.
async fn play_table(
    base: &str,
    game: &str,
    tokens: &[String],
    deadline: Instant,
    think: Duration,
    seed: u64,
    shared: &SharedRef,
) -> Result<(), String> {
    // Full-length games (the default rules), so tables stay up most of the run.
    let rules = json!({});
    let body = json!({"game": game, "seats": tokens.len(), "rules": rules, "pace_ms": 0,
                      "seat": 0});
    let (info, node) = request_async(
        base.to_string(),
        "POST",
        "/api/tables".into(),
        Some(tokens[0].clone()),
        Some(body),
    )
    .await?;
    let id = info["id"].as_str().ok_or("no table id")?.to_string();
    let ws_base = base.replacen("http://", "ws://", 1);
    // Behind a balancer, the node that made the table runs it: ask for that one.
    let node = node.map(|n| format!("&node={n}")).unwrap_or_default();
    let mut clients = Vec::new();
    for (seat, token) in tokens.iter().enumerate() {
        let url = format!("{ws_base}/ws/{id}?token={token}{node}");
        let (id, shared) = (id.clone(), shared.clone());
        clients.push(tokio::spawn(async move {
            client(url, id, seat, deadline, think, seed ^ seat as u64, shared).await
        }));
    }
    for c in clients {
        c.await.map_err(|e| e.to_string())??;
    }
    Ok(())
}

/// One player: sits, then answers every state that offers it actions.
async fn client(
    url: String,
    table: String,
    seat: usize,
    deadline: Instant,
    think: Duration,
    seed: u64,
    shared: SharedRef,
) -> Result<(), String> {
    // States are a few KiB: the library's 128 KiB read buffer, zeroed on every read,
    // would make the clients measure themselves more than the server.
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(32 * 1024);
    let (mut ws, _) = tokio_tungstenite::connect_async_with_config(&url, Some(config), true)
        .await
        .map_err(|e| format!("connect {url}: {e}"))?;
    let mut bucket = tapete_server::net::limit::Bucket::with(
        tapete_server::RATE * 0.9,
        tapete_server::BURST / 2.0,
    );
    if seat != 0 {
        bucket.take();
        ws.send(Message::Text(
            json!({"type":"sit","seat":seat}).to_string().into(),
        ))
        .await
        .map_err(|e| e.to_string())?;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut acted_at: u64 = u64::MAX;
    let mut next_id = 0u64;
    let mut sent: HashMap<u64, Instant> = HashMap::new();
    // One action at a time: a state that arrives while ours is in flight may still
    // offer the same decision.
    let mut in_flight = false;
    // The decision this client is thinking over (when, at which state, among what): a
    // newer state replaces it, so it never acts on a state gone by.
    let mut thinking: Option<(Instant, u64, Vec<String>)> = None;
    loop {
        // After the deadline: no more actions, but read until the table is quiet, so the
        // last state seen is the last one stored.
        let left = deadline.saturating_duration_since(Instant::now());
        let draining = left.is_zero();
        // Quiet means no frame for 2 s: an action sent just before the deadline may be
        // stored and told late on a loaded machine.
        let wait = if draining {
            Duration::from_secs(2)
        } else if let Some((at, _, _)) = &thinking {
            at.saturating_duration_since(Instant::now()).min(left)
        } else {
            left
        };
        let frame = match tokio::time::timeout(wait, ws.next()).await {
            Err(_) if draining => break,
            Err(_) => {
                if let Some((at, n, legal)) = thinking.take() {
                    if Instant::now() < at {
                        thinking = Some((at, n, legal));
                    } else {
                        let action = &legal[rng.gen_range(0..legal.len())];
                        tokio::time::sleep(bucket.wait()).await;
                        bucket.take();
                        next_id += 1;
                        sent.insert(next_id, Instant::now());
                        acted_at = n;
                        in_flight = true;
                        ws.send(Message::Text(
                            json!({"type":"act","action":action,"id":next_id})
                                .to_string()
                                .into(),
                        ))
                        .await
                        .map_err(|e| e.to_string())?;
                    }
                }
                continue;
            }
            Ok(None) => return Err(format!("table {table} seat {seat}: the server closed")),
            Ok(Some(Err(e))) => return Err(format!("table {table} seat {seat}: {e}")),
            Ok(Some(Ok(f))) => f,
        };
        let Message::Text(text) = frame else { continue };
        let msg: Incoming = serde_json::from_str(text.as_str()).map_err(|e| e.to_string())?;
        match msg.kind.as_str() {
            "ack" => {
                in_flight = false;
                if let Some(t) = msg.id.and_then(|id| sent.remove(&id)) {
                    let mut s = lock(&shared);
                    s.latencies_us.push(t.elapsed().as_micros() as u64);
                    s.actions += 1;
                }
            }
            "error" => {
                in_flight = false;
                lock(&shared).error(format!(
                    "table {table} seat {seat}: {}",
                    msg.message.unwrap_or_default()
                ))
            }
            "state" => {
                let n = msg.n;
                if msg.you.and_then(|y| y.seat) == Some(seat) {
                    let view = msg.view.map(|v| v.get().to_string()).unwrap_or_default();
                    lock(&shared)
                        .last_seen
                        .entry(table.clone())
                        .or_default()
                        .insert(seat, (n, view));
                }
                if msg.outcome.is_some_and(|o| o.get() != "null") {
                    if seat == 0 {
                        lock(&shared).games_finished += 1;
                    }
                    break;
                }
                let legal = msg.legal;
                thinking = None;
                if draining || legal.is_empty() || acted_at == n || in_flight {
                    continue;
                }
                // Acted on when the thinking time is over (at once without one), unless
                // a newer state comes first.
                thinking = Some((Instant::now() + think, n, legal));
            }
            _ => {}
        }
    }
    let _ = ws.close(None).await;
    Ok(())
}

/// A table as stored: its game, rules, seed, seat count and actions (or why it could
/// not be read).
type StoredLog = Result<(String, Value, u64, usize, Vec<(usize, String)>), String>;

/// The stored logs of tables `ids`: from the SQLite file (read-only, beside the running
/// server) or the PostgreSQL database a cluster shares.
async fn stored_logs(db: &Path, ids: Vec<String>) -> Result<HashMap<String, StoredLog>, String> {
    if let Some(url) = db.to_str().filter(|d| tapete_server::store::pg::is_url(d)) {
        let store = tapete_server::store::Db::open_postgres(url, "loadtest", None)
            .map_err(|e| format!("{}: {e}", tapete_server::store::shown(db)))?;
        let mut logs = HashMap::new();
        for id in ids {
            let log = match store.table(id.clone()).await {
                Ok(Some(t)) => Ok((t.row.game, t.row.rules, t.row.seed, t.row.seats, t.actions)),
                Ok(None) => Err("not stored".to_string()),
                Err(e) => Err(e.to_string()),
            };
            logs.insert(id, log);
        }
        store.close().await;
        return Ok(logs);
    }
    let db = db.to_path_buf();
    tokio::task::spawn_blocking(move || sqlite_logs(&db, ids))
        .await
        .map_err(|e| e.to_string())?
}

fn sqlite_logs(db: &Path, ids: Vec<String>) -> Result<HashMap<String, StoredLog>, String> {
    let conn = rusqlite::Connection::open_with_flags(
        db,
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| format!("{}: {e}", db.display()))?;
    let mut logs = HashMap::new();
    for id in ids {
        let row: Result<(String, String, i64, i64), _> = conn.query_row(
            "SELECT game, rules, seed, seats FROM tables WHERE id = ?1",
            [&id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        );
        let log = match row {
            Ok((game, rules, seed, seats)) => {
                let actions: Vec<(usize, String)> = conn
                    .prepare("SELECT seat, action FROM actions WHERE table_id = ?1 ORDER BY n")
                    .and_then(|mut st| {
                        st.query_map([&id], |r| Ok((r.get::<_, i64>(0)? as usize, r.get(1)?)))?
                            .collect()
                    })
                    .map_err(|e| e.to_string())?;
                serde_json::from_str::<Value>(&rules)
                    .map(|rules| (game, rules, seed as u64, seats.max(0) as usize, actions))
                    .map_err(|e| format!("stored rules: {e}"))
            }
            Err(e) => Err(e.to_string()),
        };
        logs.insert(id, log);
    }
    Ok(logs)
}

/// Replays every table the clients played from its stored log and compares each seat's
/// view with the last one its client received.
fn check_records(
    logs: HashMap<String, StoredLog>,
    kinds: &[Arc<dyn Kind>],
    seen: &HashMap<String, HashMap<usize, (u64, String)>>,
) -> ReplayCheck {
    let mut check = ReplayCheck {
        tables: 0,
        matched: 0,
        mismatches: Vec::new(),
    };
    for (id, seats) in seen {
        check.tables += 1;
        let (game, rules, seed, count, actions) = match logs.get(id) {
            Some(Ok(l)) => l.clone(),
            Some(Err(e)) => {
                check.mismatches.push(format!("{id}: {e}"));
                continue;
            }
            None => {
                check.mismatches.push(format!("{id}: not read"));
                continue;
            }
        };
        let Some(kind) = kinds.iter().find(|k| k.name() == game) else {
            check.mismatches.push(format!("{id}: unknown game {game}"));
            continue;
        };
        let mut g = match kind.new_game(&rules, count, seed) {
            Ok(g) => g,
            Err(e) => {
                check.mismatches.push(format!("{id}: {e}"));
                continue;
            }
        };
        let max_seen = seats.values().map(|(n, _)| *n).max().unwrap_or(0);
        if actions.len() as u64 != max_seen {
            check.mismatches.push(format!(
                "{id}: {} actions stored, players saw {max_seen}",
                actions.len()
            ));
            continue;
        }
        let mut ok = true;
        let mut by_n: Vec<(u64, usize, &String)> =
            seats.iter().map(|(s, (n, v))| (*n, *s, v)).collect();
        by_n.sort_by_key(|(n, s, _)| (*n, *s));
        let mut applied = 0u64;
        let mut wanted = by_n.into_iter().peekable();
        loop {
            while let Some((n, seat, view)) = wanted.peek() {
                if *n != applied {
                    break;
                }
                let seen: Value = serde_json::from_str(view).unwrap_or(Value::Null);
                // What the page was sent: the view in its page form.
                let sent: Value =
                    serde_json::from_str(&g.view_text(Some(*seat))).unwrap_or(Value::Null);
                if sent != seen {
                    check
                        .mismatches
                        .push(format!("{id}: seat {seat}'s view at action {n} differs"));
                    ok = false;
                }
                wanted.next();
            }
            let Some((seat, action)) = actions.get(applied as usize) else {
                break;
            };
            if let Err(e) = g.apply(*seat, action) {
                check.mismatches.push(format!(
                    "{id}: action {} `{action}` does not replay: {e}",
                    applied + 1
                ));
                ok = false;
                break;
            }
            applied += 1;
        }
        if ok {
            check.matched += 1;
        }
    }
    check
}
