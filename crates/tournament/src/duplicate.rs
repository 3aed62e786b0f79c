//! Duplicate scoring: every table of a round plays the same deals, and a pair is compared
//! with the pairs that held the same cards, not with the opponents it happened to meet.
//!
//! A table's result is the net piedras of the pair that held the first side's cards (won
//! less conceded over the round's deals); the pair on the second side scored the opposite.
//! For each set of deals, every first-side result is compared with every other first-side
//! result of the same deals: 2 **matchpoints** for each one it beat, 1 for each it tied
//! (bridge's way, in whole numbers); the second sides likewise among themselves. A pair's
//! standing is its matchpoints as a percentage of the most it could have had — so a pair
//! dealt poor cards that lost by less than the others holding them scores well. A set of
//! deals played at one table only compares with nothing and counts for no one.

use crate::Entrant;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// One table's play of a round's deals.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableResult {
    pub round: u32,
    /// Which deals were played (the same value at every table that played the same cards:
    /// the deals' seed).
    pub deals: u64,
    /// The pair that held the first side's cards (Mus: seats 0 and 2).
    pub first: Entrant,
    pub second: Entrant,
    /// The first pair's piedras less the second pair's, over the deals.
    pub first_net: i64,
}

/// The matchpoints a table's two pairs earned, and the most either could have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Matchpoints {
    pub first: u32,
    pub second: u32,
    /// 2 for each other table that played the same deals.
    pub max: u32,
}

/// The matchpoints of each table result, in the order given.
pub fn matchpoints(results: &[TableResult]) -> Vec<Matchpoints> {
    let mut by_deals: HashMap<u64, Vec<i64>> = HashMap::new();
    for r in results {
        by_deals.entry(r.deals).or_default().push(r.first_net);
    }
    results
        .iter()
        .map(|r| {
            let field = &by_deals[&r.deals];
            let mut first = 0;
            let mut second = 0;
            // Every other result of the same deals (one equal to ours is ourselves).
            let mut skipped_self = false;
            for &other in field {
                if other == r.first_net && !skipped_self {
                    skipped_self = true;
                    continue;
                }
                match r.first_net.cmp(&other) {
                    std::cmp::Ordering::Greater => first += 2,
                    std::cmp::Ordering::Less => second += 2,
                    std::cmp::Ordering::Equal => {
                        first += 1;
                        second += 1;
                    }
                }
            }
            Matchpoints {
                first,
                second,
                max: 2 * (field.len() as u32 - 1),
            }
        })
        .collect()
}

/// A pair's line in a duplicate event's standings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    /// From 1; pairs tied on percentage and net share it.
    pub place: usize,
    pub entrant: Entrant,
    pub matchpoints: u32,
    /// The most it could have had.
    pub max: u32,
    /// `matchpoints / max` as a percentage; 50 when nothing was compared.
    pub percent: f64,
    /// Its piedras less its opponents', over every table it played.
    pub net: i64,
    pub tables: u32,
}

/// The standings of `entrants` pairs after `results`: percentage, then net piedras, then
/// the seed.
pub fn standings(entrants: usize, results: &[TableResult]) -> Vec<Standing> {
    let mps = matchpoints(results);
    let mut rows: Vec<Standing> = (0..entrants)
        .map(|e| Standing {
            place: 0,
            entrant: e,
            matchpoints: 0,
            max: 0,
            percent: 50.0,
            net: 0,
            tables: 0,
        })
        .collect();
    for (r, mp) in results.iter().zip(&mps) {
        for (e, got, net) in [
            (r.first, mp.first, r.first_net),
            (r.second, mp.second, -r.first_net),
        ] {
            if let Some(row) = rows.get_mut(e) {
                row.matchpoints += got;
                row.max += mp.max;
                row.net += net;
                row.tables += 1;
            }
        }
    }
    for r in &mut rows {
        if r.max > 0 {
            r.percent = 100.0 * r.matchpoints as f64 / r.max as f64;
        }
    }
    rows.sort_by(|a, b| {
        b.percent
            .total_cmp(&a.percent)
            .then(b.net.cmp(&a.net))
            .then(a.entrant.cmp(&b.entrant))
    });
    crate::number_places(&mut rows, |r| (r.percent, r.net), |r| &mut r.place);
    rows
}
