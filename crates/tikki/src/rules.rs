//! The table options, each with a documented default.

use serde::{Deserialize, Serialize};

/// Table options of a tikki game.
///
/// How long a game lasts: with `target` above 0, until the end of the round in which a
/// player reaches `target` points; otherwise `rounds` rounds, where 0 (the default) means
/// one round per player, so that every seat deals once and no seat gains from the deal.
/// The most points wins; players level on the most points share the win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TikkiRules {
    /// The highest rank of each suit: 13 for the full 52-card deck, less for the smaller
    /// deck of ranks 1..=`top` (it must hold seven cards for every player).
    pub top: u8,
    /// Rounds in a game; 0: one per player (the default). Ignored when `target` is set.
    pub rounds: u32,
    /// Points that end the game at the end of a round; 0: no target (the default).
    pub target: u32,
    /// The retreat round (perääntymiskierros): before the reveal, each player in turn may
    /// take laid cards back, revealing another laid card for each. Off by default.
    pub retreat: bool,
}

impl Default for TikkiRules {
    fn default() -> TikkiRules {
        TikkiRules {
            top: 13,
            rounds: 0,
            target: 0,
            retreat: false,
        }
    }
}

impl TikkiRules {
    /// Cards dealt to each player.
    pub const HAND: usize = 7;
    /// The most rounds a new table may ask for: long evenings, not endless games.
    pub const MAX_ROUNDS: u32 = 20;
    /// The highest target a new table may ask for (a round gives its best pile some ten
    /// to thirty points, so a hundred is an evening).
    pub const MAX_TARGET: u32 = 100;

    /// Whether a new table may be set with these options for `seats` players: they work
    /// ([`TikkiRules::validate_for`]) and `rounds` and `target` are within what people
    /// play. The error names the option and its range.
    ///
    /// Games stored before these bounds replay: the game itself checks only
    /// [`TikkiRules::validate_for`].
    pub fn validate_new(&self, seats: usize) -> Result<(), String> {
        self.validate_for(seats)?;
        if self.rounds > Self::MAX_ROUNDS {
            return Err(format!(
                "rounds must be 0 (one per player) to {}, not {}",
                Self::MAX_ROUNDS,
                self.rounds
            ));
        }
        if self.target > Self::MAX_TARGET {
            return Err(format!(
                "target must be 0 (play the rounds) to {} points, not {}",
                Self::MAX_TARGET,
                self.target
            ));
        }
        Ok(())
    }

    /// Whether these options work for `seats` players; the error says why not.
    pub fn validate_for(&self, seats: usize) -> Result<(), String> {
        if !(2..=5).contains(&seats) {
            return Err(format!("tikki is for 2 to 5 players, not {seats}"));
        }
        if !(1..=13).contains(&self.top) {
            return Err(format!(
                "the deck's highest rank must be 1 to 13, not {}",
                self.top
            ));
        }
        let cards = 4 * usize::from(self.top);
        if cards < Self::HAND * seats {
            let need = (Self::HAND * seats).div_ceil(4);
            return Err(format!(
                "a deck of ranks 1–{} has {cards} cards, too few to deal 7 to each of {seats} \
                 players: use ranks 1–{need} at least",
                self.top
            ));
        }
        Ok(())
    }

    /// The rounds a game of `seats` players lasts when there is no target.
    pub fn rounds_for(&self, seats: usize) -> u32 {
        if self.rounds == 0 {
            seats as u32
        } else {
            self.rounds
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_game_keeps_rounds_and_target_to_their_ranges_and_old_ones_still_play() {
        let with = |rounds, target| TikkiRules {
            rounds,
            target,
            ..TikkiRules::default()
        };
        assert_eq!(with(20, 100).validate_new(3), Ok(()));
        let e = with(21, 0).validate_new(3).unwrap_err();
        assert!(e.contains("rounds") && e.contains("to 20"), "{e}");
        let e = with(0, u32::MAX).validate_new(3).unwrap_err();
        assert!(e.contains("target") && e.contains("to 100"), "{e}");
        // What the game itself checks: a game stored with 1000 rounds still replays.
        assert_eq!(with(1000, u32::MAX).validate_for(3), Ok(()));
        // The deck is still checked first.
        let small = TikkiRules {
            top: 3,
            ..with(99, 0)
        };
        assert!(small.validate_new(3).unwrap_err().contains("deck"));
    }
}
