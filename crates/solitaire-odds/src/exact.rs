//! The exact computation: table types walked depth-first, the generating polynomial of the
//! winning picks carried down the walk, and the counts summed at each type.

use crate::{Fraction, OddsError, Params};
use num_bigint::BigUint;
use num_traits::{One, Zero};

/// Winning (table, pick) pairs out of all of them: the win probability before reducing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Count {
    /// Pairs of a `board`-card table and a `pick`-card pick from the rest in which every
    /// table value is picked at least once.
    pub winning: BigUint,
    /// All pairs: `C(deck, board) · C(deck − board, pick)`.
    pub total: BigUint,
}

/// One table type with its probability and the win probability given it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeOdds {
    /// The stack sizes, largest first; they add up to `board`.
    pub parts: Vec<u32>,
    /// Tables (`board`-card subsets of the deck) of this type.
    pub tables: BigUint,
    /// The chance the table is of this type: `tables / C(deck, board)`.
    pub probability: Fraction,
    /// Picks (`pick`-card subsets of the rest) holding every table value, for one table
    /// of this type.
    pub winning_picks: BigUint,
    /// The chance of winning given this type: `winning_picks / C(deck − board, pick)`.
    pub win: Fraction,
}

/// What is left on the table when the deck runs out: in the `pick` model, the table values
/// none of the picked cards hit. The game is won when nothing is left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Distribution {
    /// `stacks[r]`: the chance that `r` stacks are left, for `r` from 0 to
    /// `min(board, values)`; `stacks[0]` is the win probability.
    pub stacks: Vec<Fraction>,
    /// `cards[c]`: the chance that `c` cards are left on the table, for `c` from 0 to
    /// `board`.
    pub cards: Vec<Fraction>,
}

impl Distribution {
    /// The expected number of stacks left.
    pub fn mean_stacks(&self) -> Fraction {
        mean(&self.stacks)
    }

    /// The expected number of cards left on the table.
    pub fn mean_cards(&self) -> Fraction {
        mean(&self.cards)
    }
}

fn mean(dist: &[Fraction]) -> Fraction {
    dist.iter()
        .enumerate()
        .map(|(i, p)| p * &Fraction::ratio(BigUint::from(i), BigUint::one()))
        .fold(Fraction::zero(), |acc, x| &acc + &x)
}

/// `C(n, k)`, 0 when `k > n`.
pub(crate) fn binomial(n: u64, k: u64) -> BigUint {
    if k > n {
        return BigUint::zero();
    }
    let k = k.min(n - k);
    let mut c = BigUint::one();
    for i in 0..k {
        c *= n - i;
        c /= i + 1;
    }
    c
}

/// `C(n, i)` for `i` from 0 to `len − 1` (zeros past `n`).
fn binomial_row(n: u64, len: usize) -> Vec<BigUint> {
    let mut row = Vec::with_capacity(len);
    let mut c = BigUint::one();
    for i in 0..len as u64 {
        if i > n {
            c = BigUint::zero();
        }
        row.push(c.clone());
        if i < n {
            c *= n - i;
            c /= i + 1;
        }
    }
    row
}

/// How many table types there are: partitions of `board` into at most `values` parts, each
/// at most `suits` (39 for 13 cards of a 4 × 13 deck, OEIS A001400), saturating at
/// `u64::MAX`. `None` for a table of more than [`MAX_DECK`](crate::MAX_DECK) cards, which
/// is not counted. A type is a shape; its probability may still be 0 to win.
pub fn count_types(suits: u32, values: u32, board: u32) -> Option<u64> {
    if u64::from(board) > u64::from(suits) * u64::from(values) {
        return Some(0);
    }
    if board > crate::MAX_DECK {
        return None;
    }
    // Partitions in a box of `values` parts by `suits` are those in the box turned on its
    // side (a partition and its conjugate): count with the smaller side as the parts.
    let n = board as usize;
    let parts = values.min(suits).min(board) as usize;
    let sizes = values.max(suits).min(board) as usize;
    // ways[k][m]: multisets of the sizes seen so far with k parts adding up to m.
    let mut ways = vec![vec![0u64; n + 1]; parts + 1];
    ways[0][0] = 1;
    for size in 1..=sizes {
        for k in 1..=parts {
            for m in size..=n {
                let add = ways[k - 1][m - size];
                ways[k][m] = ways[k][m].saturating_add(add);
            }
        }
    }
    Some(
        ways.iter()
            .map(|row| row[n])
            .fold(0u64, u64::saturating_add),
    )
}

