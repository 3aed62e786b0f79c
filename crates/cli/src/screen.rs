//! `tapete screen`: looks for players who cheat together ([`tapete_host::screening`]).
//! Every decision of every record is weighed by its game's screen (the gain that only the
//! other player's hidden cards explain), the decisions are grouped by pair of players (in
//! an arena's records a player is the bot a seat was given), and each pair's mean gain is
//! tested against honest play's zero; and the results of players who meet often are set
//! against what their other games show (win trading). A pair whose z-score passes the
//! threshold, over enough decisions or meetings, is flagged.

use crate::error::{CliError, CliResult};
use crate::text::{emit, table};
use clap::Args;
use serde_json::{json, Value};
use std::path::PathBuf;
use tapete_host::screening::{
    self, Game, Settings, DEFAULT_MIN_DECISIONS, DEFAULT_MIN_MEETINGS, DEFAULT_THRESHOLD,
    DEFAULT_TRADING_THRESHOLD,
};

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
    /// Flag a pair for collusion whose z-score is at least this.
    #[arg(long, value_name = "Z", default_value_t = DEFAULT_THRESHOLD)]
    pub threshold: f64,
    /// Flag a pair for win trading whose z-score is at least this.
    #[arg(long, value_name = "Z", default_value_t = DEFAULT_TRADING_THRESHOLD)]
    pub trading_threshold: f64,
    /// Judge only pairs with at least this many decisions weighed (fewer: too few to say).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MIN_DECISIONS)]
    pub min_decisions: u64,
    /// Win trading: judge only pairs who played at least this many games against each
    /// other.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MIN_MEETINGS)]
    pub min_meetings: u64,
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
            people: Vec::new(),
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
        .map(|g| {
            let source = format!("table {}", g.table);
            g.screened(source)
        })
        .collect())
}

/// Runs `tapete screen`.
pub fn run(a: &ScreenArgs, json: bool) -> CliResult {
    for (name, z) in [
        ("--threshold", a.threshold),
        ("--trading-threshold", a.trading_threshold),
    ] {
        if !(z.is_finite() && z > 0.0) {
            return Err(CliError::usage(format!("{name} must be a positive number")));
        }
    }
    let games = match &a.db {
        Some(db) => from_db(db, a)?,
        None => from_records(&a.records)?,
    };
    let settings = Settings {
        threshold: a.threshold,
        trading_threshold: a.trading_threshold,
        min_decisions: a.min_decisions,
        min_games: a.min_games,
        min_meetings: a.min_meetings,
    };
    let report = screening::screen(&games, &tapete_catalog::kinds(), &settings);
    // Records named one by one must all be screened; a server's table that does not
    // replay is left out and said.
    if a.db.is_none() {
        if let Some((source, why)) = report.skipped.first() {
            return Err(CliError::input(format!("{source}: {why}")));
        }
    }
    let rows: Vec<Value> = report
        .pairs
        .iter()
        .map(|p| {
            let mut row = json!({
                "game": p.game,
                "players": p.players,
                "games": p.games,
                "decisions": p.tally.n,
                "mean": p.tally.mean,
                "se": p.tally.se,
                "z": p.tally.z,
                "judged": p.judged,
                "flagged": p.flagged,
            });
            if p.flagged {
                row["evidence"] = json!(p.evidence);
            }
            row
        })
        .collect();
    if json {
        let doc = json!({
            "records": report.games,
            "threshold": a.threshold,
            "trading_threshold": a.trading_threshold,
            "min_decisions": a.min_decisions,
            "min_games": a.min_games,
            "min_meetings": a.min_meetings,
            "pairs": rows,
            "trading": report.trading,
            "skipped": report.skipped.iter().map(|(s, w)| json!({"source": s, "why": w})).collect::<Vec<_>>(),
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
    for p in &report.pairs {
        let verdict = if p.flagged {
            "FLAGGED"
        } else if p.judged {
            ""
        } else {
            "too few decisions"
        };
        lines.push(vec![
            pair_name(&p.players),
            p.games.to_string(),
            p.tally.n.to_string(),
            format!("{:+.5}", p.tally.mean),
            format!("{:.5}", p.tally.se),
            format!("{:+.2}", p.tally.z),
            verdict.to_string(),
        ]);
    }
    let mut text = format!(
        "{} records; a pair is flagged at z ≥ {} over at least {} decisions\n{}",
        report.games,
        a.threshold,
        a.min_decisions,
        table(&lines)
    );
    text.push_str(&format!(
        "\nwin trading: pairs who met at least {} times, their results against what their other games show; flagged at z ≥ {}\n",
        a.min_meetings, a.trading_threshold
    ));
    if report.trading.is_empty() {
        text.push_str("no pair met that often\n");
    } else {
        let mut lines = vec![vec![
            "ahead & behind".to_string(),
            "games".into(),
            "score".into(),
            "expected".into(),
            "z".into(),
            "".into(),
        ]];
        for t in &report.trading {
            lines.push(vec![
                t.players.join(" & "),
                t.games.to_string(),
                format!("{}", t.score),
                format!("{:.1}", t.expected),
                format!("{:.2}", t.z),
                if t.flagged { "FLAGGED" } else { "" }.to_string(),
            ]);
        }
        text.push_str(&table(&lines));
    }
    for (source, why) in &report.skipped {
        text.push_str(&format!("skipped {source}: {why}\n"));
    }
    emit(&text)
}

/// A pair's name in the table: one name for a bot paired with itself (an arena's).
fn pair_name(players: &[String; 2]) -> String {
    if players[0] == players[1] {
        players[0].clone()
    } else {
        players.join(" & ")
    }
}
