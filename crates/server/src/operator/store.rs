//! What the operator's work stores: suspensions, the log of operator actions, the screens'
//! flags, and the chat's reports as the operator reads them.

use super::*;
use crate::store::{params, Connection, Db, DbError, DbResult, OptionalExtension};
use serde_json::Value;
use std::collections::HashMap;

/// One line of the operator's log.
#[derive(Clone, Debug, Serialize)]
pub struct LogRow {
    pub id: i64,
    pub operator: PlayerRef,
    pub action: String,
    pub target: String,
    pub details: Value,
    pub at: i64,
}

/// A chat message someone reported, as the operator reads it.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub id: i64,
    pub table: String,
    /// The message's number in its table's chat.
    pub n: i64,
    /// `players` or `spectators`.
    pub channel: String,
    pub text: String,
    /// When it was written.
    pub written: i64,
    pub author: PlayerRef,
    pub reporter: PlayerRef,
    /// When it was reported.
    pub at: i64,
}

/// Writes a line of the operator's log, in the transaction of the action it tells.
pub(crate) fn insert_log(
    c: &Connection,
    operator: i64,
    action: &str,
    target: &str,
    details: &Value,
    at: i64,
) -> DbResult<()> {
    c.execute(
        "INSERT INTO operator_log (operator, action, target, details, at)
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![operator, action, target, details.to_string(), at],
    )?;
    Ok(())
}

/// A player's nickname, from `known` or the database (kept in `known`).
fn nickname(c: &Connection, known: &mut HashMap<i64, String>, id: i64) -> DbResult<PlayerRef> {
    if let Some(n) = known.get(&id) {
        return Ok(PlayerRef {
            id,
            nickname: n.clone(),
        });
    }
    let n: String = c
        .query_row("SELECT nickname FROM players WHERE id = ?1", [id], |r| {
            r.get(0)
        })
        .optional()?
        .unwrap_or_default();
    known.insert(id, n.clone());
    Ok(PlayerRef { id, nickname: n })
}

const SUSPENSION_COLUMNS: &str = "s.id, s.player, p.nickname, s.scope, s.reason, s.by_operator, \
     o.nickname, s.at, s.lifted_at, s.lifted_by";

fn suspension_of_row(c: &Connection, r: &crate::store::sql::Row) -> DbResult<Suspension> {
    let scope: String = r.get(3)?;
    let lifted_by: Option<i64> = r.get(9)?;
    let lifted_by = match lifted_by {
        Some(id) => Some(nickname(c, &mut HashMap::new(), id)?),
        None => None,
    };
    Ok(Suspension {
        id: r.get(0)?,
        player: PlayerRef {
            id: r.get(1)?,
            nickname: r.get(2)?,
        },
        scope: Scope::parse(&scope)
            .ok_or_else(|| DbError(format!("`{scope}` is not a suspension's scope")))?,
        reason: r.get(4)?,
        by: PlayerRef {
            id: r.get(5)?,
            nickname: r.get(6)?,
        },
        at: r.get(7)?,
        lifted_at: r.get(8)?,
        lifted_by,
    })
}

fn read_suspension(c: &Connection, id: i64) -> DbResult<Option<Suspension>> {
    let rows = c.query_raw(
        &format!(
            "SELECT {SUSPENSION_COLUMNS} FROM suspensions s
             JOIN players p ON p.id = s.player JOIN players o ON o.id = s.by_operator
             WHERE s.id = ?1"
        ),
        params![id],
    )?;
    rows.first().map(|r| suspension_of_row(c, r)).transpose()
}

const FLAG_COLUMNS: &str = "id, game, players, kind, statistic, evidence, created, status, note, \
     decided_by, decided_at";

