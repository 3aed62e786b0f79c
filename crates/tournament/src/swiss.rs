//! Swiss: every entrant plays every round, against one of about its score it has not met.
//!
//! **Pairing** (Dutch-style): the entrants are ranked by score, then by seed. From the top,
//! each score group is split into its upper and lower halves and the first of the upper
//! half meets the first of the lower half, the second the second, and so on — the top
//! seed of a group meets the one in its middle, not its neighbour. When that would repeat
//! a match, the lower half is tried in its order, then the upper half from its bottom;
//! an entrant left alone in its group (an odd group, or nobody it has not met) floats down
//! and meets the highest it can of the next group. The search backtracks: a choice that
//! leaves the rest of the round unpairable is undone. No match is ever repeated while a
//! round without repeats exists; only when none does (more rounds than the field allows)
//! is a repeat accepted, as few as the search finds, and the round says so.
//!
//! **The bye**: with an odd number of entrants, the lowest ranked who has not had one sits
//! out and scores a win (or a draw: [`Options::bye`]).
//!
//! **The first seat** (Mus: the pair that is mano in the first hand): who has sat first
//! less often sits first; if even, who sat second last time; in the first round the top
//! board's higher seed sits first and the boards alternate.
//!
//! **Standings**: score (1 a win, ½ a draw, a bye as [`Options::bye`]), then **Buchholz**
//! (the sum of the scores of the opponents met: a hard schedule counts), then
//! **Sonneborn-Berger** (the scores of the opponents beaten, and half of those drawn with:
//! whom you beat counts), then the points difference (Mus: juegos won less lost), then the
//! seed. A bye adds nothing to either tiebreak: it is no opponent.

use crate::{Entrant, Played, Side, TournamentError, MAX_ENTRANTS};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// What a bye scores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ByeScore {
    /// A win (the usual rule).
    #[default]
    Win,
    /// A draw.
    Draw,
}

/// The options of a Swiss.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    pub bye: ByeScore,
}

/// Everything a Swiss has seen: the matches played, the byes given, who withdrew.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct History {
    pub played: Vec<Played>,
    /// (round, entrant) of each bye.
    pub byes: Vec<(u32, Entrant)>,
    /// Entrants who left: they are paired no more, their results stand.
    pub withdrawn: Vec<Entrant>,
}

impl History {
    /// The rounds paired so far (the highest round of a match or a bye).
    pub fn rounds(&self) -> u32 {
        let played = self.played.iter().map(|p| p.round).max().unwrap_or(0);
        let byes = self.byes.iter().map(|b| b.0).max().unwrap_or(0);
        played.max(byes)
    }
}

/// One round's pairing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// The round's number, from 1.
    pub round: u32,
    /// (first, second) of each board, the top board first.
    pub pairs: Vec<(Entrant, Entrant)>,
    /// Who sits out, scoring [`Options::bye`].
    pub bye: Option<Entrant>,
    /// Matches that repeat an earlier one: 0 unless the field left no other way.
    pub repeats: usize,
}

/// An entrant's line in the standings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    /// The place, from 1 (entrants tied on everything share it).
    pub place: usize,
    pub entrant: Entrant,
    /// 1 a win, ½ a draw, the bye as the options say.
    pub score: f64,
    pub buchholz: f64,
    pub sonneborn_berger: f64,
    /// Points scored less points conceded over the matches played.
    pub points_diff: i64,
    pub played: u32,
    pub wins: u32,
    pub withdrawn: bool,
}

/// The most steps the search for a round without repeats takes before it accepts repeats:
/// far more than any field of a sensible size needs, and a bound on a hopeless one.
const SEARCH_STEPS: usize = 200_000;

/// Half-points: 2 a win, 1 a draw.
fn half_scores(entrants: usize, h: &History, opts: &Options) -> Vec<u32> {
    let mut s = vec![0u32; entrants];
    for p in &h.played {
        match p.winner {
            Some(side) => s[p.at(side)] += 2,
            None => {
                s[p.first] += 1;
                s[p.second] += 1;
            }
        }
    }
    for &(_, e) in &h.byes {
        s[e] += match opts.bye {
            ByeScore::Win => 2,
            ByeScore::Draw => 1,
        };
    }
    s
}

fn check(entrants: usize, h: &History) -> Result<(), TournamentError> {
    if entrants < 2 {
        return Err(TournamentError::TooFew {
            min: 2,
            got: entrants,
        });
    }
    if entrants > MAX_ENTRANTS {
        return Err(TournamentError::TooMany {
            max: MAX_ENTRANTS,
            got: entrants,
        });
    }
    for p in &h.played {
        for e in [p.first, p.second] {
            if e >= entrants {
                return Err(TournamentError::NoSuchEntrant(e));
            }
        }
        if p.first == p.second {
            return Err(TournamentError::SelfMatch(p.first, p.round));
        }
    }
    for &e in h.byes.iter().map(|(_, e)| e).chain(&h.withdrawn) {
        if e >= entrants {
            return Err(TournamentError::NoSuchEntrant(e));
        }
    }
    Ok(())
}

