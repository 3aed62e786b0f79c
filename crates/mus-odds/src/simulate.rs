//! The simulation study: random four-hand deals, each jugada's observed frequency beside
//! its exact probability (the thesis' table 3.1), and each jugada's average piedras won en
//! paso at each position, with a 95% confidence interval (its gain simulation).
//!
//! Deals are generated in fixed-size chunks, each with its own RNG seeded from the seed and
//! the chunk number, so the result depends on the seed alone, never on the thread count.

use crate::catalog::Catalog;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::Serialize;
use tapete_cards::Card;
use tapete_mus::{Mode, Rank};

/// Deals per chunk (the unit of parallel work and of progress reports).
pub const CHUNK: u64 = 1 << 16;

/// Per-jugada tallies: deals seen, and per position the piedras won en paso (sum, sum of
/// squares) by the pair of the player holding it.
#[derive(Clone, Debug)]
struct Tally {
    seen: Vec<u64>,
    at: Vec<[u64; 4]>,
    sum: Vec<[u64; 4]>,
    sumsq: Vec<[u64; 4]>,
}

impl Tally {
    fn new(n: usize) -> Tally {
        Tally {
            seen: vec![0; n],
            at: vec![[0; 4]; n],
            sum: vec![[0; 4]; n],
            sumsq: vec![[0; 4]; n],
        }
    }

    fn merge(mut self, o: Tally) -> Tally {
        for i in 0..self.seen.len() {
            self.seen[i] += o.seen[i];
            for p in 0..4 {
                self.at[i][p] += o.at[i][p];
                self.sum[i][p] += o.sum[i][p];
                self.sumsq[i][p] += o.sumsq[i][p];
            }
        }
        self
    }
}

/// Precomputed lookups that make a deal a handful of table reads.
struct Kernel {
    /// Rank index of each card.
    rank: [u8; 40],
    /// Jugada index by the four ranks in deal order: `r0*1000 + r1*100 + r2*10 + r3`.
    index: Vec<u16>,
    grande: Vec<u32>,
    chica: Vec<u32>,
    pares: Vec<u32>,
    cuarto: Vec<u32>,
    pares_cuenta: Vec<u8>,
    juego_cuenta: Vec<u8>,
    has_juego: Vec<bool>,
}

impl Kernel {
    fn new(cat: &Catalog) -> Kernel {
        let mut rank = [0u8; 40];
        for c in Card::all() {
            rank[c.index()] = Rank::of(c, cat.mode) as u8;
        }
        let mut index = vec![0u16; 10_000];
        for r0 in 0..10 {
            for r1 in 0..10 {
                for r2 in 0..10 {
                    for r3 in 0..10 {
                        let mut k = [r0, r1, r2, r3];
                        k.sort_unstable_by(|a, b| b.cmp(a));
                        let j = cat
                            .entries
                            .iter()
                            .position(|e| e.jugada.ranks().map(|r| r as usize) == k);
                        index[r0 * 1000 + r1 * 100 + r2 * 10 + r3] = j.unwrap_or(0) as u16;
                    }
                }
            }
        }
        let col = |f: &dyn Fn(&crate::catalog::Entry) -> u32| {
            cat.entries.iter().map(f).collect::<Vec<u32>>()
        };
        Kernel {
            rank,
            index,
            grande: col(&|e| e.grande),
            chica: col(&|e| e.chica),
            pares: col(&|e| e.pares),
            cuarto: col(&|e| e.cuarto),
            pares_cuenta: cat.entries.iter().map(|e| e.pares_cuenta).collect(),
            juego_cuenta: cat.entries.iter().map(|e| e.juego_cuenta).collect(),
            has_juego: cat.entries.iter().map(|e| e.has_juego()).collect(),
        }
    }

    /// Deals four hands (mano first) and returns their jugada indices.
    #[inline]
    fn deal(&self, rng: &mut ChaCha8Rng, deck: &mut [u8; 40]) -> [usize; 4] {
        // Partial Fisher–Yates: the last 16 places become the four hands.
        for i in 0..16 {
            let top = 39 - i;
            let j = (rng.next_u32_bounded(top as u32 + 1)) as usize;
            deck.swap(top, j);
        }
        let r = |k: usize| self.rank[deck[k] as usize] as usize;
        [0, 1, 2, 3].map(|h| {
            let b = 24 + 4 * h;
            self.index[r(b) * 1000 + r(b + 1) * 100 + r(b + 2) * 10 + r(b + 3)] as usize
        })
    }

    /// Piedras each pair (0: positions 0 and 2) collects when every lance goes en paso.
    #[inline]
    fn en_paso(&self, j: [usize; 4]) -> [u64; 2] {
        let best = |key: &Vec<u32>| {
            let mut w = 0;
            for p in 1..4 {
                if key[j[p]] > key[j[w]] {
                    w = p;
                }
            }
            w
        };
        let mut won = [0u64; 2];
        won[best(&self.grande) % 2] += 1;
        won[best(&self.chica) % 2] += 1;
        let pw = best(&self.pares);
        if self.pares[j[pw]] > 0 {
            let pair = pw % 2;
            won[pair] += (self.pares_cuenta[j[pair]] + self.pares_cuenta[j[pair + 2]]) as u64;
        }
        let cw = best(&self.cuarto);
        let pair = cw % 2;
        if self.has_juego[j[cw]] {
            won[pair] += (self.juego_cuenta[j[pair]] + self.juego_cuenta[j[pair + 2]]) as u64;
        } else {
            won[pair] += 1;
        }
        won
    }
}

