//! `experto`: determinized Monte Carlo from its own view.
//!
//! At each decision with a choice:
//!
//! 1. **Candidates.** Laying, the 127 parts of a seven-card hand are grouped by the
//!    combination they count as and what they shed: every single card alone (a shed), and
//!    every combination the hand holds (a pair, three or four of a kind, a straight flush
//!    of any length, the strongest single), alone or with ballast — the cards that make no
//!    combination, the cards that match ranks of its own pile (banked if it wins), or the
//!    whole hand. That leaves some twenty or thirty lays. In the retreat round: `keep`, or
//!    take back any one face-down card showing the weakest or the strongest of the others.
//! 2. **Worlds.** Each world deals the cards it has not seen with
//!    [`TikkiGame::resample`], which keeps every public count (the cards each seat laid
//!    this trick, its hand, the stock) and every card shown. Then, in a share of worlds
//!    that it reads for each player from the table, that player's face-down cards are
//!    given the shape sensible players give them: several cards laid make a combination
//!    of that many, the best of that size the seat held; one card laid is its weakest
//!    (see [`World::shape_lays`]). The share starts at [`Experto::shape`] and follows the
//!    player's lays revealed this round: a player whose lays of several cards were
//!    combinations is read as sensible, one who dumps cards at random soon is not.
//! 3. **Rollouts.** Each candidate is played in the same worlds (common random numbers)
//!    and the round is played out at every seat by basico's rules on plain arrays
//!    ([`World`]), thousands of rounds a second.
//! 4. **Value.** The end of the round is worth the chance of winning the game it leads
//!    to: in the last round, a win (shared on a tie) with the margin over the best other
//!    seat as a tie-break; before it, a logistic in that margin, wider the more rounds
//!    remain.
//! 5. **Sequential halving.** The budget is split over rounds; after each, the worse half
//!    of the candidates is dropped, so most rollouts go to the close calls.
//!
//! The budget is in its name: `experto:iters=N` (N rollouts per decision, the same choices
//! on every machine), `experto:ms=M` (1–10000 milliseconds, checked between worlds), or
//! both (`iters=N,ms=M`: N rollouts unless M milliseconds pass first). The default,
//! `experto`, is `iters=600,ms=100`: a few milliseconds a decision on a desktop machine,
//! and never more than a tenth of a second on a slow or busy one. `shape=P` (0–1) sets
//! the prior share of shaped worlds (0.8 by default; 0 deals every world uniformly). It
//! sees only its view; given the rng passed to `act` (and a budget not cut by the clock)
//! its choices are deterministic.

mod world;

pub use world::World;

use rand_chacha::ChaCha8Rng;
use tapete_table::search::halving;
use tapete_table::{Bot, Seat};
use tapete_tikki::bots::Basico;
use tapete_tikki::combo::best;
use tapete_tikki::Resample;
use tapete_tikki::TikkiCards;
use tapete_tikki::{Action, Cards, Phase, TikkiGame, TikkiView};

/// Default rollouts per decision.
pub const DEFAULT_ITERS: u32 = 600;
/// Default cap on the thinking time per decision, in milliseconds.
pub const DEFAULT_MS: u64 = 100;
/// Default prior share of worlds whose lays are shaped.
pub const DEFAULT_SHAPE: f64 = 0.8;
/// How many lays the prior share of shaped worlds counts for against the lays seen.
pub const SHAPE_PRIOR_LAYS: f64 = 3.0;
use tapete_table::budget::BudgetParams;
pub use tapete_table::budget::{Budget, MAX_ITERS, MAX_MS};

/// The logistic scale of the chance to win from a margin over the best other seat, with
/// one round to play (wider as √rounds): a round's margin between a seat and the best of
/// two others varies with a standard deviation of about 49 points among basicos (9,000
/// rounds), and a logistic of scale σ·√3/π ≈ 27 matches that normal spread.
const MARGIN_SCALE: f64 = 27.0;
/// Points a seat scores in a round, about (47 on average among basicos at three seats):
/// how many rounds a target is away.
const ROUND_POINTS: f64 = 47.0;
/// Weight of the margin as a tie-break in the last round.
const FINAL_MARGIN: f64 = 0.001;

/// The budget experto plays at unless its name gives one.
pub const DEFAULT_BUDGET: Budget = Budget::ItersWithin {
    iters: DEFAULT_ITERS,
    ms: DEFAULT_MS,
};

/// The Monte Carlo player; see the module docs.
#[derive(Clone, Debug)]
pub struct Experto {
    /// Thinking budget per decision.
    pub budget: Budget,
    /// The prior share of worlds (0–1) in which another player's face-down cards are
    /// shaped as sensible players lay (the rest keep the uniform deal), before its
    /// revealed lays are read; 0 shapes none.
    pub shape: f64,
}

