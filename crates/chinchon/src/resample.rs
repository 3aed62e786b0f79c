//! Resampling: a full game consistent with what one seat knows, for search players.
//!
//! Everything public is kept as the view shows it (scores, the pile, who took what, the
//! close on the table); the seat's own cards are its own; the cards it has not seen are
//! dealt at random to the other players — each keeping the cards it is known to hold,
//! those it took from the pile and has not discarded — and the rest, shuffled, is the
//! stock. The resampled game shows the seat exactly the view it was built from.

use crate::card::ChinchonDeck;
use crate::card::{Card, Hand};
use crate::game::ChinchonGame;
use crate::meld::Solver;
use crate::view::{ChinchonView, Phase};
use rand::RngCore;
use rand_chacha::ChaCha8Rng;
use tapete_cards::chance::{rng_from_seed, shuffle};

pub use tapete_table::{Resample, ResampleError};

impl Resample for ChinchonGame {
    /// A full game consistent with `view` (a seat's view): the unseen cards dealt at random
    /// from `rng` to the other players (keeping what each is known to hold) and the stock.
    /// Its own chance (later shuffles of the stock) is seeded from `rng` too.
    fn resample(view: &ChinchonView, rng: &mut ChaCha8Rng) -> Result<ChinchonGame, ResampleError> {
        let me = view.seat.ok_or(ResampleError::Spectator)?;
        if view.phase == Phase::Over {
            return Err(ResampleError::Over);
        }
        let seats = view.seats;
        if me >= seats {
            return ResampleError::inconsistent(format!("seat {me} is not at a table of {seats}"));
        }
        view.rules
            .playable_for(seats)
            .map_err(ResampleError::Inconsistent)?;
        let per_seat = [
            view.hand_sizes.len(),
            view.took.len(),
            view.holds.len(),
            view.discarded.len(),
            view.scores.len(),
            view.out.len(),
            view.reentered.len(),
        ];
        if per_seat.iter().any(|&n| n != seats) {
            return ResampleError::inconsistent(format!("per-seat lists are not {seats} long"));
        }
        let deck = view.rules.deck_for(seats);
        if deck.copy_count() != view.decks {
            return ResampleError::inconsistent(
                "the number of decks does not follow from the rules",
            );
        }
        let mut unseen = deck.multiset();
        let mut take = |cards: &Hand, what: &str| -> Result<(), ResampleError> {
            match unseen.minus(cards) {
                Some(rest) => {
                    unseen = rest;
                    Ok(())
                }
                None => {
                    ResampleError::inconsistent(format!("{what} ({cards}) are not all in the deck"))
                }
            }
        };
        take(&view.hand, "the seat's own cards")?;
        let closer = view.close.as_ref().map(|c| c.closer);
        let mut known = vec![Hand::EMPTY; seats];
        for o in (0..seats).filter(|&o| o != me) {
            known[o] = match &view.close {
                Some(c) if Some(o) == closer => c.cards,
                _ => view.holds[o],
            };
            take(&known[o], &format!("seat {o}'s known cards"))?;
        }
        let mut table = Hand::EMPTY;
        let mut put = |c: Card| {
            table
                .add(c)
                .map_err(|e| ResampleError::Inconsistent(e.to_string()))
        };
        for &c in &view.pile {
            put(c)?;
        }
        if let Some(c) = &view.close {
            put(c.down)?;
            for l in &c.laid {
                put(l.card)?;
            }
        }
        take(&table, "the cards on the table")?;

        let mut pool = unseen.to_vec();
        shuffle(&mut pool, rng);
        let mut hands = vec![Hand::EMPTY; seats];
        for s in 0..seats {
            if s == me {
                hands[s] = view.hand;
                continue;
            }
            let size = view.hand_sizes[s] as usize;
            let Some(need) = size.checked_sub(known[s].len()) else {
                return ResampleError::inconsistent(format!(
                    "seat {s} holds fewer cards than it is known to"
                ));
            };
            let mut h = known[s];
            for _ in 0..need {
                let Some(c) = pool.pop() else {
                    return ResampleError::inconsistent("fewer unseen cards than hidden places");
                };
                if h.add(c).is_err() {
                    return ResampleError::inconsistent(format!(
                        "seat {s} would hold {c} too often"
                    ));
                }
            }
            hands[s] = h;
        }
        if pool.len() != view.stock {
            return ResampleError::inconsistent(format!(
                "{} unseen cards left for a stock of {}",
                pool.len(),
                view.stock
            ));
        }
        Ok(ChinchonGame {
            rules: view.rules,
            solver: Solver::new(&view.rules),
            seats,
            deck,
            rng: rng_from_seed(rng.next_u64()),
            hand_no: view.hand_number,
            mano: view.mano,
            phase: view.phase,
            turn: view.turn.unwrap_or(view.mano),
            turns: view.turns,
            rebuilds: view.rebuilds,
            fresh: view.fresh,
            hands,
            stock: pool,
            pile: view.pile.clone(),
            muestra: view.muestra,
            took: view.took.clone(),
            holds: view.holds.clone(),
            discarded: view.discarded.clone(),
            scores: view.scores.clone(),
            out: view.out.clone(),
            reentered: view.reentered.clone(),
            out_order: view.out_order.clone(),
            close: view.close.clone(),
            last_hand: view.last_hand.clone(),
            sheet: view.sheet.clone(),
            winners: view.winners.clone(),
            chinchon: view.chinchon,
        })
    }
}
