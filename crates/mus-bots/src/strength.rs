//! Hand-strength estimates a bot can compute from its own four cards alone.
//!
//! The thesis behind the bots (chapter 2, "Probabilidad de ganar un lance") defines the
//! strength of a hand in a lance as the probability of beating the other hands, and notes
//! that the exact figure (three nested sums over the unknown hands) is too slow for real
//! time; it suggests treating the rival hands as independent, `P{A}ⁿ`, as a usable guide.
//! That is what this module does, quickly:
//!
//! - [`HandOdds::beat_one`]: the exact probability that our hand beats **one** unknown hand
//!   dealt from the 36 cards we cannot see (card removal counted with binomials), ties going
//!   to us when we are closer to the mano, optionally restricted to hands that take part in
//!   the lance (holding pares, holding juego, or without juego for punto);
//! - [`HandOdds::beat_all`]: that probability raised to the number of rivals (the thesis'
//!   independence approximation);
//! - [`HandOdds::class_prob`]: the chance that an unknown hand holds pares / juego;
//! - [`HandOdds::estimated_gain`]: the thesis' "ganancia estimada" R = P(win) · cuenta ·
//!   P(the lance is played), summed over the lances: piedras we expect from the hand en paso.
//!
//! - [`percentile`]: where a hand stands in a lance among the hands that take part in it,
//!   what the table read and maestro's belief compare calls against.
//!
//! Each call walks the 330 (8 reyes) or 715 (4 reyes) jugadas once: a few microseconds.

use std::sync::OnceLock;
use tapete_cards::{binomial, Card, CardSet};
use tapete_mus::rules::{self, Lance};
use tapete_mus::{Jugada, Mode, MusRules, Rank};

/// One jugada with its strength in every lance, precomputed per mode.
struct Entry {
    /// Grande, chica, pares, juego (31 real off), juego (31 real on), punto.
    strengths: [u32; 6],
    counts: [u8; 10],
}

fn slot(lance: Lance, real31: bool) -> usize {
    match lance {
        Lance::Grande => 0,
        Lance::Chica => 1,
        Lance::Pares => 2,
        Lance::Juego if real31 => 4,
        Lance::Juego => 3,
        Lance::Punto => 5,
    }
}

fn table(mode: Mode) -> &'static [Entry] {
    static OCHO: OnceLock<Vec<Entry>> = OnceLock::new();
    static CUATRO: OnceLock<Vec<Entry>> = OnceLock::new();
    let cell = match mode {
        Mode::OchoReyes => &OCHO,
        Mode::CuatroReyes => &CUATRO,
    };
    cell.get_or_init(|| {
        Jugada::all(mode)
            .into_iter()
            .map(|j| Entry {
                strengths: [
                    rules::grande(j),
                    rules::chica(j),
                    rules::pares_strength(j),
                    rules::juego_strength(j, false),
                    rules::juego_strength(j, true),
                    if rules::has_juego(j) {
                        0
                    } else {
                        rules::punto_strength(j)
                    },
                ],
                counts: Rank::ALL.map(|r| j.count(r) as u8),
            })
            .collect()
    })
}

/// Which unknown hands count as rivals in a lance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// Every hand (grande, chica; or pares/juego before the declarations, where a rival
    /// without pares or juego simply loses).
    All,
    /// Only hands that take part: with pares (pares), with juego (juego), without juego
    /// (punto). Use it once the rivals have declared.
    Players,
}

/// What one hand can expect, lance by lance, against unknown hands.
#[derive(Clone, Debug)]
pub struct HandOdds {
    jugada: Jugada,
    mode: Mode,
    real31: bool,
    /// Cards of each rank we cannot see (deck copies less our own).
    unseen: [u8; 10],
}

impl HandOdds {
    /// The odds of a 4-card hand under `rules`; `None` unless exactly four cards are given.
    pub fn new(cards: &[Card], rules: &MusRules) -> Option<HandOdds> {
        let four: [Card; 4] = cards.try_into().ok()?;
        let jugada = Jugada::from_cards(&four, rules.mode);
        Some(HandOdds::from_jugada(jugada, rules))
    }

    /// The odds of a jugada under `rules`.
    pub fn from_jugada(jugada: Jugada, rules: &MusRules) -> HandOdds {
        let unseen = Rank::ALL.map(|r| r.copies(rules.mode).saturating_sub(jugada.count(r) as u8));
        HandOdds {
            jugada,
            mode: rules.mode,
            real31: rules.real31,
            unseen,
        }
    }

    /// The jugada.
    pub fn jugada(&self) -> Jugada {
        self.jugada
    }

