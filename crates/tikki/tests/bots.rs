//! The computer players: they play whole games of every size,
//! and `basico` beats `random` clearly.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tapete_table::{Bot, Game};
use tapete_tikki::bots::{by_name, Basico, RandomTikki};
use tapete_tikki::{Cards, TikkiGame, TikkiRules};

#[test]
fn bots_by_name() {
    assert!(by_name("random").is_ok());
    assert!(by_name("Básico").is_ok());
    assert_eq!(
        by_name("maestro").err().unwrap(),
        "`maestro` is not a tikki player: choose random or basico"
    );
}

#[test]
fn basico_beats_random() {
    let rules = TikkiRules {
        retreat: true,
        ..TikkiRules::default()
    };
    let (mut basico_pts, mut random_pts) = (0i64, 0i64);
    for seed in 0..60u64 {
        let seats = 2 + (seed % 4) as usize;
        let mut bots: Vec<Box<dyn Bot<TikkiGame>>> = (0..seats)
            .map(|s| -> Box<dyn Bot<TikkiGame>> {
                if s == 0 {
                    Box::new(Basico)
                } else {
                    Box::new(RandomTikki)
                }
            })
            .collect();
        let mut game = TikkiGame::new(&rules, seats, seed).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while let [seat] = game.to_act().seats()[..] {
            let legal = game.legal_actions(seat);
            let a = bots[seat].act(&game.view(seat), &legal, &mut rng);
            game.apply(seat, &a).unwrap();
        }
        let o = game.outcome().unwrap();
        basico_pts += o.scores[0];
        random_pts += o.scores[1..].iter().sum::<i64>() / (seats as i64 - 1);
    }
    assert!(
        basico_pts > random_pts,
        "basico {basico_pts}, random {random_pts}"
    );
}

#[test]
fn basico_spends_a_pair_on_a_rich_trick_and_sheds_otherwise() {
    let cards = |t: &str| -> Cards { t.split_whitespace().map(|c| c.parse().unwrap()).collect() };
    let hands = vec![
        cards("2S 9H 9D 12C 4D 6S 13H"),
        cards("3S 3H 3D 8C 10C 11D 1H"),
        cards("5S 5H 5D 7C 7D 11S 1C"),
    ];
    let mut g = TikkiGame::arranged(&TikkiRules::default(), 1, hands, Vec::new()).unwrap();
    // Seat 2 leads (dealer 1); nothing on the table yet, two players to come, the stock is
    // empty: last cards, so it plays its three fives.
    let v = g.view(2);
    assert_eq!(Basico::lay(&v), cards("5S 5H 5D"));
    g.apply(2, &"lay 1C".parse().unwrap()).unwrap();
    let v = g.view(0);
    assert_eq!(
        Basico::lay(&v),
        cards("9H 9D"),
        "one card against it: a pair wins"
    );
}

#[test]
fn basico_reads_three_cards_as_a_combination_and_four_as_a_dump() {
    let cards = |t: &str| -> Cards { t.split_whitespace().map(|c| c.parse().unwrap()).collect() };
    let hands = vec![
        cards("2S 9H 9D 12C 4D 6S 13H"),
        cards("3S 3H 3D 8C 10C 11D 1H"),
        cards("5S 5H 6D 7C 8D 11S 1C"),
    ];
    let stock = cards("2H 2D 2C 4S 4H 4C").to_vec();
    let after = |lay: &str| {
        let mut g =
            TikkiGame::arranged(&TikkiRules::default(), 1, hands.clone(), stock.clone()).unwrap();
        g.apply(2, &format!("lay {lay}").parse().unwrap()).unwrap();
        Basico::lay(&g.view(0))
    };
    // Three cards may be three of a kind: the pair of nines waits, the lowest card goes.
    assert_eq!(after("5S 6D 7C"), cards("2S"));
    // Four or more cards laid at once are rarely a combination: the pair contests them.
    assert_eq!(after("5S 6D 7C 8D"), cards("9H 9D"));
    assert_eq!(after("5S 5H 6D 7C 8D 11S"), cards("9H 9D"));
}

#[test]
fn basico_answers_a_view_that_does_not_hold_together_without_a_panic() {
    let rules = TikkiRules {
        retreat: true,
        ..TikkiRules::default()
    };
    let g = TikkiGame::new(&rules, 3, 2).unwrap();
    let seat = g.to_act().seats()[0];
    let legal = g.legal_actions(seat);
    let mut off_table = g.view(seat);
    off_table.seat = Some(7);
    let mut short = g.view(seat);
    short.piles.clear();
    short.laid_counts.pop();
    short.revealed.clear();
    for view in [off_table, short] {
        let a = Basico.act(&view, &legal, &mut ChaCha8Rng::seed_from_u64(1));
        assert!(legal.contains(&a), "{a}");
        assert_eq!(Basico::retreat(&view), tapete_tikki::Action::Keep);
    }
}
