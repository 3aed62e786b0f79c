//! Every line any game of the catalog tells can be told in every language the pages speak:
//! seeded games of every game (random players and the game's default bot), narrated to
//! every seat and to the spectators, and each line's catalog key (and every key among its
//! arguments) found in the pages' catalogs (`crates/server/assets/i18n/{en,es}.json` merged
//! with every game's own, as the server merges them) with exactly the placeholders its
//! arguments fill. A game added to the catalog is checked with no change
//! here.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use tapete_host::story::{Arg, Phrase};
use tapete_host::{Host, Narrate, Visitor};
use tapete_table::{Bot, Game, ToAct};

/// Games per seat count, and the most actions one may take before it is left unfinished.
const GAMES: u64 = 12;
const MAX_ACTIONS: usize = 4000;

/// The pages' catalogs by language, as the server merges them: the platform's
/// (`crates/server/assets/i18n/{lang}.json`) and every game's own words (its web face).
fn catalogs() -> Vec<(&'static str, Map<String, Value>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../server/assets/i18n");
    let read = |what: &str, text: &str| -> Map<String, Value> {
        match serde_json::from_str(text) {
            Ok(Value::Object(m)) => m,
            _ => panic!("{what}: not a JSON object"),
        }
    };
    ["en", "es"]
        .into_iter()
        .map(|lang| {
            let path = dir.join(format!("{lang}.json"));
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let mut merged = read(&path.display().to_string(), &text);
            for kind in tapete_catalog::kinds() {
                for (l, json) in kind.web().catalogs {
                    if *l == lang {
                        merged.extend(read(&format!("{}'s {lang}", kind.name()), json));
                    }
                }
            }
            (lang, merged)
        })
        .collect()
}

/// The `{placeholders}` of a catalog text.
fn placeholders(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                let name = &after[..close];
                if !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    out.insert(name.to_string());
                }
                rest = &after[close + 1..];
            }
            None => break,
        }
    }
    out
}

/// What is wrong with `phrase` (and the phrases and keys among its arguments) for the
/// catalogs, each problem once.
fn problems(
    phrase: &Phrase,
    catalogs: &[(&str, Map<String, Value>)],
    seen: &mut BTreeSet<String>,
) -> Vec<String> {
    let mut out = Vec::new();
    let expect = |key: &str, names: BTreeSet<String>, out: &mut Vec<String>| {
        for (lang, words) in catalogs {
            match words.get(key).and_then(Value::as_str) {
                None => out.push(format!("{lang}: no `{key}`")),
                Some(text) if placeholders(text) != names => out.push(format!(
                    "{lang}: `{key}` is \"{text}\", its arguments are {names:?}"
                )),
                Some(_) => {}
            }
        }
    };
    for p in phrase.walk() {
        let names: BTreeSet<String> = p.args.keys().cloned().collect();
        let keys = if matches!(p.args.get("count"), Some(Arg::Num(_))) {
            vec![format!("{}.one", p.key), format!("{}.other", p.key)]
        } else {
            vec![p.key.clone()]
        };
        for key in keys {
            if seen.insert(format!("{key} {names:?}")) {
                expect(&key, names.clone(), &mut out);
            }
        }
        let mut nested: Vec<&Arg> = p.args.values().collect();
        while let Some(a) = nested.pop() {
            match a {
                Arg::Key(key) if seen.insert(key.clone()) => {
                    expect(key, BTreeSet::new(), &mut out);
                }
                Arg::List(xs) => nested.extend(xs),
                _ => {}
            }
        }
    }
    out
}

/// Plays seeded games of `H`, narrated to every audience, and returns the keys told and
/// every problem found.
struct Tells<'a> {
    catalogs: &'a [(&'static str, Map<String, Value>)],
}

impl Visitor for Tells<'_> {
    type Output = (BTreeSet<String>, Vec<String>);
    fn visit<H: Host>(self) -> Self::Output {
        let (lo, hi) = (*H::SEATS.start(), *H::SEATS.end());
        let mut seen = BTreeSet::new();
        let mut told = BTreeSet::new();
        let mut found = Vec::new();
        let mut check = |lines: Vec<tapete_host::story::Line>, found: &mut Vec<String>| {
            for l in lines {
                for p in l.phrase.walk() {
                    told.insert(p.key.clone());
                    let mut args: Vec<&Arg> = p.args.values().collect();
                    while let Some(a) = args.pop() {
                        match a {
                            Arg::Key(k) => {
                                told.insert(k.clone());
                            }
                            Arg::List(xs) => args.extend(xs),
                            _ => {}
                        }
                    }
                }
                for problem in problems(&l.phrase, self.catalogs, &mut seen) {
                    found.push(format!("{}: {problem} (told as \"{}\")", H::NAME, l.text));
                }
            }
        };
        for seats in lo..=hi {
            for g in 0..GAMES {
                let seed = 7000 + 100 * seats as u64 + g;
                let rules = if g % 2 == 0 {
                    H::arena_rules()
                } else {
                    Default::default()
                };
                let Ok(mut game) = H::G::new(&rules, seats, seed) else {
                    continue;
                };
                let mut narrators: Vec<H::Narrator> = (0..seats)
                    .map(Some)
                    .chain([None])
                    .map(|s| H::narrator(&game, s))
                    .collect();
                for n in &mut narrators {
                    check(n.opening(&game), &mut found);
                }
                // Half the games by the game's own bot (closes, órdagos and counts as
                // people meet them), half by random players (the odd corners).
                let mut bots: Vec<Box<dyn Bot<H::G>>> = (0..seats)
                    .map(|s| {
                        let mut b = H::make_bot(if g % 2 == 0 {
                            "random"
                        } else {
                            H::default_bot()
                        })
                        .expect("the catalog's bots are made by name");
                        b.start(s, seats, &rules);
                        b
                    })
                    .collect();
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                for _ in 0..MAX_ACTIONS {
                    let seat = match game.to_act() {
                        ToAct::Over => break,
                        act => match act.seats().choose(&mut rng) {
                            Some(&s) => s,
                            None => break,
                        },
                    };
                    let legal = game.legal_actions(seat);
                    let action = bots[seat].act(&game.view(seat), &legal, &mut rng);
                    let action = if legal.contains(&action) {
                        action
                    } else {
                        legal[0].clone()
                    };
                    let events = game.apply(seat, &action).expect("a legal action");
                    for n in &mut narrators {
                        for e in &events {
                            check(n.lines(e), &mut found);
                        }
                    }
                }
            }
        }
        (told, found)
    }
}

