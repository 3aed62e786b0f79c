//! What cuadrillas store: the cuadrilla (name, owner, invitation secret, weekly slot and
//! the start last told), its members, and which tables are its (`tables.cuadrilla`).

use super::*;
use crate::store::{params, Connection, Db, DbResult, OptionalExtension};

/// A cuadrilla as stored.
#[derive(Clone, Debug)]
pub struct CuadrillaRow {
    pub id: String,
    pub name: String,
    pub owner: i64,
    pub invite: String,
    pub created: i64,
    pub slot: Option<Slot>,
    /// The slot's start last told to the members (seconds since the epoch).
    pub noticed: i64,
}

/// A member: the person, and when they joined.
#[derive(Clone, Debug, Serialize)]
pub struct Member {
    pub id: i64,
    pub nickname: String,
    pub joined: i64,
}

/// A member's rating in one game, as profiles show it.
#[derive(Clone, Debug, Serialize)]
pub struct MemberRating {
    #[serde(skip)]
    pub player: i64,
    pub game: String,
    pub rating: i64,
    pub deviation: i64,
    pub provisional: bool,
    pub played: i64,
}

/// One table of a cuadrilla: its game, status, times, seats (the person at each at the
/// end, `None` for the bot) and outcome.
#[derive(Clone, Debug)]
pub struct PlayedTable {
    pub id: String,
    pub game: String,
    pub status: String,
    pub created: i64,
    pub finished: Option<i64>,
    pub outcome: Option<Value>,
    pub seats: Vec<Option<(i64, String)>>,
}

const CUADRILLA_COLUMNS: &str =
    "id, name, owner, invite, created, slot_minute, slot_offset, slot_noticed";

fn row_of(r: &crate::store::sql::Row) -> DbResult<CuadrillaRow> {
    let minute: Option<i64> = r.get(5)?;
    let offset: i64 = r.get(6)?;
    Ok(CuadrillaRow {
        id: r.get(0)?,
        name: r.get(1)?,
        owner: r.get(2)?,
        invite: r.get(3)?,
        created: r.get(4)?,
        slot: minute.map(|m| Slot {
            minute: m.rem_euclid(WEEK_MINUTES),
            offset,
        }),
        noticed: r.get(7)?,
    })
}

fn memberships(c: &Connection, player: i64) -> DbResult<usize> {
    Ok(c.query_row(
        "SELECT count(*) FROM cuadrilla_members WHERE player = ?1",
        [player],
        |r| r.get::<_, i64>(0),
    )?
    .max(0) as usize)
}

fn members_of(c: &Connection, id: &str) -> DbResult<Vec<Member>> {
    let mut st = c.prepare(
        "SELECT m.player, p.nickname, m.joined FROM cuadrilla_members m
         JOIN players p ON p.id = m.player WHERE m.cuadrilla = ?1 ORDER BY m.joined, m.player",
    )?;
    let rows = st
        .query_map([id], |r| {
            Ok(Member {
                id: r.get(0)?,
                nickname: r.get(1)?,
                joined: r.get(2)?,
            })
        })?
        .collect::<Result<_, _>>()?;
    Ok(rows)
}

/// What joining asked for came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Joined {
    /// A member now.
    Joined,
    /// A member already: nothing changed.
    Already,
    /// The cuadrilla has [`MAX_MEMBERS`].
    Full,
    /// The person belongs to [`MAX_PER_PERSON`] cuadrillas.
    TooMany,
}

