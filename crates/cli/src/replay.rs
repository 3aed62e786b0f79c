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
    /// Stop after the record's first N actions and show the state there: every hand, who
    /// is to act and what each of them may do (with --json, also each seat's view as a
    /// `cmd:` bot receives it). `tapete play GAME --from FILE --at N` plays on from there.
    #[arg(long, value_name = "N")]
    pub at: Option<usize>,
}

/// Reads a record file as JSON, and the game it names (records made before records named
/// their game are Mus records).
pub(crate) fn load(path: &Path) -> CliResult<(String, Value)> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("cannot read {}: {e}", path.display())))?;
    let v: Value = serde_json::from_str(&text).map_err(|e| {
        CliError::input(format!(
            "{} is not a tapete record: expected {RECORD}, found text that is not JSON ({e})",
            path.display()
        ))
    })?;
    if !v.is_object() {
        return Err(CliError::input(format!(
            "{} is not a tapete record: expected {RECORD}, found {}",
            path.display(),
            describe(&v)
        )));
    }
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

/// What a record file holds, for errors.
const RECORD: &str =
    "a JSON object with `game`, `rules`, `seats`, `seed` and `actions` (as `tapete play --record` writes)";

/// What a JSON value is, in words, for errors: "an array", "an object with the keys …".
fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("`{b}`"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(_) => "a string".into(),
        Value::Array(_) => "an array".into(),
        Value::Object(m) if m.is_empty() => "an empty object".into(),
        Value::Object(m) => format!(
            "an object with the keys {}",
            m.keys()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
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
            at: a.at,
        },
    )
    .map_err(|e| CliError::input(format!("{}: {e}", file.display())))?
}

struct Replay<'a> {
    file: &'a Path,
    value: Value,
    json: bool,
    step: bool,
    at: Option<usize>,
}

impl Visitor for Replay<'_> {
    type Output = CliResult;
    fn visit<H: Host>(self) -> CliResult {
        let file = self.file;
        let found = describe(&self.value);
        let named = self.value.get("game").is_some();
        let record: Record<H::G> = serde_json::from_value(self.value).map_err(|e| {
            let expected = if named {
                format!("a tapete {} record", H::TITLE)
            } else {
                // Records made before records named their game are Mus records.
                format!(
                    "a tapete record ({RECORD}; one without `game` is read as an old {} record)",
                    H::TITLE
                )
            };
            CliError::input(format!(
                "{} is not a valid record: expected {expected}, found {found}, which does not read as one: {e}",
                file.display()
            ))
        })?;
        let mut record = record;
        if let Some(n) = self.at {
            check_at(file, n, record.actions.len())?;
            record.actions.truncate(n);
        }
        replay::<H>(file, &record, self.json, self.step, self.at.is_some())
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

/// Checks `--at N` against a record of `len` actions.
pub(crate) fn check_at(file: &Path, n: usize, len: usize) -> CliResult {
    if n > len {
        return Err(CliError::input(format!(
            "--at {n}: {} has only {len} actions; give --at 0 to {len}",
            file.display()
        )));
    }
    Ok(())
}

/// Who is to act, each of them with the legal actions as text, and every seat's view.
type StateAt = (Vec<usize>, Vec<(usize, Vec<String>)>, Value);

/// The state a replay stopped at (`--at`): who is to act, what each may do, and (as JSON)
/// each seat's view.
fn state_at<H: Host>(game: &H::G, seats: usize) -> StateAt {
    let to_act = game.to_act().seats().to_vec();
    let legal = to_act
        .iter()
        .map(|&s| {
            let actions = game
                .legal_actions(s)
                .iter()
                .map(ToString::to_string)
                .collect();
            (s, actions)
        })
        .collect();
    let views = (0..seats)
        .map(|s| serde_json::to_value(game.view(s)).unwrap_or(Value::Null))
        .collect();
    (to_act, legal, Value::Array(views))
}

fn replay<H: Host>(
    file: &Path,
    record: &Record<H::G>,
    json: bool,
    step: bool,
    at: bool,
) -> CliResult {
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
        let mut v = v;
        if at {
            let (to_act, legal, views) = state_at::<H>(&game, record.seats);
            crate::sim::merge(
                &mut v,
                json!({
                    "at": record.actions.len(),
                    "to_act": to_act,
                    "legal": legal.into_iter().map(|(s, l)| json!({"seat": s, "actions": l})).collect::<Vec<_>>(),
                    "views": views,
                })
                .as_object()
                .cloned()
                .unwrap_or_default(),
            );
        }
        return emit(&format!("{v}\n"));
    }
    if at {
        let (to_act, legal, _) = state_at::<H>(&game, record.seats);
        let _ = writeln!(
            out,
            "\nstopped at action {} (--at): every hand now",
            record.actions.len()
        );
        let _ = write_hands::<H>(&mut out, &game, &pad);
        if to_act.is_empty() {
            let _ = writeln!(out, "nobody is to act: the game is over");
        }
        for (seat, actions) in legal {
            let _ = writeln!(out, "seat {seat} is to act; legal: {}", actions.join(", "));
        }
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
