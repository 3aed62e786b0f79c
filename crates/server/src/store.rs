//! Storage in SQLite: players, tables (game, rules, seed, seats, status) and every table's
//! action log. A table is its rules, seed and actions, so nothing else needs saving: the
//! engine replays it exactly.
//!
//! One thread owns the connection; async code sends it closures and awaits the answer, so
//! the runtime never blocks on the disk and writes happen in the order they were asked.

use rusqlite::{params, Connection, OptionalExtension};
use serde_json::Value;
use std::path::Path;
use std::sync::mpsc;
use tokio::sync::oneshot;

type Job = Box<dyn FnOnce(&mut Connection) + Send>;

/// A handle on the database thread. Cheap to clone.
#[derive(Clone)]
pub struct Db {
    tx: mpsc::Sender<Job>,
}

/// A storage failure, in words.
#[derive(Debug, thiserror::Error)]
#[error("database: {0}")]
pub struct DbError(pub String);

impl From<rusqlite::Error> for DbError {
    fn from(e: rusqlite::Error) -> Self {
        DbError(e.to_string())
    }
}

pub type DbResult<T> = Result<T, DbError>;

const SCHEMA: &str = "
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
PRAGMA foreign_keys = ON;
CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY,
    nickname TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    rules TEXT NOT NULL,
    seed INTEGER NOT NULL,
    creator INTEGER REFERENCES players(id),
    bot TEXT NOT NULL,
    pace_ms INTEGER NOT NULL,
    status TEXT NOT NULL,
    created INTEGER NOT NULL,
    finished INTEGER,
    outcome TEXT
);
CREATE INDEX IF NOT EXISTS tables_status ON tables(status);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    player INTEGER REFERENCES players(id),
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS table_players (
    table_id TEXT NOT NULL REFERENCES tables(id),
    player INTEGER NOT NULL REFERENCES players(id),
    seat INTEGER NOT NULL,
    PRIMARY KEY (table_id, player, seat)
);
CREATE INDEX IF NOT EXISTS table_players_player ON table_players(player);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
";

/// A table as stored.
#[derive(Clone, Debug)]
pub struct TableRow {
    pub id: String,
    pub game: String,
    pub rules: Value,
    pub seed: u64,
    pub creator: Option<i64>,
    pub bot: String,
    pub pace_ms: u64,
    pub status: String,
    pub created: i64,
    pub finished: Option<i64>,
    pub outcome: Option<Value>,
}

/// A stored table with its seats (player ids) and its action log.
#[derive(Clone, Debug)]
pub struct StoredTable {
    pub row: TableRow,
    pub seats: Vec<Option<(i64, String)>>,
    pub actions: Vec<(usize, String)>,
}

/// One finished game of a player, for the history page.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PlayedGame {
    pub table: String,
    pub game: String,
    pub finished: Option<i64>,
    pub seat: usize,
    pub outcome: Option<Value>,
    /// Who sat where (the last person at each seat; `null` for bots throughout).
    pub players: Vec<Option<String>>,
}

fn row_of(r: &rusqlite::Row<'_>) -> rusqlite::Result<TableRow> {
    let rules: String = r.get(2)?;
    let outcome: Option<String> = r.get(10)?;
    Ok(TableRow {
        id: r.get(0)?,
        game: r.get(1)?,
        rules: serde_json::from_str(&rules).unwrap_or(Value::Null),
        seed: r.get::<_, i64>(3)? as u64,
        creator: r.get(4)?,
        bot: r.get(5)?,
        pace_ms: r.get::<_, i64>(6)?.max(0) as u64,
        status: r.get(7)?,
        created: r.get(8)?,
        finished: r.get(9)?,
        outcome: outcome.and_then(|o| serde_json::from_str(&o).ok()),
    })
}

const TABLE_COLUMNS: &str =
    "id, game, rules, seed, creator, bot, pace_ms, status, created, finished, outcome";

impl Db {
    /// Opens (creating if needed) the database at `path` and starts its thread.
    pub fn open(path: &Path) -> DbResult<Db> {
        let mut conn = Connection::open(path)?;
        conn.execute_batch(SCHEMA)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        let (tx, rx) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("tapete-db".into())
            .spawn(move || {
                while let Ok(job) = rx.recv() {
                    job(&mut conn);
                }
            })
            .map_err(|e| DbError(e.to_string()))?;
        Ok(Db { tx })
    }

