//! Señas: the standard signals partners pass each other about their hands.
//!
//! With the table's `senas` option on, after the mus is cut every player may pass one seña
//! (or none) to the partner; it reaches the partner only, never the opponents or the public
//! log. The first game of a match is *mus corrido*: no señas. A seña is a true statement
//! about the hand (tapete offers only the señas the hand allows).

use crate::rules::{self, ParesKind};
use crate::{Jugada, Rank};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A standard seña.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sena {
    /// No seña.
    Ninguna,
    /// Two reyes (biting the lower lip).
    DosReyes,
    /// Three or more reyes (biting the lip to one side).
    TresReyes,
    /// Two pitos (the tip of the tongue).
    DosPitos,
    /// Three or more pitos (the tongue to one side).
    TresPitos,
    /// Medias (the mouth to one side).
    Medias,
    /// Duples (raising the eyebrows).
    Duples,
    /// 31 (a wink).
    TreintaYUna,
    /// Nothing: neither pares nor juego (puffing the cheeks).
    Ciego,
}

impl Sena {
    /// Every seña, "ninguna" first.
    pub const ALL: [Sena; 9] = [
        Sena::Ninguna,
        Sena::DosReyes,
        Sena::TresReyes,
        Sena::DosPitos,
        Sena::TresPitos,
        Sena::Medias,
        Sena::Duples,
        Sena::TreintaYUna,
        Sena::Ciego,
    ];

    /// True when `j` allows this seña.
    pub fn holds(self, j: Jugada) -> bool {
        let kind = rules::pares(j).map(|p| p.kind);
        match self {
            Sena::Ninguna => true,
            Sena::DosReyes => j.count(Rank::Rey) == 2,
            Sena::TresReyes => j.count(Rank::Rey) >= 3,
            Sena::DosPitos => j.count(Rank::As) == 2,
            Sena::TresPitos => j.count(Rank::As) >= 3,
            Sena::Medias => kind == Some(ParesKind::Medias),
            Sena::Duples => kind == Some(ParesKind::Duples),
            Sena::TreintaYUna => j.value() == 31,
            Sena::Ciego => kind.is_none() && !rules::has_juego(j),
        }
    }

    /// The señas a hand allows, "ninguna" first.
    pub fn available(j: Jugada) -> Vec<Sena> {
        Sena::ALL.into_iter().filter(|s| s.holds(j)).collect()
    }

    /// The words players use: "dos reyes", "31", "ninguna"…
    pub fn words(self) -> &'static str {
        match self {
            Sena::Ninguna => "ninguna",
            Sena::DosReyes => "dos reyes",
            Sena::TresReyes => "tres reyes",
            Sena::DosPitos => "dos pitos",
            Sena::TresPitos => "tres pitos",
            Sena::Medias => "medias",
            Sena::Duples => "duples",
            Sena::TreintaYUna => "31",
            Sena::Ciego => "ciego",
        }
    }
}

impl fmt::Display for Sena {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.words())
    }
}

impl FromStr for Sena {
    type Err = String;
    fn from_str(s: &str) -> Result<Sena, String> {
        let t = s.trim().to_lowercase();
        let t = t.as_str();
        Sena::ALL
            .into_iter()
            .find(|x| x.words() == t || (t == "treinta y una" && *x == Sena::TreintaYUna))
            .ok_or_else(|| {
                let names: Vec<&str> = Sena::ALL.iter().map(|x| x.words()).collect();
                format!("`{s}` is not a seña: {}", names.join(", "))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Mode;

    fn j(s: &str) -> Jugada {
        Jugada::parse(s, Mode::OchoReyes).unwrap()
    }

    #[test]
    fn senas_tell_the_truth() {
        assert_eq!(
            Sena::available(j("RR75")),
            vec![Sena::Ninguna, Sena::DosReyes]
        );
        assert!(Sena::available(j("RRCA")).contains(&Sena::TreintaYUna));
        assert!(Sena::available(j("RRRA")).contains(&Sena::TresReyes));
        assert!(Sena::available(j("RRAA")).contains(&Sena::Duples));
        assert!(Sena::available(j("RS74")).contains(&Sena::TreintaYUna));
        assert!(Sena::available(j("C654")).contains(&Sena::Ciego));
        assert!(!Sena::available(j("RRAA")).contains(&Sena::Ciego));
        for s in Sena::ALL {
            assert_eq!(s.to_string().parse::<Sena>(), Ok(s));
        }
        assert!("guiño".parse::<Sena>().is_err());
    }
}
