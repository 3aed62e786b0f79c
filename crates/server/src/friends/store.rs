//! What friends store: friendships (both ways), friend requests and invitations to a
//! table.

use super::*;
use crate::store::{now, params, Connection, Db, DbResult, OptionalExtension};

pub(crate) fn people(c: &Connection, sql: &str, player: i64) -> DbResult<Vec<Person>> {
    let mut st = c.prepare(sql)?;
    let rows = st
        .query_map([player], |r| {
            Ok(Person {
                id: r.get(0)?,
                nickname: r.get(1)?,
            })
        })?
        .collect::<Result<_, _>>()?;
    Ok(rows)
}

pub(crate) fn count(c: &Connection, sql: &str, player: i64) -> DbResult<usize> {
    Ok(c.query_row(sql, [player], |r| r.get::<_, i64>(0))?.max(0) as usize)
}

pub(crate) fn are_friends(c: &Connection, a: i64, b: i64) -> DbResult<bool> {
    Ok(c.query_row(
        "SELECT 1 FROM friends WHERE player = ?1 AND friend = ?2",
        params![a, b],
        |_| Ok(()),
    )
    .optional()?
    .is_some())
}

impl Db {
    /// The account of a nickname key (`None`: no account has it).
    pub async fn account_of(&self, key: String) -> DbResult<Option<Person>> {
        self.call(move |c| {
            c.query_row(
                "SELECT p.id, p.nickname FROM accounts a JOIN players p ON p.id = a.player
                 WHERE a.nick_key = ?1",
                [key],
                |r| {
                    Ok(Person {
                        id: r.get(0)?,
                        nickname: r.get(1)?,
                    })
                },
            )
            .optional()
        })
        .await
    }

    /// One's friends, requests and open invitations (expired ones are forgotten).
    pub async fn friends_of(&self, player: i64) -> DbResult<Stored> {
        let now = self.clock().epoch();
        self.call(move |c| {
            c.execute(
                "DELETE FROM invitations WHERE at < ?1
                 OR table_id IN (SELECT id FROM tables WHERE status = 'finished')",
                [now - INVITATION_TTL],
            )?;
            let friends = people(
                c,
                "SELECT p.id, p.nickname FROM friends f JOIN players p ON p.id = f.friend
                 WHERE f.player = ?1 ORDER BY p.nickname",
                player,
            )?;
            let incoming = people(
                c,
                "SELECT p.id, p.nickname FROM friend_requests r JOIN players p ON p.id = r.from_player
                 WHERE r.to_player = ?1 ORDER BY r.at",
                player,
            )?;
            let outgoing = people(
                c,
                "SELECT p.id, p.nickname FROM friend_requests r JOIN players p ON p.id = r.to_player
                 WHERE r.from_player = ?1 ORDER BY r.at",
                player,
            )?;
            let mut st = c.prepare(
                "SELECT i.id, p.id, p.nickname, i.table_id, t.game, i.at FROM invitations i
                 JOIN players p ON p.id = i.from_player JOIN tables t ON t.id = i.table_id
                 WHERE i.to_player = ?1 ORDER BY i.at DESC, i.id DESC",
            )?;
            let invitations = st
                .query_map([player], |r| {
                    Ok(Invitation {
                        id: r.get(0)?,
                        from: Person {
                            id: r.get(1)?,
                            nickname: r.get(2)?,
                        },
                        table: r.get(3)?,
                        game: r.get(4)?,
                        at: r.get(5)?,
                    })
                })?
                .collect::<Result<_, _>>()?;
            Ok(Stored {
                friends,
                incoming,
                outgoing,
                invitations,
            })
        })
        .await
    }

    /// `from` asks `to` to be friends; if `to` had asked `from`, they are friends now.
    pub async fn ask_friend(&self, from: i64, to: i64) -> DbResult<Asked> {
        self.call(move |c| {
            if are_friends(c, from, to)? {
                return Ok(Asked::Friends);
            }
            let full = |who: i64| -> DbResult<bool> {
                Ok(count(c, "SELECT count(*) FROM friends WHERE player = ?1", who)? >= MAX_FRIENDS)
            };
            let asked_me = c
                .query_row(
                    "SELECT 1 FROM friend_requests WHERE from_player = ?1 AND to_player = ?2",
                    params![to, from],
                    |_| Ok(()),
                )
                .optional()?
                .is_some();
            if full(from)? {
                let m = format!("you have {MAX_FRIENDS} friends, the most: remove one first");
                return Ok(Asked::Refusal(Code::FriendsTooMany, m));
            }
            if asked_me {
                if full(to)? {
                    let m = format!("they have {MAX_FRIENDS} friends, the most");
                    return Ok(Asked::Refusal(Code::FriendsTooMany, m));
                }
                c.execute(
                    "DELETE FROM friend_requests WHERE (from_player = ?1 AND to_player = ?2)
                     OR (from_player = ?2 AND to_player = ?1)",
                    params![from, to],
                )?;
                for (a, b) in [(from, to), (to, from)] {
                    c.execute(
                        "INSERT INTO friends (player, friend, since) VALUES (?1, ?2, ?3)
                         ON CONFLICT DO NOTHING",
                        params![a, b, now()],
                    )?;
                }
                return Ok(Asked::Friends);
            }
            let already = c
                .query_row(
                    "SELECT 1 FROM friend_requests WHERE from_player = ?1 AND to_player = ?2",
                    params![from, to],
                    |_| Ok(()),
                )
                .optional()?
                .is_some();
            if already {
                return Ok(Asked::Requested);
            }
            let sent = "SELECT count(*) FROM friend_requests WHERE from_player = ?1";
            if count(c, sent, from)? >= MAX_REQUESTS_OUT {
                let m = format!(
                    "you have {MAX_REQUESTS_OUT} friend requests waiting for an answer: wait, or \
                     cancel one"
                );
                return Ok(Asked::Refusal(Code::FriendsTooManyRequests, m));
            }
            let got = "SELECT count(*) FROM friend_requests WHERE to_player = ?1";
            if count(c, got, to)? >= MAX_REQUESTS_IN {
                let m = "they have too many friend requests waiting: try again later".to_string();
                return Ok(Asked::Refusal(Code::FriendsTooManyRequests, m));
            }
            c.execute(
                "INSERT INTO friend_requests (from_player, to_player, at) VALUES (?1, ?2, ?3)",
                params![from, to, now()],
            )?;
            Ok(Asked::Requested)
        })
        .await
    }

