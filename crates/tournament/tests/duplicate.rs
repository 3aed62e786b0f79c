//! Duplicate scoring, worked by hand.

use tapete_tournament::duplicate::{self, Matchpoints, TableResult};

fn t(round: u32, deals: u64, first: usize, second: usize, first_net: i64) -> TableResult {
    TableResult {
        round,
        deals,
        first,
        second,
        first_net,
    }
}

#[test]
fn each_side_is_compared_with_those_that_held_the_same_cards() {
    // Three tables of the same deals: first sides +5, +5, −3.
    let r = vec![t(1, 7, 0, 1, 5), t(1, 7, 2, 3, 5), t(1, 7, 4, 5, -3)];
    let mp = duplicate::matchpoints(&r);
    assert_eq!(
        mp,
        vec![
            // Beat −3, tied +5; the second side tied the other −5, lost to +3.
            Matchpoints {
                first: 3,
                second: 1,
                max: 4
            },
            Matchpoints {
                first: 3,
                second: 1,
                max: 4
            },
            // Lost to both +5; its second side (+3) beat both −5.
            Matchpoints {
                first: 0,
                second: 4,
                max: 4
            },
        ]
    );
    let st = duplicate::standings(6, &r);
    // Pair 5 lost nothing and beat the field on the same cards: first, with 100%.
    assert_eq!((st[0].entrant, st[0].percent, st[0].net), (5, 100.0, 3));
    // Pairs 0 and 2: 75% and +5 each: tied, sharing second place.
    assert_eq!((st[1].entrant, st[1].place), (0, 2));
    assert_eq!((st[2].entrant, st[2].place), (2, 2));
    assert_eq!(st[1].percent, 75.0);
    // Pair 4 won nothing on its cards: last.
    assert_eq!((st[5].entrant, st[5].percent), (4, 0.0));
}

#[test]
fn different_deals_are_never_compared_and_a_lone_table_counts_for_nobody() {
    let r = vec![t(1, 1, 0, 1, 10), t(1, 2, 2, 3, -10), t(2, 3, 0, 2, 4)];
    let mp = duplicate::matchpoints(&r);
    assert!(mp
        .iter()
        .all(|m| m.max == 0 && m.first == 0 && m.second == 0));
    let st = duplicate::standings(4, &r);
    assert!(st.iter().all(|s| s.percent == 50.0));
    // Ties on percentage go by net piedras.
    assert_eq!(st[0].entrant, 0);
    assert_eq!(st[0].net, 14);
}

#[test]
fn matchpoints_add_up_over_rounds() {
    // Two rounds of two tables each; pair 0 holds the first side then the second.
    let r = vec![
        t(1, 11, 0, 1, 2),
        t(1, 11, 2, 3, 0),
        t(2, 12, 1, 0, 0),
        t(2, 12, 3, 2, 6),
    ];
    let st = duplicate::standings(4, &r);
    let row = |e: usize| st.iter().find(|s| s.entrant == e).unwrap().clone();
    // Pair 0: round 1 first side +2 beats 0 (2 of 2); round 2 second side 0 beats −6
    // (2 of 2): 4 of 4.
    assert_eq!(
        (row(0).matchpoints, row(0).max, row(0).percent),
        (4, 4, 100.0)
    );
    // Pair 3: second side at 0 against −2 (2), first side +6 against 0 (2): 4 of 4 too;
    // pairs 1 and 2 lost both comparisons.
    assert_eq!((row(3).matchpoints, row(3).max), (4, 4));
    assert_eq!((row(1).matchpoints, row(2).matchpoints), (0, 0));
    assert_eq!(row(0).tables, 2);
}
