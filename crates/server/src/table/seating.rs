//! Seating: who sits where, the seats asked for and granted at the next hand, who has
//! seen which seat this hand, who is away, and the names a table shows ([`Seating`]);
//! and the table's part in it (the moves written to storage first, connections coming
//! and going).

use super::*;

/// Who holds the seats and what each person has seen: the seats, the seats asked for
/// (granted at the next hand), who has held which seat this hand (and so seen its cards),
/// and who is away (all their connections gone, or out of turn-clock time).
///
/// It keeps: a person holds one seat at most; whoever sits at a seat has seen it this
/// hand; only a seated person is gone or timed out (standing up forgets both); a request
/// names a seat of the table.
pub(super) struct Seating {
    seats: Vec<Option<PlayerRef>>,
    /// Seats people asked for that they get at the next hand: player → (player, seat).
    pending: HashMap<i64, (PlayerRef, Seat)>,
    /// The seat each person has held during this hand: they have seen its cards.
    hand_seats: HashMap<i64, Seat>,
    /// When each seated person's last connection closed.
    gone_since: HashMap<i64, Instant>,
    /// People whose turn clock ran out: the bot plays for them until they are back.
    timed_out: HashSet<i64>,
}

impl Seating {
    /// The seating of a table as stored, with the requests and the looks at this hand
    /// stored with it. Nobody is connected yet: every seated person is gone from `now`.
    /// Whoever sits has seen their seat (a database from before the looks were stored
    /// knows only that). People listed twice keep their first seat; requests for seats
    /// the table does not have are dropped.
    pub(super) fn restore(
        stored: Vec<Option<PlayerRef>>,
        pending: Vec<(PlayerRef, Seat)>,
        hand_seats: Vec<(i64, Seat)>,
        now: Instant,
    ) -> Seating {
        let mut seats: Vec<Option<PlayerRef>> = vec![None; stored.len()];
        for (s, p) in stored.into_iter().enumerate() {
            if let Some(p) = p.filter(|p| !seats.iter().flatten().any(|q| q.id == p.id)) {
                seats[s] = Some(p);
            }
        }
        let mut hand_seats: HashMap<i64, Seat> = hand_seats.into_iter().collect();
        let mut gone_since = HashMap::new();
        for (s, p) in seats.iter().enumerate() {
            if let Some(p) = p {
                hand_seats.insert(p.id, s);
                gone_since.insert(p.id, now);
            }
        }
        let pending = pending
            .into_iter()
            .filter(|(_, s)| *s < seats.len())
            .map(|(p, s)| (p.id, (p, s)))
            .collect();
        Seating {
            seats,
            pending,
            hand_seats,
            gone_since,
            timed_out: HashSet::new(),
        }
    }

    /// Seats at the table.
    pub(super) fn count(&self) -> usize {
        self.seats.len()
    }

    pub(super) fn person_at(&self, seat: Seat) -> Option<&PlayerRef> {
        self.seats.get(seat).and_then(Option::as_ref)
    }

    /// Whether `seat` is a seat of the table nobody holds.
    pub(super) fn is_free(&self, seat: Seat) -> bool {
        self.seats.get(seat).is_some_and(Option::is_none)
    }

    pub(super) fn no_person_seated(&self) -> bool {
        self.seats.iter().all(Option::is_none)
    }

    pub(super) fn all_taken(&self) -> bool {
        self.seats.iter().all(Option::is_some)
    }

    pub(super) fn seat_of(&self, player: i64) -> Option<Seat> {
        self.seats
            .iter()
            .position(|s| s.as_ref().is_some_and(|p| p.id == player))
    }

    /// The people seated, by seat.
    pub(super) fn seated(&self) -> impl Iterator<Item = (Seat, &PlayerRef)> {
        self.seats
            .iter()
            .enumerate()
            .filter_map(|(s, p)| p.as_ref().map(|p| (s, p)))
    }

    /// The seat `player` asked for, to be granted at the next hand.
    pub(super) fn asked(&self, player: i64) -> Option<Seat> {
        self.pending.get(&player).map(|(_, s)| *s)
    }

