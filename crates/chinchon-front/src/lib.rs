//! Chinchón as tapete's front-ends see it: [`ChinchonHost`] (its name, 2–8 seats, the
//! players by name, narration, the score, the full view) and its terminal face. The players
//! themselves live in `tapete-chinchon-bots`; this crate only presents the game, so the
//! catalog lists it and the terminal and the server reach it through the
//! [`tapete_host::Host`] contract alone.

mod face;
mod host;

pub use host::ChinchonHost;
