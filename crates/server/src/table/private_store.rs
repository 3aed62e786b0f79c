//! What private tables store: a private table's invitation secret, the seats kept for
//! named accounts, and the rematch ("otra") a finished table leads to.

use super::store::{insert_table, PrivateRow, TableRow};
use crate::store::Db;
use crate::store::{lease, now, DbError, DbResult};
use crate::store::{params, OptionalExtension};

/// A rematch to store: the new table, its seats, the seats kept for the people of the old
/// one, its invitation secret if private, and when it starts regardless.
pub struct NewRematch {
    pub row: TableRow,
    pub seats: Vec<Option<i64>>,
    pub reserved: Vec<(usize, i64)>,
    pub invite: Option<String>,
    pub starts_at: i64,
}

impl Db {
    /// Stores a new table with its seats and its friends' part (its secret if private,
    /// the seats kept), all or nothing: a private table is never stored public.
    pub async fn create_table_with(
        &self,
        row: TableRow,
        seats: Vec<Option<i64>>,
        friends: PrivateRow,
    ) -> DbResult<()> {
        self.call(move |c| {
            insert_table(c, &row, &seats)?;
            if let Some(invite) = &friends.invite {
                c.execute(
                    "INSERT INTO private_tables (table_id, invite) VALUES (?1, ?2)",
                    params![row.id, invite],
                )?;
            }
            for (seat, player, _) in &friends.reserved {
                c.execute(
                    "INSERT INTO reserved_seats (table_id, seat, player) VALUES (?1, ?2, ?3)",
                    params![row.id, *seat as i64, player],
                )?;
            }
            Ok(())
        })
        .await
    }

    /// Keeps `seat` for `player` (`Some`), or lets it go (`None`).
    pub async fn set_reserved(
        &self,
        table: String,
        seat: usize,
        player: Option<i64>,
    ) -> DbResult<()> {
        let fence = self.fence(&table)?;
        self.call(move |c| {
            lease::check(c, &fence)?;
            match player {
                Some(p) => c.execute(
                    "INSERT INTO reserved_seats (table_id, seat, player) VALUES (?1, ?2, ?3)
                     ON CONFLICT (table_id, seat) DO UPDATE SET player = excluded.player",
                    params![table, seat as i64, p],
                )?,
                None => c.execute(
                    "DELETE FROM reserved_seats WHERE table_id = ?1 AND seat = ?2",
                    params![table, seat as i64],
                )?,
            };
            Ok(())
        })
        .await
    }

    /// Who may see `table`, as stored: its creator and its friends' part (the invitation
    /// secret, the seats kept); `None` when there is no such table. The log is not read.
    pub async fn visibility(&self, table: String) -> DbResult<Option<(Option<i64>, PrivateRow)>> {
        self.call(move |c| {
            let Some((creator, seats)) = c
                .query_row(
                    "SELECT creator, seats FROM tables WHERE id = ?1",
                    [&table],
                    |r| Ok((r.get::<_, Option<i64>>(0)?, r.get::<_, i64>(1)?)),
                )
                .optional()?
            else {
                return Ok(None);
            };
            let seats = usize::try_from(seats)
                .map_err(|_| DbError(format!("table {table}: {seats} seats")))?;
            Ok(Some((
                creator,
                super::store::load_private(c, &table, seats)?,
            )))
        })
        .await
    }

    /// Lets every kept seat of a table go (it starts: they go to the bot).
    pub async fn clear_reserved(&self, table: String) -> DbResult<()> {
        let fence = self.fence(&table)?;
        self.call(move |c| {
            lease::check(c, &fence)?;
            c.execute("DELETE FROM reserved_seats WHERE table_id = ?1", [table])?;
            Ok(())
        })
        .await
    }

    /// Whether `player` has ever sat at `table`, holds an invitation to it made at or
    /// after `invited_since` (seconds since the epoch), or is an entrant or the organiser
    /// of the tournament whose match it is: each opens a private table to them.
    pub async fn sat_or_invited(
        &self,
        table: String,
        player: i64,
        invited_since: i64,
    ) -> DbResult<bool> {
        self.call(move |c| {
            Ok(c.query_row(
                "SELECT EXISTS (SELECT 1 FROM table_players WHERE table_id = ?1 AND player = ?2)
                     OR EXISTS (SELECT 1 FROM invitations
                                WHERE table_id = ?1 AND to_player = ?2 AND at >= ?3)
                     OR EXISTS (SELECT 1 FROM tournament_tables b
                                JOIN tournament_entries e ON e.tournament = b.tournament
                                WHERE b.table_id = ?1 AND (e.player = ?2 OR e.partner = ?2
                                                           OR e.substitute = ?2))
                     OR EXISTS (SELECT 1 FROM tournament_tables b
                                JOIN tournaments t ON t.id = b.tournament
                                WHERE b.table_id = ?1 AND t.organiser = ?2)",
                params![table, player, invited_since],
                |r| r.get::<_, bool>(0),
            )?)
        })
        .await
    }

    /// Of `tables`, the private ones `viewer` never sat at (hidden from their lists).
    pub async fn hidden_from(
        &self,
        tables: Vec<String>,
        viewer: Option<i64>,
    ) -> DbResult<std::collections::HashSet<String>> {
        self.call(move |c| {
            let mut hidden = std::collections::HashSet::new();
            let mut private = c.prepare("SELECT 1 FROM private_tables WHERE table_id = ?1")?;
            let mut sat =
                c.prepare("SELECT 1 FROM table_players WHERE table_id = ?1 AND player = ?2")?;
            for t in tables {
                if !private.exists([&t])? {
                    continue;
                }
                let seen = match viewer {
                    Some(v) => sat.exists(params![t, v])?,
                    None => false,
                };
                if !seen {
                    hidden.insert(t);
                }
            }
            Ok(hidden)
        })
        .await
    }

    /// Stores the rematch of `old`, unless it has one: `Ok(new id)` when this call made
    /// it, `Err(id)` of the one made before (two people asking make one table).
    pub async fn create_rematch(
        &self,
        old: String,
        new: NewRematch,
    ) -> DbResult<Result<String, String>> {
        // Made by the node that runs the old table, as the old table's own write.
        let fence = self.fence(&old)?;
        self.call(move |c| {
            lease::check(c, &fence)?;
            let made: Option<String> = c
                .query_row(
                    "SELECT new_table FROM rematches WHERE table_id = ?1",
                    [&old],
                    |r| r.get(0),
                )
                .optional()?;
            if let Some(id) = made {
                return Ok(Err(id));
            }
            insert_table(c, &new.row, &new.seats)?;
            if let Some(invite) = &new.invite {
                c.execute(
                    "INSERT INTO private_tables (table_id, invite) VALUES (?1, ?2)",
                    params![new.row.id, invite],
                )?;
            }
            for (seat, player) in &new.reserved {
                c.execute(
                    "INSERT INTO reserved_seats (table_id, seat, player) VALUES (?1, ?2, ?3)",
                    params![new.row.id, *seat as i64, player],
                )?;
            }
            c.execute(
                "INSERT INTO rematches (table_id, new_table, starts_at, created)
                 VALUES (?1, ?2, ?3, ?4)",
                params![old, new.row.id, new.starts_at, now()],
            )?;
            Ok(Ok(new.row.id))
        })
        .await
    }
}
