//! Notices to one person: their turn at a table they left, their tournament match starting,
//! an invitation, their cuadrilla's weekly game starting. A notice is stored (so every
//! server of a cluster and every page of the person reads the same ones) and a page asks
//! for the new ones (`GET /api/notices?after=ID`) to show them (title, sound, badge).
//!
//! Bounds, per person: at most [`KEPT`] notices are kept (older ones go), and at most
//! [`PER_MINUTE`] made a minute (more are dropped: a notice is a courtesy, never the only
//! way to learn something).

use crate::hub::Hub;
use crate::net::limit::RateLimiter;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

mod store;

/// Notices kept per person.
pub const KEPT: usize = 50;
/// Notices made per person a minute, at most.
pub const PER_MINUTE: u32 = 10;

/// What a notice is about; the page words it from its catalog (`notice.<kind>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoticeKind {
    /// It is your turn at a table you are not connected to.
    Turn,
    /// Your tournament match starts (its table is open).
    MatchStarts,
    /// A friend invites you to their table.
    Invitation,
    /// Your cuadrilla's weekly game starts.
    CuadrillaGame,
}

/// One notice: what, where to go (a path of this server), and the words' arguments
/// (names, a table's game), as the catalog's `notice.<kind>` uses them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Notice {
    pub kind: NoticeKind,
    pub url: String,
    #[serde(default)]
    pub args: Map<String, Value>,
}

/// A stored notice, as a page reads it.
#[derive(Clone, Debug, Serialize)]
pub struct StoredNotice {
    pub id: i64,
    pub at: i64,
    #[serde(flatten)]
    pub notice: Notice,
}

/// The rate of notices per person.
pub struct Notices {
    rate: RateLimiter<i64>,
}

impl Default for Notices {
    fn default() -> Self {
        Notices {
            rate: RateLimiter::new(PER_MINUTE, f64::from(PER_MINUTE) / 60.0),
        }
    }
}

impl Hub {
    /// Tells `player` of `notice`: stored for their pages to read. Dropped past the rate
    /// of [`PER_MINUTE`]; a failed write is logged, never an error of the caller's (the
    /// game, the tournament go on).
    pub(crate) async fn notify(&self, player: i64, notice: Notice) {
        let now = self.clock().now();
        if self.notices.rate.take_at(player, now).is_err() {
            tracing::debug!(player, kind = ?notice.kind, "notice dropped: too many a minute");
            return;
        }
        if let Err(e) = self.db.add_notice(player, notice).await {
            tracing::warn!(player, "a notice was not stored: {e}");
        }
    }
}
