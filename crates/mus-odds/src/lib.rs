//! Exact Mus odds.
//!
//! - [`leyes`]: the probability that our pair wins each lance, exactly, with one or two
//!   known hands, conditioned on the declarations heard.
//! - [`tables`]: every jugada's exact count out of C(40,4) and the categories players use.
//! - [`query`]: a leyes question as people write it, parsed and checked.
//! - [`catalog`]: the jugadas of a mode with their per-lance strengths and binomial weights.

pub mod catalog;
pub mod leyes;
pub mod query;
pub mod report;
pub mod simulate;
pub mod tables;
