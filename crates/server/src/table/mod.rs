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
//! connected to stops playing; after a while its task ends and it leaves the lobby, to be
//! started again from storage when someone opens it.
//!
//! The task's state is in parts, each a type with its own invariants and unit tests, which
//! the actor (here: its loop, the game, the stored row) composes and keeps in step with the
//! game and with storage: `Seating` in `seating.rs` (who sits where, seats asked for, who
//! has seen which seat this hand, who is away, the names shown), `Pacing` in `pacing.rs`
//! (the end of a hand held, the turn clocks, the backoff after a failed write, the bot's
//! turn) and `Connections` in `frames.rs` (the connections, and whether they are owed a
//! state or the table's description). Each file also holds the actor's work in that part:
//! seat changes written to storage first, when the bot acts, what each connection is sent.

use crate::code::{Code, Refused};
use crate::msg::ClientMsg;
use crate::outbox::OutSender;
use crate::store::{now, Db, StoredTable, TableRow};
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

mod frames;
mod friends;
mod pacing;
pub(crate) mod rated;
mod seating;
mod talk;

pub use friends::{Ask, FriendsInfo};

use frames::{Conn, Connections};
use friends::Friends;
use pacing::Pacing;
use seating::Seating;
use talk::Talk;

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
    pub status: String,
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
    /// Privacy, kept seats and rematch (friends' tables).
    #[serde(flatten)]
    pub friends: FriendsInfo,
}

