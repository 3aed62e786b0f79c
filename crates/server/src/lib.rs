//! The online table: a lobby, tables where people and bots play together, storage that
//! survives restarts, each game's tools (Mus's leyes) and replays, over HTTP and WebSocket.
//!
//! The server names no game: it drives games only as [`tapete_host::Kind`] and
//! [`tapete_host::TableGame`], the erased form of a game's host, and the games it offers
//! come in through [`Config::games`] (the command line passes the catalog's). Every table
//! is its game, seat count, rules, a seed and an action log in SQLite ([`store`]); one task
//! per table ([`table`]) orders its actions, writes each before showing it and sends every
//! connection only its own seat's view. The protocol is documented in `docs/server.md`.
//!
//! ```no_run
//! # async fn run(games: Vec<std::sync::Arc<dyn tapete_host::Kind>>) -> Result<(), String> {
//! let config = tapete_server::Config::new(
//!     "127.0.0.1:8080".parse().unwrap(),
//!     "tapete.db".into(),
//!     games, // tapete_catalog::kinds()
//! );
//! tapete_server::serve(config, |addr, restored| println!("{addr}: {restored} restored"), async {
//!     let _ = tokio::signal::ctrl_c().await;
//! })
//! .await
//! # }
//! ```
//!
//! Beside the games, the server may offer calculators of odds for games it does not deal
//! (prisoner's solitaire), given to it the same way ([`Config::odds`], [`OddsTool`]) and
//! answered at `GET /api/odds/{name}`.
//!
//! Everything a stranger can make the server spend is bounded ([`Limits`]): connections per
//! address and per table, the time to send a request, requests that create things, tables
//! per player, replays built at once, calculations (tools, odds), bots thinking at once,
//! reviews made at once and waiting, passwords hashed at once and failed logins, notices
//! per person and Web Push messages in flight.

pub mod accounts;
pub mod chat;
pub mod clock;
pub mod code;
pub mod cuadrillas;
pub mod friends;
mod http;
pub mod hub;
pub mod msg;
pub mod net;
pub mod notices;
pub mod operator;
pub mod push;
pub mod ratings;
pub mod review;
pub mod store;
pub mod table;
pub mod tournaments;
mod web;

pub use clock::Clock;
pub use http::lang;
pub use http::ws::{BEAT, BEAT_EVERY, BURST, RATE};
pub use hub::{Hub, Unloaded};
pub use tapete_host::{Kind, TableGame};

use net::limit::ConnCounter;
use serde_json::Value;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use store::{Db, Durability};
use tracing::Instrument;

/// Where to listen, where to keep the database, which games to offer, and how much a
/// stranger may ask.
#[derive(Clone)]
pub struct Config {
    pub addr: SocketAddr,
    /// A SQLite file, or a `postgres://` URL of a database several servers share.
    pub db: PathBuf,
    /// This server's name among those sharing a PostgreSQL database (the leases it holds
    /// and the `node` a client is sent to say it); by default the host's name and the
    /// process id. Unused with SQLite.
    pub node: Option<String>,
    /// The balancer's address: its connections start with a PROXY line naming the
    /// client (HAProxy's `send-proxy`), whose address every per-address limit counts.
    pub proxy: Option<std::net::IpAddr>,
    pub durability: Durability,
    pub limits: Limits,
    /// The games the server offers, in lobby order (`tapete_catalog::kinds()`). Stored
    /// tables of a game not listed here are not restored.
    pub games: Vec<Arc<dyn Kind>>,
    /// Calculators of odds offered beside the games, at `GET /api/odds/{name}` (the command
    /// line passes prisoner's solitaire); none by default.
    pub odds: Vec<Arc<dyn OddsTool>>,
    /// What the connections' queues hold and how many reviews are being made, kept up to
    /// date by the server for whoever holds a clone (a monitor, a test).
    pub gauges: Arc<net::outbox::Gauges>,
    /// The nicknames of the accounts that are the server's operators (see [`operator`]):
    /// each must be an account when the server starts, or it does not start.
    pub operators: Vec<String>,
    /// How often a server with operators screens its newest rated games for collusion,
    /// soft play and win trading, and flags what it finds (see `operator::screen`); zero:
    /// never by itself (an operator may still ask). A day by default.
    pub screen_every: std::time::Duration,
    /// How many of the newest rated games a screen reads (2,000 by default, at most 50,000).
    pub screen_games: usize,
}