    /// Whether somebody asked for `seat` at the next hand.
    pub(super) fn is_asked(&self, seat: Seat) -> bool {
        self.pending.values().any(|(_, s)| *s == seat)
    }

    /// `player` asks for `seat` at the next hand (a later request replaces an earlier).
    pub(super) fn ask(&mut self, player: PlayerRef, seat: Seat) {
        if seat < self.seats.len() {
            self.pending.insert(player.id, (player, seat));
        }
    }

    /// Forgets `player`'s request; whether there was one.
    pub(super) fn forget_ask(&mut self, player: i64) -> bool {
        self.pending.remove(&player).is_some()
    }

    /// Forgets every request (the game is over).
    pub(super) fn forget_asks(&mut self) {
        self.pending.clear();
    }

    /// Every request, taken out: a new hand grants them.
    pub(super) fn take_asks(&mut self) -> Vec<(PlayerRef, Seat)> {
        self.pending.drain().map(|(_, v)| v).collect()
    }

    /// Whether `player` has seen the cards of a seat other than `seat` this hand.
    pub(super) fn has_seen_another(&self, player: i64, seat: Seat) -> bool {
        self.hand_seats.get(&player).is_some_and(|s| *s != seat)
    }

    /// `seat` is left empty (its person moves or stands up).
    pub(super) fn vacate(&mut self, seat: Seat) {
        if let Some(s) = self.seats.get_mut(seat) {
            *s = None;
        }
    }

    /// `player` sits at `seat` (free, or theirs) and so sees it this hand; gone from `now`
    /// unless `connected`. Left where they were when the seat is another person's.
    pub(super) fn sit(&mut self, player: PlayerRef, seat: Seat, connected: bool, now: Instant) {
        let Some(place) = self.seats.get_mut(seat) else {
            return;
        };
        if place.as_ref().is_some_and(|q| q.id != player.id) {
            return;
        }
        let id = player.id;
        *place = Some(player);
        if let Some(old) = self.seat_of_other_than(id, seat) {
            self.seats[old] = None;
        }
        self.hand_seats.insert(id, seat);
        if connected {
            self.gone_since.remove(&id);
        } else {
            self.gone_since.insert(id, now);
        }
    }

    fn seat_of_other_than(&self, player: i64, seat: Seat) -> Option<Seat> {
        self.seats
            .iter()
            .enumerate()
            .position(|(s, p)| s != seat && p.as_ref().is_some_and(|p| p.id == player))
    }

    /// `player` holds no seat any more: neither gone nor timed out.
    pub(super) fn stood(&mut self, player: i64) {
        self.gone_since.remove(&player);
        self.timed_out.remove(&player);
    }

    /// A new hand: each person has seen only the seat they hold now.
    pub(super) fn new_hand(&mut self) {
        self.hand_seats = self.seated().map(|(s, p)| (p.id, s)).collect();
    }

    /// `player` opened a connection: they are not gone, and not out of time any more.
    /// Says whether they were gone while seated, and whether they were timed out.
    pub(super) fn arrived(&mut self, player: i64) -> (bool, bool) {
        let seated = self.seat_of(player).is_some();
        let was_gone = self.gone_since.remove(&player).is_some() && seated;
        (was_gone, self.timed_out.remove(&player))
    }

    /// `player`'s last connection closed: if seated, they are gone from `now`; their seat.
    pub(super) fn left(&mut self, player: i64, now: Instant) -> Option<Seat> {
        let seat = self.seat_of(player)?;
        self.gone_since.insert(player, now);
        Some(seat)
    }

    /// When the person at `seat`, gone, becomes away after `away`.
    pub(super) fn away_from(&self, seat: Seat, away: Duration) -> Option<Instant> {
        let p = self.person_at(seat)?;
        self.gone_since.get(&p.id).map(|since| *since + away)
    }

