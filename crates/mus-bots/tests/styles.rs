//! The opponent styles: each is a player by name, plays legal games, and differs from
//! experto's reading in the one trait it is named for, shown on real game states; experto
//! itself bluffs by what it has read of the rival pair.

use crate::common;

use crate::common::{act_with, one_game_rules, turn};
use tapete_mus::view::Phase;
use tapete_mus::{Action, Jugada, Lance, MusGame, MusRules, Rank};
use tapete_mus_bots::policy::{style, STYLES};
use tapete_mus_bots::read::{PairAnswers, TableRead};
use tapete_mus_bots::{self as bots, Experto, PLAYERS};
use tapete_table::{Bot, Game};

/// Experto's reading without its read of the table: what every style changes one trait of.
fn reference() -> Experto {
    Experto::fixed(tapete_mus_bots::policy::experto_style())
}

fn styled(name: &str) -> Experto {
    Experto::fixed(style(name).expect("a style"))
}

/// How often `bot` says `what` over the first decision of `positions` games set up by
/// `setup`, each asked with 10 seeds.
fn rate(
    bot: &mut dyn Bot<MusGame>,
    positions: &[(MusGame, usize)],
    what: impl Fn(&Action) -> bool,
) -> f64 {
    let mut hits = 0;
    let mut asked = 0;
    for (g, seat) in positions {
        for s in 0..10 {
            let a = act_with(bot, &g.view(*seat), &g.legal_actions(*seat), s);
            hits += what(&a) as u32;
            asked += 1;
        }
    }
    hits as f64 / asked as f64
}

/// Up to `n` game states after `setup` whose seat to act holds a jugada passing `want`.
fn positions(
    rules: &MusRules,
    n: usize,
    want: impl Fn(Jugada) -> bool,
    setup: impl Fn(&mut MusGame) -> Option<usize>,
) -> Vec<(MusGame, usize)> {
    let mut out = Vec::new();
    for seed in 0..20_000u64 {
        let mut g = MusGame::new(rules, 4, seed).unwrap();
        let Some(seat) = setup(&mut g) else { continue };
        let cards: [_; 4] = g.view(seat).cards.clone().try_into().unwrap();
        if want(Jugada::from_cards(&cards, rules.mode)) {
            out.push((g, seat));
            if out.len() == n {
                break;
            }
        }
    }
    out
}

/// The mano cuts: the first word at grande is the mano's.
fn grande_opening(g: &mut MusGame) -> Option<usize> {
    g.apply(turn(g), &Action::NoHayMus).ok()?;
    Some(turn(g))
}

fn reyes(j: Jugada) -> usize {
    j.ranks().iter().filter(|r| **r == Rank::Rey).count()
}

#[test]
fn every_style_is_a_player_by_name_and_plays_legal_games() {
    let rules = one_game_rules();
    for (i, name) in STYLES.iter().enumerate() {
        assert!(PLAYERS.contains(name), "{name} is listed");
        assert!(bots::by_name(name).is_ok(), "{name}");
        assert!(
            bots::by_name(&name.to_uppercase()).is_ok(),
            "{name} in capitals"
        );
        for seed in 0..3 {
            // The style at two seats, experto at the other two.
            let players = (0..4)
                .map(|s| bots::by_name(if s % 2 == 0 { name } else { "experto" }).unwrap())
                .collect();
            common::play_legal_game(&rules, seed + 10 * i as u64, players, 0x5717e, |_, _| {});
        }
    }
    let e = bots::by_name("valiente").err().expect("not a player");
    assert!(e.contains("conservador"), "{e}");
}

#[test]
fn cortamus_always_cuts_where_experto_would_not() {
    let rules = one_game_rules();
    let first = positions(&rules, 60, |_| true, |g| Some(turn(g)));
    let cut = |a: &Action| *a == Action::NoHayMus;
    assert_eq!(rate(&mut styled("cortamus"), &first, cut), 1.0);
    assert!(rate(&mut reference(), &first, cut) < 0.9);
}