impl Config {
    /// A server at `addr` on the database `db` offering `games` and no odds tools, with the
    /// default durability and limits.
    pub fn new(addr: SocketAddr, db: PathBuf, games: Vec<Arc<dyn Kind>>) -> Config {
        Config {
            addr,
            db,
            node: None,
            proxy: None,
            durability: Durability::default(),
            limits: Limits::default(),
            games,
            odds: Vec::new(),
            gauges: Arc::default(),
            operators: Vec::new(),
            screen_every: std::time::Duration::from_secs(24 * 3600),
            screen_games: operator::screen::DEFAULT_GAMES,
        }
    }
}

/// A calculator of odds offered beside the games, for a game the server does not deal
/// (prisoner's solitaire): `GET /api/odds/{name}?…` gives it the URL's parameters. It comes
/// in through [`Config::odds`], as the games do, so the server depends on none of them.
pub trait OddsTool: Send + Sync {
    /// Its name in the address, `/api/odds/{name}` (`solitaire`).
    fn name(&self) -> &'static str;
    /// Answers the URL's parameters (a JSON object of strings), or says in words what is
    /// wrong with them. Anyone may ask, so it must refuse, not start, work that would take
    /// long: the server bounds how many calculations run at once, not how long one takes.
    fn answer(&self, query: &Value) -> Result<Value, String>;
    /// Its page and words, served as a game's are ([`tapete_host::Host::WEB`]); none by
    /// default.
    fn web(&self) -> tapete_host::WebFace {
        tapete_host::WebFace::NONE
    }
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let games: Vec<&str> = self.games.iter().map(|k| k.name()).collect();
        f.debug_struct("Config")
            .field("addr", &self.addr)
            .field("db", &store::shown(&self.db))
            .field("node", &self.node)
            .field("proxy", &self.proxy)
            .field("durability", &self.durability)
            .field("limits", &self.limits)
            .field("games", &games)
            .field(
                "odds",
                &self.odds.iter().map(|o| o.name()).collect::<Vec<_>>(),
            )
            .field("gauges", &self.gauges)
            .field("operators", &self.operators)
            .field("screen_every", &self.screen_every)
            .field("screen_games", &self.screen_games)
            .finish()
    }
}

/// Checks a list of games: at least one, and no name twice (a table names its game, so
/// two games of one name could not be told apart).
pub fn check_games(games: &[Arc<dyn Kind>]) -> Result<(), String> {
    if games.is_empty() {
        return Err("the server was given no games to offer".into());
    }
    for (i, k) in games.iter().enumerate() {
        if games[..i].iter().any(|o| o.name() == k.name()) {
            return Err(format!("two games are called `{}`", k.name()));
        }
    }
    Ok(())
}

/// Checks a list of odds tools: no name twice, and every name usable in an address
/// (lowercase ASCII letters, digits, `-` and `_`).
pub fn check_odds(odds: &[Arc<dyn OddsTool>]) -> Result<(), String> {
    for (i, o) in odds.iter().enumerate() {
        let name = o.name();
        let plain = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_';
        if name.is_empty() || !name.chars().all(plain) {
            return Err(format!(
                "the odds tool `{name}` needs a name of lowercase letters, digits, - and _"
            ));
        }
        if odds[..i].iter().any(|p| p.name() == name) {
            return Err(format!("two odds tools are called `{name}`"));
        }
    }
    Ok(())
}