/// What a table's task is asked to do.
pub enum Cmd {
    /// A connection opened (`player`: `None` for a spectator without a nickname). Dropping
    /// `close` tells the connection to close.
    Connect {
        conn: u64,
        player: Option<PlayerRef>,
        /// Where the connection comes from (see [`crate::rating::network`]).
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
        reply: oneshot::Sender<Result<(), Refused>>,
    },
    /// Something asked of the table's friends' part (kept seats, rematch).
    Friends {
        ask: Ask,
        reply: oneshot::Sender<Result<(), Refused>>,
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
    pub async fn begin(&self) -> Result<(), Refused> {
        let stopped = || Refused::new(Code::Internal, "the table stopped");
        let (reply, answer) = oneshot::channel();
        self.tx.send(Cmd::Begin { reply }).map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }

    /// Asks the table's friends' part something (see [`Ask`]).
    pub async fn ask(&self, ask: Ask) -> Result<(), Refused> {
        let stopped = || Refused::new(Code::Internal, "the table stopped");
        let (reply, answer) = oneshot::channel();
        self.tx
            .send(Cmd::Friends { ask, reply })
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
    pub gauges: Arc<crate::outbox::Gauges>,
    /// Chat messages and reports per person, over every table.
    pub chat_rates: Arc<crate::chat::Rates>,
    /// Whom each connected person mutes, over every table.
    pub chat_mutes: Arc<crate::chat::Mutes>,
}

/// A write of the table's that could not be saved: nothing changed, and the person may
/// try again (the database is unreachable, or another server holds the table now).
fn not_saved(what: &str, e: crate::store::DbError) -> Refused {
    Refused::new(
        Code::NotSaved,
        format!("could not save {what} ({e}); nothing changed"),
    )
}

/// How long a finished table nobody is connected to keeps its task.
const FINISHED_IDLE_END: Duration = Duration::from_secs(30);
/// The least pause between bot actions at a table where no person holds a seat.
const ALL_BOTS_PACE: Duration = Duration::from_millis(1000);
/// Longest wait after a failed write before the bots try again.
const MAX_BACKOFF: Duration = Duration::from_secs(60);
/// Connections one person may have open to one table.
const MAX_CONNS_PER_PLAYER: usize = 4;
/// Lines of the story a state carries: the most recent ones, which the page shows. A hand
/// nobody ends (draws and discards for ever) must not make every state grow.
pub const MAX_LINES: usize = 200;

/// Statuses, as stored and shown.
pub const WAITING: &str = "waiting";
pub const PLAYING: &str = "playing";
pub const FINISHED: &str = "finished";

/// A table's task: the game and its stored row, composed with its parts — who sits where
/// and who is away ([`Seating`]), its timers ([`Pacing`]) and its connections
/// ([`Connections`]) — each with its own invariants; the actor keeps them in step with
/// the game and with storage.
struct Actor {
    env: TableEnv,
    kind: Arc<dyn Kind>,
    row: TableRow,
    game: Box<dyn TableGame>,
    /// Actions applied so far.
    n: u64,
    seating: Seating,
    friends: Friends,
    pacing: Pacing,
    conns: Connections,
    talk: Talk,
    /// The addresses of the players of a rated game already kept, (player, address).
    addresses: HashSet<(i64, String)>,
    info: Arc<RwLock<TableInfo>>,
    /// Counts the writes of `info` (see [`TableHandle::changes`]).
    changes: Arc<AtomicU64>,
    me: mpsc::UnboundedSender<Cmd>,
}

/// Starts the task of a table restored from storage (or just created).
///
/// `on_idle` is called when the task ends because nobody was connected for a while; the
/// table stays in storage and is started again if someone asks for it.
pub fn spawn(
    env: TableEnv,
    kind: Arc<dyn Kind>,
    stored: StoredTable,
    on_idle: Box<dyn FnOnce() + Send>,
) -> Result<TableHandle, String> {
    if stored.seats.len() != stored.row.seats {
        return Err(format!(
            "table {}: {} seats listed for a table of {}",
            stored.row.id,
            stored.seats.len(),
            stored.row.seats
        ));
    }
    // Replaying the log through `apply` also tells every audience its story again.
    let mut game = kind
        .new_game(&stored.row.rules, stored.row.seats, stored.row.seed)
        .map_err(|e| format!("table {}: {e}", stored.row.id))?;
    for (i, (seat, action)) in stored.actions.iter().enumerate() {
        game.apply(*seat, action).map_err(|e| {
            format!(
                "table {}: stored action {} ({action} by seat {seat}) does not replay: {e}",
                stored.row.id,
                i + 1
            )
        })?;
    }
    let (tx, rx) = mpsc::unbounded_channel();
    let seats: Vec<Option<PlayerRef>> = stored
        .seats
        .into_iter()
        .map(|s| s.map(|(id, nickname)| PlayerRef { id, nickname }))
        .collect();
    let start = Instant::now();
    let pending = stored
        .pending
        .into_iter()
        .map(|(id, nickname, seat)| (PlayerRef { id, nickname }, seat))
        .collect();
    // Who held which seat this hand is stored with the table, so a restart or an unload
    // forgets nobody's look at a hand.
    let seating = Seating::restore(seats, pending, stored.hand_seats, start);
    let friends = Friends::restore(stored.friends, stored.row.seats, start);
    let mut actor = Actor {
        env,
        kind,
        row: stored.row,
        game,
        n: stored.actions.len() as u64,
        seating,
        friends,
        pacing: Pacing::new(start),
        conns: Connections::new(start),
        talk: Talk::default(),
        addresses: HashSet::new(),
        info: Arc::new(RwLock::new(TableInfo {
            id: String::new(),
            game: String::new(),
            rules: Value::Null,
            status: String::new(),
            created: 0,
            creator: None,
            bot: String::new(),
            pace_ms: 0,
            away_s: 0,
            hold_s: 0,
            turn_s: 0,
            actions: 0,
            seats: Vec::new(),
            outcome: None,
            rated: false,
            friends: FriendsInfo::default(),
        })),
        changes: Arc::default(),
        me: tx.clone(),
    };
    actor.publish_info();
    let handle = TableHandle {
        tx,
        info: actor.info.clone(),
        changes: actor.changes.clone(),
    };
    tokio::spawn(actor.run(rx, on_idle));
    Ok(handle)
}

/// A bot's seed for decision `n` at `seat`: reproducible from the table's seed, different
/// for every decision.
fn bot_seed(table_seed: u64, n: u64, seat: Seat) -> u64 {
    let mut x = table_seed ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ ((seat as u64) << 56);
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^ (x >> 33)
}

impl Actor {
    async fn run(
        mut self,
        mut rx: mpsc::UnboundedReceiver<Cmd>,
        on_idle: Box<dyn FnOnce() + Send>,
    ) {
        // A log that is already over (a crash between the last action and its status, in
        // an older version) makes a finished table.
        if self.row.status != FINISHED {
            if let Some(o) = self.game.outcome() {
                let o = serde_json::to_value(o).unwrap_or(Value::Null);
                if let Err(e) = self.set_status(FINISHED, Some(o)).await {
                    eprintln!("table {}: {e}", self.row.id);
                }
            }
        }
        self.load_chat().await;
        self.after_change().await;
        let mut idle = false;
        loop {
            let wake = self.next_wake();
            let cmd = tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => Some(cmd),
                    None => break,
                },
                _ = sleep_until(wake) => None,
            };
            match cmd {
                Some(Cmd::Connect {
                    conn,
                    player,
                    addr,
                    out,
                    close,
                }) => {
                    let id = player.as_ref().map(|p| p.id);
                    self.connect(conn, player, addr, out, close);
                    if let Some(id) = id {
                        self.note_addresses(id).await;
                    }
                }
                Some(Cmd::Disconnect { conn }) => self.disconnect(conn),
                Some(Cmd::Renamed { player, nickname }) => {
                    self.seating.rename(player, &nickname);
                    self.conns.rename(player, &nickname);
                    self.conns.owe_info();
                }
                Some(Cmd::Client { conn, msg }) => self.client(conn, msg).await,
                Some(Cmd::BotDone { n, seat, action }) => self.bot_done(n, seat, action).await,
                Some(Cmd::Begin { reply }) => {
                    let r = if self.row.status == WAITING {
                        self.begin().await
                    } else {
                        Ok(())
                    };
                    let _ = reply.send(r);
                }
                Some(Cmd::Leave) => break,
                Some(Cmd::Friends { ask, reply }) => {
                    let r = self.friends_ask(ask).await;
                    // The answer carries the table as it is now.
                    self.publish_info();
                    let _ = reply.send(r);
                }
                None => {}
            }
            if self.idle_over() {
                idle = true;
                break;
            }
            self.after_change().await;
        }
        if idle && self.row.status == WAITING && !self.friends.awaits_someone() {
            // A table that never started and that nobody came back to is of no use to
            // anyone: it goes, from the lobby and from storage, before its lease.
            if let Err(e) = self.env.db.drop_waiting_table(self.row.id.clone()).await {
                eprintln!("table {}: removing it: {e}", self.row.id);
            }
        }
        on_idle();
    }

