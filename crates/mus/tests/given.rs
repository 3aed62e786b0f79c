//! Juegos given before play (a tournament's courtesy, lost juego by juego): a match started
//! with juegos given stands exactly where a match whose pairs won those juegos at the table
//! stood, plays on from there, and is refused when the juegos would decide it.

use rand::Rng;
use tapete_cards::rng_from_seed;
use tapete_mus::bots::RandomMus;
use tapete_mus::events::Event;
use tapete_mus::{MusGame, MusRules};
use tapete_table::{Bot, Game};

/// Plays `g` with random players until it is over, returning each juego's winner in order.
fn play_out(g: &mut MusGame, seed: u64) -> Vec<u8> {
    let mut rng = rng_from_seed(seed * 31 + 1);
    let mut won = Vec::new();
    for _ in 0..200_000 {
        let Some(&seat) = g.to_act().seats().first() else {
            return won;
        };
        let legal = g.legal_actions(seat);
        let action = RandomMus.act(&g.view(seat), &legal, &mut rng);
        for e in g
            .apply(seat, &action)
            .expect("a random player plays legally")
        {
            if let Event::GameWon { pair, .. } = e {
                won.push(pair as u8);
            }
        }
    }
    panic!("seed {seed}: the match did not end");
}

fn rules_for(seed: u64) -> MusRules {
    let mut rng = rng_from_seed(seed ^ 0x5eed);
    MusRules {
        juegos: [1, 3, 5][rng.gen_range(0..3)],
        vacas: [1, 3, 5][rng.gen_range(0..3)],
        target: 30,
        ..MusRules::default()
    }
}

#[test]
fn juegos_given_stand_where_juegos_won_at_the_table_stood() {
    let mut compared = 0;
    for seed in 0..60u64 {
        let rules = rules_for(seed);
        // A match played out, its juegos' winners noted, and its score after each juego.
        let mut played = MusGame::new(&rules, 4, seed).unwrap();
        let mut rng = rng_from_seed(seed * 31 + 1);
        let mut winners: Vec<u8> = Vec::new();
        let mut after: Vec<(tapete_mus::Scores, u32)> = Vec::new();
        while let Some(&seat) = played.to_act().seats().first() {
            let legal = played.legal_actions(seat);
            let action = RandomMus.act(&played.view(seat), &legal, &mut rng);
            for e in played.apply(seat, &action).unwrap() {
                if let Event::GameWon { pair, .. } = e {
                    winners.push(pair as u8);
                }
            }
            let v = played.view(0);
            if after.len() < winners.len() {
                after.push((v.scores, v.game_number));
            }
        }
        for k in 1..winners.len() {
            let given = MusRules {
                juegos_given: winners[..k].to_vec(),
                ..rules.clone()
            };
            given.validate().unwrap();
            let g = MusGame::new(&given, 4, seed).unwrap();
            let v = g.view(1);
            assert_eq!(
                (v.scores, v.game_number),
                after[k - 1],
                "seed {seed}: {k} juegos given {:?}",
                &winners[..k]
            );
            assert_eq!(v.winner, None);
            compared += 1;
        }
        // The juego that won the match cannot be given: that match is lost, not played.
        let all = MusRules {
            juegos_given: winners.clone(),
            ..rules.clone()
        };
        let err = all.validate().unwrap_err();
        assert!(err.contains("would win the match"), "{err}");
        let but_last = MusRules {
            juegos_given: winners[..winners.len() - 1].to_vec(),
            ..rules.clone()
        };
        let last = *winners.last().unwrap();
        assert_eq!(but_last.with_juego_given(last).unwrap(), None);
    }
    assert!(compared > 100, "only {compared} comparisons");
}

#[test]
fn a_match_with_juegos_given_plays_to_its_end_and_replays() {
    for seed in 0..40u64 {
        let rules = rules_for(seed);
        let mut rng = rng_from_seed(seed);
        let mut given = rules.clone();
        // Give juegos at random while they leave the match to play.
        for _ in 0..rng.gen_range(1..8) {
            match given.with_juego_given(rng.gen_range(0..2)).unwrap() {
                Some(more) => given = more,
                None => break,
            }
        }
        let mut g = MusGame::new(&given, 4, seed).unwrap();
        let won = play_out(&mut g, seed);
        let winner = g.view(0).winner.expect("the match ended");
        // The match's winner won the last juego, and a record replays it exactly.
        assert_eq!(won.last().map(|p| usize::from(*p)), Some(winner));
        let json = serde_json::to_value(&given).unwrap();
        let back: MusRules = serde_json::from_value(json).unwrap();
        assert_eq!(back, given, "the juegos given survive a round trip");
    }
}

#[test]
fn juegos_given_are_checked() {
    let bad = |juegos_given: Vec<u8>, boards: u8| {
        MusRules {
            juegos_given,
            boards,
            ..MusRules::default()
        }
        .validate()
        .unwrap_err()
    };
    assert!(bad(vec![2], 0).contains("pair 2"));
    assert!(bad(vec![0], 3).contains("boards have no juegos"));
    // Best of 3 juegos, one vaca: two juegos win the match, a third is one too many.
    assert!(bad(vec![0, 0], 0).contains("would win the match"));
    assert!(bad(vec![0, 0, 1], 0).contains("goes on after its juego 2"));
    // None given is the plain match, and is not written.
    let plain = serde_json::to_value(MusRules::default()).unwrap();
    assert!(plain.get("juegos_given").is_none());
    let one = MusRules {
        juegos_given: vec![1],
        ..MusRules::default()
    };
    one.validate().unwrap();
    let g = MusGame::new(&one, 4, 7).unwrap();
    assert_eq!(g.view(0).scores.games, [0, 1]);
    assert_eq!(g.view(0).game_number, 2);
    let boards = MusRules {
        boards: 2,
        ..MusRules::default()
    };
    assert!(boards.with_juego_given(0).is_err());
}
