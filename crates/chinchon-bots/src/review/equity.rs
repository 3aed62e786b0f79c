//! The chance of winning a game of Chinchón from its public scores, for the review.
//!
//! A game is won by outlasting the others: a player whose points pass the target is out,
//! the last one in wins, a chinchón wins at once. What a score is worth comes from what
//! one hand adds to each player's points, measured (`examples/hand_points.rs`: whole
//! games of experto at every seat, the rules' defaults) and kept in [`points`]:
//!
//! - **Two players in** (at any table, once the others are out): exact dynamic
//!   programming over both scores. A hand adds `(a, b)` to the mano's and the other's
//!   points with the measured frequency of that pair (so the mano's edge and the way a
//!   close gives the closer 3 points or fewer and the other its deadwood are in), or ends
//!   the game with the mano's or the other's chinchón; then the other player is mano.
//!   Passing the target puts a player out; both past it in the same hand, the fewer
//!   points win (a tie is shared). A menos diez lowers a score, so states do not come in
//!   one order: the table is solved by Gauss–Seidel sweeps, from the highest scores down,
//!   until no value moves by 1e-9 in a sweep.
//! - **Three to eight players in**: each player's *life*, the hands it lasts before
//!   passing the target, follows from its score and the measured points a player adds in
//!   a hand at a table of that many players (one-dimensional dynamic programming); lives
//!   are taken as independent, and the longest wins (players out in the same hand share).
//!   A chinchón, measured per player and hand, wins for a player while it and another
//!   are in (to first order in its small chance). Position at the table is not modelled
//!   beyond two players: with the same scores every player has the same chance. With
//!   reenganche, a player who has not re-entered lives on from the score it would come
//!   back with now (the highest, or second-highest, of the others').
//!
//! Scores below [`FLOOR`] count as [`FLOOR`]. Tables are built on first use for each
//! target (at most [`MAX_TARGET`]; a record made before targets were bounded uses the
//! normal approximation of [`crate::value::win_chance`] instead) and kept.

pub mod points;

use std::sync::{Arc, Mutex, OnceLock};
use tapete_chinchon::rules::Reenganche;
use tapete_chinchon::ChinchonView;
use tapete_table::Seat;

/// The lowest score the tables tell apart: a lower one counts as this (a player this far
/// below the target wins almost surely whatever it is exactly).
pub const FLOOR: i32 = -50;

/// The highest target the tables are built for: every table made now (the rules' bound).
pub const MAX_TARGET: i32 = 500;

/// The public standing of a game, all the equity reads.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// Points by seat.
    pub scores: Vec<i32>,
    /// By seat: out of the game.
    pub out: Vec<bool>,
    /// By seat: has re-entered once already.
    pub reentered: Vec<bool>,
    /// The mano of the hand about to be played.
    pub mano: Seat,
    /// More points than this and a player is out.
    pub target: i32,
    /// The table's reenganche.
    pub reenganche: Reenganche,
}

impl Standing {
    /// The standing a view shows (any seat's, or a spectator's: it is public).
    pub fn from_view(v: &ChinchonView) -> Standing {
        Standing {
            scores: v.scores.clone(),
            out: v.out.clone(),
            reentered: v.reentered.clone(),
            mano: v.mano,
            target: i32::from(v.rules.target),
            reenganche: v.rules.reenganche,
        }
    }

    /// A standing of players all in, nobody re-entered, no reenganche.
    pub fn new(scores: &[i32], mano: Seat, target: i32) -> Standing {
        Standing {
            scores: scores.to_vec(),
            out: vec![false; scores.len()],
            reentered: vec![false; scores.len()],
            mano,
            target,
            reenganche: Reenganche::Off,
        }
    }
}

