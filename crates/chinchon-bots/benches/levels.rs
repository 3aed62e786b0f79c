//! How long experto and maestro take to decide.
//!
//! - `experto per decision`: every decision with a choice in a few whole games of experto
//!   against itself, each decided again; the throughput is decisions per second.
//! - `maestro at the default budget`: a draw and a discard in the middle of a hand, each
//!   a whole search of `maestro` (1024 rollouts by default, at most a second).
//! - Before the benchmarks, maestro plays five whole games against experto and the median
//!   and longest of its decisions are printed.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};
use tapete_chinchon::{Action, ChinchonGame, ChinchonRules, ChinchonView, Phase};
use tapete_chinchon_bots::{Experto, Maestro};
use tapete_table::{Bot, Game};

/// Every decision with more than one legal action in `games` games of experto against
/// itself at a table of `seats`.
fn decisions(games: u64, seats: usize) -> Vec<(ChinchonView, Vec<Action>)> {
    let mut out = Vec::new();
    for seed in 0..games {
        let mut g = ChinchonGame::new(&ChinchonRules::default(), seats, seed).unwrap();
        let mut bot = Experto::default();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while g.phase() != Phase::Over {
            let seat = g.to_act().seats()[0];
            let legal = g.legal_actions(seat);
            let view = g.view(seat);
            let a = bot.act(&view, &legal, &mut rng);
            if legal.len() > 1 {
                out.push((view, legal));
            }
            g.apply(seat, &a).unwrap();
        }
    }
    out
}

/// Maestro's thinking time per decision over one game against experto, in ms.
fn maestro_game(seed: u64) -> Vec<f64> {
    let mut g = ChinchonGame::new(&ChinchonRules::default(), 2, seed).unwrap();
    let mut maestro = Maestro::default();
    let mut experto = Experto::default();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut times = Vec::new();
    while g.phase() != Phase::Over {
        let seat = g.to_act().seats()[0];
        let legal = g.legal_actions(seat);
        let view = g.view(seat);
        let a = if seat == 0 {
            let t = Instant::now();
            let a = maestro.act(&view, &legal, &mut rng);
            times.push(t.elapsed().as_secs_f64() * 1000.0);
            a
        } else {
            experto.act(&view, &legal, &mut rng)
        };
        g.apply(seat, &a).unwrap();
    }
    times
}

fn bench(c: &mut Criterion) {
    let mut times: Vec<f64> = (1..=5).flat_map(maestro_game).collect();
    times.sort_by(f64::total_cmp);
    if let (Some(max), false) = (times.last(), times.is_empty()) {
        eprintln!(
            "maestro (default budget) over five games against experto: {} decisions, median {:.1} ms, max {:.1} ms",
            times.len(),
            times[times.len() / 2],
            max
        );
    }

    let all = decisions(4, 2);
    let mut g = c.benchmark_group("experto per decision");
    g.throughput(Throughput::Elements(all.len() as u64));
    g.bench_function("2 players", |b| {
        let mut bot = Experto::default();
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        b.iter(|| {
            for (view, legal) in &all {
                black_box(bot.act(black_box(view), legal, &mut rng));
            }
        })
    });
    let four = decisions(2, 4);
    g.throughput(Throughput::Elements(four.len() as u64));
    g.bench_function("4 players", |b| {
        let mut bot = Experto::default();
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        b.iter(|| {
            for (view, legal) in &four {
                black_box(bot.act(black_box(view), legal, &mut rng));
            }
        })
    });
    g.finish();

    // A draw with a pile card worth considering and a discard, mid-hand.
    let picks: Vec<&(ChinchonView, Vec<Action>)> = [Phase::Draw, Phase::Discard]
        .iter()
        .filter_map(|&p| {
            all.iter()
                .filter(|(v, _)| v.phase == p && v.turns >= 6)
                .nth(3)
        })
        .collect();
    let mut g = c.benchmark_group("maestro at the default budget");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(8));
    for (view, legal) in picks {
        g.bench_function(format!("{:?}", view.phase).to_lowercase(), |b| {
            let mut bot = Maestro::default();
            let mut rng = ChaCha8Rng::seed_from_u64(0);
            b.iter(|| black_box(bot.act(black_box(view), legal, &mut rng)))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
