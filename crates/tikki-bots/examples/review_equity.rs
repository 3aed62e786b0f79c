//! How well the review's equity table ([`EquityTable`]) foretells games: basico plays
//! whole games at every seat, and at the start of every round after the first each seat's
//! chance from the table is set against how the game ended (a shared win counts one over
//! the winners). Prints the Brier score (against the flat one in n) and the predictions
//! by tenths, with what happened in each.
//!
//! ```text
//! cargo run --release -p tapete-tikki-bots --example review_equity -- SEATS GAMES [TARGET]
//! ```

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tapete_table::{Bot, Game};
use tapete_tikki::bots::Basico;
use tapete_tikki::{Phase, TikkiGame, TikkiRules};
use tapete_tikki_bots::review::EquityTable;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: review_equity SEATS GAMES [TARGET]";
    let number = |i: usize, what: &str| -> Result<u64, String> {
        let arg = args
            .get(i)
            .ok_or_else(|| format!("{usage}: {what} is missing"))?;
        arg.parse()
            .map_err(|_| format!("{usage}: {what} `{arg}` is not a number"))
    };
    let seats = number(0, "SEATS")? as usize;
    let games = number(1, "GAMES")?;
    let target = if args.len() > 2 {
        number(2, "TARGET")? as u32
    } else {
        0
    };
    let rules = TikkiRules {
        target,
        ..TikkiRules::default()
    };
    rules.validate_new(seats)?;
    let table = EquityTable::of(&rules, seats);
    let (mean, sd) = table.round_points();
    println!("one round, as drawn: {mean:.1} ± {sd:.1} points a seat");
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    // (predicted, result), away from the seeds the table was measured on.
    let mut seen: Vec<(f64, f64)> = Vec::new();
    for seed in 1_000_000..1_000_000 + games {
        let mut g = TikkiGame::new(&rules, seats, seed).map_err(|e| e.to_string())?;
        let mut round = 1;
        let mut told: Vec<Vec<f64>> = Vec::new();
        while g.phase() != Phase::Over {
            if g.round() != round {
                round = g.round();
                told.push((0..seats).map(|s| table.of_game(&g, s)).collect());
            }
            let seat = g.to_act().seats()[0];
            let legal = g.legal_actions(seat);
            let a = Basico.act(&g.view(seat), &legal, &mut rng);
            g.apply(seat, &a).map_err(|e| e.to_string())?;
        }
        for t in told {
            for (s, p) in t.into_iter().enumerate() {
                seen.push((p, table.of_game(&g, s)));
            }
        }
    }
    let n = seen.len().max(1) as f64;
    let brier = seen.iter().map(|(p, r)| (p - r).powi(2)).sum::<f64>() / n;
    let flat = 1.0 / seats as f64;
    let base = seen.iter().map(|(_, r)| (flat - r).powi(2)).sum::<f64>() / n;
    println!(
        "{seats} seats, {}: {} chances told, Brier {brier:.4} (flat {base:.4})",
        if target > 0 {
            format!("to {target} points")
        } else {
            format!("{} rounds", rules.rounds_for(seats))
        },
        seen.len()
    );
    for tenth in 0..10 {
        let lo = f64::from(tenth) / 10.0;
        let bin: Vec<&(f64, f64)> = seen
            .iter()
            .filter(|(p, _)| *p >= lo && (*p < lo + 0.1 || tenth == 9))
            .collect();
        if bin.is_empty() {
            continue;
        }
        let k = bin.len() as f64;
        let told = bin.iter().map(|(p, _)| p).sum::<f64>() / k;
        let happened = bin.iter().map(|(_, r)| r).sum::<f64>() / k;
        let se = (happened * (1.0 - happened) / k).sqrt();
        println!(
            "  {lo:.1}–{:.1}: {:6} told {told:.3}, happened {happened:.3} ± {se:.3}",
            lo + 0.1,
            bin.len()
        );
    }
    Ok(())
}
