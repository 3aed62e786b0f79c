//! Swiss pairing and standings: hand-worked rounds, whole simulated events (no repeats,
//! score groups kept, byes once each, sides balanced), tiebreaks by hand, bad input.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use tapete_tournament::swiss::{self, ByeScore, History, Options};
use tapete_tournament::{Played, Side, TournamentError};

/// Plays a whole Swiss of `n` entrants over `rounds` rounds, results drawn by `rng` with
/// the better seed winning with probability `strength` (0.5: coin flips); answers the
/// history and the rounds paired.
fn simulate(
    n: usize,
    rounds: u32,
    rng: &mut ChaCha8Rng,
    strength: f64,
) -> (History, Vec<swiss::Round>) {
    let mut h = History::default();
    let mut paired = Vec::new();
    for _ in 0..rounds {
        let r = swiss::pair(n, &h, &Options::default()).expect("a pairing");
        for &(a, b) in &r.pairs {
            let better_first = a < b;
            let better_wins = rng.gen_bool(strength);
            let winner = if better_wins == better_first {
                Side::First
            } else {
                Side::Second
            };
            let (pa, pb) = if winner == Side::First {
                (2, rng.gen_range(0..2))
            } else {
                (rng.gen_range(0..2), 2)
            };
            h.played
                .push(Played::new(r.round, a, b, Some(winner), pa, pb));
        }
        if let Some(b) = r.bye {
            h.byes.push((r.round, b));
        }
        paired.push(r);
    }
    (h, paired)
}

fn pair_key(a: usize, b: usize) -> (usize, usize) {
    (a.min(b), a.max(b))
}

#[test]
fn round_one_meets_the_upper_half_with_the_lower_and_alternates_the_first_seat() {
    let r = swiss::pair(8, &History::default(), &Options::default()).unwrap();
    assert_eq!(r.round, 1);
    assert_eq!(r.pairs, vec![(0, 4), (5, 1), (2, 6), (7, 3)]);
    assert_eq!((r.bye, r.repeats), (None, 0));
    // Odd: the lowest seed sits out.
    let r = swiss::pair(7, &History::default(), &Options::default()).unwrap();
    assert_eq!(r.bye, Some(6));
    assert_eq!(r.pairs, vec![(0, 3), (4, 1), (2, 5)]);
}

#[test]
fn round_two_pairs_within_score_groups_and_floats_the_odd_one_down() {
    // Six entrants; round 1: 0-3, 4-1, 2-5 won by 0, 1 and 5. Scores: 0, 1, 5 have 1.
    let mut h = History::default();
    h.played.push(Played::new(1, 0, 3, Some(Side::First), 2, 1));
    h.played
        .push(Played::new(1, 4, 1, Some(Side::Second), 0, 2));
    h.played
        .push(Played::new(1, 2, 5, Some(Side::Second), 1, 2));
    let r = swiss::pair(6, &h, &Options::default()).unwrap();
    let set: HashSet<(usize, usize)> = r.pairs.iter().map(|&(a, b)| pair_key(a, b)).collect();
    // Winners (0, 1, 5): 0 meets the group's middle, 1 is not its neighbour... the group
    // [0, 1, 5] splits as [0] and [1, 5]: 0-1; 5 floats down to the losers [2, 3, 4],
    // meeting their highest it has not met (2 it has): 3; 2-4 left.
    assert_eq!(
        set,
        HashSet::from([(0, 1), (3, 5), (2, 4)]),
        "{:?}",
        r.pairs
    );
    assert_eq!(r.repeats, 0);
}

#[test]
fn a_rematch_is_avoided_by_the_lower_half_in_order_then_the_upper_half() {
    // Four entrants all on 1 point after two rounds in which 0-2 and 1-3 already met:
    // the natural pairing (0-2, 1-3) would repeat; the next tried is 0-3, then 1-2.
    let mut h = History::default();
    h.played.push(Played::new(1, 0, 2, Some(Side::First), 2, 0));
    h.played
        .push(Played::new(1, 1, 3, Some(Side::Second), 0, 2));
    let r = swiss::pair(4, &h, &Options::default()).unwrap();
    // Scores: 0 and 3 on 1, 1 and 2 on 0. Groups [0, 3] and [1, 2]: neither met.
    let set: HashSet<(usize, usize)> = r.pairs.iter().map(|&(a, b)| pair_key(a, b)).collect();
    assert_eq!(set, HashSet::from([(0, 3), (1, 2)]));
    // Round 3: 0 beat 3, 1 beat 2. Scores 0: 2, 3: 1, 1: 1, 2: 0. The only fresh
    // pairing left is 0-1, 2-3.
    h.played.push(Played::new(2, 0, 3, Some(Side::First), 2, 0));
    h.played.push(Played::new(2, 1, 2, Some(Side::First), 2, 0));
    let r = swiss::pair(4, &h, &Options::default()).unwrap();
    let set: HashSet<(usize, usize)> = r.pairs.iter().map(|&(a, b)| pair_key(a, b)).collect();
    assert_eq!(set, HashSet::from([(0, 1), (2, 3)]));
    assert_eq!(r.repeats, 0);
    // Round 4: every match has been played; a repeat is the only way, and it is said.
    h.played.push(Played::new(3, 0, 1, Some(Side::First), 2, 0));
    h.played.push(Played::new(3, 2, 3, Some(Side::First), 2, 0));
    let r = swiss::pair(4, &h, &Options::default()).unwrap();
    assert_eq!(r.repeats, 2);
    assert_eq!(r.pairs.len(), 2);
}

