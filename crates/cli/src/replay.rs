//! `tapete replay`: re-runs a recorded game, telling every action and what followed.

use crate::error::{CliError, CliResult};
use crate::text::pair_name;
use clap::Args;
use serde_json::json;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use tapete_mus::narrate::event_line;
use tapete_mus::MusGame;
use tapete_table::{Game, Record, ReplayError};

/// Arguments of `tapete replay`.
#[derive(Args, Debug)]
#[command(after_help = "Records are written by `tapete play mus --record FILE.json`.")]
pub struct ReplayArgs {
    /// The record to replay (JSON: rules, seats, seed, actions).
    #[arg(value_name = "FILE.json")]
    pub file: PathBuf,
    /// Wait for Enter after each action (when stdin is a terminal).
    #[arg(long)]
    pub step: bool,
}

/// Reads and decodes a Mus record.
pub fn load(path: &Path) -> CliResult<Record<MusGame>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("cannot read {}: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| {
        CliError::input(format!(
            "{} is not a tapete Mus record: {e}",
            path.display()
        ))
    })
}

/// Runs `tapete replay`.
pub fn run(a: &ReplayArgs, json: bool) -> CliResult {
    let record = load(&a.file)?;
    let step = a.step && !json && std::io::stdin().is_terminal();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut steps = Vec::new();
    let mut write_failed: Option<std::io::Error> = None;
    if !json {
        let _ = writeln!(
            out,
            "seed {}, {} actions, rules: mode {}, 31 real {}, target {}, juegos {}, vacas {}",
            record.seed,
            record.actions.len(),
            record.rules.mode,
            if record.rules.real31 { "on" } else { "off" },
            record.rules.target,
            record.rules.juegos,
            record.rules.vacas
        );
    }
    let width = record.actions.len().to_string().len();
    let result = record.replay_steps(|i, _game, events| {
        let (seat, action) = &record.actions[i];
        let lines: Vec<String> = events.iter().map(event_line).collect();
        if json {
            steps.push(json!({
                "index": i,
                "seat": seat,
                "action": action.to_string(),
                "lines": lines,
                "events": events,
            }));
            return;
        }
        let mut w = || -> std::io::Result<()> {
            writeln!(out, "[{i:>width$}] seat {seat}: {action}")?;
            for l in &lines {
                writeln!(out, "{:>width$}    {l}", "")?;
            }
            out.flush()
        };
        if let Err(e) = w() {
            write_failed.get_or_insert(e);
        }
        if step && i + 1 < record.actions.len() {
            let mut line = String::new();
            let _ = input.read_line(&mut line);
        }
    });
    if let Some(e) = write_failed {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            return Err(CliError::run(format!("cannot write: {e}")));
        }
        return Ok(());
    }
    let game = result.map_err(|e| match e {
        ReplayError::Setup(e) => CliError::input(format!(
            "{}: the record's set-up is invalid: {e}",
            a.file.display()
        )),
        e @ ReplayError::Refused { .. } => CliError::input(format!("{}: {e}", a.file.display())),
    })?;
    let scores = game.scores();
    let outcome = game.outcome();
    if json {
        let v = json!({
            "seed": record.seed,
            "rules": record.rules,
            "actions": record.actions.len(),
            "steps": steps,
            "scores": scores,
            "outcome": outcome,
            "finished": outcome.is_some(),
        });
        println!("{v}");
        return Ok(());
    }
    let _ = writeln!(out);
    for pair in 0..2 {
        let _ = writeln!(
            out,
            "pair {}  {} piedras, {} games, {} vacas",
            pair_name(pair),
            scores.piedras[pair],
            scores.games[pair],
            scores.vacas[pair]
        );
    }
    let _ = match &outcome {
        Some(o) => writeln!(out, "result    {}", o.summary),
        None => writeln!(out, "result    not finished: the record stops mid-match"),
    };
    Ok(())
}