    /// Whether the person at `seat` has been gone `away` by `now`, or let their turn
    /// clock run out: the bot plays for them.
    pub(super) fn is_away(&self, seat: Seat, now: Instant, away: Duration) -> bool {
        let Some(p) = self.person_at(seat) else {
            return false;
        };
        self.timed_out.contains(&p.id) || self.away_from(seat, away).is_some_and(|at| now >= at)
    }

    /// The turn clock of the person at `seat` ran out.
    pub(super) fn time_out(&mut self, seat: Seat) {
        if let Some(id) = self.person_at(seat).map(|p| p.id) {
            self.timed_out.insert(id);
        }
    }

    /// `player` is back after their turn clock ran out; whether they were out of time.
    pub(super) fn back(&mut self, player: i64) -> bool {
        self.timed_out.remove(&player)
    }

    /// The people at the seats as the table shows them: a nickname already shown at an
    /// earlier seat for another person gets a number, "Ane (2)", so two guests of one
    /// name can be told apart.
    /// `player` is now called `nickname`: at their seat and in their request.
    pub(super) fn rename(&mut self, player: i64, nickname: &str) {
        let people = self.seats.iter_mut().flatten();
        let asking = self.pending.values_mut().map(|(p, _)| p);
        for p in people.chain(asking).filter(|p| p.id == player) {
            p.nickname = nickname.to_string();
        }
    }

    pub(super) fn shown_players(&self) -> Vec<Option<PlayerRef>> {
        let mut seen: Vec<(String, Vec<i64>)> = Vec::new();
        self.seats
            .iter()
            .map(|p| {
                let p = p.as_ref()?;
                let ids = match seen.iter_mut().find(|(n, _)| *n == p.nickname) {
                    Some((_, ids)) => ids,
                    None => {
                        seen.push((p.nickname.clone(), Vec::new()));
                        &mut seen.last_mut()?.1
                    }
                };
                let k = match ids.iter().position(|id| *id == p.id) {
                    Some(k) => k,
                    None => {
                        ids.push(p.id);
                        ids.len() - 1
                    }
                };
                Some(PlayerRef {
                    id: p.id,
                    nickname: if k == 0 {
                        p.nickname.clone()
                    } else {
                        format!("{} ({})", p.nickname, k + 1)
                    },
                })
            })
            .collect()
    }
}

impl Actor {
    pub(super) fn person_at(&self, seat: Seat) -> Option<&PlayerRef> {
        self.seating.person_at(seat)
    }

    pub(super) fn player_of(&self, conn: u64) -> Option<PlayerRef> {
        self.conns.player_of(conn)
    }

    pub(super) fn seat_of(&self, player: i64) -> Option<Seat> {
        self.seating.seat_of(player)
    }

    pub(super) fn is_connected(&self, player: i64) -> bool {
        self.conns.is_connected(player)
    }

    pub(super) fn connect(
        &mut self,
        conn: u64,
        player: Option<PlayerRef>,
        addr: Option<String>,
        out: OutSender,
        close: oneshot::Sender<()>,
    ) {
        let seated = player.as_ref().and_then(|p| self.seat_of(p.id)).is_some();
        let refusal = if seated {
            let mine = player.as_ref().map_or(0, |p| self.conns.count_of(p.id));
            (mine >= MAX_CONNS_PER_PLAYER).then(|| {
                Refusal::new(
                    Code::TooManyConnections,
                    format!("you already have {mine} connections to this table: close one first"),
                )
            })
        } else {
            let watchers = self
                .conns
                .iter()
                .filter(|(_, c)| c.player.as_ref().and_then(|p| self.seat_of(p.id)).is_none())
                .count();
            (watchers >= self.env.max_watchers).then(|| {
                Refusal::new(
                    Code::TableFull,
                    "this table has as many watchers as it takes: try again later",
                )
            })
        };
        if let Some(r) = refusal {
            let m = ServerMsg::Error(r.into()).text();
            let _ = out.try_send(m.into());
            return; // `close` is dropped: the connection closes after the error.
        }
        if let Some(p) = &player {
            let (was_gone, was_timed_out) = self.seating.arrived(p.id);
            if was_gone {
                self.conns.owe_info();
            }
            // Opening the table again is being back.
            if was_timed_out {
                self.conns.owe_state();
            }
        }
        // Its first state goes out once the change is settled (a forced action played).
        self.conns.add(
            conn,
            Conn {
                player,
                out,
                _close: close,
                addr,
                told: None,
                chat_seated: None,
            },
        );
    }

