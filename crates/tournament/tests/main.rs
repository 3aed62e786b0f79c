//! The tournament crate's tests: one binary, a module per file.

mod arena;
mod bracket;
mod duplicate;
mod event;
mod groups;
mod league;
mod swiss;
mod tres_ceros;
