//! What a score is worth: a seat's chance of winning the game from the points of the
//! finished rounds, before the next round is dealt.
//!
//! **The measured round.** For each kind of table that changes how a round plays (seats,
//! deck, retreat round) the table plays [`SAMPLE_ROUNDS`] rounds of basico at every seat
//! from fixed seeds (on plain arrays, [`World`], in a fraction of a second) and keeps the
//! points each seat scored. Within a round the seats' points are strongly tied: the cards
//! taken by one are not taken by another (at three seats two seats' points correlate at
//! about −0.44, at two at −0.87), so seats cannot be drawn apart as they come. What decides
//! the game is the margins between seats, so the table keeps each seat's points measured
//! from the round's mean, scaled by √(n/(n−1)) and put back around the mean a seat scores:
//! drawn independently for each seat, these give every margin between two seats, and every
//! pair of margins, the variance and covariance the measured rounds have. That is the
//! distribution of one round's points per seat.
//!
//! **Rounds to go.** The `r`-fold convolution of that distribution is a seat's points over
//! `r` rounds (built once, its tails below 10⁻¹² cut). With `r` rounds to go the chance of
//! winning is exact for seats drawing independently: for each total the seat may add, the
//! others each fall below it, tie with it or pass it, and a tie with `k` others is a win
//! shared `k + 1` ways — the value of a shared win once the game is over too (one over the
//! winners), so a table's chances always sum to one. Equal scores give every seat one in
//! `n`; more points never lower a seat's chance.
//!
//! **Playing to a target.** The game lasts until some seat reaches the target at the end of
//! a round; the table weighs the chances for each number of rounds by the chance that the
//! game lasts exactly that many (from the same distribution, every seat's walk taken
//! apart). The length and the winner are not independent in the game, so this is an
//! approximation.

use std::sync::{Arc, Mutex, OnceLock};
use tapete_table::{Game, Seat};
use tapete_tikki::{Phase, TikkiGame, TikkiRules};

use crate::experto::World;

/// Rounds of basico measured for each kind of table.
pub const SAMPLE_ROUNDS: u64 = 10_000;
/// Rounds to go whose totals are convolved exactly; beyond, a normal of the same mean and
/// spread (a game that long is only an old stored one).
const CONVOLVED: usize = 64;
/// Probability cut from each tail of a convolution.
const TAIL: f64 = 1e-12;
/// The chance of a target game lasting longer than this is left to its last term.
const LENGTH_TAIL: f64 = 1e-7;

/// A distribution over whole points from `lo`: its probabilities and running sums.
#[derive(Clone, Debug)]
struct Dist {
    lo: i64,
    pmf: Vec<f64>,
    /// `cdf[i]`: the chance of `lo + i` or less.
    cdf: Vec<f64>,
}

impl Dist {
    fn new(lo: i64, pmf: Vec<f64>) -> Dist {
        let total: f64 = pmf.iter().sum();
        let pmf: Vec<f64> = pmf.into_iter().map(|p| p / total).collect();
        // Cut the tails.
        let first = pmf.iter().scan(0.0, |s, p| {
            *s += p;
            Some(*s)
        });
        let start = first.take_while(|&s| s < TAIL).count();
        let mut end = pmf.len();
        let mut tail = 0.0;
        while end > start + 1 && tail + pmf[end - 1] < TAIL {
            tail += pmf[end - 1];
            end -= 1;
        }
        let pmf: Vec<f64> = pmf[start..end].to_vec();
        let total: f64 = pmf.iter().sum();
        let pmf: Vec<f64> = pmf.into_iter().map(|p| p / total).collect();
        let mut cdf = Vec::with_capacity(pmf.len());
        let mut s = 0.0;
        for p in &pmf {
            s += p;
            cdf.push(s.min(1.0));
        }
        Dist {
            lo: lo + start as i64,
            pmf,
            cdf,
        }
    }

    /// The chance of exactly `x`.
    fn at(&self, x: i64) -> f64 {
        let i = x - self.lo;
        if i < 0 {
            return 0.0;
        }
        self.pmf.get(i as usize).copied().unwrap_or(0.0)
    }

