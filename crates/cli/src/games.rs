//! What every per-game command shares: `tapete play|sim|arena GAME [OPTIONS]` parse their
//! options once the game is known, so each game gets its own `--help` and its table options
//! as flags (`--target 30`, `--no-punto-y-miedo`, `--close-limit 4`), made from the game's
//! default rules: a boolean option `x` is `--x` / `--no-x`, any other `--x VALUE`.

use crate::error::{CliError, CliResult};
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};
use serde_json::{Map, Value};
use std::time::Duration;
use tapete_host::{parse_rules, Host};
use tapete_table::{Bot, Game, Seat};

/// A game named on the command line and the options after it, parsed once the game is
/// known.
#[derive(Args, Debug)]
pub struct GameArgs {
    /// The game: see `tapete games` (mus, chinchon…).
    #[arg(value_name = "GAME")]
    pub game: String,
    /// The game's options (`tapete play GAME --help` lists them).
    #[arg(
        value_name = "OPTIONS",
        trailing_var_arg = true,
        allow_hyphen_values = true,
        num_args = 0..
    )]
    pub rest: Vec<String>,
}

/// The flag of a rule key: `punto_y_miedo` is `punto-y-miedo`.
fn flag(key: &str) -> String {
    key.replace('_', "-")
}

/// The flag that turns boolean option `key` off: `--no-senas` for `senas`, and for an
/// option already named in the negative (`no_close_first_turn`) its plain form
/// (`--close-first-turn`), never a double negative.
fn off_flag(key: &str) -> String {
    let name = flag(key);
    match name.strip_prefix("no-") {
        Some(plain) => plain.to_string(),
        None => format!("no-{name}"),
    }
}

/// The table options a verb starts from: the game's defaults for `play`, the arena's
/// (a shorter match where a whole one would be needlessly long) for `sim`, `arena` and
/// `gauntlet`.
pub fn base_rules<H: Host>(verb: &str) -> <H::G as Game>::Rules {
    if verb == "play" {
        Default::default()
    } else {
        H::arena_rules()
    }
}

/// `cmd` with `A`'s options, `--json`, and one flag per table option of `H`, each showing
/// the default that `verb` plays by.
fn command_for<A: Args, H: Host>(verb: &str, about: &str) -> Command {
    let mut cmd =
        A::augment_args(Command::new(format!("tapete {verb} {}", H::NAME)).no_binary_name(true))
            .about(about.to_string())
            .arg(
                Arg::new("json")
                    .long("json")
                    .action(ArgAction::SetTrue)
                    .help("Machine-readable JSON on stdout instead of text"),
            )
            .next_help_heading(format!("{} table options", H::TITLE));
    let docs = H::rule_docs();
    // A table option named like one of the command's own (`tapete tournament tikki
    // --rounds`: the event's rounds, and tikki's) is given as `--table-NAME`.
    let taken: Vec<String> = cmd
        .get_arguments()
        .filter_map(|a| a.get_long().map(str::to_string))
        .collect();
    let free = |name: String| {
        if taken.contains(&name) {
            format!("table-{name}")
        } else {
            name
        }
    };
    let defaults = serde_json::to_value(base_rules::<H>(verb)).unwrap_or(Value::Null);
    if let Value::Object(map) = defaults {
        for (key, default) in map {
            let doc = docs
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, d)| d.to_string())
                .unwrap_or_else(|| key.replace('_', " "));
            let name = free(flag(&key));
            match default {
                Value::Bool(on) => {
                    cmd = cmd
                        .arg(
                            Arg::new(format!("rule:{key}"))
                                .long(name.clone())
                                .action(ArgAction::SetTrue)
                                .help(format!(
                                    "{doc} (on{})",
                                    if on { ", the default" } else { "" }
                                )),
                        )
                        .arg(
                            Arg::new(format!("rule-off:{key}"))
                                .long(free(off_flag(&key)))
                                .action(ArgAction::SetTrue)
                                .conflicts_with(format!("rule:{key}"))
                                .help(format!("…off{}", if on { "" } else { " (the default)" })),
                        );
                }
                other => {
                    cmd = cmd.arg(
                        Arg::new(format!("rule:{key}"))
                            .long(name)
                            .value_name("VALUE")
                            .help(format!("{doc} (default: {})", shown(&other))),
                    );
                }
            }
        }
    }
    cmd
}

