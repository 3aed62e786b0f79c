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

use crate::clock::Clock;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use tokio::sync::oneshot;

pub mod board;
pub mod lease;
pub mod listen;
pub mod pg;
mod schema;
pub mod sql;
mod versions;
use schema::prepare;
pub use schema::SCHEMA_VERSION;
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
    /// The clock of the runtime the database was opened on, which its thread reads too
    /// (the leases' graces, an invitation's lifetime).
    clock: Clock,
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

pub(super) fn not_writable(e: rusqlite::Error) -> DbError {
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

    /// Opens a database only to read it (`tapete screen --db`), beside the servers that
    /// may be running on it: a SQLite file read-only and without its lock, which must be at
    /// this build's schema version; a PostgreSQL database without taking a node's name or
    /// any lease.
    pub fn open_to_read(db: &str) -> DbResult<Db> {
        if pg::is_url(db) {
            let url = db.to_owned();
            return Db::start(
                move || Ok(Box::new(pg::PgConn::open(&url, None, None)?)),
                None,
            );
        }
        let path = PathBuf::from(db);
        if !path.is_file() {
            return Err(DbError(format!("{db}: no such database file")));
        }
        Db::start(
            move || {
                let conn = rusqlite::Connection::open_with_flags(
                    &path,
                    rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
                )?;
                conn.busy_timeout(std::time::Duration::from_secs(5))?;
                let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
                if version != SCHEMA_VERSION {
                    return Err(DbError(format!(
                        "{}: the database is at schema version {version} and this tapete reads \
                         version {SCHEMA_VERSION}: read it with the tapete that serves it",
                        path.display()
                    )));
                }
                Ok(Box::new(conn))
            },
            None,
        )
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
        let clock = Clock::current();
        let session = std::sync::Arc::new(lease::NodeSession::new(node.to_owned(), clock.clone()));
        let held = session.clone();
        let mut db = Db::start(
            move || Ok(Box::new(pg::PgConn::open(&url, max_bytes, Some(held))?)),
            None,
        )?;
        db.leases = Some(std::sync::Arc::new(lease::Leases::new(session)));
        let mirror = std::sync::Arc::new(listen::Mirror::new(clock));
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
            clock: Clock::current(),
        })
    }

    /// The clock this database goes by: the runtime's it was opened on (see
    /// [`crate::clock`]), read the same on its thread and on the runtime's tasks.
    pub fn clock(&self) -> &Clock {
        &self.clock
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
    /// writes are committed. Only each domain's `store.rs` calls it (and, with the `sql`
    /// feature, the tests).
    #[cfg(feature = "sql")]
    pub async fn call<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> DbResult<T> + Send + 'static,
    ) -> DbResult<T> {
        self.run(f).await
    }

    /// See `call` (the `sql` feature's public name of it).
    #[cfg(not(feature = "sql"))]
    pub(crate) async fn call<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> DbResult<T> + Send + 'static,
    ) -> DbResult<T> {
        self.run(f).await
    }

    async fn run<T: Send + 'static>(
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
}

/// Seconds since the Unix epoch on the system's clock: for the timestamps nothing waits
/// on (when a player, a session, a report was made). What a behaviour waits on goes by
/// the database's [`Clock`] ([`Db::clock`]).
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

/// Makes `db` (a new SQLite file, or an empty PostgreSQL database by its URL) a database
/// of schema `version` as a tapete of that version made it (the head's as this one
/// does), with no rows: what the tests that upgrade older databases start from.
#[cfg(feature = "sql")]
pub fn create_at(db: &std::path::Path, version: i64) -> DbResult<()> {
    if !(0..=schema::SCHEMA_VERSION).contains(&version) {
        return Err(DbError(format!("there is no schema version {version}")));
    }
    match db.to_str().filter(|d| pg::is_url(d)) {
        Some(url) => pg::PgConn::create_at(url, version),
        None => {
            let mut conn = rusqlite::Connection::open(db)?;
            let tx = conn.transaction()?;
            schema::create(&*tx, schema::Dialect::Sqlite, version)?;
            tx.execute_batch(&format!("PRAGMA user_version = {version}"))?;
            tx.commit()?;
            Ok(())
        }
    }
}
