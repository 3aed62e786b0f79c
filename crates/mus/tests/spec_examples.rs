//! Every worked example of `docs/rules/mus.md`, and the counting rules played out on
//! hands dealt by hand.

use tapete_cards::CardSet;
use tapete_mus::eval::{validate_deal, Evaluation};
use tapete_mus::events::{Event, LanceStatus, ScoreReason};
use tapete_mus::{Action, Jugada, Lance, Mode, MusGame, MusRules};
use tapete_table::Game;

fn deal(text: &str) -> [Jugada; 4] {
    let v: Vec<Jugada> = text
        .split_whitespace()
        .map(|h| Jugada::parse(h, Mode::OchoReyes).unwrap())
        .collect();
    v.try_into().unwrap()
}

fn eval(text: &str) -> Evaluation {
    Evaluation::new(deal(text), false)
}

#[test]
fn grande_examples() {
    assert_eq!(eval("RRCC RRRA RCCC RCSA").grande, 1);
    assert_eq!(eval("RAAA CCCC RAAA CS77").grande, 0);
    assert_eq!(eval("S777 SSSA 754A C54A").grande, 3);
}

#[test]
fn impossible_example_deals_are_rejected_as_deals() {
    // Six and five caballos: fine to illustrate comparisons, impossible as deals.
    let e = validate_deal(&deal("RRCC RRRA RCCC RCSA"), Mode::OchoReyes).unwrap_err();
    assert_eq!((e.rank, e.count, e.max), ("caballos", 6, 4));
    let e = validate_deal(&deal("RAAA CCCC RAAA CS77"), Mode::OchoReyes).unwrap_err();
    assert_eq!((e.rank, e.count), ("caballos", 5));
    assert!(validate_deal(&deal("S777 SSSA 754A C54A"), Mode::OchoReyes).is_ok());
}

#[test]
fn chica_examples() {
    assert_eq!(eval("5444 7655 7654 RCSA").chica, 3);
    assert_eq!(eval("RAAA 44AA RAAA CS77").chica, 0);
    assert_eq!(eval("S777 SSSA 754A C54A").chica, 2);
}

#[test]
fn pares_examples() {
    let e = eval("5444 7654 77AA RCSA");
    assert!(!e.pares_bet, "only pair (0,2) has pares: not bet");
    assert_eq!(e.pares.map(|p| p % 2), Some(0));
    assert_eq!(
        e.pares,
        Some(2),
        "duples de sietes y pitos beat medias de cuatros"
    );
    assert_eq!(eval("RRRC 44AA RAAA CS77").pares, Some(1));
    assert!(eval("RRRC 44AA RAAA CS77").pares_bet);
    assert_eq!(eval("RR4A 7654 RRCS RRSA").pares, Some(0));
}

#[test]
fn juego_examples() {
    let e = eval("5444 7654 77AA RCSS");
    assert_eq!(e.juego, Some(3), "only position 3 has juego (40)");
    assert!(!e.juego_bet);
    assert_eq!(e.punto, None, "with juego at the table there is no punto");
    assert_eq!(eval("RRR4 44AA RAAA CS75").juego, Some(3), "32 beats 34");
    assert_eq!(
        eval("RR4A R777 RCSA RRSA").juego,
        Some(1),
        "31, closest to mano"
    );
}

#[test]
fn punto_examples() {
    let e = eval("RRAA 44AA RC55 RC44");
    assert_eq!((e.juego, e.punto), (None, Some(2)));
    assert_eq!(eval("RR4A R764 AAAA RR6A").punto, Some(1));
}

#[test]
fn cuenta_of_the_examples() {
    // RRRC medias (2) + RAAA medias (2) for pair 0 vs 44AA duples (3) + CS77 pares (1):
    // pair 1 wins pares and collects 3 + 1.
    let e = eval("RRRC 44AA RAAA CS77");
    // Juego: RRRC = 40 (pair 0); nobody else has juego: pair 0 collects 2.
    assert_eq!(e.juego, Some(0));
    assert_eq!(e.cuenta, [2, 4]);
    // RRAA duples (3) + RC55 pares (1) beat 44AA: pair 0 takes pares; RC55 (30) takes
    // punto, which pays 1.
    assert_eq!(eval("RRAA 44AA RC55 RC44").cuenta, [3 + 1 + 1, 0]);
    assert_eq!(eval("RRAA 44AA RC55 RC44").en_paso, [5 + 1, 1]);
}

