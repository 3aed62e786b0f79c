//! What the servers sharing a PostgreSQL database show of each other: each node's running
//! tables (their descriptions, for every node's lobby) and the people connected to it (for
//! friends' lists). Each node writes its own rows every [`PUBLISH_EVERY`], and when it
//! was last seen, and notifies the others of what it changed (LISTEN/NOTIFY, see
//! [`super::listen`]): they keep the others' rows in memory. Read directly (while a
//! node's listening connection is down), a table's row counts while its node's lease on
//! it is alive, a person's while the node was seen within [`NODE_GONE_MS`], so a dead
//! node's rows stop counting within seconds.

use super::lease::NOW_MS;
use super::{Db, DbResult};
use crate::store::params;
use std::time::Duration;

/// How often a node writes what changed of its tables and who is online there.
pub const PUBLISH_EVERY: Duration = Duration::from_secs(1);

/// A node not seen for this long is gone (its people are not online through it).
pub const NODE_GONE_MS: i64 = 10_000;

impl Db {
    /// Writes this node's changes: `changed` tables' descriptions (JSON), `gone` tables it
    /// no longer runs, and, when `online` is given, the people connected to it now.
    pub async fn publish(
        &self,
        changed: Vec<(String, String)>,
        gone: Vec<String>,
        online: Option<Vec<i64>>,
    ) -> DbResult<()> {
        let Some(node) = self.node().map(str::to_owned) else {
            return Ok(());
        };
        let notices = super::listen::payloads(
            &node,
            &changed
                .iter()
                .map(|(id, _)| id.clone())
                .chain(gone.iter().cloned())
                .collect::<Vec<_>>(),
            online.is_some(),
        );
        self.call(move |c| {
            c.execute(
                &format!(
                    "INSERT INTO nodes (node, seen) VALUES (?1, {NOW_MS})
                     ON CONFLICT (node) DO UPDATE SET seen = excluded.seen"
                ),
                [&node],
            )?;
            for (table, info) in changed {
                c.execute(
                    "INSERT INTO live_tables (table_id, node, info) VALUES (?1, ?2, ?3)
                     ON CONFLICT (table_id) DO UPDATE SET node = excluded.node, info = excluded.info",
                    params![table, node, info],
                )?;
            }
            for table in gone {
                c.execute(
                    "DELETE FROM live_tables WHERE table_id = ?1 AND node = ?2",
                    params![table, node],
                )?;
            }
            if let Some(players) = online {
                c.execute("DELETE FROM online WHERE node = ?1", [&node])?;
                for p in players {
                    c.execute(
                        "INSERT INTO online (node, player) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
                        params![node, p],
                    )?;
                }
            }
            // Told at the commit, with the rows: a node that reads them on the notice
            // finds them written.
            for payload in notices {
                c.execute(
                    "SELECT pg_notify(?1, ?2)",
                    params![super::listen::CHANNEL, payload],
                )?;
            }
            Ok(())
        })
        .await
    }

    /// The other servers' tables and people as they notify them, when several servers
    /// share the database.
    pub fn mirror(&self) -> Option<&super::listen::Mirror> {
        self.mirror.as_deref()
    }

    /// The descriptions (JSON) of the tables running on any node whose lease is alive.
    pub async fn live_tables(&self) -> DbResult<Vec<String>> {
        self.call(|c| {
            c.prepare(&format!(
                "SELECT l.info FROM live_tables l
                 JOIN leases s ON s.table_id = l.table_id AND s.node = l.node
                 WHERE s.expires > {NOW_MS}"
            ))?
            .query_map((), |r| r.get(0))?
            .collect()
        })
        .await
    }

    /// The people online at any node seen lately.
    pub async fn online_anywhere(&self) -> DbResult<Vec<i64>> {
        self.call(|c| {
            c.prepare(&format!(
                "SELECT DISTINCT o.player FROM online o JOIN nodes n ON n.node = o.node
                 WHERE n.seen > {NOW_MS} - ?1"
            ))?
            .query_map([NODE_GONE_MS], |r| r.get(0))?
            .collect()
        })
        .await
    }
}
