//! Tikki's screen for soft play ([`tapete_review::screen`]): two friends at one table who
//! see each other's hands help each other through the lay. A player who knows its
//! friend's cards knows when the friend will take the trick: then it stays out of the
//! friend's way (lays no combination that beats it) and feeds the trick ballast the friend
//! banks; when the friend will not, it knows what it must beat, and plays for itself
//! knowing it. Which cards go into a trick carries all of that, so the lay is what is
//! weighed; the retreat round (an option, off by default) and the last cards of a round
//! are not.
//!
//! Every lay of a seat A is weighed for every other seat B in the trick: for each lay
//! among experto's candidates (and the one played), its **worth to the pair** is the
//! points A's and B's piles gain from the trick once the seats after A lay as basico
//! would ([`trick_gain`]). It is valued over worlds dealt from A's view (the game's
//! [`Resample`], the face-down cards on the table shaped as experto reads them) and over
//! the same worlds with B's actual hand and face-down cards put in ([`World::place`]).
//! The gains are calibrated per pair over a game as Chinchón's discards are
//! ([`calibrate`]): on what A could know — the lay's expected worth to the pair and its
//! expected worth to A itself — and the chosen lay's surprise is compared with the
//! surprises of the lays about as good for A ([`ALIKE`]).

use crate::experto::{lay_candidates, Experto, World};
use tapete_cards::chance::rng_from_seed;
use tapete_review::screen::{calibrate, Choice, Screened, Worth};
use tapete_table::{Game, Record, Resample, Seat};
use tapete_tikki::{Action, Cards, Phase, TikkiCards, TikkiGame, TikkiView};

/// Worlds dealt from the chooser's view for each lay.
pub const WORLDS: usize = 32;

/// Lays are compared with the chosen one when their expected worth to the chooser itself
/// is within this many points of it.
pub const ALIKE: f64 = 2.0;

/// The points seat `b`'s pile gains from the trick under way in `w` once it is played
/// out (every seat still to act laying and retreating as basico would), and the same for
/// seat `a`. `w` is left at the start of the next trick, or the round's end.
pub fn trick_gain(w: &mut World, a: Seat, b: Seat) -> (f64, f64) {
    let before = [w.piles[a].pile_points(), w.piles[b].pile_points()];
    let cards = |w: &World| -> usize { w.piles[..w.seats].iter().map(|p| p.len()).sum() };
    let start = cards(w);
    let mut steps = 0;
    while !w.over && cards(w) == start && steps < 64 {
        let s = w.turn;
        let action = if w.retreating {
            match w.greedy_retreat(s) {
                Some((back, reveal)) => Action::Retreat { back, reveal },
                None => Action::Keep,
            }
        } else {
            Action::Lay(w.greedy_lay(s))
        };
        if !w.apply(&action) {
            break;
        }
        steps += 1;
    }
    (
        f64::from(w.piles[a].pile_points()) - f64::from(before[0]),
        f64::from(w.piles[b].pile_points()) - f64::from(before[1]),
    )
}

/// The worlds of `view` (seat `me`'s): `draws` resampled games as worlds, the others'
/// face-down cards shaped as experto reads them.
pub fn worlds(view: &TikkiView, me: Seat, draws: usize, seed: u64) -> Vec<World> {
    let mut rng = rng_from_seed(seed);
    let reader = Experto::default();
    let chances = reader.shape_chances(view, me);
    (0..draws)
        .filter_map(|_| {
            let g = TikkiGame::resample(view, &mut rng).ok()?;
            let mut w = World::from_game(&g, view)?;
            w.shape_lays(me, &chances, &mut rng);
            Some(w)
        })
        .collect()
}

/// The lays weighed for a seat with `view` about to lay `played`: experto's candidates
/// and the lay played, each once.
pub fn lays(view: &TikkiView, played: Cards) -> Vec<Cards> {
    let me = view.seat.unwrap_or(0);
    let mut out = lay_candidates(view.hand, view.piles.get(me).copied());
    if !out.contains(&played) {
        out.push(played);
    }
    out
}