#[test]
fn real31_beats_other_31s_only_when_on() {
    let hands = deal("RS74 S777 RRAA RRAA");
    assert_eq!(Evaluation::new(hands, false).juego, Some(0));
    assert_eq!(Evaluation::new(hands, true).juego, Some(1));
}

#[test]
fn four_reyes_mode_keeps_treses_and_doses() {
    let m = Mode::CuatroReyes;
    let h = |s: &str| Jugada::parse(s, m).unwrap();
    // 3 beats 2 beats as at grande; 3 is worth 3 at juego/punto.
    let e = Evaluation::new([h("7732"), h("773A"), h("772A"), h("7654")], false);
    assert_eq!(e.grande, 0, "7732 > 773A > 772A");
    assert_eq!(e.chica, 2, "A277 is the lowest");
    assert_eq!(h("RRR3").value(), 33);
    assert_eq!(
        Jugada::parse("12o 3c 11e 2b", m).unwrap().to_string(),
        "RC32"
    );
}

// ---- the counting, played out --------------------------------------------------------

fn cards(text: &str) -> CardSet {
    text.split_whitespace()
        .map(|c| c.parse().unwrap())
        .collect()
}

/// Seats 0..3 with mano 0, a fresh game of 40 with the given piedras.
fn table(hands: [&str; 4], piedras: [u8; 2], rules: MusRules) -> MusGame {
    MusGame::from_deal(rules, hands.map(cards), 0, piedras, 1).unwrap()
}

fn play(g: &mut MusGame, script: &[(usize, &str)]) -> Vec<Event> {
    let mut all = Vec::new();
    for (seat, a) in script {
        let a: Action = a.parse().unwrap();
        match g.apply(*seat, &a) {
            Ok(ev) => all.extend(ev),
            Err(e) => panic!("seat {seat}: {a}: {e}"),
        }
    }
    all
}

/// Plays every remaining decision with the first legal action (paso / truthful declarations).
fn pass_to_end_of_hand(g: &mut MusGame) -> Vec<Event> {
    let hand = g.hand_number();
    let mut all = Vec::new();
    while g.hand_number() == hand && g.outcome().is_none() {
        let seat = g.to_act().seats()[0];
        let a = g.legal_actions(seat)[0].clone();
        all.extend(g.apply(seat, &a).unwrap());
    }
    all
}

fn scored(events: &[Event]) -> Vec<(usize, u8, Lance, ScoreReason)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Scored {
                pair,
                piedras,
                lance,
                reason,
                ..
            } => Some((*pair, *piedras, *lance, *reason)),
            _ => None,
        })
        .collect()
}

// Seat 0: RRRC (medias de reyes, 40)   seat 1: 4 4 1 1 (duples, 10)
// Seat 2: R A A A (medias de pitos, 13) seat 3: C S 7 7 (pares de sietes, 34)
const HANDS: [&str; 4] = [
    "12o 12c 3e 11o",
    "4o 4c 1o 1c",
    "12e 1e 1b 2o",
    "11c 10c 7o 7c",
];

#[test]
fn everything_en_paso_pays_grande_chica_and_the_cuentas() {
    let mut g = table(HANDS, [0, 0], MusRules::default());
    let ev = play(&mut g, &[(0, "no hay mus")]);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::LanceStarted {
            lance: Lance::Grande
        }
    )));
    let ev = pass_to_end_of_hand(&mut g);
    // Grande: seat 0 (RRRC) 1. Chica: seat 1 (44AA) beats seat 2 (RAAA)? low to high
    // AA44 vs AAAR: third card 4 < A? No: A is lowest, AAAR has a third A: seat 2 wins.
    // Pares bet (both pairs), en paso: seat 1 duples wins, cuenta 3 + 1 (seat 3 pares).
    // Juego: seats 0 (40) and 3 (34): 40 ranks above 34 (31, 32, 40, 37 … 33): pair 0
    // collects 2 (seat 2 has no juego).
    assert_eq!(
        scored(&ev),
        vec![
            (0, 1, Lance::Grande, ScoreReason::EnPaso),
            (0, 1, Lance::Chica, ScoreReason::EnPaso),
            (1, 4, Lance::Pares, ScoreReason::Cuenta),
            (0, 2, Lance::Juego, ScoreReason::Cuenta),
        ]
    );
    assert_eq!(g.scores().piedras, [4, 4]);
    assert!(ev.iter().any(|e| matches!(e, Event::Showdown(_))));
    assert_eq!(g.mano(), 1, "the deal passes: the old mano becomes postre");
}

