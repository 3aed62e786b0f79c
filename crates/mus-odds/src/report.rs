//! Leyes as players read them: probabilities per own position, per lance, per unknown
//! player, and expected piedras en paso, from the exact counts of [`crate::leyes`].

use crate::catalog::Catalog;
use crate::leyes::{exact, Conditions, Exact, OddsError, PositionCounts, Relation};
use num_integer::Integer;
use tapete_mus::{Jugada, Mode};

/// An exact probability or expectation: `num / den`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ratio {
    pub num: u128,
    pub den: u128,
}

impl Ratio {
    /// As a float, for printing and JSON.
    pub fn value(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// As a reduced fraction, e.g. "3/7".
    pub fn fraction(self) -> String {
        let g = self.num.gcd(&self.den).max(1);
        format!("{}/{}", self.num / g, self.den / g)
    }
}

/// Win / lose / void of pares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pares {
    pub win: Ratio,
    pub lose: Ratio,
    pub void: Ratio,
}

/// Win / lose (juego, or punto).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WinLose {
    pub win: Ratio,
    pub lose: Ratio,
}

/// One unknown player's chances of holding pares and juego.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Player {
    pub relation: Relation,
    pub pares: Ratio,
    pub juego: Ratio,
}

/// Expected piedras en paso per lance for one pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Piedras {
    pub grande: Ratio,
    pub chica: Ratio,
    pub pares: Ratio,
    pub juego: Ratio,
    pub punto: Ratio,
}

impl Piedras {
    fn new(v: [u128; 5], den: u128) -> Piedras {
        let r = |num| Ratio { num, den };
        Piedras {
            grande: r(v[0]),
            chica: r(v[1]),
            pares: r(v[2]),
            juego: r(v[3]),
            punto: r(v[4]),
        }
    }

    /// Sum over the lances.
    pub fn total(&self) -> f64 {
        [self.grande, self.chica, self.pares, self.juego, self.punto]
            .iter()
            .map(|r| r.value())
            .sum()
    }
}

/// The leyes of one own position.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionLeyes {
    pub position: usize,
    pub grande: Ratio,
    pub chica: Ratio,
    pub pares: Pares,
    pub juego: WinLose,
    pub punto: WinLose,
    pub players: Vec<Player>,
    pub us: Piedras,
    pub them: Piedras,
}

/// Everything `tapete mus leyes` shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Leyes {
    pub mode: Mode,
    pub real31: bool,
    pub hand: Jugada,
    pub partner: Option<Jugada>,
    pub conditions: Conditions,
    pub positions: Vec<PositionLeyes>,
}

impl Leyes {
    /// Computes the leyes of `hand` (and the partner's hand, if known) under `cond`.
    pub fn compute(
        cat: &Catalog,
        hand: Jugada,
        partner: Option<Jugada>,
        cond: &Conditions,
    ) -> Result<Leyes, OddsError> {
        let e = exact(cat, hand, partner, cond)?;
        Ok(Leyes::from_exact(cat, hand, partner, cond, &e))
    }

    fn from_exact(
        cat: &Catalog,
        hand: Jugada,
        partner: Option<Jugada>,
        cond: &Conditions,
        e: &Exact,
    ) -> Leyes {
        let den = e.total;
        let r = |num| Ratio { num, den };
        let players: Vec<Player> = Relation::ALL
            .iter()
            .zip(e.players)
            .filter_map(|(&relation, p)| {
                p.map(|(pares, juego)| Player {
                    relation,
                    pares: r(pares),
                    juego: r(juego),
                })
            })
            .collect();
        let positions = e
            .positions
            .iter()
            .map(|c: &PositionCounts| PositionLeyes {
                position: c.position,
                grande: r(c.grande),
                chica: r(c.chica),
                pares: Pares {
                    win: r(c.pares_win),
                    lose: r(c.pares_lose),
                    void: r(c.pares_void),
                },
                juego: WinLose {
                    win: r(c.juego_win),
                    lose: r(c.juego_lose),
                },
                punto: WinLose {
                    win: r(c.punto_win),
                    lose: r(c.punto_lose),
                },
                players: players.clone(),
                us: Piedras::new(c.piedras_us, den),
                them: Piedras::new(c.piedras_them, den),
            })
            .collect();
        Leyes {
            mode: cat.mode,
            real31: cat.real31,
            hand,
            partner,
            conditions: *cond,
            positions,
        }
    }

