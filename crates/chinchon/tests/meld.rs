//! The meld solver against the brute force over every partition, on thousands of random
//! and dense hands (both decks, jokers, two decks), and the spec's edge cases by name.

use rand::Rng;
use tapete_cards::rng_from_seed;
use tapete_chinchon::brute;
use tapete_chinchon::card::DeckSize;
use tapete_chinchon::meld::{Close, MeldKind, Solver};
use tapete_chinchon::rules::FigureValues;
use tapete_chinchon::{Card, ChinchonRules};

fn cards(s: &str) -> Vec<Card> {
    s.split_whitespace().map(|c| c.parse().unwrap()).collect()
}

fn c(s: &str) -> Card {
    s.parse().unwrap()
}

fn rules48() -> ChinchonRules {
    ChinchonRules {
        deck: DeckSize::FortyEight,
        ..ChinchonRules::default()
    }
}

fn with_jokers(jokers: u8) -> ChinchonRules {
    ChinchonRules {
        jokers,
        ..ChinchonRules::default()
    }
}

/// The fast solver agrees with the brute force on `hand`, and what it shows is sound.
fn check(rules: &ChinchonRules, hand: &[Card]) {
    let solver = Solver::new(rules);
    let a = solver.analyze(hand).unwrap();
    let label = format!("{hand:?} with {rules:?}");
    assert_eq!(
        a.deadwood(),
        brute::deadwood(hand, rules),
        "deadwood of {label}"
    );
    // The arrangement is made of disjoint melds and its loose cards add up.
    let mut used = 0u8;
    for &m in a.meld_masks() {
        assert_eq!(used & m, 0, "melds overlap in {label}");
        used |= m;
        let meld: Vec<Card> = (0..hand.len())
            .filter(|i| m & (1 << i) != 0)
            .map(|i| hand[i])
            .collect();
        assert!(
            brute::is_meld(&meld, rules),
            "{meld:?} is no meld ({label})"
        );
    }
    let loose: u16 = a.unmatched().iter().map(|&c| rules.value(c) as u16).sum();
    assert_eq!(loose, a.deadwood(), "{label}");
    for meld in a.melds() {
        assert!(
            brute::is_meld(&meld.cards, rules),
            "{meld:?} shown wrong ({label})"
        );
        if let MeldKind::Run { .. } = meld.kind {
            assert!(brute::is_run(&meld.cards, rules));
        }
    }
    match hand.len() {
        7 => {
            assert_eq!(a.close(), brute::close(hand, rules), "close of {label}");
            let closing = solver.closing(hand);
            assert_eq!(closing.as_ref().map(|c| c.0), a.close(), "{label}");
            if let Some((close, melds)) = closing {
                let shown: usize = melds.iter().map(|m| m.cards.len()).sum();
                let expect = if matches!(close, Close::Normal { .. }) {
                    6
                } else {
                    7
                };
                assert_eq!(shown, expect, "{label}: {melds:?}");
                for m in &melds {
                    assert!(brute::is_meld(&m.cards, rules), "{m:?} ({label})");
                }
            }
        }
        8 => {
            let expected = brute::discards(hand, rules);
            assert_eq!(a.discards(), expected.as_slice(), "discards of {label}");
            let best = a.best_discard().unwrap();
            let key = |d: &tapete_chinchon::meld::Discard| {
                (d.close.map_or(0, Close::rank), u16::MAX - d.deadwood)
            };
            assert!(
                expected.iter().all(|d| key(d) <= key(&best)),
                "{best:?} is not the best of {expected:?}"
            );
            assert_eq!(a.close(), best.close);
        }
        _ => {}
    }
}

fn deck_rules(size: DeckSize, jokers: u8) -> ChinchonRules {
    ChinchonRules {
        deck: size,
        jokers,
        ..ChinchonRules::default()
    }
}

