//! PostgreSQL behind the store's one SQL interface: several tapete servers share one
//! database (`--db postgres://user@host/db`).
//!
//! The client is `postgres`, the blocking face of `tokio-postgres`: the store already
//! runs its jobs on a thread of its own, one group transaction at a time, so the same
//! jobs and the same statements serve both databases. Every commit waits for the disk
//! (`synchronous_commit = on`, and with a synchronous standby for it too): an answer
//! means the write survives the loss of any one machine.

use super::lease::{NodeSession, LOCK_WAIT};
use super::schema::{check_version, upgrade, Dialect, SCHEMA_VERSION};
use super::sql::{dollar_params, Conn, Connection, Row, SqlValue, ToSql};
use super::{params, DbError, DbResult, OptionalExtension};
use postgres::types::{ToSql as PgToSql, Type};
use postgres::{Client, NoTls, Statement};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Whether `--db` names a PostgreSQL database rather than a file.
pub fn is_url(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

/// The URL without its password, to be shown or logged.
pub fn redacted(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    match rest.split_once('@') {
        Some((user, host)) if user.contains(':') => {
            let name = user.split(':').next().unwrap_or("");
            format!("{scheme}://{name}:***@{host}")
        }
        _ => url.to_owned(),
    }
}

/// A connection, its prepared statements, and how to connect again after losing it.
pub struct PgConn {
    config: postgres::Config,
    client: RefCell<Client>,
    statements: RefCell<HashMap<String, Statement>>,
    /// The database's largest size: past it nothing new is stored (see [`PgConn::full`]).
    max_bytes: Option<u64>,
    /// Whether the database was past `max_bytes` when last measured, and when that was.
    full: Cell<(bool, Option<Instant>)>,
    /// This node's lock, held by this connection's session (see [`NodeSession`]).
    session: Option<Arc<NodeSession>>,
}

/// How often the database's size is measured (once per transaction at most).
const SIZE_EVERY: Duration = Duration::from_secs(5);

/// The tables that keep the servers' coordination (leases, what each runs, who is
/// online): bounded by what runs now, and written even when the database is full, so a
/// full database never costs a table its owner.
const COORDINATION: [&str; 4] = ["leases", "nodes", "online", "live_tables"];

impl From<postgres::Error> for DbError {
    fn from(e: postgres::Error) -> Self {
        match e.as_db_error() {
            Some(d) => DbError(format!("{}: {}", d.code().code(), d.message())),
            None => DbError(e.to_string()),
        }
    }
}

/// What PostgreSQL alone keeps: which node owns which table (see `lease`), and each
/// running table's description and who is online at each node, for every node's lobby
/// and friends' lists (see `board`). Bounded by what runs now and outside the schema's
/// versions: made at every start where missing.
const PG_ONLY: &str = "
CREATE TABLE IF NOT EXISTS leases (
    table_id TEXT PRIMARY KEY,
    node TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    expires BIGINT NOT NULL
);
-- The leases someone holds, by expiry: each node looks for expired ones every few
-- seconds, and must not read every table's row to find them.
CREATE INDEX IF NOT EXISTS leases_held ON leases(expires) WHERE node <> '';
-- The leases of each node: a dead node's tables are found without reading the others'.
CREATE INDEX IF NOT EXISTS leases_node ON leases(node) WHERE node <> '';
CREATE TABLE IF NOT EXISTS live_tables (
    table_id TEXT PRIMARY KEY,
    node TEXT NOT NULL,
    info TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS nodes (
    node TEXT PRIMARY KEY,
    seen BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS online (
    node TEXT NOT NULL,
    player BIGINT NOT NULL,
    PRIMARY KEY (node, player)
);
";

/// A new connection to the database of `config`, committing synchronously.
pub(super) fn connect(config: &postgres::Config) -> DbResult<Client> {
    let mut client = config
        .connect(NoTls)
        .map_err(|e| DbError(format!("cannot connect to PostgreSQL: {e}")))?;
    client.batch_execute("SET synchronous_commit = on; SET TIME ZONE 'UTC'")?;
    Ok(client)
}

impl PgConn {
    /// Connects to `url`, brings the schema up to date (one node at a time, under an
    /// advisory lock) and refuses a database written by a newer tapete. With `max_bytes`,
    /// once the database is larger nothing new is stored (rows are still updated). With
    /// `session`, the connection takes that node's lock (waiting up to [`LOCK_WAIT`] for
    /// a process of the same name that just died to let go of it), and takes it again
    /// whenever it connects again.
    pub fn open(
        url: &str,
        max_bytes: Option<u64>,
        session: Option<Arc<NodeSession>>,
    ) -> DbResult<PgConn> {
        let conn = PgConn::connect(url, max_bytes, session)?;
        conn.schema_transaction(|c, version| {
            check_version(version)?;
            upgrade(c, Dialect::Postgres, version)?;
            c.execute_batch(PG_ONLY)?;
            Ok(SCHEMA_VERSION)
        })?;
        if let Some(s) = &conn.session {
            let start = Instant::now();
            while !s.take(&mut conn.client.borrow_mut(), false)? {
                if start.elapsed() >= LOCK_WAIT {
                    return Err(DbError(format!(
                        "another server named `{}` is running on this database (it holds \
                         the node's lock): give each server its own --node name",
                        s.node
                    )));
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        }
        Ok(conn)
    }

    /// A connection to `url`, its schema not looked at yet.
    fn connect(
        url: &str,
        max_bytes: Option<u64>,
        session: Option<Arc<NodeSession>>,
    ) -> DbResult<PgConn> {
        let mut config: postgres::Config = url
            .parse()
            .map_err(|e| DbError(format!("`{}` is not a PostgreSQL URL: {e}", redacted(url))))?;
        // Named, so an operator (or a test) can tell it in pg_stat_activity.
        config.application_name("tapete-store");
        let client = connect(&config)?;
        Ok(PgConn {
            config,
            client: RefCell::new(client),
            statements: RefCell::new(HashMap::new()),
            max_bytes,
            full: Cell::new((false, None)),
            session,
        })
    }

    /// Runs `f` on the database at its stored schema version (`meta`'s row `schema`; 0
    /// when there is none, a new database) in one transaction, under tapete's schema lock
    /// so that nodes starting together take their turns, and stamps the version `f`
    /// returns in the same transaction: a failure changes nothing.
    fn schema_transaction(
        &self,
        f: impl FnOnce(&Connection, i64) -> DbResult<i64>,
    ) -> DbResult<()> {
        let c: &Connection = self;
        c.execute_batch("BEGIN")?;
        let done = (|| {
            // One number for tapete's schema lock.
            c.execute("SELECT pg_advisory_xact_lock(7465617065746531)", ())?;
            c.execute_batch(
                "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
            )?;
            let stored: Option<String> = c
                .query_row("SELECT value FROM meta WHERE key = 'schema'", (), |r| {
                    r.get(0)
                })
                .optional()?;
            let version: i64 = match stored {
                Some(v) => v.parse().map_err(|_| {
                    DbError(format!("the stored schema version `{v}` is not a number"))
                })?,
                None => 0,
            };
            let to = f(c, version)?;
            c.execute(
                "INSERT INTO meta (key, value) VALUES ('schema', ?1)
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                params![to.to_string()],
            )?;
            Ok(())
        })();
        match done {
            Ok(()) => c.execute_batch("COMMIT"),
            Err(e) => {
                let _ = c.execute_batch("ROLLBACK");
                Err(e)
            }
        }
    }

    /// Makes the empty database at `url` one of schema `version` (see `schema::create_at`).
    #[cfg(feature = "sql")]
    pub(super) fn create_at(url: &str, version: i64) -> DbResult<()> {
        if version == 0 {
            return Ok(());
        }
        PgConn::connect(url, None, None)?.schema_transaction(|c, stored| {
            if stored != 0 {
                return Err(DbError(format!(
                    "the database has schema version {stored} already"
                )));
            }
            super::schema::create(c, Dialect::Postgres, version)?;
            Ok(version)
        })
    }

    /// Refuses `sql` when it would store something new (an `INSERT` outside the
    /// coordination tables) in a database past its largest size, as a full disk would.
    fn refuse_when_full(&self, sql: &str) -> DbResult<()> {
        if !self.full.get().0 {
            return Ok(());
        }
        let words: Vec<String> = sql
            .split_whitespace()
            .take(3)
            .map(|w| w.to_ascii_lowercase())
            .collect();
        let grows = words.first().is_some_and(|w| w == "insert")
            && !words
                .get(2)
                .is_some_and(|t| COORDINATION.iter().any(|c| t.starts_with(c)));
        if grows {
            return Err(DbError(format!(
                "the database is full: it is past its largest size ({} MiB, --max-db-mb)",
                self.max_bytes.unwrap_or(0) >> 20
            )));
        }
        Ok(())
    }

    /// Measures the database's size against `max_bytes`, at most every [`SIZE_EVERY`].
    fn measure(&self) -> DbResult<()> {
        let Some(max) = self.max_bytes else {
            return Ok(());
        };
        let (full, at) = self.full.get();
        if at.is_some_and(|t| t.elapsed() < SIZE_EVERY) {
            return Ok(());
        }
        let size: i64 = self
            .client
            .try_borrow_mut()
            .map_err(|_| DbError("the database connection is busy".into()))?
            .query_one("SELECT pg_database_size(current_database())", &[])?
            .get(0);
        let now_full = size.max(0) as u64 > max;
        if now_full && !full {
            tracing::error!(
                "the database is past its largest size ({} MiB > {} MiB): nothing new is stored",
                size >> 20,
                max >> 20
            );
        }
        self.full.set((now_full, Some(Instant::now())));
        Ok(())
    }

    fn statement(&self, client: &mut Client, sql: &str) -> DbResult<Statement> {
        if let Some(s) = self.statements.borrow().get(sql) {
            return Ok(s.clone());
        }
        let s = client.prepare(&dollar_params(sql))?;
        self.statements
            .borrow_mut()
            .insert(sql.to_owned(), s.clone());
        Ok(s)
    }

    fn run<R>(
        &self,
        sql: &str,
        args: &[&dyn ToSql],
        f: impl FnOnce(&mut Client, &Statement, &[&(dyn PgToSql + Sync)]) -> Result<R, postgres::Error>,
    ) -> DbResult<R> {
        let mut client = self
            .client
            .try_borrow_mut()
            .map_err(|_| DbError("the database connection is busy".into()))?;
        let st = self.statement(&mut client, sql)?;
        if st.params().len() != args.len() {
            return Err(DbError(format!(
                "the statement takes {} parameters, {} given",
                st.params().len(),
                args.len()
            )));
        }
        let values = st
            .params()
            .iter()
            .zip(args)
            .map(|(ty, a)| pg_value(ty, a.to_sql()?))
            .collect::<DbResult<Vec<_>>>()?;
        let refs: Vec<&(dyn PgToSql + Sync)> = values.iter().map(|v| v.as_ref()).collect();
        Ok(f(&mut client, &st, &refs)?)
    }
}

type PgValue = Box<dyn PgToSql + Sync>;

/// A value as the parameter of type `ty` wants it.
fn pg_value(ty: &Type, v: SqlValue) -> DbResult<PgValue> {
    let wrong = |v: &SqlValue| DbError(format!("{v:?} cannot be a parameter of type {ty}"));
    Ok(match (ty, v) {
        (t, SqlValue::Null) if *t == Type::INT8 => Box::new(None::<i64>),
        (t, SqlValue::Null) if *t == Type::INT4 => Box::new(None::<i32>),
        (t, SqlValue::Null) if *t == Type::FLOAT8 => Box::new(None::<f64>),
        (t, SqlValue::Null) if *t == Type::BOOL => Box::new(None::<bool>),
        (_, SqlValue::Null) => Box::new(None::<String>),
        (t, SqlValue::Int(i)) if *t == Type::INT8 => Box::new(i),
        (t, SqlValue::Int(i)) if *t == Type::INT4 => {
            Box::new(i32::try_from(i).map_err(|_| wrong(&SqlValue::Int(i)))?)
        }
        (t, SqlValue::Int(i)) if *t == Type::INT2 => {
            Box::new(i16::try_from(i).map_err(|_| wrong(&SqlValue::Int(i)))?)
        }
        (t, SqlValue::Int(i)) if *t == Type::FLOAT8 => Box::new(i as f64),
        (t, SqlValue::Int(i)) if *t == Type::BOOL => Box::new(i != 0),
        (t, SqlValue::Int(i)) if is_text(t) => Box::new(i.to_string()),
        (t, SqlValue::Real(x)) if *t == Type::FLOAT8 => Box::new(x),
        (t, SqlValue::Real(x)) if *t == Type::FLOAT4 => Box::new(x as f32),
        (t, SqlValue::Text(s)) if is_text(t) => Box::new(s),
        (_, v) => return Err(wrong(&v)),
    })
}

fn is_text(t: &Type) -> bool {
    [
        Type::TEXT,
        Type::VARCHAR,
        Type::BPCHAR,
        Type::NAME,
        Type::UNKNOWN,
    ]
    .contains(t)
}

/// A row of PostgreSQL's answer as the store's values.
fn row_of(r: &postgres::Row) -> DbResult<Row> {
    let mut values = Vec::with_capacity(r.len());
    for (i, c) in r.columns().iter().enumerate() {
        let t = c.type_();
        let v = if *t == Type::INT8 {
            r.try_get::<_, Option<i64>>(i)?.map(SqlValue::Int)
        } else if *t == Type::INT4 {
            r.try_get::<_, Option<i32>>(i)?
                .map(|v| SqlValue::Int(v.into()))
        } else if *t == Type::INT2 {
            r.try_get::<_, Option<i16>>(i)?
                .map(|v| SqlValue::Int(v.into()))
        } else if *t == Type::BOOL {
            r.try_get::<_, Option<bool>>(i)?
                .map(|v| SqlValue::Int(v.into()))
        } else if *t == Type::FLOAT8 {
            r.try_get::<_, Option<f64>>(i)?.map(SqlValue::Real)
        } else if *t == Type::FLOAT4 {
            r.try_get::<_, Option<f32>>(i)?
                .map(|v| SqlValue::Real(v.into()))
        } else if is_text(t) {
            r.try_get::<_, Option<String>>(i)?.map(SqlValue::Text)
        } else {
            return Err(DbError(format!(
                "column {i} ({}) is of type {t}, which the store does not read: cast it",
                c.name()
            )));
        };
        values.push(v.unwrap_or(SqlValue::Null));
    }
    Ok(Row::new(values))
}

impl Conn for PgConn {
    fn lost(&self) -> bool {
        self.client.borrow().is_closed()
    }

    fn exec_raw(&self, sql: &str, args: &[&dyn ToSql]) -> DbResult<usize> {
        self.refuse_when_full(sql)?;
        let n = self.run(sql, args, |c, st, a| c.execute(st, a))?;
        Ok(n as usize)
    }

    fn query_raw(&self, sql: &str, args: &[&dyn ToSql]) -> DbResult<Vec<Row>> {
        self.refuse_when_full(sql)?;
        let rows = self.run(sql, args, |c, st, a| c.query(st, a))?;
        rows.iter().map(row_of).collect()
    }

    fn batch_raw(&self, sql: &str) -> DbResult<()> {
        let mut client = self
            .client
            .try_borrow_mut()
            .map_err(|_| DbError("the database connection is busy".into()))?;
        Ok(client.batch_execute(sql)?)
    }

    /// Begins a transaction, connecting again first if the connection was lost (its
    /// prepared statements went with it).
    fn begin(&self) -> DbResult<()> {
        if self.client.borrow().is_closed() {
            *self.client.borrow_mut() = connect(&self.config)?;
            self.statements.borrow_mut().clear();
            if let Some(s) = &self.session {
                // The lost session took the lock with it: the other nodes may be taking
                // this node's tables already (its renewal will say which).
                if !s.take(&mut self.client.borrow_mut(), true)? {
                    tracing::warn!(
                        node = %s.node,
                        "connected again, but this server's lock is held by another \
                         session: its tables are let go until it can take it"
                    );
                }
            }
        } else if let Some(s) = self.session.as_ref().filter(|s| !s.held()) {
            s.take(&mut self.client.borrow_mut(), false)?;
        }
        self.measure()?;
        self.batch_raw("BEGIN")
    }
}
