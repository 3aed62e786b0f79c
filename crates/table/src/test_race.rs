//! A toy game for tests, this crate's and others' (not part of the API).

use crate::{Game, Seat};

/// A two-seat race to 5: the seat that moves first wins when both play "add 2".
#[derive(Clone, PartialEq, Debug)]
pub struct Race {
    pub total: u8,
    pub turn: Seat,
}

impl Game for Race {
    const NAME: &'static str = "race";
    type Rules = ();
    type Action = u8;
    type View = u8;
    type Event = u8;
    type Error = String;
    fn new(_: &(), _: usize, _: u64) -> Result<Self, crate::SetupError> {
        Ok(Race { total: 0, turn: 0 })
    }
    fn to_act(&self) -> crate::ToAct {
        if self.total >= 5 {
            crate::ToAct::Over
        } else {
            crate::ToAct::Seats(vec![self.turn])
        }
    }
    fn legal_actions(&self, seat: Seat) -> Vec<u8> {
        if seat == self.turn && self.total < 5 {
            vec![1, 2]
        } else {
            vec![]
        }
    }
    fn apply(&mut self, seat: Seat, a: &u8) -> Result<Vec<u8>, String> {
        if !self.legal_actions(seat).contains(a) {
            return Err(format!("seat {seat} cannot add {a} now"));
        }
        self.total += a;
        self.turn = 1 - seat;
        Ok(vec![self.total])
    }
    fn view(&self, _: Seat) -> u8 {
        self.total
    }
    fn spectator_view(&self) -> u8 {
        self.total
    }
    fn outcome(&self) -> Option<crate::Outcome> {
        (self.total >= 5)
            .then(|| crate::Outcome::winners_first(2, vec![1 - self.turn], vec![], String::new()))
    }
}
