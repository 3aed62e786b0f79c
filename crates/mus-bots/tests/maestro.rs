//! `maestro`, the search player: legal actions in whole games (both modes, señas on), its
//! time budget, targeted decisions and a strength check against `random`.

use crate::common;

use tapete_cards::{rng_from_seed, CardSet};
use tapete_mus::view::Phase;
use tapete_mus::{Action, Lance, Mode, MusGame, MusRules};
use tapete_mus_bots::{
    self as bots,
    maestro::{Answers, Budget, Policy},
    Maestro,
};
use tapete_table::{play_out, Bot, Game, Record};

fn set(s: &str) -> CardSet {
    s.split_whitespace().map(|c| c.parse().unwrap()).collect()
}

/// The seat to act now.
fn turn(g: &MusGame) -> usize {
    g.to_act().seats()[0]
}

#[test]
fn parses_its_budgets() {
    assert!(bots::by_name("maestro").is_ok());
    assert!(bots::by_name("maestro:ms=50").is_ok());
    assert!(bots::by_name("maestro:iters=300").is_ok());
    for bad in [
        "maestro:ms=0",
        "maestro:ms=x",
        "maestro:iters=0",
        "maestro:depth=3",
        "maestro:policy=maestro",
        "maestro:ms=50,policy=",
    ] {
        assert!(bots::by_name(bad).is_err(), "{bad}");
    }
    assert_eq!(Maestro::with_iters(7).budget, Budget::Iters(7));
    let m = bots::maestro_params("iters=40, policy=avanzado").unwrap();
    assert_eq!(m.budget, Budget::Iters(40));
    assert!(matches!(m.rollout, Policy::Avanzado(_)));
    let m = bots::maestro_params("").unwrap();
    assert!(matches!(m.rollout, Policy::Experto(_)));
    assert!(bots::by_name("maestro:ms=50,policy=basico").is_ok());
    // Both: N rollouts unless the time runs out.
    let m = bots::maestro_params("iters=300,ms=900").unwrap();
    assert_eq!(
        m.budget,
        Budget::ItersWithin {
            iters: 300,
            ms: 900
        }
    );
    // The default is a rollout count (the same play on every machine) within a second.
    assert!(
        matches!(Maestro::default().budget, Budget::ItersWithin { ms, .. } if ms <= 1000),
        "{:?}",
        Maestro::default().budget
    );
    assert_eq!(
        bots::maestro_params("").unwrap().budget,
        Maestro::default().budget
    );
    for twice in ["ms=5,ms=6", "iters=5,iters=6"] {
        let e = bots::maestro_params(twice).err().unwrap();
        assert!(e.contains("twice"), "{twice}: {e}");
    }
    // It reads the table by default, rivals answering its órdagos by the folds they show.
    let plain = bots::maestro_params("").unwrap();
    assert!(plain.read && plain.answers == Answers::Evidence);
    assert!(bots::maestro_params("read=on").unwrap().read);
    assert!(!bots::maestro_params("read=off").unwrap().read);
    assert_eq!(
        bots::maestro_params("ordago=policy").unwrap().answers,
        Answers::Policy
    );
    // Its órdagos are valued by their worst case unless told otherwise.
    assert!(plain.robust);
    assert!(!bots::maestro_params("robust=off").unwrap().robust);
    // Every answer of the rivals weighs the answer models unless told otherwise.
    assert!(plain.weigh_answers);
    assert!(!bots::maestro_params("evidence=off").unwrap().weigh_answers);
    for bad in [
        "read=maybe",
        "ordago=never",
        "robust=maybe",
        "evidence=maybe",
    ] {
        let e = bots::maestro_params(bad).err().unwrap();
        assert!(e.contains(bad), "{bad}: {e}");
    }
}

