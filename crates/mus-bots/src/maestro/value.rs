//! What a hand's result is worth: the chance of winning the game from a score.
//!
//! Piedras are not the goal; games are. A hand that ends at `ours`–`theirs` piedras is worth
//! the probability of going on to win the game from there, so a piedra counts for more when
//! it brings the target near, and a far-behind pair values a gamble more than a far-ahead
//! one. That probability is computed once per target by dynamic programming over the
//! scores, from a measured distribution of what one hand brings each pair.

use std::sync::OnceLock;

/// How many hands ended with the mano's pair gaining `.0` piedras and the other pair `.1`,
/// out of [`SAMPLE_HANDS`] hands of `basico` against itself from 0–0 (40 to win). Outcomes
/// seen fewer than six times are left out. Measured with the engine's own player; the shape
/// (many small hands, a long tail of big accepted bets) is what matters here.
const HAND_GAINS: &[(u8, u8, u16)] = &[
    (0, 5, 91),
    (0, 6, 232),
    (0, 7, 321),
    (0, 8, 310),
    (0, 9, 405),
    (0, 10, 387),
    (0, 11, 333),
    (0, 12, 205),
    (0, 13, 133),
    (0, 14, 72),
    (0, 15, 60),
    (0, 16, 46),
    (0, 17, 13),
    (0, 18, 13),
    (0, 25, 20),
    (0, 26, 60),
    (0, 27, 94),
    (0, 28, 110),
    (0, 29, 68),
    (0, 30, 59),
    (0, 31, 71),
    (0, 32, 50),
    (0, 33, 25),
    (0, 34, 27),
    (0, 35, 7),
    (0, 36, 6),
    (0, 40, 32),
    (0, 41, 18),
    (0, 42, 7),
    (1, 4, 305),
    (1, 5, 745),
    (1, 6, 867),
    (1, 7, 853),
    (1, 8, 761),
    (1, 9, 616),
    (1, 10, 439),
    (1, 11, 296),
    (1, 12, 151),
    (1, 13, 98),
    (1, 14, 61),
    (1, 15, 40),
    (1, 16, 12),
    (1, 17, 9),
    (1, 24, 11),
    (1, 25, 55),
    (1, 26, 74),
    (1, 27, 76),
    (1, 28, 66),
    (1, 29, 65),
    (1, 30, 60),
    (1, 31, 25),
    (1, 32, 20),
    (1, 33, 11),
    (1, 34, 6),
    (1, 40, 58),
    (1, 41, 18),
    (2, 3, 48),
    (2, 4, 291),
    (2, 5, 292),
    (2, 6, 276),
    (2, 7, 261),
    (2, 8, 249),
    (2, 9, 164),
    (2, 10, 122),
    (2, 11, 78),
    (2, 12, 52),
    (2, 13, 24),
    (2, 14, 11),
    (2, 23, 9),
    (2, 24, 32),
    (2, 25, 36),
    (2, 26, 24),
    (2, 27, 29),
    (2, 28, 32),
    (2, 29, 30),
    (2, 30, 9),
    (2, 31, 6),
    (2, 40, 18),
    (3, 2, 41),
    (3, 3, 119),
    (3, 4, 316),
    (3, 5, 309),
    (3, 6, 269),
    (3, 7, 282),
    (3, 8, 210),
    (3, 9, 133),
    (3, 10, 80),
    (3, 11, 61),
    (3, 12, 22),
    (3, 13, 8),
    (3, 23, 59),
    (3, 24, 73),
    (3, 25, 73),
    (3, 26, 49),
    (3, 27, 37),
    (3, 28, 22),
    (4, 1, 227),
    (4, 2, 292),
    (4, 3, 317),
    (4, 4, 405),
    (4, 5, 445),
    (4, 6, 422),
    (4, 7, 350),
    (4, 8, 326),
    (4, 9, 270),
    (4, 10, 160),
    (4, 11, 105),
    (4, 12, 71),
    (4, 13, 27),
    (4, 14, 14),
    (4, 15, 7),
    (4, 21, 8),
    (4, 22, 42),
    (4, 23, 61),
    (4, 24, 112),
    (4, 25, 87),
    (4, 26, 60),
    (4, 27, 71),
    (4, 28, 53),
    (4, 29, 30),
    (4, 30, 17),
    (4, 31, 9),
    (5, 0, 80),
    (5, 1, 674),
    (5, 2, 378),
    (5, 3, 377),
    (5, 4, 467),
    (5, 5, 263),
    (5, 6, 246),
    (5, 7, 184),
    (5, 8, 102),
    (5, 9, 84),
    (5, 10, 45),
    (5, 11, 29),
    (5, 12, 14),
    (5, 13, 9),
    (5, 20, 26),
    (5, 22, 29),
    (5, 23, 55),
    (5, 24, 55),
    (5, 25, 43),
    (5, 26, 33),
    (5, 27, 21),
    (5, 28, 9),
    (6, 0, 228),
    (6, 1, 964),
    (6, 2, 364),
    (6, 3, 316),
    (6, 4, 398),
    (6, 5, 213),
    (6, 6, 176),
    (6, 7, 158),
    (6, 8, 97),
    (6, 9, 104),
    (6, 10, 43),
    (6, 11, 23),
    (6, 12, 10),
    (6, 20, 61),
    (6, 21, 21),
    (6, 22, 28),
    (6, 23, 47),
    (6, 24, 61),
    (6, 25, 36),
    (6, 26, 33),
    (6, 27, 16),
    (6, 28, 10),
    (7, 0, 402),
    (7, 1, 812),
    (7, 2, 320),
    (7, 3, 273),
    (7, 4, 301),
    (7, 5, 155),
    (7, 6, 165),
    (7, 7, 111),
    (7, 8, 79),
    (7, 9, 91),
    (7, 10, 60),
    (7, 11, 30),
    (7, 12, 10),
    (7, 13, 8),
    (7, 20, 56),
    (7, 21, 42),
    (7, 22, 24),
    (7, 23, 42),
    (7, 24, 56),
    (7, 25, 37),
    (7, 26, 27),
    (7, 27, 8),
    (7, 28, 13),
    (8, 0, 447),
    (8, 1, 717),
    (8, 2, 240),
    (8, 3, 201),
    (8, 4, 304),
    (8, 5, 105),
    (8, 6, 89),
    (8, 7, 73),
    (8, 8, 40),
    (8, 9, 36),
    (8, 10, 22),
    (8, 11, 28),
    (8, 20, 70),
    (8, 21, 21),
    (8, 22, 16),
    (8, 23, 28),
    (8, 24, 26),
    (8, 25, 19),
    (8, 26, 15),
    (8, 27, 15),
    (9, 0, 455),
    (9, 1, 602),
    (9, 2, 199),
    (9, 3, 140),
    (9, 4, 239),
    (9, 5, 73),
    (9, 6, 94),
    (9, 7, 83),
    (9, 8, 38),
    (9, 9, 31),
    (9, 10, 16),
    (9, 20, 47),
    (9, 21, 34),
    (9, 22, 11),
    (9, 23, 20),
    (9, 24, 15),
    (9, 25, 8),
    (10, 0, 468),
    (10, 1, 440),
    (10, 2, 125),
    (10, 3, 74),
    (10, 4, 110),
    (10, 5, 34),
    (10, 6, 45),
    (10, 7, 41),
    (10, 8, 26),
    (10, 9, 12),
    (10, 10, 6),
    (10, 11, 10),
    (10, 20, 46),
    (10, 21, 12),
    (10, 22, 7),
    (10, 23, 18),
    (10, 24, 11),
    (11, 0, 350),
    (11, 1, 357),
    (11, 2, 89),
    (11, 3, 39),
    (11, 4, 95),
    (11, 5, 16),
    (11, 6, 15),
    (11, 7, 21),
    (11, 8, 35),
    (11, 10, 7),
    (11, 20, 44),
    (11, 21, 7),
    (11, 23, 15),
    (11, 24, 12),
    (12, 0, 263),
    (12, 1, 153),
    (12, 2, 38),
    (12, 3, 14),
    (12, 4, 61),
    (12, 5, 8),
    (12, 6, 11),
    (12, 7, 12),
    (12, 8, 9),
    (12, 20, 21),
    (12, 21, 11),
    (12, 24, 10),
    (13, 0, 130),
    (13, 1, 119),
    (13, 2, 37),
    (13, 3, 9),
    (13, 4, 47),
    (13, 6, 10),
    (13, 20, 10),
    (14, 0, 103),
    (14, 1, 80),
    (14, 2, 10),
    (14, 4, 20),
    (15, 0, 71),
    (15, 1, 45),
    (15, 2, 11),
    (15, 4, 8),
    (15, 20, 7),
    (16, 0, 36),
    (16, 1, 16),
    (16, 4, 7),
    (17, 0, 17),
    (17, 1, 12),
    (18, 0, 10),
    (18, 1, 8),
    (19, 0, 7),
    (20, 5, 11),
    (20, 6, 59),
    (20, 7, 56),
    (20, 8, 45),
    (20, 9, 45),
    (20, 10, 31),
    (20, 11, 36),
    (20, 12, 24),
    (20, 13, 9),
    (20, 14, 11),
    (20, 26, 6),
    (20, 30, 13),
    (21, 4, 6),
    (21, 5, 12),
    (21, 6, 11),
    (21, 7, 11),
    (21, 8, 12),
    (21, 9, 12),
    (21, 10, 7),
    (21, 25, 8),
    (22, 4, 19),
    (22, 5, 13),
    (22, 6, 24),
    (22, 7, 16),
    (22, 8, 7),
    (22, 9, 15),
    (22, 10, 9),
    (22, 11, 6),
    (22, 25, 6),
    (23, 3, 17),
    (23, 4, 31),
    (23, 5, 38),
    (23, 6, 36),
    (23, 7, 33),
    (23, 8, 25),
    (23, 9, 18),
    (23, 10, 11),
    (23, 11, 11),
    (23, 23, 13),
    (23, 24, 7),
    (23, 25, 7),
    (23, 28, 6),
    (24, 1, 8),
    (24, 2, 22),
    (24, 3, 65),
    (24, 4, 74),
    (24, 5, 37),
    (24, 6, 48),
    (24, 7, 34),
    (24, 8, 19),
    (24, 9, 15),
    (24, 10, 13),
    (24, 11, 13),
    (24, 12, 7),
    (24, 23, 17),
    (24, 24, 11),
    (24, 25, 12),
    (24, 26, 6),
    (24, 27, 6),
    (24, 28, 8),
    (25, 0, 20),
    (25, 1, 63),
    (25, 2, 30),
    (25, 3, 54),
    (25, 4, 70),
    (25, 5, 37),
    (25, 6, 41),
    (25, 7, 25),
    (25, 8, 11),
    (25, 9, 8),
    (25, 23, 14),
    (25, 24, 13),
    (26, 0, 89),
    (26, 1, 68),
    (26, 2, 33),
    (26, 3, 27),
    (26, 4, 58),
    (26, 5, 16),
    (26, 6, 22),
    (26, 7, 22),
    (26, 8, 9),
    (26, 9, 7),
    (26, 20, 6),
    (26, 24, 6),
    (27, 0, 135),
    (27, 1, 81),
    (27, 2, 47),
    (27, 3, 14),
    (27, 4, 59),
    (27, 5, 14),
    (27, 6, 8),
    (27, 8, 13),
    (27, 20, 17),
    (27, 24, 8),
    (28, 0, 142),
    (28, 1, 80),
    (28, 2, 45),
    (28, 3, 21),
    (28, 4, 43),
    (28, 5, 8),
    (28, 6, 6),
    (28, 7, 14),
    (28, 20, 11),
    (29, 0, 94),
    (29, 1, 82),
    (29, 2, 24),
    (29, 4, 22),
    (29, 20, 7),
    (30, 0, 87),
    (30, 1, 61),
    (30, 2, 16),
    (30, 3, 6),
    (30, 4, 15),
    (30, 20, 7),
    (31, 0, 74),
    (31, 1, 29),
    (31, 4, 8),
    (31, 20, 6),
    (32, 0, 51),
    (32, 1, 24),
    (33, 0, 34),
    (33, 1, 8),
    (34, 0, 20),
    (35, 0, 7),
    (40, 0, 33),
    (40, 1, 41),
    (40, 4, 10),
    (41, 0, 14),
    (42, 0, 9),
];

