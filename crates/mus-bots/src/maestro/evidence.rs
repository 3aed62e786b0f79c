//! What the rivals' answers to our bets say about how they answer, cards shown or not.
//!
//! Every envite, raise or órdago of our pair that the rivals answer (seeing or raising it,
//! or letting it go) is a spot: our view just before the bet, the public calls up to it,
//! and the answer. In worlds dealt from that view (the belief's deals, kept only where the
//! public calls between the view and the bet replay), each answer model says how often the
//! rivals would have answered that way: a threshold model accepts when an answering
//! seat's [`lance_chance`] reaches it; the rollout players are asked. The log of that
//! frequency, floored at [`EPS`] since no rival is exactly any model, adds up over the
//! match, and a model whose total falls [`LOG_CUT`] below the best one's is dropped from
//! the worst case.

use super::{belief, bet_against, sample_world, Policy};
use crate::leyes_cache::lance_chance;
use crate::read::Reading;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tapete_mus::events::Event;
use tapete_mus::rules::Lance;
use tapete_mus::{Action, MusGame, MusView};
use tapete_table::{Bot, Game, Seat};

/// Worlds dealt to weigh one answer.
const WORLDS: usize = 48;
/// Worlds dealt to weigh one call of a rival where no bet stood.
const BETTOR_WORLDS: usize = 24;
/// Fewest worlds that must replay the calls up to the bet for the answer to count.
const MIN_WORLDS: usize = 12;
/// The floor and ceiling of a model's chance of any answer: a rival misplays, reads the
/// score, or is no threshold player at all, so one answer never rules a model out.
const EPS: f64 = 0.1;
/// A model is dropped once the answers are this much likelier (in natural log) under the
/// best model: ln 20, a Bayes factor of 20, "strong" on Jeffreys' scale. With [`EPS`], two
/// answers flatly against a model are needed (one gives ln 9).
pub const LOG_CUT: f64 = 3.0;
/// Rollout steps allowed for the rollout players to answer a bet.
const MAX_ANSWER_STEPS: usize = 8;

/// The log-likelihoods of the answer models, from the rivals' answers this match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Evidence {
    /// The hand the views below belong to.
    hand: u32,
    /// Our views this hand, at each of our decisions.
    views: Vec<MusView>,
    /// The log indices of this hand's bets of ours whose answer is counted.
    done: Vec<usize>,
    /// By kind (0: envites and raises, 1: órdagos): the log-likelihood of each of
    /// [`super::ANSWER_MODELS`], then of the rollout players' answer.
    pub loglik: [[f64; 5]; 2],
    /// Answers counted, by kind.
    pub answers: [u32; 2],
    /// By seat and kind (0: envites, 1: órdagos): the log-likelihood of each bettor model
    /// ([`super::BET_MODELS`], [`super::THROW_MODELS`]), then of the rollout player's call,
    /// from the seat's calls where no bet stood (a bet, or a paso).
    pub bettor: [[Vec<f64>; 2]; 4],
}

/// A rival's call where no bet stood: its index in the log, the seat, the lance, and
/// whether it was an envite (or órdago) and whether an órdago.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Opening {
    at: usize,
    seat: Seat,
    lance: Lance,
    bet: bool,
    ordago: bool,
}

/// The calls of the rivals of pair `us` in `log` where no bet stood.
fn openings(log: &[Event], us: usize) -> Vec<Opening> {
    let mut out = Vec::new();
    let mut lance = None;
    let mut standing = false;
    for (i, e) in log.iter().enumerate() {
        match e {
            Event::LanceStarted { lance: l } => {
                lance = Some(*l);
                standing = false;
            }
            Event::LanceSettled { .. } => lance = None,
            Event::Said { seat, action } => {
                let Some(l) = lance else { continue };
                let bet = crate::is_bet(action);
                if seat % 2 != us && !standing && (bet || *action == Action::Paso) {
                    out.push(Opening {
                        at: i,
                        seat: *seat,
                        lance: l,
                        bet,
                        ordago: *action == Action::Ordago,
                    });
                }
                standing |= bet;
            }
            _ => {}
        }
    }
    out
}

