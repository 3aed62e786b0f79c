//! A leyes question as people write it — a hand in jugada notation or as cards, maybe the
//! partner's, declarations like `next=yes,prev=no` — parsed and checked, so the command
//! line and the web calculator ask exactly the same question and get the same errors
//! (worded for both: `pares next=maybe`, never a command-line flag).

use crate::catalog::Catalog;
use crate::leyes::{Conditions, Declared, OddsError, Relation};
use crate::report::Leyes;
use tapete_cards::Card;
use tapete_mus::{Jugada, Mode};

/// Parses declarations like `next=yes,prev=no` for `lance` (`pares` or `juego`).
pub fn parse_declarations(lance: &str, s: &str) -> Result<[Declared; 3], String> {
    let mut out = [Declared::Unknown; 3];
    let mut seen = [false; 3];
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((who, what)) = part.split_once('=') else {
            return Err(format!(
                "{lance} `{part}`: write WHO=yes or WHO=no, e.g. next=yes,prev=no"
            ));
        };
        let who = who.trim().to_lowercase();
        let rel = Relation::parse(&who).ok_or_else(|| {
            format!("{lance} `{part}`: `{who}` is not a player; use next, prev or partner")
        })?;
        let decl = match what.trim().to_lowercase().as_str() {
            "yes" | "si" | "sí" => Declared::Yes,
            "no" => Declared::No,
            other => {
                return Err(format!(
                    "{lance} `{part}`: `{other}` is not a declaration; use yes or no \
                     (leave a player out if it has not declared)"
                ))
            }
        };
        let i = rel as usize;
        if seen[i] && out[i] != decl {
            return Err(format!("{lance}: {who} is declared both yes and no"));
        }
        seen[i] = true;
        out[i] = decl;
    }
    Ok(out)
}

/// The conditions of the `pares` and `juego` declarations heard.
pub fn conditions(pares: Option<&str>, juego: Option<&str>) -> Result<Conditions, String> {
    let mut c = Conditions::default();
    if let Some(s) = pares {
        c.pares = parse_declarations("pares", s)?;
    }
    if let Some(s) = juego {
        c.juego = parse_declarations("juego", s)?;
    }
    Ok(c)
}

/// The cards of a hand written as cards (empty for jugada notation).
fn cards_of(text: &str) -> Vec<Card> {
    if text.split_whitespace().count() < 2 {
        return Vec::new();
    }
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter_map(|c| c.parse::<Card>().ok())
        .collect()
}

/// Parses our hand and the partner's, checking they can be dealt together.
pub fn parse_hands(
    hand: &str,
    partner: Option<&str>,
    mode: Mode,
) -> Result<(Jugada, Option<Jugada>), String> {
    let ours = Jugada::parse(hand, mode).map_err(|e| format!("our hand: {e}"))?;
    let partner = match partner {
        None => None,
        Some(p) => {
            let j = Jugada::parse(p, mode).map_err(|e| format!("the partner's hand: {e}"))?;
            let mine = cards_of(hand);
            if let Some(c) = cards_of(p).into_iter().find(|c| mine.contains(c)) {
                return Err(format!("{c} is in our hand and in the partner's"));
            }
            Some(j)
        }
    };
    Ok((ours, partner))
}

/// Refuses declarations of a partner whose hand is known.
pub fn check_partner_conditions(partner_known: bool, cond: &Conditions) -> Result<(), String> {
    if partner_known {
        let i = Relation::Partner as usize;
        for (lance, d) in [("pares", cond.pares[i]), ("juego", cond.juego[i])] {
            if d != Declared::Unknown {
                return Err(format!(
                    "{lance} partner=…: the partner's hand is known, so there is no \
                     declaration of theirs to condition on"
                ));
            }
        }
    }
    Ok(())
}

/// One leyes question, as text fields.
#[derive(Clone, Debug, Default)]
pub struct Query<'a> {
    pub hand: &'a str,
    pub partner: Option<&'a str>,
    pub mode: Mode,
    pub real31: bool,
    pub pares: Option<&'a str>,
    pub juego: Option<&'a str>,
    /// Own position 0 (mano) to 3 (postre); `None` for all four.
    pub position: Option<usize>,
}

impl Query<'_> {
    /// Parses, checks and computes the exact leyes.
    pub fn run(&self) -> Result<Leyes, String> {
        let cond = conditions(self.pares, self.juego)?;
        let (hand, partner) = parse_hands(self.hand, self.partner, self.mode)?;
        check_partner_conditions(partner.is_some(), &cond)?;
        if let Some(p) = self.position {
            if p > 3 {
                return Err(format!(
                    "`{p}` is not a position: use 0 (mano), 1, 2, 3 (postre) or all"
                ));
            }
        }
        let cat = Catalog::new(self.mode, self.real31);
        let leyes =
            Leyes::compute(&cat, hand, partner, &cond).map_err(|e: OddsError| e.to_string())?;
        Ok(match self.position {
            Some(p) => leyes.only_position(p),
            None => leyes,
        })
    }
}
