//! An event as one function of its results: driven to its end in every format, the same
//! whatever order the results come in, and results that do not fit refused by name.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tapete_tournament::event::{Event, Format, MatchKey, MatchResult, Pairing};
use tapete_tournament::{swiss, Side, TournamentError};

fn result_of(p: &Pairing, rng: &mut ChaCha8Rng) -> MatchResult {
    let winner = if rng.gen_bool(0.5) {
        Side::First
    } else {
        Side::Second
    };
    MatchResult {
        key: p.key,
        first: p.first,
        second: p.second,
        winner: Some(winner),
        first_points: i64::from(winner == Side::First),
        second_points: i64::from(winner == Side::Second),
    }
}

/// Plays `ev` to its end, one result at a time (the pending ones in a random order):
/// answers every result in the order given, and how many steps it took.
fn drive(ev: &Event, seed: u64) -> Vec<MatchResult> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut results = Vec::new();
    for _ in 0..100_000 {
        let next = ev.next(&results).expect("the results fit");
        if next.over {
            assert!(next.pending.is_empty());
            return results;
        }
        assert!(!next.pending.is_empty(), "{next:?}");
        // Nobody twice among the pending.
        let mut seen: Vec<usize> = next
            .pending
            .iter()
            .flat_map(|p| [p.first, p.second])
            .collect();
        seen.sort_unstable();
        let before = seen.len();
        seen.dedup();
        assert_eq!(before, seen.len(), "{next:?}");
        let p = *next.pending.choose(&mut rng).unwrap();
        results.push(result_of(&p, &mut rng));
    }
    panic!("the event did not end");
}

#[test]
fn a_swiss_event_is_the_swiss_pairing_round_by_round() {
    for n in [2usize, 5, 8, 13] {
        let rounds = swiss::max_rounds(n).min(4);
        let ev = Event::new(Format::Swiss { rounds }, n).unwrap();
        let results = drive(&ev, n as u64);
        let (h, next) = ev.history(&results).unwrap();
        assert!(next.over);
        assert_eq!(next.round, rounds);
        assert_eq!(h.rounds(), rounds);
        // Each round is what swiss::pair gives on the rounds before it.
        for r in 1..=rounds {
            let before = swiss::History {
                played: h.played.iter().filter(|p| p.round < r).cloned().collect(),
                byes: h.byes.iter().filter(|b| b.0 < r).cloned().collect(),
                withdrawn: vec![],
            };
            let paired = swiss::pair(n, &before, &swiss::Options::default()).unwrap();
            let got: Vec<(usize, usize)> = h
                .played
                .iter()
                .filter(|p| p.round == r)
                .map(|p| (p.first, p.second))
                .collect();
            assert_eq!(got, paired.pairs, "n {n} round {r}");
            assert_eq!(
                h.byes.iter().find(|b| b.0 == r).map(|b| b.1),
                paired.bye,
                "n {n} round {r}"
            );
        }
    }
}

#[test]
fn the_same_results_in_any_order_give_the_same_event() {
    let ev = Event::new(Format::Swiss { rounds: 3 }, 9).unwrap();
    let results = drive(&ev, 4);
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut mixed = results.clone();
    mixed.shuffle(&mut rng);
    assert_eq!(ev.history(&results).unwrap(), ev.history(&mixed).unwrap());
    // Part-way: every prefix of the results, shuffled, stands where the prefix does.
    for k in 0..results.len() {
        let mut part = results[..k].to_vec();
        let want = ev.next(&part).unwrap();
        part.shuffle(&mut rng);
        assert_eq!(ev.next(&part).unwrap(), want, "after {k} results");
    }
    for format in [Format::Knockout { consolation: true }, Format::Double] {
        let ev = Event::new(format, 11).unwrap();
        let results = drive(&ev, 5);
        let mut mixed = results.clone();
        mixed.shuffle(&mut rng);
        assert_eq!(ev.next(&mixed).unwrap(), ev.next(&results).unwrap());
        assert!(ev.next(&mixed).unwrap().over);
    }
}

#[test]
fn every_format_plays_to_its_end() {
    for n in [2usize, 3, 7, 16] {
        let tres = Event::new(Format::TresCeros, n).unwrap();
        let results = drive(&tres, 10 + n as u64);
        let (h, next) = tres.history(&results).unwrap();
        assert!(next.over);
        assert_eq!(tapete_tournament::tres_ceros::alive(n, &h).len(), 1);
        let ko = Event::new(Format::Knockout { consolation: true }, n).unwrap();
        let results = drive(&ko, 20 + n as u64);
        let state = ko
            .bracket()
            .unwrap()
            .state(&ko.bracket_results(&results).unwrap())
            .unwrap();
        assert!(state.over && state.champion.is_some());
        let double = Event::new(Format::Double, n).unwrap();
        let results = drive(&double, 30 + n as u64);
        assert!(results.len() >= 2 * n - 2 && results.len() < 2 * n, "n {n}");
        let dup = Event::new(Format::Duplicate { rounds: 1 }, n).unwrap();
        assert_eq!(drive(&dup, 40).len(), n / 2);
    }
}