/// A bet of pair `us` and the rivals' answer: its index in the hand's log, the lance,
/// whether it was an órdago, and whether they accepted (saw or raised it).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Answered {
    at: usize,
    lance: Lance,
    ordago: bool,
    accepted: bool,
}

/// The bets of pair `us` in `log` (one hand's) that the rivals have answered.
fn answered(log: &[Event], us: usize) -> Vec<Answered> {
    let mut out = Vec::new();
    let mut lance = None;
    let mut pending: Option<(usize, Lance, bool)> = None;
    for (i, e) in log.iter().enumerate() {
        match e {
            Event::LanceStarted { lance: l } => {
                lance = Some(*l);
                pending = None;
            }
            Event::LanceSettled { .. } => {
                if let Some((at, lance, ordago)) = pending.take() {
                    out.push(Answered {
                        at,
                        lance,
                        ordago,
                        accepted: false,
                    });
                }
                lance = None;
            }
            Event::Said { seat, action } => {
                let Some(l) = lance else { continue };
                let bet = crate::is_bet(action);
                if seat % 2 == us {
                    if bet {
                        pending = Some((i, l, *action == Action::Ordago));
                    }
                } else if bet || *action == Action::Quiero {
                    if let Some((at, lance, ordago)) = pending.take() {
                        out.push(Answered {
                            at,
                            lance,
                            ordago,
                            accepted: true,
                        });
                    }
                }
            }
            _ => {}
        }
    }
    out
}

impl Evidence {
    /// Counts the answers to our bets that `view` (of `seat`) shows and were not counted
    /// yet, this hand's and the last hand's, then keeps `view` for the answers to come.
    pub fn observe(
        &mut self,
        view: &MusView,
        seat: Seat,
        readings: &[Reading; 4],
        bots: &[Policy; 4],
    ) {
        if view.hand_number != self.hand {
            if let Some(h) = view.last_hand.as_ref().filter(|h| h.hand == self.hand) {
                let log = h.log.clone();
                self.count(&log, seat, readings, bots);
            }
            self.hand = view.hand_number;
            self.views.clear();
            self.done.clear();
        }
        self.count(&view.log, seat, readings, bots);
        self.views.push(view.clone());
    }

    fn count(&mut self, log: &[Event], seat: Seat, readings: &[Reading; 4], bots: &[Policy; 4]) {
        let us = seat % 2;
        for a in answered(log, us) {
            let Some((view, gap, mut rng)) = self.spot(log, a.at, true) else {
                continue;
            };
            if let Some(p) = likelihoods(view, seat, gap, &a, readings, bots, &mut rng) {
                let k = usize::from(a.ordago);
                for (l, p) in self.loglik[k].iter_mut().zip(p) {
                    *l += p.ln();
                }
                self.answers[k] += 1;
            }
        }
        for o in openings(log, us) {
            let Some((view, gap, mut rng)) = self.spot(log, o.at, false) else {
                continue;
            };
            let Some(p) = bettor_likelihoods(view, seat, gap, &o, readings, bots, &mut rng) else {
                continue;
            };
            for (k, p) in p.into_iter().enumerate() {
                let l = &mut self.bettor[o.seat % 4][k];
                if l.len() < p.len() {
                    l.resize(p.len(), 0.0);
                }
                for (l, p) in l.iter_mut().zip(p) {
                    *l += p.ln();
                }
            }
        }
    }

