//! Table chat: what people write at a table, in two channels — the seated players' and the
//! spectators' — its bounds, its storage, mutes and reports.
//!
//! Everything a player writes is public to the whole table (spectators too), as words at a
//! real table are: there is no private partner channel (a game's own signals, Mus's señas,
//! stay the game's). The spectators' channel is shown to spectators only while the game is
//! on, so nobody seated is told what a spectator saw; once the game is over both channels
//! are shown to everybody.
//!
//! Bounds: a message is at most [`MAX_CHARS`] characters and [`MAX_BYTES`] bytes once
//! cleaned (control characters stripped, line breaks and tabs made spaces, trimmed); each
//! person may write [`BURST`] messages at once, then [`PER_MINUTE`] a minute, over every
//! table; a table keeps its last [`KEEP`] messages (in memory and stored), sent once to a
//! connection when it opens, then each new one as it comes. A person mutes at most
//! [`MAX_MUTES`] others, and reports at most [`REPORT_BURST`] messages at once, then
//! [`REPORTS_PER_HOUR`] an hour.

use crate::code::Code;
use crate::net::limit::RateLimiter;
use crate::store::now;
use serde::Serialize;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};

mod store;

/// Most characters in one message.
pub const MAX_CHARS: usize = 300;
/// Most bytes (UTF-8) in one message.
pub const MAX_BYTES: usize = 600;
/// Messages one person may write at once.
pub const BURST: u32 = 5;
/// Messages one person may write a minute once the burst is spent.
pub const PER_MINUTE: f64 = 20.0;
/// Messages a table keeps (and sends a connection when it opens).
pub const KEEP: usize = 200;
/// People one person may mute.
pub const MAX_MUTES: usize = 200;
/// Reports one person may send at once.
pub const REPORT_BURST: u32 = 5;
/// Reports one person may send an hour once the burst is spent.
pub const REPORTS_PER_HOUR: f64 = 10.0;

/// Who a message is for: the people seated, or the spectators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    Players,
    Spectators,
}

impl Channel {
    fn as_str(self) -> &'static str {
        match self {
            Channel::Players => "players",
            Channel::Spectators => "spectators",
        }
    }

    fn parse(s: &str) -> Channel {
        if s == "players" {
            Channel::Players
        } else {
            Channel::Spectators
        }
    }
}

/// One message as stored and sent: `{n, channel, player, nickname, text, at}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChatLine {
    /// Its number at its table, from 1.
    pub n: u64,
    pub channel: Channel,
    pub player: i64,
    pub nickname: String,
    pub text: String,
    /// When it was written (seconds since the epoch).
    pub at: i64,
}

/// Whether a connection sees a channel: the players' always; the spectators' when it holds
/// no seat, or once the game is over.
pub fn sees(channel: Channel, seated: bool, finished: bool) -> bool {
    channel == Channel::Players || !seated || finished
}

