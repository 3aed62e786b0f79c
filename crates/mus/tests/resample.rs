//! A resampled state must show the seat the very view it was built from, keep the 40 cards,
//! respect every declaration heard, and play on to the end.

use rand::Rng;
use tapete_cards::rng_from_seed;
use tapete_mus::bots::RandomMus;
use tapete_mus::Resample;
use tapete_mus::{rules, Jugada, Mode, MusGame, MusRules};
use tapete_table::{Bot, Game};

#[test]
fn resampled_states_give_the_same_view() {
    let mut checked = 0;
    for seed in 0..150u64 {
        let rules = MusRules {
            mode: if seed % 3 == 0 {
                Mode::CuatroReyes
            } else {
                Mode::OchoReyes
            },
            juegos: 3,
            // Every fifth game is played as boards (which have no señas).
            senas: seed % 2 == 0 && seed % 5 != 0,
            boards: if seed % 5 == 0 { 3 } else { 0 },
            ..MusRules::default()
        };
        let mut g = MusGame::new(&rules, 4, seed).unwrap();
        let mut rng = rng_from_seed(seed + 1000);
        let mut bot = RandomMus;
        while g.outcome().is_none() {
            let seat = rng.gen_range(0..4);
            let view = g.view(seat);
            let r = MusGame::resample(&view, &mut rng).expect("a live view resamples");
            assert_eq!(r.view(seat), view, "seed {seed}");
            r.audit().unwrap();
            assert_eq!(r.to_act(), g.to_act());
            assert_eq!(r.legal_actions(seat), g.legal_actions(seat));
            for s in 0..4 {
                if let Some(j) = Jugada::from_set(r.cards_of(s), rules.mode) {
                    if let Some(d) = view.pares[s] {
                        assert_eq!(d, rules::pares(j).is_some());
                    }
                    if let Some(d) = view.juego[s] {
                        assert_eq!(d, rules::has_juego(j));
                    }
                }
            }
            checked += 1;
            let actor = g.to_act().seats()[0];
            let legal = g.legal_actions(actor);
            let a = bot.act(&g.view(actor), &legal, &mut rng);
            g.apply(actor, &a).unwrap();
        }
    }
    assert!(checked > 1000);
}

#[test]
fn a_resampled_game_plays_to_the_end() {
    let rules = MusRules::default();
    let mut g = MusGame::new(&rules, 4, 3).unwrap();
    let mut rng = rng_from_seed(4);
    for _ in 0..7 {
        let s = g.to_act().seats()[0];
        let legal = g.legal_actions(s);
        let a = RandomMus.act(&g.view(s), &legal, &mut rng);
        g.apply(s, &a).unwrap();
    }
    let mut r = MusGame::resample(&g.view(1), &mut rng).unwrap();
    let mut n = 0;
    while r.outcome().is_none() && n < 100_000 {
        let s = r.to_act().seats()[0];
        let legal = r.legal_actions(s);
        let a = RandomMus.act(&r.view(s), &legal, &mut rng);
        r.apply(s, &a).unwrap();
        r.audit().unwrap();
        n += 1;
    }
    assert!(r.outcome().is_some());
    assert!(MusGame::resample(&r.view(0), &mut rng).is_err(), "over");
    assert!(MusGame::resample(&g.spectator_view(), &mut rng).is_err());
}