#[test]
fn accepted_bets_are_paid_at_the_counting_and_declined_ones_at_once() {
    let mut g = table(HANDS, [0, 0], MusRules::default());
    // Grande: 0 envida 5, 1 quiere. Chica: 0 envida, 1 and 3 decline: deje 1 at once.
    let ev = play(
        &mut g,
        &[
            (0, "no hay mus"),
            (0, "envido 5"),
            (1, "quiero"),
            (0, "envido"),
            (1, "no quiero"),
            (3, "no quiero"),
        ],
    );
    assert_eq!(scored(&ev), vec![(0, 1, Lance::Chica, ScoreReason::Deje)]);
    assert_eq!(g.scores().piedras, [1, 0]);
    // Pares: declarations, then 1 envida 2 and 2 raises 3: 1 and 3 decline → pair 0 takes 2.
    let ev = play(
        &mut g,
        &[
            (0, "pares sí"),
            (1, "pares sí"),
            (2, "pares sí"),
            (3, "pares sí"),
            (0, "paso"),
            (1, "envido 2"),
            (2, "reenvido 3"),
            (3, "no quiero"),
            (1, "no quiero"),
        ],
    );
    assert_eq!(scored(&ev), vec![(0, 2, Lance::Pares, ScoreReason::Deje)]);
    let ev = pass_to_end_of_hand(&mut g);
    // Counting: grande 5 to seat 0's pair; chica already paid (declined: nothing more);
    // pares cuenta still goes to the best pares (pair 1: 3 + 1); juego 2 to pair 0.
    assert_eq!(
        scored(&ev),
        vec![
            (0, 5, Lance::Grande, ScoreReason::Envite),
            (1, 4, Lance::Pares, ScoreReason::Cuenta),
            (0, 2, Lance::Juego, ScoreReason::Cuenta),
        ]
    );
    assert_eq!(g.scores().piedras, [10, 4]);
}

#[test]
fn wrong_declarations_and_out_of_turn_change_nothing() {
    let mut g = table(HANDS, [0, 0], MusRules::default());
    play(&mut g, &[(0, "no hay mus")]);
    pass_until_declarations(&mut g);
    let before = g.clone();
    assert!(
        g.apply(0, &Action::Pares(false)).is_err(),
        "seat 0 holds medias"
    );
    assert!(g.apply(1, &Action::Pares(true)).is_err(), "out of turn");
    assert!(
        g.apply(0, &Action::Juego(true)).is_err(),
        "pares are declared first"
    );
    assert_eq!(g, before);
}

fn pass_until_declarations(g: &mut MusGame) {
    while !matches!(g.view(0).phase, tapete_mus::view::Phase::Declare { .. }) {
        let seat = g.to_act().seats()[0];
        g.apply(seat, &Action::Paso).unwrap();
    }
}

#[test]
fn accepted_ordago_ends_the_game_at_once() {
    let mut g = table(HANDS, [0, 0], MusRules::default());
    let ev = play(
        &mut g,
        &[(0, "no hay mus"), (0, "paso"), (1, "órdago"), (2, "quiero")],
    );
    assert!(ev.iter().any(|e| matches!(e, Event::Showdown(_))));
    assert!(
        ev.contains(&Event::GameWon {
            pair: 0,
            ordago: true,
            piedras: [0, 0]
        }),
        "RRRC wins grande"
    );
    assert_eq!(g.scores().games, [1, 0]);
    assert_eq!(g.scores().piedras, [0, 0], "a new game starts from zero");
    assert_eq!(scored(&ev), vec![]);
}

