//! `tapete serve`: the online table (lobby, tables with bots, leyes, solitaire odds,
//! history) on a local port, with its database in one SQLite file; and `tapete loadtest`,
//! which drives many tables of WebSocket clients against a server and reports throughput
//! and latency.

use crate::error::{CliError, CliResult};
use crate::text::{emit, table};
use clap::Args;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;
use tapete_host::row;
use tapete_loadtest::{LoadOptions, LoadReport};
use tapete_server::store::{shown, Durability};
use tapete_server::{Config, Limits};

/// Arguments of `tapete serve`.
#[derive(Args, Debug)]
#[command(
    after_help = "Open the printed address in a browser; share a table's link with friends.\n\
Every table is kept in the database and restored, exactly, when the server starts again."
)]
pub struct ServeArgs {
    /// Address to listen on (port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// The database: a SQLite file (created on first start), or a PostgreSQL database
    /// several servers share (postgres://user:password@host/db; see docs/deploy.md). From
    /// the environment (TAPETE_DB), a password stays out of the process list.
    #[arg(
        long,
        env = "TAPETE_DB",
        hide_env_values = true,
        default_value = "tapete.db"
    )]
    pub db: PathBuf,
    /// This server's name among those sharing a PostgreSQL database (the balancer's name
    /// for it: clients sent to another server are told its name); by default the host's
    /// name and the process id.
    #[arg(long, value_parser = node_name)]
    pub node: Option<String>,
    /// The balancer's address (HAProxy with send-proxy): its connections start with a
    /// PROXY line naming the client, whom the per-address limits then count.
    #[arg(long)]
    pub proxy: Option<std::net::IpAddr>,
    /// full: every acknowledged action survives a power cut; normal: a crash loses
    /// nothing, a power cut may lose the last actions (faster on slow disks).
    #[arg(long, default_value = "full", value_parser = ["full", "normal"])]
    pub durability: String,
    /// Open connections one address may hold (raise it to load-test from one machine).
    #[arg(long, default_value_t = Limits::default().conns_per_addr as u32,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_conns_per_addr: u32,
    /// Guests, accounts and tables one address may create per minute (each).
    #[arg(long, default_value_t = Limits::default().creates_per_minute,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub creates_per_minute: u32,
    /// Tables made from one address that may be open (waiting or playing) at once.
    #[arg(long, default_value_t = Limits::default().open_tables_per_addr as u32,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub open_tables_per_addr: u32,
    /// Profiles, games lists and leaderboard pages one address may read a minute.
    #[arg(long, default_value_t = Limits::default().profile_reads_per_minute,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub profile_reads_per_minute: u32,
    /// Largest size of the database, in MiB: past it writes fail as on a full disk (on PostgreSQL, nothing new is stored; measured every 5 s).
    #[arg(long, default_value_t = Limits::default().max_db_bytes >> 20,
          value_parser = clap::value_parser!(u64).range(1..=1 << 30))]
    pub max_db_mb: u64,
    /// Passwords hashed or checked at once (Argon2id: 19 MiB and one core each); more wait.
    #[arg(long, default_value_t = Limits::default().password_hashes as u32,
          value_parser = clap::value_parser!(u32).range(1..=64))]
    pub password_hashes: u32,
    /// Logins and sign-ups that may wait for a turn to hash; one more is answered 503.
    #[arg(long, default_value_t = Limits::default().password_queue as u32,
          value_parser = clap::value_parser!(u32).range(0..=10_000))]
    pub password_queue: u32,
    /// Failed logins one address may make at once, then as many a minute (429 past it).
    #[arg(long, default_value_t = Limits::default().failed_logins_per_addr,
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub failed_logins_per_addr: u32,
    /// Failed logins to one nickname at once, then one a minute, whoever tries.
    #[arg(long, default_value_t = Limits::default().failed_logins_per_account,
          value_parser = clap::value_parser!(u32).range(1..=1_000))]
    pub failed_logins_per_account: u32,
    /// Game reviews made at once (one core each, for seconds to minutes); more wait
    /// (default: one per core but one).
    #[arg(long, default_value_t = Limits::default().reviews_at_once as u32,
          value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub reviews_at_once: u32,
    /// Game reviews that may wait for their turn; one more is answered 503.
    #[arg(long, default_value_t = Limits::default().review_queue as u32,
          value_parser = clap::value_parser!(u32).range(0..=100_000))]
    pub review_queue: u32,
    /// Who runs this server, for the push services (Web Push's VAPID `sub`): a `mailto:`
    /// or `https:` URL.
    #[arg(long)]
    pub push_contact: Option<String>,
    /// Web Push messages being sent at once; a notice finding them all busy is not pushed.
    #[arg(long, default_value_t = Limits::default().push_sends as u32,
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub push_sends: u32,
    /// Takes Web Push subscriptions of a push service at http://127.0.0.1 (tests that run
    /// their own); without it only https:// push services on a named host are taken.
    #[arg(long, hide = true)]
    pub push_loopback: bool,
    /// An account that operates the site (repeatable): it judges the screens' flags and the
    /// chat's reports, suspends accounts and replays any finished game at /operador. Each
    /// must be an account already, or the server does not start.
    #[arg(long = "operator", value_name = "NICKNAME")]
    pub operators: Vec<String>,
    /// With operators: screen the newest rated games for collusion, soft play and win
    /// trading every this many hours, flagging what is found for the operators (0: only
    /// when an operator asks).
    #[arg(long, value_name = "HOURS", default_value_t = 24,
          value_parser = clap::value_parser!(u32).range(0..=24 * 365))]
    pub screen_every: u32,
    /// How many of the newest rated games a screen reads.
    #[arg(long, value_name = "N", default_value_t = 2_000,
          value_parser = clap::value_parser!(u32).range(1..=50_000))]
    pub screen_games: u32,
}

