//! The schema of both databases: one ordered list of migrations ([`MIGRATIONS`]), one per
//! schema version, each in SQLite's words and in PostgreSQL's. A new database is made by
//! running them all from version 0; an older one runs those after its version. Either
//! way the migrations run in one transaction with the new version's stamp (SQLite's
//! `PRAGMA user_version`, PostgreSQL's `meta` row `schema`): a database is at one version
//! or the next, never between. [`prepare`] brings a SQLite file to the head at start;
//! PostgreSQL's connection does the same (`pg::PgConn::open`).
//!
//! Every step may meet what it makes already there (the tests write older databases by
//! dropping what came since, and a database of a version may have what a later build
//! added without a new version): tables and indexes are made `IF NOT EXISTS`, a column
//! is added where it is missing (PostgreSQL's `ADD COLUMN IF NOT EXISTS`; SQLite, which
//! has no such words, after looking, which is why its steps that add columns are code),
//! and the rows a new column needs are filled in only where it was just added.

use super::sql::Connection;
use super::{params, DbError, DbResult};

/// The schema version this build writes; databases from a newer one are refused.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// Which database a step speaks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// One database's part of a migration.
pub(crate) enum Step {
    /// Statements run as one batch.
    Sql(&'static str),
    /// What SQL alone cannot say (SQLite adds a column only after looking for it), run on
    /// the connection inside the migration's transaction.
    Code(fn(&Connection) -> DbResult<()>),
}

/// What one schema version changed, in each database's words.
pub(crate) struct Migration {
    /// The version a database is at once this has run.
    pub version: i64,
    /// What the version brought, in one line: the table of versions in docs/server.md
    /// ("The schema and its versions") says the same, which a test checks.
    #[cfg_attr(not(test), allow(dead_code))]
    pub summary: &'static str,
    pub sqlite: Step,
    pub postgres: Step,
}

impl Migration {
    fn step(&self, dialect: Dialect) -> &Step {
        match dialect {
            Dialect::Sqlite => &self.sqlite,
            Dialect::Postgres => &self.postgres,
        }
    }
}

/// Every schema version, in order: entry `i` brings a database from version `i` to `i + 1`.
/// A version's change is written once per database; PostgreSQL's words differ in its
/// types (64-bit `BIGINT`, `DOUBLE PRECISION`), its numbered ids (identities, where SQLite
/// numbers an `INTEGER PRIMARY KEY` by itself) and `ON CONFLICT DO NOTHING` for SQLite's
/// `INSERT OR IGNORE`.
pub(crate) const MIGRATIONS: [Migration; 8] = [
    Migration {
        version: 1,
        summary: "players, tables of four seats (Mus only) with their seats, people, \
                  action logs, seats asked for mid-hand and the timings of the bots \
                  (`away_s`, `hold_s`), and `meta`",
        sqlite: Step::Code(sqlite_1),
        postgres: Step::Sql(PG_1),
    },
    Migration {
        version: 2,
        summary: "each table stores its seat count (`tables.seats`: an older table gets \
                  the number of its seat rows)",
        sqlite: Step::Code(sqlite_2),
        postgres: Step::Sql(PG_2),
    },
    Migration {
        version: 3,
        summary: "who has held which seat during the hand under way (`hand_seats`: an \
                  older playing table starts from who sits there)",
        sqlite: Step::Sql(SQLITE_3),
        postgres: Step::Sql(PG_3),
    },
    Migration {
        version: 4,
        summary: "each table's turn clock (`tables.turn_s`; older tables have none, 0)",
        sqlite: Step::Code(sqlite_4),
        postgres: Step::Sql(PG_4),
    },
    Migration {
        version: 5,
        summary: "accounts (`accounts`) and sessions (`sessions`: each player's token of \
                  before becomes its first session)",
        sqlite: Step::Sql(SQLITE_5),
        postgres: Step::Sql(PG_5),
    },
    Migration {
        version: 6,
        summary: "rated tables (`tables.rated`, `rated_seats`), ratings and their history \
                  (`ratings`, `rating_history`), friends' tables (`private_tables`, \
                  `reserved_seats`, `rematches`), chat (`chat`, `mutes`, `reports`) and \
                  friends (`friends`, `friend_requests`, `invitations`)",
        sqlite: Step::Code(sqlite_6),
        postgres: Step::Sql(PG_6),
    },
    Migration {
        version: 7,
        summary: "each player's rating history is numbered in order (`rating_history.seq`: \
                  older rows in the order they were written)",
        sqlite: Step::Code(sqlite_7),
        postgres: Step::Sql(PG_7),
    },
    Migration {
        version: 8,
        summary: "what keeps ratings from being farmed (`rated_seats.helped`, \
                  `rating_history.assisted` and `.unrated`, `signup_addresses`, \
                  `table_addresses`); a rated table not finished without a turn clock \
                  gets the default one",
        sqlite: Step::Code(sqlite_8),
        postgres: Step::Sql(PG_8),
    },
];

/// What came after version 8 without a new version (a tapete of version 8 reads such a
/// database as before): each account's nickname look (`nickname_looks`, filled from the
/// accounts at start, see `Db::fill_nickname_looks`). Made at every start where missing.
#[cfg_attr(not(test), allow(dead_code))]
const UNVERSIONED_SUMMARY: &str = "since version 8, without a new one: each account's \
     nickname look (`nickname_looks`, see Nicknames), made at start where missing and \
     filled in then for the accounts without one";
const SQLITE_UNVERSIONED: &str = "
CREATE TABLE IF NOT EXISTS nickname_looks (
    player INTEGER PRIMARY KEY REFERENCES players(id),
    look TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS nickname_looks_look ON nickname_looks(look);
";
const PG_UNVERSIONED: &str = "
CREATE TABLE IF NOT EXISTS nickname_looks (
    player BIGINT PRIMARY KEY REFERENCES players(id),
    look TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS nickname_looks_look ON nickname_looks(look);
";

/// Refuses a database written by a newer tapete rather than misread it.
pub(crate) fn check_version(version: i64) -> DbResult<()> {
    if version > SCHEMA_VERSION {
        return Err(DbError(format!(
            "the database has schema version {version}, newer than this tapete knows \
             ({SCHEMA_VERSION}): use a newer tapete"
        )));
    }
    if version < 0 {
        return Err(DbError(format!(
            "the database has schema version {version}, which no tapete wrote"
        )));
    }
    Ok(())
}

/// Runs the migrations that bring a database of version `from` to version `to`, on `c`
/// inside the caller's transaction (which also stamps `to`).
pub(crate) fn migrate(c: &Connection, dialect: Dialect, from: i64, to: i64) -> DbResult<()> {
    for m in MIGRATIONS
        .iter()
        .filter(|m| m.version > from && m.version <= to)
    {
        match m.step(dialect) {
            Step::Sql(sql) => c.execute_batch(sql),
            Step::Code(f) => f(c),
        }
        .map_err(|e| DbError(format!("schema version {}: {}", m.version, e.0)))?;
    }
    Ok(())
}

/// Brings a database of version `from` to the head: the migrations after it, then what
/// came since without a version. The caller stamps [`SCHEMA_VERSION`] in the same
/// transaction.
pub(crate) fn upgrade(c: &Connection, dialect: Dialect, from: i64) -> DbResult<()> {
    migrate(c, dialect, from, SCHEMA_VERSION)?;
    c.execute_batch(match dialect {
        Dialect::Sqlite => SQLITE_UNVERSIONED,
        Dialect::Postgres => PG_UNVERSIONED,
    })
}

/// Adds `column` to a SQLite `table` that lacks it; whether it was added.
fn sqlite_add_column(
    c: &Connection,
    table: &str,
    column: &str,
    definition: &str,
) -> DbResult<bool> {
    let has: i64 = c.query_row(
        "SELECT count(*) FROM pragma_table_info(?1) WHERE name = ?2",
        params![table, column],
        |r| r.get(0),
    )?;
    if has == 0 {
        c.execute_batch(&format!(
            "ALTER TABLE {table} ADD COLUMN {column} {definition};"
        ))?;
    }
    Ok(has == 0)
}

// Version 1. A database of tapete before versions (version 0) has the tables already,
// without `pending_seats` and `meta`, and its `tables` lacks the timings.

const SQLITE_1: &str = "
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
    hold_s INTEGER NOT NULL DEFAULT 10
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
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
";

fn sqlite_1(c: &Connection) -> DbResult<()> {
    c.execute_batch(SQLITE_1)?;
    sqlite_add_column(c, "tables", "away_s", "INTEGER NOT NULL DEFAULT 30")?;
    sqlite_add_column(c, "tables", "hold_s", "INTEGER NOT NULL DEFAULT 10")?;
    Ok(())
}

const PG_1: &str = "
CREATE TABLE IF NOT EXISTS players (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    nickname TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    rules TEXT NOT NULL,
    seed BIGINT NOT NULL,
    creator BIGINT REFERENCES players(id),
    bot TEXT NOT NULL,
    pace_ms BIGINT NOT NULL,
    status TEXT NOT NULL,
    created BIGINT NOT NULL,
    finished BIGINT,
    outcome TEXT,
    away_s BIGINT NOT NULL DEFAULT 30,
    hold_s BIGINT NOT NULL DEFAULT 10
);
ALTER TABLE tables ADD COLUMN IF NOT EXISTS away_s BIGINT NOT NULL DEFAULT 30;
ALTER TABLE tables ADD COLUMN IF NOT EXISTS hold_s BIGINT NOT NULL DEFAULT 10;
CREATE INDEX IF NOT EXISTS tables_status ON tables(status);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat BIGINT NOT NULL,
    player BIGINT REFERENCES players(id),
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS table_players (
    table_id TEXT NOT NULL REFERENCES tables(id),
    player BIGINT NOT NULL REFERENCES players(id),
    seat BIGINT NOT NULL,
    PRIMARY KEY (table_id, player, seat)
);
CREATE INDEX IF NOT EXISTS table_players_player ON table_players(player);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n BIGINT NOT NULL,
    seat BIGINT NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
CREATE TABLE IF NOT EXISTS pending_seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    player BIGINT NOT NULL REFERENCES players(id),
    seat BIGINT NOT NULL,
    PRIMARY KEY (table_id, player)
);
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
";

// Version 2. Every table then had one row per seat in `seats` (all four, for Mus), so
// that count is its seat count, its game's only one. (SQLite cannot add a column
// `NOT NULL` without a default, so its `tables.seats` keeps `DEFAULT 0`, where a database
// the releases of versions 2 to 8 made new has none; PostgreSQL drops it once the rows
// are filled, as its databases made before always had none.)

fn sqlite_2(c: &Connection) -> DbResult<()> {
    if sqlite_add_column(c, "tables", "seats", "INTEGER NOT NULL DEFAULT 0")? {
        c.execute_batch(
            "UPDATE tables SET seats = (SELECT count(*) FROM seats s WHERE s.table_id = tables.id);",
        )?;
    }
    Ok(())
}

const PG_2: &str = "
ALTER TABLE tables ADD COLUMN IF NOT EXISTS seats BIGINT NOT NULL DEFAULT 0;
UPDATE tables SET seats = (SELECT count(*) FROM seats s WHERE s.table_id = tables.id)
    WHERE seats = 0;
ALTER TABLE tables ALTER COLUMN seats DROP DEFAULT;
";

// Version 3. The versions before knew only who sits now, so that is what a playing table
// starts from.

const SQLITE_3: &str = "
CREATE TABLE IF NOT EXISTS hand_seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    player INTEGER NOT NULL REFERENCES players(id),
    seat INTEGER NOT NULL,
    PRIMARY KEY (table_id, player)
);
INSERT OR IGNORE INTO hand_seats (table_id, player, seat)
    SELECT s.table_id, s.player, s.seat FROM seats s JOIN tables t ON t.id = s.table_id
    WHERE s.player IS NOT NULL AND t.status = 'playing';
";

const PG_3: &str = "
CREATE TABLE IF NOT EXISTS hand_seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    player BIGINT NOT NULL REFERENCES players(id),
    seat BIGINT NOT NULL,
    PRIMARY KEY (table_id, player)
);
INSERT INTO hand_seats (table_id, player, seat)
    SELECT s.table_id, s.player, s.seat FROM seats s JOIN tables t ON t.id = s.table_id
    WHERE s.player IS NOT NULL AND t.status = 'playing'
    ON CONFLICT DO NOTHING;
