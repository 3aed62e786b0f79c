//! The integration tests of this crate, one module per file, built as one test binary
//! (one link instead of one per file).

mod bots;
mod combo;
mod conformance;
mod first_deal;
mod narrate;
mod properties;
mod spec;
mod stopped;
