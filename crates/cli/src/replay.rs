//! `tapete replay`: re-runs a recorded game of any game, telling every action and what
//! followed, with every hand shown after each deal.

use crate::error::{CliError, CliResult};
use crate::text::{emit, table};
use clap::Args;
use serde_json::{json, Value};
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use tapete_host::{Host, Narrate, Visitor};
use tapete_table::{Game, Record, ReplayError};

/// Arguments of `tapete replay`.
#[derive(Args, Debug)]
#[command(after_help = "Records are written by `tapete play GAME --record FILE.json`.")]
pub struct ReplayArgs {
    /// The record to replay (JSON: game, rules, seats, seed, actions).
    #[arg(value_name = "FILE.json")]
    pub file: PathBuf,
    /// Wait for Enter after each action (when stdin is a terminal).
    #[arg(long)]
    pub step: bool,
}

/// Reads a record file as JSON, and the game it names (records made before records named
/// their game are Mus records).
fn load(path: &Path) -> CliResult<(String, Value)> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("cannot read {}: {e}", path.display())))?;
    let v: Value = serde_json::from_str(&text)
        .map_err(|e| CliError::input(format!("{} is not a tapete record: {e}", path.display())))?;
    let game = match v.get("game") {
        None => "mus".to_string(),
        Some(Value::String(g)) => g.clone(),
        Some(other) => {
            return Err(CliError::input(format!(
                "{}: `game` must be a game's name, not {other}",
                path.display()
            )))
        }
    };
    Ok((game, v))
}

/// Runs `tapete replay`.
pub fn run(a: &ReplayArgs, json: bool) -> CliResult {
    let (game, value) = load(&a.file)?;
    let file = a.file.as_path();
    tapete_catalog::visit(
        &game,
        Replay {
            file,
            value,
            json,
            step: a.step,
        },
    )
    .map_err(|e| CliError::input(format!("{}: {e}", file.display())))?
}

struct Replay<'a> {
    file: &'a Path,
    value: Value,
    json: bool,
    step: bool,
}

impl Visitor for Replay<'_> {
    type Output = CliResult;
    fn visit<H: Host>(self) -> CliResult {
        let file = self.file;
        let record: Record<H::G> = serde_json::from_value(self.value).map_err(|e| {
            CliError::input(format!(
                "{} is not a tapete {} record: {e}",
                file.display(),
                H::TITLE
            ))
        })?;
        replay::<H>(file, &record, self.json, self.step)
    }
}

/// `key value, key value` for a rules object.
fn rules_text(rules: &Value) -> String {
    match rules {
        Value::Object(m) => m
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => format!("{} {s}", k.replace('_', " ")),
                Value::Bool(true) => format!("{} on", k.replace('_', " ")),
                Value::Bool(false) => format!("{} off", k.replace('_', " ")),
                other => format!("{} {other}", k.replace('_', " ")),
            })
            .collect::<Vec<_>>()
            .join(", "),
        other => other.to_string(),
    }
}

fn replay<H: Host>(file: &Path, record: &Record<H::G>, json: bool, step: bool) -> CliResult {
    let step = step && !json && std::io::stdin().is_terminal();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut steps = Vec::new();
    let mut write_failed: Option<std::io::Error> = None;
    let setup = |e: String| {
        CliError::input(format!(
            "{}: the record's set-up is invalid: {e}",
            file.display()
        ))
    };
    let first =
        H::G::new(&record.rules, record.seats, record.seed).map_err(|e| setup(e.to_string()))?;
    let mut narrator = H::narrator(&first, None);
    let opening = narrator.opening(&first);
    let width = record.actions.len().to_string().len();
    let pad = " ".repeat(width + 3);
    if !json {
        let rules = serde_json::to_value(&record.rules).unwrap_or(Value::Null);
        let _ = writeln!(
            out,
            "{} with {} players, seed {}, {} actions, rules: {}",
            H::TITLE,
            record.seats,
            record.seed,
            record.actions.len(),
            rules_text(&rules)
        );
        for l in &opening {
            let _ = writeln!(out, "{pad} {l}");
        }
        let _ = write_hands::<H>(&mut out, &first, &pad);
    }
    let result = record.replay_steps(|i, game, events| {
        let (seat, action) = &record.actions[i];
        let mut lines = Vec::new();
        let mut dealt = false;
        for e in events {
            dealt |= narrator.begins_hand(e);
            lines.extend(narrator.lines(e));
        }
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
            let tag = format!("[{i:>width$}]");
            match lines.split_first() {
                Some((head, tail)) => {
                    writeln!(out, "{tag} {head}")?;
                    for l in tail {
                        writeln!(out, "{pad} {l}")?;
                    }
                }
                None => writeln!(out, "{tag} seat {seat}: {action}")?,
            }
            if dealt {
                write_hands::<H>(&mut out, game, &pad)?;
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
        ReplayError::Setup(e) => setup(e.to_string()),
        e => CliError::input(format!("{}: {e}", file.display())),
    })?;
    let outcome = game.outcome();
    if json {
        let v = json!({
            "game": H::NAME,
            "seed": record.seed,
            "players": record.seats,
            "rules": record.rules,
            "actions": record.actions.len(),
            "opening": opening,
            "steps": steps,
            "scores": H::scores(&game),
            "outcome": outcome,
            "finished": outcome.is_some(),
        });
        return emit(&format!("{v}\n"));
    }
    drop(out);
    emit(&format!("\n{}", crate::play::score_text::<H>(&game)))
}

/// Prints every hand face up (a replay shows every card), indented under the actions.
fn write_hands<H: Host>(out: &mut impl Write, game: &H::G, pad: &str) -> std::io::Result<()> {
    let rows: Vec<Vec<String>> = H::hands_rows(game)
        .into_iter()
        .map(|mut r| {
            if let Some(first) = r.first_mut() {
                *first = format!("{pad} {first}");
            }
            r
        })
        .collect();
    write!(out, "{}", table(&rows))
}
