//! Sessions: a token's hash names its session; the sessions in use are kept in memory so
//! that a request needs no database read to know who asks, and an ended session's
//! connections are told to close.

use crate::store::{now, Db, DbResult};
use crate::table::PlayerRef;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::RwLock;

/// A token's session as the server keeps it in memory.
#[derive(Clone, Debug)]
pub struct Session {
    pub id: i64,
    pub player: PlayerRef,
    /// Whether the player has an account (else a guest).
    pub account: bool,
    /// When its last use was written down (seconds since the epoch).
    touched: i64,
}

/// The hex SHA-256 of a token: what the database keeps instead of the token.
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// How often a session's last use is written down (seconds): a busy session is not a
/// write per request.
const TOUCH_EVERY: i64 = 60;

/// The sessions in use, by token hash, and the news of those that ended.
pub struct Sessions {
    tokens: RwLock<HashMap<String, Session>>,
    /// Sessions ended (logged out, revoked, ended by a new password): their WebSockets close.
    revoked: tokio::sync::broadcast::Sender<i64>,
}

impl Default for Sessions {
    fn default() -> Self {
        Sessions {
            tokens: RwLock::new(HashMap::new()),
            revoked: tokio::sync::broadcast::channel(256).0,
        }
    }
}

impl Sessions {
    /// The session a token belongs to, if any: from memory, else from the database
    /// (and kept). Its last use is written down at most once a minute.
    pub async fn of_token(&self, db: &Db, token: &str) -> DbResult<Option<Session>> {
        let hash = token_hash(token.trim());
        let t = now();
        let cached = self.tokens.read().ok().and_then(|m| m.get(&hash).cloned());
        if let Some(s) = cached {
            if t - s.touched >= TOUCH_EVERY {
                if let Ok(mut m) = self.tokens.write() {
                    if let Some(c) = m.get_mut(&hash) {
                        c.touched = t;
                    }
                }
                let (db, id) = (db.clone(), s.id);
                tokio::spawn(async move {
                    if let Err(e) = db.touch_session(id).await {
                        eprintln!("session {id}: {e}");
                    }
                });
            }
            return Ok(Some(s));
        }
        let found = db.session_by_token(hash.clone()).await?.map(|s| Session {
            id: s.session,
            player: PlayerRef {
                id: s.player,
                nickname: s.nickname,
            },
            account: s.account,
            touched: 0,
        });
        let Some(mut s) = found else { return Ok(None) };
        s.touched = t;
        if let Ok(mut m) = self.tokens.write() {
            m.insert(hash, s.clone());
        }
        db.touch_session(s.id).await?;
        Ok(Some(s))
    }

    /// Forgets ended sessions: their tokens are refused from now on and their WebSockets
    /// close.
    pub fn forget(&self, ended: &[i64]) {
        if let Ok(mut m) = self.tokens.write() {
            m.retain(|_, s| !ended.contains(&s.id));
        }
        for id in ended {
            let _ = self.revoked.send(*id);
        }
    }

    /// A player's new nickname, now an account's, in the sessions in memory.
    pub fn renamed(&self, player: i64, nickname: &str) {
        if let Ok(mut m) = self.tokens.write() {
            for s in m.values_mut().filter(|s| s.player.id == player) {
                s.player.nickname = nickname.to_string();
                s.account = true;
            }
        }
    }

    /// The news of every session that ends from now on (its id).
    pub fn revoked(&self) -> tokio::sync::broadcast::Receiver<i64> {
        self.revoked.subscribe()
    }
}