";

// Version 4. Tables made before the turn clock had none, and keep none.

fn sqlite_4(c: &Connection) -> DbResult<()> {
    sqlite_add_column(c, "tables", "turn_s", "INTEGER NOT NULL DEFAULT 0")?;
    Ok(())
}

const PG_4: &str = "ALTER TABLE tables ADD COLUMN IF NOT EXISTS turn_s BIGINT NOT NULL DEFAULT 0;";

// Version 5. Each player's one token becomes its first session, so every guest goes on
// with the token it has. (Players keep `token_hash`, the hash of their first token; only
// `sessions` says who a token is.)

const SQLITE_5: &str = "
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
INSERT OR IGNORE INTO sessions (token_hash, player, created, last_used, agent)
    SELECT token_hash, id, created, created, '' FROM players;
";

const PG_5: &str = "
CREATE TABLE IF NOT EXISTS accounts (
    player BIGINT PRIMARY KEY REFERENCES players(id),
    nick_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    player BIGINT NOT NULL REFERENCES players(id),
    created BIGINT NOT NULL,
    last_used BIGINT NOT NULL,
    agent TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_player ON sessions(player);
INSERT INTO sessions (token_hash, player, created, last_used, agent)
    SELECT token_hash, id, created, created, '' FROM players
    ON CONFLICT DO NOTHING;
";

// Version 6. Tables made before were not rated.

const SQLITE_6: &str = "
CREATE TABLE IF NOT EXISTS rated_seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    team INTEGER NOT NULL,
    player INTEGER REFERENCES players(id),
    PRIMARY KEY (table_id, seat)
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
    PRIMARY KEY (table_id, who)
);
CREATE INDEX IF NOT EXISTS rating_history_who ON rating_history(game, who, at);
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
";

