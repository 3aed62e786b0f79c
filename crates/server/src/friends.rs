//! Friends, for accounts only: a request by nickname that the other accepts or declines
//! (both agree), who of one's friends is online and at which public table, and invitations
//! to one's table, which open it to the invitee (a private one too) and last until they
//! sit there or decline.
//!
//! Online means a live connection to a table now, or one closed or a friends' list asked
//! for within [`ONLINE_FOR`]. Where a friend sits is shown only for a table that is not
//! private ([`is_private`]).
//!
//! Bounds, per person: [`MAX_FRIENDS`] friends, [`MAX_REQUESTS_OUT`] requests sent and
//! [`MAX_REQUESTS_IN`] received waiting for an answer, [`MAX_INVITATIONS_IN`] invitations
//! received and [`MAX_INVITATIONS_OUT`] sent; requests and invitations together at most
//! [`RATE_BURST`] at once, then [`RATE_PER_MINUTE`] a minute. An invitation lasts
//! [`INVITATION_TTL`] seconds, and ends with its table's game.

use crate::code::Code;
use crate::limit::RateLimiter;
use crate::store::{now, Db, DbResult};
use crate::store::{params, Connection, OptionalExtension};
use crate::table::TableInfo;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Most friends one account may have.
pub const MAX_FRIENDS: usize = 100;
/// Most friend requests one account may have sent and not yet answered.
pub const MAX_REQUESTS_OUT: usize = 20;
/// Most friend requests one account may have received and not yet answered.
pub const MAX_REQUESTS_IN: usize = 50;
/// Most invitations one account may have received and not yet answered.
pub const MAX_INVITATIONS_IN: usize = 20;
/// Most invitations one account may have sent that are still open.
pub const MAX_INVITATIONS_OUT: usize = 20;
/// Requests and invitations one account may send at once.
pub const RATE_BURST: u32 = 10;
/// Requests and invitations one account may send a minute once the burst is spent.
pub const RATE_PER_MINUTE: f64 = 10.0;
/// How long an invitation lasts (seconds).
pub const INVITATION_TTL: i64 = 3600;
/// How long someone counts as online after their last connection closed.
pub const ONLINE_FOR: Duration = Duration::from_secs(60);

/// Whether a table is private (seen only through its invitation link): where a friend
/// sits is never shown for one.
pub fn is_private(table: &TableInfo) -> bool {
    table.friends.private
}

/// Who is online: each person's open table connections, and when one was last seen.
#[derive(Default)]
pub struct Presence {
    seen: Mutex<HashMap<i64, (usize, Instant)>>,
}

/// One open connection counted; dropping it says when the person was last seen.
pub struct Here<'a> {
    presence: &'a Presence,
    player: i64,
}

impl Presence {
    /// Runs `f` on the map, first forgetting those long gone once it holds many, so it
    /// holds about the people online, however many came and went.
    fn with<T>(&self, f: impl FnOnce(&mut HashMap<i64, (usize, Instant)>) -> T) -> T {
        let mut m = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        if m.len() > 1000 {
            let now = Instant::now();
            m.retain(|_, (n, at)| *n > 0 || now.duration_since(*at) < ONLINE_FOR);
        }
        f(&mut m)
    }

    /// `player` opened a connection: online until it closes, and [`ONLINE_FOR`] after.
    pub fn enter(&self, player: i64) -> Here<'_> {
        self.with(|m| {
            let e = m.entry(player).or_insert((0, Instant::now()));
            e.0 += 1;
            e.1 = Instant::now();
        });
        Here {
            presence: self,
            player,
        }
    }

    /// `player` was seen now (they asked for their friends, say).
    pub fn touch(&self, player: i64) {
        self.with(|m| {
            let now = Instant::now();
            m.entry(player).or_insert((0, now)).1 = now;
        });
    }

    /// Everyone online now (to tell the other servers of a shared database).
    pub fn online_now(&self) -> Vec<i64> {
        self.with(|m| {
            m.iter()
                .filter(|(_, (n, at))| *n > 0 || at.elapsed() < ONLINE_FOR)
                .map(|(p, _)| *p)
                .collect()
        })
    }

    pub fn is_online(&self, player: i64) -> bool {
        self.with(|m| {
            m.get(&player)
                .is_some_and(|(n, at)| *n > 0 || at.elapsed() < ONLINE_FOR)
        })
    }
}

impl Drop for Here<'_> {
    fn drop(&mut self) {
        self.presence.with(|m| {
            if let Some(e) = m.get_mut(&self.player) {
                e.0 = e.0.saturating_sub(1);
                e.1 = Instant::now();
            }
        });
    }
}

/// What the friends' API shares: who is online and the rate of requests.
pub struct Social {
    pub presence: Presence,
    pub rate: RateLimiter<i64>,
}

