//! PrivatePart' tables at the table's task: a private table's secret, the seats kept for
//! named accounts until the start, and the rematch ("otra"): the finished table names the
//! table it leads to, and a rematch starts when everybody kept a seat has taken it, or at
//! its time, the seats still kept then going to the bot.

use super::PrivateRow;
use super::*;

/// The friends' part of a table's description.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct PrivateInfo {
    /// Seen only through its invitation link, or by the people who sat there.
    pub private: bool,
    /// The invitation secret: never sent with the description.
    #[serde(skip)]
    pub invite: Option<String>,
    /// Per seat, the account it is kept for until the start (`null`: none).
    pub reserved: Vec<Option<PlayerRef>>,
    /// The rematch this finished table leads to ("otra" offered).
    pub rematch: Option<String>,
    /// The finished table this one is the rematch of.
    pub rematch_of: Option<String>,
    /// When this rematch starts even if not everybody accepted (seconds since the epoch).
    pub starts_at: Option<i64>,
    /// The cuadrilla whose table this is (its members see it without the link).
    #[serde(default)]
    pub cuadrilla: Option<String>,
    /// The tournament whose match this table is.
    pub tournament: Option<String>,
}

/// What the API asks of a table's friends' part.
pub enum Ask {
    /// Keep `seat` for `player` (the creator asks, before the start).
    Reserve { seat: Seat, player: PlayerRef },
    /// Free `seat`: let go of the account it is kept for, stand up whoever holds it.
    Free { seat: Seat },
    /// `player` accepts a rematch (or comes to a tournament's match): they sit at the
    /// seat kept for them, contributing `seed` to the deal (see `deal.rs`).
    Accept {
        player: PlayerRef,
        seed: Option<String>,
    },
    /// This finished table's rematch was made: offer it.
    Offer { table: String },
    /// `player` comes in through an invitation: to the seat kept for them, else to the
    /// first seat no person holds, asks for or has kept (once cards are out, from the next
    /// deal, as any seat); with no such seat they only watch.
    Join {
        player: PlayerRef,
        seed: Option<String>,
    },
    /// A tournament's match is past its time limit: play stops, and the game's own rules
    /// of who is ahead give its result (a game that cannot say plays on).
    TimeUp,
    /// A tournament's match waiting for a side past its courtesy time, taken juego by
    /// juego: the table plays by `rules` (one more juego given to the side that came),
    /// and its courtesy time, which ended at `from`, runs again until `until`. Both are
    /// stored at once, and only once (another server may have done it first).
    GiveJuego { rules: Value, from: i64, until: i64 },
}

/// The friends' part the task keeps: it holds a kept seat for one account, and only one
/// seat per account.
pub(super) struct PrivatePart {
    invite: Option<String>,
    reserved: Vec<Option<PlayerRef>>,
    rematch: Option<String>,
    rematch_of: Option<String>,
    /// When a rematch starts regardless: as stored, and on this process's clock.
    starts_at: Option<(i64, Instant)>,
    cuadrilla: Option<String>,
    tournament: Option<String>,
    /// A tournament's match: who may sit at each seat (its entrant's person, and the
    /// entrant's substitute; none: anybody).
    owners: Vec<Vec<i64>>,
}

impl PrivatePart {
    /// The part as stored, for a table of `seats` seats, at `now` (`epoch` in seconds
    /// since the Unix epoch, on the same clock).
    pub(super) fn restore(row: PrivateRow, seats: usize, now: Instant, epoch: i64) -> PrivatePart {
        let mut reserved = vec![None; seats];
        for (seat, id, nickname) in row.reserved {
            let twice = reserved.iter().flatten().any(|p: &PlayerRef| p.id == id);
            if seat < seats && !twice {
                reserved[seat] = Some(PlayerRef { id, nickname });
            }
        }
        let starts_at = row.starts_at.map(|at| {
            let left = (at - epoch).max(0) as u64;
            (at, now + Duration::from_secs(left))
        });
        let mut owners = vec![Vec::new(); seats];
        for (seat, player) in row.owners {
            if let Some(o) = owners.get_mut(seat) {
                o.push(player);
            }
        }
        PrivatePart {
            owners,
            invite: row.invite,
            reserved,
            rematch: row.rematch,
            rematch_of: row.rematch_of,
            starts_at,
            cuadrilla: row.cuadrilla,
            tournament: row.tournament,
        }
    }

