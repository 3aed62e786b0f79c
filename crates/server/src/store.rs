//! Storage in SQLite: players, tables (game, seat count, rules, seed, who sits where,
//! status) and every table's action log. A table is its rules, seed and actions, so nothing else needs saving: the
//! engine replays it exactly.
//!
//! One thread owns the connection; async code sends it closures and awaits the answer, so
//! the runtime never blocks on the disk and writes happen in the order they were asked.
//!
//! **Durability.** With [`Durability::Full`] (the default) an answer comes only once its
//! write is on disk (`synchronous = FULL`): an acknowledged action survives a power cut,
//! not only a crash. To keep that cheap the thread commits in groups: every job waiting
//! when it wakes runs in one transaction (each in a savepoint of its own, so one failing
//! job changes nothing of the others), and all are answered after the one commit.
//!
//! The file is guarded by a lock file beside it (`tapete.db.lock`), so a second server on
//! the same database is refused; the schema carries a version, and a database written by
//! a newer tapete is refused rather than misread.

use serde_json::Value;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use tokio::sync::oneshot;

pub mod board;
mod friends;
pub mod lease;
pub mod listen;
pub mod pg;
pub mod sql;
pub use friends::{FriendsRow, NewRematch};
pub(crate) use sql::params;
pub use sql::{Connection, OptionalExtension};

/// What a job leaves to do once its transaction is committed (or failed to commit).
type Done = Box<dyn FnOnce(Result<(), DbError>) + Send>;
/// A job runs on the connection inside the group's transaction, or is told why the
/// transaction could not begin.
type Job = Box<dyn FnOnce(Result<&Connection, DbError>) -> Done + Send>;

/// Most jobs committed together.
const GROUP: usize = 512;

/// While the database cannot be written (its last transaction failed to begin or to
/// commit), the thread tries an empty transaction this often when no job comes.
pub const PROBE_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// The schema version this build writes; databases from a newer one are refused.
///
/// 1: tables of four seats (Mus only). 2: each table stores its seat count. 3: each table
/// stores who has held which seat during the hand under way (`hand_seats`). 4: each table
/// stores its turn clock (`turn_s`; tables from before have none, 0). 5: accounts
/// (`accounts`: a player's password hash and nickname key) and sessions (`sessions`: every
/// token of a player, by its hash; each player's token of before becomes its first session).
/// 6: rated tables (`tables.rated`, and each rated game's players when it started in
/// `rated_seats`), every rated player's rating per game (`ratings`) and its history
/// (`rating_history`), see [`crate::rating`]; friends' tables (`private_tables`,
/// `reserved_seats`, `rematches`); table chat (`chat`: each table's last messages), mutes
/// (`mutes`), reports of chat messages (`reports`), friends (`friends`, both ways), friend
/// requests (`friend_requests`) and invitations to a table (`invitations`).
/// 7: each rating history row numbers its player's rows in order (`seq`), which both
/// SQLite and PostgreSQL can sort by.
/// 8: what keeps ratings from being farmed (see [`crate::rating`]): how many decisions the
/// bot took for each person of a rated game (`rated_seats.helped`), whether a history row's
/// seat was played by the bot (`assisted`) or why it was not rated (`unrated`), the address
/// each account was made from (`signup_addresses`) and those each player played a rated
/// table from until it is rated (`table_addresses`); a rated table always has a turn clock.
/// Since, without a new version (an older tapete reads such a database as before): each
/// account's nickname look (`nickname_looks`), made at start where it is missing and filled
/// from the accounts (see [`Db::fill_nickname_looks`]).
pub const SCHEMA_VERSION: i64 = 8;

/// How hard each answer waits for the disk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Durability {
    /// Every acknowledged write survives a power cut (`synchronous = FULL`).
    #[default]
    Full,
    /// A crash loses nothing, a power cut may lose the last writes (`synchronous = NORMAL`).
    Normal,
}

impl std::str::FromStr for Durability {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "full" => Ok(Durability::Full),
            "normal" => Ok(Durability::Normal),
            _ => Err(format!("`{s}` is not a durability: use full or normal")),
        }
    }
}

/// A handle on the database thread. Cheap to clone.
#[derive(Clone)]
pub struct Db {
    /// Jobs; `None` asks the thread to stop (see [`Db::close`]).
    tx: mpsc::Sender<Option<Job>>,
    thread: std::sync::Arc<std::sync::Mutex<Option<std::thread::JoinHandle<()>>>>,
    /// This node's leases when several servers share the database (PostgreSQL).
    leases: Option<std::sync::Arc<lease::Leases>>,
    /// The other servers' tables and people, as they notify them (PostgreSQL).
    mirror: Option<std::sync::Arc<listen::Mirror>>,
    /// Counts the times a transaction committed after one had failed (see
    /// [`Db::recoveries`]).
    recoveries: std::sync::Arc<tokio::sync::watch::Sender<u64>>,
}

/// A storage failure, in words.
#[derive(Clone, Debug, thiserror::Error)]
#[error("database: {0}")]
pub struct DbError(pub String);

impl From<rusqlite::Error> for DbError {
    fn from(e: rusqlite::Error) -> Self {
        DbError(e.to_string())
    }
}

pub type DbResult<T> = Result<T, DbError>;

