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
        self.take_at(key, Instant::now())
    }

    /// [`Self::take`] at the moment `now` (a test moves the clock itself).
    pub fn take_at(&self, key: K, now: Instant) -> Result<(), u64> {
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
        self.check_at(key, Instant::now())
    }

    /// [`Self::check`] at the moment `now`.
    pub fn check_at(&self, key: K, now: Instant) -> Result<(), u64> {
        let mut b = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        let tokens = self.fill(&mut b, &key, now);
        if tokens >= 1.0 {
            Ok(())
        } else {
            Err(self.wait(tokens))
        }
    }
}

/// Who a refused login was counted against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Whose {
    /// The address it came from (unknown devices only).
    Address,
    /// The nickname tried (unknown devices only).
    Nickname,
    /// The known device it came from (its own failures).
    Device,
}

/// A login refused before any password is checked: whose budget is spent, and the
/// seconds until it has room again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Throttled {
    pub whose: Whose,
    pub seconds: u64,
}

/// Failed logins, counted as OWASP's "device cookies" advise: a browser that has logged in
/// to an account before (it holds a device token the server signed for that account) is
/// counted apart, on a small budget of its own; every other attempt is counted per address
/// and per nickname. So a stranger who keeps failing on a nickname shuts out unknown
/// devices for it, never the owner's known ones, and spends nothing the owner needs.
pub struct LoginThrottle {
    by_addr: RateLimiter<IpAddr>,
    by_nickname: RateLimiter<String>,
    by_device: RateLimiter<String>,
}

impl LoginThrottle {
    /// `per_addr` failures from an address in a burst, then as many a minute;
    /// `per_nickname` on a nickname in a burst, then one a minute; `per_device` from one
    /// known device in a burst, then one a minute.
    pub fn new(per_addr: u32, per_nickname: u32, per_device: u32) -> LoginThrottle {
        LoginThrottle {
            by_addr: RateLimiter::per_minute(per_addr),
            by_nickname: RateLimiter::new(per_nickname, 1.0),
            by_device: RateLimiter::new(per_device, 1.0),
        }
    }

    /// Whether a login may be tried now: from the known device `device` (its id, for this
    /// nickname's account), only that device's own failures count; from any other, the
    /// address's and the nickname's.
    pub fn check(
        &self,
        now: Instant,
        ip: IpAddr,
        nickname: &str,
        device: Option<&str>,
    ) -> Result<(), Throttled> {
        let refused = |whose| move |seconds| Throttled { whose, seconds };
        match device {
            Some(d) => self
                .by_device
                .check_at(d.to_string(), now)
                .map_err(refused(Whose::Device)),
            None => {
                self.by_addr
                    .check_at(ip, now)
                    .map_err(refused(Whose::Address))?;
                self.by_nickname
                    .check_at(nickname.to_string(), now)
                    .map_err(refused(Whose::Nickname))
            }
        }
    }