    /// Our strength in `lance` (see [`rules::strength`]; punto is 0 with juego).
    pub fn strength(&self, lance: Lance) -> u32 {
        match lance {
            Lance::Punto if rules::has_juego(self.jugada) => 0,
            l => rules::strength(l, self.jugada, self.real31),
        }
    }

    /// Ways (card combinations from the unseen cards) to deal each entry.
    fn weight(&self, e: &Entry) -> u64 {
        let mut w = 1u64;
        for (i, &k) in e.counts.iter().enumerate() {
            if k > 0 {
                w *= binomial(self.unseen[i] as usize, k as usize);
                if w == 0 {
                    return 0;
                }
            }
        }
        w
    }

    /// Probability that our hand beats one unknown hand in `lance`. `ahead`: we are closer
    /// to the mano than that rival, so ties are ours. With [`Field::Players`] the rival is
    /// assumed to take part in the lance. 0 when we do not take part ourselves.
    pub fn beat_one(&self, lance: Lance, ahead: bool, field: Field) -> f64 {
        let mine = self.strength(lance);
        if mine == 0 && lance != Lance::Grande {
            return 0.0;
        }
        let s = slot(lance, self.real31);
        let (mut won, mut total) = (0u64, 0u64);
        for e in table(self.mode) {
            let theirs = e.strengths[s];
            if field == Field::Players && theirs == 0 {
                continue;
            }
            let w = self.weight(e);
            total += w;
            if mine > theirs || (ahead && mine == theirs) {
                won += w;
            }
        }
        if total == 0 {
            1.0
        } else {
            won as f64 / total as f64
        }
    }

    /// Probability of beating `rivals` unknown hands, `ahead_of` of them from behind us in
    /// speaking order (ties ours), treating them as independent (the thesis' `P{A}ⁿ`).
    pub fn beat_all(&self, lance: Lance, rivals: usize, ahead_of: usize, field: Field) -> f64 {
        let behind = rivals.saturating_sub(ahead_of);
        let a = if ahead_of > 0 {
            self.beat_one(lance, true, field)
        } else {
            1.0
        };
        let b = if behind > 0 {
            self.beat_one(lance, false, field)
        } else {
            1.0
        };
        a.powi(ahead_of.min(rivals) as i32) * b.powi(behind as i32)
    }

    /// Probability that one unknown hand takes part in `lance`: holds pares (pares), juego
    /// (juego), or lacks juego (punto). 1 for grande and chica.
    pub fn class_prob(&self, lance: Lance) -> f64 {
        if matches!(lance, Lance::Grande | Lance::Chica) {
            return 1.0;
        }
        let s = slot(lance, self.real31);
        let (mut yes, mut total) = (0u64, 0u64);
        for e in table(self.mode) {
            let w = self.weight(e);
            total += w;
            if e.strengths[s] > 0 {
                yes += w;
            }
        }
        if total == 0 {
            0.0
        } else {
            yes as f64 / total as f64
        }
    }

    /// Piedras of the cuenta this hand alone earns if its pair wins `lance`.
    pub fn cuenta(&self, lance: Lance) -> u8 {
        match lance {
            Lance::Pares => rules::pares(self.jugada).map_or(0, |p| p.kind.cuenta()),
            Lance::Juego => rules::juego_cuenta(self.jugada),
            _ => 1,
        }
    }

    /// The thesis' estimated gain (§2.3, "ganancia estimada"): piedras the hand expects en
    /// paso against two unknown rivals from `position` (0 = mano): P(win) for grande and
    /// chica, P(win) · cuenta for pares and juego (a rival without them loses), and punto
    /// when we lack juego (weighted by the chance nobody has it).
    pub fn estimated_gain(&self, position: usize) -> f64 {
        let ahead = ahead_of_rivals(position);
        let g = self.beat_all(Lance::Grande, 2, ahead, Field::All);
        let c = self.beat_all(Lance::Chica, 2, ahead, Field::All);
        let p =
            self.beat_all(Lance::Pares, 2, ahead, Field::All) * self.cuenta(Lance::Pares) as f64;
        let j = if rules::has_juego(self.jugada) {
            self.beat_all(Lance::Juego, 2, ahead, Field::All) * self.cuenta(Lance::Juego) as f64
        } else {
            let nobody = (1.0 - self.class_prob(Lance::Juego)).powi(3);
            self.beat_all(Lance::Punto, 2, ahead, Field::Players) * nobody
        };
        g + c + p + j
    }
}

/// How many of the two rivals of `position` speak after it (0 = mano): ties against those
/// are ours.
pub fn ahead_of_rivals(position: usize) -> usize {
    [1, 3]
        .iter()
        .filter(|&&d| (position + d) % 4 > position)
        .count()
}

