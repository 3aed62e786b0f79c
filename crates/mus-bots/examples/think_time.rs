//! How long a player thinks per decision: player A against player B over one-juego games
//! (A's pair alternating seats), every decision of A with more than one legal action timed
//! on one thread. Prints the count, the median, the 90th and 99th percentiles and the
//! longest, in milliseconds.
//!
//! ```text
//! cargo run --release -p tapete-mus-bots --example think_time -- maestro umbral:tight 20
//! ```

use std::time::Instant;
use tapete_cards::rng_from_seed;
use tapete_mus::{MusGame, MusRules};
use tapete_mus_bots::by_name;
use tapete_table::Game;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let a = args.first().map_or("maestro", String::as_str);
    let b = args.get(1).map_or("experto", String::as_str);
    let games: u64 = match args.get(2) {
        Some(n) => n
            .parse()
            .map_err(|_| format!("{n}: not a number of games"))?,
        None => 20,
    };
    let rules = MusRules {
        juegos: 1,
        vacas: 1,
        ..Default::default()
    };
    let mut ms: Vec<f64> = Vec::new();
    for seed in 0..games {
        let a_pair = (seed % 2) as usize;
        let mut g = MusGame::new(&rules, 4, seed).map_err(|e| e.to_string())?;
        let mut bots = (0..4)
            .map(|s| by_name(if s % 2 == a_pair { a } else { b }))
            .collect::<Result<Vec<_>, _>>()?;
        let mut rng = rng_from_seed(seed);
        while g.outcome().is_none() {
            let Some(&seat) = g.to_act().seats().first() else {
                break;
            };
            let legal = g.legal_actions(seat);
            let start = Instant::now();
            let act = bots[seat].act(&g.view(seat), &legal, &mut rng);
            if seat % 2 == a_pair && legal.len() > 1 {
                ms.push(start.elapsed().as_secs_f64() * 1000.0);
            }
            g.apply(seat, &act).map_err(|e| e.to_string())?;
        }
    }
    if ms.is_empty() {
        return Err("no decision was timed".into());
    }
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms[((ms.len() - 1) as f64 * q).round() as usize];
    println!("{a} against {b}, {games} games: {} decisions", ms.len());
    println!(
        "ms per decision: median {:.1}, p90 {:.1}, p99 {:.1}, max {:.1}",
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0)
    );
    Ok(())
}