#[test]
fn results_that_do_not_fit_are_refused_by_name() {
    let ev = Event::new(Format::Swiss { rounds: 2 }, 4).unwrap();
    let first = ev.next(&[]).unwrap();
    assert_eq!(first.round, 1);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let r0 = result_of(&first.pending[0], &mut rng);
    // A result of round 2 while round 1 is being played.
    let early = MatchResult {
        key: MatchKey::Board { round: 2, board: 0 },
        ..r0
    };
    assert_eq!(
        ev.next(&[r0, early]),
        Err(TournamentError::Unpaired(early.key))
    );
    // Twice.
    assert_eq!(ev.next(&[r0, r0]), Err(TournamentError::Twice(r0.key)));
    // Other entrants than the pairing's.
    let swapped = MatchResult {
        first: r0.second,
        second: r0.first,
        ..r0
    };
    assert_eq!(
        ev.next(&[swapped]),
        Err(TournamentError::NotThePairing {
            key: r0.key,
            paired: (r0.first, r0.second),
            got: (r0.second, r0.first)
        })
    );
    // A bracket's key in a Swiss, a board beyond the last round.
    let wrong = MatchResult {
        key: MatchKey::Bracket(0),
        ..r0
    };
    assert_eq!(ev.next(&[wrong]), Err(TournamentError::Unpaired(wrong.key)));
    let results = drive(&ev, 2);
    let late = MatchResult {
        key: MatchKey::Board { round: 3, board: 0 },
        ..results[0]
    };
    let mut more = results.clone();
    more.push(late);
    assert_eq!(ev.next(&more), Err(TournamentError::Unpaired(late.key)));
    // A draw in a bracket; a bracket match not ready.
    let ko = Event::new(Format::Knockout { consolation: false }, 4).unwrap();
    let p = ko.next(&[]).unwrap().pending[0];
    let draw = MatchResult {
        winner: None,
        ..result_of(&p, &mut rng)
    };
    assert_eq!(ko.next(&[draw]), Err(TournamentError::DrawInBracket(p.key)));
    let final_key = MatchKey::Bracket(ko.bracket().unwrap().matches().len() - 1);
    let not_ready = MatchResult {
        key: final_key,
        ..result_of(&p, &mut rng)
    };
    assert_eq!(
        ko.next(&[not_ready]),
        Err(TournamentError::Unpaired(final_key))
    );
    // Bad events.
    assert_eq!(
        Event::new(Format::Swiss { rounds: 4 }, 4),
        Err(TournamentError::Rounds { rounds: 4, max: 3 })
    );
    assert!(Event::new(Format::Double, 1).is_err());
    assert_eq!(ko.history(&[]), Err(TournamentError::NotRounds));
    assert_eq!(ev.bracket().err(), Some(TournamentError::NotBracket));
    assert_eq!(
        format!("{}", MatchKey::Board { round: 2, board: 0 }),
        "round 2, board 1"
    );
}

#[test]
fn a_withdrawn_entrant_is_paired_no_more_from_its_round_and_earlier_rounds_stand() {
    let mut ev = Event::new(Format::Swiss { rounds: 3 }, 6).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let round1 = ev.next(&[]).unwrap();
    let results: Vec<MatchResult> = round1
        .pending
        .iter()
        .map(|p| result_of(p, &mut rng))
        .collect();
    let before = ev.history(&results).unwrap();
    // Entrant 2 leaves after round 1: round 2 pairs the other five (one bye).
    ev.withdraw(2, 2).unwrap();
    let next = ev.next(&results).unwrap();
    assert_eq!(next.round, 2);
    assert!(next.pending.iter().all(|p| p.first != 2 && p.second != 2));
    assert!(next.bye.is_some() && next.bye != Some(2));
    // Round 1 is as it was.
    let after = ev.history(&results).unwrap();
    assert_eq!(
        after.0.played.iter().filter(|p| p.round == 1).count(),
        before.0.played.iter().filter(|p| p.round == 1).count()
    );
    assert_eq!(ev.withdraw(9, 2), Err(TournamentError::NoSuchEntrant(9)));
    // A tres ceros whose withdrawals leave one entrant is over.
    let mut tres = Event::new(Format::TresCeros, 3).unwrap();
    tres.withdraw(0, 1).unwrap();
    tres.withdraw(1, 1).unwrap();
    assert!(tres.next(&[]).unwrap().over);
}

#[test]
fn a_board_beyond_a_rounds_pairing_is_named() {
    let ev = Event::new(Format::Swiss { rounds: 2 }, 4).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let p = ev.next(&[]).unwrap().pending[0];
    let r = result_of(&p, &mut rng);
    let stray = MatchResult {
        key: MatchKey::Board { round: 1, board: 7 },
        ..r
    };
    assert_eq!(
        ev.next(&[r, stray]),
        Err(TournamentError::Unpaired(stray.key))
    );
}
