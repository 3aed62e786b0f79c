//! Databases as stored, for the tests of older schemas: either kind (a SQLite file's path or
//! a PostgreSQL URL) read and written the same way, a SQLite fixture carried over to
//! PostgreSQL at its version, and each database's catalog (its tables, columns, indexes
//! and constraints) to compare two databases' schemas.

use postgres::types::Type;
use std::path::{Path, PathBuf};
use tapete_server::store::pg::is_url;

/// The PostgreSQL server the tests may use (`TAPETE_TEST_PG`, its maintenance database's
/// URL), if any.
pub fn pg_base() -> Option<String> {
    std::env::var("TAPETE_TEST_PG")
        .ok()
        .filter(|b| !b.is_empty())
}

fn url_of(db: &Path) -> Option<String> {
    db.to_str().filter(|d| is_url(d)).map(str::to_owned)
}

fn pg(url: &str) -> postgres::Client {
    postgres::Client::connect(url, postgres::NoTls).unwrap_or_else(|e| panic!("{url}: {e}"))
}

/// A directory of its own for the test `name`, empty.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tapete-stored-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A copy of the fixture `tests/data/{file}` (the fixture itself is never written).
pub fn copy_of_fixture(file: &str, name: &str) -> PathBuf {
    let db = scratch(name).join(file);
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(file);
    std::fs::copy(&fixture, &db).unwrap_or_else(|e| panic!("the fixture {file}: {e}"));
    db
}

/// A new, empty database of the kind the tests run on (a fresh PostgreSQL database when
/// `TAPETE_TEST_PG` is set, else a new SQLite file).
pub fn empty_database(name: &str) -> PathBuf {
    match pg_base() {
        Some(base) => super::fresh_postgres(&base, name),
        None => scratch(name).join("t.db"),
    }
}

/// The SQLite database `sqlite` on the kind the tests run on: itself, or (with
/// `TAPETE_TEST_PG`) a fresh PostgreSQL database made at its schema version by the
/// server's migrations with every row of it copied in.
pub fn on_test_database(sqlite: &Path, name: &str) -> PathBuf {
    match pg_base() {
        Some(base) => {
            let url = super::fresh_postgres(&base, name);
            carry_over(sqlite, &url);
            url
        }
        None => sqlite.to_owned(),
    }
}

