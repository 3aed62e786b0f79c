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
use crate::net::limit::RateLimiter;
use crate::table::TableInfo;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;
use tokio::time::Instant;

mod store;

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
    table.private.private
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
    /// Refusal: why, and its machine code.
    Refusal(Code, String),
}

/// Where each person sits now at a table that is not over and not private: player →
/// (table, game).
pub fn seated_at(tables: &[TableInfo]) -> HashMap<i64, (String, String)> {
    let mut at = HashMap::new();
    for t in tables {
        if t.status == crate::table::TableStatus::Finished || is_private(t) {
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
        let db = crate::store::Db::open(&dir.join("t.db")).unwrap();
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
            let r = db.ask_friend(me, *other).await.unwrap();
            if k < MAX_REQUESTS_OUT {
                assert_eq!(r, Asked::Requested);
            } else {
                assert!(matches!(r, Asked::Refusal(Code::FriendsTooManyRequests, _)));
            }
        }
        // Everybody asks the last one: past the bound, the rest are refused.
        let last = *ids.last().unwrap();
        let mut refused = 0;
        for other in &ids[1..ids.len() - 1] {
            if let Asked::Refusal(..) = db.ask_friend(*other, last).await.unwrap() {
                refused += 1;
            }
        }
        assert_eq!(refused, ids.len() - 2 - MAX_REQUESTS_IN);
        // An accepted request makes friends both ways.
        assert_eq!(db.ask_friend(ids[1], me).await.unwrap(), Asked::Friends);
        let s = db.friends_of(me).await.unwrap();
        assert_eq!(s.friends.len(), 1);
        assert_eq!(db.friends_of(ids[1]).await.unwrap().friends[0].id, me);
    }

    fn table(id: &str, status: crate::table::TableStatus, player: i64) -> TableInfo {
        TableInfo {
            id: id.into(),
            game: "mus".into(),
            rules: serde_json::Value::Null,
            status,
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
            fairness: None,
            private: Default::default(),
        }
    }

    #[test]
    fn where_a_friend_sits_is_told_only_for_a_game_on_at_a_table_not_private() {
        let at = seated_at(&[
            table("open", crate::table::TableStatus::Playing, 1),
            table("over", crate::table::TableStatus::Finished, 2),
            table("wait", crate::table::TableStatus::Waiting, 3),
        ]);
        assert_eq!(at.get(&1), Some(&("open".into(), "mus".into())));
        assert_eq!(at.get(&2), None, "a finished game is not where one is");
        assert_eq!(at.get(&3).map(|t| t.0.as_str()), Some("wait"));
        let mut hidden = table("p", crate::table::TableStatus::Playing, 4);
        hidden.private.private = true;
        assert!(
            !seated_at(&[hidden]).contains_key(&4),
            "a private table is never told"
        );
    }
}
