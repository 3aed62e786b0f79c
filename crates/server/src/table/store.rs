//! What a table stores: its row (game, seats, rules, seed, status, outcome), who sits
//! where, who held which seat this hand, and its action log; a finished rated table is
//! rated in the transaction that finishes it.

use crate::store::{lease, params, sql, Connection, Db, DbError, DbResult, OptionalExtension};
use serde_json::Value;

/// Statements that start a table's hand memory again: only the people seated now have
/// seen a seat of the new hand. `?1` is the table.
pub(crate) const NEW_HAND_SEATS: &str = "DELETE FROM hand_seats WHERE table_id = ?1";

pub(crate) const SEATED_HAND_SEATS: &str = "INSERT INTO hand_seats (table_id, player, seat)
    SELECT table_id, player, seat FROM seats WHERE table_id = ?1 AND player IS NOT NULL
    ON CONFLICT (table_id, player) DO UPDATE SET seat = excluded.seat";

/// A table as stored.
#[derive(Clone, Debug)]
pub struct TableRow {
    pub id: String,
    pub game: String,
    /// How many seats the table has (within its game's range).
    pub seats: usize,
    pub rules: Value,
    pub seed: u64,
    pub creator: Option<i64>,
    pub bot: String,
    pub pace_ms: u64,
    pub status: super::TableStatus,
    pub created: i64,
    pub finished: Option<i64>,
    pub outcome: Option<Value>,
    /// Seconds a person may be gone on their turn before the table's bot plays for them.
    pub away_s: u64,
    /// Seconds the end of a hand is held for people to read before the bots go on.
    pub hold_s: u64,
    /// Seconds a connected person has for each turn before the table's bot plays it
    /// (0: no clock).
    pub turn_s: u64,
    /// Whether the game is rated: only accounts sit, and its result moves every seat's
    /// rating (see [`crate::ratings`]).
    pub rated: bool,
    /// Its committed deal (tables made before deals were committed have none).
    pub deal: Option<Deal>,
}

/// A table's committed deal (see [`tapete_table::fair`]): the secret its seed is made from,
/// whether other tables share it (a duplicate round's tables: the seed is the round's, and
/// nobody contributes), and each seat's contribution once the game has started.
#[derive(Clone, PartialEq, Eq)]
pub struct Deal {
    pub secret: String,
    pub shared: bool,
    pub contributions: Option<Vec<String>>,
    /// The secret's commitment, made once: every description of the table shows it.
    commitment: String,
}

impl std::fmt::Debug for Deal {
    /// The secret is never written to a log.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Deal")
            .field("shared", &self.shared)
            .field("contributions", &self.contributions)
            .finish_non_exhaustive()
    }
}

impl Deal {
    /// A new table's: a fresh secret, contributions to come.
    pub fn new() -> Deal {
        Deal::stored(tapete_table::fair::new_secret(), false, None)
    }

    /// A duplicate round's table: the round's secret, shared with its other tables.
    pub fn shared(secret: String) -> Deal {
        Deal::stored(secret, true, None)
    }

    /// A deal as stored: its secret, whether it is shared, its contributions.
    pub fn stored(secret: String, shared: bool, contributions: Option<Vec<String>>) -> Deal {
        let commitment = tapete_table::fair::commitment(&secret).unwrap_or_default();
        Deal {
            secret,
            shared,
            contributions,
            commitment,
        }
    }

    /// What may be shown of it for a table dealt from `seed`: the commitment always; the
    /// contributions once fixed; the secret and the seed when `revealed`.
    pub fn shown(&self, seed: u64, revealed: bool) -> tapete_table::fair::Fairness {
        tapete_table::fair::Fairness {
            commitment: self.commitment.clone(),
            contributions: self.contributions.clone(),
            secret: revealed.then(|| self.secret.clone()),
            seed: revealed.then_some(seed),
        }
    }
}

impl Default for Deal {
    fn default() -> Deal {
        Deal::new()
    }
}

