//! A cuadrilla's league table, worked by hand.

use tapete_tournament::league::{self, LeagueGame};

fn mus(a: [Option<i64>; 2], b: [Option<i64>; 2], a_won: bool, juegos: (i64, i64)) -> LeagueGame {
    LeagueGame {
        game: "mus".into(),
        sides: vec![a.to_vec(), b.to_vec()],
        winners: vec![if a_won { 0 } else { 1 }],
        points: vec![juegos.0, juegos.1],
    }
}

#[test]
fn persons_and_pairs_rank_by_wins_less_losses_per_game() {
    let (ane, bea, cris, dani) = (Some(1), Some(2), Some(3), Some(4));
    let games = vec![
        // Ane and Bea beat Cris and Dani twice, lose once; Ane and Cris beat Bea and the bot.
        mus([ane, bea], [cris, dani], true, (2, 0)),
        mus([bea, ane], [dani, cris], true, (2, 1)),
        mus([cris, dani], [ane, bea], true, (2, 1)),
        mus([ane, cris], [bea, None], true, (2, 0)),
        // A Chinchón game of three: Dani wins; points given negated (they count against).
        LeagueGame {
            game: "chinchon".into(),
            sides: vec![vec![ane], vec![bea], vec![dani]],
            winners: vec![2],
            points: vec![-80, -101, -20],
        },
    ];
    let t = league::tables(&games);
    let m = &t["mus"];
    let person = |id: i64| {
        m.persons
            .iter()
            .find(|r| r.who == vec![id])
            .unwrap()
            .clone()
    };
    // Ane: 4 played, 3 won, 1 lost; Bea: 4, 2, 2; Cris: 4, 2, 2; Dani: 3, 1, 2.
    assert_eq!((person(1).played, person(1).won, person(1).lost), (4, 3, 1));
    assert_eq!((person(2).played, person(2).won, person(2).lost), (4, 2, 2));
    assert_eq!((person(4).played, person(4).won, person(4).lost), (3, 1, 2));
    assert_eq!(m.persons[0].who, vec![1]);
    assert_eq!(m.persons[0].place, 1);
    // Bea and Cris tie on wins less losses and on wins: the points difference decides.
    // Bea: +2 +1 −1 −2 = 0; Cris: −2 −1 +1 +2 = 0: tied on everything, they share the
    // place.
    assert_eq!((person(2).points_diff, person(3).points_diff), (0, 0));
    assert_eq!(person(2).place, person(3).place);
    assert_eq!(m.persons.last().unwrap().who, vec![4]);
    // Pairs: Ane–Bea 3 played (2 won), Cris–Dani 3 (1 won), Ane–Cris 1 (1 won); Bea with
    // the bot is no pair.
    let pair = |a: i64, b: i64| m.pairs.iter().find(|r| r.who == vec![a, b]).cloned();
    assert_eq!(
        pair(1, 2).map(|r| (r.played, r.won, r.lost)),
        Some((3, 2, 1))
    );
    assert_eq!(
        pair(3, 4).map(|r| (r.played, r.won, r.lost)),
        Some((3, 1, 2))
    );
    assert_eq!(pair(1, 3).map(|r| (r.played, r.won)), Some((1, 1)));
    assert_eq!(m.pairs.len(), 3);
    assert_eq!(
        m.pairs[0].who,
        vec![1, 2],
        "+1 and 2 wins before Ane–Cris's +1 and 1"
    );
    // Chinchón apart: Dani first; his difference is his points less the others' mean.
    let c = &t["chinchon"];
    assert_eq!(c.persons[0].who, vec![4]);
    assert_eq!(c.persons[0].points_diff, -20 - (-80 - 101) / 2);
    assert!(c.pairs.is_empty());
}

#[test]
fn a_game_nobody_won_counts_as_played_and_a_lone_side_as_nothing() {
    let games = vec![
        LeagueGame {
            game: "tikki".into(),
            sides: vec![vec![Some(1)], vec![Some(2)]],
            winners: vec![],
            points: vec![10, 10],
        },
        LeagueGame {
            game: "tikki".into(),
            sides: vec![vec![Some(1)]],
            winners: vec![0],
            points: vec![10],
        },
    ];
    let t = league::tables(&games);
    let rows = &t["tikki"].persons;
    assert_eq!(rows.len(), 2);
    assert!(rows
        .iter()
        .all(|r| r.played == 1 && r.won == 0 && r.lost == 0));
    assert!(rows.iter().all(|r| r.place == 1));
}