#[test]
fn sixty_four_entrants_seven_rounds_never_meet_twice_and_stay_in_their_groups() {
    for seed in 0..20u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let n = 64;
        let (h, rounds) = simulate(n, 7, &mut rng, 0.6);
        let mut met = HashSet::new();
        let mut firsts = vec![0i32; n];
        for r in &rounds {
            assert_eq!(r.repeats, 0, "seed {seed} round {}", r.round);
            let mut seen = HashSet::new();
            for &(a, b) in &r.pairs {
                assert!(seen.insert(a) && seen.insert(b), "twice in a round");
                assert!(met.insert(pair_key(a, b)), "seed {seed}: {a}-{b} again");
                firsts[a] += 1;
                firsts[b] -= 1;
            }
            assert_eq!(seen.len(), n);
        }
        // The first seat is shared out: nobody sits first (or second) more than twice
        // the other way over seven rounds.
        for (e, f) in firsts.iter().enumerate() {
            assert!(f.abs() <= 3, "seed {seed}: entrant {e} balance {f}");
        }
        let top = swiss::standings(n, &h, &Options::default()).unwrap();
        assert_eq!(top.len(), n);
        // Seven rounds of 64: the unbeaten are at most one.
        assert!(top.iter().filter(|s| s.score == 7.0).count() <= 1);
    }
}

#[test]
fn score_groups_meet_within_themselves_as_far_as_they_can() {
    // Over many events, a match between entrants whose scores differ by more than one
    // point is rare: the groups float one entrant at a time.
    let mut far = 0;
    let mut matches = 0;
    for seed in 0..30u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let n = 32;
        let mut h = History::default();
        for _ in 0..5 {
            let r = swiss::pair(n, &h, &Options::default()).unwrap();
            let st = swiss::standings(n, &h, &Options::default()).unwrap();
            let score = |e: usize| st.iter().find(|s| s.entrant == e).unwrap().score;
            for &(a, b) in &r.pairs {
                matches += 1;
                if (score(a) - score(b)).abs() > 1.0 {
                    far += 1;
                }
                let w = if rng.gen_bool(0.5) {
                    Side::First
                } else {
                    Side::Second
                };
                h.played.push(Played::new(r.round, a, b, Some(w), 1, 0));
            }
        }
    }
    assert!(
        far * 100 <= matches,
        "{far} of {matches} across more than a point"
    );
}

#[test]
fn an_odd_field_gives_each_bye_once_to_the_lowest_and_scores_it() {
    for seed in 0..10u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let n = 15;
        let (h, rounds) = simulate(n, 7, &mut rng, 0.5);
        let byes: Vec<usize> = rounds.iter().filter_map(|r| r.bye).collect();
        assert_eq!(byes.len(), 7);
        assert_eq!(
            byes.iter().collect::<HashSet<_>>().len(),
            7,
            "seed {seed}: {byes:?}"
        );
        // Each bye went to someone on the lowest score among those without one.
        for r in &rounds {
            let before = History {
                played: h
                    .played
                    .iter()
                    .filter(|p| p.round < r.round)
                    .cloned()
                    .collect(),
                byes: h.byes.iter().filter(|b| b.0 < r.round).cloned().collect(),
                withdrawn: vec![],
            };
            let st = swiss::standings(n, &before, &Options::default()).unwrap();
            let had: HashSet<usize> = before.byes.iter().map(|b| b.1).collect();
            let lowest = st
                .iter()
                .filter(|s| !had.contains(&s.entrant))
                .map(|s| s.score)
                .fold(f64::INFINITY, f64::min);
            let bye = r.bye.unwrap();
            let got = st.iter().find(|s| s.entrant == bye).unwrap().score;
            assert_eq!(got, lowest, "seed {seed} round {}", r.round);
        }
        let st = swiss::standings(n, &h, &Options::default()).unwrap();
        let total: f64 = st.iter().map(|s| s.score).sum();
        // Every match gives one point, every bye one.
        assert_eq!(total, (7 * 7 + 7) as f64);
    }
    let mut h = History::default();
    h.byes.push((1, 2));
    let draw = Options {
        bye: ByeScore::Draw,
    };
    let st = swiss::standings(3, &h, &draw).unwrap();
    assert_eq!(st.iter().find(|s| s.entrant == 2).unwrap().score, 0.5);
}

