//! The schema: the SQLite DDL, the SQLite migrations from every older version, and
//! bringing a SQLite file up to the head at start ([`prepare`]).

use super::{not_writable, now, DbError, DbResult, Durability};

/// The schema version this build writes; databases from a newer one are refused.
///
/// 1: tables of four seats (Mus only). 2: each table stores its seat count. 3: each table
/// stores who has held which seat during the hand under way (`hand_seats`). 4: each table
/// stores its turn clock (`turn_s`; tables from before have none, 0). 5: accounts
/// (`accounts`: a player's password hash and nickname key) and sessions (`sessions`: every
/// token of a player, by its hash; each player's token of before becomes its first session).
/// 6: rated tables (`tables.rated`, and each rated game's players when it started in
/// `rated_seats`), every rated player's rating per game (`ratings`) and its history
/// (`rating_history`), see [`crate::ratings`]; friends' tables (`private_tables`,
/// `reserved_seats`, `rematches`); table chat (`chat`: each table's last messages), mutes
/// (`mutes`), reports of chat messages (`reports`), friends (`friends`, both ways), friend
/// requests (`friend_requests`) and invitations to a table (`invitations`).
/// 7: each rating history row numbers its player's rows in order (`seq`), which both
/// SQLite and PostgreSQL can sort by.
/// 8: what keeps ratings from being farmed (see [`crate::ratings`]): how many decisions the
/// bot took for each person of a rated game (`rated_seats.helped`), whether a history row's
/// seat was played by the bot (`assisted`) or why it was not rated (`unrated`), the address
/// each account was made from (`signup_addresses`) and those each player played a rated
/// table from until it is rated (`table_addresses`); a rated table always has a turn clock.
/// Since, without a new version (an older tapete reads such a database as before): each
/// account's nickname look (`nickname_looks`), made at start where it is missing and filled
/// from the accounts (see [`crate::store::Db::fill_nickname_looks`]).
pub const SCHEMA_VERSION: i64 = 8;

pub(crate) const SCHEMA: &str = "
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
pub(crate) const MIGRATE_0: &str = "
ALTER TABLE tables ADD COLUMN away_s INTEGER NOT NULL DEFAULT 30;
ALTER TABLE tables ADD COLUMN hold_s INTEGER NOT NULL DEFAULT 10;
";

/// What a database of schema version 1 lacks: the seat count of each table. Every table
/// then had one row per seat in `seats` (all four, for Mus), so that count is its seat
/// count, its game's only one.
pub(crate) const MIGRATE_1: &str = "
ALTER TABLE tables ADD COLUMN seats INTEGER NOT NULL DEFAULT 0;
UPDATE tables SET seats = (SELECT count(*) FROM seats s WHERE s.table_id = tables.id);
";

/// What a database of schema version 2 lacks: who has held which seat this hand. Those
/// versions knew only who sits now, so that is what a playing table starts from.
pub(crate) const MIGRATE_2: &str = "
INSERT OR IGNORE INTO hand_seats (table_id, player, seat)
    SELECT s.table_id, s.player, s.seat FROM seats s JOIN tables t ON t.id = s.table_id
    WHERE s.player IS NOT NULL AND t.status = 'playing';
";

/// What a database of schema version 3 or older lacks: the turn clock. Tables made
/// before it had none, and keep none.
pub(crate) const MIGRATE_3: &str =
    "ALTER TABLE tables ADD COLUMN turn_s INTEGER NOT NULL DEFAULT 0;";

/// What a database of schema version 4 or older lacks: sessions. Each player's one token
/// becomes its first session, so every guest goes on with the token it has. (Players keep
/// `token_hash`, the hash of their first token; only `sessions` says who a token is.)
pub(crate) const MIGRATE_4: &str = "
INSERT OR IGNORE INTO sessions (token_hash, player, created, last_used, agent)
    SELECT token_hash, id, created, created, '' FROM players;
";

/// What a database of schema version 5 or older lacks: whether a table is rated. Tables
/// made before were not.
pub(crate) const MIGRATE_5: &str =
    "ALTER TABLE tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;";

/// What a database of schema version 6 or older lacks: the order of each player's
/// rating history, which until then was SQLite's row order.
pub(crate) const MIGRATE_6: &str = "
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
    // The default turn clock when version 8 came: what the rows got then, whatever the
    // default is now.
    const DEFAULT_TURN_S_AT_8: u64 = 60;
    format!(
        "UPDATE tables SET turn_s = {DEFAULT_TURN_S_AT_8} \
         WHERE rated = 1 AND turn_s = 0 AND status <> 'finished';"
    )
}

/// Indexes on columns a migration may add: made after the migrations.
pub(crate) const LATE_INDEXES: &str =
    "CREATE INDEX IF NOT EXISTS rating_history_seq ON rating_history(who, seq);";

/// Brings the schema to [`SCHEMA_VERSION`], refusing a newer one, and proves the file can
/// be written (a read-only file or a full disk must stop the server at start, not at the
/// first action).
pub(crate) fn prepare(conn: &mut rusqlite::Connection, durability: Durability) -> DbResult<()> {
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
