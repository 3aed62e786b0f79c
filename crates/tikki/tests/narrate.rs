//! Narration: every event of random games is told, in plain English; the reveal names
//! each combination and the tikki's winner.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tapete_table::Game;
use tapete_tikki::{Event, Narrator, TikkiGame, TikkiRules};

#[test]
fn every_event_is_told() {
    let rules = TikkiRules {
        retreat: true,
        ..TikkiRules::default()
    };
    let mut g = TikkiGame::new(&rules, 3, 4).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let you = Narrator::new(Some(0));
    let all = Narrator::new(None);
    let mut told = Vec::new();
    told.extend(all.lines(&g.deal_event()));
    while let [seat] = g.to_act().seats()[..] {
        let legal = g.legal_actions(seat);
        let a = legal[rng.gen_range(0..legal.len())];
        for e in g.apply(seat, &a).unwrap() {
            let lines = all.lines(&e);
            assert!(
                !lines.is_empty() && lines.iter().all(|l| !l.is_empty()),
                "{e:?}"
            );
            assert!(!you.lines(&e).is_empty());
            if let Event::Revealed { trick } = &e {
                assert!(lines.last().unwrap().contains("the tikki"));
                assert_eq!(lines.len(), 1 + trick.best.iter().flatten().count());
            }
            told.extend(lines);
        }
    }
    let text = told.join("\n");
    assert!(text.starts_with("round 1: seat"));
    assert!(text.contains("lays") && text.contains("takes the tikki"));
    assert!(text.contains("game over: "));
    assert!(!text.contains("you "), "spectators are not spoken to");
}

#[test]
fn a_seat_is_spoken_to() {
    let you = Narrator::new(Some(2));
    let line = &you.lines(&Event::Retreated {
        seat: 2,
        revealed: "7C".parse().unwrap(),
    })[0];
    assert_eq!(line, "you take one card back, showing 7C");
    let over = &you.lines(&Event::GameOver {
        winners: vec![2],
        scores: vec![10, 3, 41],
    })[0];
    assert_eq!(over, "game over: you win with 41 points");
}
