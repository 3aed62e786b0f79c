//! Groups, then knockout: every group plays all-play-all, and the best of each group go on
//! to a knockout.
//!
//! How the format reads to a player:
//!
//! - **The draw.** The entrants, in seed order, are dealt into the groups as cards are
//!   dealt, snake-wise: seed 0 to group A, 1 to B, … to the last group, and back the other
//!   way (the next seed to the last group again), so every group gets one of the top seeds
//!   and the groups' strengths even out. There are as few groups as keep each within the
//!   group size asked for, but never so many that a group has fewer than three: then fewer,
//!   larger groups. The groups differ by at most one entrant.
//! - **The round robin.** In its group everybody meets everybody once, by the circle
//!   method: one entrant stays put, the others turn round it a place each round; a group
//!   with an odd number has a bye each round, everybody once. Each entrant sits first as
//!   often as second, or once more either way (the most the circle allows). The rounds are
//!   the whole group stage's: round 1 of every group is played together, and round 2 comes
//!   when all of round 1 is done.
//! - **The group tables.** A win is worth 2 points, a draw 1, a loss 0. Entrants level on
//!   points are ordered by the points they took in the matches among themselves (head to
//!   head), then by the points difference over all their group matches (the winners'
//!   margins, won less conceded), then by seed. An entrant who withdrew is placed below the
//!   others of its group.
//! - **Who goes on.** The first `advance` of each group's table.
//! - **The knockout's draw.** The qualifiers are its seeds by place: the group winners
//!   first, then the runners-up, and so on; within a place by points per match, then the
//!   points difference per match, then seed (groups may differ by one entrant, so the
//!   matches played do too). The knockout is drawn on those seeds as [`crate::bracket`]
//!   draws any — seed `s` meets seed `size−1−s`, and when the qualifiers are not a power of
//!   two the byes go to the top seeds, the best group winners — with one change: the
//!   runners-up (then the thirds, …) share out their place's seeds so as to keep away from
//!   their own groups, one meeting a round earlier weighing more than any number of
//!   meetings later, and only among ways alike by their rank. So a group winner meets a
//!   runner-up of another group (A1 against B2, B1 against A2: the standard crossing), two
//!   of one group are in different halves and meet only in the final, three or four in
//!   different quarters.
//! - **Withdrawals.** An entrant who withdraws from a round of the group stage plays no more
//!   there: each of its group matches from that round on is lost by it, 0–0 (both lost, if
//!   both sides withdrew). Counting them lost rather than dropping them keeps the table
//!   fair: every entrant of a group plays the same number of matches, and each has the same
//!   win over the one who left, whenever it was due to meet it. A withdrawn entrant does not
//!   go on (the next in its table does, unless its group has too few left). One who
//!   withdraws after the group stage, or goes on anyway, forfeits each knockout match it is
//!   then in, as in any bracket: a result the other side wins.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::bracket::{seed_order, Bracket, BracketMatch, BracketState};
use crate::event::{check_bracket_results, MatchKey, MatchResult, Next, Pairing, Withdrawal};
use crate::{Entrant, Side, TournamentError};

/// The fewest entrants a group holds: fewer is no group.
pub const MIN_GROUP: u32 = 3;
/// The most entrants a group size may ask for.
pub const MAX_GROUP: u32 = 8;

/// A group's name: A, B, … Z, then AA, AB, …
pub fn group_name(group: usize) -> String {
    let mut name = Vec::new();
    let mut i = group + 1;
    while i > 0 {
        i -= 1;
        name.push(b'A' + (i % 26) as u8);
        i /= 26;
    }
    name.reverse();
    String::from_utf8(name).unwrap_or_default()
}

/// A group match: its round, its board in the round (across all groups), its sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fixture {
    /// The round of the group stage, from 1.
    pub round: u32,
    /// From 0, across the round's groups: group A's matches first.
    pub board: u32,
    /// The group, from 0 (A).
    pub group: usize,
    pub first: Entrant,
    pub second: Entrant,
}

impl Fixture {
    /// The match's key.
    pub fn key(&self) -> MatchKey {
        MatchKey::Board {
            round: self.round,
            board: self.board,
        }
    }
}