/// What the walk carries down: the product of the factors of the table values chosen so
/// far, cut at degree `pick`.
trait Track: Sized {
    /// The empty product.
    fn start(w: &Walk) -> Self;
    /// The product with one more table value whose stack holds `part` cards.
    fn with(&self, w: &Walk, part: u32) -> Self;
}

/// The fixed data of one walk.
struct Walk {
    p: Params,
    /// `hit[part][i] = C(suits − part, i)` for `i ≥ 1` (and 0 for `i = 0`): the ways to
    /// take `i` of the cards left of a table value, at least one, cut at degree `pick`.
    hit: Vec<Vec<BigUint>>,
}

impl Walk {
    fn new(p: Params) -> Walk {
        let len = p.pick as usize + 1;
        let hit = (0..=p.suits)
            .map(|part| {
                let mut row = binomial_row(u64::from(p.suits - part), len);
                row[0] = BigUint::zero();
                row
            })
            .collect();
        Walk { p, hit }
    }

    /// Visits every type: `leaf(mult, state)` with `mult[p]` the number of stacks of `p`
    /// cards and `state` the product of their factors.
    fn run<T: Track>(&self, leaf: &mut dyn FnMut(&[u32], &T)) {
        let mut mult = vec![0u32; self.p.suits as usize + 1];
        let top = self.p.suits.min(self.p.board);
        let slots = self.p.values.min(self.p.board);
        self.descend(top, self.p.board, slots, &mut mult, &T::start(self), leaf);
    }

    /// Chooses how many stacks of `size` cards (then of smaller sizes) make up `rest`
    /// more table cards in at most `slots` more stacks.
    fn descend<T: Track>(
        &self,
        size: u32,
        rest: u32,
        slots: u32,
        mult: &mut [u32],
        state: &T,
        leaf: &mut dyn FnMut(&[u32], &T),
    ) {
        if rest == 0 {
            leaf(mult, state);
            return;
        }
        if size == 0 || u64::from(rest) > u64::from(size) * u64::from(slots) {
            return;
        }
        self.descend(size - 1, rest, slots, mult, state, leaf);
        let most = (rest / size).min(slots);
        let mut cur: Option<T> = None;
        for c in 1..=most {
            let next = cur.as_ref().unwrap_or(state).with(self, size);
            mult[size as usize] = c;
            self.descend(size - 1, rest - c * size, slots - c, mult, &next, leaf);
            cur = Some(next);
        }
        mult[size as usize] = 0;
    }

    /// Tables of the type `mult`: the values for its stacks, then the suits in each.
    fn tables(&self, mult: &[u32]) -> BigUint {
        let k: u32 = mult.iter().sum();
        let mut n = BigUint::one();
        for i in 0..k {
            n *= self.p.values - i;
        }
        for (part, &c) in mult.iter().enumerate() {
            for j in 2..=c {
                n /= j;
            }
            if c > 0 {
                n *= binomial(u64::from(self.p.suits), part as u64).pow(c);
            }
        }
        n
    }
}

/// Binomial rows `C(M, ·)` for the untouched values, `M = suits · (values − k)`, by `k`.
struct Untouched {
    rows: Vec<Option<Vec<BigUint>>>,
}

impl Untouched {
    fn new(p: &Params) -> Untouched {
        Untouched {
            rows: vec![None; p.values.min(p.board) as usize + 1],
        }
    }

    /// `Σ_j a[j] · C(M, pick − j)`: the coefficient of `z^pick` once the untouched values'
    /// `(1+z)^M` is multiplied in.
    fn close(&mut self, p: &Params, k: u32, a: &[BigUint]) -> BigUint {
        let pick = p.pick as usize;
        let slot = k as usize;
        let row = self.rows[slot].get_or_insert_with(|| {
            let m = u64::from(p.suits) * u64::from(p.values - k);
            binomial_row(m, pick + 1)
        });
        let mut sum = BigUint::zero();
        for (j, x) in a.iter().enumerate().take(pick + 1) {
            if !x.is_zero() {
                sum += x * &row[pick - j];
            }
        }
        sum
    }
}

