//! A tres ceros: out after three losses, paired by losses, to the last one standing.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tapete_tournament::swiss::History;
use tapete_tournament::{tres_ceros, Played, Side, TournamentError};

/// Plays a whole tres ceros of `n` with coin-flip results; answers its history, the
/// number of rounds and the matches between entrants more than one loss apart.
fn play(n: usize, seed: u64) -> (History, u32, usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut h = History::default();
    let mut rounds = 0;
    let mut far = 0;
    while !tres_ceros::is_over(n, &h) {
        let r = tres_ceros::pair(n, &h).expect("a round");
        rounds += 1;
        assert!(rounds <= 3 * n as u32, "the event does not end");
        let alive = tres_ceros::alive(n, &h);
        let mut seen: Vec<usize> = r.pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
        seen.extend(r.bye);
        seen.sort_unstable();
        assert_eq!(
            seen, alive,
            "round {}: everyone in plays, nobody out",
            r.round
        );
        let before = tres_ceros::losses(n, &h);
        for &(a, b) in &r.pairs {
            if before[a].abs_diff(before[b]) > 1 {
                far += 1;
            }
            let w = if rng.gen_bool(0.5) {
                Side::First
            } else {
                Side::Second
            };
            h.played.push(Played::new(r.round, a, b, Some(w), 1, 0));
        }
        if let Some(b) = r.bye {
            h.byes.push((r.round, b));
        }
    }
    (h, rounds, far)
}

#[test]
fn every_field_plays_down_to_one_and_everyone_else_lost_three() {
    let (mut far, mut matches) = (0, 0);
    for n in 2..=40 {
        for seed in 0..3 {
            let (h, rounds, f) = play(n, seed * 100 + n as u64);
            far += f;
            matches += h.played.len();
            let alive = tres_ceros::alive(n, &h);
            assert_eq!(alive.len(), 1, "n {n}");
            let l = tres_ceros::losses(n, &h);
            for (e, &lost) in l.iter().enumerate() {
                if e == alive[0] {
                    assert!(lost < 3);
                } else {
                    assert_eq!(lost, 3, "n {n}: entrant {e}");
                }
            }
            // Every match eliminates at most a third of an entrant: 3(n−1) to 3n−1 matches.
            let m = h.played.len();
            assert!(m >= 3 * (n - 1) && m < 3 * n, "n {n}: {m} matches");
            let st = tres_ceros::standings(n, &h);
            assert_eq!(st[0].entrant, alive[0]);
            assert_eq!(st[0].place, 1);
            assert!(rounds >= 3);
            // Places follow the rounds they went out in.
            for w in st.windows(2) {
                assert!(w[0].place <= w[1].place);
                let out = |p: &tres_ceros::Place| p.out_in.unwrap_or(u32::MAX);
                assert!(out(&w[0]) >= out(&w[1]), "{w:?}");
            }
            assert_eq!(
                tres_ceros::pair(n, &h),
                Err(TournamentError::Over(h.rounds() + 1))
            );
        }
    }
    // Entrants meet those with as many losses, or one more or fewer, but for a few
    // whom the field leaves nobody else they have not met.
    assert!(
        far * 50 <= matches,
        "{far} of {matches} matches more than a loss apart"
    );
}

#[test]
fn four_entrants_worked_by_hand() {
    let mut h = History::default();
    // Round 1 as a Swiss: 0-2, 3-1; 0 and 1 win.
    let r = tres_ceros::pair(4, &h).unwrap();
    assert_eq!(r.pairs, vec![(0, 2), (3, 1)]);
    h.played.push(Played::new(1, 0, 2, Some(Side::First), 1, 0));
    h.played
        .push(Played::new(1, 3, 1, Some(Side::Second), 0, 1));
    // Round 2: no losses 0, 1 meet; one loss 2, 3 meet.
    let r = tres_ceros::pair(4, &h).unwrap();
    let mut got: Vec<(usize, usize)> = r.pairs.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
    got.sort_unstable();
    assert_eq!(got, vec![(0, 1), (2, 3)]);
    // 2 and 3 lose again, and again: out after their third loss, 2 first.
    h.played.push(Played::new(2, 1, 0, Some(Side::First), 1, 0));
    h.played.push(Played::new(2, 2, 3, Some(Side::First), 1, 0));
    let l = tres_ceros::losses(4, &h);
    assert_eq!(l, vec![1, 0, 1, 2]);
    let st = tres_ceros::standings(4, &h);
    assert_eq!(
        st.iter().map(|p| p.entrant).collect::<Vec<_>>(),
        vec![1, 0, 2, 3]
    );
}
