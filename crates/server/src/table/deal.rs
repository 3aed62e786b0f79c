//! A table's committed deal at its task (see [`tapete_table::fair`]): the people who sit
//! before the start contribute to it, the seed is made from the secret and their
//! contributions when the game starts, and the table shows the commitment from its
//! making, the contributions from its start and the secret once its game is over (a
//! duplicate round's table, whose secret the round's other tables share, leaves that to
//! the API, which waits for the round's end).

use super::*;
use tapete_table::fair::{self, Fairness};

impl Actor {
    /// `conn`'s person contributes `seed` (32 hexadecimal digits) to the deal: before the
    /// start, and only when seated unless `sitting` (a contribution sent with a seat is
    /// stored just before the seat is taken, so that a start the seat brings counts it).
    pub(super) async fn contribute(
        &mut self,
        conn: u64,
        seed: &str,
        sitting: bool,
    ) -> Result<(), Refusal> {
        let player = self.player_of(conn).ok_or_else(|| {
            Refusal::new(
                Code::PickNickname,
                "pick a nickname first: spectators do not contribute to the deal",
            )
        })?;
        self.contribute_as(player.id, seed, sitting).await
    }

    /// [`Actor::contribute`] for `player`, however they came (a WebSocket's seat, an
    /// invitation, a rematch or a tournament's match taken through the API).
    pub(super) async fn contribute_as(
        &mut self,
        player: i64,
        seed: &str,
        sitting: bool,
    ) -> Result<(), Refusal> {
        let value = fair::contribution(seed)
            .map_err(|e| Refusal::new(Code::BadContribution, e.to_string()))?;
        if self.row.status != TableStatus::Waiting {
            return Err(Refusal::new(
                Code::AlreadyStarted,
                "the game has started: the contributions to its deal are fixed",
            ));
        }
        if !sitting && self.seat_of(player).is_none() {
            return Err(Refusal::new(
                Code::NotSeated,
                "sit first: the people at the table contribute to its deal",
            ));
        }
        // A table made before deals were committed, or one whose deal is the round's,
        // takes none: nothing to keep.
        if self.row.deal.as_ref().is_none_or(|d| d.shared) {
            return Ok(());
        }
        if self.contributions.get(&player) == Some(&value) {
            return Ok(());
        }
        self.env
            .db
            .set_contribution(self.row.id.clone(), player, value.clone())
            .await
            .map_err(|e| not_saved("the contribution", e))?;
        self.contributions.insert(player, value);
        self.conns.owe_info();
        Ok(())
    }

    /// The seed the game starts from now and the contributions it fixes: from the
    /// secret and what each seated person gave (the empty string for a bot's or empty
    /// seat, or a person who gave nothing); a duplicate round's table deals the round's
    /// seed, given when it opened, with no contributions; a table made before deals were
    /// committed gets a random seed, or keeps its tournament's.
    pub(super) fn seed_now(&self) -> Result<(u64, Option<Vec<String>>), Refusal> {
        let internal =
            |e: fair::FairError| Refusal::new(Code::Internal, format!("internal error: {e}"));
        match &self.row.deal {
            Some(d) if d.shared => {
                let none = vec![String::new(); self.row.seats];
                let seed = fair::seed_of(&d.secret, &none).map_err(internal)?;
                Ok((seed, Some(none)))
            }
            Some(d) => {
                let given: Vec<String> = (0..self.row.seats)
                    .map(|seat| {
                        self.seating
                            .person_at(seat)
                            .and_then(|p| self.contributions.get(&p.id).cloned())
                            .unwrap_or_default()
                    })
                    .collect();
                let seed = fair::seed_of(&d.secret, &given).map_err(internal)?;
                Ok((seed, Some(given)))
            }
            None if self.private.in_tournament() => Ok((self.row.seed, None)),
            None => Ok((rand::random(), None)),
        }
    }

    /// What the table shows of its deal: the commitment; the contributions once the
    /// game has started, and the secret and the seed once it is over (not for a table
    /// that shares its secret with others still playing: the API says when).
    pub(super) fn fairness(&self) -> Option<Fairness> {
        let d = self.row.deal.as_ref()?;
        let revealed = self.row.status == TableStatus::Finished && !d.shared;
        Some(d.shown(self.row.seed, revealed))
    }
}
