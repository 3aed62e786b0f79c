//! The spec's rules, one named test each, on hands dealt by hand.

use rand::Rng;
use tapete_cards::chance::shuffle;
use tapete_cards::rng_from_seed;
use tapete_chinchon::events::{CloseState, Laid};
use tapete_chinchon::rules::{FigureValues, MeterCartas, Reenganche};
use tapete_chinchon::{
    Action, ActionError, Card, ChinchonGame, ChinchonRules, Close, Deal, Event, Hand, Phase,
};
use tapete_table::{Game, Outcome, ToAct};

fn c(s: &str) -> Card {
    s.parse().unwrap()
}

fn h(s: &str) -> Hand {
    s.parse().unwrap()
}

/// A game with these hands (seat by seat), muestra, first stock cards, scores and mano.
fn game(
    rules: ChinchonRules,
    hands: &[&str],
    muestra: &str,
    stock_top: &str,
    scores: &[i32],
    mano: usize,
) -> ChinchonGame {
    let deal = Deal {
        hands: hands.iter().map(|s| h(s)).collect(),
        muestra: c(muestra),
        stock_top: stock_top.split_whitespace().map(c).collect(),
        scores: scores.to_vec(),
        mano,
    };
    ChinchonGame::arranged(&rules, &deal, 1).unwrap()
}

fn no_meter() -> ChinchonRules {
    ChinchonRules {
        meter_cartas: MeterCartas::Off,
        ..ChinchonRules::default()
    }
}

fn act(g: &mut ChinchonGame, seat: usize, a: &str) -> Vec<Event> {
    let action: Action = a.parse().unwrap();
    g.apply(seat, &action)
        .unwrap_or_else(|e| panic!("seat {seat} `{a}`: {e}"))
}

fn refused(g: &mut ChinchonGame, seat: usize, a: &str) -> ActionError {
    let before = g.clone();
    let e = g.apply(seat, &a.parse().unwrap()).unwrap_err();
    assert_eq!(*g, before, "a refused `{a}` changed the game");
    e
}

fn scored(events: &[Event]) -> &tapete_chinchon::events::HandResult {
    events
        .iter()
        .find_map(|e| match e {
            Event::HandScored(r) => Some(r),
            _ => None,
        })
        .expect("the hand was counted")
}

#[test]
fn the_deal_gives_seven_each_one_at_a_time_from_the_mano() {
    let rules = ChinchonRules::default();
    let g = ChinchonGame::new(&rules, 3, 42).unwrap();
    let mut cards = rules.deck_for(3).cards();
    shuffle(&mut cards, &mut rng_from_seed(42));
    let mut expected = [Hand::EMPTY; 3];
    for _ in 0..7 {
        for hand in expected.iter_mut() {
            hand.add(cards.pop().unwrap()).unwrap();
        }
    }
    for (s, hand) in expected.iter().enumerate() {
        assert_eq!(g.hand(s), *hand, "seat {s}");
    }
    let muestra = cards.pop().unwrap();
    let v = g.spectator_view();
    assert_eq!(v.pile, vec![muestra], "the muestra starts the pile");
    assert_eq!(v.muestra, muestra);
    assert_eq!(g.stock(), cards.as_slice(), "the rest is the stock");
    assert_eq!(v.stock, 40 - 21 - 1);
    assert_eq!(
        (g.mano(), g.dealer()),
        (0, 2),
        "the mano is the dealer's right"
    );
    assert_eq!(g.to_act(), ToAct::Seats(vec![0]));
    assert!(g.at_boundary());
}

#[test]
fn the_deal_moves_right_each_hand() {
    let mut g = game(
        no_meter(),
        &["11c 11o 11e 7c 7o 7e 12b", "1o 2o 3o 5c 6e 10b 12o"],
        "4e",
        "1b",
        &[],
        0,
    );
    act(&mut g, 0, "robo");
    let events = act(&mut g, 0, "cierro 12b");
    match events.last() {
        Some(Event::HandDealt {
            hand: 2,
            dealer: 0,
            mano: 1,
            ..
        }) => {}
        other => panic!("expected hand 2 dealt by seat 0, mano 1: {other:?}"),
    }
    assert_eq!(g.to_act(), ToAct::Seats(vec![1]));
    assert_eq!(g.spectator_view().hand_number, 2);
    assert!(g.at_boundary(), "a new hand, nothing done yet");
}