/// The next round's pairing of a Swiss of `entrants`, from its history.
pub fn pair(entrants: usize, h: &History, opts: &Options) -> Result<Round, TournamentError> {
    check(entrants, h)?;
    let round = h.rounds() + 1;
    let scores = half_scores(entrants, h, opts);
    let withdrawn: HashSet<Entrant> = h.withdrawn.iter().copied().collect();
    // Ranked: score down, seed up.
    let mut ranked: Vec<Entrant> = (0..entrants).filter(|e| !withdrawn.contains(e)).collect();
    if ranked.len() < 2 {
        return Err(TournamentError::TooFew {
            min: 2,
            got: ranked.len(),
        });
    }
    ranked.sort_by_key(|&e| (std::cmp::Reverse(scores[e]), e));
    let met: HashSet<(Entrant, Entrant)> = h
        .played
        .iter()
        .map(|p| (p.first.min(p.second), p.first.max(p.second)))
        .collect();
    let had_bye: HashSet<Entrant> = h.byes.iter().map(|b| b.1).collect();

    // The bye: from the bottom, the first who has not had one and leaves a round without
    // repeats; failing that, the bottom one who has not had one, with repeats.
    let bye_order: Vec<Option<Entrant>> = if ranked.len().is_multiple_of(2) {
        vec![None]
    } else {
        let fresh: Vec<Option<Entrant>> = ranked
            .iter()
            .rev()
            .filter(|e| !had_bye.contains(e))
            .map(|&e| Some(e))
            .collect();
        if fresh.is_empty() {
            ranked.iter().rev().map(|&e| Some(e)).collect()
        } else {
            fresh
        }
    };
    let mut fallback = None;
    for &bye in &bye_order {
        let field: Vec<Entrant> = ranked.iter().copied().filter(|&e| Some(e) != bye).collect();
        let mut search = Search {
            field: &field,
            scores: &scores,
            met: &met,
            repeats_allowed: false,
            steps: 0,
        };
        if let Some(pairs) = search.run() {
            return Ok(finish(round, pairs, bye, 0, h, &ranked));
        }
        if fallback.is_none() {
            fallback = Some((bye, field));
        }
    }
    // No round without repeats: the fewest the search finds, for the first bye tried.
    let (bye, field) = fallback.ok_or(TournamentError::NoPairing { round })?;
    let mut search = Search {
        field: &field,
        scores: &scores,
        met: &met,
        repeats_allowed: true,
        steps: 0,
    };
    let pairs = search.run().ok_or(TournamentError::NoPairing { round })?;
    let repeats = pairs
        .iter()
        .filter(|&&(a, b)| met.contains(&(a.min(b), a.max(b))))
        .count();
    Ok(finish(round, pairs, bye, repeats, h, &ranked))
}

/// The depth-first search for a round: the top entrant left meets its first acceptable
/// candidate, and so on; a dead end undoes the last choice.
struct Search<'a> {
    /// The entrants to pair, ranked.
    field: &'a [Entrant],
    scores: &'a [u32],
    met: &'a HashSet<(Entrant, Entrant)>,
    repeats_allowed: bool,
    steps: usize,
}

impl Search<'_> {
    fn run(&mut self) -> Option<Vec<(Entrant, Entrant)>> {
        let mut paired = vec![false; self.field.len()];
        let mut out = Vec::with_capacity(self.field.len() / 2);
        if self.go(&mut paired, &mut out) {
            Some(out)
        } else {
            None
        }
    }

    fn has_met(&self, a: Entrant, b: Entrant) -> bool {
        self.met.contains(&(a.min(b), a.max(b)))
    }

    /// The candidates of the top unpaired entrant (at `top` in the field), in the order
    /// they are tried: its score group's lower half from the middle down, then the upper
    /// half from the bottom up, then the groups below, top first; with repeats allowed,
    /// the ones met last, in the same order.
    fn candidates(&self, paired: &[bool], top: usize) -> Vec<usize> {
        let score = self.scores[self.field[top]];
        let left: Vec<usize> = (top + 1..self.field.len())
            .filter(|&i| !paired[i])
            .collect();
        let same: Vec<usize> = left
            .iter()
            .copied()
            .filter(|&i| self.scores[self.field[i]] == score)
            .collect();
        let below: Vec<usize> = left
            .iter()
            .copied()
            .filter(|&i| self.scores[self.field[i]] != score)
            .collect();
        // The group as it stands, the top entrant first: its middle is the natural
        // opponent (the upper half's first meets the lower half's first).
        let group_len = same.len() + 1;
        let middle = group_len / 2;
        let mut order: Vec<usize> = Vec::with_capacity(left.len());
        // Lower half, from the middle down.
        for k in middle.max(1)..group_len {
            order.push(same[k - 1]);
        }
        // Upper half, from its bottom up.
        for k in (1..middle).rev() {
            order.push(same[k - 1]);
        }
        order.extend(below);
        let (fresh, old): (Vec<usize>, Vec<usize>) = order
            .into_iter()
            .partition(|&i| !self.has_met(self.field[top], self.field[i]));
        if self.repeats_allowed {
            fresh.into_iter().chain(old).collect()
        } else {
            fresh
        }
    }

    fn go(&mut self, paired: &mut [bool], out: &mut Vec<(Entrant, Entrant)>) -> bool {
        let Some(top) = paired.iter().position(|p| !p) else {
            return true;
        };
        for c in self.candidates(paired, top) {
            self.steps += 1;
            if self.steps > SEARCH_STEPS {
                return false;
            }
            paired[top] = true;
            paired[c] = true;
            out.push((self.field[top], self.field[c]));
            if self.go(paired, out) {
                return true;
            }
            out.pop();
            paired[top] = false;
            paired[c] = false;
        }
        false
    }
}

