//! What a server shows of the others sharing its PostgreSQL database: the lobby lists
//! every node's tables and the friends' list knows who is online anywhere and where (the
//! rows each node publishes, see [`crate::store::board`], followed by LISTEN/NOTIFY into
//! memory, see [`crate::store::listen`]). With SQLite there are no others: the lobby is
//! this server's tables.

use crate::table::TableInfo;
use crate::Hub;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a node reuses what it read of the others while it is not listening (the
/// pages ask every 5 s).
const FRESH_FOR: Duration = Duration::from_secs(1);
/// Who is online is written when it changes, and at least every this many publishings.
const ONLINE_EVERY: u32 = 5;

type Cached<T> = Mutex<Option<(Instant, Arc<T>)>>;

/// Which writes of each table's description this node published (the table task's
/// counter, by its address, and its count), and what it last read of everyone's.
#[derive(Default)]
pub struct Board {
    published: Mutex<HashMap<String, (usize, u64)>>,
    online_published: Mutex<Vec<i64>>,
    /// The others' tables as last read from the mirror, by its version.
    mirrored: Mutex<Option<(u64, Arc<Vec<TableInfo>>)>>,
    tables: Cached<Vec<TableInfo>>,
    online: Cached<HashSet<i64>>,
}

fn fresh<T>(c: &Cached<T>) -> Option<Arc<T>> {
    let c = c.lock().ok()?;
    c.as_ref()
        .filter(|(at, _)| at.elapsed() < FRESH_FOR)
        .map(|(_, v)| v.clone())
}

fn keep<T>(c: &Cached<T>, v: Arc<T>) {
    if let Ok(mut c) = c.lock() {
        *c = Some((Instant::now(), v));
    }
}

impl Hub {
    /// Every running table of every server on this database: this server's as they are
    /// now, the others' as they last published them (this server's alone with SQLite, or
    /// when the others cannot be read).
    pub(crate) async fn tables_everywhere(&self) -> Vec<TableInfo> {
        let mut tables = self.all_tables();
        if self.db.node().is_none() {
            return tables;
        }
        let others = match (self.mirrored(), fresh(&self.board.tables)) {
            (Some(t), _) => t,
            (None, Some(t)) => t,
            (None, None) => {
                let t: Vec<TableInfo> = match self.db.live_tables().await {
                    Ok(rows) => rows
                        .iter()
                        .filter_map(|r| serde_json::from_str::<TableInfo>(r).ok())
                        .collect(),
                    Err(e) => {
                        eprintln!("reading the other servers' tables: {e}");
                        Vec::new()
                    }
                };
                let t = Arc::new(t);
                keep(&self.board.tables, t.clone());
                t
            }
        };
        let here: HashSet<String> = tables.iter().map(|t| t.id.clone()).collect();
        tables.extend(others.iter().filter(|t| !here.contains(&t.id)).cloned());
        tables
    }

    /// The other nodes' tables from the mirror (`None` while it is not listening),
    /// parsed again only when the mirror changed.
    fn mirrored(&self) -> Option<Arc<Vec<TableInfo>>> {
        let mirror = self.db.mirror()?;
        let version = mirror.version()?;
        if let Some((v, t)) = self.board.mirrored.lock().ok()?.as_ref() {
            if *v == version {
                return Some(t.clone());
            }
        }
        let t: Arc<Vec<TableInfo>> = Arc::new(
            mirror
                .tables()?
                .iter()
                .filter_map(|r| serde_json::from_str::<TableInfo>(r).ok())
                .collect(),
        );
        if let Ok(mut m) = self.board.mirrored.lock() {
            *m = Some((version, t.clone()));
        }
        Some(t)
    }

    /// Whether `player` is online at this server or any other on its database.
    pub(crate) async fn online(&self, player: i64) -> bool {
        if self.social.presence.is_online(player) {
            return true;
        }
        if self.db.node().is_none() {
            return false;
        }
        if let Some(o) = self.db.mirror().and_then(|m| m.online()) {
            return o.contains(&player);
        }
        let online = match fresh(&self.board.online) {
            Some(o) => o,
            None => {
                let o = Arc::new(match self.db.online_anywhere().await {
                    Ok(v) => v.into_iter().collect(),
                    Err(e) => {
                        eprintln!("reading who is online: {e}");
                        HashSet::new()
                    }
                });
                keep(&self.board.online, o.clone());
                o
            }
        };
        online.contains(&player)
    }

    /// Writes, every [`crate::store::board::PUBLISH_EVERY`], what changed of this server's
    /// tables and (less often) who is online here, for the other servers.
    pub(crate) async fn publish_board(self: Arc<Self>) {
        let mut tick = tokio::time::interval(crate::store::board::PUBLISH_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut n: u32 = 0;
        loop {
            tick.tick().await;
            // Only the tables whose description was written since the last round are
            // serialized: an idle table costs a counter read.
            let handles: Vec<(String, crate::table::TableHandle)> = self
                .tables
                .read()
                .map(|t| t.iter().map(|(id, h)| (id.clone(), h.clone())).collect())
                .unwrap_or_default();
            let last = self
                .board
                .published
                .lock()
                .map(|l| l.clone())
                .unwrap_or_default();
            let mut now: HashMap<String, (usize, u64)> = HashMap::with_capacity(handles.len());
            let mut changed = Vec::new();
            for (id, h) in handles {
                // A table started again has a new counter: its count says nothing.
                let count = (
                    Arc::as_ptr(&h.changes) as usize,
                    h.changes.load(std::sync::atomic::Ordering::Acquire),
                );
                if last.get(&id) != Some(&count) {
                    let Ok(info) = serde_json::to_string(&h.info()) else {
                        continue;
                    };
                    changed.push((id.clone(), info));
                }
                now.insert(id, count);
            }
            let gone: Vec<String> = last
                .keys()
                .filter(|id| !now.contains_key(*id))
                .cloned()
                .collect();
            let mut people = self.social.presence.online_now();
            people.sort_unstable();
            let last_people = self
                .board
                .online_published
                .lock()
                .map(|l| l.clone())
                .unwrap_or_default();
            let online =
                (n.is_multiple_of(ONLINE_EVERY) || people != last_people).then(|| people.clone());
            n = n.wrapping_add(1);
            match self.db.publish(changed, gone, online).await {
                Ok(()) => {
                    if let Ok(mut l) = self.board.published.lock() {
                        *l = now;
                    }
                    if let Ok(mut l) = self.board.online_published.lock() {
                        *l = people;
                    }
                }
                Err(e) => eprintln!("publishing this server's tables: {e}"),
            }
        }
    }
}