#[test]
fn maestro_plays_whole_games_with_legal_actions() {
    for (seed, mode) in [(1u64, Mode::OchoReyes), (2, Mode::CuatroReyes)] {
        let rules = MusRules {
            mode,
            senas: true,
            // 31 real has no leyes tables compiled in: every hand's leyes would be counted
            // here, which the levels' tests already do (experto plays 31 real there).
            real31: false,
            juegos: 3,
            vacas: 1,
            target: 30,
            ..Default::default()
        };
        let players: Vec<Box<dyn Bot<MusGame>>> = (0..4)
            .map(|s| -> Box<dyn Bot<MusGame>> {
                if s % 2 == 0 {
                    // A small budget and basico rollouts keep whole games fast; the search
                    // is the same at any budget.
                    let mut m = Maestro::with_iters(8);
                    m.rollout = Policy::by_name("basico").unwrap();
                    Box::new(m)
                } else {
                    bots::by_name("basico").unwrap()
                }
            })
            .collect();
        let mut senas = 0;
        common::play_legal_game(&rules, seed, players, 0x3a3a, |seat, action| {
            if matches!(action, Action::Sena(_)) && seat % 2 == 0 {
                senas += 1;
            }
        });
        // A best-of-3 vaca always reaches a second game, where señas are played.
        assert!(senas > 0, "seed {seed}: maestro passed no seña");
    }
}

/// A game where seat 0 (mano) holds `mano`, seat 2 `partner`, and the grande betting
/// reaches seat 0 facing an órdago from the postre.
fn facing_ordago_at_grande(mano: &str, partner: &str, rivals: [&str; 2]) -> MusGame {
    let cards = [set(mano), set(rivals[0]), set(partner), set(rivals[1])];
    let mut g = MusGame::from_deal(MusRules::default(), cards, 0, [10, 10], 5).unwrap();
    g.apply(0, &Action::NoHayMus).unwrap();
    for seat in 0..3 {
        g.apply(seat, &Action::Paso).unwrap();
    }
    g.apply(3, &Action::Ordago).unwrap();
    assert_eq!(
        g.view(0).phase,
        Phase::Bet {
            lance: Lance::Grande
        }
    );
    assert_eq!(turn(&g), 0);
    g
}

fn maestro_answer(g: &MusGame, seat: usize, seed: u64) -> Action {
    let legal = g.legal_actions(seat);
    let a = Maestro::with_iters(400).act(&g.view(seat), &legal, &mut rng_from_seed(seed));
    assert!(legal.contains(&a));
    a
}

#[test]
fn accepts_an_ordago_at_grande_with_four_reyes_as_mano() {
    let g = facing_ordago_at_grande(
        "12o 12b 12c 12e",
        "4o 5b 6c 7e",
        ["11o 11b 10c 1e", "3o 3b 1o 5e"],
    );
    for seed in 0..3 {
        assert_eq!(maestro_answer(&g, 0, seed), Action::Quiero, "seed {seed}");
    }
}

#[test]
fn declines_an_ordago_at_grande_without_reyes_or_caballos() {
    let g = facing_ordago_at_grande(
        "4o 5b 6c 7e",
        "4b 5c 6e 1o",
        ["12o 12b 11c 1e", "3o 3b 10o 5e"],
    );
    for seed in 0..3 {
        assert_eq!(maestro_answer(&g, 0, seed), Action::NoQuiero, "seed {seed}");
    }
}

#[test]
fn a_decision_within_a_budget_is_legal() {
    // How long a decision takes is measured in `benches/maestro.rs`, not here.
    let cards = [
        set("12o 11b 4c 1e"),
        set("12b 10c 5e 6o"),
        set("3o 7b 7c 1o"),
        set("11o 4e 5b 6c"),
    ];
    let mut g = MusGame::from_deal(MusRules::default(), cards, 0, [0, 0], 9).unwrap();
    g.apply(0, &Action::NoHayMus).unwrap();
    let legal = g.legal_actions(0);
    assert!(legal.len() > 2);
    let mut bot = Maestro::new(20);
    bot.rollout = Policy::by_name("basico").unwrap();
    let mut rng = rng_from_seed(4);
    for _ in 0..3 {
        assert!(legal.contains(&bot.act(&g.view(0), &legal, &mut rng)));
    }
}

