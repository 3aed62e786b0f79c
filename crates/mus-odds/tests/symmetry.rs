//! Symmetries the exact counts must respect, and conditions nothing satisfies.

use tapete_mus::{Jugada, Mode};
use tapete_mus_odds::catalog::Catalog;
use tapete_mus_odds::leyes::{exact, exact_from_deck, Conditions, Declared, OddsError};

fn j(s: &str, mode: Mode) -> Jugada {
    Jugada::parse(s, mode).unwrap()
}

#[test]
fn our_pair_is_the_same_seen_from_either_partner() {
    // Our hand H at position p with partner P is the same deal as P at p+2 with partner H:
    // every lance result of the pair must agree, and next and prev trade places.
    for (mode, h, p) in [
        (Mode::OchoReyes, "RRCA", "RC7A"),
        (Mode::OchoReyes, "SSAA", "7654"),
        (Mode::CuatroReyes, "RR32", "C777"),
    ] {
        let cat = Catalog::new(mode, true);
        let (h, p) = (j(h, mode), j(p, mode));
        let a = exact(&cat, h, Some(p), &Conditions::default()).unwrap();
        let b = exact(&cat, p, Some(h), &Conditions::default()).unwrap();
        assert_eq!(a.total, b.total);
        for pos in 0..4 {
            let (x, y) = (&a.positions[pos], &b.positions[(pos + 2) % 4]);
            assert_eq!(
                (x.grande, x.chica, x.pares_win, x.pares_lose, x.pares_void),
                (y.grande, y.chica, y.pares_win, y.pares_lose, y.pares_void)
            );
            assert_eq!(
                (x.juego_win, x.juego_lose, x.punto_win, x.punto_lose),
                (y.juego_win, y.juego_lose, y.punto_win, y.punto_lose)
            );
            assert_eq!(x.piedras_us, y.piedras_us);
            assert_eq!(x.piedras_them, y.piedras_them);
        }
        assert_eq!(a.players[0], b.players[2]);
        assert_eq!(a.players[2], b.players[0]);
    }
}

#[test]
fn unknown_players_are_exchangeable() {
    let cat = Catalog::new(Mode::OchoReyes, false);
    let e = exact(
        &cat,
        j("RRCA", Mode::OchoReyes),
        None,
        &Conditions::default(),
    )
    .unwrap();
    assert_eq!(e.players[0], e.players[1]);
    assert_eq!(e.players[1], e.players[2]);
    // Swapping which opponent declared what leaves the weight of the conditioned deals
    // unchanged.
    let mut c1 = Conditions::default();
    c1.pares[0] = Declared::Yes;
    c1.pares[2] = Declared::No;
    let mut c2 = Conditions::default();
    c2.pares[0] = Declared::No;
    c2.pares[2] = Declared::Yes;
    let h = j("RC7A", Mode::OchoReyes);
    let a = exact(&cat, h, None, &c1).unwrap();
    let b = exact(&cat, h, None, &c2).unwrap();
    assert_eq!(a.total, b.total);
    assert_eq!(
        a.players[0].unwrap().0,
        a.total,
        "next said pares sí: always has pares"
    );
    assert_eq!(a.players[2].unwrap().0, 0, "prev said no: never has pares");
    assert_eq!(a.players[0].unwrap().0, b.players[2].unwrap().0);
}

#[test]
fn conditions_nothing_satisfies_are_an_error_not_nan() {
    let cat = Catalog::new(Mode::OchoReyes, false);
    // A deck of eight different ranks, one card each: no opponent can hold pares.
    let deck = [1, 0, 0, 1, 1, 1, 1, 1, 1, 1];
    let mut cond = Conditions::default();
    cond.pares[0] = Declared::Yes;
    let err = exact_from_deck(
        &cat,
        j("RRCA", Mode::OchoReyes),
        Some(j("RC7A", Mode::OchoReyes)),
        &deck,
        &cond,
    );
    let err = err.unwrap_err();
    assert!(matches!(err, OddsError::Impossible(_)));
    assert!(err.to_string().contains("pares next=yes"), "{err}");
    // Too many reyes between the two known hands.
    let err = exact(
        &cat,
        j("RRRR", Mode::OchoReyes),
        Some(j("RRRR", Mode::OchoReyes)),
        &Conditions::default(),
    );
    assert!(err.is_ok(), "8 reyes in 8 reyes mode fit");
    let cat4 = Catalog::new(Mode::CuatroReyes, false);
    let err = exact(
        &cat4,
        j("RRRR", Mode::CuatroReyes),
        Some(j("RRAA", Mode::CuatroReyes)),
        &Conditions::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("6 reyes"), "{err}");
}

#[test]
fn real31_only_moves_juego() {
    let h = j("S777", Mode::OchoReyes);
    let off = exact(
        &Catalog::new(Mode::OchoReyes, false),
        h,
        None,
        &Conditions::default(),
    )
    .unwrap();
    let on = exact(
        &Catalog::new(Mode::OchoReyes, true),
        h,
        None,
        &Conditions::default(),
    )
    .unwrap();
    assert_eq!(off.total, on.total);
    for p in 0..4 {
        assert_eq!(off.positions[p].grande, on.positions[p].grande);
        assert_eq!(off.positions[p].pares_win, on.positions[p].pares_win);
        assert!(on.positions[p].juego_win >= off.positions[p].juego_win);
    }
    // At mano a 31 already wins every tie; at postre la real now beats the other 31s.
    assert_eq!(on.positions[0].juego_win, off.positions[0].juego_win);
    assert!(
        on.positions[3].juego_win > off.positions[3].juego_win,
        "la real beats other 31s"
    );
}
