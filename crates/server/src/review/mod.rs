//! Reviews of finished games: for one seat, every real choice it made valued from its own
//! view (the review engine, `tapete_review`, through the game's [`Kind::review`]), as the
//! JSON document `tapete review --json` prints.
//!
//! A review is CPU work of seconds to minutes, so no request waits for one: a request for
//! a review not stored yet puts it in the [`Queue`] (bounded in length; a review already
//! queued or being made is joined, never made twice) and is answered where it stands, and
//! the page asks again. At most [`crate::Limits::reviews_at_once`] are made at once on the
//! whole server, each on a blocking thread, its engine on one thread
//! ([`crate::Limits::review`]). A review made is stored ([`store`]) and never made again. A
//! job holds only its table's id and its seat: the game is read from the database when its
//! turn comes, so any server of a cluster can make the review of any table.
//!
//! A rated game's reviews, one for each seat an account held, are queued as soon as it
//! ends ([`Queue::after_rated_game`]), so they are usually ready when someone asks; a
//! server that starts queues again those of the last week's rated games left without them
//! ([`Queue::resume`]: a stopped server's queue is lost).

pub(crate) mod store;

use crate::clock::Clock;
use crate::net::outbox::Gauges;
use crate::store::Db;
use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tapete_host::{Kind, StoredGame};
use tapete_table::Seat;
use tokio::time::Instant;

/// A review: its table's id and the seat reviewed.
pub type Key = (String, Seat);

/// How long a review that failed is answered as failed (it is not made again meanwhile:
/// the same game would fail the same way).
pub const FAILED_FOR: Duration = Duration::from_secs(10 * 60);

/// Failures remembered at most (the oldest are forgotten first).
const FAILURES_KEPT: usize = 256;

/// Where a review not stored yet stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Waiting for its turn: `position` 1 is the next to start.
    Queued { position: usize },
    /// Being made: `done` of the seat's `total` decisions valued so far (0 of 0 while its
    /// game is read and walked).
    Running { done: usize, total: usize },
}

/// What asking for a review did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Asked {
    /// It was queued now.
    New(Status),
    /// It was queued or being made already: the asker waits for the same one.
    Joined(Status),
    /// The queue holds as many as it takes: nothing was queued.
    Full,
}

/// How far a review being made is, told by the engine from its thread.
#[derive(Debug, Default)]
pub struct Progress {
    done: AtomicUsize,
    total: AtomicUsize,
}

impl Progress {
    /// `done` of `total` decisions valued.
    pub fn set(&self, done: usize, total: usize) {
        self.total.store(total, Ordering::Relaxed);
        self.done.store(done, Ordering::Relaxed);
    }

    fn status(&self) -> Status {
        Status::Running {
            done: self.done.load(Ordering::Relaxed),
            total: self.total.load(Ordering::Relaxed),
        }
    }
}

/// The work of one review: make it and store it, or say why not. Run by the queue's
/// workers, at most [`crate::Limits::reviews_at_once`] at once.
pub type Work = Arc<
    dyn Fn(Key, Arc<Progress>) -> Pin<Box<dyn Future<Output = Result<(), String>> + Send>>
        + Send
        + Sync,
>;

/// The reviews waiting and being made on this server. Cheap to clone.
#[derive(Clone)]
pub struct Queue {
    inner: Arc<Inner>,
}

struct Inner {
    /// Reviews made at once, at most.
    at_once: usize,
    /// Reviews waiting, at most.
    capacity: usize,
    work: Work,
    gauges: Arc<Gauges>,
    clock: Clock,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    waiting: VecDeque<Key>,
    running: HashMap<Key, Arc<Progress>>,
    /// Workers alive: each makes one review at a time and ends when nothing waits.
    workers: usize,
    /// Reviews that failed lately, with why and when.
    failed: VecDeque<(Key, String, Instant)>,
}

