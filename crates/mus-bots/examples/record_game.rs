//! Writes the record of one game of bots as JSON on stdout: a game to review or replay.
//!
//! `cargo run --release -p tapete-mus-bots --example record_game -- SEED [LEVEL or A/B] [TARGET] [JUEGOS]`

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tapete_mus::{MusGame, MusRules};
use tapete_table::{play_out, Bot, Game, Record};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seed: u64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(1);
    let level = args.get(1).map_or("experto", String::as_str);
    let rules = MusRules {
        target: args.get(2).and_then(|s| s.parse().ok()).unwrap_or(40),
        juegos: args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1),
        vacas: 1,
        ..MusRules::default()
    };
    let mut g = MusGame::new(&rules, 4, seed).expect("rules");
    let mut rec = Record::new(rules.clone(), 4, seed);
    // `A/B`: level A for seats 0 and 2, B for 1 and 3.
    let (a, b) = level.split_once('/').unwrap_or((level, level));
    let mut bots: Vec<Box<dyn Bot<MusGame>>> = (0..4)
        .map(|s| tapete_mus_bots::by_name(if s % 2 == 0 { a } else { b }).expect("a level"))
        .collect();
    play_out(
        &mut g,
        &mut bots,
        &mut ChaCha8Rng::seed_from_u64(seed),
        &mut rec,
        100_000,
        |_, _, _, _| {},
    )
    .expect("the game plays");
    println!("{}", serde_json::to_string(&rec).expect("json"));
}