/// What one client (one IP address) may make the server spend.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Open TCP connections from one address (pages, API calls and WebSockets together).
    pub conns_per_addr: usize,
    /// Connections to one table that hold no seat there (spectators).
    pub watchers_per_table: usize,
    /// Guests, accounts and tables one address may create per minute (each counted on
    /// its own; bursts of as many).
    pub creates_per_minute: u32,
    /// Tables one player may have created and not yet finished.
    pub open_tables_per_player: u64,
    /// Tables made from one address that are open on this server (waiting or playing).
    pub open_tables_per_addr: usize,
    /// Time to send a request's headers (and, once idle, the next request's).
    pub header_timeout: Duration,
    /// Time to answer a request (a slow body included); WebSockets are not bound by it.
    pub request_timeout: Duration,
    /// A WebSocket that sends nothing (not even a pong) for this long is closed.
    pub ws_idle: Duration,
    /// A table nobody is connected to stops after this long (it restarts from storage).
    pub idle_table: Duration,
    /// A table that has not started, with nobody connected for this long, stops and is
    /// removed (a table nobody comes to leaves the lobby soon, and storage with it).
    pub idle_waiting_table: Duration,
    /// The database file's largest size: past it, writes fail as on a full disk (and the
    /// tables back off) instead of filling the disk.
    pub max_db_bytes: u64,
    /// Calculations (games' tools, odds tools) running at once on the whole server, each
    /// on a thread of its own; more wait up to 5 s, then are answered 503.
    pub calculations: usize,
    /// Bytes queued for one WebSocket and not yet written: a client that does not read
    /// what it is sent is closed past this (it reconnects and gets the whole state), so
    /// it cannot make the server hold more.
    pub queued_bytes_per_conn: usize,
    /// Passwords hashed or checked at once on the whole server (Argon2id, 19 MiB and one
    /// core each), each on a blocking thread.
    pub password_hashes: usize,
    /// Requests that may wait for a turn to hash a password; one more is answered 503.
    pub password_queue: usize,
    /// Failed logins one address may make in a burst, then as many a minute.
    pub failed_logins_per_addr: u32,
    /// Failed logins to one nickname in a burst, then one a minute (whoever tries from a
    /// device the account does not know).
    pub failed_logins_per_account: u32,
    /// Failed logins from one known device (a browser that logged in to the account
    /// before) in a burst, then one a minute: its own budget, which no one else spends.
    pub failed_logins_per_device: u32,
    /// Wrong old passwords one session may send in a burst when changing its password,
    /// then one a minute.
    pub wrong_passwords_per_session: u32,
    /// Sessions one account holds at most: a new login ends the least recently used.
    pub sessions_per_account: usize,
    /// Profiles, games lists and leaderboard pages one address may read a minute (bursts
    /// of as many).
    pub profile_reads_per_minute: u32,
    /// How long a rematch ("otra") waits for the people of the finished table before it
    /// starts, the seats of those who did not accept going to the bot.
    pub rematch_wait: Duration,
    /// Reviews made at once on the whole server, each on a blocking thread of its own.
    pub reviews_at_once: usize,
    /// Reviews that may wait for their turn; one more is refused (503
    /// `review_queue_full`). A waiting review holds its table's id and seat, no more.
    pub review_queue: usize,
    /// New reviews one person may ask for in a burst, then as many an hour (an account
    /// by itself; guests and visitors by their address).
    pub reviews_per_person: u32,
    /// Requests for reviews one address may make a minute (polls and stored reviews
    /// included), in bursts of as many.
    pub review_reads_per_minute: u32,
    /// How hard a review looks: its worlds, its seed and its threads (one: the reviews
    /// made at once are the bound on the cores they take).
    pub review: tapete_review::Settings,
    /// Web Push messages being sent at once on the whole server; a notice finding them
    /// all busy is not pushed (the page still reads it).
    pub push_sends: usize,
    /// Time for a push service to answer one message, connecting included.
    pub push_timeout: Duration,
    /// Whom the push services may write to about this server's messages (the VAPID
    /// `sub`: a `mailto:` or `https:` URL); by default web-push's placeholder.
    pub push_contact: Option<String>,
    /// Takes subscriptions whose push service is at `http://127.0.0.1` (or `localhost`,
    /// `[::1]`): for tests, which run their own push service. Off, only `https://` push
    /// services on a named host are taken.
    pub push_loopback: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            conns_per_addr: 64,
            watchers_per_table: 50,
            creates_per_minute: 20,
            open_tables_per_player: 10,
            open_tables_per_addr: 10,
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(20),
            ws_idle: Duration::from_secs(60),
            idle_table: Duration::from_secs(30 * 60),
            idle_waiting_table: Duration::from_secs(2 * 60),
            max_db_bytes: 4 << 30,
            // CPU work: no more at once than the cores.
            calculations: std::thread::available_parallelism().map_or(2, |n| n.get()),
            queued_bytes_per_conn: 2 << 20,
            password_hashes: 2,
            password_queue: 32,
            failed_logins_per_addr: 10,
            failed_logins_per_account: 5,
            failed_logins_per_device: 5,
            wrong_passwords_per_session: 5,
            sessions_per_account: 20,
            profile_reads_per_minute: 60,
            rematch_wait: Duration::from_secs(60),
            // CPU work that may take minutes: one core is left for the tables.
            reviews_at_once: std::thread::available_parallelism()
                .map_or(1, |n| n.get().saturating_sub(1))
                .max(1),
            review_queue: 64,
            reviews_per_person: 6,
            review_reads_per_minute: 120,
            review: tapete_review::Settings {
                threads: 1,
                ..tapete_review::Settings::default()
            },
            push_sends: 16,
            push_timeout: Duration::from_secs(10),
            push_contact: None,
            push_loopback: false,
        }
    }
}

