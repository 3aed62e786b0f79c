//! `tapete sim GAME`: many bot games headless, in parallel, with each seat's wins and the
//! game's own statistics; shared with `tapete arena GAME`.

use crate::args::{parse_seed, parse_threads, parse_timeout};
use crate::error::{CliError, CliResult};
use crate::games::{self, GameArgs};
use crate::text::{emit, pair_name, pct, progress_bar, rate, ratio, table};
use clap::Args;
use serde_json::{json, Map, Value};
use std::path::Path;
use std::time::Duration;
use tapete_host::{row, Host, Visitor};
use tapete_table::arena::{
    run_arena_keeping, ArenaConfig, ArenaError, ArenaReport, Fixture, Incident, Layout, Side,
};
use tapete_table::{Game, Record};

/// For a `cmd:` bot, checks that its program can be started at all (a plain command
/// naming a program that is not there fails here, before any game); other bots pass.
pub(crate) fn check_command(name: &str) -> CliResult {
    let trimmed = name.trim();
    if let Some((level, command)) = trimmed.split_once(':') {
        if level.trim().eq_ignore_ascii_case("cmd") {
            return tapete_table::protocol::check_command(command)
                .map_err(|e| CliError::run(format!("`{trimmed}`: cannot start the program: {e}")));
        }
    }
    Ok(())
}

/// The file name of game `f`'s record in an `--records` directory: its number and seed.
pub(crate) fn record_name(f: &Fixture) -> String {
    format!("game-{:06}-seed-{}.json", f.index, f.seed)
}

/// Makes the `--records` directory if it is not there, and checks it is a writable
/// directory, before any game is played.
fn check_records_dir(dir: &Path) -> CliResult {
    let bad = |why: String| CliError::input(format!("--records {}: {why}", dir.display()));
    if dir.exists() && !dir.is_dir() {
        return Err(bad("is not a directory".into()));
    }
    std::fs::create_dir_all(dir).map_err(|e| bad(format!("cannot create it: {e}")))?;
    let probe = dir.join(".tapete-write-check");
    std::fs::write(&probe, b"").map_err(|e| bad(format!("cannot write there: {e}")))?;
    let _ = std::fs::remove_file(probe);
    Ok(())
}

/// What `tapete sim GAME` takes besides the table options.
#[derive(Args, Debug)]
#[command(after_help = "Game i uses seed S+i, so results do not depend on --threads.")]
pub struct SimArgs {
    /// How many games to play.
    #[arg(long, value_name = "N")]
    pub games: u64,
    /// Seed of the first game.
    #[arg(long, value_name = "S", default_value = "0", value_parser = parse_seed)]
    pub seed: u64,
    /// Players at the table (default: the game's usual number).
    #[arg(long, value_name = "N")]
    pub players: Option<usize>,
    /// Bot of every seat: a level of the game or cmd:COMMAND for a program speaking the
    /// bot protocol.
    #[arg(long, value_name = "LEVEL", default_value = "basico")]
    pub bots: String,
    /// Bot of side A (in partnership games the pair of seat 0, otherwise seat 0);
    /// overrides --bots.
    #[arg(long, value_name = "LEVEL")]
    pub a: Option<String>,
    /// Bot of side B (every other seat); overrides --bots.
    #[arg(long, value_name = "LEVEL")]
    pub b: Option<String>,
    /// Worker threads, 1 to 256 (default: one per CPU).
    #[arg(long, value_name = "T", value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Longest wait for one answer of a cmd: bot, in seconds.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_timeout)]
    pub bot_timeout: Duration,
    /// Most actions in one game: a game still going then is stopped, counted as
    /// unfinished and left out of the wins.
    #[arg(long, value_name = "N", default_value = "20000", value_parser = parse_max_actions)]
    pub max_actions: usize,
}

/// Reads `--max-actions`: 1 to 100,000,000.
pub(crate) fn parse_max_actions(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=100_000_000).contains(&n) => Ok(n),
        _ => Err(format!(
            "`{s}` is not a number of actions: give a whole number from 1 to 100000000"
        )),
    }
}

