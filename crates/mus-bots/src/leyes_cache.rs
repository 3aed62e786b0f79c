//! The exact leyes of a hand, as the stronger levels read them, without paying for them
//! twice.
//!
//! - Unconditioned leyes (partner unknown, nothing declared) of every jugada come from
//!   tables generated once by `tapete mus leyes --all-hands` (exact, rounded to 4 decimals)
//!   and compiled in: a lookup, no counting at play time. With 31 real on they are computed
//!   and cached like the conditioned ones.
//! - Conditioned leyes (declarations of pares and juego heard, a partner's seña) are computed
//!   with [`Leyes::compute`] the first time a (mode, 31 real, jugada, conditions) key is met
//!   and kept in one process-wide cache, shared by every bot of every game: an arena playing
//!   thousands of games pays for each key once (≈10–30 ms in 8 reyes, ≈0.1–0.2 s in 4 reyes).
//! - The chance in a lance once the three others have all declared it (pares, or juego and
//!   punto), the one conditioned number the betting reads, comes from a second compiled-in
//!   table for 8 reyes ([`lance_chances`]; `examples/lance_table.rs` writes it): rollouts
//!   of a review meet hundreds of these keys, each of which would cost a count.
//! - [`values`]: a dense per-jugada table of the expected net piedras en paso per position,
//!   the value the discard policy averages over the possible draws.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use tapete_mus::rules::{self, Lance};
use tapete_mus::{Jugada, Mode};
use tapete_mus_odds::catalog::Catalog;
use tapete_mus_odds::leyes::{Conditions, Declared};
use tapete_mus_odds::report::Leyes;

/// The leyes of one own position, as probabilities and expected piedras en paso.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Odds {
    /// P(our pair wins grande).
    pub grande: f64,
    /// P(our pair wins chica).
    pub chica: f64,
    /// P(our pair wins pares), P(the rivals win it), P(nobody holds pares).
    pub pares_win: f64,
    pub pares_lose: f64,
    pub pares_void: f64,
    /// P(our pair wins / loses juego).
    pub juego_win: f64,
    pub juego_lose: f64,
    /// P(our pair wins / loses punto, i.e. nobody has juego).
    pub punto_win: f64,
    pub punto_lose: f64,
    /// Expected piedras en paso for our pair and for the rivals, all lances.
    pub us: f64,
    pub them: f64,
}

impl Odds {
    /// Expected piedras en paso, ours less theirs: the hand's value if nobody bets.
    pub fn net(&self) -> f64 {
        self.us - self.them
    }

    /// P(our pair wins `lance` given that it is played by both pairs): grande and chica as
    /// they are; pares, juego and punto among the deals where both pairs take part.
    pub fn lance(&self, lance: Lance) -> f64 {
        let ratio = |w: f64, l: f64| if w + l > 0.0 { w / (w + l) } else { 0.5 };
        match lance {
            Lance::Grande => self.grande,
            Lance::Chica => self.chica,
            Lance::Pares => ratio(self.pares_win, self.pares_lose),
            Lance::Juego => ratio(self.juego_win, self.juego_lose),
            Lance::Punto => ratio(self.punto_win, self.punto_lose),
        }
    }
}

/// The leyes of a hand for each own position (0 = mano … 3 = postre).
pub type HandOdds4 = [Odds; 4];

/// The most conditioned leyes kept (each some 400 bytes): the cache is emptied when full.
const MAX_CACHED: usize = 100_000;
const TABLE_8: &str = include_str!("tables/leyes_8reyes.csv");
const TABLE_4: &str = include_str!("tables/leyes_4reyes.csv");

/// Parses a compiled-in table: `hand,position,` then the eleven numbers of [`Odds`].
fn parse_table(text: &str, mode: Mode) -> HashMap<Jugada, HandOdds4> {
    let mut out: HashMap<Jugada, HandOdds4> = HashMap::new();
    for line in text.lines() {
        if line.starts_with('#') || line.starts_with("hand") || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(',').collect();
        if fields.len() != 13 {
            continue;
        }
        let (Ok(j), Ok(pos)) = (Jugada::parse(fields[0], mode), fields[1].parse::<usize>()) else {
            continue;
        };
        let x: Vec<f64> = fields[2..]
            .iter()
            .map(|f| f.parse::<f64>().unwrap_or(0.0))
            .collect();
        let odds = Odds {
            grande: x[0],
            chica: x[1],
            pares_win: x[2],
            pares_lose: x[3],
            pares_void: x[4],
            juego_win: x[5],
            juego_lose: x[6],
            punto_win: x[7],
            punto_lose: x[8],
            us: x[9],
            them: x[10],
        };
        if pos < 4 {
            out.entry(j).or_default()[pos] = odds;
        }
    }
    out
}