/// The draw of a groups event: who is in which group, and every group match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draw {
    /// The size asked for: the most a group holds (unless the field is too small for
    /// groups of three within it).
    pub size: u32,
    /// How many go on from each group.
    pub advance: u32,
    /// Each group's entrants, in seed order.
    pub groups: Vec<Vec<Entrant>>,
    /// Every group match, by round, then board.
    pub fixtures: Vec<Fixture>,
    /// Who sits each round out: (round, entrant), a group with an odd number only.
    pub byes: Vec<(u32, Entrant)>,
    /// The group stage's rounds: its largest group's.
    pub rounds: u32,
}

impl Draw {
    /// The draw of `entrants` in groups of at most `size` (3 to 8), `advance` going on from
    /// each (1 to one fewer than the smallest group holds), checked: at least two go on in
    /// all, or there is no knockout.
    pub fn new(entrants: usize, size: u32, advance: u32) -> Result<Draw, TournamentError> {
        if !(MIN_GROUP..=MAX_GROUP).contains(&size) {
            return Err(TournamentError::GroupSize { size });
        }
        let min = MIN_GROUP as usize;
        if entrants < min {
            return Err(TournamentError::TooFew { min, got: entrants });
        }
        if entrants > crate::MAX_ENTRANTS {
            return Err(TournamentError::TooMany {
                max: crate::MAX_ENTRANTS,
                got: entrants,
            });
        }
        let count = entrants.div_ceil(size as usize).min(entrants / min).max(1);
        let smallest = (entrants / count) as u32;
        let max = size.min(smallest) - 1;
        if advance == 0 || advance > max {
            return Err(TournamentError::Advance { advance, max });
        }
        if count * (advance as usize) < 2 {
            return Err(TournamentError::NoKnockout);
        }
        let mut groups: Vec<Vec<Entrant>> = vec![Vec::new(); count];
        for e in 0..entrants {
            let (pass, at) = (e / count, e % count);
            let g = if pass % 2 == 0 { at } else { count - 1 - at };
            groups[g].push(e);
        }
        let schedules: Vec<Vec<RobinRound>> = groups.iter().map(|g| round_robin(g.len())).collect();
        let rounds = schedules.iter().map(Vec::len).max().unwrap_or(0) as u32;
        let mut fixtures = Vec::new();
        let mut byes = Vec::new();
        for round in 1..=rounds {
            let mut board = 0;
            for (group, (members, schedule)) in groups.iter().zip(&schedules).enumerate() {
                let Some(r) = schedule.get(round as usize - 1) else {
                    continue;
                };
                for &(a, b) in &r.pairs {
                    fixtures.push(Fixture {
                        round,
                        board,
                        group,
                        first: members[a],
                        second: members[b],
                    });
                    board += 1;
                }
                if let Some(b) = r.bye {
                    byes.push((round, members[b]));
                }
            }
        }
        Ok(Draw {
            size,
            advance,
            groups,
            fixtures,
            byes,
            rounds,
        })
    }

    /// The group `e` is in.
    pub fn group_of(&self, e: Entrant) -> Option<usize> {
        self.groups.iter().position(|g| g.contains(&e))
    }
}

/// One round of a round robin: its pairs (first, second) by place in the group, the top
/// one first, and who sits out.
struct RobinRound {
    pairs: Vec<(usize, usize)>,
    bye: Option<usize>,
}

/// The round robin of a group of `m` by the circle method: with an even count the last
/// stays put and meets the one whose turn it is, 0 in round 1; the others pair across the
/// circle. With an odd count a phantom stays put, and whoever it meets has the bye. The
/// fixed one sits first in every other round; across the circle the side turns with the
/// distance, so everyone else sits first as often as second, but for its match with the
/// fixed one.
fn round_robin(m: usize) -> Vec<RobinRound> {
    let n = m + m % 2;
    let fixed = n - 1;
    let circle = n - 1;
    (0..circle)
        .map(|r| {
            let mut pairs = Vec::with_capacity(n / 2);
            let mut bye = None;
            if fixed < m {
                pairs.push(if r % 2 == 1 { (fixed, r) } else { (r, fixed) });
            } else {
                bye = Some(r);
            }
            for k in 1..n / 2 {
                let (x, y) = ((r + k) % circle, (r + circle - k) % circle);
                pairs.push(if k % 2 == 1 { (x, y) } else { (y, x) });
            }
            pairs.sort_by_key(|&(a, b)| a.min(b));
            RobinRound { pairs, bye }
        })
        .collect()
}

