//! The rules of `docs/rules/tikki.md`, case by case: the deal, tricks and their order, the
//! refill, leftover cards, pile scoring, the dealer moving, games of N rounds and to a
//! target, the retreat round, and every refused action changing nothing.

use tapete_table::{Game, Seat};
use tapete_tikki::TikkiCards;
use tapete_tikki::{Action, Card, Cards, Event, Kind, Phase, TikkiGame, TikkiRules};

fn cards(t: &str) -> Cards {
    t.split_whitespace().map(|c| c.parse().unwrap()).collect()
}

fn stock(t: &str) -> Vec<Card> {
    // Written top first; the stock is drawn from the end.
    let mut v: Vec<Card> = t.split_whitespace().map(|c| c.parse().unwrap()).collect();
    v.reverse();
    v
}

fn act(g: &mut TikkiGame, seat: Seat, text: &str) -> Vec<Event> {
    g.apply(seat, &text.parse().unwrap())
        .unwrap_or_else(|e| panic!("seat {seat} `{text}`: {e}"))
}

fn refused(g: &mut TikkiGame, seat: Seat, action: Action) -> String {
    let before = g.clone();
    let e = g.apply(seat, &action).unwrap_err().to_string();
    assert_eq!(*g, before, "refusing `{action}` changed the game");
    e
}

#[test]
fn a_deal_gives_seven_each_from_the_dealers_left_who_leads() {
    for seats in 2..=5 {
        for seed in 0..20 {
            let g = TikkiGame::new(&TikkiRules::default(), seats, seed).unwrap();
            for s in 0..seats {
                assert_eq!(g.hand(s).len(), 7);
            }
            assert_eq!(g.stock().len(), 52 - 7 * seats);
            assert_eq!(g.to_act().seats(), [(g.dealer() + 1) % seats]);
            let mut all = g.all_cards();
            all.sort();
            all.dedup();
            assert_eq!(all.len(), 52);
        }
    }
    // The first dealer is drawn by lot: every seat deals first for some seed.
    let firsts: std::collections::BTreeSet<Seat> = (0..40)
        .map(|seed| {
            TikkiGame::new(&TikkiRules::default(), 4, seed)
                .unwrap()
                .dealer()
        })
        .collect();
    assert_eq!(firsts.len(), 4);
    let g = TikkiGame::new(&TikkiRules::default(), 3, 5).unwrap();
    assert_eq!(
        g.deal_event(),
        Event::RoundDealt {
            round: 1,
            dealer: g.dealer(),
            leader: (g.dealer() + 1) % 3,
            stock: 31
        }
    );
}

#[test]
fn the_best_combination_takes_the_trick_and_others_see_only_counts() {
    let mut g = TikkiGame::arranged(
        &TikkiRules::default(),
        2,
        vec![
            cards("3S 3H 4H 4D 5D 9C 10C"),
            cards("6S 6H 1C 2C 8D 12S 13S"),
            cards("7S 7H 7D 11S 11H 2H 1D"),
        ],
        stock("5S 5H 5C 6C 6D 9S 9H 9D 10S 10H"),
    )
    .unwrap();
    // Dealer 2: seat 0 leads.
    assert_eq!(g.to_act().seats(), [0]);
    let ev = act(&mut g, 0, "lay 3S 3H 4H 4D 5D");
    assert_eq!(ev, [Event::Laid { seat: 0, count: 5 }]);
    let v1 = g.view(1);
    assert_eq!(v1.laid_counts, [5, 0, 0]);
    assert!(v1.hand.intersection(cards("3S 4H")).is_empty());
    assert!(!serde_json::to_string(&v1).unwrap().contains("4H"));
    act(&mut g, 1, "lay 6S 6H");
    let ev = act(&mut g, 2, "lay 11S");
    let Event::Revealed { trick } = &ev[1] else {
        panic!("{ev:?}")
    };
    // 4D–5D (2-card straight flush) beats the pair of sixes and the single.
    assert_eq!(trick.winner, 0);
    assert_eq!(trick.best[0].unwrap().kind, Kind::StraightFlush2);
    assert_eq!(trick.best[0].unwrap().cards, cards("4D 5D"));
    assert_eq!(trick.best[1].unwrap().kind, Kind::Pair);
    assert_eq!(g.pile(0), cards("3S 3H 4H 4D 5D 6S 6H 11S"));
    // Refill from the dealer's left (seat 0), one card at a time, skipping full hands:
    // seat 0 needs 5, seat 1 needs 2, seat 2 needs 1.
    assert_eq!(
        ev[2],
        Event::Refilled {
            drawn: vec![5, 2, 1],
            stock: 2
        }
    );
    // Order: 0,1,2 (5S 5H 5C), 0,1 (6C 6D), 0 (9S), 0 (9H), 0 (9D).
    assert_eq!(g.hand(0), cards("9C 10C 5S 6C 9S 9H 9D"));
    assert_eq!(g.hand(1), cards("1C 2C 8D 12S 13S 5H 6D"));
    assert_eq!(g.hand(2), cards("7S 7H 7D 11H 2H 1D 5C"));
    // The winner leads the next trick.
    assert_eq!(g.to_act().seats(), [0]);
    assert_eq!(g.view(2).tricks.len(), 1);
    assert_eq!(g.view(2).piles[0], g.pile(0));
}