/// Opens the database, restores the tables and serves until `shutdown` resolves.
/// `ready` is called with the bound address once the server accepts connections.
pub async fn serve(
    config: Config,
    ready: impl FnOnce(SocketAddr, usize),
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), String> {
    check_games(&config.games)?;
    check_odds(&config.odds)?;
    let web = Arc::new(web::Web::of(&config.games, &config.odds)?);
    let db = match config.db.to_str().filter(|p| store::pg::is_url(p)) {
        Some(url) => {
            let node = config
                .node
                .clone()
                .unwrap_or_else(store::lease::default_node);
            Db::open_postgres(url, &node, Some(config.limits.max_db_bytes))
        }
        None => Db::open_with(
            &config.db,
            config.durability,
            Some(config.limits.max_db_bytes),
        ),
    }
    .map_err(|e| format!("{}: {e}", store::shown(&config.db)))?;
    let hub = Arc::new(Hub::new(
        db,
        config.games.clone(),
        config.odds.clone(),
        config.limits.clone(),
        config.gauges.clone(),
    ));
    // Accounts made before nicknames' looks were kept get theirs, and the device tokens'
    // key is made now if it is not there yet (not by the first login).
    let prepared = async {
        hub.db.fill_nickname_looks(accounts::nickname_look).await?;
        hub.device_secret().await.map(|_| ())
    };
    if let Err(e) = prepared.await {
        hub.db.close().await;
        return Err(e.to_string());
    }
    // The operators are accounts: a nickname that is none stops the start.
    let operators = match operator_accounts(&hub.db, &config.operators).await {
        Ok(ids) => ids,
        Err(e) => {
            hub.db.close().await;
            return Err(e);
        }
    };
    let screening = !operators.is_empty();
    let _ = hub.operators.set(operators);
    hub.screening.set_games(config.screen_games);
    if screening {
        tokio::spawn(operator::screen::keep_screening(
            hub.clone(),
            config.screen_every,
        ));
    }
    // With several servers on one database, this one's lines about its leases and what
    // it publishes say which node it is.
    let cluster = match hub.db.node() {
        Some(node) => tracing::info_span!("node", name = %node),
        None => tracing::Span::none(),
    };
    hub.make_tables_notices();
    if hub.db.node().is_some() {
        tokio::spawn(hub.clone().keep_leases().instrument(cluster.clone()));
        tokio::spawn(hub.clone().publish_board().instrument(cluster.clone()));
    }
    let restored = match hub.restore().instrument(cluster.clone()).await {
        Ok(n) => n,
        Err(e) => {
            hub.db.close().await;
            return Err(e);
        }
    };
    // The rated games' reviews a stopped server had queued and not made.
    let reviewing: Vec<String> = config
        .games
        .iter()
        .filter(|k| k.reviews())
        .map(|k| k.name().to_string())
        .collect();
    hub.reviews.resume(hub.db.clone(), reviewing);
    // The cuadrillas' weekly slots: every server looks, one tells each start.
    tokio::spawn(hub.clone().keep_slots());
    // Tournaments whose start came, and matches to open or to read (see `tournaments`).
    tokio::spawn(tournaments::run(hub.clone()).instrument(cluster.clone()));
    let listener = match tokio::net::TcpListener::bind(config.addr).await {
        Ok(l) => l,
        Err(e) => {
            hub.db.close().await;
            return Err(format!("cannot listen on {}: {e}", config.addr));
        }
    };
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    cluster.in_scope(|| tracing::info!(%addr, restored, "listening"));
    ready(addr, restored);
    let router = http::router(hub.clone()).layer(axum::Extension(web));
    let conns = ConnCounter::new(config.limits.conns_per_addr);
    let limits = config.limits;
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            _ = &mut shutdown => {
                // The database is closed and its lock let go before this returns, so a
                // server started on it right after never finds it held.
                hub.db.close().await;
                return Ok(());
            }
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors, say: wait a moment rather than spin.
                    tracing::warn!("accepting a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
        };
        let router = router.clone();
        let limits = limits.clone();
        if Some(peer.ip()) == config.proxy {
            // The balancer's: the client's address comes first, then its bytes.
            // (Reading it here keeps a slow sender from holding up the accepts.)
            let conns = conns.clone();
            tokio::spawn(async move {
                let mut stream = stream;
                let peer = match net::proxy::read_header(&mut stream).await {
                    Ok(Some(client)) => client,
                    Ok(None) => peer,
                    Err(_) => return,
                };
                let Some(guard) = conns.enter(peer.ip()) else {
                    return;
                };
                http::serve_connection(stream, peer, router, &limits).await;
                drop(guard);
            });
            continue;
        }
        let Some(guard) = conns.enter(peer.ip()) else {
            // Over the address's share: closed at once, before a byte is read.
            drop(stream);
            continue;
        };
        tokio::spawn(async move {
            http::serve_connection(stream, peer, router, &limits).await;
            drop(guard);
        });
    }
}