    /// Runs `f` on the database thread and waits for its answer.
    pub async fn call<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Connection) -> DbResult<T> + Send + 'static,
    ) -> DbResult<T> {
        let (tx, rx) = oneshot::channel();
        self.tx
            .send(Box::new(move |c| {
                let _ = tx.send(f(c));
            }))
            .map_err(|_| DbError("the database thread stopped".into()))?;
        rx.await
            .map_err(|_| DbError("the database thread stopped".into()))?
    }

    /// Adds a player; returns its id.
    pub async fn create_player(&self, nickname: String, token_hash: String) -> DbResult<i64> {
        self.call(move |c| {
            c.execute(
                "INSERT INTO players (nickname, token_hash, created) VALUES (?1, ?2, ?3)",
                params![nickname, token_hash, now()],
            )?;
            Ok(c.last_insert_rowid())
        })
        .await
    }

    /// The player holding a token (by its hash).
    pub async fn player_by_token(&self, token_hash: String) -> DbResult<Option<(i64, String)>> {
        self.call(move |c| {
            Ok(c.query_row(
                "SELECT id, nickname FROM players WHERE token_hash = ?1",
                [token_hash],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?)
        })
        .await
    }

    /// A player's nickname.
    pub async fn player(&self, id: i64) -> DbResult<Option<String>> {
        self.call(move |c| {
            Ok(
                c.query_row("SELECT nickname FROM players WHERE id = ?1", [id], |r| {
                    r.get(0)
                })
                .optional()?,
            )
        })
        .await
    }

    /// Stores a new table with its seats.
    pub async fn create_table(&self, row: TableRow, seats: Vec<Option<i64>>) -> DbResult<()> {
        self.call(move |c| {
            let tx = c.transaction()?;
            tx.execute(
                "INSERT INTO tables (id, game, rules, seed, creator, bot, pace_ms, status, created)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![
                    row.id,
                    row.game,
                    row.rules.to_string(),
                    row.seed as i64,
                    row.creator,
                    row.bot,
                    row.pace_ms as i64,
                    row.status,
                    row.created
                ],
            )?;
            for (seat, p) in seats.iter().enumerate() {
                tx.execute(
                    "INSERT INTO seats (table_id, seat, player) VALUES (?1, ?2, ?3)",
                    params![row.id, seat as i64, p],
                )?;
                if let Some(p) = p {
                    tx.execute(
                        "INSERT OR IGNORE INTO table_players (table_id, player, seat) VALUES (?1, ?2, ?3)",
                        params![row.id, p, seat as i64],
                    )?;
                }
            }
            tx.commit()?;
            Ok(())
        })
        .await
    }

    /// Who holds a seat now (`None`: the table's bot).
    pub async fn set_seat(&self, table: String, seat: usize, player: Option<i64>) -> DbResult<()> {
        self.call(move |c| {
            let tx = c.transaction()?;
            tx.execute(
                "UPDATE seats SET player = ?3 WHERE table_id = ?1 AND seat = ?2",
                params![table, seat as i64, player],
            )?;
            if let Some(p) = player {
                tx.execute(
                    "INSERT OR IGNORE INTO table_players (table_id, player, seat) VALUES (?1, ?2, ?3)",
                    params![table, p, seat as i64],
                )?;
            }
            tx.commit()?;
            Ok(())
        })
        .await
    }

    /// Appends action number `n` (1-based) of a table. Fails if `n` is already there, so
    /// a log can never fork.
    pub async fn append_action(
        &self,
        table: String,
        n: u64,
        seat: usize,
        action: String,
    ) -> DbResult<()> {
        self.call(move |c| {
            c.execute(
                "INSERT INTO actions (table_id, n, seat, action) VALUES (?1, ?2, ?3, ?4)",
                params![table, n as i64, seat as i64, action],
            )?;
            Ok(())
        })
        .await
    }

    /// Sets a table's status (and its outcome when finished).
    pub async fn set_status(
        &self,
        table: String,
        status: &'static str,
        outcome: Option<Value>,
    ) -> DbResult<()> {
        self.call(move |c| {
            let finished = (status == "finished").then(now);
            c.execute(
                "UPDATE tables SET status = ?2, outcome = ?3, finished = ?4 WHERE id = ?1",
                params![table, status, outcome.map(|o| o.to_string()), finished],
            )?;
            Ok(())
        })
        .await
    }

    /// Every table not finished, with seats and log, to restore after a restart.
    pub async fn unfinished_tables(&self) -> DbResult<Vec<StoredTable>> {
        self.call(|c| {
            let ids: Vec<String> = c
                .prepare("SELECT id FROM tables WHERE status != 'finished' ORDER BY created")?
                .query_map([], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            ids.iter()
                .filter_map(|id| load(c, id).transpose())
                .collect()
        })
        .await
    }

    /// One table with its seats and log.
    pub async fn table(&self, id: String) -> DbResult<Option<StoredTable>> {
        self.call(move |c| load(c, &id)).await
    }

    /// A player's finished games, newest first (at most 200).
    pub async fn player_games(&self, player: i64) -> DbResult<Vec<PlayedGame>> {
        self.call(move |c| {
            let mut st = c.prepare(
                "SELECT t.id, t.game, t.finished, tp.seat, t.outcome FROM table_players tp
                 JOIN tables t ON t.id = tp.table_id
                 WHERE tp.player = ?1 AND t.status = 'finished'
                 ORDER BY t.finished DESC, t.id LIMIT 200",
            )?;
            let mut out: Vec<PlayedGame> = st
                .query_map([player], |r| {
                    let outcome: Option<String> = r.get(4)?;
                    Ok(PlayedGame {
                        table: r.get(0)?,
                        game: r.get(1)?,
                        finished: r.get(2)?,
                        seat: r.get::<_, i64>(3)? as usize,
                        outcome: outcome.and_then(|o| serde_json::from_str(&o).ok()),
                        players: Vec::new(),
                    })
                })?
                .collect::<Result<_, _>>()?;
            for g in &mut out {
                g.players = seat_names(c, &g.table)?;
            }
            Ok(out)
        })
        .await
    }
}

