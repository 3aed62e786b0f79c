//! `tapete sim mus`: many bot games headless, in parallel, with statistics from the events.

use crate::args::{make_bot, parse_level, parse_seed, parse_threads, parse_timeout, TableArgs};
use crate::error::{CliError, CliResult};
use crate::row;
use crate::text::{emit, pair_name, progress_bar, rate, table};
use clap::{Args, Subcommand};
use serde::Serialize;
use serde_json::json;
use std::time::Duration;
use tapete_mus::{Action, Event, Lance, LanceStatus, MusGame, MusRules};
use tapete_table::arena::{
    run_arena, ArenaConfig, ArenaError, ArenaReport, Fixture, Incident, Observer, Side,
};
use tapete_table::Seat;

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
    /// Bot of all four seats: a level (random, basico, avanzado, experto, maestro:ms=N) or
    /// cmd:COMMAND for a program speaking the bot protocol.
    #[arg(long, value_name = "LEVEL", default_value = "basico", value_parser = parse_level)]
    pub bots: String,
    /// Bot level of pair 0–2 (overrides --bots).
    #[arg(long, value_name = "LEVEL", value_parser = parse_level)]
    pub a: Option<String>,
    /// Bot level of pair 1–3 (overrides --bots).
    #[arg(long, value_name = "LEVEL", value_parser = parse_level)]
    pub b: Option<String>,
    /// Worker threads, 1 to 256 (default: one per CPU).
    #[arg(long, value_name = "T", value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Longest wait for one answer of a cmd: bot, in seconds.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_timeout)]
    pub bot_timeout: Duration,
    #[command(flatten)]
    pub table: TableArgs,
}

/// Most actions a game may take before it is called stuck.
pub(crate) const MAX_ACTIONS: usize = 20_000;

/// Counts of how one lance went, over all games. Per-side arrays are `[A, B]` in an arena
/// and `[pair 0–2, pair 1–3]` in a simulation.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct LanceStats {
    /// Times the lance was settled (played, bet or not, or void).
    pub settled: u64,
    /// Times somebody bet (envido or órdago).
    pub bet: u64,
    /// Times each side opened the betting.
    pub opened: [u64; 2],
    /// Times a bet was accepted (órdagos included).
    pub accepted: u64,
    /// Times an órdago was accepted.
    pub ordago: u64,
    /// Accepted órdagos won by each side.
    pub ordago_won: [u64; 2],
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
        for s in 0..2 {
            self.opened[s] += o.opened[s];
            self.ordago_won[s] += o.ordago_won[s];
        }
    }
}

/// Mus statistics from the public events, summed over games: what `sim` and `arena`
/// report. Per-side arrays are indexed by arena side (`[A, B]`); in a simulation, where
/// seats never swap, that is `[pair 0–2, pair 1–3]`.
#[derive(Clone, Debug, Default)]
pub struct MusStats {
    pub games: u64,
    pub wins: [u64; 2],
    pub ordago_wins: [u64; 2],
    pub hands: u64,
    pub actions: u64,
    pub piedras: [u64; 2],
    pub lances: [LanceStats; 5],
    /// Within one game: the lance being bet, whether its betting is open, and the lance
    /// of an accepted órdago.
    current: Option<(usize, bool)>,
    ordago_lance: Option<usize>,
}

impl MusStats {
    /// Counts one event; `side` maps a seat pair (0 or 1) to the side index.
    fn event(&mut self, e: &Event, side: impl Fn(usize) -> usize) {
        match e {
            Event::HandStarted { .. } => self.hands += 1,
            Event::Scored { pair, piedras, .. } => self.piedras[side(*pair)] += u64::from(*piedras),
            Event::LanceStarted { lance } => self.current = Some((lance_index(*lance), false)),
            Event::Said { seat, action } => {
                if let (Some((l, opened)), Action::Envido(_) | Action::Ordago) =
                    (&mut self.current, action)
                {
                    if !*opened {
                        *opened = true;
                        self.lances[*l].opened[side(*seat % 2)] += 1;
                    }
                }
            }
            Event::LanceSettled { lance, status } => {
                let l = lance_index(*lance);
                self.lances[l].add(status);
                self.current = None;
                if *status == LanceStatus::OrdagoAccepted {
                    self.ordago_lance = Some(l);
                }
            }
            Event::GameWon { pair, ordago, .. } => {
                self.wins[side(*pair)] += 1;
                if *ordago {
                    self.ordago_wins[side(*pair)] += 1;
                    if let Some(l) = self.ordago_lance.take() {
                        self.lances[l].ordago_won[side(*pair)] += 1;
                    }
                }
            }
            _ => {}
        }
    }