    /// Counts a failed login where [`Self::check`] looks.
    pub fn failed(&self, now: Instant, ip: IpAddr, nickname: &str, device: Option<&str>) {
        match device {
            Some(d) => {
                let _ = self.by_device.take_at(d.to_string(), now);
            }
            None => {
                let _ = self.by_addr.take_at(ip, now);
                let _ = self.by_nickname.take_at(nickname.to_string(), now);
            }
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

/// A token bucket: `rate` per second, up to `burst` at once: a WebSocket's messages
/// (the load test's clients keep to the same one).
pub struct Bucket {
    tokens: f64,
    at: Instant,
    rate: f64,
    burst: f64,
}

impl Bucket {
    /// A bucket of `rate` per second, up to `burst` at once. A client keeping to the
    /// server's limit uses a little less of both, since messages can bunch up on the way.
    pub fn with(rate: f64, burst: f64) -> Bucket {
        Bucket {
            tokens: burst,
            at: Instant::now(),
            rate,
            burst,
        }
    }

    /// How long until a message may be sent.
    pub fn wait(&self) -> std::time::Duration {
        let now = Instant::now();
        let tokens =
            (self.tokens + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.burst);
        std::time::Duration::from_secs_f64(((1.0 - tokens) / self.rate).max(0.0))
    }

    /// Takes one message's token, if there is one.
    pub fn take(&mut self) -> bool {
        let now = Instant::now();
        self.tokens =
            (self.tokens + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.burst);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
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

    /// An attacker polls wrong passwords for "victim" once a second for 190 s from one
    /// address, then from eleven; the owner logs in every 5 s from a browser that logged in
    /// before. The owner is never refused; an unknown device (the owner on a new phone, or
    /// the attacker) is, as soon as the nickname's budget is spent.
    #[test]
    fn a_stranger_failing_on_a_nickname_never_shuts_out_its_known_devices() {
        let t = LoginThrottle::new(10, 5, 5);
        let start = Instant::now();
        let owner: IpAddr = "10.0.0.7".parse().unwrap();
        let (mut owner_in, mut stranger_refused) = (0, 0);
        let (mut unknown_tries, mut unknown_refused) = (0, 0);
        for s in 0..190u64 {
            let now = start + std::time::Duration::from_secs(s);
            let attacker: IpAddr = format!("10.0.1.{}", s % 11).parse().unwrap();
            match t.check(now, attacker, "victim", None) {
                // Checked, wrong: counted.
                Ok(()) => t.failed(now, attacker, "victim", None),
                Err(r) => {
                    assert_eq!(r.whose, Whose::Nickname, "at {s} s");
                    stranger_refused += 1;
                }
            }
            if s % 5 == 0 {
                // The right password: never counted, never refused.
                assert_eq!(
                    t.check(now, owner, "victim", Some("dev-1")),
                    Ok(()),
                    "at {s}"
                );
                owner_in += 1;
                // The owner on a device the server does not know waits like anyone.
                if s > 10 {
                    unknown_tries += 1;
                    if t.check(now, owner, "victim", None).is_err() {
                        unknown_refused += 1;
                    }
                }
            }
        }
        assert_eq!(owner_in, 38);
        assert!(stranger_refused >= 180, "{stranger_refused}");
        assert_eq!(
            unknown_refused, unknown_tries,
            "the nickname stays shut to unknown devices"
        );
    }

    #[test]
    fn a_known_device_has_a_small_budget_of_its_own() {
        let t = LoginThrottle::new(10, 5, 3);
        let now = Instant::now();
        let ip: IpAddr = "10.0.0.7".parse().unwrap();
        for _ in 0..3 {
            assert!(t.check(now, ip, "ane", Some("dev-1")).is_ok());
            t.failed(now, ip, "ane", Some("dev-1"));
        }
        let r = t.check(now, ip, "ane", Some("dev-1")).unwrap_err();
        assert_eq!(r.whose, Whose::Device);
        assert!((1..=60).contains(&r.seconds), "{r:?}");
        // Its failures cost neither the nickname, the address nor another device.
        assert!(t.check(now, ip, "ane", None).is_ok());
        assert!(t.check(now, ip, "ane", Some("dev-2")).is_ok());
        // A minute later it has one try again.
        let later = now + std::time::Duration::from_secs(60);
        assert!(t.check(later, ip, "ane", Some("dev-1")).is_ok());
        t.failed(later, ip, "ane", Some("dev-1"));
        assert!(t.check(later, ip, "ane", Some("dev-1")).is_err());
    }

    #[test]
    fn unknown_devices_are_counted_per_address_and_per_nickname() {
        let t = LoginThrottle::new(3, 5, 5);
        let now = Instant::now();
        let ip: IpAddr = "10.0.0.9".parse().unwrap();
        for n in ["a", "b", "c"] {
            assert!(t.check(now, ip, n, None).is_ok());
            t.failed(now, ip, n, None);
        }
        assert_eq!(
            t.check(now, ip, "d", None).unwrap_err().whose,
            Whose::Address
        );
        // The nickname has spent one of its five: from another address it is still open.
        assert!(t
            .check(now, "10.0.0.10".parse().unwrap(), "a", None)
            .is_ok());
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

    #[test]
    fn bucket_allows_a_burst_then_the_rate() {
        let mut b = Bucket::with(20.0, 40.0);
        let taken = (0..100).filter(|_| b.take()).count();
        assert_eq!(taken, 40);
        b.at -= std::time::Duration::from_millis(500);
        let again = (0..100).filter(|_| b.take()).count();
        assert!((9..=11).contains(&again), "{again}");
    }
}
