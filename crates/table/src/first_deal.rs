//! What every game's first-deal goldens share (each game's `tests/first_deal.rs`): the
//! cases, by seed or by commit and reveal, and the check against the pinned file. The page
//! that checks a table's deals (/verify/{id}) deals the same cases again in the browser
//! and is held to the same files (e2e/unit/chance.test.mjs), so a game that deals
//! otherwise, or a page that does, fails.

use crate::fair;
use serde_json::{json, Value};
use std::path::Path;

/// The secret of the cases dealt by commit and reveal.
pub const SECRET: &str = "0f1e2d3c4b5a69788796a5b4c3d2e1f000112233445566778899aabbccddeeff";

/// A case of a seed given as it is (as decimal text: a JavaScript number would round a
/// seed past 2⁵³).
pub fn plain(seed: u64, seats: usize, rules: Value) -> Value {
    json!({"seed": seed.to_string(), "seats": seats, "rules": rules})
}

/// A case whose seed is made by commit and reveal from [`SECRET`] and these contributions
/// (`""`: a bot or an empty seat), with the commitment a table shows.
pub fn revealed(seats: usize, rules: Value, contributions: &[&str]) -> Value {
    let given: Vec<String> = contributions.iter().map(|c| c.to_string()).collect();
    let seed = fair::seed_of(SECRET, &given).expect("a secret and contributions");
    json!({
        "seed": seed.to_string(), "seats": seats, "rules": rules,
        "secret": SECRET, "contributions": given,
        "commitment": fair::commitment(SECRET).expect("a secret"),
    })
}

/// A case's seed.
pub fn seed(case: &Value) -> u64 {
    case["seed"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .expect("a case's seed")
}

/// Panics unless the file at `path` holds exactly `made`, the cases of `game` with their
/// hands: a change to how the game deals would no longer replay stored games.
pub fn check_pinned(path: &Path, made: &Value, game: &str) {
    let pinned: Value = std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(Value::Null);
    assert!(
        pinned == *made,
        "{} no longer holds {game}'s first deals: stored games would not replay, and the \
         verification page deals otherwise. They are now:\n{made}",
        path.display()
    );
}