    pub(super) fn info(&self) -> PrivateInfo {
        PrivateInfo {
            private: self.invite.is_some(),
            invite: self.invite.clone(),
            reserved: self.reserved.clone(),
            rematch: self.rematch.clone(),
            rematch_of: self.rematch_of.clone(),
            starts_at: self.starts_at.map(|(at, _)| at),
            cuadrilla: self.cuadrilla.clone(),
            tournament: self.tournament.clone(),
        }
    }

    /// Whether this table is a tournament's match.
    pub(super) fn in_tournament(&self) -> bool {
        self.tournament.is_some()
    }

    /// The account `seat` is kept for.
    pub(super) fn kept_for(&self, seat: Seat) -> Option<&PlayerRef> {
        self.reserved.get(seat).and_then(Option::as_ref)
    }

    /// Whether `player` may sit at `seat` of a tournament's match by right (its entrant's
    /// person or substitute).
    fn owns(&self, seat: Seat, player: i64) -> bool {
        self.owners.get(seat).is_some_and(|o| o.contains(&player))
    }

    /// Whether `player` is one of a tournament match's own people (an entrant's person or
    /// substitute), seated or not.
    pub(super) fn is_owner(&self, player: i64) -> bool {
        self.owners.iter().any(|o| o.contains(&player))
    }

    /// The seat kept for `player`.
    pub(super) fn kept_seat_of(&self, player: i64) -> Option<Seat> {
        self.reserved
            .iter()
            .position(|p| p.as_ref().is_some_and(|p| p.id == player))
    }

    /// Whether somebody was asked here (a private table's link, a seat kept for a friend, a
    /// rematch): such a table waits for them as long as any table waits, and is never
    /// removed for having stood empty.
    pub(super) fn awaits_someone(&self) -> bool {
        self.invite.is_some()
            || self.rematch_of.is_some()
            || self.reserved.iter().any(Option::is_some)
    }

    fn keep(&mut self, seat: Seat, player: Option<PlayerRef>) {
        if let Some(s) = self.reserved.get_mut(seat) {
            *s = player;
        }
    }
}

