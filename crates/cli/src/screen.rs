//! `tapete screen`: looks for partners who see each other's cards. Every decision of every
//! record is weighed by its game's screen ([`tapete_review::screen`]: the gain that only the
//! partner's hidden cards explain), the decisions are grouped by pair of players (in an
//! arena's records a player is the bot a seat was given), and each pair's mean gain is
//! tested against honest play's zero: a pair whose z-score passes the threshold, over
//! enough decisions, is flagged.

use crate::error::{CliError, CliResult};
use crate::text::{emit, table};
use clap::Args;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;
use tapete_host::StoredGame;
use tapete_review::screen::Tally;

/// The z-score from which a pair is flagged, when none is given.
pub const DEFAULT_THRESHOLD: f64 = 4.0;
/// The fewest decisions a pair needs to be judged, when none is given.
pub const DEFAULT_MIN_DECISIONS: u64 = 300;

/// Arguments of `tapete screen`.
#[derive(Args, Debug)]
#[command(
    after_help = "Records are written by `tapete arena GAME … --records DIR` (each seat named by its bot) and by a server (/api/tables/ID/record).\n\nExamples:\n  tapete screen runs/pair1 runs/pair2\n  tapete screen runs/*/ --threshold 4 --json"
)]
pub struct ScreenArgs {
    /// Records to screen: files, or directories whose `.json` files are records.
    #[arg(value_name = "RECORDS", required_unless_present = "db")]
    pub records: Vec<PathBuf>,
    /// Screen a server's finished games instead: its SQLite file or PostgreSQL URL (read
    /// only, beside a running server). A player is an account, a pair two partners.
    #[arg(long, value_name = "URL", conflicts_with = "records")]
    pub db: Option<String>,
    /// With --db: only this game's tables.
    #[arg(long, value_name = "GAME", requires = "db")]
    pub game: Option<String>,
    /// With --db: unrated games too (by default a pair is screened over its rated games).
    #[arg(long, requires = "db")]
    pub unrated: bool,
    /// With --db: the newest games read at most.
    #[arg(long, value_name = "N", default_value_t = 20_000, requires = "db")]
    pub limit: usize,
    /// Judge only pairs that played at least this many games together.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub min_games: u64,
    /// Flag a pair whose z-score is at least this.
    #[arg(long, value_name = "Z", default_value_t = DEFAULT_THRESHOLD)]
    pub threshold: f64,
    /// Judge only pairs with at least this many decisions weighed (fewer: too few to say).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MIN_DECISIONS)]
    pub min_decisions: u64,
}

/// Every record file named (directories opened one level), in a stable order.
fn files(paths: &[PathBuf]) -> CliResult<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let entries = std::fs::read_dir(p)
                .map_err(|e| CliError::input(format!("cannot read {}: {e}", p.display())))?;
            let mut inside: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|x| x == "json"))
                .collect();
            inside.sort();
            out.extend(inside);
        } else if p.is_file() {
            out.push(p.clone());
        } else {
            return Err(CliError::input(format!(
                "{}: no such file or directory",
                p.display()
            )));
        }
    }
    Ok(out)
}

/// A game to screen, wherever it came from.
struct Game {
    /// Where it was read (a file, or a server's table), for errors.
    source: String,
    game: String,
    rules: Value,
    seats: usize,
    seed: u64,
    actions: Vec<(usize, String)>,
    /// Who played each seat (`None`: a bot, or unknown).
    players: Vec<Option<String>>,
    /// Whether only pairs of two named players are screened (a server's: a bot's seat
    /// beside a person is no partnership to suspect).
    people_only: bool,
}

/// The games of record files (an arena's name each seat's bot).
fn from_records(paths: &[PathBuf]) -> CliResult<Vec<Game>> {
    let mut out = Vec::new();
    for file in files(paths)? {
        let (game, v) = crate::replay::load(&file)?;
        let bad = |what: &str| CliError::input(format!("{}: {what}", file.display()));
        let seats = v["seats"].as_u64().ok_or_else(|| bad("no `seats`"))? as usize;
        let seed = v["seed"].as_u64().ok_or_else(|| bad("no `seed`"))?;
        let actions: Vec<(usize, String)> = v["actions"]
            .as_array()
            .ok_or_else(|| bad("no `actions`"))?
            .iter()
            .map(|a| {
                Some((
                    a.get(0)?.as_u64()? as usize,
                    a.get(1)?.as_str()?.to_string(),
                ))
            })
            .collect::<Option<_>>()
            .ok_or_else(|| bad("`actions` are not [seat, action] pairs"))?;
        let players = match v.get("players").and_then(Value::as_array) {
            Some(p) => p.iter().map(|x| x.as_str().map(String::from)).collect(),
            None => vec![None; seats],
        };
        out.push(Game {
            source: file.display().to_string(),
            game,
            rules: v["rules"].clone(),
            seats,
            seed,
            actions,
            players,
            people_only: false,
        });
    }
    Ok(out)
}

