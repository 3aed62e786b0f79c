//! Tables: one task per table owns its game, its seats and its connections, and handles
//! their requests one at a time, so a table's log has exactly one order. Each action is
//! checked, written to the database, and only then applied and shown. Bots think on
//! blocking threads, never on the async runtime.

use crate::kind::{Kind, TableGame};
use crate::msg::ClientMsg;
use crate::store::{now, Db, StoredTable, TableRow};
use serde::Serialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::Duration;
use tapete_table::{Outcome, Seat};
use tokio::sync::mpsc;

/// A person at the server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerRef {
    pub id: i64,
    pub nickname: String,
}

/// One seat as the lobby and the table page show it.
#[derive(Clone, Debug, Serialize)]
pub struct SeatInfo {
    pub seat: Seat,
    pub player: Option<PlayerRef>,
    /// The bot playing the seat while no person holds it.
    pub bot: Option<String>,
    pub connected: bool,
}

/// A table's public description.
#[derive(Clone, Debug, Serialize)]
pub struct TableInfo {
    pub id: String,
    pub game: String,
    pub rules: Value,
    pub status: String,
    pub created: i64,
    pub creator: Option<i64>,
    pub bot: String,
    pub pace_ms: u64,
    pub actions: u64,
    pub seats: Vec<SeatInfo>,
    pub outcome: Option<Outcome>,
}

