//! Groups, then knockout: golden draws and crossings written by hand, whole events driven
//! by `Event::next` for every field from 4 to 64, the group tables' tiebreaks, withdrawals,
//! the refusals, and invariants under any results.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tapete_tournament::bracket::{seed_order, MatchState};
use tapete_tournament::event::{Event, Format, MatchKey, MatchResult, Pairing};
use tapete_tournament::groups::{group_name, Draw, FixtureState, GroupsState};
use tapete_tournament::{Entrant, Side, TournamentError};

fn groups(size: u32, advance: u32) -> Format {
    Format::Groups { size, advance }
}

/// A result of `p` won by `winner` (none: a draw), the winner 1–0 up.
fn result(p: &Pairing, winner: Option<Side>) -> MatchResult {
    MatchResult {
        key: p.key,
        first: p.first,
        second: p.second,
        winner,
        first_points: i64::from(winner == Some(Side::First)),
        second_points: i64::from(winner == Some(Side::Second)),
    }
}

/// The lower seed wins.
fn lower_seed_wins(p: &Pairing) -> MatchResult {
    let w = if p.first < p.second {
        Side::First
    } else {
        Side::Second
    };
    result(p, Some(w))
}

/// Plays `ev` to its end, the results of each call's pending matches given by `decide`,
/// all of a call's at once (as a server does); checks on the way that no match is paired
/// twice and nobody plays twice at once. Gives the results, in the order played.
fn drive(ev: &Event, mut decide: impl FnMut(&Pairing) -> MatchResult) -> Vec<MatchResult> {
    let mut results: Vec<MatchResult> = Vec::new();
    let mut keys = BTreeSet::new();
    for _ in 0..10_000 {
        let next = ev.next(&results).expect("the results fit");
        if next.over {
            assert!(next.pending.is_empty());
            return results;
        }
        assert!(!next.pending.is_empty(), "{next:?}");
        let mut busy = BTreeSet::new();
        for p in &next.pending {
            assert!(keys.insert(p.key), "{} paired twice", p.key);
            assert!(busy.insert(p.first) && busy.insert(p.second), "{next:?}");
            assert_ne!(p.first, p.second);
        }
        results.extend(next.pending.iter().map(&mut decide));
    }
    panic!("the event did not end");
}

/// The first round of the knockout as (first, second) of each match played in it, top to
/// bottom; and who has a bye.
fn first_round(state: &GroupsState) -> (Vec<(Entrant, Entrant)>, Vec<Entrant>) {
    let k = state.knockout.as_ref().expect("the knockout is drawn");
    let mut played = Vec::new();
    let mut byes = Vec::new();
    for m in k.matches.iter().filter(|m| m.round == 1) {
        match k.state.matches[m.id] {
            MatchState::Played { first, second, .. } | MatchState::Ready { first, second } => {
                played.push((first, second))
            }
            MatchState::Walkover { entrant } => byes.push(entrant),
            ref other => panic!("a first-round match {other:?}"),
        }
    }
    (played, byes)
}

// ---------------------------------------------------------------------------------------
// Golden draws and crossings, written by hand.

#[test]
fn eight_in_two_groups_of_four_cross_winners_and_runners_up() {
    let ev = Event::new(groups(4, 2), 8).unwrap();
    let draw = Draw::new(8, 4, 2).unwrap();
    // Snake-wise: 0 A, 1 B, 2 B, 3 A, 4 A, 5 B, 6 B, 7 A.
    assert_eq!(draw.groups, vec![vec![0, 3, 4, 7], vec![1, 2, 5, 6]]);
    assert_eq!(
        (draw.rounds, draw.fixtures.len(), draw.byes.len()),
        (3, 12, 0)
    );
    // Round 1, by the circle: the fixed last one meets the first; the middle two meet.
    let round1: Vec<(u32, Entrant, Entrant)> = draw
        .fixtures
        .iter()
        .filter(|f| f.round == 1)
        .map(|f| (f.board, f.first, f.second))
        .collect();
    assert_eq!(round1, vec![(0, 0, 7), (1, 3, 4), (2, 1, 6), (3, 2, 5)]);
    let first = ev.next(&[]).unwrap();
    assert_eq!((first.round, first.pending.len()), (1, 4));
    let results = drive(&ev, lower_seed_wins);
    let state = ev.groups(&results).unwrap();
    // A1 = 0, A2 = 3, B1 = 1, B2 = 2: A1 against B2, B1 against A2.
    assert_eq!(first_round(&state), (vec![(0, 2), (1, 3)], vec![]));
    assert_eq!(state.knockout.as_ref().unwrap().seeds, vec![0, 1, 3, 2]);
    assert_eq!((state.champion, state.over), (Some(0), true));
    // 12 group matches, then a knockout of 4: 3 matches.
    assert_eq!(results.len(), 15);
}