    fn idle_after(&self) -> Duration {
        match self.row.status.as_str() {
            FINISHED => FINISHED_IDLE_END.min(self.env.idle_end),
            WAITING if !self.friends.awaits_someone() => {
                self.env.waiting_end.min(self.env.idle_end)
            }
            _ => self.env.idle_end,
        }
    }

    /// Whether the table's task may end: nobody connected for long enough, and no rated
    /// game under way (the bots play it out for the people gone, so that it is rated).
    fn idle_over(&self) -> bool {
        let rated_under_way = self.row.rated && self.row.status == PLAYING;
        !self.pacing.bot_busy()
            && !rated_under_way
            && self.friends_wake().is_none()
            && self.conns.is_empty()
            && self
                .conns
                .empty_since()
                .is_some_and(|since| Instant::now() >= since + self.idle_after())
    }

    async fn client(&mut self, conn: u64, msg: ClientMsg) {
        match msg {
            ClientMsg::Ping {} => self.send(conn, json!({"type": "pong"})),
            ClientMsg::Chat { text } => self.chat(conn, text).await,
            ClientMsg::Mute { player, on } => self.mute(conn, player, on).await,
            ClientMsg::Report { n } => self.report(conn, n).await,
            ClientMsg::Sit { seat, confirm } => {
                if let Some((question, about)) = self.other_side(conn, seat).filter(|_| !confirm) {
                    // Asked, not refused for good: the same move with `confirm` is granted.
                    let m = json!({"type": "error", "message": question, "code": Code::SwitchSides,
                                   "seats": about["seats"], "score": about["score"],
                                   "ask": {"type": "sit", "seat": seat, "confirm": true}});
                    self.send(conn, m);
                } else if let Err(e) = self.sit(conn, seat).await {
                    self.error(conn, e, None);
                }
            }
            ClientMsg::Stand {} => {
                if let Err(e) = self.stand(conn).await {
                    self.error(conn, e, None);
                }
            }
            ClientMsg::Start {} => {
                if let Err(e) = self.start(conn).await {
                    self.error(conn, e, None);
                }
            }
            ClientMsg::Next {} => {
                if let Some(p) = self.player_of(conn) {
                    self.back(p.id);
                    if let Some(seat) = self.seat_of(p.id) {
                        self.seen_the_end(seat);
                    }
                }
            }
            ClientMsg::Back {} => {
                if let Some(p) = self.player_of(conn) {
                    self.back(p.id);
                }
            }
            ClientMsg::Act { action, id } => {
                let seat = match self.player_of(conn) {
                    None => Err(Refused::new(
                        Code::PickNickname,
                        "spectators cannot play: pick a nickname and sit",
                    )),
                    Some(p) => self.seat_of(p.id).ok_or_else(|| {
                        Refused::new(
                            Code::NotSeated,
                            "you are not seated at this table: sit first",
                        )
                    }),
                };
                let result = match seat {
                    Err(e) => Err(e),
                    Ok(_) if self.row.status == WAITING => Err(Refused::new(
                        Code::NotStarted,
                        "the game has not started yet",
                    )),
                    Ok(_) if self.row.status == FINISHED => {
                        Err(Refused::new(Code::GameOver, "the game is over"))
                    }
                    Ok(seat) => {
                        let r = self.play(seat, &action, false).await;
                        if r.is_ok() {
                            if let Some(p) = self.person_at(seat).map(|p| p.id) {
                                self.back(p);
                            }
                        }
                        // Acting after the end of a hand shows it was seen; an action that
                        // ended the hand itself (a new deal, nothing played in it yet) was
                        // not: its end waits for this person's `next` too.
                        if r.is_ok() && !self.game.at_boundary() {
                            self.seen_the_end(seat);
                        }
                        r
                    }
                };
                match result {
                    Ok(n) => {
                        let mut m = json!({"type": "ack", "n": n});
                        if let Some(id) = id {
                            m["id"] = json!(id);
                        }
                        self.send(conn, m);
                    }
                    Err(e) => self.error(conn, e, id),
                }
            }
        }
    }