fn table(mode: Mode) -> &'static HashMap<Jugada, HandOdds4> {
    static OCHO: OnceLock<HashMap<Jugada, HandOdds4>> = OnceLock::new();
    static CUATRO: OnceLock<HashMap<Jugada, HandOdds4>> = OnceLock::new();
    match mode {
        Mode::OchoReyes => OCHO.get_or_init(|| parse_table(TABLE_8, mode)),
        Mode::CuatroReyes => CUATRO.get_or_init(|| parse_table(TABLE_4, mode)),
    }
}

/// The jugada catalogue of a mode (built once per mode and 31 real).
pub fn catalog(mode: Mode, real31: bool) -> &'static Catalog {
    static CATS: [OnceLock<Catalog>; 4] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    let i = (mode == Mode::CuatroReyes) as usize * 2 + real31 as usize;
    CATS[i].get_or_init(|| Catalog::new(mode, real31))
}

/// Cache key: mode, 31 real, jugada, conditions packed in base 3.
type Key = (Mode, bool, Jugada, u16);

fn pack(cond: &Conditions) -> u16 {
    let sena = cond.partner_sena.map_or(0, |s| 1 + s as u16);
    let declared = cond
        .pares
        .iter()
        .chain(cond.juego.iter())
        .fold(0u16, |acc, d| {
            acc * 3
                + match d {
                    Declared::Unknown => 0,
                    Declared::Yes => 1,
                    Declared::No => 2,
                }
        });
    // 3⁶ declarations, then ten seña values: below 2¹⁶.
    declared + 729 * sena
}

type Cache = Mutex<HashMap<Key, Option<Arc<HandOdds4>>>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

fn from_leyes(l: &Leyes) -> HandOdds4 {
    let mut out = HandOdds4::default();
    for p in &l.positions {
        if p.position < 4 {
            out[p.position] = Odds {
                grande: p.grande.value(),
                chica: p.chica.value(),
                pares_win: p.pares.win.value(),
                pares_lose: p.pares.lose.value(),
                pares_void: p.pares.void.value(),
                juego_win: p.juego.win.value(),
                juego_lose: p.juego.lose.value(),
                punto_win: p.punto.win.value(),
                punto_lose: p.punto.lose.value(),
                us: p.us.total(),
                them: p.them.total(),
            };
        }
    }
    out
}

type PartnerKey = (Mode, bool, Jugada, Jugada, u16);
type PartnerCache = Mutex<HashMap<PartnerKey, Option<Arc<HandOdds4>>>>;

/// Exact leyes of `hand` with the partner's hand `partner` known, under `cond` (the
/// rivals' declarations; the partner's are left unknown: its hand says them). `None` when
/// no deal satisfies the conditions. Cached like [`leyes`], bounded alike.
pub fn leyes_with_partner(
    mode: Mode,
    real31: bool,
    hand: Jugada,
    partner: Jugada,
    cond: &Conditions,
) -> Option<HandOdds4> {
    static CACHE: OnceLock<PartnerCache> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut cond = *cond;
    cond.pares[1] = tapete_mus_odds::leyes::Declared::Unknown;
    cond.juego[1] = tapete_mus_odds::leyes::Declared::Unknown;
    cond.partner_sena = None;
    let key: PartnerKey = (mode, real31, hand, partner, pack(&cond));
    if let Ok(map) = cache.lock() {
        if let Some(hit) = map.get(&key) {
            return hit.as_deref().copied();
        }
    }
    let computed = Leyes::compute(catalog(mode, real31), hand, Some(partner), &cond)
        .ok()
        .map(|l| Arc::new(from_leyes(&l)));
    if let Ok(mut map) = cache.lock() {
        if map.len() >= MAX_CACHED {
            map.clear();
        }
        map.insert(key, computed.clone());
    }
    computed.as_deref().copied()
}