/// Where a group match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum FixtureState {
    /// Its round has not come.
    Later,
    /// Paired: to play, or being played.
    Pending,
    /// Played; `winner` none for a draw.
    Played {
        winner: Option<Side>,
        first_points: i64,
        second_points: i64,
    },
    /// Not played: a side had withdrawn before its round, and lost it (`winner` none: both
    /// had).
    Forfeit { winner: Option<Side> },
}

/// A group match and where it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct GroupMatch {
    #[serde(flatten)]
    pub fixture: Fixture,
    #[serde(flatten)]
    pub state: FixtureState,
}

/// An entrant's line in its group's table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupRow {
    /// From 1; no two share one (the seed decides last).
    pub place: usize,
    pub entrant: Entrant,
    /// Matches played or given (a forfeit counts as played, and lost by who withdrew).
    pub played: u32,
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
    /// 2 a win, 1 a draw.
    pub points: u32,
    /// Points scored less points conceded in its group matches.
    pub points_diff: i64,
    /// Goes on to the knockout: set once the group stage is over.
    pub qualified: bool,
    pub withdrawn: bool,
}

/// A group: its entrants, its table and its matches.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GroupState {
    /// A, B, …
    pub name: String,
    /// Its entrants, in seed order.
    pub entrants: Vec<Entrant>,
    /// Its table, best first.
    pub rows: Vec<GroupRow>,
    /// Its matches, by round.
    pub matches: Vec<GroupMatch>,
    /// (round, entrant) of each bye.
    pub byes: Vec<(u32, Entrant)>,
}

/// The knockout of the qualifiers, once the group stage is over.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Knockout {
    /// Its seeds: `seeds[s]` is the entrant drawn as seed `s` (0 the top).
    pub seeds: Vec<Entrant>,
    /// Its matches (their `Seed` sources name the entrants themselves).
    pub matches: Vec<BracketMatch>,
    /// Where it stands, in the entrants' own numbers.
    pub state: BracketState,
}

/// A groups event as a page shows it: the groups with their tables and matches, then the
/// knockout.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GroupsState {
    /// The most a group holds, as asked.
    pub size: u32,
    /// How many go on from each group.
    pub advance: u32,
    /// The group stage's rounds.
    pub rounds: u32,
    /// The group round being played; `rounds` once the group stage is over.
    pub round: u32,
    pub groups: Vec<GroupState>,
    /// The knockout, once every group match is done.
    pub knockout: Option<Knockout>,
    /// The champion: the knockout's winner.
    pub champion: Option<Entrant>,
    /// Nothing is left to play.
    pub over: bool,
}

/// A group match's result, played or given, as the table counts it.
struct Counted {
    first: Entrant,
    second: Entrant,
    /// Who won (`None`: a draw, or, if `both_lost`, a match neither side came to).
    winner: Option<Side>,
    both_lost: bool,
    first_points: i64,
    second_points: i64,
}

impl Counted {
    /// The table points `e` took from this match.
    fn points_of(&self, e: Entrant) -> u32 {
        let side = if e == self.first {
            Side::First
        } else {
            Side::Second
        };
        match self.winner {
            Some(w) if w == side => 2,
            None if !self.both_lost => 1,
            _ => 0,
        }
    }
}

