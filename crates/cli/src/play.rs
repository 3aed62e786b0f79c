//! `tapete play GAME`: a game against bots, full-screen at a terminal or line by line
//! when stdin is piped.

use crate::args::{parse_seed, parse_timeout};
use crate::error::{CliError, CliResult};
use crate::games::{self, GameArgs};
use crate::text::{emit, table};
use clap::Args;
use serde_json::json;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tapete_host::{Face, Host, Visitor};
use tapete_table::{Game, Record};
use tapete_term::{NamedBot, PlayOptions, Screen};

/// What `tapete play GAME` takes besides the table options.
#[derive(Args, Debug)]
#[command(
    after_help = "At a terminal the table is full-screen; with stdin piped, one decision \
is read per line (type `help` for the game's words).\n\n\
With --json the table (full-screen or line by line) is shown on stderr, and stdout gets \
only one JSON document when the game ends: {\"game\", \"seed\", \"seat\", \"players\", \
\"bots\" (by seat, null at yours), \"rules\", \"actions\" (how many), \"scores\", \
\"outcome\" (winners, scores, places and summary, or null), \"finished\", \"record\" (the \
--record path, or null)}. Errors are {\"error\", \"kind\"} on stdout, with a non-zero exit."
)]
pub struct PlayArgs {
    /// Players at the table (default: the game's usual number).
    #[arg(long, value_name = "N")]
    pub players: Option<usize>,
    /// Shuffle seed (default: from the clock, printed so the game can be replayed).
    #[arg(long, value_name = "S", value_parser = parse_seed)]
    pub seed: Option<u64>,
    /// Bot of the other seats: a level of the game (e.g. random, basico, experto,
    /// maestro:ms=N) or cmd:COMMAND for a program speaking the bot protocol.
    #[arg(long, value_name = "LEVEL")]
    pub bots: Option<String>,
    /// Your partner's bot, in partnership games (default: --bots).
    #[arg(long, value_name = "LEVEL")]
    pub partner: Option<String>,
    /// The rivals' bot, in partnership games (default: --bots).
    #[arg(long, value_name = "LEVEL")]
    pub rivals: Option<String>,
    /// Your seat, from 0 (seat 0 is the first to play).
    #[arg(long, value_name = "SEAT", default_value = "0")]
    pub seat: usize,
    /// Write the game's record (game, rules, seed, actions) to this JSON file. Its
    /// directory must exist and the file be writable: this is checked before the game
    /// starts.
    #[arg(long, value_name = "FILE.json")]
    pub record: Option<PathBuf>,
    /// Longest wait for one answer of a cmd: bot, in seconds.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_timeout)]
    pub bot_timeout: Duration,
    /// Start from a recorded game (a record file of this game): its rules, seats and seed,
    /// and its first --at actions replayed as recorded (nobody is asked for them), then play
    /// goes on with the usual seats. To test a bot's one decision: the position where it
    /// must decide, then `--bots cmd:…`.
    #[arg(long, value_name = "RECORD.json")]
    pub from: Option<PathBuf>,
    /// With --from: how many of the record's actions to replay (default: all of them).
    #[arg(long, value_name = "N", requires = "from")]
    pub at: Option<usize>,
}

/// A recorded game's opening, for `--from`: the record cut at `--at`.
struct Start<G: Game> {
    record: Record<G>,
}

/// Reads `--from` (and `--at`) for `H`: a record of this game, its actions replayed to
/// check them.
fn load_start<H: Host>(path: &Path, at: Option<usize>) -> CliResult<Start<H::G>> {
    let (game, value) = crate::replay::load(path)?;
    if game != H::NAME {
        return Err(CliError::input(format!(
            "--from {}: expected a record of {} (this is `tapete play {}`), found a record of {game}",
            path.display(),
            H::TITLE,
            H::NAME
        )));
    }
    let mut record: Record<H::G> = serde_json::from_value(value).map_err(|e| {
        CliError::input(format!(
            "--from {}: expected a tapete {} record, found one that does not read: {e}",
            path.display(),
            H::TITLE
        ))
    })?;
    let n = at.unwrap_or(record.actions.len());
    crate::replay::check_at(path, n, record.actions.len())?;
    record.actions.truncate(n);
    record
        .replay()
        .map_err(|e| CliError::input(format!("--from {}: {e}", path.display())))?;
    Ok(Start { record })
}

