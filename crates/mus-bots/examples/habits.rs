//! What maestro's table read records of each player, measured: 300 one-juego games of
//! experto (reading the table, and `fixed`: its style without the read, the styles' base)
//! and of every style against experto, the record ([`TableRead`]) of their seats summed.
//! The constants of the read (experto's share of bluffs, its órdagos never light) come from
//! here.
//!
//! ```text
//! cargo run --release -p tapete-mus-bots --example habits
//! ```

use tapete_cards::rng_from_seed;
use tapete_mus::{MusGame, MusRules};
use tapete_mus_bots::maestro::TableRead;
use tapete_mus_bots::{by_name, policy, Experto};
use tapete_table::Game;

const GAMES: u64 = 300;

fn main() -> Result<(), String> {
    let rules = MusRules {
        juegos: 1,
        vacas: 1,
        ..Default::default()
    };
    println!(
        "{:12} {:>12} {:>14} {:>16} {:>10} {:>16} {:>18} {:>16}",
        "player",
        "bets shown",
        "below 0.4",
        "órdagos shown",
        "light",
        "cuts",
        "envites let go",
        "raises let go"
    );
    let names = ["experto", "fixed", "avanzado"].into_iter();
    for name in names.chain(policy::STYLES.iter().copied()) {
        let (mut bets, mut weak, mut ordagos, mut light, mut cuts, mut calls) = (0, 0, 0, 0, 0, 0);
        let (mut faced, mut folded, mut raises, mut raises_folded) = (0, 0, 0, 0);
        for seed in 0..GAMES {
            let mut g = MusGame::new(&rules, 4, seed).map_err(|e| e.to_string())?;
            let mut bots = Vec::new();
            for s in 0..4 {
                bots.push(match (s % 2, name) {
                    (0, _) => by_name("experto")?,
                    (_, "fixed") => Box::new(Experto::fixed(policy::experto_style())),
                    _ => by_name(name)?,
                });
            }
            let mut rng = rng_from_seed(seed);
            let mut read = TableRead::default();
            while g.outcome().is_none() {
                let Some(&seat) = g.to_act().seats().first() else {
                    break;
                };
                let legal = g.legal_actions(seat);
                let view = g.view(seat);
                read.observe(&view);
                let a = bots[seat].act(&view, &legal, &mut rng);
                g.apply(seat, &a).map_err(|e| e.to_string())?;
            }
            faced += read.pairs[1].faced;
            folded += read.pairs[1].folded;
            raises += read.pairs[1].raises_faced;
            raises_folded += read.pairs[1].raises_folded;
            for r in [&read.seats[1], &read.seats[3]] {
                bets += r.bets.len();
                weak += r.bets.iter().filter(|&&p| p < 0.4).count();
                ordagos += r.ordagos.len();
                light += r.ordagos.iter().filter(|&&p| p < 0.8).count();
                cuts += r.cuts;
                calls += r.mus_calls;
            }
        }
        let share = |a: usize, b: usize| a as f64 / b.max(1) as f64;
        println!(
            "{name:12} {bets:>12} {:>14} {ordagos:>16} {:>10} {:>16} {:>18} {:>16}",
            format!("{weak} ({:.3})", share(weak, bets)),
            format!("{light} ({:.2})", share(light, ordagos)),
            format!(
                "{cuts}/{calls} ({:.2})",
                f64::from(cuts) / f64::from(calls.max(1))
            ),
            format!(
                "{folded}/{faced} ({:.2})",
                f64::from(folded) / f64::from(faced.max(1))
            ),
            format!(
                "{raises_folded}/{raises} ({:.2})",
                f64::from(raises_folded) / f64::from(raises.max(1))
            ),
        );
    }
    Ok(())
}
