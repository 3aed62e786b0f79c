//! `umbral`: a family of threshold players with their own logic, independent of experto's
//! reading and of [`crate::policy`]: a wider population to test the other levels against,
//! and plain opponents for people ("tight" and "loose" players).
//!
//! Every decision compares one number, `p`, with a threshold. `p` is the chance that its pair
//! wins the lance being played, from the exact leyes of its own four cards at its position,
//! partner unknown, nothing else read ([`crate::leyes_cache::base`], [`Odds::lance`]):
//!
//! - no bet on the table: throw an órdago when `p ≥ throw`, open an envite of `bet` piedras
//!   when `p ≥ open`, else pass;
//! - a rival's órdago: accept it when `p ≥ ordago`, else let it go;
//! - a rival's envite: órdago when `p ≥ throw`, raise `bet` more when `p ≥ raise`, see it when
//!   `p ≥ call`, else let it go;
//! - mus: cut always, never, or when the mean `p` of its four lances (grande, chica, pares,
//!   juego or punto) is at least `cut`;
//! - discard (its own rule): keep reyes and ases (grande, chica) and every card of a rank it
//!   holds twice or more (pares); when that keeps all four, throw one card, the lowest that
//!   is not a rey
//!   (aiming for juego). Declarations and señas: the first legal answer (they are truthful).
//!
//! Parameters by name ([`umbral_params`]): `umbral` (the defaults), `umbral:tight`,
//! `umbral:loose`, `umbral:seed=N` (every threshold drawn from its range by a seeded RNG:
//! a reproducible random member of the family), and `key=value` overrides, e.g.
//! `umbral:ordago=0.8,call=0.6,cut=always`. It uses no randomness while playing: the same
//! view gives the same action. In a population, `umbral:K` is a sample of K members,
//! `umbral:seed=1` to `umbral:seed=K` ([`sample`]).

use crate::leyes_cache::{base, lance_chance, Odds};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tapete_cards::CardSet;
use tapete_mus::rules::{self, Lance};
use tapete_mus::view::Phase;
use tapete_mus::{Action, Jugada, MusGame, MusView, Rank};
use tapete_table::Bot;

/// When to cut the mus.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cut {
    /// Always say "no hay mus".
    Always,
    /// Always ask for mus.
    Never,
    /// Cut when the hand's mean chance over its four lances is at least this.
    Mean(f64),
}

/// One member of the family: its thresholds (chances of winning the lance, 0–1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Umbral {
    /// Open an envite when p ≥ `open` ([`RANGES`]: 0.40–0.90, default 0.60).
    pub open: f64,
    /// See a rival's envite when p ≥ `call` (0.30–0.90, default 0.55).
    pub call: f64,
    /// Raise a rival's envite when p ≥ `raise` (0.50–0.95, default 0.75).
    pub raise: f64,
    /// Throw an órdago when p ≥ `throw` (0.70–1.00, default 0.90).
    pub throw: f64,
    /// Accept a rival's órdago when p ≥ `ordago` (0.50–0.95, default 0.70).
    pub ordago: f64,
    /// Mus: `always`, `never` or a mean chance 0.30–0.80 (default 0.55).
    pub cut: Cut,
    /// Piedras of an envite or a raise (2–10, default 2).
    pub bet: u8,
}

/// The documented range of each numeric threshold: (key, low, high).
pub const RANGES: &[(&str, f64, f64)] = &[
    ("open", 0.40, 0.90),
    ("call", 0.30, 0.90),
    ("raise", 0.50, 0.95),
    ("throw", 0.70, 1.00),
    ("ordago", 0.50, 0.95),
    ("cut", 0.30, 0.80),
    ("bet", 2.0, 10.0),
];

impl Default for Umbral {
    fn default() -> Self {
        Umbral {
            open: 0.60,
            call: 0.55,
            raise: 0.75,
            throw: 0.90,
            ordago: 0.70,
            cut: Cut::Mean(0.55),
            bet: 2,
        }
    }
}

impl Umbral {
    /// `umbral:tight`: accepts an órdago only at p ≥ 0.8, always cuts the mus, sees and
    /// opens envites rarely.
    pub fn tight() -> Umbral {
        Umbral {
            open: 0.70,
            call: 0.70,
            raise: 0.85,
            throw: 0.95,
            ordago: 0.80,
            cut: Cut::Always,
            bet: 2,
        }
    }

