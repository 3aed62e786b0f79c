//! Seating: who sits where, the seats asked for and granted at the next hand, who has
//! seen which seat this hand, connections coming and going, and the names a table shows.

use super::*;

impl Actor {
    pub(super) fn person_at(&self, seat: Seat) -> Option<&PlayerRef> {
        self.seats.get(seat).and_then(Option::as_ref)
    }

    pub(super) fn no_person_seated(&self) -> bool {
        self.seats.iter().all(Option::is_none)
    }

    pub(super) fn player_of(&self, conn: u64) -> Option<PlayerRef> {
        self.conns.get(&conn).and_then(|c| c.player.clone())
    }

    pub(super) fn seat_of(&self, player: i64) -> Option<Seat> {
        self.seats
            .iter()
            .position(|s| s.as_ref().is_some_and(|p| p.id == player))
    }

    pub(super) fn is_connected(&self, player: i64) -> bool {
        self.conns
            .values()
            .any(|c| c.player.as_ref().is_some_and(|p| p.id == player))
    }

    pub(super) fn connect(
        &mut self,
        conn: u64,
        player: Option<PlayerRef>,
        out: OutSender,
        close: oneshot::Sender<()>,
    ) {
        let seated = player.as_ref().and_then(|p| self.seat_of(p.id)).is_some();
        let refusal = if seated {
            let mine = self
                .conns
                .values()
                .filter(|c| c.player.as_ref().map(|p| p.id) == player.as_ref().map(|p| p.id))
                .count();
            (mine >= MAX_CONNS_PER_PLAYER).then(|| {
                format!("you already have {mine} connections to this table: close one first")
            })
        } else {
            let watchers = self
                .conns
                .values()
                .filter(|c| c.player.as_ref().and_then(|p| self.seat_of(p.id)).is_none())
                .count();
            (watchers >= self.env.max_watchers)
                .then(|| "this table has as many watchers as it takes: try again later".into())
        };
        if let Some(message) = refusal {
            let m = json!({"type": "error", "message": message}).to_string();
            let _ = out.try_send(m.into());
            return; // `close` is dropped: the connection closes after the error.
        }
        if let Some(p) = &player {
            if self.gone_since.remove(&p.id).is_some() && seated {
                self.info_dirty = true;
            }
            // Opening the table again is being back.
            if self.timed_out.remove(&p.id) {
                self.dirty = true;
            }
        }
        self.conns.insert(
            conn,
            Conn {
                player,
                out,
                _close: close,
            },
        );
        self.empty_since = None;
        // Its first state goes out once the change is settled (a forced action played).
        self.newcomers.push(conn);
    }

    pub(super) fn disconnect(&mut self, conn: u64) {
        if let Some(c) = self.conns.remove(&conn) {
            self.left(c);
        }
    }

    /// Bookkeeping after a connection is gone (closed, or dropped for being too slow).
    pub(super) fn left(&mut self, c: Conn) {
        if let Some(p) = c.player {
            if !self.is_connected(p.id) && self.seat_of(p.id).is_some() {
                self.gone_since.insert(p.id, Instant::now());
                if let Some(seat) = self.seat_of(p.id) {
                    if let Some(h) = &mut self.hold {
                        h.waiting.remove(&seat);
                    }
                }
                self.info_dirty = true;
            }
        }
        if self.conns.is_empty() {
            self.empty_since = Some(Instant::now());
        }
    }

    /// When a seated person asks for a seat of the other partnership during a match, the
    /// question to put to them, naming that side and the score; `None` for any other move.
    pub(super) fn other_side(&self, conn: u64, seat: Seat) -> Option<String> {
        let player = self.player_of(conn)?;
        let old = self.seat_of(player.id)?;
        if !self.kind.partners()
            || self.row.status != PLAYING
            || seat >= self.seats.len()
            || seat % 2 == old % 2
            || self.seats[seat].is_some()
        {
            return None;
        }
        let sides: Vec<Seat> = (0..self.seats.len())
            .filter(|s| s % 2 == seat % 2)
            .collect();
        let names: Vec<String> = sides.iter().map(|s| s.to_string()).collect();
        let rows = self.game.score_rows();
        let (theirs, ours) = (seat % 2 + 1, old % 2 + 1);
        let score: Vec<String> = match (rows.first(), rows.get(theirs), rows.get(ours)) {
            (Some(head), Some(t), Some(o)) => (1..head.len())
                .filter_map(|c| Some(format!("{} {}–{}", head[c], t.get(c)?, o.get(c)?)))
                .collect(),
            _ => Vec::new(),
        };
        let now = if score.is_empty() {
            String::new()
        } else {
            format!(", now {} (theirs first)", score.join(", "))
        };
        Some(format!(
            "You would play for the other side (seats {}){now}. Move?",
            names.join(" and ")
        ))
    }