impl Db {
    /// Stores a new cuadrilla with its owner as its first member, unless the owner belongs
    /// to [`MAX_PER_PERSON`] already (`false`: nothing stored).
    pub async fn create_cuadrilla(&self, row: CuadrillaRow) -> DbResult<bool> {
        self.call(move |c| {
            if memberships(c, row.owner)? >= MAX_PER_PERSON {
                return Ok(false);
            }
            c.execute(
                "INSERT INTO cuadrillas (id, name, owner, invite, created, slot_minute,
                 slot_offset, slot_noticed) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![
                    row.id,
                    row.name,
                    row.owner,
                    row.invite,
                    row.created,
                    row.slot.map(|s| s.minute),
                    row.slot.map_or(0, |s| s.offset),
                    row.noticed
                ],
            )?;
            c.execute(
                "INSERT INTO cuadrilla_members (cuadrilla, player, joined) VALUES (?1, ?2, ?3)",
                params![row.id, row.owner, row.created],
            )?;
            Ok(true)
        })
        .await
    }

    /// A cuadrilla by its id.
    pub async fn cuadrilla(&self, id: String) -> DbResult<Option<CuadrillaRow>> {
        self.call(move |c| {
            c.query_row(
                &format!("SELECT {CUADRILLA_COLUMNS} FROM cuadrillas WHERE id = ?1"),
                [id],
                row_of,
            )
            .optional()
        })
        .await
    }

    /// A cuadrilla's members, the earliest first.
    pub async fn cuadrilla_members(&self, id: String) -> DbResult<Vec<Member>> {
        self.call(move |c| members_of(c, &id)).await
    }

    /// Whether `player` is a member of `id`.
    pub async fn is_member(&self, id: String, player: i64) -> DbResult<bool> {
        self.call(move |c| {
            Ok(c.query_row(
                "SELECT 1 FROM cuadrilla_members WHERE cuadrilla = ?1 AND player = ?2",
                params![id, player],
                |_| Ok(()),
            )
            .optional()?
            .is_some())
        })
        .await
    }

    /// `player` joins `id`, within the bounds; a person joining a cuadrilla nobody is left
    /// in becomes its owner.
    pub async fn join_cuadrilla(&self, id: String, player: i64, at: i64) -> DbResult<Joined> {
        self.call(move |c| {
            let members = members_of(c, &id)?;
            if members.iter().any(|m| m.id == player) {
                return Ok(Joined::Already);
            }
            if members.len() >= MAX_MEMBERS {
                return Ok(Joined::Full);
            }
            if memberships(c, player)? >= MAX_PER_PERSON {
                return Ok(Joined::TooMany);
            }
            c.execute(
                "INSERT INTO cuadrilla_members (cuadrilla, player, joined) VALUES (?1, ?2, ?3)",
                params![id, player, at],
            )?;
            if members.is_empty() {
                c.execute(
                    "UPDATE cuadrillas SET owner = ?2 WHERE id = ?1",
                    params![id, player],
                )?;
            }
            Ok(Joined::Joined)
        })
        .await
    }

    /// `player` is a member of `id` no more (`false`: they were not one). An owner who
    /// leaves hands the cuadrilla to the member who joined first. `new_invite` replaces
    /// the invitation secret (the owner removed someone: the old link no longer lets them
    /// back in).
    pub async fn leave_cuadrilla(
        &self,
        id: String,
        player: i64,
        new_invite: Option<String>,
    ) -> DbResult<bool> {
        self.call(move |c| {
            let gone = c.execute(
                "DELETE FROM cuadrilla_members WHERE cuadrilla = ?1 AND player = ?2",
                params![id, player],
            )?;
            if gone == 0 {
                return Ok(false);
            }
            if let Some(next) = members_of(c, &id)?.first() {
                c.execute(
                    "UPDATE cuadrillas SET owner = ?2 WHERE id = ?1 AND owner = ?3",
                    params![id, next.id, player],
                )?;
            }
            if let Some(invite) = new_invite {
                c.execute(
                    "UPDATE cuadrillas SET invite = ?2 WHERE id = ?1",
                    params![id, invite],
                )?;
            }
            Ok(true)
        })
        .await
    }

    /// A new name and slot for `id` (`None`: unchanged; a slot `Some(None)`: none). A new
    /// slot counts as told up to `noticed`, so one that began a minute ago is not rung.
    pub async fn update_cuadrilla(
        &self,
        id: String,
        name: Option<String>,
        slot: Option<Option<Slot>>,
        noticed: i64,
    ) -> DbResult<()> {
        self.call(move |c| {
            if let Some(name) = name {
                c.execute(
                    "UPDATE cuadrillas SET name = ?2 WHERE id = ?1",
                    params![id, name],
                )?;
            }
            if let Some(slot) = slot {
                c.execute(
                    "UPDATE cuadrillas SET slot_minute = ?2, slot_offset = ?3, slot_noticed = ?4
                     WHERE id = ?1",
                    params![
                        id,
                        slot.map(|s| s.minute),
                        slot.map_or(0, |s| s.offset),
                        noticed
                    ],
                )?;
            }
            Ok(())
        })
        .await
    }

    /// The cuadrillas `player` belongs to, with how many members each has, by name.
    pub async fn cuadrillas_of(&self, player: i64) -> DbResult<Vec<(CuadrillaRow, usize)>> {
        self.call(move |c| {
            let rows = c.query_raw(
                &format!(
                    "SELECT {CUADRILLA_COLUMNS}, (SELECT count(*) FROM cuadrilla_members n
                       WHERE n.cuadrilla = cuadrillas.id)
                     FROM cuadrillas WHERE id IN
                       (SELECT cuadrilla FROM cuadrilla_members WHERE player = ?1)
                     ORDER BY name, id"
                ),
                &[&player],
            )?;
            rows.iter()
                .map(|r| Ok((row_of(r)?, r.get::<_, i64>(8)?.max(0) as usize)))
                .collect()
        })
        .await
    }

    /// Every cuadrilla with a slot: its id, name, slot and the start last told.
    pub async fn slotted_cuadrillas(&self) -> DbResult<Vec<(String, String, Slot, i64)>> {
        self.call(move |c| {
            let rows = c.query_raw(
                &format!(
                    "SELECT {CUADRILLA_COLUMNS} FROM cuadrillas WHERE slot_minute IS NOT NULL"
                ),
                &[],
            )?;
            let mut out = Vec::new();
            for r in &rows {
                let row = row_of(r)?;
                if let Some(slot) = row.slot {
                    out.push((row.id, row.name, slot, row.noticed));
                }
            }
            Ok(out)
        })
        .await
    }

    /// Claims the telling of `id`'s slot that began at `start`: moves `slot_noticed` to it
    /// if it was before, in one statement, so of several servers only one succeeds. The
    /// members to tell (`None`: told already, or no such cuadrilla).
    pub async fn claim_slot(&self, id: String, start: i64) -> DbResult<Option<Vec<i64>>> {
        self.call(move |c| {
            let moved = c.execute(
                "UPDATE cuadrillas SET slot_noticed = ?2
                 WHERE id = ?1 AND slot_noticed < ?2 AND slot_minute IS NOT NULL",
                params![id, start],
            )?;
            if moved == 0 {
                return Ok(None);
            }
            Ok(Some(
                members_of(c, &id)?.into_iter().map(|m| m.id).collect(),
            ))
        })
        .await
    }

    /// The members' ratings, each game of each member.
    pub async fn member_ratings(&self, id: String) -> DbResult<Vec<MemberRating>> {
        self.call(move |c| {
            let rows = c.query_raw(
                "SELECT r.player, r.game, r.mu, r.sigma, r.games FROM ratings r
                 JOIN cuadrilla_members m ON m.player = r.player
                 WHERE m.cuadrilla = ?1 ORDER BY r.player, r.games DESC, r.game",
                &[&id],
            )?;
            rows.iter()
                .map(|r| {
                    let played: i64 = r.get(4)?;
                    Ok(MemberRating {
                        player: r.get(0)?,
                        game: r.get(1)?,
                        rating: crate::ratings::shown(r.get(2)?),
                        deviation: crate::ratings::shown(r.get(3)?),
                        provisional: played < crate::ratings::PROVISIONAL_GAMES,
                        played,
                    })
                })
                .collect()
        })
        .await
    }

    /// The tables of cuadrilla `id`: every one not finished, and the latest `finished`
    /// finished ones (newest first).
    pub async fn cuadrilla_tables(
        &self,
        id: String,
        finished: usize,
    ) -> DbResult<Vec<PlayedTable>> {
        self.call(move |c| {
            let rows = c.query_raw(
                "SELECT t.id, t.game, t.status, t.created, t.finished, t.outcome, t.seats,
                        s.seat, s.player, p.nickname
                 FROM tables t JOIN seats s ON s.table_id = t.id
                 LEFT JOIN players p ON p.id = s.player
                 WHERE t.id IN (SELECT id FROM tables WHERE cuadrilla = ?1 AND status != 'finished')
                    OR t.id IN (SELECT id FROM tables WHERE cuadrilla = ?1 AND status = 'finished'
                                ORDER BY finished DESC, id LIMIT ?2)
                 ORDER BY t.status = 'finished', t.finished DESC, t.created DESC, t.id, s.seat",
                &[&id, &(finished as i64)],
            )?;
            let mut out: Vec<PlayedTable> = Vec::new();
            for r in &rows {
                let table: String = r.get(0)?;
                if out.last().is_none_or(|t| t.id != table) {
                    let outcome: Option<String> = r.get(5)?;
                    let seats = usize::try_from(r.get::<_, i64>(6)?)
                        .map_err(|_| crate::store::DbError(format!("table {table}: seats")))?;
                    out.push(PlayedTable {
                        id: table,
                        game: r.get(1)?,
                        status: r.get(2)?,
                        created: r.get(3)?,
                        finished: r.get(4)?,
                        outcome: outcome.and_then(|o| serde_json::from_str(&o).ok()),
                        seats: vec![None; seats],
                    });
                }
                let Some(t) = out.last_mut() else { continue };
                let seat: i64 = r.get(7)?;
                let player: Option<i64> = r.get(8)?;
                let nickname: Option<String> = r.get(9)?;
                if let (Ok(s), Some(p), Some(n)) = (usize::try_from(seat), player, nickname) {
                    if let Some(slot) = t.seats.get_mut(s) {
                        *slot = Some((p, n));
                    }
                }
            }
            Ok(out)
        })
        .await
    }
}
