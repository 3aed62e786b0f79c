//! Exact agreement with brute-force enumeration over actual card combinations, on small
//! decks where every deal can be listed; conditioned results equal filtered enumeration.

use rand::seq::SliceRandom;
use tapete_cards::{rng_from_seed, Card, CardSet};
use tapete_mus::eval::{juego_cuenta, pares_cuenta, Evaluation};
use tapete_mus::{rules, Jugada, Mode};
use tapete_mus_odds::catalog::{Catalog, Counts};
use tapete_mus_odds::leyes::{exact_from_deck, Conditions, Declared, Exact, PositionCounts};

fn subsets4(cards: &[Card]) -> Vec<CardSet> {
    let n = cards.len();
    let mut out = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            for c in b + 1..n {
                for d in c + 1..n {
                    out.push(
                        [cards[a], cards[b], cards[c], cards[d]]
                            .into_iter()
                            .collect(),
                    );
                }
            }
        }
    }
    out
}

fn jugada(s: CardSet, mode: Mode) -> Jugada {
    Jugada::from_set(s, mode).unwrap()
}

fn allowed(d: Declared, has: bool) -> bool {
    match d {
        Declared::Unknown => true,
        Declared::Yes => has,
        Declared::No => !has,
    }
}

/// Lists every deal of `deck` to next, (partner), prev and counts like `exact` does.
fn brute(
    mode: Mode,
    real31: bool,
    hand: Jugada,
    partner: Option<Jugada>,
    deck: &[Card],
    cond: &Conditions,
) -> Exact {
    let mut total = 0u128;
    let mut pos: [PositionCounts; 4] = Default::default();
    let mut players = [(0u128, 0u128); 3];
    let ok = |rel: usize, j: Jugada| {
        allowed(cond.pares[rel], rules::pares(j).is_some())
            && allowed(cond.juego[rel], rules::has_juego(j))
            && (rel != 1 || cond.partner_sena.is_none_or(|s| s.holds(j)))
    };
    for a in subsets4(deck) {
        let ja = jugada(a, mode);
        if !ok(0, ja) {
            continue;
        }
        let rest: Vec<Card> = deck.iter().copied().filter(|c| !a.contains(*c)).collect();
        for b in subsets4(&rest) {
            let jb = jugada(b, mode);
            if !ok(2, jb) {
                continue;
            }
            let rest2: Vec<Card> = rest.iter().copied().filter(|c| !b.contains(*c)).collect();
            let partners: Vec<Jugada> = match partner {
                Some(p) => vec![p],
                None => subsets4(&rest2)
                    .into_iter()
                    .map(|x| jugada(x, mode))
                    .collect(),
            };
            for jx in partners {
                if partner.is_none() && !ok(1, jx) {
                    continue;
                }
                total += 1;
                for (i, j) in [(0, ja), (1, jx), (2, jb)] {
                    players[i].0 += rules::pares(j).is_some() as u128;
                    players[i].1 += rules::has_juego(j) as u128;
                }
                for p in 0..4 {
                    let mut hands = [hand; 4];
                    hands[(p + 1) % 4] = ja;
                    hands[(p + 2) % 4] = jx;
                    hands[(p + 3) % 4] = jb;
                    let e = Evaluation::new(hands, real31);
                    let out = &mut pos[p];
                    let ours = |w: usize| w % 2 == p % 2;
                    let (us, them) = (p % 2, 1 - p % 2);
                    if ours(e.grande) {
                        out.grande += 1;
                        out.piedras_us[0] += 1;
                    } else {
                        out.piedras_them[0] += 1;
                    }
                    if ours(e.chica) {
                        out.chica += 1;
                        out.piedras_us[1] += 1;
                    } else {
                        out.piedras_them[1] += 1;
                    }
                    match e.pares {
                        None => out.pares_void += 1,
                        Some(w) if ours(w) => {
                            out.pares_win += 1;
                            out.piedras_us[2] += pares_cuenta(&hands, us) as u128;
                        }
                        Some(_) => {
                            out.pares_lose += 1;
                            out.piedras_them[2] += pares_cuenta(&hands, them) as u128;
                        }
                    }
                    match (e.juego, e.punto) {
                        (Some(w), _) if ours(w) => {
                            out.juego_win += 1;
                            out.piedras_us[3] += juego_cuenta(&hands, us) as u128;
                        }
                        (Some(_), _) => {
                            out.juego_lose += 1;
                            out.piedras_them[3] += juego_cuenta(&hands, them) as u128;
                        }
                        (None, Some(w)) if ours(w) => {
                            out.punto_win += 1;
                            out.piedras_us[4] += 1;
                        }
                        _ => {
                            out.punto_lose += 1;
                            out.piedras_them[4] += 1;
                        }
                    }
                }
            }
        }
    }
    for (p, out) in pos.iter_mut().enumerate() {
        out.position = p;
    }
    Exact {
        total,
        positions: pos,
        players: [
            Some(players[0]),
            partner.is_none().then_some(players[1]),
            Some(players[2]),
        ],
    }
}