impl Default for Social {
    fn default() -> Self {
        Social {
            presence: Presence::default(),
            rate: RateLimiter::new(RATE_BURST, RATE_PER_MINUTE),
        }
    }
}

/// A person as the friends' list shows them.
#[derive(Clone, Debug, Serialize)]
pub struct Person {
    pub id: i64,
    pub nickname: String,
}

/// One's friends and the requests and invitations waiting, as stored.
#[derive(Debug, Serialize)]
pub struct Stored {
    pub friends: Vec<Person>,
    /// Requests received, waiting for one's answer.
    pub incoming: Vec<Person>,
    /// Requests sent, waiting for the other's answer.
    pub outgoing: Vec<Person>,
    pub invitations: Vec<Invitation>,
}

/// An invitation received.
#[derive(Clone, Debug, Serialize)]
pub struct Invitation {
    pub id: i64,
    pub from: Person,
    pub table: String,
    pub game: String,
    pub at: i64,
}

/// What a friend request did.
#[derive(Debug, PartialEq, Eq)]
pub enum Asked {
    /// A request waits for the other's answer.
    Requested,
    /// The other had asked too (or they were friends already): they are friends.
    Friends,
    /// Refused: why, and its machine code.
    Refused(Code, String),
}

fn people(c: &Connection, sql: &str, player: i64) -> DbResult<Vec<Person>> {
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

fn count(c: &Connection, sql: &str, player: i64) -> DbResult<usize> {
    Ok(c.query_row(sql, [player], |r| r.get::<_, i64>(0))?.max(0) as usize)
}

fn are_friends(c: &Connection, a: i64, b: i64) -> DbResult<bool> {
    Ok(c.query_row(
        "SELECT 1 FROM friends WHERE player = ?1 AND friend = ?2",
        params![a, b],
        |_| Ok(()),
    )
    .optional()?
    .is_some())
}

/// The account of a nickname key (`None`: no account has it).
pub async fn account_of(db: &Db, key: String) -> DbResult<Option<Person>> {
    db.call(move |c| {
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
pub async fn stored(db: &Db, player: i64) -> DbResult<Stored> {
    db.call(move |c| {
        c.execute(
            "DELETE FROM invitations WHERE at < ?1
             OR table_id IN (SELECT id FROM tables WHERE status = 'finished')",
            [now() - INVITATION_TTL],
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
pub async fn ask(db: &Db, from: i64, to: i64) -> DbResult<Asked> {
    db.call(move |c| {
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
            return Ok(Asked::Refused(Code::FriendsTooMany, m));
        }
        if asked_me {
            if full(to)? {
                let m = format!("they have {MAX_FRIENDS} friends, the most");
                return Ok(Asked::Refused(Code::FriendsTooMany, m));
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
            return Ok(Asked::Refused(Code::FriendsTooManyRequests, m));
        }
        let got = "SELECT count(*) FROM friend_requests WHERE to_player = ?1";
        if count(c, got, to)? >= MAX_REQUESTS_IN {
            let m = "they have too many friend requests waiting: try again later".to_string();
            return Ok(Asked::Refused(Code::FriendsTooManyRequests, m));
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
pub async fn drop_request(db: &Db, player: i64, other: i64) -> DbResult<bool> {
    db.call(move |c| {
        Ok(c.execute(
            "DELETE FROM friend_requests WHERE (from_player = ?1 AND to_player = ?2)
             OR (from_player = ?2 AND to_player = ?1)",
            params![player, other],
        )? > 0)
    })
    .await
}

/// Ends a friendship, both ways, and the invitations between them; whether there was one.
pub async fn remove(db: &Db, player: i64, other: i64) -> DbResult<bool> {
    db.call(move |c| {
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
    db: &Db,
    from: i64,
    to: i64,
    table: String,
) -> DbResult<Result<i64, (Code, String)>> {
    db.call(move |c| {
        if !are_friends(c, from, to)? {
            let m = "you can invite only your friends: send a friend request first".to_string();
            return Ok(Err((Code::FriendsNotFriends, m)));
        }
        c.execute(
            "DELETE FROM invitations WHERE at < ?1",
            [now() - INVITATION_TTL],
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
            params![from, to, table, now()],
            |r| r.get(0),
        )?;
        Ok(Ok(id))
    })
    .await
}

/// The table of an invitation `player` received that is still open (`None`: no such
/// invitation, somebody else's, or expired).
pub async fn invited_to(db: &Db, player: i64, id: i64) -> DbResult<Option<String>> {
    db.call(move |c| {
        c.query_row(
            "SELECT table_id FROM invitations WHERE id = ?1 AND to_player = ?2 AND at >= ?3",
            params![id, player, now() - INVITATION_TTL],
            |r| r.get(0),
        )
        .optional()
    })
    .await
}

/// Forgets an invitation `player` received or sent; whether there was one.
pub async fn dismiss(db: &Db, player: i64, id: i64) -> DbResult<bool> {
    db.call(move |c| {
        Ok(c.execute(
            "DELETE FROM invitations WHERE id = ?1 AND (to_player = ?2 OR from_player = ?2)",
            params![id, player],
        )? > 0)
    })
    .await
}

/// Where each person sits now at a table that is not over and not private: player →
/// (table, game).
pub fn seated_at(tables: &[TableInfo]) -> HashMap<i64, (String, String)> {
    let mut at = HashMap::new();
    for t in tables {
        if t.status == crate::table::FINISHED || is_private(t) {
            continue;
        }
        for s in &t.seats {
            if let Some(p) = &s.player {
                at.insert(p.id, (t.id.clone(), t.game.clone()));
            }
        }
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presence_lasts_while_connected_and_a_little_after() {
        let p = Presence::default();
        assert!(!p.is_online(1));
        let here = p.enter(1);
        assert!(p.is_online(1));
        drop(here);
        assert!(p.is_online(1), "online a while after the last connection");
        p.with(|m| m.get_mut(&1).unwrap().1 -= ONLINE_FOR);
        assert!(!p.is_online(1));
        let (a, b) = (p.enter(2), p.enter(2));
        drop(a);
        p.with(|m| m.get_mut(&2).unwrap().1 -= ONLINE_FOR * 2);
        assert!(p.is_online(2), "one connection still open");
        drop(b);
        // Many people came and went long ago: the map forgets them.
        for id in 10..2010 {
            drop(p.enter(id));
        }
        p.with(|m| m.values_mut().for_each(|e| e.1 -= ONLINE_FOR * 2));
        p.touch(5);
        assert!(p.with(|m| m.len()) < 10);
    }

    #[tokio::test]
    async fn requests_waiting_are_bounded_both_ways() {
        let dir = std::env::temp_dir().join(format!("tapete-friends-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let db = Db::open(&dir.join("t.db")).unwrap();
        let mut ids = Vec::new();
        for i in 0..=(MAX_REQUESTS_IN + 1) {
            let id = db
                .create_guest(
                    format!("p{i}"),
                    format!("p{i}"),
                    format!("p{i}"),
                    format!("h{i}"),
                    String::new(),
                )
                .await
                .unwrap()
                .unwrap();
            ids.push(id);
        }
        let me = ids[0];
        for (k, other) in ids[1..].iter().enumerate() {
            let r = ask(&db, me, *other).await.unwrap();
            if k < MAX_REQUESTS_OUT {
                assert_eq!(r, Asked::Requested);
            } else {
                assert!(matches!(r, Asked::Refused(Code::FriendsTooManyRequests, _)));
            }
        }
        // Everybody asks the last one: past the bound, the rest are refused.
        let last = *ids.last().unwrap();
        let mut refused = 0;
        for other in &ids[1..ids.len() - 1] {
            if let Asked::Refused(..) = ask(&db, *other, last).await.unwrap() {
                refused += 1;
            }
        }
        assert_eq!(refused, ids.len() - 2 - MAX_REQUESTS_IN);
        // An accepted request makes friends both ways.
        assert_eq!(ask(&db, ids[1], me).await.unwrap(), Asked::Friends);
        let s = stored(&db, me).await.unwrap();
        assert_eq!(s.friends.len(), 1);
        assert_eq!(stored(&db, ids[1]).await.unwrap().friends[0].id, me);
    }

    fn table(id: &str, status: &str, player: i64) -> TableInfo {
        TableInfo {
            id: id.into(),
            game: "mus".into(),
            rules: serde_json::Value::Null,
            status: status.into(),
            created: 0,
            creator: None,
            bot: "basico".into(),
            pace_ms: 0,
            away_s: 30,
            hold_s: 10,
            turn_s: 0,
            actions: 0,
            seats: vec![crate::table::SeatInfo {
                seat: 0,
                player: Some(crate::table::PlayerRef {
                    id: player,
                    nickname: "x".into(),
                }),
                bot: None,
                connected: true,
                away: false,
            }],
            outcome: None,
            rated: false,
            friends: Default::default(),
        }
    }

    #[test]
    fn where_a_friend_sits_is_told_only_for_a_game_on_at_a_table_not_private() {
        let at = seated_at(&[
            table("open", crate::table::PLAYING, 1),
            table("over", crate::table::FINISHED, 2),
            table("wait", crate::table::WAITING, 3),
        ]);
        assert_eq!(at.get(&1), Some(&("open".into(), "mus".into())));
        assert_eq!(at.get(&2), None, "a finished game is not where one is");
        assert_eq!(at.get(&3).map(|t| t.0.as_str()), Some("wait"));
        let mut hidden = table("p", crate::table::PLAYING, 4);
        hidden.friends.private = true;
        assert!(
            !seated_at(&[hidden]).contains_key(&4),
            "a private table is never told"
        );
    }
}
