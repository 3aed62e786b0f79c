//! Cuadrillas: lasting groups of friends (accounts) who play together, week after week.
//!
//! A cuadrilla has a name, an owner, an invitation link (a secret, as a private table's),
//! its members, its tables (private tables every member may see and join: see
//! [`crate::table::access`]), a league table per game computed from its finished games
//! ([`tapete_tournament::league`]) and, if its people choose one, a weekly slot ("los
//! jueves a las 22:00") at whose start every member is sent a notice, once, whichever
//! server of a cluster sees it first ([`Hub::keep_slots`]).
//!
//! Every bound is here, each refused with a code of its own: cuadrillas per person
//! ([`MAX_PER_PERSON`]), members per cuadrilla ([`MAX_MEMBERS`]), new cuadrillas per account
//! ([`CREATES_BURST`], [`CREATES_PER_HOUR`]), the name's length ([`NAME_CHARS`]); and what a
//! page is sent is bounded too ([`RECENT_TABLES`], [`LEAGUE_GAMES`]).

use crate::hub::Hub;
use crate::net::limit::RateLimiter;
use crate::notices::{Notice, NoticeKind};
use serde::Serialize;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use tapete_tournament::league::LeagueGame;

mod store;

pub use store::{CuadrillaRow, Joined, Member, MemberRating, PlayedTable};

/// Cuadrillas one person belongs to, at most: creating or joining one more is refused
/// (`cuadrilla_too_many`).
pub const MAX_PER_PERSON: usize = 20;
/// Members of one cuadrilla, at most: joining a full one is refused (`cuadrilla_full`).
pub const MAX_MEMBERS: usize = 30;
/// New cuadrillas one account makes in a burst…
pub const CREATES_BURST: u32 = 5;
/// …and then an hour (`cuadrilla_rate_limited`, with the wait).
pub const CREATES_PER_HOUR: u32 = 1;
/// A cuadrilla's name: 1 to this many characters once trimmed.
pub const NAME_CHARS: usize = 40;
/// Finished tables a cuadrilla's page lists (the latest).
pub const RECENT_TABLES: usize = 20;
/// The latest finished games its league tables count: a group that plays every week takes
/// twenty years to reach it, and no request reads more.
pub const LEAGUE_GAMES: usize = 1000;
/// Minutes in a week: a slot is a minute of the week.
pub const WEEK_MINUTES: i64 = 7 * 24 * 60;
/// How late a slot's notice may still go out: a server that was down when a slot began
/// and starts within this sends it; later, that week's notice is skipped.
pub const SLOT_NOTICE_WINDOW: i64 = 15 * 60;
/// How often a server looks for slots that began.
pub const SLOT_POLL: Duration = Duration::from_secs(30);
/// The furthest a person's clock may be from UTC, in minutes, either way.
pub const MAX_OFFSET_MIN: i64 = 14 * 60;

/// The minute of the week (from Monday 00:00 UTC) of the Unix epoch, a Thursday.
const EPOCH_WEEK_MINUTE: i64 = 3 * 24 * 60;

/// A weekly slot: a minute of the week in UTC, and the offset from UTC (in minutes, local
/// less UTC) of the clock it was chosen on, to show it back as it was chosen. Stored in
/// UTC, so every member is told at the same moment; a change of summer time moves the
/// slot an hour on the chooser's clock until it is chosen again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub minute: i64,
    pub offset: i64,
}

/// A slot as people give and read it: a day (0 Monday … 6 Sunday), a time `"22:00"` on
/// their clock, and their clock's offset from UTC in minutes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LocalSlot {
    pub day: u8,
    pub time: String,
    #[serde(default)]
    pub offset_min: i64,
}

impl Slot {
    /// The slot of a day, time and offset as a person gives them; `Err` names what is
    /// wrong.
    pub fn from_local(local: &LocalSlot) -> Result<Slot, String> {
        if local.day > 6 {
            return Err(format!(
                "day {} is not a day of the week: 0 (Monday) to 6 (Sunday)",
                local.day
            ));
        }
        let (h, m) = local
            .time
            .split_once(':')
            .and_then(|(h, m)| {
                let ok = |s: &str| s.len() == 2 && s.bytes().all(|b| b.is_ascii_digit());
                (ok(h) && ok(m)).then(|| (h.parse::<i64>().ok(), m.parse::<i64>().ok()))
            })
            .and_then(|(h, m)| Some((h?, m?)))
            .filter(|(h, m)| *h < 24 && *m < 60)
            .ok_or_else(|| {
                format!(
                    "time `{}` is not a time of day: write it as HH:MM, 00:00 to 23:59",
                    local.time
                )
            })?;
        if local.offset_min.abs() > MAX_OFFSET_MIN {
            return Err(format!(
                "offset_min {} is no clock's offset from UTC: -{MAX_OFFSET_MIN} to \
                 {MAX_OFFSET_MIN} minutes",
                local.offset_min
            ));
        }
        let here = i64::from(local.day) * 1440 + h * 60 + m;
        Ok(Slot {
            minute: (here - local.offset_min).rem_euclid(WEEK_MINUTES),
            offset: local.offset_min,
        })
    }