#[test]
fn forced_decisions_are_the_one_legal_action() {
    let mut g = MusGame::new(&MusRules::default(), 4, 11).unwrap();
    g.apply(0, &Action::NoHayMus).unwrap();
    for seat in 0..4 {
        g.apply(seat, &Action::Paso).unwrap();
    }
    for seat in 0..4 {
        g.apply(seat, &Action::Paso).unwrap();
    }
    // Pares declarations: one legal action each.
    let seat = turn(&g);
    let legal = g.legal_actions(seat);
    assert_eq!(legal.len(), 1);
    let a = Maestro::new(1000).act(&g.view(seat), &legal, &mut rng_from_seed(1));
    assert_eq!(a, legal[0]);
}

#[test]
fn maestro_beats_random() {
    let rules = MusRules {
        juegos: 1,
        vacas: 1,
        ..Default::default()
    };
    let n = 24u64;
    let mut wins = 0;
    for seed in 0..n {
        let pair = (seed % 2) as usize;
        let mut g = MusGame::new(&rules, 4, 500 + seed).unwrap();
        let mut players: Vec<Box<dyn Bot<MusGame>>> = (0..4)
            .map(|s| -> Box<dyn Bot<MusGame>> {
                if s % 2 == pair {
                    // Basico rollouts keep these games fast; experto's strength is measured
                    // with `tapete arena`.
                    let mut m = Maestro::with_iters(30);
                    m.rollout = Policy::by_name("basico").unwrap();
                    Box::new(m)
                } else {
                    bots::by_name("random").unwrap()
                }
            })
            .collect();
        let mut rec = Record::new(rules.clone(), 4, 500 + seed);
        let mut rng = rng_from_seed(seed ^ 0x77);
        play_out(
            &mut g,
            &mut players,
            &mut rng,
            &mut rec,
            200_000,
            |_, _, _, _| {},
        )
        .unwrap();
        if g.outcome().unwrap().winners.contains(&pair) {
            wins += 1;
        }
    }
    println!("maestro vs random: {wins}/{n}");
    assert!(wins * 10 > n * 7, "maestro won only {wins} of {n}");
}

#[test]
fn rollout_view_agrees_with_the_full_view() {
    // Through whole hands: every field but the previous hand's summary is the same.
    let mut g = MusGame::new(&MusRules::default(), 4, 21).unwrap();
    let mut bot = bots::Basico::default();
    let mut rng = rng_from_seed(21);
    for _ in 0..400 {
        let Some(&seat) = g.to_act().seats().first() else {
            break;
        };
        for s in 0..4 {
            let mut full = g.view(s);
            let light = g.view_without_history(s);
            assert!(light.last_hand.is_none());
            full.last_hand = None;
            assert_eq!(full, light);
        }
        let legal = g.legal_actions(seat);
        let a = bot.act(&g.view(seat), &legal, &mut rng);
        g.apply(seat, &a).unwrap();
    }
}

#[test]
fn every_rollout_policy_plays_legally() {
    for name in ["basico", "avanzado", "experto"] {
        let mut bot = Maestro::with_iters(30);
        bot.rollout = Policy::by_name(name).unwrap();
        let g = facing_ordago_at_grande(
            "12o 12b 12c 12e",
            "4o 5b 6c 7e",
            ["11o 11b 10c 1e", "3o 3b 1o 5e"],
        );
        let legal = g.legal_actions(0);
        let a = bot.act(&g.view(0), &legal, &mut rng_from_seed(3));
        assert!(legal.contains(&a), "{name}: {a}");
    }
    assert!(Policy::by_name("maestro").is_none());
}
