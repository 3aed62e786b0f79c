//! How long tikki's review takes to value one decision at the default settings.
//!
//! - Before the benchmarks, seat 0's decisions of one game of three basicos (default
//!   rules) are valued one after the other on one thread, and the median and longest
//!   decision are printed.
//! - `review at the default settings/first lay`: the review of a record that stops after
//!   seat 0's first lay of the game (127 options: a full hand), one decision valued.

use criterion::{criterion_group, criterion_main, Criterion};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tapete_review::Settings;
use tapete_table::{Bot, Game, Record};
use tapete_tikki::bots::Basico;
use tapete_tikki::{Phase, TikkiGame, TikkiRules};
use tapete_tikki_bots::review::{review, EquityTable};

/// A game of three basicos.
fn game(seed: u64) -> Record<TikkiGame> {
    let rules = TikkiRules::default();
    let mut g = TikkiGame::new(&rules, 3, seed).expect("a game");
    let mut record = Record::new(rules, 3, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    while g.phase() != Phase::Over {
        let seat = g.to_act().seats()[0];
        let legal = g.legal_actions(seat);
        let a = Basico.act(&g.view(seat), &legal, &mut rng);
        g.apply(seat, &a).expect("legal");
        record.actions.push((seat, a));
    }
    record
}

fn bench(c: &mut Criterion) {
    let record = game(11);
    let settings = Settings::default();
    // The equity table is measured once, before any timing.
    let _ = EquityTable::of(&record.rules, record.seats);
    let times = Mutex::new(Vec::new());
    let last = Mutex::new(Instant::now());
    let r = review(&record, 0, &settings, &|_, _| {
        let now = Instant::now();
        let mut last = last.lock().expect("lock");
        times
            .lock()
            .expect("lock")
            .push(now.duration_since(*last).as_secs_f64() * 1000.0);
        *last = now;
    })
    .expect("a review");
    let mut times = times.into_inner().expect("lock");
    times.sort_by(f64::total_cmp);
    if let Some(max) = times.last() {
        eprintln!(
            "seat 0 of a game of three basicos, default settings, one thread: {} decisions, \
             median {:.0} ms, max {:.0} ms",
            r.decisions.len(),
            times[times.len() / 2],
            max
        );
    }
    let first = record
        .actions
        .iter()
        .position(|(s, _)| *s == 0)
        .expect("seat 0 plays");
    let mut one = record.clone();
    one.actions.truncate(first + 1);
    let mut g = c.benchmark_group("review at the default settings");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    g.bench_function("first lay", |b| {
        b.iter(|| review(&one, 0, &settings, &|_, _| {}).expect("a review"))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