/// Each lay of `record` weighed (see the module's docs). The game is replayed from its
/// record, so a record that does not replay yields what it gave up to there.
/// A game of two yields nothing: there is no third player for soft play to beat, and
/// helping the only other player is throwing the game, which the win-trading screen
/// weighs ([`tapete_review::trading`]).
pub fn screen(record: &Record<TikkiGame>) -> Vec<Screened> {
    if record.seats < 3 {
        return Vec::new();
    }
    let mut choices = Vec::new();
    let Ok(mut game) = TikkiGame::new(&record.rules, record.seats, record.seed) else {
        return Vec::new();
    };
    for (index, (seat, action)) in record.actions.iter().enumerate() {
        let seat = *seat;
        if game.phase() == Phase::Lay && game.to_act().seats().first() == Some(&seat) {
            let seed = record.seed ^ (index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            choices.extend(
                weigh_lay(&game, seat, action, seed)
                    .into_iter()
                    .map(|c| Choice { index, ..c }),
            );
        }
        if game.apply(seat, action).is_err() {
            break;
        }
    }
    let mut out = calibrate(&choices, ALIKE);
    out.sort_by_key(|s| s.index);
    out
}

/// The lay `action` of `seat` in `game` weighed for every other seat in the trick: each
/// candidate lay's worth to the two of them over worlds from the seat's view (the
/// expectation, and the worth to the seat itself) and over the same worlds with the other
/// seat's actual cards. `seed` seeds
/// the worlds. Nothing when the action is no lay or the seat had a single lay.
pub fn weigh_lay(game: &TikkiGame, seat: Seat, action: &Action, seed: u64) -> Vec<Choice> {
    let Action::Lay(played) = *action else {
        return Vec::new();
    };
    let view = game.view(seat);
    let options = lays(&view, played);
    let Some(chosen) = options.iter().position(|&l| l == played) else {
        return Vec::new();
    };
    if options.len() < 2 {
        return Vec::new();
    }
    let dealt = worlds(&view, seat, WORLDS, seed);
    if dealt.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut work = dealt[0].clone();
    for b in (0..view.seats).filter(|&b| b != seat && view.in_trick[b]) {
        let down = game.laid(b).difference(view.revealed[b]);
        let actual: Vec<World> = dealt
            .iter()
            .filter_map(|w| {
                let mut w = w.clone();
                w.place(b, game.hand(b), down).then_some(w)
            })
            .collect();
        if actual.len() != dealt.len() {
            continue;
        }
        // Each world as drawn and with B's actual cards: what the lay gives B (and A).
        let gains = |w: &World, lay: Cards, work: &mut World| -> (f64, f64) {
            work.copy_from(w);
            if work.apply(&Action::Lay(lay)) {
                trick_gain(work, seat, b)
            } else {
                (0.0, 0.0)
            }
        };
        let options: Vec<Worth> = options
            .iter()
            .map(|&lay| {
                let draws: Vec<(f64, Vec<f64>, f64)> = dealt
                    .iter()
                    .zip(&actual)
                    .map(|(drawn, seen)| {
                        let (own, theirs) = gains(drawn, lay, &mut work);
                        let (own_seen, theirs_seen) = gains(seen, lay, &mut work);
                        (1.0, vec![own + theirs, own], own_seen + theirs_seen)
                    })
                    .collect();
                Worth::of_draws(&draws)
            })
            .collect();
        out.push(Choice {
            index: 0,
            seat,
            partner: b,
            // The evidence never shows a card: how many were laid.
            action: match played.len() {
                1 => "lay 1 card".to_string(),
                n => format!("lay {n} cards"),
            },
            kind: "lay".into(),
            chosen,
            options,
        });
    }
    out
}
