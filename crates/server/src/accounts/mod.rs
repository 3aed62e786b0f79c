//! Accounts: passwords hashed with Argon2id on a bounded pool of blocking threads, the
//! key that makes account nicknames unique (no case, width or look-alike variants), and
//! the short name of a session's device.
//!
//! **Hashing is bounded.** Each hash costs [`MEMORY_KIB`] of memory and some tens of
//! milliseconds of one core, and anyone may ask for one (sign up, log in). So at most
//! [`crate::Limits::password_hashes`] run at once, each on a blocking thread, and at most
//! [`crate::Limits::password_queue`] requests wait for their turn: a request beyond that is
//! answered 503 at once, and one that waits more than [`WAIT`] too.

use crate::code::{Code, Refusal};
use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tokio::sync::Semaphore;
use unicode_normalization::UnicodeNormalization;

mod sessions;
mod store;
pub use sessions::{token_hash, Session, Sessions};
pub use store::{AccountRefusal, SessionOf, SessionRow};

/// Argon2id's memory per hash, in KiB: 19 MiB, with [`PASSES`] passes and one lane, one
/// of the settings OWASP's Password Storage Cheat Sheet recommends.
pub const MEMORY_KIB: u32 = 19 * 1024;
/// Argon2id's passes over the memory.
pub const PASSES: u32 = 2;
/// Argon2id's lanes: one, so a hash takes one core.
pub const LANES: u32 = 1;

/// A password's shortest length, in characters.
pub const MIN_PASSWORD_CHARS: usize = 8;
/// A password's longest length, in bytes of UTF-8: past it, a password is refused before
/// any hashing (long enough for any passphrase, short enough to cost nothing to read).
pub const MAX_PASSWORD_BYTES: usize = 256;

/// How long a request waits for a turn to hash before it is answered 503.
pub const WAIT: Duration = Duration::from_secs(10);

/// Why a password could not be hashed or checked now.
#[derive(Debug)]
pub enum Busy {
    /// Too many are waiting, or the wait was too long: try again later.
    Full,
    /// The hashing thread failed (a bug): logged, answered 500.
    Failed(String),
}

/// The server's password hasher: Argon2id with fixed parameters, a bounded number of
/// hashes at once and a bounded queue.
pub struct Passwords {
    running: Arc<Semaphore>,
    queue: Arc<Semaphore>,
    /// A hash of no one's password, checked when a nickname has no account so that
    /// "no such account" takes as long as "wrong password".
    dummy: Arc<OnceLock<String>>,
}

