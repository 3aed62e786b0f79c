//! What accounts store: players, accounts (password hash, nickname key and look),
//! sessions by token hash, and the server's signing secrets.

use crate::store::{now, params, Connection, Db, DbError, DbResult, OptionalExtension};

impl Db {
    /// Adds a guest with its first session, unless an account has the same nickname key
    /// or look (`Ok(None)`); returns its id.
    pub async fn create_guest(
        &self,
        nickname: String,
        key: String,
        look: String,
        token_hash: String,
        agent: String,
    ) -> DbResult<Option<i64>> {
        self.call(move |c| {
            if key_taken(c, &key, &look)? {
                return Ok(None);
            }
            let id = insert_player(c, &nickname, &token_hash)?;
            insert_session(c, id, &token_hash, &agent)?;
            Ok(Some(id))
        })
        .await
    }

    /// Makes an account: of the guest `guest` (who keeps its id, history and tables and
    /// takes `nickname`), or of a new player with a first session `token_hash`; refused
    /// when an account has the nickname's key or its look ([`crate::accounts::nickname_look`]).
    #[allow(clippy::too_many_arguments)]
    pub async fn create_account(
        &self,
        nickname: String,
        key: String,
        look: String,
        password_hash: String,
        guest: Option<i64>,
        token_hash: String,
        agent: String,
    ) -> DbResult<Result<i64, AccountRefusal>> {
        self.call(move |c| {
            if key_taken(c, &key, &look)? {
                return Ok(Err(AccountRefusal::Taken));
            }
            let id = match guest {
                Some(id) => {
                    let has: i64 = c.query_row(
                        "SELECT count(*) FROM accounts WHERE player = ?1",
                        [id],
                        |r| r.get(0),
                    )?;
                    if has > 0 {
                        return Ok(Err(AccountRefusal::AlreadyOne));
                    }
                    c.execute(
                        "UPDATE players SET nickname = ?2 WHERE id = ?1",
                        params![id, nickname],
                    )?;
                    id
                }
                None => {
                    let id = insert_player(c, &nickname, &token_hash)?;
                    insert_session(c, id, &token_hash, &agent)?;
                    id
                }
            };
            c.execute(
                "INSERT INTO accounts (player, nick_key, password_hash, created)
                 VALUES (?1, ?2, ?3, ?4)",
                params![id, key, password_hash, now()],
            )?;
            c.execute(
                "INSERT INTO nickname_looks (player, look) VALUES (?1, ?2)",
                params![id, look],
            )?;
            Ok(Ok(id))
        })
        .await
    }

    /// Whether an account has this nickname key or this look (a look-alike's).
    pub async fn nickname_taken(&self, key: String, look: String) -> DbResult<bool> {
        self.call(move |c| key_taken(c, &key, &look)).await
    }

