//! Every hand ends, and so every game: a hand nobody closes ends when its stock runs out
//! once more than the rules rebuild it, or when its turns are played, and is counted as if
//! another had closed (each player adds its cards in no meld).

use rand::Rng;
use tapete_cards::rng_from_seed;
use tapete_chinchon::{Action, ChinchonGame, ChinchonRules, Event, Hand, Phase};
use tapete_table::Game;

/// A player that never closes: it draws (from the stock, or the pile if `take`) and
/// throws back the card it drew, so its hand never changes.
fn stubborn(game: &ChinchonGame, take: bool, before: &mut Hand) -> Action {
    let s = game.turn();
    match game.phase() {
        Phase::Draw => {
            *before = game.hand(s);
            if take {
                Action::Tomo
            } else {
                Action::Robo
            }
        }
        Phase::Discard => {
            let now = game.hand(s);
            let drawn = now
                .iter()
                .find(|&c| now.count(c) > before.count(c))
                .expect("one card more than before the draw");
            Action::Descarto(drawn)
        }
        _ => Action::Listo,
    }
}

/// Plays `game` to its end with stubborn players (at most `cap` actions); returns the
/// actions played and the events.
fn play_stubborn(game: &mut ChinchonGame, take: bool, cap: usize) -> (usize, Vec<Event>) {
    let mut before = Hand::EMPTY;
    let mut all = Vec::new();
    let mut n = 0;
    while game.phase() != Phase::Over && n < cap {
        let a = stubborn(game, take, &mut before);
        all.extend(game.apply(game.turn(), &a).expect("a legal action"));
        n += 1;
    }
    (n, all)
}

#[test]
fn players_who_never_close_still_finish_the_game() {
    let rules = ChinchonRules::default();
    for take in [false, true] {
        for seats in [2, 3, 5, 8] {
            for seed in 0..4 {
                let mut g = ChinchonGame::new(&rules, seats, seed).unwrap();
                // Each hand lasts at most `hand_turns` turns of two actions.
                let per_hand = 2 * rules.hand_turns as usize;
                let (n, events) = play_stubborn(&mut g, take, 40 * per_hand);
                assert_eq!(
                    g.phase(),
                    Phase::Over,
                    "take {take}, {seats} seats, seed {seed}"
                );
                let hands = events
                    .iter()
                    .filter(|e| matches!(e, Event::HandScored(_)))
                    .count();
                assert!(n <= hands * per_hand, "{n} actions for {hands} hands");
                // No hand was closed: each ran out and was counted without a closer.
                let ran_out = events
                    .iter()
                    .filter(|e| matches!(e, Event::HandRanOut { .. }))
                    .count();
                assert_eq!(ran_out, hands);
                for e in &events {
                    if let Event::HandScored(r) = e {
                        assert_eq!((r.closer, r.down, r.close), (None, None, None));
                    }
                    if let Event::HandRanOut {
                        rebuilds,
                        stock_out,
                        turns,
                    } = e
                    {
                        if take {
                            // The pile changes hands forever: the turns end it.
                            assert_eq!((*stock_out, *turns), (false, rules.hand_turns as u32));
                        } else {
                            assert!(*stock_out);
                            assert_eq!(*rebuilds, rules.stock_rebuilds);
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn a_hand_that_runs_out_counts_every_players_cards_in_no_meld() {
    let rules = ChinchonRules {
        stock_rebuilds: 0,
        ..ChinchonRules::default()
    };
    let mut g = ChinchonGame::new(&rules, 3, 11).unwrap();
    let hands: Vec<Hand> = (0..3).map(|s| g.hand(s)).collect();
    let solver = *g.solver();
    let stock = g.stock().len();
    let mut before = Hand::EMPTY;
    let mut events = Vec::new();
    while !events.iter().any(|e| matches!(e, Event::HandScored(_))) {
        let a = stubborn(&g, false, &mut before);
        events.extend(g.apply(g.turn(), &a).unwrap());
    }
    // No rebuild: the hand ends at the discard after the stock's last card is drawn.
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::StockRebuilt { .. })));
    assert!(events.contains(&Event::HandRanOut {
        turns: stock as u32,
        rebuilds: 0,
        stock_out: true
    }));
    let expected: Vec<i32> = hands
        .iter()
        .map(|h| solver.analyze_hand(h).unwrap().deadwood() as i32)
        .collect();
    assert_eq!(g.scores(), expected.as_slice());
    assert_eq!(g.hand_number(), 2, "the next hand is dealt");
    assert_eq!(g.mano(), 1, "by the next player");
    let view = g.view(0);
    let last = view.last_hand.as_ref().unwrap();
    assert_eq!(last.closer, None);
    assert_eq!(view.sheet.last().unwrap().closer, None);
    assert_eq!(view.rebuilds, 0);
}

#[test]
fn the_stock_is_rebuilt_as_often_as_the_rules_say() {
    for rebuilds in [1, 3, 5] {
        let rules = ChinchonRules {
            stock_rebuilds: rebuilds,
            ..ChinchonRules::default()
        };
        let mut g = ChinchonGame::new(&rules, 2, 5).unwrap();
        let mut before = Hand::EMPTY;
        let mut seen = 0;
        loop {
            let a = stubborn(&g, false, &mut before);
            let events = g.apply(g.turn(), &a).unwrap();
            if events
                .iter()
                .any(|e| matches!(e, Event::StockRebuilt { .. }))
            {
                seen += 1;
                assert_eq!(g.view(0).rebuilds, seen);
            }
            if events.iter().any(|e| matches!(e, Event::HandScored(_))) {
                break;
            }
        }
        assert_eq!(seen, rebuilds);
    }
}

/// Random play (closing only now and then, so that many hands run out) always ends.
#[test]
fn random_play_always_ends() {
    for seed in 0..60u64 {
        let mut rng = rng_from_seed(seed);
        let seats = rng.gen_range(2..=8);
        let rules = ChinchonRules {
            stock_rebuilds: rng.gen_range(0..=3),
            hand_turns: rng.gen_range(50..=150),
            target: [30, 70, 100][rng.gen_range(0..3)],
            ..ChinchonRules::default()
        };
        let mut g = ChinchonGame::new(&rules, seats, seed).unwrap();
        let mut n = 0usize;
        let mut hands = 1;
        while g.phase() != Phase::Over {
            let s = g.turn();
            let legal = g.legal_actions(s);
            let closes: Vec<&Action> = legal
                .iter()
                .filter(|a| matches!(a, Action::Cierro(_)))
                .collect();
            let a = if !closes.is_empty() && rng.gen_bool(0.05) {
                *closes[0]
            } else {
                let plain: Vec<&Action> = legal
                    .iter()
                    .filter(|a| !matches!(a, Action::Cierro(_)))
                    .collect();
                *plain[rng.gen_range(0..plain.len())]
            };
            let events = g.apply(s, &a).unwrap();
            hands += events
                .iter()
                .filter(|e| matches!(e, Event::HandDealt { .. }))
                .count();
            n += 1;
            // A hand: its turns (a draw and a discard each) and the lay-offs after a
            // close, never more than the cards in play.
            let per_hand = 2 * rules.hand_turns as usize + 200;
            assert!(
                n <= hands * per_hand,
                "seed {seed}: {n} actions in {hands} hands"
            );
            assert!(hands < 1000, "seed {seed}: {hands} hands");
        }
    }
}