    /// The chance of less than `x`.
    fn below(&self, x: i64) -> f64 {
        let i = x - 1 - self.lo;
        if i < 0 {
            return 0.0;
        }
        self.cdf.get(i as usize).copied().unwrap_or(1.0)
    }

    /// The sum of a draw of each.
    fn plus(&self, other: &Dist) -> Dist {
        let mut pmf = vec![0.0; self.pmf.len() + other.pmf.len() - 1];
        for (i, p) in self.pmf.iter().enumerate() {
            for (j, q) in other.pmf.iter().enumerate() {
                pmf[i + j] += p * q;
            }
        }
        Dist::new(self.lo + other.lo, pmf)
    }

    fn mean_var(&self) -> (f64, f64) {
        let m: f64 = self
            .pmf
            .iter()
            .enumerate()
            .map(|(i, p)| p * (self.lo + i as i64) as f64)
            .sum();
        let v: f64 = self
            .pmf
            .iter()
            .enumerate()
            .map(|(i, p)| p * ((self.lo + i as i64) as f64 - m).powi(2))
            .sum();
        (m, v)
    }

    /// A normal of mean `m` and variance `v` on whole points.
    fn normal(m: f64, v: f64) -> Dist {
        let sd = v.sqrt().max(1.0);
        let lo = (m - 8.0 * sd).floor() as i64;
        let hi = (m + 8.0 * sd).ceil() as i64;
        let pmf = (lo..=hi)
            .map(|x| (-((x as f64 - m) / sd).powi(2) / 2.0).exp())
            .collect();
        Dist::new(lo, pmf)
    }
}

/// The chance of winning a game of tikki from its score, for one kind of table: see the
/// module docs for how it is made.
#[derive(Debug)]
pub struct EquityTable {
    seats: usize,
    /// One round's points of one seat, as the table draws them.
    round: Dist,
    /// `sums[r − 1]`: the points of `r` rounds, built when first asked.
    sums: Vec<OnceLock<Dist>>,
}

impl EquityTable {
    /// The table for `seats` players at a table of these `rules` (only the deck and the
    /// retreat round change how a round plays), measured on first use and kept.
    pub fn of(rules: &TikkiRules, seats: usize) -> Arc<EquityTable> {
        /// The tables measured, by seats, deck and retreat round.
        type Tables = Vec<((usize, u8, bool), Arc<EquityTable>)>;
        static TABLES: OnceLock<Mutex<Tables>> = OnceLock::new();
        let key = (seats, rules.top, rules.retreat);
        let tables = TABLES.get_or_init(|| Mutex::new(Vec::new()));
        if let Some(t) = lock(tables).iter().find(|(k, _)| *k == key) {
            return t.1.clone();
        }
        // Measured outside the lock: another thread may measure the same table meanwhile,
        // and the first one kept wins (both are the same, from the same seeds).
        let table = Arc::new(EquityTable::measure(rules, seats));
        let mut tables = lock(tables);
        if let Some(t) = tables.iter().find(|(k, _)| *k == key) {
            return t.1.clone();
        }
        tables.push((key, table.clone()));
        table
    }

    /// Plays [`SAMPLE_ROUNDS`] rounds of basico and builds the table from their points.
    fn measure(rules: &TikkiRules, seats: usize) -> EquityTable {
        let rules = TikkiRules {
            top: rules.top,
            retreat: rules.retreat,
            ..TikkiRules::default()
        };
        let mut rounds: Vec<Vec<f64>> = Vec::with_capacity(SAMPLE_ROUNDS as usize);
        for seed in 0..SAMPLE_ROUNDS {
            let Ok(game) = TikkiGame::new(&rules, seats, seed) else {
                break;
            };
            let Some(mut world) = World::from_game(&game, &game.view(0)) else {
                break;
            };
            world.play_out();
            let points = world.points();
            rounds.push((0..seats).map(|s| f64::from(points[s])).collect());
        }
        EquityTable::from_rounds(seats, &rounds)
    }

