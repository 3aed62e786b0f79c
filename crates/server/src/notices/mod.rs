//! Notices to one person: their turn at a table they left, their tournament match starting,
//! an invitation, their cuadrilla's weekly game starting. A notice is stored (so every
//! server of a cluster and every page of the person reads the same ones) and a page asks
//! for the new ones (`GET /api/notices?after=ID`) to show them (title, sound, badge).
//!
//! A notice is also pushed to the person's browsers that subscribed ([`crate::push`]), so
//! it reaches them with every page closed.
//!
//! Bounds, per person: at most [`KEPT`] notices are kept (older ones go), and at most
//! [`PER_MINUTE`] made a minute (more are dropped: a notice is a courtesy, never the only
//! way to learn something). The tables hand theirs over through a queue of [`QUEUED`]
//! (more are dropped), so a table's task never waits on the database for a notice.

use crate::hub::Hub;
use crate::net::limit::RateLimiter;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::sync::Arc;

mod store;

/// Notices kept per person.
pub const KEPT: usize = 50;
/// Notices made per person a minute, at most.
pub const PER_MINUTE: u32 = 10;
/// Notices of the tables waiting to be made, at most.
pub const QUEUED: usize = 256;

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

/// The rate of notices per person, and the queue of the tables' notices.
pub struct Notices {
    rate: RateLimiter<i64>,
    tx: tokio::sync::mpsc::Sender<(i64, Notice)>,
    rx: std::sync::Mutex<Option<tokio::sync::mpsc::Receiver<(i64, Notice)>>>,
}

impl Default for Notices {
    fn default() -> Self {
        let (tx, rx) = tokio::sync::mpsc::channel(QUEUED);
        Notices {
            rate: RateLimiter::new(PER_MINUTE, f64::from(PER_MINUTE) / 60.0),
            tx,
            rx: std::sync::Mutex::new(Some(rx)),
        }
    }
}

impl Notices {
    /// Where a table hands its notices over.
    pub(crate) fn sender(&self) -> Sender {
        Sender(self.tx.clone())
    }
}

/// A table's way to tell someone: the notice is queued for the hub, never waited for.
#[derive(Clone)]
pub struct Sender(pub(crate) tokio::sync::mpsc::Sender<(i64, Notice)>);

impl Sender {
    /// Queues `notice` to `player`; dropped when the queue is full.
    pub fn tell(&self, player: i64, notice: Notice) {
        if self.0.try_send((player, notice)).is_err() {
            tracing::debug!(player, "a table's notice dropped: the queue is full");
        }
    }
}

impl Hub {
    /// Tells `player` of `notice`: stored for their pages to read, and pushed to their
    /// browsers' subscriptions in the background. Dropped past the rate of
    /// [`PER_MINUTE`]; a failed write is logged, never an error of the caller's (the game,
    /// the tournament go on).
    pub(crate) async fn notify(&self, player: i64, notice: Notice) {
        let now = self.clock().now();
        if self.notices.rate.take_at(player, now).is_err() {
            tracing::debug!(player, kind = ?notice.kind, "notice dropped: too many a minute");
            return;
        }
        let mut notice = notice;
        // The game's title beside its name, for words that show it (a page or the service
        // worker need not ask for the list of games).
        let title = notice
            .args
            .get("game")
            .and_then(Value::as_str)
            .and_then(|g| self.kind(g))
            .map(|k| k.title().to_string());
        if let Some(title) = title {
            notice
                .args
                .insert("game_title".into(), Value::String(title));
        }
        match self.db.add_notice(player, notice.clone()).await {
            Ok(id) => self.push.send(&self.db, player, id, &notice),
            Err(e) => tracing::warn!(player, "a notice was not stored: {e}"),
        }
    }

    /// Makes the notices the tables queue, until the hub is gone (started once, by
    /// [`crate::serve`]).
    pub(crate) fn make_tables_notices(self: &Arc<Self>) {
        let rx = self.notices.rx.lock().ok().and_then(|mut r| r.take());
        let Some(mut rx) = rx else {
            return;
        };
        let hub = Arc::downgrade(self);
        tokio::spawn(async move {
            while let Some((player, notice)) = rx.recv().await {
                let Some(hub) = hub.upgrade() else {
                    return;
                };
                hub.notify(player, notice).await;
            }
        });
    }
}
