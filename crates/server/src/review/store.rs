//! What reviews store: each review made (`reviews`: the table, the seat, the document as
//! JSON text and when it was made), and what a review reads of its table: the finished
//! game as stored (rules, seats, seed, actions) and the seats accounts held.

use crate::store::{now, params, Db, DbError, DbResult, OptionalExtension};
use serde_json::Value;
use tapete_table::Seat;

/// A finished game as a review reads it from storage.
#[derive(Clone, Debug)]
pub struct ReviewSource {
    /// The game's name.
    pub game: String,
    pub rules: Value,
    pub seats: usize,
    pub seed: u64,
    /// Every action in order, with its seat.
    pub actions: Vec<(Seat, String)>,
}

impl Db {
    /// The stored review of `seat` at `table` (the document's JSON text), if made.
    pub async fn review(&self, table: String, seat: Seat) -> DbResult<Option<String>> {
        self.call(move |c| {
            c.query_row(
                "SELECT review FROM reviews WHERE table_id = ?1 AND seat = ?2",
                params![table, seat as i64],
                |r| r.get::<_, String>(0),
            )
            .optional()
        })
        .await
    }

    /// Whether the review of `seat` at `table` is stored (without reading it).
    pub async fn has_review(&self, table: String, seat: Seat) -> DbResult<bool> {
        self.call(move |c| {
            c.prepare("SELECT 1 FROM reviews WHERE table_id = ?1 AND seat = ?2")?
                .exists(params![table, seat as i64])
        })
        .await
    }

    /// Stores the review of `seat` at `table` (its document as JSON text); one made
    /// already (by another server, say) stays as it is.
    pub async fn store_review(&self, table: String, seat: Seat, review: String) -> DbResult<()> {
        self.call(move |c| {
            c.execute(
                "INSERT INTO reviews (table_id, seat, review, made_at) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (table_id, seat) DO NOTHING",
                params![table, seat as i64, review, now()],
            )?;
            Ok(())
        })
        .await
    }

    /// The finished game of `table` as stored, for its review; `None` when there is no
    /// such table or its game is not over.
    pub async fn review_source(&self, table: String) -> DbResult<Option<ReviewSource>> {
        self.call(move |c| {
            let Some((game, rules, seats, seed)) = c
                .query_row(
                    "SELECT game, rules, seats, seed FROM tables
                     WHERE id = ?1 AND status = 'finished'",
                    [&table],
                    |r| {
                        Ok((
                            r.get::<_, String>(0)?,
                            r.get::<_, String>(1)?,
                            r.get::<_, i64>(2)?,
                            r.get::<_, i64>(3)?,
                        ))
                    },
                )
                .optional()?
            else {
                return Ok(None);
            };
            let rules: Value = serde_json::from_str(&rules)
                .map_err(|e| DbError(format!("table {table}: its rules: {e}")))?;
            let seats = usize::try_from(seats)
                .map_err(|_| DbError(format!("table {table}: {seats} seats")))?;
            let actions = c
                .prepare("SELECT seat, action FROM actions WHERE table_id = ?1 ORDER BY n")?
                .query_map([&table], |r| {
                    Ok((r.get::<_, i64>(0)?.max(0) as Seat, r.get::<_, String>(1)?))
                })?
                .collect::<Result<_, _>>()?;
            Ok(Some(ReviewSource {
                game,
                rules,
                seats,
                seed: seed as u64,
                actions,
            }))
        })
        .await
    }

    /// The seats of a rated game that accounts held (its roster's people), in order.
    pub async fn account_seats(&self, table: String) -> DbResult<Vec<Seat>> {
        self.call(move |c| {
            c.prepare(
                "SELECT r.seat FROM rated_seats r JOIN accounts a ON a.player = r.player
                 WHERE r.table_id = ?1 ORDER BY r.seat",
            )?
            .query_map([&table], |r| Ok(r.get::<_, i64>(0)?.max(0) as Seat))?
            .collect::<Result<_, _>>()
        })
        .await
    }

    /// Rated games of `games` finished at or after `since` (seconds) in which a seat an
    /// account held has no review yet, the latest first, at most `limit`: the reviews a
    /// server that stopped had queued and not made.
    pub async fn unreviewed_rated(
        &self,
        games: Vec<String>,
        since: i64,
        limit: usize,
    ) -> DbResult<Vec<String>> {
        self.call(move |c| {
            let mut out = Vec::new();
            let mut rows = c.prepare(
                "SELECT t.id, t.game FROM tables t
                 WHERE t.rated = 1 AND t.status = 'finished' AND t.finished >= ?1
                   AND EXISTS (
                     SELECT 1 FROM rated_seats r JOIN accounts a ON a.player = r.player
                     WHERE r.table_id = t.id AND NOT EXISTS (
                       SELECT 1 FROM reviews v WHERE v.table_id = r.table_id AND v.seat = r.seat))
                 ORDER BY t.finished DESC, t.id LIMIT ?2",
            )?;
            let found = rows.query_map(params![since, limit as i64], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
            })?;
            for row in found {
                let (id, game) = row?;
                if games.contains(&game) {
                    out.push(id);
                }
            }
            Ok(out)
        })
        .await
    }

    /// Whether `player` ever held a seat at `table` (a private table's reviews are theirs).
    pub async fn sat_at(&self, table: String, player: i64) -> DbResult<bool> {
        self.call(move |c| {
            c.prepare("SELECT 1 FROM table_players WHERE table_id = ?1 AND player = ?2")?
                .exists(params![table, player])
        })
        .await
    }
}
