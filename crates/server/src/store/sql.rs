//! One way for the store's code to speak SQL to either database: SQLite (the default, a
//! file) or PostgreSQL (several servers sharing one database).
//!
//! Statements are written once, in the SQL both understand (`?1`-style parameters,
//! `ON CONFLICT … DO …`, `RETURNING`), and run through [`Connection`]: each database
//! turns values to and from its own types and, for PostgreSQL, `?N` into `$N`. Values
//! cross as [`SqlValue`]s, integers as 64 bits, so a row reads the same from both.

use super::{DbError, DbResult};

/// A value as it crosses between tapete and either database.
#[derive(Clone, Debug, PartialEq)]
pub enum SqlValue {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
}

/// A Rust value that can be a statement's parameter.
pub trait ToSql {
    fn to_sql(&self) -> DbResult<SqlValue>;
}

/// A Rust value that can be read from a column.
pub trait FromSql: Sized {
    fn from_sql(v: &SqlValue) -> Result<Self, String>;
}

/// A connection to either database: the few primitives each implements. The store's code
/// uses the methods on `dyn Conn` below, shaped like rusqlite's.
pub trait Conn {
    /// Runs one statement; the rows it changed.
    fn exec_raw(&self, sql: &str, args: &[&dyn ToSql]) -> DbResult<usize>;
    /// Runs one query; every row it gives.
    fn query_raw(&self, sql: &str, args: &[&dyn ToSql]) -> DbResult<Vec<Row>>;
    /// Runs statements without parameters (`BEGIN`, `SAVEPOINT job`, …).
    fn batch_raw(&self, sql: &str) -> DbResult<()>;
    /// Begins the transaction a group of jobs runs in.
    fn begin(&self) -> DbResult<()>;
    /// Whether the connection to the database is lost (a server's went down): what failed
    /// on it failed for want of the database, not for what it asked.
    fn lost(&self) -> bool {
        false
    }
}

/// What the store's code holds: a connection to one of the databases.
pub type Connection = dyn Conn;

/// One row of a query's answer.
#[derive(Clone, Debug)]
pub struct Row {
    values: Vec<SqlValue>,
}

/// A column of a row: its number (from 0).
pub trait RowIndex {
    fn index(self) -> usize;
}

impl RowIndex for usize {
    fn index(self) -> usize {
        self
    }
}

impl Row {
    /// A row of these values.
    pub fn new(values: Vec<SqlValue>) -> Row {
        Row { values }
    }

    /// Column `i`, as `T`; a missing column or one of another type is an error naming it.
    pub fn get<I: RowIndex, T: FromSql>(&self, i: I) -> DbResult<T> {
        let i = i.index();
        let v = self
            .values
            .get(i)
            .ok_or_else(|| DbError(format!("the query has no column {i}")))?;
        T::from_sql(v).map_err(|e| DbError(format!("column {i}: {e}")))
    }
}

/// Why `query_row` gave no value: no row, or a failure.
#[derive(Debug)]
pub enum RowError {
    NoRow,
    Db(DbError),
}

impl From<DbError> for RowError {
    fn from(e: DbError) -> Self {
        RowError::Db(e)
    }
}

impl From<RowError> for DbError {
    fn from(e: RowError) -> Self {
        match e {
            RowError::NoRow => DbError("the query found no row".into()),
            RowError::Db(e) => e,
        }
    }
}

/// `query_row(…).optional()`: no row is `None`, not an error.
pub trait OptionalExtension<T> {
    fn optional(self) -> DbResult<Option<T>>;
}

impl<T> OptionalExtension<T> for Result<T, RowError> {
    fn optional(self) -> DbResult<Option<T>> {
        match self {
            Ok(v) => Ok(Some(v)),
            Err(RowError::NoRow) => Ok(None),
            Err(RowError::Db(e)) => Err(e),
        }
    }
}

/// A statement's parameters: `params![a, b]`, an array of one type (`[id]`) or none (`()`).
pub trait Params {
    fn with<R>(self, f: impl FnOnce(&[&dyn ToSql]) -> R) -> R;
}

