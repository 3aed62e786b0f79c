//! Line mode, scripted: a whole match from a fixed list of answers, bad input refused with
//! a reason, and no other seat's cards shown before the showdown.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Cursor;
use tapete_cards::Card;
use tapete_mus::{MusGame, MusRules};
use tapete_mus_front::MusHost;
use tapete_table::{Game, Record};
use tapete_term::{play_lines, PlayOptions};

fn opts(seed: u64, human: usize) -> PlayOptions<MusHost> {
    let rules = MusRules {
        juegos: 1,
        vacas: 1,
        ..Default::default()
    };
    PlayOptions::new(rules, 4, seed, human, "random").expect("random bots")
}

/// A fixed cycle of answers, some always wrong, that still moves every kind of decision on.
fn script(cycles: usize) -> String {
    let cycle = [
        "mus",
        "descarto 1 2",
        "envido 1",
        "13o",
        "descarto 13o",
        "paso",
        "quiero",
    ];
    let mut s = String::new();
    for _ in 0..cycles {
        for line in cycle {
            s.push_str(line);
            s.push('\n');
        }
    }
    s
}

fn run(seed: u64, human: usize, input: &str) -> (String, Record<MusGame>) {
    let mut out = Vec::new();
    let rec = play_lines(opts(seed, human), Cursor::new(input.as_bytes()), &mut out)
        .expect("line mode runs");
    (String::from_utf8(out).expect("utf-8 output"), rec)
}

/// Every card the human held (or had set aside to discard) during each hand.
fn held_by_hand(rec: &Record<MusGame>, human: usize) -> BTreeMap<u32, BTreeSet<Card>> {
    let mut held: BTreeMap<u32, BTreeSet<Card>> = BTreeMap::new();
    let mut note = |g: &MusGame| {
        let v = g.view(human);
        let entry = held.entry(v.hand_number).or_default();
        entry.extend(v.cards.iter().copied());
        entry.extend(v.my_discard.unwrap_or_default().iter());
    };
    let g0 = MusGame::new(&rec.rules, 4, rec.seed).expect("setup");
    note(&g0);
    rec.replay_steps(|_, g, _| note(g)).expect("replays");
    held
}

fn cards_in(line: &str) -> Vec<Card> {
    line.split(|c: char| !c.is_ascii_alphanumeric())
        .filter_map(|w| w.parse::<Card>().ok())
        .collect()
}

#[test]
fn a_scripted_match_reaches_the_end() {
    for (seed, human) in [(1u64, 0usize), (2, 1), (3, 2), (4, 3)] {
        let (out, rec) = run(seed, human, &script(3000));
        let game = rec.replay().expect("the record replays");
        assert!(
            game.outcome().is_some(),
            "seed {seed}: match not over\n{out}"
        );
        assert!(out.contains("── the end ──"), "seed {seed}");
        assert!(out.contains("showdown:"));
        assert!(!out.contains("input ended"));
    }
}

#[test]
fn bad_input_is_refused_with_a_reason_and_play_goes_on() {
    let (out, rec) = run(7, 0, &script(3000));
    let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("error: ")).collect();
    assert!(errors
        .iter()
        .any(|l| l.contains("1 is too small") && l.contains("2 piedras")));
    assert!(errors
        .iter()
        .any(|l| l.contains("`13o` is not a Mus action")));
    assert!(errors
        .iter()
        .any(|l| l.contains("descarto") && l.contains("`13o` is not a card")));
    // After an error the same decision is asked again, and the game carries on to the end.
    assert!(rec.replay().expect("replays").outcome().is_some());
    for (i, line) in out.lines().enumerate() {
        if line.starts_with("error: ") {
            let next = out.lines().nth(i + 1).unwrap_or("");
            assert!(next.contains(" > "), "no prompt after `{line}`: `{next}`");
        }
    }
}