    pub(super) async fn sit(&mut self, conn: u64, seat: Seat) -> Result<(), String> {
        let player = self
            .player_of(conn)
            .ok_or("pick a nickname first: spectators cannot sit")?;
        if seat >= self.seats.len() {
            return Err(format!(
                "there is no seat {seat}: seats are 0 to {}",
                self.seats.len() - 1
            ));
        }
        if self.row.status == FINISHED {
            return Err("the game is over".into());
        }
        if let Some(p) = &self.seats[seat] {
            if p.id == player.id {
                return self.drop_pending(player.id).await;
            }
            return Err(format!("seat {seat} is taken by {}", p.nickname));
        }
        if self.row.status == PLAYING {
            // Cards are out: a seat changes hands only where its new holder sees nothing
            // that seat would not show them. Someone who has seen another seat's hand this
            // hand, or a hand already under way, waits for the next deal.
            let seen_other = self.hand_seats.get(&player.id).is_some_and(|s| *s != seat);
            if seen_other || !self.game.at_boundary() {
                self.db_pending(player.id, Some(seat)).await?;
                self.pending.insert(player.id, (player, seat));
                self.dirty = true;
                return Ok(());
            }
        }
        self.move_to(player, Some(seat)).await?;
        if self.row.status == WAITING && self.seats.iter().all(Option::is_some) {
            self.begin().await?;
        }
        Ok(())
    }

    pub(super) async fn db_pending(&self, player: i64, seat: Option<Seat>) -> Result<(), String> {
        self.env
            .db
            .set_pending(self.row.id.clone(), player, seat)
            .await
            .map_err(|e| format!("could not save the seat request ({e})"))
    }

    pub(super) async fn drop_pending(&mut self, player: i64) -> Result<(), String> {
        if self.pending.contains_key(&player) {
            self.db_pending(player, None).await?;
            self.pending.remove(&player);
            self.dirty = true;
        }
        Ok(())
    }

    /// Moves `player` to `seat` (or off the table), in storage first.
    pub(super) async fn move_to(
        &mut self,
        player: PlayerRef,
        seat: Option<Seat>,
    ) -> Result<(), String> {
        let saved = |e: crate::store::DbError| format!("could not save the seat ({e})");
        if let Some(old) = self.seat_of(player.id) {
            self.env
                .db
                .set_seat(self.row.id.clone(), old, None)
                .await
                .map_err(saved)?;
            self.seats[old] = None;
        }
        if let Some(s) = seat {
            self.env
                .db
                .set_seat(self.row.id.clone(), s, Some(player.id))
                .await
                .map_err(saved)?;
            self.seats[s] = Some(player.clone());
            self.hand_seats.insert(player.id, s);
            if self.is_connected(player.id) {
                self.gone_since.remove(&player.id);
            } else {
                self.gone_since.insert(player.id, Instant::now());
            }
        } else {
            self.gone_since.remove(&player.id);
            self.timed_out.remove(&player.id);
        }
        self.drop_pending(player.id).await?;
        self.dirty = true;
        Ok(())
    }

    pub(super) async fn stand(&mut self, conn: u64) -> Result<(), String> {
        let player = self.player_of(conn).ok_or("you are not seated")?;
        if self.seat_of(player.id).is_none() {
            if self.pending.contains_key(&player.id) {
                return self.drop_pending(player.id).await;
            }
            return Err("you are not seated".into());
        }
        self.move_to(player, None).await
    }

    /// A new hand is dealt: seats asked for are granted before anybody sees it, and what
    /// each person has seen starts again.
    pub(super) async fn new_hand(&mut self) {
        let pending: Vec<(PlayerRef, Seat)> = self.pending.drain().map(|(_, v)| v).collect();
        for (p, s) in pending {
            let taken = self.seats[s].as_ref().is_some_and(|q| q.id != p.id);
            let result = if taken {
                self.db_pending(p.id, None).await
            } else {
                self.move_to(p, Some(s)).await
            };
            if let Err(e) = result {
                eprintln!("table {}: {e}", self.row.id);
            }
        }
        self.hand_seats = self
            .seats
            .iter()
            .enumerate()
            .filter_map(|(s, p)| p.as_ref().map(|p| (p.id, s)))
            .collect();
    }

    /// The people at the seats as the table shows them: a nickname already shown at an
    /// earlier seat for another person gets a number, "Ane (2)", so two guests of one
    /// name can be told apart.
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
