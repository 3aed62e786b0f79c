//! Search written once: determinized Monte Carlo over worlds, for every game's search
//! players.
//!
//! A search player picks a few candidate actions, deals worlds consistent with its view
//! (usually with [`crate::Resample`], perhaps weighted by what the others did), plays each
//! candidate out in every world and keeps the best mean. What differs by game (the
//! candidates, the world, the rollout policy, the value of a finished world) comes in as
//! closures; what is the same (the budget, the common random numbers, the paired standard
//! errors, dropping candidates clearly behind) is here:
//!
//! - [`race`]: every active candidate is played in the same world with the same random
//!   stream (common random numbers), so they are compared on equal deals; every
//!   [`Racing::race_every`] worlds a candidate whose paired difference with the leader is
//!   clearly negative is dropped, and the search stops when one is left or the [`Budget`]
//!   is spent. The caller decides from the [`Tally`] (e.g. a default move that stands
//!   unless another is better by a clear margin).
//! - [`race_models`]: the same race when a candidate's worth depends on how the others
//!   play and several models of them are in doubt: a rollout gives one value per model
//!   (NaN where the world is impossible under that model), and a candidate is worth its
//!   worst model's mean, so the choice holds whichever model is true (a robust choice,
//!   not a bet on one reading of the table).
//! - [`halving`]: sequential halving, for rollouts cheap enough to give every candidate
//!   its share: the budget is split over rounds and the worse half dropped after each.

use crate::budget::Budget;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};

/// The settings of a [`race`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Racing {
    /// Worlds before any candidate is dropped.
    pub min_worlds: usize,
    /// Worlds between two racing rounds.
    pub race_every: usize,
    /// How many standard errors below the leader a candidate must be to be dropped.
    pub race_z: f64,
    /// Fraction of a time budget spent on rollouts: the rest covers the last one.
    pub time_share: f64,
}

/// What a [`race`] learnt: each candidate's values in every world it was played in, by
/// model (one model in a plain [`race`]; the worlds are common: candidate `i`'s `k`-th
/// value and candidate `j`'s come from the same world), and the candidates still in the
/// race. A candidate is worth the mean of its worst model, and compared through that
/// model's values.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Values by candidate, then by model, one per world it was played in.
    pub values: Vec<Vec<Vec<f64>>>,
    /// The candidates not dropped, by index.
    pub active: Vec<usize>,
}

impl Tally {
    /// The model of candidate `i` with the lowest mean among those with a possible world
    /// (the first on a tie; 0 before any world).
    pub fn worst(&self, i: usize) -> usize {
        self.values[i]
            .iter()
            .enumerate()
            .filter(|(_, v)| v.iter().any(|x| !x.is_nan()))
            .min_by(|a, b| mean(a.1).total_cmp(&mean(b.1)).then(a.0.cmp(&b.0)))
            .map_or(0, |(m, _)| m)
    }

    /// Candidate `i`'s values under its worst model, one per world (NaN where that model
    /// rules the world out).
    pub fn series(&self, i: usize) -> &[f64] {
        self.values[i]
            .get(self.worst(i))
            .map_or(&[][..], Vec::as_slice)
    }

    /// How many worlds candidate `i` was played in.
    pub fn worlds(&self, i: usize) -> usize {
        self.series(i).len()
    }

    /// The mean value of candidate `i` under its worst model, over the worlds that model
    /// allows (0 before any world).
    pub fn mean(&self, i: usize) -> f64 {
        mean(self.series(i))
    }

    /// The active candidate of the highest mean among those played at least once (the
    /// later one on a tie); `None` when nothing was played.
    pub fn best(&self) -> Option<usize> {
        self.active
            .iter()
            .copied()
            .filter(|&i| self.worlds(i) > 0)
            .max_by(|&a, &b| self.mean(a).total_cmp(&self.mean(b)))
    }

    /// Mean and standard error of candidate `a`'s value minus `b`'s, each under its worst
    /// model, over the worlds both were played in (see [`paired`]).
    pub fn paired(&self, a: usize, b: usize) -> (f64, f64) {
        paired(self.series(a), self.series(b))
    }

