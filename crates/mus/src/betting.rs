//! The betting machine every lance uses: paso, envido, reenvido, quiero, no quiero, órdago.
//!
//! It works on positions (0 = mano … 3 = postre); pair `p % 2` is the position's pair.
//! Only *eligible* positions speak (in pares and juego, those holding them).
//!
//! - With no bet standing, eligible players speak from the mano: paso, envido N (N ≥ 2) or
//!   órdago. If all pass the lance is en paso.
//! - Facing a bet, the opponents of the bettor speak in turn (the next one after the bettor
//!   first): quiero, no quiero, reenvido N or órdago. If the first says no quiero the partner
//!   still speaks; if both decline the betting pair wins at once (the *deje*): 1 piedra for a
//!   declined first bet (2 at punto with punto y miedo), otherwise the amount that stood
//!   before the last raise.
//! - A raise turns the table: the raised pair now answers, the player after the raiser first.

use crate::Action;
use serde::{Deserialize, Serialize};

/// A bet on the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bet {
    /// Pair (0: mano's pair, 1: the other) that made the last bet or raise.
    pub pair: usize,
    /// Piedras that stand if accepted (ignored for an órdago).
    pub total: u8,
    /// Piedras won by the betting pair if declined.
    pub deje: u8,
    /// True when the last raise was an órdago.
    pub ordago: bool,
}

/// How a lance's betting ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Settled {
    /// Everybody passed.
    EnPaso,
    /// A bet was accepted: `piedras` go to the lance's winner at the counting.
    Accepted { piedras: u8 },
    /// An órdago was accepted: the lance's winner wins the game now.
    OrdagoAccepted,
    /// The bet was declined: `pair` wins `piedras` at once.
    Declined { pair: usize, piedras: u8 },
}

/// Why a betting action was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BetError {
    #[error("it is position {expected}'s turn to speak")]
    NotYourTurn { expected: usize },
    #[error("`{0}` only answers a bet, and no bet stands: paso, envido N or órdago")]
    NoBet(Action),
    #[error("`{0}` opens the betting, but a bet stands: quiero, no quiero, reenvido N or órdago")]
    BetStanding(Action),
    #[error("an órdago can only be accepted (quiero) or declined (no quiero)")]
    AfterOrdago,
    #[error("{amount} is too small: envites are of at least 2 piedras")]
    TooSmall { amount: u8 },
    #[error("{amount} is too large: at most {max} piedras at a time")]
    TooLarge { amount: u8, max: u8 },
    #[error("`{0}` is not a betting action")]
    NotBetting(Action),
}

/// The state of one lance's betting round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Betting {
    eligible: [bool; 4],
    /// Positions still to speak, first is the one whose turn it is.
    queue: Vec<usize>,
    bet: Option<Bet>,
    /// First-bet deje (2 under punto y miedo at punto, else 1).
    first_deje: u8,
    /// Largest envite or raise allowed.
    max: u8,
}

/// The smallest envite or raise.
pub const MIN_ENVITE: u8 = 2;

impl Betting {
    /// A betting round among `eligible` positions, with the deje for a declined first bet
    /// and the largest single envite allowed.
    pub fn new(eligible: [bool; 4], first_deje: u8, max: u8) -> Betting {
        Betting {
            eligible,
            queue: (0..4).filter(|&p| eligible[p]).collect(),
            bet: None,
            first_deje,
            max,
        }
    }

    /// The position whose turn it is.
    pub fn turn(&self) -> Option<usize> {
        self.queue.first().copied()
    }

    /// The bet on the table, if any.
    pub fn bet(&self) -> Option<&Bet> {
        self.bet.as_ref()
    }

    /// Positions still to speak in this round, the one whose turn it is first (with a bet
    /// standing: the answering pair's players who have not answered it yet).
    pub fn waiting(&self) -> &[usize] {
        &self.queue
    }

    /// Positions that take part.
    pub fn eligible(&self) -> [bool; 4] {
        self.eligible
    }

    /// Every action the player to speak may take.
    pub fn legal(&self) -> Vec<Action> {
        match &self.bet {
            None => {
                let mut v = vec![Action::Paso];
                v.extend((MIN_ENVITE..=self.max).map(Action::Envido));
                v.push(Action::Ordago);
                v
            }
            Some(b) if b.ordago => vec![Action::Quiero, Action::NoQuiero],
            Some(_) => {
                let mut v = vec![Action::Quiero, Action::NoQuiero];
                v.extend((MIN_ENVITE..=self.max).map(Action::Reenvido));
                v.push(Action::Ordago);
                v
            }
        }
    }

