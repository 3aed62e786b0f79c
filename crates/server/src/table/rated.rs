//! The table's part in rated games: only accounts sit at them, their players are kept
//! when the game starts, nobody else takes a seat while it is played (see
//! [`crate::ratings`]), and their reviews are queued when it ends.

use super::*;

impl Actor {
    /// Whether `player` may sit at `seat` of this rated table: an account, and once the
    /// game is under way only at the seat they held when it started.
    pub(super) async fn may_sit_rated(
        &self,
        player: &PlayerRef,
        seat: Seat,
    ) -> Result<(), Refusal> {
        let internal = |e| Refusal::new(Code::Internal, format!("internal error: {e}"));
        let account = self.env.db.is_account(player.id).await.map_err(internal)?;
        if !account {
            return Err(Refusal::new(
                Code::RatedNeedsAccount,
                "only accounts sit at a rated table: make an account or log in, or watch",
            ));
        }
        if self.row.status == TableStatus::Playing {
            let holder = self
                .env
                .db
                .rostered(self.row.id.clone(), seat)
                .await
                .map_err(internal)?;
            if holder != Some(player.id) {
                return Err(Refusal::new(
                    Code::RatedInPlay,
                    "this rated game is under way: only its players sit, each at their own seat",
                ));
            }
        }
        Ok(())
    }

    /// Keeps the addresses `player` is connected from, while they sit at this rated table
    /// and its game is not over: people who share one are not rated against each other
    /// (see [`crate::ratings::sharing`]). Each address is written once; a failure is only
    /// logged (the game goes on, and the person's other addresses still count).
    pub(super) async fn note_addresses(&mut self, player: i64) {
        if !self.row.rated
            || self.row.status == TableStatus::Finished
            || self.seat_of(player).is_none()
        {
            return;
        }
        let new: Vec<String> = self
            .conns
            .iter()
            .filter(|(_, c)| c.player.as_ref().is_some_and(|p| p.id == player))
            .filter_map(|(_, c)| c.addr.clone())
            .filter(|a| !self.addresses.contains(&(player, a.clone())))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        for addr in new {
            let kept = self
                .env
                .db
                .note_table_address(self.row.id.clone(), player, addr.clone())
                .await;
            match kept {
                Ok(()) => {
                    self.addresses.insert((player, addr));
                }
                Err(e) => tracing::warn!(player, "the player's address was not kept: {e}"),
            }
        }
    }

    /// Keeps who plays the rated game that starts now: the people seated (the bot level
    /// elsewhere), with each seat's team (its partnership, or the seat itself).
    pub(super) async fn save_roster(&self) -> Result<(), Refusal> {
        let partners = self.kind.partners();
        let seats: Vec<(usize, Option<i64>)> = (0..self.seating.count())
            .map(|s| {
                let team = if partners { s % 2 } else { s };
                (team, self.seating.person_at(s).map(|p| p.id))
            })
            .collect();
        self.env
            .db
            .save_roster(self.row.id.clone(), seats)
            .await
            .map_err(|e| not_saved("the table", e))
    }

    /// Queues the reviews of the seats accounts held, once the end of a rated game is
    /// committed (the game's rating with it), if the game has a review.
    pub(super) fn queue_reviews(&self) {
        if self.row.rated && self.kind.reviews() {
            self.env
                .reviews
                .after_rated_game(self.env.db.clone(), self.row.id.clone());
        }
    }
}