/// The accounts of the operators' nicknames (found as a login finds them); the first that
/// is no account's stops the start, named.
pub async fn operator_accounts(
    db: &Db,
    nicknames: &[String],
) -> Result<std::collections::HashSet<i64>, String> {
    let mut ids = std::collections::HashSet::new();
    for nickname in nicknames {
        let found = db
            .account_by_key(accounts::nickname_key(nickname))
            .await
            .map_err(|e| e.to_string())?;
        match found {
            Some((id, _, _)) => {
                ids.insert(id);
            }
            None => {
                return Err(format!(
                    "the operator `{nickname}` is no account here: make the account first \
                     (sign up on the site), then start the server naming it"
                ))
            }
        }
    }
    Ok(ids)
}

#[cfg(test)]
mod tests {
    /// The server logs through `tracing` alone (the program that runs it installs the
    /// subscriber: where lines go, at which levels): no line of its source writes to
    /// standard error by itself.
    #[test]
    fn the_server_logs_through_tracing_only() {
        fn visit(dir: &std::path::Path, found: &mut Vec<String>) {
            for entry in std::fs::read_dir(dir).expect("the source folder") {
                let path = entry.expect("a folder entry").path();
                if path.is_dir() {
                    visit(&path, found);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).expect("a source file");
                    // Spelled in two halves, so that this file does not find itself.
                    let printing = ["eprint", "ln!"].concat();
                    let printing_bare = ["eprint", "!("].concat();
                    for (i, line) in text.lines().enumerate() {
                        let code = line.trim_start();
                        if !code.starts_with("//")
                            && (code.contains(&printing) || code.contains(&printing_bare))
                        {
                            found.push(format!("{}:{}: {code}", path.display(), i + 1));
                        }
                    }
                }
            }
        }
        let mut found = Vec::new();
        visit(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut found,
        );
        assert!(
            found.is_empty(),
            "write to the log with tracing (error!, warn!, info!…), not to stderr:\n{}",
            found.join("\n")
        );
    }
}
