//! Writes the compiled-in table of the chance in a lance once the others have declared it
//! (`src/tables/lances_8reyes.csv`, read by `leyes_cache::lance_chances`): every jugada of
//! 8 reyes counted, on every core.
//!
//! `cargo run --release -p tapete-mus-bots --example lance_table > crates/mus-bots/src/tables/lances_8reyes.csv`

use rayon::prelude::*;
use std::io::Write;
use tapete_mus::{Jugada, Mode};
use tapete_mus_bots::leyes_cache::{lance_table_lines, LANCE_TABLE_HEADER};

fn main() -> std::io::Result<()> {
    let lines: Vec<String> = Jugada::all(Mode::OchoReyes)
        .par_iter()
        .map(|&h| lance_table_lines(h))
        .collect();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    out.write_all(LANCE_TABLE_HEADER.as_bytes())?;
    for l in lines {
        out.write_all(l.as_bytes())?;
    }
    Ok(())
}