/// What to play: `games` games from `seed` between `bots` (`[A, B]`) seated by `layout`.
/// Shared by `sim` and `arena`.
pub(crate) struct RunSpec<'a, H: Host> {
    pub rules: &'a <H::G as Game>::Rules,
    pub seats: usize,
    pub bots: &'a [String; 2],
    pub bot_timeout: Duration,
    pub games: u64,
    /// Number of the first game (a shard of a larger run starts further on).
    pub first: u64,
    pub seed: u64,
    pub threads: Option<usize>,
    pub layout: Layout,
    /// JSON output: no progress bar.
    pub json: bool,
    /// A directory to write every game's record into (`arena --records`).
    pub records: Option<&'a Path>,
    /// Most actions in one game.
    pub max_actions: usize,
}

/// Plays the games of `spec` in parallel, with a progress bar, gathering the game's
/// statistics.
pub(crate) fn run_games<H: Host>(spec: &RunSpec<H>) -> CliResult<ArenaReport<H::Stats>> {
    if spec.games == 0 {
        return Err(CliError::usage("--games must be at least 1"));
    }
    for b in spec.bots {
        games::check_bot::<H>(b)?;
        check_command(b)?;
    }
    if let Some(dir) = spec.records {
        check_records_dir(dir)?;
    }
    stop_programs_on_signals()?;
    let config = ArenaConfig::<H::G> {
        rules: spec.rules.clone(),
        seats: spec.seats,
        games: spec.games,
        first: spec.first,
        seed: spec.seed,
        threads: spec.threads,
        max_actions: spec.max_actions,
        layout: spec.layout,
    };
    let bar = progress_bar(spec.games, "games", spec.json);
    let bots = spec.bots;
    let timeout = spec.bot_timeout;
    let keep = |f: &Fixture, record: &Record<H::G>| match spec.records {
        Some(dir) => {
            // Each seat named by its bot, as given (what `tapete screen` groups by).
            let mut named = record.clone();
            named.players = (0..f.seats)
                .map(|seat| bots[f.side_of(seat).index()].clone())
                .collect();
            crate::play::write_record(&named, &dir.join(record_name(f))).map_err(|e| e.to_string())
        }
        None => Ok(()),
    };
    let report = run_arena_keeping(
        &config,
        |side: Side, _| games::make_bot::<H>(&bots[side.index()], timeout),
        &|| bar.inc(1),
        &keep,
    );
    bar.finish_and_clear();
    report.map_err(|e| match e {
        ArenaError::NoGames => CliError::usage("--games must be at least 1"),
        other => CliError::run(other.to_string()),
    })
}

/// Runs `tapete sim GAME …`.
pub fn run(a: &GameArgs, json: bool) -> CliResult {
    tapete_catalog::visit(
        &a.game,
        Sim {
            rest: &a.rest,
            json,
        },
    )
    .map_err(|e| CliError::usage(e.to_string()))?
}

struct Sim<'a> {
    rest: &'a [String],
    json: bool,
}

impl Visitor for Sim<'_> {
    type Output = CliResult;
    fn visit<H: Host>(self) -> CliResult {
        let Some(p) = games::parse::<SimArgs, H>(
            "sim",
            &format!(
                "Play many {} games between bots and report statistics",
                H::TITLE
            ),
            self.rest,
            self.json,
        )?
        else {
            return Ok(());
        };
        let a = &p.args;
        let seats = games::seats::<H>(a.players)?;
        let rules = games::rules::<H>(H::arena_rules(), &p.given, seats)?;
        let levels = [
            a.a.clone().unwrap_or_else(|| a.bots.clone()),
            a.b.clone().unwrap_or_else(|| a.bots.clone()),
        ];
        let partners = H::PARTNERS && seats.is_multiple_of(2);
        let report = run_games::<H>(&RunSpec {
            rules: &rules,
            seats,
            bots: &levels,
            bot_timeout: a.bot_timeout,
            games: a.games,
            first: 0,
            seed: a.seed,
            threads: a.threads,
            layout: if partners {
                Layout::Fixed
            } else {
                Layout::FirstSeat
            },
            json: p.json,
            records: None,
            max_actions: a.max_actions,
        })?;
        if p.json {
            let mut v = json!({
                "game": H::NAME,
                "games": report.games,
                "seed": a.seed,
                "players": seats,
                "bots": levels,
                "rules": rules,
                "wins": report.wins,
                "draws": report.draws,
                "unfinished": unfinished_json(&report),
                "seat_wins": report.seat_wins,
                "actions": report.actions,
                "actions_per_game": ratio(report.actions, report.games),
                "incidents": incidents_json(&report.incidents),
                "timing": timing_json(&report),
            });
            merge(&mut v, H::stats_json(&report.stats));
            emit(&format!("{v}\n"))
        } else {
            emit(&games::after_heading(
                &sim_text::<H>(a, seats, partners, &levels, &report),
                &games::rules_line::<H>(&rules),
            ))
        }
    }
}

