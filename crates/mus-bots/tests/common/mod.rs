//! Shared by the bot tests: play one whole game, checking every action the bots choose was
//! legal when chosen, that the game ends, and that its record replays to the same state.

use tapete_cards::rng_from_seed;
use tapete_mus::{Action, MusGame, MusRules};
use tapete_table::{play_out, Bot, Game, Record};

/// Plays game `seed` with `players` (one per seat), the bots' rng seeded from
/// `seed ^ salt`; `each(seat, action)` sees every applied action. Returns the final state.
pub fn play_legal_game(
    rules: &MusRules,
    seed: u64,
    mut players: Vec<Box<dyn Bot<MusGame>>>,
    salt: u64,
    mut each: impl FnMut(usize, &Action),
) -> MusGame {
    let mut g = MusGame::new(rules, 4, seed).unwrap();
    let mut rec = Record::new(rules.clone(), 4, seed);
    let mut rng = rng_from_seed(seed ^ salt);
    // play_out refuses (and fails) on any illegal action; check legality explicitly too.
    let mut before = g.clone();
    play_out(
        &mut g,
        &mut players,
        &mut rng,
        &mut rec,
        200_000,
        |g, seat, action, _| {
            assert!(
                before.legal_actions(seat).contains(action),
                "seed {seed}: seat {seat} chose {action}"
            );
            each(seat, action);
            before = g.clone();
        },
    )
    .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    assert!(g.outcome().is_some(), "seed {seed}: the game did not end");
    assert_eq!(rec.replay().unwrap(), g, "seed {seed}: the record replays");
    g
}