    async fn start(&mut self, conn: u64) -> Result<(), Refused> {
        let player = self
            .player_of(conn)
            .ok_or_else(|| Refused::new(Code::PickNickname, "spectators cannot start the game"))?;
        if self.row.status != WAITING {
            return Err(Refused::new(
                Code::AlreadyStarted,
                "the game has already started",
            ));
        }
        let allowed = match self.row.creator {
            Some(c) => c == player.id,
            None => self.seat_of(player.id).is_some(),
        };
        if !allowed {
            return Err(Refused::new(
                Code::NotCreator,
                "only the table's creator can start the game",
            ));
        }
        self.begin().await
    }

    /// Starts the game: the deal's seed is chosen only now, so nobody could have seen a
    /// card while seats were still changing.
    async fn begin(&mut self) -> Result<(), Refused> {
        let seed: u64 = rand::random();
        let game = self
            .kind
            .new_game(&self.row.rules, self.row.seats, seed)
            .map_err(|e| Refused::new(Code::Internal, format!("internal error: {e}")))?;
        if self.row.rated {
            self.save_roster().await?;
            let people: Vec<i64> = self.seating.seated().map(|(_, p)| p.id).collect();
            for id in people {
                self.note_addresses(id).await;
            }
        }
        self.env
            .db
            .start_table(self.row.id.clone(), seed)
            .await
            .map_err(|e| not_saved("the table", e))?;
        self.row.seed = seed;
        self.row.status = PLAYING.into();
        self.game = game;
        self.new_hand().await;
        self.friends_begin().await;
        self.conns.owe_state();
        Ok(())
    }

    async fn set_status(
        &mut self,
        status: &'static str,
        outcome: Option<Value>,
    ) -> Result<(), Refused> {
        self.env
            .db
            .set_status(self.row.id.clone(), status, outcome.clone())
            .await
            .map_err(|e| not_saved("the table", e))?;
        self.row.status = status.into();
        if status == FINISHED {
            self.row.finished = Some(now());
        }
        self.row.outcome = outcome;
        self.conns.owe_state();
        Ok(())
    }