fn shown(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The rule values given on the command line, as a JSON object of the keys given.
fn given_rules<H: Host>(m: &ArgMatches) -> Map<String, Value> {
    let mut given = Map::new();
    let defaults = serde_json::to_value(<H::G as Game>::Rules::default()).unwrap_or(Value::Null);
    let Value::Object(map) = defaults else {
        return given;
    };
    for (key, default) in map {
        match default {
            Value::Bool(_) => {
                if m.get_flag(&format!("rule:{key}")) {
                    given.insert(key.clone(), Value::Bool(true));
                }
                if m.get_flag(&format!("rule-off:{key}")) {
                    given.insert(key.clone(), Value::Bool(false));
                }
            }
            other => {
                if let Some(text) = m.get_one::<String>(&format!("rule:{key}")) {
                    let value = match other {
                        Value::String(_) => Value::String(text.trim().to_string()),
                        _ => serde_json::from_str(text.trim())
                            .unwrap_or_else(|_| Value::String(text.trim().to_string())),
                    };
                    given.insert(key.clone(), value);
                }
            }
        }
    }
    given
}

/// Options parsed for one game: the command's own, the table options and `--json`.
pub struct Parsed<A> {
    pub args: A,
    pub given: Map<String, Value>,
    pub json: bool,
}

/// Parses `rest` as `tapete VERB GAME …` for host `H`. `Ok(None)`: help was printed.
pub fn parse<A: Args + FromArgMatches, H: Host>(
    verb: &str,
    about: &str,
    rest: &[String],
    json: bool,
) -> CliResult<Option<Parsed<A>>> {
    let cmd = command_for::<A, H>(verb, about);
    let m = match cmd.try_get_matches_from(rest) {
        Ok(m) => m,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return Ok(None);
            }
            return Err(CliError::usage(crate::usage_message(&e)));
        }
    };
    let args = A::from_arg_matches(&m).map_err(|e| CliError::usage(crate::usage_message(&e)))?;
    Ok(Some(Parsed {
        args,
        given: given_rules::<H>(&m),
        json: json || m.get_flag("json"),
    }))
}

/// The table options: `base` with the given keys over it, checked for `seats` seats.
pub fn rules<H: Host>(
    base: <H::G as Game>::Rules,
    given: &Map<String, Value>,
    seats: usize,
) -> CliResult<<H::G as Game>::Rules> {
    tapete_host::check_seats::<H>(seats).map_err(CliError::usage)?;
    let mut merged = match serde_json::to_value(base) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    };
    merged.extend(given.clone());
    parse_rules::<H>(&Value::Object(merged), seats).map_err(CliError::input)
}

/// The seat count: `--players` or the game's default.
pub fn seats<H: Host>(players: Option<usize>) -> CliResult<usize> {
    let seats = players.unwrap_or(H::DEFAULT_SEATS);
    tapete_host::check_seats::<H>(seats).map_err(CliError::usage)?;
    Ok(seats)
}

/// Checks a bot name for `H` (a level or `cmd:COMMAND`) before anything is played.
pub fn check_bot<H: Host>(name: &str) -> CliResult<String> {
    make_bot::<H>(name, Duration::from_secs(1)).map_err(CliError::usage)?;
    Ok(name.trim().to_string())
}

/// The bot called `name` for `H`; `cmd:` bots wait at most `timeout` per answer.
pub fn make_bot<H: Host>(name: &str, timeout: Duration) -> Result<Box<dyn Bot<H::G>>, String> {
    let trimmed = name.trim();
    let is_cmd = trimmed
        .split_once(':')
        .is_some_and(|(l, _)| l.trim().eq_ignore_ascii_case("cmd"));
    if is_cmd {
        tapete_host::bot_by_name::<H>(trimmed, timeout)
    } else {
        let level = trimmed.split(':').next().unwrap_or(trimmed).trim();
        let known: Vec<&str> = H::bot_names()
            .iter()
            .map(|n| n.split(':').next().unwrap_or(n))
            .collect();
        let hint = if known.iter().any(|k| k.eq_ignore_ascii_case(level)) {
            String::new()
        } else {
            tapete_host::text::did_you_mean(level, &known)
        };
        H::make_bot(trimmed).map_err(|e| {
            let e = if e.contains("cmd:") {
                e
            } else {
                format!("{e}, or cmd:COMMAND")
            };
            if hint.is_empty() {
                e
            } else {
                format!("{e}{hint}")
            }
        })
    }
}