impl Params for &[&dyn ToSql] {
    fn with<R>(self, f: impl FnOnce(&[&dyn ToSql]) -> R) -> R {
        f(self)
    }
}

impl Params for () {
    fn with<R>(self, f: impl FnOnce(&[&dyn ToSql]) -> R) -> R {
        f(&[])
    }
}

impl<T: ToSql, const N: usize> Params for [T; N] {
    fn with<R>(self, f: impl FnOnce(&[&dyn ToSql]) -> R) -> R {
        let refs: Vec<&dyn ToSql> = self.iter().map(|v| v as &dyn ToSql).collect();
        f(&refs)
    }
}

/// A statement's parameters of several types, as rusqlite's macro of the same name.
macro_rules! params {
    ($($x:expr),* $(,)?) => {
        &[$(&$x as &dyn $crate::store::sql::ToSql),*] as &[&dyn $crate::store::sql::ToSql]
    };
}
pub(crate) use params;

/// A statement to run more than once (rusqlite's `prepare`, kept for its shape).
pub struct Statement<'c> {
    conn: &'c Connection,
    sql: String,
}

impl Statement<'_> {
    /// Whether the query gives any row.
    pub fn exists<P: Params>(&mut self, params: P) -> DbResult<bool> {
        Ok(!params
            .with(|a| self.conn.query_raw(&self.sql, a))?
            .is_empty())
    }

    /// Runs the query and maps each row.
    pub fn query_map<T, P: Params>(
        &mut self,
        params: P,
        f: impl FnMut(&Row) -> DbResult<T>,
    ) -> DbResult<std::vec::IntoIter<DbResult<T>>> {
        let rows = params.with(|a| self.conn.query_raw(&self.sql, a))?;
        Ok(rows.iter().map(f).collect::<Vec<_>>().into_iter())
    }
}

impl Connection {
    /// Runs one statement; the rows it changed.
    pub fn execute<P: Params>(&self, sql: &str, params: P) -> DbResult<usize> {
        params.with(|a| self.exec_raw(sql, a))
    }

    /// Runs statements without parameters.
    pub fn execute_batch(&self, sql: &str) -> DbResult<()> {
        self.batch_raw(sql)
    }

    /// The first row of a query, mapped; no row is [`RowError::NoRow`].
    pub fn query_row<T, P: Params>(
        &self,
        sql: &str,
        params: P,
        f: impl FnOnce(&Row) -> DbResult<T>,
    ) -> Result<T, RowError> {
        let rows = params.with(|a| self.query_raw(sql, a))?;
        let row = rows.first().ok_or(RowError::NoRow)?;
        Ok(f(row)?)
    }

    /// A statement to run with [`Statement::query_map`].
    pub fn prepare(&self, sql: &str) -> DbResult<Statement<'_>> {
        Ok(Statement {
            conn: self,
            sql: sql.to_owned(),
        })
    }
}

fn int_of<T: TryInto<i64> + std::fmt::Display + Copy>(v: T) -> DbResult<SqlValue> {
    v.try_into()
        .map(SqlValue::Int)
        .map_err(|_| DbError(format!("{v} does not fit a stored integer")))
}

impl ToSql for i64 {
    fn to_sql(&self) -> DbResult<SqlValue> {
        Ok(SqlValue::Int(*self))
    }
}
impl ToSql for i32 {
    fn to_sql(&self) -> DbResult<SqlValue> {
        Ok(SqlValue::Int(i64::from(*self)))
    }
}
impl ToSql for u32 {
    fn to_sql(&self) -> DbResult<SqlValue> {
        Ok(SqlValue::Int(i64::from(*self)))
    }
}
impl ToSql for u64 {
    fn to_sql(&self) -> DbResult<SqlValue> {
        int_of(*self)
    }
}
impl ToSql for usize {
    fn to_sql(&self) -> DbResult<SqlValue> {
        int_of(*self)
    }
}
impl ToSql for bool {
    fn to_sql(&self) -> DbResult<SqlValue> {
        Ok(SqlValue::Int(i64::from(*self)))
    }
}
impl ToSql for f64 {
    fn to_sql(&self) -> DbResult<SqlValue> {
        Ok(SqlValue::Real(*self))
    }
}
impl ToSql for str {
    fn to_sql(&self) -> DbResult<SqlValue> {
        Ok(SqlValue::Text(self.to_owned()))
    }
}
impl ToSql for String {
    fn to_sql(&self) -> DbResult<SqlValue> {
        Ok(SqlValue::Text(self.clone()))
    }
}
impl<T: ToSql> ToSql for Option<T> {
    fn to_sql(&self) -> DbResult<SqlValue> {
        match self {
            Some(v) => v.to_sql(),
            None => Ok(SqlValue::Null),
        }
    }
}
impl<T: ToSql + ?Sized> ToSql for &T {
    fn to_sql(&self) -> DbResult<SqlValue> {
        (**self).to_sql()
    }
}