/// A node name: 1 to 64 letters, digits, `-` and `_` (it goes into URLs and logs).
fn node_name(text: &str) -> Result<String, String> {
    let ok = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    if (1..=64).contains(&text.len()) && text.chars().all(ok) {
        Ok(text.to_owned())
    } else {
        Err("a node name is 1 to 64 letters, digits, - and _".into())
    }
}

fn durability(text: &str) -> CliResult<Durability> {
    text.parse().map_err(CliError::input)
}

/// Sends the server's log to standard error: one human-readable line per event (colored
/// on a terminal), at the levels `RUST_LOG` names (`tracing`'s filter syntax, e.g.
/// `RUST_LOG=debug` or `RUST_LOG=info,tapete_server::store=debug`), `info` when it is not
/// set. A `RUST_LOG` that does not read is refused, before the server starts.
pub fn log_to_stderr() -> CliResult {
    use std::io::IsTerminal;
    use tracing_subscriber::EnvFilter;
    let filter = match std::env::var("RUST_LOG") {
        Ok(v) if !v.trim().is_empty() => EnvFilter::try_new(v.trim())
            .map_err(|e| CliError::input(format!("RUST_LOG=`{v}` does not read: {e}")))?,
        _ => EnvFilter::new("info"),
    };
    // A second call (in the same process) keeps the first subscriber.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init();
    Ok(())
}

fn runtime() -> CliResult<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::run(format!("cannot start the async runtime: {e}")))
}

