//! How each lance compares hands: grande, chica, pares, juego and punto.
//!
//! Every comparison is reduced to a *strength*: a number where higher is better, so the
//! winner of a lance is the highest strength, ties going to the player closer to the mano.
//! Hands with equal strength are equal for that lance (for pares, `RRCA` and `RR7A` are the
//! same pareja de reyes).

use crate::{Jugada, Rank};
use serde::{Deserialize, Serialize};

/// The four lances in play order, with punto standing in for juego when nobody has juego.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lance {
    Grande,
    Chica,
    Pares,
    Juego,
    Punto,
}

impl Lance {
    /// All lances in order of play and counting.
    pub const ALL: [Lance; 5] = [
        Lance::Grande,
        Lance::Chica,
        Lance::Pares,
        Lance::Juego,
        Lance::Punto,
    ];

    /// The lance's Spanish name.
    pub fn name(self) -> &'static str {
        match self {
            Lance::Grande => "grande",
            Lance::Chica => "chica",
            Lance::Pares => "pares",
            Lance::Juego => "juego",
            Lance::Punto => "punto",
        }
    }
}

impl std::fmt::Display for Lance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Kind of pares, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ParesKind {
    /// Exactly one pair.
    Pares,
    /// Three of a rank.
    Medias,
    /// Two pairs, or four of a rank.
    Duples,
}

impl ParesKind {
    /// Piedras of the cuenta for one player holding this kind: 1, 2, 3.
    pub fn cuenta(self) -> u8 {
        match self {
            ParesKind::Pares => 1,
            ParesKind::Medias => 2,
            ParesKind::Duples => 3,
        }
    }

    /// Spanish name.
    pub fn name(self) -> &'static str {
        match self {
            ParesKind::Pares => "pares",
            ParesKind::Medias => "medias",
            ParesKind::Duples => "duples",
        }
    }
}

/// What a hand holds for the pares lance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pares {
    pub kind: ParesKind,
    /// The pair's rank (pares), the trio's (medias) or the higher pair's (duples).
    pub high: Rank,
    /// The lower pair's rank for duples (equal to `high` for four of a rank); `high` otherwise.
    pub low: Rank,
}

impl Pares {
    /// Spanish description, e.g. "duples de reyes y caballos", "medias de sotas".
    pub fn describe(self) -> String {
        match self.kind {
            ParesKind::Duples if self.high != self.low => {
                format!("duples de {} y {}", self.high.plural(), self.low.plural())
            }
            ParesKind::Duples => format!("duples de {}", self.high.plural()),
            k => format!("{} de {}", k.name(), self.high.plural()),
        }
    }
}

/// Grande: the four cards high to low, compared lexicographically.
pub fn grande(j: Jugada) -> u32 {
    j.ranks().iter().fold(0u32, |acc, &r| (acc << 4) | r as u32)
}

/// Chica: the four cards low to high compared lexicographically, lower wins; returned
/// inverted so that higher strength is better.
pub fn chica(j: Jugada) -> u32 {
    let low_to_high = j
        .ranks()
        .iter()
        .rev()
        .fold(0u32, |acc, &r| (acc << 4) | r as u32);
    0xFFFF - low_to_high
}

/// The pares a hand holds, if any.
pub fn pares(j: Jugada) -> Option<Pares> {
    let r = j.ranks();
    // Ranks are sorted high to low, so equal ranks are adjacent.
    let mut groups: Vec<(Rank, usize)> = Vec::with_capacity(4);
    for x in r {
        match groups.last_mut() {
            Some((rank, n)) if *rank == x => *n += 1,
            _ => groups.push((x, 1)),
        }
    }
    let mut multi: Vec<(Rank, usize)> = groups.into_iter().filter(|g| g.1 >= 2).collect();
    multi.sort_by(|a, b| b.1.cmp(&a.1).then(b.0.cmp(&a.0)));
    match multi.as_slice() {
        [] => None,
        [(rank, 4)] => Some(Pares {
            kind: ParesKind::Duples,
            high: *rank,
            low: *rank,
        }),
        [(rank, 3)] => Some(Pares {
            kind: ParesKind::Medias,
            high: *rank,
            low: *rank,
        }),
        [(a, 2), (b, 2)] => Some(Pares {
            kind: ParesKind::Duples,
            high: (*a).max(*b),
            low: (*a).min(*b),
        }),
        [(rank, _), ..] => Some(Pares {
            kind: ParesKind::Pares,
            high: *rank,
            low: *rank,
        }),
    }
}

/// Pares strength: 0 without pares, otherwise kind, then high, then low rank.
pub fn pares_strength(j: Jugada) -> u32 {
    match pares(j) {
        None => 0,
        Some(p) => ((p.kind as u32 + 1) << 8) | ((p.high as u32) << 4) | p.low as u32,
    }
}

/// True when the hand is 31 real: three sevens and a figure.
pub fn is_real31(j: Jugada) -> bool {
    j.count(Rank::Siete) == 3
        && j.ranks()
            .iter()
            .any(|r| matches!(r, Rank::Sota | Rank::Caballo | Rank::Rey))
}