fn sqlite_6(c: &Connection) -> DbResult<()> {
    sqlite_add_column(c, "tables", "rated", "INTEGER NOT NULL DEFAULT 0")?;
    c.execute_batch(SQLITE_6)
}

const PG_6: &str = "
ALTER TABLE tables ADD COLUMN IF NOT EXISTS rated BIGINT NOT NULL DEFAULT 0;
CREATE TABLE IF NOT EXISTS rated_seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat BIGINT NOT NULL,
    team BIGINT NOT NULL,
    player BIGINT REFERENCES players(id),
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS ratings (
    game TEXT NOT NULL,
    who TEXT NOT NULL,
    player BIGINT REFERENCES players(id),
    bot TEXT,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    won BIGINT NOT NULL,
    abandoned BIGINT NOT NULL,
    updated BIGINT NOT NULL,
    PRIMARY KEY (game, who)
);
CREATE INDEX IF NOT EXISTS ratings_player ON ratings(player);
CREATE TABLE IF NOT EXISTS rating_history (
    table_id TEXT NOT NULL REFERENCES tables(id),
    who TEXT NOT NULL,
    game TEXT NOT NULL,
    player BIGINT REFERENCES players(id),
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    place BIGINT NOT NULL,
    won BIGINT NOT NULL,
    abandoned BIGINT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (table_id, who)
);
CREATE INDEX IF NOT EXISTS rating_history_who ON rating_history(game, who, at);
CREATE TABLE IF NOT EXISTS private_tables (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    invite TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS reserved_seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat BIGINT NOT NULL,
    player BIGINT NOT NULL REFERENCES players(id),
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS rematches (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    new_table TEXT NOT NULL UNIQUE REFERENCES tables(id),
    starts_at BIGINT NOT NULL,
    created BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS chat (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n BIGINT NOT NULL,
    channel TEXT NOT NULL,
    player BIGINT NOT NULL REFERENCES players(id),
    nickname TEXT NOT NULL,
    text TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (table_id, n)
);
CREATE TABLE IF NOT EXISTS mutes (
    player BIGINT NOT NULL REFERENCES players(id),
    muted BIGINT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (player, muted)
);
CREATE TABLE IF NOT EXISTS reports (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    table_id TEXT NOT NULL REFERENCES tables(id),
    n BIGINT NOT NULL,
    channel TEXT NOT NULL,
    author BIGINT NOT NULL,
    author_nickname TEXT NOT NULL,
    text TEXT NOT NULL,
    written BIGINT NOT NULL,
    reporter BIGINT NOT NULL REFERENCES players(id),
    at BIGINT NOT NULL,
    UNIQUE (table_id, n, reporter)
);
CREATE TABLE IF NOT EXISTS friends (
    player BIGINT NOT NULL REFERENCES players(id),
    friend BIGINT NOT NULL REFERENCES players(id),
    since BIGINT NOT NULL,
    PRIMARY KEY (player, friend)
);
CREATE TABLE IF NOT EXISTS friend_requests (
    from_player BIGINT NOT NULL REFERENCES players(id),
    to_player BIGINT NOT NULL REFERENCES players(id),
    at BIGINT NOT NULL,
    PRIMARY KEY (from_player, to_player)
);
CREATE INDEX IF NOT EXISTS friend_requests_to ON friend_requests(to_player);
CREATE TABLE IF NOT EXISTS invitations (
    id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    from_player BIGINT NOT NULL REFERENCES players(id),
    to_player BIGINT NOT NULL REFERENCES players(id),
    table_id TEXT NOT NULL REFERENCES tables(id),
    at BIGINT NOT NULL,
    UNIQUE (from_player, to_player, table_id)
);
CREATE INDEX IF NOT EXISTS invitations_to ON invitations(to_player);
";

// Version 7. A player's rating history was read in SQLite's row order until then: the
// rows are numbered in it. (PostgreSQL databases began at version 7; its rows, which have
// no order of their own, would be numbered by time.)

fn sqlite_7(c: &Connection) -> DbResult<()> {
    if sqlite_add_column(c, "rating_history", "seq", "INTEGER NOT NULL DEFAULT 0")? {
        c.execute_batch("UPDATE rating_history SET seq = rowid;")?;
    }
    c.execute_batch("CREATE INDEX IF NOT EXISTS rating_history_seq ON rating_history(who, seq);")
}

const PG_7: &str = "
ALTER TABLE rating_history ADD COLUMN IF NOT EXISTS seq BIGINT NOT NULL DEFAULT 0;
UPDATE rating_history h SET seq = o.n
    FROM (SELECT table_id, who,
                 row_number() OVER (PARTITION BY who ORDER BY at, table_id) AS n
          FROM rating_history WHERE seq = 0) o
    WHERE h.table_id = o.table_id AND h.who = o.who;
CREATE INDEX IF NOT EXISTS rating_history_seq ON rating_history(who, seq);
";

// Version 8. Rows from before get the defaults: no decision taken by the bot, nothing
// assisted, everything rated. A rated table not finished that has no turn clock gets
// the default one of then (60 s, whatever the default is now), as every rated table now
// has one.

const SQLITE_8: &str = "
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
UPDATE tables SET turn_s = 60 WHERE rated = 1 AND turn_s = 0 AND status <> 'finished';
";

fn sqlite_8(c: &Connection) -> DbResult<()> {
    sqlite_add_column(c, "rated_seats", "helped", "INTEGER NOT NULL DEFAULT 0")?;
    sqlite_add_column(
        c,
        "rating_history",
        "assisted",
        "INTEGER NOT NULL DEFAULT 0",
    )?;
    sqlite_add_column(c, "rating_history", "unrated", "TEXT")?;
    c.execute_batch(SQLITE_8)
}

const PG_8: &str = "
ALTER TABLE rated_seats ADD COLUMN IF NOT EXISTS helped BIGINT NOT NULL DEFAULT 0;
ALTER TABLE rating_history ADD COLUMN IF NOT EXISTS assisted BIGINT NOT NULL DEFAULT 0;
ALTER TABLE rating_history ADD COLUMN IF NOT EXISTS unrated TEXT;
CREATE TABLE IF NOT EXISTS signup_addresses (
    player BIGINT PRIMARY KEY REFERENCES players(id),
    address TEXT NOT NULL,
    at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS signup_addresses_address ON signup_addresses(address);
CREATE TABLE IF NOT EXISTS table_addresses (
    table_id TEXT NOT NULL REFERENCES tables(id),
    player BIGINT NOT NULL REFERENCES players(id),
    address TEXT NOT NULL,
    PRIMARY KEY (table_id, player, address)
);
UPDATE tables SET turn_s = 60 WHERE rated = 1 AND turn_s = 0 AND status <> 'finished';
";

/// Brings a SQLite file to [`SCHEMA_VERSION`], refusing a newer one, and proves the file
/// can be written (a read-only file or a full disk must stop the server at start, not at
/// the first action).
pub(crate) fn prepare(
    conn: &mut rusqlite::Connection,
    durability: super::Durability,
) -> DbResult<()> {
    use super::not_writable;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    check_version(version)?;
    let sync = match durability {
        super::Durability::Full => "FULL",
        super::Durability::Normal => "NORMAL",
    };
    conn.execute_batch(&format!(
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = {sync}; PRAGMA foreign_keys = ON;"
    ))
    .map_err(not_writable)?;
    let tx = conn.transaction().map_err(not_writable)?;
    let cannot = |e: DbError| DbError(format!("cannot write to the database ({})", e.0));
    upgrade(&*tx, Dialect::Sqlite, version).map_err(cannot)?;
    tx.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('opened', ?1)",
        [super::now().to_string()],
    )
    .map_err(not_writable)?;
    tx.execute_batch(&format!("PRAGMA user_version = {SCHEMA_VERSION}"))
        .map_err(not_writable)?;
    tx.commit().map_err(not_writable)?;
    Ok(())
}

/// Makes `db` (a new SQLite file, or an empty PostgreSQL database by its URL) a database
/// of schema `version` as a tapete of that version made it (the head's as this one
/// does), with no rows: what the tests that upgrade older databases start from.
#[cfg(feature = "sql")]
pub fn create_at(db: &std::path::Path, version: i64) -> DbResult<()> {
    if !(0..=SCHEMA_VERSION).contains(&version) {
        return Err(DbError(format!("there is no schema version {version}")));
    }
    match db.to_str().filter(|d| super::pg::is_url(d)) {
        Some(url) => super::pg::PgConn::create_at(url, version),
        None => {
            let mut conn = rusqlite::Connection::open(db)?;
            let tx = conn.transaction()?;
            create(&*tx, Dialect::Sqlite, version)?;
            tx.execute_batch(&format!("PRAGMA user_version = {version}"))?;
            tx.commit()?;
            Ok(())
        }
    }
}

/// What [`create_at`] runs in an empty database: the migrations up to `version`, and at
/// the head what came without a version.
#[cfg(feature = "sql")]
pub(crate) fn create(c: &Connection, dialect: Dialect, version: i64) -> DbResult<()> {
    if version == SCHEMA_VERSION {
        upgrade(c, dialect, 0)
    } else {
        migrate(c, dialect, 0, version)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_migrations_are_numbered_one_to_the_head_in_order() {
        let versions: Vec<i64> = MIGRATIONS.iter().map(|m| m.version).collect();
        assert_eq!(versions, (1..=SCHEMA_VERSION).collect::<Vec<_>>());
    }

    /// The rows of the table of versions in docs/server.md: (first cell, second cell).
    fn documented_versions() -> Vec<(String, String)> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/server.md");
        let doc = std::fs::read_to_string(path).expect("docs/server.md");
        let section = doc
            .split("\n### The schema and its versions\n")
            .nth(1)
            .expect("docs/server.md has a section \"The schema and its versions\"");
        let section = section.split("\n#").next().unwrap_or(section);
        section
            .lines()
            .filter(|l| l.starts_with('|'))
            .skip(2) // the header and its rule
            .map(|l| {
                let cells: Vec<&str> = l.trim_matches('|').split('|').map(str::trim).collect();
                assert_eq!(cells.len(), 2, "a row of two cells: {l}");
                (cells[0].to_owned(), cells[1].to_owned())
            })
            .collect()
    }

    #[test]
    fn the_documented_versions_are_the_migrations() {
        let mut listed: Vec<(String, String)> = MIGRATIONS
            .iter()
            .map(|m| (m.version.to_string(), m.summary.to_owned()))
            .collect();
        listed.push(("no version".to_owned(), UNVERSIONED_SUMMARY.to_owned()));
        let documented = documented_versions();
        for (d, l) in documented.iter().zip(&listed) {
            assert_eq!(
                d, l,
                "docs/server.md's table of versions against MIGRATIONS"
            );
        }
        assert_eq!(
            documented.len(),
            listed.len(),
            "docs/server.md's table of versions has a row per migration, and one for what \
             came without a version"
        );
    }
}
