//! Arena scoring and pairing, worked by hand.

use tapete_tournament::{arena, Played, Side};

#[test]
fn two_wins_in_a_row_light_a_streak_that_doubles_until_a_match_is_not_won() {
    // Entrant 0 against 1, five times: W W W D W.
    let p = |n, w| Played::new(n, 0, 1, w, 0, 0);
    let played = vec![
        p(1, Some(Side::First)),
        p(2, Some(Side::First)),
        p(3, Some(Side::First)),
        p(4, None),
        p(5, Some(Side::First)),
    ];
    let st = arena::standings(2, &played);
    let zero = st.iter().find(|s| s.entrant == 0).unwrap();
    // 2 + 2 + 4 (on fire) + 2 (a draw on fire) + 2 (the draw put it out).
    assert_eq!((zero.points, zero.wins, zero.played), (12, 4, 5));
    assert!(!zero.on_fire);
    let one = st.iter().find(|s| s.entrant == 1).unwrap();
    assert_eq!(one.points, 1);
    assert_eq!((st[0].entrant, st[0].place, st[1].place), (0, 1, 2));
    // Two more wins light it again.
    let mut more = played.clone();
    more.push(p(6, Some(Side::First)));
    assert!(arena::standings(2, &more)[0].on_fire);
}

#[test]
fn the_waiting_meet_their_neighbours_in_the_standings_but_not_their_last_opponent() {
    // 0 beat 1, 2 beat 3: standings 0, 2, 1, 3.
    let played = vec![
        Played::new(1, 0, 1, Some(Side::First), 1, 0),
        Played::new(2, 2, 3, Some(Side::First), 1, 0),
    ];
    let pairs = arena::pair(4, &played, &[3, 1, 2, 0]);
    let sorted: Vec<(usize, usize)> = pairs.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
    assert_eq!(sorted, vec![(0, 2), (1, 3)]);
    // Only 0 and 1 waiting, who just met: they meet again rather than wait.
    assert_eq!(arena::pair(4, &played, &[1, 0]).len(), 1);
    // 0, 1 and 2 waiting: 0's neighbour is 2; 1 waits.
    let pairs = arena::pair(4, &played, &[0, 1, 2]);
    assert_eq!(pairs.len(), 1);
    let (a, b) = pairs[0];
    assert_eq!((a.min(b), a.max(b)), (0, 2));
    // 0 has sat first once, 2 once: equal, so the higher ranked sits first.
    assert_eq!(pairs[0], (0, 2));
    // 0, 1, 3 waiting: 0's neighbour is 1, whom it just met; 3 instead.
    let pairs = arena::pair(4, &played, &[0, 1, 3]);
    let (a, b) = pairs[0];
    assert_eq!((a.min(b), a.max(b)), (0, 3));
    // An entrant unknown to the arena is ignored.
    assert!(arena::pair(4, &played, &[0, 9]).is_empty());
}

#[test]
fn only_the_free_are_paired_never_the_busy_or_the_paused() {
    // Six entrants: 2 and 3 are playing, 5 has paused; 0, 1 and 4 are free.
    let played = vec![Played::new(1, 0, 1, Some(Side::First), 1, 0)];
    let pairs = arena::next(6, &played, &[2, 3], &[5]);
    let paired: Vec<usize> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
    assert_eq!(pairs.len(), 1, "{pairs:?}");
    for e in &paired {
        assert!([0, 1, 4].contains(e), "{pairs:?}");
    }
    // 0 and 1 have just met and 4 waits: one of them meets 4.
    assert!(paired.contains(&4), "{pairs:?}");
    // Nobody free, or one alone: nothing to start.
    assert!(arena::next(3, &played, &[0, 1], &[]).is_empty());
    assert!(arena::next(2, &[], &[], &[1]).is_empty());
}

#[test]
fn of_an_odd_number_waiting_the_one_who_played_most_waits_on() {
    // 0 has played twice, 1 and 2 once; all three wait. Without the rule the foot of the
    // standings (2, who lost) would wait; 0, who has played the most, waits instead.
    let played = vec![
        Played::new(1, 0, 3, Some(Side::First), 1, 0),
        Played::new(1, 1, 2, Some(Side::First), 1, 0),
        Played::new(1, 0, 3, Some(Side::First), 1, 0),
    ];
    let pairs = arena::pair(4, &played, &[0, 1, 2]);
    assert_eq!(pairs.len(), 1);
    let (a, b) = pairs[0];
    assert_eq!((a.min(b), a.max(b)), (1, 2), "{pairs:?}");
}
