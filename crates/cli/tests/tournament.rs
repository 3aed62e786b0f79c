//! `tapete tournament`: whole tournaments of bots, as JSON and as text, and its refusals.

use crate::common::{input_error, ok_json, ok_text};
use std::collections::HashSet;

#[test]
fn a_swiss_of_bot_pairs_never_repeats_a_match_and_ranks_everyone() {
    let r = ok_json(&[
        "tournament",
        "mus",
        "--format",
        "swiss",
        "--entrants",
        "experto*6,basico*6",
        "--rounds",
        "4",
        "--seed",
        "3",
        "--json",
    ]);
    assert_eq!(
        (r["game"].as_str(), r["format"].as_str()),
        (Some("mus"), Some("swiss"))
    );
    assert_eq!(r["entrants"].as_array().unwrap().len(), 12);
    let rounds = r["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 4);
    let mut met = HashSet::new();
    for round in rounds {
        let boards = round["boards"].as_array().unwrap();
        assert_eq!(boards.len(), 6);
        for b in boards {
            let (a, c) = (b["first"].as_u64().unwrap(), b["second"].as_u64().unwrap());
            assert!(met.insert((a.min(c), a.max(c))), "{a}-{c} twice");
            assert!(b["winner"].is_string(), "a Mus match has a winner: {b}");
        }
    }
    assert_eq!(r["repeats"], 0);
    let standings = r["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 12);
    let total: f64 = standings.iter().map(|s| s["score"].as_f64().unwrap()).sum();
    assert_eq!(total, 24.0, "one point a match");
    // The same seed, the same event, whatever the threads.
    let again = ok_json(&[
        "tournament",
        "mus",
        "--entrants",
        "experto*6,basico*6",
        "--rounds",
        "4",
        "--seed",
        "3",
        "--threads",
        "1",
        "--json",
    ]);
    // (The time each pairing took aside.)
    let boards = |v: &serde_json::Value| -> Vec<serde_json::Value> {
        v["rounds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["boards"].clone())
            .collect()
    };
    assert_eq!(boards(&again), boards(&r));
}

#[test]
fn a_tres_ceros_of_chinchon_players_goes_down_to_one_as_aligned_text() {
    let text = ok_text(&[
        "tournament",
        "chinchon",
        "--format",
        "tres-ceros",
        "--entrants",
        "basico*5",
        "--target",
        "30",
    ]);
    assert!(
        text.starts_with("Chinchón tournament (tres-ceros), 5 entrants"),
        "{text}"
    );
    assert!(text.contains("Standings\nplace  entrant"), "{text}");
    // Everyone but the winner went out in some round.
    let outs = text.matches("round ").count();
    assert!(outs >= 4, "{text}");
}

#[test]
fn brackets_play_to_their_final_with_cuadro_b_or_a_second_life() {
    let r = ok_json(&[
        "tournament",
        "mus",
        "--format",
        "knockout",
        "--consolation",
        "--entrants",
        "experto*4,basico*4",
        "--json",
    ]);
    let matches = r["matches"].as_array().unwrap();
    let part = |p: &str| matches.iter().filter(|m| m["part"] == p).count();
    // Cuadro A: 4 + 2 + 1; Cuadro B: the four first-round losers, 2 + 1.
    assert_eq!((part("main"), part("consolation")), (7, 3));
    let champion = r["champion"].as_u64().unwrap();
    let placings = r["placings"].as_array().unwrap();
    assert_eq!(placings.len(), 8);
    assert_eq!(placings[0], serde_json::json!([champion, 1]));
    let b = r["consolation_champion"].as_u64().unwrap();
    // Cuadro B's champion lost its first match in Cuadro A.
    assert!(matches.iter().any(|m| m["part"] == "main"
        && m["round"] == 1
        && ((m["first"] == b && m["winner"] == "second")
            || (m["second"] == b && m["winner"] == "first"))));

    // Double elimination of five tikki players (tikki's own --rounds as --table-rounds):
    // everyone but the champion lost twice.
    let r = ok_json(&[
        "tournament",
        "tikki",
        "--format",
        "double",
        "--entrants",
        "basico*5",
        "--table-rounds",
        "1",
        "--json",
    ]);
    let matches = r["matches"].as_array().unwrap();
    let champion = r["champion"].as_u64().unwrap();
    let mut losses = [0; 5];
    for m in matches {
        let loser = if m["winner"] == "first" {
            &m["second"]
        } else {
            &m["first"]
        };
        losses[loser.as_u64().unwrap() as usize] += 1;
    }
    for (e, l) in losses.iter().enumerate() {
        if e as u64 == champion {
            assert!(*l <= 1, "{matches:?}");
        } else {
            assert_eq!(*l, 2, "entrant {e}: {matches:?}");
        }
    }
    let text = ok_text(&[
        "tournament",
        "mus",
        "--format",
        "knockout",
        "--entrants",
        "experto,basico,basico",
    ]);
    assert!(text.contains("Places\nplace  entrant\n1 "), "{text}");
}

#[test]
fn duplicate_mus_scores_each_pair_against_those_that_held_its_cards() {
    let r = ok_json(&[
        "tournament",
        "mus",
        "--format",
        "duplicate",
        "--entrants",
        "experto*4,basico*4",
        "--rounds",
        "3",
        "--boards",
        "2",
        "--json",
    ]);
    let rounds = r["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 3);
    let mut met = HashSet::new();
    for round in rounds {
        let tables = round["tables"].as_array().unwrap();
        assert_eq!(tables.len(), 4);
        for t in tables {
            let (a, b) = (t["first"].as_u64().unwrap(), t["second"].as_u64().unwrap());
            assert!(met.insert((a.min(b), a.max(b))));
            let boards: Vec<i64> = t["boards"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_i64().unwrap())
                .collect();
            assert_eq!(boards.len(), 2);
            assert_eq!(t["net"].as_i64().unwrap(), boards.iter().sum::<i64>());
        }
    }
    // Four tables a board: each result compared with three others, 2 points each.
    let st = r["standings"].as_array().unwrap();
    assert_eq!(st.len(), 8);
    for s in st {
        assert_eq!(s["max"], 3 * 2 * 2 * 3, "{s}");
    }
    let total: u64 = st.iter().map(|s| s["matchpoints"].as_u64().unwrap()).sum();
    // Every comparison gives 2 points between two results of one side.
    assert_eq!(total, 3 * 2 * 2 * 6 * 2);
    assert_eq!(r["plain_standings"].as_array().unwrap().len(), 8);
    let e = input_error(&[
        "tournament",
        "chinchon",
        "--format",
        "duplicate",
        "--entrants",
        "basico*4",
    ]);
    assert!(e.contains("Chinchón is not played in duplicate"), "{e}");
}

#[test]
fn bad_tournaments_are_refused_by_name() {
    let e = input_error(&["tournament", "mus", "--entrants", "experto"]);
    assert!(e.contains("at least 2 entrants"), "{e}");
    let e = input_error(&["tournament", "mus", "--entrants", "experto*x"]);
    assert!(e.contains("LEVEL*K"), "{e}");
    let e = input_error(&["tournament", "mus", "--entrants", "experto,nadie"]);
    assert!(e.contains("nadie"), "{e}");
    let e = input_error(&[
        "tournament",
        "mus",
        "--entrants",
        "experto*4",
        "--rounds",
        "4",
    ]);
    assert!(e.contains("1 to 3 rounds"), "{e}");
    let e = input_error(&[
        "tournament",
        "mus",
        "--format",
        "tres-ceros",
        "--entrants",
        "experto*4",
        "--rounds",
        "2",
    ]);
    assert!(e.contains("until one entrant is left"), "{e}");
    let e = input_error(&[
        "tournament",
        "mus",
        "--format",
        "swiss",
        "--consolation",
        "--entrants",
        "experto*4",
    ]);
    assert!(e.contains("Cuadro B belongs to a knockout"), "{e}");
    let help = ok_text(&["tournament", "mus", "--help"]);
    for option in [
        "--format",
        "--entrants",
        "--rounds",
        "--seed",
        "--threads",
        "--juegos",
    ] {
        assert!(help.contains(option), "{option} in {help}");
    }
}

#[test]
fn groups_play_all_play_all_then_cross_into_a_knockout() {
    let r = ok_json(&[
        "tournament",
        "chinchon",
        "--format",
        "groups",
        "--group-size",
        "4",
        "--advance",
        "2",
        "--entrants",
        "experto*4,basico*4",
        "--target",
        "30",
        "--json",
    ]);
    assert_eq!(
        (
            r["format"].as_str(),
            r["group_size"].as_u64(),
            r["advance"].as_u64()
        ),
        (Some("groups"), Some(4), Some(2))
    );
    let groups = r["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 2);
    let group_of = |e: u64| {
        groups
            .iter()
            .position(|g| g["entrants"].as_array().unwrap().contains(&e.into()))
            .unwrap()
    };
    // Every pair of a group met once, and nobody else.
    let played = r["group_matches"].as_array().unwrap();
    assert_eq!(played.len(), 12);
    let mut met = HashSet::new();
    for m in played {
        let (a, b) = (m["first"].as_u64().unwrap(), m["second"].as_u64().unwrap());
        assert_eq!(group_of(a), group_of(b), "{m}");
        assert!(met.insert((a.min(b), a.max(b))), "{a}-{b} twice");
    }
    for g in groups {
        let rows = g["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 4);
        assert!(rows.iter().all(|r| r["played"] == 3), "{g}");
        let going: Vec<bool> = rows.iter().map(|r| r["qualified"] == true).collect();
        assert_eq!(going, vec![true, true, false, false], "{g}");
        assert!(g["matches"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["state"] == "played"));
    }
    // The knockout: each group's winner meets the other's runner-up, then the final.
    let winner = |g: usize| groups[g]["rows"][0]["entrant"].clone();
    let runner_up = |g: usize| groups[g]["rows"][1]["entrant"].clone();
    let ko = &r["knockout"];
    let matches = ko["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 3);
    let semis: Vec<(serde_json::Value, serde_json::Value)> = matches
        .iter()
        .filter(|m| m["round"] == 1)
        .map(|m| (m["first"].clone(), m["second"].clone()))
        .collect();
    assert_eq!(semis.len(), 2);
    for (first, second) in &semis {
        let g = (0..2)
            .find(|&g| winner(g) == *first)
            .expect("a winner first");
        assert_eq!(*second, runner_up(1 - g));
    }
    let champion = r["champion"].as_u64().unwrap();
    assert_eq!(ko["placings"][0], serde_json::json!([champion, 1]));

    // Tikki as text: 7 in groups of at most 3 make a group of four and one of three (with
    // its byes); the tables, then the knockout.
    let text = ok_text(&[
        "tournament",
        "tikki",
        "--format",
        "groups",
        "--group-size",
        "3",
        "--entrants",
        "basico*7",
        "--table-rounds",
        "1",
    ]);
    assert!(
        text.starts_with(
            "Tikki tournament (groups of at most 3, 2 going on from each), 7 entrants"
        ),
        "{text}"
    );
    for part in [
        "\nGroup A: ",
        "\nGroup B: ",
        "bye",
        "goes on",
        "\nKnockout\n",
        "\nPlaces\nplace  entrant\n1 ",
    ] {
        assert!(text.contains(part), "{part} in {text}");
    }
    assert!(
        text.contains("9 group matches, 3 knockout matches played"),
        "{text}"
    );

    // Refusals and the help.
    let e = input_error(&[
        "tournament",
        "tikki",
        "--format",
        "groups",
        "--group-size",
        "4",
        "--advance",
        "4",
        "--entrants",
        "basico*8",
    ]);
    assert!(
        e.contains("--advance: 1 to 3 can go on from each group"),
        "{e}"
    );
    let e = input_error(&[
        "tournament",
        "tikki",
        "--format",
        "groups",
        "--advance",
        "1",
        "--entrants",
        "basico*4",
    ]);
    assert!(e.contains("a knockout needs two"), "{e}");
    let e = input_error(&[
        "tournament",
        "tikki",
        "--format",
        "groups",
        "--group-size",
        "9",
        "--entrants",
        "basico*9",
    ]);
    assert!(e.contains("--group-size"), "{e}");
    let e = input_error(&[
        "tournament",
        "mus",
        "--format",
        "swiss",
        "--advance",
        "2",
        "--entrants",
        "experto*4",
    ]);
    assert!(e.contains("they belong to groups"), "{e}");
    let e = input_error(&[
        "tournament",
        "mus",
        "--format",
        "groups",
        "--rounds",
        "2",
        "--entrants",
        "experto*8",
    ]);
    assert!(e.contains("groups play all-play-all"), "{e}");
    let help = ok_text(&["tournament", "chinchon", "--help"]);
    for option in ["--group-size", "--advance", "groups"] {
        assert!(help.contains(option), "{option} in {help}");
    }
}
