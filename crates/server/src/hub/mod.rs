//! The hub: what every request handler shares (the games, the database, the running
//! tables and the per-address budgets), and keeping this node's tables: starting them from
//! storage, taking those of nodes that died, letting go of those another node took.

pub mod cluster;

use crate::accounts::{self, Sessions};
use crate::net::limit::{self, RateLimiter, SmallCache};
use crate::net::outbox;
use crate::store::lease::Claim;
use crate::store::{self, Db};
use crate::table::{self, StoredTable, TableEnv, TableHandle};
use crate::{friends, review, Kind, Limits, OddsTool};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Duration;
use tokio::time::Instant;

/// A table made from an address: its id, and when it was counted while it is being made
/// (`None` once it runs).
pub(crate) type Made = (String, Option<Instant>);

/// Everything the request handlers share: the game kinds, the database and the running
/// tables.
pub struct Hub {
    pub(crate) kinds: Vec<Arc<dyn Kind>>,
    pub(crate) odds: Vec<Arc<dyn OddsTool>>,
    pub(crate) db: Db,
    pub(crate) limits: Limits,
    pub(crate) tables: RwLock<HashMap<String, TableHandle>>,
    /// The sessions in use, so a request needs no database read to know who asks.
    pub(crate) sessions: Sessions,
    /// The password hasher, bounded.
    pub(crate) passwords: accounts::Passwords,
    /// Failed logins per address and per nickname key, and per known device.
    pub(crate) logins: limit::LoginThrottle,
    /// Wrong old passwords per session (a new password).
    pub(crate) wrong_old_passwords: RateLimiter<i64>,
    /// The key that signs device tokens (see [`accounts::device_token`]), read from the
    /// database at its first use.
    pub(crate) device_secret: tokio::sync::OnceCell<Vec<u8>>,
    pub(crate) next_conn: AtomicU64,
    /// Serializes loading a stored table, so one table never gets two tasks.
    pub(crate) loading: tokio::sync::Mutex<()>,
    pub(crate) env: TableEnv,
    /// Creations per address: guests, accounts and tables, each apart.
    pub(crate) new_guests: RateLimiter,
    pub(crate) new_accounts: RateLimiter,
    pub(crate) new_tables: RateLimiter,
    /// The tables made from each address (the open ones are counted).
    pub(crate) tables_by_addr: std::sync::Mutex<HashMap<std::net::IpAddr, Vec<Made>>>,
    /// Profile, games list and leaderboard reads per address.
    pub(crate) profile_reads: RateLimiter,
    /// Replay steps being built at once.
    pub(crate) replays: tokio::sync::Semaphore,
    /// Calculations (games' tools such as Mus's leyes, odds tools) running at once.
    pub(crate) calculations: Arc<tokio::sync::Semaphore>,
    /// The logs of the finished games replayed last.
    pub(crate) replay_cache: SmallCache<StoredTable>,
    /// What the connections' queues hold.
    pub(crate) gauges: Arc<outbox::Gauges>,
    /// Who is online, and the rate of friend requests and invitations.
    pub(crate) social: friends::Social,
    /// What this server publishes and reads of the others on its database.
    pub(crate) board: cluster::Board,
    /// The reviews waiting and being made.
    pub(crate) reviews: review::Queue,
    /// Requests for reviews per address.
    pub(crate) review_reads: RateLimiter,
    /// New reviews asked for per person (an account's id, else the address).
    pub(crate) review_asks: RateLimiter<String>,
    /// The rate of notices to each person, and the tables' notices waiting to be made.
    pub(crate) notices: crate::notices::Notices,
    /// The rate of new cuadrillas per account.
    pub(crate) cuadrillas: crate::cuadrillas::Cuadrillas,
    /// The Web Push sender.
    pub(crate) push: Arc<crate::push::Push>,
    /// The outcomes of tournament matches read from their logs.
    pub(crate) tournament_outcomes: crate::tournaments::Outcomes,
    /// The operators' accounts, set once at start ([`crate::Config::operators`]).
    pub(crate) operators: std::sync::OnceLock<std::collections::HashSet<i64>>,
    /// The screens for the operators: one at a time, over how many games.
    pub(crate) screening: crate::operator::screen::Screening,
}

