//! `maestro`: a search player. At each decision with a real choice it runs a
//! determinized Monte Carlo search over the engine itself:
//!
//! 1. **Candidates.** For a draw, `robo` and `tomo` when experto weighs them (a pile
//!    card that would close, or that does not beat keeping the hand, is not searched);
//!    for a discard, experto's best few discards by its own valuation, and the best close
//!    if there is one. Experto's own
//!    choice is always among them, and it stands unless the search finds a candidate better
//!    by a clear margin: a small budget must not turn noise into decisions.
//! 2. **Worlds.** Each iteration deals a determinization with
//!    [`ChinchonGame::resample`]: the cards it has not seen dealt at random to the others
//!    (each keeping the cards it is known to hold) and the stock. Players who have played
//!    some turns hold better cards than a random deal, so several deals are drawn and the
//!    one whose other hands have the least deadwood is kept — more deals the more turns
//!    they have played, which matches the deadwood players really hold at each turn.
//! 3. **Rollouts.** Every surviving candidate is applied in the same world and the rest of
//!    the hand is played by basico at every seat (or experto, `policy=experto`: about
//!    thirty times slower), with the same random stream for every candidate (common
//!    random numbers).
//! 4. **Value.** The end of the hand is worth the chance of winning the game from its
//!    scores ([`win_chance`]); a game won or lost in the hand (a chinchón, the last
//!    opponent out) is 1 or 0.
//! 5. **Racing.** After a few worlds a candidate clearly behind the leader is dropped, so
//!    the budget goes to the close calls; the best mean wins.
//!
//! The budget is in its name: `maestro:iters=N` (N rollouts per decision, the same
//! choices on every machine), `maestro:ms=N` (1–10000 milliseconds of thinking per
//! decision, checked between rollouts), or both (`iters=N,ms=M`: N rollouts unless M
//! milliseconds pass first). The default, `maestro`, is `iters=1024,ms=1000`: the same
//! choices everywhere, measured in the arena as it is played, and never more than a
//! second on a slow or busy machine. Settings of the search may
//! follow, comma-separated: `keep=Z`, the standard errors by which a searched move must
//! beat experto's own (2 by default), `deals=N`, the most deals drawn per world (48), and
//! `policy=basico|experto`, who plays the rollouts (basico).
//! Decisions with one legal action, and the laying of cards after a close, are made at
//! once. It sees only its view; its randomness comes from its rng.

use crate::experto::{lay, Experto, Style};
use crate::value::win_chance;
use rand_chacha::ChaCha8Rng;
use tapete_chinchon::bots::Basico;
use tapete_chinchon::meld::Solver;
use tapete_chinchon::Resample;
use tapete_chinchon::{Action, ChinchonGame, ChinchonView, Hand, Phase};
use tapete_table::{Bot, Game, Seat};

/// Default rollouts per decision.
pub const DEFAULT_ITERS: u32 = 1024;

/// Default cap on the thinking time per decision, in milliseconds: the default rollouts
/// take a small fraction of it on a desktop machine, so the cap only binds on a slow or
/// overloaded one.
pub const DEFAULT_MS: u64 = 1000;

use tapete_table::budget::BudgetParams;
pub use tapete_table::budget::{Budget, MAX_ITERS, MAX_MS};
use tapete_table::search::{race, Racing};

/// Discards searched besides experto's own choice and the best close.
const DISCARDS: usize = 3;
/// A discard is searched only if experto's valuation puts it within this many points of
/// its best.
const DISCARD_WINDOW: f64 = 6.0;
/// How many standard errors a candidate must beat experto's choice by to be played.
const KEEP_Z: f64 = 2.0;
/// The race between the candidates: 16 worlds before any is dropped, then a round every
/// 8 dropping those 2.5 standard errors behind the leader; 90% of a time budget spent on
/// rollouts (the rest covers the last one).
const RACING: Racing = Racing {
    min_worlds: 16,
    race_every: 8,
    race_z: 2.5,
    time_share: 0.9,
};
/// A rollout stops after this many actions (a hand takes a few dozen).
const MAX_ROLLOUT_STEPS: usize = 400;
/// Deals drawn per world, by the turns the others have played, the least deadwood kept.
const DEALS: [usize; 9] = [1, 3, 4, 10, 16, 24, 32, 40, 48];

/// The budget maestro plays at unless its name gives one.
pub const DEFAULT_BUDGET: Budget = Budget::ItersWithin {
    iters: DEFAULT_ITERS,
    ms: DEFAULT_MS,
};

/// The search player; see the module docs.
#[derive(Clone, Debug)]
pub struct Maestro {
    /// Thinking budget per decision.
    pub budget: Budget,
    /// Experto's weights, for its candidates, its own choice and the rollouts.
    pub style: Style,
    /// How many standard errors another candidate must beat experto's choice by.
    pub keep: f64,
    /// The most deals drawn per world (the one with the least deadwood kept): 1 deals
    /// the unseen cards uniformly.
    pub deals: usize,
    /// Who plays every seat in the rollouts.
    pub policy: Policy,
}