/// A stored table with its seats (player ids) and its action log.
#[derive(Clone, Debug)]
pub struct StoredTable {
    pub row: TableRow,
    pub seats: Vec<Option<(i64, String)>>,
    pub actions: Vec<(usize, String)>,
    /// Seats asked for mid-hand and not yet granted: (player, nickname, seat).
    pub pending: Vec<(i64, String, usize)>,
    /// The seat each person has held during the hand under way: (player, seat). They
    /// have seen its cards, so no other seat of this hand may be theirs.
    pub hand_seats: Vec<(i64, usize)>,
    /// Privacy, kept seats and rematch (private tables).
    pub private: PrivateRow,
    /// What each person sitting here before the start contributed to the deal: (player,
    /// 32 hexadecimal digits).
    pub contributions: Vec<(i64, String)>,
}

/// A finished game as `tapete screen` reads it: its options, seed and actions, and who
/// held each seat at the end (`None` where only bots played).
#[derive(Clone, Debug)]
pub struct FinishedGame {
    pub table: String,
    pub game: String,
    pub rules: Value,
    pub seats: usize,
    pub seed: u64,
    pub rated: bool,
    /// The table's bot level, which played every seat without a person.
    pub bot: String,
    pub actions: Vec<(usize, String)>,
    pub players: Vec<Option<(i64, String)>>,
}

impl FinishedGame {
    /// The game as the screens read it ([`tapete_host::screening`]), its source `source`:
    /// each seat named by its account, a bot's seat by its level (`bot:experto`: a player
    /// of its own for the win-trading screen's skills, never judged), people marked.
    pub fn screened(self, source: String) -> tapete_host::screening::Game {
        let bot = self.bot;
        tapete_host::screening::Game {
            source,
            game: self.game,
            rules: self.rules,
            seats: self.seats,
            seed: self.seed,
            actions: self.actions,
            people: self.players.iter().map(Option::is_some).collect(),
            players: self
                .players
                .into_iter()
                .map(|p| Some(p.map_or_else(|| format!("bot:{bot}"), |(_, n)| n)))
                .collect(),
        }
    }
}

/// One finished game of a player, for the history page.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PlayedGame {
    pub table: String,
    pub game: String,
    pub finished: Option<i64>,
    pub seat: usize,
    pub outcome: Option<Value>,
    /// Who sat where (the last person at each seat; `null` for bots throughout).
    pub players: Vec<Option<String>>,
}

/// Stored JSON that does not parse is an error, never a silent default.
pub(crate) fn json_column(column: usize, text: &str) -> DbResult<Value> {
    serde_json::from_str(text).map_err(|e| DbError(format!("column {column}: {e}")))
}

pub(crate) fn row_of(r: &sql::Row) -> DbResult<TableRow> {
    let rules: String = r.get(2)?;
    let outcome: Option<String> = r.get(10)?;
    let rules = json_column(2, &rules)?;
    // Options are an object (`null` for a game without any); the game checks the rest.
    if !(rules.is_object() || rules.is_null()) {
        return Err(DbError(
            "column 2: the stored rules are not a JSON object".into(),
        ));
    }
    Ok(TableRow {
        id: r.get(0)?,
        game: r.get(1)?,
        rules,
        seed: r.get::<_, i64>(3)? as u64,
        creator: r.get(4)?,
        bot: r.get(5)?,
        pace_ms: r.get::<_, i64>(6)?.max(0) as u64,
        status: r
            .get::<_, String>(7)?
            .parse()
            .map_err(|e| DbError(format!("column 7: {e}")))?,
        created: r.get(8)?,
        finished: r.get(9)?,
        outcome: outcome.map(|o| json_column(10, &o)).transpose()?,
        away_s: r.get::<_, i64>(11)?.max(0) as u64,
        hold_s: r.get::<_, i64>(12)?.max(0) as u64,
        seats: seat_count(r.get(13)?)?,
        turn_s: r.get::<_, i64>(14)?.max(0) as u64,
        rated: r.get(15)?,
        deal: None,
    })
}