/// True when the hand has juego (value ≥ 31).
pub fn has_juego(j: Jugada) -> bool {
    j.value() >= 31
}

/// Juego strength: 0 without juego; otherwise 31 (real above it when `real31`), 32, 40,
/// 37, 36, 35, 34, 33.
pub fn juego_strength(j: Jugada, real31: bool) -> u32 {
    match j.value() {
        31 if real31 && is_real31(j) => 10,
        31 => 9,
        32 => 8,
        40 => 7,
        37 => 6,
        36 => 5,
        35 => 4,
        34 => 3,
        33 => 2,
        _ => 0,
    }
}

/// Punto strength: the value itself (only meaningful below 31; 30 is best).
pub fn punto_strength(j: Jugada) -> u32 {
    j.value() as u32
}

/// Piedras of the juego cuenta for one player: 3 for 31, 2 for any other juego, 0 without.
pub fn juego_cuenta(j: Jugada) -> u8 {
    match j.value() {
        31 => 3,
        v if v > 31 => 2,
        _ => 0,
    }
}

/// Strength of a hand in a lance: higher is better; 0 means "does not take part"
/// in pares and juego.
pub fn strength(lance: Lance, j: Jugada, real31: bool) -> u32 {
    match lance {
        Lance::Grande => grande(j),
        Lance::Chica => chica(j),
        Lance::Pares => pares_strength(j),
        Lance::Juego => juego_strength(j, real31),
        Lance::Punto => punto_strength(j),
    }
}

/// The winning position among `hands` (mano first) for `lance`, ties to the lower position.
/// Only positions with `eligible[p]` take part; `None` when none does.
pub fn winner(
    lance: Lance,
    hands: &[Jugada; 4],
    eligible: [bool; 4],
    real31: bool,
) -> Option<usize> {
    let mut best: Option<(usize, u32)> = None;
    for (p, &j) in hands.iter().enumerate() {
        if !eligible[p] {
            continue;
        }
        let s = strength(lance, j, real31);
        if best.is_none_or(|(_, b)| s > b) {
            best = Some((p, s));
        }
    }
    best.map(|(p, _)| p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Mode;

    fn j(s: &str) -> Jugada {
        Jugada::parse(s, Mode::OchoReyes).unwrap()
    }

    #[test]
    fn juego_order_is_31_32_40_then_down() {
        let order = [
            "RS74", "RS75", "RRRR", "RRR7", "RRR6", "RRR5", "RRR4", "RS76",
        ];
        let values: Vec<u8> = order.iter().map(|s| j(s).value()).collect();
        assert_eq!(values, [31, 32, 40, 37, 36, 35, 34, 33]);
        let ranked: Vec<u32> = order.iter().map(|s| juego_strength(j(s), false)).collect();
        assert!(ranked.windows(2).all(|w| w[0] > w[1]), "{ranked:?}");
        assert!(ranked.iter().all(|&s| s > 0));
        assert_eq!(juego_strength(j("RRAA"), false), 0, "22 is no juego");
        assert_eq!(juego_strength(j("RS7A"), false), 0, "28 is no juego");
    }

    #[test]
    fn real31_beats_other_31_only_when_on() {
        let real = j("S777");
        let plain = j("RRAA");
        assert_eq!(real.value(), 31);
        assert_eq!(plain.value(), 22);
        let plain31 = j("RSA7 ".trim());
        assert_eq!(plain31.value(), 28);
        let other31 = j("RS74");
        assert_eq!(other31.value(), 31);
        assert!(juego_strength(real, true) > juego_strength(other31, true));
        assert_eq!(juego_strength(real, false), juego_strength(other31, false));
        assert!(is_real31(j("R777")) && is_real31(j("3777")) && !is_real31(j("7776")));
    }

    #[test]
    fn pares_kinds() {
        assert_eq!(pares(j("RCSA")), None);
        assert_eq!(pares(j("RRSA")).unwrap().kind, ParesKind::Pares);
        assert_eq!(pares(j("RRRA")).unwrap().kind, ParesKind::Medias);
        let d = pares(j("CCAA")).unwrap();
        assert_eq!(
            (d.kind, d.high, d.low),
            (ParesKind::Duples, Rank::Caballo, Rank::As)
        );
        let four = pares(j("7777")).unwrap();
        assert_eq!(
            (four.kind, four.high, four.low),
            (ParesKind::Duples, Rank::Siete, Rank::Siete)
        );
        // Four of a rank counts as two pairs of that rank: above 77AA, below RRAA.
        assert!(pares_strength(j("7777")) > pares_strength(j("77AA")));
        assert!(pares_strength(j("7777")) < pares_strength(j("RRAA")));
        assert!(pares_strength(j("SSAA")) > pares_strength(j("RRRA")));
        assert_eq!(pares_strength(j("RRCA")), pares_strength(j("RR7A")));
        assert_eq!(
            pares(j("RRCC")).unwrap().describe(),
            "duples de reyes y caballos"
        );
    }
}
