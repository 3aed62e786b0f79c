//! 8-card analyses per second (every discard, its deadwood and close, the best discard):
//! the solver against the brute force over every partition, on the same random hands.
//! Criterion reports the throughput in hands (elements) per second.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use tapete_cards::rng_from_seed;
use tapete_chinchon::brute;
use tapete_chinchon::card::{Card, DeckSize};
use tapete_chinchon::meld::Solver;
use tapete_chinchon::ChinchonRules;

/// `count` random 8-card hands from the deck of `rules` (two decks when `decks` is 2).
fn hands(rules: &ChinchonRules, decks: u8, count: usize) -> Vec<[Card; 8]> {
    let spec = rules.deck.spec(rules.jokers, decks);
    let mut rng = rng_from_seed(5);
    (0..count)
        .map(|_| {
            let deck = spec.shuffled(&mut rng);
            let mut h = [Card::JOKER; 8];
            h.copy_from_slice(&deck[..8]);
            h
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let cases = [
        ("40 cards", ChinchonRules::default(), 1u8),
        (
            "48 cards, 2 jokers, 2 decks",
            ChinchonRules {
                deck: DeckSize::FortyEight,
                jokers: 2,
                ..ChinchonRules::default()
            },
            2,
        ),
    ];
    for (name, rules, decks) in cases {
        let hs = hands(&rules, decks, 1000);
        let solver = Solver::new(&rules);
        let mut g = c.benchmark_group(format!("8-card analysis, {name}"));
        g.throughput(Throughput::Elements(hs.len() as u64));
        g.bench_function("solver", |b| {
            b.iter(|| {
                let mut acc = 0u32;
                for h in &hs {
                    let a = solver.analyze(black_box(h)).unwrap();
                    acc += a.deadwood() as u32 + a.best_discard().map_or(0, |d| d.deadwood as u32);
                }
                acc
            })
        });
        g.sample_size(10);
        let few = &hs[..100];
        g.throughput(Throughput::Elements(few.len() as u64));
        g.bench_function("brute force", |b| {
            b.iter(|| {
                let mut acc = 0u32;
                for h in few {
                    let d = brute::discards(black_box(h), &rules);
                    acc += d.iter().map(|d| d.deadwood as u32).min().unwrap_or(0);
                }
                acc
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
