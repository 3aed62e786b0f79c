//! Deals anyone can verify: commit and reveal.
//!
//! Before a card is dealt a table shows the **commitment**, the SHA-256 of a secret of
//! [`SECRET_BYTES`] bytes its server drew and keeps. Each person who sits contributes a
//! string of their own (32 hexadecimal digits their page draws; bots and empty seats give
//! the empty string), fixed and made public when the game starts. The game's seed is then
//! [`seed_of`]: the first 8 bytes, read little-endian, of the SHA-256 of the ASCII text
//! `SECRET_HEX:C0:C1:…` (the secret in lowercase hexadecimal, then every seat's
//! contribution in seat order, joined by `:`). When the game is over the server reveals
//! the secret: anyone may then check that it hashes to the commitment shown before the
//! deal and that the seed, and so every deal, follows from it and the contributions —
//! neither the server, which did not know the contributions when it committed, nor a
//! player, who did not know the secret, could choose the cards.
//!
//! ```
//! use tapete_table::fair::{check, commitment, seed_of};
//!
//! let secret = "00".repeat(32);
//! let shown = commitment(&secret).unwrap();
//! let given = vec!["0123456789abcdef0123456789abcdef".to_string(), String::new()];
//! let seed = seed_of(&secret, &given).unwrap();
//! assert!(check(&shown, &secret, &given, seed).is_ok());
//! assert!(check(&shown, &secret, &given, seed + 1).is_err());
//! ```

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The secret's length in bytes (its hexadecimal form has twice as many digits).
pub const SECRET_BYTES: usize = 32;
/// A person's contribution: this many hexadecimal digits (16 bytes).
pub const CONTRIBUTION_DIGITS: usize = 32;

/// What a table's deals can be checked with, as its record and its description carry it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fairness {
    /// The SHA-256 of the secret, in lowercase hexadecimal: shown before any deal.
    pub commitment: String,
    /// Each seat's contribution in seat order, once the game has started (the empty string
    /// for a bot or an empty seat).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contributions: Option<Vec<String>>,
    /// The secret in lowercase hexadecimal, once revealed (after the game's end).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
    /// The seed the secret and the contributions make, once revealed. Written as a
    /// decimal string (a JSON number loses a u64's low digits in a browser); read from a
    /// string or a number.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "seed_text")]
    pub seed: Option<u64>,
}

/// A seed as decimal text in JSON (see [`Fairness::seed`]).
mod seed_text {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(seed: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
        match seed {
            Some(n) => s.serialize_str(&n.to_string()),
            None => s.serialize_none(),
        }
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Either {
        Text(String),
        Number(u64),
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
        match Option::<Either>::deserialize(d)? {
            None => Ok(None),
            Some(Either::Number(n)) => Ok(Some(n)),
            Some(Either::Text(t)) => t
                .parse()
                .map(Some)
                .map_err(|_| serde::de::Error::custom(format!("`{t}` is not a seed (a u64)"))),
        }
    }
}

/// Why a table's deals do not check out, or a value that cannot take part.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FairError {
    #[error("the secret is not {SECRET_BYTES} bytes in hexadecimal ({digits} digits): {found:?}", digits = SECRET_BYTES * 2)]
    BadSecret { found: String },
    #[error(
        "a contribution is {CONTRIBUTION_DIGITS} hexadecimal digits (16 bytes), not {found:?}"
    )]
    BadContribution { found: String },
    #[error("the secret does not match the commitment: its SHA-256 is {actual}, the table showed {shown}")]
    CommitmentMismatch { shown: String, actual: String },
    #[error("the seed does not follow from the secret and the contributions: they make {made}, the game was dealt from {used}")]
    SeedMismatch { made: u64, used: u64 },
    #[error("nothing to check yet: {0}")]
    NotRevealed(&'static str),
}

/// Lowercase hexadecimal of `bytes`.
pub fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The bytes of an even-length hexadecimal text (either case), or `None`.
fn from_hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
        .collect()
}

/// A new secret from the system's random source, in lowercase hexadecimal.
pub fn new_secret() -> String {
    let bytes: [u8; SECRET_BYTES] = rand::random();
    to_hex(&bytes)
}

