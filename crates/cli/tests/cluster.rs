//! Three `tapete serve` nodes sharing one PostgreSQL database behind HAProxy
//! (deploy/haproxy.cfg), through the real binary: a person plays Mus, Chinchón and tikki
//! tables while the node running them is killed (`kill -9`) mid-hand, five times, each
//! table acting again within 3 s in at most 3 tries of the page; a node stopped (SIGSTOP)
//! past its lease finds its tables taken and its clients gone when it wakes; two nodes
//! asked for one orphaned table at once give it one owner; after the database restarts,
//! every table sends its state again and its bots go on.
//!
//! They need PostgreSQL and HAProxy: `deploy/test-postgres.sh` runs them (in CI too), with
//! `TAPETE_TEST_PG` naming a PostgreSQL server's maintenance database.

use crate::common::{choose, held_for_me, legal};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read as _, Write as _};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

const NEEDS: &str = "needs PostgreSQL and HAProxy: deploy/test-postgres.sh runs it";

/// A fresh database on the test's PostgreSQL server; its URL.
fn fresh_database(name: &str) -> String {
    let base = std::env::var("TAPETE_TEST_PG").expect(NEEDS);
    let db = format!("c_{}_{name}", std::process::id());
    let mut c = postgres::Client::connect(&base, postgres::NoTls).expect("PostgreSQL answers");
    c.batch_execute(&format!("DROP DATABASE IF EXISTS {db}"))
        .unwrap();
    c.batch_execute(&format!("CREATE DATABASE {db}")).unwrap();
    let (head, _) = base.rsplit_once('/').expect("a URL ending in /database");
    format!("{head}/{db}")
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

struct Node {
    name: String,
    port: u16,
    child: Option<Child>,
}

impl Node {
    fn start(db: &str, name: &str, port: u16) -> Node {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tapete"))
            .args(["serve", "--addr", &format!("127.0.0.1:{port}"), "--db", db])
            .args(["--node", name, "--proxy", "127.0.0.1"])
            .args([
                "--max-conns-per-addr",
                "10000",
                "--creates-per-minute",
                "100000",
                "--open-tables-per-addr",
                "100000",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("tapete serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .expect("the node prints its address");
        assert!(line.contains("serving at"), "{line}");
        Node {
            name: name.into(),
            port,
            child: Some(child),
        }
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    fn pid(&self) -> u32 {
        self.child.as_ref().expect("running").id()
    }

    /// `kill -9`: the node dies at once, mid-write or not.
    fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            c.kill().unwrap();
            c.wait().unwrap();
        }
    }

    fn signal(&self, sig: &str) {
        let ok = Command::new("kill")
            .args([sig, &self.pid().to_string()])
            .status()
            .unwrap();
        assert!(ok.success());
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        if self.child.is_some() {
            self.signal("-CONT");
        }
        self.kill();
    }
}

struct Cluster {
    db: String,
    nodes: Vec<Node>,
    haproxy: Child,
    front: String,
}

impl Cluster {
    fn start(name: &str) -> Cluster {
        Cluster::start_with(name, 10_000, 100_000)
    }

    /// A cluster whose balancer lets one address hold `conns` connections and make
    /// `reqs` requests in 10 s, over all the nodes.
    fn start_with(name: &str, conns: u32, reqs: u32) -> Cluster {
        let db = fresh_database(name);
        let nodes: Vec<Node> = (1..=3)
            .map(|i| Node::start(&db, &format!("n{i}"), free_port()))
            .collect();
        let front = free_port();
        let cfg = concat!(env!("CARGO_MANIFEST_DIR"), "/../../deploy/haproxy.cfg");
        let haproxy = Command::new("haproxy")
            .args(["-db", "-f", cfg])
            .env("TAPETE_FRONT", format!("127.0.0.1:{front}"))
            .env("TAPETE_N1", format!("127.0.0.1:{}", nodes[0].port))
            .env("TAPETE_N2", format!("127.0.0.1:{}", nodes[1].port))
            .env("TAPETE_N3", format!("127.0.0.1:{}", nodes[2].port))
            .env("TAPETE_CONNS_PER_ADDR", conns.to_string())
            .env("TAPETE_REQS_PER_ADDR", reqs.to_string())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("haproxy starts (apt-get install haproxy)");
        let cluster = Cluster {
            db,
            nodes,
            haproxy,
            front: format!("http://127.0.0.1:{front}"),
        };
        cluster.wait_all_up();
        cluster
    }

    /// Until HAProxy has sent requests to every node (its checks see each one up).
    fn wait_all_up(&self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut seen = std::collections::HashSet::new();
        while seen.len() < 3 {
            assert!(
                Instant::now() < deadline,
                "HAProxy never reached all three nodes"
            );
            if let Ok(r) = tapete_loadtest::client::get(&format!("{}/api/games", self.front)) {
                if let Some(n) = r.header("x-tapete-node") {
                    seen.insert(n.to_string());
                }
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn node(&mut self, name: &str) -> &mut Node {
        self.nodes.iter_mut().find(|n| n.name == name).unwrap()
    }

    fn api(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u16, Value) {
        api_at(&self.front, method, path, token, body)
    }

    /// A new guest called `nickname`; its token.
    fn person(&self, nickname: &str) -> String {
        let (code, p) = self.api(
            "POST",
            "/api/players",
            None,
            Some(json!({ "nickname": nickname })),
        );
        assert_eq!(code, 200, "{p}");
        p["token"].as_str().unwrap().to_string()
    }

    /// A new table made by `token` through the balancer; its id.
    fn table(&self, token: &str, body: Value) -> String {
        let (code, t) = self.api("POST", "/api/tables", Some(token), Some(body));
        assert_eq!(code, 200, "{t}");
        t["id"].as_str().unwrap().to_string()
    }

    /// The node holding `table`'s lease, read from the database.
    fn owner(&self, table: &str) -> Option<String> {
        let mut c = postgres::Client::connect(&self.db, postgres::NoTls).unwrap();
        c.query_opt("SELECT node FROM leases WHERE table_id = $1", &[&table])
            .unwrap()
            .map(|r| r.get(0))
    }

    /// The actions stored for `table`.
    fn stored_actions(&self, table: &str) -> i64 {
        let mut c = postgres::Client::connect(&self.db, postgres::NoTls).unwrap();
        c.query_one(
            "SELECT count(*) FROM actions WHERE table_id = $1",
            &[&table],
        )
        .unwrap()
        .get(0)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = self.haproxy.kill();
        let _ = self.haproxy.wait();
    }
}

fn api_at(
    base: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let r =
        tapete_loadtest::client::request_as(method, &format!("{base}{path}"), token, body.as_ref())
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    (r.status, r.json().unwrap_or(Value::Null))
}

/// What reading a link gave.
enum Read {
    Message(Value),
    Closed,
    /// Nothing within the read timeout.
    Silent,
}

struct Client {
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    last: Option<Value>,
    /// Every view this person was sent, by the action count it came at, and their seat.
    views: Vec<(u64, Value)>,
    seat: Option<u64>,
    /// The node a `table_moved` answer last named, which the page keeps asking for.
    node: String,
}

/// The page's waits before each new try after a link is lost (`BACKOFF_MS` in table.js).
const BACKOFF_MS: [u64; 7] = [200, 500, 1000, 2000, 4000, 8000, 10_000];

/// A person's link to a table through HAProxy, found as the page finds it: a refused
/// WebSocket sends it to ask for the table, and a `table_moved` answer names the node to
/// ask HAProxy for (`?node=`); between tries it waits as the page does. Tries for up to
/// 40 s (a frozen owner's lease lasts 10).
fn connect(front: &str, table: &str, token: &str) -> Client {
    connect_counting(front, table, token, "").0
}

/// [`connect`] asking first for `node` (the one the page was last sent to), and the tries
/// it took (the first included).
fn connect_counting(front: &str, table: &str, token: &str, node: &str) -> (Client, usize) {
    let deadline = Instant::now() + Duration::from_secs(40);
    let mut node = node.to_owned();
    let mut tries = 0;
    loop {
        assert!(
            Instant::now() < deadline,
            "no node would serve table {table}"
        );
        tries += 1;
        let ws = front.replacen("http://", "ws://", 1);
        let url = format!("{ws}/ws/{table}?token={token}&node={node}");
        if let Ok((socket, _)) = tungstenite::connect(url) {
            if let MaybeTlsStream::Plain(s) = socket.get_ref() {
                s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
            }
            let client = Client {
                socket,
                last: None,
                views: Vec::new(),
                seat: None,
                node,
            };
            return (client, tries);
        }
        let (code, e) = api_at(
            front,
            "GET",
            &format!("/api/tables/{table}"),
            Some(token),
            None,
        );
        if code == 503 && e["code"] == "table_moved" {
            node = e["node"].as_str().unwrap().to_string();
        }
        let wait = BACKOFF_MS[tries.min(BACKOFF_MS.len() - 1)];
        std::thread::sleep(Duration::from_millis(wait));
    }
}

impl Client {
    fn send(&mut self, v: Value) {
        self.socket
            .send(Message::Text(v.to_string().into()))
            .expect("send");
    }

    /// The next message (`None`: the link closed; a read timeout is a failure).
    fn next(&mut self) -> Option<Value> {
        match self.read() {
            Read::Message(v) => Some(v),
            Read::Closed => None,
            Read::Silent => panic!("nothing for 20 s"),
        }
    }

    fn read(&mut self) -> Read {
        loop {
            match self.socket.read() {
                Ok(Message::Text(t)) => {
                    let v: Value = serde_json::from_str(t.as_str()).expect("JSON");
                    if v["type"] == "state" {
                        self.last = Some(v.clone());
                        if let (Some(n), Some(seat)) = (v["n"].as_u64(), v["you"]["seat"].as_u64())
                        {
                            assert!(self.seat.is_none_or(|s| s == seat), "one seat: {v}");
                            self.seat = Some(seat);
                            self.views.push((n, v["view"].clone()));
                        }
                    }
                    return Read::Message(v);
                }
                Ok(Message::Close(_)) => return Read::Closed,
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    return Read::Silent
                }
                Err(_) => return Read::Closed,
                Ok(_) => continue,
            }
        }
    }

    fn state_until(&mut self, mut done: impl FnMut(&Value) -> bool) -> Value {
        if let Some(s) = self.last.clone().filter(|s| done(s)) {
            return s;
        }
        loop {
            let v = self.next().expect("the link stays open");
            if v["type"] == "state" && done(&v) {
                return v;
            }
        }
    }
}

/// Plays our decisions (the first legal action; passes in Mus) until `more` of our own
/// actions are acknowledged, and stops at our next decision: a state that waits for us.
fn play(c: &mut Client, more: usize) -> Value {
    let mut done = 0;
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        assert!(Instant::now() < deadline, "the game did not come to us");
        let s =
            c.state_until(|s| !legal(s).is_empty() || !s["outcome"].is_null() || held_for_me(s));
        if !s["outcome"].is_null() {
            return s;
        }
        if legal(&s).is_empty() {
            c.send(json!({"type": "next"}));
            c.last = None;
            continue;
        }
        if done == more {
            return s;
        }
        let pick = choose(&legal(&s));
        let n = s["n"].as_u64().unwrap();
        std::thread::sleep(Duration::from_millis(55));
        c.send(json!({"type": "act", "action": pick, "id": n}));
        loop {
            let m = c.next().expect("an answer to the action");
            if m["type"] == "ack" {
                assert_eq!(m["n"], n + 1, "{m}");
                break;
            }
            assert_ne!(m["type"], "error", "{m}");
        }
        done += 1;
        c.last = None;
    }
}

/// How long a table took to act again after its node was killed, and what it cost.
struct Failover {
    round: usize,
    table: String,
    /// Tries the person's page made to connect again.
    tries: usize,
    /// From the kill to the table's state on the new link.
    resumed: Duration,
    /// From the kill to the acknowledgement of the person's next action.
    acted: Duration,
}

/// The person's page of `id`, whose node just died (at `killed_at`): it waits its first
/// backoff, connects again as the page does, finds the table exactly where it was
/// (`before`) and plays its next action there.
fn fail_over(
    front: &str,
    token: &str,
    id: &str,
    c: &mut Client,
    before: &Value,
    killed_at: Instant,
    round: usize,
) -> Failover {
    std::thread::sleep(Duration::from_millis(BACKOFF_MS[0]));
    let seen = std::mem::take(&mut c.views);
    let (again, tries) = connect_counting(front, id, token, &c.node);
    *c = again;
    c.views = seen;
    let after = c.state_until(|_| true);
    let resumed = killed_at.elapsed();
    assert_eq!(
        after["n"], before["n"],
        "table {id}: every acknowledged action, no more"
    );
    assert_eq!(
        after["view"], before["view"],
        "table {id}: the same seat sees the same"
    );
    assert_eq!(after["legal"], before["legal"], "table {id}");
    assert_eq!(after["you"], before["you"], "table {id}");
    let n = after["n"].as_u64().unwrap();
    c.send(json!({"type": "act", "action": choose(&legal(&after)), "id": n}));
    loop {
        let m = c.next().expect("an answer to the action");
        if m["type"] == "ack" {
            assert_eq!(m["n"], n + 1, "{m}");
            break;
        }
        assert_ne!(m["type"], "error", "table {id}: {m}");
    }
    c.last = None;
    Failover {
        round,
        table: id.to_owned(),
        tries,
        resumed,
        acted: killed_at.elapsed(),
    }
}

/// A table of each game, long (Mus: three vacas of three juegos) and started at once with
/// bots that play without a pause: they outlast the kills and restarts of a test.
fn long_fast_tables() -> [Value; 3] {
    [
        json!({"game": "mus", "rules": {"target": 40, "juegos": 3, "vacas": 3}, "bot": "basico",
               "pace_ms": 0, "hold_s": 0, "start": true}),
        json!({"game": "chinchon", "pace_ms": 0, "hold_s": 0, "start": true}),
        json!({"game": "tikki", "rules": {"rounds": 20}, "pace_ms": 0, "hold_s": 0, "start": true}),
    ]
}

#[test]
#[ignore = "needs PostgreSQL and HAProxy: deploy/test-postgres.sh runs it"]
fn tables_survive_kill_9_of_their_node_again_and_again_through_haproxy() {
    let mut cluster = Cluster::start("failover");
    let token = cluster.person("Ane");
    let mut tables = Vec::new();
    for body in long_fast_tables() {
        let id = cluster.table(&token, body);
        let c = connect(&cluster.front, &id, &token);
        tables.push((id, c));
    }
    // Every node's lobby lists every table, whichever node runs it.
    let ids: Vec<String> = tables.iter().map(|(id, _)| id.clone()).collect();
    for node in &cluster.nodes {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let (_, listed) = api_at(&node.url(), "GET", "/api/tables", None, None);
            let listed: Vec<&str> = listed
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|t| t["id"].as_str())
                .collect();
            if ids.iter().all(|id| listed.contains(&id.as_str())) {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "{}'s lobby lists {listed:?}",
                node.name
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }
    let mut failovers = Vec::new();
    for round in 0..5 {
        // Into each game, to one of our own decisions.
        let mut before = Vec::new();
        for (id, c) in &mut tables {
            let s = play(c, 3);
            assert!(
                s["outcome"].is_null(),
                "table {id} ended too soon for this test"
            );
            assert_eq!(
                cluster.stored_actions(id),
                s["n"].as_i64().unwrap(),
                "acknowledged = stored"
            );
            before.push(s);
        }
        // Kill the node that runs the first table (by the round, another each time).
        let (first, _) = &tables[round % tables.len()];
        let victim = cluster.owner(first).expect("a leased table");
        let orphaned: Vec<bool> = tables
            .iter()
            .map(|(id, _)| cluster.owner(id).as_deref() == Some(victim.as_str()))
            .collect();
        let killed_at = Instant::now();
        cluster.node(&victim).kill();
        // Each page whose node died connects again by itself, at once, all together.
        let front = cluster.front.clone();
        let measured: Vec<Failover> = std::thread::scope(|s| {
            let pages: Vec<_> = tables
                .iter_mut()
                .zip(&before)
                .zip(&orphaned)
                .filter(|(_, orphaned)| **orphaned)
                .map(|(((id, c), b), _)| {
                    let (front, token) = (&front, &token);
                    s.spawn(move || fail_over(front, token, id, c, b, killed_at, round))
                })
                .collect();
            pages.into_iter().map(|p| p.join().unwrap()).collect()
        });
        for f in &measured {
            eprintln!(
                "round {}: table {} acts again {:?} after its node was killed \
                 (its state {:?} after), in {} tries",
                f.round, f.table, f.acted, f.resumed, f.tries
            );
            assert_ne!(
                cluster.owner(&f.table).as_deref(),
                Some(victim.as_str()),
                "table {}",
                f.table
            );
        }
        failovers.extend(measured);
        // The dead node comes back (under its name) for the next round.
        let port = cluster.node(&victim).port;
        let db = cluster.db.clone();
        *cluster.node(&victim) = Node::start(&db, &victim, port);
        cluster.wait_all_up();
    }
    let slowest = failovers.iter().map(|f| f.acted).max().unwrap();
    let tries = failovers.iter().map(|f| f.tries).max().unwrap();
    eprintln!(
        "{} failovers over 5 kills: each table acted again within {slowest:?}, \
         in at most {tries} tries",
        failovers.len()
    );
    assert!(
        failovers.len() >= 5,
        "every kill orphaned a table: {}",
        failovers.len()
    );
    for f in &failovers {
        assert!(
            f.acted <= Duration::from_secs(3) && f.tries <= 3,
            "round {}: table {} acted again {:?} after the kill, in {} tries",
            f.round,
            f.table,
            f.acted,
            f.tries
        );
    }
    // And the games go on.
    for (_, c) in &mut tables {
        play(c, 2);
    }
    // No frame showed the person more than their seat's view: every view they were sent
    // is their seat's view of the stored log at that action, replayed.
    for (id, c) in &tables {
        assert_only_their_views(&cluster, id, c);
    }
}

/// Replays `table`'s stored log and checks each view `c` was sent against its seat's.
fn assert_only_their_views(cluster: &Cluster, table: &str, c: &Client) {
    let mut db = postgres::Client::connect(&cluster.db, postgres::NoTls).unwrap();
    let row = db
        .query_one(
            "SELECT game, rules, seed, seats FROM tables WHERE id = $1",
            &[&table],
        )
        .unwrap();
    let (game, rules, seed, seats): (String, String, i64, i64) =
        (row.get(0), row.get(1), row.get(2), row.get(3));
    let actions: Vec<(i64, String)> = db
        .query(
            "SELECT seat, action FROM actions WHERE table_id = $1 ORDER BY n",
            &[&table],
        )
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    let kind = tapete_catalog::kinds()
        .into_iter()
        .find(|k| k.name() == game)
        .unwrap();
    let rules: Value = serde_json::from_str(&rules).unwrap();
    let mut g = kind.new_game(&rules, seats as usize, seed as u64).unwrap();
    let seat = c.seat.expect("a seat") as usize;
    let mut views = c.views.clone();
    assert!(
        views.len() >= 10,
        "table {table}: only {} views seen",
        views.len()
    );
    views.sort_by_key(|(n, _)| *n);
    let mut applied = 0u64;
    for (n, view) in views {
        while applied < n {
            let (s, a) = &actions[applied as usize];
            g.apply(*s as usize, a).unwrap();
            applied += 1;
        }
        let theirs: Value = serde_json::from_str(&g.view_text(Some(seat))).unwrap();
        assert_eq!(
            view, theirs,
            "table {table}: the view sent at action {n} is seat {seat}'s"
        );
    }
}

#[test]
#[ignore = "needs PostgreSQL and HAProxy: deploy/test-postgres.sh runs it"]
fn a_node_stopped_past_its_lease_is_fenced_and_its_clients_move() {
    let mut cluster = Cluster::start("fencing");
    let token = cluster.person("Bea");
    let id = cluster.table(
        &token,
        json!({"game": "mus", "bot": "basico", "pace_ms": 0, "hold_s": 0, "start": true}),
    );
    let mut old = connect(&cluster.front, &id, &token);
    let before = play(&mut old, 2);
    let n = before["n"].as_u64().unwrap();
    let frozen = cluster.owner(&id).unwrap();
    let frozen_url = cluster.node(&frozen).url();
    cluster.node(&frozen).signal("-STOP");
    // Past its lease (10 s): another node takes the table when the page asks again.
    std::thread::sleep(Duration::from_secs(12));
    let mut new = connect(&cluster.front, &id, &token);
    let s = new.state_until(|_| true);
    assert_eq!(s["n"], n);
    let owner = cluster.owner(&id).unwrap();
    assert_ne!(owner, frozen);
    let after = play(&mut new, 1);
    let m = after["n"].as_u64().unwrap();
    assert!(m > n);
    // The frozen node wakes: it must not write, and its client is let go.
    cluster.node(&frozen).signal("-CONT");
    if let MaybeTlsStream::Plain(s) = old.socket.get_ref() {
        s.set_read_timeout(Some(Duration::from_secs(1))).unwrap();
    }
    let mut gone = false;
    let deadline = Instant::now() + Duration::from_secs(15);
    while Instant::now() < deadline {
        match old.read() {
            Read::Closed => {
                gone = true;
                break;
            }
            Read::Message(v) if v["type"] == "ack" => {
                panic!("the fenced node acknowledged an action: {v}")
            }
            Read::Message(_) | Read::Silent => {}
        }
    }
    assert!(gone, "the fenced node kept its client");
    assert_eq!(
        cluster.stored_actions(&id),
        m as i64,
        "the log is the new owner's alone"
    );
    // Asked directly, the woken node sends the person to the owner.
    let (code, e) = api_at(
        &frozen_url,
        "GET",
        &format!("/api/tables/{id}"),
        Some(&token),
        None,
    );
    assert_eq!(
        (code, e["code"].as_str()),
        (503, Some("table_moved")),
        "{e}"
    );
    assert_eq!(e["node"], owner.as_str());
    // The game goes on with its owner.
    play(&mut new, 1);
}

#[test]
#[ignore = "needs PostgreSQL and HAProxy: deploy/test-postgres.sh runs it"]
fn two_nodes_asked_for_one_orphaned_table_give_it_one_owner() {
    let mut cluster = Cluster::start("race");
    let token = cluster.person("Cai");
    let id = cluster.table(&token, json!({"game": "tikki", "pace_ms": 0, "hold_s": 0}));
    let dead = cluster.owner(&id).unwrap();
    cluster.node(&dead).kill();
    // PostgreSQL ends its session, and its lock, at once; both survivors are asked at
    // the same moment (unless one's poll took the table first: then it serves it and
    // the other names it all the same).
    std::thread::sleep(Duration::from_millis(200));
    let others: Vec<String> = cluster
        .nodes
        .iter()
        .filter(|n| n.name != dead)
        .map(|n| n.url())
        .collect();
    let answers: Vec<(u16, Value)> = std::thread::scope(|s| {
        let asks: Vec<_> = others
            .iter()
            .map(|url| {
                let (id, token) = (&id, &token);
                s.spawn(move || api_at(url, "GET", &format!("/api/tables/{id}"), Some(token), None))
            })
            .collect();
        asks.into_iter().map(|a| a.join().unwrap()).collect()
    });
    let owner = cluster.owner(&id).unwrap();
    assert_ne!(owner, dead);
    let served = answers.iter().filter(|(c, _)| *c == 200).count();
    let sent = answers
        .iter()
        .filter(|(c, e)| *c == 503 && e["node"] == owner.as_str())
        .count();
    assert_eq!(
        (served, sent),
        (1, 1),
        "one serves it, the other names it: {answers:?}"
    );
}

#[test]
#[ignore = "needs PostgreSQL and HAProxy: deploy/test-postgres.sh runs it"]
fn one_address_is_bounded_across_all_the_nodes() {
    let cluster = Cluster::start_with("flood", 16, 60);
    let front = cluster.front.trim_start_matches("http://").to_string();
    // Thirty connections held open at once from one address: the balancer answers on
    // sixteen, whichever nodes they would reach, and closes the rest.
    let mut conns: Vec<TcpStream> = (0..30)
        .map(|_| TcpStream::connect(&front).expect("connects"))
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let mut answered = 0;
    for c in &mut conns {
        c.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let _ = c.write_all(b"GET /api/games HTTP/1.1\r\nHost: tapete\r\n\r\n");
        let mut head = [0u8; 12];
        if c.read_exact(&mut head).is_ok() && head.starts_with(b"HTTP/1.1 200") {
            answered += 1;
        }
    }
    assert_eq!(
        answered, 16,
        "the connections one address may hold over all the nodes"
    );
    drop(conns);
    // And its request rate: past it, 429 whichever node would have answered.
    let codes: Vec<u16> = (0..60)
        .map(|_| {
            tapete_loadtest::client::get(&format!("{}/api/games", cluster.front))
                .map(|r| r.status)
                .unwrap_or(0)
        })
        .collect();
    let ok = codes.iter().filter(|c| **c == 200).count();
    assert!(codes.contains(&429), "{codes:?}");
    assert!(
        ok + answered <= 61,
        "{ok} answered past the rate: {codes:?}"
    );
}

/// Stops or starts the test's PostgreSQL server (`pg_ctlcluster`, as
/// `TAPETE_TEST_PG_CLUSTER` names it: "VERSION CLUSTER").
fn pg_ctl(what: &str) {
    let cluster = std::env::var("TAPETE_TEST_PG_CLUSTER").expect(NEEDS);
    let mut args: Vec<&str> = cluster.split_whitespace().collect();
    args.push(what);
    if what == "stop" {
        args.extend(["-m", "fast"]);
    }
    let out = Command::new("pg_ctlcluster")
        .args(&args)
        .output()
        .expect("pg_ctlcluster runs");
    assert!(
        out.status.success(),
        "pg_ctlcluster {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
#[ignore = "needs PostgreSQL and HAProxy: deploy/test-postgres.sh runs it"]
fn after_the_database_restarts_every_table_sends_its_state_again_and_its_bots_go_on() {
    let cluster = Cluster::start("restart");
    let token = cluster.person("Cai");
    let mut tables = Vec::new();
    for body in long_fast_tables() {
        let id = cluster.table(&token, body);
        let mut c = connect(&cluster.front, &id, &token);
        // Cai stands up and watches: the bots play on their own, a second apart.
        c.send(json!({"type": "stand"}));
        tables.push((id, c));
    }
    for (id, c) in &mut tables {
        let s = c.state_until(|_| true);
        let n = s["n"].as_u64().unwrap();
        let s = c.state_until(|s| s["n"].as_u64().unwrap() >= n + 2 || !s["outcome"].is_null());
        assert!(s["outcome"].is_null(), "table {id} ended too soon");
    }
    let owners: Vec<Option<String>> = tables.iter().map(|(id, _)| cluster.owner(id)).collect();
    // The database goes away for 8 s: the bots' writes fail, again and again.
    pg_ctl("stop");
    std::thread::sleep(Duration::from_secs(8));
    let mut last = Vec::new();
    for (_, c) in &mut tables {
        // What each page saw last (the states sent before the stop).
        if let MaybeTlsStream::Plain(s) = c.socket.get_ref() {
            s.set_read_timeout(Some(Duration::from_millis(100)))
                .unwrap();
        }
        while let Read::Message(_) = c.read() {}
        if let MaybeTlsStream::Plain(s) = c.socket.get_ref() {
            s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        }
        last.push(c.last.as_ref().expect("a state")["n"].as_u64().unwrap());
    }
    pg_ctl("start");
    let back = Instant::now();
    for ((id, c), n) in tables.iter_mut().zip(&last) {
        // Without asking, each page is sent its table again...
        c.last = None;
        c.state_until(|_| true);
        let resent = back.elapsed();
        // ...and the bots go on.
        c.state_until(|s| s["n"].as_u64().unwrap() > *n || !s["outcome"].is_null());
        let moved = back.elapsed();
        eprintln!(
            "table {id}: its state {resent:?} after the database was back, a bot's action {moved:?}"
        );
        assert!(resent <= Duration::from_secs(3), "table {id}: {resent:?}");
        assert!(moved <= Duration::from_secs(3), "table {id}: {moved:?}");
    }
    // No table changed hands: every node took its lock again and renewed its leases
    // before any looked for the others' tables.
    let now: Vec<Option<String>> = tables.iter().map(|(id, _)| cluster.owner(id)).collect();
    assert_eq!(now, owners);
    // And the games go on.
    for (id, c) in &mut tables {
        let n = c.state_until(|_| true)["n"].as_u64().unwrap();
        let s = c.state_until(|s| s["n"].as_u64().unwrap() >= n + 2 || !s["outcome"].is_null());
        assert_eq!(cluster.stored_actions(id), s["n"].as_i64().unwrap());
    }
}

/// The outcome a table's log stored in the cluster's database comes to, replayed here.
fn outcome_from_log(cluster: &Cluster, table: &str) -> tapete_table::Outcome {
    let mut c = postgres::Client::connect(&cluster.db, postgres::NoTls).unwrap();
    let row = c
        .query_one(
            "SELECT game, rules, seed, seats FROM tables WHERE id = $1",
            &[&table],
        )
        .unwrap();
    let (game, rules, seed, seats): (String, String, i64, i64) =
        (row.get(0), row.get(1), row.get(2), row.get(3));
    let kinds = tapete_catalog::kinds();
    let kind = kinds.iter().find(|k| k.name() == game).unwrap();
    let rules: Value = serde_json::from_str(&rules).unwrap();
    let mut g = kind.new_game(&rules, seats as usize, seed as u64).unwrap();
    for r in c
        .query(
            "SELECT seat, action FROM actions WHERE table_id = $1 ORDER BY n",
            &[&table],
        )
        .unwrap()
    {
        let (seat, action): (i64, String) = (r.get(0), r.get(1));
        g.apply(seat as usize, &action)
            .expect("the stored log replays");
    }
    g.outcome().expect("the stored log ends the game")
}

#[test]
#[ignore = "needs PostgreSQL and HAProxy: deploy/test-postgres.sh runs it"]
fn a_tournament_goes_on_when_the_node_running_its_round_is_killed() {
    use tapete_tournament::event::{Event, Format, MatchKey, MatchResult};
    use tapete_tournament::Side;
    let mut cluster = Cluster::start("tournament");
    let people: Vec<String> = (0..4)
        .map(|i| {
            let (code, a) = cluster.api(
                "POST",
                "/api/accounts",
                None,
                Some(json!({"nickname": format!("Torneo{i}"), "password": "caballo de bastos"})),
            );
            assert_eq!(code, 200, "{a}");
            a["token"].as_str().unwrap().to_string()
        })
        .collect();
    let (code, made) = cluster.api(
        "POST",
        "/api/tournaments",
        Some(&people[0]),
        Some(
            json!({"name": "Copa", "game": "chinchon", "format": "knockout",
                    "rules": {"target": 20}, "bots": true, "courtesy_s": 30,
                    "pace_ms": 0, "bot": "random"}),
        ),
    );
    assert_eq!(code, 200, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    for p in &people {
        let (code, e) = cluster.api(
            "POST",
            &format!("/api/tournaments/{id}/entries"),
            Some(p),
            Some(json!({})),
        );
        assert_eq!(code, 200, "{e}");
    }
    let (code, t) = cluster.api(
        "POST",
        &format!("/api/tournaments/{id}/start"),
        Some(&people[0]),
        None,
    );
    assert_eq!(code, 200, "{t}");
    let path = format!("/api/tournaments/{id}");
    // Round one's tables wait out their courtesy time: kill -9 the node running them.
    let first = t["matches"][0]["table"].as_str().unwrap().to_string();
    let owner = cluster.owner(&first).expect("a node runs the first match");
    cluster.node(&owner).kill();
    let killed = Instant::now();
    let mut killed_again = false;
    let deadline = Instant::now() + Duration::from_secs(150);
    let t = loop {
        assert!(Instant::now() < deadline, "the tournament did not end");
        let (code, t) = cluster.api("GET", &path, Some(&people[0]), None);
        assert_eq!(code, 200, "{t}");
        if t["status"] == "finished" {
            break t;
        }
        // The final, once opened, loses its node too (unless it is the node killed).
        if !killed_again {
            if let Some(last) = t["matches"]
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["status"] == "waiting" && m["table"] != first.as_str())
            {
                let table = last["table"].as_str().unwrap();
                if let Some(node) = cluster.owner(table) {
                    if node != owner
                        && cluster.nodes.iter().filter(|n| n.child.is_some()).count() > 1
                    {
                        cluster.node(&node).kill();
                        killed_again = true;
                    }
                }
            }
        }
        std::thread::sleep(Duration::from_millis(500));
    };
    eprintln!(
        "tournament over {:.1} s after the first kill; second kill: {killed_again}",
        killed.elapsed().as_secs_f64()
    );
    // Three matches (two semi-finals, the final), each finished; none lost.
    let matches = t["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 3, "{t}");
    let mut results = Vec::new();
    for m in matches {
        assert_eq!(m["status"], "finished", "{m}");
        let outcome = outcome_from_log(&cluster, m["table"].as_str().unwrap());
        let first_won = outcome.winners.contains(&0);
        let margin = (outcome.scores[0] - outcome.scores[1]).abs();
        let winner = if first_won || !outcome.winners.contains(&1) {
            Side::First
        } else {
            Side::Second
        };
        let (fp, sp) = match (winner, first_won || outcome.winners.contains(&1)) {
            (_, false) => (0, 0),
            (Side::First, true) => (margin, 0),
            (Side::Second, true) => (0, margin),
        };
        results.push(MatchResult {
            key: MatchKey::Bracket(m["board"].as_u64().unwrap() as usize),
            first: m["first"].as_u64().unwrap() as usize,
            second: m["second"].as_u64().unwrap() as usize,
            winner: Some(winner),
            first_points: fp,
            second_points: sp,
        });
    }
    let event = Event::new(Format::Knockout { consolation: false }, 4).unwrap();
    let done = event
        .bracket_results(&results)
        .expect("the logs fit the bracket");
    let state = event.bracket().unwrap().state(&done).unwrap();
    assert!(state.over);
    assert_eq!(
        t["standings"]["state"],
        serde_json::to_value(&state).unwrap(),
        "the standings shown are the ones the logs make"
    );
    // And the ones stored by the node that ended it.
    let mut c = postgres::Client::connect(&cluster.db, postgres::NoTls).unwrap();
    let stored: String = c
        .query_one("SELECT standings FROM tournaments WHERE id = $1", &[&id])
        .unwrap()
        .get(0);
    let stored: Value = serde_json::from_str(&stored).unwrap();
    assert_eq!(stored["state"], t["standings"]["state"]);
}
