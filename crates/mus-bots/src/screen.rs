//! Mus's screen for partners who see each other's cards ([`tapete_review::screen`]).
//!
//! Every bet, raise, acceptance or pass in a lance is weighed twice with the exact leyes of
//! the lance: the pair's chance of winning it from what the seat legally knew (its four
//! cards, the declarations heard, its partner's seña — the review's leyes), and the same
//! with its partner's four cards known. The choice's **gain** is that difference signed by
//! its direction: a bet, raise, acceptance or órdago counts it as it is, a pass or a
//! refusal against. A player who cannot see the partner's cards bets as often when they
//! are better than it could know as when they are worse, so its gains average about zero;
//! one who sees them bets when they are good and passes when they are bad.

use crate::leyes_cache::{leyes, leyes_with_partner};
use crate::review::conditions;
use tapete_mus::view::Phase;
use tapete_mus::{Action, Jugada, Lance, MusGame};
use tapete_review::screen::Screened;
use tapete_table::{Game, Record};

/// Whether `action`, in a lance's betting, puts more at stake (+1) or less (−1).
fn direction(action: &Action) -> Option<f64> {
    match action {
        Action::Envido(_) | Action::Reenvido(_) | Action::Quiero | Action::Ordago => Some(1.0),
        Action::Paso | Action::NoQuiero => Some(-1.0),
        _ => None,
    }
}

/// What a seat did in a lance's betting this hand: the lance and the way it went.
type Said = (Lance, f64);

/// Each betting decision of `record` weighed (see the module's docs); the game is replayed
/// from its record, so a record that does not replay yields what it gave up to there.
pub fn screen(record: &Record<MusGame>) -> Vec<Screened> {
    let mut out = Vec::new();
    let Ok(mut game) = MusGame::new(&record.rules, record.seats, record.seed) else {
        return out;
    };
    let (mode, real31) = (record.rules.mode, record.rules.real31);
    let mut hand = 0;
    // Each seat's betting this hand, in order.
    let mut said: [Vec<Said>; 4] = Default::default();
    for (index, (seat, action)) in record.actions.iter().enumerate() {
        let seat = *seat;
        let view = game.view(seat);
        if view.hand_number != hand {
            hand = view.hand_number;
            said = Default::default();
        }
        if let Some(s) = weigh(&game, &view, seat, action, mode, real31, &said) {
            out.push(Screened { index, ..s });
        }
        if let (Phase::Bet { lance }, Some(dir)) = (view.phase, direction(action)) {
            if let Some(list) = said.get_mut(seat) {
                list.push((lance, dir));
            }
        }
        if game.apply(seat, action).is_err() {
            break;
        }
    }
    out
}

/// The stratum of a decision: the lance, whether a bet stands against the seat, what its
/// partner did in this lance and how often it bet earlier this hand, and the tenth of the
/// seat's own chance — everything by which an honest seat's choice may move with its
/// partner's cards.
fn stratum(lance: Lance, answering: bool, partner: &[Said], legal: f64) -> String {
    let here = match partner.iter().rev().find(|(l, _)| *l == lance) {
        None => "none",
        Some((_, d)) if *d > 0.0 => "bet",
        Some(_) => "passed",
    };
    let before = partner
        .iter()
        .filter(|(l, d)| *l != lance && *d > 0.0)
        .count()
        .min(2);
    let tenth = ((legal * 10.0).floor() as i64).clamp(0, 9);
    format!(
        "{}:{}:{here}:{before}:{tenth}",
        lance.name(),
        if answering { "answer" } else { "open" }
    )
}

/// One decision of `seat` about to play `action` in `game` (whose view of it is `view`),
/// weighed; `None` when it is not a lance's betting or its leyes cannot be had.
fn weigh(
    game: &MusGame,
    view: &tapete_mus::MusView,
    seat: usize,
    action: &Action,
    mode: tapete_mus::Mode,
    real31: bool,
    said: &[Vec<Said>; 4],
) -> Option<Screened> {
    let choice = direction(action)?;
    let Phase::Bet { lance } = view.phase else {
        return None;
    };
    let partner = (seat + 2) % 4;
    let position = view.position?;
    let mine: [tapete_cards::Card; 4] = view.cards.as_slice().try_into().ok()?;
    let theirs_view = game.view(partner);
    let theirs: [tapete_cards::Card; 4] = theirs_view.cards.as_slice().try_into().ok()?;
    let hand = Jugada::from_cards(&mine, mode);
    let other = Jugada::from_cards(&theirs, mode);
    let cond = conditions(view)?;
    let legal = leyes(mode, real31, hand, &cond)?[position.min(3)].lance(lance);
    let informed =
        leyes_with_partner(mode, real31, hand, other, &cond)?[position.min(3)].lance(lance);
    let answering = game.legal_actions(seat).contains(&Action::Quiero);
    Some(Screened {
        index: 0,
        seat,
        partner,
        choice,
        hidden: informed - legal,
        stratum: stratum(lance, answering, &said[partner], legal),
        action: action.to_string(),
        legal,
        centred: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tapete_mus::MusRules;
    use tapete_table::Bot;

    #[test]
    fn only_a_lances_betting_is_weighed_and_the_gain_is_signed_by_the_choice() {
        let rules = MusRules {
            juegos: 1,
            ..MusRules::default()
        };
        let mut game = MusGame::new(&rules, 4, 3).unwrap();
        let mut record = Record::new(rules, 4, 3);
        let mut rng = tapete_cards::rng_from_seed(1);
        let mut bot = tapete_mus::bots::RandomMus;
        while let Some(&seat) = game.to_act().seats().first() {
            let legal = game.legal_actions(seat);
            let a = bot.act(&game.view(seat), &legal, &mut rng);
            game.apply(seat, &a).unwrap();
            record.actions.push((seat, a));
        }
        let weighed = screen(&record);
        assert!(!weighed.is_empty());
        for w in &weighed {
            let (seat, action) = &record.actions[w.index];
            assert_eq!((w.seat, w.partner), (*seat, (seat + 2) % 4));
            let dir = direction(action).expect("a betting choice");
            assert_eq!(w.choice, dir);
            assert!((0.0..=1.0).contains(&w.legal) && (0.0..=1.0).contains(&(w.legal + w.hidden)));
            assert!(w.stratum.split(':').count() == 5, "{}", w.stratum);
        }
    }
}