#[test]
fn leftover_cards_go_to_the_last_holder_and_the_round_is_scored() {
    let rules = TikkiRules {
        rounds: 1,
        ..TikkiRules::default()
    };
    let mut g = TikkiGame::arranged(
        &rules,
        1,
        vec![cards("2S 2H"), cards("13S 3C 4C 5C")],
        Vec::new(),
    )
    .unwrap();
    // Dealer 1: seat 0 leads with both its cards; the pair of twos beats 13S, so seat 0
    // takes the trick and has no cards left; seat 1 alone holds cards: they go to its pile.
    act(&mut g, 0, "lay 2S 2H");
    let ev = act(&mut g, 1, "lay 13S");
    assert!(ev.contains(&Event::Leftover {
        seat: 1,
        cards: cards("3C 4C 5C")
    }));
    // Piles: seat 0 has 2S 2H 13S (5 + 1), seat 1 has 3C 4C 5C (1 + 1 + 1).
    assert!(ev.contains(&Event::RoundScored {
        round: 1,
        points: vec![6, 3],
        scores: vec![6, 3]
    }));
    assert_eq!(g.phase(), Phase::Over);
    assert_eq!(g.winners(), [0]);
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.winners, o.scores, o.places),
        (vec![0], vec![6, 3], vec![1, 2])
    );
}

#[test]
fn a_winner_without_cards_passes_the_lead_to_its_left() {
    let mut g = TikkiGame::arranged(
        &TikkiRules::default(),
        2,
        vec![cards("13S"), cards("1C 2H"), cards("1D 3H")],
        Vec::new(),
    )
    .unwrap();
    act(&mut g, 0, "lay 13S");
    act(&mut g, 1, "lay 1C");
    act(&mut g, 2, "lay 1D");
    // Seat 0 won but holds nothing: seat 1 leads; seat 0 sits the trick out.
    assert_eq!(g.to_act().seats(), [1]);
    assert_eq!(g.view(1).in_trick, [false, true, true]);
    act(&mut g, 1, "lay 2H");
    let ev = act(&mut g, 2, "lay 3H");
    assert!(ev.iter().any(|e| matches!(e, Event::RoundScored { .. })));
}

#[test]
fn piles_score_by_rank_groups() {
    let p = |t: &str| cards(t).pile_points();
    assert_eq!(p("1S 1H 1D 1C 2S 2H 2D 3S 3H 4C"), 20 + 10 + 5 + 1);
}

fn play_random(g: &mut TikkiGame, seed: u64) {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    while let [seat] = g.to_act().seats()[..] {
        let legal = g.legal_actions(seat);
        let a = legal[rng.gen_range(0..legal.len())];
        g.apply(seat, &a).unwrap();
    }
}

#[test]
fn the_deal_passes_left_and_a_game_lasts_its_rounds() {
    for seats in 2..=5 {
        // Default: one round per player, each dealing once.
        let mut g = TikkiGame::new(&TikkiRules::default(), seats, 9).unwrap();
        let first = g.dealer();
        play_random(&mut g, 1);
        let dealers: Vec<Seat> = g.history().iter().map(|r| r.dealer).collect();
        let expect: Vec<Seat> = (0..seats).map(|k| (first + k) % seats).collect();
        assert_eq!(dealers, expect);
        let total: Vec<u32> = (0..seats)
            .map(|s| g.history().iter().map(|r| r.points[s]).sum())
            .collect();
        assert_eq!(g.scores(), total);
        let o = g.outcome().unwrap();
        let top = *g.scores().iter().max().unwrap();
        assert!(o.winners.iter().all(|&w| g.scores()[w] == top));
    }
    let rules = TikkiRules {
        rounds: 3,
        ..TikkiRules::default()
    };
    let mut g = TikkiGame::new(&rules, 4, 2).unwrap();
    play_random(&mut g, 2);
    assert_eq!(g.history().len(), 3);
}