impl Queue {
    /// A queue making at most `at_once` reviews at once (at least one), with at most
    /// `capacity` waiting, each made by `work`; the reviews being made are counted in
    /// `gauges`.
    pub fn new(
        at_once: usize,
        capacity: usize,
        gauges: Arc<Gauges>,
        clock: Clock,
        work: Work,
    ) -> Queue {
        Queue {
            inner: Arc::new(Inner {
                at_once: at_once.max(1),
                capacity,
                work,
                gauges,
                clock,
                state: Mutex::new(State::default()),
            }),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.inner.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Where the review `key` stands, if it is queued or being made.
    pub fn status(&self, key: &Key) -> Option<Status> {
        let s = self.state();
        status_in(&s, key)
    }

    /// Why the review `key` failed, if it failed within [`FAILED_FOR`].
    pub fn failed(&self, key: &Key) -> Option<String> {
        let now = self.inner.clock.now();
        let s = self.state();
        s.failed
            .iter()
            .rev()
            .find(|(k, _, at)| k == key && now.duration_since(*at) < FAILED_FOR)
            .map(|(_, why, _)| why.clone())
    }

    /// Asks for the review `key`: joined if it is queued or being made, else queued if
    /// there is room. A failure remembered for it is forgotten (it is tried again).
    pub fn ask(&self, key: Key) -> Asked {
        let mut s = self.state();
        if let Some(st) = status_in(&s, &key) {
            return Asked::Joined(st);
        }
        // A worker free takes it at once; else it waits, if there is room.
        let free = s.workers < self.inner.at_once;
        if !free && s.waiting.len() >= self.inner.capacity {
            return Asked::Full;
        }
        s.failed.retain(|(k, _, _)| *k != key);
        s.waiting.push_back(key);
        let position = s.waiting.len();
        if free {
            s.workers += 1;
            let inner = self.inner.clone();
            tokio::spawn(work_on(inner));
        }
        Asked::New(Status::Queued { position })
    }

    /// Queues the reviews of a rated game that just ended: one for each seat an account
    /// held (read from its roster). Done in a task of its own, after the game's end was
    /// committed; a review that finds the queue full is left to be asked for.
    pub fn after_rated_game(&self, db: Db, table: String) {
        let queue = self.clone();
        tokio::spawn(async move {
            let seats = match db.account_seats(table.clone()).await {
                Ok(seats) => seats,
                Err(e) => {
                    tracing::warn!(table = %table, "the rated game's reviews were not queued: {e}");
                    return;
                }
            };
            for seat in seats {
                if queue.ask((table.clone(), seat)) == Asked::Full {
                    tracing::warn!(
                        table = %table,
                        seat,
                        "the review queue is full: the rated game's review waits to be asked for"
                    );
                }
            }
        });
    }
}

/// How far back a starting server looks for rated games whose reviews were queued and not
/// made (the server stopped first).
pub const RESUME_WITHIN: std::time::Duration = std::time::Duration::from_secs(7 * 24 * 3600);

impl Queue {
    /// Queues again the reviews of rated games that ended lately without them (their
    /// queue was lost with a stopped server, or was full): at most half the queue, the
    /// latest first, so that a start never fills it. `games` are the games that review.
    pub fn resume(&self, db: Db, games: Vec<String>) {
        let queue = self.clone();
        let room = (self.inner.capacity / 2).max(1);
        tokio::spawn(async move {
            let since = crate::store::now() - RESUME_WITHIN.as_secs() as i64;
            match db.unreviewed_rated(games, since, room).await {
                Ok(tables) => {
                    if !tables.is_empty() {
                        tracing::info!("{} rated games' reviews queued again", tables.len());
                    }
                    for table in tables {
                        queue.after_rated_game(db.clone(), table);
                    }
                }
                Err(e) => tracing::warn!("the rated games left unreviewed were not read: {e}"),
            }
        });
    }
}

fn status_in(s: &State, key: &Key) -> Option<Status> {
    if let Some(p) = s.running.get(key) {
        return Some(p.status());
    }
    s.waiting
        .iter()
        .position(|k| k == key)
        .map(|i| Status::Queued { position: i + 1 })
}

/// One worker: makes the reviews waiting, one after the other, and ends when none waits.
async fn work_on(inner: Arc<Inner>) {
    loop {
        let (key, progress) = {
            let mut s = inner.state.lock().unwrap_or_else(|p| p.into_inner());
            let Some(key) = s.waiting.pop_front() else {
                s.workers -= 1;
                return;
            };
            let progress = Arc::new(Progress::default());
            s.running.insert(key.clone(), progress.clone());
            inner.gauges.set_reviewing(s.running.len());
            (key, progress)
        };
        // In a task of its own, so that a panic in it ends the review, not the worker.
        let job = (inner.work)(key.clone(), progress);
        let result = match tokio::spawn(job).await {
            Ok(r) => r,
            Err(e) => Err(format!("the review stopped: {e}")),
        };
        let mut s = inner.state.lock().unwrap_or_else(|p| p.into_inner());
        s.running.remove(&key);
        inner.gauges.set_reviewing(s.running.len());
        if let Err(why) = result {
            tracing::error!(table = %key.0, seat = key.1, "the review was not made: {why}");
            s.failed.push_back((key, why, inner.clock.now()));
            while s.failed.len() > FAILURES_KEPT {
                s.failed.pop_front();
            }
        }
    }
}

/// The work of the server's reviews: a review already stored is not made again; else the
/// finished game is read from the database, reviewed on a blocking thread with
/// `settings`, and the document stored.
pub fn work(
    db: Db,
    kinds: Vec<Arc<dyn Kind>>,
    settings: tapete_review::Settings,
    gauges: Arc<Gauges>,
) -> Work {
    Arc::new(move |(table, seat): Key, progress: Arc<Progress>| {
        let (db, kinds, settings, gauges) =
            (db.clone(), kinds.clone(), settings.clone(), gauges.clone());
        Box::pin(async move {
            let e = |e: crate::store::DbError| e.to_string();
            if db.has_review(table.clone(), seat).await.map_err(e)? {
                return Ok(());
            }
            let game = db
                .review_source(table.clone())
                .await
                .map_err(e)?
                .ok_or_else(|| format!("no finished table `{table}`"))?;
            let kind = kinds
                .iter()
                .find(|k| k.name() == game.game)
                .cloned()
                .ok_or_else(|| format!("the server offers no game `{}`", game.game))?;
            let doc = tokio::task::spawn_blocking(move || {
                let stored = StoredGame {
                    rules: &game.rules,
                    seats: game.seats,
                    seed: game.seed,
                    actions: &game.actions,
                };
                let review = kind.review(&stored, seat, &settings, &|done, total| {
                    progress.set(done, total)
                })?;
                serde_json::to_string(&review).map_err(|e| e.to_string())
            })
            .await
            .map_err(|e| format!("the review's thread stopped: {e}"))??;
            db.store_review(table, seat, doc).await.map_err(e)?;
            gauges.made_review();
            Ok(())
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::sync::Semaphore;

    /// A fake review that waits for a permit of `go`, counted in `made`.
    fn fake(go: Arc<Semaphore>, made: Arc<AtomicUsize>, fail: Option<Seat>) -> Work {
        Arc::new(move |(_, seat): Key, progress: Arc<Progress>| {
            let (go, made) = (go.clone(), made.clone());
            Box::pin(async move {
                progress.set(1, 3);
                go.acquire().await.map_err(|e| e.to_string())?.forget();
                made.fetch_add(1, Ordering::SeqCst);
                match fail {
                    Some(s) if s == seat => Err("no world fits".into()),
                    _ => Ok(()),
                }
            })
        })
    }

    fn key(t: &str, seat: Seat) -> Key {
        (t.to_string(), seat)
    }

    /// Lets the queue's tasks run as far as they can.
    async fn settle() {
        for _ in 0..50 {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test]
    async fn at_most_so_many_are_made_at_once_and_the_rest_wait_in_order() {
        let gauges = Arc::new(Gauges::default());
        let go = Arc::new(Semaphore::new(0));
        let made = Arc::new(AtomicUsize::new(0));
        let q = Queue::new(
            2,
            10,
            gauges.clone(),
            Clock::current(),
            fake(go.clone(), made.clone(), None),
        );
        for seat in 0..5 {
            assert!(matches!(q.ask(key("t", seat)), Asked::New(_)));
        }
        settle().await;
        assert_eq!(gauges.reviewing(), 2);
        assert_eq!(
            q.status(&key("t", 0)),
            Some(Status::Running { done: 1, total: 3 })
        );
        assert_eq!(q.status(&key("t", 2)), Some(Status::Queued { position: 1 }));
        assert_eq!(q.status(&key("t", 4)), Some(Status::Queued { position: 3 }));
        go.add_permits(5);
        settle().await;
        assert_eq!(made.load(Ordering::SeqCst), 5);
        assert_eq!(gauges.reviewing(), 0);
        assert_eq!(gauges.most_reviewing(), 2);
        assert_eq!(q.status(&key("t", 4)), None);
        assert_eq!(q.state().workers, 0, "the workers end when nothing waits");
    }

    #[tokio::test]
    async fn a_review_asked_for_twice_is_made_once() {
        let gauges = Arc::new(Gauges::default());
        let go = Arc::new(Semaphore::new(0));
        let made = Arc::new(AtomicUsize::new(0));
        let q = Queue::new(
            1,
            10,
            gauges,
            Clock::current(),
            fake(go.clone(), made.clone(), None),
        );
        assert!(matches!(q.ask(key("a", 0)), Asked::New(_)));
        assert_eq!(
            q.ask(key("b", 1)),
            Asked::New(Status::Queued { position: 2 })
        );
        settle().await;
        // Running, and waiting: both joined.
        assert!(matches!(
            q.ask(key("a", 0)),
            Asked::Joined(Status::Running { .. })
        ));
        assert_eq!(
            q.ask(key("b", 1)),
            Asked::Joined(Status::Queued { position: 1 })
        );
        go.add_permits(10);
        settle().await;
        assert_eq!(made.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn a_full_queue_takes_nothing_more() {
        let go = Arc::new(Semaphore::new(0));
        let made = Arc::new(AtomicUsize::new(0));
        let q = Queue::new(
            1,
            2,
            Arc::default(),
            Clock::current(),
            fake(go.clone(), made.clone(), None),
        );
        assert!(matches!(q.ask(key("t", 0)), Asked::New(_)));
        settle().await;
        // One is being made; two wait; the next is refused.
        assert!(matches!(q.ask(key("t", 1)), Asked::New(_)));
        assert!(matches!(q.ask(key("t", 2)), Asked::New(_)));
        assert_eq!(q.ask(key("t", 3)), Asked::Full);
        assert_eq!(q.status(&key("t", 3)), None);
        // A review already there is joined even so.
        assert!(matches!(q.ask(key("t", 2)), Asked::Joined(_)));
        go.add_permits(1);
        settle().await;
        assert!(matches!(q.ask(key("t", 3)), Asked::New(_)));
        go.add_permits(10);
        settle().await;
        assert_eq!(made.load(Ordering::SeqCst), 4);
    }

    #[tokio::test]
    async fn with_no_room_to_wait_only_so_many_are_taken_as_are_made_at_once() {
        let go = Arc::new(Semaphore::new(0));
        let made = Arc::new(AtomicUsize::new(0));
        let q = Queue::new(
            2,
            0,
            Arc::default(),
            Clock::current(),
            fake(go.clone(), made.clone(), None),
        );
        assert!(matches!(q.ask(key("t", 0)), Asked::New(_)));
        assert!(matches!(q.ask(key("t", 1)), Asked::New(_)));
        assert_eq!(q.ask(key("t", 2)), Asked::Full);
        go.add_permits(2);
        settle().await;
        assert!(matches!(q.ask(key("t", 2)), Asked::New(_)));
        go.add_permits(1);
        settle().await;
        assert_eq!(made.load(Ordering::SeqCst), 3);
    }

    #[tokio::test(start_paused = true)]
    async fn a_failure_is_told_for_a_while_then_it_may_be_tried_again() {
        let go = Arc::new(Semaphore::new(10));
        let made = Arc::new(AtomicUsize::new(0));
        let q = Queue::new(
            1,
            10,
            Arc::default(),
            Clock::current(),
            fake(go, made.clone(), Some(1)),
        );
        q.ask(key("t", 0));
        q.ask(key("t", 1));
        settle().await;
        assert_eq!(made.load(Ordering::SeqCst), 2);
        assert_eq!(q.failed(&key("t", 0)), None);
        assert_eq!(q.failed(&key("t", 1)).as_deref(), Some("no world fits"));
        tokio::time::advance(FAILED_FOR).await;
        assert_eq!(q.failed(&key("t", 1)), None);
        assert!(matches!(q.ask(key("t", 1)), Asked::New(_)));
        settle().await;
        assert_eq!(made.load(Ordering::SeqCst), 3);
    }

    #[tokio::test]
    async fn a_review_that_panics_ends_alone() {
        let gauges = Arc::new(Gauges::default());
        let made = Arc::new(AtomicUsize::new(0));
        let m = made.clone();
        let work: Work = Arc::new(move |(_, seat): Key, _| {
            let m = m.clone();
            Box::pin(async move {
                assert_ne!(seat, 0, "a review that panics");
                m.fetch_add(1, Ordering::SeqCst);
                Ok(())
            })
        });
        let q = Queue::new(1, 10, gauges.clone(), Clock::current(), work);
        q.ask(key("t", 0));
        q.ask(key("t", 1));
        settle().await;
        assert_eq!(made.load(Ordering::SeqCst), 1);
        assert!(q.failed(&key("t", 0)).is_some());
        assert_eq!(gauges.reviewing(), 0);
        assert_eq!(q.state().workers, 0);
    }
}
