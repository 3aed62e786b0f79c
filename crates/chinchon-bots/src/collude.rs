//! A player that cheats by seeing a friend's hand (soft play), to measure
//! [`screen`](crate::screen) against: it plays as [`Experto`] but, looking at its friend's
//! actual cards in the full game, discards to the friend (when the friend plays next) the
//! card most useful to it unless that costs much, closes when the friend's hand is low
//! though experto would wait, and holds back a close when the friend's hand is high and a
//! discard keeps the close for later. It is not a level: it needs the whole game, which no
//! seat's view shows.

use crate::experto::Experto;
use crate::screen::{close_with, closes, next_in, points_at_close, use_of};
use rand_chacha::ChaCha8Rng;
use tapete_chinchon::meld::Close;
use tapete_chinchon::{Action, ChinchonGame, Phase};
use tapete_table::{Bot, Game, Seat};

/// How much a colluder helps its friend.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Help {
    /// Points of its own cost traded for each point of deadwood the discard saves the
    /// friend (0: no feeding).
    pub feed: f64,
    /// Hold back a close when the friend would score more than this at it.
    pub hold_above: f64,
    /// Close, where experto would wait, when the friend would score no more than this.
    pub close_below: f64,
}

impl Default for Help {
    fn default() -> Self {
        Help {
            feed: 0.5,
            hold_above: 20.0,
            close_below: 5.0,
        }
    }
}

/// A colluding player for one seat (see the module's docs).
#[derive(Clone, Debug)]
pub struct Colluder {
    /// The seat it helps.
    pub friend: Seat,
    /// How much.
    pub help: Help,
    experto: Experto,
}

impl Colluder {
    /// A colluder helping `friend` by `help`.
    pub fn new(friend: Seat, help: Help) -> Colluder {
        Colluder {
            friend,
            help,
            experto: Experto::default(),
        }
    }

    /// Its action for `seat` in `game` (which must be that seat's turn), seeing all.
    pub fn act(&mut self, game: &ChinchonGame, seat: Seat, rng: &mut ChaCha8Rng) -> Action {
        let view = game.view(seat);
        let legal = game.legal_actions(seat);
        let base = self.experto.act(&view, &legal, rng);
        let friend = self.friend;
        if view.phase != Phase::Discard || friend == seat || view.out[friend] {
            return base;
        }
        let solver = game.solver();
        let theirs = game.hand(friend);
        let real = closes(solver, &view, &legal);
        let at_close = |card| {
            close_with(solver, &view.hand, card)
                .map(|(c, melds)| points_at_close(solver, game.rules(), &theirs, c, &melds))
        };
        let ranked = self.experto.ranked(&view, &legal);
        match base {
            Action::Cierro(card) => {
                let chinchon = real
                    .iter()
                    .any(|&(c, how)| c == card && how == Close::Chinchon);
                if !chinchon && at_close(card).is_some_and(|p| p > self.help.hold_above) {
                    // A discard after which the seven still close, the cheapest.
                    let waiting = ranked.iter().find(|(a, _)| match a {
                        Action::Descarto(d) => real.iter().any(|x| x.0 == *d),
                        _ => false,
                    });
                    if let Some(&(a, _)) = waiting {
                        return a;
                    }
                }
                return base;
            }
            Action::Descarto(_) => {
                if let Some(&(card, _)) = real
                    .iter()
                    .filter(|(_, how)| *how != Close::Chinchon)
                    .max_by_key(|(_, how)| how.rank())
                {
                    if at_close(card).is_some_and(|p| p <= self.help.close_below) {
                        return Action::Cierro(card);
                    }
                }
            }
            _ => return base,
        }
        if next_in(&view, seat) != Some(friend) || self.help.feed <= 0.0 {
            return base;
        }
        ranked
            .iter()
            .filter_map(|&(a, cost)| match a {
                Action::Descarto(c) => {
                    Some((a, cost - self.help.feed * use_of(solver, &theirs, c)))
                }
                _ => None,
            })
            .min_by(|x, y| x.1.total_cmp(&y.1))
            .map_or(base, |x| x.0)
    }
}
