//! Measures how well the review's luck-adjusted result tells two players apart, against
//! the raw results (docs/review.md has the results).
//!
//! Plays games of one juego to 40 between experto and avanzado (experto at seats 0 and 2
//! in even games, 1 and 3 in odd ones), reviews every seat, and for each game takes the
//! raw difference (experto's pair's result less avanzado's: +100 or −100) and the
//! luck-adjusted one (each pair's skill, the sum of its two seats' skill, experto's less
//! avanzado's: the result with every hand's luck taken out). Prints one JSON line per game,
//! then the mean and standard deviation of both and the games each needs to separate the
//! players at 95% (`(1.96·sd/mean)²`).
//!
//! `cargo run --release -p tapete-mus-bots --example luck -- GAMES [FIRST_SEED] [MAX_WORLDS]`

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use tapete_mus::{MusGame, MusRules};
use tapete_mus_bots::review::MusReviewer;
use tapete_review::{review, Settings};
use tapete_table::{play_out, Bot, Game, Record};

fn stats(v: &[f64]) -> (f64, f64) {
    let n = v.len().max(2) as f64;
    let m = v.iter().sum::<f64>() / n;
    let var = v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0);
    (m, var.sqrt())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(10);
    let first: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let max_worlds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(384);
    let rules = MusRules {
        juegos: 1,
        vacas: 1,
        ..MusRules::default()
    };
    let settings = Settings {
        max_worlds,
        ..Settings::default()
    };
    let (mut raw, mut adjusted) = (Vec::new(), Vec::new());
    for seed in first..first + games {
        let experto = (seed % 2) as usize;
        let mut g = MusGame::new(&rules, 4, seed).expect("rules");
        let mut rec = Record::new(rules.clone(), 4, seed);
        let mut bots: Vec<Box<dyn Bot<MusGame>>> = (0..4)
            .map(|s| {
                tapete_mus_bots::by_name(if s % 2 == experto { "experto" } else { "avanzado" })
            })
            .collect::<Result<_, _>>()
            .expect("levels");
        play_out(&mut g, &mut bots, &mut ChaCha8Rng::seed_from_u64(seed), &mut rec, 100_000, |_, _, _, _| {})
            .expect("the game plays");
        let reviews: Vec<_> = (0..4)
            .map(|s| review(&MusReviewer, &rec, s, &settings, &|_, _| {}).expect("review"))
            .collect();
        let pair = |p: usize| reviews.iter().filter(|r| r.seat % 2 == p).map(|r| r.skill).sum::<f64>();
        let d_raw = reviews[experto].result - reviews[1 - experto].result;
        let d_adj = pair(experto) - pair(1 - experto);
        println!("{}", json!({"seed": seed, "raw": d_raw, "adjusted": d_adj}));
        raw.push(d_raw);
        adjusted.push(d_adj);
    }
    let need = |(m, sd): (f64, f64)| (1.96 * sd / m).powi(2).ceil();
    let (r, a) = (stats(&raw), stats(&adjusted));
    println!(
        "{}",
        json!({
            "games": games,
            "raw": {"mean": r.0, "sd": r.1, "games_for_95": need(r)},
            "adjusted": {"mean": a.0, "sd": a.1, "games_for_95": need(a)},
        })
    );
}