const SCHEMA: &str = "
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
    outcome TEXT,
    away_s INTEGER NOT NULL DEFAULT 30,
    hold_s INTEGER NOT NULL DEFAULT 10,
    seats INTEGER NOT NULL,
    turn_s INTEGER NOT NULL DEFAULT 0,
    rated INTEGER NOT NULL DEFAULT 0
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
CREATE TABLE IF NOT EXISTS pending_seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    player INTEGER NOT NULL REFERENCES players(id),
    seat INTEGER NOT NULL,
    PRIMARY KEY (table_id, player)
);
CREATE TABLE IF NOT EXISTS hand_seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    player INTEGER NOT NULL REFERENCES players(id),
    seat INTEGER NOT NULL,
    PRIMARY KEY (table_id, player)
);
CREATE TABLE IF NOT EXISTS private_tables (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    invite TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS reserved_seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    player INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS rematches (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    new_table TEXT NOT NULL UNIQUE REFERENCES tables(id),
    starts_at INTEGER NOT NULL,
    created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS accounts (
    player INTEGER PRIMARY KEY REFERENCES players(id),
    nick_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    player INTEGER NOT NULL REFERENCES players(id),
    created INTEGER NOT NULL,
    last_used INTEGER NOT NULL,
    agent TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_player ON sessions(player);
CREATE TABLE IF NOT EXISTS nickname_looks (
    player INTEGER PRIMARY KEY REFERENCES players(id),
    look TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS nickname_looks_look ON nickname_looks(look);
CREATE TABLE IF NOT EXISTS rated_seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    team INTEGER NOT NULL,
    player INTEGER REFERENCES players(id),
    helped INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS signup_addresses (
    player INTEGER PRIMARY KEY REFERENCES players(id),
    address TEXT NOT NULL,
    at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS signup_addresses_address ON signup_addresses(address);
CREATE TABLE IF NOT EXISTS table_addresses (
    table_id TEXT NOT NULL REFERENCES tables(id),
    player INTEGER NOT NULL REFERENCES players(id),
    address TEXT NOT NULL,
    PRIMARY KEY (table_id, player, address)
);
CREATE TABLE IF NOT EXISTS ratings (
    game TEXT NOT NULL,
    who TEXT NOT NULL,
    player INTEGER REFERENCES players(id),
    bot TEXT,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL,
    won INTEGER NOT NULL,
    abandoned INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    PRIMARY KEY (game, who)
);
CREATE INDEX IF NOT EXISTS ratings_player ON ratings(player);
CREATE TABLE IF NOT EXISTS rating_history (
    table_id TEXT NOT NULL REFERENCES tables(id),
    who TEXT NOT NULL,
    game TEXT NOT NULL,
    player INTEGER REFERENCES players(id),
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    place INTEGER NOT NULL,
    won INTEGER NOT NULL,
    abandoned INTEGER NOT NULL,
    at INTEGER NOT NULL,
    seq INTEGER NOT NULL DEFAULT 0,
    assisted INTEGER NOT NULL DEFAULT 0,
    unrated TEXT,
    PRIMARY KEY (table_id, who)
);
CREATE INDEX IF NOT EXISTS rating_history_who ON rating_history(game, who, at);
CREATE TABLE IF NOT EXISTS chat (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,
    channel TEXT NOT NULL,
    player INTEGER NOT NULL REFERENCES players(id),
    nickname TEXT NOT NULL,
    text TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (table_id, n)
);
CREATE TABLE IF NOT EXISTS mutes (
    player INTEGER NOT NULL REFERENCES players(id),
    muted INTEGER NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (player, muted)
);
CREATE TABLE IF NOT EXISTS reports (
    id INTEGER PRIMARY KEY,
    table_id TEXT NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,
    channel TEXT NOT NULL,
    author INTEGER NOT NULL,
    author_nickname TEXT NOT NULL,
    text TEXT NOT NULL,
    written INTEGER NOT NULL,
    reporter INTEGER NOT NULL REFERENCES players(id),
    at INTEGER NOT NULL,
    UNIQUE (table_id, n, reporter)
);
CREATE TABLE IF NOT EXISTS friends (
    player INTEGER NOT NULL REFERENCES players(id),
    friend INTEGER NOT NULL REFERENCES players(id),
    since INTEGER NOT NULL,
    PRIMARY KEY (player, friend)
);
CREATE TABLE IF NOT EXISTS friend_requests (
    from_player INTEGER NOT NULL REFERENCES players(id),
    to_player INTEGER NOT NULL REFERENCES players(id),
    at INTEGER NOT NULL,
    PRIMARY KEY (from_player, to_player)
);
CREATE INDEX IF NOT EXISTS friend_requests_to ON friend_requests(to_player);
CREATE TABLE IF NOT EXISTS invitations (
    id INTEGER PRIMARY KEY,
    from_player INTEGER NOT NULL REFERENCES players(id),
    to_player INTEGER NOT NULL REFERENCES players(id),
    table_id TEXT NOT NULL REFERENCES tables(id),
    at INTEGER NOT NULL,
    UNIQUE (from_player, to_player, table_id)
);
CREATE INDEX IF NOT EXISTS invitations_to ON invitations(to_player);
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
";

/// What a database of schema version 0 (tapete before versions) lacks.
const MIGRATE_0: &str = "
ALTER TABLE tables ADD COLUMN away_s INTEGER NOT NULL DEFAULT 30;
ALTER TABLE tables ADD COLUMN hold_s INTEGER NOT NULL DEFAULT 10;
";

/// What a database of schema version 1 lacks: the seat count of each table. Every table
/// then had one row per seat in `seats` (all four, for Mus), so that count is its seat
/// count, its game's only one.
const MIGRATE_1: &str = "
ALTER TABLE tables ADD COLUMN seats INTEGER NOT NULL DEFAULT 0;
UPDATE tables SET seats = (SELECT count(*) FROM seats s WHERE s.table_id = tables.id);
";

/// What a database of schema version 2 lacks: who has held which seat this hand. Those
/// versions knew only who sits now, so that is what a playing table starts from.
const MIGRATE_2: &str = "
INSERT OR IGNORE INTO hand_seats (table_id, player, seat)
    SELECT s.table_id, s.player, s.seat FROM seats s JOIN tables t ON t.id = s.table_id
    WHERE s.player IS NOT NULL AND t.status = 'playing';
";

/// What a database of schema version 3 or older lacks: the turn clock. Tables made
/// before it had none, and keep none.
const MIGRATE_3: &str = "ALTER TABLE tables ADD COLUMN turn_s INTEGER NOT NULL DEFAULT 0;";

/// What a database of schema version 4 or older lacks: sessions. Each player's one token
/// becomes its first session, so every guest goes on with the token it has. (Players keep
/// `token_hash`, the hash of their first token; only `sessions` says who a token is.)
const MIGRATE_4: &str = "
INSERT OR IGNORE INTO sessions (token_hash, player, created, last_used, agent)
    SELECT token_hash, id, created, created, '' FROM players;
";

/// What a database of schema version 5 or older lacks: whether a table is rated. Tables
/// made before were not.
const MIGRATE_5: &str = "ALTER TABLE tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;";

/// What a database of schema version 6 or older lacks: the order of each player's
/// rating history, which until then was SQLite's row order.
const MIGRATE_6: &str = "
ALTER TABLE rating_history ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
UPDATE rating_history SET seq = rowid;
";

/// Columns schema version 8 adds to tables an older database already has, as `(table,
/// column, definition)`: each database adds those it lacks (SQLite after looking, PostgreSQL
/// with `ADD COLUMN IF NOT EXISTS`). Rows from before get the defaults: no decision taken by
/// the bot, nothing assisted, everything rated.
pub(crate) const COLUMNS_8: [(&str, &str, &str); 3] = [
    ("rated_seats", "helped", "INTEGER NOT NULL DEFAULT 0"),
    ("rating_history", "assisted", "INTEGER NOT NULL DEFAULT 0"),
    ("rating_history", "unrated", "TEXT"),
];

/// What a database of schema version 7 or older lacks in its rows: a rated table not
/// finished that has no turn clock gets the default one, as every rated table now has.
pub(crate) fn migrate_7() -> String {
    format!(
        "UPDATE tables SET turn_s = {} WHERE rated = 1 AND turn_s = 0 AND status <> 'finished';",
        crate::http::DEFAULT_TURN_S
    )
}

/// Indexes on columns a migration may add: made after the migrations.
pub(crate) const LATE_INDEXES: &str =
    "CREATE INDEX IF NOT EXISTS rating_history_seq ON rating_history(who, seq);";

/// Statements that start a table's hand memory again: only the people seated now have
/// seen a seat of the new hand. `?1` is the table.
const NEW_HAND_SEATS: &str = "DELETE FROM hand_seats WHERE table_id = ?1";
const SEATED_HAND_SEATS: &str = "INSERT INTO hand_seats (table_id, player, seat)
    SELECT table_id, player, seat FROM seats WHERE table_id = ?1 AND player IS NOT NULL
    ON CONFLICT (table_id, player) DO UPDATE SET seat = excluded.seat";

/// A table as stored.
#[derive(Clone, Debug)]
pub struct TableRow {
    pub id: String,
    pub game: String,
    /// How many seats the table has (within its game's range).
    pub seats: usize,
    pub rules: Value,
    pub seed: u64,
    pub creator: Option<i64>,
    pub bot: String,
    pub pace_ms: u64,
    pub status: String,
    pub created: i64,
    pub finished: Option<i64>,
    pub outcome: Option<Value>,
    /// Seconds a person may be gone on their turn before the table's bot plays for them.
    pub away_s: u64,
    /// Seconds the end of a hand is held for people to read before the bots go on.
    pub hold_s: u64,
    /// Seconds a connected person has for each turn before the table's bot plays it
    /// (0: no clock).
    pub turn_s: u64,
    /// Whether the game is rated: only accounts sit, and its result moves every seat's
    /// rating (see [`crate::rating`]).
    pub rated: bool,
}

/// A stored table with its seats (player ids) and its action log.
#[derive(Clone, Debug)]
pub struct StoredTable {
    pub row: TableRow,
    pub seats: Vec<Option<(i64, String)>>,
    pub actions: Vec<(usize, String)>,
    /// Seats asked for mid-hand and not yet granted: (player, nickname, seat).
    pub pending: Vec<(i64, String, usize)>,
    /// The seat each person has held during the hand under way: (player, seat). They
    /// have seen its cards, so no other seat of this hand may be theirs.
    pub hand_seats: Vec<(i64, usize)>,
    /// Privacy, kept seats and rematch (friends' tables).
    pub friends: FriendsRow,
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

/// Stored JSON that does not parse is an error, never a silent default.
fn json_column(column: usize, text: &str) -> DbResult<Value> {
    serde_json::from_str(text).map_err(|e| DbError(format!("column {column}: {e}")))
}

fn row_of(r: &sql::Row) -> DbResult<TableRow> {
    let rules: String = r.get(2)?;
    let outcome: Option<String> = r.get(10)?;
    let rules = json_column(2, &rules)?;
    // Options are an object (`null` for a game without any); the game checks the rest.
    if !(rules.is_object() || rules.is_null()) {
        return Err(DbError(
            "column 2: the stored rules are not a JSON object".into(),
        ));
    }
    Ok(TableRow {
        id: r.get(0)?,
        game: r.get(1)?,
        rules,
        seed: r.get::<_, i64>(3)? as u64,
        creator: r.get(4)?,
        bot: r.get(5)?,
        pace_ms: r.get::<_, i64>(6)?.max(0) as u64,
        status: r.get(7)?,
        created: r.get(8)?,
        finished: r.get(9)?,
        outcome: outcome.map(|o| json_column(10, &o)).transpose()?,
        away_s: r.get::<_, i64>(11)?.max(0) as u64,
        hold_s: r.get::<_, i64>(12)?.max(0) as u64,
        seats: seat_count(r.get(13)?)?,
        turn_s: r.get::<_, i64>(14)?.max(0) as u64,
        rated: r.get(15)?,
    })
}

/// A stored seat count, which must be at least 1 (a table of no seats is a broken row,
/// never a default).
fn seat_count(n: i64) -> DbResult<usize> {
    usize::try_from(n).ok().filter(|n| *n >= 1).ok_or_else(|| {
        DbError(format!(
            "column 13: the stored seat count {n} is not a number of seats"
        ))
    })
}

const TABLE_COLUMNS: &str = "id, game, rules, seed, creator, bot, pace_ms, status, created, \
                             finished, outcome, away_s, hold_s, seats, turn_s, rated";

/// The lock file guarding a database: `tapete.db` → `tapete.db.lock`.
fn lock_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// Takes the database's lock file, or says who holds it.
fn take_lock(db: &Path) -> DbResult<File> {
    let path = lock_path(db);
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| DbError(format!("cannot open the lock file {}: {e}", path.display())))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(DbError(format!(
            "another tapete server is using this database (it holds {}); stop it first or \
             choose another --db",
            path.display()
        ))),
        Err(std::fs::TryLockError::Error(e)) => {
            Err(DbError(format!("cannot lock {}: {e}", path.display())))
        }
    }
}

/// Brings the schema to [`SCHEMA_VERSION`], refusing a newer one, and proves the file can
/// be written (a read-only file or a full disk must stop the server at start, not at the
/// first action).
fn prepare(conn: &mut rusqlite::Connection, durability: Durability) -> DbResult<()> {
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version > SCHEMA_VERSION {
        return Err(DbError(format!(
            "the database has schema version {version}, newer than this tapete knows \
             ({SCHEMA_VERSION}): use a newer tapete"
        )));
    }
    let sync = match durability {
        Durability::Full => "FULL",
        Durability::Normal => "NORMAL",
    };
    conn.execute_batch(&format!(
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = {sync}; PRAGMA foreign_keys = ON;"
    ))
    .map_err(not_writable)?;
    let tx = conn.transaction().map_err(not_writable)?;
    let old = version == 0
        && tx
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'tables'",
                [],
                |r| r.get::<_, i64>(0),
            )
            .map_err(not_writable)?
            > 0;
    if old {
        let has_away: i64 = tx.query_row(
            "SELECT count(*) FROM pragma_table_info('tables') WHERE name = 'away_s'",
            [],
            |r| r.get(0),
        )?;
        if has_away == 0 {
            tx.execute_batch(MIGRATE_0).map_err(not_writable)?;
        }
    }
    if old || version == 1 {
        let has_seats: i64 = tx.query_row(
            "SELECT count(*) FROM pragma_table_info('tables') WHERE name = 'seats'",
            [],
            |r| r.get(0),
        )?;
        if has_seats == 0 {
            tx.execute_batch(MIGRATE_1).map_err(not_writable)?;
        }
    }
    tx.execute_batch(SCHEMA).map_err(not_writable)?;
    let has_turn: i64 = tx.query_row(
        "SELECT count(*) FROM pragma_table_info('tables') WHERE name = 'turn_s'",
        [],
        |r| r.get(0),
    )?;
    if has_turn == 0 {
        tx.execute_batch(MIGRATE_3).map_err(not_writable)?;
    }
    let has_rated: i64 = tx.query_row(
        "SELECT count(*) FROM pragma_table_info('tables') WHERE name = 'rated'",
        [],
        |r| r.get(0),
    )?;
    if has_rated == 0 {
        tx.execute_batch(MIGRATE_5).map_err(not_writable)?;
    }
    let has_seq: i64 = tx.query_row(
        "SELECT count(*) FROM pragma_table_info('rating_history') WHERE name = 'seq'",
        [],
        |r| r.get(0),
    )?;
    if has_seq == 0 {
        tx.execute_batch(MIGRATE_6).map_err(not_writable)?;
    }
    for (table, column, definition) in COLUMNS_8 {
        let has: i64 = tx.query_row(
            "SELECT count(*) FROM pragma_table_info(?1) WHERE name = ?2",
            [table, column],
            |r| r.get(0),
        )?;
        if has == 0 {
            tx.execute_batch(&format!(
                "ALTER TABLE {table} ADD COLUMN {column} {definition};"
            ))
            .map_err(not_writable)?;
        }
    }
    if version < 8 {
        tx.execute_batch(&migrate_7()).map_err(not_writable)?;
    }
    tx.execute_batch(LATE_INDEXES).map_err(not_writable)?;
    if old || (1..=2).contains(&version) {
        tx.execute_batch(MIGRATE_2).map_err(not_writable)?;
    }
    if version < 5 {
        tx.execute_batch(MIGRATE_4).map_err(not_writable)?;
    }
    tx.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('opened', ?1)",
        [now().to_string()],
    )
    .map_err(not_writable)?;
    tx.execute_batch(&format!("PRAGMA user_version = {SCHEMA_VERSION}"))
        .map_err(not_writable)?;
    tx.commit().map_err(not_writable)?;
    Ok(())
}

fn not_writable(e: rusqlite::Error) -> DbError {
    DbError(format!("cannot write to the database ({e})"))
}

/// Runs one job in a savepoint of the open transaction: its writes stay only if it
/// succeeds.
fn in_savepoint<T>(c: &Connection, f: impl FnOnce(&Connection) -> DbResult<T>) -> DbResult<T> {
    c.execute_batch("SAVEPOINT job")?;
    let r = f(c);
    let end = if r.is_ok() {
        "RELEASE job"
    } else {
        "ROLLBACK TO job; RELEASE job"
    };
    c.execute_batch(end)?;
    r
}

/// The database thread: takes every waiting job, runs them in one transaction, commits
/// once and then answers them all. After a transaction that failed to begin or to commit,
/// it tries an empty one every [`PROBE_EVERY`] while no job comes. When the database could
/// not be reached meanwhile (down, its connection lost, its file locked by another), the
/// first transaction that commits again is counted in `recoveries`: the tables send their
/// state again and their bots go on. A write the database refused while answering (a full
/// disk) is no outage: the tables that failed keep backing off by themselves, rather than
/// all trying again each time an empty transaction commits.
fn serve_jobs(
    conn: Box<dyn sql::Conn + Send>,
    rx: mpsc::Receiver<Option<Job>>,
    lock: Option<File>,
    recoveries: std::sync::Arc<tokio::sync::watch::Sender<u64>>,
) {
    let mut stop = false;
    // A transaction failed since the last that committed.
    let mut failing = false;
    // ... and the database could not be reached since (a begin failed, or the connection
    // was lost): its coming back is a recovery.
    let mut unreachable = false;
    let recovered = |failing: &mut bool, unreachable: &mut bool| {
        *failing = false;
        if std::mem::take(unreachable) {
            recoveries.send_modify(|n| *n += 1);
        }
    };
    loop {
        let next = if failing {
            match rx.recv_timeout(PROBE_EVERY) {
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    let probe = conn.begin().and_then(|()| conn.batch_raw("COMMIT"));
                    match probe {
                        Ok(()) => recovered(&mut failing, &mut unreachable),
                        Err(_) => {
                            unreachable = true;
                            let _ = conn.batch_raw("ROLLBACK");
                        }
                    }
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => None,
                Ok(j) => j,
            }
        } else {
            rx.recv().ok().flatten()
        };
        let Some(first) = next else { break };
        let mut jobs = vec![first];
        while jobs.len() < GROUP {
            match rx.try_recv() {
                Ok(Some(j)) => jobs.push(j),
                Ok(None) => {
                    stop = true;
                    break;
                }
                Err(_) => break,
            }
        }
        if let Err(e) = conn.begin() {
            failing = true;
            unreachable = true;
            for job in jobs {
                job(Err(e.clone()))(Err(e.clone()));
            }
            if stop {
                break;
            }
            continue;
        }
        let done: Vec<Done> = jobs.into_iter().map(|job| job(Ok(&*conn))).collect();
        let committed = conn.batch_raw("COMMIT").inspect_err(|_| {
            let _ = conn.batch_raw("ROLLBACK");
        });
        if committed.is_ok() {
            recovered(&mut failing, &mut unreachable);
        } else {
            failing = true;
            unreachable |= conn.lost();
        }
        for d in done {
            d(committed.clone());
        }
        if stop {
            break;
        }
    }
    // The file is closed first, and only then the lock let go: a server started on the
    // same file once this returns finds it free and whole.
    drop(conn);
    drop(lock);
}

impl Db {
    /// Opens (creating if needed) the database at `path` with full durability and starts
    /// its thread.
    pub fn open(path: &Path) -> DbResult<Db> {
        Db::open_with(path, Durability::Full, None)
    }

    /// Opens the database at `path`: takes its lock file, brings its schema up to date,
    /// checks it can be written, and starts its thread. With `max_bytes` the file never
    /// grows past that size: writes beyond it fail like a full disk.
    pub fn open_with(path: &Path, durability: Durability, max_bytes: Option<u64>) -> DbResult<Db> {
        let lock = take_lock(path)?;
        let mut conn = rusqlite::Connection::open(path)?;
        prepare(&mut conn, durability)?;
        if let Some(max) = max_bytes {
            let page: u64 = conn.query_row("PRAGMA page_size", [], |r| r.get(0))?;
            conn.query_row(
                &format!("PRAGMA max_page_count = {}", (max / page.max(1)).max(1)),
                [],
                |_| Ok(()),
            )?;
        }
        Db::start(move || Ok(Box::new(conn)), Some(lock))
    }

    /// Opens a PostgreSQL database shared by several servers: its schema brought up to
    /// date, every commit durable (`synchronous_commit = on`). No lock file: the nodes
    /// share the database, and each table has one owner by its lease.
    /// `node` names this server to the others (the leases it holds say it). Past
    /// `max_bytes` nothing new is stored (a new player, table, action or message fails
    /// as on a full disk), but leases and what each node runs are still kept.
    pub fn open_postgres(url: &str, node: &str, max_bytes: Option<u64>) -> DbResult<Db> {
        let config: postgres::Config = url.parse().map_err(|e| {
            DbError(format!(
                "`{}` is not a PostgreSQL URL: {e}",
                pg::redacted(url)
            ))
        })?;
        let url = url.to_owned();
        let session = std::sync::Arc::new(lease::NodeSession::new(node.to_owned()));
        let held = session.clone();
        let mut db = Db::start(
            move || Ok(Box::new(pg::PgConn::open(&url, max_bytes, Some(held))?)),
            None,
        )?;
        db.leases = Some(std::sync::Arc::new(lease::Leases::new(session)));
        let mirror = std::sync::Arc::new(listen::Mirror::default());
        listen::start(config, node.to_owned(), &mirror);
        db.mirror = Some(mirror);
        Ok(db)
    }

    /// Starts the database thread on the connection `open` makes there (PostgreSQL's
    /// blocking client must not be made on the runtime's threads).
    fn start(
        open: impl FnOnce() -> DbResult<Box<dyn sql::Conn + Send>> + Send + 'static,
        lock: Option<File>,
    ) -> DbResult<Db> {
        let (tx, rx) = mpsc::channel::<Option<Job>>();
        let (opened_tx, opened) = mpsc::sync_channel(1);
        let recoveries = std::sync::Arc::new(tokio::sync::watch::Sender::new(0));
        let counted = recoveries.clone();
        let thread = std::thread::Builder::new()
            .name("tapete-db".into())
            .spawn(move || match open() {
                Ok(conn) => {
                    let _ = opened_tx.send(Ok(()));
                    serve_jobs(conn, rx, lock, counted)
                }
                Err(e) => {
                    let _ = opened_tx.send(Err(e));
                }
            })
            .map_err(|e| DbError(e.to_string()))?;
        opened
            .recv()
            .map_err(|_| DbError("the database thread stopped".into()))??;
        Ok(Db {
            tx,
            thread: std::sync::Arc::new(std::sync::Mutex::new(Some(thread))),
            leases: None,
            mirror: None,
            recoveries,
        })
    }

    /// Changes each time the database can be written again after a transaction failed
    /// (it was down, its connection lost, its file locked): the tables send their people
    /// their state again and wake their bots, rather than wait out their backoff.
    pub fn recoveries(&self) -> tokio::sync::watch::Receiver<u64> {
        self.recoveries.subscribe()
    }

    /// Finishes the writes asked for so far, closes the file and lets go of its lock, and
    /// returns once that is done: a server started on the same file right after finds it
    /// free. Later calls on any copy of this handle fail ("the database thread stopped").
    pub async fn close(&self) {
        let _ = self.tx.send(None);
        let thread = self.thread.lock().ok().and_then(|mut t| t.take());
        if let Some(t) = thread {
            let _ = tokio::task::spawn_blocking(move || t.join()).await;
        }
    }

    /// Runs `f` on the database thread and waits for its answer, which comes once its
    /// writes are committed.
    pub async fn call<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> DbResult<T> + Send + 'static,
    ) -> DbResult<T> {
        let (tx, rx) = oneshot::channel();
        self.tx
            .send(Some(Box::new(
                move |c: Result<&Connection, DbError>| -> Done {
                    let r = c.and_then(|c| in_savepoint(c, f));
                    Box::new(move |committed: Result<(), DbError>| {
                        let _ = tx.send(committed.and(r));
                    })
                },
            )))
            .map_err(|_| DbError("the database thread stopped".into()))?;
        rx.await
            .map_err(|_| DbError("the database thread stopped".into()))?
    }

    /// Adds a guest with its first session, unless an account has the same nickname key
    /// or look (`Ok(None)`); returns its id.
    pub async fn create_guest(
        &self,
        nickname: String,
        key: String,
        look: String,
        token_hash: String,
        agent: String,
    ) -> DbResult<Option<i64>> {
        self.call(move |c| {
            if key_taken(c, &key, &look)? {
                return Ok(None);
            }
            let id = insert_player(c, &nickname, &token_hash)?;
            insert_session(c, id, &token_hash, &agent)?;
            Ok(Some(id))
        })
        .await
    }

    /// Makes an account: of the guest `guest` (who keeps its id, history and tables and
    /// takes `nickname`), or of a new player with a first session `token_hash`; refused
    /// when an account has the nickname's key or its look ([`crate::account::nickname_look`]).
    #[allow(clippy::too_many_arguments)]
    pub async fn create_account(
        &self,
        nickname: String,
        key: String,
        look: String,
        password_hash: String,
        guest: Option<i64>,
        token_hash: String,
        agent: String,
    ) -> DbResult<Result<i64, AccountRefusal>> {
        self.call(move |c| {
            if key_taken(c, &key, &look)? {
                return Ok(Err(AccountRefusal::Taken));
            }
            let id = match guest {
                Some(id) => {
                    let has: i64 = c.query_row(
                        "SELECT count(*) FROM accounts WHERE player = ?1",
                        [id],
                        |r| r.get(0),
                    )?;
                    if has > 0 {
                        return Ok(Err(AccountRefusal::AlreadyOne));
                    }
                    c.execute(
                        "UPDATE players SET nickname = ?2 WHERE id = ?1",
                        params![id, nickname],
                    )?;
                    id
                }
                None => {
                    let id = insert_player(c, &nickname, &token_hash)?;
                    insert_session(c, id, &token_hash, &agent)?;
                    id
                }
            };
            c.execute(
                "INSERT INTO accounts (player, nick_key, password_hash, created)
                 VALUES (?1, ?2, ?3, ?4)",
                params![id, key, password_hash, now()],
            )?;
            c.execute(
                "INSERT INTO nickname_looks (player, look) VALUES (?1, ?2)",
                params![id, look],
            )?;
            Ok(Ok(id))
        })
        .await
    }

    /// Whether an account has this nickname key or this look (a look-alike's).
    pub async fn nickname_taken(&self, key: String, look: String) -> DbResult<bool> {
        self.call(move |c| key_taken(c, &key, &look)).await
    }

    /// Gives every account without one its nickname's look (`look` computes it): the
    /// accounts made before looks were kept. Two accounts may share a look (made before,
    /// when only the key was compared): both keep it, and both go on as they were.
    pub async fn fill_nickname_looks(&self, look: fn(&str) -> String) -> DbResult<usize> {
        self.call(move |c| {
            let missing: Vec<(i64, String)> = c
                .prepare(
                    "SELECT a.player, p.nickname FROM accounts a JOIN players p ON p.id = a.player
                     WHERE NOT EXISTS (SELECT 1 FROM nickname_looks l WHERE l.player = a.player)",
                )?
                .query_map((), |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<_, _>>()?;
            for (player, nickname) in &missing {
                c.execute(
                    "INSERT INTO nickname_looks (player, look) VALUES (?1, ?2)
                     ON CONFLICT (player) DO NOTHING",
                    params![player, look(nickname)],
                )?;
            }
            Ok(missing.len())
        })
        .await
    }

    /// The server's secret of this name (32 random bytes, made at its first use and kept
    /// in `meta`, so every server on the database and every restart share it).
    pub async fn secret(&self, name: &'static str) -> DbResult<Vec<u8>> {
        self.call(move |c| {
            let key = format!("secret.{name}");
            let fresh: [u8; 32] = rand::random();
            let fresh: String = fresh.iter().map(|b| format!("{b:02x}")).collect();
            c.execute(
                "INSERT INTO meta (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO NOTHING",
                params![key, fresh],
            )?;
            let hex: String =
                c.query_row("SELECT value FROM meta WHERE key = ?1", [&key], |r| {
                    r.get(0)
                })?;
            (0..hex.len())
                .step_by(2)
                .map(|i| {
                    hex.get(i..i + 2)
                        .and_then(|b| u8::from_str_radix(b, 16).ok())
                        .ok_or_else(|| DbError(format!("meta `{key}` is not hex")))
                })
                .collect()
        })
        .await
    }

    /// The account of a nickname key: its player, nickname and password hash.
    pub async fn account_by_key(&self, key: String) -> DbResult<Option<(i64, String, String)>> {
        self.call(move |c| {
            c.query_row(
                "SELECT p.id, p.nickname, a.password_hash FROM accounts a
                 JOIN players p ON p.id = a.player WHERE a.nick_key = ?1",
                [key],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()
        })
        .await
    }

    /// An account's password hash (`None`: the player is a guest).
    pub async fn password_hash(&self, player: i64) -> DbResult<Option<String>> {
        self.call(move |c| {
            c.query_row(
                "SELECT password_hash FROM accounts WHERE player = ?1",
                [player],
                |r| r.get(0),
            )
            .optional()
        })
        .await
    }

    /// Sets an account's password hash and ends every session of it but `keep`; returns
    /// the sessions ended.
    pub async fn set_password(
        &self,
        player: i64,
        password_hash: String,
        keep: i64,
    ) -> DbResult<Vec<i64>> {
        self.call(move |c| {
            c.execute(
                "UPDATE accounts SET password_hash = ?2 WHERE player = ?1",
                params![player, password_hash],
            )?;
            let ended: Vec<i64> = c
                .prepare("SELECT id FROM sessions WHERE player = ?1 AND id != ?2")?
                .query_map(params![player, keep], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            c.execute(
                "DELETE FROM sessions WHERE player = ?1 AND id != ?2",
                params![player, keep],
            )?;
            Ok(ended)
        })
        .await
    }

    /// Starts a session of a player, and ends its least recently used ones beyond `keep`
    /// (the new one counted); returns its id and the sessions ended.
    pub async fn create_session(
        &self,
        player: i64,
        token_hash: String,
        agent: String,
        keep: usize,
    ) -> DbResult<(i64, Vec<i64>)> {
        self.call(move |c| {
            let id = insert_session(c, player, &token_hash, &agent)?;
            let others: Vec<i64> = c
                .prepare(
                    "SELECT id FROM sessions WHERE player = ?1 AND id != ?2
                     ORDER BY last_used DESC, id DESC",
                )?
                .query_map(params![player, id], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            let ended: Vec<i64> = others.into_iter().skip(keep.saturating_sub(1)).collect();
            for s in &ended {
                c.execute("DELETE FROM sessions WHERE id = ?1", [s])?;
            }
            Ok((id, ended))
        })
        .await
    }

    /// The session of a token (by its hash).
    pub async fn session_by_token(&self, token_hash: String) -> DbResult<Option<SessionOf>> {
        self.call(move |c| {
            c.query_row(
                "SELECT s.id, p.id, p.nickname, a.player IS NOT NULL FROM sessions s
                 JOIN players p ON p.id = s.player
                 LEFT JOIN accounts a ON a.player = p.id
                 WHERE s.token_hash = ?1",
                [token_hash],
                |r| {
                    Ok(SessionOf {
                        session: r.get(0)?,
                        player: r.get(1)?,
                        nickname: r.get(2)?,
                        account: r.get(3)?,
                    })
                },
            )
            .optional()
        })
        .await
    }

    /// Notes that a session was used now.
    pub async fn touch_session(&self, session: i64) -> DbResult<()> {
        self.call(move |c| {
            c.execute(
                "UPDATE sessions SET last_used = ?2 WHERE id = ?1",
                params![session, now()],
            )?;
            Ok(())
        })
        .await
    }

    /// A player's sessions, the most recently used first.
    pub async fn sessions_of(&self, player: i64) -> DbResult<Vec<SessionRow>> {
        self.call(move |c| {
            let mut st = c.prepare(
                "SELECT id, created, last_used, agent FROM sessions WHERE player = ?1
                 ORDER BY last_used DESC, id DESC",
            )?;
            let rows = st
                .query_map([player], |r| {
                    Ok(SessionRow {
                        id: r.get(0)?,
                        created: r.get(1)?,
                        last_used: r.get(2)?,
                        agent: r.get(3)?,
                    })
                })?
                .collect::<Result<_, _>>()?;
            Ok(rows)
        })
        .await
    }

    /// Ends a session of a player; false if it has no such session.
    pub async fn delete_session(&self, player: i64, session: i64) -> DbResult<bool> {
        self.call(move |c| {
            Ok(c.execute(
                "DELETE FROM sessions WHERE id = ?1 AND player = ?2",
                params![session, player],
            )? > 0)
        })
        .await
    }

    /// A player's nickname.
    pub async fn player(&self, id: i64) -> DbResult<Option<String>> {
        self.call(move |c| {
            c.query_row("SELECT nickname FROM players WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()
        })
        .await
    }

    /// Stores a new table with its seats.
    pub async fn create_table(&self, row: TableRow, seats: Vec<Option<i64>>) -> DbResult<()> {
        self.call(move |tx| insert_table(tx, &row, &seats)).await
    }

    /// The tables a player created that are not finished.
    pub async fn open_tables_of(&self, player: i64) -> DbResult<u64> {
        self.call(move |c| {
            Ok(c.query_row(
                "SELECT count(*) FROM tables WHERE creator = ?1 AND status != 'finished'",
                [player],
                |r| r.get::<_, i64>(0),
            )? as u64)
        })
        .await
    }

    /// Starts a waiting table: its status and the seed of its deal, chosen only now; the
    /// people seated now are the ones who see the first hand.
    pub async fn start_table(&self, table: String, seed: u64) -> DbResult<()> {
        let fence = self.fence(&table)?;
        self.call(move |c| {
            lease::check(c, &fence)?;
            c.execute(
                "UPDATE tables SET status = 'playing', seed = ?2 WHERE id = ?1",
                params![table, seed as i64],
            )?;
            c.execute(NEW_HAND_SEATS, [&table])?;
            c.execute(SEATED_HAND_SEATS, [&table])?;
            Ok(())
        })
        .await
    }

    /// A seat asked for mid-hand (`Some`), or the request dropped (`None`).
    pub async fn set_pending(
        &self,
        table: String,
        player: i64,
        seat: Option<usize>,
    ) -> DbResult<()> {
        let fence = self.fence(&table)?;
        self.call(move |c| {
            lease::check(c, &fence)?;
            match seat {
                Some(s) => c.execute(
                    "INSERT INTO pending_seats (table_id, player, seat) VALUES (?1, ?2, ?3)
                     ON CONFLICT (table_id, player) DO UPDATE SET seat = excluded.seat",
                    params![table, player, s as i64],
                )?,
                None => c.execute(
                    "DELETE FROM pending_seats WHERE table_id = ?1 AND player = ?2",
                    params![table, player],
                )?,
            };
            Ok(())
        })
        .await
    }

    /// Who holds a seat now (`None`: the table's bot). A person seated is remembered as
    /// having held that seat this hand (see [`StoredTable::hand_seats`]) in the same
    /// transaction, so no restart can forget what they saw.
    pub async fn set_seat(&self, table: String, seat: usize, player: Option<i64>) -> DbResult<()> {
        let fence = self.fence(&table)?;
        self.call(move |tx| {
            lease::check(tx, &fence)?;
            tx.execute(
                "UPDATE seats SET player = ?3 WHERE table_id = ?1 AND seat = ?2",
                params![table, seat as i64, player],
            )?;
            if let Some(p) = player {
                tx.execute(
                    "INSERT INTO table_players (table_id, player, seat) VALUES (?1, ?2, ?3)
                     ON CONFLICT DO NOTHING",
                    params![table, p, seat as i64],
                )?;
                tx.execute(
                    "DELETE FROM pending_seats WHERE table_id = ?1 AND player = ?2",
                    params![table, p],
                )?;
                // Seated: their invitations to this table are answered.
                tx.execute(
                    "DELETE FROM invitations WHERE table_id = ?1 AND to_player = ?2",
                    params![table, p],
                )?;
                tx.execute(
                    "INSERT INTO hand_seats (table_id, player, seat) VALUES (?1, ?2, ?3)
                     ON CONFLICT (table_id, player) DO UPDATE SET seat = excluded.seat",
                    params![table, p, seat as i64],
                )?;
            }
            Ok(())
        })
        .await
    }

    /// Appends action number `n` (1-based) of a table. Fails if `n` is already there, so
    /// a log can never fork. With `finished`, the action that ends the game and the
    /// table's outcome are written in the same transaction: a table is never left playing
    /// with a log that is over. With `new_hand` (the action dealt a new hand), who has
    /// held which seat starts again from who sits now, in the same transaction.
    pub async fn append_action(
        &self,
        table: String,
        n: u64,
        seat: usize,
        action: String,
        finished: Option<Value>,
        new_hand: bool,
    ) -> DbResult<()> {
        self.append_action_by(table, n, seat, action, finished, new_hand, false)
            .await
    }

    /// [`Db::append_action`], saying whether the table's bot took the action: at a rated
    /// table, a decision the bot took for a person of the game is counted against their
    /// seat (see [`crate::rating::ASSISTED_SHARE`]), in the same transaction.
    #[allow(clippy::too_many_arguments)]
    pub async fn append_action_by(
        &self,
        table: String,
        n: u64,
        seat: usize,
        action: String,
        finished: Option<Value>,
        new_hand: bool,
        by_bot: bool,
    ) -> DbResult<()> {
        let fence = self.fence(&table)?;
        self.call(move |c| {
            lease::check(c, &fence)?;
            c.execute(
                "INSERT INTO actions (table_id, n, seat, action) VALUES (?1, ?2, ?3, ?4)",
                params![table, n as i64, seat as i64, action],
            )?;
            if by_bot {
                c.execute(
                    "UPDATE rated_seats SET helped = helped + 1
                     WHERE table_id = ?1 AND seat = ?2 AND player IS NOT NULL",
                    params![table, seat as i64],
                )?;
            }
            if new_hand || finished.is_some() {
                c.execute(NEW_HAND_SEATS, [&table])?;
            }
            if new_hand && finished.is_none() {
                c.execute(SEATED_HAND_SEATS, [&table])?;
            }
            if let Some(outcome) = finished {
                c.execute(
                    "UPDATE tables SET status = 'finished', outcome = ?2, finished = ?3
                     WHERE id = ?1",
                    params![table, outcome.to_string(), now()],
                )?;
                c.execute("DELETE FROM pending_seats WHERE table_id = ?1", [&table])?;
                crate::rating::rate_table(c, &table)?;
            }
            Ok(())
        })
        .await
    }

    /// How many actions `table`'s log holds.
    pub async fn action_count(&self, table: String) -> DbResult<u64> {
        self.call(move |c| {
            c.query_row(
                "SELECT count(*) FROM actions WHERE table_id = ?1",
                [&table],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| n.max(0) as u64)
            .map_err(DbError::from)
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
        let fence = self.fence(&table)?;
        self.call(move |c| {
            lease::check(c, &fence)?;
            let finished = (status == "finished").then(now);
            c.execute(
                "UPDATE tables SET status = ?2, outcome = ?3, finished = ?4 WHERE id = ?1",
                params![table, status, outcome.map(|o| o.to_string()), finished],
            )?;
            if finished.is_some() {
                crate::rating::rate_table(c, &table)?;
            }
            Ok(())
        })
        .await
    }

    /// Removes a table that never started (its waiting time with nobody there is over):
    /// its seats, kept seats, invitation secret, invitations and chat with it. Nothing is
    /// removed (`false`) when it has started after all, or when a chat message of it was
    /// reported (the operator keeps the report and its table). With several servers, only
    /// the node holding its lease may remove it, and its lease goes with it.
    pub async fn drop_waiting_table(&self, table: String) -> DbResult<bool> {
        let fence = self.fence(&table)?;
        let shared = self.node().is_some();
        self.call(move |c| {
            lease::check(c, &fence)?;
            let waiting = c
                .prepare(
                    "SELECT 1 FROM tables WHERE id = ?1 AND status = 'waiting'
                     AND NOT EXISTS (SELECT 1 FROM actions WHERE table_id = ?1)
                     AND NOT EXISTS (SELECT 1 FROM reports WHERE table_id = ?1)
                     AND NOT EXISTS (SELECT 1 FROM rating_history WHERE table_id = ?1)",
                )?
                .exists([&table])?;
            if !waiting {
                return Ok(false);
            }
            for sql in [
                "DELETE FROM invitations WHERE table_id = ?1",
                "DELETE FROM chat WHERE table_id = ?1",
                "DELETE FROM reserved_seats WHERE table_id = ?1",
                "DELETE FROM private_tables WHERE table_id = ?1",
                "DELETE FROM rematches WHERE new_table = ?1 OR table_id = ?1",
                "DELETE FROM pending_seats WHERE table_id = ?1",
                "DELETE FROM hand_seats WHERE table_id = ?1",
                "DELETE FROM rated_seats WHERE table_id = ?1",
                "DELETE FROM table_players WHERE table_id = ?1",
                "DELETE FROM seats WHERE table_id = ?1",
                "DELETE FROM tables WHERE id = ?1",
            ] {
                c.execute(sql, [&table])?;
            }
            if shared {
                c.execute("DELETE FROM leases WHERE table_id = ?1", [&table])?;
            }
            Ok(true)
        })
        .await
    }

    /// Every table not finished, with seats and log, to restore after a restart; a table
    /// that cannot be read is an error of its own (named by its id) and stops no other.
    pub async fn unfinished_tables(&self) -> DbResult<Vec<(String, DbResult<StoredTable>)>> {
        self.call(|c| {
            let ids: Vec<String> = c
                .prepare("SELECT id FROM tables WHERE status != 'finished' ORDER BY created")?
                .query_map((), |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            Ok(ids
                .into_iter()
                .filter_map(|id| {
                    let t = load(c, &id).transpose()?;
                    Some((id, t))
                })
                .collect())
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

/// Why an account was not made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccountRefusal {
    /// An account has this nickname, or one that looks like it.
    Taken,
    /// The guest asking is an account already.
    AlreadyOne,
}

/// Who a token is: its session, its player, and whether the player has an account.
#[derive(Clone, Debug)]
pub struct SessionOf {
    pub session: i64,
    pub player: i64,
    pub nickname: String,
    pub account: bool,
}

/// One session of a player, for the list of them.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SessionRow {
    pub id: i64,
    pub created: i64,
    pub last_used: i64,
    /// The device, in short (`Firefox · Linux`).
    pub agent: String,
}

/// Whether an account has this nickname key, or a nickname of this look.
fn key_taken(c: &Connection, key: &str, look: &str) -> DbResult<bool> {
    Ok(c.query_row(
        "SELECT (SELECT count(*) FROM accounts WHERE nick_key = ?1)
              + (SELECT count(*) FROM nickname_looks WHERE look = ?2)",
        params![key, look],
        |r| r.get::<_, i64>(0),
    )? > 0)
}

fn insert_player(c: &Connection, nickname: &str, token_hash: &str) -> DbResult<i64> {
    Ok(c.query_row(
        "INSERT INTO players (nickname, token_hash, created) VALUES (?1, ?2, ?3) RETURNING id",
        params![nickname, token_hash, now()],
        |r| r.get(0),
    )?)
}

fn insert_session(c: &Connection, player: i64, token_hash: &str, agent: &str) -> DbResult<i64> {
    let t = now();
    Ok(c.query_row(
        "INSERT INTO sessions (token_hash, player, created, last_used, agent)
         VALUES (?1, ?2, ?3, ?3, ?4) RETURNING id",
        params![token_hash, player, t, agent],
        |r| r.get(0),
    )?)
}

/// Inserts a table with its seats (the people seated are remembered as having sat there).
fn insert_table(tx: &Connection, row: &TableRow, seats: &[Option<i64>]) -> DbResult<()> {
    tx.execute(
        "INSERT INTO tables (id, game, rules, seed, creator, bot, pace_ms, status, created,
                             away_s, hold_s, seats, turn_s, rated)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
        params![
            row.id,
            row.game,
            row.rules.to_string(),
            row.seed as i64,
            row.creator,
            row.bot,
            row.pace_ms as i64,
            row.status,
            row.created,
            row.away_s as i64,
            row.hold_s as i64,
            row.seats as i64,
            row.turn_s as i64,
            row.rated,
        ],
    )?;
    if seats.len() != row.seats {
        return Err(DbError(format!(
            "table {}: {} seats given for a table of {}",
            row.id,
            seats.len(),
            row.seats
        )));
    }
    for (seat, p) in seats.iter().enumerate() {
        tx.execute(
            "INSERT INTO seats (table_id, seat, player) VALUES (?1, ?2, ?3)",
            params![row.id, seat as i64, p],
        )?;
        if let Some(p) = p {
            tx.execute(
                "INSERT INTO table_players (table_id, player, seat) VALUES (?1, ?2, ?3)
                     ON CONFLICT DO NOTHING",
                params![row.id, p, seat as i64],
            )?;
        }
    }
    Ok(())
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
    let rows: Vec<(i64, Option<(i64, String)>)> = st
        .query_map([id], |r| {
            let p: Option<i64> = r.get(1)?;
            let n: Option<String> = r.get(2)?;
            Ok((r.get(0)?, p.zip(n)))
        })?
        .collect::<Result<_, _>>()?;
    // One row per seat, numbered 0 to seats - 1: anything else is a broken table.
    let numbered = rows
        .iter()
        .enumerate()
        .all(|(i, (seat, _))| *seat == i as i64);
    if rows.len() != row.seats || !numbered {
        return Err(DbError(format!(
            "table {id}: its seat rows do not match its {} seats",
            row.seats
        )));
    }
    let seats: Vec<Option<(i64, String)>> = rows.into_iter().map(|(_, p)| p).collect();
    let mut st = c.prepare("SELECT seat, action FROM actions WHERE table_id = ?1 ORDER BY n")?;
    let actions: Vec<(usize, String)> = st
        .query_map([id], |r| Ok((r.get::<_, i64>(0)?, r.get(1)?)))?
        .collect::<Result<Vec<(i64, String)>, _>>()?
        .into_iter()
        .enumerate()
        .map(|(i, (seat, action))| match usize::try_from(seat) {
            Ok(s) if s < row.seats => Ok((s, action)),
            _ => Err(DbError(format!(
                "table {id}: action {} is by seat {seat}, which it does not have",
                i + 1
            ))),
        })
        .collect::<DbResult<_>>()?;
    let mut st = c.prepare(
        "SELECT q.player, p.nickname, q.seat FROM pending_seats q JOIN players p ON p.id = q.player
         WHERE q.table_id = ?1 ORDER BY q.player",
    )?;
    let pending: Vec<(i64, String, usize)> = st
        .query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get::<_, i64>(2)?)))?
        .collect::<Result<Vec<(i64, String, i64)>, _>>()?
        .into_iter()
        .map(|(player, nickname, seat)| match usize::try_from(seat) {
            Ok(s) if s < row.seats => Ok((player, nickname, s)),
            _ => Err(DbError(format!(
                "table {id}: player {player} asked for seat {seat}, which it does not have"
            ))),
        })
        .collect::<DbResult<_>>()?;
    let mut st =
        c.prepare("SELECT player, seat FROM hand_seats WHERE table_id = ?1 ORDER BY player")?;
    let hand_seats: Vec<(i64, usize)> = st
        .query_map([id], |r| Ok((r.get(0)?, r.get::<_, i64>(1)?)))?
        .collect::<Result<Vec<(i64, i64)>, _>>()?
        .into_iter()
        .map(|(player, seat)| match usize::try_from(seat) {
            Ok(s) if s < row.seats => Ok((player, s)),
            _ => Err(DbError(format!(
                "table {id}: player {player} held seat {seat} this hand, which it does not have"
            ))),
        })
        .collect::<DbResult<_>>()?;
    let friends = friends::load(c, id, row.seats)?;
    Ok(Some(StoredTable {
        row,
        seats,
        actions,
        pending,
        hand_seats,
        friends,
    }))
}

/// Seconds since the Unix epoch.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// The database as a person may see it: a file's path, or a URL without its password.
pub fn shown(db: &Path) -> String {
    pg::redacted(&db.to_string_lossy())
}
