//! Exact leyes: the probability that our pair wins each lance, counted over every way the
//! unknown cards can be dealt — for our hand alone (partner and both opponents unknown) or
//! with our partner's hand known.
//!
//! The count works on jugadas, never on card combinations: a jugada needing `k` cards of a
//! rank with `n` left has C(n, k) ways, and hands dealt one after another multiply their
//! weights. The two opponents' jugada pairs are enumerated once and grouped by the deck they
//! leave; within a group the unknown partner's jugadas are counted once, bucketed by
//! strength per lance, with prefix sums, so each opponent pair needs only a few lookups
//! per lance and position.

use crate::catalog::{deck_table, minus, Catalog, Counts, Entry, JUEGO_BASE};
use serde::Serialize;
use std::collections::HashMap;
use tapete_mus::{Jugada, Sena};

/// Who an unknown player is, seen from us.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Relation {
    /// The opponent who speaks right after us (position p+1).
    Next,
    /// Our partner (position p+2), when unknown.
    Partner,
    /// The opponent who speaks right before us (position p+3).
    Prev,
}

impl Relation {
    /// All relations, in the order used by [`Conditions`].
    pub const ALL: [Relation; 3] = [Relation::Next, Relation::Partner, Relation::Prev];

    /// Parses `next`, `prev`, `partner`.
    pub fn parse(s: &str) -> Option<Relation> {
        match s.trim() {
            "next" => Some(Relation::Next),
            "prev" => Some(Relation::Prev),
            "partner" => Some(Relation::Partner),
            _ => None,
        }
    }
}

/// A declaration heard (or not yet).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Declared {
    /// Not yet declared: no condition.
    #[default]
    Unknown,
    /// Said "sí".
    Yes,
    /// Said "no".
    No,
}

impl Declared {
    fn allows(self, has: bool) -> bool {
        match self {
            Declared::Unknown => true,
            Declared::Yes => has,
            Declared::No => !has,
        }
    }
}

/// Declarations heard from the unknown players, indexed by [`Relation`] order
/// (next, partner, prev).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Conditions {
    pub pares: [Declared; 3],
    pub juego: [Declared; 3],
    /// The seña the unknown partner passed us, if any: its hand is one the seña fits
    /// ([`Sena::holds`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partner_sena: Option<Sena>,
}

impl Conditions {
    fn allows(&self, rel: Relation, e: &Entry) -> bool {
        let i = rel as usize;
        self.pares[i].allows(e.has_pares())
            && self.juego[i].allows(e.has_juego())
            && (rel != Relation::Partner || self.partner_sena.is_none_or(|s| s.holds(e.jugada)))
    }

    /// True when nothing is conditioned.
    pub fn is_empty(&self) -> bool {
        *self == Conditions::default()
    }
}

/// Why leyes cannot be computed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OddsError {
    #[error("our hand and our partner's together hold {count} {rank}, but the deck has {max}")]
    TooMany {
        rank: &'static str,
        count: usize,
        max: u8,
    },
    #[error("no deal satisfies these conditions ({0}): nothing to count")]
    Impossible(String),
    #[error("a condition on the partner only makes sense when the partner's hand is unknown")]
    PartnerKnown,
}

/// Exact counts for one own position: numerators over [`Exact::total`].
///
/// Counting runs in `u64` (every weight of a deal fits: C(36,4)·C(32,4)·C(28,4) ≈ 4.3e13,
/// times at most 6 piedras) and results are handed out as `u128`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PositionCounts<T = u128> {
    pub position: usize,
    pub grande: T,
    pub chica: T,
    pub pares_win: T,
    pub pares_lose: T,
    pub pares_void: T,
    pub juego_win: T,
    pub juego_lose: T,
    pub punto_win: T,
    pub punto_lose: T,
    /// Piedras en paso, weighted: [grande, chica, pares, juego, punto] for us and them.
    pub piedras_us: [T; 5],
    pub piedras_them: [T; 5],
}

impl PositionCounts<u64> {
    fn widen(&self) -> PositionCounts {
        let w = |x: u64| x as u128;
        PositionCounts {
            position: self.position,
            grande: w(self.grande),
            chica: w(self.chica),
            pares_win: w(self.pares_win),
            pares_lose: w(self.pares_lose),
            pares_void: w(self.pares_void),
            juego_win: w(self.juego_win),
            juego_lose: w(self.juego_lose),
            punto_win: w(self.punto_win),
            punto_lose: w(self.punto_lose),
            piedras_us: self.piedras_us.map(w),
            piedras_them: self.piedras_them.map(w),
        }
    }
}

