//! What the other servers on a PostgreSQL database run and who is online at each, kept in
//! memory and brought up to date by PostgreSQL's LISTEN/NOTIFY.
//!
//! Each node writes its changes (see [`super::board`]) and, in the same transaction,
//! notifies [`CHANNEL`] with the ids of the tables it changed, whether its people online
//! changed, and its name; every round does, changed or not, so a notice is also the
//! node's heartbeat. Every other node listens on a connection of its own: it reads the
//! named rows only, so a lobby asked a thousand times a second reads memory, and a change
//! anywhere shows everywhere within a round. A node not heard for [`GONE`] counts no more
//! (its tables' leases are lapsing; another node will take them and say so). While the
//! listening connection is down, [`Mirror::tables`] and [`Mirror::online`] say so with
//! `None` and the caller reads the rows itself.

use super::lease::NOW_MS;
use super::DbResult;
use crate::clock::Clock;
use postgres::fallible_iterator::FallibleIterator;
use postgres::Client;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;
use tokio::time::Instant;

/// The channel the nodes notify and listen on.
pub const CHANNEL: &str = "tapete_board";

/// A node not heard for this long is gone: its tables and people stop counting.
pub const GONE: Duration = Duration::from_secs(10);

/// Below PostgreSQL's 8,000-byte bound on a notice's payload.
const PAYLOAD_BYTES: usize = 7_000;

/// One notice: who sends it, which of its tables changed (or ended), and whether the
/// people online there changed.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
pub struct Notice {
    pub node: String,
    #[serde(default)]
    pub tables: Vec<String>,
    #[serde(default)]
    pub online: bool,
}

/// The payloads that tell `changed` (table ids) and `online` for `node`: one at least
/// (the heartbeat), more when the ids do not fit in one.
pub fn payloads(node: &str, changed: &[String], online: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut notice = Notice {
        node: node.to_owned(),
        tables: Vec::new(),
        online,
    };
    let mut bytes = node.len() + 40;
    for id in changed {
        if bytes + id.len() + 3 > PAYLOAD_BYTES && !notice.tables.is_empty() {
            out.push(json(&notice));
            notice.tables.clear();
            bytes = node.len() + 40;
        }
        bytes += id.len() + 3;
        notice.tables.push(id.clone());
    }
    out.push(json(&notice));
    out
}

fn json(n: &Notice) -> String {
    serde_json::to_string(n).unwrap_or_default()
}

/// The others' tables and people as last told, and when each node was last heard (on
/// the database's clock).
#[derive(Default)]
pub struct Mirror {
    state: Mutex<State>,
    clock: Clock,
}

#[derive(Default)]
struct State {
    listening: bool,
    /// Raised on every change of what [`Mirror::tables`] or [`Mirror::online`] says.
    version: u64,
    /// The nodes heard lately, as last counted.
    alive: Vec<String>,
    /// Table id → (node, description as JSON).
    tables: HashMap<String, (String, String)>,
    online: HashMap<String, HashSet<i64>>,
    heard: HashMap<String, Instant>,
}

impl State {
    fn alive(&self, node: &str, now: Instant) -> bool {
        self.heard
            .get(node)
            .is_some_and(|at| now.saturating_duration_since(*at) < GONE)
    }
}

impl Mirror {
    /// An empty mirror going by `clock`.
    pub fn new(clock: Clock) -> Mirror {
        Mirror {
            state: Mutex::default(),
            clock,
        }
    }

    /// The descriptions (JSON) of the tables the other live nodes run; `None` while this
    /// node is not listening (the caller then reads the rows).
    pub fn tables(&self) -> Option<Vec<String>> {
        let s = self.state.lock().ok()?;
        if !s.listening {
            return None;
        }
        let now = self.clock.now();
        Some(
            s.tables
                .values()
                .filter(|(node, _)| s.alive(node, now))
                .map(|(_, info)| info.clone())
                .collect(),
        )
    }