/// Runs `tapete serve` until Ctrl-C.
pub fn run(a: &ServeArgs, json: bool) -> CliResult {
    log_to_stderr()?;
    let rt = runtime()?;
    let db = a.db.clone();
    let mut config = Config::new(a.addr, a.db.clone(), tapete_catalog::kinds());
    config.odds = vec![std::sync::Arc::new(crate::odds::SolitaireOdds)];
    config.durability = durability(&a.durability)?;
    config.node = a.node.clone();
    config.proxy = a.proxy;
    config.limits.conns_per_addr = a.max_conns_per_addr as usize;
    config.limits.creates_per_minute = a.creates_per_minute;
    config.limits.open_tables_per_addr = a.open_tables_per_addr as usize;
    config.limits.profile_reads_per_minute = a.profile_reads_per_minute;
    config.limits.max_db_bytes = a.max_db_mb << 20;
    config.limits.password_hashes = a.password_hashes as usize;
    config.limits.password_queue = a.password_queue as usize;
    config.limits.failed_logins_per_addr = a.failed_logins_per_addr;
    config.limits.failed_logins_per_account = a.failed_logins_per_account;
    config.limits.reviews_at_once = a.reviews_at_once as usize;
    config.limits.review_queue = a.review_queue as usize;
    config.limits.push_contact = a.push_contact.clone();
    config.limits.push_sends = a.push_sends as usize;
    config.limits.push_loopback = a.push_loopback;
    config.operators = a.operators.clone();
    config.screen_every = std::time::Duration::from_secs(u64::from(a.screen_every) * 3600);
    config.screen_games = a.screen_games as usize;
    rt.block_on(tapete_server::serve(
        config,
        |addr, restored| {
            let url = format!("http://{addr}/");
            let line = if json {
                serde_json::json!({"url": url, "db": shown(&db), "restored": restored})
                    .to_string()
            } else {
                format!(
                    "tapete is serving at {url}  (database {}, {restored} tables restored; Ctrl-C stops)",
                    shown(&db)
                )
            };
            let _ = emit(&format!("{line}\n"));
        },
        async {
            let _ = tokio::signal::ctrl_c().await;
        },
    ))
    .map_err(CliError::run)
}

/// Arguments of `tapete loadtest`.
#[derive(Args, Debug)]
#[command(
    after_help = "Without --addr, starts a server in this process on a fresh temporary \
database and checks every record against it at the end.\nA server given with --addr must let \
one address hold every client: start it with e.g. \
`tapete serve --max-conns-per-addr 1000 --creates-per-minute 1000 --open-tables-per-addr 1000`.\nExample:\n  tapete loadtest --tables 100 --seconds 30"
)]
pub struct LoadtestArgs {
    /// The game the tables play (see `tapete games`).
    #[arg(long, default_value = "mus")]
    pub game: String,
    /// Tables played at once, one WebSocket client per seat each.
    #[arg(long, default_value_t = 100)]
    pub tables: usize,
    /// A running server to drive (default: one started here).
    #[arg(long)]
    pub addr: Option<SocketAddr>,
    /// With --addr: that server's database (a SQLite file, or the postgres:// URL of a
    /// cluster's), to replay every record at the end.
    #[arg(long, requires = "addr")]
    pub db: Option<PathBuf>,
    /// How long to play, in seconds.
    #[arg(long, default_value_t = 30)]
    pub seconds: u64,
    /// Seed of the clients' choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Milliseconds each client waits before it acts, as a person reading the table
    /// (0: as fast as the server lets a connection act).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    pub think_ms: u64,
    /// The durability of the server started here (see `tapete serve --help`).
    #[arg(long, default_value = "full", value_parser = ["full", "normal"])]
    pub durability: String,
}