/// Writes the SQLite database `sqlite` into the empty PostgreSQL database `url`: its
/// schema version made by the server's migrations, then every row of every table.
pub fn carry_over(sqlite: &Path, url: &Path) {
    let from = rusqlite::Connection::open(sqlite).unwrap();
    let version: i64 = from
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    tapete_server::store::create_at(url, version).unwrap();
    let mut to = pg(&url_of(url).expect("a PostgreSQL URL"));
    let tables: Vec<String> = from
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut tx = to.transaction().unwrap();
    // Rows come in the order of their tables' making, so each row's references are there.
    for table in &tables {
        let columns: Vec<String> = from
            .prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid")
            .unwrap()
            .query_map([table], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let insert = tx
            .prepare(&format!(
                "INSERT INTO {table} ({}) VALUES ({})",
                columns.join(", "),
                (1..=columns.len())
                    .map(|i| format!("${i}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
            .unwrap_or_else(|e| panic!("{table} at version {version}: {e}"));
        let mut st = from
            .prepare(&format!(
                "SELECT {} FROM {table} ORDER BY rowid",
                columns.join(", ")
            ))
            .unwrap();
        let mut rows = st.query([]).unwrap();
        while let Some(row) = rows.next().unwrap() {
            let values: Vec<Box<dyn postgres::types::ToSql + Sync>> = insert
                .params()
                .iter()
                .enumerate()
                .map(|(i, ty)| pg_value(ty, row.get_ref(i).unwrap()))
                .collect();
            let refs: Vec<&(dyn postgres::types::ToSql + Sync)> =
                values.iter().map(|v| v.as_ref()).collect();
            tx.execute(&insert, &refs)
                .unwrap_or_else(|e| panic!("a row of {table}: {e}"));
        }
    }
    tx.commit().unwrap();
    number_on(&url_of(url).unwrap());
}

/// A SQLite value as a parameter of PostgreSQL's type `ty`.
fn pg_value(ty: &Type, v: rusqlite::types::ValueRef<'_>) -> Box<dyn postgres::types::ToSql + Sync> {
    use rusqlite::types::ValueRef;
    match (v, ty) {
        (ValueRef::Null, t) if *t == Type::INT8 => Box::new(None::<i64>),
        (ValueRef::Null, t) if *t == Type::FLOAT8 => Box::new(None::<f64>),
        (ValueRef::Null, _) => Box::new(None::<String>),
        (ValueRef::Integer(i), t) if *t == Type::FLOAT8 => Box::new(i as f64),
        (ValueRef::Integer(i), _) => Box::new(i),
        (ValueRef::Real(x), _) => Box::new(x),
        (ValueRef::Text(t), _) => Box::new(String::from_utf8(t.to_vec()).unwrap()),
        (ValueRef::Blob(_), _) => panic!("no blob is stored"),
    }
}

/// After rows were written with their ids, PostgreSQL's identities go on after the
/// largest (SQLite numbers from the largest by itself).
pub fn number_on(url: &str) {
    let mut c = pg(url);
    let ids: Vec<(String, String)> = c
        .query(
            "SELECT table_name::text, column_name::text FROM information_schema.columns
             WHERE table_schema = current_schema() AND is_identity = 'YES'",
            &[],
        )
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    for (table, column) in ids {
        c.batch_execute(&format!(
            "SELECT setval(pg_get_serial_sequence('{table}', '{column}'),
                           coalesce((SELECT max({column}) FROM {table}), 0) + 1, false)"
        ))
        .unwrap();
    }
}

/// Runs statements on either database (no parameters: the same words for both).
pub fn batch(db: &Path, sql: &str) {
    match url_of(db) {
        Some(url) => pg(&url)
            .batch_execute(sql)
            .unwrap_or_else(|e| panic!("{e}: {sql}")),
        None => rusqlite::Connection::open(db)
            .unwrap()
            .execute_batch(sql)
            .unwrap_or_else(|e| panic!("{e}: {sql}")),
    }
}

/// The rows of a query of integers on either database.
pub fn ints(db: &Path, sql: &str) -> Vec<Vec<i64>> {
    match url_of(db) {
        Some(url) => pg(&url)
            .query(sql, &[])
            .unwrap_or_else(|e| panic!("{e}: {sql}"))
            .iter()
            .map(|r| (0..r.len()).map(|i| r.get::<_, i64>(i)).collect())
            .collect(),
        None => {
            let c = rusqlite::Connection::open(db).unwrap();
            let mut st = c.prepare(sql).unwrap_or_else(|e| panic!("{e}: {sql}"));
            let n = st.column_count();
            st.query_map([], |r| (0..n).map(|i| r.get::<_, i64>(i)).collect())
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap()
        }
    }
}

/// The schema version stored in either database (`PRAGMA user_version`, or `meta`'s row
/// `schema`; 0 without one).
pub fn stored_version(db: &Path) -> i64 {
    match url_of(db) {
        Some(url) => pg(&url)
            .query_opt("SELECT value FROM meta WHERE key = 'schema'", &[])
            .unwrap()
            .map(|r| r.get::<_, String>(0).parse().unwrap())
            .unwrap_or(0),
        None => rusqlite::Connection::open(db)
            .unwrap()
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap(),
    }
}

/// Opens the store on `db` (bringing it to the head) and closes it.
pub fn open_and_close(db: &Path) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let store = match url_of(db) {
        Some(url) => tapete_server::store::Db::open_postgres(&url, "schema-test", None),
        None => tapete_server::store::Db::open(db),
    }
    .unwrap_or_else(|e| panic!("{}: {e}", db.display()));
    rt.block_on(store.close());
}

/// The schema of either database, one line per table column (in order), index and
/// constraint: two databases with the same lines have the same schema.
///
/// SQLite's `tables.seats` is shown without its default: a database a release of versions
/// 2 to 8 made new has none, one whose version 1 tables got the column (upgraded, or made
/// by the migrations) has 0 (SQLite adds a `NOT NULL` column only with a default, and
/// cannot drop it), and tapete always writes the count.
pub fn catalog(db: &Path) -> Vec<String> {
    match url_of(db) {
        Some(url) => pg_catalog(&url),
        None => sqlite_catalog(db),
    }
}

fn sqlite_catalog(db: &Path) -> Vec<String> {
    let c = rusqlite::Connection::open(db).unwrap();
    let strings = |sql: &str, arg: &str| -> Vec<Vec<String>> {
        let mut st = c.prepare(sql).unwrap();
        let n = st.column_count();
        st.query_map([arg], |r| {
            (0..n)
                .map(|i| {
                    Ok(match r.get_ref(i)? {
                        rusqlite::types::ValueRef::Null => "NULL".to_owned(),
                        rusqlite::types::ValueRef::Integer(i) => i.to_string(),
                        rusqlite::types::ValueRef::Text(t) => {
                            String::from_utf8_lossy(t).into_owned()
                        }
                        v => format!("{v:?}"),
                    })
                })
                .collect()
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
    };
    let mut out = Vec::new();
    let tables = strings(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE ?1 ORDER BY name",
        "sqlite_%",
    );
    for table in tables.iter().map(|t| &t[0]) {
        for col in strings(
            "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?1) ORDER BY cid",
            table,
        ) {
            let default = if table == "tables" && col[0] == "seats" {
                "(not compared)"
            } else {
                &col[3]
            };
            out.push(format!(
                "column {table}.{} {} notnull={} default={default} pk={}",
                col[0], col[1], col[2], col[4]
            ));
        }
        for idx in strings(
            "SELECT name, \"unique\", origin, partial FROM pragma_index_list(?1) ORDER BY name",
            table,
        ) {
            let cols: Vec<String> = strings(
                "SELECT name FROM pragma_index_info(?1) ORDER BY seqno",
                &idx[0],
            )
            .into_iter()
            .map(|r| r[0].clone())
            .collect();
            out.push(format!(
                "index {table}.{} unique={} origin={} partial={} ({})",
                idx[0],
                idx[1],
                idx[2],
                idx[3],
                cols.join(", ")
            ));
        }
        for fk in strings(
            "SELECT \"table\", \"from\", \"to\", on_update, on_delete
             FROM pragma_foreign_key_list(?1) ORDER BY id, seq",
            table,
        ) {
            out.push(format!(
                "reference {table}.{} -> {}.{} {} {}",
                fk[1], fk[0], fk[2], fk[3], fk[4]
            ));
        }
    }
    out
}

fn pg_catalog(url: &str) -> Vec<String> {
    let mut c = pg(url);
    let mut out = Vec::new();
    for r in c
        .query(
            "SELECT table_name::text, column_name::text, data_type::text, is_nullable::text,
                    coalesce(column_default::text, 'NULL'), is_identity::text
             FROM information_schema.columns WHERE table_schema = current_schema()
             ORDER BY table_name, ordinal_position",
            &[],
        )
        .unwrap()
    {
        let s = |i: usize| r.get::<_, String>(i);
        out.push(format!(
            "column {}.{} {} nullable={} default={} identity={}",
            s(0),
            s(1),
            s(2),
            s(3),
            s(4),
            s(5)
        ));
    }
    for r in c
        .query(
            "SELECT tablename::text, indexname::text, indexdef FROM pg_indexes
             WHERE schemaname = current_schema() ORDER BY tablename, indexname",
            &[],
        )
        .unwrap()
    {
        out.push(format!(
            "index {}.{} {}",
            r.get::<_, String>(0),
            r.get::<_, String>(1),
            r.get::<_, String>(2)
        ));
    }
    for r in c
        .query(
            "SELECT conrelid::regclass::text, conname::text, pg_get_constraintdef(oid)
             FROM pg_constraint WHERE connamespace = current_schema()::regnamespace
             ORDER BY 1, 2",
            &[],
        )
        .unwrap()
    {
        out.push(format!(
            "constraint {}.{} {}",
            r.get::<_, String>(0),
            r.get::<_, String>(1),
            r.get::<_, String>(2)
        ));
    }
    out
}

/// What differs between two catalogs, for a failure's message.
pub fn catalog_difference(a: &[String], b: &[String]) -> String {
    let only = |x: &[String], y: &[String]| -> Vec<String> {
        x.iter().filter(|l| !y.contains(l)).cloned().collect()
    };
    format!(
        "only in the first:\n  {}\nonly in the second:\n  {}",
        only(a, b).join("\n  "),
        only(b, a).join("\n  ")
    )
}