/// A message as sent: control characters stripped (line breaks and tabs become spaces),
/// trimmed, and within the bounds; or why not, with its machine code.
pub fn clean(raw: &str) -> Result<String, (Code, String)> {
    let text: String = raw
        .chars()
        .filter_map(|c| match c {
            '\n' | '\r' | '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let text = text.trim();
    if text.is_empty() {
        return Err((Code::ChatEmpty, "empty message: write something".into()));
    }
    let chars = text.chars().count();
    if chars > MAX_CHARS || text.len() > MAX_BYTES {
        return Err((
            Code::ChatTooLong,
            format!(
                "message too long ({chars} characters, {} bytes): at most {MAX_CHARS} \
                 characters and {MAX_BYTES} bytes",
                text.len()
            ),
        ));
    }
    Ok(text.to_string())
}

/// The rates shared by every table: messages and reports per person.
pub struct Rates {
    pub messages: RateLimiter<i64>,
    pub reports: RateLimiter<i64>,
}

impl Default for Rates {
    fn default() -> Self {
        Rates {
            messages: RateLimiter::new(BURST, PER_MINUTE),
            reports: RateLimiter::new(REPORT_BURST, REPORTS_PER_HOUR / 60.0),
        }
    }
}

/// Whom each person connected anywhere mutes, shared by every table: a mute made at one
/// table holds at once at every other table where that person is.
///
/// A person's entry lives while they have a connection open ([`Mutes::enter`]); it is
/// loaded from the database when their first connection opens.
#[derive(Default)]
pub struct Mutes {
    book: Mutex<HashMap<i64, Muting>>,
}

/// One person's entry in [`Mutes`]: their open connections, and whom they mute.
type Muting = (usize, Arc<HashSet<i64>>);

/// One connection's hold on its person's entry; dropping it lets the entry go with the
/// person's last connection.
pub struct MutesHeld {
    mutes: Arc<Mutes>,
    player: i64,
}

impl Mutes {
    fn with<T>(&self, f: impl FnOnce(&mut HashMap<i64, Muting>) -> T) -> T {
        f(&mut self.book.lock().unwrap_or_else(|p| p.into_inner()))
    }

    /// A connection of `player` opens, who mutes `stored` (read from the database before):
    /// an entry already held by another connection is the newer one and stays.
    pub fn enter(self: &Arc<Self>, player: i64, stored: HashSet<i64>) -> MutesHeld {
        self.with(|m| {
            m.entry(player).or_insert_with(|| (0, Arc::new(stored))).0 += 1;
        });
        MutesHeld {
            mutes: self.clone(),
            player,
        }
    }

    /// Whom `player` mutes (nobody when they have no connection open).
    pub fn of(&self, player: i64) -> Option<Arc<HashSet<i64>>> {
        self.with(|m| m.get(&player).map(|(_, set)| set.clone()))
    }

    /// `player` mutes (`on`) or unmutes `other`, as just stored.
    pub fn set(&self, player: i64, other: i64, on: bool) {
        self.with(|m| {
            if let Some((_, set)) = m.get_mut(&player) {
                let set = Arc::make_mut(set);
                if on {
                    set.insert(other);
                } else {
                    set.remove(&other);
                }
            }
        })
    }
}

impl Drop for MutesHeld {
    fn drop(&mut self) {
        self.mutes.with(|m| {
            if let Some(e) = m.get_mut(&self.player) {
                e.0 -= 1;
                if e.0 == 0 {
                    m.remove(&self.player);
                }
            }
        })
    }
}

/// A table's recent messages, the last [`KEEP`].
#[derive(Debug, Default)]
pub struct Room {
    lines: VecDeque<ChatLine>,
    next: u64,
}

impl Room {
    /// A room holding these stored messages (oldest first).
    pub fn restore(lines: Vec<ChatLine>) -> Room {
        let next = lines.iter().map(|l| l.n).max().unwrap_or(0) + 1;
        let mut lines: VecDeque<ChatLine> = lines.into();
        while lines.len() > KEEP {
            lines.pop_front();
        }
        Room { lines, next }
    }

    /// The next message, numbered (not yet kept: see [`Room::keep`]).
    pub fn line(&self, channel: Channel, player: i64, nickname: &str, text: String) -> ChatLine {
        ChatLine {
            n: self.next.max(1),
            channel,
            player,
            nickname: nickname.to_string(),
            text,
            at: now(),
        }
    }

    /// Keeps a message (once stored), forgetting the oldest past [`KEEP`].
    pub fn keep(&mut self, line: ChatLine) {
        self.next = line.n + 1;
        self.lines.push_back(line);
        while self.lines.len() > KEEP {
            self.lines.pop_front();
        }
    }

    pub fn find(&self, n: u64) -> Option<&ChatLine> {
        self.lines.iter().find(|l| l.n == n)
    }

    pub fn len(&self) -> usize {
        self.lines.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The messages a connection may see, oldest first: its channels, nobody it muted.
    pub fn visible<'a>(
        &'a self,
        seated: bool,
        finished: bool,
        muted: &'a HashSet<i64>,
    ) -> impl Iterator<Item = &'a ChatLine> + 'a {
        self.lines
            .iter()
            .filter(move |l| sees(l.channel, seated, finished) && !muted.contains(&l.player))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_strips_controls_and_bounds_the_text() {
        assert_eq!(
            clean("  hola\u{7}\u{1b}[31m\nmus  ").unwrap(),
            "hola[31m mus"
        );
        assert_eq!(clean(" \t\n ").unwrap_err().0, Code::ChatEmpty);
        assert_eq!(clean("\u{0}\u{1}").unwrap_err().0, Code::ChatEmpty);
        assert!(clean(&"a".repeat(MAX_CHARS)).is_ok());
        assert_eq!(
            clean(&"a".repeat(MAX_CHARS + 1)).unwrap_err().0,
            Code::ChatTooLong
        );
        // 201 characters of three bytes each: within the characters, over the bytes.
        assert_eq!(clean(&"€".repeat(201)).unwrap_err().0, Code::ChatTooLong);
    }

    #[test]
    fn a_room_keeps_the_last_messages_and_hides_what_one_may_not_see() {
        let mut room = Room::default();
        for i in 0..(KEEP + 10) {
            let ch = if i % 2 == 0 {
                Channel::Players
            } else {
                Channel::Spectators
            };
            let l = room.line(ch, (i % 3) as i64, "x", format!("m{i}"));
            room.keep(l);
        }
        assert_eq!(room.len(), KEEP);
        assert!(room.find(10).is_none());
        assert_eq!(room.find((KEEP + 10) as u64).unwrap().text, "m209");
        let none = HashSet::new();
        assert!(room
            .visible(true, false, &none)
            .all(|l| l.channel == Channel::Players));
        assert_eq!(room.visible(true, true, &none).count(), KEEP);
        assert_eq!(room.visible(false, false, &none).count(), KEEP);
        let muted: HashSet<i64> = [0].into();
        assert!(room.visible(false, false, &muted).all(|l| l.player != 0));
        let again = Room::restore(room.visible(false, false, &none).cloned().collect());
        assert_eq!(again.line(Channel::Players, 1, "x", "y".into()).n, 211);
    }
}