    /// The spot of the call at `at` in `log`, once (None after the first time): our latest
    /// view from before it with no dealing since, the calls from that view up to the call
    /// (`inclusive` of it or not), and a generator of its own.
    fn spot<'a>(
        &'a mut self,
        log: &'a [Event],
        at: usize,
        inclusive: bool,
    ) -> Option<(&'a MusView, &'a [Event], ChaCha8Rng)> {
        if self.done.contains(&at) {
            return None;
        }
        self.done.push(at);
        let view = self.views.iter().rev().find(|v| v.log.len() <= at)?;
        let gap = &log[view.log.len()..at + usize::from(inclusive)];
        if gap
            .iter()
            .any(|e| matches!(e, Event::Served | Event::Discarded { .. }))
        {
            return None;
        }
        let rng = ChaCha8Rng::seed_from_u64(u64::from(self.hand) << 16 | at as u64);
        Some((view, gap, rng))
    }

    /// Which of the bettor `models` (for `ordago` or envites) stand for `seat`: within
    /// [`LOG_CUT`] of the best of them and of the rollout player. All stand before any call.
    pub fn bettor_standing(&self, seat: Seat, ordago: bool, models: &[f64]) -> Vec<bool> {
        let l = &self.bettor[seat % 4][usize::from(ordago)];
        if l.len() != models.len() + 1 {
            return vec![true; models.len()];
        }
        let best = l.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        l[..models.len()]
            .iter()
            .map(|&x| x >= best - LOG_CUT)
            .collect()
    }

    /// Whether each of the answer models (the thresholds, then the rollout players) stands
    /// for `ordago` bets or envites: within [`LOG_CUT`] of the best.
    pub fn standing(&self, ordago: bool) -> [bool; 5] {
        let l = &self.loglik[usize::from(ordago)];
        let best = l.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        l.map(|x| x >= best - LOG_CUT)
    }
}

/// Each model's chance of the answer `a`, in worlds dealt from `view` where the calls of
/// `gap` (from the view to the bet, the bet included) replay; `None` with too few of them.
fn likelihoods(
    view: &MusView,
    seat: Seat,
    gap: &[Event],
    a: &Answered,
    readings: &[Reading; 4],
    bots: &[Policy; 4],
    rng: &mut ChaCha8Rng,
) -> Option<[f64; 5]> {
    let us = seat % 2;
    let calls = belief::calls(&view.log, seat);
    let mut bots = bots.clone();
    let (mut n, mut hits) = (0usize, [0usize; 5]);
    'worlds: for _ in 0..WORLDS {
        let Some(mut g) = sample_world(view, &calls, readings, rng) else {
            continue;
        };
        for e in gap {
            if let Event::Said { seat, action } = e {
                if g.apply(*seat, action).is_err() {
                    continue 'worlds;
                }
            }
        }
        let Some(best) = answering_best(&g, us, a.lance) else {
            continue;
        };
        n += 1;
        for (h, t) in hits.iter_mut().zip(super::ANSWER_MODELS) {
            if (best >= t) == a.accepted {
                *h += 1;
            }
        }
        if policy_accepts(g, us, &mut bots, rng) == a.accepted {
            hits[4] += 1;
        }
    }
    (n >= MIN_WORLDS).then(|| hits.map(|h| EPS + (1.0 - 2.0 * EPS) * h as f64 / n as f64))
}