impl Hub {
    /// A hub on this database with these games and odds tools, its connections' queues
    /// counted in `gauges`.
    pub fn new(
        db: Db,
        kinds: Vec<Arc<dyn Kind>>,
        odds: Vec<Arc<dyn OddsTool>>,
        limits: Limits,
        gauges: Arc<outbox::Gauges>,
    ) -> Hub {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let reviews = review::Queue::new(
            limits.reviews_at_once,
            limits.review_queue,
            gauges.clone(),
            db.clock().clone(),
            review::work(
                db.clone(),
                kinds.clone(),
                limits.review.clone(),
                gauges.clone(),
            ),
        );
        let notices = crate::notices::Notices::default();
        let env = TableEnv {
            db: db.clone(),
            clock: db.clock().clone(),
            idle_end: limits.idle_table,
            waiting_end: limits.idle_waiting_table,
            max_watchers: limits.watchers_per_table,
            // Bots never take every core: one is left for people and the server.
            bot_threads: Arc::new(tokio::sync::Semaphore::new(cores.saturating_sub(1).max(1))),
            gauges: gauges.clone(),
            chat_rates: Arc::default(),
            chat_mutes: Arc::default(),
            reviews: reviews.clone(),
            notices: notices.sender(),
        };
        Hub {
            kinds,
            odds,
            db,
            tables: RwLock::new(HashMap::new()),
            sessions: Sessions::default(),
            passwords: accounts::Passwords::new(limits.password_hashes, limits.password_queue),
            logins: limit::LoginThrottle::new(
                limits.failed_logins_per_addr,
                limits.failed_logins_per_account,
                limits.failed_logins_per_device,
            ),
            wrong_old_passwords: RateLimiter::new(limits.wrong_passwords_per_session, 1.0),
            device_secret: tokio::sync::OnceCell::new(),
            next_conn: AtomicU64::new(1),
            loading: tokio::sync::Mutex::new(()),
            env,
            new_guests: RateLimiter::per_minute(limits.creates_per_minute),
            new_accounts: RateLimiter::per_minute(limits.creates_per_minute),
            new_tables: RateLimiter::per_minute(limits.creates_per_minute),
            tables_by_addr: std::sync::Mutex::new(HashMap::new()),
            profile_reads: RateLimiter::per_minute(limits.profile_reads_per_minute),
            replays: tokio::sync::Semaphore::new(2),
            calculations: Arc::new(tokio::sync::Semaphore::new(limits.calculations.max(1))),
            replay_cache: SmallCache::new(32),
            reviews,
            review_reads: RateLimiter::per_minute(limits.review_reads_per_minute),
            review_asks: RateLimiter::new(
                limits.reviews_per_person,
                f64::from(limits.reviews_per_person) / 60.0,
            ),
            notices,
            cuadrillas: crate::cuadrillas::Cuadrillas::default(),
            push: Arc::new(crate::push::Push::new(&limits)),
            tournament_outcomes: crate::tournaments::Outcomes::default(),
            operators: std::sync::OnceLock::new(),
            screening: Default::default(),
            limits,
            gauges,
            social: friends::Social::default(),
            board: cluster::Board::default(),
        }
    }

    /// The clock the server goes by (the database's: see [`crate::clock`]).
    pub fn clock(&self) -> &crate::clock::Clock {
        self.db.clock()
    }

    /// Whether `player` is one of the server's operators.
    pub fn is_operator(&self, player: i64) -> bool {
        self.operators.get().is_some_and(|o| o.contains(&player))
    }

    /// The key that signs device tokens: the database's, made at its first use.
    pub(crate) async fn device_secret(&self) -> Result<&[u8], store::DbError> {
        self.device_secret
            .get_or_try_init(|| self.db.secret("device"))
            .await
            .map(Vec::as_slice)
    }

