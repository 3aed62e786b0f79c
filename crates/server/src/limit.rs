//! Per-address bookkeeping: how many connections an address holds, and how fast it may
//! create things. Both forget an address once it has nothing left to count, so a flood of
//! addresses cannot grow them without bound either.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Open connections per address, each at most `max`.
#[derive(Clone)]
pub struct ConnCounter {
    max: usize,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// One connection counted; dropping it gives the place back.
pub struct ConnGuard {
    ip: IpAddr,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl ConnCounter {
    pub fn new(max: usize) -> ConnCounter {
        ConnCounter {
            max,
            open: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// Counts a connection from `ip`, or `None` when the address already holds `max`.
    pub fn enter(&self, ip: IpAddr) -> Option<ConnGuard> {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        let n = open.entry(ip).or_insert(0);
        if *n >= self.max {
            return None;
        }
        *n += 1;
        Some(ConnGuard {
            ip,
            open: self.open.clone(),
        })
    }
}

impl Drop for ConnGuard {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = open.get_mut(&self.ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// A token bucket per address: `per_minute` on average, bursts of as many.
pub struct RateLimiter {
    per_minute: f64,
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
}

impl RateLimiter {
    pub fn per_minute(n: u32) -> RateLimiter {
        RateLimiter {
            per_minute: f64::from(n.max(1)),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token for `ip`; `Err(seconds)` says how long until the next one.
    pub fn take(&self, ip: IpAddr) -> Result<(), u64> {
        let now = Instant::now();
        let rate = self.per_minute / 60.0;
        let mut b = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if b.len() > 10_000 {
            // Full buckets are the default: forgetting them changes nothing.
            let cap = self.per_minute;
            b.retain(|_, (tokens, at)| {
                *tokens + now.duration_since(*at).as_secs_f64() * rate < cap
            });
        }
        let (tokens, at) = b.entry(ip).or_insert((self.per_minute, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * rate).min(self.per_minute);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else {
            Err(((1.0 - *tokens) / rate).ceil() as u64)
        }
    }
}

/// The last few values asked for, by key: at most `cap` of them.
pub struct SmallCache<T> {
    cap: usize,
    items: Mutex<std::collections::VecDeque<(String, Arc<T>)>>,
}

impl<T> SmallCache<T> {
    pub fn new(cap: usize) -> SmallCache<T> {
        SmallCache {
            cap,
            items: Mutex::new(std::collections::VecDeque::new()),
        }
    }

    pub fn get(&self, key: &str) -> Option<Arc<T>> {
        let items = self.items.lock().unwrap_or_else(|p| p.into_inner());
        items.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone())
    }

    pub fn put(&self, key: String, value: Arc<T>) {
        let mut items = self.items.lock().unwrap_or_else(|p| p.into_inner());
        items.retain(|(k, _)| *k != key);
        items.push_back((key, value));
        while items.len() > self.cap {
            items.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_holds_at_most_max_connections_and_gets_them_back() {
        let c = ConnCounter::new(2);
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        let other: IpAddr = "10.0.0.2".parse().unwrap();
        let a = c.enter(ip).unwrap();
        let _b = c.enter(ip).unwrap();
        assert!(c.enter(ip).is_none());
        assert!(c.enter(other).is_some(), "another address is not affected");
        drop(a);
        assert!(c.enter(ip).is_some());
    }

    #[test]
    fn creations_are_limited_per_address() {
        let r = RateLimiter::per_minute(3);
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        assert!((0..3).all(|_| r.take(ip).is_ok()));
        let wait = r.take(ip).unwrap_err();
        assert!((1..=20).contains(&wait), "{wait}");
        assert!(r.take("10.0.0.9".parse().unwrap()).is_ok());
    }

    #[test]
    fn the_cache_keeps_the_newest() {
        let c = SmallCache::new(2);
        c.put("a".into(), Arc::new(1));
        c.put("b".into(), Arc::new(2));
        c.put("c".into(), Arc::new(3));
        assert!(c.get("a").is_none());
        assert_eq!(c.get("c").as_deref(), Some(&3));
    }
}