fn type_name(v: &SqlValue) -> &'static str {
    match v {
        SqlValue::Null => "null",
        SqlValue::Int(_) => "an integer",
        SqlValue::Real(_) => "a real number",
        SqlValue::Text(_) => "text",
    }
}

impl FromSql for i64 {
    fn from_sql(v: &SqlValue) -> Result<Self, String> {
        match v {
            SqlValue::Int(i) => Ok(*i),
            v => Err(format!("expected an integer, found {}", type_name(v))),
        }
    }
}
impl FromSql for i32 {
    fn from_sql(v: &SqlValue) -> Result<Self, String> {
        i32::try_from(i64::from_sql(v)?).map_err(|e| e.to_string())
    }
}
impl FromSql for u32 {
    fn from_sql(v: &SqlValue) -> Result<Self, String> {
        u32::try_from(i64::from_sql(v)?).map_err(|e| e.to_string())
    }
}
impl FromSql for u64 {
    fn from_sql(v: &SqlValue) -> Result<Self, String> {
        u64::try_from(i64::from_sql(v)?).map_err(|e| e.to_string())
    }
}
impl FromSql for usize {
    fn from_sql(v: &SqlValue) -> Result<Self, String> {
        usize::try_from(i64::from_sql(v)?).map_err(|e| e.to_string())
    }
}
impl FromSql for bool {
    fn from_sql(v: &SqlValue) -> Result<Self, String> {
        Ok(i64::from_sql(v)? != 0)
    }
}
impl FromSql for f64 {
    fn from_sql(v: &SqlValue) -> Result<Self, String> {
        match v {
            SqlValue::Real(x) => Ok(*x),
            SqlValue::Int(i) => Ok(*i as f64),
            v => Err(format!("expected a number, found {}", type_name(v))),
        }
    }
}
impl FromSql for String {
    fn from_sql(v: &SqlValue) -> Result<Self, String> {
        match v {
            SqlValue::Text(s) => Ok(s.clone()),
            v => Err(format!("expected text, found {}", type_name(v))),
        }
    }
}
impl<T: FromSql> FromSql for Option<T> {
    fn from_sql(v: &SqlValue) -> Result<Self, String> {
        match v {
            SqlValue::Null => Ok(None),
            v => T::from_sql(v).map(Some),
        }
    }
}

/// SQLite, through rusqlite.
impl Conn for rusqlite::Connection {
    fn exec_raw(&self, sql: &str, args: &[&dyn ToSql]) -> DbResult<usize> {
        let values = sqlite_values(args)?;
        let mut st = self.prepare_cached(sql)?;
        Ok(st.execute(rusqlite::params_from_iter(values))?)
    }

