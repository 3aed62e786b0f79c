//! The integration tests of this crate, one module per file, built as one test binary
//! (one link instead of one per file).

mod experto;
mod review;
mod screen;
