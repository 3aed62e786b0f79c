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

/// A token bucket per key (an address, an account): `per_minute` on average, bursts of
/// `burst`.
pub struct RateLimiter<K = IpAddr> {
    burst: f64,
    per_minute: f64,
    buckets: Mutex<HashMap<K, (f64, Instant)>>,
}

impl<K: std::hash::Hash + Eq + Clone> RateLimiter<K> {
    /// `n` a minute, in bursts of as many.
    pub fn per_minute(n: u32) -> RateLimiter<K> {
        RateLimiter::new(n, f64::from(n))
    }

    /// Bursts of `burst`, then `per_minute` on average.
    pub fn new(burst: u32, per_minute: f64) -> RateLimiter<K> {
        RateLimiter {
            burst: f64::from(burst.max(1)),
            per_minute: per_minute.max(0.01),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// The tokens `key` has now (its bucket brought up to date).
    fn fill(&self, b: &mut HashMap<K, (f64, Instant)>, key: &K, now: Instant) -> f64 {
        let rate = self.per_minute / 60.0;
        if b.len() > 10_000 {
            // Full buckets are the default: forgetting them changes nothing.
            let cap = self.burst;
            b.retain(|_, (tokens, at)| {
                *tokens + now.duration_since(*at).as_secs_f64() * rate < cap
            });
        }
        let (tokens, at) = b.entry(key.clone()).or_insert((self.burst, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * rate).min(self.burst);
        *at = now;
        *tokens
    }

    /// Seconds until `key` has a token again (at least 1).
    fn wait(&self, tokens: f64) -> u64 {
        (((1.0 - tokens) / (self.per_minute / 60.0)).ceil() as u64).max(1)
    }

    /// Takes one token for `key`; `Err(seconds)` says how long until the next one.
    pub fn take(&self, key: K) -> Result<(), u64> {
        let now = Instant::now();
        let mut b = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        let tokens = self.fill(&mut b, &key, now);
        if tokens >= 1.0 {
            if let Some((t, _)) = b.get_mut(&key) {
                *t -= 1.0;
            }
            Ok(())
        } else {
            Err(self.wait(tokens))
        }
    }

    /// Whether `key` has a token, without taking it; `Err(seconds)` as for [`Self::take`].
    pub fn check(&self, key: K) -> Result<(), u64> {
        let now = Instant::now();
        let mut b = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        let tokens = self.fill(&mut b, &key, now);
        if tokens >= 1.0 {
            Ok(())
        } else {
            Err(self.wait(tokens))
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
    fn a_check_takes_nothing_and_keys_are_apart() {
        let r: RateLimiter<String> = RateLimiter::new(2, 1.0);
        assert!((0..10).all(|_| r.check("ane".into()).is_ok()));
        assert!(r.take("ane".into()).is_ok() && r.take("ane".into()).is_ok());
        let wait = r.check("ane".into()).unwrap_err();
        assert!((50..=60).contains(&wait), "{wait}");
        assert!(r.take("mikel".into()).is_ok());
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