/// Hands measured for [`HAND_GAINS`].
const SAMPLE_HANDS: f64 = 40_000.0;
/// Of those, hands the mano's pair won by an accepted órdago…
const ORDAGO_MANO: f64 = 191.0;
/// …and hands the other pair won by one.
const ORDAGO_OTHER: f64 = 104.0;

/// The largest edge a table is built for: a pair winning 90% of the hands where one pair
/// scores more.
pub const MAX_EDGE: f64 = 0.4;
/// The edges tables are built for, in steps of [`EDGE_STEP`] from 0 to [`MAX_EDGE`].
const EDGE_STEP: f64 = 0.05;

/// `table[ours][theirs]`: chance of winning the game from that score, before a hand whose
/// mano may be either pair.
struct Table {
    target: u8,
    win: Vec<Vec<f64>>,
}

impl Table {
    /// The table for pairs that win the hands where one scores more than the other with
    /// chance `0.5 + edge` and `0.5 - edge` (the same hands, the bigger side to the
    /// stronger pair more often).
    fn build(target: u8, edge: f64) -> Table {
        let t = target as usize;
        let kept: f64 = HAND_GAINS.iter().map(|&(_, _, c)| c as f64).sum();
        // Either pair is mano half the time: symmetric gains, and an órdago to each side.
        let ordago = (ORDAGO_MANO + ORDAGO_OTHER) / 2.0 / SAMPLE_HANDS;
        let scale = (1.0 - 2.0 * ordago) / kept / 2.0;
        let tilt = |gu: u8, gt: u8| match gu.cmp(&gt) {
            std::cmp::Ordering::Greater => 1.0 + 2.0 * edge,
            std::cmp::Ordering::Less => 1.0 - 2.0 * edge,
            std::cmp::Ordering::Equal => 1.0,
        };
        let mut win = vec![vec![0.0; t]; t];
        for a in (0..t).rev() {
            for b in (0..t).rev() {
                let mut v = ordago * (1.0 + 2.0 * edge);
                for &(g1, g2, c) in HAND_GAINS {
                    for (gu, gt) in [(g1, g2), (g2, g1)] {
                        let (na, nb) = (a + gu as usize, b + gt as usize);
                        let w = match (na >= t, nb >= t) {
                            (true, true) => 0.5,
                            (true, false) => 1.0,
                            (false, true) => 0.0,
                            // Every hand scores something, so (na, nb) is a later state.
                            (false, false) => win[na][nb],
                        };
                        v += scale * c as f64 * tilt(gu, gt) * w;
                    }
                }
                win[a][b] = v;
            }
        }
        Table { target, win }
    }
}

