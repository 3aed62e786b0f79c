//! One owner per table when several servers share a PostgreSQL database.
//!
//! A node runs a table only while it holds the table's lease: a row (node, epoch,
//! expiry) taken by compare-and-set — free, the same node's, expired, or its owner's
//! gone — each taking raising the epoch. A table whose task ended (nobody at it) is let
//! go: its row stays, held by nobody (`node = ''`), so its epochs keep rising.
//!
//! **A dead owner, at once.** Each node holds a session-level advisory lock keyed by its
//! name ([`NodeSession`]) on its store's connection. A process that dies takes its
//! session with it, and PostgreSQL lets go of the lock within milliseconds: another node
//! asked for one of its tables takes it then (and a node polling, every [`POLL_EVERY`],
//! for the tables of nodes whose lock nobody holds, those nobody asked for within
//! [`ADOPT_AFTER`]) and replays its log, as a restart does, without waiting for the lease
//! to expire. A node whose connection is lost takes its lock again when it connects
//! again; until it does it counts as dead, runs nothing and takes nothing.
//! **A silent owner, on expiry.** A node frozen or cut off keeps its session
//! for a while: it stops renewing its leases (every [`RENEW_EVERY`], for [`LEASE_TTL`]),
//! and once they expire another node takes its tables.
//!
//! **Fencing.** Every write of a table's state checks, in its own transaction, that the
//! lease row still names this node and the epoch it took (`FOR SHARE`: a taking waits for
//! the write's commit, and the write for the taking's). A node paused past its lease
//! (a long stop, a partition) and then resumed finds its writes refused: it can never
//! write after another took over. Expiry is measured on the database's clock, so the
//! nodes' clocks need not agree.
//!
//! With SQLite there is one server per file (its lock file says so): no leases, and every
//! check passes.

use super::{sql::Connection, Db, DbError, DbResult};
use crate::clock::Clock;
use crate::store::{params, OptionalExtension};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::time::Instant;

/// How long a lease lasts without renewal.
pub const LEASE_TTL: Duration = Duration::from_secs(10);
/// How often a node renews its leases.
pub const RENEW_EVERY: Duration = Duration::from_secs(3);
/// How often a node looks for tables whose owner died or stopped renewing: one query.
pub const POLL_EVERY: Duration = Duration::from_secs(1);
/// For this long after its connection to the database was made again, a node takes no
/// table from another: after a database restart every node connects again (within a
/// poll), takes its lock and renews its leases before anyone counts it dead.
pub const RECONNECT_GRACE: Duration = Duration::from_secs(5);
/// A dead node's table nobody asks for is taken by a poll once its owner has been seen
/// gone this long. Meanwhile its people's pages connect again (within a second), each
/// through the balancer to the node that then takes it on the spot: the dead node's
/// tables spread over the others as the balancer hashes them, and each page finds its
/// table at the first node it reaches.
pub const ADOPT_AFTER: Duration = Duration::from_secs(2);
/// How long a starting node waits for its lock (a process of the same name just killed
/// lets go of it within milliseconds, once PostgreSQL sees its connection close).
pub const LOCK_WAIT: Duration = Duration::from_secs(5);

/// The first key of every node's advisory lock ("tape"); the second is the hash of the
/// node's name (`hashtext`), so that any node can tell from `pg_locks` whether another's
/// session is alive.
pub(super) const LOCK_SPACE: i32 = 0x7461_7065;

/// Whether the owner named by the column `node` is gone: no session holds its lock on
/// this database (it died, or its connection was lost and not made again).
pub(super) fn owner_gone(node: &str) -> String {
    format!(
        "NOT EXISTS (SELECT 1 FROM pg_locks k
           WHERE k.locktype = 'advisory' AND k.granted AND k.objsubid = 2
             AND k.classid = {LOCK_SPACE}::oid AND k.objid = hashtext({node})::oid
             AND k.database = (SELECT oid FROM pg_database WHERE datname = current_database()))"
    )
}

/// This node's hold on the database: a session-level advisory lock keyed by its name,
/// taken by the store's connection when it connects and again after every loss of it.
/// PostgreSQL ends the session, and the lock with it, as soon as the process dies: the
/// other nodes see at once that its tables have no owner, without waiting for their
/// leases to expire. (A node frozen or cut off keeps its session for a while: its leases'
/// expiry still decides, and fencing keeps it from writing after another took over.)
pub struct NodeSession {
    pub node: String,
    held: AtomicBool,
    /// When the store's connection was last made again after a loss (not the first).
    reconnected: Mutex<Option<Instant>>,
    /// The database's clock (its graces and patience are read on the database's thread).
    clock: Clock,
}