#[test]
fn six_in_two_groups_of_three_have_byes_and_cross() {
    let draw = Draw::new(6, 3, 2).unwrap();
    assert_eq!(draw.groups, vec![vec![0, 3, 4], vec![1, 2, 5]]);
    // Three rounds; each round one of each group sits out, everybody once.
    assert_eq!((draw.rounds, draw.fixtures.len()), (3, 6));
    let mut byes: Vec<(u32, Entrant)> = draw.byes.clone();
    byes.sort_unstable();
    assert_eq!(byes, vec![(1, 0), (1, 1), (2, 2), (2, 3), (3, 4), (3, 5)]);
    let ev = Event::new(groups(3, 2), 6).unwrap();
    let results = drive(&ev, lower_seed_wins);
    let state = ev.groups(&results).unwrap();
    assert_eq!(state.groups[0].byes, vec![(1, 0), (2, 3), (3, 4)]);
    assert_eq!(first_round(&state), (vec![(0, 2), (1, 3)], vec![]));
    assert_eq!(state.champion, Some(0));
}

#[test]
fn twelve_in_three_groups_of_four_give_six_qualifiers_and_two_byes() {
    let draw = Draw::new(12, 4, 2).unwrap();
    assert_eq!(
        draw.groups,
        vec![vec![0, 5, 6, 11], vec![1, 4, 7, 10], vec![2, 3, 8, 9]]
    );
    assert_eq!((draw.rounds, draw.fixtures.len()), (3, 18));
    let ev = Event::new(groups(4, 2), 12).unwrap();
    let results = drive(&ev, lower_seed_wins);
    let state = ev.groups(&results).unwrap();
    // Winners 0 (A), 1 (B), 2 (C), level on everything but the seed; runners-up 5 (A),
    // 4 (B), 3 (C) likewise. Byes to the two best winners; C1 meets A2; C2 and B2 (whose
    // winners are in the lower half) meet in the upper half, where A1 waits; A2 in the
    // lower half, apart from A1.
    assert_eq!(
        state.knockout.as_ref().unwrap().seeds,
        vec![0, 1, 2, 3, 4, 5]
    );
    assert_eq!(first_round(&state), (vec![(3, 4), (2, 5)], vec![0, 1]));
    assert_eq!(state.champion, Some(0));
    // 18 group matches, 5 knockout matches (6 qualifiers, one out a match).
    assert_eq!(results.len(), 23);
}

#[test]
fn sixteen_in_four_groups_cross_a_with_b_and_c_with_d_apart_till_the_final() {
    let ev = Event::new(groups(4, 2), 16).unwrap();
    let results = drive(&ev, lower_seed_wins);
    let state = ev.groups(&results).unwrap();
    let winners: Vec<Entrant> = state.groups.iter().map(|g| g.rows[0].entrant).collect();
    let runners: Vec<Entrant> = state.groups.iter().map(|g| g.rows[1].entrant).collect();
    assert_eq!(
        (winners, runners.clone()),
        (vec![0, 1, 2, 3], vec![7, 6, 5, 4])
    );
    // Top half: A1 v B2, D1 v C2; bottom half: B1 v A2, C1 v D2.
    let (a2, b2, c2, d2) = (runners[0], runners[1], runners[2], runners[3]);
    assert_eq!(
        first_round(&state),
        (vec![(0, b2), (3, c2), (1, a2), (2, d2)], vec![])
    );
}

#[test]
fn three_going_on_from_two_groups_of_four_spread_over_the_quarters() {
    let ev = Event::new(groups(4, 3), 8).unwrap();
    let results = drive(&ev, lower_seed_wins);
    let state = ev.groups(&results).unwrap();
    // A: 0, 3, 4 go on; B: 1, 2, 5. The draw of 8: places s0 s7 | s3 s4 | s1 s6 | s2 s5,
    // byes for s6 and s7 (the winners). A1 = 0 at the top; A2 goes to the lower half (s2),
    // so B2 to the upper (s3); the thirds where their groups have the fewest: A3 to s4
    // (its quarter next to A1's, its half away from A2), B3 to s5.
    assert_eq!(
        state.knockout.as_ref().unwrap().seeds,
        vec![0, 1, 3, 2, 4, 5]
    );
    assert_eq!(first_round(&state), (vec![(2, 4), (3, 5)], vec![0, 1]));
    // Two of one group meet in the semi-finals at the earliest.
    assert_eq!(
        (earliest_meeting(&state, 0), earliest_meeting(&state, 1)),
        (2, 2)
    );
    assert_eq!(state.champion, Some(0));
}

#[test]
fn group_names_run_past_z() {
    let names: Vec<String> = [0, 1, 25, 26, 27, 51, 52, 701, 702]
        .iter()
        .map(|&g| group_name(g))
        .collect();
    assert_eq!(
        names,
        vec!["A", "B", "Z", "AA", "AB", "AZ", "BA", "ZZ", "AAA"]
    );
}

