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
use super::versions::*;
use super::{DbError, DbResult};

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
pub(crate) const MIGRATIONS: [Migration; 14] = [
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
    Migration {
        version: 9,
        summary: "reviews of finished games (`reviews`: one document per table and seat, \
                  made once)",
        sqlite: Step::Sql(SQLITE_9),
        postgres: Step::Sql(PG_9),
    },
    Migration {
        version: 10,
        summary: "cuadrillas, lasting groups of accounts (`cuadrillas`, \
                  `cuadrilla_members`), and the tables played among them \
                  (`tables.cuadrilla`)",
        sqlite: Step::Code(sqlite_10),
        postgres: Step::Sql(PG_10),
    },
    Migration {
        version: 11,
        summary: "tournaments (`tournaments`), their entrants (`tournament_entries`) and \
                  the tables of their rounds (`tournament_tables`) with whose each seat is (`tournament_seats`)",
        sqlite: Step::Sql(SQLITE_11),
        postgres: Step::Sql(PG_11),
    },
    Migration {
        version: 12,
        summary: "notices to a person (`notices`) and Web Push subscriptions (`push_subscriptions`: one per browser, with its keys and language)",
        sqlite: Step::Sql(SQLITE_12),
        postgres: Step::Sql(PG_12),
    },
    Migration {
        version: 13,
        summary: "deals anyone can verify: each new table's secret with whether other tables share it and the contributions fixed at its start (`deals`), and what each person gave before the start (`contributions`)",
        sqlite: Step::Sql(SQLITE_13),
        postgres: Step::Sql(PG_13),
    },
    Migration {
        version: 14,
        summary: "the operator's work: suspensions of accounts from rated play or the whole site (`suspensions`), the log of every operator action (`operator_log`) and the screens' flags for an operator to judge (`flags`)",
        sqlite: Step::Sql(SQLITE_14),
        postgres: Step::Sql(PG_14),
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
    c.execute_batch(unversioned(dialect))
}

/// What came without a version, in `dialect`'s words.
fn unversioned(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Sqlite => SQLITE_UNVERSIONED,
        Dialect::Postgres => PG_UNVERSIONED,
    }
}

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

/// The version what came without a version came after: a database of that version or a
/// later one has it (a tapete of version 8 made it at every start, once it had it).
#[cfg(feature = "sql")]
const UNVERSIONED_SINCE: i64 = 8;

/// What `store::create_at` runs in an empty database: the migrations up to `version`, and
/// from [`UNVERSIONED_SINCE`] on what came without a version (the tests that want a
/// database of version 8 as its first builds made it drop that).
#[cfg(feature = "sql")]
pub(crate) fn create(c: &Connection, dialect: Dialect, version: i64) -> DbResult<()> {
    migrate(c, dialect, 0, version)?;
    if version >= UNVERSIONED_SINCE {
        c.execute_batch(unversioned(dialect))?;
    }
    Ok(())
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