/// The table of a group of `members` after `counted`: 2/1/0 points, then head to head among
/// those level, then the points difference, then the seed; the withdrawn below the rest.
fn table(
    members: &[Entrant],
    counted: &[&Counted],
    withdrawn: &BTreeSet<Entrant>,
    advance: usize,
    over: bool,
) -> Vec<GroupRow> {
    let mut rows: Vec<GroupRow> = members
        .iter()
        .map(|&e| GroupRow {
            place: 0,
            entrant: e,
            played: 0,
            won: 0,
            drawn: 0,
            lost: 0,
            points: 0,
            points_diff: 0,
            qualified: false,
            withdrawn: withdrawn.contains(&e),
        })
        .collect();
    let at = |e: Entrant| members.iter().position(|&m| m == e);
    for c in counted {
        for (me, mine, theirs) in [
            (c.first, c.first_points, c.second_points),
            (c.second, c.second_points, c.first_points),
        ] {
            let Some(i) = at(me) else { continue };
            let r = &mut rows[i];
            r.played += 1;
            r.points_diff += mine - theirs;
            match c.points_of(me) {
                2 => r.won += 1,
                1 => r.drawn += 1,
                _ => r.lost += 1,
            }
            r.points += c.points_of(me);
        }
    }
    // Head to head: the points each took from the matches among those level with it.
    let level = |a: &GroupRow, b: &GroupRow| a.withdrawn == b.withdrawn && a.points == b.points;
    let head_to_head: Vec<u32> = rows
        .iter()
        .map(|r| {
            let tied: BTreeSet<Entrant> = rows
                .iter()
                .filter(|o| level(r, o))
                .map(|o| o.entrant)
                .collect();
            counted
                .iter()
                .filter(|c| tied.contains(&c.first) && tied.contains(&c.second))
                .filter(|c| c.first == r.entrant || c.second == r.entrant)
                .map(|c| c.points_of(r.entrant))
                .sum()
        })
        .collect();
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&rows[a], &rows[b]);
        x.withdrawn
            .cmp(&y.withdrawn)
            .then(y.points.cmp(&x.points))
            .then(head_to_head[b].cmp(&head_to_head[a]))
            .then(y.points_diff.cmp(&x.points_diff))
            .then(x.entrant.cmp(&y.entrant))
    });
    order
        .into_iter()
        .enumerate()
        .map(|(i, k)| {
            let mut r = rows[k].clone();
            r.place = i + 1;
            r.qualified = over && i < advance;
            r
        })
        .collect()
}

/// `a/b` against `c/d`, a quotient over no matches read as 0.
fn per_match(a: i64, b: u32, c: i64, d: u32) -> Ordering {
    let (a, b) = if b == 0 { (0, 1) } else { (a, b) };
    let (c, d) = if d == 0 { (0, 1) } else { (c, d) };
    (i128::from(a) * i128::from(d)).cmp(&(i128::from(c) * i128::from(b)))
}

/// The knockout's seeds from the groups' tables (each best first): the place-1 qualifiers
/// ranked, then the place-2 ones, …, each place's seeds shared out among its qualifiers by
/// the cheapest assignment of meeting costs (see [`meeting_cost`]) and, under them, ranks;
/// see the module's docs. One place after another: O(groups³) each.
pub(crate) fn seeds(tables: &[Vec<GroupRow>], advance: usize) -> Vec<Entrant> {
    let count = tables.len();
    // Each place's qualifiers (group, row), best first.
    let pots: Vec<Vec<(usize, &GroupRow)>> = (0..advance)
        .map(|p| {
            let mut pot: Vec<(usize, &GroupRow)> = tables
                .iter()
                .enumerate()
                .filter_map(|(g, t)| t.get(p).map(|r| (g, r)))
                .collect();
            pot.sort_by(|(_, x), (_, y)| {
                x.withdrawn
                    .cmp(&y.withdrawn)
                    .then(per_match(
                        i64::from(y.points),
                        y.played,
                        i64::from(x.points),
                        x.played,
                    ))
                    .then(per_match(y.points_diff, y.played, x.points_diff, x.played))
                    .then(x.entrant.cmp(&y.entrant))
            });
            pot
        })
        .collect();
    let q: usize = pots.iter().map(Vec::len).sum();
    let size = q.next_power_of_two();
    let order = seed_order(size);
    let mut place_of = vec![0; size];
    for (place, &s) in order.iter().enumerate() {
        place_of[s] = place;
    }
    // Who is at each place of the draw, and each group's places taken.
    let mut at: Vec<Option<Entrant>> = vec![None; size];
    let mut of_group: Vec<Vec<usize>> = vec![Vec::new(); count];
    let rounds = size.trailing_zeros();
    // Scales the cost of meeting so that it outweighs any cost of rank (at most count²).
    let scale = (count * count + 1) as i64;
    let mut first_seed = 0;
    for pot in &pots {
        let slots: Vec<usize> = (first_seed..first_seed + pot.len())
            .map(|s| place_of[s])
            .collect();
        let cost: Vec<Vec<i64>> = pot
            .iter()
            .enumerate()
            .map(|(rank, &(g, _))| {
                slots
                    .iter()
                    .enumerate()
                    .map(|(j, &place)| {
                        let meetings: i64 = of_group[g]
                            .iter()
                            .map(|&other| meeting_cost(rounds, other, place))
                            .sum();
                        meetings * scale + rank.abs_diff(j) as i64
                    })
                    .collect()
            })
            .collect();
        for (member, slot) in cheapest_assignment(&cost).into_iter().enumerate() {
            let (g, row) = pot[member];
            at[slots[slot]] = Some(row.entrant);
            of_group[g].push(slots[slot]);
        }
        first_seed += pot.len();
    }
    (0..q)
        .map(|s| at[place_of[s]].unwrap_or_default())
        .collect()
}

