//! Tables: one task per table owns its game, its seats and its connections, and handles
//! their requests one at a time, so a table's log has exactly one order. Each action is
//! checked, written to the database, and only then applied and shown. Bots think on
//! blocking threads, never on the async runtime.
//!
//! Fairness: no card is seen before it is yours. Cards are dealt when the game starts (its
//! seed is chosen then); before that every connection sees the spectator view. Once playing,
//! a person who has seen one seat's hand can only move to another seat at the next hand, and
//! the move is made before anybody is shown that hand.
//!
//! A table never freezes on a person who left: when a seated person's connections are all
//! gone for `away_s` seconds, the table's bot plays their turns until they come back. When a
//! hand ends, the bots wait (up to `hold_s` seconds) until every seated person who is
//! connected has said `next`, so everybody can read the end of the hand. A table nobody is
//! connected to stops playing (but a rated game or a tournament's match, which the bots
//! play out so that its result counts); after a while its task ends and it leaves the
//! lobby, to be started again from storage when someone opens it.
//!
//! The task's state is in parts, each a type with its own invariants and unit tests, which
//! the actor (here: its loop, the game, the stored row) composes and keeps in step with the
//! game and with storage: `Seating` in `seating.rs` (who sits where, seats asked for, who
//! has seen which seat this hand, who is away, the names shown), `Pacing` in `pacing.rs`
//! (the end of a hand held, the turn clocks, the backoff after a failed write, the bot's
//! turn) and `Connections` in `frames.rs` (the connections, and whether they are owed a
//! state or the table's description). Each file also holds the actor's work in that part:
//! seat changes written to storage first, when the bot acts, what each connection is sent.

use crate::clock::Clock;
use crate::code::{Code, Refusal};
use crate::msg::{ClientMsg, ErrorMsg, ServerMsg, StateMsg};
use crate::net::outbox::OutSender;
use crate::store::Db;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Duration;
use tapete_host::{Kind, TableGame};
use tapete_table::{Outcome, Seat};
use tokio::sync::{mpsc, oneshot, Semaphore};
use tokio::time::Instant;

pub mod access;
mod actor;
mod deal;
mod frames;
mod pacing;
mod private;
mod private_store;
pub(crate) mod rated;
mod seating;
pub(crate) mod store;
mod talk;
mod watch;

pub use private::{Ask, PrivateInfo};
pub use private_store::NewRematch;
pub(crate) use store::drop_table_rows;
pub use store::{Deal, FinishedGame, PlayedGame, PrivateRow, StoredTable, TableRow};

pub use actor::spawn;
use actor::*;
use frames::{Conn, Connections};
use pacing::Pacing;
use private::PrivatePart;
use seating::Seating;
use talk::Talk;
use watch::Delayed;
pub use watch::WATCH_DELAY;

/// The turn clock of a table made without one named.
pub const DEFAULT_TURN_S: u64 = 60;

/// A person at the server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRef {
    pub id: i64,
    pub nickname: String,
}

/// One seat as the lobby and the table page show it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SeatInfo {
    pub seat: Seat,
    pub player: Option<PlayerRef>,
    /// The bot playing the seat while no person holds it.
    pub bot: Option<String>,
    pub connected: bool,
    /// The person holding the seat has been gone long enough that the bot plays for them.
    pub away: bool,
}

/// A table's public description (shared between servers through the database, when
/// several serve one lobby).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TableInfo {
    pub id: String,
    pub game: String,
    pub rules: Value,
    pub status: TableStatus,
    pub created: i64,
    pub creator: Option<i64>,
    pub bot: String,
    pub pace_ms: u64,
    pub away_s: u64,
    pub hold_s: u64,
    /// Seconds each person's turn may take before the bot plays it (0: no clock).
    pub turn_s: u64,
    pub actions: u64,
    pub seats: Vec<SeatInfo>,
    pub outcome: Option<Outcome>,
    /// A rated game: only accounts sit, and its result moves their ratings.
    pub rated: bool,
    /// Its committed deal: the commitment; the contributions once started; the secret
    /// and the seed once over (see [`tapete_table::fair`]). None for a table made before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fairness: Option<tapete_table::fair::Fairness>,
    /// Privacy, kept seats and rematch (private tables).
    #[serde(flatten)]
    /// Privacy, kept seats and rematch (shown as `friends`).
    #[serde(rename = "friends")]
    pub private: PrivateInfo,
}

