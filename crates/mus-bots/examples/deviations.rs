//! Where maestro's search departs from its rollout player, and what each departure is worth
//! against a given rival: maestro against B over one-juego games (maestro's pair alternating
//! seats). At every decision where maestro plays something other than what experto (with
//! the same read of the table) would, the hand is finished from the real deal both ways,
//! `K` times on equal random streams, by experto with that read at maestro's seats and B at
//! the others, and the difference in the chance of winning the game
//! ([`tapete_mus_bots::maestro::win_chance`]; 1 or 0 once the game is decided) is summed by
//! the kind of decision. The finishing knows every card: it is a judge's measurement, no
//! player's information. The mean per game estimates maestro's win rate less experto's
//! against B (each departure valued as experto would go on), with far less noise than
//! the win counts.
//!
//! Arguments: the rival (`random`, `experto`, a style, `umbral…`), games, first seed,
//! finishings per departure `K`, and maestro's parameters (`robust=off`…).
//!
//! ```text
//! cargo run --release -p tapete-mus-bots --example deviations -- conservador 100 30000 16
//! ```

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use tapete_cards::rng_from_seed;
use tapete_mus::events::Event;
use tapete_mus::view::Phase;
use tapete_mus::{Action, MusGame, MusRules};
use tapete_mus_bots::maestro::{hand_step, win_chance, HandStep};
use tapete_mus_bots::{maestro_params, policy, umbral, Experto, Maestro, RandomMus, Umbral};
use tapete_table::{Bot, Game, Seat};

#[derive(Clone)]
enum Rival {
    Experto(Experto),
    Umbral(Umbral),
    Random(RandomMus),
}

impl Rival {
    fn by_name(name: &str) -> Result<Rival, String> {
        if name == "random" {
            return Ok(Rival::Random(RandomMus));
        }
        if name == "experto" {
            return Ok(Rival::Experto(Experto::default()));
        }
        if let Some(p) = name.strip_prefix("umbral") {
            return umbral::umbral_params(p.trim_start_matches(':')).map(Rival::Umbral);
        }
        policy::style(name)
            .map(|s| Rival::Experto(Experto::fixed(s)))
            .ok_or_else(|| format!("{name}: not a rival"))
    }
}

impl Bot<MusGame> for Rival {
    fn act(
        &mut self,
        view: &tapete_mus::MusView,
        legal: &[Action],
        rng: &mut ChaCha8Rng,
    ) -> Action {
        match self {
            Rival::Experto(b) => b.act(view, legal, rng),
            Rival::Umbral(b) => b.act(view, legal, rng),
            Rival::Random(b) => b.act(view, legal, rng),
        }
    }
}

/// Finishes the hand from `g` after `first`, experto (`ours`) at maestro's seats; the value
/// for pair `us`.
fn finish(
    mut g: MusGame,
    first: (Seat, Action),
    us: usize,
    ours: &[Experto; 4],
    rivals: &[Rival; 4],
    rng: &mut ChaCha8Rng,
) -> f64 {
    let (mut ours, mut rivals) = (ours.clone(), rivals.clone());
    let target = g.rules().target;
    let mut next = Some(first);
    for _ in 0..400 {
        let (s, a) = match next.take() {
            Some(f) => f,
            None => {
                let Some(&s) = g.to_act().seats().first() else {
                    break;
                };
                let legal = g.legal_actions(s);
                let v = g.view(s);
                let a = if s % 2 == us {
                    ours[s].act(&v, &legal, rng)
                } else {
                    rivals[s].act(&v, &legal, rng)
                };
                (s, a)
            }
        };
        let Ok(events) = g.apply(s, &a) else { break };
        match hand_step(&events, us) {
            HandStep::Decided(won) => return if won { 1.0 } else { 0.0 },
            HandStep::NextHand => break,
            HandStep::Going => {}
        }
    }
    let p = g.scores().piedras;
    win_chance(p[us], p[1 - us], target)
}

