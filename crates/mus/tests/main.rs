//! The integration tests of this crate, one module per file, built as one test binary
//! (one link instead of one per file).

mod boards;
mod first_deal;
mod given;
mod order;
mod properties;
mod resample;
mod spec_examples;
mod stopped;