/// The player of the rollouts: basico (the default) plays about thirty times as many in
/// the same time as experto, which plays them more like maestro's opponents; measured
/// against experto, the many rollouts win.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Experto at every seat.
    Experto,
    /// Basico at every seat.
    Basico,
}

impl Default for Maestro {
    fn default() -> Self {
        Maestro::with_budget(DEFAULT_BUDGET)
    }
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
            style: Style::default(),
            keep: KEEP_Z,
            deals: DEALS[DEALS.len() - 1],
            policy: Policy::Basico,
        }
    }
}

/// A maestro from its parameters, comma-separated: empty for the defaults; the budget as
/// `ms=N` (1–10000), `iters=N` (1–1000000) or both; `keep=Z` (0–10, standard errors by which a
/// searched move must beat experto's own) and `deals=N` (1–1000, the most deals drawn per
/// world). Anything else is refused with the accepted forms.
pub fn from_params(params: &str) -> Result<Maestro, String> {
    let forms = format!(
        "write maestro ({DEFAULT_ITERS} rollouts a decision, at most {DEFAULT_MS} ms), \
         maestro:ms=N (N from 1 to {MAX_MS}), maestro:iters=N (N rollouts a decision, 1 to \
         {MAX_ITERS}) or both (maestro:iters=N,ms=M), optionally with ,keep=Z (0 to 10), ,deals=N (1 to 1000) and ,policy=experto|basico"
    );
    let mut m = Maestro::default();
    let mut budget = BudgetParams::default();
    for part in params.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((key, value)) = part.split_once('=') else {
            return Err(format!("`maestro:{part}` is not a parameter: {forms}"));
        };
        let value = value.trim();
        let key = key.trim().to_lowercase();
        if let Some(read) = budget.read(&key, value) {
            read.map_err(|e| format!("{e}: {forms}"))?;
            continue;
        }
        match key.as_str() {
            "keep" => match value.parse::<f64>() {
                Ok(z) if (0.0..=10.0).contains(&z) => m.keep = z,
                _ => return Err(format!("`keep={value}` is not from 0 to 10: {forms}")),
            },
            "deals" => match value.parse::<usize>() {
                Ok(n) if (1..=1000).contains(&n) => m.deals = n,
                _ => return Err(format!("`deals={value}` is not from 1 to 1000: {forms}")),
            },
            "policy" => match value.to_lowercase().as_str() {
                "experto" => m.policy = Policy::Experto,
                "basico" | "básico" => m.policy = Policy::Basico,
                _ => {
                    return Err(format!(
                        "`policy={value}` is not experto or basico: {forms}"
                    ))
                }
            },
            other => return Err(format!("`{other}` is not a parameter of maestro: {forms}")),
        }
    }
    m.budget = budget.budget(m.budget);
    Ok(m)
}

impl Bot<ChinchonGame> for Maestro {
    fn act(&mut self, view: &ChinchonView, legal: &[Action], rng: &mut ChaCha8Rng) -> Action {
        let fallback = legal.first().copied().unwrap_or(Action::Listo);
        if legal.len() <= 1 {
            return fallback;
        }
        if view.phase == Phase::LayOff {
            return lay(&Solver::new(&view.rules), view, legal);
        }
        let mut experto = Experto::with_style(self.style);
        let own = experto.act(view, legal, rng);
        let Some(seat) = view.seat else {
            return own;
        };
        let candidates = self.candidates(&mut experto, view, legal, own);
        if candidates.len() <= 1 {
            return own;
        }
        match self.search(view, seat, &candidates, rng) {
            Some(a) if legal.contains(&a) => a,
            _ => own,
        }
    }
}