impl Default for Experto {
    fn default() -> Self {
        Experto::with_budget(DEFAULT_BUDGET)
    }
}

impl Experto {
    /// An experto with this budget and the default shaping.
    pub fn with_budget(budget: Budget) -> Experto {
        Experto {
            budget,
            shape: DEFAULT_SHAPE,
        }
    }
}

/// An experto from its parameters, comma-separated: empty for the defaults; the budget
/// as `ms=N` (1–10000), `iters=N` (1–1000000) or both; `shape=P` (0–1). Anything else is
/// refused with the accepted forms.
pub fn from_params(params: &str) -> Result<Experto, String> {
    let forms = format!(
        "write experto ({DEFAULT_ITERS} rollouts a decision, at most {DEFAULT_MS} ms), \
         experto:iters=N (1 to {MAX_ITERS}), experto:ms=N (1 to {MAX_MS}) or both \
         (experto:iters=N,ms=M), optionally with ,shape=P (0 to 1)"
    );
    let mut e = Experto::default();
    let (mut budget, mut shape) = (BudgetParams::default(), None);
    for part in params.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((key, value)) = part.split_once('=') else {
            return Err(format!("`experto:{part}` is not a parameter: {forms}"));
        };
        let (key, value) = (key.trim().to_lowercase(), value.trim());
        if let Some(read) = budget.read(&key, value) {
            read.map_err(|e| format!("{e}: {forms}"))?;
            continue;
        }
        match key.as_str() {
            "shape" if shape.is_some() => return Err(format!("`shape` is given twice: {forms}")),
            "shape" => match value.parse::<f64>() {
                Ok(p) if (0.0..=1.0).contains(&p) => shape = Some(p),
                _ => return Err(format!("`shape={value}` is not from 0 to 1: {forms}")),
            },
            other => return Err(format!("`{other}` is not a parameter of experto: {forms}")),
        }
    }
    e.budget = budget.budget(e.budget);
    if let Some(p) = shape {
        e.shape = p;
    }
    Ok(e)
}

impl Bot<TikkiGame> for Experto {
    fn act(&mut self, view: &TikkiView, legal: &[Action], rng: &mut ChaCha8Rng) -> Action {
        let Some(&first) = legal.first() else {
            return Action::Keep;
        };
        if legal.len() == 1 {
            return first;
        }
        // A view that does not hold together (a seat off the table, per-seat lists of the
        // wrong length) gets the first legal action: nothing in it can be trusted.
        let Some(me) = view.seat.filter(|&s| s < view.seats && view.lists_fit()) else {
            return first;
        };
        let fallback = {
            let wanted = match view.phase {
                Phase::Lay => Action::Lay(Basico::lay(view)),
                Phase::Retreat => Basico::retreat(view),
                Phase::Over => first,
            };
            if legal.contains(&wanted) {
                wanted
            } else {
                first
            }
        };
        let candidates: Vec<Action> = match view.phase {
            Phase::Lay => lay_candidates(view.hand, view.piles.get(me).copied())
                .into_iter()
                .map(Action::Lay)
                .collect(),
            Phase::Retreat => retreat_candidates(view.laid, view.revealed.get(me).copied()),
            Phase::Over => return fallback,
        };
        let candidates: Vec<Action> = candidates
            .into_iter()
            .filter(|a| legal.contains(a))
            .collect();
        match candidates.len() {
            0 => fallback,
            1 => candidates[0],
            _ => self
                .search(view, me, &candidates, rng)
                .map_or(fallback, |i| candidates[i]),
        }
    }
}

impl Experto {
    /// Sequential halving over `candidates`: the index of the best by mean value, or
    /// `None` when no world could be dealt.
    pub fn search(
        &self,
        view: &TikkiView,
        me: Seat,
        candidates: &[Action],
        rng: &mut ChaCha8Rng,
    ) -> Option<usize> {
        // One world reused for every rollout, filled from each dealt one in turn.
        let mut work: Option<World> = None;
        halving(
            self.budget,
            candidates.len(),
            rng,
            |rng| self.world(view, me, rng),
            |base, i| {
                let w = work.get_or_insert_with(|| base.clone());
                w.copy_from(base);
                if w.apply(&candidates[i]) {
                    w.play_out();
                    value(view, me, w)
                } else {
                    f64::NEG_INFINITY
                }
            },
        )
    }

    /// One determinization of what `me` has not seen.
    fn world(&self, view: &TikkiView, me: Seat, rng: &mut ChaCha8Rng) -> Option<World> {
        let game = TikkiGame::resample(view, rng).ok()?;
        let mut w = World::from_game(&game, view)?;
        w.shape_lays(me, &self.shape_chances(view, me), rng);
        Some(w)
    }

