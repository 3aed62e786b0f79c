//! Pacing: when the table's bot acts — its pace, the end of a hand held for people to
//! read, the turn clock, forced decisions and the backoff after a failed write
//! ([`Pacing`]); and the table's part in it (who the bot plays, when to wake).

use super::*;

/// The end of a hand, held for people to read.
struct Hold {
    until: Instant,
    /// Seated, connected people who have not said `next` yet.
    waiting: BTreeSet<Seat>,
}

/// The table's timers: the end of a hand held, the turn clocks, the backoff after a
/// failed write, and the bot's turn (thinking, and when it last played).
///
/// It keeps: a hold waits for somebody (a hold nobody is waiting for is no hold); a
/// clock runs only for the seats it is told need one; the backoff grows from 1 s,
/// doubling, to [`MAX_BACKOFF`], and a success forgets it.
pub(super) struct Pacing {
    /// The turn clock: when each seat a person holds must have acted by.
    clocks: BTreeMap<Seat, Instant>,
    hold: Option<Hold>,
    /// After a failed write: no bot plays before this, and the next wait is longer.
    backoff: Option<(Instant, Duration)>,
    /// When the last bot action was applied (for the pace of all-bot tables).
    last_bot: Instant,
    /// A bot is thinking.
    bot_busy: bool,
}

impl Pacing {
    /// Nothing held, no clock, no backoff; the last bot action counted from `now`.
    pub(super) fn new(now: Instant) -> Pacing {
        Pacing {
            clocks: BTreeMap::new(),
            hold: None,
            backoff: None,
            last_bot: now,
            bot_busy: false,
        }
    }

    /// The moments a timer of its own ends: a hold, a backoff, a turn clock.
    pub(super) fn wakes(&self) -> impl Iterator<Item = Instant> + '_ {
        let hold = self.hold.as_ref().map(|h| h.until);
        let backoff = self.backoff.map(|(until, _)| until);
        hold.into_iter()
            .chain(backoff)
            .chain(self.clocks.values().copied())
    }

    /// Holds the end of a hand for `hold_for`, until the people `waiting` have read it;
    /// nothing is held when nobody would be waited for or there is no time to hold.
    pub(super) fn hold(&mut self, waiting: BTreeSet<Seat>, hold_for: Duration, now: Instant) {
        self.hold = (!hold_for.is_zero() && !waiting.is_empty()).then(|| Hold {
            until: now + hold_for,
            waiting,
        });
    }

    /// Whether the end of a hand is held.
    pub(super) fn is_holding(&self) -> bool {
        self.hold.is_some()
    }

    /// Whether the bots must still wait at `now`: someone is reading and time is left.
    pub(super) fn holds_at(&self, now: Instant) -> bool {
        self.hold
            .as_ref()
            .is_some_and(|h| !h.waiting.is_empty() && now < h.until)
    }

    /// Ends the hold; whether there was one.
    pub(super) fn end_hold(&mut self) -> bool {
        self.hold.take().is_some()
    }

    /// The person at `seat` has read the end of the hand (or left); whether the hold was
    /// waiting for them.
    pub(super) fn not_waiting_for(&mut self, seat: Seat) -> bool {
        self.hold.as_mut().is_some_and(|h| h.waiting.remove(&seat))
    }

    /// The hold as a state shows it at `now`: the time left and who is waited for.
    pub(super) fn hold_left(&self, now: Instant) -> Option<(Duration, &BTreeSet<Seat>)> {
        let h = self.hold.as_ref()?;
        Some((h.until.saturating_duration_since(now), &h.waiting))
    }

    /// The clocks run out by `now`, taken off.
    pub(super) fn expired_clocks(&mut self, now: Instant) -> Vec<Seat> {
        let expired: Vec<Seat> = self
            .clocks
            .iter()
            .filter(|(_, until)| **until <= now)
            .map(|(s, _)| *s)
            .collect();
        for s in &expired {
            self.clocks.remove(s);
        }
        expired
    }

    /// Clocks run for exactly the seats in `need`: a new one gets `turn` from `now`, one
    /// already running keeps its time. Whether any clock started or stopped.
    pub(super) fn run_clocks(
        &mut self,
        need: &BTreeSet<Seat>,
        turn: Duration,
        now: Instant,
    ) -> bool {
        let before = self.clocks.len();
        self.clocks.retain(|s, _| need.contains(s));
        let mut changed = self.clocks.len() != before;
        for seat in need {
            if let std::collections::btree_map::Entry::Vacant(e) = self.clocks.entry(*seat) {
                e.insert(now + turn);
                changed = true;
            }
        }
        changed
    }

    /// `seat` has played: if its turn goes on, its clock starts again.
    pub(super) fn played(&mut self, seat: Seat) {
        self.clocks.remove(&seat);
    }

    /// Each running clock's seat and time left at `now`.
    pub(super) fn clocks_left(&self, now: Instant) -> Vec<(Seat, Duration)> {
        self.clocks
            .iter()
            .map(|(s, until)| (*s, until.saturating_duration_since(now)))
            .collect()
    }

    /// Notes how a write the table did by itself went: a failure makes the bots wait
    /// (1 s, doubling up to a minute); the wait, for the log.
    pub(super) fn wrote(&mut self, ok: bool, now: Instant) -> Option<Duration> {
        if ok {
            self.backoff = None;
            return None;
        }
        let wait = self
            .backoff
            .map_or(Duration::from_secs(1), |(_, w)| (w * 2).min(MAX_BACKOFF));
        self.backoff = Some((now + wait, wait));
        Some(wait)
    }

    /// The database is back: the bots need not wait out their backoff.
    pub(super) fn forgive(&mut self) {
        self.backoff = None;
    }

    pub(super) fn backing_off(&self, now: Instant) -> bool {
        self.backoff.is_some_and(|(until, _)| now < until)
    }

    pub(super) fn bot_busy(&self) -> bool {
        self.bot_busy
    }

    /// A bot starts thinking.
    pub(super) fn bot_thinks(&mut self) {
        self.bot_busy = true;
    }

    /// The bot's thinking is over (played or not).
    pub(super) fn bot_answered(&mut self) {
        self.bot_busy = false;
    }

    /// A bot's action was played at `now`.
    pub(super) fn bot_played(&mut self, now: Instant) {
        self.last_bot = now;
    }

    /// How long a bot waits at `now` before acting: `pace`, and at a table where no person
    /// holds a seat at least [`ALL_BOTS_PACE`] after the last bot action.
    pub(super) fn bot_pace(&self, pace: Duration, all_bots: bool, now: Instant) -> Duration {
        if all_bots {
            let since = now.saturating_duration_since(self.last_bot);
            pace.max(ALL_BOTS_PACE.saturating_sub(since))
        } else {
            pace
        }
    }
}