#[test]
fn a_turn_is_a_draw_then_a_discard() {
    let mut g = game(
        ChinchonRules::default(),
        &["1o 2o 5c 6e 10b 12o 4b", "11c 11o 7c 7o 7e 2b 3b"],
        "4e",
        "12e",
        &[],
        0,
    );
    let events = act(&mut g, 0, "robo");
    assert_eq!(events, vec![Event::DrewStock { seat: 0 }], "no card named");
    assert!(g.hand(0).contains(c("12e")));
    assert_eq!(g.phase(), Phase::Discard);
    let legal = g.legal_actions(0);
    assert_eq!(legal.len(), 8, "eight discards, no close: {legal:?}");
    assert_eq!(
        act(&mut g, 0, "descarto 12o"),
        vec![Event::Discarded {
            seat: 0,
            card: c("12o")
        }]
    );
    assert_eq!(g.spectator_view().pile, vec![c("4e"), c("12o")]);
    assert_eq!(g.to_act(), ToAct::Seats(vec![1]));
    assert_eq!(
        act(&mut g, 1, "tomo"),
        vec![Event::TookPile {
            seat: 1,
            card: c("12o")
        }]
    );
    let v = g.view(0);
    assert_eq!(v.took[1], h("12o"), "a card taken from the pile is public");
    assert_eq!(v.holds[1], h("12o"));
    act(&mut g, 1, "descarto 12o");
    let v = g.view(0);
    assert!(v.holds[1].is_empty(), "discarded again: no longer held");
    assert_eq!(v.took[1], h("12o"));
    assert_eq!(v.discarded[1], h("12o"));
}

#[test]
fn illegal_actions_are_refused_with_a_reason_and_change_nothing() {
    let mut g = game(
        ChinchonRules::default(),
        &["1o 2o 5c 6e 10b 12o 4b", "11c 11o 7c 7o 7e 2b 3b"],
        "4e",
        "12e",
        &[],
        0,
    );
    assert_eq!(refused(&mut g, 0, "descarto 1o"), ActionError::MustDraw);
    assert_eq!(
        refused(&mut g, 1, "robo"),
        ActionError::NotYourTurn { seat: 1, turn: 0 }
    );
    assert_eq!(refused(&mut g, 0, "listo"), ActionError::NotLayingOff);
    assert_eq!(refused(&mut g, 5, "robo"), ActionError::NoSeat(5));
    act(&mut g, 0, "robo");
    assert_eq!(refused(&mut g, 0, "robo"), ActionError::AlreadyDrew);
    assert_eq!(refused(&mut g, 0, "tomo"), ActionError::AlreadyDrew);
    assert_eq!(
        refused(&mut g, 0, "descarto 7b"),
        ActionError::NotHeld(c("7b"))
    );
    let e = refused(&mut g, 0, "cierro 12e");
    assert_eq!(
        e,
        ActionError::NoClose {
            card: c("12e"),
            limit: 3
        }
    );
    assert!(e.to_string().contains("do not close"), "{e}");
}

#[test]
fn normal_close_the_sources_example() {
    // Three caballos, three 7s and the as de bastos: closing is allowed.
    let mut g = game(
        no_meter(),
        &["11c 11o 11e 7c 7o 7e 12b", "1o 2o 3o 5c 6e 10b 12o"],
        "4e",
        "1b",
        &[],
        0,
    );
    act(&mut g, 0, "robo");
    assert!(g.legal_actions(0).contains(&Action::Cierro(c("12b"))));
    let events = act(&mut g, 0, "cierro 12b");
    match &events[0] {
        Event::Closed {
            seat: 0,
            down,
            close,
            melds,
        } => {
            assert_eq!(*down, c("12b"));
            assert_eq!(
                *close,
                Close::Normal {
                    card: c("1b"),
                    points: 1
                }
            );
            assert_eq!(melds.len(), 2);
        }
        other => panic!("{other:?}"),
    }
    let r = scored(&events);
    assert_eq!(r.results[0].points, 1, "the closer scores its one card");
    assert_eq!(r.results[1].points, 5 + 6 + 10 + 12, "1o 2o 3o is a meld");
    assert_eq!(r.results[1].unmatched.len(), 4);
    assert_eq!(g.scores(), &[1, 33]);
    assert_eq!(g.view(1).last_hand.as_ref(), Some(r), "shown to all");
}