    /// Games won by órdago, both sides.
    pub fn ordago_total(&self) -> u64 {
        self.ordago_wins[0] + self.ordago_wins[1]
    }
}

impl Observer<MusGame> for MusStats {
    fn step(&mut self, f: &Fixture, _: &MusGame, _: Seat, _: &Action, events: &[Event]) {
        let swapped = usize::from(f.swapped);
        for e in events {
            self.event(e, |pair| (pair % 2) ^ swapped);
        }
    }

    fn finish(&mut self, _: &Fixture, _: &MusGame, actions: usize) {
        self.games += 1;
        // The first hand is dealt by `new`, before any event can be seen.
        self.hands += 1;
        self.actions += actions as u64;
    }

    fn merge(&mut self, o: MusStats) {
        self.games += o.games;
        self.hands += o.hands;
        self.actions += o.actions;
        for s in 0..2 {
            self.wins[s] += o.wins[s];
            self.ordago_wins[s] += o.ordago_wins[s];
            self.piedras[s] += o.piedras[s];
        }
        for (a, b) in self.lances.iter_mut().zip(&o.lances) {
            a.merge(b);
        }
    }
}

/// Index of a lance in [`Lance::ALL`].
pub(crate) fn lance_index(l: Lance) -> usize {
    Lance::ALL.iter().position(|&x| x == l).unwrap_or(0)
}

/// What to play: `games` Mus games from `seed` between `bots` (`[A, B]`), A at the even
/// seats, swapping seats every other game when `alternate`. Shared by `sim` and `arena`.
pub(crate) struct RunSpec<'a> {
    pub rules: &'a MusRules,
    pub bots: &'a [String; 2],
    pub bot_timeout: Duration,
    pub games: u64,
    pub seed: u64,
    pub threads: Option<usize>,
    pub alternate: bool,
    /// JSON output: no progress bar.
    pub json: bool,
}

/// Plays the games of `spec` in parallel, with a progress bar, gathering [`MusStats`].
pub(crate) fn run_mus(spec: &RunSpec) -> CliResult<ArenaReport<MusStats>> {
    let RunSpec {
        rules,
        bots,
        bot_timeout,
        games,
        seed,
        threads,
        alternate,
        json,
    } = *spec;
    if games == 0 {
        return Err(CliError::input("--games must be at least 1"));
    }
    rules.validate().map_err(CliError::input)?;
    let config = ArenaConfig::<MusGame> {
        rules: rules.clone(),
        seats: 4,
        games,
        seed,
        threads,
        max_actions: MAX_ACTIONS,
        alternate,
    };
    let bar = progress_bar(games, "games", json);
    let report = run_arena(
        &config,
        |side: Side, _| make_bot(&bots[side.index()], bot_timeout),
        &|| bar.inc(1),
    );
    bar.finish_and_clear();
    report.map_err(|e| match e {
        ArenaError::NoGames => CliError::input("--games must be at least 1"),
        other => CliError::run(other.to_string()),
    })
}

/// Runs `tapete sim mus`.
pub fn run(a: &SimArgs, json: bool) -> CliResult {
    let rules = a.table.rules(1, 1);
    let levels = [
        a.a.clone().unwrap_or_else(|| a.bots.clone()),
        a.b.clone().unwrap_or_else(|| a.bots.clone()),
    ];
    let report = run_mus(&RunSpec {
        rules: &rules,
        bots: &levels,
        bot_timeout: a.bot_timeout,
        games: a.games,
        seed: a.seed,
        threads: a.threads,
        alternate: false,
        json,
    })?;
    if json {
        emit(&format!("{}\n", to_json(a, &rules, &levels, &report)))
    } else {
        emit(&to_text(a, &levels, &report))
    }
}

/// `a / b`, or 0 when `b` is 0 (rates over possibly empty counts).
pub(crate) fn ratio(a: u64, b: u64) -> f64 {
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
    r: &ArenaReport<MusStats>,
) -> serde_json::Value {
    let t = &r.stats;
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
        "ordago_wins": t.ordago_total(),
        "hands": t.hands,
        "hands_per_game": ratio(t.hands, t.games),
        "actions": t.actions,
        "piedras": t.piedras,
        "piedras_per_hand": ratio(piedras, t.hands),
        "lances": lances,
        "incidents": incidents_json(&r.incidents),
        "timing": timing_json(r),
    })
}

