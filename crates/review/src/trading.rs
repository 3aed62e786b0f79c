//! Screening results for **win trading**: two accounts who meet again and again and whose
//! results against each other stand far from what their strength, measured on all their
//! other games, allows — one of them losing on purpose to lift the other's rating.
//!
//! Every finished game is a [`Meeting`] of sides, each with its players and its place (a
//! Mus partnership is one side of two; each Chinchón or tikki seat is a side of one). A
//! skill per player is fitted to every meeting by the Bradley–Terry model of teams: a
//! side's strength is its players' mean skill, and a side finishes ahead of another with
//! chance σ(strength difference). Skills have a normal prior of spread [`SPREAD`] about 0,
//! so a player with few games stands near the middle instead of at an extreme.
//!
//! For a pair of players who met as opponents at least `min_games` times, the skills are
//! fitted again **without those games**, so that what is judged does not move the ruler
//! (a rating system's own updates, and its dampers for new accounts, would absorb part of
//! what is traded). Each of their games then gives the first player's score against the
//! second (1 ahead, ½ level, 0 behind) and its chance `p` from the other games. The
//! chance of a score at least as far from the expected one, were the games honest, is
//! computed exactly (the score is a sum of independent games, each won with its own `p`)
//! and given as a z-score: the normal deviate with that tail. Twenty games thrown by one
//! player to another of equal strength have a tail of 2⁻²⁰, z ≈ 4.8; the same twenty among
//! ten honest meetings as well, about 4.1 (see docs/screening.md for the power measured).

use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// The prior spread of skills, in the model's logit units (one unit: a side 73% likely to
/// finish ahead of an equal side's one unit weaker). tapete's Mus levels span about two
/// units (experto beats random 86% of games, basico 61%).
pub const SPREAD: f64 = 1.0;

/// One side of a finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct Side {
    /// Who played it (an account, a bot level, an arena's bot), one name per seat.
    pub players: Vec<String>,
    /// Its place, 1 best; sides level share a place.
    pub place: u32,
}

/// One finished game, as its sides.
#[derive(Clone, Debug, PartialEq)]
pub struct Meeting {
    pub sides: Vec<Side>,
}

/// A pair of players weighed for win trading.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Traded {
    /// The player who did better against the other than expected, then the other.
    pub players: [String; 2],
    /// The games they played against each other (indices of the meetings given).
    pub games: Vec<usize>,
    /// The first player's score against the second: games ahead, and half of those level.
    pub score: f64,
    /// That score's expectation from the skills their other games show.
    pub expected: f64,
    /// The score's variance under that expectation.
    pub variance: f64,
    /// How far from honest play the pair stands: the normal deviate whose upper tail is
    /// the exact chance of so high a score from honest games (0 for half or more).
    pub z: f64,
}

/// The pairs of players who met as opponents at least `min_games` times and of whom
/// `judged` approves (a server judges pairs of two accounts, not a bot level), each weighed
/// (see the module's docs); the most suspicious first.
pub fn screen(
    meetings: &[Meeting],
    min_games: usize,
    judged: impl Fn(&str, &str) -> bool,
) -> Vec<Traded> {
    let model = Model::new(meetings);
    let all = model.fit(&BTreeSet::new(), None);
    let mut out = Vec::new();
    for ((a, b), games) in model.opponents() {
        if games.len() < min_games.max(1) || !judged(&model.names[a], &model.names[b]) {
            continue;
        }
        let skip: BTreeSet<usize> = games.iter().copied().collect();
        let (skill, sure) = model.fit(&skip, Some(&all.0));
        // How far the difference of the two skills may be off, from their other games
        // alone (the curvature of the fit at its peak: Laplace's approximation).
        let spread = (1.0 / sure[a] + 1.0 / sure[b]).sqrt();
        let (mut score, mut expected, mut variance) = (0.0, 0.0, 0.0);
        // Each game: the strength difference of a's side over b's, and how much an error
        // in the two skills moves it (their weights in their sides).
        let mut gaps = Vec::with_capacity(games.len());
        for &g in &games {
            let sides = &model.games[g];
            let (Some(x), Some(y)) = (
                sides.iter().find(|s| s.0.contains(&a)),
                sides.iter().find(|s| s.0.contains(&b)),
            ) else {
                continue;
            };
            let gap = strength(&x.0, &skill) - strength(&y.0, &skill);
            let p = sigmoid(gap);
            score += outcome(x.1, y.1);
            expected += p;
            variance += p * (1.0 - p);
            let weight = (1.0 / x.0.len() as f64 + 1.0 / y.0.len() as f64) / 2.0;
            gaps.push((gap, weight));
        }
        let n = gaps.len() as f64;
        let (players, score, expected) = if score >= expected {
            ([a, b], score, expected)
        } else {
            for g in &mut gaps {
                g.0 = -g.0;
            }
            ([b, a], n - score, n - expected)
        };
        let z = deviate(uncertain_tail(&gaps, spread, score));
        out.push(Traded {
            players: players.map(|p| model.names[p].clone()),
            games,
            score,
            expected,
            variance,
            z,
        });
    }
    out.sort_by(|x, y| y.z.total_cmp(&x.z).then_with(|| x.players.cmp(&y.players)));
    out
}

