//! `maestro`: a search player, beyond the thesis' levels.
//!
//! At each decision with a real choice it runs a determinized Monte Carlo search over the
//! engine itself:
//!
//! 1. **Candidates.** The legal actions, bucketed: paso or quiero / no quiero, envites of 2
//!    and 4 (raises of 2), the amount that would carry us to the target when it is small,
//!    and órdago; for a discard, the `basico` discard and its neighbours (one card more or
//!    one fewer); mus or no hay mus. The choice the rollout policy itself would make is
//!    always among them, and it stands unless the search finds a candidate better by a
//!    clear margin under every model of the rivals it weighs (see *Robust bets*) — a wider
//!    margin for throwing or accepting an órdago, whose cost hides in rare deals a small
//!    budget may never sample.
//! 2. **Worlds.** Each iteration deals a determinization with
//!    [`MusGame::resample`] — the unseen cards at random, respecting the declarations and
//!    the partner's seña — and, when other players have bet or answered this hand, keeps
//!    one of several such deals drawn in proportion to how well it explains those calls
//!    ([`belief`]: a raise is likelier from a strong hand).
//! 3. **Rollouts.** Every surviving candidate is applied in the same world and the rest of
//!    the hand is played by the rollout [`Policy`] (`experto` by default, with experto's
//!    read of this match: its faroles, openings and raises, follow how often each pair
//!    has folded) at all four seats, reading the cheaper
//!    [`MusGame::view_without_history`], with the same random stream for every candidate
//!    (common random numbers: the candidates are compared on equal deals). A rival
//!    facing the órdago being searched answers as the table read says.
//! 4. **Value.** The end of the hand is scored by the chance of winning the game from the
//!    resulting piedras ([`value::win_chance`]); a game won or lost during the hand (the
//!    target reached, an órdago accepted) is 1 or 0. Games decide matches, not piedras, and
//!    the curve makes risk worth more to the pair that is behind.
//! 5. **Racing.** After a few worlds, a candidate whose paired difference with the leader
//!    is clearly negative is dropped, so the budget goes to the close calls; the search
//!    stops once one candidate is left or the budget is spent, and the best mean wins.
//!
//! **Reading the table** ([`crate::read`]). Every finished hand the views show adds to a record
//! of each rival this match: how often it cuts the mus, what hands it bets and throws
//! órdagos with, how it answers envites and órdagos. The record weights the worlds (a
//! bluffer's bets say less), plays the rival in the rollouts (one who always cuts, or sees
//! every envite, does so there too), and answers our órdagos by the evidence
//! ([`Answers::Evidence`]): until its pair has been seen folding, a rival accepts whenever
//! its own hand makes accepting worth at least declining, as a player would who reads
//! nothing into the órdago, so maestro throws no órdago whose value rests on a fold of
//! fear it has no evidence for; each fold seen brings the answer closer to the rollout
//! player's, who reads an órdago as the strong hand it usually is. It is on by default;
//! `maestro:read=off` plays every rival as the rollout policy.
//!
//! **Robust bets** ([`Maestro::robust`], on by default). What the rollout players answer
//! is one guess at the rivals, and folds to envites say little about how a pair answers
//! an órdago: a careful player folds weak hands to both and accepts exactly when it holds
//! a strong one. So a bet of ours (an envite, a raise, an órdago) is played out in every
//! world against several answers at once — the rollout players' (and the read's, for an
//! órdago), and the [`ANSWER_MODELS`]: rivals accepting from a lance chance of 0.5, 0.65,
//! 0.8 or 0.9 of their own four cards — and it is worth its worst model's mean
//! ([`race_models`]). It is made only when it pays against whoever the
//! rivals turn out to be. Facing a bet, each answer is also valued in the worlds where
//! the bettor's own cards reach 0.5, 0.65 or 0.8 for an envite ([`BET_MODELS`]), 0.7 to
//! 0.95 for an órdago ([`THROW_MODELS`]), and is worth the worst of those too: a rival's
//! órdago may be as strong as a tight player's. The evidence narrows the models, so the
//! read takes over only as it is earned: each answer and each bet shown this match rules
//! out the thresholds it contradicts ([`TableRead::answer_thresholds`],
//! [`TableRead::bet_thresholds`]), and once the rivals' answers leave one threshold
//! standing, that threshold answers our bets in place of the rollout players. The calls
//! whose cards stay hidden count too ([`Evidence`]): every answer to a bet of ours, and
//! every rival's bet or paso where no bet stood, is weighed in worlds dealt from our view
//! at the time, and a model (the rollout players' answer among them) far less likely than
//! the best one is dropped.
//!
//! The worst case picks the best candidate, but replacing the rollout player's own choice
//! asks more: the candidate must beat it under each model that stands, not merely at the
//! model each likes least. A bet valued against five models would otherwise be judged by
//! whichever of them (a caller who sees only the hands that beat it, a bettor who bets only
//! the top fifth) dislikes it, while the paso or the fold beside it answers to one, and the
//! search would give up the rollout player's bets, calibrated on real answers, against
//! every rival the likelier models describe.
//!
//! A choice that stakes the game (throwing or accepting an órdago), or gives up a stake the
//! rollout player would make, must also pay when the rest of the game favours us: each
//! model is valued a second time with the end of the hand scored for a pair
//! [`STRONG_EDGE`] stronger than the other ([`value::win_chance_with_edge`]). Between even
//! pairs the game is a coin toss after a declined órdago, so accepting one with a lance won
//! three times in four looks good; against a pair we beat nine games in ten, declining keeps
//! most of that. Against rivals no stronger than us the gate costs little: a stake worth
//! taking between even pairs with a nearly sure lance pays under both.