/// Checks a seat against the table.
pub fn check_seat(seat: Seat, seats: usize) -> CliResult {
    if seat < seats {
        Ok(())
    } else {
        Err(CliError::usage(format!(
            "`{seat}` is not a seat: seats are 0–{}",
            seats - 1
        )))
    }
}

/// The level `tapete play` seats when none is named: `basico` where the game has it (an
/// opponent a newcomer can beat while learning), else the game's default.
pub fn play_bot<H: Host>() -> &'static str {
    if H::bot_names().contains(&"basico") {
        "basico"
    } else {
        H::default_bot()
    }
}

/// `tapete games`: every game of the catalog with its players and bot levels.
pub fn list(json: bool) -> CliResult {
    struct Info;
    impl tapete_host::Visitor for Info {
        type Output = Value;
        fn visit<H: Host>(self) -> Value {
            serde_json::json!({
                "name": H::NAME,
                "title": H::TITLE,
                "players": [H::SEATS.start(), H::SEATS.end()],
                "default_players": H::DEFAULT_SEATS,
                "bots": H::bot_names(),
                "default_bot": play_bot::<H>(),
                "table_bot": H::default_bot(),
            })
        }
    }
    let infos: Vec<Value> = tapete_catalog::names()
        .into_iter()
        .filter_map(|n| tapete_catalog::visit(n, Info).ok())
        .collect();
    if json {
        return crate::text::emit(&format!("{}\n", Value::Array(infos)));
    }
    let mut rows = vec![tapete_host::row!["game", "name", "players", "bots"]];
    for i in &infos {
        let (lo, hi) = (&i["players"][0], &i["players"][1]);
        let players = if lo == hi {
            lo.to_string()
        } else {
            format!("{lo}–{hi}")
        };
        let bots: Vec<&str> = i["bots"]
            .as_array()
            .map(|b| b.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        rows.push(tapete_host::row![
            i["title"].as_str().unwrap_or_default(),
            i["name"].as_str().unwrap_or_default(),
            players,
            bots.join(", ")
        ]);
    }
    crate::text::emit(&crate::text::table(&rows))
}

/// The flags that set `rules` from the game's defaults: only the options that differ,
/// in the form the command line takes (`--jokers 1`, `--no-punto-y-miedo`), so that a
/// printed command deals exactly the same game.
pub fn rule_flags<H: Host>(rules: &<H::G as Game>::Rules) -> Vec<String> {
    let defaults = serde_json::to_value(<H::G as Game>::Rules::default()).unwrap_or(Value::Null);
    let (Value::Object(defaults), Ok(Value::Object(now))) = (defaults, serde_json::to_value(rules))
    else {
        return Vec::new();
    };
    let mut flags = Vec::new();
    for (key, value) in now {
        if defaults.get(&key) == Some(&value) {
            continue;
        }
        match value {
            Value::Bool(true) => flags.push(format!("--{}", flag(&key))),
            Value::Bool(false) => flags.push(format!("--{}", off_flag(&key))),
            other => flags.push(format!("--{} {}", flag(&key), shown(&other))),
        }
    }
    flags
}

/// The table options in force, one `name value` each (`rules: mode 8reyes · target 40 ·
/// juegos 1 · señas off`), for the text output of `sim`, `arena` and `gauntlet`.
pub fn rules_line<H: Host>(rules: &<H::G as Game>::Rules) -> String {
    let Ok(Value::Object(map)) = serde_json::to_value(rules) else {
        return String::new();
    };
    let parts: Vec<String> = map
        .iter()
        .map(|(key, value)| {
            let name = key.replace('_', " ");
            match value {
                Value::Bool(on) => format!("{name} {}", if *on { "on" } else { "off" }),
                other => format!("{name} {}", shown(other)),
            }
        })
        .collect();
    format!("rules: {}\n", parts.join(" · "))
}

/// `text` with `line` put after its first line (a report's heading).
pub fn after_heading(text: &str, line: &str) -> String {
    match text.split_once('\n') {
        Some((head, rest)) => format!("{head}\n{line}{rest}"),
        None => format!("{text}\n{line}"),
    }
}