    /// A connection is gone (closed, or dropped for being too slow): a seated person
    /// whose last connection it was is gone from now, and no end of a hand waits for them.
    pub(super) fn disconnect(&mut self, conn: u64) {
        let now = self.now();
        let Some(c) = self.conns.remove(conn, now) else {
            return;
        };
        if let Some(p) = c.player {
            if !self.is_connected(p.id) {
                if let Some(seat) = self.seating.left(p.id, now) {
                    self.pacing.not_waiting_for(seat);
                    self.conns.owe_info();
                }
            }
        }
    }

    /// When a seated person asks for a seat of the other partnership during a match, the
    /// question to put to them, naming that side and the score: its sentence, and the same as
    /// data for the pages to word in the person's language (`seats`, and `score` as rows of
    /// [what, theirs, ours]); `None` for any other move.
    pub(super) fn other_side(&self, conn: u64, seat: Seat) -> Option<(String, Value)> {
        let player = self.player_of(conn)?;
        let old = self.seat_of(player.id)?;
        if !self.kind.partners()
            || self.row.status != TableStatus::Playing
            || seat % 2 == old % 2
            || !self.seating.is_free(seat)
        {
            return None;
        }
        let sides: Vec<Seat> = (0..self.seating.count())
            .filter(|s| s % 2 == seat % 2)
            .collect();
        let names: Vec<String> = sides.iter().map(|s| s.to_string()).collect();
        let rows = self.game.score_rows();
        let (theirs, ours) = (seat % 2 + 1, old % 2 + 1);
        let cells: Vec<[String; 3]> = match (rows.first(), rows.get(theirs), rows.get(ours)) {
            (Some(head), Some(t), Some(o)) => (1..head.len())
                .filter_map(|c| Some([head[c].clone(), t.get(c)?.clone(), o.get(c)?.clone()]))
                .collect(),
            _ => Vec::new(),
        };
        let score: Vec<String> = cells
            .iter()
            .map(|[h, t, o]| format!("{h} {t}–{o}"))
            .collect();
        let now = if score.is_empty() {
            String::new()
        } else {
            format!(", now {} (theirs first)", score.join(", "))
        };
        let sentence = format!(
            "You would play for the other side (seats {}){now}. Move?",
            names.join(" and ")
        );
        Some((sentence, json!({"seats": sides, "score": cells})))
    }

    pub(super) async fn sit(&mut self, conn: u64, seat: Seat) -> Result<(), Refusal> {
        let player = self.player_of(conn).ok_or_else(|| {
            Refusal::new(
                Code::PickNickname,
                "pick a nickname first: spectators cannot sit",
            )
        })?;
        self.sit_player(player, seat).await
    }

    /// `player` sits at `seat`: at once before the start or between hands, else at the
    /// next deal (a seat changes hands only where its new holder sees nothing it would not
    /// show them).
    pub(super) async fn sit_player(
        &mut self,
        player: PlayerRef,
        seat: Seat,
    ) -> Result<(), Refusal> {
        if seat >= self.seating.count() {
            return Err(Refusal::new(
                Code::NoSuchSeat,
                format!(
                    "there is no seat {seat}: seats are 0 to {}",
                    self.seating.count() - 1
                ),
            ));
        }
        if self.row.status == TableStatus::Finished {
            return Err(Refusal::new(Code::GameOver, "the game is over"));
        }
        self.not_suspended(player.id).await?;
        if self.row.rated {
            self.may_sit_rated(&player, seat).await?;
        }
        if let Some(p) = self.seating.person_at(seat) {
            if p.id == player.id {
                return self.drop_pending(player.id).await;
            }
            return Err(Refusal::new(
                Code::SeatTaken,
                format!("seat {seat} is taken by {}", p.nickname),
            ));
        }
        self.check_kept(&player, seat)?;
        if self.row.status == TableStatus::Playing {
            // Cards are out: a seat changes hands only where its new holder sees nothing
            // that seat would not show them. Someone who has seen another seat's hand this
            // hand, or a hand already under way, waits for the next deal.
            let seen_other = self.seating.has_seen_another(player.id, seat);
            if seen_other || !self.game.at_boundary() {
                self.db_pending(player.id, Some(seat)).await?;
                self.seating.ask(player, seat);
                self.conns.owe_state();
                return Ok(());
            }
        }
        let id = player.id;
        self.move_to(player, Some(seat)).await?;
        self.took_seat(id, seat).await;
        self.note_addresses(id).await;
        if self.row.status == TableStatus::Waiting
            && (self.seating.all_taken() || self.all_accepted())
        {
            self.begin().await?;
        }
        Ok(())
    }

