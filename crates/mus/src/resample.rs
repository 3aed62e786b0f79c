//! Resampling: a full game state consistent with what one seat knows, for search players.
//!
//! The seat's own cards, every public call, the declarations heard and the discard counts
//! are kept; the cards it has not seen are dealt at random among the other hands, their
//! pending discards, the deck and the discard pile — respecting every pares and juego
//! declaration. The resampled game shows the seat exactly the view it was built from.

use crate::betting::Betting;
use crate::events::Event;
use crate::game::{MusGame, Phase};
use crate::view::{MusView, Phase as PhaseView};
use crate::{rules, Action, Jugada, Lance, Sena};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tapete_cards::{Card, CardSet, Deck};

pub use tapete_table::{Resample, ResampleError};

/// Attempts at dealing the unseen cards before giving up on the declarations.
const ATTEMPTS: usize = 10_000;

impl Resample for MusGame {
    /// A full state consistent with `view` (a seat's view), with the unseen cards dealt at
    /// random from `rng` among the other players (respecting their declarations), their
    /// pending discards, the deck and the discard pile.
    fn resample(view: &MusView, rng: &mut ChaCha8Rng) -> Result<MusGame, ResampleError> {
        let seat = view.seat.ok_or(ResampleError::Spectator)?;
        if view.winner.is_some() || view.phase == PhaseView::Over {
            return Err(ResampleError::Over);
        }
        let mode = view.rules.mode;
        let own: CardSet = view.cards.iter().copied().collect();
        let own_discard = view.my_discard.unwrap_or_default();

        // This mus round's discard counts, from the public log.
        let round_start = view
            .log
            .iter()
            .rposition(|e| matches!(e, Event::Served | Event::HandStarted { .. }))
            .map_or(0, |i| i + 1);
        let mut discarded = [0usize; 4];
        for e in &view.log[round_start..] {
            if let Event::Discarded { seat: s, count } = e {
                discarded[*s] = *count as usize;
            }
        }

        let unseen: Vec<Card> = CardSet::full()
            .difference(own)
            .difference(own_discard)
            .iter()
            .collect();
        let others: Vec<usize> = (0..4).filter(|&s| s != seat).collect();
        let needed: usize = others.iter().map(|_| 4).sum::<usize>() + view.deck_left;
        if needed > unseen.len() {
            return Err(ResampleError::Inconsistent(format!(
                "{} unseen cards cannot fill three hands and a deck of {}",
                unseen.len(),
                view.deck_left
            )));
        }
        let fits = |s: usize, hand: CardSet| {
            let Some(j) = Jugada::from_set(hand, mode) else {
                return true;
            };
            let partner_sena = if s == (seat + 2) % 4 {
                view.partner_sena
            } else {
                None
            };
            view.pares[s].is_none_or(|d| d == rules::pares(j).is_some())
                && view.juego[s].is_none_or(|d| d == rules::has_juego(j))
                && partner_sena.is_none_or(|sena| sena.holds(j))
        };
        let mut pool = unseen.clone();
        let mut dealt = None;
        for _ in 0..ATTEMPTS {
            pool.shuffle(rng);
            let mut hands = [CardSet::EMPTY; 4];
            let mut discards: [Option<CardSet>; 4] =
                view.discarded.map(|d| d.then_some(CardSet::EMPTY));
            let mut next = pool.iter().copied();
            for &s in &others {
                let in_hand = 4 - discarded[s];
                hands[s] = next.by_ref().take(in_hand).collect();
                if view.discarded[s] {
                    discards[s] = Some(next.by_ref().take(discarded[s]).collect());
                }
            }
            if others.iter().all(|&s| fits(s, hands[s])) {
                let rest: Vec<Card> = next.collect();
                dealt = Some((hands, discards, rest));
                break;
            }
        }
        let (mut hands, mut discards, rest) = dealt.ok_or(ResampleError::NoConsistentDeal)?;
        hands[seat] = own;
        if view.discarded[seat] {
            discards[seat] = Some(own_discard);
        }
        let (deck_cards, pile) = rest.split_at(view.deck_left.min(rest.len()));
        let mut game_rng = ChaCha8Rng::seed_from_u64(rng.gen());
        let deck = Deck::from_cards(deck_cards.to_vec(), &mut game_rng);

        let position = |s: usize| (s + 4 - view.mano) % 4;
        let phase = match view.phase {
            PhaseView::Over => return Err(ResampleError::Over),
            PhaseView::Mus => Phase::Mus {
                pos: view.log[round_start..]
                    .iter()
                    .filter(|e| {
                        matches!(
                            e,
                            Event::Said {
                                action: Action::Mus,
                                ..
                            }
                        )
                    })
                    .count(),
            },
            PhaseView::Discard => Phase::Discard,
            PhaseView::Senas => Phase::Senas,
            PhaseView::Declare { lance } => {
                let decl = if lance == Lance::Pares {
                    view.pares
                } else {
                    view.juego
                };
                Phase::Declare {
                    lance,
                    pos: decl.iter().filter(|d| d.is_some()).count(),
                }
            }
            PhaseView::Bet { lance } => {
                let eligible = match lance {
                    Lance::Pares => {
                        [0, 1, 2, 3].map(|p| view.pares[(view.mano + p) % 4] == Some(true))
                    }
                    Lance::Juego => {
                        [0, 1, 2, 3].map(|p| view.juego[(view.mano + p) % 4] == Some(true))
                    }
                    _ => [true; 4],
                };
                let first_deje = if lance == Lance::Punto && view.rules.punto_y_miedo {
                    2
                } else {
                    1
                };
                let mut betting = Betting::new(eligible, first_deje, view.rules.target);
                let start = view
                    .log
                    .iter()
                    .rposition(|e| *e == Event::LanceStarted { lance })
                    .ok_or_else(|| {
                        ResampleError::Inconsistent(format!("{lance} is bet but never started"))
                    })?;
                for e in &view.log[start + 1..] {
                    if let Event::Said { seat: s, action } = e {
                        betting
                            .apply(position(*s), action)
                            .map_err(|err| ResampleError::Inconsistent(err.to_string()))?;
                    }
                }
                Phase::Bet { lance, betting }
            }
        };
        Ok(MusGame {
            rules: view.rules.clone(),
            rng: game_rng,
            scores: view.scores,
            winner: view.winner,
            hand_no: view.hand_number,
            game_no: view.game_number,
            mano: view.mano,
            hands,
            deck,
            pile: pile.to_vec(),
            discards,
            mus_rounds: view.mus_rounds,
            phase,
            pares: view.pares,
            juego: view.juego,
            // The partner's seña is known; the opponents' are not: any they sent is taken
            // as "ninguna", which every hand allows.
            senas: [0, 1, 2, 3].map(|s| {
                if s == seat {
                    view.my_sena
                } else if s == (seat + 2) % 4 {
                    view.partner_sena
                } else {
                    view.senas_sent[s].then_some(Sena::Ninguna)
                }
            }),
            lances: view.lances.clone(),
            log: view.log.clone(),
            last_hand: view.last_hand.clone(),
            // The boards to come are unknown: a world deals them from a seed of its own.
            seed: rng.gen(),
            board: view.board.map_or(0, |b| b.saturating_sub(1)),
            board_nets: view.board_nets.clone(),
        })
    }
}
