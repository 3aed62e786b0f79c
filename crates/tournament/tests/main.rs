//! The tournament crate's tests: one binary, a module per file.
mod bracket;
