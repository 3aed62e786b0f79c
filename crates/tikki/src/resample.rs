//! Resampling: a full game consistent with what one seat knows, for search players.
//!
//! Everything public is kept as the view shows it (scores, piles, revealed tricks, the
//! retreat's face-up cards, how many cards each seat holds and has laid); the seat's own
//! hand and laid cards are its own; the cards it has not seen — the others' hands, their
//! face-down cards on the table and the stock — are dealt at random among those places,
//! respecting every count. The resampled game shows the seat exactly the view it came from.

use crate::card::TikkiCards;
use crate::card::{Card, Cards};
use crate::game::TikkiGame;
use crate::view::{Phase, TikkiView};
use rand::RngCore;
use rand_chacha::ChaCha8Rng;
use tapete_cards::chance::{rng_from_seed, shuffle};

pub use tapete_table::{Resample, ResampleError};

impl Resample for TikkiGame {
    /// A full game consistent with `view` (a seat's view): unseen cards dealt at random
    /// from `rng`; the game's own later chance (the next rounds' shuffles) is seeded from
    /// `rng` too.
    fn resample(view: &TikkiView, rng: &mut ChaCha8Rng) -> Result<TikkiGame, ResampleError> {
        let me = view.seat.ok_or(ResampleError::Spectator)?;
        if view.phase == Phase::Over {
            return Err(ResampleError::Over);
        }
        let seats = view.seats;
        view.rules
            .validate_for(seats)
            .map_err(ResampleError::Inconsistent)?;
        if me >= seats {
            return ResampleError::inconsistent(format!("seat {me} is not at a table of {seats}"));
        }
        if !view.lists_fit() {
            return ResampleError::inconsistent(format!("per-seat lists are not {seats} long"));
        }
        let turn = view
            .turn
            .ok_or_else(|| ResampleError::Inconsistent("no one to act".into()))?;
        if view.hand.len() != view.hand_sizes[me] || view.laid.len() != view.laid_counts[me] {
            return ResampleError::inconsistent("the seat's own cards do not match its counts");
        }
        // Seen: own hand and laid cards, every face-up card on the table, every pile.
        let mut seen = view.hand.union(view.laid);
        let mut seen_count = view.hand.len() + view.laid.len();
        for s in 0..seats {
            if s != me {
                seen = seen.union(view.revealed[s]);
                seen_count += view.revealed[s].len();
            }
            seen = seen.union(view.piles[s]);
            seen_count += view.piles[s].len();
        }
        let deck = Cards::deck(view.rules.top);
        if seen.len() != seen_count || !seen.is_subset(deck) {
            return ResampleError::inconsistent("the seen cards overlap or are not in the deck");
        }
        let mut pool: Vec<Card> = deck.difference(seen).to_vec();
        shuffle(&mut pool, rng);
        let mut draw = |n: usize, what: &str| -> Result<Cards, ResampleError> {
            if pool.len() < n {
                return ResampleError::inconsistent(format!("too few unseen cards for {what}"));
            }
            Ok(pool.split_off(pool.len() - n).into_iter().collect())
        };
        let mut hands = vec![Cards::EMPTY; seats];
        let mut laid = vec![Cards::EMPTY; seats];
        for s in 0..seats {
            if s == me {
                hands[s] = view.hand;
                laid[s] = view.laid;
                continue;
            }
            let Some(down) = view.laid_counts[s].checked_sub(view.revealed[s].len()) else {
                return ResampleError::inconsistent(format!(
                    "seat {s} revealed more cards than it laid"
                ));
            };
            laid[s] = view.revealed[s].union(draw(down, "the face-down cards")?);
            hands[s] = draw(view.hand_sizes[s], "the hands")?;
        }
        if pool.len() != view.stock {
            return ResampleError::inconsistent(format!(
                "{} unseen cards left for a stock of {}",
                pool.len(),
                view.stock
            ));
        }
        Ok(TikkiGame {
            rules: view.rules,
            seats,
            rng: rng_from_seed(rng.next_u64()),
            round: view.round,
            dealer: view.dealer,
            leader: view.leader,
            phase: view.phase,
            turn,
            hands,
            in_trick: view.in_trick.clone(),
            laid,
            revealed: view.revealed.clone(),
            retreated: view.retreated.clone(),
            retreat_done: view.retreat_done.clone(),
            stock: pool,
            piles: view.piles.clone(),
            tricks: view.tricks.clone(),
            scores: view.scores.clone(),
            history: view.history.clone(),
            winners: view.winners.clone(),
        })
    }
}