/// For a rival's call where no bet stood, each bettor model's chance of it, for envites
/// (bet or not) and for órdagos (órdago or not), then the rollout player's, in worlds dealt
/// from `view` where the calls of `gap` replay; `None` with too few of them.
fn bettor_likelihoods(
    view: &MusView,
    seat: Seat,
    gap: &[Event],
    o: &Opening,
    readings: &[Reading; 4],
    bots: &[Policy; 4],
    rng: &mut ChaCha8Rng,
) -> Option<[Vec<f64>; 2]> {
    let calls = belief::calls(&view.log, seat);
    let mut bots = bots.clone();
    let models: [&[f64]; 2] = [&super::BET_MODELS, &super::THROW_MODELS];
    let mut hits: [Vec<usize>; 2] = models.map(|m| vec![0; m.len() + 1]);
    let mut n = 0usize;
    'worlds: for _ in 0..BETTOR_WORLDS {
        let Some(mut g) = sample_world(view, &calls, readings, rng) else {
            continue;
        };
        for e in gap {
            if let Event::Said { seat, action } = e {
                if g.apply(*seat, action).is_err() {
                    continue 'worlds;
                }
            }
        }
        if g.to_act().seats().first() != Some(&o.seat) {
            continue;
        }
        let v = g.view_without_history(o.seat);
        let rules = &v.rules;
        let Some(p) = v
            .position
            .and_then(|pos| lance_chance(&v.cards, pos, o.lance, rules.mode, rules.real31))
        else {
            continue;
        };
        let legal = g.legal_actions(o.seat);
        let act = bots[o.seat % 4].act(&v, &legal, rng);
        let policy_bet = crate::is_bet(&act);
        n += 1;
        for (k, said) in [(0, o.bet), (1, o.ordago)] {
            for (h, &t) in hits[k].iter_mut().zip(models[k]) {
                if (p >= t) == said {
                    *h += 1;
                }
            }
            let policy = if k == 0 {
                policy_bet
            } else {
                act == Action::Ordago
            };
            if policy == said {
                hits[k][models[k].len()] += 1;
            }
        }
    }
    (n >= MIN_WORLDS).then(|| {
        hits.map(|h| {
            h.iter()
                .map(|&h| EPS + (1.0 - 2.0 * EPS) * h as f64 / n as f64)
                .collect()
        })
    })
}

/// The best [`lance_chance`] of the rivals of pair `us` who must answer its bet in `lance`
/// standing in `g`.
fn answering_best(g: &MusGame, us: usize, lance: Lance) -> Option<f64> {
    let rules = g.rules().clone();
    (0..4)
        .filter_map(|s| {
            let v = g.view_without_history(s);
            bet_against(&v, s, us).filter(|b| b.0 == lance)?;
            lance_chance(&v.cards, v.position?, lance, rules.mode, rules.real31)
        })
        .reduce(f64::max)
}

/// Whether the rollout players at the rivals' seats accept (see or raise) the bet of
/// pair `us` standing in `g`.
fn policy_accepts(mut g: MusGame, us: usize, bots: &mut [Policy; 4], rng: &mut ChaCha8Rng) -> bool {
    for _ in 0..MAX_ANSWER_STEPS {
        let Some(&s) = g.to_act().seats().first() else {
            return false;
        };
        let v = g.view_without_history(s);
        if bet_against(&v, s, us).is_none() {
            return false;
        }
        let legal = g.legal_actions(s);
        let act = bots[s % 4].act(&v, &legal, rng);
        if act == Action::Quiero || crate::is_bet(&act) {
            return true;
        }
        if g.apply(s, &act).is_err() {
            return false;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_found_in_the_log() {
        let said = |seat, action| Event::Said { seat, action };
        let log = vec![
            Event::LanceStarted {
                lance: Lance::Grande,
            },
            said(0, Action::Envido(2)),
            said(1, Action::NoQuiero),
            said(3, Action::Quiero),
            Event::LanceSettled {
                lance: Lance::Grande,
                status: tapete_mus::LanceStatus::EnPaso,
            },
            Event::LanceStarted {
                lance: Lance::Chica,
            },
            said(0, Action::Ordago),
            said(1, Action::NoQuiero),
            said(3, Action::NoQuiero),
            Event::LanceSettled {
                lance: Lance::Chica,
                status: tapete_mus::LanceStatus::EnPaso,
            },
        ];
        let got = answered(&log, 0);
        assert_eq!(got.len(), 2);
        assert!(got[0].accepted && !got[0].ordago && got[0].at == 1);
        assert!(!got[1].accepted && got[1].ordago && got[1].lance == Lance::Chica);
        assert!(answered(&log, 1).is_empty());
    }

    #[test]
    fn a_model_goes_once_far_below_the_best() {
        let mut e = Evidence::default();
        assert_eq!(e.standing(false), [true; 5]);
        e.loglik[0] = [-LOG_CUT - 1.5, -1.0, -0.5, -LOG_CUT - 0.4, -4.0];
        assert_eq!(e.standing(false), [false, true, true, true, false]);
        assert_eq!(e.standing(true), [true; 5]);
    }
}