#[test]
fn every_line_of_every_game_is_in_both_catalogs_with_its_placeholders() {
    let catalogs = catalogs();
    let mut problems = Vec::new();
    let mut told_by_game = BTreeMap::new();
    let mut all_told = BTreeSet::new();
    for name in tapete_catalog::names() {
        let (told, found) = tapete_catalog::visit(
            name,
            Tells {
                catalogs: &catalogs,
            },
        )
        .expect("a game");
        assert!(!told.is_empty(), "{name} told nothing");
        told_by_game.insert(name, told.len());
        all_told.extend(told);
        problems.extend(found);
    }
    // Keys these games did not happen to tell (rare events: a false close, the stock
    // spent many times): informative only.
    let untold: Vec<&String> = catalogs[0]
        .1
        .keys()
        .filter(|k| k.starts_with("story."))
        .filter(|k| {
            let base = k
                .strip_suffix(".one")
                .or(k.strip_suffix(".other"))
                .unwrap_or(k);
            !all_told.contains(base) && !all_told.contains(k.as_str())
        })
        .collect();
    eprintln!("keys not told by these games: {untold:?}");
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
    eprintln!("keys told: {told_by_game:?}");
}

#[test]
fn the_check_finds_a_missing_key_and_a_wrong_placeholder() {
    let catalogs = catalogs();
    let mut seen = BTreeSet::new();
    let missing = Phrase::new("story.nowhere.to_be_found").seat("who", 1);
    assert_eq!(problems(&missing, &catalogs, &mut seen).len(), 2);
    let wrong = Phrase::new("story.you").seat("who", 1);
    let found = problems(&wrong, &catalogs, &mut seen);
    assert!(found.iter().any(|p| p.contains("story.you")), "{found:?}");
    let nested = Phrase::new("story.you").key("x", "story.not.a.key");
    let found = problems(&nested, &catalogs, &mut BTreeSet::new());
    assert!(
        found.iter().any(|p| p.contains("story.not.a.key")),
        "{found:?}"
    );
    assert_eq!(
        placeholders("{who} takes {card} from {x}"),
        ["card", "who", "x"].map(String::from).into()
    );
}

/// Reviews seat 0 of a seeded game of `H` (the game's default bot at every seat, the
/// fewest worlds) and returns every problem of the reasons told with the catalogs.
struct Reasons<'a> {
    catalogs: &'a [(&'static str, Map<String, Value>)],
}

impl Visitor for Reasons<'_> {
    type Output = (usize, Vec<String>);
    fn visit<H: Host>(self) -> Self::Output {
        let mut seen = BTreeSet::new();
        let mut found = Vec::new();
        let mut told = 0;
        if !H::reviews() {
            return (0, found);
        }
        let settings = tapete_review::Settings {
            min_worlds: 2,
            max_worlds: 2,
            ..Default::default()
        };
        let seats = H::DEFAULT_SEATS;
        for g in 0..1u64 {
            let seed = 9100 + g;
            let rules = H::arena_rules();
            let mut game = H::G::new(&rules, seats, seed).expect("a game");
            let mut record = tapete_table::Record::<H::G>::new(rules.clone(), seats, seed);
            let mut bots: Vec<Box<dyn Bot<H::G>>> = (0..seats)
                .map(|_| H::make_bot(H::default_bot()).expect("the default bot"))
                .collect();
            tapete_table::play_out(
                &mut game,
                &mut bots,
                &mut ChaCha8Rng::seed_from_u64(seed),
                &mut record,
                MAX_ACTIONS,
                |_, _, _, _| {},
            )
            .expect("the game plays");
            // The first hands are enough to meet every kind of reason: the rest of a long
            // game only costs time.
            record.actions.truncate(120);
            for seat in 0..1 {
                let review = H::review(&record, seat, &settings, &|_, _| {}).expect("a review");
                for d in &review.decisions {
                    let Some(line) = &d.reason else { continue };
                    told += 1;
                    for problem in problems(&line.phrase, self.catalogs, &mut seen) {
                        found.push(format!(
                            "{}: {problem} (told as \"{}\")",
                            H::NAME,
                            line.text
                        ));
                    }
                }
            }
        }
        (told, found)
    }
}

#[test]
fn every_reason_of_every_review_is_in_both_catalogs_with_its_placeholders() {
    let catalogs = catalogs();
    let mut problems = Vec::new();
    for name in tapete_catalog::names() {
        let (told, found) = tapete_catalog::visit(
            name,
            Reasons {
                catalogs: &catalogs,
            },
        )
        .expect("a game");
        assert!(told > 0, "{name}'s review told no reason");
        problems.extend(found);
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
