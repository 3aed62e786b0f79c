//! The server's time: tokio's clock of the runtime it serves on, everywhere.
//!
//! Every deadline the server keeps (turn clocks, away and hold times, idle tables, the
//! heartbeat, rate limits and login throttles, presence, leases' polls and graces) is a
//! [`tokio::time::Instant`], so a test whose runtime's time is paused
//! (`tokio::time::pause`, `advance`) moves them all at once, and no test waits on a real
//! sleep. On the runtime's own tasks `tokio::time::Instant::now()` already reads that
//! clock; a [`Clock`] also reads it from the server's own threads (the database's, the
//! LISTEN connection's), where tokio would fall back on the system's, and gives the
//! seconds since the epoch that a behaviour waits on (an invitation's lifetime, when a
//! rematch starts) on the same clock. Timestamps nothing waits on (when a player or a
//! session was made) are the system's, [`crate::store::now`].

use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio::runtime::Handle;
use tokio::time::Instant;

/// A handle on the clock of one tokio runtime, cheap to clone. Outside a runtime (a
/// blocking client, a tool) it is the system's clock.
#[derive(Clone, Debug, Default)]
pub struct Clock {
    runtime: Option<Handle>,
}

impl Clock {
    /// The clock of the runtime this is called on (the system's, outside any).
    pub fn current() -> Clock {
        Clock {
            runtime: Handle::try_current().ok(),
        }
    }

    /// Now, on this clock (from any thread).
    pub fn now(&self) -> Instant {
        match &self.runtime {
            // Off the runtime (the database's thread, say) tokio would read the system's
            // clock: read the runtime's, which a test may have paused.
            Some(h) if Handle::try_current().is_err() => {
                let _in = h.enter();
                Instant::now()
            }
            _ => Instant::now(),
        }
    }

    /// How long since `then`, on this clock.
    pub fn since(&self, then: Instant) -> Duration {
        self.now().saturating_duration_since(then)
    }

    /// Seconds since the Unix epoch on this clock: the system's time, moved by as much as
    /// the runtime's clock is ahead of (or, paused, behind) the system's — nothing, in a
    /// server.
    pub fn epoch(&self) -> i64 {
        let real = std::time::Instant::now();
        let ours = self.now().into_std();
        let wall = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default();
        let shift = if ours >= real {
            (ours - real).as_millis() as i64
        } else {
            -((real - ours).as_millis() as i64)
        };
        (wall.as_millis() as i64 + shift).div_euclid(1000)
    }

    /// Sleeps until `at` on this clock, or for ever when `at` is `None`. (Only on the
    /// runtime whose clock this is: its timers are the ones that wake.)
    pub async fn sleep_until(&self, at: Option<Instant>) {
        match at {
            Some(at) => tokio::time::sleep_until(at).await,
            None => std::future::pending().await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_paused_clock_is_read_alike_on_the_runtime_and_off_it() {
        let clock = Clock::current();
        let start = clock.now();
        let epoch = clock.epoch();
        tokio::time::advance(Duration::from_secs(3600)).await;
        assert_eq!(clock.since(start), Duration::from_secs(3600));
        // The database's thread, say: the same paused clock, not the system's.
        let off = clock.clone();
        let (at, seconds) = std::thread::spawn(move || (off.now(), off.epoch()))
            .join()
            .unwrap();
        assert_eq!(at, start + Duration::from_secs(3600));
        assert!((seconds - epoch - 3600).abs() <= 1, "{seconds} {epoch}");
        // Tokio's own reading off the runtime is the system's: what the clock is for.
        let plain = std::thread::spawn(Instant::now).join().unwrap();
        assert!(plain < start + Duration::from_secs(60));
    }

    #[test]
    fn outside_a_runtime_it_is_the_systems_clock() {
        let clock = Clock::current();
        let system = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_secs() as i64;
        assert!((clock.epoch() - system).abs() <= 1);
        let a = clock.now();
        std::thread::sleep(Duration::from_millis(5));
        assert!(clock.since(a) >= Duration::from_millis(5));
    }
}
