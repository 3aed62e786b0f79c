//! A toy game for examples and tests: two seats each hold one hidden card of ten; seat 0
//! bets (the higher card wins the game) or folds (seat 1 wins). Its values are known
//! exactly: betting with card `c` wins `(c − 1) / 9`.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use tapete_table::{Game, Outcome, Resample, ResampleError, Seat, SetupError, ToAct};

/// A duel: the two cards and what seat 0 did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Duel {
    /// Each seat's card, 1–10, distinct.
    pub cards: [u8; 2],
    /// Seat 0's choice, once made.
    pub chosen: Option<DuelAction>,
}

/// Seat 0's choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DuelAction {
    /// The higher card wins.
    Bet,
    /// Seat 1 wins.
    Fold,
}

impl std::fmt::Display for DuelAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            DuelAction::Bet => "bet",
            DuelAction::Fold => "fold",
        })
    }
}

impl std::str::FromStr for DuelAction {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "bet" => Ok(DuelAction::Bet),
            "fold" => Ok(DuelAction::Fold),
            _ => Err(format!("`{s}` is not bet or fold")),
        }
    }
}

/// What a seat sees: its own card, and whether the duel is over.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DuelView {
    /// Whose view.
    pub seat: Seat,
    /// Its card.
    pub card: u8,
    /// Seat 0's choice, once made.
    pub chosen: Option<DuelAction>,
}

impl Game for Duel {
    const NAME: &'static str = "duel";
    type Rules = ();
    type Action = DuelAction;
    type View = DuelView;
    type Event = String;
    type Error = String;

    fn new(_: &(), seats: usize, seed: u64) -> Result<Self, SetupError> {
        if seats != 2 {
            return Err(SetupError::Seats {
                wanted: "2",
                got: seats,
            });
        }
        let mut deck: Vec<u8> = (1..=10).collect();
        deck.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
        Ok(Duel {
            cards: [deck[0], deck[1]],
            chosen: None,
        })
    }
    fn to_act(&self) -> ToAct {
        match self.chosen {
            None => ToAct::Seats(vec![0]),
            Some(_) => ToAct::Over,
        }
    }
    fn legal_actions(&self, seat: Seat) -> Vec<DuelAction> {
        if seat == 0 && self.chosen.is_none() {
            vec![DuelAction::Bet, DuelAction::Fold]
        } else {
            vec![]
        }
    }
    fn apply(&mut self, seat: Seat, a: &DuelAction) -> Result<Vec<String>, String> {
        if !self.legal_actions(seat).contains(a) {
            return Err(format!("seat {seat} cannot {a} now"));
        }
        self.chosen = Some(*a);
        Ok(vec![a.to_string()])
    }
    fn view(&self, seat: Seat) -> DuelView {
        DuelView {
            seat,
            card: self.cards[seat.min(1)],
            chosen: self.chosen,
        }
    }
    fn spectator_view(&self) -> DuelView {
        DuelView {
            seat: 2,
            card: 0,
            chosen: self.chosen,
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        let winner = match self.chosen? {
            DuelAction::Fold => 1,
            DuelAction::Bet if self.cards[0] > self.cards[1] => 0,
            DuelAction::Bet => 1,
        };
        Some(Outcome::winners_first(
            2,
            vec![winner],
            vec![],
            String::new(),
        ))
    }
}

impl Resample for Duel {
    fn resample(view: &DuelView, rng: &mut ChaCha8Rng) -> Result<Self, ResampleError> {
        if view.seat > 1 {
            return Err(ResampleError::Spectator);
        }
        let others: Vec<u8> = (1..=10).filter(|&c| c != view.card).collect();
        let other = *others.choose(rng).ok_or(ResampleError::NoConsistentDeal)?;
        let mut cards = [view.card, other];
        if view.seat == 1 {
            cards.swap(0, 1);
        }
        Ok(Duel {
            cards,
            chosen: view.chosen,
        })
    }
}

/// The duel's reviewer: both options, no rollout players needed (the duel ends at once).
pub struct DuelReviewer;

impl crate::Reviewer for DuelReviewer {
    type G = Duel;
    type Policy = ();

    fn options(
        &self,
        _: &DuelView,
        legal: &[DuelAction],
        _: &DuelAction,
    ) -> Option<Vec<DuelAction>> {
        Some(legal.to_vec())
    }
    fn policy(&self) {}
    fn rollout_action(
        &self,
        _: &mut (),
        _: &Duel,
        _: Seat,
        legal: &[DuelAction],
        _: &mut ChaCha8Rng,
    ) -> DuelAction {
        legal[0]
    }
    fn settle(&self, world: &Duel, _: &[String], seat: Seat) -> Option<f64> {
        world.outcome().map(|_| self.equity(world, seat))
    }
    fn equity(&self, game: &Duel, seat: Seat) -> f64 {
        match game.outcome() {
            Some(o) if o.winners.contains(&seat) => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }
    fn hand(&self, _: &Duel) -> u32 {
        1
    }
}
