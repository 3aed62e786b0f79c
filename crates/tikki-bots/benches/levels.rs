//! How long experto takes to decide.
//!
//! - Before the benchmarks, experto (default budget) plays three whole games against two
//!   basicos and the median and longest of its decisions with a choice are printed.
//! - `experto at the default budget`: a lay early in a round (a full hand, nothing laid
//!   yet) and one after two players have laid, each a whole search.
//! - `basico/experto's positions`: the engine's greedy player on every position experto
//!   decided, for scale (the throughput is decisions per second).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Instant;
use tapete_table::{Bot, Game};
use tapete_tikki::bots::Basico;
use tapete_tikki::{Action, Phase, TikkiGame, TikkiRules, TikkiView};
use tapete_tikki_bots::Experto;

/// Experto's thinking time per decision with a choice over one game against two basicos
/// (experto in seat `seed % 3`), in ms, with the positions it decided.
fn experto_game(seed: u64) -> (Vec<f64>, Vec<(TikkiView, Vec<Action>)>) {
    let mut g = TikkiGame::new(&TikkiRules::default(), 3, seed).unwrap();
    let me = (seed % 3) as usize;
    let mut experto = Experto::default();
    let mut basico = Basico;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut times, mut positions) = (Vec::new(), Vec::new());
    while g.phase() != Phase::Over {
        let seat = g.to_act().seats()[0];
        let legal = g.legal_actions(seat);
        let view = g.view(seat);
        let a = if seat == me && legal.len() > 1 {
            let t = Instant::now();
            let a = experto.act(&view, &legal, &mut rng);
            times.push(t.elapsed().as_secs_f64() * 1000.0);
            positions.push((view, legal));
            a
        } else {
            basico.act(&view, &legal, &mut rng)
        };
        g.apply(seat, &a).unwrap();
    }
    (times, positions)
}

fn bench(c: &mut Criterion) {
    let mut times = Vec::new();
    let mut positions = Vec::new();
    for seed in 1..=3 {
        let (t, p) = experto_game(seed);
        times.extend(t);
        positions.extend(p);
    }
    times.sort_by(f64::total_cmp);
    if let Some(max) = times.last() {
        eprintln!(
            "experto (default budget) over three games against two basicos: {} decisions, \
             median {:.2} ms, max {:.2} ms",
            times.len(),
            times[times.len() / 2],
            max
        );
    }
    let lead = positions
        .iter()
        .find(|(v, _)| v.hand.len() == 7 && v.laid_counts.iter().all(|&n| n == 0));
    let last = positions
        .iter()
        .find(|(v, _)| v.hand.len() == 7 && v.laid_counts.iter().filter(|&&n| n > 0).count() == 2);
    let mut g = c.benchmark_group("experto at the default budget");
    g.sample_size(20);
    for (name, pick) in [("leading", lead), ("laying last", last)] {
        let Some((view, legal)) = pick else {
            continue;
        };
        g.bench_function(name, |b| {
            let mut bot = Experto::default();
            let mut rng = ChaCha8Rng::seed_from_u64(0);
            b.iter(|| black_box(bot.act(black_box(view), legal, &mut rng)))
        });
    }
    g.finish();
    let mut g = c.benchmark_group("basico");
    g.throughput(Throughput::Elements(positions.len() as u64));
    g.bench_function("experto's positions", |b| {
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        b.iter(|| {
            for (view, legal) in &positions {
                black_box(Basico.act(black_box(view), legal, &mut rng));
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
