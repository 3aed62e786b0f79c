//! Options shared by several commands, and their parsers (clap reports their errors,
//! with exit code 2).

use clap::Args;
use std::time::Duration;
use tapete_mus::{Mode, MusGame, MusRules};
use tapete_table::Bot;

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

/// Deck mode, 31 real and the target of a game.
#[derive(Args, Debug, Clone)]
pub struct TableArgs {
    #[command(flatten)]
    pub mode: ModeArgs,
    /// Piedras to win a game: 30 or 40.
    #[arg(long, value_name = "30|40", default_value = "40", value_parser = parse_target)]
    pub target: u8,
    /// Turn off punto y miedo (a first bet declined at punto pays 2).
    #[arg(long)]
    pub no_punto_y_miedo: bool,
    /// Play with señas: partners pass a signal each hand (from the second game on).
    #[arg(long)]
    pub senas: bool,
}

impl TableArgs {
    /// The table options with these choices and `juegos`/`vacas`.
    pub fn rules(&self, juegos: u8, vacas: u8) -> MusRules {
        MusRules {
            mode: self.mode.mode,
            real31: self.mode.real31,
            target: self.target,
            juegos,
            vacas,
            punto_y_miedo: !self.no_punto_y_miedo,
            senas: self.senas,
        }
    }
}

/// Parses `8reyes` / `4reyes`.
pub fn parse_mode(s: &str) -> Result<Mode, String> {
    s.parse()
}

/// Parses a game target: 30 or 40.
pub fn parse_target(s: &str) -> Result<u8, String> {
    match s.trim() {
        "30" => Ok(30),
        "40" => Ok(40),
        _ => Err(format!("`{s}` is not a target: use 30 or 40")),
    }
}

/// Parses a best-of count: 1, 3 or 5.
pub fn parse_best_of(s: &str) -> Result<u8, String> {
    match s.trim() {
        "1" => Ok(1),
        "3" => Ok(3),
        "5" => Ok(5),
        _ => Err(format!("`{s}`: use 1, 3 or 5 (best of N)")),
    }
}

/// Parses a bot: a level `tapete_mus_bots::by_name` knows, or `cmd:COMMAND` (whose
/// command is kept as written).
pub fn parse_level(s: &str) -> Result<String, String> {
    tapete_mus_bots::by_name(s)?;
    Ok(match command_of(s) {
        Some(cmd) => format!("cmd:{cmd}"),
        None => s.trim().to_lowercase(),
    })
}

/// The command of a `cmd:COMMAND` bot spec.
fn command_of(spec: &str) -> Option<&str> {
    let (level, rest) = spec.trim().split_once(':')?;
    level
        .trim()
        .eq_ignore_ascii_case("cmd")
        .then(|| rest.trim())
}

/// The bot for `spec` (checked by [`parse_level`]); a `cmd:` bot waits at most
/// `timeout` for each answer.
pub fn make_bot(spec: &str, timeout: Duration) -> Result<Box<dyn Bot<MusGame>>, String> {
    match command_of(spec) {
        Some(cmd) => Ok(Box::new(tapete_mus_bots::command_bot(cmd, timeout)?)),
        None => tapete_mus_bots::by_name(spec),
    }
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

/// Parses a seat: 0–3.
pub fn parse_seat(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if n < 4 => Ok(n),
        _ => Err(format!("`{s}` is not a seat: seats are 0, 1, 2, 3")),
    }
}

/// Parses a seed: any whole number 0 ≤ S < 2^64.
pub fn parse_seed(s: &str) -> Result<u64, String> {
    s.trim().parse::<u64>().map_err(|_| {
        format!("`{s}` is not a seed: use a whole number from 0 to 18446744073709551615")
    })
}