    /// Drops the candidates clearly worse than the leader by their paired differences
    /// (every active candidate has seen every world so far).
    fn race(&mut self, z: f64) {
        let Some(best) = self
            .active
            .iter()
            .copied()
            .max_by(|&a, &b| self.mean(a).total_cmp(&self.mean(b)))
        else {
            return;
        };
        let n = self.worlds(best);
        let keep: Vec<bool> = self
            .active
            .iter()
            .map(|&i| {
                if i == best || self.worlds(i) != n || n < 2 {
                    return true;
                }
                let (m, se) = self.paired(i, best);
                m + z * se >= 0.0
            })
            .collect();
        let mut keep = keep.into_iter();
        self.active.retain(|_| keep.next().unwrap_or(true));
    }

    /// Adds one world's values of candidate `i`, one per model.
    fn push(&mut self, i: usize, row: &[f64]) {
        let models = &mut self.values[i];
        if models.len() < row.len() {
            models.resize(row.len(), Vec::new());
        }
        for (m, &v) in row.iter().enumerate() {
            models[m].push(v);
        }
    }
}

/// The mean of the values that are not NaN (0 when none is).
fn mean(v: &[f64]) -> f64 {
    let (sum, n) = v
        .iter()
        .filter(|x| !x.is_nan())
        .fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    sum / n.max(1) as f64
}

/// Mean and standard error of `a - b` over the first worlds both saw (paired samples),
/// leaving out a world where either is NaN; an infinite error below two.
pub fn paired(a: &[f64], b: &[f64]) -> (f64, f64) {
    let diffs = a.iter().zip(b).map(|(x, y)| x - y).filter(|d| !d.is_nan());
    let n = diffs.clone().count();
    if n < 2 {
        return (0.0, f64::INFINITY);
    }
    let m = diffs.clone().sum::<f64>() / n as f64;
    let var = diffs.map(|d| (d - m) * (d - m)).sum::<f64>() / (n - 1) as f64;
    (m, (var / n as f64).sqrt())
}

/// The deadline and the most rollouts of `budget` from `start`, `share` of any time kept
/// for rollouts.
fn limits(budget: Budget, start: Instant, share: f64) -> (Option<Instant>, usize) {
    let within = |ms: u64| Some(start + Duration::from_secs_f64(ms as f64 / 1000.0 * share));
    match budget {
        Budget::Millis(ms) => (within(ms), usize::MAX),
        Budget::Iters(n) => (None, n as usize),
        Budget::ItersWithin { iters, ms } => (within(ms), iters as usize),
    }
}

/// Races `candidates` candidates (see the module docs) within `budget`. Each world comes
/// from `world` (`None`: no world fits, and the search stops), then one seed from `rng`
/// seeds the stream every candidate's `rollout(world, candidate, stream)` plays with.
/// Stops when one candidate is left (after one world at least), when the budget is spent
/// (a world cut short is not counted) or when no world comes.
pub fn race<W>(
    racing: &Racing,
    budget: Budget,
    candidates: usize,
    rng: &mut ChaCha8Rng,
    world: impl FnMut(&mut ChaCha8Rng) -> Option<W>,
    mut rollout: impl FnMut(&W, usize, &mut ChaCha8Rng) -> f64,
) -> Tally {
    race_models(racing, budget, candidates, rng, world, |w, i, r, out| {
        out.push(rollout(w, i, r))
    })
}

/// [`race`] with models: `rollout(world, candidate, stream, out)` pushes the candidate's
/// value in this world under each model of the others it is evaluated against (the same
/// number of values in every world; one when the candidate does not depend on them), and
/// a candidate is worth its worst model's mean. Each call counts as one rollout of the
/// budget.
pub fn race_models<W>(
    racing: &Racing,
    budget: Budget,
    candidates: usize,
    rng: &mut ChaCha8Rng,
    mut world: impl FnMut(&mut ChaCha8Rng) -> Option<W>,
    mut rollout: impl FnMut(&W, usize, &mut ChaCha8Rng, &mut Vec<f64>),
) -> Tally {
    let (deadline, max_rollouts) = limits(budget, Instant::now(), racing.time_share);
    let out_of_budget =
        |rollouts: usize| rollouts >= max_rollouts || deadline.is_some_and(|d| Instant::now() >= d);
    let mut tally = Tally {
        values: vec![Vec::new(); candidates],
        active: (0..candidates).collect(),
    };
    let mut rollouts = 0usize;
    let mut worlds = 0usize;
    let mut next_race = racing.min_worlds;
    let mut rows: Vec<Vec<f64>> = vec![Vec::new(); candidates];
    'worlds: while tally.active.len() > 1 || worlds == 0 {
        if out_of_budget(rollouts) {
            break;
        }
        let Some(w) = world(rng) else {
            break;
        };
        let seed: u64 = rng.gen();
        for (k, &i) in tally.active.iter().enumerate() {
            if k > 0 && out_of_budget(rollouts) {
                break 'worlds;
            }
            let mut r = ChaCha8Rng::seed_from_u64(seed);
            rows[i].clear();
            rollout(&w, i, &mut r, &mut rows[i]);
            rollouts += 1;
        }
        for &i in &tally.active.clone() {
            tally.push(i, &rows[i]);
        }
        worlds += 1;
        if worlds >= next_race {
            tally.race(racing.race_z);
            next_race += racing.race_every;
        }
    }
    tally
}

