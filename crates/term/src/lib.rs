//! The terminal table: play Mus against three bots, in a full-screen ratatui table or,
//! when stdin is not a terminal, line by line so games can be scripted and tested.
//!
//! Both modes drive the engine only through [`tapete_table::Game`]: bots see their own
//! view and legal actions, every applied action goes into the returned
//! [`Record`], and the bots' randomness comes from the seed, so a run is reproducible.

mod command;
mod lines;
mod session;
mod status;
mod tui;

use std::io::{BufRead, Write};
use tapete_mus::{MusGame, MusRules};
use tapete_table::{Record, Seat};

pub use session::BOT_SEED_MIX;
pub use tui::{Screen, BOT_DELAY};

/// How to set up a game at the terminal.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// Table options.
    pub rules: MusRules,
    /// Shuffle seed (also seeds the bots' RNG).
    pub seed: u64,
    /// The human's seat (0–3); the other three are bots.
    pub human: Seat,
    /// Bot level for the three other seats (a name `tapete_mus_bots::by_name` knows,
    /// `cmd:COMMAND` included).
    pub bots: String,
    /// The partner's bot, if not `bots`.
    pub partner: Option<String>,
    /// The two rivals' bot, if not `bots`.
    pub rivals: Option<String>,
}

impl PlayOptions {
    /// The bot named for `seat`: the partner's, the rivals' or the default.
    pub fn bot_for(&self, seat: Seat) -> &str {
        let chosen = if seat == (self.human + 2) % 4 {
            &self.partner
        } else {
            &self.rivals
        };
        chosen.as_deref().unwrap_or(&self.bots)
    }
}

impl Default for PlayOptions {
    /// Default rules, seed 0, the human at seat 0 against `basico` bots.
    fn default() -> Self {
        PlayOptions {
            rules: MusRules::default(),
            seed: 0,
            human: 0,
            bots: "basico".into(),
            partner: None,
            rivals: None,
        }
    }
}

/// Plays one match in line mode: one prompt per decision read from `input`, the table
/// narrated to `output`. Returns the record (complete or, if input ended, as far as it got).
pub fn play_lines<R: BufRead, W: Write>(
    opts: &PlayOptions,
    input: R,
    output: W,
) -> anyhow::Result<Record<MusGame>> {
    lines::play(opts, input, output)
}

/// Plays one match in a full-screen ratatui table drawn on `screen` (keys are read from
/// the terminal). Returns the record.
pub fn play_tui(opts: &PlayOptions, screen: Screen) -> anyhow::Result<Record<MusGame>> {
    tui::play(opts, screen)
}
