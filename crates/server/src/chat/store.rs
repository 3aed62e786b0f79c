//! What the chat stores: each table's last messages, who mutes whom, and reports.

use super::{Channel, ChatLine, KEEP, MAX_MUTES};
use crate::store::{now, params, Db, DbResult};
use std::collections::HashSet;

impl Db {
    /// A table's stored messages, oldest first.
    pub async fn chat_lines(&self, table: String) -> DbResult<Vec<ChatLine>> {
        self.call(move |c| {
            let mut st = c.prepare(
                "SELECT n, channel, player, nickname, text, at FROM chat WHERE table_id = ?1
                 ORDER BY n DESC LIMIT ?2",
            )?;
            let mut lines: Vec<ChatLine> = st
                .query_map(params![table, KEEP as i64], |r| {
                    Ok(ChatLine {
                        n: r.get::<_, i64>(0)?.max(0) as u64,
                        channel: Channel::parse(&r.get::<_, String>(1)?),
                        player: r.get(2)?,
                        nickname: r.get(3)?,
                        text: r.get(4)?,
                        at: r.get(5)?,
                    })
                })?
                .collect::<Result<_, _>>()?;
            lines.reverse();
            Ok(lines)
        })
        .await
    }

    /// Stores a message with its table, forgetting the table's older ones past [`KEEP`].
    pub async fn store_chat_line(&self, table: String, line: ChatLine) -> DbResult<()> {
        let fence = self.fence(&table)?;
        self.call(move |c| {
            crate::store::lease::check(c, &fence)?;
            c.execute(
                "INSERT INTO chat (table_id, n, channel, player, nickname, text, at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    table,
                    line.n as i64,
                    line.channel.as_str(),
                    line.player,
                    line.nickname,
                    line.text,
                    line.at
                ],
            )?;
            c.execute(
                "DELETE FROM chat WHERE table_id = ?1 AND n <= ?2",
                params![table, line.n as i64 - KEEP as i64],
            )?;
            Ok(())
        })
        .await
    }

    /// The people `player` muted.
    pub async fn mutes_of(&self, player: i64) -> DbResult<HashSet<i64>> {
        self.call(move |c| {
            let mut st = c.prepare("SELECT muted FROM mutes WHERE player = ?1 LIMIT ?2")?;
            let set = st
                .query_map(params![player, MAX_MUTES as i64], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            Ok(set)
        })
        .await
    }

    /// `player` mutes (`on`) or unmutes `other`. `Ok(false)`: they already mute [`MAX_MUTES`]
    /// people.
    pub async fn set_mute(&self, player: i64, other: i64, on: bool) -> DbResult<bool> {
        self.call(move |c| {
            if !on {
                c.execute(
                    "DELETE FROM mutes WHERE player = ?1 AND muted = ?2",
                    params![player, other],
                )?;
                return Ok(true);
            }
            let n: i64 = c.query_row(
                "SELECT count(*) FROM mutes WHERE player = ?1 AND muted != ?2",
                params![player, other],
                |r| r.get(0),
            )?;
            if n >= MAX_MUTES as i64 {
                return Ok(false);
            }
            c.execute(
                "INSERT INTO mutes (player, muted, at) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
                params![player, other, now()],
            )?;
            Ok(true)
        })
        .await
    }

    /// Stores `reporter`'s report of a message of `table`, for the operator (a message
    /// reported twice by one person is stored once).
    pub async fn report_chat_line(
        &self,
        table: String,
        line: ChatLine,
        reporter: i64,
    ) -> DbResult<()> {
        self.call(move |c| {
            c.execute(
                "INSERT INTO reports
                     (table_id, n, channel, author, author_nickname, text, written, reporter, at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) ON CONFLICT DO NOTHING",
                params![
                    table,
                    line.n as i64,
                    line.channel.as_str(),
                    line.player,
                    line.nickname,
                    line.text,
                    line.at,
                    reporter,
                    now()
                ],
            )?;
            Ok(())
        })
        .await
    }
}