/// 1 when a side placed `x` finished ahead of one placed `y`, ½ level, 0 behind.
fn outcome(x: u32, y: u32) -> f64 {
    match x.cmp(&y) {
        std::cmp::Ordering::Less => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Greater => 0.0,
    }
}

/// The chance that games won with the chances `p` (each independent) score at least
/// `score` (wins, and halves for games level, counted as wins at the next half up).
fn tail(p: &[f64], score: f64) -> f64 {
    // dist[k]: the chance of k wins so far.
    let mut dist = vec![1.0];
    for &q in p {
        let mut next = vec![0.0; dist.len() + 1];
        for (k, d) in dist.iter().enumerate() {
            next[k] += d * (1.0 - q);
            next[k + 1] += d * q;
        }
        dist = next;
    }
    let from = score.ceil().max(0.0) as usize;
    dist.iter().skip(from).sum::<f64>().clamp(0.0, 1.0)
}

/// The chance of scoring at least `score` in games whose strength gaps are `gaps` (each
/// with the weight by which an error in the skills moves it), the skills' error being
/// normal with deviation `spread`: the tail of each possible error, weighed by its chance
/// (81 points over ±6 deviations).
fn uncertain_tail(gaps: &[(f64, f64)], spread: f64, score: f64) -> f64 {
    const POINTS: usize = 81;
    if spread.is_nan() || spread <= 1e-9 {
        let p: Vec<f64> = gaps.iter().map(|g| sigmoid(g.0)).collect();
        return tail(&p, score);
    }
    let (mut sum, mut weights) = (0.0, 0.0);
    for j in 0..POINTS {
        let t = -6.0 + 12.0 * j as f64 / (POINTS - 1) as f64;
        let w = (-t * t / 2.0).exp();
        let p: Vec<f64> = gaps
            .iter()
            .map(|&(gap, k)| sigmoid(gap + k * spread * t))
            .collect();
        sum += w * tail(&p, score);
        weights += w;
    }
    (sum / weights).clamp(0.0, 1.0)
}