/// How long a person whose turn it is must have been gone from the table to be told (a
/// page reloading is not gone).
pub(super) const TURN_NOTICE_AFTER: Duration = Duration::from_secs(10);

impl Actor {
    /// The next moment something happens without a message: a hold ends, a person's
    /// away time runs out, a backoff ends, the table has been idle long enough.
    pub(super) fn next_wake(&self) -> Option<Instant> {
        let mut at: Vec<Instant> = self.pacing.wakes().collect();
        let away = Duration::from_secs(self.row.away_s);
        for seat in self.game.to_act() {
            at.extend(self.seating.away_from(seat, away));
            at.extend(self.seating.away_from(seat, TURN_NOTICE_AFTER));
        }
        if let Some(since) = self.conns.empty_since() {
            at.push(since + self.idle_after());
        }
        at.extend(self.private_wake());
        if self.delays_watchers() {
            at.extend(self.watch.next_due());
        }
        let now = self.now();
        at.into_iter().filter(|t| *t > now).min()
    }

    /// Whether the person at `seat` has been gone long enough, or let their turn clock run
    /// out, for the bot to play for them.
    pub(super) fn is_away(&self, seat: Seat) -> bool {
        self.seating
            .is_away(seat, self.now(), Duration::from_secs(self.row.away_s))
    }

    /// The person `player` is back after their turn clock ran out: the seat is theirs again.
    pub(super) fn back(&mut self, player: i64) {
        if self.seating.back(player) {
            self.conns.owe_state();
        }
    }

    /// Keeps the turn clock: a clock runs for each seat a person holds whose turn it is
    /// (none while the end of a hand is held); one that has run out marks its person away,
    /// so the table's bot plays for them until they act again.
    pub(super) fn tick_clocks(&mut self) {
        let now = self.now();
        for seat in self.pacing.expired_clocks(now) {
            self.seating.time_out(seat);
            self.conns.owe_state();
        }
        let need: BTreeSet<Seat> = if self.row.turn_s == 0
            || self.row.status != TableStatus::Playing
            || self.pacing.is_holding()
        {
            BTreeSet::new()
        } else {
            self.game
                .to_act()
                .into_iter()
                .filter(|s| self.person_at(*s).is_some() && !self.bot_plays(*s))
                .collect()
        };
        if self
            .pacing
            .run_clocks(&need, Duration::from_secs(self.row.turn_s), now)
        {
            self.conns.owe_state();
        }
    }