/// Runs `tapete loadtest`.
pub fn loadtest(a: &LoadtestArgs, json: bool) -> CliResult {
    if a.tables == 0 {
        return Err(CliError::input("--tables must be at least 1"));
    }
    if a.seconds == 0 {
        return Err(CliError::input("--seconds must be at least 1"));
    }
    let durability = durability(&a.durability)?;
    let games = tapete_catalog::kinds();
    let seats = games
        .iter()
        .find(|k| k.name() == a.game.trim().to_lowercase())
        .map(|k| k.default_seats())
        .ok_or_else(|| {
            CliError::usage(tapete_catalog::UnknownGame(a.game.trim().to_string()).to_string())
        })?;
    if a.addr.is_none() {
        // The server started here logs as `tapete serve` does.
        log_to_stderr()?;
    }
    let rt = runtime()?;
    let report = rt.block_on(async {
        let (addr, db, _dir, stop) = match a.addr {
            Some(addr) => (addr, a.db.clone(), None, None),
            None => {
                let dir = std::env::temp_dir().join(format!(
                    "tapete-loadtest-{}-{}",
                    std::process::id(),
                    a.seed
                ));
                std::fs::create_dir_all(&dir)
                    .map_err(|e| CliError::run(format!("{}: {e}", dir.display())))?;
                let db = dir.join("load.db");
                let _ = std::fs::remove_file(&db);
                let (addr_tx, addr_rx) = tokio::sync::oneshot::channel();
                let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
                let mut config = Config::new(
                    "127.0.0.1:0".parse().expect("a literal address"),
                    db.clone(),
                    tapete_catalog::kinds(),
                );
                config.durability = durability;
                // Every client comes from this machine: one address holds them all.
                config.limits.conns_per_addr = a.tables * seats + 64;
                config.limits.creates_per_minute = u32::MAX;
                config.limits.open_tables_per_player = u64::MAX;
                config.limits.open_tables_per_addr = usize::MAX;
                tokio::spawn(async move {
                    let r = tapete_server::serve(
                        config,
                        |addr, _| {
                            let _ = addr_tx.send(addr);
                        },
                        async {
                            let _ = stop_rx.await;
                        },
                    )
                    .await;
                    if let Err(e) = r {
                        eprintln!("tapete: server: {e}");
                    }
                });
                let addr = addr_rx
                    .await
                    .map_err(|_| CliError::run("the server did not start"))?;
                (addr, Some(db), Some(dir), Some(stop_tx))
            }
        };
        let opts = LoadOptions {
            addr,
            game: a.game.trim().to_lowercase(),
            games,
            tables: a.tables,
            duration: Duration::from_secs(a.seconds),
            db,
            seed: a.seed,
            think: Duration::from_millis(a.think_ms),
        };
        let report = tapete_loadtest::run(opts).await.map_err(CliError::run);
        if let Some(stop) = stop {
            let _ = stop.send(());
        }
        report
    })?;
    if json {
        let v = serde_json::to_value(&report).map_err(|e| CliError::run(e.to_string()))?;
        emit(&format!("{v}\n"))?;
    } else {
        emit(&text(&report))?;
    }
    let bad_replays = report
        .replayed
        .as_ref()
        .is_some_and(|r| !r.mismatches.is_empty());
    if report.errors > 0 || bad_replays {
        return Err(CliError::run(format!(
            "{} errors, {} records not matching",
            report.errors,
            report.replayed.as_ref().map_or(0, |r| r.mismatches.len())
        )));
    }
    Ok(())
}

fn text(r: &LoadReport) -> String {
    let mut rows = vec![
        row!["game", &r.game],
        row!["tables", r.tables],
        row!["clients", r.clients],
        row!["thinking", format!("{} ms", r.think_ms)],
        row!["seconds", format!("{:.1}", r.seconds)],
        row!["actions", r.actions],
        row!["actions per second", format!("{:.0}", r.actions_per_second)],
        row!["latency p50", format!("{:.2} ms", r.latency_ms.p50)],
        row!["latency p90", format!("{:.2} ms", r.latency_ms.p90)],
        row!["latency p99", format!("{:.2} ms", r.latency_ms.p99)],
        row!["latency max", format!("{:.2} ms", r.latency_ms.max)],
        row!["games finished", r.games_finished],
        row!["errors", r.errors],
    ];
    if let Some(c) = &r.replayed {
        rows.push(row![
            "records replayed",
            format!("{} of {} match", c.matched, c.tables)
        ]);
    }
    let mut out = table(&rows);
    for e in &r.error_samples {
        out.push_str(&format!("error: {e}\n"));
    }
    if let Some(c) = &r.replayed {
        for m in &c.mismatches {
            out.push_str(&format!("mismatch: {m}\n"));
        }
    }
    out
}