fn flag_of_row(
    c: &Connection,
    known: &mut HashMap<i64, String>,
    r: &crate::store::sql::Row,
) -> DbResult<Flag> {
    let bad = |what: &str, e: String| DbError(format!("a stored flag's {what}: {e}"));
    let ids: Vec<i64> =
        serde_json::from_str(&r.get::<_, String>(2)?).map_err(|e| bad("players", e.to_string()))?;
    let kind: String = r.get(3)?;
    let status: String = r.get(7)?;
    let decided_by: Option<i64> = r.get(9)?;
    Ok(Flag {
        id: r.get(0)?,
        game: r.get(1)?,
        players: ids
            .iter()
            .map(|id| nickname(c, known, *id))
            .collect::<DbResult<_>>()?,
        kind: FlagKind::parse(&kind).ok_or_else(|| bad("kind", kind.clone()))?,
        statistic: serde_json::from_str(&r.get::<_, String>(4)?)
            .map_err(|e| bad("statistic", e.to_string()))?,
        evidence: serde_json::from_str(&r.get::<_, String>(5)?)
            .map_err(|e| bad("evidence", e.to_string()))?,
        created: r.get(6)?,
        status: FlagStatus::parse(&status).ok_or_else(|| bad("status", status.clone()))?,
        note: r.get(8)?,
        decided_by: match decided_by {
            Some(id) => Some(nickname(c, known, id)?),
            None => None,
        },
        decided_at: r.get(10)?,
    })
}

/// The offset of page `page` (from 1) of [`PAGE`] rows.
fn offset(page: usize) -> i64 {
    (page.saturating_sub(1) * PAGE) as i64
}

impl Db {
    /// The suspension in force that keeps `player` from the most: one from the whole site
    /// before one from rated play, the newest first; none when nothing is in force.
    pub async fn suspension_of(&self, player: i64) -> DbResult<Option<Suspension>> {
        self.call(move |c| {
            let id: Option<i64> = c
                .query_row(
                    "SELECT id FROM suspensions WHERE player = ?1 AND lifted_at IS NULL
                     ORDER BY CASE scope WHEN 'site' THEN 0 ELSE 1 END, id DESC LIMIT 1",
                    [player],
                    |r| r.get(0),
                )
                .optional()?;
            match id {
                Some(id) => read_suspension(c, id),
                None => Ok(None),
            }
        })
        .await
    }

    /// Suspends `player` from `scope` for `reason`, by `operator`, and logs it: the new
    /// suspension.
    pub async fn suspend(
        &self,
        player: i64,
        scope: Scope,
        reason: String,
        operator: i64,
    ) -> DbResult<Suspension> {
        let at = self.clock().epoch();
        self.call(move |c| {
            let id: i64 = c.query_row(
                "INSERT INTO suspensions (player, scope, reason, by_operator, at)
                 VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id",
                params![player, scope.as_str(), reason, operator, at],
                |r| r.get(0),
            )?;
            let details = serde_json::json!({"suspension": id, "scope": scope, "reason": reason});
            insert_log(c, operator, "suspend", &player.to_string(), &details, at)?;
            read_suspension(c, id)?
                .ok_or_else(|| DbError(format!("suspension {id} was not stored")))
        })
        .await
    }

    /// Lifts the suspension `id` if it is in force, by `operator`, and logs it; `None`
    /// when there is no such suspension in force (nothing is logged then).
    pub async fn lift_suspension(&self, id: i64, operator: i64) -> DbResult<Option<Suspension>> {
        let at = self.clock().epoch();
        self.call(move |c| {
            let lifted = c.execute(
                "UPDATE suspensions SET lifted_at = ?1, lifted_by = ?2
                 WHERE id = ?3 AND lifted_at IS NULL",
                params![at, operator, id],
            )?;
            if lifted == 0 {
                return Ok(None);
            }
            let s = read_suspension(c, id)?;
            if let Some(s) = &s {
                let details = serde_json::json!({"suspension": id, "scope": s.scope});
                insert_log(c, operator, "lift", &s.player.id.to_string(), &details, at)?;
            }
            Ok(s)
        })
        .await
    }

    /// Page `page` of the suspensions: those in force first, then the lifted, each newest
    /// first.
    pub async fn suspensions(&self, page: usize) -> DbResult<Vec<Suspension>> {
        self.call(move |c| {
            let rows = c.query_raw(
                &format!(
                    "SELECT {SUSPENSION_COLUMNS} FROM suspensions s
                     JOIN players p ON p.id = s.player JOIN players o ON o.id = s.by_operator
                     ORDER BY CASE WHEN s.lifted_at IS NULL THEN 0 ELSE 1 END, s.id DESC
                     LIMIT ?1 OFFSET ?2"
                ),
                params![PAGE as i64, offset(page)],
            )?;
            rows.iter().map(|r| suspension_of_row(c, r)).collect()
        })
        .await
    }