    /// Gives every account without one its nickname's look (`look` computes it): the
    /// accounts made before looks were kept. Two accounts may share a look (made before,
    /// when only the key was compared): both keep it, and both go on as they were.
    pub async fn fill_nickname_looks(&self, look: fn(&str) -> String) -> DbResult<usize> {
        self.call(move |c| {
            let missing: Vec<(i64, String)> = c
                .prepare(
                    "SELECT a.player, p.nickname FROM accounts a JOIN players p ON p.id = a.player
                     WHERE NOT EXISTS (SELECT 1 FROM nickname_looks l WHERE l.player = a.player)",
                )?
                .query_map((), |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<_, _>>()?;
            for (player, nickname) in &missing {
                c.execute(
                    "INSERT INTO nickname_looks (player, look) VALUES (?1, ?2)
                     ON CONFLICT (player) DO NOTHING",
                    params![player, look(nickname)],
                )?;
            }
            Ok(missing.len())
        })
        .await
    }

    /// The server's secret of this name (32 random bytes, made at its first use and kept
    /// in `meta`, so every server on the database and every restart share it).
    pub async fn secret(&self, name: &'static str) -> DbResult<Vec<u8>> {
        self.call(move |c| {
            let key = format!("secret.{name}");
            let fresh: [u8; 32] = rand::random();
            let fresh: String = fresh.iter().map(|b| format!("{b:02x}")).collect();
            c.execute(
                "INSERT INTO meta (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO NOTHING",
                params![key, fresh],
            )?;
            let hex: String =
                c.query_row("SELECT value FROM meta WHERE key = ?1", [&key], |r| {
                    r.get(0)
                })?;
            (0..hex.len())
                .step_by(2)
                .map(|i| {
                    hex.get(i..i + 2)
                        .and_then(|b| u8::from_str_radix(b, 16).ok())
                        .ok_or_else(|| DbError(format!("meta `{key}` is not hex")))
                })
                .collect()
        })
        .await
    }

    /// The account of a nickname key: its player, nickname and password hash.
    pub async fn account_by_key(&self, key: String) -> DbResult<Option<(i64, String, String)>> {
        self.call(move |c| {
            c.query_row(
                "SELECT p.id, p.nickname, a.password_hash FROM accounts a
                 JOIN players p ON p.id = a.player WHERE a.nick_key = ?1",
                [key],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()
        })
        .await
    }

    /// An account's password hash (`None`: the player is a guest).
    pub async fn password_hash(&self, player: i64) -> DbResult<Option<String>> {
        self.call(move |c| {
            c.query_row(
                "SELECT password_hash FROM accounts WHERE player = ?1",
                [player],
                |r| r.get(0),
            )
            .optional()
        })
        .await
    }

    /// Sets an account's password hash and ends every session of it but `keep`; returns
    /// the sessions ended.
    pub async fn set_password(
        &self,
        player: i64,
        password_hash: String,
        keep: i64,
    ) -> DbResult<Vec<i64>> {
        self.call(move |c| {
            c.execute(
                "UPDATE accounts SET password_hash = ?2 WHERE player = ?1",
                params![player, password_hash],
            )?;
            let ended: Vec<i64> = c
                .prepare("SELECT id FROM sessions WHERE player = ?1 AND id != ?2")?
                .query_map(params![player, keep], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            c.execute(
                "DELETE FROM sessions WHERE player = ?1 AND id != ?2",
                params![player, keep],
            )?;
            Ok(ended)
        })
        .await
    }

    /// Starts a session of a player, and ends its least recently used ones beyond `keep`
    /// (the new one counted); returns its id and the sessions ended.
    pub async fn create_session(
        &self,
        player: i64,
        token_hash: String,
        agent: String,
        keep: usize,
    ) -> DbResult<(i64, Vec<i64>)> {
        self.call(move |c| {
            let id = insert_session(c, player, &token_hash, &agent)?;
            let others: Vec<i64> = c
                .prepare(
                    "SELECT id FROM sessions WHERE player = ?1 AND id != ?2
                     ORDER BY last_used DESC, id DESC",
                )?
                .query_map(params![player, id], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            let ended: Vec<i64> = others.into_iter().skip(keep.saturating_sub(1)).collect();
            for s in &ended {
                c.execute("DELETE FROM sessions WHERE id = ?1", [s])?;
            }
            Ok((id, ended))
        })
        .await
    }

    /// The session of a token (by its hash).
    pub async fn session_by_token(&self, token_hash: String) -> DbResult<Option<SessionOf>> {
        self.call(move |c| {
            c.query_row(
                "SELECT s.id, p.id, p.nickname, a.player IS NOT NULL FROM sessions s
                 JOIN players p ON p.id = s.player
                 LEFT JOIN accounts a ON a.player = p.id
                 WHERE s.token_hash = ?1",
                [token_hash],
                |r| {
                    Ok(SessionOf {
                        session: r.get(0)?,
                        player: r.get(1)?,
                        nickname: r.get(2)?,
                        account: r.get(3)?,
                    })
                },
            )
            .optional()
        })
        .await
    }

    /// Notes that a session was used now.
    pub async fn touch_session(&self, session: i64) -> DbResult<()> {
        self.call(move |c| {
            c.execute(
                "UPDATE sessions SET last_used = ?2 WHERE id = ?1",
                params![session, now()],
            )?;
            Ok(())
        })
        .await
    }

    /// A player's sessions, the most recently used first.
    pub async fn sessions_of(&self, player: i64) -> DbResult<Vec<SessionRow>> {
        self.call(move |c| {
            let mut st = c.prepare(
                "SELECT id, created, last_used, agent FROM sessions WHERE player = ?1
                 ORDER BY last_used DESC, id DESC",
            )?;
            let rows = st
                .query_map([player], |r| {
                    Ok(SessionRow {
                        id: r.get(0)?,
                        created: r.get(1)?,
                        last_used: r.get(2)?,
                        agent: r.get(3)?,
                    })
                })?
                .collect::<Result<_, _>>()?;
            Ok(rows)
        })
        .await
    }

    /// Ends a session of a player; false if it has no such session.
    pub async fn delete_session(&self, player: i64, session: i64) -> DbResult<bool> {
        self.call(move |c| {
            Ok(c.execute(
                "DELETE FROM sessions WHERE id = ?1 AND player = ?2",
                params![session, player],
            )? > 0)
        })
        .await
    }

    /// A player's nickname.
    pub async fn player(&self, id: i64) -> DbResult<Option<String>> {
        self.call(move |c| {
            c.query_row("SELECT nickname FROM players WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()
        })
        .await
    }
}

/// Why an account was not made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccountRefusal {
    /// An account has this nickname, or one that looks like it.
    Taken,
    /// The guest asking is an account already.
    AlreadyOne,
}

/// Who a token is: its session, its player, and whether the player has an account.
#[derive(Clone, Debug)]
pub struct SessionOf {
    pub session: i64,
    pub player: i64,
    pub nickname: String,
    pub account: bool,
}

/// One session of a player, for the list of them.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SessionRow {
    pub id: i64,
    pub created: i64,
    pub last_used: i64,
    /// The device, in short (`Firefox · Linux`).
    pub agent: String,
}

/// Whether an account has this nickname key, or a nickname of this look.
pub(crate) fn key_taken(c: &Connection, key: &str, look: &str) -> DbResult<bool> {
    Ok(c.query_row(
        "SELECT (SELECT count(*) FROM accounts WHERE nick_key = ?1)
              + (SELECT count(*) FROM nickname_looks WHERE look = ?2)",
        params![key, look],
        |r| r.get::<_, i64>(0),
    )? > 0)
}

pub(crate) fn insert_player(c: &Connection, nickname: &str, token_hash: &str) -> DbResult<i64> {
    Ok(c.query_row(
        "INSERT INTO players (nickname, token_hash, created) VALUES (?1, ?2, ?3) RETURNING id",
        params![nickname, token_hash, now()],
        |r| r.get(0),
    )?)
}

pub(crate) fn insert_session(
    c: &Connection,
    player: i64,
    token_hash: &str,
    agent: &str,
) -> DbResult<i64> {
    let t = now();
    Ok(c.query_row(
        "INSERT INTO sessions (token_hash, player, created, last_used, agent)
         VALUES (?1, ?2, ?3, ?3, ?4) RETURNING id",
        params![token_hash, player, t, agent],
        |r| r.get(0),
    )?)
}