mod belief;
mod evidence;
mod value;

pub use crate::read::{PairAnswers, Reading, SeatRecord, TableRead};
pub use crate::strength::percentile;
pub use evidence::Evidence;
pub use value::{
    after_juego, match_chance, match_chance_as, win_chance, win_chance_as, win_chance_with_edge,
    MAX_EDGE,
};

use crate::basico::{discard, Basico};
use crate::leyes_cache::lance_chance;
use crate::{Avanzado, Experto};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::time::Instant;
use tapete_cards::CardSet;
use tapete_mus::events::Event;
use tapete_mus::rules::Lance;
use tapete_mus::view::Phase;
use tapete_mus::Resample;
use tapete_mus::{Action, MusGame, MusView, Sena};
use tapete_table::search::{race_models, Racing};
use tapete_table::{Bot, Game, Seat};

/// Default rollouts per decision: enough to separate the candidates in most betting spots,
/// and the same play on every machine (a time budget plays differently on a slower one).
pub const DEFAULT_ITERS: u32 = 256;

/// Default cap on the thinking time per decision, in milliseconds: the default rollouts
/// take a fraction of it, so the cap only binds on a slow or overloaded machine.
pub const DEFAULT_MS: u64 = 1000;

/// The budget maestro plays at unless its name gives one.
pub const DEFAULT_BUDGET: Budget = Budget::ItersWithin {
    iters: DEFAULT_ITERS,
    ms: DEFAULT_MS,
};

/// How many standard errors a candidate must beat the rollout policy's own choice by to be
/// played instead.
const KEEP_DEFAULT_Z: f64 = 2.0;
/// The same when either choice stakes the game (throwing or accepting an órdago). Its loss
/// comes from rare deals — the rival accepts, or throws, only with a hand near the top — so
/// a few hundred worlds often miss it and make the mean look better or worse than it is.
const KEEP_DEFAULT_Z_ORDAGO: f64 = 3.0;
/// The largest envite or raise searched besides 2 and 4: the one that would carry the pair
/// to the target. Bigger ones mostly test how the rollout players fold, not the hand.
const MAX_TO_TARGET: u8 = 8;
/// The race between the candidates: 24 worlds before any is dropped, then a round every
/// 8 dropping those 2.5 standard errors behind the leader; 92% of a time budget used for
/// rollouts (the rest covers the last rollout and the bookkeeping).
const RACING: Racing = Racing {
    min_worlds: 24,
    race_every: 8,
    race_z: 2.5,
    time_share: 0.92,
};
/// The answer models a bet of ours is valued against ([`Maestro::robust`]): a rival pair
/// that accepts (sees an envite, accepts an órdago) when either answering seat's chance of
/// winning the lance, from its own four cards, is at least this — loose (0.5), middling,
/// tight (0.8), very tight. None of them never accepts: such a rival cannot punish a bet, and
/// valuing every bet by it would value each at its deje, giving up the bets that win.
pub const ANSWER_MODELS: [f64; 4] = [0.5, 0.65, 0.8, 0.9];
/// The bettor models an answer of ours to an órdago is valued against
/// ([`Maestro::robust`]): a rival who throws one only when its chance of winning the
/// lance, from its own four cards, is at least this.
pub const THROW_MODELS: [f64; 4] = [0.7, 0.8, 0.9, 0.95];
/// The same for an answer to an envite or a raise.
pub const BET_MODELS: [f64; 3] = [0.5, 0.65, 0.8];
/// Deals drawn per world when calls were heard, one kept by its likelihood.
const BELIEF_DRAWS: usize = 8;
/// A rollout stops after this many actions whatever happens (a hand takes a few dozen).
const MAX_ROLLOUT_STEPS: usize = 400;
/// The edge of the stronger continuation a game-staking departure must also pay under
/// ([`value::win_chance_with_edge`]): a pair winning 80% of the hands where one scores
/// more, worth 0.89 from 0–0, about as experto fares against `random`.
const STRONG_EDGE: f64 = 0.3;

/// The players maestro imagines at every seat of a rollout: its model of the others and of
/// itself for the rest of the hand. Their own choice is also the one maestro keeps unless
/// the search finds a clearly better one.
#[derive(Clone, Debug)]
pub enum Policy {
    /// Fixed rules: the cheapest rollouts, the crudest model.
    Basico(Basico),
    /// Exact leyes, no señas or mus policy.
    Avanzado(Avanzado),
    /// The strongest heuristic level (the default): the most realistic model of a table of
    /// good players. Its leyes are cached per process, so rollouts grow cheaper as a session
    /// goes on.
    Experto(Experto),
}