    /// Forgets a request between `player` and `other`, either way (declined or cancelled);
    /// whether there was one.
    pub async fn drop_friend_request(&self, player: i64, other: i64) -> DbResult<bool> {
        self.call(move |c| {
            Ok(c.execute(
                "DELETE FROM friend_requests WHERE (from_player = ?1 AND to_player = ?2)
                 OR (from_player = ?2 AND to_player = ?1)",
                params![player, other],
            )? > 0)
        })
        .await
    }

    /// Ends a friendship, both ways, and the invitations between them; whether there was one.
    pub async fn remove_friend(&self, player: i64, other: i64) -> DbResult<bool> {
        self.call(move |c| {
            let n = c.execute(
                "DELETE FROM friends WHERE (player = ?1 AND friend = ?2)
                 OR (player = ?2 AND friend = ?1)",
                params![player, other],
            )?;
            c.execute(
                "DELETE FROM invitations WHERE (from_player = ?1 AND to_player = ?2)
                 OR (from_player = ?2 AND to_player = ?1)",
                params![player, other],
            )?;
            Ok(n > 0)
        })
        .await
    }

    /// `from` invites their friend `to` to `table`: the invitation's id, or why not.
    pub async fn invite(
        &self,
        from: i64,
        to: i64,
        table: String,
    ) -> DbResult<Result<i64, (Code, String)>> {
        let now = self.clock().epoch();
        self.call(move |c| {
            if !are_friends(c, from, to)? {
                let m = "you can invite only your friends: send a friend request first".to_string();
                return Ok(Err((Code::FriendsNotFriends, m)));
            }
            c.execute(
                "DELETE FROM invitations WHERE at < ?1",
                [now - INVITATION_TTL],
            )?;
            let same = c
                .query_row(
                    "SELECT id FROM invitations WHERE from_player = ?1 AND to_player = ?2
                     AND table_id = ?3",
                    params![from, to, table],
                    |r| r.get::<_, i64>(0),
                )
                .optional()?;
            if let Some(id) = same {
                return Ok(Ok(id));
            }
            let out = "SELECT count(*) FROM invitations WHERE from_player = ?1";
            if count(c, out, from)? >= MAX_INVITATIONS_OUT {
                let m = format!(
                    "you have {MAX_INVITATIONS_OUT} invitations open: wait until they are answered"
                );
                return Ok(Err((Code::FriendsTooManyInvitations, m)));
            }
            let got = "SELECT count(*) FROM invitations WHERE to_player = ?1";
            if count(c, got, to)? >= MAX_INVITATIONS_IN {
                let m = "they have too many invitations waiting: try again later".to_string();
                return Ok(Err((Code::FriendsTooManyInvitations, m)));
            }
            let id = c.query_row(
                "INSERT INTO invitations (from_player, to_player, table_id, at)
                 VALUES (?1, ?2, ?3, ?4) RETURNING id",
                params![from, to, table, now],
                |r| r.get(0),
            )?;
            Ok(Ok(id))
        })
        .await
    }

    /// The table of an invitation `player` received that is still open (`None`: no such
    /// invitation, somebody else's, or expired).
    pub async fn invited_to(&self, player: i64, id: i64) -> DbResult<Option<String>> {
        let now = self.clock().epoch();
        self.call(move |c| {
            c.query_row(
                "SELECT table_id FROM invitations WHERE id = ?1 AND to_player = ?2 AND at >= ?3",
                params![id, player, now - INVITATION_TTL],
                |r| r.get(0),
            )
            .optional()
        })
        .await
    }

    /// Forgets an invitation `player` received or sent; whether there was one.
    pub async fn dismiss_invitation(&self, player: i64, id: i64) -> DbResult<bool> {
        self.call(move |c| {
            Ok(c.execute(
                "DELETE FROM invitations WHERE id = ?1 AND (to_player = ?2 OR from_player = ?2)",
                params![id, player],
            )? > 0)
        })
        .await
    }
}