    /// Checks, stores and applies one action, the table's bot's if `by_bot`; returns its
    /// number.
    async fn play(&mut self, seat: Seat, action: &str, by_bot: bool) -> Result<u64, Refused> {
        let text = self.game.check(seat, action).map_err(|e| {
            let code = if self.game.to_act().contains(&seat) {
                Code::IllegalAction
            } else {
                Code::NotYourTurn
            };
            Refused::new(code, e)
        })?;
        let internal = |e| Refused::new(Code::Internal, e);
        let n = self.n + 1;
        let was_boundary = self.game.at_boundary();
        // The outcome is known before the write, so that the last action and the
        // finished status are stored together.
        let (outcome, boundary) = self
            .game
            .preview(seat, &text)
            .map_err(|e| internal(format!("internal error: a checked action was refused: {e}")))?;
        let outcome = outcome.map(|o| serde_json::to_value(o).unwrap_or(Value::Null));
        let new_hand = outcome.is_none() && boundary && !was_boundary;
        self.env
            .db
            .append_action_by(
                self.row.id.clone(),
                n,
                seat,
                text.clone(),
                outcome.clone(),
                new_hand,
                by_bot && self.row.rated,
            )
            .await
            .map_err(|e| not_saved("the action", e))?;
        // Stored: the same action on the same game, as previewed.
        self.game
            .apply(seat, &text)
            .map_err(|e| internal(format!("internal error: a stored action was refused: {e}")))?;
        self.n = n;
        self.conns.owe_state();
        // The seat has played: if its turn goes on, its clock starts again.
        self.pacing.played(seat);
        if let Some(o) = outcome {
            self.row.status = FINISHED.into();
            self.row.finished = Some(now());
            self.row.outcome = Some(o);
            self.seating.forget_asks();
            self.pacing.end_hold();
        } else if new_hand {
            self.new_hand().await;
            self.hold_the_end();
        }
        Ok(n)
    }

    async fn after_change(&mut self) {
        self.friends_tick().await;
        self.play_forced().await;
        // Away flags change with time alone: keep the description current.
        let away_now: Vec<bool> = (0..self.seating.count()).map(|s| self.is_away(s)).collect();
        let shown = self
            .info
            .read()
            .map(|i| i.seats.iter().map(|s| s.away).collect::<Vec<_>>())
            .unwrap_or_default();
        if away_now != shown {
            self.conns.owe_info();
        }
        if self.pacing.is_holding() && !self.pacing.holds_at(Instant::now()) {
            self.pacing.end_hold();
            self.conns.owe_state();
        }
        self.tick_clocks();
        let (state, info, newcomers) = self.conns.take_owed();
        let chat_newcomers = newcomers.clone();
        if state {
            self.publish_info();
            self.broadcast();
        } else if !newcomers.is_empty() || info {
            if info {
                self.publish_info();
            }
            // A newcomer gets the whole state; the others, if anything, a small message.
            let mut frame = self.frame();
            for id in &newcomers {
                if let Some(c) = self.conns.get(*id) {
                    let m = self.state_text(c, &mut frame);
                    self.conns.told(*id, frame.telling);
                    self.send_text(*id, m.into());
                }
            }
            if info {
                let msg: Arc<str> = format!(r#"{{"type":"table","table":{}}}"#, frame.info).into();
                let ids: Vec<u64> = self
                    .conns
                    .iter()
                    .map(|(id, _)| id)
                    .filter(|id| !newcomers.contains(id))
                    .collect();
                for id in ids {
                    self.send_text(id, msg.clone());
                }
            }
        }
        self.chat_after_change(&chat_newcomers);
        self.schedule_bot();
    }
}

/// Sleeps until `at`, or forever.
async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::frames::recent_lines;
    use super::*;
    use crate::store::StoredTable;