impl Policy {
    /// The policy of the level called `name` (`basico`, `avanzado` or `experto`).
    pub fn by_name(name: &str) -> Option<Policy> {
        match name {
            "basico" => Some(Policy::Basico(Basico::default())),
            "avanzado" => Some(Policy::Avanzado(Avanzado::default())),
            "experto" => Some(Policy::Experto(Experto::default())),
            _ => None,
        }
    }
}

impl Bot<MusGame> for Policy {
    fn act(&mut self, view: &MusView, legal: &[Action], rng: &mut ChaCha8Rng) -> Action {
        match self {
            Policy::Basico(b) => b.act(view, legal, rng),
            Policy::Avanzado(b) => b.act(view, legal, rng),
            Policy::Experto(b) => b.act(view, legal, rng),
        }
    }
}

pub use tapete_table::budget::Budget;

/// How the rivals in maestro's rollouts answer the órdago being searched, when it reads
/// the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answers {
    /// By the evidence (`maestro:ordago=evidence`, the default). A rival whose pair has
    /// folded nothing this match answers without fear: it accepts whenever its own hand
    /// (the leyes, the declarations, its partner's seña) makes accepting worth at least
    /// declining, reading nothing into the órdago itself, and folds a hand no better than
    /// one it has been seen folding with. Each fold of its pair seen this match (an
    /// envite let go, a no quiero to an órdago) moves it toward the rollout player at its
    /// seat, who reads an órdago as the strong hand it usually is: after `f` folds it
    /// answers as that player with chance `f / (f + 1)`.
    Evidence,
    /// As the rollout player at the seat would (`maestro:ordago=policy`), from the first
    /// hand: it counts on folds nothing has shown yet. For measuring what the evidence costs.
    Policy,
}

impl Default for Maestro {
    /// maestro at the default budget, [`DEFAULT_BUDGET`].
    fn default() -> Self {
        Maestro::with_budget(DEFAULT_BUDGET)
    }
}

/// The search player; see the module docs.
#[derive(Clone, Debug)]
pub struct Maestro {
    /// Thinking budget per decision.
    pub budget: Budget,
    /// The policy that plays every seat inside the rollouts, and the fallback.
    pub rollout: Policy,
    /// Whether it reads the table ([`crate::read`]; `maestro:read=on`, the default). Off,
    /// every rival is the rollout policy and answers órdagos as it would.
    pub read: bool,
    /// How a rival answers an órdago of ours in the rollouts, when it reads the table.
    pub answers: Answers,
    /// Whether a bet of ours (envite, raise, órdago) is valued by its worst case
    /// (`maestro:robust=on`, the default): against the rollout players' answer (and the
    /// read's, for an órdago) and against each of [`ANSWER_MODELS`] the rivals' shown
    /// answers this match have not ruled out ([`TableRead::answer_thresholds`]), so it is
    /// made only when it pays whoever the rivals turn out to be. Off, the rollout players
    /// and the read alone answer it.
    pub robust: bool,
    /// Whether the rivals' answers to our bets, cards shown or not, weigh the answer models
    /// (`maestro:evidence=on`, the default; [`Evidence`]): a model they make much less
    /// likely than the best one leaves the worst case. Off, only shown answers rule models
    /// out.
    pub weigh_answers: bool,
    /// Whether each rival's calls where no bet stood (its bets and its pasos) weigh the
    /// bettor models of its bets (`maestro:bets=on`, the default; [`Evidence`]). Off, only
    /// its shown bets rule them out.
    pub weigh_bets: bool,
    /// What it has seen of the others this match.
    pub table: TableRead,
    /// The answer models' likelihoods from the rivals' answers this match.
    pub evidence: Evidence,
}

impl Maestro {
    /// A maestro thinking `ms` milliseconds per decision.
    pub fn new(ms: u64) -> Maestro {
        Maestro::with_budget(Budget::Millis(ms))
    }

    /// A maestro running `iters` rollouts per decision, whatever the clock says.
    pub fn with_iters(iters: u32) -> Maestro {
        Maestro::with_budget(Budget::Iters(iters))
    }

    /// A maestro with this budget.
    pub fn with_budget(budget: Budget) -> Maestro {
        Maestro {
            budget,
            rollout: Policy::Experto(Experto::default()),
            read: true,
            answers: Answers::Evidence,
            robust: true,
            weigh_answers: true,
            weigh_bets: true,
            table: TableRead::default(),
            evidence: Evidence::default(),
        }
    }