/// What a table's task is asked to do.
pub enum Cmd {
    /// A connection opened (`player`: `None` for a spectator without a nickname). Dropping
    /// `close` tells the connection to close.
    Connect {
        conn: u64,
        player: Option<PlayerRef>,
        /// Where the connection comes from (see [`crate::ratings::network`]).
        addr: Option<String>,
        out: OutSender,
        close: oneshot::Sender<()>,
    },
    /// A connection closed.
    Disconnect { conn: u64 },
    /// A decoded message from a connection.
    Client { conn: u64, msg: ClientMsg },
    /// A bot finished thinking about decision `n` for `seat`.
    BotDone {
        n: u64,
        seat: Seat,
        action: Option<String>,
    },
    /// `player` is now called `nickname` (a guest who made an account under a new name).
    Renamed { player: i64, nickname: String },
    /// Start the game now, bots in the empty seats (a table created with `start`).
    Begin {
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// Something asked of the table's friends' part (kept seats, rematch).
    Private {
        ask: Ask,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// Stop now: another server took the table (this one lost its lease). The
    /// connections close, and the people reconnect to the new owner.
    Leave,
}

/// How to reach a running table.
#[derive(Clone)]
pub struct TableHandle {
    pub tx: mpsc::UnboundedSender<Cmd>,
    pub info: Arc<RwLock<TableInfo>>,
    /// How many times `info` was written: a reader that saw this count has seen it all.
    pub changes: Arc<AtomicU64>,
}

impl TableHandle {
    /// Starts a waiting table now.
    pub async fn begin(&self) -> Result<(), Refusal> {
        let stopped = || Refusal::new(Code::Internal, "the table stopped");
        let (reply, answer) = oneshot::channel();
        self.tx.send(Cmd::Begin { reply }).map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }

    /// Asks the table's friends' part something (see [`Ask`]).
    pub async fn ask(&self, ask: Ask) -> Result<(), Refusal> {
        let stopped = || Refusal::new(Code::Internal, "the table stopped");
        let (reply, answer) = oneshot::channel();
        self.tx
            .send(Cmd::Private { ask, reply })
            .map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }

    /// A copy of the table's description now.
    pub fn info(&self) -> TableInfo {
        self.info
            .read()
            .map(|i| i.clone())
            .unwrap_or_else(|p| p.into_inner().clone())
    }
}

/// What a table's task needs beyond its stored row: shared limits and the bots' threads.
#[derive(Clone)]
pub struct TableEnv {
    pub db: Db,
    /// The clock every timer of the table goes by (turn clocks, away and hold times,
    /// backoff, idle end, a rematch's start): a test's paused one moves them all.
    pub clock: Clock,
    /// How long a table nobody is connected to keeps its task (finished tables: 30 s).
    pub idle_end: Duration,
    /// How long a table that has not started keeps its task with nobody connected; then
    /// it is removed from storage too (see [`crate::Limits::idle_waiting_table`]).
    pub waiting_end: Duration,
    /// Connections that hold no seat, per table.
    pub max_watchers: usize,
    /// Bots thinking at once on the whole server, so bots never take every core.
    pub bot_threads: Arc<Semaphore>,
    /// Where connections closed for not keeping up are counted.
    pub gauges: Arc<crate::net::outbox::Gauges>,
    /// Chat messages and reports per person, over every table.
    pub chat_rates: Arc<crate::chat::Rates>,
    /// Whom each connected person mutes, over every table.
    pub chat_mutes: Arc<crate::chat::Mutes>,
    /// The reviews to make: a rated game's are queued when it ends.
    pub reviews: crate::review::Queue,
    /// Where the table's notices go (a person's turn while they are gone).
    pub notices: crate::notices::Sender,
}

/// Where a table is in its life, as stored (`tables.status`) and shown (`"status"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TableStatus {
    /// Not started: seats are taken freely and no card is dealt.
    Waiting,
    /// Dealt and being played.
    Playing,
    /// Over: its outcome is stored and it is only watched and replayed.
    Finished,
}

impl TableStatus {
    /// The word stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            TableStatus::Waiting => "waiting",
            TableStatus::Playing => "playing",
            TableStatus::Finished => "finished",
        }
    }
}

impl std::str::FromStr for TableStatus {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "waiting" => Ok(TableStatus::Waiting),
            "playing" => Ok(TableStatus::Playing),
            "finished" => Ok(TableStatus::Finished),
            _ => Err(format!("`{s}` is not a table status")),
        }
    }
}

#[cfg(test)]
mod tests;