/// `{"seconds", "games_per_second", "threads"}`.
pub(crate) fn timing_json<T>(r: &ArenaReport<T>) -> serde_json::Value {
    json!({ "seconds": r.seconds, "games_per_second": r.games_per_second(), "threads": r.threads })
}

/// Incidents as JSON: how many, in how many games, and each one.
pub(crate) fn incidents_json(incidents: &[Incident]) -> serde_json::Value {
    let mut games: Vec<u64> = incidents.iter().map(|i| i.game).collect();
    games.dedup();
    json!({ "count": incidents.len(), "games": games.len(), "list": incidents })
}

/// Most incidents listed in text output (JSON lists them all).
const INCIDENTS_SHOWN: usize = 10;

/// Incidents as text: a count and the first few, or a line saying there were none.
pub(crate) fn incidents_text(incidents: &[Incident], side_names: bool) -> String {
    if incidents.is_empty() {
        return "bot protocol: no incidents\n".into();
    }
    let mut games: Vec<u64> = incidents.iter().map(|i| i.game).collect();
    games.dedup();
    let mut out = format!(
        "bot protocol: {} incident{} in {} game{}\n",
        incidents.len(),
        if incidents.len() == 1 { "" } else { "s" },
        games.len(),
        if games.len() == 1 { "" } else { "s" },
    );
    for i in incidents.iter().take(INCIDENTS_SHOWN) {
        let side = if side_names {
            format!(" (side {:?})", i.side)
        } else {
            String::new()
        };
        out.push_str(&format!(
            "  game {} (seed {}){side}: {}\n",
            i.game, i.seed, i.message
        ));
    }
    if incidents.len() > INCIDENTS_SHOWN {
        out.push_str(&format!(
            "  … and {} more (--json lists them all)\n",
            incidents.len() - INCIDENTS_SHOWN
        ));
    }
    out
}

/// A share as a percentage with one decimal, or a dash when there is nothing to share.
pub(crate) fn pct(a: u64, b: u64) -> String {
    if b == 0 {
        "—".into()
    } else {
        format!("{:.1}%", 100.0 * a as f64 / b as f64)
    }
}

fn to_text(a: &SimArgs, levels: &[String; 2], r: &ArenaReport<MusStats>) -> String {
    let t = &r.stats;
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
            format!("{} ({})", t.ordago_total(), pct(t.ordago_total(), t.games))
        ],
    ];
    out.push_str(&table(&rows));
    out.push('\n');
    out.push_str(&lance_table(t, [pair_name(0), pair_name(1)]));
    out.push('\n');
    out.push_str(&incidents_text(&r.incidents, false));
    out.push_str(&timing_text(r));
    out
}

/// The per-lance table; `sides` names the two sides of the per-side columns.
pub(crate) fn lance_table(t: &MusStats, sides: [String; 2]) -> String {
    let mut rows = vec![row![
        "lance",
        "settled",
        "bet",
        format!("opened {}/{}", sides[0], sides[1]),
        "accepted",
        "órdago",
        format!("órdago won {}/{}", sides[0], sides[1]),
        "declined",
        "en paso",
        "unbet",
        "void"
    ]];
    for l in Lance::ALL {
        let s = &t.lances[lance_index(l)];
        rows.push(row![
            l.name(),
            s.settled,
            format!("{} ({})", s.bet, pct(s.bet, s.settled)),
            format!("{}/{}", s.opened[0], s.opened[1]),
            format!("{} ({})", s.accepted, pct(s.accepted, s.bet)),
            s.ordago,
            format!("{}/{}", s.ordago_won[0], s.ordago_won[1]),
            s.declined,
            s.en_paso,
            s.unbet,
            s.void
        ]);
    }
    table(&rows)
}

/// "2.31 s on 2 threads: 1,466 games/s".
pub(crate) fn timing_text<T>(r: &ArenaReport<T>) -> String {
    format!(
        "{:.2} s on {} thread{}: {}\n",
        r.seconds,
        r.threads,
        if r.threads == 1 { "" } else { "s" },
        rate(r.games_per_second(), "games")
    )
}