/// Table `id`'s committed deal, if it has one.
pub(crate) fn load_deal(c: &Connection, id: &str) -> DbResult<Option<Deal>> {
    let row: Option<(String, i64, Option<String>)> = c
        .query_row(
            "SELECT secret, shared, contributions FROM deals WHERE table_id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?;
    row.map(|(secret, shared, contributions)| {
        let contributions = contributions
            .map(|c| {
                serde_json::from_str::<Vec<String>>(&c)
                    .map_err(|e| DbError(format!("table {id}: its contributions: {e}")))
            })
            .transpose()?;
        Ok(Deal::stored(secret, shared != 0, contributions))
    })
    .transpose()
}

/// A stored seat count, which must be at least 1 (a table of no seats is a broken row,
/// never a default).
pub(crate) fn seat_count(n: i64) -> DbResult<usize> {
    usize::try_from(n).ok().filter(|n| *n >= 1).ok_or_else(|| {
        DbError(format!(
            "column 13: the stored seat count {n} is not a number of seats"
        ))
    })
}

pub(crate) const TABLE_COLUMNS: &str =
    "id, game, rules, seed, creator, bot, pace_ms, status, created, \
                             finished, outcome, away_s, hold_s, seats, turn_s, rated";

impl Db {
    /// Stores a new table with its seats.
    pub async fn create_table(&self, row: TableRow, seats: Vec<Option<i64>>) -> DbResult<()> {
        self.call(move |tx| insert_table(tx, &row, &seats)).await
    }

    /// The tables a player created that are not finished.
    pub async fn open_tables_of(&self, player: i64) -> DbResult<u64> {
        self.call(move |c| {
            Ok(c.query_row(
                "SELECT count(*) FROM tables WHERE creator = ?1 AND status != 'finished'",
                [player],
                |r| r.get::<_, i64>(0),
            )? as u64)
        })
        .await
    }

    /// Starts a waiting table: its status and the seed of its deal, chosen only now; the
    /// people seated now are the ones who see the first hand.
    pub async fn start_table(
        &self,
        table: String,
        seed: u64,
        contributions: Option<Vec<String>>,
    ) -> DbResult<()> {
        let fence = self.fence(&table)?;
        self.call(move |c| {
            lease::check(c, &fence)?;
            c.execute(
                "UPDATE tables SET status = 'playing', seed = ?2 WHERE id = ?1",
                params![table, seed as i64],
            )?;
            if let Some(given) = &contributions {
                let text = serde_json::to_string(given).map_err(|e| DbError(e.to_string()))?;
                c.execute(
                    "UPDATE deals SET contributions = ?2 WHERE table_id = ?1",
                    params![table, text],
                )?;
            }
            c.execute(NEW_HAND_SEATS, [&table])?;
            c.execute(SEATED_HAND_SEATS, [&table])?;
            Ok(())
        })
        .await
    }

    /// What `player` contributes to the deal of waiting table `table` (it replaces what
    /// they gave before).
    pub async fn set_contribution(
        &self,
        table: String,
        player: i64,
        value: String,
    ) -> DbResult<()> {
        let fence = self.fence(&table)?;
        self.call(move |c| {
            lease::check(c, &fence)?;
            c.execute(
                "INSERT INTO contributions (table_id, player, value) VALUES (?1, ?2, ?3)
                 ON CONFLICT (table_id, player) DO UPDATE SET value = excluded.value",
                params![table, player, value],
            )?;
            Ok(())
        })
        .await
    }

    /// A finished table's committed deal and the seed it was dealt from, read from
    /// storage (`None`: no such table, or one made before deals were committed).
    pub async fn deal_of(&self, table: String) -> DbResult<Option<(Deal, u64)>> {
        self.call(move |c| {
            let seed: Option<i64> = c
                .query_row("SELECT seed FROM tables WHERE id = ?1", [&table], |r| {
                    r.get(0)
                })
                .optional()?;
            let Some(seed) = seed else { return Ok(None) };
            Ok(load_deal(c, &table)?.map(|d| (d, seed as u64)))
        })
        .await
    }

    /// A seat asked for mid-hand (`Some`), or the request dropped (`None`).
    pub async fn set_pending(
        &self,
        table: String,
        player: i64,
        seat: Option<usize>,
    ) -> DbResult<()> {
        let fence = self.fence(&table)?;
        self.call(move |c| {
            lease::check(c, &fence)?;
            match seat {
                Some(s) => c.execute(
                    "INSERT INTO pending_seats (table_id, player, seat) VALUES (?1, ?2, ?3)
                     ON CONFLICT (table_id, player) DO UPDATE SET seat = excluded.seat",
                    params![table, player, s as i64],
                )?,
                None => c.execute(
                    "DELETE FROM pending_seats WHERE table_id = ?1 AND player = ?2",
                    params![table, player],
                )?,
            };
            Ok(())
        })
        .await
    }

    /// Who holds a seat now (`None`: the table's bot). A person seated is remembered as
    /// having held that seat this hand (see [`StoredTable::hand_seats`]) in the same
    /// transaction, so no restart can forget what they saw.
    pub async fn set_seat(&self, table: String, seat: usize, player: Option<i64>) -> DbResult<()> {
        let fence = self.fence(&table)?;
        self.call(move |tx| {
            lease::check(tx, &fence)?;
            tx.execute(
                "UPDATE seats SET player = ?3 WHERE table_id = ?1 AND seat = ?2",
                params![table, seat as i64, player],
            )?;
            if let Some(p) = player {
                tx.execute(
                    "INSERT INTO table_players (table_id, player, seat) VALUES (?1, ?2, ?3)
                     ON CONFLICT DO NOTHING",
                    params![table, p, seat as i64],
                )?;
                tx.execute(
                    "DELETE FROM pending_seats WHERE table_id = ?1 AND player = ?2",
                    params![table, p],
                )?;
                // Seated: their invitations to this table are answered.
                tx.execute(
                    "DELETE FROM invitations WHERE table_id = ?1 AND to_player = ?2",
                    params![table, p],
                )?;
                tx.execute(
                    "INSERT INTO hand_seats (table_id, player, seat) VALUES (?1, ?2, ?3)
                     ON CONFLICT (table_id, player) DO UPDATE SET seat = excluded.seat",
                    params![table, p, seat as i64],
                )?;
            }
            Ok(())
        })
        .await
    }

    /// Appends action number `n` (1-based) of a table. Fails if `n` is already there, so
    /// a log can never fork. With `finished`, the action that ends the game and the
    /// table's outcome are written in the same transaction: a table is never left playing
    /// with a log that is over. With `new_hand` (the action dealt a new hand), who has
    /// held which seat starts again from who sits now, in the same transaction.
    pub async fn append_action(
        &self,
        table: String,
        n: u64,
        seat: usize,
        action: String,
        finished: Option<Value>,
        new_hand: bool,
    ) -> DbResult<()> {
        self.append_action_by(table, n, seat, action, finished, new_hand, false)
            .await
    }

    /// [`Db::append_action`], saying whether the table's bot took the action: at a rated
    /// table, a decision the bot took for a person of the game is counted against their
    /// seat (see [`crate::ratings::ASSISTED_SHARE`]), in the same transaction.
    #[allow(clippy::too_many_arguments)]
    pub async fn append_action_by(
        &self,
        table: String,
        n: u64,
        seat: usize,
        action: String,
        finished: Option<Value>,
        new_hand: bool,
        by_bot: bool,
    ) -> DbResult<()> {
        let fence = self.fence(&table)?;
        // On the clock the table's other times go by (its creation, its turns).
        let at = self.clock().epoch();
        self.call(move |c| {
            lease::check(c, &fence)?;
            c.execute(
                "INSERT INTO actions (table_id, n, seat, action) VALUES (?1, ?2, ?3, ?4)",
                params![table, n as i64, seat as i64, action],
            )?;
            if by_bot {
                c.execute(
                    "UPDATE rated_seats SET helped = helped + 1
                     WHERE table_id = ?1 AND seat = ?2 AND player IS NOT NULL",
                    params![table, seat as i64],
                )?;
            }
            if new_hand || finished.is_some() {
                c.execute(NEW_HAND_SEATS, [&table])?;
            }
            if new_hand && finished.is_none() {
                c.execute(SEATED_HAND_SEATS, [&table])?;
            }
            if let Some(outcome) = finished {
                c.execute(
                    "UPDATE tables SET status = 'finished', outcome = ?2, finished = ?3
                     WHERE id = ?1",
                    params![table, outcome.to_string(), at],
                )?;
                c.execute("DELETE FROM pending_seats WHERE table_id = ?1", [&table])?;
                crate::ratings::rate_table(c, &table)?;
            }
            Ok(())
        })
        .await
    }

    /// How many actions `table`'s log holds.
    pub async fn action_count(&self, table: String) -> DbResult<u64> {
        self.call(move |c| {
            c.query_row(
                "SELECT count(*) FROM actions WHERE table_id = ?1",
                [&table],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| n.max(0) as u64)
            .map_err(DbError::from)
        })
        .await
    }

    /// Sets a table's status (and its outcome when finished).
    pub async fn set_status(
        &self,
        table: String,
        status: super::TableStatus,
        outcome: Option<Value>,
    ) -> DbResult<()> {
        let fence = self.fence(&table)?;
        let at = self.clock().epoch();
        self.call(move |c| {
            lease::check(c, &fence)?;
            let finished = (status == super::TableStatus::Finished).then_some(at);
            c.execute(
                "UPDATE tables SET status = ?2, outcome = ?3, finished = ?4 WHERE id = ?1",
                params![
                    table,
                    status.as_str(),
                    outcome.map(|o| o.to_string()),
                    finished
                ],
            )?;
            // A rated game ended without a last action (stopped at its time limit) is
            // rated as one ended by it.
            if finished.is_some() {
                crate::ratings::rate_table(c, &table)?;
            }
            if finished.is_some() {
                crate::ratings::rate_table(c, &table)?;
            }
            Ok(())
        })
        .await
    }

    /// Removes a table that never started (its waiting time with nobody there is over):
    /// its seats, kept seats, invitation secret, invitations, chat and any review with it. Nothing is
    /// removed (`false`) when it has started after all, or when a chat message of it was
    /// reported (the operator keeps the report and its table). With several servers, only
    /// the node holding its lease may remove it, and its lease goes with it.
    pub async fn drop_waiting_table(&self, table: String) -> DbResult<bool> {
        let fence = self.fence(&table)?;
        let shared = self.node().is_some();
        self.call(move |c| {
            lease::check(c, &fence)?;
            let waiting = c
                .prepare(
                    "SELECT 1 FROM tables WHERE id = ?1 AND status = 'waiting'
                     AND NOT EXISTS (SELECT 1 FROM actions WHERE table_id = ?1)
                     AND NOT EXISTS (SELECT 1 FROM reports WHERE table_id = ?1)
                     AND NOT EXISTS (SELECT 1 FROM rating_history WHERE table_id = ?1)",
                )?
                .exists([&table])?;
            if !waiting {
                return Ok(false);
            }
            drop_table_rows(c, &table, shared)?;
            Ok(true)
        })
        .await
    }

    /// Every table not finished, with seats and log, to restore after a restart; a table
    /// that cannot be read is an error of its own (named by its id) and stops no other.
    pub async fn unfinished_tables(&self) -> DbResult<Vec<(String, DbResult<StoredTable>)>> {
        self.call(|c| {
            let ids: Vec<String> = c
                .prepare("SELECT id FROM tables WHERE status != 'finished' ORDER BY created")?
                .query_map((), |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            Ok(ids
                .into_iter()
                .filter_map(|id| {
                    let t = load(c, &id).transpose()?;
                    Some((id, t))
                })
                .collect())
        })
        .await
    }

    /// One table with its seats and log.
    pub async fn table(&self, id: String) -> DbResult<Option<StoredTable>> {
        self.call(move |c| load(c, &id)).await
    }

    /// The newest `limit` finished games, of `game` only when named and rated only when
    /// `rated`, newest first (for `tapete screen --db`).
    pub async fn finished_games(
        &self,
        game: Option<String>,
        rated: bool,
        limit: usize,
    ) -> DbResult<Vec<FinishedGame>> {
        self.call(move |c| {
            let rated = if rated { "AND rated != 0" } else { "" };
            let rows: Vec<TableRow> = match &game {
                Some(g) => {
                    let mut st = c.prepare(&format!(
                        "SELECT {TABLE_COLUMNS} FROM tables WHERE status = 'finished'
                         AND game = ?1 {rated} ORDER BY finished DESC, id LIMIT ?2"
                    ))?;
                    let rows = st.query_map(params![g, limit as i64], row_of)?;
                    rows.collect::<DbResult<_>>()?
                }
                None => {
                    let mut st = c.prepare(&format!(
                        "SELECT {TABLE_COLUMNS} FROM tables WHERE status = 'finished'
                         {rated} ORDER BY finished DESC, id LIMIT ?1"
                    ))?;
                    let rows = st.query_map(params![limit as i64], row_of)?;
                    rows.collect::<DbResult<_>>()?
                }
            };
            let mut out = Vec::with_capacity(rows.len());
            for row in rows {
                let Some(stored) = load(c, &row.id)? else {
                    continue;
                };
                out.push(FinishedGame {
                    table: row.id.clone(),
                    game: row.game.clone(),
                    rules: row.rules.clone(),
                    seats: row.seats,
                    seed: row.seed,
                    rated: row.rated,
                    bot: row.bot.clone(),
                    actions: stored.actions,
                    players: stored.seats,
                });
            }
            Ok(out)
        })
        .await
    }

    /// A player's finished games, newest first (at most 200).
    pub async fn player_games(&self, player: i64) -> DbResult<Vec<PlayedGame>> {
        self.call(move |c| {
            let mut st = c.prepare(
                "SELECT t.id, t.game, t.finished, tp.seat, t.outcome FROM table_players tp
                 JOIN tables t ON t.id = tp.table_id
                 WHERE tp.player = ?1 AND t.status = 'finished'
                 ORDER BY t.finished DESC, t.id LIMIT 200",
            )?;
            let mut out: Vec<PlayedGame> = st
                .query_map([player], |r| {
                    let outcome: Option<String> = r.get(4)?;
                    Ok(PlayedGame {
                        table: r.get(0)?,
                        game: r.get(1)?,
                        finished: r.get(2)?,
                        seat: r.get::<_, i64>(3)? as usize,
                        outcome: outcome.and_then(|o| serde_json::from_str(&o).ok()),
                        players: Vec::new(),
                    })
                })?
                .collect::<Result<_, _>>()?;
            for g in &mut out {
                g.players = seat_names(c, &g.table)?;
            }
            Ok(out)
        })
        .await
    }
}

/// Inserts a table with its seats (the people seated are remembered as having sat there).
pub(crate) fn insert_table(tx: &Connection, row: &TableRow, seats: &[Option<i64>]) -> DbResult<()> {
    tx.execute(
        "INSERT INTO tables (id, game, rules, seed, creator, bot, pace_ms, status, created,
                             away_s, hold_s, seats, turn_s, rated)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
        params![
            row.id,
            row.game,
            row.rules.to_string(),
            row.seed as i64,
            row.creator,
            row.bot,
            row.pace_ms as i64,
            row.status.as_str(),
            row.created,
            row.away_s as i64,
            row.hold_s as i64,
            row.seats as i64,
            row.turn_s as i64,
            row.rated,
        ],
    )?;
    if let Some(d) = &row.deal {
        tx.execute(
            "INSERT INTO deals (table_id, secret, shared) VALUES (?1, ?2, ?3)",
            params![row.id, d.secret, i64::from(d.shared)],
        )?;
    }
    if seats.len() != row.seats {
        return Err(DbError(format!(
            "table {}: {} seats given for a table of {}",
            row.id,
            seats.len(),
            row.seats
        )));
    }
    for (seat, p) in seats.iter().enumerate() {
        tx.execute(
            "INSERT INTO seats (table_id, seat, player) VALUES (?1, ?2, ?3)",
            params![row.id, seat as i64, p],
        )?;
        if let Some(p) = p {
            tx.execute(
                "INSERT INTO table_players (table_id, player, seat) VALUES (?1, ?2, ?3)
                     ON CONFLICT DO NOTHING",
                params![row.id, p, seat as i64],
            )?;
        }
    }
    Ok(())
}

/// The nickname of the person who last held each seat (`None` where only bots played).
pub(crate) fn seat_names(c: &Connection, table: &str) -> DbResult<Vec<Option<String>>> {
    let mut st = c.prepare(
        "SELECT s.seat, p.nickname FROM seats s LEFT JOIN players p ON p.id = s.player
         WHERE s.table_id = ?1 ORDER BY s.seat",
    )?;
    let now: Vec<(i64, Option<String>)> = st
        .query_map([table], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    let mut names: Vec<Option<String>> = now.into_iter().map(|(_, n)| n).collect();
    // A seat a person left is still theirs in the history.
    let mut st = c.prepare(
        "SELECT tp.seat, p.nickname FROM table_players tp JOIN players p ON p.id = tp.player
         WHERE tp.table_id = ?1",
    )?;
    let past: Vec<(i64, String)> = st
        .query_map([table], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    for (seat, name) in past {
        if let Some(slot) = names.get_mut(seat as usize) {
            if slot.is_none() {
                *slot = Some(name);
            }
        }
    }
    Ok(names)
}

pub(crate) fn load(c: &Connection, id: &str) -> DbResult<Option<StoredTable>> {
    let row = c
        .query_row(
            &format!("SELECT {TABLE_COLUMNS} FROM tables WHERE id = ?1"),
            [id],
            row_of,
        )
        .optional()?;
    let Some(mut row) = row else { return Ok(None) };
    row.deal = load_deal(c, id)?;
    let mut st = c.prepare(
        "SELECT s.seat, s.player, p.nickname FROM seats s LEFT JOIN players p ON p.id = s.player
         WHERE s.table_id = ?1 ORDER BY s.seat",
    )?;
    let rows: Vec<(i64, Option<(i64, String)>)> = st
        .query_map([id], |r| {
            let p: Option<i64> = r.get(1)?;
            let n: Option<String> = r.get(2)?;
            Ok((r.get(0)?, p.zip(n)))
        })?
        .collect::<Result<_, _>>()?;
    // One row per seat, numbered 0 to seats - 1: anything else is a broken table.
    let numbered = rows
        .iter()
        .enumerate()
        .all(|(i, (seat, _))| *seat == i as i64);
    if rows.len() != row.seats || !numbered {
        return Err(DbError(format!(
            "table {id}: its seat rows do not match its {} seats",
            row.seats
        )));
    }
    let seats: Vec<Option<(i64, String)>> = rows.into_iter().map(|(_, p)| p).collect();
    let mut st = c.prepare("SELECT seat, action FROM actions WHERE table_id = ?1 ORDER BY n")?;
    let actions: Vec<(usize, String)> = st
        .query_map([id], |r| Ok((r.get::<_, i64>(0)?, r.get(1)?)))?
        .collect::<Result<Vec<(i64, String)>, _>>()?
        .into_iter()
        .enumerate()
        .map(|(i, (seat, action))| match usize::try_from(seat) {
            Ok(s) if s < row.seats => Ok((s, action)),
            _ => Err(DbError(format!(
                "table {id}: action {} is by seat {seat}, which it does not have",
                i + 1
            ))),
        })
        .collect::<DbResult<_>>()?;
    let mut st = c.prepare(
        "SELECT q.player, p.nickname, q.seat FROM pending_seats q JOIN players p ON p.id = q.player
         WHERE q.table_id = ?1 ORDER BY q.player",
    )?;
    let pending: Vec<(i64, String, usize)> = st
        .query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get::<_, i64>(2)?)))?
        .collect::<Result<Vec<(i64, String, i64)>, _>>()?
        .into_iter()
        .map(|(player, nickname, seat)| match usize::try_from(seat) {
            Ok(s) if s < row.seats => Ok((player, nickname, s)),
            _ => Err(DbError(format!(
                "table {id}: player {player} asked for seat {seat}, which it does not have"
            ))),
        })
        .collect::<DbResult<_>>()?;
    let mut st =
        c.prepare("SELECT player, seat FROM hand_seats WHERE table_id = ?1 ORDER BY player")?;
    let hand_seats: Vec<(i64, usize)> = st
        .query_map([id], |r| Ok((r.get(0)?, r.get::<_, i64>(1)?)))?
        .collect::<Result<Vec<(i64, i64)>, _>>()?
        .into_iter()
        .map(|(player, seat)| match usize::try_from(seat) {
            Ok(s) if s < row.seats => Ok((player, s)),
            _ => Err(DbError(format!(
                "table {id}: player {player} held seat {seat} this hand, which it does not have"
            ))),
        })
        .collect::<DbResult<_>>()?;
    let private = load_private(c, id, row.seats)?;
    let mut st =
        c.prepare("SELECT player, value FROM contributions WHERE table_id = ?1 ORDER BY player")?;
    let contributions = st
        .query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<Vec<(i64, String)>, _>>()?;
    Ok(Some(StoredTable {
        row,
        seats,
        actions,
        pending,
        hand_seats,
        private,
        contributions,
    }))
}