/// Exact leyes of `hand` with the partner unknown, under `cond` (declarations heard from
/// next, partner, prev). `None` only when no deal satisfies the conditions.
pub fn leyes(mode: Mode, real31: bool, hand: Jugada, cond: &Conditions) -> Option<HandOdds4> {
    if !real31 && cond.is_empty() {
        if let Some(t) = table(mode).get(&hand) {
            return Some(*t);
        }
    }
    let key: Key = (mode, real31, hand, pack(cond));
    if let Ok(map) = cache().lock() {
        if let Some(hit) = map.get(&key) {
            return hit.as_deref().copied();
        }
    }
    // Computed outside the lock: other threads keep playing meanwhile.
    let computed = Leyes::compute(catalog(mode, real31), hand, None, cond)
        .ok()
        .map(|l| Arc::new(from_leyes(&l)));
    if let Ok(mut map) = cache().lock() {
        if map.len() >= MAX_CACHED {
            // A server that runs for months must not grow without bound: start afresh.
            map.clear();
        }
        map.insert(key, computed.clone());
    }
    computed.as_deref().copied()
}

const LANCES_8: &str = include_str!("tables/lances_8reyes.csv");

/// A lance's chance at the four own positions.
type Chances = [f64; 4];

/// The three others' declarations of one lance, all heard: bit 2 next, 1 partner, 0 prev.
fn declared_bits(d: &[Declared; 3]) -> Option<u8> {
    d.iter().try_fold(0u8, |acc, x| match x {
        Declared::Yes => Some(acc << 1 | 1),
        Declared::No => Some(acc << 1),
        Declared::Unknown => None,
    })
}

/// The lances the second table covers, in its `lance` column's words.
const TABLE_LANCES: [(Lance, &str); 3] = [
    (Lance::Pares, "pares"),
    (Lance::Juego, "juego"),
    (Lance::Punto, "punto"),
];

/// Parses the lance table: `hand,lance,declared,` then the chance at positions 0–3;
/// `declared` is the others' (next, partner, prev) declarations of the lance's kind, `s`
/// or `n` each (punto reads juego's).
fn parse_lances(text: &str, mode: Mode) -> HashMap<(Jugada, Lance, u8), Chances> {
    let mut out = HashMap::new();
    for line in text.lines() {
        if line.starts_with('#') || line.starts_with("hand") || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != 7 {
            continue;
        }
        let Ok(j) = Jugada::parse(f[0], mode) else {
            continue;
        };
        let Some(&(lance, _)) = TABLE_LANCES.iter().find(|(_, name)| *name == f[1]) else {
            continue;
        };
        let bits = f[2]
            .bytes()
            .try_fold(0u8, |acc, c| match c {
                b's' => Some(acc << 1 | 1),
                b'n' => Some(acc << 1),
                _ => None,
            })
            .filter(|_| f[2].len() == 3);
        let (Some(bits), Ok(c)) = (
            bits,
            f[3..]
                .iter()
                .map(|x| x.parse::<f64>())
                .collect::<Result<Vec<f64>, _>>(),
        ) else {
            continue;
        };
        out.insert((j, lance, bits), [c[0], c[1], c[2], c[3]]);
    }
    out
}

fn lance_table() -> &'static HashMap<(Jugada, Lance, u8), Chances> {
    static OCHO: OnceLock<HashMap<(Jugada, Lance, u8), Chances>> = OnceLock::new();
    OCHO.get_or_init(|| parse_lances(LANCES_8, Mode::OchoReyes))
}