/// A seed from the clock.
fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64 ^ (d.as_secs() << 20))
        .unwrap_or(0)
}

/// Writes `record` as pretty JSON to `path`.
pub fn write_record<G: Game>(record: &Record<G>, path: &Path) -> CliResult {
    let text = serde_json::to_string_pretty(record)
        .map_err(|e| CliError::run(format!("cannot encode the record: {e}")))?;
    write_whole(path, &(text + "\n"))
}

/// Writes `body` to `path` whole or not at all: into a hidden file beside it, then renamed
/// over it, so an interrupted run never leaves an empty or half-written file.
pub fn write_whole(path: &Path, body: &str) -> CliResult {
    let failed = |e: std::io::Error| CliError::run(format!("cannot write {}: {e}", path.display()));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let part = path.with_file_name(format!(".{name}.{}.part", std::process::id()));
    let written = std::fs::write(&part, body).and_then(|()| std::fs::rename(&part, path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&part);
        return Err(failed(e));
    }
    Ok(())
}

/// Checks, before any game, that a record can be written at `path`: its directory
/// exists and the file can be created or overwritten. Leaves no file behind.
pub fn check_record_path(path: &Path) -> CliResult {
    check_out_path("--record", path)
}

/// Checks, before any work, that the file of option `opt` can be written at `path`: its
/// directory exists and the file can be created or overwritten. Leaves no file behind.
pub fn check_out_path(opt: &str, path: &Path) -> CliResult {
    let bad = |why: String| CliError::input(format!("{opt} {}: {why}", path.display()));
    if path.as_os_str().is_empty() {
        return Err(bad("name a file".into()));
    }
    if path.is_dir() {
        return Err(bad("is a directory, not a file".into()));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.exists() {
        return Err(bad(format!(
            "the directory {} does not exist",
            dir.display()
        )));
    }
    if !dir.is_dir() {
        return Err(bad(format!("{} is not a directory", dir.display())));
    }
    let existed = path.exists();
    // Opening without truncating checks the permission and keeps an existing file whole
    // until the game is over.
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| bad(format!("cannot write there: {e}")))?;
    if !existed {
        std::fs::remove_file(path).map_err(|e| bad(format!("cannot write there: {e}")))?;
    }
    Ok(())
}

/// Runs `tapete play GAME …`.
pub fn run(a: &GameArgs, json: bool) -> CliResult {
    tapete_catalog::visit(
        &a.game,
        Play {
            rest: &a.rest,
            json,
        },
    )
    .map_err(|e| CliError::usage(e.to_string()))?
}

struct Play<'a> {
    rest: &'a [String],
    json: bool,
}

impl Visitor for Play<'_> {
    type Output = CliResult;
    fn visit<H: Face>(self) -> CliResult {
        let Some(p) = games::parse::<PlayArgs, H>(
            "play",
            &format!("Play {} against bots", H::TITLE),
            self.rest,
            self.json,
        )?
        else {
            return Ok(());
        };
        play::<H>(&p.args, &p.given, p.json)
    }
}

/// The bot level named for `seat` of a table where `human` plays.
fn level_for<H: Host>(a: &PlayArgs, human: usize, seat: usize, seats: usize) -> String {
    let default = a
        .bots
        .clone()
        .unwrap_or_else(|| games::play_bot::<H>().into());
    if H::PARTNERS && seats.is_multiple_of(2) {
        let partner = (seat + seats - human).is_multiple_of(2);
        let chosen = if partner { &a.partner } else { &a.rivals };
        chosen.clone().unwrap_or(default)
    } else {
        default
    }
}

