//! The engine's own player: `random`, any legal action. The levels that play to win live
//! in the `tapete-mus-bots` crate, which can also use the exact odds.

mod random;

pub use random::RandomMus;