#[test]
fn a_game_to_a_target_ends_with_the_round_that_reaches_it() {
    let rules = TikkiRules {
        target: 60,
        rounds: 1,
        ..TikkiRules::default()
    };
    for seed in 0..10 {
        let mut g = TikkiGame::new(&rules, 3, seed).unwrap();
        play_random(&mut g, seed);
        let n = g.history().len();
        let after = |k: usize| -> Vec<u32> {
            (0..3)
                .map(|s| g.history()[..k].iter().map(|r| r.points[s]).sum())
                .collect()
        };
        assert!(after(n).iter().any(|&p| p >= 60));
        assert!(after(n - 1).iter().all(|&p| p < 60), "it ended late");
    }
}

#[test]
fn shared_wins_share_first_place() {
    let rules = TikkiRules {
        rounds: 1,
        ..TikkiRules::default()
    };
    let mut g = TikkiGame::arranged(
        &rules,
        2,
        vec![cards("2S"), cards("3S"), cards("4S")],
        Vec::new(),
    )
    .unwrap();
    act(&mut g, 0, "lay 2S");
    act(&mut g, 1, "lay 3S");
    act(&mut g, 2, "lay 4S");
    // Seat 2 takes all three: 3 points, the others 0. Now a level table:
    assert_eq!(g.scores(), [0, 0, 3]);
    let mut g =
        TikkiGame::arranged(&rules, 1, vec![cards("2S 5S"), cards("3S 4C")], Vec::new()).unwrap();
    act(&mut g, 0, "lay 2S");
    act(&mut g, 1, "lay 3S");
    // Seat 1 took 2S 3S and leads: 4C against 5S, seat 0 takes it.
    act(&mut g, 1, "lay 4C");
    act(&mut g, 0, "lay 5S");
    assert_eq!(g.scores(), [2, 2]);
    let o = g.outcome().unwrap();
    assert_eq!((o.winners, o.places), (vec![0, 1], vec![1, 1]));
    assert!(o.summary.contains("share the win"));
}

#[test]
fn the_retreat_round_takes_back_at_most_half_and_revealed_cards_stay() {
    let rules = TikkiRules {
        retreat: true,
        ..TikkiRules::default()
    };
    let mut g = TikkiGame::arranged(
        &rules,
        1,
        vec![
            cards("2S 3S 4S 9H 9D 12C 1C"),
            cards("7S 7H 7D 8C 10C 11D 13H"),
        ],
        stock("5H 5D"),
    )
    .unwrap();
    act(&mut g, 0, "lay 2S 3S 4S 9H 9D");
    act(&mut g, 1, "lay 8C");
    // Seat 1 laid one card: nothing to take back, so only seat 0 is asked.
    assert_eq!(g.phase(), Phase::Retreat);
    assert_eq!(g.to_act().seats(), [0]);
    let legal = g.legal_actions(0);
    assert_eq!(legal.len(), 1 + 5 * 4);
    assert_eq!(legal[0], Action::Keep);
    let ev = act(&mut g, 0, "retreat 9H reveal 9D");
    assert_eq!(
        ev,
        [Event::Retreated {
            seat: 0,
            revealed: "9D".parse().unwrap()
        }]
    );
    // The revealed card is public at once; the one taken back is not.
    let v1 = g.view(1);
    assert_eq!(v1.revealed[0], cards("9D"));
    assert_eq!((v1.laid_counts[0], v1.retreated[0]), (4, 1));
    assert!(g.hand(0).contains("9H".parse().unwrap()));
    // 9D cannot come back now: it is face up.
    let e = refused(
        &mut g,
        0,
        Action::Retreat {
            back: "9D".parse().unwrap(),
            reveal: "2S".parse().unwrap(),
        },
    );
    assert!(e.contains("9D is not among your face-down cards"), "{e}");
    act(&mut g, 0, "retreat 4S reveal 3S");
    // Two of five taken back; one face-down card left, so the pass moves on: reveal.
    assert!(g.view(1).tricks.len() == 1);
    let t = &g.view(1).tricks[0];
    assert_eq!(t.laid[0], cards("2S 3S 9D"));
    assert_eq!(t.retreated, [2, 0]);
    // 2S–3S, a 2-card straight flush, beats 8C.
    assert_eq!(t.winner, 0);
    assert_eq!(g.pile(0), cards("2S 3S 9D 8C"));
    assert!(
        cards("4S 9H").is_subset(g.hand(0)),
        "the cards taken back are in the hand"
    );
}

