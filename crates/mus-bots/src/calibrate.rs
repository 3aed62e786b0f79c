//! The calibration harness: how well a reading of the rivals' bets matches the lances
//! those hands actually won. Games are played with every hand known to the harness (never
//! to the players); each time a seat must answer a bet, it notes the seat's chance at the
//! lance before the bet (leyes, declarations, partner's seña), the chance after reading the
//! betting as experto does, and whether its pair's hands win the lance. Grouped by lance
//! and kind of bet, the gap between the readings and the wins is what a bot author tunes
//! (experto's γ, the shrink of a chance after a rival's bet, was fitted this way).

use crate::policy::{Ctx, Style};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use tapete_cards::rng_from_seed;
use tapete_mus::eval::Evaluation;
use tapete_mus::events::Event;
use tapete_mus::view::Phase;
use tapete_mus::{Action, Jugada, Lance, MusGame, MusRules};
use tapete_table::{Bot, Game, Seat};

/// What kind of bet stands when a seat answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BetKind {
    /// An opening envido of 2 piedras.
    Envido2,
    /// An opening envido of more than 2.
    EnvidoBig,
    /// A raise (reenvido).
    Raise,
    /// An órdago.
    Ordago,
}

impl BetKind {
    /// Its name in the players' words.
    pub fn name(self) -> &'static str {
        match self {
            BetKind::Envido2 => "envido 2",
            BetKind::EnvidoBig => "envido 3+",
            BetKind::Raise => "reenvido",
            BetKind::Ordago => "órdago",
        }
    }
}

/// One answer to a bet, with the truth the harness knows.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sample {
    /// The lance bet.
    pub lance: Lance,
    /// The bet standing.
    pub kind: BetKind,
    /// The answering seat's chance at the lance before the bet.
    pub prior: f64,
    /// Its chance after reading the betting (experto's reading).
    pub read: f64,
    /// Whether its pair's hands win the lance.
    pub won: bool,
}

/// The last bet of `lance` in `log`, as a kind.
fn standing(log: &[Event], lance: Lance) -> Option<BetKind> {
    let start = log
        .iter()
        .rposition(|e| matches!(e, Event::LanceStarted { lance: l } if *l == lance))
        .map_or(0, |i| i + 1);
    log[start..].iter().rev().find_map(|e| match e {
        Event::Said { action, .. } => match action {
            Action::Envido(2) => Some(BetKind::Envido2),
            Action::Envido(_) => Some(BetKind::EnvidoBig),
            Action::Reenvido(_) => Some(BetKind::Raise),
            Action::Ordago => Some(BetKind::Ordago),
            _ => None,
        },
        _ => None,
    })
}

/// Whether `seat`'s pair wins `lance` with the hands as dealt now.
fn wins(g: &MusGame, seat: Seat, lance: Lance) -> Option<bool> {
    let mode = g.rules().mode;
    let mut hands = Vec::with_capacity(4);
    for pos in 0..4 {
        let cards: [_; 4] = g.cards_of(g.seat_at(pos)).to_vec().try_into().ok()?;
        hands.push(Jugada::from_cards(&cards, mode));
    }
    let hands: [Jugada; 4] = hands.try_into().ok()?;
    let e = Evaluation::new(hands, g.rules().real31);
    let pos = match lance {
        Lance::Grande => Some(e.grande),
        Lance::Chica => Some(e.chica),
        Lance::Pares => e.pares,
        Lance::Juego => e.juego,
        Lance::Punto => e.punto,
    }?;
    Some(g.seat_at(pos) % 2 == seat % 2)
}

