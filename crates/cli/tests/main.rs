//! The integration tests of this crate, one module per file, built as one test binary
//! (one link instead of one per file).

mod arena;
mod arena_records;
mod arena_shards;
mod bot_signals;
mod calibrate;
mod chinchon;
mod cluster;
mod common;
mod eval;
mod json_and_options;
mod newcomer;
mod odds;
mod play_replay;
mod review;
mod screen;
mod serve;
mod sim;
mod solitaire;
mod tikki;
mod tikki_play;
mod tournament;
mod verify;
