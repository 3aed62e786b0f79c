//! The soft-play screen measured ([`tapete_tikki_bots::screen`]): tables where two
//! friends who see each other's hands help each other ([`Colluder`], at several settings)
//! beside honest players, and honest tables of every level. Every game is screened and
//! the decisions grouped by pair of seats within each table, as `tapete screen` groups an
//! arena's records (tikki's rules' defaults: one round per player); each pair's z-score
//! is printed after 1/8, 1/4, 1/2 and all of the
//! games, so one run shows how many games a pair needs.
//!
//! ```text
//! cargo run --release -p tapete-tikki-bots --example tikki_softplay -- --games 40
//! ```
//!
//! `--games N` games a table (40), `--only colluding|honest` one kind of table.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::collections::BTreeMap;
use tapete_review::screen::{Screened, Tally};
use tapete_table::{Bot, Game, Record, Seat};
use tapete_tikki::{Action, TikkiGame, TikkiRules};
use tapete_tikki_bots::collude::Colluder;
use tapete_tikki_bots::screen::screen;

/// Who sits at a seat.
#[derive(Clone)]
enum Player {
    /// A built-in level by name.
    Level(&'static str),
    /// A colluder helping the seat given, valuing its points at `help` of its own, with
    /// a margin.
    Friend(Seat, f64, f64),
}

impl Player {
    fn label(&self) -> String {
        match self {
            Player::Level(n) => n.to_string(),
            Player::Friend(f, h, m) => format!("colluder(friend {f}, help {h}, margin {m})"),
        }
    }
}

/// One table: its players, whether a pair of them colludes.
struct Table {
    players: Vec<Player>,
    colluding: Option<(Seat, Seat)>,
}

fn tables(only: Option<&str>) -> Vec<Table> {
    let mut out = Vec::new();
    if only != Some("honest") {
        let helps = [(1.0, 0.5), (0.5, 0.5), (1.0, 2.0), (2.0, 1.0), (0.5, 1.0)];
        for (i, &(h, m)) in helps.iter().enumerate() {
            out.push(Table {
                players: vec![
                    Player::Friend(1, h, m),
                    Player::Friend(0, h, m),
                    Player::Level("experto"),
                ],
                colluding: Some((0, 1)),
            });
            let other = if i % 2 == 0 { "experto" } else { "basico" };
            out.push(Table {
                players: vec![
                    Player::Friend(1, h, m),
                    Player::Friend(0, h, m),
                    Player::Level(other),
                    Player::Level("experto"),
                ],
                colluding: Some((0, 1)),
            });
        }
    }
    if only != Some("colluding") {
        let lineups: &[&[&str]] = &[
            &["experto", "experto", "experto"],
            &["experto", "basico", "random"],
            &["basico", "experto", "experto"],
            &["basico", "basico", "experto"],
            &["random", "experto", "basico"],
            &["experto", "experto:iters=100", "basico"],
            &["experto", "experto", "experto", "experto"],
            &["experto", "basico", "experto", "random"],
            &["basico", "experto", "basico", "experto"],
            &["experto", "basico", "basico"],
            &["random", "random", "experto"],
            &["basico", "random", "experto"],
            &["experto", "experto", "basico", "basico", "experto"],
        ];
        for l in lineups {
            out.push(Table {
                players: l.iter().map(|&n| Player::Level(n)).collect(),
                colluding: None,
            });
        }
    }
    out
}

/// One game of `table` from `seed`, screened, and the seconds the screen took.
fn play(table: &Table, seed: u64) -> (Vec<Screened>, f64) {
    let rules = TikkiRules::default();
    let seats = table.players.len();
    let mut game = TikkiGame::new(&rules, seats, seed).expect("a table of 2–5");
    let mut record: Record<TikkiGame> = Record::new(rules, seats, seed);
    let mut bots: Vec<Option<Box<dyn Bot<TikkiGame>>>> = Vec::new();
    let mut friends: Vec<Option<Colluder>> = Vec::new();
    for p in &table.players {
        match p {
            Player::Level(n) => {
                bots.push(Some(tapete_tikki_bots::by_name(n).expect("a level")));
                friends.push(None);
            }
            Player::Friend(f, h, m) => {
                bots.push(None);
                friends.push(Some(Colluder::new(*f, *h, *m)));
            }
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xB075);
    let mut steps = 0;
    while let Some(&seat) = game.to_act().seats().first() {
        let a: Action = match (&mut bots[seat], &mut friends[seat]) {
            (Some(b), _) => b.act(&game.view(seat), &game.legal_actions(seat), &mut rng),
            (None, Some(f)) => f.act(&game, seat, &mut rng),
            (None, None) => unreachable!("every seat has a player"),
        };
        game.apply(seat, &a).expect("players play legal actions");
        record.actions.push((seat, a));
        steps += 1;
        if steps > 200_000 {
            break;
        }
    }
    let started = std::time::Instant::now();
    let weighed = screen(&record);
    (weighed, started.elapsed().as_secs_f64())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let games: u64 = arg("--games").map_or(40, |g| g.parse().expect("--games N"));
    let only = arg("--only");
    let tables = tables(only.as_deref());
    let fractions = [8, 4, 2, 1];
    let mut honest_z = Vec::new();
    let mut colluding_z: Vec<Vec<f64>> = vec![Vec::new(); fractions.len()];
    let mut colluding_n = vec![0u64; fractions.len()];
    for (t, table) in tables.iter().enumerate() {
        let started = std::time::Instant::now();
        let (per_game, took): (Vec<Vec<Screened>>, Vec<f64>) = (0..games)
            .into_par_iter()
            .map(|g| play(table, 1_000_003 * t as u64 + g))
            .unzip();
        let screening = took.iter().sum::<f64>() / games.max(1) as f64;
        let names: Vec<String> = table.players.iter().map(Player::label).collect();
        println!(
            "table {t}: {} ({:.0} s; the screen {:.2} s a game)",
            names
                .iter()
                .enumerate()
                .map(|(s, n)| format!("{s}={n}"))
                .collect::<Vec<_>>()
                .join(", "),
            started.elapsed().as_secs_f64(),
            screening
        );
        for (k, &f) in fractions.iter().enumerate() {
            let upto = (games / f).max(1) as usize;
            let mut pairs: BTreeMap<(Seat, Seat), Vec<Screened>> = BTreeMap::new();
            for w in per_game[..upto].iter().flatten() {
                let key = (w.seat.min(w.partner), w.seat.max(w.partner));
                pairs.entry(key).or_default().push(w.clone());
            }
            for (pair, ds) in &pairs {
                let tally = Tally::of(ds);
                let centred = ds.iter().filter(|d| d.centred).count();
                let colluding = table.colluding == Some(*pair);
                let honest = table.players.iter().all(|p| matches!(p, Player::Level(_)));
                println!(
                    "  {upto:>4} games  pair {}-{}  {:<10} n {:>6} (lays {centred:>6})  mean {:+.4}  se {:.4}  z {:+.2}{}",
                    pair.0,
                    pair.1,
                    if colluding { "COLLUDING" } else if honest { "honest" } else { "beside" },
                    tally.n,
                    tally.mean,
                    tally.se,
                    tally.z,
                    if tally.z >= 4.0 && tally.n >= 300 { "  FLAGGED" } else { "" }
                );
                if colluding {
                    colluding_z[k].push(tally.z);
                    if tally.z >= 4.0 && tally.n >= 300 {
                        colluding_n[k] += 1;
                    }
                }
                if honest && k == fractions.len() - 1 {
                    honest_z.push(tally.z);
                }
            }
        }
    }
    for (k, &f) in fractions.iter().enumerate() {
        let mut z = colluding_z[k].clone();
        if z.is_empty() {
            continue;
        }
        z.sort_by(f64::total_cmp);
        println!(
            "colluding pairs, {} games: flagged {} of {}, z min {:.2} median {:.2} max {:.2}",
            (games / f).max(1),
            colluding_n[k],
            z.len(),
            z[0],
            z[z.len() / 2],
            z[z.len() - 1]
        );
    }
    if !honest_z.is_empty() {
        let n = honest_z.len() as f64;
        let mean = honest_z.iter().sum::<f64>() / n;
        let sd =
            (honest_z.iter().map(|z| (z - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt();
        let max = honest_z.iter().copied().fold(f64::MIN, f64::max);
        let min = honest_z.iter().copied().fold(f64::MAX, f64::min);
        println!(
            "honest pairs, {games} games: {} pairs, z mean {mean:+.2} SD {sd:.2} min {min:+.2} max {max:+.2}, flagged {}",
            honest_z.len(),
            honest_z.iter().filter(|&&z| z >= 4.0).count()
        );
    }
}