/// The chance that our pair wins `lance` when both pairs play it ([`Odds::lance`]) at each
/// own position, under `cond`. Read from the compiled-in table when it holds the key (8
/// reyes, 31 real off, the three others' declarations of the lance's kind all heard and
/// nothing else conditioned), counted and cached as [`leyes`] otherwise. `None` only when
/// no deal satisfies the conditions.
pub fn lance_chances(
    mode: Mode,
    real31: bool,
    hand: Jugada,
    lance: Lance,
    cond: &Conditions,
) -> Option<Chances> {
    if mode == Mode::OchoReyes && !real31 && cond.partner_sena.is_none() {
        let key = match lance {
            Lance::Pares if cond.juego == [Declared::Unknown; 3] => declared_bits(&cond.pares),
            Lance::Juego | Lance::Punto if cond.pares == [Declared::Unknown; 3] => {
                declared_bits(&cond.juego)
            }
            _ => None,
        };
        if let Some(bits) = key {
            // A key the table lacks is one no deal satisfies.
            return lance_table().get(&(hand, lance, bits)).copied();
        }
    }
    leyes(mode, real31, hand, cond).map(|l| l.map(|o| o.lance(lance)))
}

/// The conditions of a key of the lance table: the others' declarations of `lance`'s
/// kind (pares, or juego for juego and punto), nothing else.
fn declared_in(lance: Lance, declared: [Declared; 3]) -> Conditions {
    if lance == Lance::Pares {
        Conditions {
            pares: declared,
            ..Default::default()
        }
    } else {
        Conditions {
            juego: declared,
            ..Default::default()
        }
    }
}

/// The header of the lance table of 8 reyes (`examples/lance_table.rs` writes it: this,
/// then [`lance_table_lines`] of every jugada).
pub const LANCE_TABLE_HEADER: &str = "\
# The chance that our pair wins a lance both pairs play, 8reyes, 31 real off, partner
# unknown, once the three others (next, partner, prev) have declared its kind (s/n; punto
# reads juego's), at own positions 0-3. Exact counts rounded to 4 decimals; a key that
# is missing is one no deal satisfies.
# Generated by `cargo run --release -p tapete-mus-bots --example lance_table`.
hand,lance,declared,p0,p1,p2,p3
";

/// The lance table's lines of one jugada of 8 reyes: every lance and declarations some
/// deal satisfies, counted (some 0.1 s).
pub fn lance_table_lines(hand: Jugada) -> String {
    let cat = catalog(Mode::OchoReyes, false);
    let mut text = String::new();
    for bits in 0u8..8 {
        let declared = [4u8, 2, 1].map(|b| {
            if bits & b != 0 {
                Declared::Yes
            } else {
                Declared::No
            }
        });
        let word: String = declared
            .iter()
            .map(|d| if *d == Declared::Yes { 's' } else { 'n' })
            .collect();
        for (lance, name) in TABLE_LANCES {
            let cond = declared_in(lance, declared);
            let Ok(l) = Leyes::compute(cat, hand, None, &cond) else {
                continue;
            };
            text.push_str(&format!("{hand},{name},{word}"));
            for x in from_leyes(&l).map(|o| o.lance(lance)) {
                text.push(',');
                text.push_str(&four_decimals(x));
            }
            text.push('\n');
        }
    }
    text
}

/// `x` to 4 decimals, as the tables write numbers (`.3333`, `1`, `0`).
fn four_decimals(x: f64) -> String {
    let s = format!("{:.4}", x);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    let s = s.strip_prefix('0').unwrap_or(s);
    if s.is_empty() {
        "0".into()
    } else {
        s.to_string()
    }
}

/// Unconditioned leyes (nothing declared, partner unknown): always available.
pub fn base(mode: Mode, real31: bool, hand: Jugada) -> HandOdds4 {
    leyes(mode, real31, hand, &Conditions::default()).unwrap_or_default()
}

/// The chance that the pair of whoever holds `cards` at `position` (0 = mano) wins
/// `lance`, from those four cards alone (partner unknown, nothing declared): the one
/// number a threshold player bets and answers by. `None` without four cards.
pub fn lance_chance(
    cards: &[tapete_cards::Card],
    position: usize,
    lance: Lance,
    mode: Mode,
    real31: bool,
) -> Option<f64> {
    let four: [tapete_cards::Card; 4] = cards.try_into().ok()?;
    let j = Jugada::from_cards(&four, mode);
    Some(base(mode, real31, j)[position.min(3)].lance(lance))
}

/// Dense index of a jugada: its four ranks, 4 bits each (the grande key), below 65536.
pub fn dense(j: Jugada) -> usize {
    rules::grande(j) as usize
}