#[test]
fn the_game_ends_the_moment_a_pair_reaches_the_target_mid_count() {
    // Pair 0 needs 2: grande (1) and chica (1) en paso make 40 before pares and juego
    // would let pair 1 (at 39) win.
    let mut g = table(HANDS, [38, 39], MusRules::default());
    play(&mut g, &[(0, "no hay mus")]);
    let ev = pass_to_end_of_hand(&mut g);
    assert_eq!(
        scored(&ev),
        vec![
            (0, 1, Lance::Grande, ScoreReason::EnPaso),
            (0, 1, Lance::Chica, ScoreReason::EnPaso),
        ]
    );
    assert!(ev.contains(&Event::GameWon {
        pair: 0,
        ordago: false,
        piedras: [40, 39]
    }));
}

#[test]
fn a_deje_reaching_the_target_ends_the_game_immediately() {
    let mut g = table(HANDS, [39, 0], MusRules::default());
    let ev = play(
        &mut g,
        &[
            (0, "no hay mus"),
            (0, "envido"),
            (1, "no quiero"),
            (3, "no quiero"),
        ],
    );
    assert!(ev.contains(&Event::GameWon {
        pair: 0,
        ordago: false,
        piedras: [40, 0]
    }));
    assert!(
        !ev.iter().any(|e| matches!(e, Event::Showdown(_))),
        "no counting"
    );
}

#[test]
fn pares_held_by_one_pair_is_not_bet_but_pays_the_cuenta() {
    // Seat 0: RRC7 (pares de reyes), seat 2: 6 5 4 1, seats 1 and 3 without pares.
    let hands = [
        "12o 12c 11o 7o",
        "11c 10c 7c 6c",
        "6o 5o 4o 1o",
        "10e 7e 5e 4e",
    ];
    let mut g = table(hands, [0, 0], MusRules::default());
    play(&mut g, &[(0, "no hay mus")]);
    pass_until_declarations(&mut g);
    let ev = play(
        &mut g,
        &[
            (0, "pares sí"),
            (1, "pares no"),
            (2, "pares no"),
            (3, "pares no"),
        ],
    );
    assert!(ev.contains(&Event::LanceSettled {
        lance: Lance::Pares,
        status: LanceStatus::Unbet { pair: 0 }
    }));
    let ev = pass_to_end_of_hand(&mut g);
    assert!(scored(&ev).contains(&(0, 1, Lance::Pares, ScoreReason::Cuenta)));
}

#[test]
fn punto_y_miedo_pays_two_for_a_declined_first_bet() {
    // Nobody has juego: seat 0 RRAA (22), seat 1 44AA (10), seat 2 RC55 (30), seat 3 RC44 (28).
    let hands = [
        "12o 12c 1o 1c",
        "4o 4c 1e 1b",
        "12e 11o 5o 5c",
        "12b 11c 4e 4b",
    ];
    for (miedo, deje) in [(true, 2), (false, 1)] {
        let rules = MusRules {
            punto_y_miedo: miedo,
            ..MusRules::default()
        };
        let mut g = table(hands, [0, 0], rules);
        play(&mut g, &[(0, "no hay mus")]);
        pass_until_declarations(&mut g);
        // Pares: everyone declares; juego: nobody → punto.
        while !matches!(
            g.view(0).phase,
            tapete_mus::view::Phase::Bet {
                lance: Lance::Punto
            }
        ) {
            let seat = g.to_act().seats()[0];
            let a = g.legal_actions(seat)[0].clone();
            g.apply(seat, &a).unwrap();
        }
        let ev = play(&mut g, &[(0, "envido"), (1, "no quiero"), (3, "no quiero")]);
        // The deje is scored at once; the counting follows, where the punto's own piedra
        // still goes to the best punto (seat 2, 30).
        let s = scored(&ev);
        assert_eq!(s[0], (0, deje, Lance::Punto, ScoreReason::Deje));
        assert_eq!(s.last(), Some(&(0, 1, Lance::Punto, ScoreReason::Cuenta)));
    }
}

