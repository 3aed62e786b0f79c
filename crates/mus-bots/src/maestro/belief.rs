//! What the calls heard say about the hands: a soft likelihood for each determinization.
//!
//! [`tapete_mus::MusGame::resample`] deals the unseen cards respecting the declarations and
//! the partner's seña, but not the betting: a rival who raised grande is dealt a random hand.
//! Here each call of the other players this hand (envido, quiero, paso, no quiero, and
//! cutting the mus) is scored against the hand a determinization gave that player — a bet
//! is likelier from a strong hand, a paso from a weak one — and the product weights the
//! determinization. The curves are deliberately soft: rivals bluff and differ.

use crate::read::Reading;
use crate::strength::percentile;
use tapete_cards::CardSet;
use tapete_mus::events::Event;
use tapete_mus::rules::{self, Lance};
use tapete_mus::{Action, Jugada, Mode, MusGame};
use tapete_table::Seat;

fn rise(x: f64, centre: f64, width: f64) -> f64 {
    1.0 / (1.0 + (-(x - centre) / width).exp())
}

/// Likelihood of a call in a lance from a hand of percentile `p` (up to a constant), read
/// as `reading` says for the seat that made it.
fn call_likelihood(action: &Action, p: f64, facing_bet: bool, reading: &Reading) -> f64 {
    match action {
        Action::Envido(_) | Action::Reenvido(_) => {
            reading.bet_floor + (1.0 - reading.bet_floor) * rise(p, 0.6, 0.08)
        }
        Action::Ordago => 0.05 + 0.95 * rise(p, reading.ordago_centre, 0.07),
        Action::Quiero if !reading.quiero_tells => 1.0,
        Action::Quiero => 0.15 + 0.85 * rise(p, 0.45, 0.1),
        Action::NoQuiero => 0.3 + 0.7 * (1.0 - rise(p, 0.55, 0.1)),
        Action::Paso if !facing_bet => 0.35 + 0.65 * (1.0 - rise(p, 0.7, 0.08)),
        _ => 1.0,
    }
}

/// Likelihood of cutting the mus (or asking for it) with `cards`: a cut is likelier from a
/// hand strong somewhere.
fn mus_likelihood(
    action: &Action,
    cards: CardSet,
    mode: Mode,
    real31: bool,
    reading: &Reading,
) -> f64 {
    if !reading.cut_tells {
        return 1.0;
    }
    let best = [Lance::Grande, Lance::Pares, Lance::Juego]
        .into_iter()
        .map(|l| {
            let taking_part = Jugada::from_set(cards, mode)
                .is_some_and(|j| rules::strength(l, j, real31) > 0 || l == Lance::Grande);
            if taking_part {
                percentile(cards, l, mode, real31)
            } else {
                0.0
            }
        })
        .fold(0.0, f64::max);
    let cut = 0.2 + 0.8 * rise(best, 0.6, 0.12);
    match action {
        Action::NoHayMus => cut,
        Action::Mus => 1.0 - 0.7 * rise(best, 0.6, 0.12),
        _ => 1.0,
    }
}

/// One call of another player this hand, with what it needs to be scored.
#[derive(Clone, Debug)]
pub struct Call {
    seat: Seat,
    action: Action,
    /// The lance being bet (`None` for mus / no hay mus).
    lance: Option<Lance>,
    facing_bet: bool,
}

/// The informative calls of every seat but `me` in `log` (one hand's public log): the bets
/// and answers, and the mus calls of the last mus round (the hands have not changed since).
pub fn calls(log: &[Event], me: Seat) -> Vec<Call> {
    let round_start = log
        .iter()
        .rposition(|e| matches!(e, Event::Served))
        .map_or(0, |i| i + 1);
    let mut out = Vec::new();
    let mut lance = None;
    let mut facing_bet = false;
    for (i, e) in log.iter().enumerate() {
        match e {
            Event::LanceStarted { lance: l } => {
                lance = Some(*l);
                facing_bet = false;
            }
            Event::LanceSettled { .. } => lance = None,
            Event::Said { seat, action } => {
                let bet_call = crate::is_bet(action);
                let mus_call = matches!(action, Action::Mus | Action::NoHayMus);
                if *seat != me && ((lance.is_some() && !mus_call) || (mus_call && i >= round_start))
                {
                    out.push(Call {
                        seat: *seat,
                        action: action.clone(),
                        lance: if mus_call { None } else { lance },
                        facing_bet,
                    });
                }
                if bet_call {
                    facing_bet = true;
                }
            }
            _ => {}
        }
    }
    out
}

/// How well a determinization's hands explain `calls` (a product of soft likelihoods, at
/// most 1), each seat's calls read as `readings` says.
pub fn likelihood(game: &MusGame, calls: &[Call], readings: &[Reading; 4]) -> f64 {
    let mode = game.rules().mode;
    let real31 = game.rules().real31;
    calls
        .iter()
        .map(|c| {
            let cards = game.cards_of(c.seat);
            let reading = &readings[c.seat % 4];
            match c.lance {
                Some(l) => call_likelihood(
                    &c.action,
                    percentile(cards, l, mode, real31),
                    c.facing_bet,
                    reading,
                ),
                None => mus_likelihood(&c.action, cards, mode, real31, reading),
            }
        })
        .product()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(s: &str) -> CardSet {
        s.split_whitespace().map(|c| c.parse().unwrap()).collect()
    }

    #[test]
    fn percentiles_order_hands() {
        let m = Mode::OchoReyes;
        let reyes = percentile(set("12o 12b 12c 12e"), Lance::Grande, m, false);
        let low = percentile(set("4o 4b 5c 6e"), Lance::Grande, m, false);
        assert!(reyes > 0.95 && low < 0.1, "{reyes} {low}");
        let duples = percentile(set("12o 12b 1c 1e"), Lance::Pares, m, false);
        assert!(duples > 0.8, "{duples}");
        let chica = percentile(set("1o 1b 4c 4e"), Lance::Chica, m, false);
        assert!(chica > 0.9, "{chica}");
    }

    #[test]
    fn bets_favour_strong_hands() {
        let r = Reading::default();
        let env = Action::Envido(2);
        assert!(
            call_likelihood(&env, 0.95, false, &r) > 5.0 * call_likelihood(&env, 0.2, false, &r)
        );
        let paso = Action::Paso;
        assert!(call_likelihood(&paso, 0.2, false, &r) > call_likelihood(&paso, 0.95, false, &r));
        // A bluffer's bets say less; a caller's quiero says nothing.
        let bluffer = Reading {
            bet_floor: 0.5,
            ..r
        };
        let ratio = |r: &Reading| {
            call_likelihood(&env, 0.95, false, r) / call_likelihood(&env, 0.2, false, r)
        };
        assert!(ratio(&bluffer) < ratio(&r) / 3.0);
        let caller = Reading {
            quiero_tells: false,
            ..r
        };
        let q = Action::Quiero;
        assert_eq!(call_likelihood(&q, 0.1, true, &caller), 1.0);
    }
}
