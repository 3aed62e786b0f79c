//! `tapete mus tables`: exact counts of a first deal out of C(40,4): every jugada, the
//! categories players reason with, juego and punto by value, and the combined table.

use crate::args::parse_mode;
use crate::error::{CliError, CliResult};
use crate::text::{emit, table};
use clap::Args;
use tapete_host::row;
use tapete_mus::Mode;
use tapete_mus_odds::tables::{tables, Row, Tables};

/// Arguments of `tapete mus tables`.
#[derive(Args, Debug)]
#[command(after_help = "Example: tapete mus tables --mode 4reyes --json")]
pub struct TablesArgs {
    /// Deck mode: 8reyes (3s are reyes, 2s are ases) or 4reyes.
    #[arg(long, value_name = "MODE", default_value = "8reyes", value_parser = parse_mode)]
    pub mode: Mode,
}

/// Runs `tapete mus tables`.
pub fn run(a: &TablesArgs, json: bool) -> CliResult {
    let t = tables(a.mode);
    if json {
        let v = serde_json::to_value(&t)
            .map_err(|e| CliError::run(format!("cannot serialise the tables: {e}")))?;
        emit(&format!("{v}\n"))
    } else {
        emit(&to_text(&t))
    }
}

/// A probability as a percentage precise enough for the rarest jugada (1 in 91,390).
fn fine_percent(p: f64) -> String {
    format!("{:.4}%", 100.0 * p)
}

/// One section: a title line and its rows with count, probability and "one in".
fn section(title: &str, first: &str, rows: &[Row]) -> String {
    let mut out = format!("{title}\n");
    let mut t = vec![row![first, "count", "probability", "one in"]];
    for r in rows {
        let one_in = if r.count == 0 {
            "—".to_string()
        } else {
            format!("{:.1}", 1.0 / r.probability)
        };
        t.push(row![r.name, r.count, fine_percent(r.probability), one_in]);
    }
    out.push_str(&table(&t));
    out
}

/// The tables as aligned text sections.
pub fn to_text(t: &Tables) -> String {
    let mut out = format!(
        "mode {}: {} jugadas, counts out of C(40,4) = {} hands\n\n",
        t.mode,
        t.jugadas.len(),
        t.total
    );
    let sections = [
        ("jugadas (grande order)", "jugada", &t.jugadas),
        ("categories", "category", &t.categories),
        ("juego by value", "juego", &t.juego),
        ("punto by value", "punto", &t.punto),
        ("combined", "pares and juego", &t.combined),
    ];
    for (i, (title, first, rows)) in sections.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&section(title, first, rows));
    }
    out
}
