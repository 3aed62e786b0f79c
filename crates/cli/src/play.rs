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
use tapete_term::PlayOptions;

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
is read per line (mus, no hay mus, descarto 12o 1b, paso, envido 5, quiero, no quiero, órdago…)."
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
    /// Write the game's record (rules, seed, actions) to this JSON file.
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

/// Runs `tapete play mus`.
pub fn run(a: &PlayArgs, json: bool) -> CliResult {
    let rules = a.table.rules(a.juegos, a.vacas);
    rules.validate().map_err(CliError::input)?;
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
    let played = if std::io::stdin().is_terminal() {
        tapete_term::play_tui(&opts)
    } else {
        let stdin = std::io::stdin();
        let stdout = std::io::stdout();
        tapete_term::play_lines(&opts, stdin.lock(), stdout.lock())
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
