//! Who wins each lance for four known hands, and what the cuenta pays: the showdown.

use crate::rules::{self, Lance, Pares};
use crate::{Jugada, Mode};
use serde::Serialize;

/// The four hands of a deal resolved lance by lance (positions 0..3, mano first;
/// pair 0 is positions 0 and 2, pair 1 positions 1 and 3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Evaluation {
    /// The hands, mano first.
    pub hands: [Jugada; 4],
    /// Whether 31 real was in force.
    pub real31: bool,
    /// Winner of grande.
    pub grande: usize,
    /// Winner of chica.
    pub chica: usize,
    /// Winner of pares (`None`: nobody has pares).
    pub pares: Option<usize>,
    /// True when both pairs have pares, so the lance is bet.
    pub pares_bet: bool,
    /// Winner of juego (`None`: nobody has juego).
    pub juego: Option<usize>,
    /// True when both pairs have juego, so the lance is bet.
    pub juego_bet: bool,
    /// Winner of punto, played only when nobody has juego.
    pub punto: Option<usize>,
    /// Piedras each pair collects whatever is bet: pares and juego cuenta, or the punto.
    pub cuenta: [u8; 2],
    /// Piedras each pair collects when every lance goes en paso (cuenta plus 1 each for
    /// grande and chica).
    pub en_paso: [u8; 2],
}

impl Evaluation {
    /// Resolves four hands (mano first) with the 31 real option on or off.
    pub fn new(hands: [Jugada; 4], real31: bool) -> Evaluation {
        let all = [true; 4];
        let grande = rules::winner(Lance::Grande, &hands, all, real31).unwrap_or(0);
        let chica = rules::winner(Lance::Chica, &hands, all, real31).unwrap_or(0);
        let has_pares = hands.map(|j| rules::pares(j).is_some());
        let has_juego = hands.map(rules::has_juego);
        let pares = rules::winner(Lance::Pares, &hands, has_pares, real31);
        let juego = rules::winner(Lance::Juego, &hands, has_juego, real31);
        let punto = juego
            .is_none()
            .then(|| rules::winner(Lance::Punto, &hands, all, real31))
            .flatten();
        let both = |has: [bool; 4]| (has[0] || has[2]) && (has[1] || has[3]);
        let mut cuenta = [0u8; 2];
        if let Some(w) = pares {
            cuenta[w % 2] += pares_cuenta(&hands, w % 2);
        }
        if let Some(w) = juego {
            cuenta[w % 2] += juego_cuenta(&hands, w % 2);
        }
        if let Some(w) = punto {
            cuenta[w % 2] += 1;
        }
        let mut en_paso = cuenta;
        en_paso[grande % 2] += 1;
        en_paso[chica % 2] += 1;
        Evaluation {
            hands,
            real31,
            grande,
            chica,
            pares,
            pares_bet: both(has_pares),
            juego,
            juego_bet: both(has_juego),
            punto,
            cuenta,
            en_paso,
        }
    }

    /// The winning position of a lance, if it is played.
    pub fn winner(&self, lance: Lance) -> Option<usize> {
        match lance {
            Lance::Grande => Some(self.grande),
            Lance::Chica => Some(self.chica),
            Lance::Pares => self.pares,
            Lance::Juego => self.juego,
            Lance::Punto => self.punto,
        }
    }

    /// Why the winner of `lance` wins, in players' words ("duples de reyes y caballos").
    pub fn reason(&self, lance: Lance) -> String {
        let Some(w) = self.winner(lance) else {
            return match lance {
                Lance::Pares => "nobody has pares".into(),
                Lance::Juego => "nobody has juego: punto is played".into(),
                _ => "not played: somebody has juego".into(),
            };
        };
        let j = self.hands[w];
        let what = describe(lance, j);
        let strength = |h: Jugada| rules::strength(lance, h, self.real31);
        let ties: Vec<usize> = (0..4)
            .filter(|&p| p != w && strength(self.hands[p]) == strength(j))
            .collect();
        let mut s = if what == j.to_string() {
            what
        } else {
            format!("{j}: {what}")
        };
        if matches!(lance, Lance::Pares | Lance::Juego)
            && !(if lance == Lance::Pares {
                self.pares_bet
            } else {
                self.juego_bet
            })
        {
            s.push_str(", only one pair has it: not bet");
        }
        if !ties.is_empty() {
            let names: Vec<String> = ties.iter().map(|p| p.to_string()).collect();
            s.push_str(&format!(
                ", ties with position {} and is closer to mano",
                names.join(", ")
            ));
        }
        s
    }
}

/// Piedras of the pares cuenta for `pair`: 1, 2 or 3 for each of its players with pares.
pub fn pares_cuenta(hands: &[Jugada; 4], pair: usize) -> u8 {
    [pair, pair + 2]
        .iter()
        .filter_map(|&p| rules::pares(hands[p]))
        .map(|p| p.kind.cuenta())
        .sum()
}

/// Piedras of the juego cuenta for `pair`: 3 for each 31, 2 for each other juego.
pub fn juego_cuenta(hands: &[Jugada; 4], pair: usize) -> u8 {
    [pair, pair + 2]
        .iter()
        .map(|&p| rules::juego_cuenta(hands[p]))
        .sum()
}

/// A hand described for one lance: "31", "medias de reyes", "30 al punto", "RRCA".
pub fn describe(lance: Lance, j: Jugada) -> String {
    match lance {
        Lance::Grande | Lance::Chica => j.to_string(),
        Lance::Pares => rules::pares(j).map_or("no pares".into(), Pares::describe),
        Lance::Juego if rules::has_juego(j) => format!("juego de {}", j.value()),
        Lance::Juego => format!("no juego ({})", j.value()),
        Lance::Punto => format!("{} al punto", j.value()),
    }
}

/// Why four hands are not a possible deal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("these four hands are not a possible deal: they hold {count} {rank}, the deck has {max}")]
pub struct DealError {
    pub rank: &'static str,
    pub count: usize,
    pub max: u8,
}

/// Checks four hands fit in one deck (no rank held more often than the deck has it).
pub fn validate_deal(hands: &[Jugada; 4], mode: Mode) -> Result<(), DealError> {
    for &r in crate::Rank::in_mode(mode) {
        let count: usize = hands.iter().map(|h| h.count(r)).sum();
        if count > r.copies(mode) as usize {
            return Err(DealError {
                rank: r.plural(),
                count,
                max: r.copies(mode),
            });
        }
    }
    Ok(())
}