    /// Tells each person whose turn it is, gone from the table for [`TURN_NOTICE_AFTER`]
    /// and not yet played for by the bot, that it is their turn (a notice, pushed to their
    /// browsers): once a turn, a turn lasting while their seat is to act.
    pub(super) fn notice_turns(&mut self) {
        let to_act: Vec<(Seat, i64)> = if self.row.status == TableStatus::Playing {
            self.game
                .to_act()
                .into_iter()
                .filter_map(|s| self.person_at(s).map(|p| (s, p.id)))
                .collect()
        } else {
            Vec::new()
        };
        self.turn_noticed
            .retain(|p| to_act.iter().any(|(_, q)| q == p));
        let now = self.now();
        for (seat, player) in to_act {
            let gone = self
                .seating
                .away_from(seat, TURN_NOTICE_AFTER)
                .is_some_and(|at| now >= at);
            if !gone || self.bot_plays(seat) || !self.turn_noticed.insert(player) {
                continue;
            }
            let mut args = serde_json::Map::new();
            args.insert("game".into(), Value::String(self.row.game.clone()));
            self.env.notices.tell(
                player,
                crate::notices::Notice {
                    kind: crate::notices::NoticeKind::Turn,
                    url: format!("/t/{}", self.row.id),
                    args,
                },
            );
        }
    }

    /// Whether the table's bot plays `seat` now: nobody holds it, or its person is away.
    pub(super) fn bot_plays(&self, seat: Seat) -> bool {
        self.seating.is_free(seat) || self.is_away(seat)
    }

    /// The person at `seat` is done reading the end of the hand.
    pub(super) fn seen_the_end(&mut self, seat: Seat) {
        if self.pacing.not_waiting_for(seat) {
            self.conns.owe_state();
        }
    }

    /// A hand just ended: the bots wait until the people at the table have read it.
    pub(super) fn hold_the_end(&mut self) {
        let waiting: BTreeSet<Seat> = self
            .seating
            .seated()
            .filter(|(_, p)| self.conns.is_connected(p.id))
            .map(|(s, _)| s)
            .collect();
        let hold_for = Duration::from_secs(self.row.hold_s);
        self.pacing.hold(waiting, hold_for, self.now());
    }

    pub(super) async fn bot_done(&mut self, n: u64, seat: Seat, action: Option<String>) {
        self.pacing.bot_answered();
        if n != self.n || !self.bot_plays(seat) || self.row.status != TableStatus::Playing {
            return;
        }
        let legal = self.game.legal(seat);
        let Some(first) = legal.first().cloned() else {
            return;
        };
        let action = match action {
            Some(a) => match self.game.check(seat, &a) {
                Ok(_) => a,
                Err(e) => {
                    tracing::warn!(seat, "the bot played `{a}`, refused: {e}");
                    first
                }
            },
            None => first,
        };
        let result = self.play(seat, &action, true).await.map(|_| ());
        self.wrote(result);
        self.pacing.bot_played(self.now());
    }

    /// Notes how a write the table did by itself went: after a failure no bot plays for
    /// a while (1 s, doubling up to a minute), with one line in the log per failure.
    pub(super) fn wrote(&mut self, result: Result<(), Refusal>) {
        if let Some(wait) = self.pacing.wrote(result.is_ok(), self.now()) {
            if let Err(e) = result {
                tracing::warn!("{e}; trying again in {} s", wait.as_secs());
            }
        }
    }

    pub(super) fn backing_off(&self) -> bool {
        self.pacing.backing_off(self.now())
    }

    /// A person's only legal action is played for them (a forced declaration, say), as the
    /// terminal does.
    pub(super) async fn play_forced(&mut self) {
        while self.row.status == TableStatus::Playing && !self.backing_off() {
            let forced = self.game.to_act().into_iter().find_map(|seat| {
                if self.person_at(seat).is_none() || self.is_away(seat) {
                    return None;
                }
                let legal = self.game.legal(seat);
                (legal.len() == 1).then(|| (seat, legal[0].clone()))
            });
            let Some((seat, action)) = forced else {
                return;
            };
            let r = self.play(seat, &action, false).await.map(|_| ());
            let failed = r.is_err();
            self.wrote(r);
            if failed {
                return;
            }
        }
    }