    /// The table from measured rounds (each seat's points in one round).
    fn from_rounds(seats: usize, rounds: &[Vec<f64>]) -> EquityTable {
        let n = seats.max(2) as f64;
        let count = (rounds.len() as f64 * n).max(1.0);
        let mean = rounds.iter().flatten().sum::<f64>() / count;
        let scale = (n / (n - 1.0)).sqrt();
        let draws: Vec<i64> = rounds
            .iter()
            .flat_map(|r| {
                let avg = r.iter().sum::<f64>() / n;
                r.iter()
                    .map(move |p| (mean + (p - avg) * scale).round() as i64)
            })
            .collect();
        let lo = draws.iter().copied().min().unwrap_or(0);
        let hi = draws.iter().copied().max().unwrap_or(0);
        let mut pmf = vec![0.0; (hi - lo + 1) as usize];
        for d in &draws {
            pmf[(d - lo) as usize] += 1.0;
        }
        if draws.is_empty() {
            pmf[0] = 1.0;
        }
        EquityTable {
            seats,
            round: Dist::new(lo, pmf),
            sums: (0..CONVOLVED).map(|_| OnceLock::new()).collect(),
        }
    }

    /// The mean and standard deviation of one seat's points in one round, as drawn.
    pub fn round_points(&self) -> (f64, f64) {
        let (m, v) = self.round.mean_var();
        (m, v.sqrt())
    }

    /// A seat's points over `r` rounds (r ≥ 1).
    fn sum(&self, r: usize) -> std::borrow::Cow<'_, Dist> {
        use std::borrow::Cow;
        if r <= 1 {
            return Cow::Borrowed(&self.round);
        }
        if r > CONVOLVED {
            let (m, v) = self.round.mean_var();
            return Cow::Owned(Dist::normal(m * r as f64, v * r as f64));
        }
        Cow::Borrowed(self.sums[r - 1].get_or_init(|| self.sum(r - 1).plus(&self.round)))
    }

    /// The chance that `seat` wins with `rounds` rounds to go from `scores` (the finished
    /// rounds' points, one per seat); a shared win counts one over the winners. With no
    /// rounds to go, the scores decide.
    pub fn win(&self, scores: &[u32], seat: Seat, rounds: usize) -> f64 {
        let Some(&mine) = scores.get(seat) else {
            return 0.0;
        };
        let others: Vec<i64> = (0..scores.len())
            .filter(|&s| s != seat)
            .map(|s| i64::from(scores[s]))
            .collect();
        let mine = i64::from(mine);
        if rounds == 0 {
            return final_share(mine, &others);
        }
        let sum = self.sum(rounds);
        let mut win = 0.0;
        let mut poly = [0.0f64; 8];
        for (i, &p) in sum.pmf.iter().enumerate() {
            if p < 1e-15 {
                continue;
            }
            let total = mine + sum.lo + i as i64;
            // Π over the others of (below + tied·z): the coefficient of z^k is the chance
            // that exactly k others tie and none passes.
            poly.fill(0.0);
            poly[0] = 1.0;
            for (k, &b) in others.iter().enumerate() {
                let (lt, eq) = (sum.below(total - b), sum.at(total - b));
                for d in (0..=k + 1).rev() {
                    poly[d] = poly[d] * lt + if d > 0 { poly[d - 1] * eq } else { 0.0 };
                }
            }
            let share: f64 = (0..=others.len()).map(|k| poly[k] / (k + 1) as f64).sum();
            win += p * share;
        }
        win.clamp(0.0, 1.0)
    }

    /// The chance that `seat` wins a game to `target` points from `scores` (all below the
    /// target), weighing each number of rounds the game may last.
    pub fn win_to_target(&self, scores: &[u32], seat: Seat, target: u32) -> f64 {
        if scores.iter().any(|&s| s >= target) {
            let mine = scores.get(seat).map_or(0, |&m| i64::from(m));
            let others: Vec<i64> = (0..scores.len())
                .filter(|&s| s != seat)
                .map(|s| i64::from(scores[s]))
                .collect();
            return final_share(mine, &others);
        }
        // The chance that nobody has reached the target after r rounds.
        let lasts = |r: usize| -> f64 {
            let sum = self.sum(r);
            scores
                .iter()
                .map(|&s| sum.below(i64::from(target) - i64::from(s)))
                .product()
        };
        let (mut win, mut before) = (0.0, 1.0);
        for r in 1..=CONVOLVED {
            let after = if r == CONVOLVED { 0.0 } else { lasts(r) };
            let ends_here = before - after;
            if ends_here > 1e-9 {
                win += ends_here * self.win(scores, seat, r);
            }
            if after < LENGTH_TAIL {
                if after > 0.0 {
                    win += after * self.win(scores, seat, r + 1);
                }
                break;
            }
            before = after;
        }
        win.clamp(0.0, 1.0)
    }

    /// `seat`'s chance of winning `game` from its public score, as if a new round were
    /// about to be dealt (the points of the round under way are not counted); once over, its
    /// share of the win (1 alone, one over the winners when level, 0 otherwise).
    pub fn of_game(&self, game: &TikkiGame, seat: Seat) -> f64 {
        if game.phase() == Phase::Over {
            let winners = game.winners();
            return if winners.contains(&seat) {
                1.0 / winners.len() as f64
            } else {
                0.0
            };
        }
        let rules = game.rules();
        if rules.target > 0 {
            return self.win_to_target(game.scores(), seat, rules.target);
        }
        let left = rules
            .rounds_for(self.seats)
            .saturating_sub(game.round())
            .saturating_add(1);
        self.win(game.scores(), seat, left as usize)
    }
}

