//! Pacing: when the table's bot acts — its pace, the end of a hand held for people to
//! read, people away (gone, or out of turn-clock time), the turn clock, forced decisions
//! and the backoff after a failed write.

use super::*;

impl Actor {
    /// The next moment something happens without a message: a hold ends, a person's
    /// away time runs out, a backoff ends, the table has been idle long enough.
    pub(super) fn next_wake(&self) -> Option<Instant> {
        let mut at: Vec<Instant> = Vec::new();
        if let Some(h) = &self.hold {
            at.push(h.until);
        }
        if let Some((until, _)) = self.backoff {
            at.push(until);
        }
        let away = Duration::from_secs(self.row.away_s);
        for seat in self.game.to_act() {
            if let Some(since) = self
                .person_at(seat)
                .and_then(|p| self.gone_since.get(&p.id))
            {
                at.push(*since + away);
            }
        }
        at.extend(self.clocks.values().copied());
        if let Some(since) = self.empty_since {
            at.push(since + self.idle_after());
        }
        let now = Instant::now();
        at.into_iter().filter(|t| *t > now).min()
    }

    /// Whether the person at `seat` has been gone long enough, or let their turn clock run
    /// out, for the bot to play for them.
    pub(super) fn is_away(&self, seat: Seat) -> bool {
        let Some(p) = self.person_at(seat) else {
            return false;
        };
        self.timed_out.contains(&p.id)
            || self.gone_since.get(&p.id).is_some_and(|since| {
                Instant::now() >= *since + Duration::from_secs(self.row.away_s)
            })
    }

    /// The person `player` is back after their turn clock ran out: the seat is theirs again.
    pub(super) fn back(&mut self, player: i64) {
        if self.timed_out.remove(&player) {
            self.dirty = true;
        }
    }

    /// Keeps the turn clock: a clock runs for each seat a person holds whose turn it is
    /// (none while the end of a hand is held); one that has run out marks its person away,
    /// so the table's bot plays for them until they act again.
    pub(super) fn tick_clocks(&mut self) {
        let now = Instant::now();
        let expired: Vec<Seat> = self
            .clocks
            .iter()
            .filter(|(_, until)| **until <= now)
            .map(|(s, _)| *s)
            .collect();
        for seat in expired {
            self.clocks.remove(&seat);
            if let Some(p) = self.person_at(seat) {
                self.timed_out.insert(p.id);
            }
            self.dirty = true;
        }
        let held = self.hold.is_some();
        let need: BTreeSet<Seat> = if self.row.turn_s == 0 || self.row.status != PLAYING || held {
            BTreeSet::new()
        } else {
            self.game
                .to_act()
                .into_iter()
                .filter(|s| self.person_at(*s).is_some() && !self.bot_plays(*s))
                .collect()
        };
        let before = self.clocks.len();
        self.clocks.retain(|s, _| need.contains(s));
        if self.clocks.len() != before {
            self.dirty = true;
        }
        let turn = Duration::from_secs(self.row.turn_s);
        for seat in need {
            if let std::collections::btree_map::Entry::Vacant(e) = self.clocks.entry(seat) {
                e.insert(now + turn);
                self.dirty = true;
            }
        }
    }

    /// Whether the table's bot plays `seat` now: nobody holds it, or its person is away.
    pub(super) fn bot_plays(&self, seat: Seat) -> bool {
        self.seats.get(seat).is_some_and(Option::is_none) || self.is_away(seat)
    }

    /// The person at `seat` is done reading the end of the hand.
    pub(super) fn seen_the_end(&mut self, seat: Seat) {
        if let Some(h) = &mut self.hold {
            if h.waiting.remove(&seat) {
                self.dirty = true;
            }
        }
    }

    /// A hand just ended: the bots wait until the people at the table have read it.
    pub(super) fn hold_the_end(&mut self) {
        let waiting: BTreeSet<Seat> = self
            .seats
            .iter()
            .enumerate()
            .filter_map(|(s, p)| p.as_ref().map(|p| (s, p.id)))
            .filter(|(_, id)| self.is_connected(*id))
            .map(|(s, _)| s)
            .collect();
        self.hold = (self.row.hold_s > 0 && !waiting.is_empty()).then(|| Hold {
            until: Instant::now() + Duration::from_secs(self.row.hold_s),
            waiting,
        });
    }

    pub(super) async fn bot_done(&mut self, n: u64, seat: Seat, action: Option<String>) {
        self.bot_busy = false;
        if n != self.n || !self.bot_plays(seat) || self.row.status != PLAYING {
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
                    eprintln!(
                        "table {}: bot at seat {seat} played `{a}`: {e}",
                        self.row.id
                    );
                    first
                }
            },
            None => first,
        };
        let result = self.play(seat, &action).await.map(|_| ());
        self.wrote(result);
        self.last_bot = Instant::now();
    }

    /// Notes how a write the table did by itself went: after a failure no bot plays for
    /// a while (1 s, doubling up to a minute), with one line in the log per failure.
    pub(super) fn wrote(&mut self, result: Result<(), String>) {
        match result {
            Ok(()) => self.backoff = None,
            Err(e) => {
                let wait = self
                    .backoff
                    .map_or(Duration::from_secs(1), |(_, w)| (w * 2).min(MAX_BACKOFF));
                eprintln!(
                    "table {}: {e}; trying again in {} s",
                    self.row.id,
                    wait.as_secs()
                );
                self.backoff = Some((Instant::now() + wait, wait));
            }
        }
    }

    pub(super) fn backing_off(&self) -> bool {
        self.backoff
            .is_some_and(|(until, _)| Instant::now() < until)
    }

    /// A person's only legal action is played for them (a forced declaration, say), as the
    /// terminal does.
    pub(super) async fn play_forced(&mut self) {
        while self.row.status == PLAYING && !self.backing_off() {
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
            let r = self.play(seat, &action).await.map(|_| ());
            let failed = r.is_err();
            self.wrote(r);
            if failed {
                return;
            }
        }
    }

    pub(super) fn schedule_bot(&mut self) {
        if self.bot_busy
            || self.row.status != PLAYING
            || self.conns.is_empty()
            || self.backing_off()
        {
            return;
        }
        if let Some(h) = &self.hold {
            if !h.waiting.is_empty() && Instant::now() < h.until {
                return;
            }
            self.hold = None;
            self.dirty = true;
        }
        let Some(seat) = self.game.to_act().into_iter().find(|s| self.bot_plays(*s)) else {
            return;
        };
        let mut pace = Duration::from_millis(self.row.pace_ms);
        if self.no_person_seated() {
            let since = Instant::now().saturating_duration_since(self.last_bot);
            pace = pace.max(ALL_BOTS_PACE.saturating_sub(since));
        }
        let job =
            match self
                .game
                .bot_job(seat, &self.row.bot, bot_seed(self.row.seed, self.n, seat))
            {
                Ok(j) => j,
                Err(e) => {
                    eprintln!("table {}: bot `{}`: {e}", self.row.id, self.row.bot);
                    return;
                }
            };
        self.bot_busy = true;
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