    /// Counts the table `id`, about to be made from `ip`, against the address's open tables
    /// on this server (waiting or playing: [`Limits::open_tables_per_addr`]); `Err` with how
    /// many it has open when that is all it may. A table being made counts until
    /// [`Hub::table_made`] (or for the time a request may take), so two made at once are
    /// both counted.
    pub(crate) fn open_table_from(&self, ip: std::net::IpAddr, id: &str) -> Result<(), usize> {
        const MAKING: Duration = Duration::from_secs(30);
        let now = self.clock().now();
        let open = |(id, making): &Made| {
            making.is_some_and(|at| now.duration_since(at) < MAKING)
                || self.table(id).is_some_and(|h| {
                    !h.tx.is_closed()
                        && h.info
                            .read()
                            .map(|i| i.status != table::TableStatus::Finished)
                            .unwrap_or(false)
                })
        };
        let mut by_addr = self
            .tables_by_addr
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if by_addr.len() > 10_000 {
            // Addresses whose tables all ended are forgotten.
            by_addr.retain(|_, ids| {
                ids.retain(open);
                !ids.is_empty()
            });
        }
        let ids = by_addr.entry(ip).or_default();
        ids.retain(open);
        if ids.len() >= self.limits.open_tables_per_addr {
            return Err(ids.len());
        }
        ids.push((id.to_string(), Some(now)));
        Ok(())
    }

    /// The table `id` counted for `ip` runs: it counts while it runs and is not finished.
    pub(crate) fn table_made(&self, ip: std::net::IpAddr, id: &str) {
        let mut by_addr = self
            .tables_by_addr
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if let Some(e) = by_addr
            .get_mut(&ip)
            .and_then(|ids| ids.iter_mut().find(|(t, _)| t == id))
        {
            e.1 = None;
        }
    }

    /// The kind called `name`.
    pub fn kind(&self, name: &str) -> Option<&Arc<dyn Kind>> {
        self.kinds.iter().find(|k| k.name() == name)
    }

    pub(crate) fn table(&self, id: &str) -> Option<TableHandle> {
        self.tables.read().ok()?.get(id).cloned()
    }

    pub(crate) fn insert_table(&self, id: String, handle: TableHandle) {
        if let Ok(mut t) = self.tables.write() {
            t.insert(id, handle);
        }
    }

    /// Every running table's description.
    pub(crate) fn all_tables(&self) -> Vec<table::TableInfo> {
        self.tables
            .read()
            .map(|t| t.values().map(TableHandle::info).collect())
            .unwrap_or_default()
    }

    pub(crate) fn conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    /// Starts the task of a stored table.
    pub(crate) fn start_table(
        self: &Arc<Self>,
        stored: StoredTable,
    ) -> Result<TableHandle, String> {
        let kind = self.kind(&stored.row.game).cloned().ok_or_else(|| {
            format!(
                "table {}: unknown game `{}`",
                stored.row.id, stored.row.game
            )
        })?;
        let id = stored.row.id.clone();
        let hub = Arc::downgrade(self);
        let key = id.clone();
        let on_idle = Box::new(move || {
            if let Some(hub) = hub.upgrade() {
                if let Ok(mut t) = hub.tables.write() {
                    t.remove(&key);
                }
                // Anyone may run it when it is asked for again.
                let release = hub.db.release(key.clone());
                tokio::spawn(async move {
                    if let Err(e) = release.await {
                        tracing::warn!(table = %key, "its lease was not let go: {e}");
                    }
                });
            }
        });
        let handle = table::spawn(self.env.clone(), kind, stored, on_idle)?;
        self.insert_table(id, handle.clone());
        Ok(handle)
    }

    /// A running table, or a stored one (a finished game, say) started on demand. With
    /// several servers on one database, a stored table is started only once this node
    /// holds its lease; a table another node runs is [`Unloaded::Elsewhere`].
    pub(crate) async fn table_or_load(
        self: &Arc<Self>,
        id: &str,
    ) -> Result<Option<TableHandle>, Unloaded> {
        if let Some(h) = self.table(id) {
            if !h.tx.is_closed() {
                return Ok(Some(h));
            }
        }
        let _guard = self.loading.lock().await;
        if let Some(h) = self.table(id) {
            if !h.tx.is_closed() {
                return Ok(Some(h));
            }
        }
        let failed = |e: store::DbError| Unloaded::Failed(e.to_string());
        match self.db.claim(id.to_string()).await.map_err(failed)? {
            Claim::Missing => return Ok(None),
            Claim::Elsewhere(node) => return Err(Unloaded::Elsewhere(node)),
            Claim::Held(_) => {}
        }
        // Read after the lease is ours: the log as the last owner left it.
        match self.db.table(id.to_string()).await.map_err(failed)? {
            None => Ok(None),
            Some(stored) => {
                let handle = self.start_table(stored).map_err(Unloaded::Failed)?;
                tracing::debug!(table = %id, "started from storage");
                Ok(Some(handle))
            }
        }
    }