/// Sequential halving over `candidates` candidates within `budget`: the budget is split
/// over ⌈log₂ candidates⌉ rounds, each world from `world` (`None`: the search stops)
/// plays every live candidate through `rollout(world, candidate)`, and after each round
/// but the last the worse half (by mean, the earlier on a tie) is dropped. Each round may
/// use its share of the time and what the earlier ones left; the first world is always
/// played. The best live candidate by mean (the earlier on a tie), or `None` when no
/// world came.
pub fn halving<W>(
    budget: Budget,
    candidates: usize,
    rng: &mut ChaCha8Rng,
    mut world: impl FnMut(&mut ChaCha8Rng) -> Option<W>,
    mut rollout: impl FnMut(&W, usize) -> f64,
) -> Option<usize> {
    let start = Instant::now();
    let (iters, ms) = match budget {
        Budget::Millis(ms) => (None, Some(ms)),
        Budget::Iters(n) => (Some(n as usize), None),
        Budget::ItersWithin { iters, ms } => (Some(iters as usize), Some(ms)),
    };
    let n = candidates;
    if n == 0 {
        return None;
    }
    let rounds = (usize::BITS - (n - 1).leading_zeros()).max(1) as usize;
    let mut alive: Vec<usize> = (0..n).collect();
    let mut sums = vec![0.0f64; n];
    let mut counts = vec![0u32; n];
    let mut worlds = 0usize;
    'rounds: for round in 0..rounds {
        let deadline = ms.map(|ms| {
            start + Duration::from_millis(ms).mul_f64((round + 1) as f64 / rounds as f64)
        });
        let per_round = iters.map(|i| (i / rounds / alive.len()).max(1));
        let mut done = 0usize;
        loop {
            let spent = per_round.is_some_and(|p| done >= p)
                || (worlds > 0 && deadline.is_some_and(|d| Instant::now() >= d));
            if spent {
                break;
            }
            let Some(w) = world(rng) else {
                break 'rounds;
            };
            for &i in &alive {
                sums[i] += rollout(&w, i);
                counts[i] += 1;
            }
            done += 1;
            worlds += 1;
        }
        if round + 1 < rounds {
            let mean = |i: usize| sums[i] / f64::from(counts[i].max(1));
            alive.sort_by(|&a, &b| mean(b).total_cmp(&mean(a)).then(a.cmp(&b)));
            alive.truncate(alive.len().div_ceil(2));
        }
    }
    if worlds == 0 {
        return None;
    }
    let mean = |i: usize| sums[i] / f64::from(counts[i].max(1));
    alive
        .iter()
        .copied()
        .max_by(|&a, &b| mean(a).total_cmp(&mean(b)).then(b.cmp(&a)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const RACING: Racing = Racing {
        min_worlds: 4,
        race_every: 2,
        race_z: 2.5,
        time_share: 0.9,
    };

    fn rng() -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(5)
    }

    #[test]
    fn a_race_drops_the_clearly_worse_and_finds_the_best() {
        // Candidate i is worth i/10 plus the world's noise, the same for all (common
        // random numbers): the paired differences are exact, so the race ends quickly.
        let t = race(
            &RACING,
            Budget::Iters(10_000),
            4,
            &mut rng(),
            |r| Some(r.gen::<f64>()),
            |w, i, _| w + i as f64 / 10.0,
        );
        assert_eq!(t.best(), Some(3));
        assert_eq!(t.active, vec![3]);
        assert!(t.worlds(3) < 100, "{}", t.worlds(3));
        let (m, _) = t.paired(3, 0);
        assert!((m - 0.3).abs() < 1e-9, "{m}");
    }

    #[test]
    fn a_race_keeps_to_its_rollouts_and_stops_without_worlds() {
        let t = race(
            &RACING,
            Budget::Iters(7),
            3,
            &mut rng(),
            |_| Some(()),
            |_, _, r| r.gen(),
        );
        let played: usize = (0..3).map(|i| t.worlds(i)).sum();
        assert_eq!(played, 6, "a world cut short is not counted");
        let none = race(
            &RACING,
            Budget::Iters(7),
            3,
            &mut rng(),
            |_| None::<()>,
            |_, _, _| 1.0,
        );
        assert_eq!(none.best(), None);
    }

    #[test]
    fn a_candidate_is_worth_its_worst_model() {
        // Candidate 0 is worth 0.5 whatever the others do; candidate 1 is worth 0.9 under
        // one model and 0.3 under the other: its worst case loses, though its average
        // (0.6) would win.
        let t = race_models(
            &RACING,
            Budget::Iters(400),
            2,
            &mut rng(),
            |r| Some(r.gen::<f64>() / 100.0),
            |w, i, _, out| match i {
                0 => out.push(0.5 + w),
                _ => out.extend([0.9 + w, 0.3 + w]),
            },
        );
        assert_eq!(t.best(), Some(0));
        assert_eq!(t.worst(1), 1);
        assert_eq!(t.values[1].len(), 2);
        let (m, se) = t.paired(1, 0);
        assert!((m + 0.2).abs() < 1e-9 && se < 1e-9, "{m} {se}");
        assert_eq!(t.active, vec![0], "the worst case is raced too");
    }

    #[test]
    fn a_model_counts_only_the_worlds_it_allows() {
        // Candidate 1 is worth 0.6 in every world, but 0.2 under a model that allows only
        // the worlds above 0.5 (NaN elsewhere); candidate 0 is worth 0.4 everywhere.
        let t = race_models(
            &RACING,
            Budget::Iters(200),
            2,
            &mut rng(),
            |r| Some(r.gen::<f64>()),
            |w, i, _, out| match i {
                0 => out.push(0.4),
                _ => out.extend([0.6, if *w > 0.5 { 0.2 } else { f64::NAN }]),
            },
        );
        assert_eq!(t.worst(1), 1);
        assert!((t.mean(1) - 0.2).abs() < 1e-9);
        assert_eq!(t.best(), Some(0));
        let (m, se) = t.paired(1, 0);
        assert!((m + 0.2).abs() < 1e-9 && se < 1e-9, "{m} {se}");
        // A model that allows no world is no worst case.
        let none = race_models(
            &RACING,
            Budget::Iters(20),
            1,
            &mut rng(),
            |_| Some(()),
            |_, _, _, out| out.extend([0.5, f64::NAN]),
        );
        assert_eq!((none.worst(0), none.mean(0)), (0, 0.5));
    }

    #[test]
    fn paired_errors_need_two_worlds() {
        assert_eq!(paired(&[1.0], &[0.0]), (0.0, f64::INFINITY));
        assert_eq!(paired(&[1.0, f64::NAN], &[0.0, 0.0]), (0.0, f64::INFINITY));
        let (m, se) = paired(&[1.0, 2.0, 3.0], &[0.0, 0.0, 1.0]);
        assert!((m - 5.0 / 3.0).abs() < 1e-12 && se > 0.0);
    }

    #[test]
    fn halving_finds_the_best_and_stops_without_worlds() {
        let mut noise = rng();
        let best = halving(
            Budget::Iters(400),
            5,
            &mut rng(),
            |_| Some(noise.gen::<f64>()),
            |w, i| w + [0.1, 0.5, 0.2, 0.4, 0.0][i],
        );
        assert_eq!(best, Some(1));
        assert_eq!(
            halving(
                Budget::Iters(400),
                5,
                &mut rng(),
                |_| None::<f64>,
                |w, _| *w
            ),
            None
        );
    }
}
