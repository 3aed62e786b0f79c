//! Tikki's review: it values from the seat's view only, labels a thrown-away winning
//! combination and not the right play, its equity table behaves as a chance to win, and a
//! whole game's review holds together for every seat.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use tapete_review::{Label, Settings};
use tapete_table::{Bot, Game, Record, Seat};
use tapete_tikki::bots::Basico;
use tapete_tikki::combo::{best, Kind};
use tapete_tikki::{Action, Cards, Phase, TikkiGame, TikkiRules};
use tapete_tikki_bots::review::{basico_lay, review, EquityTable};

/// A few worlds a decision: enough to tell a lost game from a won one, fast in tests.
fn quick(seed: u64) -> Settings {
    Settings {
        seed,
        min_worlds: 4,
        max_worlds: 8,
        target_se: 1.0,
        threads: 1,
    }
}

/// Plays `game` on with basico at every seat to the end, recording each action.
fn play_out(game: &mut TikkiGame, record: &mut Record<TikkiGame>) {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    while game.phase() != Phase::Over {
        let seat = game.to_act().seats()[0];
        let legal = game.legal_actions(seat);
        let a = Basico.act(&game.view(seat), &legal, &mut rng);
        game.apply(seat, &a).expect("basico plays legally");
        record.actions.push((seat, a));
    }
}

#[test]
fn the_rollout_players_lay_as_basico_does_from_its_view() {
    let mut lays = 0;
    for (seats, retreat, seed) in [(2, false, 1), (3, true, 2), (4, false, 3), (5, true, 4)] {
        let rules = TikkiRules {
            retreat,
            ..TikkiRules::default()
        };
        let mut game = TikkiGame::new(&rules, seats, seed).expect("a game");
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while game.phase() != Phase::Over {
            let seat = game.to_act().seats()[0];
            let view = game.view(seat);
            if game.phase() == Phase::Lay {
                assert_eq!(basico_lay(&game, seat), Basico::lay(&view), "{view:?}");
                lays += 1;
            }
            let legal = game.legal_actions(seat);
            let a = tapete_tikki::bots::RandomTikki.act(&view, &legal, &mut rng);
            game.apply(seat, &a).expect("legal");
        }
    }
    assert!(lays > 100, "{lays}");
}

#[test]
fn the_review_sees_only_the_seats_view() {
    // Two deals of the small deck (ace to 6) in which the last seat to lay in the first
    // trick — the dealer — holds the same seven cards, and the others and the stock differ.
    let rules = TikkiRules {
        top: 6,
        retreat: true,
        ..TikkiRules::default()
    };
    let mut seen: HashMap<(Seat, Cards), u64> = HashMap::new();
    let (a, b) = (0..50_000u64)
        .find_map(|seed| {
            let g = TikkiGame::new(&rules, 3, seed).expect("a game");
            let key = (g.dealer(), g.hand(g.dealer()));
            match seen.get(&key) {
                Some(&other) => Some((other, seed)),
                None => {
                    seen.insert(key, seed);
                    None
                }
            }
        })
        .expect("two deals alike for the dealer");
    // The others lay their lowest card; the dealer lays its three lowest, then keeps them
    // on the table in the retreat round (the others, with one card down, cannot retreat).
    let record = |seed: u64| {
        let mut g = TikkiGame::new(&rules, 3, seed).expect("a game");
        let mut rec = Record::<TikkiGame>::new(rules, 3, seed);
        let me = g.dealer();
        for _ in 0..2 {
            let s = g.to_act().seats()[0];
            let low = g.hand(s).iter().next().expect("a card");
            let lay = Action::Lay([low].into_iter().collect());
            g.apply(s, &lay).expect("legal");
            rec.actions.push((s, lay));
        }
        let lay = Action::Lay(g.hand(me).iter().take(3).collect());
        for a in [lay, Action::Keep] {
            assert_eq!(g.to_act().seats(), [me]);
            g.apply(me, &a).expect("legal");
            rec.actions.push((me, a));
        }
        (rec, me)
    };
    let (rec_a, me) = record(a);
    let (rec_b, _) = record(b);
    let deal = |seed| TikkiGame::new(&rules, 3, seed).expect("a game");
    let other = (me + 1) % 3;
    assert_eq!(deal(a).hand(me), deal(b).hand(me));
    assert_ne!(
        deal(a).hand(other),
        deal(b).hand(other),
        "the hidden cards differ"
    );
    let ra = review(&rec_a, me, &quick(5), &|_, _| {}).expect("a review");
    let rb = review(&rec_b, me, &quick(5), &|_, _| {}).expect("a review");
    assert_eq!(ra.decisions.len(), 2, "the lay and the retreat decision");
    assert_eq!(ra, rb);
}