/// `mano[ours][theirs]` and `other[ours][theirs]`: chance of winning the juego from that
/// score before a hand our pair is mano of, and one the other pair is mano of (the mano
/// passes to the other pair every hand).
struct ManoTable {
    target: u8,
    mano: Vec<Vec<f64>>,
    other: Vec<Vec<f64>>,
}

impl ManoTable {
    /// The tables between evenly matched pairs: each hand brings the mano's pair and the
    /// other the piedras [`HAND_GAINS`] measured, or is won by an órdago as often as
    /// measured for each side.
    fn build(target: u8) -> ManoTable {
        let t = target as usize;
        let kept: f64 = HAND_GAINS.iter().map(|&(_, _, c)| c as f64).sum();
        let (o_mano, o_other) = (ORDAGO_MANO / SAMPLE_HANDS, ORDAGO_OTHER / SAMPLE_HANDS);
        let scale = (1.0 - o_mano - o_other) / kept;
        let mut mano = vec![vec![0.0; t]; t];
        let mut other = vec![vec![0.0; t]; t];
        let at = |table: &Vec<Vec<f64>>, a: usize, b: usize| match (a >= t, b >= t) {
            (true, true) => 0.5,
            (true, false) => 1.0,
            (false, true) => 0.0,
            // Every hand scores something, so (a, b) is a later state.
            (false, false) => table[a][b],
        };
        for a in (0..t).rev() {
            for b in (0..t).rev() {
                // Mano this hand: we take the mano's gains, and are not mano next hand.
                let mut vm = o_mano;
                let mut vo = o_other;
                for &(g_mano, g_other, c) in HAND_GAINS {
                    let (gm, go) = (g_mano as usize, g_other as usize);
                    vm += scale * c as f64 * at(&other, a + gm, b + go);
                    vo += scale * c as f64 * at(&mano, a + go, b + gm);
                }
                mano[a][b] = vm;
                other[a][b] = vo;
            }
        }
        ManoTable {
            target,
            mano,
            other,
        }
    }
}

