//! The soft-play screen: colluders who see a friend's hand stand out and honest players
//! do not; the legal side never reads the hidden hand; a record that stops replaying
//! yields what it gave up to there.

use crate::common::{c, dealt, h, play, rng};
use tapete_chinchon::{Action, ChinchonGame, ChinchonRules, Deal};
use tapete_chinchon_bots::collude::{Colluder, Help};
use tapete_chinchon_bots::screen::{screen, weigh_close, weigh_discard};
use tapete_chinchon_bots::Experto;
use tapete_review::screen::{Choice, Screened, Tally};
use tapete_table::{Bot, Game, Record};

/// A record of a whole game at four seats: seats 0 and 1 collude (each sees the other's
/// hand) when `colluding`, seats 2 and 3 are experto.
fn game(seed: u64, colluding: bool) -> Record<ChinchonGame> {
    let rules = ChinchonRules::default();
    let mut g = ChinchonGame::new(&rules, 4, seed).unwrap();
    let mut record = Record::new(rules, 4, seed);
    let mut friends = [
        Colluder::new(1, Help::default()),
        Colluder::new(0, Help::default()),
    ];
    let mut honest: Vec<Experto> = (0..4).map(|_| Experto::default()).collect();
    let mut r = rng(seed);
    while let Some(&seat) = g.to_act().seats().first() {
        let a = if colluding && seat < 2 {
            friends[seat].act(&g, seat, &mut r)
        } else {
            honest[seat].act(&g.view(seat), &g.legal_actions(seat), &mut r)
        };
        g.apply(seat, &a).unwrap();
        record.actions.push((seat, a));
        assert!(record.actions.len() < 50_000, "game {seed} does not end");
    }
    record
}

/// The decisions between seats `x` and `y`, either way.
fn pair(all: &[Screened], x: usize, y: usize) -> Vec<Screened> {
    all.iter()
        .filter(|d| (d.seat, d.partner) == (x, y) || (d.seat, d.partner) == (y, x))
        .cloned()
        .collect()
}

#[test]
fn friends_who_see_each_others_hands_are_flagged_and_honest_neighbours_are_not() {
    // Measured (examples/chinchon_softplay.rs): colluding pairs of this kind stand at z ≈ 7
    // to 18 after 8 games, which give them some 500 decisions (300 are needed); these 8
    // give z ≈ 12, and the honest pair beside it stays near 0.
    let mut all = Vec::new();
    for seed in 0..8 {
        all.extend(screen(&game(seed, true)));
    }
    let friends = Tally::of(&pair(&all, 0, 1));
    let honest = Tally::of(&pair(&all, 2, 3));
    assert!(friends.n >= 300 && friends.z >= 4.0, "{friends:?}");
    assert!(honest.n >= 300 && honest.z < 4.0, "{honest:?}");
}

#[test]
fn the_expectation_never_reads_the_hand_it_is_compared_with() {
    // Seat 0 draws 1c and can close (1o 2o 3o, the 5s, 1c left) or discard; seat 1's
    // hidden hand is one of two, which differ in a card seat 0 has not seen (3c or 5o).
    let ours = "1o 2o 3o 5c 5e 5b 12o";
    let mut one = dealt(ours, "4o 6c 7e 10b 11b 12c 3c", "7o", "1c", [0, 0]);
    let mut other = dealt(ours, "4o 6c 7e 10b 11b 12c 5o", "7o", "1c", [0, 0]);
    play(&mut one, &["robo"]);
    play(&mut other, &["robo"]);
    assert_eq!(one.view(0), other.view(0));
    let legal = one.legal_actions(0);
    for action in [Action::Descarto(c("12o")), Action::Cierro(c("12o"))] {
        let a = weigh_close(&one, &one.view(0), &legal, &action, 9);
        let b = weigh_close(&other, &other.view(0), &legal, &action, 9);
        assert_eq!(a.len(), 1);
        assert_eq!(
            a[0].legal, b[0].legal,
            "the expected points are the seat's own"
        );
        assert_ne!(a[0].hidden, b[0].hidden, "the actual hands differ");
    }
    let discard = Action::Descarto(c("12o"));
    let a = weigh_discard(&one, &one.view(0), &legal, &discard, None, 9).unwrap();
    let b = weigh_discard(&other, &other.view(0), &legal, &discard, None, 9).unwrap();
    let known =
        |d: &Choice| -> Vec<Vec<f64>> { d.options.iter().map(|o| o.known.clone()).collect() };
    assert_eq!(known(&a), known(&b));
    let actual = |d: &Choice| -> Vec<f64> { d.options.iter().map(|o| o.actual).collect() };
    assert_ne!(actual(&a), actual(&b), "with 4o 5o, seat 1 can use 3o");
}

#[test]
fn a_record_that_stops_replaying_yields_what_it_gave_up_to_there() {
    let full = game(11, true);
    let cut = full.actions.len() / 2;
    let mut broken = full.clone();
    // An action the game refuses: everything after it is ignored.
    broken.actions[cut] = (broken.actions[cut].0, Action::Meto(c("12o")));
    let mut head = full.clone();
    head.actions.truncate(cut);
    let got = screen(&broken);
    assert!(!got.is_empty());
    assert!(got.iter().all(|d| d.index < cut));
    assert_eq!(got, screen(&head));
    // A record that does not even start yields nothing.
    let mut bad = full;
    bad.seats = 9;
    assert!(screen(&bad).is_empty());
}

#[test]
fn a_colluder_feeds_its_friend_the_card_it_needs() {
    // Three seats: seat 0 (to discard) sees that seat 1 holds 4c 5c; its own spare
    // cards are 6c and 12e, and experto alone throws the rey.
    let deal = Deal {
        hands: vec![
            h("1o 2o 3o 7b 7e 6c 12e"),
            h("4c 5c 10o 11o 12o 1e 2b"),
            h("3b 4b 5b 6e 7c 10e 11e"),
        ],
        muestra: c("1b"),
        stock_top: vec![c("2e")],
        scores: vec![0, 0, 0],
        mano: 0,
    };
    let mut g = ChinchonGame::arranged(&ChinchonRules::default(), &deal, 3).unwrap();
    play(&mut g, &["robo"]);
    let legal = g.legal_actions(0);
    let honest = Experto::default().act(&g.view(0), &legal, &mut rng(1));
    assert_eq!(honest, Action::Descarto(c("12e")));
    let fed = Colluder::new(1, Help::default()).act(&g, 0, &mut rng(1));
    assert_eq!(fed, Action::Descarto(c("6c")));
}