/// `seat`'s chance of winning the game from `s`, before the mano's hand is dealt: 0 once
/// it is out; if everybody in is past the target, the fewest points win (shared on a tie).
pub fn win_chance(s: &Standing, seat: Seat) -> f64 {
    let n = s.scores.len();
    let out = |i: Seat| s.out.get(i).copied().unwrap_or(true);
    if seat >= n || out(seat) {
        return 0.0;
    }
    let alive: Vec<Seat> = (0..n).filter(|&i| !out(i)).collect();
    let within: Vec<Seat> = alive
        .iter()
        .copied()
        .filter(|&i| s.scores[i] <= s.target)
        .collect();
    if within.is_empty() {
        let least = alive.iter().map(|&i| s.scores[i]).min().unwrap_or(0);
        let tied = alive.iter().filter(|&&i| s.scores[i] == least).count();
        return if s.scores[seat] == least {
            1.0 / tied as f64
        } else {
            0.0
        };
    }
    if s.scores[seat] > s.target {
        return 0.0;
    }
    if within.len() == 1 {
        return 1.0;
    }
    if s.target > MAX_TARGET || s.target < 1 {
        return crate::value::win_chance(&s.scores, &s.out, seat, s.target);
    }
    if let [a, b] = within[..] {
        let other = if a == seat { b } else { a };
        let duel = duel(s.target);
        let (mine, theirs) = (s.scores[seat], s.scores[other]);
        return if s.mano == seat {
            duel.mano_wins(mine, theirs)
        } else if s.mano == other {
            1.0 - duel.mano_wins(theirs, mine)
        } else {
            (duel.mano_wins(mine, theirs) + 1.0 - duel.mano_wins(theirs, mine)) / 2.0
        };
    }
    many(s, &within, seat)
}

/// A kept table, by what it was built for.
type Kept<K, T> = Mutex<Vec<(K, Arc<T>)>>;

/// Tables kept at most, of each kind (a server sees few targets).
const KEEP: usize = 8;

/// The table built for `key`, from `kept` or built now by `build` (and kept). The lock is
/// held while building: threads that want the same table wait for it rather than build it
/// again.
fn kept<K: PartialEq + Copy, T>(kept: &Kept<K, T>, key: K, build: impl FnOnce() -> T) -> Arc<T> {
    // A build that panicked left nothing half-made in the list: the list is still good.
    let mut list = kept.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, t)) = list.iter().find(|(k, _)| *k == key) {
        return t.clone();
    }
    let t = Arc::new(build());
    if list.len() >= KEEP {
        list.remove(0);
    }
    list.push((key, t.clone()));
    t
}

/// Two players in: `w[m][o]`, the chance that the mano of the next hand wins with `m`
/// points against the other's `o`.
pub struct Duel {
    target: i32,
    size: usize,
    w: Vec<f64>,
}

/// The two-player table for `target`, built on first use.
pub fn duel(target: i32) -> Arc<Duel> {
    static KEPT: OnceLock<Kept<i32, Duel>> = OnceLock::new();
    kept(KEPT.get_or_init(Default::default), target, || {
        Duel::build(target)
    })
}

impl Duel {
    fn index(&self, m: i32, o: i32) -> usize {
        let at = |x: i32| (x.clamp(FLOOR, self.target) - FLOOR) as usize;
        at(m) * self.size + at(o)
    }

    /// The chance that the mano wins with `mano` points against `other`'s (both at most
    /// the target).
    pub fn mano_wins(&self, mano: i32, other: i32) -> f64 {
        self.w[self.index(mano, other)]
    }