#[test]
fn a_close_over_the_limit_is_refused_and_the_limit_is_an_option() {
    let hands = ["11c 11o 11e 7c 7o 7e 12b", "1o 2o 3o 5c 6e 10b 12o"];
    let mut g = game(no_meter(), &hands, "4e", "4b", &[], 0);
    act(&mut g, 0, "robo");
    assert!(!g
        .legal_actions(0)
        .iter()
        .any(|a| matches!(a, Action::Cierro(_))));
    refused(&mut g, 0, "cierro 12b");
    let four = ChinchonRules {
        close_limit: 4,
        ..no_meter()
    };
    let mut g = game(four, &hands, "4e", "4b", &[], 0);
    act(&mut g, 0, "robo");
    act(&mut g, 0, "cierro 12b");
    assert_eq!(g.scores()[0], 4);
}

#[test]
fn menos_diez_scores_minus_ten() {
    let mut g = game(
        no_meter(),
        &["11c 11o 11e 7c 7o 7e 12b", "1o 2o 3o 5c 6e 10b 12o"],
        "4e",
        "7b",
        &[20, 0],
        0,
    );
    act(&mut g, 0, "robo");
    let events = act(&mut g, 0, "cierro 12b");
    assert!(matches!(
        events[0],
        Event::Closed {
            close: Close::MenosDiez,
            ..
        }
    ));
    assert_eq!(g.scores(), &[10, 33]);
}

#[test]
fn chinchon_wins_the_game_at_once() {
    let mut g = game(
        ChinchonRules::default(),
        &["1c 2c 3c 4c 5c 6c 12b", "1o 2o 3o 5e 6e 10b 12o"],
        "4e",
        "7c",
        &[90, 0],
        0,
    );
    act(&mut g, 0, "robo");
    let events = act(&mut g, 0, "cierro 12b");
    assert_eq!(
        events.last(),
        Some(&Event::GameOver {
            winners: vec![0],
            chinchon: true
        })
    );
    assert_eq!(g.to_act(), ToAct::Over);
    let o = g.outcome().unwrap();
    assert_eq!(o.winners, vec![0]);
    assert_eq!(o.places, vec![1, 2]);
    assert!(o.summary.contains("chinchón"), "{}", o.summary);
    assert_eq!(g.view(1).chinchon, Some(0));
}

#[test]
fn a_false_close_is_refused_unless_the_table_allows_it() {
    let hands = ["11c 11o 11e 7c 7o 5e 12b", "1o 2o 3o 5c 6e 10b 12o"];
    let mut g = game(no_meter(), &hands, "4e", "1b 3c", &[], 1);
    act(&mut g, 1, "robo");
    act(&mut g, 1, "descarto 12o");
    act(&mut g, 0, "robo");
    refused(&mut g, 0, "cierro 12b");
    let lax = ChinchonRules {
        allow_false_close: true,
        ..no_meter()
    };
    let mut g = game(lax, &hands, "4e", "1b 3c", &[10, 0], 1);
    act(&mut g, 1, "robo");
    act(&mut g, 1, "descarto 12o");
    act(&mut g, 0, "robo");
    assert!(g.legal_actions(0).contains(&Action::Cierro(c("12b"))));
    let events = act(&mut g, 0, "cierro 12b");
    assert!(matches!(
        events[0],
        Event::FalseClose {
            seat: 0,
            penalty: 50,
            ..
        }
    ));
    assert_eq!(g.scores(), &[60, 0], "50 points, nobody else counts");
    match events.last() {
        Some(Event::HandDealt {
            hand: 2, mano: 1, ..
        }) => {}
        other => panic!("the same hand dealt again: {other:?}"),
    }
    assert_eq!(g.view(1).last_hand.unwrap().close, None);
}