    /// The search: the best candidate by mean value, or `None` when no world could be
    /// dealt or nothing was evaluated.
    fn search(
        &self,
        view: &MusView,
        seat: Seat,
        candidates: &[Action],
        default: Option<usize>,
        budget: Budget,
        rng: &mut ChaCha8Rng,
    ) -> Option<Action> {
        let calls = belief::calls(&view.log, seat);
        let us = seat % 2;
        let readings = self.readings(us);
        let policies = self.policies(us);
        // The chance, by pair, that a rival answers our órdago as the rollout player (the
        // evidence of its folds), fixed for the whole search.
        let table = (self.read && self.answers == Answers::Evidence).then(|| {
            let trust = std::array::from_fn(|p| {
                let f = f64::from(self.table.folds_seen(p));
                f / (f + 1.0)
            });
            (&self.table, trust)
        });
        let read = table.map_or(Answer::Policy, |(t, trust)| Answer::Read(t, trust));
        // The answer models a bet of ours is also valued against (none unless robust), for
        // envites and raises and for órdagos, and whether the rollout players' answer is
        // one of them.
        let models: [(Vec<f64>, bool); 2] = std::array::from_fn(|kind| {
            let ordago = kind == 1;
            match self.robust {
                true if self.read => {
                    let shown = self.table.answer_thresholds(1 - us, ordago, &ANSWER_MODELS);
                    if self.weigh_answers {
                        let standing = self.evidence.standing(ordago);
                        let kept: Vec<f64> = ANSWER_MODELS
                            .iter()
                            .zip(standing)
                            .filter(|&(t, s)| s && shown.contains(t))
                            .map(|(&t, _)| t)
                            .collect();
                        // An órdago's own answer is the read's, which these answers do
                        // not judge: it goes once one threshold alone is left.
                        let policy = if ordago { kept.len() != 1 } else { standing[4] };
                        if kept.is_empty() && !policy {
                            (shown, true)
                        } else {
                            (kept, policy)
                        }
                    } else {
                        let policy = shown.len() != 1;
                        (shown, policy)
                    }
                }
                true => (ANSWER_MODELS.to_vec(), true),
                false => (Vec::new(), true),
            }
        });
        // Facing a bet: who made it, in which lance, and the bettor models that
        // stand (none unless robust).
        let thrown = match (view.phase, view.bet) {
            (Phase::Bet { lance }, Some(b)) if self.robust && b.pair != us => last_bettor(view)
                .map(|bettor| {
                    let all: &[f64] = if b.ordago { &THROW_MODELS } else { &BET_MODELS };
                    let models = if self.read {
                        let shown = self.table.bet_thresholds(bettor, b.ordago, all);
                        if self.weigh_bets {
                            let standing = self.evidence.bettor_standing(bettor, b.ordago, all);
                            all.iter()
                                .zip(standing)
                                .filter(|&(t, s)| s && shown.contains(t))
                                .map(|(&t, _)| t)
                                .collect()
                        } else {
                            shown
                        }
                    } else {
                        all.to_vec()
                    };
                    (bettor, lance, models)
                }),
            _ => None,
        };
        // The answer models a candidate is valued against, and whether the rollout players'
        // answer is one of them: none for a candidate that is no bet of ours.
        let answer_models = |a: &Action| -> (&[f64], bool) {
            match a {
                Action::Ordago => (&models[1].0[..], models[1].1),
                Action::Envido(_) | Action::Reenvido(_) => (&models[0].0[..], models[0].1),
                _ => (&[][..], true),
            }
        };
        let bettors = thrown.as_ref().map_or(0, |t| t.2.len());
        let tally = race_models(
            &RACING,
            budget,
            candidates.len(),
            rng,
            |rng| sample_world(view, &calls, &readings, rng),
            |world, i, r, out| {
                let start = (seat, candidates[i].clone());
                let stream = r.clone();
                // The values under the stronger continuation, pushed after the others in
                // the same order.
                let mut strong = Vec::new();
                let (v, vs) = rollout(
                    world.clone(),
                    start.clone(),
                    us,
                    &mut policies.clone(),
                    read,
                    r,
                );
                let (models, policy) = answer_models(&start.1);
                // Once the evidence rules the rollout players' answer out (or leaves one
                // threshold standing), it no longer counts.
                if policy {
                    out.push(v);
                    strong.push(vs);
                }
                if let Some((bettor, lance, bets)) = &thrown {
                    // Each bettor model allows only the worlds where the bettor's hand
                    // reaches its threshold.
                    let p = seat_chance(world, *bettor, *lance).unwrap_or(1.0);
                    for &t in bets {
                        let (x, y) = if p >= t {
                            (v, vs)
                        } else {
                            (f64::NAN, f64::NAN)
                        };
                        out.push(x);
                        strong.push(y);
                    }
                }
                // Each model accepts or declines as the answering rivals' chances say; the
                // two outcomes are played once each, on the same stream as the first.
                let best = answering_chance(world, &start, us);
                let mut outcomes: [Option<(f64, f64)>; 2] = [None, None];
                for &t in models {
                    let accept = best.is_some_and(|p| p >= t);
                    let (v, vs) = *outcomes[usize::from(accept)].get_or_insert_with(|| {
                        rollout(
                            world.clone(),
                            start.clone(),
                            us,
                            &mut policies.clone(),
                            Answer::Forced(accept),
                            &mut stream.clone(),
                        )
                    });
                    out.push(v);
                    strong.push(vs);
                }
                out.append(&mut strong);
            },
        );
        let best = tally.best()?;
        // The rollout policy's own choice stands unless the search shows something better
        // under every model of the rivals (see `beats_under_every_model`): a small budget
        // should not turn noise into decisions, nor one model's guess into a departure from
        // a choice the others favour. Staking the game, or giving up experto's stake, must
        // show it by a wider margin and under the stronger continuation too.
        if let Some(d) = default.filter(|&d| d != best) {
            let stakes = stakes_game(view, &candidates[best]) || stakes_game(view, &candidates[d]);
            let z = if stakes {
                KEEP_DEFAULT_Z_ORDAGO
            } else {
                KEEP_DEFAULT_Z
            };
            let layout = |i: usize| model_layout(answer_models(&candidates[i]), bettors, stakes);
            if !beats_under_every_model(&tally, (best, &layout(best)), (d, &layout(d)), z) {
                return Some(candidates[d].clone());
            }
        }
        Some(candidates[best].clone())
    }
}