#[test]
fn discards_are_served_and_the_deck_rebuilt_from_the_pile() {
    let mut g = MusGame::new(&MusRules::default(), 4, 11).unwrap();
    let mut rebuilt = false;
    for _round in 0..6 {
        for p in 0..4 {
            let seat = g.to_act().seats()[0];
            assert_eq!(g.position(seat), p);
            g.apply(seat, &Action::Mus).unwrap();
        }
        for seat in 0..4 {
            let all = g.cards_of(seat);
            let ev = g.apply(seat, &Action::Descarto(all)).unwrap();
            rebuilt |= ev.iter().any(|e| matches!(e, Event::DeckRebuilt { .. }));
            g.audit().unwrap();
        }
        for seat in 0..4 {
            assert_eq!(g.cards_of(seat).len(), 4);
        }
    }
    assert!(
        rebuilt,
        "16 cards a round empty the 24-card deck in the second round"
    );
}

#[test]
fn discard_errors_name_the_problem() {
    let mut g = MusGame::new(&MusRules::default(), 4, 11).unwrap();
    for _ in 0..4 {
        let seat = g.to_act().seats()[0];
        g.apply(seat, &Action::Mus).unwrap();
    }
    let before = g.clone();
    let not_mine = g.cards_of(1).iter().next().unwrap();
    let err = g
        .apply(0, &Action::Descarto([not_mine].into_iter().collect()))
        .unwrap_err();
    assert!(err.to_string().contains(&not_mine.to_string()), "{err}");
    let err = g.apply(0, &Action::Descarto(CardSet::EMPTY)).unwrap_err();
    assert!(err.to_string().contains("between 1 and 4"), "{err}");
    assert!(g.apply(0, &Action::Paso).is_err());
    assert_eq!(g, before);
    let mine = g.cards_of(0).iter().next().unwrap();
    g.apply(0, &Action::Descarto([mine].into_iter().collect()))
        .unwrap();
    assert!(
        g.apply(0, &Action::Descarto(g.cards_of(0))).is_err(),
        "a second discard"
    );
    assert_eq!(g.legal_actions(0), vec![]);
}

#[test]
fn the_final_score_stays_when_the_match_ends() {
    let rules = MusRules {
        juegos: 1,
        vacas: 1,
        ..MusRules::default()
    };
    // Pair 0 wins the one juego of the match by órdago at 25–7.
    let mut g = table(HANDS, [25, 7], rules.clone());
    play(
        &mut g,
        &[(0, "no hay mus"), (0, "paso"), (1, "órdago"), (2, "quiero")],
    );
    let v = g.view(1);
    assert_eq!(v.phase, tapete_mus::view::Phase::Over);
    assert_eq!(v.scores.piedras, [25, 7], "the last juego's piedras stay");
    assert_eq!(v.scores.games, [1, 0], "the last juego counts");
    assert_eq!(v.scores.vacas, [1, 0]);
    assert_eq!(
        (v.game_number, v.hand_number),
        (1, 1),
        "nothing past the end"
    );
    let o = g.outcome().expect("over");
    assert_eq!(
        o.summary,
        "pair 0–2 wins the match (pair 0–2 against pair 1–3: vacas 1–0, juegos 1–0, piedras 25–7)"
    );

    // Pair 1 wins by a deje reaching 40: the numbers still go pair 0–2 first.
    let mut g = table(HANDS, [10, 39], rules);
    let ev = play(
        &mut g,
        &[
            (0, "no hay mus"),
            (0, "paso"),
            (1, "envido"),
            (2, "no quiero"),
            (0, "no quiero"),
        ],
    );
    assert!(ev.contains(&Event::MatchWon { pair: 1 }));
    let v = g.view(0);
    assert_eq!(v.scores.piedras, [10, 40]);
    assert_eq!((v.scores.games, v.scores.vacas), ([0, 1], [0, 1]));
    assert_eq!((v.game_number, v.hand_number), (1, 1));
    let o = g.outcome().expect("over");
    assert!(
        o.summary.starts_with("pair 1–3 wins the match")
            && o.summary.ends_with("vacas 0–1, juegos 0–1, piedras 10–40)"),
        "{}",
        o.summary
    );
}
