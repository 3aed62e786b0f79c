//! What one hand of Chinchón adds to each player's score, measured: whole games of experto
//! at every seat (the rules' defaults), every hand counted: `--games N` games at two seats,
//! 2N/n at n seats. It prints the tables of `src/review/equity/points.rs` (`TWO`,
//! `TWO_CHINCHON`, `TWO_HANDS`, `MANY`), which the review's chance of winning from a score
//! is built from:
//!
//! - with two players still in, how many hands ended with the mano adding `a` points and
//!   the other `b`, and how many hands each of them won at once with a chinchón;
//! - with three to eight players still in, how many times a player added `a` points in a
//!   hand, and how many player-hands ended in that player's chinchón.
//!
//! ```text
//! cargo run --release -p tapete-chinchon-bots --example hand_points -- --games 1500
//! ```

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::collections::BTreeMap;
use tapete_chinchon::{ChinchonGame, ChinchonRules, Event, Phase};
use tapete_chinchon_bots::Experto;
use tapete_table::{Bot, Game};

/// What the hands of some games added.
#[derive(Default)]
struct Tally {
    /// Two players in: (mano's points, other's points) → hands.
    two: BTreeMap<(i32, i32), u64>,
    /// Two players in: hands won by the mano's chinchón, by the other's.
    two_chinchon: [u64; 2],
    /// By players in (3–8): points → player-hands.
    many: BTreeMap<usize, BTreeMap<i32, u64>>,
    /// By players in: player-hands ended by that player's chinchón.
    many_chinchon: BTreeMap<usize, u64>,
}

impl Tally {
    fn merge(mut self, o: Tally) -> Tally {
        for (k, v) in o.two {
            *self.two.entry(k).or_default() += v;
        }
        self.two_chinchon[0] += o.two_chinchon[0];
        self.two_chinchon[1] += o.two_chinchon[1];
        for (n, h) in o.many {
            let m = self.many.entry(n).or_default();
            for (k, v) in h {
                *m.entry(k).or_default() += v;
            }
        }
        for (n, v) in o.many_chinchon {
            *self.many_chinchon.entry(n).or_default() += v;
        }
        self
    }
}

/// One game of experto at every seat, its hands tallied.
fn game(seats: usize, seed: u64) -> Tally {
    let mut t = Tally::default();
    let mut g = ChinchonGame::new(&ChinchonRules::default(), seats, seed).expect("a table");
    let mut bot = Experto::default();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    while g.phase() != Phase::Over {
        let seat = g.turn();
        let legal = g.legal_actions(seat);
        let mano = g.mano();
        let view = g.view(seat);
        let alive = view.active().count();
        let a = if legal.len() == 1 {
            legal[0]
        } else {
            bot.act(&view, &legal, &mut rng)
        };
        let events = g.apply(seat, &a).expect("a legal action");
        for e in &events {
            match e {
                Event::HandScored(h) if h.closer.is_some() || h.results.len() > 1 => {
                    let pts = |s| h.results.iter().find(|r| r.seat == s).map(|r| r.points);
                    if alive == 2 {
                        let other = h.results.iter().map(|r| r.seat).find(|&s| s != mano);
                        if let (Some(a), Some(b)) = (pts(mano), other.and_then(pts)) {
                            *t.two.entry((a, b)).or_default() += 1;
                        }
                    } else {
                        let m = t.many.entry(alive).or_default();
                        for r in &h.results {
                            *m.entry(r.points).or_default() += 1;
                        }
                    }
                }
                Event::GameOver { chinchon: true, .. } => {
                    if alive == 2 {
                        t.two_chinchon[usize::from(g.chinchon() != Some(mano))] += 1;
                    } else {
                        *t.many_chinchon.entry(alive).or_default() += 1;
                    }
                }
                _ => {}
            }
        }
    }
    t
}

fn main() -> Result<(), String> {
    let mut games: u64 = 1500;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--games" => {
                games = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .ok_or("--games N")?;
            }
            other => return Err(format!("{other}: the only option is --games N")),
        }
    }
    let mut total = Tally::default();
    for seats in 2..=8usize {
        // Larger tables play longer games with more hands each: fewer games for them.
        let n = (games * 2 / seats as u64).max(1);
        let t = (0..n)
            .into_par_iter()
            .map(|seed| game(seats, seed + 1000 * seats as u64))
            .reduce(Tally::default, Tally::merge);
        total = total.merge(t);
        eprintln!("{seats} seats: {n} games");
    }
    let hands: u64 = total.two.values().sum::<u64>() + total.two_chinchon.iter().sum::<u64>();
    println!("const TWO: &[(i8, i8, u32)] = &[");
    for ((a, b), c) in &total.two {
        println!("    ({a}, {b}, {c}),");
    }
    println!("];");
    let [m, o] = total.two_chinchon;
    println!("const TWO_CHINCHON: [u32; 2] = [{m}, {o}];");
    println!("const TWO_HANDS: u32 = {hands};");
    println!("const MANY: &[Many] = &[");
    for (n, h) in &total.many {
        let ch = total.many_chinchon.get(n).copied().unwrap_or(0);
        println!("    (\n        {n},\n        {ch},\n        &[");
        for (a, c) in h {
            println!("            ({a}, {c}),");
        }
        println!("        ],\n    ),");
    }
    println!("];");
    Ok(())
}
