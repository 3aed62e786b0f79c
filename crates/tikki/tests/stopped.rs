//! A game stopped at a tournament's time limit: the most points is ahead, and the places
//! follow the points; a game over is its own result.

use rand::Rng;
use tapete_cards::rng_from_seed;
use tapete_table::Game;
use tapete_tikki::{TikkiGame, TikkiRules};

#[test]
fn stopped_the_most_points_is_ahead() {
    let mut checked = 0;
    for seed in 0..120u64 {
        let seats = 2 + (seed % 3) as usize;
        let mut g = TikkiGame::new(&TikkiRules::default(), seats, seed).unwrap();
        let mut rng = rng_from_seed(seed + 3);
        let steps = rng.gen_range(0..40);
        for _ in 0..steps {
            let Some(&seat) = g.to_act().seats().first() else {
                break;
            };
            let legal = g.legal_actions(seat);
            let a = legal[rng.gen_range(0..legal.len())];
            g.apply(seat, &a).unwrap();
        }
        let o = g.standing_now();
        if let Some(end) = g.outcome() {
            assert_eq!(o, end);
            continue;
        }
        let v = g.spectator_view();
        let best = v.scores.iter().copied().max().unwrap();
        let expect: Vec<usize> = (0..seats).filter(|&s| v.scores[s] == best).collect();
        assert_eq!(o.winners, expect, "seed {seed}: {o:?}");
        for s in 0..seats {
            assert_eq!(o.places[s] == 1, expect.contains(&s), "seed {seed}: {o:?}");
        }
        checked += 1;
    }
    assert!(checked > 50, "{checked} games stopped under way");
}