// ---------------------------------------------------------------------------------------
// Every draw from 4 to 32.

/// The groups dealt by hand: down the row, then back up it.
fn dealt(n: usize, count: usize) -> Vec<Vec<Entrant>> {
    let mut out = vec![Vec::new(); count];
    let mut order: Vec<usize> = (0..count).collect();
    let mut e = 0;
    while e < n {
        for &g in &order {
            if e < n {
                out[g].push(e);
                e += 1;
            }
        }
        order.reverse();
    }
    out
}

#[test]
fn every_draw_from_4_to_32_is_snake_dealt_and_meets_each_pair_once() {
    let options = [
        (3, 1),
        (3, 2),
        (4, 1),
        (4, 2),
        (4, 3),
        (5, 2),
        (6, 3),
        (8, 4),
    ];
    // Hand-counted group sizes for a few fields.
    let sizes_of = |d: &Draw| -> Vec<usize> { d.groups.iter().map(Vec::len).collect() };
    // (The snake's turn gives the last ones to the groups where it turns.)
    assert_eq!(sizes_of(&Draw::new(10, 4, 2).unwrap()), vec![3, 3, 4]);
    assert_eq!(sizes_of(&Draw::new(10, 3, 2).unwrap()), vec![3, 3, 4]);
    assert_eq!(sizes_of(&Draw::new(7, 3, 2).unwrap()), vec![3, 4]);
    assert_eq!(sizes_of(&Draw::new(5, 3, 2).unwrap()), vec![5]);
    assert_eq!(sizes_of(&Draw::new(9, 8, 2).unwrap()), vec![5, 4]);
    assert_eq!(sizes_of(&Draw::new(17, 4, 2).unwrap()), vec![3, 3, 3, 4, 4]);
    assert_eq!(sizes_of(&Draw::new(32, 8, 4).unwrap()), vec![8, 8, 8, 8]);
    for n in 4usize..=32 {
        for &(size, advance) in &options {
            let count = n.div_ceil(size as usize).min(n / 3).max(1);
            let smallest = (n / count) as u32;
            let d = match Draw::new(n, size, advance) {
                Ok(d) => d,
                Err(e) => {
                    // Refused only when too many would go on, or only one.
                    if advance >= smallest.min(size) {
                        assert_eq!(
                            e,
                            TournamentError::Advance {
                                advance,
                                max: smallest.min(size) - 1
                            }
                        );
                    } else {
                        assert_eq!((count, advance, e), (1, 1, TournamentError::NoKnockout));
                    }
                    continue;
                }
            };
            let what = format!("{n} in groups of {size}, {advance} going on");
            assert_eq!(d.groups, dealt(n, count), "{what}");
            let lens: Vec<usize> = d.groups.iter().map(Vec::len).collect();
            let (lo, hi) = (lens.iter().min().unwrap(), lens.iter().max().unwrap());
            assert!(hi - lo <= 1 && *lo >= 3, "{what}: {lens:?}");
            assert!(
                *hi <= size as usize || count == n / 3 || count == 1,
                "{what}"
            );
            // Each pair of a group meets exactly once, nobody twice in a round.
            let mut met = BTreeSet::new();
            for f in &d.fixtures {
                assert_eq!(d.group_of(f.first), Some(f.group), "{what}");
                assert_eq!(d.group_of(f.second), Some(f.group), "{what}");
                assert!(met.insert((f.first.min(f.second), f.first.max(f.second))));
            }
            let want: usize = lens.iter().map(|m| m * (m - 1) / 2).sum();
            assert_eq!(d.fixtures.len(), want, "{what}");
            for r in 1..=d.rounds {
                let round: Vec<_> = d.fixtures.iter().filter(|f| f.round == r).collect();
                let boards: Vec<u32> = round.iter().map(|f| f.board).collect();
                assert_eq!(
                    boards,
                    (0..round.len() as u32).collect::<Vec<_>>(),
                    "{what}"
                );
                let mut busy: BTreeSet<Entrant> = BTreeSet::new();
                for f in &round {
                    assert!(busy.insert(f.first) && busy.insert(f.second), "{what}");
                }
                for &(_, b) in d.byes.iter().filter(|b| b.0 == r) {
                    assert!(busy.insert(b), "{what}: a bye who plays");
                }
                // Everybody plays or sits out in a round of its group.
                for g in &d.groups {
                    let in_round = g.iter().filter(|e| busy.contains(e)).count();
                    assert!(in_round == g.len() || in_round == 0, "{what}");
                }
            }
            // The first seat: as often as the second, or once more either way; even, with
            // a bye.
            for g in &d.groups {
                for &e in g {
                    let firsts = d.fixtures.iter().filter(|f| f.first == e).count() as i64;
                    let seconds = d.fixtures.iter().filter(|f| f.second == e).count() as i64;
                    let limit = if g.len() % 2 == 1 { 0 } else { 1 };
                    assert!((firsts - seconds).abs() <= limit, "{what}: {e}");
                }
                let byes = d.byes.iter().filter(|b| g.contains(&b.1)).count();
                assert_eq!(byes, if g.len() % 2 == 1 { g.len() } else { 0 });
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Whole events.

/// Two of one group are drawn apart: for each group, the earliest round two of its
/// qualifiers could meet in the knockout.
fn earliest_meeting(state: &GroupsState, group: usize) -> u32 {
    let k = state.knockout.as_ref().unwrap();
    let size = k.seeds.len().next_power_of_two();
    let order = seed_order(size);
    let place = |e: Entrant| {
        let s = k.seeds.iter().position(|&x| x == e).unwrap();
        order.iter().position(|&x| x == s).unwrap()
    };
    let mine: Vec<usize> = state.groups[group]
        .rows
        .iter()
        .filter(|r| r.qualified)
        .map(|r| place(r.entrant))
        .collect();
    let mut earliest = u32::MAX;
    for (i, &a) in mine.iter().enumerate() {
        for &b in &mine[i + 1..] {
            earliest = earliest.min(usize::BITS - (a ^ b).leading_zeros());
        }
    }
    earliest
}

#[test]
fn every_field_from_4_to_64_plays_to_the_top_seed_when_the_lower_seed_wins() {
    for n in 4..=64 {
        for (size, advance) in [(3, 1), (4, 2), (5, 2), (6, 3), (8, 4)] {
            let Ok(ev) = Event::new(groups(size, advance), n) else {
                continue;
            };
            let what = format!("{n} in groups of {size}, {advance} going on");
            let draw = Draw::new(n, size, advance).unwrap();
            let results = drive(&ev, lower_seed_wins);
            let state = ev.groups(&results).unwrap();
            assert!(state.over, "{what}");
            assert_eq!(state.champion, Some(0), "{what}");
            // Every group pair met once, and in its group.
            let board_results: Vec<&MatchResult> = results
                .iter()
                .filter(|r| matches!(r.key, MatchKey::Board { .. }))
                .collect();
            assert_eq!(board_results.len(), draw.fixtures.len(), "{what}");
            let mut met = BTreeSet::new();
            for r in &board_results {
                assert_eq!(draw.group_of(r.first), draw.group_of(r.second));
                assert!(met.insert((r.first.min(r.second), r.first.max(r.second))));
            }
            // The knockout: the first `advance` of each group, the lowest seeds of each
            // (they won all their matches against those below), q - 1 matches played.
            let q = draw.groups.len() * advance as usize;
            let k = state.knockout.as_ref().unwrap();
            let mut qualified: Vec<Entrant> = k.seeds.clone();
            qualified.sort_unstable();
            let mut want: Vec<Entrant> = draw
                .groups
                .iter()
                .flat_map(|g| g[..advance as usize].to_vec())
                .collect();
            want.sort_unstable();
            assert_eq!(qualified, want, "{what}");
            assert_eq!(results.len() - board_results.len(), q - 1, "{what}");
            // The byes to the best group winners: the top seeds.
            let (_, mut byes) = first_round(&state);
            let mut best = k.seeds[..q.next_power_of_two() - q].to_vec();
            byes.sort_unstable();
            best.sort_unstable();
            assert_eq!(byes, best, "{what}");
            // The champion first in the places.
            assert_eq!(k.state.placings[0], (0, 1), "{what}");
            // Two of one group meet only in the final; three or four not before the
            // semi-finals.
            let rounds = q.next_power_of_two().trailing_zeros();
            let apart = rounds + 1 - advance.next_power_of_two().trailing_zeros();
            for g in 0..draw.groups.len() {
                assert!(earliest_meeting(&state, g) >= apart, "{what}: group {g}");
            }
        }
    }
}

#[test]
fn the_same_results_in_any_order_give_the_same_event() {
    let ev = Event::new(groups(4, 2), 14).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let results = drive(&ev, |p| {
        let w = match rng.gen_range(0..3) {
            0 => Some(Side::First),
            1 => Some(Side::Second),
            _ if matches!(p.key, MatchKey::Board { .. }) => None,
            _ => Some(Side::First),
        };
        result(p, w)
    });
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for k in 0..=results.len() {
        let mut part = results[..k].to_vec();
        let want = (ev.next(&part).unwrap(), ev.groups(&part).unwrap());
        part.shuffle(&mut rng);
        assert_eq!(
            (ev.next(&part).unwrap(), ev.groups(&part).unwrap()),
            want,
            "after {k}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// The group tables.

/// The results of a group stage where `beats(a, b)` says whether `a` beats `b` (both
/// false: a draw), with the margins `margin(winner, loser)`.
fn group_stage(
    ev: &Event,
    beats: impl Fn(Entrant, Entrant) -> bool,
    margin: impl Fn(Entrant, Entrant) -> i64,
) -> Vec<MatchResult> {
    let mut results: Vec<MatchResult> = Vec::new();
    loop {
        let next = ev.next(&results).unwrap();
        if next.round == 0 || next.over {
            return results;
        }
        for p in &next.pending {
            let (a, b) = (p.first, p.second);
            let mut r = result(p, None);
            if beats(a, b) {
                r.winner = Some(Side::First);
                r.first_points = margin(a, b);
            } else if beats(b, a) {
                r.winner = Some(Side::Second);
                r.second_points = margin(b, a);
            }
            results.push(r);
        }
    }
}

#[test]
fn a_group_table_goes_by_points_then_head_to_head_then_points_difference_then_seed() {
    // 8 in two groups of four: A is 0, 3, 4, 7. In A: 7 beats 0 by 1; 0 beats 3 and 4 by
    // 50; 3 beats 4 and 7 by 1; 4 beats 7 by 30.
    let ev = Event::new(groups(4, 2), 8).unwrap();
    let a_beats = |a: Entrant, b: Entrant| {
        matches!((a, b), (7, 0) | (0, 3) | (0, 4) | (3, 4) | (3, 7) | (4, 7))
    };
    let margin = |w: Entrant, l: Entrant| match (w, l) {
        (0, _) => 50,
        (4, 7) => 30,
        _ => 1,
    };
    // B (1, 2, 5, 6): all draws.
    let results = group_stage(&ev, a_beats, margin);
    let state = ev.groups(&results).unwrap();
    let a = &state.groups[0];
    let order: Vec<(Entrant, u32, i64)> = a
        .rows
        .iter()
        .map(|r| (r.entrant, r.points, r.points_diff))
        .collect();
    // 0: 4 points (+99); 3: 4 points (beat 4 and 7, lost to 0: -48); 4: 2 points (beat 7
    // by 30: -21); 7: 2 points (beat 0: -30). 0 and 3 level: 0 beat 3 (and has the better
    // difference). 4 and 7 level: 4 beat 7.
    assert_eq!(
        order,
        vec![(0, 4, 99), (3, 4, -48), (4, 2, -21), (7, 2, -30)]
    );
    // B: all level on points and among themselves, and on the difference: the seed.
    let b: Vec<Entrant> = state.groups[1].rows.iter().map(|r| r.entrant).collect();
    assert_eq!(b, vec![1, 2, 5, 6]);
    assert!(state.groups[1]
        .rows
        .iter()
        .all(|r| r.drawn == 3 && r.points == 3));
    assert!(state
        .groups
        .iter()
        .all(|g| g.rows[..2].iter().all(|r| r.qualified)));
    assert!(state
        .groups
        .iter()
        .all(|g| g.rows[2..].iter().all(|r| !r.qualified)));

    // Head to head before the difference: 3 beat 0, and 0 has the better difference.
    let a_beats = |a: Entrant, b: Entrant| {
        matches!((a, b), (3, 0) | (0, 4) | (0, 7) | (4, 3) | (3, 7) | (7, 4))
    };
    let margin = |w: Entrant, _| if w == 0 { 40 } else { 1 };
    let results = group_stage(&ev, a_beats, margin);
    let state = ev.groups(&results).unwrap();
    let order: Vec<(Entrant, u32, i64)> = state.groups[0]
        .rows
        .iter()
        .map(|r| (r.entrant, r.points, r.points_diff))
        .collect();
    // 0, 3: 4 points each, 0 +79, 3 +1; 3 beat 0. 4, 7: 2 points; 4 beat 3, 7 beat 4.
    // Level 4 and 7: 7 beat 4, 4 -40, 7 -40.
    assert_eq!(order, vec![(3, 4, 1), (0, 4, 79), (7, 2, -40), (4, 2, -40)]);

    // Three level in a circle (3 beats 4, 4 beats 7, 7 beats 3, each beats 0): head to head
    // 2 each, then the difference.
    let a_beats = |a: Entrant, b: Entrant| {
        matches!((a, b), (3, 4) | (4, 7) | (7, 3) | (3, 0) | (4, 0) | (7, 0))
    };
    let margin = |w: Entrant, l: Entrant| match (w, l) {
        (7, 3) => 5,
        (4, _) => 3,
        _ => 1,
    };
    let results = group_stage(&ev, a_beats, margin);
    let state = ev.groups(&results).unwrap();
    let order: Vec<(Entrant, i64)> = state.groups[0]
        .rows
        .iter()
        .map(|r| (r.entrant, r.points_diff))
        .collect();
    // 3: +1 -5 +1 = -3; 4: -1 +3 +3 = +5; 7: -3 +5 +1 = +3; 0: -1 -3 -1 = -5.
    assert_eq!(order, vec![(4, 5), (7, 3), (3, -3), (0, -5)]);
    let places: Vec<usize> = state.groups[0].rows.iter().map(|r| r.place).collect();
    assert_eq!(places, vec![1, 2, 3, 4]);
}

// ---------------------------------------------------------------------------------------
// Withdrawals.

#[test]
fn a_withdrawal_mid_groups_loses_the_rest_and_does_not_go_on() {
    let mut ev = Event::new(groups(4, 2), 8).unwrap();
    let round1: Vec<MatchResult> = ev
        .next(&[])
        .unwrap()
        .pending
        .iter()
        .map(lower_seed_wins)
        .collect();
    // The top seed leaves after round 1 (it won it).
    ev.withdraw(0, 2).unwrap();
    let next = ev.next(&round1).unwrap();
    assert_eq!(next.round, 2);
    assert!(next.pending.iter().all(|p| p.first != 0 && p.second != 0));
    assert_eq!(next.pending.len(), 3);
    // A result for its round-2 match does not fit: it was not paired.
    let draw = Draw::new(8, 4, 2).unwrap();
    let its = draw
        .fixtures
        .iter()
        .find(|f| f.round == 2 && (f.first == 0 || f.second == 0))
        .unwrap();
    let stray = lower_seed_wins(&Pairing {
        key: its.key(),
        first: its.first,
        second: its.second,
    });
    let mut with_stray = round1.clone();
    with_stray.push(stray);
    assert_eq!(
        ev.next(&with_stray),
        Err(TournamentError::Unpaired(its.key()))
    );
    let state = ev.groups(&round1).unwrap();
    let a = &state.groups[0];
    assert!(a
        .matches
        .iter()
        .any(|m| m.fixture.key() == its.key() && matches!(m.state, FixtureState::Forfeit { .. })));
    let results = {
        let mut all = round1.clone();
        loop {
            let next = ev.next(&all).unwrap();
            if next.over {
                break all;
            }
            all.extend(next.pending.iter().map(lower_seed_wins));
        }
    };
    let state = ev.groups(&results).unwrap();
    let a = &state.groups[0];
    // 0 won round 1 and lost the two it left: last, withdrawn, not going on.
    let zero = a.rows.iter().find(|r| r.entrant == 0).unwrap();
    assert_eq!(
        (zero.place, zero.played, zero.won, zero.lost, zero.points),
        (4, 3, 1, 2, 2)
    );
    assert!(zero.withdrawn && !zero.qualified);
    // 3 and 4 go on from A; the rest of the group's matches count 2 for its opponents.
    let going: Vec<Entrant> = a
        .rows
        .iter()
        .filter(|r| r.qualified)
        .map(|r| r.entrant)
        .collect();
    assert_eq!(going, vec![3, 4]);
    assert_eq!(
        a.rows.iter().map(|r| r.played).collect::<Vec<_>>(),
        vec![3, 3, 3, 3]
    );
    assert_eq!(state.champion, Some(1));
    assert!(!state.knockout.as_ref().unwrap().seeds.contains(&0));
}

#[test]
fn a_qualifier_who_withdraws_after_the_groups_stays_drawn_and_forfeits() {
    let mut ev = Event::new(groups(4, 2), 8).unwrap();
    let groups_over = group_stage(&ev, |a, b| a < b, |_, _| 1);
    let before = ev.next(&groups_over).unwrap();
    assert_eq!(before.round, 0);
    // Withdrawn from the round after the group stage's last: the knockout stands as drawn
    // (its matches may be under way), the pairing is pending for the server to give away.
    ev.withdraw(0, 4).unwrap();
    assert_eq!(ev.next(&groups_over).unwrap(), before);
    let state = ev.groups(&groups_over).unwrap();
    assert!(state.groups[0].rows[0].qualified && !state.groups[0].rows[0].withdrawn);
    // A group of three of which two withdrew sends one of them on.
    let mut ev = Event::new(groups(3, 2), 6).unwrap();
    ev.withdraw(3, 1).unwrap();
    ev.withdraw(4, 1).unwrap();
    let results = drive(&ev, lower_seed_wins);
    let state = ev.groups(&results).unwrap();
    let a: Vec<(Entrant, bool, bool)> = state.groups[0]
        .rows
        .iter()
        .map(|r| (r.entrant, r.withdrawn, r.qualified))
        .collect();
    assert_eq!(a, vec![(0, false, true), (3, true, true), (4, true, false)]);
    // Nothing was played in A: 0 won both its matches by forfeit, 3 and 4 lost theirs.
    assert!(state.groups[0]
        .matches
        .iter()
        .all(|m| matches!(m.state, FixtureState::Forfeit { .. })));
    assert_eq!(state.champion, Some(0));
}

// ---------------------------------------------------------------------------------------
// Refusals.

#[test]
fn results_and_options_that_do_not_fit_are_refused_by_name() {
    let ev = Event::new(groups(4, 2), 8).unwrap();
    let round1 = ev.next(&[]).unwrap().pending;
    let r0 = lower_seed_wins(&round1[0]);
    // Twice.
    assert_eq!(ev.next(&[r0, r0]), Err(TournamentError::Twice(r0.key)));
    // A result of round 2 while round 1 is under way; a board no round has; a bracket's
    // match before the knockout.
    for key in [
        MatchKey::Board { round: 2, board: 0 },
        MatchKey::Board { round: 1, board: 9 },
        MatchKey::Board { round: 4, board: 0 },
        MatchKey::Bracket(0),
    ] {
        let stray = MatchResult { key, ..r0 };
        assert_eq!(ev.next(&[r0, stray]), Err(TournamentError::Unpaired(key)));
        assert_eq!(ev.groups(&[r0, stray]), Err(TournamentError::Unpaired(key)));
    }
    // Other sides than the pairing's.
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
    // A draw is fine in a group, not in the knockout.
    let drawn = MatchResult { winner: None, ..r0 };
    assert!(ev.next(&[drawn]).is_ok());
    let groups_over = group_stage(&ev, |a, b| a < b, |_, _| 1);
    let ko = ev.next(&groups_over).unwrap().pending[0];
    let mut with_draw = groups_over.clone();
    with_draw.push(result(&ko, None));
    assert_eq!(
        ev.next(&with_draw),
        Err(TournamentError::DrawInBracket(ko.key))
    );
    // The knockout's final before its semi-finals; a bracket match that is not there.
    for key in [MatchKey::Bracket(2), MatchKey::Bracket(3)] {
        let mut early = groups_over.clone();
        early.push(MatchResult {
            key,
            ..result(&ko, Some(Side::First))
        });
        assert_eq!(ev.next(&early), Err(TournamentError::Unpaired(key)));
    }
    // Bad options.
    assert_eq!(
        Event::new(groups(2, 1), 8),
        Err(TournamentError::GroupSize { size: 2 })
    );
    assert_eq!(
        Event::new(groups(9, 2), 18),
        Err(TournamentError::GroupSize { size: 9 })
    );
    assert_eq!(
        Event::new(groups(4, 0), 8),
        Err(TournamentError::Advance { advance: 0, max: 3 })
    );
    assert_eq!(
        Event::new(groups(4, 4), 8),
        Err(TournamentError::Advance { advance: 4, max: 3 })
    );
    // 10 in groups of 4: 4, 3, 3; three can go on from no group of three.
    assert_eq!(
        Event::new(groups(4, 3), 10),
        Err(TournamentError::Advance { advance: 3, max: 2 })
    );
    assert_eq!(
        Event::new(groups(4, 1), 4),
        Err(TournamentError::NoKnockout)
    );
    assert_eq!(
        Event::new(groups(3, 1), 2),
        Err(TournamentError::TooFew { min: 3, got: 2 })
    );
    let e = Event::new(groups(9, 2), 18).unwrap_err().to_string();
    assert_eq!(e, "a group holds 3 to 8 entrants, not 9");
    // Other formats have no groups; a groups event has no rounds of a Swiss, nor a bracket
    // of its own.
    let swiss = Event::new(Format::Swiss { rounds: 2 }, 8).unwrap();
    assert_eq!(swiss.groups(&[]), Err(TournamentError::NotGroups));
    assert_eq!(ev.history(&[]), Err(TournamentError::NotRounds));
    assert_eq!(ev.bracket().err(), Some(TournamentError::NotBracket));
    // The format reads and writes as the others do.
    let json = serde_json::to_value(groups(4, 2)).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"format": "groups", "size": 4, "advance": 2})
    );
}

#[test]
fn the_page_state_is_json() {
    let ev = Event::new(groups(3, 2), 6).unwrap();
    let results = drive(&ev, lower_seed_wins);
    let v = serde_json::to_value(ev.groups(&results).unwrap()).unwrap();
    assert_eq!(v["groups"][0]["name"], "A");
    assert_eq!(
        v["groups"][0]["rows"][0],
        serde_json::json!({"place": 1, "entrant": 0, "played": 2, "won": 2, "drawn": 0,
            "lost": 0, "points": 4, "points_diff": 2, "qualified": true, "withdrawn": false})
    );
    assert_eq!(
        v["groups"][0]["matches"][0],
        serde_json::json!({"round": 1, "board": 0, "group": 0, "first": 3, "second": 4,
            "state": "played", "winner": "first", "first_points": 1, "second_points": 0})
    );
    assert_eq!(v["knockout"]["seeds"], serde_json::json!([0, 1, 3, 2]));
    assert_eq!(v["knockout"]["state"]["champion"], 0);
    assert_eq!(
        (v["champion"].clone(), v["over"].clone()),
        (0.into(), true.into())
    );
}

// ---------------------------------------------------------------------------------------
// Any results.

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_results_keep_the_invariants(
        n in 4usize..40,
        size in 3u32..=8,
        advance in 1u32..=7,
        seed in any::<u64>(),
        leaving in proptest::collection::vec((0usize..40, 1u32..6), 0..3),
    ) {
        let Ok(mut ev) = Event::new(groups(size, advance), n) else {
            return Ok(());
        };
        for &(e, from) in &leaving {
            if e < n {
                ev.withdraw(e, from).unwrap();
            }
        }
        let draw = Draw::new(n, size, advance).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut results: Vec<MatchResult> = Vec::new();
        let mut met = BTreeSet::new();
        let mut keys = BTreeSet::new();
        let mut steps = 0;
        loop {
            steps += 1;
            prop_assert!(steps < 10_000);
            let next = ev.next(&results).unwrap();
            if next.over {
                break;
            }
            prop_assert!(!next.pending.is_empty());
            let mut busy = BTreeSet::new();
            for p in &next.pending {
                prop_assert!(busy.insert(p.first) && busy.insert(p.second));
                if let MatchKey::Board { round, .. } = p.key {
                    prop_assert_eq!(round, next.round);
                    if !keys.insert(p.key) {
                        continue;
                    }
                    prop_assert_eq!(draw.group_of(p.first), draw.group_of(p.second));
                    prop_assert!(met.insert((p.first.min(p.second), p.first.max(p.second))));
                }
            }
            // One of the pending at a time, in any order; draws in the groups.
            let p = *next.pending.choose(&mut rng).unwrap();
            let w = match rng.gen_range(0..5) {
                0 if matches!(p.key, MatchKey::Board { .. }) => None,
                1 | 2 => Some(Side::Second),
                _ => Some(Side::First),
            };
            let mut r = result(&p, w);
            r.first_points *= rng.gen_range(1..100);
            r.second_points *= rng.gen_range(1..100);
            results.push(r);
        }
        let state = ev.groups(&results).unwrap();
        prop_assert!(state.over);
        let k = state.knockout.as_ref().unwrap();
        prop_assert_eq!(k.seeds.len(), draw.groups.len() * advance as usize);
        let champion = state.champion.unwrap();
        prop_assert!(k.seeds.contains(&champion));
        // Every group pair played, or given by a withdrawal.
        let mut given = 0;
        for g in &state.groups {
            prop_assert_eq!(g.rows.iter().filter(|r| r.qualified).count(), advance as usize);
            // The table is ordered: the withdrawn last, then by points.
            for w in g.rows.windows(2) {
                prop_assert!((w[0].withdrawn, std::cmp::Reverse(w[0].points))
                    <= (w[1].withdrawn, std::cmp::Reverse(w[1].points)));
            }
            for r in &g.rows {
                prop_assert_eq!(r.played as usize, g.entrants.len() - 1);
                prop_assert_eq!(r.won + r.drawn + r.lost, r.played);
                prop_assert_eq!(r.points, 2 * r.won + r.drawn);
            }
            // Somebody withdrawn goes on only if its group has too few others.
            let staying = g.rows.iter().filter(|r| !r.withdrawn).count();
            for r in g.rows.iter().filter(|r| r.qualified && r.withdrawn) {
                prop_assert!(staying < advance as usize, "{:?}", r);
            }
            given += g.matches.iter().filter(|m| matches!(m.state, FixtureState::Forfeit { .. })).count();
        }
        prop_assert_eq!(met.len() + given, draw.fixtures.len());
        // Two of one group are as far apart in the draw as their number allows: two in
        // different halves, three or four in different quarters, five in different eighths
        // (six or seven: at most a round short of it).
        let rounds = k.seeds.len().next_power_of_two().trailing_zeros();
        let apart = rounds + 1 - (advance as usize).next_power_of_two().trailing_zeros();
        let slack = u32::from(advance >= 6);
        for g in 0..state.groups.len() {
            prop_assert!(earliest_meeting(&state, g) + slack >= apart);
        }
        // The same results shuffled: the same event.
        let mut mixed = results.clone();
        mixed.shuffle(&mut rng);
        prop_assert_eq!(ev.groups(&mixed).unwrap(), state);
        let by_key: BTreeMap<MatchKey, MatchResult> = results.iter().map(|r| (r.key, *r)).collect();
        prop_assert_eq!(by_key.len(), results.len());
    }
}