/// Plays game `seed` with `players` (seat by seat) and returns every answer to a bet, read
/// with `style`. The players see only their views; the harness reads the hands.
pub fn game(
    rules: &MusRules,
    seed: u64,
    players: &mut [Box<dyn Bot<MusGame>>],
    style: &Style,
    max_actions: usize,
) -> Result<Vec<Sample>, String> {
    let mut g = MusGame::new(rules, 4, seed).map_err(|e| e.to_string())?;
    let mut rng: ChaCha8Rng = rng_from_seed(seed ^ 0xca11b);
    let mut out = Vec::new();
    for _ in 0..max_actions {
        let Some(&seat) = g.to_act().seats().first() else {
            return Ok(out);
        };
        let legal = g.legal_actions(seat);
        let view = g.view(seat);
        if let Phase::Bet { lance } = view.phase {
            if legal.contains(&Action::Quiero) {
                let kind = standing(&view.log, lance);
                let ctx = Ctx::new(&view, style);
                if let (Some(kind), Some(ctx), Some(won)) = (kind, ctx, wins(&g, seat, lance)) {
                    out.push(Sample {
                        lance,
                        kind,
                        prior: ctx.prior(lance),
                        read: ctx.chance(lance),
                        won,
                    });
                }
            }
        }
        let bot = players
            .get_mut(seat)
            .ok_or_else(|| format!("no player for seat {seat}"))?;
        let a = bot.act(&view, &legal, &mut rng);
        g.apply(seat, &a)
            .map_err(|e| format!("game {seed}: seat {seat} `{a}`: {e}"))?;
    }
    Err(format!(
        "game {seed} did not end within {max_actions} actions"
    ))
}

/// One line of the report: the answers to one kind of bet at one lance.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Line {
    /// The lance.
    pub lance: Lance,
    /// The kind of bet.
    pub kind: BetKind,
    /// Answers seen.
    pub n: u64,
    /// Mean chance before the bet.
    pub prior: f64,
    /// Mean chance after reading it.
    pub read: f64,
    /// Share of those lances the answering pair's hands won.
    pub won: f64,
    /// γ that makes the mean of prior^(1+γ) equal the share won (the reading experto
    /// applies), when one in 0–30 does.
    pub gamma: Option<f64>,
}

/// The γ ≥ 0 at which the mean of `p^(1+γ)` over `priors` is `target`, if within 0–30.
pub fn fit_gamma(priors: &[f64], target: f64) -> Option<f64> {
    let mean = |g: f64| priors.iter().map(|p| p.powf(1.0 + g)).sum::<f64>() / priors.len() as f64;
    if priors.is_empty() || target > mean(0.0) || target < mean(30.0) {
        return None;
    }
    let (mut lo, mut hi) = (0.0, 30.0);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if mean(mid) > target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

/// The samples grouped by lance and kind of bet, in the order of play.
pub fn summarize(samples: &[Sample]) -> Vec<Line> {
    let mut keys: Vec<(Lance, BetKind)> = samples.iter().map(|s| (s.lance, s.kind)).collect();
    keys.sort_by_key(|(l, k)| (*l as u8, *k));
    keys.dedup();
    keys.into_iter()
        .map(|(lance, kind)| {
            let group: Vec<&Sample> = samples
                .iter()
                .filter(|s| s.lance == lance && s.kind == kind)
                .collect();
            let n = group.len() as f64;
            let priors: Vec<f64> = group.iter().map(|s| s.prior).collect();
            let won = group.iter().filter(|s| s.won).count() as f64 / n;
            Line {
                lance,
                kind,
                n: group.len() as u64,
                prior: priors.iter().sum::<f64>() / n,
                read: group.iter().map(|s| s.read).sum::<f64>() / n,
                won,
                gamma: fit_gamma(&priors, won),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gamma_is_found_where_it_exists() {
        let priors = [0.5, 0.7, 0.9];
        // γ = 1: the mean of the squares.
        let target = (0.25 + 0.49 + 0.81) / 3.0;
        let g = fit_gamma(&priors, target).unwrap();
        assert!((g - 1.0).abs() < 1e-6, "{g}");
        assert_eq!(fit_gamma(&priors, 0.0), None, "nothing that bad");
        assert_eq!(fit_gamma(&priors, 0.95), None, "better than the priors");
        assert_eq!(fit_gamma(&[], 0.5), None);
    }
}