/// A model of the rivals a candidate's rollouts were valued under, in [`race_models`]'
/// series, and of the rest of the game: between even pairs, or (`strong`) for a pair
/// [`STRONG_EDGE`] stronger.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Model {
    /// Who the rivals are.
    rivals: Rivals,
    /// Whether the end of the hand is valued for a pair [`STRONG_EDGE`] stronger.
    strong: bool,
}

/// A model of the rivals.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Rivals {
    /// The rollout players (and the read, for an órdago of ours).
    Policy,
    /// The bettor model of this index in the list that stands ([`BET_MODELS`],
    /// [`THROW_MODELS`]).
    Bettor(usize),
    /// The answer model of this threshold ([`ANSWER_MODELS`]).
    Answer(f64),
}

/// The models of a candidate's series in the order the search pushes them: the rollout
/// players when they count, the `bettors` bettor models, then the answer models, all
/// between even pairs, then the same again under the stronger continuation, which count
/// only when `strong` (a choice that stakes the game, or gives up a stake).
fn model_layout((answers, policy): (&[f64], bool), bettors: usize, strong: bool) -> Vec<Model> {
    let mut rivals = Vec::with_capacity(1 + bettors + answers.len());
    if policy {
        rivals.push(Rivals::Policy);
    }
    rivals.extend((0..bettors).map(Rivals::Bettor));
    rivals.extend(answers.iter().map(|&t| Rivals::Answer(t)));
    let continuations: &[bool] = if strong { &[false, true] } else { &[false] };
    continuations
        .iter()
        .flat_map(|&strong| rivals.iter().map(move |&rivals| Model { rivals, strong }))
        .collect()
}

/// Whether candidate `a` beats candidate `b` by `z` standard errors of their paired
/// difference under every model both were valued under (of the rivals, and of the rest
/// of the game when the layouts give it). A candidate that is no bet of
/// ours (no answer models) is worth its rollout players' value under each answer model:
/// how the rivals would answer a bet it does not make changes nothing. With no model in
/// common, each candidate is taken at its worst model.
///
/// Comparing each candidate only at its own worst model lets one model decide: a bet
/// valued against five models is judged by whichever of them (a tight caller, a tight
/// bettor) likes it least, while a paso, valued against one, is not, so the search would
/// give up the rollout player's calibrated bets against rivals whom the other, likelier
/// models describe. Departing from that choice asks for evidence under every model.
fn beats_under_every_model(
    tally: &tapete_table::search::Tally,
    (a, la): (usize, &[Model]),
    (b, lb): (usize, &[Model]),
    z: f64,
) -> bool {
    let series = |i: usize, layout: &[Model], m: Model| -> Option<&[f64]> {
        let at = layout.iter().position(|x| *x == m).or_else(|| {
            let bets = layout.iter().any(|x| matches!(x.rivals, Rivals::Answer(_)));
            let policy = Model {
                rivals: Rivals::Policy,
                ..m
            };
            (matches!(m.rivals, Rivals::Answer(_)) && !bets)
                .then(|| layout.iter().position(|x| *x == policy))
                .flatten()
        })?;
        tally.values[i].get(at).map(Vec::as_slice)
    };
    let mut compared = false;
    for &m in la.iter().chain(lb.iter()) {
        if let (Some(x), Some(y)) = (series(a, la, m), series(b, lb, m)) {
            let (mean, se) = tapete_table::search::paired(x, y);
            if mean - z * se <= 0.0 {
                return false;
            }
            compared = true;
        }
    }
    compared || {
        let (mean, se) = tally.paired(a, b);
        mean - z * se > 0.0
    }
}

impl Maestro {
    /// How the belief reads each seat's calls: the rivals' by the table read.
    fn readings(&self, us: usize) -> [Reading; 4] {
        std::array::from_fn(|s| {
            if self.read && s % 2 != us {
                self.table.reading(s)
            } else {
                Reading::default()
            }
        })
    }

    /// The players of the rollouts by seat: the rollout policy, with each rival's habits
    /// when it reads the table and the policy is experto's (which keeps its own read of the
    /// table: its faroles follow how often each pair folds).
    fn policies(&self, us: usize) -> [Policy; 4] {
        std::array::from_fn(|s| match &self.rollout {
            Policy::Experto(e) if self.read && s % 2 != us => Policy::Experto(Experto {
                style: self.table.style(s, &e.style),
                read: e.read.clone(),
            }),
            p => p.clone(),
        })
    }
}