    /// Connects a watcher (connection 1) on `slow_out` and Ane (connection 2) with room
    /// to spare: the watcher's close signal, Ane's inbox, and Ane's close signal to keep.
    fn watcher_and_ane(
        table: &TableHandle,
        ane: i64,
        slow_out: crate::outbox::OutSender,
    ) -> (
        oneshot::Receiver<()>,
        crate::outbox::OutReceiver,
        oneshot::Receiver<()>,
    ) {
        let (close, closed) = oneshot::channel();
        table
            .tx
            .send(Cmd::Connect {
                conn: 1,
                player: None,
                addr: None,
                out: slow_out,
                close,
            })
            .unwrap();
        let (inbox, open) = connect_ane(table, ane);
        (closed, inbox, open)
    }

    /// Connects Ane as connection 2 with room to spare: her inbox, and the close signal to
    /// keep while she stays.
    fn connect_ane(
        table: &TableHandle,
        ane: i64,
    ) -> (crate::outbox::OutReceiver, oneshot::Receiver<()>) {
        let (out, inbox) = crate::outbox::outbox(64, 1 << 20);
        let (close, open) = oneshot::channel();
        let player = PlayerRef {
            id: ane,
            nickname: "Ane".into(),
        };
        table
            .tx
            .send(Cmd::Connect {
                conn: 2,
                player: Some(player),
                addr: None,
                out,
                close,
            })
            .unwrap();
        (inbox, open)
    }

    #[tokio::test]
    async fn a_client_that_cannot_keep_up_is_told_to_close() {
        let (table, ane) = race_table("slow").await;
        // A watcher that never reads: room for one message, the state it gets on arrival.
        let (slow_out, _never_read) = crate::outbox::outbox(1, 1 << 20);
        let (mut closed, mut inbox, _open) = watcher_and_ane(&table, ane, slow_out);
        table
            .tx
            .send(Cmd::Client {
                conn: 2,
                msg: ClientMsg::Sit {
                    seat: 0,
                    confirm: false,
                },
            })
            .unwrap();
        // The sit makes a new state for everybody; the watcher's queue is full: it is let go.
        let told = tokio::time::timeout(Duration::from_secs(5), &mut closed).await;
        assert!(
            matches!(told, Ok(Err(_))),
            "the slow client is told to close"
        );
        // The others are served as before.
        let mut seated = false;
        while let Ok(Some(m)) = tokio::time::timeout(Duration::from_secs(5), inbox.recv()).await {
            if m.contains(r#""seat":0"#) && m.contains(r#""type":"state""#) {
                seated = true;
                break;
            }
        }
        assert!(seated);
    }

    #[tokio::test]
    async fn a_client_whose_queued_bytes_pass_the_bound_is_told_to_close() {
        let (table, ane) = race_table("bytes").await;
        // A watcher that never reads, with room for 64 messages but only 512 bytes.
        let (slow_out, mut never_read) = crate::outbox::outbox(64, 512);
        let watch = slow_out.clone();
        let (mut closed, mut inbox, _open) = watcher_and_ane(&table, ane, slow_out);
        // Ane sits, starts and plays: every change is a state of some 400 bytes for the
        // watcher too, until its bytes are full.
        let say = |msg| table.tx.send(Cmd::Client { conn: 2, msg }).unwrap();
        say(ClientMsg::Sit {
            seat: 0,
            confirm: false,
        });
        say(ClientMsg::Start {});
        let told = tokio::time::timeout(Duration::from_secs(5), async {
            loop {
                tokio::select! {
                    r = &mut closed => return r,
                    m = inbox.recv() => {
                        let m = m.expect("Ane's connection stays open");
                        inbox.written(&m);
                        if m.contains(r#""legal":["#) && !m.contains(r#""legal":[]"#) {
                            say(ClientMsg::Act { action: "1".into(), id: None });
                        }
                    }
                }
            }
        })
        .await;
        assert!(matches!(told, Ok(Err(_))), "the watcher is told to close");
        let mut queued = 0;
        while never_read.try_recv().is_some() {
            queued += 1;
        }
        assert!(
            queued < 64,
            "closed for its bytes, not its count of messages ({queued} queued)"
        );
        // Only a single state larger than the bound may pass it, into an empty queue.
        assert!(
            watch.queued_bytes() <= 512 || queued == 1,
            "{} bytes held in {queued} messages",
            watch.queued_bytes()
        );
    }

