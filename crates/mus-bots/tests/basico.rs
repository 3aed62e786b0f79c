//! The computer players: legal and terminating games, strength against `random`, and
//! targeted decisions from real game states.

use crate::common;

use tapete_cards::rng_from_seed;
use tapete_mus::view::Phase;
use tapete_mus::{rules, Action, Jugada, Lance, MusGame, MusRules};
use tapete_mus_bots::{self as bots, Basico};
use tapete_table::{Bot, Game};

fn one_game_rules() -> MusRules {
    MusRules {
        juegos: 1,
        vacas: 1,
        ..Default::default()
    }
}

#[test]
fn basico_games_end_with_legal_actions() {
    for seed in 0..300u64 {
        let rules = if seed % 3 == 0 {
            MusRules {
                mode: tapete_mus::Mode::CuatroReyes,
                real31: true,
                ..one_game_rules()
            }
        } else {
            one_game_rules()
        };
        let players = (0..4).map(|_| bots::by_name("basico").unwrap()).collect();
        common::play_legal_game(&rules, seed, players, 0x5eed, |_, _| {});
    }
}

/// Games won by the `basico` pair out of `n`, alternating the seats it sits at.
fn basico_wins_against_random(n: u64) -> u64 {
    let rules = one_game_rules();
    let mut wins = 0;
    for seed in 0..n {
        let basico_pair = (seed % 2) as usize;
        let players: Vec<Box<dyn Bot<MusGame>>> = (0..4)
            .map(|s| {
                bots::by_name(if s % 2 == basico_pair {
                    "basico"
                } else {
                    "random"
                })
                .unwrap()
            })
            .collect();
        let g = common::play_legal_game(&rules, seed, players, 0xbeef, |_, _| {});
        let outcome = g.outcome().unwrap();
        if outcome.winners.contains(&basico_pair) {
            wins += 1;
        }
    }
    wins
}

#[test]
fn basico_beats_random() {
    let n = 400;
    let wins = basico_wins_against_random(n);
    let rate = wins as f64 / n as f64;
    println!("basico vs random: {wins}/{n} = {:.1}%", 100.0 * rate);
    assert!(rate > 0.6, "basico won only {wins} of {n}");
}

/// The first seed (from 0) whose game, after `setup`, puts `seat` to act holding a jugada
/// that satisfies `want`.
fn find(
    mut want: impl FnMut(Jugada) -> bool,
    setup: impl Fn(&mut MusGame) -> Option<usize>,
) -> (MusGame, usize) {
    let rules = MusRules::default();
    for seed in 0..20_000u64 {
        let mut g = MusGame::new(&rules, 4, seed).unwrap();
        let Some(seat) = setup(&mut g) else { continue };
        let v = g.view(seat);
        let cards: [_; 4] = v.cards.clone().try_into().unwrap();
        if want(Jugada::from_cards(&cards, rules.mode)) {
            return (g, seat);
        }
    }
    panic!("no seed found");
}

fn act(g: &MusGame, seat: usize) -> Action {
    let legal = g.legal_actions(seat);
    let a = Basico::default().act(&g.view(seat), &legal, &mut rng_from_seed(1));
    assert!(legal.contains(&a));
    a
}

/// The seat to act now.
fn turn(g: &MusGame) -> usize {
    g.to_act().seats()[0]
}

/// Cut the mus, pass grande: chica is bet next, the mano to speak.
fn to_chica(g: &mut MusGame) {
    g.apply(turn(g), &Action::NoHayMus).unwrap();
    for _ in 0..4 {
        g.apply(turn(g), &Action::Paso).unwrap();
    }
    assert_eq!(
        g.view(0).phase,
        Phase::Bet {
            lance: Lance::Chica
        }
    );
}

#[test]
fn cuts_the_mus_with_great_hands_and_asks_for_cards_with_poor_ones() {
    for (name, want) in [
        ("31", (|j: Jugada| j.value() == 31) as fn(Jugada) -> bool),
        ("duples", |j| {
            rules::pares(j).is_some_and(|p| p.kind == rules::ParesKind::Duples)
        }),
        ("RRRx", |j| j.count(tapete_mus::Rank::Rey) >= 3),
    ] {
        let (g, seat) = find(want, |g| Some(turn(g)));
        assert_eq!(act(&g, seat), Action::NoHayMus, "{name}");
    }
    // No pares, no juego, middling grande and chica: C654, S754…
    let (g, seat) = find(
        |j| {
            rules::pares(j).is_none()
                && !rules::has_juego(j)
                && j.count(tapete_mus::Rank::Rey) == 0
                && j.count(tapete_mus::Rank::As) == 0
        },
        |g| Some(turn(g)),
    );
    assert_eq!(act(&g, seat), Action::Mus);
}

