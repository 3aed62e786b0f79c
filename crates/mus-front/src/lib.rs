//! Mus as tapete's front-ends see it: [`MusHost`] (its name, four seats, the players by
//! name, narration, the full view, the leyes tool), its terminal face, and the arena's
//! statistics ([`stats`]). The players themselves live in `tapete-mus-bots`; this crate
//! only presents the game, so the catalog lists it and the terminal and the server reach it
//! through the [`tapete_host::Host`] contract alone.

mod face;
mod host;
pub mod stats;

pub use host::MusHost;