/// What a table's task is asked to do.
pub enum Cmd {
    /// A connection opened (`player`: `None` for a spectator without a nickname).
    Connect {
        conn: u64,
        player: Option<PlayerRef>,
        out: mpsc::Sender<String>,
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
}

/// How to reach a running table.
#[derive(Clone)]
pub struct TableHandle {
    pub tx: mpsc::UnboundedSender<Cmd>,
    pub info: Arc<RwLock<TableInfo>>,
}

impl TableHandle {
    /// A copy of the table's description now.
    pub fn info(&self) -> TableInfo {
        self.info
            .read()
            .map(|i| i.clone())
            .unwrap_or_else(|p| p.into_inner().clone())
    }
}

/// How long a finished table nobody is connected to keeps its task.
const IDLE_END: Duration = Duration::from_secs(30);

/// Statuses, as stored and shown.
pub const WAITING: &str = "waiting";
pub const PLAYING: &str = "playing";
pub const FINISHED: &str = "finished";

struct Conn {
    player: Option<PlayerRef>,
    out: mpsc::Sender<String>,
}

struct Actor {
    db: Db,
    row: TableRow,
    game: Box<dyn TableGame>,
    seats: Vec<Option<PlayerRef>>,
    /// Seats people asked for mid-hand, granted at the next hand: player → seat.
    pending: HashMap<i64, Seat>,
    conns: HashMap<u64, Conn>,
    n: u64,
    bot_busy: bool,
    dirty: bool,
    info: Arc<RwLock<TableInfo>>,
    me: mpsc::UnboundedSender<Cmd>,
}

/// Starts the task of a table restored from storage (or just created).
///
/// `on_idle` is called when the game is over and nobody is connected any more; the task
/// then ends (the table stays in storage and is started again if someone asks for it).
pub fn spawn(
    db: Db,
    kind: &dyn Kind,
    stored: StoredTable,
    on_idle: Box<dyn FnOnce() + Send>,
) -> Result<TableHandle, String> {
    let mut game = kind.new_game(&stored.row.rules, stored.row.seed)?;
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
    let seats = stored
        .seats
        .into_iter()
        .map(|s| s.map(|(id, nickname)| PlayerRef { id, nickname }))
        .collect();
    let mut actor = Actor {
        db,
        row: stored.row,
        game,
        seats,
        pending: HashMap::new(),
        conns: HashMap::new(),
        n: stored.actions.len() as u64,
        bot_busy: false,
        dirty: true,
        info: Arc::new(RwLock::new(TableInfo {
            id: String::new(),
            game: String::new(),
            rules: Value::Null,
            status: String::new(),
            created: 0,
            creator: None,
            bot: String::new(),
            pace_ms: 0,
            actions: 0,
            seats: Vec::new(),
            outcome: None,
        })),
        me: tx.clone(),
    };
    actor.publish_info();
    let handle = TableHandle {
        tx,
        info: actor.info.clone(),
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
        self.after_change();
        loop {
            // A finished table nobody watches ends its task after a while.
            let idle = self.conns.is_empty() && self.row.status == FINISHED;
            let cmd = if idle {
                match tokio::time::timeout(IDLE_END, rx.recv()).await {
                    Ok(Some(cmd)) => cmd,
                    Ok(None) | Err(_) => break,
                }
            } else {
                match rx.recv().await {
                    Some(cmd) => cmd,
                    None => break,
                }
            };
            match cmd {
                Cmd::Connect { conn, player, out } => {
                    self.conns.insert(conn, Conn { player, out });
                    self.dirty = true;
                }
                Cmd::Disconnect { conn } => {
                    self.conns.remove(&conn);
                    self.dirty = true;
                }
                Cmd::Client { conn, msg } => self.client(conn, msg).await,
                Cmd::BotDone { n, seat, action } => self.bot_done(n, seat, action).await,
            }
            self.after_change();
        }
        on_idle();
    }

    fn player_of(&self, conn: u64) -> Option<PlayerRef> {
        self.conns.get(&conn).and_then(|c| c.player.clone())
    }

    fn seat_of(&self, player: i64) -> Option<Seat> {
        self.seats
            .iter()
            .position(|s| s.as_ref().is_some_and(|p| p.id == player))
    }

    fn send(&mut self, conn: u64, msg: Value) {
        if let Some(c) = self.conns.get(&conn) {
            if c.out.try_send(msg.to_string()).is_err() {
                // A client that cannot keep up (or is gone) is dropped; it reconnects
                // and gets the whole state again.
                self.conns.remove(&conn);
                self.dirty = true;
            }
        }
    }

    fn error(&mut self, conn: u64, message: impl Into<String>, id: Option<u64>) {
        let mut m = json!({"type": "error", "message": message.into()});
        if let Some(id) = id {
            m["id"] = json!(id);
        }
        self.send(conn, m);
    }

    async fn client(&mut self, conn: u64, msg: ClientMsg) {
        match msg {
            ClientMsg::Ping => self.send(conn, json!({"type": "pong"})),
            ClientMsg::Sit { seat } => {
                if let Err(e) = self.sit(conn, seat).await {
                    self.error(conn, e, None);
                }
            }
            ClientMsg::Stand => {
                if let Err(e) = self.stand(conn).await {
                    self.error(conn, e, None);
                }
            }
            ClientMsg::Start => {
                if let Err(e) = self.start(conn).await {
                    self.error(conn, e, None);
                }
            }
            ClientMsg::Act { action, id } => {
                let seat = match self.player_of(conn) {
                    None => Err("spectators cannot play: pick a nickname and sit".to_string()),
                    Some(p) => self
                        .seat_of(p.id)
                        .ok_or_else(|| "you are not seated at this table: sit first".to_string()),
                };
                let result = match seat {
                    Err(e) => Err(e),
                    Ok(_) if self.row.status == WAITING => {
                        Err("the game has not started yet".to_string())
                    }
                    Ok(_) if self.row.status == FINISHED => Err("the game is over".to_string()),
                    Ok(seat) => self.play(seat, &action).await,
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

    async fn sit(&mut self, conn: u64, seat: Seat) -> Result<(), String> {
        let player = self
            .player_of(conn)
            .ok_or("pick a nickname first: spectators cannot sit")?;
        if seat >= self.seats.len() {
            return Err(format!(
                "there is no seat {seat}: seats are 0 to {}",
                self.seats.len() - 1
            ));
        }
        if self.row.status == FINISHED {
            return Err("the game is over".into());
        }
        if let Some(p) = &self.seats[seat] {
            if p.id == player.id {
                return Ok(());
            }
            return Err(format!("seat {seat} is taken by {}", p.nickname));
        }
        if self.row.status == PLAYING && !self.game.at_boundary() {
            self.pending.insert(player.id, seat);
            self.dirty = true;
            return Ok(());
        }
        self.move_to(player, Some(seat)).await?;
        if self.row.status == WAITING && self.seats.iter().all(Option::is_some) {
            self.set_status(PLAYING, None).await?;
        }
        Ok(())
    }

    /// Moves `player` to `seat` (or off the table), in storage first.
    async fn move_to(&mut self, player: PlayerRef, seat: Option<Seat>) -> Result<(), String> {
        let saved = |e: crate::store::DbError| format!("could not save the seat ({e})");
        if let Some(old) = self.seat_of(player.id) {
            self.db
                .set_seat(self.row.id.clone(), old, None)
                .await
                .map_err(saved)?;
            self.seats[old] = None;
        }
        if let Some(s) = seat {
            self.db
                .set_seat(self.row.id.clone(), s, Some(player.id))
                .await
                .map_err(saved)?;
            self.seats[s] = Some(player.clone());
        }
        self.pending.remove(&player.id);
        self.dirty = true;
        Ok(())
    }

    async fn stand(&mut self, conn: u64) -> Result<(), String> {
        let player = self.player_of(conn).ok_or("you are not seated")?;
        if self.seat_of(player.id).is_none() && self.pending.remove(&player.id).is_none() {
            return Err("you are not seated".into());
        }
        self.move_to(player, None).await
    }

    async fn start(&mut self, conn: u64) -> Result<(), String> {
        let player = self
            .player_of(conn)
            .ok_or("spectators cannot start the game")?;
        if self.row.status != WAITING {
            return Err("the game has already started".into());
        }
        let allowed = match self.row.creator {
            Some(c) => c == player.id,
            None => self.seat_of(player.id).is_some(),
        };
        if !allowed {
            return Err("only the table's creator can start the game".into());
        }
        self.set_status(PLAYING, None).await
    }

    async fn set_status(
        &mut self,
        status: &'static str,
        outcome: Option<Value>,
    ) -> Result<(), String> {
        self.db
            .set_status(self.row.id.clone(), status, outcome.clone())
            .await
            .map_err(|e| format!("could not save the table ({e})"))?;
        self.row.status = status.into();
        if status == FINISHED {
            self.row.finished = Some(now());
        }
        self.row.outcome = outcome;
        self.dirty = true;
        Ok(())
    }

    /// Checks, stores and applies one action; returns its number.
    async fn play(&mut self, seat: Seat, action: &str) -> Result<u64, String> {
        let text = self.game.check(seat, action)?;
        let n = self.n + 1;
        self.db
            .append_action(self.row.id.clone(), n, seat, text.clone())
            .await
            .map_err(|e| format!("could not save the action ({e}); nothing changed"))?;
        self.game
            .apply(seat, &text)
            .map_err(|e| format!("internal error: a checked action was refused: {e}"))?;
        self.n = n;
        self.dirty = true;
        if let Some(o) = self.game.outcome() {
            let o = serde_json::to_value(o).unwrap_or(Value::Null);
            if let Err(e) = self.set_status(FINISHED, Some(o)).await {
                eprintln!("table {}: {e}", self.row.id);
            }
        }
        if self.game.at_boundary() && !self.pending.is_empty() {
            let pending: Vec<(i64, Seat)> = self.pending.drain().collect();
            for (pid, s) in pending {
                let player = self
                    .conns
                    .values()
                    .filter_map(|c| c.player.clone())
                    .find(|p| p.id == pid);
                if let (Some(p), None) = (player, &self.seats[s]) {
                    if let Err(e) = self.move_to(p, Some(s)).await {
                        eprintln!("table {}: {e}", self.row.id);
                    }
                }
            }
        }
        Ok(n)
    }

    async fn bot_done(&mut self, n: u64, seat: Seat, action: Option<String>) {
        self.bot_busy = false;
        let still_bot = self.seats.get(seat).is_some_and(Option::is_none);
        if n != self.n || !still_bot || self.row.status != PLAYING {
            return;
        }
        let legal = self.game.legal(seat);
        let Some(first) = legal.first().cloned() else {
            return;
        };
        let action = action.unwrap_or_else(|| first.clone());
        if let Err(e) = self.play(seat, &action).await {
            eprintln!(
                "table {}: bot at seat {seat} played `{action}`: {e}",
                self.row.id
            );
            if action != first {
                if let Err(e) = self.play(seat, &first).await {
                    eprintln!("table {}: {e}", self.row.id);
                }
            }
        }
    }

    fn schedule_bot(&mut self) {
        if self.bot_busy || self.row.status != PLAYING {
            return;
        }
        let Some(seat) = self
            .game
            .to_act()
            .into_iter()
            .find(|s| self.seats.get(*s).is_some_and(Option::is_none))
        else {
            return;
        };
        let job =
            match self
                .game
                .bot_job(seat, &self.row.bot, bot_seed(self.row.seed, self.n, seat))
            {
                Ok(j) => j,
                Err(e) => {
                    eprintln!("table {}: bot `{}`: {e}", self.row.id, self.row.bot);
                    return;
                }
            };
        self.bot_busy = true;
        let me = self.me.clone();
        let n = self.n;
        let pace = Duration::from_millis(self.row.pace_ms);
        tokio::spawn(async move {
            if !pace.is_zero() {
                tokio::time::sleep(pace).await;
            }
            let action = tokio::task::spawn_blocking(job).await.ok();
            let _ = me.send(Cmd::BotDone { n, seat, action });
        });
    }

    fn after_change(&mut self) {
        if self.dirty {
            self.dirty = false;
            self.publish_info();
            self.broadcast();
        }
        self.schedule_bot();
    }

    fn table_info(&self) -> TableInfo {
        let connected = |id: i64| {
            self.conns
                .values()
                .any(|c| c.player.as_ref().is_some_and(|p| p.id == id))
        };
        TableInfo {
            id: self.row.id.clone(),
            game: self.row.game.clone(),
            rules: self.row.rules.clone(),
            status: self.row.status.clone(),
            created: self.row.created,
            creator: self.row.creator,
            bot: self.row.bot.clone(),
            pace_ms: self.row.pace_ms,
            actions: self.n,
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(seat, p)| SeatInfo {
                    seat,
                    player: p.clone(),
                    bot: p.is_none().then(|| self.row.bot.clone()),
                    connected: p.as_ref().is_some_and(|p| connected(p.id)),
                })
                .collect(),
            outcome: self.game.outcome(),
        }
    }

    fn publish_info(&mut self) {
        let info = self.table_info();
        match self.info.write() {
            Ok(mut w) => *w = info,
            Err(p) => *p.into_inner() = info,
        }
    }

    /// Sends every connection the state it may see. Each seat's part (view and legal
    /// actions) is made once and shared by that seat's connections; the narration is of
    /// public events only, so it is made once for everybody.
    fn broadcast(&mut self) {
        let info = serde_json::to_string(&self.table_info()).unwrap_or_else(|_| "null".into());
        let outcome = serde_json::to_string(&self.game.outcome()).unwrap_or_else(|_| "null".into());
        let lines = json!(self.game.lines(None)).to_string();
        let mut per_seat: HashMap<Option<Seat>, String> = HashMap::new();
        let mut dead = Vec::new();
        for (id, c) in &self.conns {
            let seat = c.player.as_ref().and_then(|p| self.seat_of(p.id));
            let part = per_seat.entry(seat).or_insert_with(|| {
                let legal = match (seat, self.row.status.as_str()) {
                    (Some(s), PLAYING) => self.game.legal(s),
                    _ => Vec::new(),
                };
                format!(
                    r#""view":{},"legal":{},"lines":{lines}"#,
                    self.game.view_text(seat),
                    json!(legal),
                )
            });
            let pending = c.player.as_ref().and_then(|p| self.pending.get(&p.id));
            let you = json!({
                "player": c.player.as_ref().map(|p| p.id),
                "seat": seat,
                "pending_seat": pending,
            });
            let msg = format!(
                r#"{{"type":"state","table":{info},"you":{you},"n":{},{part},"outcome":{outcome}}}"#,
                self.n
            );
            if c.out.try_send(msg).is_err() {
                dead.push(*id);
            }
        }
        for id in dead {
            self.conns.remove(&id);
            self.dirty = true;
        }
    }
}