/// Strengths of every jugada in one lance with the share of hands at or below each.
struct Percentiles {
    /// Sorted strengths with the fraction of (taking-part) hands strictly below and at it.
    rows: Vec<(u32, f64, f64)>,
}

impl Percentiles {
    fn build(mode: Mode, lance: Lance, real31: bool) -> Percentiles {
        let mut all: Vec<(u32, f64)> = Jugada::all(mode)
            .into_iter()
            .filter(|&j| lance != Lance::Punto || !rules::has_juego(j))
            .map(|j| {
                (
                    rules::strength(lance, j, real31),
                    j.combinations(mode) as f64,
                )
            })
            .filter(|&(s, _)| s > 0 || matches!(lance, Lance::Grande | Lance::Chica))
            .collect();
        all.sort_by_key(|&(s, _)| s);
        let total: f64 = all.iter().map(|&(_, w)| w).sum();
        let mut rows: Vec<(u32, f64, f64)> = Vec::new();
        let mut below = 0.0;
        for (s, w) in all {
            match rows.last_mut() {
                Some(r) if r.0 == s => r.2 += w / total,
                _ => rows.push((s, below, w / total)),
            }
            below += w / total;
        }
        Percentiles { rows }
    }

    /// Share of the other taking-part hands this strength beats (ties count half).
    fn of(&self, strength: u32) -> f64 {
        match self.rows.binary_search_by_key(&strength, |r| r.0) {
            Ok(i) => self.rows[i].1 + self.rows[i].2 / 2.0,
            Err(i) => self.rows.get(i).map_or(1.0, |r| r.1),
        }
    }
}

/// The percentile tables for one mode and 31 real setting, lance by lance.
struct Tables([Percentiles; 5]);

fn tables(mode: Mode, real31: bool) -> &'static Tables {
    static CELLS: [OnceLock<Tables>; 4] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    let i = usize::from(mode == Mode::CuatroReyes) * 2 + usize::from(real31);
    CELLS[i].get_or_init(|| Tables(Lance::ALL.map(|l| Percentiles::build(mode, l, real31))))
}

/// How strong `cards` are in `lance` among the hands that take part in it, from 0 (the
/// worst) to 1 (the best).
pub fn percentile(cards: CardSet, lance: Lance, mode: Mode, real31: bool) -> f64 {
    let Some(j) = Jugada::from_set(cards, mode) else {
        return 0.5;
    };
    let s = rules::strength(lance, j, real31);
    let i = Lance::ALL.iter().position(|&l| l == lance).unwrap_or(0);
    tables(mode, real31).0[i].of(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn odds(s: &str) -> HandOdds {
        let rules = MusRules::default();
        HandOdds::from_jugada(Jugada::parse(s, rules.mode).unwrap(), &rules)
    }

    #[test]
    fn extremes() {
        assert_eq!(odds("RRRR").beat_one(Lance::Grande, true, Field::All), 1.0);
        assert_eq!(odds("AAAA").beat_one(Lance::Chica, true, Field::All), 1.0);
        assert!(odds("AAAA").beat_one(Lance::Grande, true, Field::All) < 0.01);
        assert_eq!(odds("RCS7").beat_one(Lance::Pares, true, Field::All), 0.0);
        assert!(odds("RS74").beat_one(Lance::Juego, true, Field::Players) > 0.99);
        assert!(odds("RRR4").beat_one(Lance::Juego, false, Field::Players) < 0.2);
        // Pares de reyes beats most hands with pares, duples de reyes nearly all.
        let rr = odds("RRCA").beat_one(Lance::Pares, false, Field::Players);
        let dd = odds("RRAA").beat_one(Lance::Pares, false, Field::Players);
        assert!(rr > 0.4 && dd > rr, "{rr} {dd}");
    }

    #[test]
    fn position_counts() {
        assert_eq!(ahead_of_rivals(0), 2);
        assert_eq!(ahead_of_rivals(1), 1);
        assert_eq!(ahead_of_rivals(2), 1);
        assert_eq!(ahead_of_rivals(3), 0);
        let h = odds("RRCA");
        assert!(
            h.beat_all(Lance::Grande, 2, 2, Field::All)
                > h.beat_all(Lance::Grande, 2, 0, Field::All)
        );
    }

    #[test]
    fn gains_rank_hands() {
        assert!(odds("RRRR").estimated_gain(0) > odds("C654").estimated_gain(0));
        assert!(odds("RS74").estimated_gain(0) > odds("C654").estimated_gain(0));
        let p = odds("C654").class_prob(Lance::Pares);
        assert!(p > 0.3 && p < 0.7, "{p}");
    }
}