/// The secret's bytes, checked.
fn secret_bytes(secret: &str) -> Result<Vec<u8>, FairError> {
    match from_hex(secret) {
        Some(b) if b.len() == SECRET_BYTES => Ok(b),
        _ => Err(FairError::BadSecret {
            found: secret.chars().take(80).collect(),
        }),
    }
}

/// The commitment to `secret` (hexadecimal): the lowercase hexadecimal SHA-256 of its
/// bytes — what `xxd -r -p | sha256sum` prints for it.
pub fn commitment(secret: &str) -> Result<String, FairError> {
    Ok(to_hex(&Sha256::digest(secret_bytes(secret)?)))
}

/// A person's contribution as it takes part: exactly [`CONTRIBUTION_DIGITS`] hexadecimal
/// digits, written in lowercase.
pub fn contribution(text: &str) -> Result<String, FairError> {
    let t = text.trim();
    if t.len() == CONTRIBUTION_DIGITS && t.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(t.to_ascii_lowercase())
    } else {
        Err(FairError::BadContribution {
            found: text.chars().take(80).collect(),
        })
    }
}

/// The game's seed from the secret and every seat's contribution (seat order; the empty
/// string where nobody contributed): the first 8 bytes, little-endian, of the SHA-256 of
/// `SECRET_HEX:C0:C1:…`.
pub fn seed_of(secret: &str, contributions: &[String]) -> Result<u64, FairError> {
    secret_bytes(secret)?;
    for c in contributions.iter().filter(|c| !c.is_empty()) {
        if contribution(c)? != *c {
            return Err(FairError::BadContribution { found: c.clone() });
        }
    }
    let mut text = secret.to_ascii_lowercase();
    for c in contributions {
        text.push(':');
        text.push_str(c);
    }
    let digest = Sha256::digest(text.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    Ok(u64::from_le_bytes(first))
}

/// Checks a game dealt from `seed`: the secret hashes to the commitment shown, and the
/// secret with the contributions makes that seed.
pub fn check(
    shown: &str,
    secret: &str,
    contributions: &[String],
    seed: u64,
) -> Result<(), FairError> {
    let actual = commitment(secret)?;
    if !actual.eq_ignore_ascii_case(shown.trim()) {
        return Err(FairError::CommitmentMismatch {
            shown: shown.to_string(),
            actual,
        });
    }
    let made = seed_of(secret, contributions)?;
    if made != seed {
        return Err(FairError::SeedMismatch { made, used: seed });
    }
    Ok(())
}

impl Fairness {
    /// Checks these values against the seed a game was dealt from ([`check`]).
    pub fn check(&self, seed: u64) -> Result<(), FairError> {
        let secret = self.secret.as_deref().ok_or(FairError::NotRevealed(
            "the secret is revealed when the game is over",
        ))?;
        let contributions = self.contributions.as_deref().ok_or(FairError::NotRevealed(
            "the contributions are fixed when the game starts",
        ))?;
        check(&self.commitment, secret, contributions, seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contributions_are_32_hex_digits_written_lowercase() {
        let ok = "0123456789ABCDEF0123456789abcdef";
        assert_eq!(contribution(ok).unwrap(), ok.to_ascii_lowercase());
        for bad in ["", "0123", &"g".repeat(32), &"0".repeat(33), "héllo"] {
            assert!(contribution(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_changed_secret_or_contribution_fails_the_check() {
        let secret = new_secret();
        assert_eq!(secret.len(), 64);
        let shown = commitment(&secret).unwrap();
        let given = vec![
            "ab".repeat(16),
            String::new(),
            "cd".repeat(16),
            String::new(),
        ];
        let seed = seed_of(&secret, &given).unwrap();
        check(&shown, &secret, &given, seed).unwrap();
        let other = new_secret();
        assert!(matches!(
            check(&shown, &other, &given, seed),
            Err(FairError::CommitmentMismatch { .. })
        ));
        let mut moved = given.clone();
        moved.swap(0, 2);
        assert!(matches!(
            check(&shown, &secret, &moved, seed),
            Err(FairError::SeedMismatch { .. })
        ));
        assert!(matches!(
            commitment("xyz"),
            Err(FairError::BadSecret { .. })
        ));
    }
}