    /// The slot on the clock it was chosen on.
    pub fn local(&self) -> LocalSlot {
        let here = (self.minute + self.offset).rem_euclid(WEEK_MINUTES);
        LocalSlot {
            day: (here / 1440) as u8,
            time: format!("{:02}:{:02}", here % 1440 / 60, here % 60),
            offset_min: self.offset,
        }
    }

    /// The minute of the week (UTC, from Monday 00:00) of a moment in seconds since the
    /// epoch.
    pub fn minute_of_week(epoch: i64) -> i64 {
        (epoch.div_euclid(60) + EPOCH_WEEK_MINUTE).rem_euclid(WEEK_MINUTES)
    }

    /// When the slot last began at or before `epoch` (seconds since the epoch).
    pub fn last_start(&self, epoch: i64) -> i64 {
        let back = (Slot::minute_of_week(epoch) - self.minute).rem_euclid(WEEK_MINUTES);
        (epoch.div_euclid(60) - back) * 60
    }

    /// When the slot next begins at or after `epoch`.
    pub fn next_start(&self, epoch: i64) -> i64 {
        let last = self.last_start(epoch);
        if last == epoch {
            last
        } else {
            last + WEEK_MINUTES * 60
        }
    }
}

/// Checks a cuadrilla's name: 1 to [`NAME_CHARS`] characters once trimmed, no control or
/// invisible characters; the name trimmed, or what is wrong.
pub fn check_name(raw: &str) -> Result<String, String> {
    let name = raw.trim();
    let chars = name.chars().count();
    if chars == 0 {
        return Err("the name is empty".into());
    }
    if chars > NAME_CHARS {
        return Err(format!(
            "the name is {chars} characters long: at most {NAME_CHARS}"
        ));
    }
    if name
        .chars()
        .any(|c| c.is_control() || crate::http::invisible(c))
    {
        return Err("the name has control or invisible characters".into());
    }
    Ok(name.to_string())
}

/// One finished game of a cuadrilla as its league counts it: the sides by partnership
/// (`partners`: seats of one parity together, as Mus; else a side a seat), the winning
/// sides, and each side's score from its first seat (negated when `against`: the fewer
/// points the better, as Chinchón's). `None` for a table with no outcome.
pub fn league_game(
    game: &str,
    partners: bool,
    against: bool,
    seats: &[Option<i64>],
    outcome: &Value,
) -> Option<LeagueGame> {
    let outcome = outcome.as_object()?;
    let n = seats.len();
    let side_of = |s: usize| if partners { s % 2 } else { s };
    let count = if partners { n.min(2) } else { n };
    let mut sides: Vec<Vec<Option<i64>>> = vec![Vec::new(); count];
    for (s, who) in seats.iter().enumerate() {
        sides[side_of(s)].push(*who);
    }
    let winners_seats: Vec<usize> = outcome
        .get("winners")?
        .as_array()?
        .iter()
        .filter_map(|w| w.as_u64().map(|w| w as usize))
        .collect();
    let mut winners: Vec<usize> = winners_seats
        .iter()
        .filter(|s| **s < n)
        .map(|s| side_of(*s))
        .collect();
    winners.sort_unstable();
    winners.dedup();
    let scores: Vec<i64> = outcome
        .get("scores")
        .and_then(Value::as_array)
        .map(|a| a.iter().map(|v| v.as_i64().unwrap_or(0)).collect())
        .unwrap_or_default();
    let points = (0..count)
        .map(|k| {
            let first = (0..n).find(|s| side_of(*s) == k).unwrap_or(k);
            let p = scores.get(first).copied().unwrap_or(0);
            if against {
                -p
            } else {
                p
            }
        })
        .collect();
    Some(LeagueGame {
        game: game.to_string(),
        sides,
        winners,
        points,
    })
}

/// What the server keeps of cuadrillas in memory: the rate of new ones per account.
pub struct Cuadrillas {
    pub(crate) creates: RateLimiter<i64>,
}

impl Default for Cuadrillas {
    fn default() -> Self {
        Cuadrillas {
            creates: RateLimiter::new(CREATES_BURST, f64::from(CREATES_PER_HOUR) / 60.0),
        }
    }
}

impl Hub {
    /// Looks for weekly slots that began, every [`SLOT_POLL`], for as long as the server
    /// runs.
    pub async fn keep_slots(self: Arc<Hub>) {
        loop {
            tokio::time::sleep(SLOT_POLL).await;
            self.ring_slots().await;
        }
    }

