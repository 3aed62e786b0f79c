//! `tapete`: play tapete's card games at the terminal, simulate bot matches, pit bots in
//! arenas, replay records, serve the online table, each game's own tools, and the odds of
//! games tapete does not deal (prisoner's solitaire).
//!
//! Every command accepts `--json` for machine-readable output: stdout then holds only
//! JSON, errors included (`{"error": …, "kind": "usage" | "input" | "run"}`, the message
//! also on stderr). Usage and input errors (bad options, impossible hands, unreadable
//! records) exit with code 2; other failures with code 1.

mod arena;
mod args;
mod calibrate;
mod chinchon;
mod error;
mod eval;
mod games;
mod gauntlet;
mod leyes;
mod odds;
mod play;
mod replay;
mod review;
mod screen;
mod serve;
mod sim;
mod simulate;
mod tables;
mod text;
mod tikki;
mod tournament;
mod verify;

/// The allocator of every tapete command: mimalloc. With glibc's, a server that had held
/// some 1,500 tables spent most of its time in `malloc` and answered ten times slower
/// (docs/deploy.md has the measurements).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{Parser, Subcommand};
use error::CliError;
use std::process::ExitCode;

/// Traditional card games: play, simulate, compare bots, replay, serve.
#[derive(Parser, Debug)]
#[command(name = "tapete", version, about)]
#[command(
    after_help = "Examples:\n  tapete games\n  tapete play mus --seed 7\n  tapete mus eval RRCA 7654 RRSS C754\n  tapete mus leyes RRCA --partner RC7A --pares next=yes\n  tapete play chinchon --players 3\n  tapete chinchon analyze 1o 2o 3o 7c 7e 7b 12o 4o\n  tapete chinchon odds 1o 2o 3o 7c 7e 7b 12b --draws 3\n  tapete odds solitaire --types --simulate 1000000\n  tapete sim mus --games 1000 --bots basico\n  tapete arena mus --a basico --b random --games 2000\n  tapete gauntlet mus --a experto --games 2000\n  tapete tournament mus --format swiss --entrants experto*8,basico*8\n  tapete replay game.json\n  tapete verify game.json\n  tapete review game.json --seat 0\n  tapete serve --addr 127.0.0.1:8080"
)]
struct Cli {
    /// Machine-readable JSON on stdout instead of text.
    #[arg(long, global = true)]
    json: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// The games tapete plays: names, players, bot levels.
    Games,
    /// Play a game against bots (`tapete play GAME --help` for its options).
    Play(games::GameArgs),
    /// Mus tools: resolve four known hands, exact odds, jugada tables, deal simulation.
    #[command(subcommand)]
    Mus(eval::MusCommand),
    /// Chinchón tools: the meld solver, exact odds of closing.
    #[command(subcommand)]
    Chinchon(chinchon::ChinchonCommand),
    /// Tikki tools: the best combination among some cards.
    #[command(subcommand)]
    Tikki(tikki::TikkiCommand),
    /// Odds of games tapete does not deal: prisoner's solitaire, exactly and simulated.
    #[command(subcommand)]
    Odds(odds::OddsCommand),
    /// Play many bot games headless and report statistics.
    Sim(games::GameArgs),
    /// Pit two bots against each other over many games: who wins, with a confidence
    /// interval (bots may be outside programs: see docs/bot-protocol.md).
    Arena(games::GameArgs),
    /// One player against every other (every level and style, or a list): the table of
    /// win rates with 95% intervals.
    Gauntlet(games::GameArgs),
    /// A whole tournament of bots (Swiss, a tres ceros, knockout with Cuadro B, double
    /// elimination), through the online table's pairing and scoring.
    Tournament(games::GameArgs),
    /// Sum the shards of an arena run (`tapete arena … --shard I/N --json`, played apart)
    /// into the whole run's results.
    Merge(arena::MergeArgs),
    /// Re-run a recorded game and tell it action by action.
    Replay(replay::ReplayArgs),
    /// Look for partners who see each other's cards: every decision weighed with and
    /// without the partner's hidden cards, each pair's gain tested against honest play.
    Screen(screen::ScreenArgs),
    /// Check a server's finished game: its secret matches the commitment shown before the
    /// deal, its seed follows from the secret and the players' contributions, and its
    /// actions replay from that seed.
    Verify(verify::VerifyArgs),
    /// Review a recorded game: every decision of a seat valued from what it knew, labelled
    /// by what it cost, with luck and skill apart.
    Review(review::ReviewArgs),
    /// Serve the online table: play in the browser with friends, bots in empty seats.
    Serve(serve::ServeArgs),
    /// Drive many tables of WebSocket clients against a server; report throughput and
    /// latency, then replay every stored record.
    Loadtest(serve::LoadtestArgs),
}

/// The commands whose options depend on the game named after them.
const GAME_VERBS: [&str; 5] = ["play", "sim", "arena", "gauntlet", "tournament"];

