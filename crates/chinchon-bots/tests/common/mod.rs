//! Positions built card by card for the players' tests.

#![allow(dead_code)]

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tapete_chinchon::{Action, Card, ChinchonGame, ChinchonRules, ChinchonView, Deal, Hand};
use tapete_table::arena::{run_arena, ArenaConfig, Layout, Side};
use tapete_table::{Bot, Game};

pub fn c(s: &str) -> Card {
    s.parse().unwrap()
}

pub fn h(s: &str) -> Hand {
    s.parse().unwrap()
}

pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A two-player game where seat 0 (mano) holds `mine`, seat 1 holds `theirs`, the
/// muestra is `muestra` and the stock gives `stock` first; scores as given.
pub fn dealt(
    mine: &str,
    theirs: &str,
    muestra: &str,
    stock: &str,
    scores: [i32; 2],
) -> ChinchonGame {
    let deal = Deal {
        hands: vec![h(mine), h(theirs)],
        muestra: c(muestra),
        stock_top: stock.split_whitespace().map(c).collect(),
        scores: scores.to_vec(),
        mano: 0,
    };
    ChinchonGame::arranged(&ChinchonRules::default(), &deal, 11).unwrap()
}

/// Applies actions written as players type them, by whoever is to act.
pub fn play(g: &mut ChinchonGame, actions: &[&str]) {
    for a in actions {
        let seat = g.to_act().seats()[0];
        let action: Action = a.parse().unwrap();
        g.apply(seat, &action)
            .unwrap_or_else(|e| panic!("seat {seat} `{a}`: {e}"));
    }
}

/// What `bot` does for the seat to act in `g`.
pub fn decide(bot: &mut dyn Bot<ChinchonGame>, g: &ChinchonGame, seed: u64) -> Action {
    let seat = g.to_act().seats()[0];
    let legal = g.legal_actions(seat);
    let a = bot.act(&g.view(seat), &legal, &mut rng(seed));
    assert!(legal.contains(&a), "{a} is not legal: {legal:?}");
    a
}

/// What `bot` does with `view` (legal actions as the game gives them).
pub fn decide_view(
    bot: &mut dyn Bot<ChinchonGame>,
    g: &ChinchonGame,
    view: &ChinchonView,
    seed: u64,
) -> Action {
    let seat = g.to_act().seats()[0];
    let legal = g.legal_actions(seat);
    bot.act(view, &legal, &mut rng(seed))
}

/// Games won by side A (`a`, one seat) against side B (`b`, every other seat), over
/// `games` games from `seed` on, seats taken in turn: the arena's own loop.
pub fn duel(a: &str, b: &str, seats: usize, games: u64, seed: u64) -> u64 {
    let config = ArenaConfig::<ChinchonGame> {
        rules: ChinchonRules::default(),
        seats,
        games,
        first: 0,
        seed,
        threads: None,
        max_actions: 20_000,
        layout: Layout::OneSeat,
    };
    let report = run_arena::<ChinchonGame, (), _>(
        &config,
        |side, _| tapete_chinchon_bots::by_name(if side == Side::A { a } else { b }),
        &|| {},
    )
    .unwrap();
    report.wins[0]
}