    /// Sends every member of each cuadrilla whose slot began within
    /// [`SLOT_NOTICE_WINDOW`] and was not told yet a notice: once per slot and week, on
    /// every server together (the first to move `slot_noticed` on sends them).
    pub async fn ring_slots(&self) {
        let now = self.clock().epoch();
        let slotted = match self.db.slotted_cuadrillas().await {
            Ok(s) => s,
            Err(e) => {
                tracing::warn!("the cuadrillas' slots were not read: {e}");
                return;
            }
        };
        for (id, name, slot, noticed) in slotted {
            let start = slot.last_start(now);
            if now - start >= SLOT_NOTICE_WINDOW || noticed >= start {
                continue;
            }
            let members = match self.db.claim_slot(id.clone(), start).await {
                Ok(Some(members)) => members,
                Ok(None) => continue,
                Err(e) => {
                    tracing::warn!(cuadrilla = %id, "a slot's notice was not claimed: {e}");
                    continue;
                }
            };
            let mut args = serde_json::Map::new();
            args.insert("name".into(), json!(name));
            for player in members {
                self.notify(
                    player,
                    Notice {
                        kind: NoticeKind::CuadrillaGame,
                        url: format!("/c/{id}"),
                        args: args.clone(),
                    },
                )
                .await;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local(day: u8, time: &str, offset_min: i64) -> LocalSlot {
        LocalSlot {
            day,
            time: time.into(),
            offset_min,
        }
    }

    #[test]
    fn a_slot_is_kept_in_utc_and_shown_back_as_chosen() {
        // Thursday 22:00 in Madrid's summer (UTC+2) is Thursday 20:00 UTC.
        let s = Slot::from_local(&local(3, "22:00", 120)).unwrap();
        assert_eq!(s.minute, 3 * 1440 + 20 * 60);
        assert_eq!(s.local(), local(3, "22:00", 120));
        // Monday 00:30 at UTC+2 is Sunday 22:30 UTC: the week wraps.
        let s = Slot::from_local(&local(0, "00:30", 120)).unwrap();
        assert_eq!(s.minute, 6 * 1440 + 22 * 60 + 30);
        assert_eq!(s.local(), local(0, "00:30", 120));
    }

    #[test]
    fn a_slot_out_of_bounds_is_refused_naming_it() {
        for (l, word) in [
            (local(7, "22:00", 0), "day 7"),
            (local(0, "24:00", 0), "24:00"),
            (local(0, "9:00", 0), "9:00"),
            (local(0, "22:60", 0), "22:60"),
            (local(0, "aa:bb", 0), "aa:bb"),
            (local(0, "22:00", 15 * 60), "offset_min 900"),
        ] {
            let e = Slot::from_local(&l).unwrap_err();
            assert!(e.contains(word), "{e}");
        }
    }

    #[test]
    fn the_last_and_next_start_of_a_slot() {
        // 2024-01-04 was a Thursday: 20:00 UTC that day.
        let thursday_20 = 1_704_398_400;
        assert_eq!(Slot::minute_of_week(thursday_20), 3 * 1440 + 20 * 60);
        let s = Slot {
            minute: 3 * 1440 + 20 * 60,
            offset: 120,
        };
        assert_eq!(s.last_start(thursday_20), thursday_20);
        assert_eq!(s.next_start(thursday_20), thursday_20);
        assert_eq!(s.last_start(thursday_20 + 59), thursday_20);
        assert_eq!(s.next_start(thursday_20 + 1), thursday_20 + 7 * 86400);
        assert_eq!(s.last_start(thursday_20 - 1), thursday_20 - 7 * 86400);
        assert_eq!(s.next_start(thursday_20 - 3600), thursday_20);
    }

    #[test]
    fn names_are_bounded_and_plain() {
        assert_eq!(check_name("  Los del jueves ").unwrap(), "Los del jueves");
        assert!(check_name("  ").unwrap_err().contains("empty"));
        assert!(check_name(&"a".repeat(41)).unwrap_err().contains("41"));
        assert!(check_name("a\u{200B}b").unwrap_err().contains("invisible"));
        assert!(check_name("a\nb").unwrap_err().contains("control"));
    }

    #[test]
    fn a_games_sides_follow_its_partnerships_and_its_scores_direction() {
        let outcome = json!({"winners": [1, 3], "scores": [0, 1, 0, 1], "places": [2, 1, 2, 1]});
        let g = league_game(
            "mus",
            true,
            false,
            &[Some(1), None, Some(2), Some(3)],
            &outcome,
        )
        .unwrap();
        assert_eq!(g.sides, vec![vec![Some(1), Some(2)], vec![None, Some(3)]]);
        assert_eq!(g.winners, vec![1]);
        assert_eq!(g.points, vec![0, 1]);
        let outcome = json!({"winners": [0], "scores": [12, 40, 77]});
        let g = league_game("chinchon", false, true, &[Some(1), Some(2), None], &outcome).unwrap();
        assert_eq!(g.sides.len(), 3);
        assert_eq!(g.winners, vec![0]);
        assert_eq!(g.points, vec![-12, -40, -77]);
        assert!(league_game("ring", false, false, &[Some(1)], &Value::Null).is_none());
    }
}
