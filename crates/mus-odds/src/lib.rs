//! Exact Mus odds.
//!
//! - [`tables`]: every jugada's exact count out of C(40,4) and the categories players use.
//! - [`catalog`]: the jugadas of a mode with their per-lance strengths and binomial weights.

pub mod catalog;
pub mod tables;
