//! `tapete sim mus`: many bot games headless, in parallel, with statistics from the events.

use crate::args::{parse_level, parse_seed, TableArgs};
use crate::error::{CliError, CliResult};
use crate::row;
use crate::text::{emit, pair_name, table};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::Serialize;
use serde_json::json;
use std::io::IsTerminal;
use std::time::Instant;
use tapete_mus::{Event, Lance, LanceStatus, MusGame, MusRules};
use tapete_table::{play_out, Bot, Game, Record};

/// Games that can be simulated.
#[derive(Subcommand, Debug)]
pub enum SimGame {
    /// Simulate Mus games (each one game of one vaca) between bots.
    Mus(SimArgs),
}

/// Arguments of `tapete sim mus`.
#[derive(Args, Debug)]
#[command(after_help = "Game i uses seed S+i, so results do not depend on --threads.")]
pub struct SimArgs {
    /// How many games to play.
    #[arg(long, value_name = "N")]
    pub games: u64,
    /// Seed of the first game.
    #[arg(long, value_name = "S", default_value = "0", value_parser = parse_seed)]
    pub seed: u64,
    /// Bot level of all four seats: random or basico.
    #[arg(long, value_name = "LEVEL", default_value = "basico", value_parser = parse_level)]
    pub bots: String,
    /// Bot level of pair 0–2 (overrides --bots).
    #[arg(long, value_name = "LEVEL", value_parser = parse_level)]
    pub a: Option<String>,
    /// Bot level of pair 1–3 (overrides --bots).
    #[arg(long, value_name = "LEVEL", value_parser = parse_level)]
    pub b: Option<String>,
    /// Worker threads (default: one per CPU).
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub table: TableArgs,
}

/// Most actions a game may take before it is called stuck.
const MAX_ACTIONS: usize = 20_000;

/// Counts of how one lance went, over all games.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct LanceStats {
    /// Times the lance was settled (played, bet or not, or void).
    pub settled: u64,
    /// Times somebody bet (envido or órdago).
    pub bet: u64,
    /// Times a bet was accepted (órdagos included).
    pub accepted: u64,
    /// Times an órdago was accepted.
    pub ordago: u64,
    /// Times a bet was declined.
    pub declined: u64,
    /// Times everybody passed.
    pub en_paso: u64,
    /// Times only one pair held pares / juego.
    pub unbet: u64,
    /// Times nobody held pares / juego.
    pub void: u64,
}

impl LanceStats {
    fn add(&mut self, s: &LanceStatus) {
        self.settled += 1;
        if s.was_bet() {
            self.bet += 1;
        }
        match s {
            LanceStatus::EnPaso => self.en_paso += 1,
            LanceStatus::Accepted { .. } => self.accepted += 1,
            LanceStatus::OrdagoAccepted => {
                self.accepted += 1;
                self.ordago += 1;
            }
            LanceStatus::Declined { .. } => self.declined += 1,
            LanceStatus::Unbet { .. } => self.unbet += 1,
            LanceStatus::Void => self.void += 1,
        }
    }

    fn merge(&mut self, o: &LanceStats) {
        self.settled += o.settled;
        self.bet += o.bet;
        self.accepted += o.accepted;
        self.ordago += o.ordago;
        self.declined += o.declined;
        self.en_paso += o.en_paso;
        self.unbet += o.unbet;
        self.void += o.void;
    }
}

/// What one game (or many, summed) produced.
#[derive(Clone, Debug, Default)]
struct Tally {
    games: u64,
    wins: [u64; 2],
    ordago_wins: u64,
    hands: u64,
    actions: u64,
    piedras: [u64; 2],
    lances: [LanceStats; 5],
}

impl Tally {
    fn event(&mut self, e: &Event) {
        match e {
            Event::HandStarted { .. } => self.hands += 1,
            Event::Scored { pair, piedras, .. } => self.piedras[*pair % 2] += u64::from(*piedras),
            Event::LanceSettled { lance, status } => self.lances[lance_index(*lance)].add(status),
            Event::GameWon { pair, ordago } => {
                self.wins[*pair % 2] += 1;
                if *ordago {
                    self.ordago_wins += 1;
                }
            }
            _ => {}
        }
    }

    fn merge(&mut self, o: &Tally) {
        self.games += o.games;
        self.wins[0] += o.wins[0];
        self.wins[1] += o.wins[1];
        self.ordago_wins += o.ordago_wins;
        self.hands += o.hands;
        self.actions += o.actions;
        self.piedras[0] += o.piedras[0];
        self.piedras[1] += o.piedras[1];
        for (a, b) in self.lances.iter_mut().zip(&o.lances) {
            a.merge(b);
        }
    }
}

fn lance_index(l: Lance) -> usize {
    Lance::ALL.iter().position(|&x| x == l).unwrap_or(0)
}

/// Seed of the bots' random choices in a game, kept apart from the shuffle's stream.
fn bot_seed(seed: u64) -> u64 {
    seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5EED_B075
}

/// Plays game `seed` to the end with bots `levels` (pair 0–2, pair 1–3).
fn play_one(rules: &MusRules, seed: u64, levels: &[String; 2]) -> Result<Tally, String> {
    let mut game = MusGame::new(rules, 4, seed).map_err(|e| e.to_string())?;
    let mut bots: Vec<Box<dyn Bot<MusGame>>> = (0..4)
        .map(|s| tapete_mus_bots::by_name(&levels[s % 2]))
        .collect::<Result<_, _>>()?;
    let mut rng = ChaCha8Rng::seed_from_u64(bot_seed(seed));
    let mut record = Record::new(rules.clone(), 4, seed);
    let mut t = Tally {
        games: 1,
        ..Tally::default()
    };
    // The first hand is dealt by `new`, before any event can be seen.
    t.hands = 1;
    play_out(
        &mut game,
        &mut bots,
        &mut rng,
        &mut record,
        MAX_ACTIONS,
        |_, _, _, events| {
            for e in events {
                t.event(e);
            }
        },
    )
    .map_err(|e| format!("game with seed {seed}: {e}"))?;
    t.actions = record.actions.len() as u64;
    Ok(t)
}

