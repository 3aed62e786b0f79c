//! What notices store: one row a notice, the newest [`KEPT`] per person.

use super::*;
use crate::store::{params, Db, DbResult};

impl Db {
    /// Stores a notice for `player` and forgets their notices beyond the newest [`KEPT`].
    pub async fn add_notice(&self, player: i64, notice: Notice) -> DbResult<i64> {
        let at = self.clock().epoch();
        let kind = serde_json::to_value(notice.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        let body = serde_json::json!({ "url": notice.url, "args": notice.args }).to_string();
        self.call(move |c| {
            let id: i64 = c.query_row(
                "INSERT INTO notices (player, kind, body, at) VALUES (?1, ?2, ?3, ?4)
                 RETURNING id",
                params![player, kind, body, at],
                |r| r.get(0),
            )?;
            c.execute(
                "DELETE FROM notices WHERE player = ?1 AND id NOT IN
                 (SELECT id FROM notices WHERE player = ?1 ORDER BY id DESC LIMIT ?2)",
                params![player, KEPT as i64],
            )?;
            Ok(id)
        })
        .await
    }

    /// `player`'s notices newer than `after`, oldest first.
    pub async fn notices_of(&self, player: i64, after: i64) -> DbResult<Vec<StoredNotice>> {
        self.call(move |c| {
            let mut st = c.prepare(
                "SELECT id, kind, body, at FROM notices WHERE player = ?1 AND id > ?2
                 ORDER BY id LIMIT ?3",
            )?;
            let rows = st
                .query_map(params![player, after, KEPT as i64], |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, i64>(3)?,
                    ))
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows
                .into_iter()
                .filter_map(|(id, kind, body, at)| {
                    let mut v: Value = serde_json::from_str(&body).ok()?;
                    v.as_object_mut()?
                        .insert("kind".into(), Value::String(kind));
                    let notice: Notice = serde_json::from_value(v).ok()?;
                    Some(StoredNotice { id, at, notice })
                })
                .collect())
        })
        .await
    }
}