impl NodeSession {
    pub fn new(node: String, clock: Clock) -> NodeSession {
        NodeSession {
            node,
            held: AtomicBool::new(false),
            reconnected: Mutex::new(None),
            clock,
        }
    }

    /// Whether the store's session holds this node's lock now.
    pub fn held(&self) -> bool {
        self.held.load(Ordering::Acquire)
    }

    /// Whether this node may take another's table now: it holds its lock, and it did not
    /// just connect again (see [`RECONNECT_GRACE`]).
    pub fn may_take(&self) -> bool {
        self.held()
            && self
                .reconnected
                .lock()
                .map(|r| r.is_none_or(|at| self.clock.since(at) >= RECONNECT_GRACE))
                .unwrap_or(true)
    }

    /// Takes the lock on a new connection (`again`: one made after a loss); whether it is
    /// held now.
    pub(super) fn take(&self, client: &mut postgres::Client, again: bool) -> DbResult<bool> {
        if again {
            self.held.store(false, Ordering::Release);
            if let Ok(mut r) = self.reconnected.lock() {
                *r = Some(self.clock.now());
            }
        }
        // The others look for dead owners among the nodes listed.
        client.execute(
            &format!(
                "INSERT INTO nodes (node, seen) VALUES ($1, {NOW_MS})
                 ON CONFLICT (node) DO NOTHING"
            ),
            &[&self.node],
        )?;
        let got: bool = client
            .query_one(
                "SELECT pg_try_advisory_lock($1, hashtext($2))",
                &[&LOCK_SPACE, &self.node],
            )?
            .get(0);
        self.held.store(got, Ordering::Release);
        Ok(got)
    }
}

/// The words of a refused write: the table is another node's now.
pub const NOT_OWNER: &str = "this server no longer holds the table";
/// Why a node takes no table: its session does not hold its lock.
pub const LOCK_LOST: &str =
    "this server does not hold its lock on the database (its connection was lost, or \
     another server of the same name holds it): it runs no table until it does";

/// The database's clock, in milliseconds (PostgreSQL's words: leases exist only there).
pub(super) const NOW_MS: &str = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

/// This node's name, its hold on the database, the epochs of the leases it holds, and
/// since when it has seen each other node gone.
pub struct Leases {
    pub node: String,
    session: Arc<NodeSession>,
    held: Mutex<HashMap<String, i64>>,
    gone_since: Mutex<HashMap<String, Instant>>,
}

/// The answer to asking for a table's lease.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// This node holds it, at this epoch (0: no leases, one server per database).
    Held(i64),
    /// Another node holds it.
    Elsewhere(String),
    /// There is no such table.
    Missing,
}

/// What a table-state write checks in its transaction: the table, this node, the epoch.
pub(crate) type Fence = Option<(String, String, i64)>;

impl Leases {
    pub fn new(session: Arc<NodeSession>) -> Leases {
        Leases {
            node: session.node.clone(),
            session,
            held: Mutex::new(HashMap::new()),
            gone_since: Mutex::new(HashMap::new()),
        }
    }

    /// Notes that the nodes `gone` are gone now (and the others not); those seen gone
    /// for `patience` at least.
    fn gone_for(&self, gone: &[String], patience: Duration) -> Vec<String> {
        let Ok(mut since) = self.gone_since.lock() else {
            return Vec::new();
        };
        let now = self.session.clock.now();
        since.retain(|n, _| gone.contains(n));
        gone.iter()
            .filter(|n| now.duration_since(*since.entry((*n).clone()).or_insert(now)) >= patience)
            .cloned()
            .collect()
    }

    fn epoch(&self, table: &str) -> Option<i64> {
        self.held.lock().ok()?.get(table).copied()
    }

    fn set(&self, table: &str, epoch: Option<i64>) {
        if let Ok(mut h) = self.held.lock() {
            match epoch {
                Some(e) => h.insert(table.to_owned(), e),
                None => h.remove(table),
            };
        }
    }
}

/// Refuses the write unless the lease row still names this node at its epoch; locks the
/// row until the commit, so no taking slips between the check and the write.
pub(crate) fn check(c: &Connection, fence: &Fence) -> DbResult<()> {
    let Some((table, node, epoch)) = fence else {
        return Ok(());
    };
    let ok = c
        .prepare("SELECT 1 FROM leases WHERE table_id = ?1 AND node = ?2 AND epoch = ?3 FOR SHARE")?
        .exists(params![table, node, epoch])?;
    if ok {
        Ok(())
    } else {
        Err(DbError(format!("{NOT_OWNER} {table}")))
    }
}