/// The chance that the pair with `ours` piedras wins the juego against `theirs`, to
/// `target`, between evenly matched pairs, before a hand it is mano of (`mano`) or not:
/// the mano speaks first and wins ties. 1 or 0 once a pair has reached the target.
pub fn win_chance_as(ours: u8, theirs: u8, target: u8, mano: bool) -> f64 {
    static TABLES: OnceLock<Vec<ManoTable>> = OnceLock::new();
    if ours >= target {
        return 1.0;
    }
    if theirs >= target {
        return 0.0;
    }
    let tables = TABLES.get_or_init(|| [30, 40].map(ManoTable::build).into());
    match tables.iter().find(|t| t.target == target) {
        Some(t) if mano => t.mano[ours as usize][theirs as usize],
        Some(t) => t.other[ours as usize][theirs as usize],
        None => win_chance(ours, theirs, target),
    }
}

/// The chance that the pair with `ours` piedras wins the game against `theirs`, to
/// `target`, between evenly matched pairs; 1 or 0 once a pair has reached it.
pub fn win_chance(ours: u8, theirs: u8, target: u8) -> f64 {
    win_chance_with_edge(ours, theirs, target, 0.0)
}

/// The same for a pair `edge` stronger than the other: it wins the hands where one pair
/// scores more with chance `0.5 + edge` (0 to [`MAX_EDGE`], rounded to a step of 0.05).
///
/// Against a weaker pair the rest of the game is worth more than an even race, so staking
/// it on one lance (throwing or accepting an órdago, a big envite) must win that lance more
/// often to pay.
pub fn win_chance_with_edge(ours: u8, theirs: u8, target: u8, edge: f64) -> f64 {
    static TABLES: OnceLock<Vec<Table>> = OnceLock::new();
    if ours >= target {
        return 1.0;
    }
    if theirs >= target {
        return 0.0;
    }
    let steps = (MAX_EDGE / EDGE_STEP).round() as usize;
    let tables = TABLES.get_or_init(|| {
        (0..=steps)
            .flat_map(|k| [30, 40].map(|t| Table::build(t, k as f64 * EDGE_STEP)))
            .collect()
    });
    let k = (edge.clamp(0.0, MAX_EDGE) / EDGE_STEP).round() as usize;
    match tables
        .iter()
        .skip(2 * k)
        .take(2)
        .find(|t| t.target == target)
    {
        Some(t) => t.win[ours as usize][theirs as usize],
        // An unknown target: a plain race on the piedras each pair still needs.
        None => {
            let (need_us, need_them) = ((target - ours) as f64, (target - theirs) as f64);
            1.0 / (1.0 + ((need_us - need_them) / 8.0).exp())
        }
    }
}

