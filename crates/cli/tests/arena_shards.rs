//! Arenas across machines: `tapete arena … --shard I/N --json` plays its share of the
//! games, and `tapete merge` sums the shards into exactly the whole run's results.

use crate::common::{input_error, ok_json, ok_text, tmp};
use serde_json::Value;

/// The JSON of the whole run and the merge of its `count` shards (given to the merge in
/// reverse order), each without its timing.
fn whole_and_merged(args: &[&str], count: u64, name: &str) -> (Value, Value) {
    let mut whole = ok_json(&[args, &["--json"]].concat());
    let mut files = Vec::new();
    for i in (1..=count).rev() {
        let shard = format!("{i}/{count}");
        let v = ok_json(&[args, &["--shard", &shard, "--json"]].concat());
        assert_eq!(v["shard"]["index"], i);
        assert_eq!(v["shard"]["run_games"], whole["games"]);
        let f = tmp(&format!("{name}-{i}.json"));
        std::fs::write(&f, v.to_string()).unwrap();
        files.push(f.display().to_string());
    }
    let mut merge = vec!["merge", "--json"];
    merge.extend(files.iter().map(String::as_str));
    let mut merged = ok_json(&merge);
    for v in [&mut whole, &mut merged] {
        let timing = v.as_object_mut().unwrap().remove("timing");
        assert!(timing.is_some_and(|t| t["seconds"].is_number()));
    }
    (whole, merged)
}

#[test]
fn merged_shards_are_the_whole_run() {
    let mus = [
        "arena",
        "mus",
        "--a",
        "experto",
        "--b",
        "basico",
        "--games",
        "23",
        "--seed",
        "11",
        "--threads",
        "2",
    ];
    let (whole, merged) = whole_and_merged(&mus, 4, "mus");
    assert_eq!(merged, whole);
    assert_eq!(whole["games"], 23);
    assert!(
        whole["lances"]["grande"]["settled"].as_u64().unwrap() > 0,
        "{whole}"
    );
    assert!(whole.get("shard").is_none());
    // Unfinished games and their list, in game order, from shards of tikki.
    let tikki = [
        "arena",
        "tikki",
        "--a",
        "random",
        "--b",
        "random",
        "--games",
        "30",
        "--seed",
        "3",
        "--max-actions",
        "50",
        "--threads",
        "1",
    ];
    let (whole, merged) = whole_and_merged(&tikki, 3, "tikki");
    assert_eq!(merged, whole);
    let unfinished = whole["unfinished"]["count"].as_u64().unwrap();
    assert!(unfinished > 0 && unfinished < 30, "{whole}");
}

#[test]
fn a_shard_plays_its_own_games_and_says_so() {
    let text = ok_text(&[
        "arena",
        "mus",
        "--a",
        "basico",
        "--b",
        "random",
        "--games",
        "20",
        "--seed",
        "100",
        "--shard",
        "2/3",
        "--threads",
        "1",
    ]);
    assert!(text.starts_with("7 Mus games from seed 100"), "{text}");
    assert!(
        text.contains("shard 2 of 3: games 6 to 12 of 20 (seeds 106 to 112)"),
        "{text}"
    );
    let e = input_error(&[
        "arena", "mus", "--a", "basico", "--b", "random", "--games", "2", "--shard", "3/3",
    ]);
    assert!(e.contains("2 games cannot make 3 shards"), "{e}");
    let e = input_error(&[
        "arena", "mus", "--a", "basico", "--b", "random", "--games", "2", "--shard", "4/3",
    ]);
    assert!(e.contains("the shard number is 1 to 3"), "{e}");
}

#[test]
fn a_merge_refuses_what_is_not_one_whole_run() {
    let shard = |i: u64, seed: &str, name: &str| {
        let v = ok_json(&[
            "arena",
            "tikki",
            "--a",
            "random",
            "--b",
            "random",
            "--games",
            "6",
            "--seed",
            seed,
            "--shard",
            &format!("{i}/3"),
            "--threads",
            "1",
            "--json",
        ]);
        let f = tmp(name);
        std::fs::write(&f, v.to_string()).unwrap();
        f.display().to_string()
    };
    let (one, two, three) = (
        shard(1, "0", "m1.json"),
        shard(2, "0", "m2.json"),
        shard(3, "0", "m3.json"),
    );
    let other = shard(3, "1", "m3-other.json");
    let e = input_error(&["merge", &one, &two]);
    assert!(e.contains("shards missing of 3: 3"), "{e}");
    let e = input_error(&["merge", &one, &two, &two, &three]);
    assert!(e.contains("shard 2 of 3 is given twice"), "{e}");
    let e = input_error(&["merge", &one, &two, &other]);
    assert!(e.contains("different runs"), "{e}");
    let whole = tmp("m-whole.json");
    let v = ok_json(&[
        "arena", "tikki", "--a", "random", "--b", "random", "--games", "6", "--json",
    ]);
    std::fs::write(&whole, v.to_string()).unwrap();
    let e = input_error(&["merge", &whole.display().to_string()]);
    assert!(e.contains("not a shard"), "{e}");
    let junk = tmp("m-junk.json");
    std::fs::write(&junk, "{ not json").unwrap();
    let e = input_error(&["merge", &junk.display().to_string()]);
    assert!(e.contains("not the JSON of `tapete arena --json`"), "{e}");
    let e = input_error(&["merge", "/no/such/shard.json"]);
    assert!(e.contains("/no/such/shard.json"), "{e}");
    // The three together are the run, in text too.
    let text = ok_text(&["merge", &three, &one, &two]);
    assert!(text.starts_with("6 Tikki games from seed 0"), "{text}");
}