/// The command line with `--` inserted after the game of `tapete
/// play|sim|arena|gauntlet|tournament GAME`, so that everything after the game (its `--help` included) reaches that game's
/// own parser instead of the generic one.
fn game_args_apart(args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let Some(verb_at) = args
        .iter()
        .skip(1)
        .position(|a| !a.to_string_lossy().starts_with('-'))
        .map(|i| i + 1)
    else {
        return args;
    };
    if !GAME_VERBS.contains(&args[verb_at].to_string_lossy().as_ref()) {
        return args;
    }
    let game_at = args[verb_at + 1..]
        .iter()
        .take_while(|a| *a != "--")
        .position(|a| !a.to_string_lossy().starts_with('-'))
        .map(|i| i + verb_at + 1);
    match game_at {
        Some(g) if args.get(g + 1).is_some_and(|a| a != "--") => {
            let mut out = args;
            out.insert(g + 1, "--".into());
            out
        }
        _ => args,
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse_from(game_args_apart(std::env::args_os().collect())) {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e),
    };
    let json = cli.json || json_asked(std::env::args_os());
    let result = match cli.command {
        Command::Games => games::list(json),
        Command::Play(a) => play::run(&a, json),
        Command::Mus(eval::MusCommand::Eval(a)) => eval::run(&a, json),
        Command::Mus(eval::MusCommand::Leyes(a)) => leyes::run(&a, json),
        Command::Mus(eval::MusCommand::Tables(a)) => tables::run(&a, json),
        Command::Mus(eval::MusCommand::Simulate(a)) => simulate::run(&a, json),
        Command::Mus(eval::MusCommand::Calibrate(a)) => calibrate::run(&a, json),
        Command::Chinchon(chinchon::ChinchonCommand::Analyze(a)) => chinchon::analyze(&a, json),
        Command::Chinchon(chinchon::ChinchonCommand::Odds(a)) => chinchon::run_odds(&a, json),
        Command::Tikki(tikki::TikkiCommand::Best(a)) => tikki::run_best(&a, json),
        Command::Odds(odds::OddsCommand::Solitaire(a)) => odds::run(&a, json),
        Command::Sim(a) => sim::run(&a, json),
        Command::Arena(a) => arena::run(&a, json),
        Command::Gauntlet(a) => gauntlet::run(&a, json),
        Command::Tournament(a) => tournament::run(&a, json),
        Command::Merge(a) => arena::merge_shards(&a, json),
        Command::Replay(a) => replay::run(&a, json),
        Command::Review(a) => review::run(&a, json),
        Command::Verify(a) => verify::run(&a, json),
        Command::Screen(a) => screen::run(&a, json),
        Command::Serve(a) => serve::run(&a, json),
        Command::Loadtest(a) => serve::loadtest(&a, json),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => report(&e, json),
    }
}

/// Whether `--json` is among the command-line arguments (before any `--`), for errors
/// found before the arguments could be parsed.
fn json_asked<I: IntoIterator<Item = std::ffi::OsString>>(args: I) -> bool {
    args.into_iter()
        .skip(1)
        .take_while(|a| a != "--")
        .any(|a| a == "--json")
}

/// The gist of a clap error: its first paragraph, without the `error:` prefix, on one
/// line ("the following required arguments were not provided: --games <N>").
/// clap's suggestions ("tip: a similar argument exists: '--target'") follow, after a `; `.
pub(crate) fn usage_message(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let mut parts = text.split("\n\n");
    let first = parts.next().unwrap_or_default();
    let first = first.trim().strip_prefix("error:").unwrap_or(first);
    let mut msg = first.split_whitespace().collect::<Vec<_>>().join(" ");
    for tip in parts.filter(|p| p.trim_start().starts_with("tip:")) {
        msg.push_str("; ");
        msg.push_str(&tip.split_whitespace().collect::<Vec<_>>().join(" "));
    }
    msg
}

/// Reports a command line clap refused. Help and version are printed as usual; with
/// `--json` an error is also `{"error": …, "kind": "usage"}` on stdout, like every other
/// error. Exits with clap's code (2 for usage errors).
fn usage_error(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    let _ = e.print();
    let shown = matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion);
    if !shown && json_asked(std::env::args_os()) {
        let v = serde_json::json!({ "error": usage_message(e), "kind": "usage" });
        let _ = text::emit(&format!("{v}\n"));
    }
    ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2))
}

/// Prints `e` to stderr (and as `{"error": …}` on stdout with `--json`) and picks the exit code.
fn report(e: &CliError, json: bool) -> ExitCode {
    eprintln!("tapete: error: {e}");
    if json && !matches!(e, CliError::Shown(_)) {
        let v = serde_json::json!({ "error": e.to_string(), "kind": e.kind() });
        let _ = text::emit(&format!("{v}\n"));
    }
    ExitCode::from(e.exit_code())
}