    /// `umbral:loose`: opens, sees and accepts órdagos with middling hands, bets bigger and
    /// asks for mus often.
    pub fn loose() -> Umbral {
        Umbral {
            open: 0.45,
            call: 0.40,
            raise: 0.60,
            throw: 0.80,
            ordago: 0.55,
            cut: Cut::Mean(0.70),
            bet: 5,
        }
    }

    /// A reproducible random member: every threshold drawn uniformly from its range.
    pub fn seeded(seed: u64) -> Umbral {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut draw = |key: &str| {
            let (_, lo, hi) = RANGES
                .iter()
                .find(|r| r.0 == key)
                .copied()
                .unwrap_or((key, 0.5, 0.5));
            rng.gen_range(lo..=hi)
        };
        Umbral {
            open: draw("open"),
            call: draw("call"),
            raise: draw("raise"),
            throw: draw("throw"),
            ordago: draw("ordago"),
            cut: Cut::Mean(draw("cut")),
            bet: draw("bet").round() as u8,
        }
    }

    /// The leyes of its own hand at its position, or `None` without four cards.
    fn odds(view: &MusView) -> Option<(Odds, Jugada)> {
        let four: [tapete_cards::Card; 4] = view.cards.as_slice().try_into().ok()?;
        let j = Jugada::from_cards(&four, view.rules.mode);
        let pos = view.position?;
        Some((base(view.rules.mode, view.rules.real31, j)[pos.min(3)], j))
    }

    /// The chance its pair wins `lance` with the hand it holds in `view` (what every
    /// betting decision compares with a threshold; [`crate::leyes_cache::lance_chance`]).
    pub fn p(view: &MusView, lance: Lance) -> Option<f64> {
        let rules = &view.rules;
        lance_chance(&view.cards, view.position?, lance, rules.mode, rules.real31)
    }

    fn bet_action(&self, view: &MusView, lance: Lance, legal: &[Action]) -> Action {
        let Some(p) = Self::p(view, lance) else {
            return crate::basico::choose(legal, Action::Paso);
        };
        let want = match view.bet {
            None => {
                if p >= self.throw {
                    Action::Ordago
                } else if p >= self.open {
                    Action::Envido(self.bet)
                } else {
                    Action::Paso
                }
            }
            Some(bet) if bet.ordago => {
                if p >= self.ordago {
                    Action::Quiero
                } else {
                    Action::NoQuiero
                }
            }
            Some(_) => {
                if p >= self.throw {
                    Action::Ordago
                } else if p >= self.raise {
                    Action::Reenvido(self.bet)
                } else if p >= self.call {
                    Action::Quiero
                } else {
                    Action::NoQuiero
                }
            }
        };
        // A raise it may not make (its partner's bet, no room) falls back to seeing it.
        if matches!(want, Action::Ordago) && !legal.contains(&want) {
            let fallback = if view.bet.is_some() {
                Action::Quiero
            } else {
                Action::Envido(self.bet)
            };
            return crate::basico::choose(legal, fallback);
        }
        crate::basico::choose(legal, want)
    }

    fn mus_action(&self, view: &MusView, legal: &[Action]) -> Action {
        let cut = match self.cut {
            Cut::Always => true,
            Cut::Never => false,
            Cut::Mean(x) => match Self::odds(view) {
                Some((o, j)) => {
                    let last = if rules::has_juego(j) {
                        Lance::Juego
                    } else {
                        Lance::Punto
                    };
                    let lances = [Lance::Grande, Lance::Chica, Lance::Pares, last];
                    lances.iter().map(|&l| o.lance(l)).sum::<f64>() / 4.0 >= x
                }
                None => true,
            },
        };
        crate::basico::choose(legal, if cut { Action::NoHayMus } else { Action::Mus })
    }

    /// Its discard rule (see the module's documentation).
    pub fn discard(view: &MusView) -> CardSet {
        let mode = view.rules.mode;
        let ranks: Vec<Rank> = view.cards.iter().map(|&c| Rank::of(c, mode)).collect();
        let count = |r: Rank| ranks.iter().filter(|&&x| x == r).count();
        let mut throw = CardSet::default();
        for (&c, &r) in view.cards.iter().zip(&ranks) {
            if !(r == Rank::Rey || r == Rank::As || count(r) >= 2) {
                throw.insert(c);
            }
        }
        if throw.is_empty() {
            if let Some(&c) = view
                .cards
                .iter()
                .filter(|&&c| Rank::of(c, mode) != Rank::Rey)
                .min_by_key(|&&c| (count(Rank::of(c, mode)), Rank::of(c, mode)))
                .or(view.cards.first())
            {
                throw.insert(c);
            }
        }
        throw
    }
}