    /// For each other seat, the chance its face-down cards are shaped: [`Experto::shape`]
    /// as a prior worth [`SHAPE_PRIOR_LAYS`] lays, updated by how many of its lays of
    /// several cards revealed this round were a combination and nothing else.
    pub fn shape_chances(&self, view: &TikkiView, me: Seat) -> [f64; world::MAX_SEATS] {
        let mut out = [0.0; world::MAX_SEATS];
        if self.shape <= 0.0 {
            return out;
        }
        for (s, p) in out.iter_mut().enumerate().take(view.seats) {
            if s == me {
                continue;
            }
            let (mut pure, mut several) = (0.0, 0.0);
            for t in &view.tricks {
                let laid = t.laid.get(s).copied().unwrap_or_default();
                if laid.len() >= 2 {
                    several += 1.0;
                    if best(laid).is_some_and(|b| b.cards == laid) {
                        pure += 1.0;
                    }
                }
            }
            *p = (self.shape * SHAPE_PRIOR_LAYS + pure) / (SHAPE_PRIOR_LAYS + several);
        }
        out
    }
}

/// What the end of the round in `w` is worth to `me`, given the game's scores in `view`.
fn value(view: &TikkiView, me: Seat, w: &World) -> f64 {
    let points = w.points();
    let total = |s: Seat| f64::from(view.scores.get(s).copied().unwrap_or(0) + points[s]);
    let mine = total(me);
    let others = (0..view.seats).filter(|&s| s != me).map(total);
    let top = others.clone().fold(f64::MIN, f64::max);
    let level = others.filter(|&t| t == mine).count();
    let margin = mine - top;
    let rules = &view.rules;
    let remaining = if rules.target > 0 {
        let leader = (0..view.seats).map(total).fold(0.0, f64::max);
        if leader >= f64::from(rules.target) {
            0.0
        } else {
            ((f64::from(rules.target) - leader) / ROUND_POINTS)
                .ceil()
                .max(1.0)
        }
    } else {
        f64::from(rules.rounds_for(view.seats).saturating_sub(view.round))
    };
    if remaining <= 0.0 {
        let win = if margin > 0.0 {
            1.0
        } else if margin == 0.0 {
            1.0 / (level + 1) as f64
        } else {
            0.0
        };
        return win + FINAL_MARGIN * margin;
    }
    1.0 / (1.0 + (-margin / (MARGIN_SCALE * remaining.sqrt())).exp())
}

/// The lays worth searching from `hand` (see the module docs), each once, strongest
/// combinations first.
pub fn lay_candidates(hand: Cards, pile: Option<Cards>) -> Vec<Cards> {
    let pile = pile.unwrap_or_default();
    let cards = hand.to_vec();
    let mut cores: Vec<Cards> = Vec::new();
    for mask in 1u32..1 << cards.len() {
        let set: Cards = (0..cards.len())
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| cards[i])
            .collect();
        if best(set).is_some_and(|b| b.cards == set) {
            cores.push(set);
        }
    }
    cores.sort_by_key(|&c| std::cmp::Reverse(best(c).map_or(0, |b| b.score())));
    let multi = cores
        .iter()
        .filter(|c| c.len() >= 2)
        .fold(Cards::EMPTY, |a, &c| a.union(c));
    let junk = hand.difference(multi);
    let mut out: Vec<Cards> = Vec::new();
    let mut push = |set: Cards| {
        if !set.is_empty() && !out.contains(&set) {
            out.push(set);
        }
    };
    let hand_best = best(hand).map(|b| b.cards);
    for &core in &cores {
        push(core);
        if core.len() == 1 {
            continue;
        }
        let rest = hand.difference(core);
        // Ballast that keeps `core` the combination that counts.
        let keeps = |extra: Cards| best(core.union(extra)).is_some_and(|b| b.cards == core);
        let ranks = pile.union(core);
        let bank: Cards = rest
            .iter()
            .filter(|c| ranks.count_rank(c.rank()) > 0)
            .collect();
        for extra in [junk.difference(core), bank, bank.union(junk)] {
            if !extra.is_empty() && keeps(extra) {
                push(core.union(extra));
            }
        }
        if hand_best == Some(core) {
            push(hand);
        }
    }
    if junk.len() >= 2 {
        push(junk);
    }
    out
}

/// The retreat decisions worth searching: `keep`, and taking back each face-down card
/// while showing the weakest or the strongest of the others.
pub fn retreat_candidates(laid: Cards, revealed: Option<Cards>) -> Vec<Action> {
    let down = laid.difference(revealed.unwrap_or_default());
    let mut out = vec![Action::Keep];
    for back in down.iter() {
        let others = || down.iter().filter(move |&c| c != back);
        for reveal in [
            others().min_by_key(|c| c.strength()),
            others().max_by_key(|c| c.strength()),
        ]
        .into_iter()
        .flatten()
        {
            let a = Action::Retreat { back, reveal };
            if !out.contains(&a) {
                out.push(a);
            }
        }
    }
    out
}