/// Runs `tapete sim mus`.
pub fn run(a: &SimArgs, json: bool) -> CliResult {
    if a.games == 0 {
        return Err(CliError::input("--games must be at least 1"));
    }
    let rules = a.table.rules(1, 1);
    rules.validate().map_err(CliError::input)?;
    let levels = [
        a.a.clone().unwrap_or_else(|| a.bots.clone()),
        a.b.clone().unwrap_or_else(|| a.bots.clone()),
    ];
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(t) = a.threads {
        if t == 0 {
            return Err(CliError::input("--threads must be at least 1"));
        }
        pool = pool.num_threads(t);
    }
    let pool = pool
        .build()
        .map_err(|e| CliError::run(format!("cannot start the worker threads: {e}")))?;
    let threads = pool.current_num_threads();

    let bar = ProgressBar::new(a.games);
    if json || !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    } else {
        bar.set_draw_target(ProgressDrawTarget::stderr());
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} games  {per_sec}  eta {eta}")
        {
            bar.set_style(style);
        }
    }

    let start = Instant::now();
    // Sums are reduced as games finish (no per-game storage); integer sums do not depend
    // on the order, so neither do the results on the thread count.
    let total: Result<Tally, String> = pool.install(|| {
        (0..a.games)
            .into_par_iter()
            .map(|i| {
                let r = play_one(&rules, a.seed.wrapping_add(i), &levels);
                bar.inc(1);
                r
            })
            .try_reduce(Tally::default, |mut x, y| {
                x.merge(&y);
                Ok(x)
            })
    });
    let elapsed = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let total = total.map_err(CliError::run)?;
    let per_sec = if elapsed > 0.0 {
        total.games as f64 / elapsed
    } else {
        0.0
    };
    if json {
        let v = to_json(a, &rules, &levels, &total, elapsed, per_sec, threads);
        emit(&format!("{v}\n"))
    } else {
        emit(&to_text(a, &levels, &total, elapsed, per_sec, threads))
    }
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

fn to_json(
    a: &SimArgs,
    rules: &MusRules,
    levels: &[String; 2],
    t: &Tally,
    elapsed: f64,
    per_sec: f64,
    threads: usize,
) -> serde_json::Value {
    let lances: serde_json::Map<String, serde_json::Value> = Lance::ALL
        .iter()
        .map(|&l| (l.name().to_string(), json!(t.lances[lance_index(l)])))
        .collect();
    let piedras = t.piedras[0] + t.piedras[1];
    json!({
        "games": t.games,
        "seed": a.seed,
        "bots": levels,
        "rules": rules,
        "wins": t.wins,
        "ordago_wins": t.ordago_wins,
        "hands": t.hands,
        "hands_per_game": ratio(t.hands, t.games),
        "actions": t.actions,
        "piedras": t.piedras,
        "piedras_per_hand": ratio(piedras, t.hands),
        "lances": lances,
        "timing": { "seconds": elapsed, "games_per_second": per_sec, "threads": threads },
    })
}

fn pct(a: u64, b: u64) -> String {
    if b == 0 {
        "—".into()
    } else {
        format!("{:.1}%", 100.0 * a as f64 / b as f64)
    }
}

fn to_text(
    a: &SimArgs,
    levels: &[String; 2],
    t: &Tally,
    elapsed: f64,
    per_sec: f64,
    threads: usize,
) -> String {
    let piedras = t.piedras[0] + t.piedras[1];
    let mut out = format!(
        "{} games from seed {}: pair {} ({}) against pair {} ({})\n\n",
        t.games,
        a.seed,
        pair_name(0),
        levels[0],
        pair_name(1),
        levels[1]
    );
    let rows = vec![
        row!["pair", "games won", "share", "piedras"],
        row![
            pair_name(0),
            t.wins[0],
            pct(t.wins[0], t.games),
            t.piedras[0]
        ],
        row![
            pair_name(1),
            t.wins[1],
            pct(t.wins[1], t.games),
            t.piedras[1]
        ],
    ];
    out.push_str(&table(&rows));
    out.push('\n');
    let rows = vec![
        row!["hands per game", format!("{:.2}", ratio(t.hands, t.games))],
        row![
            "piedras per hand",
            format!("{:.2}", ratio(piedras, t.hands))
        ],
        row![
            "actions per game",
            format!("{:.1}", ratio(t.actions, t.games))
        ],
        row![
            "games won by órdago",
            format!("{} ({})", t.ordago_wins, pct(t.ordago_wins, t.games))
        ],
    ];
    out.push_str(&table(&rows));
    out.push('\n');
    let mut rows = vec![row![
        "lance", "settled", "bet", "accepted", "órdago", "declined", "en paso", "unbet", "void"
    ]];
    for l in Lance::ALL {
        let s = &t.lances[lance_index(l)];
        rows.push(row![
            l.name(),
            s.settled,
            format!("{} ({})", s.bet, pct(s.bet, s.settled)),
            format!("{} ({})", s.accepted, pct(s.accepted, s.bet)),
            s.ordago,
            s.declined,
            s.en_paso,
            s.unbet,
            s.void
        ]);
    }
    out.push_str(&table(&rows));
    out.push('\n');
    out.push_str(&format!(
        "{:.2} s on {threads} threads: {:.0} games/s\n",
        elapsed, per_sec
    ));
    out
}