impl Accumulator {
    fn finish(self, partner_unknown: bool) -> Exact {
        let w = |(a, b): (u64, u64)| (a as u128, b as u128);
        Exact {
            total: self.total as u128,
            positions: [0, 1, 2, 3].map(|p| self.positions[p].widen()),
            players: [
                Some(w(self.players[0])),
                partner_unknown.then(|| w(self.players[1])),
                Some(w(self.players[2])),
            ],
        }
    }
}

/// The exact result: every count over the same denominator `total` (the weight of every
/// deal consistent with the known cards and the conditions).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Exact {
    pub total: u128,
    pub positions: [PositionCounts; 4],
    /// Per unknown player (relation order next, partner, prev; partner `None` when known):
    /// weight of deals where it has pares, and where it has juego.
    pub players: [Option<(u128, u128)>; 3],
}

/// Per-lance strength orders: each entry's index among the distinct strengths, ascending.
struct Orders {
    /// [grande, chica, pares, cuarto] → index per entry.
    d: [Vec<u16>; 4],
    /// Number of distinct strengths per lance.
    n: [usize; 4],
    /// Index of the first juego strength in the cuarto order.
    juego_start: u16,
}

impl Orders {
    fn new(cat: &Catalog) -> Orders {
        let lance = |k: usize, e: &Entry| match k {
            0 => e.grande,
            1 => e.chica,
            2 => e.pares,
            _ => e.cuarto,
        };
        let mut d: [Vec<u16>; 4] = Default::default();
        let mut n = [0; 4];
        let mut juego_start = 0;
        for k in 0..4 {
            let mut values: Vec<u32> = cat.entries.iter().map(|e| lance(k, e)).collect();
            values.sort_unstable();
            values.dedup();
            d[k] = cat
                .entries
                .iter()
                .map(|e| values.binary_search(&lance(k, e)).unwrap_or(0) as u16)
                .collect();
            n[k] = values.len();
            if k == 3 {
                juego_start = values.partition_point(|&v| v < JUEGO_BASE) as u16;
            }
        }
        Orders { d, n, juego_start }
    }
}

/// The unknown (or known) partner's hands, bucketed per lance for one remaining deck.
struct PartnerSums {
    total: u64,
    /// Prefix sums per lance: `cum[k][i]` = weight of partner hands with strength index < i.
    cum: [Vec<u64>; 4],
    /// Prefix sums of weight × pares cuenta (pares order) and × juego cuenta (cuarto order).
    cum_pc: Vec<u64>,
    cum_jc: Vec<u64>,
}

impl PartnerSums {
    fn new(orders: &Orders) -> PartnerSums {
        PartnerSums {
            total: 0,
            cum: [0, 1, 2, 3].map(|k| vec![0; orders.n[k] + 1]),
            cum_pc: vec![0; orders.n[2] + 1],
            cum_jc: vec![0; orders.n[3] + 1],
        }
    }

    fn fill(
        &mut self,
        cat: &Catalog,
        orders: &Orders,
        weights: impl Iterator<Item = (usize, u64)>,
    ) {
        for c in self.cum.iter_mut() {
            c.fill(0);
        }
        self.cum_pc.fill(0);
        self.cum_jc.fill(0);
        self.total = 0;
        for (i, w) in weights {
            if w == 0 {
                continue;
            }
            let e = &cat.entries[i];
            self.total += w;
            for k in 0..4 {
                self.cum[k][orders.d[k][i] as usize + 1] += w;
            }
            self.cum_pc[orders.d[2][i] as usize + 1] += w * e.pares_cuenta as u64;
            self.cum_jc[orders.d[3][i] as usize + 1] += w * e.juego_cuenta as u64;
        }
        for c in self
            .cum
            .iter_mut()
            .chain([&mut self.cum_pc, &mut self.cum_jc])
        {
            // The running sum stays in a register (reading back c[i - 1] waits on the
            // store just made).
            let mut run = 0;
            for x in c.iter_mut() {
                run += *x;
                *x = run;
            }
        }
    }