    /// Writes a line of the operator's log: `operator` did `action` to `target`.
    pub async fn log_operator(
        &self,
        operator: i64,
        action: &'static str,
        target: String,
        details: Value,
    ) -> DbResult<()> {
        let at = self.clock().epoch();
        self.call(move |c| insert_log(c, operator, action, &target, &details, at))
            .await
    }

    /// Writes that `operator` read step `step` of table `table`'s replay, unless their
    /// last line already tells a read of that table's replay (a replay is read a step at a
    /// time: one line, not one a step).
    pub async fn log_replay_step(&self, operator: i64, table: String, step: usize) -> DbResult<()> {
        let at = self.clock().epoch();
        self.call(move |c| {
            let last: Option<(String, String)> = c
                .query_row(
                    "SELECT action, target FROM operator_log WHERE operator = ?1
                     ORDER BY id DESC LIMIT 1",
                    [operator],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()?;
            if last.is_some_and(|(a, t)| a.starts_with("replay") && t == table) {
                return Ok(());
            }
            let details = serde_json::json!({"step": step});
            insert_log(c, operator, "replay_step", &table, &details, at)
        })
        .await
    }

    /// Page `page` of the operator's log, newest first.
    pub async fn operator_log(&self, page: usize) -> DbResult<Vec<LogRow>> {
        self.call(move |c| {
            let mut st = c.prepare(
                "SELECT l.id, l.operator, p.nickname, l.action, l.target, l.details, l.at
                 FROM operator_log l JOIN players p ON p.id = l.operator
                 ORDER BY l.id DESC LIMIT ?1 OFFSET ?2",
            )?;
            let rows = st
                .query_map(params![PAGE as i64, offset(page)], |r| {
                    Ok(LogRow {
                        id: r.get(0)?,
                        operator: PlayerRef {
                            id: r.get(1)?,
                            nickname: r.get(2)?,
                        },
                        action: r.get(3)?,
                        target: r.get(4)?,
                        details: serde_json::from_str(&r.get::<_, String>(5)?)
                            .unwrap_or(Value::Null),
                        at: r.get(6)?,
                    })
                })?
                .collect::<DbResult<Vec<_>>>()?;
            Ok(rows)
        })
        .await
    }

    /// Stores the flags a screen raised, each bounded ([`NewFlag::bounded`]); the ids of
    /// those stored, in their order (`None`: not stored). A flag replaces the open flags of
    /// the same game, players and kind. One whose game, players and kind an operator has
    /// judged already (dismissed, or acted on) is stored only if its z is larger than the
    /// largest of those judged: a dismissed flag is not raised again by the same evidence.
    /// A flag that is no flag (see [`NewFlag::bounded`]) is an error naming it, and nothing
    /// is stored; so are more than [`MAX_FLAGS_AT_ONCE`] at once.
    pub async fn store_flags(&self, flags: Vec<NewFlag>) -> DbResult<Vec<Option<i64>>> {
        if flags.len() > MAX_FLAGS_AT_ONCE {
            return Err(DbError(format!(
                "{} flags at once: at most {MAX_FLAGS_AT_ONCE}",
                flags.len()
            )));
        }
        let flags = flags
            .into_iter()
            .enumerate()
            .map(|(i, f)| f.bounded().map_err(|e| DbError(format!("flag {i}: {e}"))))
            .collect::<DbResult<Vec<NewFlag>>>()?;
        let at = self.clock().epoch();
        self.call(move |c| {
            let mut ids = Vec::with_capacity(flags.len());
            for f in flags {
                let players = f.players_key();
                let kind = f.kind.as_str();
                let judged: Vec<String> = c
                    .prepare(
                        "SELECT statistic FROM flags WHERE game = ?1 AND players = ?2
                         AND kind = ?3 AND status != 'open'",
                    )?
                    .query_map(params![f.game, players, kind], |r| r.get(0))?
                    .collect::<DbResult<_>>()?;
                let judged_z = judged
                    .iter()
                    .filter_map(|s| serde_json::from_str::<Statistic>(s).ok())
                    .map(|s| s.z)
                    .fold(None, |m: Option<f64>, z| Some(m.map_or(z, |m| m.max(z))));
                if judged_z.is_some_and(|z| f.statistic.z <= z) {
                    ids.push(None);
                    continue;
                }
                c.execute(
                    "DELETE FROM flags WHERE game = ?1 AND players = ?2 AND kind = ?3
                     AND status = 'open'",
                    params![f.game, players, kind],
                )?;
                let statistic = serde_json::to_string(&f.statistic)
                    .map_err(|e| DbError(format!("a flag's statistic: {e}")))?;
                let evidence = serde_json::to_string(&f.evidence)
                    .map_err(|e| DbError(format!("a flag's evidence: {e}")))?;
                let id: i64 = c.query_row(
                    "INSERT INTO flags (game, players, kind, statistic, evidence, created, status)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'open') RETURNING id",
                    params![f.game, players, kind, statistic, evidence, at],
                    |r| r.get(0),
                )?;
                ids.push(Some(id));
            }
            Ok(ids)
        })
        .await
    }

    /// Page `page` of the flags: the open ones first, then the others, each newest first.
    pub async fn flags(&self, page: usize) -> DbResult<Vec<Flag>> {
        self.call(move |c| {
            let rows = c.query_raw(
                &format!(
                    "SELECT {FLAG_COLUMNS} FROM flags
                     ORDER BY CASE WHEN status = 'open' THEN 0 ELSE 1 END, id DESC
                     LIMIT ?1 OFFSET ?2"
                ),
                params![PAGE as i64, offset(page)],
            )?;
            let mut known = HashMap::new();
            rows.iter().map(|r| flag_of_row(c, &mut known, r)).collect()
        })
        .await
    }

    /// Sets flag `id`'s status with the operator's note, and logs it; `None` when there is
    /// no such flag (nothing is logged then).
    pub async fn judge_flag(
        &self,
        id: i64,
        status: FlagStatus,
        note: String,
        operator: i64,
    ) -> DbResult<Option<Flag>> {
        let at = self.clock().epoch();
        self.call(move |c| {
            let (by, when) = match status {
                FlagStatus::Open => (None, None),
                _ => (Some(operator), Some(at)),
            };
            let note = Some(note).filter(|n| !n.is_empty());
            let changed = c.execute(
                "UPDATE flags SET status = ?1, note = ?2, decided_by = ?3, decided_at = ?4
                 WHERE id = ?5",
                params![status.as_str(), note.clone(), by, when, id],
            )?;
            if changed == 0 {
                return Ok(None);
            }
            let details = serde_json::json!({"status": status, "note": note});
            insert_log(c, operator, "judge_flag", &id.to_string(), &details, at)?;
            let rows = c.query_raw(
                &format!("SELECT {FLAG_COLUMNS} FROM flags WHERE id = ?1"),
                params![id],
            )?;
            rows.first()
                .map(|r| flag_of_row(c, &mut HashMap::new(), r))
                .transpose()
        })
        .await
    }

    /// Page `page` of the chat's reports, newest first: the message, who wrote it, who
    /// reported it, its table and when.
    pub async fn chat_reports(&self, page: usize) -> DbResult<Vec<Report>> {
        self.call(move |c| {
            let mut st = c.prepare(
                "SELECT r.id, r.table_id, r.n, r.channel, r.text, r.written, r.author,
                        r.author_nickname, r.reporter, p.nickname, r.at
                 FROM reports r JOIN players p ON p.id = r.reporter
                 ORDER BY r.id DESC LIMIT ?1 OFFSET ?2",
            )?;
            let rows = st
                .query_map(params![PAGE as i64, offset(page)], |r| {
                    Ok(Report {
                        id: r.get(0)?,
                        table: r.get(1)?,
                        n: r.get(2)?,
                        channel: r.get(3)?,
                        text: r.get(4)?,
                        written: r.get(5)?,
                        author: PlayerRef {
                            id: r.get(6)?,
                            nickname: r.get(7)?,
                        },
                        reporter: PlayerRef {
                            id: r.get(8)?,
                            nickname: r.get(9)?,
                        },
                        at: r.get(10)?,
                    })
                })?
                .collect::<DbResult<Vec<_>>>()?;
            Ok(rows)
        })
        .await
    }
}
