//! The full-screen table (being written).

use crate::PlayOptions;
use std::time::Duration;
use tapete_mus::MusGame;
use tapete_table::Record;

/// How long the table waits before each bot move, so the human can follow.
pub const BOT_DELAY: Duration = Duration::from_millis(400);

pub(crate) fn play(opts: &PlayOptions) -> anyhow::Result<Record<MusGame>> {
    let _ = opts;
    anyhow::bail!("not written yet")
}