fn argon2() -> Argon2<'static> {
    // The parameters are constants within Argon2's bounds.
    let params = Params::new(MEMORY_KIB, PASSES, LANES, None).unwrap_or_default();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Hashes a password into a PHC string (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`) with a
/// fresh random salt. Blocking: call on a blocking thread.
pub fn hash_blocking(password: &str) -> Result<String, String> {
    let salt = SaltString::generate(&mut OsRng);
    argon2()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| format!("argon2: {e}"))
}

/// Whether a password matches a stored PHC string (its own parameters are used, so hashes
/// made with other settings still check). A stored string that does not parse matches
/// nothing. Blocking: call on a blocking thread.
pub fn verify_blocking(password: &str, phc: &str) -> bool {
    match PasswordHash::new(phc) {
        Ok(h) => argon2().verify_password(password.as_bytes(), &h).is_ok(),
        Err(_) => false,
    }
}

/// The hash checked for a nickname without an account.
fn dummy_hash() -> String {
    hash_blocking("no one's password").unwrap_or_default()
}

impl Passwords {
    /// At most `running` hashes at once, `queue` more waiting.
    pub fn new(running: usize, queue: usize) -> Passwords {
        let dummy = Arc::new(OnceLock::new());
        // Made now, beside the start, so that the first unknown nickname does not pay two
        // hashes (which would tell it apart).
        let d = dummy.clone();
        std::thread::spawn(move || {
            d.get_or_init(dummy_hash);
        });
        Passwords {
            running: Arc::new(Semaphore::new(running.max(1))),
            queue: Arc::new(Semaphore::new(running.max(1) + queue)),
            dummy,
        }
    }

    /// Runs `work` on a blocking thread once a turn is free. The turn is held until the
    /// work ends, even when the request stopped waiting for it.
    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Busy> {
        let place = self
            .queue
            .clone()
            .try_acquire_owned()
            .map_err(|_| Busy::Full)?;
        let turn = tokio::time::timeout(WAIT, self.running.clone().acquire_owned())
            .await
            .map_err(|_| Busy::Full)?
            .map_err(|e| Busy::Failed(e.to_string()))?;
        tokio::task::spawn_blocking(move || {
            let out = work();
            drop(turn);
            drop(place);
            out
        })
        .await
        .map_err(|e| Busy::Failed(e.to_string()))
    }

    /// A new password's hash.
    pub async fn hash(&self, password: String) -> Result<String, Busy> {
        self.run(move || hash_blocking(&password))
            .await?
            .map_err(Busy::Failed)
    }

    /// Whether `password` matches `phc`; with `None` (no such account) a hash is checked
    /// all the same, and the answer is no.
    pub async fn verify(&self, password: String, phc: Option<String>) -> Result<bool, Busy> {
        let dummy = self.dummy.clone();
        self.run(move || match phc {
            Some(phc) => verify_blocking(&password, &phc),
            None => {
                let d = dummy.get_or_init(dummy_hash);
                verify_blocking(&password, d);
                false
            }
        })
        .await
    }
}

/// Checks a new password's length: at least [`MIN_PASSWORD_CHARS`] characters, at most
/// [`MAX_PASSWORD_BYTES`] bytes.
pub fn check_password(p: &str) -> Result<(), Refusal> {
    if p.len() > MAX_PASSWORD_BYTES {
        return Err(Refusal::new(
            Code::PasswordTooLong,
            format!(
                "the password is {} bytes long: at most {MAX_PASSWORD_BYTES}",
                p.len()
            ),
        ));
    }
    let chars = p.chars().count();
    if chars < MIN_PASSWORD_CHARS {
        return Err(Refusal::new(
            Code::PasswordTooShort,
            format!("the password is {chars} characters long: use at least {MIN_PASSWORD_CHARS}"),
        ));
    }
    Ok(())
}

/// The key that makes account nicknames unique: the nickname in NFKC, case folded, in
/// NFKC again, then its confusables skeleton (Unicode TR39). "mikel", "MIKEL" and
/// "ｍｉｋｅｌ" have one key, and so have "Ane" and "Аne" (a Cyrillic А), "rnikel" and
/// "mikel".
pub fn nickname_key(nickname: &str) -> String {
    let nfkc: String = nickname.nfkc().collect();
    let folded: String = caseless::default_case_fold_str(&nfkc).nfkc().collect();
    unicode_security::confusable_detection::skeleton(&folded).collect()
}

/// The key that tells look-alike nicknames apart from different ones, for refusing a new
/// nickname that would pass for an account's (it is not the login key, which stays
/// [`nickname_key`]): the nickname in NFKC; every capital of another script that looks
/// like a Latin capital (Cyrillic `Т`, Greek `Μ`) made that Latin capital; case folded;
/// accents and every other combining mark dropped (NFD, then no marks); then its TR39
/// skeleton, and marks dropped again. TR39's skeleton keeps accents (`victím` is not
/// `victim` to it) and looks at lower case only after folding, where a Cyrillic `т` no
/// longer looks like a `t`: this key catches both. `victim`, `victím`, `VІСТІМ` (Cyrillic)
/// and `vіctim` share one; so do `Iñaki` and `Inaki`.
pub fn nickname_look(nickname: &str) -> String {
    let nfkc: String = nickname.nfkc().collect();
    let latin: String = nfkc.chars().map(latin_capital).collect();
    let folded: String = caseless::default_case_fold_str(&latin).nfkc().collect();
    let bare = without_marks(&folded);
    let skeleton: String = unicode_security::confusable_detection::skeleton(&bare).collect();
    without_marks(&skeleton)
}

/// `s` in NFD with every combining mark (accents, cedillas, tildes…) left out.
fn without_marks(s: &str) -> String {
    s.nfd()
        .filter(|c| !unicode_normalization::char::is_combining_mark(*c))
        .collect()
}

/// A capital of another script that looks like a Latin capital (its skeleton is that
/// capital's), as that Latin capital; any other character as it is.
fn latin_capital(c: char) -> char {
    static CAPITALS: OnceLock<Vec<(String, char)>> = OnceLock::new();
    if c.is_ascii() || !c.is_uppercase() {
        return c;
    }
    let capitals = CAPITALS.get_or_init(|| {
        ('A'..='Z')
            .map(|l| {
                let s: String =
                    unicode_security::confusable_detection::skeleton(&l.to_string()).collect();
                (s, l)
            })
            .collect()
    });
    let mut buf = [0u8; 4];
    let own: String =
        unicode_security::confusable_detection::skeleton(c.encode_utf8(&mut buf)).collect();
    capitals
        .iter()
        .find(|(s, _)| *s == own)
        .map_or(c, |(_, l)| *l)
}

/// How long a device token lets its browser's logins be counted apart: a year from the
/// login that gave it (each login gives a fresh one).
pub const DEVICE_LIFETIME_S: i64 = 365 * 24 * 3600;

/// HMAC-SHA256 (RFC 2104) of `message` under `key`.
fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    const BLOCK: usize = 64;
    let mut k = [0u8; BLOCK];
    if key.len() > BLOCK {
        k[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        k[..key.len()].copy_from_slice(key);
    }
    let pad = |byte: u8| k.map(|b| b ^ byte);
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(message)
        .finalize();
    Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize()
        .into()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What a device token signs: the account, the device's id and when it was given.
fn device_mac(secret: &[u8], player: i64, device: &str, issued: i64) -> String {
    hex(&hmac_sha256(
        secret,
        format!("tapete device|{player}|{device}|{issued}").as_bytes(),
    ))
}

/// A device token for `player` (OWASP's device cookie): `d1.DEVICE.ISSUED.MAC`, where
/// DEVICE is the device's id (128 random bits in hex, or the one it had), ISSUED the time
/// in seconds and MAC the HMAC-SHA256 of the three under the server's `secret`. It
/// authenticates nothing: it only lets that browser's failed logins to that account be
/// counted apart from everyone else's.
pub fn device_token(secret: &[u8], player: i64, device: Option<&str>, issued: i64) -> String {
    let device = device.map(str::to_string).unwrap_or_else(|| {
        let bytes: [u8; 16] = rand::random();
        hex(&bytes)
    });
    let mac = device_mac(secret, player, &device, issued);
    format!("d1.{device}.{issued}.{mac}")
}

/// The device's id when `token` is one the server gave for `player` within
/// [`DEVICE_LIFETIME_S`] of `now`; `None` for anything else (another account's, forged,
/// expired, malformed), which is then an unknown device.
pub fn known_device(secret: &[u8], token: &str, player: i64, now: i64) -> Option<String> {
    if token.len() > 200 {
        return None;
    }
    let mut parts = token.split('.');
    let (Some("d1"), Some(device), Some(issued), Some(mac), None) = (
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
    ) else {
        return None;
    };
    if device.len() != 32 || !device.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let issued: i64 = issued.parse().ok()?;
    if issued > now + 3600 || now - issued > DEVICE_LIFETIME_S {
        return None;
    }
    let want = device_mac(secret, player, device, issued);
    // Compared in constant time: the MAC must not be guessed byte by byte.
    let same = want.len() == mac.len()
        && want
            .bytes()
            .zip(mac.bytes())
            .fold(0u8, |d, (a, b)| d | (a ^ b))
            == 0;
    same.then(|| device.to_string())
}

/// A device's name in short from its `User-Agent`: the browser and the system ("Firefox ·
/// Linux"), or the start of what it sent; at most 60 characters, printable only.
pub fn short_agent(ua: &str) -> String {
    let has = |s: &str| ua.contains(s);
    let browser = if has("Edg/") {
        Some("Edge")
    } else if has("OPR/") {
        Some("Opera")
    } else if has("Firefox/") {
        Some("Firefox")
    } else if has("Chrome/") || has("Chromium/") || has("CriOS/") {
        Some("Chrome")
    } else if has("Safari/") {
        Some("Safari")
    } else {
        None
    };
    let system = if has("Android") {
        Some("Android")
    } else if has("iPhone") || has("iPad") {
        Some("iOS")
    } else if has("Windows") {
        Some("Windows")
    } else if has("Mac OS X") || has("Macintosh") {
        Some("macOS")
    } else if has("CrOS") {
        Some("ChromeOS")
    } else if has("Linux") {
        Some("Linux")
    } else {
        None
    };
    let short = match (browser, system) {
        (Some(b), Some(s)) => format!("{b} · {s}"),
        (Some(b), None) => b.to_string(),
        (None, Some(s)) => s.to_string(),
        (None, None) => ua
            .chars()
            .filter(|c| !c.is_control())
            .take(60)
            .collect::<String>()
            .trim()
            .to_string(),
    };
    if short.is_empty() {
        "unknown device".to_string()
    } else {
        short
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_and_look_alikes_share_a_key() {
        let mikel = nickname_key("mikel");
        for v in ["MIKEL", "Mikel", "ｍｉｋｅｌ", "rnikel"] {
            assert_eq!(nickname_key(v), mikel, "{v}");
        }
        assert_eq!(nickname_key("Аne"), nickname_key("Ane"), "Cyrillic А");
        assert_ne!(nickname_key("Ane"), nickname_key("Ana"));
    }

    #[test]
    fn accents_and_capitals_of_other_scripts_look_alike() {
        let victim = nickname_look("victim");
        for v in [
            "victim",
            "Victim",
            "VICTIM",
            "victím",
            "víctim",
            "vіctim",       // Cyrillic і
            "vісtіm",       // Cyrillic і, с
            "VІСТІМ",       // Cyrillic І, С, Т, М
            "νictim",       // a Greek ν
            "ｖｉｃｔｉｍ", // full width
            "vi\u{0301}ctim",
        ] {
            assert_eq!(nickname_look(v), victim, "{v}");
        }
        assert_eq!(nickname_look("ВОВ"), nickname_look("bob"), "Cyrillic В, О");
        assert_eq!(nickname_look("Iñaki"), nickname_look("Inaki"));
        assert_eq!(nickname_look("rnikel"), nickname_look("mikel"));
        assert_ne!(nickname_look("victim"), nickname_look("victor"));
        assert_ne!(nickname_look("Ane"), nickname_look("Ana"));
        // The login key is as it was: an account made before keeps its own.
        assert_ne!(nickname_key("victím"), nickname_key("victim"));
    }

    #[test]
    fn a_device_token_is_known_only_for_its_account_and_while_it_lasts() {
        let secret = b"a secret of the server's";
        let now = 1_763_900_000;
        let t = device_token(secret, 7, None, now);
        let id = known_device(secret, &t, 7, now).expect("its own account knows it");
        assert_eq!(id.len(), 32);
        // Given again at a later login, it keeps its id.
        let again = device_token(secret, 7, Some(&id), now + 10);
        assert_eq!(known_device(secret, &again, 7, now + 20), Some(id.clone()));
        assert_eq!(known_device(secret, &t, 8, now), None, "another account's");
        assert_eq!(known_device(b"another secret", &t, 7, now), None, "forged");
        let late = now + DEVICE_LIFETIME_S + 1;
        assert_eq!(known_device(secret, &t, 7, late), None, "expired");
        let mut tampered = t.clone();
        tampered.replace_range(3..4, if &t[3..4] == "0" { "1" } else { "0" });
        assert_eq!(known_device(secret, &tampered, 7, now), None, "another id");
        for bad in ["", "d1", "d1...", "x.y.z.w", &"d".repeat(500)] {
            assert_eq!(known_device(secret, bad, 7, now), None, "{bad}");
        }
    }

    #[test]
    fn hmac_matches_rfc_4231() {
        // Test case 2 of RFC 4231.
        assert_eq!(
            hex(&hmac_sha256(b"Jefe", b"what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn passwords_hash_and_check() {
        let h = hash_blocking("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        assert!(verify_blocking("correct horse", &h));
        assert!(!verify_blocking("correct horsf", &h));
        assert!(!verify_blocking("correct horse", "not a hash"));
    }

    #[test]
    fn password_lengths_are_bounded() {
        assert!(check_password("1234567").is_err());
        assert!(check_password("12345678").is_ok());
        assert!(check_password("ñañañaña").is_ok(), "characters, not bytes");
        assert!(check_password(&"x".repeat(MAX_PASSWORD_BYTES)).is_ok());
        assert!(check_password(&"x".repeat(MAX_PASSWORD_BYTES + 1)).is_err());
    }

    #[test]
    fn agents_are_named_in_short() {
        let ff = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
        assert_eq!(short_agent(ff), "Firefox · Linux");
        let phone =
            "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36";
        assert_eq!(short_agent(phone), "Chrome · Android");
        assert_eq!(short_agent("curl/8.5.0"), "curl/8.5.0");
        assert_eq!(short_agent(""), "unknown device");
    }
}