    #[test]
    fn a_state_carries_only_the_latest_lines_of_a_long_hand() {
        let story: Vec<tapete_host::story::Line> = (0..1000)
            .map(|i| {
                tapete_host::story::Phrase::new("story.test.draws")
                    .seat("seat", 0)
                    .num("n", i)
                    .line(format!("seat 0 draws, line {i}"))
            })
            .collect();
        let sent: Vec<Value> = serde_json::from_str(&recent_lines(&story)).unwrap();
        assert_eq!(sent.len(), MAX_LINES);
        assert_eq!(sent.first().unwrap(), &story[1000 - MAX_LINES].wire());
        assert_eq!(sent.last().unwrap()["args"]["n"]["num"], 999);
        assert!(
            sent.iter().all(|l| l.get("text").is_none()),
            "no English text on the wire"
        );
        let short = story[..3].to_vec();
        let wire: Vec<Value> = short.iter().map(|l| l.wire()).collect();
        assert_eq!(recent_lines(&short), json!(wire).to_string());
    }

    #[test]
    fn lines_already_sent_are_sent_again_only_when_the_story_is_not_the_last_one_grown() {
        let line = |i: i64| {
            tapete_host::story::Phrase::new("story.test.draws")
                .num("n", i)
                .line(format!("line {i}"))
        };
        // A story as a game keeps it: its hand count and its lines.
        let tell = |c: &mut Connections, hands: u64, lines: Vec<tapete_host::story::Line>| {
            c.tell(Some((hands, lines.len())), |from| lines[from..].to_vec())
        };
        let mut c = Connections::new(Instant::now());
        assert_eq!(
            c.tell(None, |_| Vec::new()),
            0,
            "nothing told before the start"
        );
        let first = tell(&mut c, 0, vec![line(0), line(1)]);
        assert_eq!(
            tell(&mut c, 0, vec![line(0), line(1), line(2)]),
            first,
            "lines added"
        );
        assert_eq!(
            tell(&mut c, 0, vec![line(0), line(1), line(2)]),
            first,
            "nothing new"
        );
        assert_eq!(
            c.story(),
            &[line(0), line(1), line(2)],
            "the added line taken"
        );
        // A new hand drops the hand before the last: the story is told again.
        let second = tell(&mut c, 1, vec![line(2), line(3)]);
        assert_ne!(second, first);
        assert_eq!(c.story(), &[line(2), line(3)]);
        assert_ne!(
            tell(&mut c, 2, vec![line(2), line(9)]),
            second,
            "a line changed"
        );
        // A new hand whose story merely grew the last one keeps its telling.
        let third = tell(&mut c, 2, vec![line(2), line(9)]);
        assert_eq!(tell(&mut c, 3, vec![line(2), line(9), line(4)]), third);
        assert_eq!(c.story(), &[line(2), line(9), line(4)]);
    }

    /// The next state Ane's connection is sent (other messages skipped), parsed.
    async fn next_state(inbox: &mut crate::outbox::OutReceiver) -> Value {
        loop {
            let m = inbox.recv().await.expect("Ane's connection stays open");
            inbox.written(&m);
            let v: Value = serde_json::from_str(&m).unwrap();
            if v["type"] == "state" {
                return v;
            }
        }
    }