/// The product of `[(1+z)^(suits−p) − 1]` over the table values so far.
struct WinPoly(Vec<BigUint>);

impl Track for WinPoly {
    fn start(w: &Walk) -> WinPoly {
        let mut a = vec![BigUint::zero(); w.p.pick as usize + 1];
        a[0] = BigUint::one();
        WinPoly(a)
    }

    fn with(&self, w: &Walk, part: u32) -> WinPoly {
        let f = &w.hit[part as usize];
        let left = (w.p.suits - part) as usize;
        let mut out = vec![BigUint::zero(); self.0.len()];
        for (j, x) in self.0.iter().enumerate() {
            if x.is_zero() {
                continue;
            }
            for i in 1..=left.min(out.len() - 1 - j) {
                out[j + i] += x * &f[i];
            }
        }
        WinPoly(out)
    }
}

/// The walk for the win probability: `leaf(mult, tables, winning_picks)` per type.
fn walk_win(p: &Params, leaf: &mut dyn FnMut(&[u32], BigUint, BigUint)) {
    let w = Walk::new(*p);
    let mut untouched = Untouched::new(p);
    w.run::<WinPoly>(&mut |mult, a| {
        let k: u32 = mult.iter().sum();
        let picks = untouched.close(p, k, &a.0);
        leaf(mult, w.tables(mult), picks);
    });
}

/// All (table, pick) pairs: `C(deck, board) · C(deck − board, pick)`.
fn all_pairs(p: &Params) -> (BigUint, BigUint) {
    let tables = binomial(u64::from(p.deck()), u64::from(p.board));
    let picks = binomial(u64::from(p.left()), u64::from(p.pick));
    (tables, picks)
}

/// The winning (table, pick) pairs and all of them, exactly.
pub fn win_count(p: &Params) -> Result<Count, OddsError> {
    p.check_exact(1)?;
    let mut winning = BigUint::zero();
    walk_win(p, &mut |_, tables, picks| {
        if !picks.is_zero() {
            winning += tables * picks;
        }
    });
    let (tables, picks) = all_pairs(p);
    Ok(Count {
        winning,
        total: tables * picks,
    })
}

/// The win probability, as a reduced fraction: winning (table, pick) pairs over all pairs.
pub fn win_probability(p: &Params) -> Result<Fraction, OddsError> {
    let c = win_count(p)?;
    Ok(Fraction::ratio(c.winning, c.total))
}

/// Every table type with its probability and the win probability given it, largest stacks
/// first (`[4, 4, 4, 1]` before `[4, 4, 3, 2]` … before thirteen 1s). Types a table cannot
/// win (a stack holding every suit of its value) are listed with `win` 0.
pub fn types(p: &Params) -> Result<Vec<TypeOdds>, OddsError> {
    p.check_exact(1)?;
    let (all_tables, all_picks) = all_pairs(p);
    let mut out = Vec::new();
    walk_win(p, &mut |mult, tables, picks| {
        let mut parts = Vec::new();
        for (part, &c) in mult.iter().enumerate().rev() {
            parts.resize(parts.len() + c as usize, part as u32);
        }
        out.push(TypeOdds {
            parts,
            probability: Fraction::ratio(tables.clone(), all_tables.clone()),
            tables,
            win: Fraction::ratio(picks.clone(), all_picks.clone()),
            winning_picks: picks,
        });
    });
    out.sort_by(|a, b| b.parts.cmp(&a.parts));
    Ok(out)
}

/// Products of the table values' factors with the stacks (or cards) left marked:
/// `a[j][r]` counts ways to take `j` cards of the table values leaving `r` stacks (or
/// cards) unhit.
#[derive(Clone)]
struct Marked {
    stacks: Vec<Vec<BigUint>>,
    cards: Vec<Vec<BigUint>>,
}