/// What two of one group at places `a` and `b` of a draw of `2^rounds` places cost: a
/// weight that grows eightfold for each round earlier they could meet (1 if only in the
/// final), so that one meeting a round earlier outweighs the few a group's others could
/// add a round later.
fn meeting_cost(rounds: u32, a: usize, b: usize) -> i64 {
    let meet = usize::BITS - (a ^ b).leading_zeros();
    8i64.pow(rounds.saturating_sub(meet))
}

/// The assignment of rows to columns of the square `cost` with the least total: for each
/// row, its column. The Hungarian method (Kuhn and Munkres, with potentials), O(n³).
fn cheapest_assignment(cost: &[Vec<i64>]) -> Vec<usize> {
    let n = cost.len();
    let inf = i64::MAX / 4;
    // 1-based: row and column 0 stand for "none".
    let mut u = vec![0i64; n + 1];
    let mut v = vec![0i64; n + 1];
    let mut row_of = vec![0usize; n + 1];
    let mut way = vec![0usize; n + 1];
    for i in 1..=n {
        row_of[0] = i;
        let mut j0 = 0;
        let mut least = vec![inf; n + 1];
        let mut used = vec![false; n + 1];
        loop {
            used[j0] = true;
            let i0 = row_of[j0];
            let (mut delta, mut j1) = (inf, 0);
            for j in 1..=n {
                if used[j] {
                    continue;
                }
                let c = cost[i0 - 1][j - 1] - u[i0] - v[j];
                if c < least[j] {
                    least[j] = c;
                    way[j] = j0;
                }
                if least[j] < delta {
                    delta = least[j];
                    j1 = j;
                }
            }
            for j in 0..=n {
                if used[j] {
                    u[row_of[j]] += delta;
                    v[j] -= delta;
                } else {
                    least[j] -= delta;
                }
            }
            j0 = j1;
            if row_of[j0] == 0 {
                break;
            }
        }
        while j0 != 0 {
            let j1 = way[j0];
            row_of[j0] = row_of[j1];
            j0 = j1;
        }
    }
    let mut out = vec![0; n];
    for j in 1..=n {
        if row_of[j] > 0 {
            out[row_of[j] - 1] = j - 1;
        }
    }
    out
}

/// Who has withdrawn from `round` on.
fn gone(withdrawals: &[Withdrawal], e: Entrant, round: u32) -> bool {
    withdrawals
        .iter()
        .any(|w| w.entrant == e && w.from_round <= round)
}

