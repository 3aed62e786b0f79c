//! The review's time: one seat's review of a Mus game of one juego to 40, and of a vaca
//! (best of three juegos), on one thread with the default settings. The games are played
//! by experto at every seat from fixed seeds.

use criterion::{criterion_group, criterion_main, Criterion};
use std::time::Duration;
use tapete_cards::rng_from_seed;
use tapete_mus::{MusGame, MusRules};
use tapete_mus_bots::review::MusReviewer;
use tapete_review::{review, Settings};
use tapete_table::{play_out, Bot, Game, Record};

fn game(juegos: u8, seed: u64) -> Record<MusGame> {
    let rules = MusRules {
        juegos,
        vacas: 1,
        ..Default::default()
    };
    let mut g = MusGame::new(&rules, 4, seed).unwrap();
    let mut rec = Record::new(rules, 4, seed);
    let mut bots: Vec<Box<dyn Bot<MusGame>>> = (0..4)
        .map(|_| tapete_mus_bots::by_name("experto").unwrap())
        .collect();
    play_out(&mut g, &mut bots, &mut rng_from_seed(seed), &mut rec, 100_000, |_, _, _, _| {})
        .unwrap();
    rec
}

fn bench(c: &mut Criterion) {
    let settings = Settings::default();
    let mut group = c.benchmark_group("review");
    group.sample_size(10).measurement_time(Duration::from_secs(60));
    let juego = game(1, 1);
    group.bench_function("mus_juego_to_40_one_seat", |b| {
        b.iter(|| review(&MusReviewer, &juego, 0, &settings, &|_, _| {}).unwrap())
    });
    let vaca = game(3, 2);
    group.bench_function("mus_vaca_one_seat", |b| {
        b.iter(|| review(&MusReviewer, &vaca, 0, &settings, &|_, _| {}).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
