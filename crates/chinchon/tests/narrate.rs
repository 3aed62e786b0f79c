//! Narration: a worked hand told to a seat and to spectators, and every event of random
//! games told in at least one line that names no hidden card.

use rand::Rng;
use tapete_cards::rng_from_seed;
use tapete_chinchon::narrate::Narrator;
use tapete_chinchon::{Action, ChinchonGame, ChinchonRules, Deal, Event, Hand};
use tapete_table::Game;

fn h(s: &str) -> Hand {
    s.parse().unwrap()
}

#[test]
fn a_close_with_cards_laid_told_to_a_player_and_to_spectators() {
    let deal = Deal {
        hands: vec![
            h("1o 2o 3o 7c 7e 7b 12b"),
            h("4o 7o 10c 11c 12c 2e 3b"),
            h("5o 6o 1e 4e 5e 6e 12o"),
        ],
        muestra: "2c".parse().unwrap(),
        stock_top: vec!["1c".parse().unwrap()],
        scores: vec![],
        mano: 0,
    };
    let mut g = ChinchonGame::arranged(&ChinchonRules::default(), &deal, 1).unwrap();
    let mut you = Narrator::for_game(&g, Some(0));
    let mut all = Narrator::for_game(&g, None);
    assert_eq!(
        all.opening(&g)[0],
        format!("hand 1: seat 2 deals, seat 0 is mano; the muestra is 2c (18 cards in the stock)")
    );
    let mut told_you = Vec::new();
    let mut told_all = Vec::new();
    for (seat, a) in [
        (0, "robo"),
        (0, "cierro 12b"),
        (1, "meto 4o"),
        (1, "listo"),
        (2, "meto 5o"),
        (2, "meto 6o"),
    ] {
        for e in g.apply(seat, &a.parse::<Action>().unwrap()).unwrap() {
            told_you.extend(you.lines(&e));
            told_all.extend(all.lines(&e));
        }
    }
    assert_eq!(told_you[0], "you draw from the stock");
    assert_eq!(told_all[0], "seat 0 draws from the stock");
    assert_eq!(told_you[1], "you close with 1c left (1 point)");
    assert_eq!(told_all[1], "seat 0 closes with 1c left (1 point)");
    assert_eq!(
        told_all[2],
        "seat 0 shows 1o 2o 3o · 7c 7e 7b and puts 12b down"
    );
    assert_eq!(told_all[3], "seat 1 lays 4o on 1o 2o 3o (meter cartas)");
    assert_eq!(told_all[4], "seat 1 is done laying cards (listo)");
    assert_eq!(told_all[5], "seat 2 lays 5o on 1o 2o 3o 4o (meter cartas)");
    assert_eq!(
        told_all[6],
        "seat 2 lays 6o on 1o 2o 3o 4o 5o (meter cartas)"
    );
    assert_eq!(told_all[7], "hand 1 is counted:");
    assert_eq!(
        told_you[8],
        "  you: 1o 2o 3o 4o 5o 6o · 7c 7e 7b, 1c left: 1 point (total 1)"
    );
    assert_eq!(
        told_all[9],
        "  seat 1: 10c 11c 12c, 7o 2e 3b left, 4o laid: 12 points (total 12)"
    );
    assert!(told_all[11].starts_with("hand 2: seat 0 deals, seat 1 is mano"));
}

#[test]
fn endings_in_words() {
    let mut n = Narrator::new(&ChinchonRules::default(), Some(3));
    assert_eq!(
        n.lines(&Event::Eliminated {
            seat: 3,
            score: 104
        }),
        ["you are out (104 points)"]
    );
    let mut all = Narrator::new(&ChinchonRules::default(), None);
    assert_eq!(
        all.lines(&Event::Eliminated {
            seat: 3,
            score: 104
        }),
        ["seat 3 is out (104 points)"]
    );
    assert_eq!(
        all.lines(&Event::Reenganche { seat: 2, score: 87 }),
        ["seat 2 passes the target and re-enters (reenganche) with 87 points"]
    );
    assert_eq!(
        n.lines(&Event::GameOver {
            winners: vec![3],
            chinchon: true
        }),
        ["you win the game with a chinchón"]
    );
    assert_eq!(
        all.lines(&Event::GameOver {
            winners: vec![0, 2],
            chinchon: false
        }),
        ["seat 0 and seat 2 share the win"]
    );
    let menos_diez = Event::Closed {
        seat: 1,
        down: "12b".parse().unwrap(),
        close: tapete_chinchon::Close::MenosDiez,
        melds: vec![],
    };
    assert_eq!(all.lines(&menos_diez)[0], "seat 1 closes: menos diez (-10)");
}

#[test]
fn every_event_of_random_games_is_told_without_hidden_cards() {
    for seed in 0..40u64 {
        let seats = 2 + (seed % 7) as usize;
        let rules = ChinchonRules {
            jokers: (seed % 3) as u8,
            target: 50,
            ..ChinchonRules::default()
        };
        let mut g = ChinchonGame::new(&rules, seats, seed).unwrap();
        let mut rng = rng_from_seed(seed);
        let mut narrators: Vec<Narrator> = (0..seats)
            .map(|s| Narrator::for_game(&g, Some(s)))
            .chain([Narrator::for_game(&g, None)])
            .collect();
        for n in narrators.iter_mut() {
            assert!(!n.opening(&g).is_empty());
        }
        while let Some(&seat) = g.to_act().seats().first() {
            let legal = g.legal_actions(seat);
            let a = legal
                .iter()
                .find(|a| matches!(a, Action::Cierro(_)))
                .copied()
                .unwrap_or(legal[rng.gen_range(0..legal.len())]);
            for e in g.apply(seat, &a).unwrap() {
                for n in narrators.iter_mut() {
                    let lines = n.lines(&e);
                    assert!(!lines.is_empty(), "{e:?}");
                    if let Event::DrewStock { .. } = e {
                        assert!(
                            lines[0]
                                .split_whitespace()
                                .all(|w| w.parse::<tapete_chinchon::Card>().is_err()),
                            "{lines:?}"
                        );
                    }
                    assert_eq!(n.begins_hand(&e), matches!(e, Event::HandDealt { .. }));
                }
            }
        }
    }
}