/// A table's private part as stored.
#[derive(Clone, Debug, Default)]
pub struct PrivateRow {
    /// The invitation secret of a private table (`None`: anyone may find the table).
    pub invite: Option<String>,
    /// Seats kept for an account before the start: (seat, player, nickname).
    pub reserved: Vec<(usize, i64, String)>,
    /// The rematch this finished table leads to.
    pub rematch: Option<String>,
    /// The table this one is the rematch of.
    pub rematch_of: Option<String>,
    /// When this rematch starts even if not everybody accepted (seconds since the epoch).
    pub starts_at: Option<i64>,
    /// The cuadrilla whose table this is: every member may see it and sit there.
    pub cuadrilla: Option<String>,
    /// The tournament whose match this table is.
    pub tournament: Option<String>,
    /// A tournament's match: who may sit at each seat, for good (seat, player): its
    /// entrant's person, and that entrant's substitute.
    pub owners: Vec<(usize, i64)>,
}

/// The private part of table `id`: its secret, kept seats, rematch and cuadrilla.
pub(super) fn load_private(c: &Connection, id: &str, seats: usize) -> DbResult<PrivateRow> {
    let invite: Option<String> = c
        .query_row(
            "SELECT invite FROM private_tables WHERE table_id = ?1",
            [id],
            |r| r.get(0),
        )
        .optional()?;
    let mut st = c.prepare(
        "SELECT r.seat, r.player, p.nickname FROM reserved_seats r
         JOIN players p ON p.id = r.player WHERE r.table_id = ?1 ORDER BY r.seat",
    )?;
    let reserved = st
        .query_map([id], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?, r.get(2)?))
        })?
        .collect::<Result<Vec<(i64, i64, String)>, _>>()?
        .into_iter()
        .map(|(seat, player, nickname)| match usize::try_from(seat) {
            Ok(s) if s < seats => Ok((s, player, nickname)),
            _ => Err(DbError(format!(
                "table {id}: seat {seat} is kept for player {player}, and it has no such seat"
            ))),
        })
        .collect::<DbResult<_>>()?;
    let rematch: Option<String> = c
        .query_row(
            "SELECT new_table FROM rematches WHERE table_id = ?1",
            [id],
            |r| r.get(0),
        )
        .optional()?;
    let of: Option<(String, i64)> = c
        .query_row(
            "SELECT table_id, starts_at FROM rematches WHERE new_table = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    let cuadrilla: Option<String> = c
        .query_row("SELECT cuadrilla FROM tables WHERE id = ?1", [id], |r| {
            r.get(0)
        })
        .optional()?
        .flatten();
    // A tournament's match starts when its people sat; at the end of its courtesy time
    // the tournament starts it with bots for who did not come, or decides who lost.
    let tournament: Option<String> = c
        .query_row(
            "SELECT tournament FROM tournament_tables WHERE table_id = ?1",
            [id],
            |r| r.get(0),
        )
        .optional()?;
    let mut st = c.prepare("SELECT seat, player FROM tournament_seats WHERE table_id = ?1")?;
    let owners = st
        .query_map([id], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)))?
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .filter_map(|(seat, player)| usize::try_from(seat).ok().map(|s| (s, player)))
        .collect();
    Ok(PrivateRow {
        invite,
        reserved,
        rematch,
        rematch_of: of.as_ref().map(|(t, _)| t.clone()),
        starts_at: of.map(|(_, s)| s),
        cuadrilla,
        tournament,
        owners,
    })
}

