//! `tapete review`: every decision of a seat of a recorded game, valued from what the seat
//! knew (see docs/review.md).

use crate::error::{CliError, CliResult};
use crate::text::{emit, progress_bar, table};
use clap::Args;
use serde_json::Value;
use std::path::{Path, PathBuf};
use tapete_host::{Host, Visitor};
use tapete_review::{Label, Review, Settings};
use tapete_table::{Game, Record};

/// The most worlds a decision may be given.
const MAX_WORLDS: usize = 100_000;
/// The most threads.
const MAX_THREADS: usize = 256;

/// Arguments of `tapete review`.
#[derive(Args, Debug)]
#[command(
    after_help = "Records are written by `tapete play GAME --record FILE.json`; a server's finished tables are reviewed at /api/tables/ID/review.\n\nExamples:\n  tapete review game.json --seat 0\n  tapete review game.json --all --threads 2 --json"
)]
pub struct ReviewArgs {
    /// The record to review (JSON: game, rules, seats, seed, actions).
    #[arg(value_name = "FILE.json")]
    pub file: PathBuf,
    /// The seat to review (0 unless --all).
    #[arg(long, value_name = "N", conflicts_with = "all")]
    pub seat: Option<usize>,
    /// Review every seat.
    #[arg(long)]
    pub all: bool,
    /// Threads: decisions are valued side by side (0: one per core).
    #[arg(long, value_name = "T", default_value_t = 1)]
    pub threads: usize,
    /// Seeds the worlds and rollouts: another seed, another sample of the same values.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// The most worlds a decision is valued in (more: smaller errors, slower).
    #[arg(long, value_name = "N")]
    pub max_worlds: Option<usize>,
}

/// Runs `tapete review`.
pub fn run(a: &ReviewArgs, json: bool) -> CliResult {
    if a.threads > MAX_THREADS {
        return Err(CliError::usage(format!(
            "--threads {} is too many: at most {MAX_THREADS}",
            a.threads
        )));
    }
    let mut settings = Settings {
        threads: a.threads,
        ..Settings::default()
    };
    if let Some(seed) = a.seed {
        settings.seed = seed;
    }
    if let Some(n) = a.max_worlds {
        if !(2..=MAX_WORLDS).contains(&n) {
            return Err(CliError::usage(format!(
                "--max-worlds {n} is out of range: 2–{MAX_WORLDS}"
            )));
        }
        settings.max_worlds = n;
        settings.min_worlds = settings.min_worlds.min(n);
    }
    let (game, value) = crate::replay::load(&a.file)?;
    tapete_catalog::visit(
        &game,
        Reviewing {
            file: &a.file,
            value,
            seat: a.seat,
            all: a.all,
            settings,
            json,
        },
    )
    .map_err(|e| CliError::input(format!("{}: {e}", a.file.display())))?
}

struct Reviewing<'a> {
    file: &'a Path,
    value: Value,
    seat: Option<usize>,
    all: bool,
    settings: Settings,
    json: bool,
}

impl Visitor for Reviewing<'_> {
    type Output = CliResult;
    fn visit<H: Host>(self) -> CliResult {
        let file = self.file.display();
        if !H::reviews() {
            return Err(CliError::input(format!(
                "{}: {} has no review",
                file,
                H::TITLE
            )));
        }
        let record: Record<H::G> = serde_json::from_value(self.value).map_err(|e| {
            CliError::input(format!("{file} is not a valid {} record: {e}", H::TITLE))
        })?;
        record
            .replay()
            .map_err(|e| CliError::input(format!("{file}: {e}")))?;
        let seats: Vec<usize> = if self.all {
            (0..record.seats).collect()
        } else {
            vec![self.seat.unwrap_or(0)]
        };
        if let Some(&s) = seats.iter().find(|&&s| s >= record.seats) {
            return Err(CliError::usage(format!(
                "--seat {s}: this {} game has seats 0–{}",
                H::TITLE,
                record.seats.saturating_sub(1)
            )));
        }
        let mut reviews = Vec::new();
        for seat in seats {
            let bar = progress_bar(0, "decisions", self.json);
            bar.set_message(format!("seat {seat}"));
            let progress = |done: usize, total: usize| {
                bar.set_length(total as u64);
                bar.set_position(done as u64);
            };
            let r = H::review(&record, seat, &self.settings, &progress)
                .map_err(|e| CliError::input(format!("{file}: {e}")))?;
            bar.finish_and_clear();
            reviews.push(r);
        }
        if self.json {
            let v = match reviews.as_slice() {
                [one] => serde_json::to_value(one),
                all => serde_json::to_value(all),
            }
            .map_err(|e| CliError::run(format!("the review as JSON: {e}")))?;
            return emit(&format!("{v}\n"));
        }
        let mut out = String::new();
        for r in &reviews {
            out += &text::<H::G>(r);
        }
        emit(&out)
    }
}

/// A review as text: a summary line, the decisions and the hands.
fn text<G: Game>(r: &Review) -> String {
    let [good, inaccuracies, mistakes, blunders] = r.counts();
    let mut out = format!(
        "{} review, seat {}: accuracy {:.1} over {} decisions ({} good, {} inaccuracies, {} mistakes, {} blunders)\n\
         result {:.0}, luck {:+.1}, skill {:+.1}, luck-adjusted {:.1}\n\n",
        G::NAME,
        r.seat,
        r.accuracy,
        r.decisions.len(),
        good,
        inaccuracies,
        mistakes,
        blunders,
        r.result,
        r.luck,
        r.skill,
        r.luck_adjusted
    );
    if !r.unvalued.is_empty() {
        let at: Vec<String> = r.unvalued.iter().map(|a| a.to_string()).collect();
        out += &format!(
            "left unvalued (no deal of the unseen cards fits what was declared): action {}\n\n",
            at.join(", ")
        );
    }
    let mut rows = vec![["action", "hand", "played", "best", "loss", "±", "label"]
        .map(String::from)
        .to_vec()];
    for d in &r.decisions {
        rows.push(vec![
            d.at.to_string(),
            d.hand.to_string(),
            d.played.clone(),
            if d.best == d.played {
                "=".into()
            } else {
                d.best.clone()
            },
            format!("{:.1}", d.loss),
            format!("{:.1}", d.se),
            if d.label == Label::Good {
                String::new()
            } else {
                d.label.name().into()
            },
        ]);
    }
    out += &table(&rows);
    out += "\n";
    let mut hands = vec![["hand", "start %", "end %", "luck", "skill"]
        .map(String::from)
        .to_vec()];
    for h in &r.hands {
        hands.push(vec![
            h.hand.to_string(),
            format!("{:.1}", 100.0 * h.start),
            format!("{:.1}", 100.0 * h.end),
            format!("{:+.1}", h.luck),
            format!("{:+.1}", h.skill),
        ]);
    }
    out += &table(&hands);
    out += "\n";
    out
}