/// The whole event from its results: the groups, the knockout, and what to play now.
pub(crate) fn run(
    draw: &Draw,
    withdrawals: &[Withdrawal],
    results: &[MatchResult],
) -> Result<(GroupsState, Next), TournamentError> {
    let mut boards: BTreeMap<MatchKey, &MatchResult> = BTreeMap::new();
    let mut bracket_results: Vec<&MatchResult> = Vec::new();
    let mut keys = BTreeSet::new();
    for r in results {
        if !keys.insert(r.key) {
            return Err(TournamentError::Twice(r.key));
        }
        match r.key {
            MatchKey::Board { .. } => {
                boards.insert(r.key, r);
            }
            MatchKey::Bracket(_) => bracket_results.push(r),
        }
    }
    // The group stage, round by round, up to the first with a match still to play.
    let mut states: Vec<FixtureState> = vec![FixtureState::Later; draw.fixtures.len()];
    let mut counted: Vec<(usize, Counted)> = Vec::new();
    let mut matched = 0;
    let mut round = 0;
    let mut pending = Vec::new();
    while round < draw.rounds && pending.is_empty() {
        round += 1;
        for (i, f) in draw.fixtures.iter().enumerate() {
            if f.round != round {
                continue;
            }
            let key = f.key();
            let result = boards.get(&key);
            let (first_gone, second_gone) = (
                gone(withdrawals, f.first, round),
                gone(withdrawals, f.second, round),
            );
            if first_gone || second_gone {
                if result.is_some() {
                    return Err(TournamentError::Unpaired(key));
                }
                let winner = match (first_gone, second_gone) {
                    (false, true) => Some(Side::First),
                    (true, false) => Some(Side::Second),
                    _ => None,
                };
                states[i] = FixtureState::Forfeit { winner };
                counted.push((
                    f.group,
                    Counted {
                        first: f.first,
                        second: f.second,
                        winner,
                        both_lost: winner.is_none(),
                        first_points: 0,
                        second_points: 0,
                    },
                ));
                continue;
            }
            let Some(r) = result else {
                states[i] = FixtureState::Pending;
                pending.push(Pairing {
                    key,
                    first: f.first,
                    second: f.second,
                });
                continue;
            };
            if (r.first, r.second) != (f.first, f.second) {
                return Err(TournamentError::NotThePairing {
                    key,
                    paired: (f.first, f.second),
                    got: (r.first, r.second),
                });
            }
            matched += 1;
            states[i] = FixtureState::Played {
                winner: r.winner,
                first_points: r.first_points,
                second_points: r.second_points,
            };
            counted.push((
                f.group,
                Counted {
                    first: f.first,
                    second: f.second,
                    winner: r.winner,
                    both_lost: false,
                    first_points: r.first_points,
                    second_points: r.second_points,
                },
            ));
        }
    }
    // Every board result was read by a round reached: any other was never paired.
    if matched < boards.len() {
        let read: BTreeSet<MatchKey> = draw
            .fixtures
            .iter()
            .zip(&states)
            .filter(|(_, s)| matches!(s, FixtureState::Played { .. }))
            .map(|(f, _)| f.key())
            .collect();
        if let Some(stray) = boards.keys().find(|k| !read.contains(k)) {
            return Err(TournamentError::Unpaired(*stray));
        }
    }
    let groups_over = pending.is_empty();
    if !groups_over {
        if let Some(stray) = bracket_results.first() {
            return Err(TournamentError::Unpaired(stray.key));
        }
    }
    let withdrawn: BTreeSet<Entrant> = withdrawals
        .iter()
        .filter(|w| w.from_round <= draw.rounds)
        .map(|w| w.entrant)
        .collect();
    let advance = draw.advance as usize;
    let tables: Vec<Vec<GroupRow>> = draw
        .groups
        .iter()
        .enumerate()
        .map(|(g, members)| {
            let mine: Vec<&Counted> = counted
                .iter()
                .filter(|(of, _)| *of == g)
                .map(|(_, c)| c)
                .collect();
            table(members, &mine, &withdrawn, advance, groups_over)
        })
        .collect();
    let mut knockout = None;
    let mut next = Next {
        round,
        pending,
        bye: None,
        over: false,
    };
    if groups_over {
        let seeds = seeds(&tables, advance);
        let bracket = Bracket::knockout_seeded(&seeds)?;
        let done = check_bracket_results(&bracket, &bracket_results)?;
        let state = bracket.state(&done)?;
        next = Next {
            round: 0,
            pending: state
                .ready
                .iter()
                .map(|&(id, first, second)| Pairing {
                    key: MatchKey::Bracket(id),
                    first,
                    second,
                })
                .collect(),
            bye: None,
            over: state.over,
        };
        knockout = Some(Knockout {
            seeds,
            matches: bracket.matches().to_vec(),
            state,
        });
    }
    let groups = draw
        .groups
        .iter()
        .zip(tables)
        .enumerate()
        .map(|(g, (members, rows))| GroupState {
            name: group_name(g),
            entrants: members.clone(),
            rows,
            matches: draw
                .fixtures
                .iter()
                .zip(&states)
                .filter(|(f, _)| f.group == g)
                .map(|(&fixture, &state)| GroupMatch { fixture, state })
                .collect(),
            byes: draw
                .byes
                .iter()
                .filter(|(_, e)| members.contains(e))
                .copied()
                .collect(),
        })
        .collect();
    let champion = knockout.as_ref().and_then(|k| k.state.champion);
    let state = GroupsState {
        size: draw.size,
        advance: draw.advance,
        rounds: draw.rounds,
        round,
        groups,
        knockout,
        champion,
        over: next.over,
    };
    Ok((state, next))
}