impl Bot<MusGame> for Maestro {
    fn act(&mut self, view: &MusView, legal: &[Action], rng: &mut ChaCha8Rng) -> Action {
        let start = Instant::now();
        self.table.observe(view);
        if let Policy::Experto(e) = &mut self.rollout {
            e.observe(view);
        }
        if let Some(seat) = view
            .seat
            .filter(|_| self.robust && self.read && (self.weigh_answers || self.weigh_bets))
        {
            let (readings, policies) = (self.readings(seat % 2), self.policies(seat % 2));
            self.evidence.observe(view, seat, &readings, &policies);
        }
        if legal.len() <= 1 {
            return legal.first().cloned().unwrap_or(Action::Paso);
        }
        let Some(seat) = view.seat else {
            return self.rollout.act(view, legal, rng);
        };
        if view.phase == Phase::Senas {
            return choose_sena(legal);
        }
        let own = self.rollout.act(view, legal, rng);
        let mut candidates = candidates(view, seat, legal);
        if !candidates.contains(&own) {
            candidates.push(own.clone());
        }
        if candidates.len() == 1 {
            return candidates[0].clone();
        }
        let default = candidates.iter().position(|a| *a == own);
        // The time spent reading the table comes out of the search's.
        let spent = u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
        let budget = match self.budget {
            Budget::Millis(ms) => Budget::Millis(ms.saturating_sub(spent).max(1)),
            Budget::ItersWithin { iters, ms } => Budget::ItersWithin {
                iters,
                ms: ms.saturating_sub(spent).max(1),
            },
            b => b,
        };
        match self.search(view, seat, &candidates, default, budget, rng) {
            Some(a) if legal.contains(&a) => a,
            _ => own,
        }
    }
}

/// The most telling seña the hand allows: the partner's resampling narrows with it.
fn choose_sena(legal: &[Action]) -> Action {
    const ORDER: [Sena; 9] = [
        Sena::TreintaYUna,
        Sena::Duples,
        Sena::Medias,
        Sena::TresReyes,
        Sena::DosReyes,
        Sena::TresPitos,
        Sena::DosPitos,
        Sena::Ciego,
        Sena::Ninguna,
    ];
    ORDER
        .into_iter()
        .map(Action::Sena)
        .find(|a| legal.contains(a))
        .or_else(|| legal.first().cloned())
        .unwrap_or(Action::Paso)
}

/// Whether `action` stakes the game: an órdago, or accepting one.
fn stakes_game(view: &MusView, action: &Action) -> bool {
    match action {
        Action::Ordago => true,
        Action::Quiero => view.bet.is_some_and(|b| b.ordago),
        _ => false,
    }
}

/// The actions worth searching, all legal.
pub fn candidates(view: &MusView, seat: Seat, legal: &[Action]) -> Vec<Action> {
    let mut out: Vec<Action> = Vec::new();
    let mut push = |a: Action| {
        if legal.contains(&a) && !out.contains(&a) {
            out.push(a);
        }
    };
    match view.phase {
        Phase::Discard => {
            let hand: CardSet = view.cards.iter().copied().collect();
            let base = discard(&view.cards, view.rules.mode);
            push(Action::Descarto(base));
            for c in hand.iter() {
                let mut d = base;
                if d.contains(c) {
                    d.remove(c);
                } else {
                    d.insert(c);
                }
                if (1..=4).contains(&d.len()) {
                    push(Action::Descarto(d));
                }
            }
        }
        Phase::Bet { .. } => {
            let ours = view.scores.piedras[seat % 2];
            let target = view.rules.target;
            match view.bet {
                None => {
                    push(Action::Paso);
                    for n in [2, 4] {
                        push(Action::Envido(n));
                    }
                    // A small envite that would carry us to the target.
                    let to_target = target.saturating_sub(ours);
                    if to_target <= MAX_TO_TARGET {
                        push(Action::Envido(to_target));
                    }
                }
                Some(bet) => {
                    push(Action::Quiero);
                    push(Action::NoQuiero);
                    push(Action::Reenvido(2));
                    let to_target = target.saturating_sub(ours).saturating_sub(bet.total);
                    if to_target <= MAX_TO_TARGET {
                        push(Action::Reenvido(to_target));
                    }
                }
            }
            push(Action::Ordago);
        }
        _ => {
            for a in legal {
                push(a.clone());
            }
        }
    }
    if out.is_empty() {
        out.extend(legal.first().cloned());
    }
    out
}

/// A world dealt from `view` as maestro reads the calls heard this hand with every seat
/// read the same way ([`Reading::default`]): the unseen cards at random, respecting the
/// declarations and the partner's seña, and with calls heard one of [`BELIEF_DRAWS`] deals
/// kept in proportion to how well it explains them. `None` when no deal fits the view.
pub fn believed_world(view: &MusView, rng: &mut ChaCha8Rng) -> Option<MusGame> {
    let seat = view.seat?;
    let calls = belief::calls(&view.log, seat);
    sample_world(view, &calls, &[Reading::default(); 4], rng)
}