/// Multiplies `a` by one table value's factor: hit it with `i ≥ 1` of its `f` cards, or
/// miss it and mark `mark` more left.
fn times(a: &[Vec<BigUint>], f: &[BigUint], left: usize, mark: usize) -> Vec<Vec<BigUint>> {
    let width = a.first().map_or(0, Vec::len);
    let mut out = vec![vec![BigUint::zero(); width]; a.len()];
    for (j, row) in a.iter().enumerate() {
        for (r, x) in row.iter().enumerate() {
            if x.is_zero() {
                continue;
            }
            for i in 1..=left.min(a.len() - 1 - j) {
                out[j + i][r] += x * &f[i];
            }
            if r + mark < width {
                out[j][r + mark] += x;
            }
        }
    }
    out
}

impl Track for Marked {
    fn start(w: &Walk) -> Marked {
        let len = w.p.pick as usize + 1;
        let unit = |width: usize| {
            let mut a = vec![vec![BigUint::zero(); width]; len];
            a[0][0] = BigUint::one();
            a
        };
        Marked {
            stacks: unit(w.p.values.min(w.p.board) as usize + 1),
            cards: unit(w.p.board as usize + 1),
        }
    }

    fn with(&self, w: &Walk, part: u32) -> Marked {
        let f = &w.hit[part as usize];
        let left = (w.p.suits - part) as usize;
        Marked {
            stacks: times(&self.stacks, f, left, 1),
            cards: times(&self.cards, f, left, part as usize),
        }
    }
}

/// The exact distribution of how many stacks, and how many cards, are left on the table
/// when the deck runs out (the table values none of the `pick` cards hit).
pub fn distribution(p: &Params) -> Result<Distribution, OddsError> {
    let width = u64::from(p.board) + 1;
    p.check_exact(width.saturating_mul(4))?;
    let w = Walk::new(*p);
    let mut untouched = Untouched::new(p);
    let mut stacks = vec![BigUint::zero(); p.values.min(p.board) as usize + 1];
    let mut cards = vec![BigUint::zero(); p.board as usize + 1];
    w.run::<Marked>(&mut |mult, m| {
        let k: u32 = mult.iter().sum();
        let tables = w.tables(mult);
        let column = |a: &[Vec<BigUint>], r: usize| -> Vec<BigUint> {
            a.iter().map(|row| row[r].clone()).collect()
        };
        for (r, slot) in stacks.iter_mut().enumerate() {
            let picks = untouched.close(p, k, &column(&m.stacks, r));
            *slot += &tables * picks;
        }
        for (c, slot) in cards.iter_mut().enumerate() {
            let picks = untouched.close(p, k, &column(&m.cards, c));
            *slot += &tables * picks;
        }
    });
    let (t, k) = all_pairs(p);
    let total = t * k;
    let as_fractions = |v: Vec<BigUint>| -> Vec<Fraction> {
        v.into_iter()
            .map(|x| Fraction::ratio(x, total.clone()))
            .collect()
    };
    Ok(Distribution {
        stacks: as_fractions(stacks),
        cards: as_fractions(cards),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials() {
        assert_eq!(binomial(52, 13), BigUint::from(635_013_559_600u64));
        assert_eq!(binomial(3, 5), BigUint::zero());
        assert_eq!(binomial(0, 0), BigUint::one());
        let row = binomial_row(4, 7);
        let want: Vec<BigUint> = [1u32, 4, 6, 4, 1, 0, 0].map(BigUint::from).to_vec();
        assert_eq!(row, want);
    }

    #[test]
    fn type_counts() {
        assert_eq!(count_types(4, 13, 13), Some(39));
        assert_eq!(count_types(13, 4, 13), Some(39));
        assert_eq!(count_types(4, 13, 0), Some(1));
        assert_eq!(count_types(1, 5, 3), Some(1));
        assert_eq!(count_types(1, 2, 3), Some(0));
        // Partitions of 10 (no limits bind): 42.
        assert_eq!(count_types(10, 10, 10), Some(42));
        assert_eq!(count_types(u32::MAX, u32::MAX, u32::MAX), None);
        assert_eq!(count_types(u32::MAX, 1, 1_000), Some(1));
        assert_eq!(count_types(u32::MAX, 1, 5_000), None);
        assert_eq!(count_types(1, 1, u32::MAX), Some(0));
    }
}