impl Db {
    /// This node's name when tables have owners (PostgreSQL), else `None`.
    pub fn node(&self) -> Option<&str> {
        self.leases.as_ref().map(|l| l.node.as_str())
    }

    /// What a write of `table`'s state must check (see [`check`]): nothing with SQLite;
    /// with PostgreSQL, a table this node does not hold is refused at once.
    pub(crate) fn fence(&self, table: &str) -> DbResult<Fence> {
        let Some(l) = &self.leases else {
            return Ok(None);
        };
        match l.epoch(table) {
            Some(e) => Ok(Some((table.to_owned(), l.node.clone(), e))),
            None => Err(DbError(format!("{NOT_OWNER} {table}"))),
        }
    }

    /// Takes `table`'s lease if it is free, this node's already, expired, or held by a
    /// node that is gone (no session holds its lock: it died) — raising its epoch — or
    /// says who holds it. A table that does not exist gets no lease. A node that does not
    /// hold its own lock takes nothing (the others would count its leases as a dead
    /// node's), and one that just connected again takes only free tables.
    pub async fn claim(&self, table: String) -> DbResult<Claim> {
        let Some(l) = self.leases.clone() else {
            return Ok(Claim::Held(0));
        };
        let node = l.node.clone();
        let session = l.session.clone();
        let ttl = LEASE_TTL.as_millis() as i64;
        let key = table.clone();
        let claim = self
            .call(move |c| {
                if !session.held() {
                    return Err(DbError(LOCK_LOST.into()));
                }
                let exists = c
                    .prepare("SELECT 1 FROM tables WHERE id = ?1")?
                    .exists([&table])?;
                if !exists {
                    return Ok(Claim::Missing);
                }
                let take = i64::from(session.may_take());
                let taken = c
                    .query_row(
                        &format!(
                            "INSERT INTO leases (table_id, node, epoch, expires)
                             VALUES (?1, ?2, 1, {NOW_MS} + ?3)
                             ON CONFLICT (table_id) DO UPDATE
                             SET node = excluded.node, epoch = leases.epoch + 1,
                                 expires = excluded.expires
                             WHERE leases.node = excluded.node OR leases.node = ''
                                OR (?4 = 1 AND (leases.expires < {NOW_MS} OR {}))
                             RETURNING epoch",
                            owner_gone("leases.node")
                        ),
                        params![table, node, ttl, take],
                        |r| r.get::<_, i64>(0),
                    )
                    .optional()?;
                Ok(match taken {
                    Some(e) => Claim::Held(e),
                    None => Claim::Elsewhere(c.query_row(
                        "SELECT node FROM leases WHERE table_id = ?1",
                        [&table],
                        |r| r.get(0),
                    )?),
                })
            })
            .await?;
        if let Claim::Held(e) = claim {
            l.set(&key, Some(e));
        }
        Ok(claim)
    }

    /// Renews every lease this node holds; the tables whose lease it lost (another node
    /// took it while this one was paused or cut off), which it must stop running.
    pub async fn renew(&self) -> DbResult<Vec<String>> {
        let Some(l) = self.leases.clone() else {
            return Ok(Vec::new());
        };
        let held: Vec<(String, i64)> = l
            .held
            .lock()
            .map(|h| h.iter().map(|(t, e)| (t.clone(), *e)).collect())
            .unwrap_or_default();
        if held.is_empty() {
            return Ok(Vec::new());
        }
        let node = l.node.clone();
        let session = l.session.clone();
        let ttl = LEASE_TTL.as_millis() as i64;
        let lost = self
            .call(move |c| {
                // Without its lock this node counts as dead to the others, who may be
                // taking its tables now: it lets them all go.
                if !session.held() {
                    return Ok(held.iter().map(|(t, _)| t.clone()).collect());
                }
                // One statement for up to a thousand leases: a node holding many tables
                // renews them in a few round trips, not one each.
                let sql = format!(
                    "UPDATE leases SET expires = {NOW_MS} + ?3
                     FROM json_to_recordset(?2::text::json) AS h(t text, e bigint)
                     WHERE leases.table_id = h.t AND leases.epoch = h.e AND leases.node = ?1
                     RETURNING leases.table_id"
                );
                let mut lost = Vec::new();
                for chunk in held.chunks(1000) {
                    let list: Vec<serde_json::Value> = chunk
                        .iter()
                        .map(|(t, e)| serde_json::json!({"t": t, "e": e}))
                        .collect();
                    let list = serde_json::Value::from(list).to_string();
                    let renewed: std::collections::HashSet<String> = c
                        .prepare(&sql)?
                        .query_map(params![node, list, ttl], |r| r.get(0))?
                        .collect::<Result<_, _>>()?;
                    lost.extend(
                        chunk
                            .iter()
                            .filter(|(t, _)| !renewed.contains(t))
                            .map(|(t, _)| t.clone()),
                    );
                }
                Ok(lost)
            })
            .await?;
        for t in &lost {
            l.set(t, None);
        }
        Ok(lost)
    }