impl Bot<MusGame> for Umbral {
    fn act(&mut self, view: &MusView, legal: &[Action], _rng: &mut ChaCha8Rng) -> Action {
        let first = || legal.first().cloned().unwrap_or(Action::Paso);
        match view.phase {
            Phase::Mus => self.mus_action(view, legal),
            Phase::Discard => {
                let want = Action::Descarto(Self::discard(view));
                if legal.contains(&want) {
                    want
                } else {
                    legal
                        .iter()
                        .find(|a| matches!(a, Action::Descarto(_)))
                        .cloned()
                        .unwrap_or_else(first)
                }
            }
            Phase::Bet { lance } => self.bet_action(view, lance, legal),
            _ => first(),
        }
    }
}

/// Most members one sample (`umbral:K`) may name.
pub const MAX_SAMPLE: u64 = 1000;

/// The members a sample name stands for: `umbral:K` is `umbral:seed=1` … `umbral:seed=K`
/// (K from 1 to [`MAX_SAMPLE`]); `None` for any other name.
pub fn sample(name: &str) -> Result<Option<Vec<String>>, String> {
    let Some((level, k)) = name.trim().split_once(':') else {
        return Ok(None);
    };
    let k = k.trim();
    if !level.trim().eq_ignore_ascii_case("umbral")
        || k.is_empty()
        || !k.chars().all(|c| c.is_ascii_digit())
    {
        return Ok(None);
    }
    match k.parse::<u64>() {
        Ok(n) if (1..=MAX_SAMPLE).contains(&n) => {
            Ok(Some((1..=n).map(|i| format!("umbral:seed={i}")).collect()))
        }
        _ => Err(format!(
            "umbral:{k}: a sample is from 1 to {MAX_SAMPLE} members (umbral:seed=N names one)"
        )),
    }
}

/// Parses umbral's parameters, comma-separated: a preset (`tight`, `loose`), `seed=N` (a
/// random member, N any whole number) and overrides `open=`, `call=`, `raise=`, `throw=`,
/// `ordago=` (chances within [`RANGES`]), `cut=always|never|X`, `bet=N`, applied in order.
/// Empty gives the defaults.
pub fn umbral_params(params: &str) -> Result<Umbral, String> {
    let mut u = Umbral::default();
    for part in params.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part {
            "tight" => u = Umbral::tight(),
            "loose" => u = Umbral::loose(),
            _ => {
                let Some((key, value)) = part.split_once('=') else {
                    return Err(format!(
                        "umbral:{part}: not a parameter; use tight, loose, seed=N or KEY=VALUE with KEY one of open, call, raise, throw, ordago, cut, bet"
                    ));
                };
                let (key, value) = (key.trim(), value.trim());
                if key == "seed" {
                    let n = value.parse::<u64>().map_err(|_| {
                        format!(
                            "umbral:seed={value}: the seed is a whole number from 0 to {}",
                            u64::MAX
                        )
                    })?;
                    u = Umbral::seeded(n);
                    continue;
                }
                if key == "cut" && (value == "always" || value == "never") {
                    u.cut = if value == "always" {
                        Cut::Always
                    } else {
                        Cut::Never
                    };
                    continue;
                }
                let Some(&(_, lo, hi)) = RANGES.iter().find(|r| r.0 == key) else {
                    return Err(format!(
                        "umbral:{key}: no such parameter; use open, call, raise, throw, ordago, cut, bet or seed"
                    ));
                };
                let x = value.parse::<f64>().ok().filter(|x| (lo..=hi).contains(x));
                let Some(x) = x else {
                    let also = if key == "cut" {
                        " (or always, never)"
                    } else {
                        ""
                    };
                    return Err(format!(
                        "umbral:{key}={value}: {key} is a number from {lo} to {hi}{also}"
                    ));
                };
                match key {
                    "open" => u.open = x,
                    "call" => u.call = x,
                    "raise" => u.raise = x,
                    "throw" => u.throw = x,
                    "ordago" => u.ordago = x,
                    "cut" => u.cut = Cut::Mean(x),
                    _ => {
                        if x.fract() != 0.0 {
                            return Err(format!(
                                "umbral:bet={value}: bet is a whole number of piedras from 2 to 10"
                            ));
                        }
                        u.bet = x as u8;
                    }
                }
            }
        }
    }
    Ok(u)
}