/// The chance that pair `pair` wins the match from `scores`, between evenly matched pairs:
/// the current juego by [`win_chance`] from its piedras, every later juego an even toss;
/// best of `rules.juegos` juegos a vaca, best of `rules.vacas` vacas the match. 1 or 0 once
/// a pair has won it.
pub fn match_chance(scores: &tapete_mus::Scores, rules: &tapete_mus::MusRules, pair: usize) -> f64 {
    match_chance_as(scores, rules, pair, None)
}

/// [`match_chance`] before a hand whose mano is of pair `mano` (the juego's chance from
/// [`win_chance_as`]); `None` when either may be.
pub fn match_chance_as(
    scores: &tapete_mus::Scores,
    rules: &tapete_mus::MusRules,
    pair: usize,
    mano: Option<usize>,
) -> f64 {
    let (us, them) = (pair % 2, 1 - pair % 2);
    let need_v = rules.vacas_to_win_match();
    if scores.vacas[us] >= need_v {
        return 1.0;
    }
    if scores.vacas[them] >= need_v {
        return 0.0;
    }
    let (ours, theirs) = (scores.piedras[us], scores.piedras[them]);
    let p = match mano {
        Some(m) => win_chance_as(ours, theirs, rules.target, m % 2 == us),
        None => win_chance(ours, theirs, rules.target),
    };
    let won = after_juego(scores, rules, us, true);
    let lost = after_juego(scores, rules, us, false);
    p * won + (1.0 - p) * lost
}

