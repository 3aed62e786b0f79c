//! The integration tests of this crate, one module per file, built as one test binary
//! (one link instead of one per file).

mod bots;
mod conformance;
mod ends;
mod first_deal;
mod meld;
mod narrate;
mod properties;
mod resample;
mod spec;
mod stopped;