trait BoundedU32 {
    fn next_u32_bounded(&mut self, bound: u32) -> u32;
}

impl BoundedU32 for ChaCha8Rng {
    /// Uniform in `0..bound` without modulo bias (Lemire's multiply-and-reject).
    #[inline]
    fn next_u32_bounded(&mut self, bound: u32) -> u32 {
        loop {
            let m = (self.gen::<u32>() as u64) * bound as u64;
            let low = m as u32;
            if low >= bound || low >= bound.wrapping_neg() % bound {
                return (m >> 32) as u32;
            }
        }
    }
}

/// One jugada's line of the simulation table.
#[derive(Clone, Debug, Serialize)]
pub struct JugadaStats {
    pub jugada: String,
    /// Observed frequency over all dealt hands (4 per deal).
    pub observed: f64,
    /// Exact probability of being dealt it.
    pub exact: f64,
    /// |observed − exact| / exact.
    pub relative_error: f64,
    /// Per position (0 = mano): average piedras won en paso by the holder's pair, and the
    /// 95% confidence interval of that mean; `None` where it never occurred.
    pub gain: [Option<Gain>; 4],
}

/// A mean with its 95% confidence interval.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Gain {
    pub mean: f64,
    pub ci95: [f64; 2],
    pub n: u64,
}

/// The whole simulation result.
#[derive(Clone, Debug, Serialize)]
pub struct Simulation {
    pub mode: Mode,
    pub deals: u64,
    pub seed: u64,
    pub jugadas: Vec<JugadaStats>,
}

/// Deals `deals` random deals (rounded up to whole chunks of [`CHUNK`]) from `seed`;
/// `gains` also plays each deal en paso; `progress(done)` is called after each chunk.
pub fn simulate(
    cat: &Catalog,
    deals: u64,
    seed: u64,
    gains: bool,
    progress: &(dyn Fn(u64) + Sync),
) -> Simulation {
    let k = Kernel::new(cat);
    let n = cat.entries.len();
    let chunks = deals.div_ceil(CHUNK).max(1);
    let tally = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            rng.set_stream(c);
            let mut t = Tally::new(n);
            let mut deck: [u8; 40] = std::array::from_fn(|i| i as u8);
            let count = CHUNK.min(deals.saturating_sub(c * CHUNK));
            for _ in 0..count {
                let j = k.deal(&mut rng, &mut deck);
                for &i in &j {
                    t.seen[i] += 1;
                }
                if gains {
                    let won = k.en_paso(j);
                    for p in 0..4 {
                        let g = won[p % 2];
                        t.at[j[p]][p] += 1;
                        t.sum[j[p]][p] += g;
                        t.sumsq[j[p]][p] += g * g;
                    }
                }
            }
            progress(count);
            t
        })
        .reduce(|| Tally::new(n), Tally::merge);
    let dealt: u64 = tally.seen.iter().sum();
    let deck = cat.full_deck();
    let total = tapete_cards::binomial(40, 4) as f64;
    let jugadas = cat
        .entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let exact = e.weight(&deck) as f64 / total;
            let observed = if dealt == 0 {
                0.0
            } else {
                tally.seen[i] as f64 / dealt as f64
            };
            let gain = [0, 1, 2, 3].map(|p| {
                let m = tally.at[i][p];
                (gains && m > 0).then(|| {
                    let mean = tally.sum[i][p] as f64 / m as f64;
                    let var = if m > 1 {
                        (tally.sumsq[i][p] as f64 - m as f64 * mean * mean) / (m - 1) as f64
                    } else {
                        0.0
                    };
                    let half = 1.96 * (var.max(0.0) / m as f64).sqrt();
                    Gain {
                        mean,
                        ci95: [mean - half, mean + half],
                        n: m,
                    }
                })
            });
            JugadaStats {
                jugada: e.jugada.to_string(),
                observed,
                exact,
                relative_error: (observed - exact).abs() / exact,
                gain,
            }
        })
        .collect();
    Simulation {
        mode: cat.mode,
        deals: dealt / 4,
        seed,
        jugadas,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frequencies_converge_and_do_not_depend_on_threads() {
        let cat = Catalog::new(Mode::OchoReyes, false);
        let a = simulate(&cat, 400_000, 3, true, &|_| {});
        assert_eq!(a.deals, 400_000);
        let sum: f64 = a.jugadas.iter().map(|j| j.observed).sum();
        assert!((sum - 1.0).abs() < 1e-9);
        // Common jugadas land within a few percent of their exact probability.
        for j in &a.jugadas {
            if j.exact > 0.005 {
                assert!(
                    j.relative_error < 0.05,
                    "{} off by {}",
                    j.jugada,
                    j.relative_error
                );
            }
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let b = pool.install(|| simulate(&cat, 400_000, 3, true, &|_| {}));
        for (x, y) in a.jugadas.iter().zip(&b.jugadas) {
            assert_eq!(x.observed, y.observed);
        }
        // RRRR at mano wins grande, pares (duples de reyes) and has juego (40): its pair
        // collects at least 1 + 3 + 2 en paso on average.
        let rrrr = a.jugadas.iter().find(|j| j.jugada == "RRRR").unwrap();
        assert!(rrrr.gain[0].unwrap().mean >= 6.0);
    }
}
