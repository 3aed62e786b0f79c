//! What Web Push stores: one row a subscription, by its endpoint.

use super::*;
use crate::store::{params, DbResult};

impl Db {
    /// Keeps `sub` for `player`: a subscription already known by its endpoint (the same
    /// browser, maybe another account now) is updated; a new one is refused (`Ok(false)`)
    /// when the player has [`PER_PERSON`] already.
    pub async fn add_subscription(&self, player: i64, sub: Stored) -> DbResult<bool> {
        let at = self.clock().epoch();
        self.call(move |c| {
            // The person's row is locked first, so that two servers adding a subscription
            // for one person at once count one after the other (PostgreSQL holds the lock
            // to the commit; SQLite has one writer anyway).
            c.execute(
                "UPDATE players SET nickname = nickname WHERE id = ?1",
                params![player],
            )?;
            let others: i64 = c.query_row(
                "SELECT COUNT(*) FROM push_subscriptions WHERE player = ?1 AND endpoint <> ?2",
                params![player, sub.endpoint],
                |r| r.get(0),
            )?;
            if others >= PER_PERSON as i64 {
                return Ok(false);
            }
            c.execute(
                "INSERT INTO push_subscriptions (endpoint, player, p256dh, auth, lang, created)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                 ON CONFLICT (endpoint) DO UPDATE SET player = excluded.player,
                 p256dh = excluded.p256dh, auth = excluded.auth, lang = excluded.lang",
                params![sub.endpoint, player, sub.p256dh, sub.auth, sub.lang, at],
            )?;
            Ok(true)
        })
        .await
    }

    /// Forgets `player`'s subscription at `endpoint`; whether there was one.
    pub async fn remove_subscription(&self, player: i64, endpoint: String) -> DbResult<bool> {
        self.call(move |c| {
            Ok(c.execute(
                "DELETE FROM push_subscriptions WHERE player = ?1 AND endpoint = ?2",
                params![player, endpoint],
            )? > 0)
        })
        .await
    }

    /// Forgets the subscription at `endpoint`, whoever's: its push service says it is gone.
    pub async fn drop_subscription(&self, endpoint: String) -> DbResult<()> {
        self.call(move |c| {
            c.execute(
                "DELETE FROM push_subscriptions WHERE endpoint = ?1",
                [endpoint],
            )?;
            Ok(())
        })
        .await
    }

    /// `player`'s subscriptions, oldest first.
    pub async fn subscriptions_of(&self, player: i64) -> DbResult<Vec<Stored>> {
        self.call(move |c| {
            let mut st = c.prepare(
                "SELECT endpoint, p256dh, auth, lang FROM push_subscriptions
                 WHERE player = ?1 ORDER BY created, endpoint LIMIT ?2",
            )?;
            let rows = st
                .query_map(params![player, PER_PERSON as i64], |r| {
                    Ok(Stored {
                        endpoint: r.get(0)?,
                        p256dh: r.get(1)?,
                        auth: r.get(2)?,
                        lang: r.get(3)?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        })
        .await
    }
}