/// The match chance of pair `us` once the current juego is won (`won`) or lost, later
/// juegos and vacas even tosses.
pub fn after_juego(
    scores: &tapete_mus::Scores,
    rules: &tapete_mus::MusRules,
    us: usize,
    won: bool,
) -> f64 {
    let them = 1 - us;
    let (need_j, need_v) = (rules.games_to_win_vaca(), rules.vacas_to_win_match());
    let (mut j, mut v) = (
        [scores.games[us], scores.games[them]],
        [scores.vacas[us], scores.vacas[them]],
    );
    j[usize::from(!won)] += 1;
    // Vacas from here (`a` ours, `b` theirs), each an even toss.
    fn vacas(a: u8, b: u8, need: u8) -> f64 {
        match (a >= need, b >= need) {
            (true, _) => 1.0,
            (_, true) => 0.0,
            _ => 0.5 * vacas(a + 1, b, need) + 0.5 * vacas(a, b + 1, need),
        }
    }
    // Juegos of the vaca under way, then the vacas.
    fn juegos(j: [u8; 2], v: [u8; 2], need_j: u8, need_v: u8) -> f64 {
        if j[0] >= need_j {
            return vacas(v[0] + 1, v[1], need_v);
        }
        if j[1] >= need_j {
            return vacas(v[0], v[1] + 1, need_v);
        }
        0.5 * juegos([j[0] + 1, j[1]], v, need_j, need_v)
            + 0.5 * juegos([j[0], j[1] + 1], v, need_j, need_v)
    }
    v = [v[0].min(need_v), v[1].min(need_v)];
    juegos(j, v, need_j, need_v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn being_mano_counts_little_and_the_tables_agree() {
        for target in [30, 40] {
            // The mano passes every hand: from 0–0 it is nearly even either way.
            let m = win_chance_as(0, 0, target, true);
            assert!((m - 0.5).abs() < 0.03, "{m}");
            // Near the end it matters: 39–39, the mano speaks first and wins ties.
            assert!(win_chance_as(target - 1, target - 1, target, true) > 0.5);
            for a in 0..target {
                for b in 0..target {
                    // Our chance as mano and theirs, at the mirrored score, not mano: one.
                    let sum =
                        win_chance_as(a, b, target, true) + win_chance_as(b, a, target, false);
                    assert!((sum - 1.0).abs() < 1e-9, "{a}-{b}: {sum}");
                    // Both sides of the mano near the chance of either being mano.
                    let mean = (win_chance_as(a, b, target, true)
                        + win_chance_as(a, b, target, false))
                        / 2.0;
                    assert!((mean - win_chance(a, b, target)).abs() < 0.02, "{a}-{b}");
                }
                assert!(
                    win_chance_as(a + 1, 5, target, true)
                        >= win_chance_as(a, 5, target, true) - 1e-12
                );
            }
        }
        assert_eq!(win_chance_as(40, 3, 40, false), 1.0);
    }

    #[test]
    fn the_match_chance_counts_juegos_and_vacas() {
        use tapete_mus::{MusRules, Scores};
        let rules = MusRules::default(); // best of 3 juegos, one vaca
        let s = |p: [u8; 2], g: [u8; 2], v: [u8; 2]| Scores {
            piedras: p,
            games: g,
            vacas: v,
        };
        assert!((match_chance(&s([0, 0], [0, 0], [0, 0]), &rules, 0) - 0.5).abs() < 1e-9);
        // One juego up: 3/4 before the next juego starts.
        assert!((match_chance(&s([0, 0], [1, 0], [0, 0]), &rules, 0) - 0.75).abs() < 1e-9);
        assert!((match_chance(&s([0, 0], [1, 0], [0, 0]), &rules, 1) - 0.25).abs() < 1e-9);
        assert_eq!(match_chance(&s([0, 0], [2, 0], [1, 0]), &rules, 0), 1.0);
        assert_eq!(match_chance(&s([0, 0], [2, 0], [1, 0]), &rules, 1), 0.0);
        // Piedras count through the juego: one juego each, 30–10 to 40 is the juego's
        // chance, which is the match's.
        let p = win_chance(30, 10, 40);
        assert!((match_chance(&s([30, 10], [1, 1], [0, 0]), &rules, 0) - p).abs() < 1e-9);
        // Best of three vacas of one juego: a vaca up is 3/4.
        let three = MusRules {
            juegos: 1,
            vacas: 3,
            ..MusRules::default()
        };
        assert!((match_chance(&s([0, 0], [0, 0], [1, 0]), &three, 0) - 0.75).abs() < 1e-9);
        assert!((after_juego(&s([0, 0], [0, 0], [1, 0]), &three, 0, true) - 1.0).abs() < 1e-9);
    }

    #[test]
    fn even_scores_are_even_and_leads_help() {
        for target in [30, 40] {
            let even = win_chance(0, 0, target);
            assert!((even - 0.5).abs() < 1e-9, "{even}");
            assert!((win_chance(17, 17, target) - 0.5).abs() < 1e-9);
            assert!(win_chance(20, 10, target) > 0.6);
            assert!(win_chance(10, 20, target) < 0.4);
            for a in 0..target - 1 {
                assert!(win_chance(a + 1, 5, target) >= win_chance(a, 5, target));
                assert!(win_chance(5, a + 1, target) <= win_chance(5, a, target));
            }
        }
        assert_eq!(win_chance(40, 3, 40), 1.0);
        assert_eq!(win_chance(3, 40, 40), 0.0);
    }

    #[test]
    fn an_edge_raises_the_whole_table_and_keeps_its_order() {
        for target in [30, 40] {
            let mut last = win_chance(0, 0, target);
            for k in 1..=8 {
                let e = k as f64 * 0.05;
                let now = win_chance_with_edge(0, 0, target, e);
                assert!(now > last + 0.01, "edge {e}: {now} after {last}");
                assert!(now < 1.0);
                last = now;
                for a in 0..target - 1 {
                    let (x, y) = (
                        win_chance_with_edge(a, 7, target, e),
                        win_chance(a, 7, target),
                    );
                    assert!(x >= y, "{a}-7 to {target}, edge {e}: {x} < {y}");
                    assert!(win_chance_with_edge(a + 1, 7, target, e) >= x);
                    assert!(
                        win_chance_with_edge(7, a + 1, target, e)
                            <= win_chance_with_edge(7, a, target, e)
                    );
                }
            }
            // Beyond the largest edge, the largest; below none, none.
            assert_eq!(
                win_chance_with_edge(3, 9, target, 0.9),
                win_chance_with_edge(3, 9, target, MAX_EDGE)
            );
            assert_eq!(
                win_chance_with_edge(3, 9, target, -0.3),
                win_chance(3, 9, target)
            );
        }
    }
}
