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
//!    clear margin — a wider one for throwing or accepting an órdago, whose cost hides in
//!    rare deals a small budget may never sample.
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
//! The budget is a number of rollouts (`maestro:iters=N`, reproducible), time
//! (`maestro:ms=N`, checked between rollouts) or both (`maestro:iters=N,ms=M`: N rollouts
//! unless M milliseconds pass first). The default is [`DEFAULT_BUDGET`]: 256 rollouts
//! within a second, so it plays the same on every machine fast enough. Decisions with one
//! legal action return at once; señas are chosen directly (the most telling one the hand
//! allows). The player uses only its view and its rng.

mod belief;
mod value;

pub use crate::read::{PairAnswers, Reading, SeatRecord, TableRead};
pub use crate::strength::percentile;
pub use value::win_chance;

use crate::basico::{discard, Basico};
use crate::{Avanzado, Experto};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use tapete_cards::CardSet;
use tapete_mus::events::Event;
use tapete_mus::rules::Lance;
use tapete_mus::view::Phase;
use tapete_mus::Resample;
use tapete_mus::{Action, MusGame, MusView, Sena};
use tapete_table::search::{race, Racing};
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
const KEEP_DEFAULT_Z: f64 = 1.0;
/// The same for a choice that stakes the game (throwing or accepting an órdago). Its loss
/// comes from rare deals — the rival accepts, or throws, only with a hand near the top — so
/// a few hundred worlds often miss it and make the mean look better than it is.
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
/// Deals drawn per world when calls were heard, one kept by its likelihood.
const BELIEF_DRAWS: usize = 8;
/// A rollout stops after this many actions whatever happens (a hand takes a few dozen).
const MAX_ROLLOUT_STEPS: usize = 400;

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
    /// What it has seen of the others this match.
    pub table: TableRead,
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
            table: TableRead::default(),
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
        rng: &mut ChaCha8Rng,
    ) -> Option<Action> {
        let calls = belief::calls(&view.log, seat);
        let us = seat % 2;
        let readings: [Reading; 4] = std::array::from_fn(|s| {
            if self.read && s % 2 != us {
                self.table.reading(s)
            } else {
                Reading::default()
            }
        });
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
        let tally = race(
            &RACING,
            self.budget,
            candidates.len(),
            rng,
            |rng| sample_world(view, &calls, &readings, rng),
            |world, i, r| {
                let mut bots = policies.clone();
                let start = (seat, candidates[i].clone());
                rollout(world.clone(), start, us, &mut bots, table, r)
            },
        );
        let best = tally.best()?;
        // The rollout policy's own choice stands unless the search shows something better:
        // a small budget should not turn noise into decisions. A game-staking choice must
        // show it by a wider margin, even when the racing has already dropped the default.
        let stakes_game = stakes_game(view, &candidates[best]);
        if let Some(d) =
            default.filter(|&d| d != best && (stakes_game || tally.active.contains(&d)))
        {
            let z = if stakes_game {
                KEEP_DEFAULT_Z_ORDAGO
            } else {
                KEEP_DEFAULT_Z
            };
            let (m, se) = tally.paired(best, d);
            if m - z * se <= 0.0 {
                return Some(candidates[d].clone());
            }
        }
        Some(candidates[best].clone())
    }
}

impl Maestro {
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
        self.table.observe(view);
        if let Policy::Experto(e) = &mut self.rollout {
            e.observe(view);
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
        match self.search(view, seat, &candidates, default, rng) {
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

/// Plays `first` (a seat and its action) in `game`, then the rest of the hand with `bots`
/// at the seats; the value for pair `us` (see [`value::win_chance`]). With a `table`, when
/// `first` is an órdago the rivals answer it as the table read says.
fn rollout(
    mut game: MusGame,
    first: (Seat, Action),
    us: usize,
    bots: &mut [Policy; 4],
    table: Option<(&TableRead, [f64; 2])>,
    rng: &mut ChaCha8Rng,
) -> f64 {
    let target = game.rules().target;
    // Only the órdago being decided is answered by the table read: a later one in the
    // rollout is the rollout policy's, which maestro would search again before throwing.
    let table = table.filter(|_| first.1 == Action::Ordago);
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
                        match (table, ordago_against(&v, s, us)) {
                            (Some((t, trust)), Some(lance)) => {
                                if rng.gen_bool(trust[s % 2]) {
                                    bots[s % 4].act(&v, &legal, rng)
                                } else if t.accepts_without_fear(&v, lance, rng) {
                                    Action::Quiero
                                } else {
                                    Action::NoQuiero
                                }
                            }
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
        for e in &events {
            if let Event::GameWon { pair, .. } = e {
                return if *pair == us { 1.0 } else { 0.0 };
            }
        }
        if events
            .iter()
            .any(|e| matches!(e, Event::HandStarted { .. }))
        {
            break;
        }
    }
    let p = game.scores().piedras;
    win_chance(p[us], p[1 - us], target)
}

/// The lance of an órdago of pair `us` that `seat`, a rival, has to answer now.
fn ordago_against(view: &MusView, seat: Seat, us: usize) -> Option<Lance> {
    match (view.phase, view.bet) {
        (Phase::Bet { lance }, Some(b))
            if seat % 2 != us && b.ordago && b.pair == us && b.answers(seat) =>
        {
            Some(lance)
        }
        _ => None,
    }
}