/// A position at the end of a two-seat, one-round game where `seat` leads with the stock
/// empty (so it knows the other's hand: every unseen card), laying its best combination
/// wins the game and shedding its weakest other card loses it: the record up to there, and
/// both lays.
fn decisive_lead() -> (Record<TikkiGame>, TikkiGame, Action, Action) {
    let rules = TikkiRules {
        rounds: 1,
        ..TikkiRules::default()
    };
    let ends = |game: &TikkiGame, record: &Record<TikkiGame>, a: &Action| {
        let (mut g, mut r) = (game.clone(), record.clone());
        let seat = g.to_act().seats()[0];
        g.apply(seat, a).expect("legal");
        r.actions.push((seat, *a));
        play_out(&mut g, &mut r);
        g.winners() == [seat]
    };
    for seed in 0..500 {
        let mut game = TikkiGame::new(&rules, 2, seed).expect("a game");
        let mut record = Record::<TikkiGame>::new(rules, 2, seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while game.phase() != Phase::Over {
            let seat = game.to_act().seats()[0];
            let view = game.view(seat);
            let leads = view.laid_counts.iter().all(|&n| n == 0);
            if leads && view.stock == 0 && view.hand.len() >= 3 {
                let b = best(view.hand).expect("cards");
                let shed = view.hand.difference(b.cards).iter().next();
                if let (true, Some(shed)) = (b.cards.len() >= 2, shed) {
                    let (good, bad) = (
                        Action::Lay(b.cards),
                        Action::Lay([shed].into_iter().collect()),
                    );
                    if ends(&game, &record, &good) && !ends(&game, &record, &bad) {
                        return (record, game, good, bad);
                    }
                }
            }
            let legal = game.legal_actions(seat);
            let a = Basico.act(&view, &legal, &mut rng);
            game.apply(seat, &a).expect("legal");
            record.actions.push((seat, a));
        }
    }
    panic!("no decisive lead in 500 games");
}

#[test]
fn throwing_away_the_winning_combination_is_a_blunder_and_playing_it_is_good() {
    let (record, game, good, bad) = decisive_lead();
    let seat = game.to_act().seats()[0];
    let at = record.actions.len();
    let reviewed = |lay: Action| {
        let (mut g, mut r) = (game.clone(), record.clone());
        g.apply(seat, &lay).expect("legal");
        r.actions.push((seat, lay));
        play_out(&mut g, &mut r);
        let rev = review(&r, seat, &quick(9), &|_, _| {}).expect("a review");
        rev.decisions
            .into_iter()
            .find(|d| d.at == at)
            .expect("the lead is a decision")
    };
    let thrown = reviewed(bad);
    assert!(thrown.label >= Label::Mistake, "{thrown:?}");
    assert_eq!(thrown.played, bad.to_string());
    assert!(thrown.loss >= 20.0, "{thrown:?}");
    // The best lay keeps the combination: the reason says the play was weaker.
    let top: Action = thrown.best.parse().expect("an action");
    let reason = thrown.reason.clone().expect("a reason");
    if let Action::Lay(cards) = top {
        if best(cards).is_some_and(|b| b.kind > Kind::Single) {
            assert_eq!(reason.phrase.key, "review.tikki.weaker", "{reason:?}");
        }
    }
    let right = reviewed(good);
    assert_eq!(right.label, Label::Good, "{right:?}");
    assert!(right.loss < 5.0, "{right:?}");
    assert!(
        right.played_win() > 0.99,
        "the seat sees every card: {right:?}"
    );
}

#[test]
fn the_equity_table_is_a_chance_to_win() {
    for seats in 2..=5 {
        let table = EquityTable::of(&TikkiRules::default(), seats);
        let even = vec![40; seats];
        for rounds in 1..=3 {
            for seat in 0..seats {
                let w = table.win(&even, seat, rounds);
                assert!((w - 1.0 / seats as f64).abs() < 1e-9, "{seats} seats: {w}");
            }
        }
        let w = table.win_to_target(&even, 0, 100);
        assert!((w - 1.0 / seats as f64).abs() < 1e-9, "to 100: {w}");
        // Over: the scores decide, a tie shares.
        let mut scores: Vec<u32> = (0..seats as u32).map(|s| 10 * s).collect();
        assert_eq!(table.win(&scores, seats - 1, 0), 1.0);
        assert_eq!(table.win(&scores, 0, 0), 0.0);
        scores[0] = 10 * (seats as u32 - 1);
        assert_eq!(table.win(&scores, 0, 0), 0.5);
    }
    let table = EquityTable::of(&TikkiRules::default(), 3);
    for rounds in [1, 2, 3, 8] {
        // The chances of a table sum to one; swapping two seats' scores swaps their chances.
        let all: f64 = (0..3).map(|s| table.win(&[70, 40, 55], s, rounds)).sum();
        assert!((all - 1.0).abs() < 1e-9, "{all}");
        let (x, y) = (
            table.win(&[70, 40, 55], 1, rounds),
            table.win(&[40, 70, 55], 0, rounds),
        );
        assert!((x - y).abs() < 1e-12, "{x} {y}");
        // More points never lower a seat's chance, and a lead is worth more with fewer
        // rounds to go.
        let mut last = 0.0;
        for own in 0..=300 {
            let w = table.win(&[own, 100, 60], 0, rounds);
            assert!(w >= last - 1e-12, "{own} after {rounds}: {w} < {last}");
            last = w;
        }
        if rounds <= 3 {
            assert!(table.win(&[0, 100, 60], 0, rounds) < 0.2);
            assert!(table.win(&[300, 100, 60], 0, rounds) > 0.9);
        }
    }
    assert!(table.win(&[80, 40, 40], 0, 1) > table.win(&[80, 40, 40], 0, 3));
    // To a target: more points help too, and reaching it ends the game.
    let mut last = 0.0;
    for own in 0..100 {
        let w = table.win_to_target(&[own, 60, 30], 0, 100);
        assert!(w >= last - 1e-9, "{own}: {w} < {last}");
        last = w;
    }
    assert_eq!(table.win_to_target(&[100, 60, 30], 0, 100), 1.0);
    assert_eq!(table.win_to_target(&[100, 60, 30], 1, 100), 0.0);
}

#[test]
fn a_finished_game_is_worth_its_result() {
    let rules = TikkiRules {
        rounds: 1,
        ..TikkiRules::default()
    };
    let mut game = TikkiGame::new(&rules, 3, 3).expect("a game");
    let mut record = Record::<TikkiGame>::new(rules, 3, 3);
    let table = EquityTable::of(&rules, 3);
    let before: Vec<f64> = (0..3).map(|s| table.of_game(&game, s)).collect();
    assert!(before.iter().all(|w| (w - 1.0 / 3.0).abs() < 1e-9));
    play_out(&mut game, &mut record);
    let winners = game.winners().to_vec();
    for s in 0..3 {
        let w = table.of_game(&game, s);
        let share = if winners.contains(&s) {
            1.0 / winners.len() as f64
        } else {
            0.0
        };
        assert_eq!(w, share, "seat {s}, winners {winners:?}");
    }
}

#[test]
fn every_seat_of_a_whole_game_is_reviewed_and_its_hands_add_up() {
    let rules = TikkiRules {
        rounds: 2,
        retreat: true,
        ..TikkiRules::default()
    };
    let mut game = TikkiGame::new(&rules, 3, 21).expect("a game");
    let mut record = Record::<TikkiGame>::new(rules, 3, 21);
    // Random players, so that the retreat round has choices (basico retreats only from
    // cards shown).
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    while game.phase() != Phase::Over {
        let seat = game.to_act().seats()[0];
        let legal = game.legal_actions(seat);
        let a = tapete_tikki::bots::RandomTikki.act(&game.view(seat), &legal, &mut rng);
        game.apply(seat, &a).expect("legal");
        record.actions.push((seat, a));
    }
    let settings = Settings {
        min_worlds: 2,
        max_worlds: 2,
        ..quick(1)
    };
    let mut retreats = 0;
    for seat in 0..3 {
        let r = review(&record, seat, &settings, &|_, _| {}).expect("a review");
        assert_eq!(r.game, "tikki");
        assert!(!r.decisions.is_empty());
        for d in &r.decisions {
            let (s, a) = &record.actions[d.at];
            assert_eq!((*s, a.to_string()), (seat, d.played.clone()));
            assert!(d.options.len() > 1 && d.options.iter().any(|o| o.action == d.best));
            assert!(d.reason.is_some());
            retreats += usize::from(!d.played.starts_with("lay"));
        }
        assert_eq!(r.hands.len(), 2, "two rounds");
        for h in &r.hands {
            let change = 100.0 * (h.end - h.start);
            assert!((h.luck + h.skill - change).abs() < 0.02, "{h:?}");
        }
        let won = game.winners().contains(&seat);
        assert_eq!(r.result > 0.0, won, "{}", r.result);
    }
    assert!(retreats > 0, "the retreat round was reviewed too");
}
