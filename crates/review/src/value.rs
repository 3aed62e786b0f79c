//! Valuing one decision: its options played out in common worlds dealt from the seat's view.

use crate::{Reviewer, Settings};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tapete_table::search::paired;
use tapete_table::{Game, Seat};

/// The thresholds of the labels, in points: a loss near one of them needs more worlds.
const THRESHOLDS: [f64; 3] = [5.0, 10.0, 20.0];
/// Attempts at dealing one world before a decision is valued in the worlds it has.
const WORLD_TRIES: usize = 16;
/// Worlds between two looks at whether a decision is settled.
const BATCH: usize = 16;
/// An option is no longer played once it is this many standard errors behind the best
/// (and two points at least): its value stays as measured.
const DROP_Z: f64 = 3.0;

/// What the worlds said of one decision's options.
pub(crate) struct Valued {
    /// Each option's values by model, one per world it was played in (the first worlds
    /// are common).
    pub values: Vec<Vec<Vec<f64>>>,
    /// The option of the highest mean.
    pub best: usize,
    /// Worlds dealt.
    pub worlds: usize,
}

impl Valued {
    /// Option `i`'s values under its worst model (the lowest mean; the first on a tie).
    pub fn series(&self, i: usize) -> &[f64] {
        let mean = |v: &Vec<f64>| v.iter().sum::<f64>() / v.len().max(1) as f64;
        self.values[i]
            .iter()
            .fold(None, |worst: Option<&Vec<f64>>, v| match worst {
                Some(w) if mean(w) <= mean(v) => Some(w),
                _ => Some(v),
            })
            .map_or(&[][..], Vec::as_slice)
    }

    /// Mean and standard error of option `i` (under its worst model).
    pub fn mean_se(&self, i: usize) -> (f64, f64) {
        let v = self.series(i);
        let n = v.len().max(1) as f64;
        let m = v.iter().sum::<f64>() / n;
        if v.len() < 2 {
            return (m, f64::INFINITY);
        }
        let var = v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0);
        (m, (var / n).sqrt())
    }

    /// Loss of option `i` against the best, in points, and its standard error (paired over
    /// the worlds both were played in).
    pub fn loss(&self, i: usize) -> (f64, f64) {
        if i == self.best {
            return (0.0, 0.0);
        }
        let (d, se) = paired(self.series(self.best), self.series(i));
        (100.0 * d.max(0.0), 100.0 * se)
    }
}

/// Values `options` at a decision of `seat` that saw `view`; `played` is the option chosen.
/// `None` when no world fits the view.
pub(crate) fn value<R: Reviewer>(
    reviewer: &R,
    view: &<R::G as Game>::View,
    seat: Seat,
    options: &[<R::G as Game>::Action],
    played: usize,
    settings: &Settings,
    seed: u64,
) -> Option<Valued> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = options.len();
    let models: Vec<usize> = options
        .iter()
        .map(|o| reviewer.models(view, o).max(1))
        .collect();
    let mut valued = Valued {
        values: models.iter().map(|&m| vec![Vec::new(); m]).collect(),
        best: played,
        worlds: 0,
    };
    let mut active: Vec<usize> = (0..n).collect();
    let max = settings.max_worlds.max(2);
    let min = settings.min_worlds.clamp(2, max);
    while valued.worlds < max {
        // A game may fail to deal a world now and then (declarations too hard to meet in
        // its attempts): try again, and value the decision in the worlds it got.
        let world = match (0..WORLD_TRIES).find_map(|_| reviewer.world(view, &mut rng)) {
            Some(w) => w,
            None if valued.worlds >= 2 => break,
            None => return None,
        };
        let stream: u64 = rng.gen();
        for &i in &active {
            for m in 0..models[i] {
                let mut r = ChaCha8Rng::seed_from_u64(stream);
                let v = rollout(reviewer, world.clone(), view, seat, &options[i], m, &mut r);
                valued.values[i][m].push(v);
            }
        }
        valued.worlds += 1;
        if valued.worlds >= min && valued.worlds.is_multiple_of(BATCH) {
            valued.best = leader(&valued, &active);
            if settled(&valued, played, &active, settings) {
                break;
            }
            let best = valued.best;
            active.retain(|&i| {
                if i == best || i == played {
                    return true;
                }
                let (d, se) = paired(valued.series(best), valued.series(i));
                !(d > 0.02 && d > DROP_Z * se)
            });
        }
    }
    valued.best = leader(&valued, &active);
    Some(valued)
}

/// The active option of the highest mean (the earlier on a tie).
fn leader(v: &Valued, active: &[usize]) -> usize {
    let mut best = active[0];
    for &i in active {
        if v.mean_se(i).0 > v.mean_se(best).0 + 1e-12 {
            best = i;
        }
    }
    best
}

/// Whether the loss of the option played is known well enough: to the target standard
/// error, or clear of every label threshold by three standard errors (the label stands).
fn settled(v: &Valued, played: usize, active: &[usize], settings: &Settings) -> bool {
    if played == v.best {
        // Leading, the choice played has no loss yet; it is settled once no other option
        // still in the race could be better by an inaccuracy's worth.
        return active.iter().filter(|&&i| i != played).all(|&i| {
            let (d, se) = paired(v.series(played), v.series(i));
            let se = 100.0 * se;
            se <= settings.target_se || 100.0 * d + THRESHOLDS[0] > 3.0 * se
        });
    }
    let (loss, se) = v.loss(played);
    if se <= settings.target_se {
        return true;
    }
    THRESHOLDS.iter().all(|t| (loss - t).abs() > 3.0 * se)
}

/// Plays `action` of `seat` in `world`, then the rest of the hand with the rollout
/// players set to `model`; `seat`'s chance of winning the game where the rollout stops.
fn rollout<R: Reviewer>(
    reviewer: &R,
    mut world: R::G,
    view: &<R::G as Game>::View,
    seat: Seat,
    action: &<R::G as Game>::Action,
    model: usize,
    rng: &mut ChaCha8Rng,
) -> f64 {
    let mut policy = reviewer.policy();
    reviewer.set_model(&mut policy, view, model);
    match world.apply(seat, action) {
        Ok(events) => {
            if let Some(v) = reviewer.settle(&world, &events, seat) {
                return v;
            }
        }
        // A world where the option is not legal cannot be: it fits the same view.
        Err(_) => return reviewer.equity(&world, seat),
    }
    for _ in 0..reviewer.max_rollout_steps() {
        let Some(&s) = world.to_act().seats().first() else {
            break;
        };
        let legal = world.legal_actions(s);
        let a = match legal.as_slice() {
            [] => break,
            [only] => only.clone(),
            _ => reviewer.rollout_action(&mut policy, &world, s, &legal, rng),
        };
        let Ok(events) = world.apply(s, &a) else {
            break;
        };
        if let Some(v) = reviewer.settle(&world, &events, seat) {
            return v;
        }
    }
    reviewer.equity(&world, seat)
}