    // Paused time: the clock's 30 s pass at once, and no sleep bounds the waits (tokio
    // would jump to it while the table waits for the database).
    #[tokio::test(start_paused = true)]
    async fn a_turn_clock_that_runs_out_hands_the_turn_to_the_bot_until_the_person_is_back() {
        let (table, mut inbox, _open, mine) = ane_to_play("clock", 30).await;
        let say = |msg| table.tx.send(Cmd::Client { conn: 2, msg }).unwrap();
        // Ane's turn comes with her clock: its whole time left, in milliseconds.
        assert_eq!(mine["table"]["turn_s"], 30);
        assert_eq!(mine["clock"], json!([{"seat": 0, "ms": 30_000}]));
        let turn_began = Instant::now();
        let n = mine["n"].as_u64().unwrap();
        // She does nothing: when the clock runs out she is away and the bot plays her turn.
        let away = loop {
            let v = next_state(&mut inbox).await;
            if v["table"]["seats"][0]["away"] == true {
                break v;
            }
            assert_eq!(
                v["n"], n,
                "nobody plays Ane's turn before her clock runs out"
            );
        };
        assert!(turn_began.elapsed() >= Duration::from_secs(30));
        assert_eq!(away["clock"], json!([]), "no clock runs for the bot");
        let played = loop {
            let v = next_state(&mut inbox).await;
            if v["n"].as_u64().unwrap() > n {
                break v;
            }
        };
        let told = played.get("more").unwrap_or(&played["lines"]);
        assert!(
            told.as_array()
                .unwrap()
                .iter()
                .any(|l| l["key"] == "story.race.adds" && l["args"]["seat"] == json!({"seat": 0})),
            "the bot played Ane's turn: {told}"
        );
        // Saying she is back gives her the seat again.
        say(ClientMsg::Back {});
        loop {
            let v = next_state(&mut inbox).await;
            if v["table"]["seats"][0]["away"] == false {
                break;
            }
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_table_without_a_turn_clock_waits_for_the_person() {
        let (_table, mut inbox, _open, mine) = ane_to_play("noclock", 0).await;
        assert_eq!(mine["clock"], json!([]));
        // An hour later nothing has moved.
        tokio::time::sleep(Duration::from_secs(3600)).await;
        while let Some(m) = inbox.try_recv() {
            assert!(!m.contains(r#""away":true"#), "{m}");
        }
    }

    /// A Race table with a turn clock of `turn_s`, started with Ane at seat 0 (connection
    /// 2): the table, her connection's inbox, the receiver that keeps it open, and the state
    /// of her first turn.
    async fn ane_to_play(
        name: &str,
        turn_s: u64,
    ) -> (
        TableHandle,
        crate::outbox::OutReceiver,
        oneshot::Receiver<()>,
        Value,
    ) {
        let (table, ane) = race_table_with(name, turn_s).await;
        let (mut inbox, open) = connect_ane(&table, ane);
        let say = |msg| table.tx.send(Cmd::Client { conn: 2, msg }).unwrap();
        say(ClientMsg::Sit {
            seat: 0,
            confirm: false,
        });
        say(ClientMsg::Start {});
        let mine = loop {
            let v = next_state(&mut inbox).await;
            if v["legal"].as_array().is_some_and(|l| !l.is_empty()) {
                break v;
            }
        };
        (table, inbox, open, mine)
    }

    /// A waiting Race table of two seats and its creator, Ane.
    async fn race_table(name: &str) -> (TableHandle, i64) {
        race_table_with(name, 0).await
    }

    /// A waiting Race table of two seats with a turn clock of `turn_s`, and its creator.
    async fn race_table_with(name: &str, turn_s: u64) -> (TableHandle, i64) {
        let dir = std::env::temp_dir().join(format!("tapete-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let db = Db::open(&dir.join("t.db")).unwrap();
        let ane = db
            .create_guest(
                "Ane".into(),
                "ane".into(),
                "ane".into(),
                "hash".into(),
                String::new(),
            )
            .await
            .unwrap()
            .unwrap();
        let row = TableRow {
            id: name.into(),
            game: "race".into(),
            seats: 2,
            rules: json!({}),
            seed: 1,
            creator: Some(ane),
            bot: "random".into(),
            pace_ms: 0,
            status: WAITING.into(),
            created: now(),
            finished: None,
            outcome: None,
            away_s: 30,
            hold_s: 0,
            turn_s,
            rated: false,
        };
        db.create_table(row.clone(), vec![None; 2]).await.unwrap();
        let env = TableEnv {
            db,
            idle_end: Duration::from_secs(60),
            waiting_end: Duration::from_secs(60),
            max_watchers: 10,
            bot_threads: Arc::new(Semaphore::new(1)),
            gauges: Arc::default(),
            chat_rates: Arc::default(),
            chat_mutes: Arc::default(),
        };
        let kind = tapete_host::kind_of::<tapete_host::test_race::RaceHost>();
        let stored = StoredTable {
            row,
            seats: vec![None; 2],
            actions: Vec::new(),
            pending: Vec::new(),
            hand_seats: Vec::new(),
            friends: Default::default(),
        };
        (spawn(env, kind, stored, Box::new(|| {})).unwrap(), ane)
    }
}
