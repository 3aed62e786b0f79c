//! `tapete mus simulate`: random deals against the exact odds — each jugada's observed
//! frequency beside its exact probability, and the piedras its pair wins en paso.

use crate::args::{parse_seed, parse_threads, ModeArgs};
use crate::error::{CliError, CliResult};
use crate::text::{emit, percent, progress_bar, rate, table, thousands};
use clap::Args;
use std::time::Instant;
use tapete_host::row;
use tapete_mus_odds::catalog::Catalog;
use tapete_mus_odds::simulate::{simulate, Gain, Simulation};

/// Arguments of `tapete mus simulate`.
#[derive(Args, Debug)]
#[command(
    after_help = "Deals are drawn in chunks, each from its own stream of the seed, so the \
results do not depend on --threads.\nExample: tapete mus simulate --deals 10000000 --seed 1"
)]
pub struct SimulateArgs {
    /// How many deals (four hands each).
    #[arg(long, value_name = "N")]
    pub deals: u64,
    /// Seed of the random deals.
    #[arg(long, value_name = "S", default_value = "0", value_parser = parse_seed)]
    pub seed: u64,
    /// Worker threads, 1 to 256 (default: one per CPU).
    #[arg(long, value_name = "T", value_parser = parse_threads)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub mode: ModeArgs,
    /// Only frequencies: skip playing each deal en paso.
    #[arg(long)]
    pub no_gains: bool,
}

/// Runs `tapete mus simulate`.
pub fn run(a: &SimulateArgs, json: bool) -> CliResult {
    if a.deals == 0 {
        return Err(CliError::input("--deals must be at least 1"));
    }
    let pool = tapete_table::arena::thread_pool(a.threads).map_err(CliError::run)?;
    let threads = pool.current_num_threads();
    let cat = Catalog::new(a.mode.mode, a.mode.real31);
    let bar = progress_bar(a.deals, "deals", json);
    let start = Instant::now();
    let sim = pool.install(|| simulate(&cat, a.deals, a.seed, !a.no_gains, &|n| bar.inc(n)));
    let elapsed = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let per_sec = if elapsed > 0.0 {
        sim.deals as f64 / elapsed
    } else {
        0.0
    };
    eprintln!(
        "{} deals in {elapsed:.2} s on {threads} thread{}: {}",
        thousands(sim.deals),
        if threads == 1 { "" } else { "s" },
        rate(per_sec, "deals")
    );
    if json {
        let mut v = serde_json::to_value(&sim)
            .map_err(|e| CliError::run(format!("cannot serialise the simulation: {e}")))?;
        v["real31"] = a.mode.real31.into();
        v["gains"] = (!a.no_gains).into();
        v["timing"] = serde_json::json!({
            "seconds": elapsed,
            "deals_per_second": per_sec,
            "threads": threads,
        });
        emit(&format!("{v}\n"))
    } else {
        emit(&to_text(&sim, !a.no_gains))
    }
}

/// A mean with the half width of its 95% interval.
fn gain_cell(g: &Option<Gain>) -> String {
    match g {
        Some(g) => format!("{:.2} ± {:.2}", g.mean, (g.ci95[1] - g.ci95[0]) / 2.0),
        None => "—".into(),
    }
}

/// The simulation as aligned text: one line per jugada.
pub fn to_text(s: &Simulation, gains: bool) -> String {
    let mut out = format!(
        "{} deals ({} hands) from seed {}, mode {}\n",
        s.deals,
        4 * s.deals,
        s.seed,
        s.mode
    );
    let common: Vec<f64> = s
        .jugadas
        .iter()
        .filter(|j| j.exact >= 0.005)
        .map(|j| j.relative_error)
        .collect();
    if let Some(worst) = common.iter().copied().reduce(f64::max) {
        out.push_str(&format!(
            "largest relative error among the {} jugadas of probability ≥ 0.5%: {}\n",
            common.len(),
            percent(worst)
        ));
    }
    if gains {
        out.push_str(
            "gain: average piedras won en paso by the holder's pair at each position, ± 95% CI\n",
        );
    }
    out.push('\n');
    let mut header = row!["jugada", "exact", "observed", "rel. error"];
    if gains {
        header.extend(row!["gain 0 mano", "gain 1", "gain 2", "gain 3 postre"]);
    }
    let mut rows = vec![header];
    for j in &s.jugadas {
        let mut r = row![
            j.jugada,
            format!("{:.4}%", 100.0 * j.exact),
            format!("{:.4}%", 100.0 * j.observed),
            format!("{:.2}%", 100.0 * j.relative_error)
        ];
        if gains {
            r.extend(j.gain.iter().map(gain_cell));
        }
        rows.push(r);
    }
    out.push_str(&table(&rows));
    out
}
