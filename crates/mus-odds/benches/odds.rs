//! Speed of the exact odds, each beside a straightforward baseline measured in the same run:
//! - two known hands (all positions, all lances): ours vs every opponent jugada pair resolved
//!   by the engine's showdown (`Evaluation`);
//! - one known hand: ours vs summing 330 two-known computations, one per partner jugada;
//! - the deal simulation's frequency table: ours vs a full shuffle per deal and a jugada
//!   lookup through the engine's types.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use rand::seq::SliceRandom;
use std::collections::HashMap;
use tapete_cards::{rng_from_seed, Card};
use tapete_mus::eval::Evaluation;
use tapete_mus::{Jugada, Mode};
use tapete_mus_odds::catalog::{minus, Catalog};
use tapete_mus_odds::leyes::{exact, exact_from_deck, Conditions, Declared};

fn j(s: &str) -> Jugada {
    Jugada::parse(s, Mode::OchoReyes).unwrap()
}

/// Baseline: every (next, prev) jugada pair, weighted, resolved by `Evaluation` at each
/// position; returns the weighted grande wins at mano to keep the work observable.
fn two_known_baseline(cat: &Catalog, h: Jugada, p: Jugada) -> u128 {
    let deck = cat.deck_without(&[h, p]).unwrap();
    let mut wins = 0u128;
    for a in &cat.entries {
        if !a.fits(&deck) {
            continue;
        }
        let wa = a.weight(&deck);
        let d1 = minus(&deck, a);
        for b in &cat.entries {
            if !b.fits(&d1) {
                continue;
            }
            let w = (wa * b.weight(&d1)) as u128;
            for pos in 0..4 {
                let mut hands = [h; 4];
                hands[(pos + 1) % 4] = a.jugada;
                hands[(pos + 2) % 4] = p;
                hands[(pos + 3) % 4] = b.jugada;
                let e = Evaluation::new(hands, false);
                if e.grande % 2 == pos % 2 {
                    wins += w;
                }
                black_box(&e);
            }
        }
    }
    wins
}

/// Baseline: one known hand as 330 two-known computations, weighted by the partner's jugada.
fn one_known_baseline(cat: &Catalog, h: Jugada) -> u128 {
    let deck = cat.deck_without(&[h]).unwrap();
    let mut total = 0u128;
    for x in &cat.entries {
        if !x.fits(&deck) {
            continue;
        }
        let rest = minus(&deck, x);
        if let Ok(e) = exact_from_deck(cat, h, Some(x.jugada), &rest, &Conditions::default()) {
            total += x.weight(&deck) as u128 * e.positions[0].grande;
        }
    }
    total
}

fn leyes(c: &mut Criterion) {
    let cat = Catalog::new(Mode::OchoReyes, false);
    let (h, p) = (j("RRCA"), j("RC7A"));
    let none = Conditions::default();
    let mut cond = Conditions::default();
    cond.pares[0] = Declared::Yes;
    cond.juego[2] = Declared::No;

    let mut g = c.benchmark_group("two known hands");
    g.bench_function("tapete", |b| {
        b.iter(|| exact(&cat, black_box(h), Some(p), &none).unwrap())
    });
    g.bench_function("tapete, conditioned", |b| {
        b.iter(|| exact(&cat, black_box(h), Some(p), &cond).unwrap())
    });
    g.bench_function("baseline: Evaluation per opponent pair", |b| {
        b.iter(|| two_known_baseline(&cat, black_box(h), p))
    });
    g.finish();

    let mut g = c.benchmark_group("one known hand");
    g.sample_size(20);
    g.bench_function("tapete", |b| {
        b.iter(|| exact(&cat, black_box(h), None, &none).unwrap())
    });
    g.bench_function("tapete, conditioned", |b| {
        b.iter(|| exact(&cat, black_box(h), None, &cond).unwrap())
    });
    g.bench_function("baseline: 330 two-known computations", |b| {
        b.iter(|| one_known_baseline(&cat, black_box(h)))
    });
    g.finish();

    let mut g = c.benchmark_group("all 330 hands");
    g.sample_size(10);
    g.bench_function("tapete", |b| {
        b.iter(|| tapete_mus_odds::report::all_hands(&cat, &none, &|| {}))
    });
    g.finish();
}

fn simulation(c: &mut Criterion) {
    let cat = Catalog::new(Mode::OchoReyes, false);
    let deals = 1u64 << 20;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let mut g = c.benchmark_group("simulate 2^20 deals, one core");
    g.sample_size(10);
    g.bench_function("tapete, frequency table", |b| {
        b.iter(|| {
            pool.install(|| tapete_mus_odds::simulate::simulate(&cat, deals, 1, false, &|_| {}))
        })
    });
    g.bench_function("tapete, with gains", |b| {
        b.iter(|| {
            pool.install(|| tapete_mus_odds::simulate::simulate(&cat, deals, 1, true, &|_| {}))
        })
    });
    let index: HashMap<Jugada, usize> = cat
        .entries
        .iter()
        .enumerate()
        .map(|(i, e)| (e.jugada, i))
        .collect();
    g.bench_function("baseline: full shuffle and Jugada lookup", |b| {
        b.iter(|| {
            let mut rng = rng_from_seed(1);
            let mut seen = vec![0u64; cat.entries.len()];
            let mut deck: Vec<Card> = Card::all().collect();
            for _ in 0..deals {
                deck.shuffle(&mut rng);
                for h in 0..4 {
                    let cards: [Card; 4] = [
                        deck[4 * h],
                        deck[4 * h + 1],
                        deck[4 * h + 2],
                        deck[4 * h + 3],
                    ];
                    seen[index[&Jugada::from_cards(&cards, Mode::OchoReyes)]] += 1;
                }
            }
            seen
        })
    });
    g.finish();
}

criterion_group!(benches, leyes, simulation);
criterion_main!(benches);