/// The share of the win of a seat with `mine` points against `others` once the game is over.
fn final_share(mine: i64, others: &[i64]) -> f64 {
    if others.iter().any(|&o| o > mine) {
        return 0.0;
    }
    1.0 / (1 + others.iter().filter(|&&o| o == mine).count()) as f64
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn convolution_keeps_mass_mean_and_variance() {
        let d = Dist::new(-1, vec![1.0, 2.0, 1.0]);
        let s = d.plus(&d).plus(&d);
        let (m, v) = s.mean_var();
        assert!((s.pmf.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(m.abs() < 1e-12 && (v - 1.5).abs() < 1e-12, "{m} {v}");
        assert_eq!(d.below(-1), 0.0);
        assert!((d.below(0) - 0.25).abs() < 1e-12);
        assert_eq!(d.below(5), 1.0);
        assert!((d.at(0) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn drawn_apart_the_seats_keep_the_measured_margins_spread() {
        // Three seats whose points always sum to 60: as tied as points can be.
        let rounds: Vec<Vec<f64>> = (0..=60)
            .flat_map(|a| (0..=60 - a).map(move |b| vec![a as f64, b as f64, (60 - a - b) as f64]))
            .collect();
        let n = rounds.len() as f64;
        let mean = rounds.iter().map(|r| r[0] - r[1]).sum::<f64>() / n;
        let measured = rounds
            .iter()
            .map(|r| (r[0] - r[1] - mean).powi(2))
            .sum::<f64>()
            / n;
        let (_, sd) = EquityTable::from_rounds(3, &rounds).round_points();
        // Two seats drawn apart: the variance of their margin is twice a draw's.
        let drawn = 2.0 * sd * sd;
        assert!((drawn / measured - 1.0).abs() < 0.02, "{drawn} {measured}");
    }

    #[test]
    fn one_round_to_go_between_two_is_the_chance_of_the_margin() {
        // Each seat draws 0 or 10 points, evenly: 5 points ahead wins unless the other draws
        // 10 and this seat 0 (one in four).
        let rounds = vec![vec![0.0, 10.0], vec![10.0, 0.0]];
        let t = EquityTable::from_rounds(2, &rounds);
        let w = t.win(&[5, 0], 0, 1);
        assert!((w - 0.75).abs() < 0.01, "{w}");
        assert!((t.win(&[0, 0], 0, 1) - 0.5).abs() < 1e-12);
    }
}