    /// Stops the tables whose lease this node lost (it was paused or cut off while another
    /// took them): their connections close, and the people reconnect to the new owner.
    pub(crate) fn leave(&self, lost: &[String]) {
        for id in lost {
            let handle = self.tables.write().ok().and_then(|mut t| t.remove(id));
            if let Some(h) = handle {
                tracing::warn!(table = %id, "another server holds the table now: stopped here");
                let _ = h.tx.send(table::Cmd::Leave);
            }
        }
    }

    /// Renews this node's leases (every [`store::lease::RENEW_EVERY`], and at every poll
    /// after a failed renewal, so that a database back from a restart finds them renewed
    /// at once), stops the tables it lost, and takes the tables of nodes that died or
    /// stopped renewing theirs: every [`store::lease::POLL_EVERY`].
    pub(crate) async fn keep_leases(self: Arc<Self>) {
        let mut tick = tokio::time::interval(store::lease::POLL_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut renewed: Option<Instant> = None;
        // Said once per outage, not at every poll.
        let mut failing = false;
        loop {
            tick.tick().await;
            let mut failed = None;
            if renewed.is_none_or(|at| self.clock().since(at) >= store::lease::RENEW_EVERY) {
                match self.db.renew().await {
                    Ok(lost) => {
                        renewed = Some(self.clock().now());
                        self.leave(&lost);
                    }
                    Err(e) => {
                        renewed = None;
                        failed = Some(format!("renewing leases: {e}"));
                    }
                }
            }
            if let Err(e) = self.adopt(false).await {
                failed.get_or_insert(format!("taking orphaned tables: {e}"));
            }
            match failed {
                Some(e) if !failing => {
                    tracing::error!("{e}; trying again every {:?}", store::lease::POLL_EVERY);
                    failing = true;
                }
                None if failing => {
                    tracing::info!("the leases are kept again");
                    failing = false;
                }
                _ => {}
            }
        }
    }

    /// Takes and starts the tables whose owner died or stopped renewing (with `mine`, and
    /// those leased to this node's name: at its start); how many.
    pub(crate) async fn adopt(self: &Arc<Self>, mine: bool) -> Result<usize, String> {
        let mut n = 0;
        let mut seen = std::collections::HashSet::new();
        loop {
            let orphans = self.db.orphans(64, mine).await.map_err(|e| e.to_string())?;
            // Tables this node already took are listed again (their leases are its own).
            let orphans: Vec<String> = orphans
                .into_iter()
                .filter(|t| seen.insert(t.clone()))
                .collect();
            let found = orphans.len();
            for id in orphans {
                match self.table_or_load(&id).await {
                    Ok(Some(_)) => {
                        tracing::info!(table = %id, "took over the table");
                        n += 1;
                    }
                    Ok(None) | Err(Unloaded::Elsewhere(_)) => {}
                    Err(Unloaded::Failed(e)) => {
                        tracing::error!(table = %id, "the table was not taken over: {e}");
                    }
                }
            }
            if found < 64 {
                return Ok(n);
            }
        }
    }

    /// Restarts every unfinished table from storage, exactly where it was. A table that
    /// cannot be restored is reported and left alone; the others start.
    ///
    /// With several servers on one database, a node starts only the tables nobody runs
    /// (whose owner stopped renewing their leases); the others start when asked for.
    pub async fn restore(self: &Arc<Self>) -> Result<usize, String> {
        if self.db.node().is_some() {
            return self.adopt(true).await;
        }
        let stored = self
            .db
            .unfinished_tables()
            .await
            .map_err(|e| e.to_string())?;
        let mut n = 0;
        for (id, t) in stored {
            match t
                .map_err(|e| format!("table {id}: {e}"))
                .and_then(|t| self.start_table(t))
            {
                Ok(_) => n += 1,
                Err(e) => tracing::error!(table = %id, "not restored: {e}"),
            }
        }
        Ok(n)
    }
}

/// Why a table could not be had on this server.
#[derive(Debug)]
pub enum Unloaded {
    /// Another server of the same database runs it (by its lease): ask that one.
    Elsewhere(String),
    /// It could not be read or started (the reason is for the log).
    Failed(String),
}

impl std::fmt::Display for Unloaded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unloaded::Elsewhere(node) => write!(f, "the table is run by the server {node}"),
            Unloaded::Failed(e) => f.write_str(e),
        }
    }
}
