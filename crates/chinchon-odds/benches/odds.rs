//! `tapete chinchon odds` speed: one, two and three draws ahead from a typical hand
//! (targets: 1 and 2 draws ≤ 100 ms, 3 draws ≤ 2 s).

use criterion::{criterion_group, criterion_main, Criterion};
use std::time::Duration;
use tapete_chinchon::{Card, ChinchonRules};
use tapete_chinchon_odds::{odds, Query};

fn query(draws: u8) -> Query {
    let cards = |s: &str| s.split(' ').map(|c| c.parse::<Card>().unwrap()).collect();
    Query {
        rules: ChinchonRules::default(),
        decks: 1,
        hand: cards("1o 2o 4o 7c 7e 11b 5b"),
        seen: cards("3c 12e 6o"),
        draws,
    }
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("odds");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    for k in 1..=3u8 {
        let q = query(k);
        g.bench_function(format!("within {k}"), |b| b.iter(|| odds(&q).unwrap()));
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