/// Removes a table that never started from storage, with everything kept about it (its
/// seats, kept seats, chat, invitations, a tournament's seats; with several servers, its
/// lease).
pub(crate) fn drop_table_rows(c: &Connection, table: &str, shared: bool) -> DbResult<()> {
    for sql in [
        "DELETE FROM invitations WHERE table_id = ?1",
        "DELETE FROM chat WHERE table_id = ?1",
        "DELETE FROM reserved_seats WHERE table_id = ?1",
        "DELETE FROM tournament_seats WHERE table_id = ?1",
        "DELETE FROM private_tables WHERE table_id = ?1",
        "DELETE FROM rematches WHERE new_table = ?1 OR table_id = ?1",
        "DELETE FROM pending_seats WHERE table_id = ?1",
        "DELETE FROM hand_seats WHERE table_id = ?1",
        "DELETE FROM rated_seats WHERE table_id = ?1",
        "DELETE FROM contributions WHERE table_id = ?1",
        "DELETE FROM deals WHERE table_id = ?1",
        "DELETE FROM reviews WHERE table_id = ?1",
        "DELETE FROM table_players WHERE table_id = ?1",
        "DELETE FROM seats WHERE table_id = ?1",
        "DELETE FROM tables WHERE id = ?1",
    ] {
        c.execute(sql, [table])?;
    }
    if shared {
        c.execute("DELETE FROM leases WHERE table_id = ?1", [table])?;
    }
    Ok(())
}