#[test]
fn conservador_sees_an_ordago_only_with_a_hand_that_wins_the_lance() {
    let rules = one_game_rules();
    let ordago_at_grande = |g: &mut MusGame| {
        g.apply(turn(g), &Action::NoHayMus).ok()?;
        g.apply(turn(g), &Action::Ordago).ok()?;
        let seat = turn(g);
        matches!(
            g.view(seat).phase,
            Phase::Bet {
                lance: Lance::Grande
            }
        )
        .then_some(seat)
    };
    let quiero = |a: &Action| *a == Action::Quiero;
    let strong = positions(&rules, 20, |j| reyes(j) >= 3, ordago_at_grande);
    let middling = positions(&rules, 20, |j| reyes(j) == 1, ordago_at_grande);
    assert_eq!(strong.len(), 20);
    assert_eq!(middling.len(), 20);
    let mut c = styled("conservador");
    assert_eq!(rate(&mut c, &strong, quiero), 1.0, "three reyes win grande");
    assert_eq!(rate(&mut c, &middling, quiero), 0.0, "one rey does not");
}

#[test]
fn pasivo_sees_every_envite_but_rarely_opens() {
    let rules = one_game_rules();
    // A big envite at grande against a hand without reyes: experto declines it.
    let envite = |g: &mut MusGame| {
        g.apply(turn(g), &Action::NoHayMus).ok()?;
        g.apply(turn(g), &Action::Envido(10)).ok()?;
        Some(turn(g))
    };
    let weak = positions(&rules, 20, |j| reyes(j) == 0, envite);
    let quiero = |a: &Action| *a == Action::Quiero;
    assert_eq!(rate(&mut styled("pasivo"), &weak, quiero), 1.0);
    assert_eq!(rate(&mut reference(), &weak, quiero), 0.0);
    // Openings at grande with two reyes: experto envida often, pasivo hardly.
    let two = positions(&rules, 40, |j| reyes(j) == 2, grande_opening);
    let bets = |a: &Action| matches!(a, Action::Envido(_) | Action::Ordago);
    let (p, e) = (
        rate(&mut styled("pasivo"), &two, bets),
        rate(&mut reference(), &two, bets),
    );
    assert!(p < e / 2.0, "pasivo opens {p:.2}, experto {e:.2}");
}

#[test]
fn farolero_bluffs_and_agresivo_throws_ordagos() {
    let rules = one_game_rules();
    let bets = |a: &Action| matches!(a, Action::Envido(_) | Action::Ordago);
    // No rey at grande: a bet is a farol.
    let none = positions(&rules, 60, |j| reyes(j) == 0, grande_opening);
    let (f, e) = (
        rate(&mut styled("farolero"), &none, bets),
        rate(&mut reference(), &none, bets),
    );
    assert!(f > 0.2 && e < 0.1, "farolero bluffs {f:.2}, experto {e:.2}");
    // Good grande hands: agresivo stakes the game now and then, experto hardly ever.
    let good = positions(&rules, 60, |j| reyes(j) >= 2, grande_opening);
    let ordago = |a: &Action| *a == Action::Ordago;
    let (a, e) = (
        rate(&mut styled("agresivo"), &good, ordago),
        rate(&mut reference(), &good, ordago),
    );
    assert!(
        a > 0.1 && a > 2.0 * e,
        "agresivo órdago {a:.2}, experto {e:.2}"
    );
}

#[test]
fn experto_bluffs_by_how_often_the_rivals_fold() {
    let rules = one_game_rules();
    let bets = |a: &Action| matches!(a, Action::Envido(_) | Action::Ordago);
    let none = positions(&rules, 60, |j| reyes(j) == 0, grande_opening);
    // Nothing read yet: rivals are taken to fold as most players do, so faroles are many.
    let fresh = rate(&mut Experto::default(), &none, bets);
    // A rival pair that has seen every one of twenty envites.
    let mut callers = TableRead::default();
    callers.pairs = [PairAnswers {
        faced: 20,
        folded: 0,
        ..PairAnswers::default()
    }; 2];
    let mut read = Experto {
        read: Some(std::sync::Arc::new(callers)),
        ..Experto::default()
    };
    let against_callers = rate(&mut read, &none, bets);
    let base = rate(&mut reference(), &none, bets);
    assert!(fresh > 0.4, "faroles before any answer {fresh:.2}");
    assert!(
        against_callers <= base + 0.05,
        "against callers {against_callers:.2}, the style's rate {base:.2}"
    );
}