impl Actor {
    /// Does what the API asks of the friends' part, in storage first.
    pub(super) async fn private_ask(&mut self, ask: Ask) -> Result<(), Refusal> {
        let saved = |e: crate::store::DbError| not_saved("the kept seat", e);
        match ask {
            Ask::TimeUp => {
                if self.row.status != TableStatus::Playing || !self.game.stop() {
                    return Ok(());
                }
                let outcome = self
                    .game
                    .outcome()
                    .map(|o| serde_json::to_value(o).unwrap_or(serde_json::Value::Null));
                tracing::info!(table = %self.row.id, "stopped at its time limit");
                self.set_status(TableStatus::Finished, outcome).await
            }
            Ask::GiveJuego { rules, from, until } => {
                if self.row.status != TableStatus::Waiting || !self.private.in_tournament() {
                    return Ok(());
                }
                let game = self
                    .kind
                    .new_game(&rules, self.row.seats, self.row.seed)
                    .map_err(|e| Refusal::new(Code::Internal, format!("internal error: {e}")))?;
                let done = self
                    .env
                    .db
                    .give_juego(self.row.id.clone(), rules.clone(), from, until)
                    .await
                    .map_err(|e| not_saved("the table", e))?;
                if done {
                    tracing::info!(table = %self.row.id, "a juego given at the end of a courtesy time");
                    self.row.rules = rules;
                    self.game = game;
                    self.conns.owe_info();
                    self.conns.owe_state();
                }
                Ok(())
            }
            Ask::Offer { table } => {
                self.private.rematch = Some(table);
                self.conns.owe_info();
                Ok(())
            }
            Ask::Reserve { seat, player } => {
                self.before_start(seat)?;
                if let Some(p) = self.person_at(seat) {
                    return Err(Refusal::new(
                        Code::SeatTaken,
                        format!("seat {seat} is taken by {}: free it first", p.nickname),
                    ));
                }
                let elsewhere = self
                    .seat_of(player.id)
                    .or(self.private.kept_seat_of(player.id).filter(|s| *s != seat));
                if let Some(s) = elsewhere {
                    return Err(Refusal::new(
                        Code::AlreadyAtTable,
                        format!(
                            "{} already has seat {s} at this table: free it first",
                            player.nickname
                        ),
                    ));
                }
                self.env
                    .db
                    .set_reserved(self.row.id.clone(), seat, Some(player.id))
                    .await
                    .map_err(saved)?;
                self.private.keep(seat, Some(player));
                self.conns.owe_state();
                Ok(())
            }
            Ask::Free { seat } => {
                self.before_start(seat)?;
                if self.private.kept_for(seat).is_some() {
                    self.env
                        .db
                        .set_reserved(self.row.id.clone(), seat, None)
                        .await
                        .map_err(saved)?;
                    self.private.keep(seat, None);
                    self.conns.owe_state();
                }
                if let Some(p) = self.person_at(seat).cloned() {
                    self.move_to(p, None).await?;
                }
                Ok(())
            }
            Ask::Join { player, seed } => {
                if self.row.status == TableStatus::Finished {
                    return Err(Refusal::new(
                        Code::GameOver,
                        "this table's game is over: there is nothing left to join",
                    ));
                }
                if self.seat_of(player.id).is_some() || self.seating.asked(player.id).is_some() {
                    return Ok(());
                }
                let seat = self.private.kept_seat_of(player.id).or_else(|| {
                    (0..self.seating.count()).find(|s| {
                        self.seating.is_free(*s)
                            && !self.seating.is_asked(*s)
                            && self.private.kept_for(*s).is_none()
                    })
                });
                match seat {
                    Some(seat) => {
                        if let Some(c) = seed.filter(|_| self.row.status == TableStatus::Waiting) {
                            self.contribute_as(player.id, &c, true).await?;
                        }
                        self.sit_player(player, seat).await
                    }
                    None => Ok(()),
                }
            }
            Ask::Accept { player, seed } => {
                if self.row.status != TableStatus::Waiting {
                    return Ok(());
                }
                // Already seated (a tournament's match taken again): a new contribution
                // replaces the one before.
                if self.seat_of(player.id).is_some() {
                    if let Some(c) = seed {
                        self.contribute_as(player.id, &c, false).await?;
                    }
                    return Ok(());
                }
                // The seat kept for them; or, for a tournament entrant's substitute, a seat
                // of its entrant nobody took (the one still kept for whom it stands for
                // first).
                let own = |s: &Seat| self.private.owns(*s, player.id) && self.seating.is_free(*s);
                let count = self.seating.count();
                let seat = self.private.kept_seat_of(player.id).or_else(|| {
                    (0..count)
                        .find(|s| own(s) && self.private.kept_for(*s).is_some())
                        .or_else(|| (0..count).find(own))
                });
                let Some(seat) = seat else {
                    return Ok(());
                };
                self.not_suspended(player.id).await?;
                if let Some(c) = seed {
                    self.contribute_as(player.id, &c, true).await?;
                }
                self.move_to(player.clone(), Some(seat)).await?;
                self.took_seat(player.id, seat).await;
                if self.all_accepted() {
                    self.begin().await?;
                }
                Ok(())
            }
        }
    }

    /// Seats are kept and freed only before the start, and only seats the table has.
    fn before_start(&self, seat: Seat) -> Result<(), Refusal> {
        if self.row.status != TableStatus::Waiting {
            return Err(Refusal::new(
                Code::AlreadyStarted,
                "the game has already started: seats are kept or freed only before it starts",
            ));
        }
        if seat >= self.seating.count() {
            return Err(Refusal::new(
                Code::NoSuchSeat,
                format!(
                    "there is no seat {seat}: seats are 0 to {}",
                    self.seating.count() - 1
                ),
            ));
        }
        Ok(())
    }

