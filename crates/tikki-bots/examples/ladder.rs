//! The ladder of tikki's players at a table of three: each row puts one player in one seat
//! against two of another (the seat moving each game, so each seat is held equally), and
//! prints its wins with the 95% Wilson interval; the fair share is one in three. A game
//! won level on points counts for every winner; the column `shared` says how many of the
//! one seat's wins were such.
//!
//! ```text
//! cargo run --release -p tapete-tikki-bots --example ladder -- GAMES SEED THREADS [A/B ...]
//! ```
//!
//! Without pairs it plays `basico/random` and `experto/basico`; any level name with its
//! parameters works (`experto:iters=400/basico`).

use std::time::Instant;
use tapete_table::arena::{run_arena, ArenaConfig, Fixture, Layout, Observer, Side};
use tapete_table::{Game, Seat};
use tapete_tikki::{Action, Event, TikkiGame, TikkiRules};

const SEATS: usize = 3;

/// Games the one seat won level on points with another.
#[derive(Default)]
struct Shared(u64);

impl Observer<TikkiGame> for Shared {
    fn step(&mut self, _: &Fixture, _: &TikkiGame, _: Seat, _: &Action, _: &[Event]) {}

    fn finish(&mut self, fixture: &Fixture, game: &TikkiGame, _: usize) {
        if let Some(o) = game.outcome() {
            if o.winners.len() > 1 && o.winners.contains(&fixture.a_seat) {
                self.0 += 1;
            }
        }
    }

    fn merge(&mut self, other: Shared) {
        self.0 += other.0;
    }
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: ladder GAMES SEED THREADS [A/B ...]";
    let number = |i: usize, what: &str| -> Result<u64, String> {
        let arg = args
            .get(i)
            .ok_or_else(|| format!("{usage}: {what} is missing"))?;
        arg.parse()
            .map_err(|_| format!("{usage}: {what} `{arg}` is not a number"))
    };
    let games = number(0, "GAMES")?;
    let seed = number(1, "SEED")?;
    let threads = number(2, "THREADS")? as usize;
    let mut pairs: Vec<(String, String)> = Vec::new();
    for p in args.iter().skip(3) {
        let (a, b) = p
            .split_once('/')
            .ok_or_else(|| format!("{usage}: `{p}` is not A/B"))?;
        pairs.push((a.to_string(), b.to_string()));
    }
    if pairs.is_empty() {
        pairs = vec![
            ("basico".into(), "random".into()),
            ("experto".into(), "basico".into()),
        ];
    }
    for (a, b) in &pairs {
        tapete_tikki_bots::by_name(a)?;
        tapete_tikki_bots::by_name(b)?;
    }
    println!(
        "{SEATS} players, {games} games a row from seed {seed}, one seat against two; fair share {:.1}%",
        100.0 / SEATS as f64
    );
    println!(
        "{:<28} {:<28} {:>7} {:>7} {:>7} {:>8} {:>17} {:>11} {:>9}",
        "one seat",
        "two seats",
        "games",
        "wins",
        "shared",
        "rate",
        "95% interval",
        "mean place",
        "seconds"
    );
    for (a, b) in &pairs {
        let config = ArenaConfig::<TikkiGame> {
            rules: TikkiRules::default(),
            seats: SEATS,
            games,
            first: 0,
            seed,
            threads: Some(threads.max(1)),
            max_actions: 100_000,
            layout: Layout::OneSeat,
        };
        let t = Instant::now();
        let report = run_arena::<TikkiGame, Shared, _>(
            &config,
            |side, _| tapete_tikki_bots::by_name(if side == Side::A { a } else { b }),
            &|| {},
        )
        .map_err(|e| e.to_string())?;
        let (lo, hi) = report.ci95();
        println!(
            "{:<28} {:<28} {:>7} {:>7} {:>7} {:>7.1}% {:>7.1}% – {:>5.1}% {:>11} {:>9.1}",
            a,
            b,
            report.games,
            report.wins[0],
            report.stats.0,
            100.0 * report.a_win_rate(),
            100.0 * lo,
            100.0 * hi,
            report
                .a_mean_place()
                .map_or("-".to_string(), |p| format!("{p:.2}")),
            t.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
