//! Playing a game to the end with one bot per seat: the loop under `sim`, arenas and tests.

use crate::{Bot, Game, Record};
use rand_chacha::ChaCha8Rng;

/// Why a bot-driven game stopped early.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    #[error("seat {seat} chose `{action}`, which the game refused: {reason}")]
    Refused {
        seat: usize,
        action: String,
        reason: String,
    },
    #[error("seat {0} was asked to act but has no legal action")]
    NoLegalAction(usize),
    #[error("the game did not end within {0} actions")]
    TooLong(usize),
    /// A bot cannot play at all ([`Bot::unable`]): its reason.
    #[error("{0}")]
    Unable(String),
}

/// Plays `game` to the end, asking `bots[seat]` whenever a seat must act (simultaneous
/// decisions are taken in seat order), recording every action into `record`.
/// `on_events` sees every applied action and its public events. Each bot is told its
/// seat first ([`Bot::start`], with the record's rules) and the outcome at the end
/// ([`Bot::finish`]; with no outcome when the game is stopped at `max_actions`). A bot
/// that turns out unable to play ([`Bot::unable`]) stops the game with its reason.
pub fn play_out<G: Game>(
    game: &mut G,
    bots: &mut [Box<dyn Bot<G>>],
    rng: &mut ChaCha8Rng,
    record: &mut Record<G>,
    max_actions: usize,
    mut on_events: impl FnMut(&G, usize, &G::Action, &[G::Event]),
) -> Result<(), PlayError> {
    for (seat, bot) in bots.iter_mut().enumerate() {
        bot.start(seat, record.seats, &record.rules);
        if let Some(why) = bot.unable() {
            return Err(PlayError::Unable(why));
        }
    }
    let mut n = 0;
    loop {
        let seats = game.to_act().seats().to_vec();
        let Some(&seat) = seats.first() else {
            let outcome = game.outcome();
            for (seat, bot) in bots.iter_mut().enumerate() {
                bot.finish(outcome.as_ref(), &game.view(seat));
            }
            return Ok(());
        };
        if n >= max_actions {
            // The bots are told the game stopped unfinished (no outcome).
            for (seat, bot) in bots.iter_mut().enumerate() {
                bot.finish(None, &game.view(seat));
            }
            return Err(PlayError::TooLong(max_actions));
        }
        let legal = game.legal_actions(seat);
        if legal.is_empty() {
            return Err(PlayError::NoLegalAction(seat));
        }
        let view = game.view(seat);
        let action = bots[seat].act(&view, &legal, rng);
        if let Some(why) = bots[seat].unable() {
            return Err(PlayError::Unable(why));
        }
        let events = game.apply(seat, &action).map_err(|e| PlayError::Refused {
            seat,
            action: action.to_string(),
            reason: e.to_string(),
        })?;
        on_events(game, seat, &action, &events);
        record.actions.push((seat, action));
        n += 1;
    }
}
