//! Hand comparison, exhaustively: for every lance and both modes, the engine's order over
//! all jugadas (330 in 8 reyes, 715 in 4 reyes) agrees with a plain re-statement of the
//! spec's rules on every pair of hands, and ties happen only between hands the lance
//! treats as equal.

use std::cmp::Ordering;
use tapete_mus::rules::{self, Lance};
use tapete_mus::{Jugada, Mode};

/// Card values high→low as plain numbers (rey 12 … as 1), the spec's grande order.
fn grande_digits(j: Jugada) -> Vec<u8> {
    j.ranks().iter().map(|r| *r as u8).collect()
}

/// The spec, restated: compare two hands for `lance`, `Greater` = the first is better.
fn reference(lance: Lance, a: Jugada, b: Jugada, real31: bool) -> Ordering {
    match lance {
        Lance::Grande => grande_digits(a).cmp(&grande_digits(b)),
        Lance::Chica => {
            let low = |j: Jugada| {
                let mut v = grande_digits(j);
                v.reverse();
                v
            };
            // Lower wins.
            low(b).cmp(&low(a))
        }
        Lance::Pares => pares_key(a).cmp(&pares_key(b)),
        Lance::Juego => juego_key(a, real31).cmp(&juego_key(b, real31)),
        Lance::Punto => a.value().cmp(&b.value()),
    }
}

/// (kind, ranks of the groups high→low): kind 0 none, 1 pares, 2 medias, 3 duples.
fn pares_key(j: Jugada) -> (u8, Vec<u8>) {
    let mut counts = [0u8; 10];
    for r in j.ranks() {
        counts[r as usize] += 1;
    }
    let pairs: Vec<u8> = (0..10u8)
        .rev()
        .filter(|&r| counts[r as usize] == 2)
        .collect();
    if let Some(r) = (0..10u8).find(|&r| counts[r as usize] == 4) {
        return (3, vec![r, r]);
    }
    if let Some(r) = (0..10u8).find(|&r| counts[r as usize] == 3) {
        return (2, vec![r]);
    }
    match pairs.len() {
        2 => (3, pairs),
        1 => (1, pairs),
        _ => (0, vec![]),
    }
}

/// Position in the juego ranking, higher better; 0 without juego.
fn juego_key(j: Jugada, real31: bool) -> u8 {
    let sevens = j.ranks().iter().filter(|r| r.value() == 7).count();
    let figure = j.ranks().iter().any(|r| r.value() == 10);
    let order = [33u8, 34, 35, 36, 37, 40, 32, 31];
    match j.value() {
        31 if real31 && sevens == 3 && figure => 9,
        v => order
            .iter()
            .position(|&o| o == v)
            .map_or(0, |p| p as u8 + 1),
    }
}

fn check(mode: Mode, real31: bool) {
    let all = Jugada::all(mode);
    assert_eq!(all.len(), if mode == Mode::OchoReyes { 330 } else { 715 });
    for lance in Lance::ALL {
        let s: Vec<u32> = all
            .iter()
            .map(|&j| rules::strength(lance, j, real31))
            .collect();
        for (i, &a) in all.iter().enumerate() {
            for (k, &b) in all.iter().enumerate() {
                let engine = s[i].cmp(&s[k]);
                assert_eq!(
                    engine,
                    reference(lance, a, b, real31),
                    "{lance} in {mode}: {a} vs {b}"
                );
                // Antisymmetry: a beats b exactly when b loses to a.
                assert_eq!(engine, s[k].cmp(&s[i]).reverse());
            }
        }
        // Grande and chica: a strict total order, no two different jugadas equal.
        if matches!(lance, Lance::Grande | Lance::Chica) {
            let mut sorted = s.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(
                sorted.len(),
                all.len(),
                "{lance}: two jugadas compare equal"
            );
        }
    }
    // Pares: exactly as many classes as distinct pares (plus "no pares").
    let mut classes: Vec<(u8, Vec<u8>)> = all.iter().map(|&j| pares_key(j)).collect();
    classes.sort();
    classes.dedup();
    let mut strengths: Vec<u32> = all.iter().map(|&j| rules::pares_strength(j)).collect();
    strengths.sort_unstable();
    strengths.dedup();
    assert_eq!(classes.len(), strengths.len());
}

#[test]
fn eight_reyes_order_is_total_and_matches_the_spec() {
    check(Mode::OchoReyes, false);
    check(Mode::OchoReyes, true);
}

#[test]
fn four_reyes_order_is_total_and_matches_the_spec() {
    check(Mode::CuatroReyes, false);
    check(Mode::CuatroReyes, true);
}

#[test]
fn juego_values_reachable() {
    // 38 and 39 cannot be made; everything from 4 to 40 else can.
    let values: std::collections::BTreeSet<u8> = Jugada::all(Mode::OchoReyes)
        .iter()
        .map(|j| j.value())
        .collect();
    assert!(!values.contains(&38) && !values.contains(&39));
    assert!(values.contains(&4) && values.contains(&40));
}