#[test]
fn declines_a_big_chica_envite_with_a_weak_chica() {
    // Mano envida 10 at chica; the next seat holds only figures.
    let (g, seat) = find(
        |j| j.ranks().iter().all(|r| r.value() == 10),
        |g| {
            to_chica(g);
            g.apply(turn(g), &Action::Envido(10)).unwrap();
            Some(turn(g))
        },
    );
    assert_eq!(act(&g, seat), Action::NoQuiero);
}

#[test]
fn sees_or_raises_a_chica_envite_with_a_great_chica() {
    let (g, seat) = find(
        |j| j.count(tapete_mus::Rank::As) >= 3,
        |g| {
            to_chica(g);
            g.apply(turn(g), &Action::Envido(2)).unwrap();
            Some(turn(g))
        },
    );
    assert!(matches!(
        act(&g, seat),
        Action::Quiero | Action::Reenvido(_) | Action::Ordago
    ));
}

#[test]
fn refuses_an_ordago_at_grande_with_a_poor_grande_and_takes_it_with_reyes() {
    let setup = |g: &mut MusGame| {
        g.apply(turn(g), &Action::NoHayMus).unwrap();
        g.apply(turn(g), &Action::Ordago).unwrap();
        Some(turn(g))
    };
    let (g, seat) = find(|j| j.count(tapete_mus::Rank::Rey) == 0, setup);
    assert_eq!(act(&g, seat), Action::NoQuiero);
    let (g, seat) = find(|j| j.count(tapete_mus::Rank::Rey) == 4, setup);
    assert_eq!(act(&g, seat), Action::Quiero);
}

#[test]
fn envida_at_grande_with_reyes_and_passes_without() {
    let setup = |g: &mut MusGame| {
        g.apply(turn(g), &Action::NoHayMus).unwrap();
        Some(turn(g))
    };
    let (g, seat) = find(|j| j.count(tapete_mus::Rank::Rey) >= 3, setup);
    assert!(matches!(act(&g, seat), Action::Envido(_) | Action::Ordago));
    let (g, seat) = find(
        |j| j.count(tapete_mus::Rank::Rey) == 0 && j.count(tapete_mus::Rank::Caballo) == 0,
        setup,
    );
    // Only a bluff could make it bet; with this rng seed it does not.
    assert_eq!(act(&g, seat), Action::Paso);
}

/// Cut the mus, pass grande and chica, declare truthfully: the seat to bet pares, if any.
fn to_pares(g: &mut MusGame) -> Option<usize> {
    to_chica(g);
    for _ in 0..4 {
        g.apply(turn(g), &Action::Paso).unwrap();
    }
    for _ in 0..4 {
        let s = turn(g);
        let declaration = g.legal_actions(s).first()?.clone();
        g.apply(s, &declaration).unwrap();
    }
    (g.view(0).phase
        == Phase::Bet {
            lance: Lance::Pares,
        })
    .then(|| turn(g))
}

#[test]
fn bets_pares_with_duples_and_folds_low_pares_to_a_big_envite() {
    let (g, seat) = find(
        |j| rules::pares(j).is_some_and(|p| p.kind == rules::ParesKind::Duples),
        to_pares,
    );
    assert!(
        matches!(act(&g, seat), Action::Envido(_) | Action::Ordago),
        "duples bet"
    );
    // A low pair facing a big pares envite from a rival who said pares: no.
    let (g, seat) = find(
        |j| {
            rules::pares(j).is_some_and(|p| {
                p.kind == rules::ParesKind::Pares && p.high <= tapete_mus::Rank::Cinco
            })
        },
        |g| {
            let s = to_pares(g)?;
            g.apply(s, &Action::Envido(10)).ok()?;
            Some(turn(g))
        },
    );
    assert_eq!(act(&g, seat), Action::NoQuiero);
}
