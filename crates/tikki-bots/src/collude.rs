//! A player that cheats by seeing a friend's hand (soft play), to measure
//! [`screen`](crate::screen) against: it plays as [`Experto`] but, when its friend is in
//! the trick, looks at the friend's actual hand and face-down cards in the full game and
//! weighs each of experto's candidate lays by the points it expects to bank from the trick
//! plus `help` times the points it expects its friend to bank; it lays the best of those
//! instead of experto's choice when that is worth `margin` more. It is not a level: it
//! needs the whole game, which no seat's view shows.

use crate::experto::{Experto, World};
use crate::screen::{lays, trick_gain, worlds};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use tapete_table::{Bot, Game, Seat};
use tapete_tikki::{Action, Phase, TikkiGame};

/// Worlds a colluder deals for each lay.
const WORLDS: usize = 24;

/// A colluding player for one seat (see the module's docs).
#[derive(Clone, Debug)]
pub struct Colluder {
    /// The seat it helps.
    pub friend: Seat,
    /// Points of its own it gives up for each point its friend banks.
    pub help: f64,
    /// How much better, in those points, helping must be than experto's lay.
    pub margin: f64,
    experto: Experto,
}

impl Colluder {
    /// A colluder helping `friend`, valuing the friend's points at `help` of its own.
    pub fn new(friend: Seat, help: f64, margin: f64) -> Colluder {
        Colluder::playing(friend, help, margin, Experto::default())
    }

    /// The same, playing as `experto` otherwise (a fixed budget makes its choices the
    /// same on every machine).
    pub fn playing(friend: Seat, help: f64, margin: f64, experto: Experto) -> Colluder {
        Colluder {
            friend,
            help,
            margin,
            experto,
        }
    }

    /// Its action for `seat` in `game` (which must be that seat's turn), seeing all.
    pub fn act(&mut self, game: &TikkiGame, seat: Seat, rng: &mut ChaCha8Rng) -> Action {
        let view = game.view(seat);
        let legal = game.legal_actions(seat);
        let base = self.experto.act(&view, &legal, rng);
        let friend = self.friend;
        let Action::Lay(played) = base else {
            return base;
        };
        if view.phase != Phase::Lay
            || friend == seat
            || !view.in_trick.get(friend).copied().unwrap_or(false)
        {
            return base;
        }
        let down = game
            .laid(friend)
            .difference(view.revealed.get(friend).copied().unwrap_or_default());
        let seen: Vec<World> = worlds(&view, seat, WORLDS, rng.gen())
            .into_iter()
            .filter_map(|mut w| w.place(friend, game.hand(friend), down).then_some(w))
            .collect();
        let Some(first) = seen.first() else {
            return base;
        };
        let mut work = first.clone();
        let mut worth = |lay| -> f64 {
            let mut total = 0.0;
            for w in &seen {
                work.copy_from(w);
                if work.apply(&Action::Lay(lay)) {
                    let (mine, theirs) = trick_gain(&mut work, seat, friend);
                    total += mine + self.help * theirs;
                }
            }
            total / seen.len() as f64
        };
        let options = lays(&view, played);
        let valued: Vec<(f64, _)> = options.iter().map(|&l| (worth(l), l)).collect();
        let base_worth = valued
            .iter()
            .find(|(_, l)| *l == played)
            .map_or(f64::MIN, |x| x.0);
        match valued.iter().max_by(|a, b| a.0.total_cmp(&b.0)) {
            Some(&(w, l)) if w > base_worth + self.margin && legal.contains(&Action::Lay(l)) => {
                Action::Lay(l)
            }
            _ => base,
        }
    }
}
