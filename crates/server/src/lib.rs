//! The online table: a lobby, tables where people and bots play together, storage that
//! survives restarts, the leyes calculator and replays, over HTTP and WebSocket.
//!
//! The server drives games only through the shared [`tapete_table::Game`] contract, erased
//! by [`kind`]; [`games`] lists the games it hosts. Every table is its rules, a seed and an
//! action log in SQLite ([`store`]); one task per table ([`table`]) orders its actions,
//! writes each before showing it and sends every connection only its own seat's view.
//! The protocol is documented in `docs/server.md`.

pub mod games;
mod http;
pub mod kind;
pub mod loadtest;

pub mod msg;
pub mod store;
pub mod table;
mod ws;

use kind::Kind;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use store::{Db, StoredTable};
use table::{PlayerRef, TableHandle};

/// Where to listen and where to keep the database.
#[derive(Clone, Debug)]
pub struct Config {
    pub addr: SocketAddr,
    pub db: PathBuf,
}

/// Everything the request handlers share: the game kinds, the database and the running
/// tables.
pub struct Hub {
    kinds: Vec<Box<dyn Kind>>,
    db: Db,
    tables: RwLock<HashMap<String, TableHandle>>,
    /// Players by token hash, so a request needs no database read to know who asks.
    tokens: RwLock<HashMap<String, PlayerRef>>,
    next_conn: AtomicU64,
    /// Serializes loading a stored table, so one table never gets two tasks.
    loading: tokio::sync::Mutex<()>,
}

impl Hub {
    /// A hub on this database with these games.
    pub fn new(db: Db, kinds: Vec<Box<dyn Kind>>) -> Hub {
        Hub {
            kinds,
            db,
            tables: RwLock::new(HashMap::new()),
            tokens: RwLock::new(HashMap::new()),
            next_conn: AtomicU64::new(1),
            loading: tokio::sync::Mutex::new(()),
        }
    }

    /// The kind called `name`.
    pub fn kind(&self, name: &str) -> Option<&dyn Kind> {
        self.kinds.iter().find(|k| k.name() == name).map(|k| &**k)
    }

    fn table(&self, id: &str) -> Option<TableHandle> {
        self.tables.read().ok()?.get(id).cloned()
    }

    fn insert_table(&self, id: String, handle: TableHandle) {
        if let Ok(mut t) = self.tables.write() {
            t.insert(id, handle);
        }
    }

    /// Every running table's description.
    fn all_tables(&self) -> Vec<table::TableInfo> {
        self.tables
            .read()
            .map(|t| t.values().map(TableHandle::info).collect())
            .unwrap_or_default()
    }

    fn conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    /// Starts the task of a stored table.
    fn start_table(self: &Arc<Self>, stored: StoredTable) -> Result<TableHandle, String> {
        let kind = self.kind(&stored.row.game).ok_or_else(|| {
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
            }
        });
        let handle = table::spawn(self.db.clone(), kind, stored, on_idle)?;
        self.insert_table(id, handle.clone());
        Ok(handle)
    }

    /// A running table, or a stored one (a finished game, say) started on demand.
    async fn table_or_load(self: &Arc<Self>, id: &str) -> Result<Option<TableHandle>, String> {
        if let Some(h) = self.table(id) {
            return Ok(Some(h));
        }
        let _guard = self.loading.lock().await;
        if let Some(h) = self.table(id) {
            return Ok(Some(h));
        }
        match self
            .db
            .table(id.to_string())
            .await
            .map_err(|e| e.to_string())?
        {
            None => Ok(None),
            Some(stored) => self.start_table(stored).map(Some),
        }
    }

    /// Restarts every unfinished table from storage, exactly where it was.
    pub async fn restore(self: &Arc<Self>) -> Result<usize, String> {
        let stored = self
            .db
            .unfinished_tables()
            .await
            .map_err(|e| e.to_string())?;
        let mut n = 0;
        for t in stored {
            match self.start_table(t) {
                Ok(_) => n += 1,
                Err(e) => eprintln!("not restored: {e}"),
            }
        }
        Ok(n)
    }
}

/// Opens the database, restores the tables and serves until `shutdown` resolves.
/// `ready` is called with the bound address once the server accepts connections.
pub async fn serve(
    config: Config,
    ready: impl FnOnce(SocketAddr, usize),
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), String> {
    let db = Db::open(&config.db).map_err(|e| format!("{}: {e}", config.db.display()))?;
    let hub = Arc::new(Hub::new(db, games::all()));
    let restored = hub.restore().await?;
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    ready(addr, restored);
    axum::serve(
        listener,
        http::router(hub).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown)
    .await
    .map_err(|e| e.to_string())
}