    /// Weight of partner hands with strength index ≥ `from` in lance `k`.
    #[inline]
    fn above(&self, k: usize, from: usize) -> u64 {
        self.total - self.cum[k][from]
    }
}

/// Returns true when (strength a at position pa) beats (b at pb): higher, or equal and
/// closer to the mano.
#[inline]
fn beats(a: u16, pa: usize, b: u16, pb: usize) -> bool {
    a > b || (a == b && pa < pb)
}

/// Opponent jugada pairs (next, prev, weight) that leave the same deck.
type Group = (Counts, Vec<(u16, u16, u64)>);

/// Exact leyes of `hand` (with the partner's hand if known) under `cond`, for all four
/// own positions.
pub fn exact(
    cat: &Catalog,
    hand: Jugada,
    partner: Option<Jugada>,
    cond: &Conditions,
) -> Result<Exact, OddsError> {
    let known: Vec<Jugada> = std::iter::once(hand).chain(partner).collect();
    let deck = deck_after(cat, &known)?;
    if partner.is_some()
        && (cond.pares[Relation::Partner as usize] != Declared::Unknown
            || cond.juego[Relation::Partner as usize] != Declared::Unknown
            || cond.partner_sena.is_some())
    {
        return Err(OddsError::PartnerKnown);
    }
    exact_from_deck(cat, hand, partner, &deck, cond)
}

/// The deck left after the known hands, or which rank they hold too many of.
pub fn deck_after(cat: &Catalog, known: &[Jugada]) -> Result<Counts, OddsError> {
    cat.deck_without(known).ok_or_else(|| {
        let full = cat.full_deck();
        let (r, count) = tapete_mus::Rank::ALL
            .iter()
            .map(|&r| (r, known.iter().map(|h| h.count(r)).sum::<usize>()))
            .find(|&(r, c)| c > full[r as usize] as usize)
            .unwrap_or((tapete_mus::Rank::Rey, 0));
        OddsError::TooMany {
            rank: r.plural(),
            count,
            max: full[r as usize],
        }
    })
}

/// As [`exact`], with the unknown cards given as a deck (cards per rank): the core, also
/// used on small decks to check against enumeration of actual cards.
pub fn exact_from_deck(
    cat: &Catalog,
    hand: Jugada,
    partner: Option<Jugada>,
    deck: &Counts,
    cond: &Conditions,
) -> Result<Exact, OddsError> {
    let orders = Orders::new(cat);
    let hi = cat
        .index_of(hand)
        .ok_or_else(|| OddsError::Impossible(format!("{hand} is not a jugada of {}", cat.mode)))?;
    let pi = match partner {
        Some(p) => Some(cat.index_of(p).ok_or_else(|| {
            OddsError::Impossible(format!("{p} is not a jugada of {}", cat.mode))
        })?),
        None => None,
    };
    let entries = &cat.entries;
    if let Some(pi) = pi {
        return known_partner(cat, &orders, hi, pi, deck, cond);
    }

    // The opponents' jugada pairs (next, prev), grouped by the deck they leave.
    let mut groups: HashMap<u64, Group> = HashMap::new();
    let key = |c: &Counts| c.iter().fold(0u64, |acc, &x| (acc << 4) | x as u64);
    let t0 = deck_table(deck);
    for (ia, a) in entries.iter().enumerate() {
        // A weight of 0: the deck cannot deal it.
        let wa = a.weight_in(&t0);
        if wa == 0 || !cond.allows(Relation::Next, a) {
            continue;
        }
        let d1 = minus(deck, a);
        let t1 = deck_table(&d1);
        for (ib, b) in entries.iter().enumerate() {
            let wb = b.weight_in(&t1);
            if wb == 0 || !cond.allows(Relation::Prev, b) {
                continue;
            }
            let w = wa * wb;
            let d2 = if pi.is_some() { [0; 10] } else { minus(&d1, b) };
            groups
                .entry(key(&d2))
                .or_insert_with(|| (d2, Vec::new()))
                .1
                .push((ia as u16, ib as u16, w));
        }
    }

    let mut acc = Accumulator::default();
    let mut sums = PartnerSums::new(&orders);
    let h = &entries[hi];
    let hd = [0, 1, 2, 3].map(|k| orders.d[k][hi]);
    for (d2, pairs) in groups.values() {
        match pi {
            Some(p) => sums.fill(cat, &orders, std::iter::once((p, 1))),
            None => {
                let t = deck_table(d2);
                sums.fill(
                    cat,
                    &orders,
                    entries.iter().enumerate().map(|(i, x)| {
                        if cond.allows(Relation::Partner, x) {
                            (i, x.weight_in(&t))
                        } else {
                            (i, 0)
                        }
                    }),
                )
            }
        }
        if sums.total == 0 {
            continue;
        }
        for &(ia, ib, w) in pairs {
            acc.pair(
                &orders,
                &sums,
                h,
                hd,
                (ia as usize, &entries[ia as usize]),
                (ib as usize, &entries[ib as usize]),
                w,
            );
        }
    }
    if acc.total == 0 {
        return Err(OddsError::Impossible(describe(cond)));
    }
    Ok(acc.finish(pi.is_none()))
}