/// Net expected piedras en paso (ours less theirs) of every jugada per position, indexed
/// by [`dense`]; from the compiled-in tables (31 real off: 31 real only reorders the 31s).
pub fn values(mode: Mode) -> &'static [[f32; 4]] {
    static OCHO: OnceLock<Vec<[f32; 4]>> = OnceLock::new();
    static CUATRO: OnceLock<Vec<[f32; 4]>> = OnceLock::new();
    let cell = match mode {
        Mode::OchoReyes => &OCHO,
        Mode::CuatroReyes => &CUATRO,
    };
    cell.get_or_init(|| {
        let mut v = vec![[0f32; 4]; 1 << 16];
        for (j, odds) in table(mode) {
            v[dense(*j)] = odds.map(|o| o.net() as f32);
        }
        v
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_cover_every_jugada_and_match_the_counting() {
        for mode in [Mode::OchoReyes, Mode::CuatroReyes] {
            assert_eq!(table(mode).len(), Jugada::all(mode).len(), "{mode}");
        }
        let m = Mode::OchoReyes;
        let j = Jugada::parse("RRCA", m).unwrap();
        let from_table = base(m, false, j);
        let l = Leyes::compute(catalog(m, false), j, None, &Conditions::default()).unwrap();
        let exact = from_leyes(&l);
        for p in 0..4 {
            assert!((from_table[p].grande - exact[p].grande).abs() < 1e-4);
            assert!((from_table[p].net() - exact[p].net()).abs() < 1e-3);
        }
    }

    #[test]
    fn the_lance_table_is_the_counting_rounded() {
        use rand::{Rng, SeedableRng};
        let m = Mode::OchoReyes;
        let hands = Jugada::all(m);
        // Every jugada has its rows: at least the declarations its own cards allow.
        let table = lance_table();
        for &h in &hands {
            assert!(table.keys().any(|k| k.0 == h), "{h} missing");
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..24 {
            let hand = hands[rng.gen_range(0..hands.len())];
            let lance = TABLE_LANCES[rng.gen_range(0..3)].0;
            let declared = [0; 3].map(|_| {
                if rng.gen_bool(0.5) {
                    Declared::Yes
                } else {
                    Declared::No
                }
            });
            let cond = declared_in(lance, declared);
            let counted = Leyes::compute(catalog(m, false), hand, None, &cond)
                .ok()
                .map(|l| from_leyes(&l).map(|o| o.lance(lance)));
            let read = lance_chances(m, false, hand, lance, &cond);
            match (read, counted) {
                (Some(r), Some(c)) => {
                    for p in 0..4 {
                        assert!((r[p] - c[p]).abs() < 6e-5, "{hand} {lance:?} {cond:?}");
                    }
                }
                (None, None) => {}
                (r, c) => panic!("{hand} {lance:?} {cond:?}: table {r:?}, counted {c:?}"),
            }
        }
        // Outside the table's keys the chance is counted.
        let j = Jugada::parse("SSA4", m).unwrap();
        let partial = Conditions {
            pares: [Declared::Yes, Declared::Unknown, Declared::Yes],
            ..Default::default()
        };
        let c = lance_chances(m, false, j, Lance::Pares, &partial).unwrap();
        assert_eq!(
            c,
            leyes(m, false, j, &partial)
                .unwrap()
                .map(|o| o.lance(Lance::Pares))
        );
        assert_eq!(four_decimals(0.33333), ".3333");
        assert_eq!(four_decimals(1.0), "1");
        assert_eq!(four_decimals(0.00001), "0");
    }

    #[test]
    fn conditions_are_cached_and_change_the_odds() {
        let m = Mode::OchoReyes;
        let j = Jugada::parse("SSA4", m).unwrap();
        let cond = Conditions {
            pares: [Declared::Yes, Declared::Unknown, Declared::Yes],
            ..Default::default()
        };
        let c = leyes(m, false, j, &cond).unwrap();
        let b = base(m, false, j);
        // Two rivals holding pares: pares de sotas wins less often.
        assert!(c[0].lance(Lance::Pares) < b[0].lance(Lance::Pares));
        assert_eq!(leyes(m, false, j, &cond), Some(c));
    }
}