fn play<H: Face>(
    a: &PlayArgs,
    given: &serde_json::Map<String, serde_json::Value>,
    json: bool,
) -> CliResult {
    let start = match &a.from {
        Some(path) => {
            if a.players.is_some() || a.seed.is_some() || !given.is_empty() {
                return Err(CliError::usage(
                    "--from plays the record's own table: drop --players, --seed and the table options",
                ));
            }
            Some(load_start::<H>(path, a.at)?)
        }
        None => None,
    };
    let seats = match &start {
        Some(s) => s.record.seats,
        None => games::seats::<H>(a.players)?,
    };
    games::check_seat(a.seat, seats)?;
    if !H::PARTNERS && (a.partner.is_some() || a.rivals.is_some()) {
        return Err(CliError::usage(format!(
            "--partner and --rivals are for partnership games; {} has none: use --bots",
            H::TITLE
        )));
    }
    let rules = match &start {
        Some(s) => s.record.rules.clone(),
        None => games::rules::<H>(Default::default(), given, seats)?,
    };
    let levels: Vec<Option<String>> = (0..seats)
        .map(|s| (s != a.seat).then(|| level_for::<H>(a, a.seat, s, seats)))
        .collect();
    for level in levels.iter().flatten() {
        games::check_bot::<H>(level)?;
        crate::sim::check_command(level)?;
    }
    if let Some(path) = &a.record {
        check_record_path(path)?;
    }
    crate::sim::stop_programs_on_signals()?;
    let seed = match &start {
        Some(s) => s.record.seed,
        None => a.seed.unwrap_or_else(clock_seed),
    };
    let mut players = if seats == H::DEFAULT_SEATS {
        String::new()
    } else {
        format!(" --players {seats}")
    };
    for f in games::rule_flags::<H>(&rules) {
        players.push(' ');
        players.push_str(&f);
    }
    if let (Some(s), Some(path)) = (&start, &a.from) {
        eprintln!(
            "tapete: from {}: its first {} actions are replayed, then play goes on",
            path.display(),
            s.record.actions.len()
        );
    } else if a.seed.is_none() {
        eprintln!("tapete: seed {seed} (play this deal again with --seed {seed}{players})");
    }
    let mut bots: Vec<Option<NamedBot<H::G>>> = Vec::with_capacity(seats);
    for level in &levels {
        bots.push(match level {
            Some(l) => Some((
                l.clone(),
                games::make_bot::<H>(l, a.bot_timeout).map_err(CliError::usage)?,
            )),
            None => None,
        });
    }
    let opts = PlayOptions::<H> {
        rules,
        seats,
        seed,
        human: a.seat,
        bots,
        opening: start.map(|s| s.record.actions).unwrap_or_default(),
    };
    // With --json stdout is kept for the result: the table goes to stderr, full-screen
    // when that is a terminal.
    let screen = if json { Screen::Stderr } else { Screen::Stdout };
    let stdin = std::io::stdin();
    let full_screen = stdin.is_terminal() && (!json || screen.is_terminal());
    let input = stdin.lock();
    let played = if full_screen {
        tapete_term::play_tui::<H>(opts, screen)
    } else if json {
        tapete_term::play_lines::<H, _, _>(opts, input, std::io::stderr().lock())
    } else {
        tapete_term::play_lines::<H, _, _>(opts, input, std::io::stdout().lock())
    };
    let record = played.map_err(|e| CliError::run(format!("the game stopped: {e:#}")))?;
    if let Some(path) = &a.record {
        write_record(&record, path)?;
    }
    let game = record
        .replay()
        .map_err(|e| CliError::run(format!("the game's own record does not replay: {e}")))?;
    let outcome = game.outcome();
    if json {
        let v = json!({
            "game": H::NAME,
            "seed": seed,
            "seat": a.seat,
            "players": seats,
            "bots": levels,
            "rules": record.rules,
            "actions": record.actions.len(),
            "scores": H::scores(&game),
            "outcome": outcome,
            "finished": outcome.is_some(),
            "record": a.record.as_ref().map(|p| p.display().to_string()),
        });
        emit(&format!("{v}\n"))
    } else {
        let mut s = format!("\n{}", score_text::<H>(&game));
        s.push_str(&format!(
            "seed: {seed} (tapete play {} --seed {seed}{players} deals the same cards)\n",
            H::NAME
        ));
        if let Some(path) = &a.record {
            s.push_str(&format!("record: {}\n", path.display()));
        }
        emit(&s)
    }
}

/// The score table and the result line (shared with `replay`).
pub fn score_text<H: Host>(game: &H::G) -> String {
    let mut s = table(&H::score_rows(game));
    s.push_str(&match game.outcome() {
        Some(o) => format!("result: {}\n", o.summary),
        None => "result: not finished (the game stopped before its end)\n".to_string(),
    });
    s
}