    /// Opponents of `pos` that take part, in speaking order starting after `pos`.
    fn answerers(&self, pos: usize) -> Vec<usize> {
        [1, 3]
            .iter()
            .map(|d| (pos + d) % 4)
            .filter(|&p| self.eligible[p])
            .collect()
    }

    fn check_amount(&self, amount: u8) -> Result<(), BetError> {
        if amount < MIN_ENVITE {
            Err(BetError::TooSmall { amount })
        } else if amount > self.max {
            Err(BetError::TooLarge {
                amount,
                max: self.max,
            })
        } else {
            Ok(())
        }
    }

    /// Validates `action` by `pos` without changing anything.
    pub fn check(&self, pos: usize, action: &Action) -> Result<(), BetError> {
        let expected = self.turn().unwrap_or(0);
        if self.turn() != Some(pos) {
            return Err(BetError::NotYourTurn { expected });
        }
        match (&self.bet, action) {
            (
                _,
                a @ (Action::Mus
                | Action::NoHayMus
                | Action::Descarto(_)
                | Action::Pares(_)
                | Action::Juego(_)
                | Action::Sena(_)),
            ) => Err(BetError::NotBetting(a.clone())),
            (None, Action::Paso | Action::Ordago) => Ok(()),
            (None, Action::Envido(n)) => self.check_amount(*n),
            (None, a) => Err(BetError::NoBet(a.clone())),
            (Some(b), Action::Reenvido(_) | Action::Ordago) if b.ordago => {
                Err(BetError::AfterOrdago)
            }
            (Some(_), Action::Quiero | Action::NoQuiero | Action::Ordago) => Ok(()),
            (Some(_), Action::Reenvido(n)) => self.check_amount(*n),
            (Some(_), a) => Err(BetError::BetStanding(a.clone())),
        }
    }

    /// Applies `action` by `pos`: `Ok(Some(_))` when the betting is over.
    pub fn apply(&mut self, pos: usize, action: &Action) -> Result<Option<Settled>, BetError> {
        self.check(pos, action)?;
        let pair = pos % 2;
        match action {
            Action::Paso => {
                self.queue.remove(0);
                Ok(self.queue.is_empty().then_some(Settled::EnPaso))
            }
            Action::Envido(n) => {
                self.raise(pos, pair, *n, false);
                Ok(None)
            }
            Action::Reenvido(n) => {
                self.raise(pos, pair, *n, false);
                Ok(None)
            }
            Action::Ordago => {
                self.raise(pos, pair, 0, true);
                Ok(None)
            }
            Action::Quiero => {
                let b = self.bet.take().ok_or(BetError::NoBet(Action::Quiero))?;
                self.queue.clear();
                Ok(Some(if b.ordago {
                    Settled::OrdagoAccepted
                } else {
                    Settled::Accepted { piedras: b.total }
                }))
            }
            Action::NoQuiero => {
                self.queue.remove(0);
                if self.queue.is_empty() {
                    let b = self.bet.take().ok_or(BetError::NoBet(Action::NoQuiero))?;
                    Ok(Some(Settled::Declined {
                        pair: b.pair,
                        piedras: b.deje,
                    }))
                } else {
                    Ok(None)
                }
            }
            other => Err(BetError::NotBetting(other.clone())),
        }
    }