    /// Refuses a seat to a person suspended from the site, or from rated play at a rated
    /// table (see [`crate::operator`]). Someone already seated keeps their seat: the
    /// suspension bites at the next seat they take.
    pub(super) async fn not_suspended(&self, player: i64) -> Result<(), Refusal> {
        let suspension = self
            .env
            .db
            .suspension_of(player)
            .await
            .map_err(|e| Refusal::new(Code::Internal, format!("internal error: {e}")))?;
        match suspension.filter(|s| s.keeps_from(self.row.rated)) {
            Some(s) => Err(s.refusal()),
            None => Ok(()),
        }
    }

    pub(super) async fn db_pending(&self, player: i64, seat: Option<Seat>) -> Result<(), Refusal> {
        self.env
            .db
            .set_pending(self.row.id.clone(), player, seat)
            .await
            .map_err(|e| not_saved("the seat request", e))
    }

    pub(super) async fn drop_pending(&mut self, player: i64) -> Result<(), Refusal> {
        if self.seating.asked(player).is_some() {
            self.db_pending(player, None).await?;
            self.seating.forget_ask(player);
            self.conns.owe_state();
        }
        Ok(())
    }

    /// Moves `player` to `seat` (or off the table), in storage first.
    pub(super) async fn move_to(
        &mut self,
        player: PlayerRef,
        seat: Option<Seat>,
    ) -> Result<(), Refusal> {
        let saved = |e: crate::store::DbError| not_saved("the seat", e);
        if let Some(old) = self.seat_of(player.id) {
            self.env
                .db
                .set_seat(self.row.id.clone(), old, None)
                .await
                .map_err(saved)?;
            self.seating.vacate(old);
        }
        if let Some(s) = seat {
            self.env
                .db
                .set_seat(self.row.id.clone(), s, Some(player.id))
                .await
                .map_err(saved)?;
            let connected = self.is_connected(player.id);
            self.seating.sit(player.clone(), s, connected, self.now());
        } else {
            self.seating.stood(player.id);
        }
        self.drop_pending(player.id).await?;
        self.conns.owe_state();
        Ok(())
    }

    pub(super) async fn stand(&mut self, conn: u64) -> Result<(), Refusal> {
        let not_seated = || Refusal::new(Code::NotSeated, "you are not seated");
        let player = self.player_of(conn).ok_or_else(not_seated)?;
        if self.seat_of(player.id).is_none() {
            if self.seating.asked(player.id).is_some() {
                return self.drop_pending(player.id).await;
            }
            return Err(not_seated());
        }
        self.move_to(player, None).await
    }