fn kind(a: &Action) -> String {
    match a {
        Action::Descarto(_) => "descarto".into(),
        other => format!("{other:?}"),
    }
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let b = args.first().map_or("conservador", String::as_str);
    let games: u64 = args
        .get(1)
        .map_or(Ok(50), |n| n.parse().map_err(|_| "games"))?;
    let start: u64 = args
        .get(2)
        .map_or(Ok(30000), |n| n.parse().map_err(|_| "seed"))?;
    let k: u64 = args.get(3).map_or(Ok(16), |n| n.parse().map_err(|_| "k"))?;
    let m_params = args.get(4).map_or("", String::as_str);
    let rules = MusRules {
        juegos: 1,
        vacas: 1,
        ..Default::default()
    };
    // By kind: count, summed gain, summed |gain|.
    let mut by: BTreeMap<String, (u32, f64, f64)> = BTreeMap::new();
    let mut wins = 0;
    // Each game's summed gain, for the standard error of the mean.
    let mut per_game: Vec<f64> = Vec::new();
    for seed in start..start + games {
        let mut game_gain = 0.0;
        let us = (seed % 2) as usize;
        let mut g = MusGame::new(&rules, 4, seed).map_err(|e| e.to_string())?;
        let mut maestros: Vec<Maestro> = (0..4)
            .map(|_| maestro_params(m_params))
            .collect::<Result<_, _>>()?;
        let mut shadow: [Experto; 4] = std::array::from_fn(|_| Experto::default());
        let rival = Rival::by_name(b)?;
        let mut rivals: [Rival; 4] = std::array::from_fn(|_| rival.clone());
        let mut rng = rng_from_seed(seed);
        let mut step = 0u64;
        while g.outcome().is_none() {
            let Some(&seat) = g.to_act().seats().first() else {
                break;
            };
            step += 1;
            let legal = g.legal_actions(seat);
            let view = g.view(seat);
            let act = if seat % 2 == us {
                shadow[seat].observe(&view);
                let real = legal.len() > 1 && view.phase != Phase::Senas;
                let mut r2 = rng.clone();
                let e = shadow[seat].clone().act(&view, &legal, &mut r2);
                let m = maestros[seat].act(&view, &legal, &mut rng);
                if real && m != e {
                    let situation = match (view.phase, view.bet) {
                        (Phase::Bet { lance }, None) => format!("{lance:?} open"),
                        (Phase::Bet { lance }, Some(bt)) if bt.ordago => {
                            format!("{lance:?} vs ordago")
                        }
                        (Phase::Bet { lance }, Some(_)) => format!("{lance:?} vs envite"),
                        (p, _) => format!("{p:?}"),
                    };
                    let mut gain = 0.0;
                    for i in 0..k {
                        let mut r = ChaCha8Rng::seed_from_u64(seed * 1_000_003 + step * 101 + i);
                        let mut r1 = r.clone();
                        gain += finish(g.clone(), (seat, m.clone()), us, &shadow, &rivals, &mut r1)
                            - finish(g.clone(), (seat, e.clone()), us, &shadow, &rivals, &mut r);
                    }
                    gain /= k as f64;
                    let key = format!("{situation:18} {:>12} -> {:<12}", kind(&e), kind(&m));
                    let entry = by.entry(key).or_default();
                    entry.0 += 1;
                    entry.1 += gain;
                    entry.2 += gain.abs();
                    game_gain += gain;
                }
                m
            } else {
                rivals[seat].act(&view, &legal, &mut rng)
            };
            for e in g.apply(seat, &act).map_err(|e| e.to_string())? {
                if let Event::GameWon { pair, .. } = e {
                    wins += u32::from(pair == us);
                }
            }
        }
        per_game.push(game_gain);
    }
    println!("maestro against {b}: won {wins} of {games}");
    println!(
        "{:52} {:>6} {:>10} {:>10}",
        "situation / experto -> maestro", "n", "gain", "gain/game"
    );
    let mut rows: Vec<_> = by.into_iter().collect();
    rows.sort_by(|a, b| a.1 .1.total_cmp(&b.1 .1));
    let mut total = 0.0;
    for (key, (n, gain, _)) in rows {
        total += gain;
        println!("{key:52} {n:>6} {gain:>10.3} {:>10.4}", gain / games as f64);
    }
    let n = per_game.len() as f64;
    let mean = per_game.iter().sum::<f64>() / n;
    let var = per_game.iter().map(|g| (g - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    println!(
        "total gain per game: {:.4} (sum of the rows {:.4}), standard error {:.4}",
        mean,
        total / games as f64,
        (var / n).sqrt()
    );
    Ok(())
}