/// Random hands of 7 and 8 cards from every kind of deck.
#[test]
fn agrees_with_brute_force_on_random_hands() {
    let mut rng = rng_from_seed(11);
    let mut checked = 0;
    for size in [DeckSize::Forty, DeckSize::FortyEight] {
        for jokers in 0..=2u8 {
            for decks in 1..=2u8 {
                let rules = deck_rules(size, jokers);
                let spec = size.spec(jokers, decks);
                for _ in 0..250 {
                    let deck = spec.shuffled(&mut rng);
                    let n = rng.gen_range(7..=8);
                    check(&rules, &deck[..n]);
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 3000);
}

/// Dense hands: cards from two suits and a few neighbouring numbers, with copies and
/// jokers, so that groups, escaleras and their overlaps abound.
#[test]
fn agrees_with_brute_force_on_dense_hands() {
    let mut rng = rng_from_seed(12);
    for round in 0..3000 {
        let size = if round % 2 == 0 {
            DeckSize::Forty
        } else {
            DeckSize::FortyEight
        };
        let rules = ChinchonRules {
            deck: size,
            jokers: 2,
            figures: if round % 3 == 0 {
                FigureValues::Ten
            } else {
                FigureValues::Number
            },
            close_limit: 3 + (round % 3) as u8,
            ..ChinchonRules::default()
        };
        let spec = size.spec(2, 2);
        let start = rng.gen_range(1..=9u8);
        let suits: Vec<_> = (0..2).map(|_| rng.gen_range(0..4usize)).collect();
        let mut pool: Vec<Card> = spec
            .cards::<Card>()
            .into_iter()
            .filter(|c| match (c.number(), c.suit()) {
                (Some(n), Some(s)) => n >= start && n < start + 5 && suits.contains(&(s as usize)),
                _ => rng.gen_bool(0.5),
            })
            .collect();
        if pool.len() < 8 {
            continue;
        }
        tapete_cards::chance::shuffle(&mut pool, &mut rng);
        let n = rng.gen_range(7..=8);
        check(&rules, &pool[..n]);
    }
}

#[test]
fn every_smaller_hand_too() {
    let rules = with_jokers(1);
    let spec = DeckSize::Forty.spec(1, 2);
    let mut rng = rng_from_seed(13);
    for _ in 0..500 {
        let deck = spec.shuffled(&mut rng);
        let n = rng.gen_range(0..=6);
        check(&rules, &deck[..n]);
    }
}

#[test]
fn escaleras_run_through_7_sota_caballo_in_the_40_card_deck() {
    let solver = Solver::new(&ChinchonRules::default());
    let a = solver.analyze(&cards("6o 7o 10o 11o 12o 3c 3e")).unwrap();
    assert_eq!(a.deadwood(), 6, "6o 7o 10o 11o 12o is one escalera");
    assert_eq!(a.melds()[0].to_string(), "6o 7o 10o 11o 12o");
    assert_eq!(
        a.melds()[0].kind,
        MeldKind::Run {
            suit: tapete_chinchon::Suit::Oros,
            low: 6,
            high: 12
        }
    );
    // 7 and sota are not neighbours with 48 cards.
    let a = Solver::new(&rules48())
        .analyze(&cards("6o 7o 10o 3c 3e 1b 2b"))
        .unwrap();
    assert_eq!(a.deadwood(), 6 + 7 + 10 + 3 + 3 + 1 + 2);
    let a = Solver::new(&rules48())
        .analyze(&cards("7o 8o 9o 3c 3e 1b 2b"))
        .unwrap();
    assert_eq!(a.deadwood(), 9);
}

#[test]
fn no_wrap_from_rey_to_as() {
    let solver = Solver::new(&ChinchonRules::default());
    let a = solver.analyze(&cards("11o 12o 1o 2c 3e 4b 5b")).unwrap();
    assert_eq!(a.deadwood(), 11 + 12 + 1 + 2 + 3 + 4 + 5);
    let a = Solver::new(&rules48())
        .analyze(&cards("12o 1o 2o"))
        .unwrap();
    assert_eq!(a.deadwood(), 15);
    // A joker does not wrap either: after the rey it goes below the caballo.
    let a = Solver::new(&with_jokers(1))
        .analyze(&cards("11o 12o J"))
        .unwrap();
    assert_eq!(a.deadwood(), 0);
    assert_eq!(a.melds()[0].to_string(), "J 11o 12o");
}

#[test]
fn a_card_usable_in_a_group_or_a_run_goes_where_it_saves_most() {
    let solver = Solver::new(&ChinchonRules::default());
    // 5o fits 5o 5c 5e and 3o 4o 5o; only one of them can have it.
    let a = solver.analyze(&cards("3o 4o 5o 5c 5e 12b 11b")).unwrap();
    assert_eq!(
        a.deadwood(),
        3 + 4 + 12 + 11,
        "in the group it leaves 3+4 loose, not 5+5"
    );
    let a = solver.analyze(&cards("3o 4o 5o 6o 5c 5e 1b")).unwrap();
    assert_eq!(
        a.deadwood(),
        5 + 5 + 1,
        "in the run it keeps 3o 4o 6o in a meld"
    );
    let a = solver.analyze(&cards("3o 4o 5o 5c 5e 5b 1b")).unwrap();
    assert_eq!(
        a.deadwood(),
        1,
        "in the run, the other three 5s still a group"
    );
    assert_eq!(
        a.close(),
        Some(Close::Normal {
            card: c("1b"),
            points: 1
        })
    );
}

#[test]
fn two_runs_in_one_suit() {
    let solver = Solver::new(&ChinchonRules::default());
    let a = solver.analyze(&cards("1o 2o 3o 5o 6o 7o 12b")).unwrap();
    assert_eq!(a.deadwood(), 12);
    assert_eq!(a.melds().len(), 2);
    let seven = cards("1o 2o 3o 5o 6o 7o 1b");
    assert_eq!(
        solver.analyze(&seven).unwrap().close(),
        Some(Close::Normal {
            card: c("1b"),
            points: 1
        })
    );
    // One suit, seven cards, two escaleras: menos diez, not chinchón.
    let seven = cards("1o 2o 3o 5o 6o 7o 10o");
    assert_eq!(
        solver.analyze(&seven).unwrap().close(),
        Some(Close::MenosDiez)
    );
}

#[test]
fn a_four_group_against_a_three_group_and_a_run() {
    let solver = Solver::new(&ChinchonRules::default());
    // 4o 4c 4e 4b, or 4c 4e 4b with 2o 3o 4o.
    let a = solver.analyze(&cards("4o 4c 4e 4b 2o 3o 12c")).unwrap();
    assert_eq!(a.deadwood(), 12, "the 4o goes to the run");
    assert_eq!(a.melds().len(), 2);
    let a = solver.analyze(&cards("4o 4c 4e 4b 2o 11c 12c")).unwrap();
    assert_eq!(a.deadwood(), 2 + 11 + 12, "all four 4s together");
}

#[test]
fn closing_kinds() {
    let solver = Solver::new(&ChinchonRules::default());
    let close = |s: &str| solver.analyze(&cards(s)).unwrap().close();
    assert_eq!(close("1c 2c 3c 4c 5c 6c 7c"), Some(Close::Chinchon));
    assert_eq!(close("5c 6c 7c 10c 11c 12c 4c"), Some(Close::Chinchon));
    assert_eq!(close("11c 11o 11e 7c 7o 7e 7b"), Some(Close::MenosDiez));
    assert_eq!(
        close("11c 11o 11e 7c 7o 7e 1b"),
        Some(Close::Normal {
            card: c("1b"),
            points: 1
        }),
        "the source's example: three caballos, three 7s and the as de bastos"
    );
    assert_eq!(close("11c 11o 11e 7c 7o 7e 4b"), None, "4 is more than 3");
    let four = Solver::new(&ChinchonRules {
        close_limit: 4,
        ..ChinchonRules::default()
    });
    assert!(four
        .analyze(&cards("11c 11o 11e 7c 7o 7e 4b"))
        .unwrap()
        .can_close());
    // Two loose cards worth 3 between them are not a close: all but one must be in melds.
    assert_eq!(close("11c 11o 11e 7c 7o 1e 2b"), None);
}

#[test]
fn jokers_stand_for_one_card_per_meld() {
    let solver = Solver::new(&with_jokers(2));
    let a = solver.analyze(&cards("3o J 5o 7c 7e J 12b")).unwrap();
    assert_eq!(a.deadwood(), 12, "3o J 5o and 7c 7e J");
    let a = solver.analyze(&cards("3o J J 10c 11e 12b 1b")).unwrap();
    assert_eq!(
        a.deadwood(),
        3 + 50 + 50 + 10 + 11 + 12 + 1,
        "two jokers never make a meld with one card"
    );
    assert_eq!(
        solver.analyze(&cards("3o J J")).unwrap().deadwood(),
        103,
        "at most one joker per meld"
    );
    // A chinchón may hold its joker (see the module's doc).
    assert_eq!(
        solver
            .analyze(&cards("1o 2o J 4o 5o 6o 7o"))
            .unwrap()
            .close(),
        Some(Close::Chinchon)
    );
    let quarter = Solver::new(&ChinchonRules {
        jokers: 1,
        joker_penalty: 25,
        ..ChinchonRules::default()
    });
    assert_eq!(quarter.analyze(&cards("J 1o")).unwrap().deadwood(), 26);
}

#[test]
fn two_decks_put_copies_in_one_hand() {
    let solver = Solver::new(&ChinchonRules::default());
    // 5o twice: one in 5o 5c 5e, the other in 3o 4o 5o.
    let a = solver.analyze(&cards("5o 5o 5c 5e 3o 4o 1b")).unwrap();
    assert_eq!(a.deadwood(), 1);
    assert!(a.can_close());
    // Two copies are no escalera of their own.
    assert_eq!(solver.analyze(&cards("5o 5o 6o")).unwrap().deadwood(), 16);
}

#[test]
fn eight_cards_give_every_discard_and_the_best() {
    let solver = Solver::new(&ChinchonRules::default());
    let eight = cards("1o 2o 3o 7c 7e 7b 12o 2c");
    let a = solver.analyze(&eight).unwrap();
    assert_eq!(a.discards().len(), 8);
    let best = a.best_discard().unwrap();
    assert_eq!(best.card, c("12o"));
    assert_eq!(
        best.close,
        Some(Close::Normal {
            card: c("2c"),
            points: 2
        })
    );
    let two_c = a.discards().iter().find(|d| d.card == c("2c")).unwrap();
    assert_eq!(two_c.deadwood, 12);
    assert_eq!(two_c.close, None);
    // Menos diez beats a normal close; chinchón beats both.
    let a = solver.analyze(&cards("1o 2o 3o 4o 5o 6o 7o 1c")).unwrap();
    assert_eq!(a.best_discard().unwrap().card, c("1c"));
    assert!(a.chinchon());
    assert!(solver
        .analyze(&cards("1o 2o 3o 4o 5o 6o 7o 1c 1e"))
        .is_err());
}

#[test]
fn figure_values_change_deadwood() {
    let ten = Solver::new(&ChinchonRules {
        figures: FigureValues::Ten,
        ..ChinchonRules::default()
    });
    assert_eq!(ten.analyze(&cards("10o 11c 12e")).unwrap().deadwood(), 30);
    let low = Solver::new(&ChinchonRules {
        figures: FigureValues::EightNineTen,
        ..ChinchonRules::default()
    });
    assert_eq!(low.analyze(&cards("10o 11c 12e")).unwrap().deadwood(), 27);
}

#[test]
fn laying_off_extends_groups_and_escaleras() {
    let solver = Solver::new(&with_jokers(1));
    let run = solver.meld(&cards("5o 6o 7o"));
    assert!(solver.fits(&run, c("4o")));
    assert!(solver.fits(&run, c("10o")), "7 is followed by the sota");
    assert!(!solver.fits(&run, c("8o")));
    assert!(!solver.fits(&run, c("4c")));
    assert_eq!(
        solver.laid(&run, c("10o")).unwrap().to_string(),
        "5o 6o 7o 10o"
    );
    assert_eq!(
        solver.laid(&run, Card::JOKER).unwrap().to_string(),
        "5o 6o 7o J"
    );
    let top = solver.meld(&cards("10b 11b 12b"));
    assert!(!solver.fits(&top, c("1b")), "no wrap");
    assert_eq!(
        solver.laid(&top, Card::JOKER).unwrap().to_string(),
        "J 10b 11b 12b"
    );
    let group = solver.meld(&cards("7c 7e 7b"));
    assert!(solver.fits(&group, c("7o")));
    let four = solver.laid(&group, c("7o")).unwrap();
    assert!(!solver.fits(&four, c("7o")), "a group holds four at most");
    let with_joker = solver.meld(&cards("7c 7e J"));
    assert!(!solver.fits(&with_joker, Card::JOKER));
    assert!(solver.fits(&with_joker, c("7b")));
}
