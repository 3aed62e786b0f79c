//! Table options: the choices players agree before sitting down.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// How many reyes the deck has: in 8 reyes every 3 plays as a rey and every 2 as an as.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Mode {
    /// 3s are reyes and 2s are ases (pitos): 8 of each, 330 jugadas.
    #[default]
    #[serde(rename = "8reyes")]
    OchoReyes,
    /// 3s and 2s keep their own rank: 715 jugadas.
    #[serde(rename = "4reyes")]
    CuatroReyes,
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mode::OchoReyes => "8reyes",
            Mode::CuatroReyes => "4reyes",
        })
    }
}

impl FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Mode, String> {
        match s
            .trim()
            .to_ascii_lowercase()
            .replace([' ', '-', '_'], "")
            .as_str()
        {
            "8reyes" | "8" | "ocho" | "ochoreyes" => Ok(Mode::OchoReyes),
            "4reyes" | "4" | "cuatro" | "cuatroreyes" => Ok(Mode::CuatroReyes),
            _ => Err(format!("`{s}` is not a mode: use 8reyes or 4reyes")),
        }
    }
}

/// Everything that can differ between two Mus tables.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MusRules {
    /// 8 reyes (default) or 4 reyes.
    pub mode: Mode,
    /// 31 real: 7-7-7 with a figure beats every other 31.
    pub real31: bool,
    /// Piedras needed to win a game: 40 (default) or 30.
    pub target: u8,
    /// Games per vaca (best of N): 1, 3 (default) or 5.
    pub juegos: u8,
    /// Vacas per match (best of M): 1 (default), 3 or 5.
    pub vacas: u8,
    /// Punto y miedo: at punto, a first bet declined pays 2 piedras instead of 1.
    pub punto_y_miedo: bool,
    /// Señas: partners may pass one standard signal each hand (not in the first game,
    /// which is mus corrido).
    pub senas: bool,
    /// Duplicate boards: 0 (the default) plays juegos and vacas; 1 to [`MAX_BOARDS`] plays
    /// that many **boards** instead — each one hand from 0–0 dealt from its own seed
    /// ([`crate::board_seed`]), scored by the net piedras it gave — and the pair with more
    /// net piedras over the boards wins (equal is a draw). Tables given the same seed play
    /// the same boards: what duplicate tournaments are made of.
    pub boards: u8,
    /// Juegos given before the first hand, in order, each to the pair named (0: seats 0
    /// and 2; 1: seats 1 and 3): what a pair that does not come to a tournament's match
    /// loses juego by juego, one each courtesy time. They count as won (a vaca they
    /// complete is won) but may not decide the match, which is then lost outright. Not
    /// with boards, which have no juegos.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub juegos_given: Vec<u8>,
}

/// Most boards a table may play.
pub const MAX_BOARDS: u8 = 32;

impl Default for MusRules {
    fn default() -> Self {
        MusRules {
            mode: Mode::OchoReyes,
            real31: false,
            target: 40,
            juegos: 3,
            vacas: 1,
            punto_y_miedo: true,
            senas: false,
            boards: 0,
            juegos_given: Vec::new(),
        }
    }
}

impl MusRules {
    /// Checks the options are ones the rules allow.
    pub fn validate(&self) -> Result<(), String> {
        if !matches!(self.target, 30 | 40) {
            return Err(format!(
                "target {} is not allowed: use 30 or 40",
                self.target
            ));
        }
        if !matches!(self.juegos, 1 | 3 | 5) {
            return Err(format!("{} juegos per vaca: use 1, 3 or 5", self.juegos));
        }
        if !matches!(self.vacas, 1 | 3 | 5) {
            return Err(format!("{} vacas per match: use 1, 3 or 5", self.vacas));
        }
        if self.boards > MAX_BOARDS {
            return Err(format!(
                "{} boards: play 0 (juegos and vacas) or 1 to {MAX_BOARDS}",
                self.boards
            ));
        }
        if self.boards > 0 && self.senas {
            return Err(
                "señas are not passed on boards: every board is the first hand of a juego, \
                 which is mus corrido; turn señas off"
                    .into(),
            );
        }
        if self.given_win_match()? {
            return Err(format!(
                "the {} juegos given would win the match: a match so lost is not played",
                self.juegos_given.len()
            ));
        }
        Ok(())
    }

    /// Whether the juegos given win the match (an error when they cannot be given).
    fn given_win_match(&self) -> Result<bool, String> {
        if self.juegos_given.is_empty() {
            return Ok(false);
        }
        if self.boards > 0 {
            return Err(
                "boards have no juegos to give: juegos_given is for a match of juegos \
                 (boards 0)"
                    .into(),
            );
        }
        let mut scores = crate::Scores::default();
        for (i, &pair) in self.juegos_given.iter().enumerate() {
            if pair > 1 {
                return Err(format!(
                    "juegos_given names pair {pair}: the pairs are 0 (seats 0 and 2) and 1 \
                     (seats 1 and 3)"
                ));
            }
            if scores.count_juego(usize::from(pair), self).1 {
                // A juego given after the match was won is one too many.
                if i + 1 < self.juegos_given.len() {
                    return Err(format!(
                        "juegos_given goes on after its juego {} won the match",
                        i + 1
                    ));
                }
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// These options with one more juego given to `pair` (0: seats 0 and 2): a
    /// tournament's courtesy time the other pair did not come to. `None` when that juego
    /// would win the match.
    pub fn with_juego_given(&self, pair: u8) -> Result<Option<MusRules>, String> {
        let mut more = self.clone();
        more.juegos_given.push(pair);
        Ok((!more.given_win_match()?).then_some(more))
    }

    /// Games a pair must win to take a vaca.
    pub fn games_to_win_vaca(&self) -> u8 {
        self.juegos / 2 + 1
    }

    /// Vacas a pair must win to take the match.
    pub fn vacas_to_win_match(&self) -> u8 {
        self.vacas / 2 + 1
    }
}
