//! Options shared by several commands, and their parsers (clap reports their errors,
//! with exit code 2).

use clap::Args;
use std::time::Duration;
use tapete_mus::Mode;

/// Deck mode and 31 real: what `mus eval` needs.
#[derive(Args, Debug, Clone)]
pub struct ModeArgs {
    /// Deck mode: 8reyes (3s are reyes, 2s are ases) or 4reyes.
    #[arg(long, value_name = "MODE", default_value = "8reyes", value_parser = parse_mode)]
    pub mode: Mode,
    /// 31 real: 7-7-7 with a figure beats every other 31.
    #[arg(long)]
    pub real31: bool,
}

/// Parses `8reyes` / `4reyes`.
pub fn parse_mode(s: &str) -> Result<Mode, String> {
    s.parse()
}

/// Parses a timeout in seconds: more than 0, at most an hour; decimals allowed.
pub fn parse_timeout(s: &str) -> Result<Duration, String> {
    match s.trim().parse::<f64>() {
        Ok(t) if t > 0.0 && t <= 3600.0 => Ok(Duration::from_secs_f64(t)),
        _ => Err(format!(
            "`{s}` is not a timeout: use seconds, more than 0 and at most 3600"
        )),
    }
}

/// Most worker threads a command may ask for. More than the machine has only adds
/// overhead; far more is a typo.
pub const MAX_THREADS: usize = 256;

/// Parses a number of worker threads: 1 to [`MAX_THREADS`].
pub fn parse_threads(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        _ => Err(format!(
            "`{s}` is not a number of threads: use 1 to {MAX_THREADS}"
        )),
    }
}

/// Parses a seed: any whole number 0 ≤ S < 2^64.
pub fn parse_seed(s: &str) -> Result<u64, String> {
    s.trim().parse::<u64>().map_err(|_| {
        format!("`{s}` is not a seed: use a whole number from 0 to 18446744073709551615")
    })
}