    /// Lets go of `table`'s lease (its task ended): any node may take it when asked, and
    /// none takes it unasked. This node forgets the lease at once, before the returned
    /// write runs, so a taking of the table again in between keeps its new lease.
    pub fn release(&self, table: String) -> impl std::future::Future<Output = DbResult<()>> {
        let held = self.leases.as_ref().and_then(|l| {
            let epoch = l.epoch(&table)?;
            l.set(&table, None);
            Some((l.node.clone(), epoch))
        });
        let db = self.clone();
        async move {
            let Some((node, epoch)) = held else {
                return Ok(());
            };
            // The row stays, free, so that the next taking raises its epoch: epochs never
            // go back, and no old holder's epoch can ever match again.
            db.call(move |c| {
                c.execute(
                    "UPDATE leases SET node = '', expires = 0
                     WHERE table_id = ?1 AND node = ?2 AND epoch = ?3",
                    params![table, node, epoch],
                )?;
                Ok(())
            })
            .await
        }
    }

    /// Forgets a lease this node no longer holds (it stopped the table).
    pub fn forget(&self, table: &str) {
        if let Some(l) = &self.leases {
            l.set(table, None);
        }
    }

    /// Unfinished tables with no live owner (at most `limit`), for this node to take:
    /// those whose owner stopped renewing (frozen, cut off) and those whose owner has been
    /// gone (no session holds its lock: it died) for [`ADOPT_AFTER`]. With `mine`, also
    /// those leased to this node's name (a node started again under its name takes its
    /// tables back at once). Leases of finished tables are let go. One poll: a look at
    /// `pg_locks` and the indexes of held leases.
    pub async fn orphans(&self, limit: usize, mine: bool) -> DbResult<Vec<String>> {
        let Some(l) = self.leases.clone() else {
            return Ok(Vec::new());
        };
        self.call(move |c| {
            if !l.session.held() {
                return Ok(Vec::new());
            }
            let take = i64::from(l.session.may_take());
            // The nodes whose lock no session holds: dead (PostgreSQL ended their
            // session with their process).
            let gone: Vec<String> = if take == 1 {
                c.prepare(&format!(
                    "SELECT n.node FROM nodes n WHERE n.node <> ?1 AND {}",
                    owner_gone("n.node")
                ))?
                .query_map([&l.node], |r| r.get(0))?
                .collect::<DbResult<_>>()?
            } else {
                Vec::new()
            };
            let ripe = l.gone_for(&gone, ADOPT_AFTER);
            let list = |nodes: &[String]| serde_json::Value::from(nodes.to_vec()).to_string();
            c.execute(
                &format!(
                    "UPDATE leases SET node = '', expires = 0
                     WHERE node <> '' AND ?1 = 1
                       AND (expires < {NOW_MS}
                            OR node IN (SELECT json_array_elements_text(?2::text::json)))
                       AND table_id IN (SELECT id FROM tables WHERE status = 'finished')"
                ),
                params![take, list(&gone)],
            )?;
            // The expired ones come from the index of held leases by expiry, a dead
            // node's from the index by node; a node's own (at its start only) are few.
            let mine = if mine { l.node.clone() } else { String::new() };
            c.prepare(&format!(
                "SELECT table_id FROM leases
                 WHERE node <> ''
                   AND ((?2 = 1 AND (expires < {NOW_MS}
                         OR node IN (SELECT json_array_elements_text(?3::text::json))))
                        OR node = ?4)
                 ORDER BY expires LIMIT ?1"
            ))?
            .query_map(params![limit as i64, take, list(&ripe), mine], |r| r.get(0))?
            .collect()
        })
        .await
    }
}

/// A node name for a server not given one: the host's name and the process's id.
pub fn default_node() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_owned())
        .unwrap_or_default();
    let host = if host.is_empty() { "node".into() } else { host };
    format!("{host}-{}", std::process::id())
}
