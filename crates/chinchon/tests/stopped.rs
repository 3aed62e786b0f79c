//! A game stopped at a tournament's time limit: of the players still in, the fewest
//! points is ahead, and the places follow the points; a game over is its own result.

use rand::Rng;
use tapete_cards::rng_from_seed;
use tapete_chinchon::{ChinchonGame, ChinchonRules};
use tapete_table::Game;

#[test]
fn stopped_the_fewest_points_of_those_still_in_is_ahead() {
    let mut checked = 0;
    for seed in 0..120u64 {
        let seats = 2 + (seed % 3) as usize;
        let mut g = ChinchonGame::new(&ChinchonRules::default(), seats, seed).unwrap();
        let mut rng = rng_from_seed(seed + 11);
        let steps = rng.gen_range(0..400);
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
        let inside: Vec<usize> = (0..seats).filter(|&s| !v.out[s]).collect();
        let best = inside.iter().map(|&s| v.scores[s]).min().unwrap();
        let expect: Vec<usize> = inside
            .iter()
            .copied()
            .filter(|&s| v.scores[s] == best)
            .collect();
        assert_eq!(o.winners, expect, "seed {seed}: {o:?}");
        for s in 0..seats {
            assert_eq!(o.places[s] == 1, expect.contains(&s), "seed {seed}: {o:?}");
        }
        assert!(o.summary.contains("time limit"));
        checked += 1;
    }
    assert!(checked > 50, "{checked} games stopped under way");
}
