//! Prisoner's solitaire odds: the exact win probability of the classic game (4 suits × 13
//! values, 13 cards on the table, 13 picked; target well under 10 ms), beside a baseline
//! in the same run.
//!
//! The baseline answers the same question without table types: it walks every table as a
//! vector of per-value counts (3,598,180 of them for 13 cards), depth-first so tables
//! sharing their first values share the product of their factors, with machine `u128`
//! arithmetic, which fits for this deck. It is what the types buy: 39 shapes instead of
//! millions of count vectors, even paying for big integers. Both give the same count of
//! winning (table, pick) pairs, checked before timing.
//!
//! The per-type breakdown and the distribution of what is left are timed too.

use criterion::{criterion_group, criterion_main, Criterion};
use std::time::Duration;
use tapete_solitaire_odds::{distribution, types, win_count, win_probability, Params};

/// `C(n, k)` in `u128` (small arguments only).
fn binomial(n: u32, k: u32) -> u128 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u128, |c, i| c * u128::from(n - i) / u128::from(i + 1))
}

/// The baseline: winning (table, pick) pairs summed over every per-value count vector.
struct Naive {
    suits: u32,
    values: u32,
    pick: usize,
    /// `factor[c]`: the generating polynomial of one value with `c` on the table, cut at
    /// degree `pick`: `(1+z)^suits` for `c = 0`, `(1+z)^(suits−c) − 1` otherwise.
    factor: Vec<Vec<u128>>,
    /// `C(suits, c)`: the suits of a value with `c` on the table.
    suits_of: Vec<u128>,
}

impl Naive {
    fn new(p: &Params) -> Naive {
        let pick = p.pick as usize;
        let factor = (0..=p.suits)
            .map(|c| {
                let mut f: Vec<u128> = (0..=pick as u32)
                    .map(|i| binomial(p.suits - c, i))
                    .collect();
                if c > 0 {
                    f[0] = 0;
                }
                f
            })
            .collect();
        Naive {
            suits: p.suits,
            values: p.values,
            pick,
            factor,
            suits_of: (0..=p.suits).map(|c| binomial(p.suits, c)).collect(),
        }
    }

    fn count(&self, board: u32) -> u128 {
        let mut a = vec![0u128; self.pick + 1];
        a[0] = 1;
        self.walk(0, board, 1, &a)
    }

    /// Values `value..` still to get their counts, `rest` table cards still to place.
    fn walk(&self, value: u32, rest: u32, ways: u128, a: &[u128]) -> u128 {
        if value == self.values {
            return if rest == 0 { ways * a[self.pick] } else { 0 };
        }
        if rest > self.suits * (self.values - value) {
            return 0;
        }
        let mut sum = 0;
        for c in 0..=self.suits.min(rest) {
            let f = &self.factor[c as usize];
            let mut b = vec![0u128; a.len()];
            for (j, &x) in a.iter().enumerate() {
                if x == 0 {
                    continue;
                }
                for (i, &y) in f.iter().enumerate().take(a.len() - j) {
                    b[j + i] += x * y;
                }
            }
            sum += self.walk(value + 1, rest - c, ways * self.suits_of[c as usize], &b);
        }
        sum
    }
}

fn bench(c: &mut Criterion) {
    let p = Params::default();
    let ours = win_count(&p).unwrap();
    let naive = Naive::new(&p);
    assert_eq!(
        ours.winning,
        naive.count(p.board).into(),
        "the baseline and the types disagree"
    );

    let mut g = c.benchmark_group("solitaire 4x13, 13 + 13");
    g.sample_size(20).measurement_time(Duration::from_secs(3));
    g.bench_function("exact by types (big integers)", |b| {
        b.iter(|| win_probability(&p).unwrap())
    });
    g.bench_function("per-type breakdown", |b| b.iter(|| types(&p).unwrap()));
    g.bench_function("distribution left", |b| {
        b.iter(|| distribution(&p).unwrap())
    });
    g.finish();

    let mut g = c.benchmark_group("solitaire 4x13, 13 + 13, baseline");
    g.sample_size(10).measurement_time(Duration::from_secs(12));
    g.bench_function("every count vector (u128)", |b| {
        b.iter(|| naive.count(p.board))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