fn describe(cond: &Conditions) -> String {
    let mut parts = Vec::new();
    for (lance, decl) in [("pares", &cond.pares), ("juego", &cond.juego)] {
        for (rel, d) in Relation::ALL.iter().zip(decl) {
            if *d != Declared::Unknown {
                let rel = match rel {
                    Relation::Next => "next",
                    Relation::Partner => "partner",
                    Relation::Prev => "prev",
                };
                parts.push(format!(
                    "{lance} {rel}={}",
                    if *d == Declared::Yes { "yes" } else { "no" }
                ));
            }
        }
    }
    if parts.is_empty() {
        "no conditions".into()
    } else {
        parts.join(", ")
    }
}

#[derive(Default)]
struct Accumulator {
    total: u64,
    positions: [PositionCounts<u64>; 4],
    /// (pares, juego) weights per relation.
    players: [(u64, u64); 3],
}

impl Accumulator {
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn pair(
        &mut self,
        orders: &Orders,
        sums: &PartnerSums,
        h: &Entry,
        hd: [u16; 4],
        (ia, a): (usize, &Entry),
        (ib, b): (usize, &Entry),
        w: u64,
    ) {
        let tot = sums.total;
        self.total += w * tot;
        let px = sums.above(2, 1);
        let jx = sums.above(3, orders.juego_start as usize);
        let (pa, ja) = (a.has_pares() as u64, a.has_juego() as u64);
        let (pb, jb) = (b.has_pares() as u64, b.has_juego() as u64);
        self.players[0].0 += w * tot * pa;
        self.players[0].1 += w * tot * ja;
        self.players[1].0 += w * px;
        self.players[1].1 += w * jx;
        self.players[2].0 += w * tot * pb;
        self.players[2].1 += w * tot * jb;

        let ad = [0, 1, 2, 3].map(|k| orders.d[k][ia]);
        let bd = [0, 1, 2, 3].map(|k| orders.d[k][ib]);
        let them_pc = (a.pares_cuenta + b.pares_cuenta) as u64;
        let them_jc = (a.juego_cuenta + b.juego_cuenta) as u64;
        let js = orders.juego_start;
        for (p, out) in self.positions.iter_mut().enumerate() {
            out.position = p;
            let (pos_h, pos_a, pos_x, pos_b) = (p, (p + 1) % 4, (p + 2) % 4, (p + 3) % 4);
            // For lance k: the opponents' best (strength index, position), whether our hand
            // beats it, and the partner weight from which strength index on beats it.
            let best = |k: usize| {
                if beats(ad[k], pos_a, bd[k], pos_b) {
                    (ad[k], pos_a)
                } else {
                    (bd[k], pos_b)
                }
            };
            let partner_from = |m: u16, pos_m: usize| m as usize + usize::from(pos_x > pos_m);

            // Grande and chica.
            for (k, slot) in [(0usize, 0usize), (1, 1)] {
                let (m, pos_m) = best(k);
                let win = if beats(hd[k], pos_h, m, pos_m) {
                    tot
                } else {
                    sums.above(k, partner_from(m, pos_m))
                };
                let win = w * win;
                let all = w * tot;
                if k == 0 {
                    out.grande += win;
                } else {
                    out.chica += win;
                }
                out.piedras_us[slot] += win;
                out.piedras_them[slot] += all - win;
            }

            // Pares: strength index 0 is "no pares", which never wins.
            {
                let (m, pos_m) = best(2);
                let h_pc = h.pares_cuenta as u64;
                if hd[2] > 0 && beats(hd[2], pos_h, m, pos_m) {
                    out.pares_win += w * tot;
                    out.piedras_us[2] += w * (h_pc * tot + sums.cum_pc[orders.n[2]]);
                } else {
                    let from = if m == 0 { 1 } else { partner_from(m, pos_m) };
                    let tail = sums.above(2, from);
                    let tail_pc = sums.cum_pc[orders.n[2]] - sums.cum_pc[from];
                    out.pares_win += w * tail;
                    out.piedras_us[2] += w * (h_pc * tail + tail_pc);
                    if m > 0 {
                        out.pares_lose += w * (tot - tail);
                        out.piedras_them[2] += w * them_pc * (tot - tail);
                    } else {
                        out.pares_void += w * (tot - tail);
                    }
                }
            }

            // Juego, or punto when nobody has juego: one order, juego above punto.
            {
                let (m, pos_m) = best(3);
                let h_jc = h.juego_cuenta as u64;
                let jc_all = sums.cum_jc[orders.n[3]];
                if beats(hd[3], pos_h, m, pos_m) {
                    if hd[3] >= js {
                        out.juego_win += w * tot;
                        out.piedras_us[3] += w * (h_jc * tot + jc_all);
                    } else {
                        // Our pair wins whatever the partner holds: by juego if it has it.
                        out.juego_win += w * jx;
                        out.piedras_us[3] += w * jc_all;
                        out.punto_win += w * (tot - jx);
                        out.piedras_us[4] += w * (tot - jx);
                    }
                } else {
                    let from = partner_from(m, pos_m);
                    let tail = sums.above(3, from);
                    if m >= js {
                        let tail_jc = sums.cum_jc[orders.n[3]] - sums.cum_jc[from];
                        out.juego_win += w * tail;
                        out.piedras_us[3] += w * (h_jc * tail + tail_jc);
                        out.juego_lose += w * (tot - tail);
                        out.piedras_them[3] += w * them_jc * (tot - tail);
                    } else {
                        // Nobody but possibly the partner has juego.
                        out.juego_win += w * jx;
                        out.piedras_us[3] += w * jc_all;
                        out.punto_win += w * (tail - jx);
                        out.piedras_us[4] += w * (tail - jx);
                        out.punto_lose += w * (tot - tail);
                        out.piedras_them[4] += w * (tot - tail);
                    }
                }
            }
        }
    }
}