#[test]
fn meter_cartas_lays_cards_onto_the_closers_melds_in_turn() {
    let mut g = game(
        ChinchonRules::default(),
        &[
            "1o 2o 3o 7c 7e 7b 12b",
            "4o 7o 10c 11c 12c 2e 3b",
            "5o 6o 1e 4e 5e 6e 12o",
        ],
        "2c",
        "1c",
        &[],
        0,
    );
    act(&mut g, 0, "robo");
    act(&mut g, 0, "cierro 12b");
    assert_eq!(g.phase(), Phase::LayOff);
    assert_eq!(g.to_act(), ToAct::Seats(vec![1]), "from the closer's right");
    let mut legal = g.legal_actions(1);
    legal.sort();
    assert_eq!(
        legal,
        vec![Action::Meto(c("4o")), Action::Meto(c("7o")), Action::Listo]
    );
    assert_eq!(refused(&mut g, 1, "meto 10c"), ActionError::NoFit(c("10c")));
    assert_eq!(refused(&mut g, 1, "robo"), ActionError::LayingOff);
    assert_eq!(
        act(&mut g, 1, "meto 4o"),
        vec![Event::LaidOff(Laid {
            seat: 1,
            card: c("4o"),
            meld: 0
        })]
    );
    // Seat 1 keeps the 7o: it says listo.
    act(&mut g, 1, "listo");
    assert_eq!(g.to_act(), ToAct::Seats(vec![2]));
    // 5o fits after 4o, then 6o after 5o; with nothing else to lay, the hand is counted.
    act(&mut g, 2, "meto 5o");
    let events = act(&mut g, 2, "meto 6o");
    let r = scored(&events);
    assert_eq!(r.results[0].melds[0].to_string(), "1o 2o 3o 4o 5o 6o");
    assert_eq!(
        r.results[1].points,
        7 + 2 + 3,
        "10c 11c 12c, and the 7o kept"
    );
    assert_eq!(r.results[1].laid, vec![c("4o")]);
    assert_eq!(
        r.results[2].points,
        1 + 12,
        "4e 5e 6e; the laid cards do not count"
    );
    assert_eq!(g.scores(), &[1, 12, 13]);
}

#[test]
fn the_close_is_public_while_the_others_lay_cards() {
    let mut g = game(
        ChinchonRules::default(),
        &["1o 2o 3o 7c 7e 7b 12b", "4o 7o 10c 11c 12c 2e 3b"],
        "2c",
        "1c",
        &[],
        0,
    );
    act(&mut g, 0, "robo");
    act(&mut g, 0, "cierro 12b");
    let v = g.view(1);
    let close: &CloseState = v.close.as_ref().unwrap();
    assert_eq!(close.closer, 0);
    assert_eq!(close.down, c("12b"));
    assert_eq!(close.cards, h("1o 2o 3o 7c 7e 7b 1c"));
    assert!(!g.at_boundary());
}

#[test]
fn meter_cartas_options_not_after_menos_diez_and_off() {
    let hands = ["1o 2o 3o 7c 7e 7b 12b", "5o 7o 10c 11c 12c 2e 3b"];
    let rules = |meter| ChinchonRules {
        meter_cartas: meter,
        ..ChinchonRules::default()
    };
    // Menos diez (drawing 4o): no laying with the option, laying without it.
    let mut g = game(
        rules(MeterCartas::NotAfterMenosDiez),
        &hands,
        "2c",
        "4o",
        &[],
        0,
    );
    act(&mut g, 0, "robo");
    let events = act(&mut g, 0, "cierro 12b");
    assert!(matches!(events[1], Event::HandScored(_)), "{events:?}");
    let mut g = game(rules(MeterCartas::On), &hands, "2c", "4o", &[], 0);
    act(&mut g, 0, "robo");
    act(&mut g, 0, "cierro 12b");
    assert_eq!(g.phase(), Phase::LayOff);
    // A normal close (drawing 1c): laying allowed with the option, never when off.
    let mut g = game(
        rules(MeterCartas::NotAfterMenosDiez),
        &hands,
        "2c",
        "1c",
        &[],
        0,
    );
    act(&mut g, 0, "robo");
    act(&mut g, 0, "cierro 12b");
    assert_eq!(g.phase(), Phase::LayOff);
    let mut g = game(rules(MeterCartas::Off), &hands, "2c", "1c", &[], 0);
    act(&mut g, 0, "robo");
    let events = act(&mut g, 0, "cierro 12b");
    assert_eq!(scored(&events).results[1].points, 5 + 7 + 2 + 3);
}