    /// The people online at the other live nodes; `None` while not listening.
    pub fn online(&self) -> Option<HashSet<i64>> {
        let s = self.state.lock().ok()?;
        if !s.listening {
            return None;
        }
        let now = self.clock.now();
        Some(
            s.online
                .iter()
                .filter(|(node, _)| s.alive(node, now))
                .flat_map(|(_, people)| people.iter().copied())
                .collect(),
        )
    }

    /// A number that changes whenever what this mirror says changes (`None` while not
    /// listening): a reader may keep what it made of the last answer until it does.
    pub fn version(&self) -> Option<u64> {
        let s = self.state.lock().ok()?;
        s.listening.then_some(s.version)
    }

    /// Whether the listening connection is up (and the mirror whole).
    pub fn is_listening(&self) -> bool {
        self.state.lock().is_ok_and(|s| s.listening)
    }

    fn set_listening(&self, on: bool) {
        if let Ok(mut s) = self.state.lock() {
            s.listening = on;
        }
    }
}

/// Starts the thread that listens for the other nodes' notices for `me`, connecting (and
/// after a loss reconnecting) with `config`. It ends once the mirror is dropped.
pub fn start(mut config: postgres::Config, me: String, mirror: &Arc<Mirror>) {
    // Named, so an operator (or a test) can tell it in pg_stat_activity.
    config.application_name("tapete-listen");
    let weak = Arc::downgrade(mirror);
    let _ = std::thread::Builder::new()
        .name("tapete-listen".into())
        .spawn(move || {
            let mut failing = false;
            loop {
                let r = listen(&config, &me, &weak);
                let Some(m) = weak.upgrade() else { return };
                if let Err(e) = r {
                    // Said once per outage: the first failure after listening, or ever.
                    if m.is_listening() || !failing {
                        tracing::warn!(node = %me, "listening for the other servers: {e}; trying again");
                    }
                    failing = true;
                }
                m.set_listening(false);
                drop(m);
                std::thread::sleep(Duration::from_secs(1));
            }
        });
}

/// One listening connection: LISTEN, read everything once, then follow the notices until
/// the connection fails (an error) or the mirror is dropped (`Ok`).
fn listen(config: &postgres::Config, me: &str, weak: &Weak<Mirror>) -> DbResult<()> {
    let mut client = super::pg::connect(config)?;
    client.batch_execute(&format!("LISTEN {CHANNEL}"))?;
    // Listening first, then reading: a change between the two is read twice, never lost.
    let Some(now) = weak.upgrade().map(|m| m.clock.now()) else {
        return Ok(());
    };
    let whole = read_all(&mut client, me, now)?;
    {
        let Some(m) = weak.upgrade() else {
            return Ok(());
        };
        let mut s = m
            .state
            .lock()
            .map_err(|_| super::DbError("the mirror's lock is poisoned".into()))?;
        let version = s.version + 1;
        *s = whole;
        s.version = version;
        s.listening = true;
    }
    loop {
        let mut notices = Vec::new();
        {
            let mut n = client.notifications();
            let first = n.timeout_iter(Duration::from_secs(1)).next()?;
            if let Some(first) = first {
                notices.push(first);
                // Whatever else has come already, in the same round.
                let mut more = n.iter();
                while notices.len() < 10_000 {
                    match more.next()? {
                        Some(x) => notices.push(x),
                        None => break,
                    }
                }
            }
        }
        if client.is_closed() {
            return Err(super::DbError("the listening connection closed".into()));
        }
        let Some(m) = weak.upgrade() else {
            return Ok(());
        };
        let notices: Vec<Notice> = notices
            .iter()
            .filter_map(|n| serde_json::from_str::<Notice>(n.payload()).ok())
            .filter(|n| n.node != me)
            .collect();
        apply(&mut client, me, &m, notices)?;
    }
}

