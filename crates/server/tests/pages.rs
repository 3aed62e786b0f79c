//! What pages are sent: each game's view in its page form ([`tapete_host::Host::page_view`]),
//! in every state frame and every replay step, so a long game's frames stay small.

use crate::support::{read_of, read_text, Server, Story};
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tapete_server::Limits;

/// Every finished round but the last is its dealer and points; the last keeps its piles
/// and final trick, which the round's end shows.
fn assert_trimmed(view: &Value, rounds: usize) {
    let history = view["history"].as_array().expect("a history");
    assert_eq!(history.len(), rounds, "{}", view["history"]);
    let (last, older) = history.split_last().unwrap();
    for (i, round) in older.iter().enumerate() {
        let keys: Vec<&str> = round
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, ["dealer", "points"], "round {}: {round}", i + 1);
    }
    let seats = view["seats"].as_u64().map(|n| n as usize);
    assert_eq!(last["piles"].as_array().map(Vec::len), seats, "{last}");
    assert!(last["last_trick"].is_object(), "{last}");
    assert_eq!(last["points"].as_array().map(Vec::len), seats);
}

#[test]
fn a_long_tikki_game_sends_the_finished_rounds_as_their_points() {
    // Five seats, twenty rounds: the longest game the options allow.
    let server = Server::start("tikki-frames", Limits::default());
    let ane = server.player("Ane");
    // Ane holds a seat but is away at once: the bots play every seat, fast but not faster
    // than a watcher on a loaded machine reads (one that falls 64 states behind is let go
    // as too slow, rightly).
    let id = server.table(
        &ane,
        json!({"game": "tikki", "seats": 5, "rules": {"rounds": 20}, "seat": 0,
               "start": true, "pace_ms": 3, "hold_s": 0, "away_s": 0, "bot": "random"}),
    );
    let mut watcher = server.ws(&id, None);
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut story = Story::default();
    let mut largest = 0;
    let (last, bytes) = loop {
        assert!(Instant::now() < deadline, "the game did not end");
        let text = read_text(&mut watcher).expect("the watcher stays connected");
        let m: Value = serde_json::from_str(&text).unwrap();
        if m["type"] == "state" {
            story.read(&m);
            largest = largest.max(text.len());
            if !m["outcome"].is_null() {
                break (m, text.len());
            }
        }
    };
    let history = last["view"]["history"].to_string().len();
    eprintln!(
        "the last state frame of a 20-round tikki table: {bytes} bytes, {} of them the view, {history} its history, {} the new lines of the story",
        last["view"].to_string().len(),
        last.get("more").or(last.get("lines")).map_or(0, |l| l.to_string().len())
    );
    assert_trimmed(&last["view"], 20);
    assert!(history < 2048, "{history} bytes of history");
    // The story is sent as it grows: each state carries only the lines its connection lacks,
    // and the whole story (the last round and the one before) only once a round.
    assert!(largest < 16 * 1024, "a state of {largest} bytes");
    // Someone who comes in now is told the same story the watcher put together.
    let mut late = server.ws(&id, None);
    let first = read_of(&mut late, "state");
    let whole = serde_json::to_string(&first).unwrap().len();
    eprintln!(
        "the largest state sent to the watcher: {largest} bytes; a newcomer's first: {whole} bytes"
    );
    assert_eq!(first["lines"].as_array().unwrap(), &story.0);

    // A replay step shows the same rounds the same way.
    let n = last["n"].as_u64().unwrap();
    let (code, step) = server.api("GET", &format!("/api/tables/{id}/replay/{n}"), None, None);
    assert_eq!(code, 200, "{step}");
    assert_trimmed(&step["view"], 20);
    assert_eq!(step["view"]["history"], last["view"]["history"]);
}

#[test]
fn each_language_has_its_catalog_of_the_pages_words() {
    let server = Server::start("i18n-catalogs", Limits::default());
    for lang in ["es", "en"] {
        let (status, catalog) = server.api("GET", &format!("/assets/i18n/{lang}.json"), None, None);
        assert_eq!(status, 200, "{lang}: {catalog}");
        let c = catalog
            .as_object()
            .unwrap_or_else(|| panic!("{lang}: {catalog}"));
        // The platform's words and every game's (and an odds tool's) in one catalog.
        for key in [
            "lobby.create",
            "error.nickname_taken",
            "story.mus.discarded.one",
            "story.chinchon.took",
            "story.tikki.showed_extra",
            "coins.title",
        ] {
            assert!(c.get(key).is_some_and(|v| v.is_string()), "{lang}: {key}");
        }
    }
    let (status, _) = server.api("GET", "/assets/i18n/xx.json", None, None);
    assert_eq!(status, 404);
}
