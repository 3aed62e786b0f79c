//! `tapete replay`: re-runs a recorded game, telling every action and what followed.

use crate::error::{CliError, CliResult};
use crate::row;
use crate::text::{emit, pair_name, table};
use clap::Args;
use serde_json::json;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use tapete_mus::narrate::{cards_text, event_line, jugada_of, seat_label, Narrator};
use tapete_mus::{Event, MusGame, Scores};
use tapete_table::{Game, Outcome, Record, ReplayError};

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
    let mut narrator = Narrator::new().with_mode(record.rules.mode).with_mano(0);
    if !json {
        // The first hand is dealt when the game is created, before any action.
        if let Ok(g) = MusGame::new(&record.rules, record.seats, record.seed) {
            let _ = write_hands(&mut out, &g, width);
        }
    }
    let result = record.replay_steps(|i, game, events| {
        let (seat, action) = &record.actions[i];
        if json {
            let lines: Vec<String> = events.iter().map(event_line).collect();
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
            writeln!(out, "[{i:>width$}] {}: {action}", narrator.seat(*seat))?;
            for e in events {
                let lines = narrator.lines(e);
                // The action itself was just printed.
                if matches!(e, Event::Said { seat: s, action: a } if s == seat && a == action) {
                    continue;
                }
                for l in lines {
                    writeln!(out, "{:>width$}    {l}", "")?;
                }
                if matches!(e, Event::HandStarted { .. }) {
                    write_hands(&mut out, game, width)?;
                }
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
        return emit(&format!("{v}\n"));
    }
    drop(out);
    emit(&format!("\n{}", score_table(&scores, outcome.as_ref())))
}

/// Prints the four hands just dealt (a replay shows every card).
fn write_hands(out: &mut impl Write, game: &MusGame, width: usize) -> std::io::Result<()> {
    let rows: Vec<Vec<String>> = (0..4)
        .map(|seat| {
            let cards = game.cards_of(seat).to_vec();
            let jugada = jugada_of(&cards, game.rules().mode).map(|j| j.to_string());
            vec![
                format!("{:>width$}    {}", "", seat_label(seat, game.mano())),
                cards_text(&cards),
                jugada.unwrap_or_default(),
            ]
        })
        .collect();
    write!(out, "{}", table(&rows))
}

/// Final scores and result as aligned text (shared with `play`).
pub fn score_table(scores: &Scores, outcome: Option<&Outcome>) -> String {
    let mut rows = vec![row!["", "piedras", "games", "vacas"]];
    for pair in 0..2 {
        rows.push(row![
            format!("pair {}", pair_name(pair)),
            scores.piedras[pair],
            scores.games[pair],
            scores.vacas[pair]
        ]);
    }
    let mut s = table(&rows);
    s.push_str(&match outcome {
        Some(o) => format!("result: {}\n", o.summary),
        None => "result: not finished (the match stopped before its end)\n".to_string(),
    });
    s
}