/// A server's finished games (rated ones unless asked otherwise), each seat named by the
/// account that held it at the end.
fn from_db(db: &str, a: &ScreenArgs) -> CliResult<Vec<Game>> {
    let shown = tapete_server::store::pg::redacted(db);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::run(format!("cannot start: {e}")))?;
    let found = runtime.block_on(async {
        let store = tapete_server::store::Db::open_to_read(db)
            .map_err(|e| CliError::input(format!("--db {shown}: {e}")))?;
        store
            .finished_games(a.game.clone(), !a.unrated, a.limit)
            .await
            .map_err(|e| CliError::run(format!("--db {shown}: {e}")))
    })?;
    Ok(found
        .into_iter()
        .map(|g| Game {
            source: format!("table {}", g.table),
            game: g.game,
            rules: g.rules,
            seats: g.seats,
            seed: g.seed,
            actions: g.actions,
            players: g.players.into_iter().map(|p| p.map(|(_, n)| n)).collect(),
            people_only: true,
        })
        .collect())
}

/// One pair's decisions and games.
#[derive(Default)]
struct Pair {
    decisions: Vec<tapete_review::screen::Screened>,
    games: u64,
}

/// Runs `tapete screen`.
pub fn run(a: &ScreenArgs, json: bool) -> CliResult {
    if !(a.threshold.is_finite() && a.threshold > 0.0) {
        return Err(CliError::usage("--threshold must be a positive number"));
    }
    let games = match &a.db {
        Some(db) => from_db(db, a)?,
        None => from_records(&a.records)?,
    };
    let kinds = tapete_catalog::kinds();
    let mut pairs: BTreeMap<(String, String, String), Pair> = BTreeMap::new();
    let read = games.len() as u64;
    for g in games {
        let kind = kinds
            .iter()
            .find(|k| k.name() == g.game)
            .ok_or_else(|| CliError::input(format!("{}: no game `{}`", g.source, g.game)))?;
        let weighed = kind
            .screen(&StoredGame {
                rules: &g.rules,
                seats: g.seats,
                seed: g.seed,
                actions: &g.actions,
            })
            .map_err(|e| CliError::input(format!("{}: {e}", g.source)))?;
        let mut seen = std::collections::BTreeSet::new();
        for w in weighed {
            let named = |s: usize| g.players.get(s).is_some_and(Option::is_some);
            if g.people_only && !(named(w.seat) && named(w.partner)) {
                continue;
            }
            let name = |s: usize| {
                g.players
                    .get(s)
                    .cloned()
                    .flatten()
                    .unwrap_or_else(|| format!("seat {s}"))
            };
            let (x, y) = (name(w.seat), name(w.partner));
            let key = if x <= y {
                (g.game.clone(), x, y)
            } else {
                (g.game.clone(), y, x)
            };
            let pair = pairs.entry(key.clone()).or_default();
            pair.decisions.push(w);
            if seen.insert(key) {
                pair.games += 1;
            }
        }
    }
    let rows: Vec<Value> = pairs
        .iter()
        .map(|((game, x, y), p)| {
            let t = Tally::of(&p.decisions);
            let judged = t.n >= a.min_decisions && p.games >= a.min_games;
            json!({
                "game": game,
                "players": [x, y],
                "games": p.games,
                "decisions": t.n,
                "mean": t.mean,
                "se": t.se,
                "z": t.z,
                "judged": judged,
                "flagged": judged && t.z >= a.threshold,
            })
        })
        .collect();
    if json {
        let doc = json!({
            "records": read,
            "threshold": a.threshold,
            "min_decisions": a.min_decisions,
            "min_games": a.min_games,
            "pairs": rows,
        });
        return emit(&format!("{doc}\n"));
    }
    let mut lines = vec![vec![
        "pair".to_string(),
        "games".into(),
        "decisions".into(),
        "mean".into(),
        "SE".into(),
        "z".into(),
        "".into(),
    ]];
    for r in &rows {
        let names: Vec<&str> = r["players"]
            .as_array()
            .map(|p| p.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let verdict = if r["flagged"] == true {
            "FLAGGED"
        } else if r["judged"] == true {
            ""
        } else {
            "too few decisions"
        };
        lines.push(vec![
            if names.first() == names.get(1) {
                names.first().copied().unwrap_or("").to_string()
            } else {
                names.join(" & ")
            },
            r["games"].to_string(),
            r["decisions"].to_string(),
            format!("{:+.5}", r["mean"].as_f64().unwrap_or(0.0)),
            format!("{:.5}", r["se"].as_f64().unwrap_or(0.0)),
            format!("{:+.2}", r["z"].as_f64().unwrap_or(0.0)),
            verdict.to_string(),
        ]);
    }
    emit(&format!(
        "{read} records; a pair is flagged at z ≥ {} over at least {} decisions\n{}",
        a.threshold,
        a.min_decisions,
        table(&lines)
    ))
}