    /// Refuses `player` a seat kept for someone else, and at a tournament's match a seat
    /// that is another entrant's (before the start and after it: a seat the bot plays for
    /// who did not come stays theirs).
    pub(super) fn check_kept(&self, player: &PlayerRef, seat: Seat) -> Result<(), Refusal> {
        let owned = self.private.owners.get(seat).is_some_and(|o| !o.is_empty());
        if owned && !self.private.owns(seat, player.id) {
            return Err(Refusal::new(
                Code::SeatKept,
                format!("seat {seat} is another entrant's at this tournament match: sit at yours"),
            ));
        }
        match self.private.kept_for(seat) {
            // An entrant's substitute may take the seat kept for the one it stands for.
            Some(p) if p.id != player.id && !self.private.owns(seat, player.id) => {
                Err(Refusal::new(
                    Code::SeatKept,
                    format!("seat {seat} is kept for {}", p.nickname),
                ))
            }
            _ => Ok(()),
        }
    }

    /// `player` sat down at `seat`: a seat kept for them (or, for an entrant's substitute,
    /// the seat kept for the one it stands for) is theirs now, kept no more.
    pub(super) async fn took_seat(&mut self, player: i64, seat: Seat) {
        let kept_here = self.private.kept_for(seat).is_some() && self.private.owns(seat, player);
        let kept = if kept_here {
            Some(seat)
        } else {
            self.private.kept_seat_of(player)
        };
        if let Some(seat) = kept {
            match self
                .env
                .db
                .set_reserved(self.row.id.clone(), seat, None)
                .await
            {
                Ok(()) => self.private.keep(seat, None),
                Err(e) => tracing::warn!(player, seat, "the kept seat was not let go: {e}"),
            }
            self.conns.owe_state();
        }
    }

    /// A rematch or a tournament's match whose people have all taken their seats: it
    /// starts.
    pub(super) fn all_accepted(&self) -> bool {
        (self.private.rematch_of.is_some() || self.private.in_tournament())
            && self.private.reserved.iter().all(Option::is_none)
    }

    /// The game starts: seats still kept go to the bot.
    pub(super) async fn private_begin(&mut self) {
        self.private.starts_at = None;
        if self.private.reserved.iter().any(Option::is_some) {
            if let Err(e) = self.env.db.clear_reserved(self.row.id.clone()).await {
                tracing::warn!("the kept seats were not let go: {e}");
            }
            self.private.reserved.iter_mut().for_each(|s| *s = None);
        }
    }

    /// When a waiting rematch starts regardless.
    pub(super) fn private_wake(&self) -> Option<Instant> {
        self.private
            .starts_at
            .filter(|_| self.row.status == TableStatus::Waiting)
            .map(|(_, at)| at)
    }

    /// A waiting rematch whose time has come starts, bots in the seats not taken.
    pub(super) async fn private_tick(&mut self) {
        if self.private_wake().is_some_and(|at| self.now() >= at) {
            if let Err(e) = self.begin().await {
                tracing::error!("the rematch did not start at its time: {e}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_restored_part_keeps_one_seat_per_account_and_its_start() {
        let now = Instant::now();
        let epoch = crate::store::now();
        let row = PrivateRow {
            invite: Some("s".into()),
            reserved: vec![
                (1, 7, "mikel".into()),
                (2, 7, "mikel".into()),
                (9, 8, "x".into()),
            ],
            rematch: None,
            rematch_of: Some("old".into()),
            starts_at: Some(epoch + 60),
            cuadrilla: None,
            tournament: None,
            owners: Vec::new(),
        };
        let f = PrivatePart::restore(row, 4, now, epoch);
        assert_eq!(f.kept_seat_of(7), Some(1));
        assert!(f.kept_for(2).is_none(), "one seat per account");
        assert!(f.kept_for(3).is_none());
        let info = f.info();
        assert!(info.private);
        assert_eq!(info.reserved.len(), 4);
        let (_, at) = f.starts_at.unwrap();
        assert_eq!(at, now + Duration::from_secs(60));
        let shown = serde_json::to_value(&info).unwrap();
        assert!(shown.get("invite").is_none(), "the secret is never shown");
    }
}
