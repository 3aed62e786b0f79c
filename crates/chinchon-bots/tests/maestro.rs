//! maestro: its budget in its name, reproducible with a fixed number of rollouts, only
//! its view read, and a small duel against basico.

use crate::common::*;
use tapete_chinchon::Resample;
use tapete_chinchon::{Action, ChinchonGame, ChinchonRules, Phase};
use tapete_chinchon_bots::maestro::{
    from_params, Budget, Policy, DEFAULT_BUDGET, DEFAULT_ITERS, DEFAULT_MS,
};
use tapete_chinchon_bots::{by_name, Maestro};
use tapete_table::Game;

#[test]
fn its_budget_is_in_its_name() {
    // The default is the budget measured in the arena: 1024 rollouts, capped at a second.
    assert_eq!(
        from_params("").unwrap().budget,
        Budget::ItersWithin {
            iters: DEFAULT_ITERS,
            ms: DEFAULT_MS
        }
    );
    assert_eq!((DEFAULT_ITERS, DEFAULT_MS), (1024, 1000));
    assert_eq!(
        from_params("iters=64, ms=20").unwrap().budget,
        Budget::ItersWithin { iters: 64, ms: 20 }
    );
    assert_eq!(from_params("ms=50").unwrap().budget, Budget::Millis(50));
    assert_eq!(
        from_params(" iters = 300 ").unwrap().budget,
        Budget::Iters(300)
    );
    assert_eq!(
        from_params("ms=10000").unwrap().budget,
        Budget::Millis(10_000)
    );
    for name in ["maestro", "maestro:ms=1", "Maestro:iters=7"] {
        assert!(by_name(name).is_ok(), "{name}");
    }
}

#[test]
fn a_bad_budget_names_the_accepted_forms() {
    for bad in [
        "ms=0", "ms=10001", "ms=fast", "iters=0", "iters=-3", "depth=3", "200",
    ] {
        let e = from_params(bad).unwrap_err();
        assert!(
            e.contains("maestro:ms=N") && e.contains("maestro:iters=N"),
            "{bad}: {e}"
        );
        let e = by_name(&format!("maestro:{bad}")).err().unwrap();
        assert!(e.contains("maestro:ms=N"), "{bad}: {e}");
    }
    assert!(from_params("ms=0").unwrap_err().contains("from 1 to 10000"));
    for bad in [
        "ms=50,ms=9",
        "iters=5,iters=6",
        "keep=11",
        "keep=-1",
        "deals=0",
        "ms=5,x",
    ] {
        assert!(from_params(bad).is_err(), "{bad}");
    }
}

#[test]
fn search_settings_follow_the_budget() {
    let m = from_params("iters=300, keep=2.5, deals=1,policy=experto").unwrap();
    assert_eq!(m.budget, Budget::Iters(300));
    assert_eq!(m.keep, 2.5);
    assert_eq!(m.deals, 1);
    assert_eq!(m.policy, Policy::Experto);
    let d = from_params("").unwrap();
    assert_eq!(
        (d.budget, d.keep, d.deals, d.policy),
        (DEFAULT_BUDGET, 2.0, 48, Policy::Basico)
    );
    assert!(from_params("policy=maestro")
        .unwrap_err()
        .contains("experto or basico"));
}

#[test]
fn the_same_view_and_seed_give_the_same_choice() {
    // With a fixed number of rollouts the choice depends on the view and the rng only:
    // two deals resampled from seat 0's view (other hands, another stock) give the same
    // action for the same seed, at every decision of a game.
    let mut g = ChinchonGame::new(&ChinchonRules::default(), 2, 3).unwrap();
    let mut steps = 0;
    while g.phase() != Phase::Over && steps < 40 {
        let seat = g.to_act().seats()[0];
        let view = g.view(seat);
        let other = ChinchonGame::resample(&view, &mut rng(100 + steps)).unwrap();
        assert_eq!(other.view(seat), view);
        let a = decide(&mut Maestro::with_iters(24), &g, steps);
        assert_eq!(decide(&mut Maestro::with_iters(24), &other, steps), a);
        g.apply(seat, &a).unwrap();
        steps += 1;
    }
}

#[test]
fn searches_its_way_to_the_close_that_wins() {
    // Seat 0 can close with 2 points; seat 1 is at 80 with a hand full of figures: the
    // close puts it out and wins the game.
    let mut g = dealt(
        "1o 2o 3o 4o 5o 6o 2c",
        "10c 11c 12c 10e 11e 12e 4b",
        "7c",
        "12b",
        [10, 80],
    );
    play(&mut g, &["robo"]);
    assert_eq!(
        decide(&mut Maestro::with_iters(60), &g, 9),
        Action::Cierro(c("12b"))
    );
}

#[test]
fn beats_random_in_a_small_duel() {
    // A floor, not a measure of strength (that is the arena's): a search that chose badly
    // would lose games to a player that draws and discards at random.
    let games = 12;
    let wins = duel("maestro:iters=32", "random", 2, games, 7);
    assert!(wins >= 11, "maestro won {wins} of {games} against random");
}
