//! `tapete play mus`: a match against three bots, full-screen at a terminal or line by
//! line when stdin is piped.

use crate::args::{parse_best_of, parse_level, parse_seat, parse_seed, TableArgs};
use crate::error::{CliError, CliResult};
use crate::text::emit;
use clap::{Args, Subcommand};
use serde_json::json;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};
use tapete_mus::MusGame;
use tapete_table::{Game, Record};
use tapete_term::{PlayOptions, Screen};

/// Games that can be played.
#[derive(Subcommand, Debug)]
pub enum PlayGame {
    /// Play Mus against three bots (you and a bot partner against two bots).
    Mus(PlayArgs),
}

/// Arguments of `tapete play mus`.
#[derive(Args, Debug)]
#[command(
    after_help = "At a terminal the table is full-screen; with stdin piped, one decision \
is read per line (mus, no hay mus, descarto 12o 1b, paso, envido 5, quiero, no quiero, órdago…).\n\n\
With --json the table (full-screen or line by line) is shown on stderr, and stdout gets \
only one JSON document when the game ends: {\"seed\", \"seat\", \"bots\": {\"partner\", \
\"rivals\"}, \"rules\", \"actions\" (how many), \"scores\" (piedras, games, vacas, pair 0–2 \
first), \"outcome\" (winners and summary, or null), \"finished\", \"record\" (the --record \
path, or null)}. Errors are {\"error\", \"kind\"} on stdout, with a non-zero exit."
)]
pub struct PlayArgs {
    #[command(flatten)]
    pub table: TableArgs,
    /// Games per vaca (best of N): 1, 3 or 5.
    #[arg(long, value_name = "N", default_value = "3", value_parser = parse_best_of)]
    pub juegos: u8,
    /// Vacas per match (best of N): 1, 3 or 5.
    #[arg(long, value_name = "N", default_value = "1", value_parser = parse_best_of)]
    pub vacas: u8,
    /// Shuffle seed (default: from the clock, printed so the game can be replayed).
    #[arg(long, value_name = "S", value_parser = parse_seed)]
    pub seed: Option<u64>,
    /// Bot of the other three seats: a level (random, basico, avanzado, experto,
    /// maestro:ms=N) or cmd:COMMAND for a program speaking the bot protocol.
    #[arg(long, value_name = "LEVEL", default_value = "basico", value_parser = parse_level)]
    pub bots: String,
    /// Your partner's bot (default: --bots).
    #[arg(long, value_name = "LEVEL", value_parser = parse_level)]
    pub partner: Option<String>,
    /// The two rivals' bot (default: --bots).
    #[arg(long, value_name = "LEVEL", value_parser = parse_level)]
    pub rivals: Option<String>,
    /// Your seat, 0–3 (0 is the first mano; your partner sits at seat+2).
    #[arg(long, value_name = "0-3", default_value = "0", value_parser = parse_seat)]
    pub seat: usize,
    /// Write the game's record (rules, seed, actions) to this JSON file. Its directory
    /// must exist and the file be writable: this is checked before the game starts.
    #[arg(long, value_name = "FILE.json")]
    pub record: Option<PathBuf>,
}

/// A seed from the clock.
fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64 ^ (d.as_secs() << 20))
        .unwrap_or(0)
}

/// Writes `record` as pretty JSON to `path`.
pub fn write_record(record: &Record<MusGame>, path: &Path) -> CliResult {
    let text = serde_json::to_string_pretty(record)
        .map_err(|e| CliError::run(format!("cannot encode the record: {e}")))?;
    std::fs::write(path, text + "\n").map_err(|e| {
        CliError::run(format!(
            "cannot write the record to {}: {e}",
            path.display()
        ))
    })
}

/// Checks, before any game, that a record can be written at `path`: its directory
/// exists and the file can be created or overwritten. Leaves no file behind.
pub fn check_record_path(path: &Path) -> CliResult {
    let bad = |why: String| CliError::input(format!("--record {}: {why}", path.display()));
    if path.as_os_str().is_empty() {
        return Err(bad("name a file".into()));
    }
    if path.is_dir() {
        return Err(bad("is a directory, not a file".into()));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.exists() {
        return Err(bad(format!(
            "the directory {} does not exist",
            dir.display()
        )));
    }
    if !dir.is_dir() {
        return Err(bad(format!("{} is not a directory", dir.display())));
    }
    let existed = path.exists();
    // Opening without truncating checks the permission and keeps an existing file whole
    // until the game is over.
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| bad(format!("cannot write there: {e}")))?;
    if !existed {
        std::fs::remove_file(path).map_err(|e| bad(format!("cannot write there: {e}")))?;
    }
    Ok(())
}

/// Runs `tapete play mus`. With `json`, the table is shown on stderr and stdout gets
/// only the final JSON document.
pub fn run(a: &PlayArgs, json: bool) -> CliResult {
    let rules = a.table.rules(a.juegos, a.vacas);
    rules.validate().map_err(CliError::input)?;
    if let Some(path) = &a.record {
        check_record_path(path)?;
    }
    let seed = a.seed.unwrap_or_else(clock_seed);
    if a.seed.is_none() {
        eprintln!("tapete: seed {seed} (play this deal again with --seed {seed})");
    }
    let opts = PlayOptions {
        rules,
        seed,
        human: a.seat,
        bots: a.bots.clone(),
        partner: a.partner.clone(),
        rivals: a.rivals.clone(),
    };
    // With --json stdout is kept for the result: the table goes to stderr, full-screen
    // when that is a terminal.
    let screen = if json { Screen::Stderr } else { Screen::Stdout };
    let stdin = std::io::stdin();
    let full_screen = stdin.is_terminal() && (!json || screen.is_terminal());
    let played = if full_screen {
        tapete_term::play_tui(&opts, screen)
    } else if json {
        tapete_term::play_lines(&opts, stdin.lock(), std::io::stderr().lock())
    } else {
        tapete_term::play_lines(&opts, stdin.lock(), std::io::stdout().lock())
    };
    let record = played.map_err(|e| CliError::run(format!("the game stopped: {e:#}")))?;
    if let Some(path) = &a.record {
        write_record(&record, path)?;
    }
    let game = record
        .replay()
        .map_err(|e| CliError::run(format!("the game's own record does not replay: {e}")))?;
    let scores = game.scores();
    let outcome = game.outcome();
    if json {
        let v = json!({
            "seed": seed,
            "seat": a.seat,
            "bots": {
                "partner": opts.bot_for((a.seat + 2) % 4),
                "rivals": opts.bot_for((a.seat + 1) % 4),
            },
            "rules": record.rules,
            "actions": record.actions.len(),
            "scores": scores,
            "outcome": outcome,
            "finished": outcome.is_some(),
            "record": a.record.as_ref().map(|p| p.display().to_string()),
        });
        emit(&format!("{v}\n"))
    } else {
        let mut s = format!(
            "\n{}",
            crate::replay::score_table(&scores, outcome.as_ref())
        );
        s.push_str(&format!(
            "seed: {seed} (tapete play mus --seed {seed} deals the same cards)\n"
        ));
        if let Some(path) = &a.record {
            s.push_str(&format!("record: {}\n", path.display()));
        }
        emit(&s)
    }
}
