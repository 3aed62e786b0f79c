//! Shared by the bot tests: play one whole game, checking every action the bots choose was
//! legal when chosen, that the game ends, and that its record replays to the same state;
//! find real game states for targeted decisions.

#![allow(dead_code)]

use rand_chacha::ChaCha8Rng;
use tapete_cards::rng_from_seed;
use tapete_mus::{Action, Jugada, MusGame, MusRules, MusView};
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

/// One juego of one vaca: short games.
pub fn one_game_rules() -> MusRules {
    MusRules {
        juegos: 1,
        vacas: 1,
        ..Default::default()
    }
}

/// The first seed whose game, after `setup`, puts a seat to act holding a jugada that
/// satisfies `want`.
pub fn find(
    rules: &MusRules,
    mut want: impl FnMut(Jugada) -> bool,
    setup: impl Fn(&mut MusGame) -> Option<usize>,
) -> (MusGame, usize) {
    for seed in 0..50_000u64 {
        let mut g = MusGame::new(rules, 4, seed).unwrap();
        let Some(seat) = setup(&mut g) else { continue };
        let v = g.view(seat);
        let cards: [_; 4] = v.cards.clone().try_into().unwrap();
        if want(Jugada::from_cards(&cards, rules.mode)) {
            return (g, seat);
        }
    }
    panic!("no seed found");
}

pub fn turn(g: &MusGame) -> usize {
    g.to_act().seats()[0]
}

pub fn act_with(bot: &mut dyn Bot<MusGame>, view: &MusView, legal: &[Action], seed: u64) -> Action {
    let mut rng: ChaCha8Rng = rng_from_seed(seed);
    let a = bot.act(view, legal, &mut rng);
    assert!(legal.contains(&a), "{a} is not legal");
    a
}
