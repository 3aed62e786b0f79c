//! Who throws the órdagos of a matchup, and what becomes of them: player A against player B
//! over one-juego games (A's pair alternating seats), each órdago counted by its thrower as
//! declined, or accepted and won by A or by B. An órdago player is judged here: one whose
//! órdagos are accepted only when they lose is the easiest to exploit.
//!
//! ```text
//! cargo run --release -p tapete-mus-bots --example ordagos -- maestro:iters=256 conservador 100
//! ```

use tapete_cards::rng_from_seed;
use tapete_mus::events::{Event, LanceStatus};
use tapete_mus::{Action, MusGame, MusRules};
use tapete_mus_bots::by_name;
use tapete_table::Game;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let a = args.first().map_or("maestro:iters=256", String::as_str);
    let b = args.get(1).map_or("conservador", String::as_str);
    let games: u64 = match args.get(2) {
        Some(n) => n
            .parse()
            .map_err(|_| format!("{n}: not a number of games"))?,
        None => 100,
    };
    let rules = MusRules {
        juegos: 1,
        vacas: 1,
        ..Default::default()
    };
    // By thrower (0 = B, 1 = A): declined, accepted and won by B, accepted and won by A.
    let mut count = [[0u32; 3]; 2];
    let mut wins = 0;
    for seed in 0..games {
        let a_pair = (seed % 2) as usize;
        let mut g = MusGame::new(&rules, 4, seed).map_err(|e| e.to_string())?;
        let mut bots = (0..4)
            .map(|s| by_name(if s % 2 == a_pair { a } else { b }))
            .collect::<Result<Vec<_>, _>>()?;
        let mut rng = rng_from_seed(seed);
        let mut thrower: Option<usize> = None;
        while g.outcome().is_none() {
            let Some(&seat) = g.to_act().seats().first() else {
                break;
            };
            let legal = g.legal_actions(seat);
            let act = bots[seat].act(&g.view(seat), &legal, &mut rng);
            if act == Action::Ordago {
                thrower = Some(usize::from(seat % 2 == a_pair));
            }
            for e in g.apply(seat, &act).map_err(|e| e.to_string())? {
                match e {
                    Event::LanceSettled {
                        status: LanceStatus::Declined { .. },
                        ..
                    } => {
                        if let Some(t) = thrower.take() {
                            count[t][0] += 1;
                        }
                    }
                    Event::GameWon { pair, ordago, .. } => {
                        let a_won = pair == a_pair;
                        wins += u32::from(a_won);
                        if let (true, Some(t)) = (ordago, thrower.take()) {
                            count[t][1 + usize::from(a_won)] += 1;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    println!("A = {a}, B = {b}: A won {wins} of {games} games");
    println!(
        "{:10} {:>9} {:>16} {:>16}",
        "órdagos", "declined", "accepted, A won", "accepted, B won"
    );
    for (t, who) in [(1, "by A"), (0, "by B")] {
        let [declined, b_won, a_won] = count[t];
        println!("{who:10} {declined:>9} {a_won:>16} {b_won:>16}");
    }
    Ok(())
}