    /// Keeps only the given own position.
    pub fn only_position(mut self, position: usize) -> Leyes {
        self.positions.retain(|p| p.position == position);
        self
    }

    /// The JSON form: probabilities as floats; with `exact`, each position also carries an
    /// `exact` object of the same shape with reduced fractions.
    pub fn to_json(&self, exact: bool) -> serde_json::Value {
        let positions: Vec<serde_json::Value> = self
            .positions
            .iter()
            .map(|p| {
                let mut v = position_json(p, &|r: Ratio| serde_json::json!(r.value()));
                if exact {
                    v["exact"] = position_json(p, &|r: Ratio| serde_json::json!(r.fraction()));
                }
                v
            })
            .collect();
        serde_json::json!({
            "mode": self.mode.to_string(),
            "real31": self.real31,
            "hand": self.hand.to_string(),
            "partner": self.partner.map(|p| p.to_string()),
            "conditions": self.conditions,
            "positions": positions,
        })
    }
}

fn position_json(p: &PositionLeyes, f: &dyn Fn(Ratio) -> serde_json::Value) -> serde_json::Value {
    let piedras = |x: &Piedras| {
        serde_json::json!({
            "grande": f(x.grande), "chica": f(x.chica), "pares": f(x.pares),
            "juego": f(x.juego), "punto": f(x.punto),
        })
    };
    let players: Vec<serde_json::Value> = p
        .players
        .iter()
        .map(|pl| serde_json::json!({"relation": pl.relation, "pares": f(pl.pares), "juego": f(pl.juego)}))
        .collect();
    serde_json::json!({
        "position": p.position,
        "grande": f(p.grande),
        "chica": f(p.chica),
        "pares": {"win": f(p.pares.win), "lose": f(p.pares.lose), "void": f(p.pares.void)},
        "juego": {"win": f(p.juego.win), "lose": f(p.juego.lose)},
        "punto": {"win": f(p.punto.win), "lose": f(p.punto.lose)},
        "players": players,
        "piedras": {"us": piedras(&p.us), "them": piedras(&p.them)},
    })
}

/// The leyes of every jugada of a mode with one known hand (the `--all-hands` table),
/// computed in parallel; `progress` is called once per finished hand.
pub fn all_hands(
    cat: &Catalog,
    cond: &Conditions,
    progress: &(dyn Fn() + Sync),
) -> Vec<Result<Leyes, OddsError>> {
    use rayon::prelude::*;
    cat.entries
        .par_iter()
        .map(|e| {
            let r = Leyes::compute(cat, e.jugada, None, cond);
            progress();
            r
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probabilities_sum_to_one_exactly() {
        let cat = Catalog::new(Mode::OchoReyes, false);
        let h = Jugada::parse("RRCA", Mode::OchoReyes).unwrap();
        for partner in [None, Some(Jugada::parse("RC7A", Mode::OchoReyes).unwrap())] {
            let e = exact(&cat, h, partner, &Conditions::default()).unwrap();
            for p in &e.positions {
                assert_eq!(p.pares_win + p.pares_lose + p.pares_void, e.total);
                assert_eq!(
                    p.juego_win + p.juego_lose + p.punto_win + p.punto_lose,
                    e.total
                );
                assert_eq!(p.piedras_us[0] + p.piedras_them[0], e.total);
                assert!(p.grande <= e.total && p.chica <= e.total);
            }
        }
        let r = Ratio { num: 6, den: 14 };
        assert_eq!(r.fraction(), "3/7");
    }

    #[test]
    fn being_mano_never_hurts() {
        let cat = Catalog::new(Mode::OchoReyes, false);
        let h = Jugada::parse("RRCA", Mode::OchoReyes).unwrap();
        let l = Leyes::compute(&cat, h, None, &Conditions::default()).unwrap();
        let mano = &l.positions[0];
        for p in &l.positions[1..] {
            assert!(mano.grande.value() >= p.grande.value());
        }
        // Pair positions 0 and 2 share the tie advantage over 1 and 3 at grande when our
        // pair holds the best hand, so position 0 beats position 3 strictly here.
        assert!(mano.grande.value() > l.positions[3].grande.value());
    }
}
