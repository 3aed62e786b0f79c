//! maestro's time per decision: a decision at a 50 ms budget (it should take about that,
//! well under 150 ms), and a forced decision (one legal action: no search, microseconds).

use criterion::{criterion_group, criterion_main, Criterion};
use std::time::Duration;
use tapete_cards::{rng_from_seed, CardSet};
use tapete_mus::{Action, MusGame, MusRules};
use tapete_mus_bots::maestro::Policy;
use tapete_mus_bots::Maestro;
use tapete_table::{Bot, Game};

fn set(s: &str) -> CardSet {
    s.split(' ').map(|c| c.parse().unwrap()).collect()
}

fn bench(c: &mut Criterion) {
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