#[test]
fn other_seats_cards_stay_hidden_until_the_showdown() {
    for (seed, human) in [(11u64, 0usize), (12, 1), (13, 2), (14, 3)] {
        let (out, rec) = run(seed, human, &script(3000));
        let held = held_by_hand(&rec, human);
        let mut hand = 1u32;
        for line in out.lines() {
            if let Some(rest) = line.strip_prefix("hand ") {
                hand = rest
                    .split_whitespace()
                    .next()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(hand);
                continue;
            }
            if line.contains(" shows ") {
                continue;
            }
            let mine = held.get(&hand).cloned().unwrap_or_default();
            // The example in help texts and error messages is not anybody's hand.
            for c in cards_in(&line.replace("descarto 12o 1b", "")) {
                assert!(
                    mine.contains(&c),
                    "seed {seed} hand {hand}: `{line}` shows {c}, not the human's"
                );
            }
        }
    }
}

#[test]
fn input_ending_or_quit_stops_cleanly_with_the_record_so_far() {
    let (out, rec) = run(3, 0, "mus\n");
    assert!(out.contains("input ended"));
    assert!(rec.replay().is_ok());
    let (out, rec) = run(3, 0, "help\nquit\n");
    assert!(out.contains("you leave the table"));
    assert!(out.contains("descarto 12o 1b"));
    assert!(rec.replay().is_ok());
    let (out, _) = run(3, 0, "");
    assert!(out.contains(" > "));
}

#[test]
fn the_end_shows_the_final_score_in_pair_order() {
    for (seed, human) in [(2u64, 1usize), (5, 0)] {
        let (out, rec) = run(seed, human, &script(3000));
        let game = rec.replay().expect("the record replays");
        let s = game.scores();
        let outcome = game.outcome().expect("over");
        let winner = outcome.winners[0] % 2;
        assert_eq!(s.games[winner], 1, "the last juego counts: {s:?}");
        assert!(s.piedras != [0, 0] || out.contains("by órdago"), "{s:?}");
        let end: Vec<&str> = out
            .lines()
            .skip_while(|l| !l.starts_with("── the end ──"))
            .collect();
        let name = |pair: usize| {
            if pair == human % 2 {
                "nosotros"
            } else {
                "ellos"
            }
        };
        // Pair 0–2 first, as the view's scores and the summary go, whoever the human is.
        let rows: Vec<Vec<String>> = end[2..4]
            .iter()
            .map(|l| l.split_whitespace().map(str::to_string).collect())
            .collect();
        for (pair, row) in rows.iter().enumerate() {
            let expected = [
                name(pair).to_string(),
                format!("{}–{}", pair, pair + 2),
                s.piedras[pair].to_string(),
                s.games[pair].to_string(),
                s.vacas[pair].to_string(),
            ];
            assert_eq!(row, &expected, "seed {seed}:\n{}", end.join("\n"));
        }
        let last = end.last().copied().unwrap_or_default();
        assert!(last.ends_with(&outcome.summary), "{last}");
        assert!(
            outcome
                .summary
                .ends_with(&format!("piedras {}–{})", s.piedras[0], s.piedras[1])),
            "{}",
            outcome.summary
        );
    }
}

/// The words of line mode are the scripts' and the command line's contract: a whole match
/// is told byte for byte as the terminal told it before it knew other games (the file
/// was written by that terminal: default rules, seed 2, seat 0, random bots).
#[test]
fn a_match_is_told_exactly_as_before() {
    let cycle = [
        "mus",
        "descarto 1 2",
        "envido 1",
        "13o",
        "descarto 13o",
        "paso",
        "quiero",
        "help",
        "",
        "no hay mus",
        "no quiero",
        "órdago",
        "1 3",
    ];
    let script = format!("{}\n", cycle.join("\n")).repeat(3000);
    let opts =
        PlayOptions::<MusHost>::new(MusRules::default(), 4, 2, 0, "random").expect("random bots");
    let mut out = Vec::new();
    play_lines(opts, Cursor::new(script.as_bytes()), &mut out).expect("line mode runs");
    let told = String::from_utf8(out).expect("utf-8 output");
    let before = include_str!("data/mus-seed2-seat0-random.txt");
    for (i, (now, then)) in told.lines().zip(before.lines()).enumerate() {
        assert_eq!(now, then, "line {}", i + 1);
    }
    assert_eq!(told, before);
}