/// What one opponent's jugada means for the outcome, with our pair's hands both known.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct OpponentClass {
    /// Bit `4 * position + lance` (lances grande, chica, pares, cuarto): it beats our
    /// pair's best hand in that lance when we sit at that position.
    beats: u16,
    pares_cuenta: u8,
    juego_cuenta: u8,
    has_pares: bool,
    has_juego: bool,
}

/// Both our hands known: every opponent jugada reduces to a small class, the jugada pairs
/// of the two opponents are summed into a class × class matrix of weights, and the outcomes
/// are read off the matrix.
fn known_partner(
    cat: &Catalog,
    orders: &Orders,
    hi: usize,
    pi: usize,
    deck: &Counts,
    cond: &Conditions,
) -> Result<Exact, OddsError> {
    let entries = &cat.entries;
    let (h, partner) = (&entries[hi], &entries[pi]);
    // Our pair's best per position and lance: (strength index, position).
    let ours = |p: usize, k: usize| {
        let (hd, pd) = (orders.d[k][hi], orders.d[k][pi]);
        if beats(hd, p, pd, (p + 2) % 4) {
            (hd, p)
        } else {
            (pd, (p + 2) % 4)
        }
    };
    let best: [[(u16, usize); 4]; 4] = [0, 1, 2, 3].map(|p| [0, 1, 2, 3].map(|k| ours(p, k)));
    let classify = |i: usize, offset: usize| {
        let e = &entries[i];
        let mut bits = 0u16;
        for (p, best_at) in best.iter().enumerate() {
            for (k, &(m, pos_m)) in best_at.iter().enumerate() {
                let d = orders.d[k][i];
                // "No pares" (index 0) never wins pares.
                if (k != 2 || d > 0) && beats(d, (p + offset) % 4, m, pos_m) {
                    bits |= 1 << (4 * p + k);
                }
            }
        }
        OpponentClass {
            beats: bits,
            pares_cuenta: e.pares_cuenta,
            juego_cuenta: e.juego_cuenta,
            has_pares: e.has_pares(),
            has_juego: e.has_juego(),
        }
    };
    let mut classes: Vec<OpponentClass> = Vec::new();
    let mut index: HashMap<OpponentClass, usize> = HashMap::new();
    let mut class_of = |c: OpponentClass, classes: &mut Vec<OpponentClass>| {
        *index.entry(c).or_insert_with(|| {
            classes.push(c);
            classes.len() - 1
        })
    };
    let next: Vec<Option<usize>> = (0..entries.len())
        .map(|i| {
            (cond.allows(Relation::Next, &entries[i]) && entries[i].fits(deck))
                .then(|| class_of(classify(i, 1), &mut classes))
        })
        .collect();
    let prev: Vec<Option<usize>> = (0..entries.len())
        .map(|i| {
            (cond.allows(Relation::Prev, &entries[i]) && entries[i].fits(deck))
                .then(|| class_of(classify(i, 3), &mut classes))
        })
        .collect();
    let n = classes.len();
    let mut matrix = vec![0u64; n * n];
    for (ia, a) in entries.iter().enumerate() {
        let Some(ca) = next[ia] else { continue };
        let wa = a.weight(deck);
        let t1 = deck_table(&minus(deck, a));
        let row = &mut matrix[ca * n..(ca + 1) * n];
        for (ib, b) in entries.iter().enumerate() {
            if let Some(cb) = prev[ib] {
                row[cb] += wa * b.weight_in(&t1);
            }
        }
    }

    let mut acc = Accumulator::default();
    let ours_pc = (h.pares_cuenta + partner.pares_cuenta) as u64;
    let ours_jc = (h.juego_cuenta + partner.juego_cuenta) as u64;
    for (ca, a) in classes.iter().enumerate() {
        for (cb, b) in classes.iter().enumerate() {
            let w = matrix[ca * n + cb] as u64;
            if w == 0 {
                continue;
            }
            acc.total += w;
            acc.players[0].0 += w * a.has_pares as u64;
            acc.players[0].1 += w * a.has_juego as u64;
            acc.players[2].0 += w * b.has_pares as u64;
            acc.players[2].1 += w * b.has_juego as u64;
            let them_pc = (a.pares_cuenta + b.pares_cuenta) as u64;
            let them_jc = (a.juego_cuenta + b.juego_cuenta) as u64;
            let lost = a.beats | b.beats;
            for (p, out) in acc.positions.iter_mut().enumerate() {
                out.position = p;
                let won = |k: usize| lost & (1 << (4 * p + k)) == 0;
                for k in 0..2 {
                    if won(k) {
                        out.piedras_us[k] += w;
                        if k == 0 {
                            out.grande += w;
                        } else {
                            out.chica += w;
                        }
                    } else {
                        out.piedras_them[k] += w;
                    }
                }
                let ours_pares = best[p][2].0 > 0;
                if !won(2) {
                    out.pares_lose += w;
                    out.piedras_them[2] += w * them_pc;
                } else if ours_pares {
                    out.pares_win += w;
                    out.piedras_us[2] += w * ours_pc;
                } else {
                    out.pares_void += w;
                }
                let ours_juego = best[p][3].0 >= orders.juego_start;
                match (won(3), ours_juego) {
                    (true, true) => {
                        out.juego_win += w;
                        out.piedras_us[3] += w * ours_jc;
                    }
                    (true, false) => {
                        out.punto_win += w;
                        out.piedras_us[4] += w;
                    }
                    (false, _) if a.has_juego || b.has_juego => {
                        out.juego_lose += w;
                        out.piedras_them[3] += w * them_jc;
                    }
                    (false, _) => {
                        out.punto_lose += w;
                        out.piedras_them[4] += w;
                    }
                }
            }
        }
    }
    if acc.total == 0 {
        return Err(OddsError::Impossible(describe(cond)));
    }
    Ok(acc.finish(false))
}