    fn raise(&mut self, pos: usize, pair: usize, amount: u8, ordago: bool) {
        let (deje, before) = match &self.bet {
            None => (self.first_deje, 0),
            Some(b) => (b.total, b.total),
        };
        self.bet = Some(Bet {
            pair,
            total: before.saturating_add(amount),
            deje,
            ordago,
        });
        self.queue = self.answerers(pos);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Action::*;

    fn run(b: &mut Betting, steps: &[(usize, Action)]) -> Option<Settled> {
        let mut out = None;
        for (p, a) in steps {
            assert!(out.is_none(), "betting already over before {p}: {a}");
            out = b.apply(*p, a).unwrap();
        }
        out
    }

    #[test]
    fn all_pass_is_en_paso() {
        let mut b = Betting::new([true; 4], 1, 40);
        assert_eq!(
            run(&mut b, &[(0, Paso), (1, Paso), (2, Paso), (3, Paso)]),
            Some(Settled::EnPaso)
        );
    }

    #[test]
    fn declined_first_bet_pays_one_after_both_opponents_decline() {
        let mut b = Betting::new([true; 4], 1, 40);
        let r = run(&mut b, &[(0, Paso), (1, Envido(2)), (2, NoQuiero)]);
        assert_eq!(r, None, "the partner of the first to decline still speaks");
        assert_eq!(b.turn(), Some(0));
        assert_eq!(
            b.apply(0, &NoQuiero).unwrap(),
            Some(Settled::Declined {
                pair: 1,
                piedras: 1
            })
        );
    }

    #[test]
    fn declined_raise_pays_what_stood_before_it() {
        let mut b = Betting::new([true; 4], 1, 40);
        let r = run(
            &mut b,
            &[
                (0, Envido(2)),
                (1, Reenvido(5)),
                (2, NoQuiero),
                (0, NoQuiero),
            ],
        );
        assert_eq!(
            r,
            Some(Settled::Declined {
                pair: 1,
                piedras: 2
            })
        );
        let mut b = Betting::new([true; 4], 1, 40);
        let r = run(
            &mut b,
            &[
                (0, Envido(2)),
                (1, Reenvido(5)),
                (2, Reenvido(3)),
                (3, NoQuiero),
                (1, NoQuiero),
            ],
        );
        assert_eq!(
            r,
            Some(Settled::Declined {
                pair: 0,
                piedras: 7
            })
        );
        let mut b = Betting::new([true; 4], 1, 40);
        let r = run(
            &mut b,
            &[(0, Envido(4)), (1, Ordago), (2, NoQuiero), (0, NoQuiero)],
        );
        assert_eq!(
            r,
            Some(Settled::Declined {
                pair: 1,
                piedras: 4
            })
        );
    }

    #[test]
    fn accepted_bets_and_ordagos() {
        let mut b = Betting::new([true; 4], 1, 40);
        let r = run(
            &mut b,
            &[(0, Envido(2)), (1, NoQuiero), (3, Reenvido(3)), (0, Quiero)],
        );
        assert_eq!(r, Some(Settled::Accepted { piedras: 5 }));
        let mut b = Betting::new([true; 4], 1, 40);
        let r = run(&mut b, &[(0, Ordago), (1, Quiero)]);
        assert_eq!(r, Some(Settled::OrdagoAccepted));
    }

    #[test]
    fn punto_y_miedo_first_deje_is_two() {
        let mut b = Betting::new([true; 4], 2, 40);
        let r = run(&mut b, &[(0, Ordago), (1, NoQuiero), (3, NoQuiero)]);
        assert_eq!(
            r,
            Some(Settled::Declined {
                pair: 0,
                piedras: 2
            })
        );
    }

    #[test]
    fn only_eligible_players_speak() {
        // Pares held by positions 1 and 2 only.
        let mut b = Betting::new([false, true, true, false], 1, 40);
        assert_eq!(b.turn(), Some(1));
        assert!(b.apply(0, &Paso).is_err());
        let r = run(&mut b, &[(1, Envido(2)), (2, NoQuiero)]);
        assert_eq!(
            r,
            Some(Settled::Declined {
                pair: 1,
                piedras: 1
            })
        );
    }

    #[test]
    fn illegal_moves_change_nothing() {
        let mut b = Betting::new([true; 4], 1, 40);
        let before = b.clone();
        assert_eq!(
            b.apply(1, &Paso),
            Err(BetError::NotYourTurn { expected: 0 })
        );
        assert_eq!(
            b.apply(0, &Envido(1)),
            Err(BetError::TooSmall { amount: 1 })
        );
        assert_eq!(
            b.apply(0, &Envido(41)),
            Err(BetError::TooLarge {
                amount: 41,
                max: 40
            })
        );
        assert!(matches!(b.apply(0, &Quiero), Err(BetError::NoBet(_))));
        assert!(matches!(b.apply(0, &Reenvido(2)), Err(BetError::NoBet(_))));
        assert!(matches!(b.apply(0, &Mus), Err(BetError::NotBetting(_))));
        assert_eq!(b, before);
        b.apply(0, &Ordago).unwrap();
        let before = b.clone();
        assert_eq!(b.apply(1, &Reenvido(2)), Err(BetError::AfterOrdago));
        assert!(matches!(b.apply(1, &Paso), Err(BetError::BetStanding(_))));
        assert_eq!(b, before);
        for a in b.legal() {
            assert!(b.check(1, &a).is_ok());
        }
    }
}