    pub(super) fn schedule_bot(&mut self) {
        if self.pacing.bot_busy()
            || self.row.status != TableStatus::Playing
            || (self.conns.is_empty() && !self.row.rated && !self.private.in_tournament())
            || self.backing_off()
        {
            return;
        }
        let now = self.now();
        if self.pacing.holds_at(now) {
            return;
        }
        if self.pacing.end_hold() {
            self.conns.owe_state();
        }
        let Some(seat) = self.game.to_act().into_iter().find(|s| self.bot_plays(*s)) else {
            return;
        };
        let pace = self.pacing.bot_pace(
            Duration::from_millis(self.row.pace_ms),
            self.seating.no_person_seated(),
            now,
        );
        let job = match self.game.bot_job(
            seat,
            &self.row.bot,
            bot_seed(&self.row.id, self.row.seed, self.n, seat),
        ) {
            Ok(j) => j,
            Err(e) => {
                tracing::error!(bot = %self.row.bot, "the bot cannot play: {e}");
                return;
            }
        };
        self.pacing.bot_thinks();
        let me = self.me.clone();
        let n = self.n;
        let threads = self.env.bot_threads.clone();
        tokio::spawn(async move {
            if !pace.is_zero() {
                tokio::time::sleep(pace).await;
            }
            let action = match threads.acquire_owned().await {
                Ok(permit) => tokio::task::spawn_blocking(move || {
                    let a = job();
                    drop(permit);
                    a
                })
                .await
                .ok(),
                Err(_) => None,
            };
            let _ = me.send(Cmd::BotDone { n, seat, action });
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hold_waits_for_its_readers_until_its_time_is_up() {
        let now = Instant::now();
        let mut p = Pacing::new(now);
        p.hold(BTreeSet::new(), Duration::from_secs(10), now);
        assert!(!p.is_holding(), "nobody to wait for: no hold");
        p.hold(BTreeSet::from([0, 2]), Duration::ZERO, now);
        assert!(!p.is_holding(), "no time to hold");
        p.hold(BTreeSet::from([0, 2]), Duration::from_secs(10), now);
        assert!(p.holds_at(now));
        assert!(!p.holds_at(now + Duration::from_secs(10)), "time is up");
        assert!(p.not_waiting_for(0));
        assert!(!p.not_waiting_for(0));
        assert!(p.holds_at(now));
        assert!(p.not_waiting_for(2));
        assert!(!p.holds_at(now), "everybody has read it");
        assert!(p.is_holding(), "until it is ended");
        assert_eq!(
            p.wakes().collect::<Vec<_>>(),
            [now + Duration::from_secs(10)]
        );
        assert!(p.end_hold());
        assert!(!p.end_hold());
    }

    #[test]
    fn clocks_run_for_the_seats_that_need_them_and_keep_their_time() {
        let now = Instant::now();
        let turn = Duration::from_secs(30);
        let mut p = Pacing::new(now);
        assert!(p.run_clocks(&BTreeSet::from([1]), turn, now));
        let later = now + Duration::from_secs(10);
        assert!(!p.run_clocks(&BTreeSet::from([1]), turn, later), "kept");
        assert_eq!(p.clocks_left(later), [(1, Duration::from_secs(20))]);
        p.played(1);
        assert!(p.run_clocks(&BTreeSet::from([1, 2]), turn, later));
        assert_eq!(
            p.clocks_left(later),
            [(1, turn), (2, turn)],
            "started again"
        );
        assert!(p.run_clocks(&BTreeSet::from([2]), turn, later), "1 stopped");
        assert!(p.expired_clocks(later).is_empty());
        assert_eq!(p.expired_clocks(later + turn), [2]);
        assert!(p.clocks_left(later).is_empty());
    }

    #[test]
    fn the_backoff_doubles_to_a_minute_and_a_success_forgets_it() {
        let now = Instant::now();
        let mut p = Pacing::new(now);
        let waits: Vec<u64> = (0..8)
            .map(|_| p.wrote(false, now).unwrap().as_secs())
            .collect();
        assert_eq!(waits, [1, 2, 4, 8, 16, 32, 60, 60]);
        assert!(p.backing_off(now));
        assert!(!p.backing_off(now + MAX_BACKOFF));
        assert_eq!(p.wrote(true, now), None);
        assert!(!p.backing_off(now));
        assert_eq!(p.wrote(false, now), Some(Duration::from_secs(1)));
    }

    #[test]
    fn bots_alone_at_a_table_keep_to_their_pace() {
        let now = Instant::now();
        let mut p = Pacing::new(now);
        let pace = Duration::from_millis(200);
        assert_eq!(p.bot_pace(pace, false, now), pace);
        assert_eq!(p.bot_pace(pace, true, now), ALL_BOTS_PACE);
        p.bot_played(now);
        let later = now + Duration::from_millis(900);
        assert_eq!(p.bot_pace(pace, true, later), pace);
        assert_eq!(
            p.bot_pace(Duration::ZERO, true, later),
            Duration::from_millis(100)
        );
        p.bot_thinks();
        assert!(p.bot_busy());
        p.bot_answered();
        assert!(!p.bot_busy());
    }
}
