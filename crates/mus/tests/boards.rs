//! A match of boards (duplicate): every table given one seed is dealt the same hands on
//! every board, whatever was played before; each board is one hand from 0–0; the match
//! ends after its boards on their net piedras; a record replays it; nobody's view tells
//! the boards to come.

use rand::Rng;
use tapete_cards::{rng_from_seed, CardSet};
use tapete_mus::bots::RandomMus;
use tapete_mus::events::Event;
use tapete_mus::{board_seed, MusGame, MusRules, Resample};
use tapete_table::{Bot, Game, Record};

fn rules(boards: u8) -> MusRules {
    MusRules {
        boards,
        ..MusRules::default()
    }
}

/// Plays a whole match of boards with random legal actions from `play_seed`; answers the
/// game, its record and the four hands dealt at the start of each board.
fn play(
    rules: &MusRules,
    seed: u64,
    play_seed: u64,
) -> (MusGame, Record<MusGame>, Vec<[CardSet; 4]>) {
    let mut g = MusGame::new(rules, 4, seed).expect("valid rules");
    let mut rec = Record::<MusGame>::new(rules.clone(), 4, seed);
    let mut rng = rng_from_seed(play_seed);
    let mut deals = vec![[0, 1, 2, 3].map(|s| g.cards_of(s))];
    let mut steps = 0;
    while g.outcome().is_none() {
        assert!(steps < 50_000, "a match of boards did not end");
        g.audit().expect("every card accounted for");
        let seats = g.to_act().seats().to_vec();
        let seat = seats[rng.gen_range(0..seats.len())];
        let legal = g.legal_actions(seat);
        let action = RandomMus.act(&g.view(seat), &legal, &mut rng);
        let events = g.apply(seat, &action).expect("a legal action");
        rec.actions.push((seat, action));
        steps += 1;
        if events
            .iter()
            .any(|e| matches!(e, Event::HandStarted { .. }))
        {
            deals.push([0, 1, 2, 3].map(|s| g.cards_of(s)));
        }
    }
    (g, rec, deals)
}

#[test]
fn tables_given_one_seed_are_dealt_the_same_boards_whatever_they_play() {
    for seed in 0..40u64 {
        let r = rules(4);
        let (_, _, deals_a) = play(&r, seed, 1000 + seed);
        let (_, _, deals_b) = play(&r, seed, 2000 + seed);
        assert_eq!(deals_a.len(), 4, "one hand a board");
        assert_eq!(
            deals_a, deals_b,
            "seed {seed}: two tables saw different boards"
        );
        // Board k is the first hand of a match of board_seed(seed, k), its mano moved k
        // seats on: the hand at position p sits at seat (k + p) % 4.
        for (k, deal) in deals_a.iter().enumerate() {
            let fresh = MusGame::new(&MusRules::default(), 4, board_seed(seed, k as u32)).unwrap();
            for p in 0..4 {
                assert_eq!(
                    deal[(k + p) % 4],
                    fresh.cards_of(p),
                    "seed {seed}, board {k}"
                );
            }
        }
    }
}

#[test]
fn a_match_of_boards_ends_on_its_net_piedras_and_replays() {
    let mut draws = 0;
    let mut won = [0; 2];
    for seed in 0..300u64 {
        let boards = 1 + (seed % 5) as u8;
        let r = rules(boards);
        let (g, rec, _) = play(&r, seed, seed.wrapping_mul(7) + 3);
        g.audit().unwrap();
        let view = g.view(0);
        let nets = g.board_nets().to_vec();
        assert_eq!(nets.len(), usize::from(boards));
        assert_eq!(view.board_nets, nets);
        assert_eq!(view.board, Some(u32::from(boards)));
        // A board's net is bounded by the target reached (and a little over it).
        for &n in &nets {
            assert!(n.abs() <= 40 + 6 * 2 + 40, "board net {n}");
        }
        let total: i64 = nets.iter().sum();
        assert_eq!(g.board_total(), total);
        let o = g.outcome().expect("over");
        assert_eq!(o.scores, vec![total, -total, total, -total]);
        assert_eq!(o.boards.len(), nets.len());
        for (row, &n) in o.boards.iter().zip(&nets) {
            assert_eq!(row, &vec![n, -n, n, -n]);
        }
        match total.signum() {
            1 => {
                assert_eq!(o.winners, vec![0, 2]);
                assert_eq!(o.places, vec![1, 2, 1, 2]);
                won[0] += 1;
            }
            -1 => {
                assert_eq!(o.winners, vec![1, 3]);
                won[1] += 1;
            }
            _ => {
                assert!(o.winners.is_empty());
                assert_eq!(o.places, vec![1, 1, 1, 1]);
                assert_eq!(view.winner, None);
                draws += 1;
            }
        }
        // The log ends with the last board and the match's end.
        let replayed = rec.replay().expect("the record replays");
        assert!(replayed == g, "seed {seed}: the replay differs");
        assert!(g.legal_actions(0).is_empty() && g.to_act().seats().is_empty());
    }
    assert!(
        won[0] > 50 && won[1] > 50,
        "both pairs win some: {won:?}, {draws} draws"
    );
}