/// Seats each pair (who sits first) and orders the boards by their higher-ranked entrant.
fn finish(
    round: u32,
    pairs: Vec<(Entrant, Entrant)>,
    bye: Option<Entrant>,
    repeats: usize,
    h: &History,
    ranked: &[Entrant],
) -> Round {
    let mut ranks = std::collections::HashMap::<Entrant, usize>::new();
    for (i, &e) in ranked.iter().enumerate() {
        ranks.insert(e, i);
    }
    let rank = |e: Entrant| ranks.get(&e).copied().unwrap_or(usize::MAX);
    // Per entrant: firsts less seconds, and the side of its last match.
    let mut balance = std::collections::HashMap::<Entrant, i64>::new();
    let mut last = std::collections::HashMap::<Entrant, (u32, Side)>::new();
    for p in &h.played {
        *balance.entry(p.first).or_default() += 1;
        *balance.entry(p.second).or_default() -= 1;
        for (e, side) in [(p.first, Side::First), (p.second, Side::Second)] {
            let newer = last.get(&e).is_none_or(|&(r, _)| p.round >= r);
            if newer {
                last.insert(e, (p.round, side));
            }
        }
    }
    let mut boards: Vec<(Entrant, Entrant)> = pairs
        .into_iter()
        .map(|(a, b)| if rank(a) <= rank(b) { (a, b) } else { (b, a) })
        .collect();
    boards.sort_by_key(|&(a, _)| rank(a));
    let seated = boards
        .into_iter()
        .enumerate()
        .map(|(board, (high, low))| {
            let (bh, bl) = (
                balance.get(&high).copied().unwrap_or(0),
                balance.get(&low).copied().unwrap_or(0),
            );
            let high_first = if bh != bl {
                bh < bl
            } else {
                match (last.get(&high), last.get(&low)) {
                    (Some(&(_, sh)), Some(&(_, sl))) if sh != sl => sh == Side::Second,
                    (Some(&(_, sh)), _) => sh == Side::Second,
                    (None, Some(&(_, sl))) => sl == Side::First,
                    // Nobody has played: the boards alternate.
                    (None, None) => board % 2 == 0,
                }
            };
            if high_first {
                (high, low)
            } else {
                (low, high)
            }
        })
        .collect();
    Round {
        round,
        pairs: seated,
        bye,
        repeats,
    }
}

/// The standings of a Swiss of `entrants` after its history.
pub fn standings(
    entrants: usize,
    h: &History,
    opts: &Options,
) -> Result<Vec<Standing>, TournamentError> {
    check(entrants, h)?;
    let half = half_scores(entrants, h, opts);
    let score = |e: Entrant| half[e] as f64 / 2.0;
    let mut rows: Vec<Standing> = (0..entrants)
        .map(|e| Standing {
            place: 0,
            entrant: e,
            score: score(e),
            buchholz: 0.0,
            sonneborn_berger: 0.0,
            points_diff: 0,
            played: 0,
            wins: 0,
            withdrawn: h.withdrawn.contains(&e),
        })
        .collect();
    for p in &h.played {
        for side in [Side::First, Side::Second] {
            let (me, them) = (p.at(side), p.at(side.other()));
            let (mine, theirs) = match side {
                Side::First => (p.first_points, p.second_points),
                Side::Second => (p.second_points, p.first_points),
            };
            let r = &mut rows[me];
            r.played += 1;
            r.buchholz += score(them);
            r.points_diff += mine - theirs;
            match p.winner {
                Some(w) if w == side => {
                    r.wins += 1;
                    r.sonneborn_berger += score(them);
                }
                None => r.sonneborn_berger += score(them) / 2.0,
                Some(_) => {}
            }
        }
    }
    rows.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(b.buchholz.total_cmp(&a.buchholz))
            .then(b.sonneborn_berger.total_cmp(&a.sonneborn_berger))
            .then(b.points_diff.cmp(&a.points_diff))
            .then(a.entrant.cmp(&b.entrant))
    });
    let key = |r: &Standing| (r.score, r.buchholz, r.sonneborn_berger, r.points_diff);
    crate::number_places(&mut rows, key, |r| &mut r.place);
    Ok(rows)
}

/// The most rounds a Swiss of `entrants` could go without a repeat: a round robin's, one
/// fewer than the entrants (with a bye, as many). Late rounds near it may still need a
/// repeat: what the first rounds paired need not extend to a whole round robin.
pub fn max_rounds(entrants: usize) -> u32 {
    let n = entrants + entrants % 2;
    n.saturating_sub(1) as u32
}