    /// A new hand is dealt: seats asked for are granted before anybody sees it, and what
    /// each person has seen starts again.
    pub(super) async fn new_hand(&mut self) {
        for (p, s) in self.seating.take_asks() {
            let player = p.id;
            let taken = self.person_at(s).is_some_and(|q| q.id != p.id);
            let result = if taken {
                self.db_pending(p.id, None).await
            } else {
                self.move_to(p, Some(s)).await
            };
            if let Err(e) = result {
                tracing::warn!(player, seat = s, "the seat asked for was not given: {e}");
            }
        }
        self.seating.new_hand();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn person(id: i64, nickname: &str) -> PlayerRef {
        PlayerRef {
            id,
            nickname: nickname.into(),
        }
    }

    #[test]
    fn a_restored_seating_has_everybody_gone_and_seen_their_seat() {
        let now = Instant::now();
        let ane = person(1, "Ane");
        let s = Seating::restore(
            vec![Some(ane.clone()), None, Some(ane.clone())],
            vec![(person(2, "Bea"), 1), (person(3, "Cris"), 7)],
            vec![(2, 2)],
            now,
        );
        assert_eq!(s.seat_of(1), Some(0), "one seat per person: the first");
        assert!(s.is_free(2));
        assert_eq!(s.asked(2), Some(1));
        assert_eq!(s.asked(3), None, "a request for a seat the table lacks");
        assert!(s.has_seen_another(2, 1), "Bea's look at seat 2 is kept");
        assert!(!s.has_seen_another(1, 0));
        let away = Duration::from_secs(30);
        assert_eq!(s.away_from(0, away), Some(now + away));
        assert!(!s.is_away(0, now, away));
        assert!(s.is_away(0, now + away, away));
    }

    #[test]
    fn moving_keeps_one_seat_per_person_and_remembers_the_look() {
        let now = Instant::now();
        let mut s = Seating::restore(vec![None, None, None], vec![], vec![], now);
        let ane = person(1, "Ane");
        s.sit(ane.clone(), 0, true, now);
        s.sit(ane.clone(), 2, true, now);
        assert_eq!(s.seat_of(1), Some(2));
        assert!(s.is_free(0));
        assert!(s.has_seen_another(1, 0), "she saw seat 2's cards");
        // A seat another person holds is not taken.
        s.sit(person(2, "Bea"), 2, true, now);
        assert_eq!(s.person_at(2).map(|p| p.id), Some(1));
        s.new_hand();
        assert!(!s.has_seen_another(1, 2), "a new hand: only her own seat");
        assert!(s.has_seen_another(1, 0));
    }

    #[test]
    fn away_people_come_back_by_connecting_and_standing_forgets_it() {
        let now = Instant::now();
        let away = Duration::from_secs(10);
        let mut s = Seating::restore(vec![Some(person(1, "Ane")), None], vec![], vec![], now);
        assert_eq!(s.arrived(1), (true, false), "she was gone, seated");
        assert_eq!(s.away_from(0, away), None);
        s.time_out(0);
        assert!(s.is_away(0, now, away), "her clock ran out");
        assert_eq!(s.arrived(1), (false, true));
        assert!(!s.is_away(0, now, away));
        assert_eq!(s.left(1, now), Some(0));
        assert!(s.is_away(0, now + away, away));
        assert_eq!(s.left(2, now), None, "nobody seated is gone");
        s.time_out(0);
        s.vacate(0);
        s.stood(1);
        assert!(!s.back(1), "standing up forgets the clock");
        assert!(!s.is_away(0, now + away, away));
        assert!(s.no_person_seated());
    }

    #[test]
    fn requests_are_taken_once_and_names_told_apart() {
        let now = Instant::now();
        let mut s = Seating::restore(
            vec![Some(person(1, "Ane")), Some(person(2, "Ane")), None],
            vec![],
            vec![],
            now,
        );
        s.ask(person(3, "Bea"), 2);
        s.ask(person(3, "Bea"), 0);
        s.ask(person(4, "Cris"), 9);
        assert_eq!(s.asked(3), Some(0), "the later request stands");
        assert_eq!(s.asked(4), None);
        let asks = s.take_asks();
        assert_eq!(asks.len(), 1);
        assert!(s.take_asks().is_empty());
        let names: Vec<Option<String>> = s
            .shown_players()
            .into_iter()
            .map(|p| p.map(|p| p.nickname))
            .collect();
        assert_eq!(names, [Some("Ane".into()), Some("Ane (2)".into()), None]);
    }
}
