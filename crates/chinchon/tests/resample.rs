//! Resampling a seat's view: the game built shows that seat the same view, keeps what
//! every player is known to hold, and deals the unseen cards differently each time.

use rand::Rng;
use tapete_cards::rng_from_seed;
use tapete_chinchon::Resample;
use tapete_chinchon::{Action, ChinchonGame, ChinchonRules, Hand, Phase, ResampleError};
use tapete_table::Game;

/// A game some random steps in (taking from the pile often, so that holdings are known).
fn midgame(seed: u64, seats: usize, rules: &ChinchonRules) -> ChinchonGame {
    let mut g = ChinchonGame::new(rules, seats, seed).unwrap();
    let mut rng = rng_from_seed(seed + 100);
    let steps = rng.gen_range(0..120);
    for _ in 0..steps {
        let Some(&seat) = g.to_act().seats().first() else {
            break;
        };
        let legal = g.legal_actions(seat);
        let a = if legal.contains(&Action::Tomo) && rng.gen_bool(0.6) {
            Action::Tomo
        } else {
            legal[rng.gen_range(0..legal.len())]
        };
        g.apply(seat, &a).unwrap();
    }
    g
}

#[test]
fn a_resampled_game_shows_the_seat_the_same_view() {
    let mut rng = rng_from_seed(1);
    let rules = [
        ChinchonRules::default(),
        ChinchonRules {
            jokers: 2,
            deck: tapete_chinchon::DeckSize::FortyEight,
            ..ChinchonRules::default()
        },
    ];
    let mut differ = 0;
    let mut checked = 0;
    for seed in 0..200u64 {
        let seats = 2 + (seed % 7) as usize;
        let g = midgame(seed, seats, &rules[(seed % 2) as usize]);
        if g.phase() == Phase::Over {
            continue;
        }
        for seat in 0..seats {
            let view = g.view(seat);
            let r = ChinchonGame::resample(&view, &mut rng).unwrap();
            assert_eq!(r.view(seat), view, "seed {seed} seat {seat}");
            assert_eq!(r.legal_actions(seat), g.legal_actions(seat));
            for other in 0..seats {
                assert!(
                    r.hand(other).contains_all(&view.holds[other]),
                    "seat {other} keeps the cards it is known to hold"
                );
                assert_eq!(r.hand(other).len(), g.hand(other).len());
            }
            if (0..seats).any(|o| o != seat && r.hand(o) != g.hand(o)) {
                differ += 1;
            }
            checked += 1;
        }
    }
    assert!(checked > 500);
    assert!(
        differ * 10 > checked * 9,
        "unseen cards are dealt anew: {differ}/{checked}"
    );
}

#[test]
fn spectators_finished_games_and_broken_views_are_refused() {
    let mut rng = rng_from_seed(2);
    let g = ChinchonGame::new(&ChinchonRules::default(), 3, 5).unwrap();
    assert_eq!(
        ChinchonGame::resample(&g.spectator_view(), &mut rng),
        Err(ResampleError::Spectator)
    );
    let mut view = g.view(0);
    view.stock += 1;
    assert!(matches!(
        ChinchonGame::resample(&view, &mut rng),
        Err(ResampleError::Inconsistent(_))
    ));
    let mut view = g.view(0);
    view.hand = "1o 1o 2o 3o 4o 5o 6o".parse::<Hand>().unwrap();
    assert!(matches!(
        ChinchonGame::resample(&view, &mut rng),
        Err(ResampleError::Inconsistent(_))
    ));
    let mut over = g.view(0);
    over.phase = Phase::Over;
    assert_eq!(
        ChinchonGame::resample(&over, &mut rng),
        Err(ResampleError::Over)
    );
}