#[test]
fn at_most_half_can_ever_be_withdrawn() {
    let rules = TikkiRules {
        retreat: true,
        ..TikkiRules::default()
    };
    use rand::{Rng, SeedableRng};
    for seed in 0..40 {
        let mut g = TikkiGame::new(&rules, 3, seed).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut laid_first = vec![0usize; 3];
        while let [seat] = g.to_act().seats()[..] {
            let legal = g.legal_actions(seat);
            // Prefer retreats, to test the limit.
            let a = legal
                .iter()
                .rev()
                .find(|a| matches!(a, Action::Retreat { .. }) && rng.gen_bool(0.9))
                .copied()
                .unwrap_or(legal[rng.gen_range(0..legal.len())]);
            if let Action::Lay(c) = a {
                laid_first[seat] = c.len();
            }
            for ev in g.apply(seat, &a).unwrap() {
                if let Event::Revealed { trick } = ev {
                    for (s, &first) in laid_first.iter().enumerate() {
                        assert!(2 * trick.retreated[s] <= first, "{trick:?}");
                        assert_eq!(trick.laid[s].len() + trick.retreated[s], first);
                    }
                    laid_first = vec![0; 3];
                }
            }
        }
    }
}

#[test]
fn every_refused_action_names_the_problem_and_changes_nothing() {
    let rules = TikkiRules {
        retreat: true,
        ..TikkiRules::default()
    };
    let mut g = TikkiGame::arranged(
        &rules,
        1,
        vec![cards("2S 3S 4S"), cards("7S 7H 7D")],
        Vec::new(),
    )
    .unwrap();
    let c = |t: &str| t.parse::<Card>().unwrap();
    assert_eq!(
        refused(&mut g, 1, "lay 7S".parse().unwrap()),
        "it is seat 0's turn"
    );
    assert_eq!(
        refused(&mut g, 7, "lay 7S".parse().unwrap()),
        "there is no seat 7 at this table"
    );
    assert_eq!(
        refused(&mut g, 0, Action::Lay(Cards::EMPTY)),
        "lay at least one card"
    );
    assert_eq!(
        refused(&mut g, 0, "lay 2S 7S".parse().unwrap()),
        "7S is not in your hand"
    );
    assert!(refused(&mut g, 0, Action::Keep).contains("no retreat round now"));
    act(&mut g, 0, "lay 2S 3S 4S");
    act(&mut g, 1, "lay 7S 7H");
    assert_eq!(g.phase(), Phase::Retreat);
    assert!(refused(&mut g, 0, "lay 2S".parse().unwrap()).contains("this is the retreat round"));
    let same = Action::Retreat {
        back: c("2S"),
        reveal: c("2S"),
    };
    assert!(refused(&mut g, 0, same).contains("must differ"));
    let not_laid = Action::Retreat {
        back: c("7S"),
        reveal: c("2S"),
    };
    assert!(refused(&mut g, 0, not_laid).contains("7S is not among"));
    act(&mut g, 0, "keep");
    act(&mut g, 1, "keep");
    // 2S 3S 4S (3-card straight flush) takes 7S 7H; seat 1 alone holds 7D: its pile.
    assert_eq!(g.history()[0].piles, [cards("2S 3S 4S 7S 7H"), cards("7D")]);
    assert_eq!(g.phase(), Phase::Lay, "a new round was dealt");
    assert_eq!(g.pile(1), Cards::EMPTY);
    assert_eq!(g.round(), 2);
    assert_eq!(g.dealer(), 0);
    assert_eq!(
        g.scores(),
        [3 + 5, 1],
        "singles 2S 3S 4S, the pair 7S 7H; 7D"
    );
}

#[test]
fn the_trick_that_ends_a_round_stays_in_its_result() {
    let rules = TikkiRules {
        rounds: 2,
        ..TikkiRules::default()
    };
    let mut g = TikkiGame::arranged(
        &rules,
        1,
        vec![cards("2S 2H"), cards("13S 12S")],
        Vec::new(),
    )
    .unwrap();
    act(&mut g, 0, "lay 2S");
    act(&mut g, 1, "lay 13S");
    let first = g.view(0).tricks[0].clone();
    act(&mut g, 1, "lay 12S");
    let ev = act(&mut g, 0, "lay 2H");
    let last = ev
        .iter()
        .find_map(|e| match e {
            Event::Revealed { trick } => Some(trick.clone()),
            _ => None,
        })
        .expect("the last lay reveals the trick");
    assert_ne!(last, first);
    // The next round is dealt in the same step: its tricks are empty, the result keeps
    // the round's last reveal for every seat and the spectators.
    assert_eq!(g.round(), 2);
    for v in [g.view(0), g.view(1), g.spectator_view()] {
        assert!(v.tricks.is_empty());
        assert_eq!(v.history[0].last_trick.as_ref(), Some(&last));
    }
    assert_eq!(last.winner, 1, "12S beats 2H");
}