#[test]
fn standings_break_ties_by_buchholz_then_sonneborn_berger_then_points() {
    // Five entrants, worked by hand.
    // R1: 0 beats 1 (2-1), 2 beats 3 (2-0), 4 bye.
    // R2: 0 beats 2 (2-1), 4 beats 1 (2-0), 3 bye.
    // R3: 4 beats 0 (2-1), 1 beats 3 (2-1), 2 bye.
    let mut h = History::default();
    h.played.push(Played::new(1, 0, 1, Some(Side::First), 2, 1));
    h.played.push(Played::new(1, 2, 3, Some(Side::First), 2, 0));
    h.byes.push((1, 4));
    h.played.push(Played::new(2, 0, 2, Some(Side::First), 2, 1));
    h.played.push(Played::new(2, 4, 1, Some(Side::First), 2, 0));
    h.byes.push((2, 3));
    h.played.push(Played::new(3, 4, 0, Some(Side::First), 2, 1));
    h.played.push(Played::new(3, 1, 3, Some(Side::First), 2, 1));
    h.byes.push((3, 2));
    // Scores: 0: 2, 1: 1, 2: 2 (win + bye), 3: 1 (bye), 4: 3 (bye + 2 wins).
    // Buchholz (opponents met): 0: 1 + 2 + 3 = 6; 2: 1 + 2 = 3; 1: 2 + 3 + 1 = 6;
    // 3: 2 + 1 = 3. SB: 1: beat 3 (1) = 1; 3: nothing = 0.
    let st = swiss::standings(5, &h, &Options::default()).unwrap();
    let order: Vec<usize> = st.iter().map(|s| s.entrant).collect();
    assert_eq!(order, vec![4, 0, 2, 1, 3]);
    let row = |e: usize| st.iter().find(|s| s.entrant == e).unwrap().clone();
    assert_eq!((row(0).score, row(0).buchholz), (2.0, 6.0));
    assert_eq!((row(2).score, row(2).buchholz), (2.0, 3.0));
    assert_eq!((row(1).buchholz, row(1).sonneborn_berger), (6.0, 1.0));
    assert_eq!((row(3).buchholz, row(3).sonneborn_berger), (3.0, 0.0));
    assert_eq!(row(0).sonneborn_berger, 1.0 + 2.0);
    assert_eq!(row(0).points_diff, (2 - 1) + (2 - 1) + (1 - 2));
    assert_eq!(
        st.iter().map(|s| s.place).collect::<Vec<_>>(),
        vec![1, 2, 3, 4, 5]
    );
    // Tied on everything: the same place.
    let mut h = History::default();
    h.played.push(Played::new(1, 0, 1, None, 1, 1));
    let st = swiss::standings(2, &h, &Options::default()).unwrap();
    assert_eq!(
        st.iter().map(|s| (s.entrant, s.place)).collect::<Vec<_>>(),
        vec![(0, 1), (1, 1)]
    );
}

#[test]
fn a_withdrawn_entrant_is_paired_no_more_and_its_results_stand() {
    let mut h = History::default();
    h.played
        .push(Played::new(1, 0, 2, Some(Side::Second), 0, 2));
    h.played
        .push(Played::new(1, 3, 1, Some(Side::Second), 1, 2));
    h.withdrawn.push(2);
    let r = swiss::pair(4, &h, &Options::default()).unwrap();
    assert!(r.pairs.iter().all(|&(a, b)| a != 2 && b != 2));
    assert_eq!(r.pairs.len(), 1);
    assert!(r.bye.is_some() && r.bye != Some(2));
    let st = swiss::standings(4, &h, &Options::default()).unwrap();
    let two = st.iter().find(|s| s.entrant == 2).unwrap();
    assert_eq!((two.score, two.withdrawn), (1.0, true));
}

#[test]
fn bad_histories_are_refused_by_name() {
    let o = Options::default();
    assert_eq!(
        swiss::pair(1, &History::default(), &o),
        Err(TournamentError::TooFew { min: 2, got: 1 })
    );
    let mut h = History::default();
    h.played.push(Played::new(1, 0, 9, Some(Side::First), 1, 0));
    assert_eq!(
        swiss::pair(4, &h, &o),
        Err(TournamentError::NoSuchEntrant(9))
    );
    let mut h = History::default();
    h.played.push(Played::new(1, 2, 2, Some(Side::First), 1, 0));
    assert_eq!(
        swiss::pair(4, &h, &o),
        Err(TournamentError::SelfMatch(2, 1))
    );
    let h = History {
        withdrawn: vec![0, 1, 2],
        ..Default::default()
    };
    assert!(matches!(
        swiss::pair(4, &h, &o),
        Err(TournamentError::TooFew { .. })
    ));
    assert!(swiss::pair(5000, &History::default(), &o).is_err());
}
