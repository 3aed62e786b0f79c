//! The computer players in whole games: basico beats random, random never closes falsely,
//! and both only ever choose legal actions (`play_out` refuses anything else).

use tapete_cards::rng_from_seed;
use tapete_chinchon::bots::by_name;
use tapete_chinchon::{ChinchonGame, ChinchonRules, Event};
use tapete_table::{play_out, Bot, Game, Record};

/// Plays one game with these players by seat; returns the winners.
fn play(
    rules: &ChinchonRules,
    players: &[&str],
    seed: u64,
    mut on: impl FnMut(&Event),
) -> Vec<usize> {
    let mut g = ChinchonGame::new(rules, players.len(), seed).unwrap();
    let mut bots: Vec<Box<dyn Bot<ChinchonGame>>> =
        players.iter().map(|p| by_name(p).unwrap()).collect();
    let mut record = Record::new(*rules, players.len(), seed);
    let mut rng = rng_from_seed(seed ^ 0x5eed);
    play_out(
        &mut g,
        &mut bots,
        &mut rng,
        &mut record,
        2_000_000,
        |_, _, _, events| events.iter().for_each(&mut on),
    )
    .unwrap();
    g.outcome().unwrap().winners
}

#[test]
fn basico_beats_random() {
    let rules = ChinchonRules::default();
    let games = 200;
    let mut wins = 0;
    for seed in 0..games {
        // Basico sits at seat 0 in even games and seat 1 in odd ones.
        let basico = (seed % 2) as usize;
        let players = if basico == 0 {
            ["basico", "random"]
        } else {
            ["random", "basico"]
        };
        if play(&rules, &players, seed, |_| {}).contains(&basico) {
            wins += 1;
        }
    }
    assert!(wins * 100 > games * 65, "basico won {wins} of {games}");
}

#[test]
fn random_never_closes_falsely() {
    let rules = ChinchonRules {
        allow_false_close: true,
        target: 40,
        // Long hands, so that random players close often before a hand runs out.
        stock_rebuilds: 10,
        hand_turns: 1000,
        ..ChinchonRules::default()
    };
    let mut closes = 0;
    for seed in 0..30 {
        play(&rules, &["random", "random", "random"], seed, |e| match e {
            Event::FalseClose { .. } => panic!("a computer player closed falsely"),
            Event::Closed { .. } => closes += 1,
            _ => {}
        });
    }
    assert!(closes > 5, "{closes} closes");
}

#[test]
fn basico_plays_every_table() {
    for (seed, seats) in (2..=8).enumerate() {
        let rules = ChinchonRules {
            jokers: (seed % 3) as u8,
            reenganche: tapete_chinchon::rules::Reenganche::Highest,
            no_close_first_turn: seed % 2 == 0,
            ..ChinchonRules::default()
        };
        let players = vec!["basico"; seats];
        let winners = play(&rules, &players, seed as u64, |_| {});
        assert!(!winners.is_empty());
    }
}
