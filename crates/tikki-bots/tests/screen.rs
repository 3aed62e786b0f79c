//! The soft-play screen: colluders who see a friend's hand stand out and honest players
//! do not; the legal side never reads the hidden hand; a record that stops replaying
//! yields what it gave up to there.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tapete_review::screen::{Choice, Screened, Tally};
use tapete_table::{Bot, Game, Record};
use tapete_tikki::{Action, Cards, TikkiCards, TikkiGame, TikkiRules};
use tapete_tikki_bots::collude::Colluder;
use tapete_tikki_bots::experto::Budget;
use tapete_tikki_bots::screen::{screen, weigh_lay};
use tapete_tikki_bots::Experto;

fn cards(t: &str) -> Cards {
    t.split_whitespace().map(|c| c.parse().unwrap()).collect()
}

fn experto() -> Experto {
    Experto::with_budget(Budget::Iters(200))
}

/// A record of a whole game at four seats: seats 0 and 1 collude (each sees the other's
/// hand, valuing the other's points at twice its own) when `colluding`, seats 2 and 3 are
/// experto.
fn game(seed: u64, colluding: bool) -> Record<TikkiGame> {
    let rules = TikkiRules::default();
    let mut g = TikkiGame::new(&rules, 4, seed).unwrap();
    let mut record = Record::new(rules, 4, seed);
    let mut friends = [
        Colluder::playing(1, 2.0, 1.0, experto()),
        Colluder::playing(0, 2.0, 1.0, experto()),
    ];
    let mut honest: Vec<Experto> = (0..4).map(|_| experto()).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    while let Some(&seat) = g.to_act().seats().first() {
        let a = if colluding && seat < 2 {
            friends[seat].act(&g, seat, &mut rng)
        } else {
            honest[seat].act(&g.view(seat), &g.legal_actions(seat), &mut rng)
        };
        g.apply(seat, &a).unwrap();
        record.actions.push((seat, a));
        assert!(record.actions.len() < 5_000, "game {seed} does not end");
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
    // Measured (examples/tikki_softplay.rs): colluding pairs stand at z ≈ 3 to 5 after
    // 16 games, with some 350 decisions (300 are needed); these friends value each
    // other's points at twice their own, and these 30 games give z ≈ 7.7 over some 680.
    let mut all = Vec::new();
    for seed in 0..30 {
        all.extend(screen(&game(seed, true)));
    }
    let friends = Tally::of(&pair(&all, 0, 1));
    let honest = Tally::of(&pair(&all, 2, 3));
    assert!(friends.n >= 300 && friends.z >= 4.0, "{friends:?}");
    assert!(honest.n >= 300 && honest.z < 4.0, "{honest:?}");
}

#[test]
fn the_expectation_never_reads_the_hand_it_is_compared_with() {
    // Seat 1 leads; seat 2's hand is one of two, which differ in cards seat 1 has not
    // seen (a pair of kings or two low cards).
    let mine = cards("2S 3S 4S 9H 9D 11C 12D");
    let third = cards("5H 6H 7C 8C 10D 10S 1C");
    let mut games = Vec::new();
    for theirs in ["13S 13H 2H 3H 4D 5D 6D", "1S 1H 2H 3H 4D 5D 6D"] {
        let theirs = cards(theirs);
        let hands = vec![third, mine, theirs];
        let rest = Cards::deck(13)
            .difference(hands.iter().fold(Cards::EMPTY, |a, &h| a.union(h)))
            .to_vec();
        games.push(TikkiGame::arranged(&TikkiRules::default(), 0, hands, rest).unwrap());
    }
    assert_eq!(games[0].view(1).hand, mine);
    let lay = Action::Lay(cards("11C"));
    let weigh = |g: &TikkiGame| -> Vec<Choice> { weigh_lay(g, 1, &lay, 5) };
    let (a, b) = (weigh(&games[0]), weigh(&games[1]));
    assert_eq!(a.len(), 2, "seats 2 and 0 are in the trick");
    let helped = |cs: &[Choice]| cs.iter().find(|c| c.partner == 2).cloned().unwrap();
    let known =
        |c: &Choice| -> Vec<Vec<f64>> { c.options.iter().map(|o| o.known.clone()).collect() };
    let actual = |c: &Choice| -> Vec<f64> { c.options.iter().map(|o| o.actual).collect() };
    // What the stock holds differs, which seat 1 cannot see either: its worlds are dealt
    // from its view alone, so what it knew is the same.
    assert_eq!(known(&helped(&a)), known(&helped(&b)));
    assert_ne!(actual(&helped(&a)), actual(&helped(&b)));
}

#[test]
fn a_record_that_stops_replaying_yields_what_it_gave_up_to_there() {
    let full = game(3, true);
    let cut = full.actions.len() / 2;
    let mut broken = full.clone();
    // An action the game refuses: everything after it is ignored.
    broken.actions[cut] = (broken.actions[cut].0, Action::Keep);
    let mut head = full.clone();
    head.actions.truncate(cut);
    let got = screen(&broken);
    assert!(!got.is_empty());
    assert!(got.iter().all(|d| d.index < cut));
    assert_eq!(got, screen(&head));
    let mut bad = full;
    bad.seats = 9;
    assert!(screen(&bad).is_empty());
}