/// The nickname of the person who last held each seat (`None` where only bots played).
fn seat_names(c: &Connection, table: &str) -> DbResult<Vec<Option<String>>> {
    let mut st = c.prepare(
        "SELECT s.seat, p.nickname FROM seats s LEFT JOIN players p ON p.id = s.player
         WHERE s.table_id = ?1 ORDER BY s.seat",
    )?;
    let now: Vec<(i64, Option<String>)> = st
        .query_map([table], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    let mut names: Vec<Option<String>> = now.into_iter().map(|(_, n)| n).collect();
    // A seat a person left is still theirs in the history.
    let mut st = c.prepare(
        "SELECT tp.seat, p.nickname FROM table_players tp JOIN players p ON p.id = tp.player
         WHERE tp.table_id = ?1",
    )?;
    let past: Vec<(i64, String)> = st
        .query_map([table], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    for (seat, name) in past {
        if let Some(slot) = names.get_mut(seat as usize) {
            if slot.is_none() {
                *slot = Some(name);
            }
        }
    }
    Ok(names)
}

fn load(c: &Connection, id: &str) -> DbResult<Option<StoredTable>> {
    let row = c
        .query_row(
            &format!("SELECT {TABLE_COLUMNS} FROM tables WHERE id = ?1"),
            [id],
            row_of,
        )
        .optional()?;
    let Some(row) = row else { return Ok(None) };
    let mut st = c.prepare(
        "SELECT s.seat, s.player, p.nickname FROM seats s LEFT JOIN players p ON p.id = s.player
         WHERE s.table_id = ?1 ORDER BY s.seat",
    )?;
    let seats: Vec<Option<(i64, String)>> = st
        .query_map([id], |r| {
            let p: Option<i64> = r.get(1)?;
            let n: Option<String> = r.get(2)?;
            Ok(p.zip(n))
        })?
        .collect::<Result<_, _>>()?;
    let mut st = c.prepare("SELECT seat, action FROM actions WHERE table_id = ?1 ORDER BY n")?;
    let actions: Vec<(usize, String)> = st
        .query_map([id], |r| Ok((r.get::<_, i64>(0)? as usize, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    Ok(Some(StoredTable {
        row,
        seats,
        actions,
    }))
}

/// Seconds since the Unix epoch.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}