/// Adds a game's statistics to a JSON object.
pub(crate) fn merge(v: &mut Value, members: Map<String, Value>) {
    if let Value::Object(m) = v {
        m.extend(members);
    }
}

fn sim_text<H: Host>(
    a: &SimArgs,
    seats: usize,
    partners: bool,
    levels: &[String; 2],
    r: &ArenaReport<H::Stats>,
) -> String {
    let mut out;
    let sides: [String; 2];
    if partners {
        sides = [
            format!("pair {}", pair_name(0)),
            format!("pair {}", pair_name(1)),
        ];
        out = format!(
            "{} {} games from seed {}: {} ({}) against {} ({})\n\n",
            r.games,
            H::TITLE,
            a.seed,
            sides[0],
            levels[0],
            sides[1],
            levels[1]
        );
        let mut rows = vec![row!["pair", "games won", "share"]];
        for s in 0..2 {
            rows.push(row![pair_name(s), r.wins[s], pct(r.wins[s], r.finished())]);
        }
        out.push_str(&table(&rows));
    } else {
        sides = ["seat 0".into(), "the others".into()];
        let who = if levels[0] == levels[1] {
            format!("{} at every seat", levels[0])
        } else {
            format!("{} at seat 0, {} at the others", levels[0], levels[1])
        };
        out = format!(
            "{} {} games of {seats} players from seed {}: {who}\n\n",
            r.games,
            H::TITLE,
            a.seed
        );
        let mut rows = vec![row!["seat", "bot", "games won", "share"]];
        for (seat, wins) in r.seat_wins.iter().enumerate() {
            let bot = if seat == 0 { &levels[0] } else { &levels[1] };
            rows.push(row![seat, bot, wins, pct(*wins, r.finished())]);
        }
        out.push_str(&table(&rows));
    }
    if r.draws > 0 {
        out.push_str(&format!("games without a winner: {}\n", r.draws));
    }
    out.push_str(&unfinished_text(r));
    out.push_str(&format!(
        "actions per game: {:.1}\n",
        ratio(r.actions, r.games)
    ));
    let extra = H::stats_text(&r.stats, [&sides[0], &sides[1]]);
    if !extra.is_empty() {
        out.push('\n');
        out.push_str(&extra);
    }
    out.push('\n');
    out.push_str(&incidents_text(&r.incidents, false));
    out.push_str(&timing_text(r));
    out
}

/// Most unfinished games named in text output (JSON names them all).
const UNFINISHED_SHOWN: usize = 10;

/// The games stopped unfinished, as text: none, or how many, which, and that results count
/// the finished games only.
pub(crate) fn unfinished_text<T>(r: &ArenaReport<T>) -> String {
    if r.unfinished.is_empty() {
        return String::new();
    }
    let mut named: Vec<String> = r
        .unfinished
        .iter()
        .take(UNFINISHED_SHOWN)
        .map(|(game, seed)| format!("game {game} (seed {seed})"))
        .collect();
    if r.unfinished.len() > UNFINISHED_SHOWN {
        named.push(format!("… {} more", r.unfinished.len() - UNFINISHED_SHOWN));
    }
    format!(
        "unfinished games: {} of {} (stopped at {} actions: {}); wins and rates count the {} finished games\n",
        r.unfinished.len(),
        r.games,
        r.max_actions,
        named.join(", "),
        r.finished()
    )
}

/// `{"count", "max_actions", "list": [{"game", "seed"}]}`: the games stopped unfinished.
pub(crate) fn unfinished_json<T>(r: &ArenaReport<T>) -> serde_json::Value {
    json!({
        "count": r.unfinished.len(),
        "max_actions": r.max_actions,
        "list": r.unfinished.iter().map(|(game, seed)| json!({"game": game, "seed": seed})).collect::<Vec<_>>(),
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

/// A Ctrl-C or `kill` must not leave `cmd:` bots (in process groups of their own) running.
pub(crate) fn stop_programs_on_signals() -> CliResult {
    tapete_table::arena::stop_programs_on_signals()
        .map_err(|e| CliError::run(format!("cannot set up the signal handlers: {e}")))
}