#[test]
fn jokers_left_unmatched_count_their_penalty() {
    let rules = |penalty| ChinchonRules {
        jokers: 1,
        joker_penalty: penalty,
        ..no_meter()
    };
    // No two of seat 1's cards are of one number or close in one suit: the joker has no
    // meld to stand in.
    let hands = ["11c 11o 11e 7c 7o 7e 12b", "1o 4c 6e 10b 12e J 3b"];
    for penalty in [50, 25] {
        let mut g = game(rules(penalty), &hands, "4e", "1b", &[], 0);
        act(&mut g, 0, "robo");
        act(&mut g, 0, "cierro 12b");
        assert_eq!(g.scores()[1], 1 + 4 + 6 + 10 + 12 + 3 + penalty as i32);
    }
    // In a meld the joker counts nothing.
    let hands = ["11c 11o 11e 7c 7o 7e 12b", "1o 2o 3o 5c 6c J 12o"];
    let mut g = game(rules(50), &hands, "4e", "1b", &[], 0);
    act(&mut g, 0, "robo");
    act(&mut g, 0, "cierro 12b");
    assert_eq!(g.scores()[1], 12, "5c 6c J");
}

#[test]
fn figure_values_are_an_option() {
    let hands = ["11c 11o 11e 7c 7o 7e 12b", "1o 2o 3o 5c 6e 10b 12o"];
    for (figures, points) in [
        (FigureValues::Number, 5 + 6 + 10 + 12),
        (FigureValues::Ten, 5 + 6 + 10 + 10),
        (FigureValues::EightNineTen, 5 + 6 + 8 + 10),
    ] {
        let rules = ChinchonRules {
            figures,
            ..no_meter()
        };
        let mut g = game(rules, &hands, "4e", "1b", &[], 0);
        act(&mut g, 0, "robo");
        act(&mut g, 0, "cierro 12b");
        assert_eq!(g.scores()[1], points, "{figures:?}");
    }
}

#[test]
fn the_stock_is_rebuilt_from_the_pile_but_its_top() {
    let mut g = ChinchonGame::new(&ChinchonRules::default(), 2, 9).unwrap();
    assert_eq!(g.spectator_view().stock, 25);
    let mut last = None;
    for turn in 0..25 {
        let seat = g.to_act().seats()[0];
        let before = g.hand(seat);
        act(&mut g, seat, "robo");
        let drawn = g.hand(seat).minus(&before).unwrap().iter().next().unwrap();
        let pile_before = g.spectator_view().pile;
        let events = act(&mut g, seat, &format!("descarto {drawn}"));
        last = Some(drawn);
        if turn < 24 {
            assert_eq!(events.len(), 1);
        } else {
            assert_eq!(events[1], Event::StockRebuilt { cards: 25 });
            let v = g.spectator_view();
            assert_eq!(v.pile, vec![drawn], "the top stays on the pile");
            assert_eq!(v.stock, 25);
            let mut expected = pile_before.clone();
            expected.sort();
            let mut stock = g.stock().to_vec();
            stock.sort();
            assert_eq!(stock, expected, "the rest of the pile is the stock");
            assert_ne!(g.stock(), pile_before.as_slice(), "shuffled");
        }
    }
    assert_eq!(g.spectator_view().pile_top(), last);
    // Play goes on from the new stock.
    let seat = g.to_act().seats()[0];
    act(&mut g, seat, "robo");
    assert_eq!(g.spectator_view().stock, 24);
}

#[test]
fn a_player_past_the_target_is_out_and_the_last_left_wins() {
    // Seat 1 closes with menos diez; seat 0 counts 51 and passes 100.
    let mut g = game(
        no_meter(),
        &["10c 11e 12o 6b 7c 2e 3b", "1o 2o 3o 4o 5c 5e 5b"],
        "11o",
        "12b",
        &[95, 0],
        1,
    );
    act(&mut g, 1, "robo");
    let events = act(&mut g, 1, "cierro 12b");
    assert!(events.contains(&Event::Eliminated {
        seat: 0,
        score: 146
    }));
    assert_eq!(
        events.last(),
        Some(&Event::GameOver {
            winners: vec![1],
            chinchon: false
        })
    );
    let o: Outcome = g.outcome().unwrap();
    assert_eq!(o.winners, vec![1]);
    assert_eq!(o.scores, vec![146, -10]);
    assert_eq!(o.places, vec![2, 1]);
    assert!(g.view(0).out[0]);
}