/// The normal deviate whose upper tail is `q`, 0 for a tail of one half or more, at most
/// 37 (a tail below 1e-300). Acklam's rational approximation, refined by one step of
/// Halley's method: relative error below 1e-9.
pub fn deviate(q: f64) -> f64 {
    if q.is_nan() || q >= 0.5 {
        return 0.0;
    }
    let q = q.max(1e-300);
    // The lower tail's deviate at q is -z; compute z = -Φ⁻¹(q).
    const A: [f64; 6] = [
        -3.969683028665376e1,
        2.209460984245205e2,
        -2.759285104469687e2,
        1.383_577_518_672_69e2,
        -3.066479806614716e1,
        2.506628277459239,
    ];
    const B: [f64; 5] = [
        -5.447609879822406e1,
        1.615858368580409e2,
        -1.556989798598866e2,
        6.680131188771972e1,
        -1.328068155288572e1,
    ];
    const C: [f64; 6] = [
        -7.784894002430293e-3,
        -3.223964580411365e-1,
        -2.400758277161838,
        -2.549732539343734,
        4.374664141464968,
        2.938163982698783,
    ];
    const D: [f64; 4] = [
        7.784695709041462e-3,
        3.224671290700398e-1,
        2.445134137142996,
        3.754408661907416,
    ];
    let x = if q < 0.02425 {
        let t = (-2.0 * q.ln()).sqrt();
        (((((C[0] * t + C[1]) * t + C[2]) * t + C[3]) * t + C[4]) * t + C[5])
            / ((((D[0] * t + D[1]) * t + D[2]) * t + D[3]) * t + 1.0)
    } else {
        let u = q - 0.5;
        let r = u * u;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * u
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    };
    // One Halley step on Φ(x) = q.
    let e = 0.5 * erfc(-x / std::f64::consts::SQRT_2) - q;
    let u = e * (2.0 * std::f64::consts::PI).sqrt() * (x * x / 2.0).exp();
    let x = x - u / (1.0 + x * u / 2.0);
    (-x).min(37.0)
}

