//! An arena: for a set time, whoever has finished a match is paired again at once.
//!
//! **Scoring** (lichess's): a win is 2 points, a draw 1, a loss 0. Two wins in a row light
//! a streak: from then on every match is worth double (4 a win, 2 a draw) until one is not
//! won. **Pairing**: the entrants waiting are ranked by their standing (points, then seed)
//! and neighbours meet, so a strong run meets strong opponents; two who have just met each
//! other are not paired again at once when a third is waiting. When an odd number wait,
//! one of those who have played the most waits on (the lowest ranked of them, unless
//! another's waiting spares a rematch), so the foot of the standings is not always the one
//! left out. Who has sat first less often sits first. **Standings**: points, then wins, then the points difference, then
//! the seed.

use crate::{Entrant, Played, Side};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// An entrant's line in an arena's standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// From 1; entrants tied on everything share it.
    pub place: usize,
    pub entrant: Entrant,
    pub points: u32,
    pub played: u32,
    pub wins: u32,
    /// Whether its last two matches were won: its next counts double.
    pub on_fire: bool,
    /// Points scored less points conceded, over its matches.
    pub points_diff: i64,
}

/// The points each match gave its two sides, in the order of `played` (the order the
/// matches ended in), and each entrant's streak at the end.
fn score(entrants: usize, played: &[Played]) -> (Vec<(u32, u32)>, Vec<u32>) {
    let mut wins_in_a_row = vec![0u32; entrants];
    let mut per_match = Vec::with_capacity(played.len());
    for p in played {
        let mut got = [0u32; 2];
        for (k, side) in [Side::First, Side::Second].into_iter().enumerate() {
            let e = p.at(side);
            if e >= entrants {
                continue;
            }
            let double = wins_in_a_row[e] >= 2;
            let base = match p.winner {
                Some(w) if w == side => 2,
                None => 1,
                Some(_) => 0,
            };
            got[k] = if double { base * 2 } else { base };
            if base == 2 {
                wins_in_a_row[e] += 1;
            } else {
                wins_in_a_row[e] = 0;
            }
        }
        per_match.push((got[0], got[1]));
    }
    (per_match, wins_in_a_row)
}

/// The standings of an arena of `entrants` after `played`, in the order the matches ended.
pub fn standings(entrants: usize, played: &[Played]) -> Vec<Standing> {
    let (per_match, streaks) = score(entrants, played);
    let mut rows: Vec<Standing> = (0..entrants)
        .map(|e| Standing {
            place: 0,
            entrant: e,
            points: 0,
            played: 0,
            wins: 0,
            on_fire: streaks[e] >= 2,
            points_diff: 0,
        })
        .collect();
    for (p, &(a, b)) in played.iter().zip(&per_match) {
        for (side, got) in [(Side::First, a), (Side::Second, b)] {
            let e = p.at(side);
            if e >= entrants {
                continue;
            }
            let (mine, theirs) = match side {
                Side::First => (p.first_points, p.second_points),
                Side::Second => (p.second_points, p.first_points),
            };
            let r = &mut rows[e];
            r.points += got;
            r.played += 1;
            r.points_diff += mine - theirs;
            if p.winner == Some(side) {
                r.wins += 1;
            }
        }
    }
    let key = |r: &Standing| {
        (
            std::cmp::Reverse(r.points),
            std::cmp::Reverse(r.wins),
            std::cmp::Reverse(r.points_diff),
        )
    };
    rows.sort_by_key(|r| (key(r), r.entrant));
    crate::number_places(&mut rows, key, |r| &mut r.place);
    rows
}

/// Pairs the entrants `waiting` (in any order) after `played`: neighbours in the standings
/// meet, never the opponent of one's last match while another is waiting; the one left
/// over (an odd number) waits for the next to finish. Answers (first, second) pairs.
pub fn pair(entrants: usize, played: &[Played], waiting: &[Entrant]) -> Vec<(Entrant, Entrant)> {
    let st = standings(entrants, played);
    let rank: HashMap<Entrant, usize> =
        st.iter().enumerate().map(|(i, s)| (s.entrant, i)).collect();
    let mut queue: Vec<Entrant> = waiting
        .iter()
        .copied()
        .filter(|e| rank.contains_key(e))
        .collect();
    queue.sort_by_key(|e| rank[e]);
    queue.dedup();
    let mut last: HashMap<Entrant, Entrant> = HashMap::new();
    let mut balance: HashMap<Entrant, i64> = HashMap::new();
    for p in played {
        last.insert(p.first, p.second);
        last.insert(p.second, p.first);
        *balance.entry(p.first).or_default() += 1;
        *balance.entry(p.second).or_default() -= 1;
    }
    // An odd number waiting: one waits on — one of those who have played the most, so the
    // foot of the standings is not always the one left out; of them the lowest ranked,
    // unless leaving another out spares a match against the opponent just met.
    if queue.len() % 2 == 1 {
        let played_by = |e: Entrant| {
            played
                .iter()
                .filter(|p| p.first == e || p.second == e)
                .count()
        };
        let most = queue.iter().map(|&e| played_by(e)).max().unwrap_or(0);
        let rematches = |out: Entrant| {
            let rest: Vec<Entrant> = queue.iter().copied().filter(|&e| e != out).collect();
            pair_in_order(rest, &last, &balance)
                .iter()
                .filter(|(a, b)| last.get(a) == Some(b) && last.get(b) == Some(a))
                .count()
        };
        let waits = queue
            .iter()
            .rev()
            .copied()
            .filter(|&e| played_by(e) == most)
            .min_by_key(|&e| rematches(e));
        if let Some(w) = waits {
            queue.retain(|&e| e != w);
        }
    }
    pair_in_order(queue, &last, &balance)
}

/// Pairs `queue` (best ranked first) two by two: each with its neighbour, unless they have
/// just met and someone else is waiting; who has sat first less often sits first.
fn pair_in_order(
    mut queue: Vec<Entrant>,
    last: &HashMap<Entrant, Entrant>,
    balance: &HashMap<Entrant, i64>,
) -> Vec<(Entrant, Entrant)> {
    let mut pairs = Vec::new();
    while queue.len() >= 2 {
        let a = queue.remove(0);
        let k = queue
            .iter()
            .position(|&b| last.get(&a) != Some(&b) || last.get(&b) != Some(&a))
            .unwrap_or(0);
        let b = queue.remove(k);
        let (ba, bb) = (
            balance.get(&a).copied().unwrap_or(0),
            balance.get(&b).copied().unwrap_or(0),
        );
        pairs.push(if ba <= bb { (a, b) } else { (b, a) });
    }
    pairs
}

/// The matches to start now in an arena of `entrants` after `played` (in the order they
/// ended; each entrant's own matches in the order it played them is enough): everybody
/// free — not `busy` in a match, not `out` (paused, or gone) — is paired as [`pair`] pairs.
pub fn next(
    entrants: usize,
    played: &[Played],
    busy: &[Entrant],
    out: &[Entrant],
) -> Vec<(Entrant, Entrant)> {
    let waiting: Vec<Entrant> = (0..entrants)
        .filter(|e| !busy.contains(e) && !out.contains(e))
        .collect();
    pair(entrants, played, &waiting)
}
