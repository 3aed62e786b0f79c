//! maestro's time per decision: a decision at a 50 ms budget (it should take about that,
//! well under 150 ms), and a forced decision (one legal action: no search, microseconds).
//! Before them, maestro at its default budget plays five whole games (one juego each) with
//! its partner against two experto, and the median and longest of its decisions with a
//! choice are printed.

use criterion::{criterion_group, criterion_main, Criterion};
use std::time::{Duration, Instant};
use tapete_cards::{rng_from_seed, CardSet};
use tapete_mus::{Action, MusGame, MusRules};
use tapete_mus_bots::maestro::Policy;
use tapete_mus_bots::{Experto, Maestro};
use tapete_table::{Bot, Game};

fn set(s: &str) -> CardSet {
    s.split(' ').map(|c| c.parse().unwrap()).collect()
}

/// maestro's thinking time, in ms, at every decision with a choice of one game in which
/// seats 0 and 2 are maestro (default budget) and 1 and 3 experto.
fn maestro_game(seed: u64) -> Vec<f64> {
    let rules = MusRules {
        juegos: 1,
        vacas: 1,
        ..Default::default()
    };
    let mut g = MusGame::new(&rules, 4, seed).unwrap();
    let mut maestros = [Maestro::default(), Maestro::default()];
    let mut experto = Experto::default();
    let mut rng = rng_from_seed(seed);
    let mut times = Vec::new();
    while g.outcome().is_none() {
        let seat = g.to_act().seats()[0];
        let legal = g.legal_actions(seat);
        let view = g.view(seat);
        let a = if seat.is_multiple_of(2) {
            let t = Instant::now();
            let a = maestros[seat / 2].act(&view, &legal, &mut rng);
            if legal.len() > 1 {
                times.push(t.elapsed().as_secs_f64() * 1000.0);
            }
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
            "maestro (default budget) over five games against experto: {} decisions with a choice, median {:.1} ms, max {:.1} ms",
            times.len(),
            times[times.len() / 2],
            max
        );
    }
    let cards = [
        set("12o 11b 4c 1e"),
        set("12b 10c 5e 6o"),
        set("3o 7b 7c 1o"),
        set("11o 4e 5b 6c"),
    ];
    let mut g = MusGame::from_deal(MusRules::default(), cards, 0, [0, 0], 9).unwrap();
    g.apply(0, &Action::NoHayMus).unwrap();
    let legal = g.legal_actions(0);
    let view = g.view(0);
    let mut group = c.benchmark_group("maestro");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    let mut bot = Maestro::new(50);
    bot.rollout = Policy::by_name("experto").unwrap();
    let mut rng = rng_from_seed(4);
    group.bench_function("decision at ms=50", |b| {
        b.iter(|| bot.act(&view, &legal, &mut rng))
    });
    let only = vec![legal[0].clone()];
    let mut forced = Maestro::new(1000);
    group.bench_function("forced decision", |b| {
        b.iter(|| forced.act(&view, &only, &mut rng))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