fn counts(cards: &[Card], mode: Mode) -> Counts {
    let mut c = [0u8; 10];
    for &card in cards {
        c[tapete_mus::Rank::of(card, mode) as usize] += 1;
    }
    c
}

fn check_case(
    seed: u64,
    mode: Mode,
    real31: bool,
    partner_known: bool,
    deck_size: usize,
    cond: Conditions,
) {
    let mut rng = rng_from_seed(seed);
    let mut all: Vec<Card> = Card::all().collect();
    all.shuffle(&mut rng);
    let hand_cards: CardSet = all[0..4].iter().copied().collect();
    let partner_cards: CardSet = all[4..8].iter().copied().collect();
    let deck: Vec<Card> = all[8..8 + deck_size].to_vec();
    let hand = jugada(hand_cards, mode);
    let partner = partner_known.then(|| jugada(partner_cards, mode));
    let cat = Catalog::new(mode, real31);
    let want = brute(mode, real31, hand, partner, &deck, &cond);
    match exact_from_deck(&cat, hand, partner, &counts(&deck, mode), &cond) {
        Ok(got) => assert_eq!(
            got, want,
            "seed {seed} {mode} hand {hand} partner {partner:?}"
        ),
        Err(e) => assert_eq!(want.total, 0, "seed {seed}: {e}"),
    }
}

#[test]
fn two_known_hands_match_enumeration() {
    for seed in 0..12 {
        let mode = if seed % 2 == 0 {
            Mode::OchoReyes
        } else {
            Mode::CuatroReyes
        };
        check_case(seed, mode, seed % 3 == 0, true, 14, Conditions::default());
    }
}

#[test]
fn one_known_hand_matches_enumeration() {
    for seed in 0..6 {
        let mode = if seed % 2 == 0 {
            Mode::OchoReyes
        } else {
            Mode::CuatroReyes
        };
        check_case(
            100 + seed,
            mode,
            seed % 2 == 1,
            false,
            13,
            Conditions::default(),
        );
    }
}

#[test]
fn conditioned_results_equal_filtered_enumeration() {
    use Declared::*;
    let conds = [
        Conditions {
            pares: [Yes, Unknown, No],
            juego: [Unknown; 3],
            partner_sena: None,
        },
        Conditions {
            pares: [Unknown; 3],
            juego: [No, No, Unknown],
            partner_sena: None,
        },
        Conditions {
            pares: [No, Yes, Unknown],
            juego: [Unknown, Unknown, Yes],
            partner_sena: None,
        },
    ];
    for (i, cond) in conds.iter().enumerate() {
        check_case(200 + i as u64, Mode::OchoReyes, false, false, 13, *cond);
        let mut two = *cond;
        two.pares[1] = Unknown;
        two.juego[1] = Unknown;
        two.partner_sena = None;
        check_case(300 + i as u64, Mode::CuatroReyes, true, true, 14, two);
    }
}

#[test]
fn a_partners_sena_equals_filtered_enumeration() {
    use tapete_mus::Sena;
    // Every seña on its own, and one with declarations heard; small decks in both modes.
    for (i, sena) in Sena::ALL.into_iter().enumerate() {
        let mode = if i % 2 == 0 {
            Mode::OchoReyes
        } else {
            Mode::CuatroReyes
        };
        let cond = Conditions {
            partner_sena: Some(sena),
            ..Conditions::default()
        };
        check_case(400 + i as u64, mode, i % 3 == 0, false, 13, cond);
    }
    let cond = Conditions {
        pares: [Declared::Yes, Declared::Unknown, Declared::No],
        partner_sena: Some(Sena::Duples),
        ..Conditions::default()
    };
    check_case(420, Mode::OchoReyes, false, false, 14, cond);
}

#[test]
fn a_sena_narrows_the_partner_and_is_refused_when_the_partner_is_known() {
    use tapete_mus::Sena;
    use tapete_mus_odds::leyes::{exact, OddsError};
    let mode = Mode::OchoReyes;
    let cat = Catalog::new(mode, false);
    let hand = Jugada::parse("RC74", mode).unwrap();
    let base = exact(&cat, hand, None, &Conditions::default()).unwrap();
    let duples = Conditions {
        partner_sena: Some(Sena::Duples),
        ..Conditions::default()
    };
    let with = exact(&cat, hand, None, &duples).unwrap();
    // A partner with duples wins pares for the pair far more often.
    let share = |e: &Exact| e.positions[0].pares_win as f64 / e.total as f64;
    assert!(
        share(&with) > share(&base) + 0.3,
        "{} {}",
        share(&with),
        share(&base)
    );
    let partner = Jugada::parse("SSCC", mode).unwrap();
    assert_eq!(
        exact(&cat, hand, Some(partner), &duples).unwrap_err(),
        OddsError::PartnerKnown
    );
}