    fn query_raw(&self, sql: &str, args: &[&dyn ToSql]) -> DbResult<Vec<Row>> {
        use rusqlite::types::ValueRef;
        let values = sqlite_values(args)?;
        let mut st = self.prepare_cached(sql)?;
        let columns = st.column_count();
        let mut rows = st.query(rusqlite::params_from_iter(values))?;
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            let mut row = Vec::with_capacity(columns);
            for i in 0..columns {
                row.push(match r.get_ref(i)? {
                    ValueRef::Null => SqlValue::Null,
                    ValueRef::Integer(n) => SqlValue::Int(n),
                    ValueRef::Real(x) => SqlValue::Real(x),
                    ValueRef::Text(t) => SqlValue::Text(
                        std::str::from_utf8(t)
                            .map_err(|e| DbError(format!("column {i}: {e}")))?
                            .to_owned(),
                    ),
                    ValueRef::Blob(_) => {
                        return Err(DbError(format!("column {i}: a blob, never stored here")))
                    }
                });
            }
            out.push(Row::new(row));
        }
        Ok(out)
    }

    fn batch_raw(&self, sql: &str) -> DbResult<()> {
        Ok(self.execute_batch(sql)?)
    }

    fn begin(&self) -> DbResult<()> {
        Ok(self.execute_batch("BEGIN IMMEDIATE")?)
    }
}

fn sqlite_values(args: &[&dyn ToSql]) -> DbResult<Vec<rusqlite::types::Value>> {
    use rusqlite::types::Value;
    args.iter()
        .map(|a| {
            Ok(match a.to_sql()? {
                SqlValue::Null => Value::Null,
                SqlValue::Int(i) => Value::Integer(i),
                SqlValue::Real(x) => Value::Real(x),
                SqlValue::Text(s) => Value::Text(s),
            })
        })
        .collect()
}

/// `?N` parameters as PostgreSQL's `$N` (outside quoted text and identifiers).
pub fn dollar_params(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 8);
    let mut quote: Option<char> = None;
    let mut bare = 0;
    let mut chars = sql.chars().peekable();
    while let Some(ch) = chars.next() {
        match quote {
            Some(q) => {
                out.push(ch);
                if ch == q {
                    quote = None;
                }
            }
            None if ch == '\'' || ch == '"' => {
                quote = Some(ch);
                out.push(ch);
            }
            None if ch == '?' => {
                out.push('$');
                if chars.peek().is_some_and(|c| c.is_ascii_digit()) {
                    while let Some(d) = chars.next_if(|c| c.is_ascii_digit()) {
                        out.push(d);
                    }
                } else {
                    bare += 1;
                    out.push_str(&bare.to_string());
                }
            }
            None => out.push(ch),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn question_marks_become_dollars_outside_quotes() {
        assert_eq!(
            dollar_params("SELECT a FROM t WHERE b = ?2 AND c = '?1' AND d = ?1"),
            "SELECT a FROM t WHERE b = $2 AND c = '?1' AND d = $1"
        );
        assert_eq!(dollar_params("VALUES (?, ?)"), "VALUES ($1, $2)");
        assert_eq!(
            dollar_params(r#"SELECT "?x" FROM t"#),
            r#"SELECT "?x" FROM t"#
        );
    }

    #[test]
    fn sqlite_reads_and_writes_every_kind_of_value() {
        let c = rusqlite::Connection::open_in_memory().unwrap();
        let c: &Connection = &c;
        c.execute_batch("CREATE TABLE t (a INTEGER, b REAL, c TEXT, d INTEGER)")
            .unwrap();
        let none: Option<i64> = None;
        c.execute(
            "INSERT INTO t (a, b, c, d) VALUES (?1, ?2, ?3, ?4)",
            params![7_i64, 0.5_f64, "x", none],
        )
        .unwrap();
        let (a, b, s, d): (i64, f64, String, Option<i64>) = c
            .query_row("SELECT a, b, c, d FROM t", (), |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            })
            .unwrap();
        assert_eq!((a, b, s.as_str(), d), (7, 0.5, "x", None));
        let e = c
            .query_row("SELECT c FROM t", (), |r| r.get::<_, i64>(0))
            .unwrap_err();
        assert!(DbError::from(e)
            .0
            .contains("expected an integer, found text"));
        let missing = c
            .query_row("SELECT a FROM t WHERE a = ?1", [8_i64], |r| {
                r.get::<_, i64>(0)
            })
            .optional()
            .unwrap();
        assert_eq!(missing, None);
        assert!(u64::MAX.to_sql().is_err());
    }
}
