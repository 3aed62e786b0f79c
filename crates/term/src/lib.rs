//! The terminal table (stub: being written).

use std::io::{BufRead, Write};
use tapete_mus::{MusGame, MusRules};
use tapete_table::{Record, Seat};

/// How to set up a game at the terminal.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// Table options.
    pub rules: MusRules,
    /// Shuffle seed (also seeds the bots' RNG).
    pub seed: u64,
    /// The human's seat (0–3); the other three are bots.
    pub human: Seat,
    /// Bot level for the three other seats (a name `tapete_mus::bots::by_name` knows).
    pub bots: String,
}

/// Plays one match in line mode: one prompt per decision read from `input`, the table
/// narrated to `output`. Returns the record (complete or, if input ended, as far as it got).
pub fn play_lines<R: BufRead, W: Write>(
    opts: &PlayOptions,
    input: R,
    output: W,
) -> anyhow::Result<Record<MusGame>> {
    let _ = (opts, input, output);
    anyhow::bail!("not written yet")
}

/// Plays one match in a full-screen ratatui table. Returns the record.
pub fn play_tui(opts: &PlayOptions) -> anyhow::Result<Record<MusGame>> {
    let _ = opts;
    anyhow::bail!("not written yet")
}