/// One determinization of `view`; with calls heard, one of [`BELIEF_DRAWS`] deals picked in
/// proportion to how well each explains them. `None` when no deal fits the view.
fn sample_world(
    view: &MusView,
    calls: &[belief::Call],
    readings: &[Reading; 4],
    rng: &mut ChaCha8Rng,
) -> Option<MusGame> {
    if calls.is_empty() {
        return MusGame::resample(view, rng).ok();
    }
    let mut draws = Vec::with_capacity(BELIEF_DRAWS);
    for _ in 0..BELIEF_DRAWS {
        let g = MusGame::resample(view, rng).ok()?;
        let w = belief::likelihood(&g, calls, readings);
        draws.push((g, w));
    }
    let total: f64 = draws.iter().map(|(_, w)| w).sum();
    let mut x = rng.gen::<f64>() * total;
    let last = draws.len() - 1;
    for (i, (g, w)) in draws.into_iter().enumerate() {
        x -= w;
        if x <= 0.0 || i == last {
            return Some(g);
        }
    }
    None
}

/// How the rivals answer the órdago being searched in a rollout.
#[derive(Clone, Copy)]
enum Answer<'a> {
    /// As the rollout players at their seats.
    Policy,
    /// As the table read says ([`Answers::Evidence`]), for an órdago: as the rollout
    /// player with the chance given for its pair, else without fear.
    Read(&'a TableRead, [f64; 2]),
    /// The first rival to answer accepts (sees it: `true`), or every one declines.
    Forced(bool),
}

/// The seat that made the last bet (envite, raise, órdago) heard this hand.
fn last_bettor(view: &MusView) -> Option<Seat> {
    view.log
        .iter()
        .rev()
        .take_while(|e| !matches!(e, Event::HandStarted { .. }))
        .find_map(|e| match e {
            Event::Said {
                seat,
                action: Action::Ordago | Action::Envido(_) | Action::Reenvido(_),
            } => Some(*seat),
            _ => None,
        })
}

/// `seat`'s chance of winning `lance` in `world`, from its own four cards.
fn seat_chance(world: &MusGame, seat: Seat, lance: Lance) -> Option<f64> {
    let v = world.view_without_history(seat);
    let rules = &v.rules;
    lance_chance(&v.cards, v.position?, lance, rules.mode, rules.real31)
}

/// The best chance of winning the lance, from its own four cards, among the rivals who
/// will have to answer `first` (a bet of pair `us`) in `world`; `None` when none has.
fn answering_chance(world: &MusGame, first: &(Seat, Action), us: usize) -> Option<f64> {
    let mut g = world.clone();
    g.apply(first.0, &first.1).ok()?;
    let rules = g.rules().clone();
    (0..4)
        .filter_map(|s| {
            let v = g.view_without_history(s);
            let (lance, _) = bet_against(&v, s, us)?;
            lance_chance(&v.cards, v.position?, lance, rules.mode, rules.real31)
        })
        .reduce(f64::max)
}

/// Plays `first` (a seat and its action) in `game`, then the rest of the hand with `bots`
/// at the seats; the value for pair `us` (see [`value::win_chance`]) between even pairs
/// and, second, for a pair [`STRONG_EDGE`] stronger than the other. The rivals answer
/// `first`, when it is a bet, as `answer` says (the read only for an órdago).
fn rollout(
    mut game: MusGame,
    first: (Seat, Action),
    us: usize,
    bots: &mut [Policy; 4],
    answer: Answer,
    rng: &mut ChaCha8Rng,
) -> (f64, f64) {
    let target = game.rules().target;
    // Only the bet being decided is answered by `answer`: a later one in the rollout is
    // the rollout policy's, which maestro would search again before making it.
    let answer = match (answer, &first.1) {
        (Answer::Read(..), Action::Ordago) | (Answer::Forced(_), _) => answer,
        _ => Answer::Policy,
    };
    let first_lance = match game.view_without_history(first.0).phase {
        Phase::Bet { lance } => Some(lance),
        _ => None,
    };
    let mut next = Some(first);
    for _ in 0..MAX_ROLLOUT_STEPS {
        let (s, a) = match next.take() {
            Some(first) => first,
            None => {
                let Some(&s) = game.to_act().seats().first() else {
                    break;
                };
                let legal = game.legal_actions(s);
                let a = match legal.as_slice() {
                    [only] => only.clone(),
                    _ => {
                        let v = game.view_without_history(s);
                        let facing = bet_against(&v, s, us).filter(|b| Some(b.0) == first_lance);
                        match (answer, facing) {
                            (Answer::Read(t, trust), Some((lance, true))) => {
                                if rng.gen_bool(trust[s % 2]) {
                                    bots[s % 4].act(&v, &legal, rng)
                                } else if t.accepts_without_fear(&v, lance, rng) {
                                    Action::Quiero
                                } else {
                                    Action::NoQuiero
                                }
                            }
                            (Answer::Forced(true), Some(_)) => Action::Quiero,
                            (Answer::Forced(false), Some(_)) => Action::NoQuiero,
                            _ => bots[s % 4].act(&v, &legal, rng),
                        }
                    }
                };
                (s, a)
            }
        };
        let Ok(events) = game.apply(s, &a) else {
            break;
        };
        match hand_step(&events, us) {
            HandStep::Decided(won) => {
                let v = if won { 1.0 } else { 0.0 };
                return (v, v);
            }
            HandStep::NextHand => break,
            HandStep::Going => {}
        }
    }
    let p = game.scores().piedras;
    (
        win_chance(p[us], p[1 - us], target),
        win_chance_with_edge(p[us], p[1 - us], target, STRONG_EDGE),
    )
}