    fn build(target: i32) -> Duel {
        let (moves, chinchon) = points::two();
        let size = (target - FLOOR + 1) as usize;
        let mut d = Duel {
            target,
            size,
            w: vec![0.5; size * size],
        };
        let (lo_x, hi_x) = span(moves.iter().map(|m| m.0));
        let (lo_y, hi_y) = span(moves.iter().map(|m| m.1));
        // Away from the target and the floor, a hand leads to `w[o + y][m + x]` at a fixed
        // offset from `w[o][m]`: one gathered sum.
        let offsets: Vec<(isize, f64)> = moves
            .iter()
            .map(|&(x, y, p)| (y as isize * size as isize + x as isize, p))
            .collect();
        let plain: f64 = chinchon[0] + moves.iter().map(|m| m.2).sum::<f64>();
        for _ in 0..1000 {
            let mut moved: f64 = 0.0;
            for sum in (2 * FLOOR..=2 * target).rev() {
                for m in (sum - target).max(FLOOR)..=(sum - FLOOR).min(target) {
                    let o = sum - m;
                    let inside = |s: i32, lo: i32, hi: i32| s + lo >= FLOOR && s + hi <= target;
                    let v = if inside(m, lo_x, hi_x) && inside(o, lo_y, hi_y) {
                        let base = d.index(o, m) as isize;
                        plain
                            - offsets
                                .iter()
                                .map(|&(k, p)| p * d.w[(base + k) as usize])
                                .sum::<f64>()
                    } else {
                        chinchon[0]
                            + moves
                                .iter()
                                .map(|&(x, y, p)| p * d.after(m + x, o + y))
                                .sum::<f64>()
                    };
                    let i = d.index(m, o);
                    moved = moved.max((v - d.w[i]).abs());
                    d.w[i] = v;
                }
            }
            if moved < 1e-9 {
                break;
            }
        }
        d
    }

    /// The chance the mano of a hand wins once the hand leaves it `m` points and the other
    /// `o`: decided if either passed the target, else the other is mano next.
    fn after(&self, m: i32, o: i32) -> f64 {
        match (m > self.target, o > self.target) {
            (false, false) => 1.0 - self.w[self.index(o, m)],
            (false, true) => 1.0,
            (true, false) => 0.0,
            (true, true) => match m.cmp(&o) {
                std::cmp::Ordering::Less => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Greater => 0.0,
            },
        }
    }
}

/// Three to eight players in: `alive[h][s]`, the chance that a player with `s` points is
/// still in after `h` more hands, and the chance a player ends a hand with a chinchón.
pub struct Lives {
    target: i32,
    alive: Vec<Vec<f64>>,
    chinchon: f64,
}

/// The lives of a table of `players` players in, to `target`, built on first use.
pub fn lives(players: usize, target: i32) -> Arc<Lives> {
    static KEPT: OnceLock<Kept<(usize, i32), Lives>> = OnceLock::new();
    kept(
        KEPT.get_or_init(Default::default),
        (players, target),
        || Lives::build(players, target),
    )
}

/// The most hands a life is followed for (a table to 500 lasts some 60 hands a player).
const MAX_HANDS: usize = 2000;

impl Lives {
    fn build(players: usize, target: i32) -> Lives {
        let (moves, chinchon) = points::many(players);
        let size = (target - FLOOR + 1) as usize;
        let mut alive = vec![vec![1.0; size]];
        while alive.len() <= MAX_HANDS {
            let last = &alive[alive.len() - 1];
            let next: Vec<f64> = (0..size)
                .map(|i| {
                    let s = FLOOR + i as i32;
                    moves
                        .iter()
                        .filter(|&&(x, _)| s + x <= target)
                        .map(|&(x, p)| p * last[((s + x).max(FLOOR) - FLOOR) as usize])
                        .sum()
                })
                .collect();
            let tail = next.iter().fold(0.0_f64, |a, &b| a.max(b));
            alive.push(next);
            if tail < 1e-10 {
                break;
            }
        }
        Lives {
            target,
            alive,
            chinchon,
        }
    }

    /// The chance that a player with `score` points is still in after `h` more hands.
    pub fn survives(&self, score: i32, h: usize) -> f64 {
        if score > self.target {
            return 0.0;
        }
        self.alive
            .get(h)
            .map_or(0.0, |row| row[(score.max(FLOOR) - FLOOR) as usize])
    }

