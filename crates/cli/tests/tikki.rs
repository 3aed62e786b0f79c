//! `tapete tikki best`: the combination a lay counts as, in JSON and text; bad cards are
//! input errors (exit 2).

use crate::common::tapete;
use serde_json::Value;

#[test]
fn best_gives_the_issues_keys() {
    let out = tapete(
        &["tikki", "best", "3S", "3H", "4H", "4D", "5D", "--json"],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    assert_eq!(v["type"], "straight_flush_2");
    assert_eq!(v["cards"], serde_json::json!(["4D", "5D"]));
    assert_eq!(v["top"], "5D");

    let out = tapete(&["tikki", "best", "9♠ 9♥ 9♦ 9♣ 1S 2S 3S 4S", "--json"], "");
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    assert_eq!(v["type"], "four_of_a_kind");
    assert_eq!(v["top"], "9S");
}

#[test]
fn best_in_text_and_bad_cards() {
    let out = tapete(&["tikki", "best", "3S", "3H", "4H", "4D", "5D"], "");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(text.contains("2-card straight flush: 4D 5D"), "{text}");
    assert!(text.contains("top card: 5D"), "{text}");
    assert!(text.contains("not counted: 3S 3H 4H"), "{text}");

    for bad in [
        &["tikki", "best", "14S"][..],
        &["tikki", "best", "3X"],
        &["tikki", "best", "3S", "3s"],
    ] {
        let out = tapete(bad, "");
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(!out.stderr.is_empty());
    }
    let out = tapete(&["tikki", "best", "14S", "--json"], "");
    assert_eq!(out.status.code(), Some(2));
    let v: Value = serde_json::from_slice(&out.stdout).expect("a JSON error");
    assert!(v["error"].as_str().unwrap_or("").contains("14S"));
}
