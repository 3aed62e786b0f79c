//! The terminal table: play any of tapete's games against bots, in a full-screen ratatui
//! table or, when stdin is not a terminal, line by line so games can be scripted and tested.
//!
//! The terminal knows no game. It drives the engine only through [`tapete_table::Game`]
//! (bots see their own view and legal actions, every applied action goes into the returned
//! [`Record`], and the bots' randomness comes from the seed, so a run is reproducible), tells
//! what happens with the host's narrator, and draws what the game's
//! [`Face`](tapete_host::Face) makes of the player's view, for any number of seats.
//!
//! ```
//! use std::io::Cursor;
//! use tapete_host::test_race::RaceHost;
//! use tapete_term::{play_lines, PlayOptions};
//!
//! let opts = PlayOptions::<RaceHost>::new((), 2, 7, 0, "random").unwrap();
//! let mut out = Vec::new();
//! let record = play_lines(opts, Cursor::new("2\n2\n1\n2\n"), &mut out).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.contains("── the end ──"));
//! assert!(record.replay().is_ok());
//! ```

mod command;
mod lines;
mod session;
#[cfg(test)]
mod test_ring;
mod tui;

use std::io::{BufRead, Write};
use tapete_host::{Face, Host};
use tapete_table::{Bot, Game, Record, Seat};

pub use session::BOT_SEED_MIX;
pub use tui::{Screen, BOT_DELAY};

/// A computer player with the name shown for it at the table.
pub type NamedBot<G> = (String, Box<dyn Bot<G>>);

/// How to set up a game at the terminal.
pub struct PlayOptions<H: Host> {
    /// Table options.
    pub rules: <H::G as Game>::Rules,
    /// How many seats the table has (within `H::SEATS`).
    pub seats: usize,
    /// Shuffle seed (also seeds the bots' RNG).
    pub seed: u64,
    /// The human's seat; every other seat is a bot.
    pub human: Seat,
    /// One bot per seat other than the human's (`None` at the human's seat), made by the
    /// caller (it may be an outside program), with the name shown for it.
    pub bots: Vec<Option<NamedBot<H::G>>>,
    /// Actions played before anyone is asked (a recorded game's opening, `play --from`),
    /// in order: applied as they are, the human's included, then play goes on.
    pub opening: Vec<(Seat, <H::G as Game>::Action)>,
}

impl<H: Host> PlayOptions<H> {
    /// A table of `seats` seats where every seat but `human` is the built-in bot `level`
    /// ([`Host::make_bot`]), or an error naming what is wrong.
    pub fn new(
        rules: <H::G as Game>::Rules,
        seats: usize,
        seed: u64,
        human: Seat,
        level: &str,
    ) -> Result<PlayOptions<H>, String> {
        tapete_host::check_seats::<H>(seats)?;
        let mut bots = Vec::with_capacity(seats);
        for seat in 0..seats {
            bots.push(if seat == human {
                None
            } else {
                Some((level.trim().to_string(), H::make_bot(level)?))
            });
        }
        Ok(PlayOptions {
            rules,
            seats,
            seed,
            human,
            bots,
            opening: Vec::new(),
        })
    }
}

/// Plays one match in line mode: one prompt per decision read from `input`, the table
/// narrated to `output`. Returns the record (complete or, if input ended, as far as it got).
pub fn play_lines<H: Face, R: BufRead, W: Write>(
    opts: PlayOptions<H>,
    input: R,
    output: W,
) -> anyhow::Result<Record<H::G>> {
    lines::play(opts, input, output)
}

/// Plays one match in a full-screen ratatui table drawn on `screen` (keys are read from
/// the terminal). Returns the record.
pub fn play_tui<H: Face>(opts: PlayOptions<H>, screen: Screen) -> anyhow::Result<Record<H::G>> {
    tui::play(opts, screen)
}
