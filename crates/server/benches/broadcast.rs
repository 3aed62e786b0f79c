//! What a table does per action besides storage: apply it (narrating it to every
//! audience), then make each seat's state (view as JSON text, narration, legal actions).
//! Measured over a whole random Mus match, against the baseline of applying the same
//! actions alone.

use criterion::{criterion_group, criterion_main, Criterion};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use std::sync::Arc;
use tapete_server::{Kind, TableGame};

/// Work done after each action; answers a size so it is not optimized away.
type AfterAction = dyn Fn(&dyn TableGame) -> usize;

fn mus() -> Arc<dyn Kind> {
    tapete_catalog::kinds()
        .into_iter()
        .find(|k| k.name() == "mus")
        .expect("the catalog has mus")
}

fn random_match(kind: &dyn Kind, seed: u64) -> Vec<(usize, String)> {
    let mut g = kind
        .new_game(&json!({}), kind.default_seats(), seed)
        .unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut log = Vec::new();
    while let Some(&seat) = g.to_act().first() {
        let legal = g.legal(seat);
        let a = legal[rng.gen_range(0..legal.len())].clone();
        g.apply(seat, &a).unwrap();
        log.push((seat, a));
    }
    log
}

fn bench(c: &mut Criterion) {
    let kind = mus();
    let seats = kind.default_seats();
    let log = random_match(&*kind, 7);
    {
        let mut g = kind.new_game(&json!({}), seats, 7).unwrap();
        let (mut vb, mut lb, mut ln) = (0, 0, 0);
        for (seat, a) in &log {
            g.apply(*seat, a).unwrap();
            let (view, lines) = (g.view_text(Some(0)), g.lines(None));
            vb += view.len();
            lb += json!(lines).to_string().len();
            ln += lines.len();
        }
        let k = log.len();
        eprintln!(
            "per state: view {} bytes, lines {} bytes ({} lines)",
            vb / k,
            lb / k,
            ln / k
        );
    }
    let mut group = c.benchmark_group(format!("match of {} actions", log.len()));
    group.sample_size(20);
    // Each case replays the whole match and, after every action, does `after` (which
    // answers a size so the work is not optimized away).
    let cases: [(&str, &AfterAction); 5] = [
        ("apply only (baseline)", &|_| 0),
        ("apply + four seats' states (what a table sends)", &|g| {
            let mut bytes = json!(g.lines(None)).to_string().len();
            for s in 0..g.seats() {
                bytes += g.view_text(Some(s)).len() + json!(g.legal(s)).to_string().len();
            }
            bytes
        }),
        ("apply + four views through a JSON tree (slower)", &|g| {
            (0..g.seats())
                .map(|s| g.view(Some(s)).to_string().len())
                .sum()
        }),
        ("apply + four narrations, one per seat", &|g| {
            (0..g.seats()).map(|s| g.lines(Some(s)).len()).sum()
        }),
        ("apply + four legal lists", &|g| {
            (0..g.seats()).map(|s| g.legal(s).len()).sum()
        }),
    ];
    for (name, after) in cases {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut g = kind.new_game(&json!({}), seats, 7).unwrap();
                let mut total = 0;
                for (seat, a) in &log {
                    g.apply(*seat, a).unwrap();
                    total += after(&*g);
                }
                total
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