#[test]
fn exactly_the_target_stays_in() {
    let mut g = game(
        no_meter(),
        &["10c 1e 2e 3e 4b 5b 6b", "1o 2o 3o 4o 5c 5e 12b"],
        "11o",
        "5o",
        &[90, 0],
        1,
    );
    act(&mut g, 1, "robo");
    let events = act(&mut g, 1, "cierro 12b");
    assert_eq!(g.scores(), &[100, -10]);
    assert!(!events.iter().any(|e| matches!(e, Event::Eliminated { .. })));
    assert!(matches!(
        events.last(),
        Some(Event::HandDealt { hand: 2, .. })
    ));
}

fn reenganche_game(mode: Reenganche) -> (ChinchonGame, Vec<Event>) {
    let rules = ChinchonRules {
        reenganche: mode,
        ..ChinchonRules::default()
    };
    let mut g = game(
        rules,
        &[
            "10c 11e 12o 6b 7c 2e 3b",
            "1o 2o 3o 4o 5c 5e 5b",
            "1c 2c 3c 4e 6e 7e 10b",
        ],
        "11o",
        "12b",
        &[95, 40, 60],
        1,
    );
    act(&mut g, 1, "robo");
    let events = act(&mut g, 1, "cierro 12b");
    (g, events)
}

#[test]
fn reenganche_re_enters_with_the_highest_remaining_score() {
    let (g, events) = reenganche_game(Reenganche::Highest);
    // Seat 0: 95 + 51 = 146 > 100; seat 1: 40 − 10 = 30; seat 2: 60 + 27 = 87.
    assert!(events.contains(&Event::Reenganche { seat: 0, score: 87 }));
    assert_eq!(g.scores(), &[87, 30, 87]);
    assert!(g.view(2).reentered[0]);
    assert!(!g.view(2).out[0]);
    let (g, events) = reenganche_game(Reenganche::SecondHighest);
    assert!(events.contains(&Event::Reenganche { seat: 0, score: 30 }));
    assert_eq!(g.scores()[0], 30);
    let (g, events) = reenganche_game(Reenganche::Off);
    assert!(events.contains(&Event::Eliminated {
        seat: 0,
        score: 146
    }));
    assert!(g.view(1).out[0]);
    assert_eq!(g.to_act().seats().len(), 1, "two players go on");
}

#[test]
fn reenganche_happens_once() {
    let (mut g, _) = reenganche_game(Reenganche::Highest);
    let mut rng = rng_from_seed(4);
    let mut again = 0;
    while let Some(&seat) = g.to_act().seats().first() {
        let legal = g.legal_actions(seat);
        let a = legal
            .iter()
            .find(|a| matches!(a, Action::Cierro(_)))
            .copied()
            .unwrap_or(legal[rng.gen_range(0..legal.len())]);
        for e in g.apply(seat, &a).unwrap() {
            match e {
                Event::Reenganche { seat: 0, .. } => again += 1,
                Event::Eliminated { seat: 0, score } => assert!(score > 100),
                _ => {}
            }
        }
    }
    assert_eq!(again, 0, "seat 0 re-entered already");
    let v = g.spectator_view();
    assert!(v.out[0] || v.winners.contains(&0));
}

#[test]
fn two_decks_from_five_players() {
    let rules = ChinchonRules::default();
    let g = ChinchonGame::new(&rules, 4, 3).unwrap();
    assert_eq!(g.deck().len(), 40);
    assert_eq!(g.spectator_view().decks, 1);
    let g = ChinchonGame::new(&rules, 5, 3).unwrap();
    assert_eq!(g.deck().len(), 80);
    assert_eq!(g.spectator_view().stock, 80 - 35 - 1);
    let later = ChinchonRules {
        two_decks_from: Some(7),
        deck: tapete_chinchon::DeckSize::FortyEight,
        ..rules
    };
    assert_eq!(ChinchonGame::new(&later, 6, 3).unwrap().deck().len(), 48);
    assert_eq!(ChinchonGame::new(&later, 7, 3).unwrap().deck().len(), 96);
    let never = ChinchonRules {
        two_decks_from: None,
        ..rules
    };
    let e = ChinchonGame::new(&never, 6, 3).unwrap_err();
    assert!(e.to_string().contains("44 cards"), "{e}");
}