#[test]
fn a_juego_won_on_a_board_counts_the_target_against_the_losers_piedras() {
    // Play until some board is won by a juego (an órdago or the target), and check its net.
    let mut seen = 0;
    for seed in 0..200u64 {
        let r = rules(2);
        let mut g = MusGame::new(&r, 4, seed).unwrap();
        let mut rng = rng_from_seed(seed + 77);
        while g.outcome().is_none() {
            let seats = g.to_act().seats().to_vec();
            let seat = seats[rng.gen_range(0..seats.len())];
            let legal = g.legal_actions(seat);
            let action = RandomMus.act(&g.view(seat), &legal, &mut rng);
            let events = g.apply(seat, &action).unwrap();
            let won = events.iter().find_map(|e| match e {
                Event::GameWon { pair, piedras, .. } => Some((*pair, *piedras)),
                _ => None,
            });
            if let Some((pair, piedras)) = won {
                let net = 40 - i64::from(piedras[1 - pair]);
                let expect = if pair == 0 { net } else { -net };
                let ended = events.iter().find_map(|e| match e {
                    Event::BoardEnded { net, .. } => Some(*net),
                    _ => None,
                });
                assert_eq!(ended, Some(expect), "seed {seed}");
                seen += 1;
            }
        }
    }
    assert!(
        seen > 10,
        "random play wins a juego on some boards ({seen})"
    );
}

/// Plays `g` on (passing where it can) until its board ends; answers the next board's deal.
fn next_board(g: &mut MusGame) -> [CardSet; 4] {
    for _ in 0..5_000 {
        let seat = g.to_act().seats()[0];
        let legal = g.legal_actions(seat);
        let action = legal
            .iter()
            .find(|a| {
                use tapete_mus::Action::*;
                matches!(a, NoHayMus | Paso | NoQuiero)
            })
            .cloned()
            .unwrap_or_else(|| legal[0].clone());
        let ev = g.apply(seat, &action).expect("a legal action");
        if ev.iter().any(|e| matches!(e, Event::BoardEnded { .. })) {
            return [0, 1, 2, 3].map(|s| g.cards_of(s));
        }
    }
    panic!("the board did not end");
}

#[test]
fn a_seats_view_does_not_tell_the_boards_to_come() {
    // A world resampled from a view deals the next board from a seed of its own: its next
    // deal is not the real one (were the table's seed in the view, it would be).
    for seed in 0..30u64 {
        let mut g = MusGame::new(&rules(3), 4, seed).unwrap();
        let mut rng = rng_from_seed(seed + 5);
        let mut world = MusGame::resample(&g.view(1), &mut rng).expect("a world");
        assert_eq!(world.view(1).board, Some(1));
        let real = next_board(&mut g);
        let imagined = next_board(&mut world);
        assert_eq!(world.view(1).board, Some(2));
        assert_ne!(real, imagined, "seed {seed}: a world knew the next board");
    }
}

#[test]
fn boards_are_bounded_and_have_no_senas() {
    assert!(MusGame::new(&rules(33), 4, 1).is_err());
    assert!(MusGame::new(&rules(32), 4, 1).is_ok());
    let with_senas = MusRules {
        senas: true,
        ..rules(4)
    };
    let err = MusGame::new(&with_senas, 4, 1).expect_err("refused");
    assert!(err.to_string().contains("señas"), "{err}");
}
