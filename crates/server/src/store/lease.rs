//! One owner per table when several servers share a PostgreSQL database.
//!
//! A node runs a table only while it holds the table's lease: a row (node, epoch,
//! expiry) taken by compare-and-set — free, expired, or the same node's — each taking
//! raising the epoch. The node renews its leases every few seconds; a node that dies
//! stops renewing, and once its leases expire another node takes its tables and replays
//! their logs, as a restart does. A table whose task ended (nobody at it) is let go: its
//! row stays, held by nobody (`node = ''`), so its epochs keep rising.
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
use crate::store::{params, OptionalExtension};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

/// How long a lease lasts without renewal.
pub const LEASE_TTL: Duration = Duration::from_secs(10);
/// How often a node renews its leases and looks for expired ones.
pub const RENEW_EVERY: Duration = Duration::from_secs(3);

/// The words of a refused write: the table is another node's now.
pub const NOT_OWNER: &str = "this server no longer holds the table";

/// The database's clock, in milliseconds (PostgreSQL's words: leases exist only there).
pub(super) const NOW_MS: &str = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

/// This node's name and the epochs of the leases it holds.
pub struct Leases {
    pub node: String,
    held: Mutex<HashMap<String, i64>>,
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
    pub fn new(node: String) -> Leases {
        Leases {
            node,
            held: Mutex::new(HashMap::new()),
        }
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

    /// Takes `table`'s lease if it is free, expired or this node's already (raising its
    /// epoch), or says who holds it. A table that does not exist gets no lease.
    pub async fn claim(&self, table: String) -> DbResult<Claim> {
        let Some(l) = self.leases.clone() else {
            return Ok(Claim::Held(0));
        };
        let node = l.node.clone();
        let ttl = LEASE_TTL.as_millis() as i64;
        let key = table.clone();
        let claim = self
            .call(move |c| {
                let exists = c
                    .prepare("SELECT 1 FROM tables WHERE id = ?1")?
                    .exists([&table])?;
                if !exists {
                    return Ok(Claim::Missing);
                }
                let taken = c
                    .query_row(
                        &format!(
                            "INSERT INTO leases (table_id, node, epoch, expires)
                             VALUES (?1, ?2, 1, {NOW_MS} + ?3)
                             ON CONFLICT (table_id) DO UPDATE
                             SET node = excluded.node, epoch = leases.epoch + 1,
                                 expires = excluded.expires
                             WHERE leases.expires < {NOW_MS} OR leases.node = excluded.node
                             RETURNING epoch"
                        ),
                        params![table, node, ttl],
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
        let ttl = LEASE_TTL.as_millis() as i64;
        let lost = self
            .call(move |c| {
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

    /// Unfinished tables whose owner stopped renewing (at most `limit`): the tables of a
    /// node that died, for another to take. With `mine`, also those leased to this node's
    /// name (a node started again under its name takes its tables back at once). Leases
    /// of finished tables are let go.
    pub async fn orphans(&self, limit: usize, mine: bool) -> DbResult<Vec<String>> {
        let Some(l) = &self.leases else {
            return Ok(Vec::new());
        };
        let me = if mine { Some(l.node.clone()) } else { None };
        self.call(move |c| {
            c.execute(
                &format!(
                    "UPDATE leases SET node = '', expires = 0
                     WHERE node <> '' AND expires < {NOW_MS} AND table_id IN
                     (SELECT id FROM tables WHERE status = 'finished')"
                ),
                (),
            )?;
            // The expired ones come from the index of held leases; a node's own (at its
            // start only) are few.
            let mut st = match &me {
                None => c.prepare(&format!(
                    "SELECT table_id FROM leases WHERE node <> '' AND expires < {NOW_MS}
                     ORDER BY expires LIMIT ?1"
                ))?,
                Some(_) => c.prepare(&format!(
                    "SELECT table_id FROM leases
                     WHERE node <> '' AND (expires < {NOW_MS} OR node = ?2)
                     ORDER BY expires LIMIT ?1"
                ))?,
            };
            match me {
                None => st.query_map([limit as i64], |r| r.get(0))?.collect(),
                Some(me) => st
                    .query_map(params![limit as i64, me], |r| r.get(0))?
                    .collect(),
            }
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