impl Maestro {
    /// The actions worth searching, experto's own choice first.
    fn candidates(
        &self,
        experto: &mut Experto,
        view: &ChinchonView,
        legal: &[Action],
        own: Action,
    ) -> Vec<Action> {
        let mut out = vec![own];
        match view.phase {
            Phase::Draw => {
                if !experto.weighs_the_draw(view, legal) {
                    return out;
                }
                for a in [Action::Robo, Action::Tomo] {
                    if legal.contains(&a) && !out.contains(&a) {
                        out.push(a);
                    }
                }
            }
            Phase::Discard => {
                let ranked = experto.ranked(view, legal);
                let best = ranked
                    .iter()
                    .filter(|(a, _)| matches!(a, Action::Descarto(_)))
                    .map(|x| x.1)
                    .fold(f64::MAX, f64::min);
                let mut discards = 0;
                for &(a, cost) in &ranked {
                    match a {
                        Action::Cierro(_)
                            if !out.iter().any(|x| matches!(x, Action::Cierro(_))) =>
                        {
                            out.push(a);
                        }
                        Action::Descarto(_)
                            if discards < DISCARDS && cost <= best + DISCARD_WINDOW =>
                        {
                            discards += 1;
                            if !out.contains(&a) {
                                out.push(a);
                            }
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
        out
    }

    /// The search: the best candidate by mean value, experto's own (the first) unless
    /// another is clearly better; `None` when no world could be dealt.
    fn search(
        &self,
        view: &ChinchonView,
        seat: Seat,
        candidates: &[Action],
        rng: &mut ChaCha8Rng,
    ) -> Option<Action> {
        let deals = deals_for(view).min(self.deals);
        let solver = Solver::new(&view.rules);
        let tally = race(
            &RACING,
            self.budget,
            candidates.len(),
            rng,
            |rng| sample_world(view, seat, deals, &solver, rng),
            |world, i, r| {
                let mut bot: Box<dyn Bot<ChinchonGame>> = match self.policy {
                    Policy::Experto => Box::new(Experto::with_style(self.style)),
                    Policy::Basico => Box::new(Basico::default()),
                };
                rollout(world.clone(), seat, candidates[i], bot.as_mut(), r)
            },
        );
        let best = tally.best()?;
        if best != 0 {
            // Too few worlds to tell noise from a better move: experto's choice stands.
            let n = tally.worlds(best).min(tally.worlds(0));
            let (m, se) = tally.paired(best, 0);
            if n < RACING.min_worlds || m - self.keep * se <= 0.0 {
                return Some(candidates[0]);
            }
        }
        Some(candidates[best])
    }
}

/// Deals to draw per world for `view`: more the more turns the others have played.
fn deals_for(view: &ChinchonView) -> usize {
    let active = view.active().count().max(1);
    let turns = view.turns as usize / active;
    DEALS[turns.min(DEALS.len() - 1)]
}

/// One determinization of `view`: the best of `deals` resampled deals by the others'
/// least deadwood. `None` when the view cannot be resampled.
fn sample_world(
    view: &ChinchonView,
    me: Seat,
    deals: usize,
    solver: &Solver,
    rng: &mut ChaCha8Rng,
) -> Option<ChinchonGame> {
    let mut best: Option<(u32, ChinchonGame)> = None;
    for _ in 0..deals.max(1) {
        let g = ChinchonGame::resample(view, rng).ok()?;
        if deals <= 1 {
            return Some(g);
        }
        let dw: u32 = (0..view.seats)
            .filter(|&s| s != me && !view.out[s])
            .map(|s| deadwood(solver, &g.hand(s)))
            .sum();
        if best.as_ref().is_none_or(|(b, _)| dw < *b) {
            best = Some((dw, g));
        }
    }
    best.map(|(_, g)| g)
}

/// The least deadwood of a hand of up to eight cards (eight: after the best discard).
fn deadwood(solver: &Solver, hand: &Hand) -> u32 {
    match solver.analyze_hand(hand) {
        Ok(a) if hand.len() == 8 => a
            .discards()
            .iter()
            .map(|d| d.deadwood as u32)
            .min()
            .unwrap_or(0),
        Ok(a) => a.deadwood() as u32,
        Err(_) => 0,
    }
}

/// Plays `action` by `seat` in `game`, then the rest of the hand with `bot` at every
/// seat: the chance `seat` wins the game from there.
fn rollout(
    mut game: ChinchonGame,
    seat: Seat,
    action: Action,
    bot: &mut dyn Bot<ChinchonGame>,
    rng: &mut ChaCha8Rng,
) -> f64 {
    let hand = game.hand_number();
    if game.apply(seat, &action).is_err() {
        return 0.0;
    }
    let mut steps = 0;
    while game.phase() != Phase::Over && game.hand_number() == hand && steps < MAX_ROLLOUT_STEPS {
        let s = game.turn();
        let legal = game.legal_actions(s);
        let a = match legal.as_slice() {
            [] => break,
            [only] => *only,
            _ => bot.act(&game.view(s), &legal, rng),
        };
        if game.apply(s, &a).is_err() {
            break;
        }
        steps += 1;
    }
    value_of(&game, seat)
}

/// What the state of `game` is worth to `seat`: 1 or 0 (shared on a tie) once over,
/// else its chance to win from the scores.
fn value_of(game: &ChinchonGame, seat: Seat) -> f64 {
    if game.phase() == Phase::Over {
        let w = game.winners();
        return if w.contains(&seat) {
            1.0 / w.len() as f64
        } else {
            0.0
        };
    }
    let view = game.spectator_view();
    win_chance(&view.scores, &view.out, seat, view.rules.target as i32)
}