#[test]
fn no_close_on_the_first_turn_when_the_table_says_so() {
    let rules = ChinchonRules {
        no_close_first_turn: true,
        ..no_meter()
    };
    let hands = ["11c 11o 11e 7c 7o 7e 12b", "1o 2o 3o 5c 6e 10b 12o"];
    let mut g = game(rules, &hands, "4e", "1b 4c 1e", &[], 0);
    act(&mut g, 0, "robo");
    assert!(!g
        .legal_actions(0)
        .iter()
        .any(|a| matches!(a, Action::Cierro(_))));
    assert_eq!(refused(&mut g, 0, "cierro 12b"), ActionError::FirstRound);
    act(&mut g, 0, "descarto 12b");
    act(&mut g, 1, "robo");
    act(&mut g, 1, "descarto 4c");
    // The first round is over: seat 0 still holds 1b and can close.
    act(&mut g, 0, "robo");
    assert!(g.legal_actions(0).contains(&Action::Cierro(c("1e"))));
    act(&mut g, 0, "cierro 1e");
    assert_eq!(g.scores()[0], 1);
}

#[test]
fn views_show_what_is_public_and_nothing_else() {
    let mut g = game(
        ChinchonRules::default(),
        &["1o 2o 5c 6e 10b 12o 4b", "11c 11o 7c 7o 7e 2b 3b"],
        "4e",
        "12e",
        &[7, 9],
        0,
    );
    act(&mut g, 0, "robo");
    let v = g.view(1);
    assert_eq!(v.seat, Some(1));
    assert_eq!(v.hand, h("11c 11o 7c 7o 7e 2b 3b"));
    assert_eq!(v.hand_sizes, vec![8, 7]);
    assert_eq!(v.scores, vec![7, 9]);
    assert_eq!(v.turn, Some(0));
    assert_eq!(v.phase, Phase::Discard);
    let json = serde_json::to_string(&v).unwrap();
    assert!(
        !json.contains("12e"),
        "the card seat 0 drew is not in seat 1's view"
    );
    assert!(!json.contains("10b"), "nor seat 0's cards");
    let spectator = g.spectator_view();
    assert!(spectator.hand.is_empty());
    let full = g.full_view();
    assert_eq!(full["hands"][0].as_array().unwrap().len(), 8);
    assert_eq!(full["stock_cards"].as_array().unwrap().len(), 24);
}

#[test]
fn the_target_is_an_option() {
    let hands = ["10c 11e 12o 6b 7c 2e 3b", "1o 2o 3o 4o 5c 5e 5b"];
    for (target, out) in [(100, false), (70, true)] {
        let rules = ChinchonRules {
            target,
            ..no_meter()
        };
        let mut g = game(rules, &hands, "11o", "12b", &[30, 0], 1);
        act(&mut g, 1, "robo");
        let events = act(&mut g, 1, "cierro 12b");
        assert_eq!(g.scores()[0], 81);
        assert_eq!(
            events.contains(&Event::Eliminated { seat: 0, score: 81 }),
            out,
            "target {target}"
        );
    }
}

#[test]
fn when_everybody_left_passes_the_target_the_fewest_points_win() {
    // Seat 1 closes with 3 points and passes 100 too, but seat 0 counts 52.
    let mut g = game(
        no_meter(),
        &["10c 11e 12o 6b 7c 2e 4b", "1o 2o 3o 5c 5e 5b 12b"],
        "11o",
        "3b",
        &[99, 99],
        1,
    );
    act(&mut g, 1, "robo");
    let events = act(&mut g, 1, "cierro 12b");
    assert_eq!(g.scores(), &[151, 102]);
    assert!(events.contains(&Event::Eliminated {
        seat: 0,
        score: 151
    }));
    let o = g.outcome().unwrap();
    assert_eq!(o.winners, vec![1]);
    assert_eq!(o.places, vec![2, 1]);
}

/// Golden: seed → first deal. If this changes, stored games would deal differently.
#[test]
fn seed_to_deal_is_pinned() {
    let g = ChinchonGame::new(&ChinchonRules::default(), 2, 7).unwrap();
    let dealt: Vec<String> = (0..2).map(|s| g.hand(s).to_string()).collect();
    let v = g.spectator_view();
    assert_eq!(
        (dealt, v.muestra.to_string(), g.stock().len()),
        (
            GOLDEN_7.map(String::from).to_vec(),
            GOLDEN_7_MUESTRA.to_string(),
            25
        )
    );
}

const GOLDEN_7: [&str; 2] = ["2o 3o 6o 1c 10e 2b 11b", "7o 11o 2c 3c 5c 6e 7e"];
const GOLDEN_7_MUESTRA: &str = "12b";