/// Reads every live table and person of the other nodes.
fn read_all(client: &mut Client, me: &str, now: Instant) -> DbResult<State> {
    let mut s = State::default();
    for r in client.query(
        &format!(
            "SELECT node, {NOW_MS} - seen FROM nodes WHERE node <> $1 AND seen > {NOW_MS} - $2"
        ),
        &[&me, &(GONE.as_millis() as i64)],
    )? {
        let (node, age): (String, i64) = (r.get(0), r.get(1));
        let at = now
            .checked_sub(Duration::from_millis(age.max(0) as u64))
            .unwrap_or(now);
        s.heard.insert(node, at);
    }
    for r in client.query(
        &format!(
            "SELECT l.table_id, l.node, l.info FROM live_tables l
             JOIN leases s ON s.table_id = l.table_id AND s.node = l.node
             WHERE s.expires > {NOW_MS} AND l.node <> $1"
        ),
        &[&me],
    )? {
        s.tables.insert(r.get(0), (r.get(1), r.get(2)));
    }
    for r in client.query("SELECT node, player FROM online WHERE node <> $1", &[&me])? {
        let (node, player): (String, i64) = (r.get(0), r.get(1));
        s.online.entry(node).or_default().insert(player);
    }
    Ok(s)
}

/// Brings the mirror up to date with `notices`: the rows they name, read again.
fn apply(client: &mut Client, me: &str, m: &Mirror, notices: Vec<Notice>) -> DbResult<()> {
    let now = m.clock.now();
    let mut ids: Vec<String> = notices.iter().flat_map(|n| n.tables.clone()).collect();
    ids.sort_unstable();
    ids.dedup();
    let mut rows: HashMap<String, (String, String)> = HashMap::new();
    if !ids.is_empty() {
        for r in client.query(
            "SELECT table_id, node, info FROM live_tables WHERE table_id = ANY($1)",
            &[&ids],
        )? {
            rows.insert(r.get(0), (r.get(1), r.get(2)));
        }
    }
    let mut people: HashMap<String, HashSet<i64>> = HashMap::new();
    for n in notices.iter().filter(|n| n.online) {
        if people.contains_key(&n.node) {
            continue;
        }
        let set = client
            .query("SELECT player FROM online WHERE node = $1", &[&n.node])?
            .iter()
            .map(|r| r.get(0))
            .collect();
        people.insert(n.node.clone(), set);
    }
    let mut s = m
        .state
        .lock()
        .map_err(|_| super::DbError("the mirror's lock is poisoned".into()))?;
    for n in &notices {
        s.heard.insert(n.node.clone(), now);
    }
    let changed = !ids.is_empty() || !people.is_empty();
    for id in ids {
        match rows.remove(&id) {
            Some((node, info)) if node != me => {
                s.tables.insert(id, (node, info));
            }
            _ => {
                s.tables.remove(&id);
            }
        }
    }
    s.online.extend(people);
    let mut alive: Vec<String> = s
        .heard
        .keys()
        .filter(|n| s.alive(n, now))
        .cloned()
        .collect();
    alive.sort_unstable();
    if changed || alive != s.alive {
        s.alive = alive;
        s.version += 1;
    }
    // Nodes gone for long are forgotten, with what they ran.
    let long_gone: Vec<String> = s
        .heard
        .iter()
        .filter(|(_, at)| now.saturating_duration_since(**at) > GONE * 6)
        .map(|(n, _)| n.clone())
        .collect();
    for node in long_gone {
        s.heard.remove(&node);
        s.online.remove(&node);
        s.tables.retain(|_, (n, _)| *n != node);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_fit_postgres_bound_and_carry_every_id_once() {
        let ids: Vec<String> = (0..3_000).map(|i| format!("t{i:07}")).collect();
        let out = payloads("node-1", &ids, true);
        assert!(out.len() > 1);
        let mut seen = Vec::new();
        for p in &out {
            assert!(p.len() < 8_000, "{}", p.len());
            let n: Notice = serde_json::from_str(p).unwrap();
            assert_eq!((n.node.as_str(), n.online), ("node-1", true));
            seen.extend(n.tables);
        }
        assert_eq!(seen, ids);
        // Nothing changed: one heartbeat.
        let beat = payloads("n", &[], false);
        assert_eq!(beat.len(), 1);
        let n: Notice = serde_json::from_str(&beat[0]).unwrap();
        assert_eq!(n.tables, Vec::<String>::new());
    }
}
