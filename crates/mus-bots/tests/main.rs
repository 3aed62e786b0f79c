//! The integration tests of this crate, one module per file, built as one test binary
//! (one link instead of one per file).

mod basico;
mod common;
mod levels;
mod maestro;
mod review;
mod styles;
mod table_read;
mod umbral;
