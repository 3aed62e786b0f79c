//! A cuadrilla's league table: who has won how much, from its games.
//!
//! Every game the group played is a list of sides (a Mus pair is a side of two, a Chinchón or
//! tikki player a side of one), which of them won, and what each scored. The table is kept
//! per game (Mus apart from Chinchón), per person and per pair (two people who sat together;
//! the same two in either order). A seat the bot held counts for nobody, and a side with the
//! bot in it makes no pair. Rows go by **wins less losses**, then wins, then the points
//! difference (what the side scored less what the others did), then the ids: a friend who
//! played more and won more than lost is above one who played once and won.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A person of the group (the server's player id).
pub type Person = i64;

/// One game of the group, as its table's log ended it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeagueGame {
    /// The game's name (`mus`, `chinchon`…).
    pub game: String,
    /// Each side's people; `None` for a seat the bot held.
    pub sides: Vec<Vec<Option<Person>>>,
    /// The sides that won (indexes into `sides`); none for a game nobody won.
    pub winners: Vec<usize>,
    /// What each side scored, in the game's own count, higher better (Chinchón's points,
    /// which count against, are given negated).
    pub points: Vec<i64>,
}

/// One line of a league table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// From 1; rows tied on everything that ranks them share it.
    pub place: usize,
    /// The person, or the pair's two (lower id first).
    pub who: Vec<Person>,
    pub played: u32,
    pub won: u32,
    pub lost: u32,
    /// Points scored less points the other sides scored (per other side, averaged).
    pub points_diff: i64,
}

/// The league of one game: by person and by pair.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct League {
    pub persons: Vec<Row>,
    pub pairs: Vec<Row>,
}

#[derive(Default)]
struct Tally {
    played: u32,
    won: u32,
    lost: u32,
    points_diff: i64,
}

fn rows(tallies: BTreeMap<Vec<Person>, Tally>) -> Vec<Row> {
    let mut rows: Vec<Row> = tallies
        .into_iter()
        .map(|(who, t)| Row {
            place: 0,
            who,
            played: t.played,
            won: t.won,
            lost: t.lost,
            points_diff: t.points_diff,
        })
        .collect();
    let key = |r: &Row| {
        (
            std::cmp::Reverse(i64::from(r.won) - i64::from(r.lost)),
            std::cmp::Reverse(r.won),
            std::cmp::Reverse(r.points_diff),
        )
    };
    rows.sort_by(|a, b| key(a).cmp(&key(b)).then(a.who.cmp(&b.who)));
    crate::number_places(&mut rows, key, |r| &mut r.place);
    rows
}

/// The league tables of `games`, one per game name.
pub fn tables(games: &[LeagueGame]) -> BTreeMap<String, League> {
    let mut persons: BTreeMap<String, BTreeMap<Vec<Person>, Tally>> = BTreeMap::new();
    let mut pairs: BTreeMap<String, BTreeMap<Vec<Person>, Tally>> = BTreeMap::new();
    for g in games {
        let n = g.sides.len();
        if n < 2 {
            continue;
        }
        let others_mean = |k: usize| -> i64 {
            let total: i64 = g.points.iter().sum();
            let mine = g.points.get(k).copied().unwrap_or(0);
            (total - mine) / (n as i64 - 1)
        };
        for (k, side) in g.sides.iter().enumerate() {
            let won = g.winners.contains(&k);
            let lost = !g.winners.is_empty() && !won;
            let diff = g.points.get(k).copied().unwrap_or(0) - others_mean(k);
            let add = |table: &mut BTreeMap<Vec<Person>, Tally>, who: Vec<Person>| {
                let t = table.entry(who).or_default();
                t.played += 1;
                t.won += u32::from(won);
                t.lost += u32::from(lost);
                t.points_diff += diff;
            };
            let people: Vec<Person> = side.iter().flatten().copied().collect();
            for &p in &people {
                add(persons.entry(g.game.clone()).or_default(), vec![p]);
            }
            if side.len() == 2 && people.len() == 2 && people[0] != people[1] {
                let mut pair = people.clone();
                pair.sort_unstable();
                add(pairs.entry(g.game.clone()).or_default(), pair);
            }
        }
    }
    let mut out: BTreeMap<String, League> = BTreeMap::new();
    for (game, t) in persons {
        out.entry(game).or_default().persons = rows(t);
    }
    for (game, t) in pairs {
        out.entry(game).or_default().pairs = rows(t);
    }
    out
}