/// Where a hand played out to its end stands after one action's events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandStep {
    /// The game was decided: won by the pair asked about (`true`) or lost.
    Decided(bool),
    /// The hand ended and the next one was dealt.
    NextHand,
    /// The hand goes on.
    Going,
}

/// [`HandStep`] of `events` (one action's) for pair `us`: a rollout stops at the first
/// that is not [`HandStep::Going`].
pub fn hand_step(events: &[Event], us: usize) -> HandStep {
    let won = events.iter().find_map(|e| match e {
        Event::GameWon { pair, .. } => Some(*pair == us),
        _ => None,
    });
    match won {
        Some(won) => HandStep::Decided(won),
        None if events
            .iter()
            .any(|e| matches!(e, Event::HandStarted { .. })) =>
        {
            HandStep::NextHand
        }
        None => HandStep::Going,
    }
}

/// The lance of a bet of pair `us` that `seat`, a rival, has to answer now, and whether
/// the bet is an órdago.
fn bet_against(view: &MusView, seat: Seat, us: usize) -> Option<(Lance, bool)> {
    match (view.phase, view.bet) {
        (Phase::Bet { lance }, Some(b)) if seat % 2 != us && b.pair == us && b.answers(seat) => {
            Some((lance, b.ordago))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tapete_table::search::Tally;

    /// Four worlds' values around `mean`, spread so that a paired difference of 0.1 is
    /// many standard errors.
    fn around(mean: f64) -> Vec<f64> {
        [0.0, 0.01, -0.01, 0.005].iter().map(|d| mean + d).collect()
    }

    #[test]
    fn a_paso_replaces_a_bet_only_if_it_wins_under_every_model() {
        // Candidate 0 bets, valued under the rollout players and two answer models;
        // candidate 1 passes, valued under the rollout players alone.
        let bet = model_layout((&[0.5, 0.8], true), 0, false);
        let paso = model_layout((&[], true), 0, false);
        let tally = |policy: f64, loose: f64, tight: f64| Tally {
            values: vec![
                vec![around(policy), around(loose), around(tight)],
                vec![around(0.5)],
            ],
            active: vec![0, 1],
        };
        // The bet's worst model (the tight caller) likes it less than the paso, but the
        // others like it more: the bet stands.
        let t = tally(0.6, 0.6, 0.4);
        assert!(!beats_under_every_model(&t, (1, &paso), (0, &bet), 2.0));
        // Worse than the paso under every model: the paso replaces it.
        let t = tally(0.4, 0.45, 0.3);
        assert!(beats_under_every_model(&t, (1, &paso), (0, &bet), 2.0));
    }

    #[test]
    fn bettor_models_are_compared_world_for_world() {
        // Facing a bet, both answers are valued under the rollout players and one bettor
        // model; the second wins under the first only.
        let layout = model_layout((&[], true), 1, false);
        let t = Tally {
            values: vec![
                vec![around(0.5), around(0.5)],
                vec![around(0.6), around(0.45)],
            ],
            active: vec![0, 1],
        };
        assert!(!beats_under_every_model(
            &t,
            (1, &layout),
            (0, &layout),
            2.0
        ));
        assert!(!beats_under_every_model(
            &t,
            (0, &layout),
            (1, &layout),
            2.0
        ));
    }

    #[test]
    fn a_hand_step_reads_the_game_won_before_the_next_hand() {
        let won = Event::GameWon {
            pair: 1,
            ordago: true,
            piedras: [3, 40],
        };
        let next = Event::HandStarted {
            hand: 2,
            game: 2,
            mano: 1,
        };
        assert_eq!(
            hand_step(&[next.clone(), won.clone()], 1),
            HandStep::Decided(true)
        );
        assert_eq!(hand_step(&[won, next.clone()], 0), HandStep::Decided(false));
        assert_eq!(hand_step(&[next], 0), HandStep::NextHand);
        assert_eq!(hand_step(&[Event::Served], 0), HandStep::Going);
    }

    #[test]
    fn a_stake_must_also_pay_when_the_rest_of_the_game_favours_us() {
        // Facing an órdago, valued under the rollout players: accepting (0) against
        // declining (1), between even pairs and then for a stronger pair. Accepting wins
        // or loses the game outright, so its values are the same under both; declining is
        // worth more when the rest of the game favours us.
        let t = Tally {
            values: vec![
                vec![around(0.7), around(0.7)],
                vec![around(0.55), around(0.85)],
            ],
            active: vec![0, 1],
        };
        let even = model_layout((&[], true), 0, false);
        assert!(beats_under_every_model(&t, (0, &even), (1, &even), 3.0));
        let both = model_layout((&[], true), 0, true);
        assert!(!beats_under_every_model(&t, (0, &both), (1, &both), 3.0));
        // Better under both continuations: the accept replaces the fold.
        let t = Tally {
            values: vec![
                vec![around(0.95), around(0.95)],
                vec![around(0.55), around(0.85)],
            ],
            active: vec![0, 1],
        };
        assert!(beats_under_every_model(&t, (0, &both), (1, &both), 3.0));
    }
}