/// The complementary error function (W. J. Cody's rational approximations through
/// `erfc(x) = exp(-x²)·R(x)`; relative error below 1e-13 for the tails used here).
fn erfc(x: f64) -> f64 {
    if x < 0.0 {
        return 2.0 - erfc(-x);
    }
    // Continued fraction for large x, series for small: enough for a refinement step.
    if x < 2.0 {
        // erf by its Taylor series.
        let mut sum = x;
        let mut term = x;
        let x2 = x * x;
        for n in 1..200 {
            term *= -x2 / n as f64;
            let add = term / (2 * n + 1) as f64;
            sum += add;
            if add.abs() < 1e-17 * sum.abs() {
                break;
            }
        }
        1.0 - sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        // Lentz's continued fraction: erfc(x) = exp(-x²)/√π · 1/(x + 1/2/(x + 1/(x + 3/2/(x + …)))).
        let mut f = x;
        for k in (1..120).rev() {
            f = x + (k as f64 / 2.0) / f;
        }
        (-x * x).exp() / std::f64::consts::PI.sqrt() / f
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// A side's strength: its players' mean skill.
fn strength(players: &[usize], skill: &[f64]) -> f64 {
    if players.is_empty() {
        return 0.0;
    }
    players.iter().map(|&p| skill[p]).sum::<f64>() / players.len() as f64
}

/// The meetings with players numbered.
struct Model {
    names: Vec<String>,
    /// Each game's sides: players and place.
    games: Vec<Vec<(Vec<usize>, u32)>>,
}

impl Model {
    fn new(meetings: &[Meeting]) -> Model {
        let mut index: BTreeMap<&str, usize> = BTreeMap::new();
        let mut names = Vec::new();
        let games = meetings
            .iter()
            .map(|m| {
                m.sides
                    .iter()
                    .map(|s| {
                        let players = s
                            .players
                            .iter()
                            .map(|p| {
                                *index.entry(p.as_str()).or_insert_with(|| {
                                    names.push(p.clone());
                                    names.len() - 1
                                })
                            })
                            .collect();
                        (players, s.place)
                    })
                    .collect()
            })
            .collect();
        Model { names, games }
    }

    /// Every pair of different players who met on different sides (the first numbered
    /// first), with the games in which they did, in order.
    fn opponents(&self) -> BTreeMap<(usize, usize), Vec<usize>> {
        let mut out: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
        for (g, sides) in self.games.iter().enumerate() {
            let mut pairs = BTreeSet::new();
            for (i, x) in sides.iter().enumerate() {
                for y in &sides[i + 1..] {
                    for &a in &x.0 {
                        for &b in &y.0 {
                            // A player on both sides (an arena's one bot) meets nobody.
                            if a != b && !y.0.contains(&a) && !x.0.contains(&b) {
                                pairs.insert((a.min(b), a.max(b)));
                            }
                        }
                    }
                }
            }
            for p in pairs {
                out.entry(p).or_default().push(g);
            }
        }
        out
    }

    /// The skills that best explain every game but those in `skip` (the maximum of the
    /// posterior under the prior), from `start` when given, and how sure each is (the
    /// posterior's curvature along it: one over its variance). Each side's result against each
    /// other side weighs 1/(sides − 1), so that a game counts once for each side whatever
    /// the number of seats.
    fn fit(&self, skip: &BTreeSet<usize>, start: Option<&[f64]>) -> (Vec<f64>, Vec<f64>) {
        let n = self.names.len();
        let mut skill = start.map_or_else(|| vec![0.0; n], <[f64]>::to_vec);
        let prior = 1.0 / (SPREAD * SPREAD);
        let mut sure = vec![prior; n];
        for _ in 0..500 {
            let mut grad: Vec<f64> = skill.iter().map(|s| -s * prior).collect();
            let mut hess = vec![prior; n];
            for (g, sides) in self.games.iter().enumerate() {
                if skip.contains(&g) || sides.len() < 2 {
                    continue;
                }
                let w = 1.0 / (sides.len() - 1) as f64;
                for (i, x) in sides.iter().enumerate() {
                    for y in &sides[i + 1..] {
                        if x.0.is_empty() || y.0.is_empty() {
                            continue;
                        }
                        let p = sigmoid(strength(&x.0, &skill) - strength(&y.0, &skill));
                        let (d, h) = (w * (outcome(x.1, y.1) - p), w * p * (1.0 - p));
                        let (kx, ky) = (x.0.len() as f64, y.0.len() as f64);
                        for &a in &x.0 {
                            grad[a] += d / kx;
                            hess[a] += h / (kx * kx);
                        }
                        for &b in &y.0 {
                            grad[b] -= d / ky;
                            hess[b] += h / (ky * ky);
                        }
                    }
                }
            }
            let mut moved: f64 = 0.0;
            for ((s, g), h) in skill.iter_mut().zip(&grad).zip(&hess) {
                // Newton's step on each skill alone, halved: the skills pull on each other
                // through shared games, and a half step keeps that from overshooting.
                let step = (0.5 * g / h).clamp(-1.0, 1.0);
                *s += step;
                moved = moved.max(step.abs());
            }
            sure = hess;
            if moved < 1e-9 {
                break;
            }
        }
        (skill, sure)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn duel(a: &str, b: &str, a_wins: bool) -> Meeting {
        let (pa, pb) = if a_wins { (1, 2) } else { (2, 1) };
        Meeting {
            sides: vec![
                Side {
                    players: vec![a.into()],
                    place: pa,
                },
                Side {
                    players: vec![b.into()],
                    place: pb,
                },
            ],
        }
    }

    /// Games of 2 against 2 among `players` of the given true skills, and `thrown` more
    /// in which `players[0]`'s side loses to `players[1]`'s on purpose; `apart`: the two
    /// never meet in the honest games.
    fn population(
        seed: u64,
        skills: &[f64],
        games: usize,
        thrown: usize,
        apart: bool,
    ) -> Vec<Meeting> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let n = skills.len();
        let name = |i: usize| format!("p{i}");
        let mut out = Vec::new();
        for g in 0..games + thrown {
            let mut four: Vec<usize> = Vec::new();
            if g >= games {
                four.extend([0, 1]);
            }
            while four.len() < 4 {
                let p = rng.gen_range(0..n);
                if !four.contains(&p) {
                    four.push(p);
                }
            }
            let opposed = |a: usize, b: usize| {
                let side = |p: usize| four.iter().position(|&q| q == p).map(|i| i % 2);
                matches!((side(a), side(b)), (Some(x), Some(y)) if x != y)
            };
            if g < games && apart && opposed(0, 1) {
                continue;
            }
            // Sides: (four[0], four[2]) against (four[1], four[3]).
            let sx = (skills[four[0]] + skills[four[2]]) / 2.0;
            let sy = (skills[four[1]] + skills[four[3]]) / 2.0;
            let x_ahead = if g >= games {
                false
            } else {
                rng.gen_bool(sigmoid(sx - sy))
            };
            let (px, py) = if x_ahead { (1, 2) } else { (2, 1) };
            out.push(Meeting {
                sides: vec![
                    Side {
                        players: vec![name(four[0]), name(four[2])],
                        place: px,
                    },
                    Side {
                        players: vec![name(four[1]), name(four[3])],
                        place: py,
                    },
                ],
            });
        }
        out
    }

    /// Each of `players` plays `games` duels against five others, winning every other (and
    /// each of the five, in turn, as often as it loses).
    fn level_history(players: &[&str], games: usize) -> Vec<Meeting> {
        let mut out = Vec::new();
        for i in 0..games {
            for p in players {
                out.push(duel(p, &format!("x{}", i % 5), i % 2 == 0));
            }
        }
        out
    }

    #[test]
    fn twenty_games_thrown_between_known_equals_stand_out_and_the_winner_comes_first() {
        let mut games = level_history(&["ana", "bea"], 60);
        games.extend((0..20).map(|_| duel("ana", "bea", false)));
        let t = screen(&games, 10, |a, b| a.len() == 3 && b.len() == 3);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].players, ["bea".to_string(), "ana".to_string()]);
        assert_eq!(t[0].score, 20.0);
        assert!((t[0].expected - 10.0).abs() < 1e-6, "{t:?}");
        // Sure of their strengths, 2⁻²⁰ would be z = 4.76; what sixty games each leave
        // unsure of them brings it down, not under the flag's 3.5.
        assert!(t[0].z >= 3.5 && t[0].z < 4.763, "{t:?}");
        // Too few meetings, or a pair not to judge: nothing.
        assert!(screen(&games, 21, |_, _| true)
            .iter()
            .all(|t| t.players != ["bea".to_string(), "ana".to_string()]));
        assert!(screen(&games, 10, |a, b| a != "ana" && b != "ana")
            .iter()
            .all(|t| !t.players.contains(&"ana".to_string())));
    }

    #[test]
    fn between_players_known_by_nothing_else_a_lopsided_score_is_a_gap_in_strength() {
        // Two who only ever meet each other: twenty wins of twenty may be one far stronger
        // (an arena of two bots, two friends far apart): not flagged.
        let games: Vec<Meeting> = (0..20).map(|_| duel("ana", "bea", false)).collect();
        let t = screen(&games, 10, |_, _| true);
        assert!(t[0].z > 1.0 && t[0].z < 3.0, "{t:?}");
        // The same with a history that shows them level: flagged.
        let mut known = level_history(&["ana", "bea"], 60);
        known.extend(games);
        assert!(screen(&known, 10, |_, _| true)[0].z >= 3.5);
    }

    #[test]
    fn the_pair_is_weighed_by_the_skills_its_other_games_show() {
        // Ana beats everybody else; her wins against Bea are what her skill expects.
        let mut games = Vec::new();
        for i in 0..60 {
            games.push(duel("ana", &format!("x{}", i % 6), i % 10 != 0));
            games.push(duel("bea", &format!("x{}", i % 6), i % 2 == 0));
        }
        games.extend((0..20).map(|i| duel("ana", "bea", i % 10 != 0)));
        let t = screen(&games, 10, |a, b| a.len() == 3 && b.len() == 3);
        assert_eq!(t.len(), 1);
        assert!(t[0].expected > 14.0, "{t:?}");
        assert!(t[0].z < 2.0, "{t:?}");
        let strong = t[0].z;
        // The same twenty games between two who show no such gap elsewhere: suspicious.
        let mut level = Vec::new();
        for i in 0..60 {
            level.push(duel("ana", &format!("x{}", i % 6), i % 2 == 0));
            level.push(duel("bea", &format!("x{}", i % 6), i % 2 == 1));
        }
        level.extend((0..20).map(|i| duel("ana", "bea", i % 10 != 0)));
        let t = screen(&level, 10, |a, b| a.len() == 3 && b.len() == 3);
        assert!(t[0].z > strong + 1.5, "{t:?}");
    }

    #[test]
    fn honest_partnership_games_flag_nobody_and_thrown_ones_are_found() {
        // Sixteen players from -0.8 to +0.7; the traders p0 and p1 are level (0.0, 0.1).
        let mut skills: Vec<f64> = (0..16)
            .map(|i| ((i * 7) % 16) as f64 / 10.0 - 0.8)
            .collect();
        skills.swap(0, 8);
        skills[1] = 0.1;
        let judged = |a: &str, b: &str| a != b;
        let (mut worst, mut among, mut found): (f64, Vec<f64>, usize) = (0.0, Vec::new(), 0);
        for seed in 0..20 {
            let honest = population(seed, &skills, 200, 0, false);
            let t = screen(&honest, 10, judged);
            assert!(!t.is_empty());
            worst = worst.max(t[0].z);
            assert!(t[0].z < 3.5, "seed {seed}: {:?}", t[0]);
            // Twenty games thrown by p0 to p1, who otherwise never meet: found (their
            // partners, drawn at random, make some of the twenty likelier than others).
            let traded = population(seed, &skills, 200, 20, true);
            let t = screen(&traded, 10, judged);
            assert_eq!(
                t[0].players,
                ["p1".to_string(), "p0".to_string()],
                "seed {seed}"
            );
            found += usize::from(t[0].z >= 3.5);
            // The same among their honest meetings (about ten): less clear.
            let mixed = population(seed, &skills, 200, 20, false);
            let t = screen(&mixed, 10, judged);
            let pair = t
                .iter()
                .find(|x| x.players == ["p1".to_string(), "p0".to_string()]);
            among.push(pair.map_or(0.0, |x| x.z));
        }
        assert!(worst > 1.0, "the honest pairs' z never moved: {worst}");
        assert!(found >= 18, "{found} of 20 found");
        among.sort_by(f64::total_cmp);
        assert!(among[10] > 2.8, "{among:?}");
    }

    #[test]
    fn the_deviate_inverts_the_normal_tail() {
        // Known quantiles of the normal distribution.
        for (q, z) in [
            (0.5, 0.0),
            (0.158_655_253_931_457, 1.0),
            (0.022_750_131_948_179, 2.0),
            (1.349_898_031_630_1e-3, 3.0),
            (3.167_124_183_311_9e-5, 4.0),
            (2.866_515_718_791_9e-7, 5.0),
            (9.865_876_450_377e-10, 6.0),
        ] {
            assert!(
                (deviate(q) - z).abs() < 1e-7,
                "{q}: {} against {z}",
                deviate(q)
            );
        }
        assert_eq!(deviate(0.7), 0.0);
        assert_eq!(deviate(f64::NAN), 0.0);
        assert!(deviate(0.0) > 30.0);
        // The tail of four fair games: at least three wins in 5/16.
        assert!((tail(&[0.5; 4], 3.0) - 5.0 / 16.0).abs() < 1e-15);
        assert!((tail(&[0.5; 4], 2.5) - 5.0 / 16.0).abs() < 1e-15);
        assert_eq!(tail(&[0.2, 0.9], 0.0), 1.0);
    }

    #[test]
    fn games_of_many_sides_compare_each_pair_by_place() {
        let three = |first: &str, second: &str, third: &str| Meeting {
            sides: [first, second, third]
                .iter()
                .zip(1..)
                .map(|(p, place)| Side {
                    players: vec![p.to_string()],
                    place,
                })
                .collect(),
        };
        let games: Vec<Meeting> = (0..12).map(|_| three("bea", "cris", "ana")).collect();
        let t = screen(&games, 10, |_, _| true);
        assert_eq!(t.len(), 3);
        let pair = |a: &str, b: &str| t.iter().find(|x| x.players == [a, b]).unwrap();
        assert_eq!(pair("bea", "ana").score, 12.0);
        assert_eq!(pair("cris", "ana").score, 12.0);
        assert_eq!(pair("bea", "cris").score, 12.0);
        // One player on both sides (an arena's bot against itself) meets nobody.
        let mirror = Meeting {
            sides: vec![
                Side {
                    players: vec!["experto".into(), "experto".into()],
                    place: 1,
                },
                Side {
                    players: vec!["experto".into(), "basico".into()],
                    place: 2,
                },
            ],
        };
        let t = screen(&vec![mirror; 12], 10, |_, _| true);
        assert!(t.is_empty(), "{t:?}");
    }
}