    /// Hands followed.
    fn hands(&self) -> usize {
        self.alive.len()
    }
}

/// Three players in or more (see the module docs): `seat`'s chance among `within`.
fn many(s: &Standing, within: &[Seat], seat: Seat) -> f64 {
    let t = lives(within.len(), s.target);
    let reentry = s.reenganche != Reenganche::Off;
    let horizon = if reentry { 2 * t.hands() } else { t.hands() };
    // For each player, the chance it is still in after h hands, h = 0..=horizon.
    let life = |i: Seat| -> Vec<f64> {
        let score = s.scores[i];
        let mut f: Vec<f64> = (0..=horizon).map(|h| t.survives(score, h)).collect();
        if reentry && !s.reentered.get(i).copied().unwrap_or(true) {
            let mut others: Vec<i32> = within
                .iter()
                .filter(|&&o| o != i)
                .map(|&o| s.scores[o])
                .collect();
            others.sort_unstable_by(|a, b| b.cmp(a));
            let back = match s.reenganche {
                Reenganche::SecondHighest if others.len() > 1 => others[1],
                _ => others[0],
            };
            let first = f.clone();
            for (h, fh) in f.iter_mut().enumerate() {
                // Out in hand k + 1, back in with `back` points, in for h − k − 1 more.
                *fh += (0..h)
                    .map(|k| (first[k] - first[k + 1]) * t.survives(back, h - k - 1))
                    .sum::<f64>();
            }
        }
        f
    };
    let lives: Vec<(Seat, Vec<f64>)> = within.iter().map(|&i| (i, life(i))).collect();
    let at = |f: &[f64], h: usize| f.get(h).copied().unwrap_or(0.0);
    // Outlasting: my life is k hands, every other's at most k, sharing with those of k.
    let mine = &lives[lives.iter().position(|(i, _)| *i == seat).unwrap_or(0)].1;
    let mut outlast = 0.0;
    for k in 0..=horizon {
        let p = at(mine, k) - at(mine, k + 1);
        if p <= 0.0 {
            continue;
        }
        // ∫₀¹ Π (P(L < k) + t·P(L = k)) dt, the product expanded in t.
        let mut poly = vec![1.0];
        for (_, f) in lives.iter().filter(|(i, _)| *i != seat) {
            let (below, equal) = (1.0 - at(f, k), at(f, k) - at(f, k + 1));
            let mut next = vec![0.0; poly.len() + 1];
            for (j, c) in poly.iter().enumerate() {
                next[j] += c * below;
                next[j + 1] += c * equal;
            }
            poly = next;
        }
        let share: f64 = poly
            .iter()
            .enumerate()
            .map(|(j, c)| c / (j + 1) as f64)
            .sum();
        outlast += p * share;
    }
    // A chinchón while the player and another are in.
    let chinchon = |i: Seat| -> f64 {
        let f = &lives.iter().find(|(j, _)| *j == i).map_or(mine, |x| &x.1);
        t.chinchon
            * (0..=horizon)
                .map(|h| {
                    let none: f64 = lives
                        .iter()
                        .filter(|(j, _)| *j != i)
                        .map(|(_, g)| 1.0 - at(g, h))
                        .product();
                    at(f, h) * (1.0 - none)
                })
                .sum::<f64>()
    };
    let all: f64 = within.iter().map(|&i| chinchon(i)).sum();
    (chinchon(seat) + (1.0 - all.min(1.0)) * outlast).clamp(0.0, 1.0)
}

/// The least and the most of some numbers (0 and 0 for none).
fn span(xs: impl Iterator<Item = i32>) -> (i32, i32) {
    xs.fold(None, |acc: Option<(i32, i32)>, x| match acc {
        None => Some((x, x)),
        Some((lo, hi)) => Some((lo.min(x), hi.max(x))),
    })
    .unwrap_or((0, 0))
}
