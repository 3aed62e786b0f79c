//! A match stopped at a tournament's time limit: the pair with more vacas is ahead, then
//! more juegos in the vaca, then more piedras; in a match of boards the better net, the
//! board under way as it stands. Level is a draw; a match over is its own result.

use rand::Rng;
use tapete_cards::rng_from_seed;
use tapete_mus::bots::RandomMus;
use tapete_mus::events::Event;
use tapete_mus::{MusGame, MusRules};
use tapete_table::{Bot, Game};

fn ahead(key: [i64; 2]) -> Vec<usize> {
    match key[0].cmp(&key[1]) {
        std::cmp::Ordering::Greater => vec![0, 2],
        std::cmp::Ordering::Less => vec![1, 3],
        std::cmp::Ordering::Equal => Vec::new(),
    }
}

#[test]
fn stopped_the_pair_ahead_by_vacas_juegos_then_piedras_wins() {
    let mut juego_decided = 0;
    for seed in 0..200u64 {
        let rules = MusRules {
            juegos: 3,
            boards: if seed % 4 == 0 { 3 } else { 0 },
            ..MusRules::default()
        };
        let mut g = MusGame::new(&rules, 4, seed).unwrap();
        assert!(
            g.standing_now().winners.is_empty(),
            "level at the start: a draw"
        );
        let mut rng = rng_from_seed(seed + 9);
        let steps = rng.gen_range(1..600);
        for _ in 0..steps {
            let Some(&seat) = g.to_act().seats().first() else {
                break;
            };
            let legal = g.legal_actions(seat);
            let a = RandomMus.act(&g.view(seat), &legal, &mut rng);
            let ev = g.apply(seat, &a).unwrap();
            if ev.iter().any(|e| matches!(e, Event::GameWon { .. })) && rules.boards == 0 {
                juego_decided += 1;
            }
        }
        let o = g.standing_now();
        if let Some(end) = g.outcome() {
            assert_eq!(o, end);
            continue;
        }
        let s = g.scores();
        let expect = if rules.boards > 0 {
            let net = g.board_total() + i64::from(s.piedras[0]) - i64::from(s.piedras[1]);
            ahead([net, -net])
        } else {
            let k = |p: usize| (s.vacas[p], s.games[p], s.piedras[p]);
            match k(0).cmp(&k(1)) {
                std::cmp::Ordering::Greater => vec![0, 2],
                std::cmp::Ordering::Less => vec![1, 3],
                std::cmp::Ordering::Equal => Vec::new(),
            }
        };
        assert_eq!(o.winners, expect, "seed {seed}: {s:?} {o:?}");
        assert!(o.summary.contains("time limit"), "{o:?}");
        if expect.is_empty() {
            assert_eq!(o.places, vec![1; 4]);
        }
    }
    assert!(
        juego_decided > 20,
        "juegos were won on the way ({juego_decided})"
    );
}
