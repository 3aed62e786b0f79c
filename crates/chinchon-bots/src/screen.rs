//! Chinchón's screen for soft play ([`tapete_review::screen`]): two friends at one table
//! who see each other's hands help each other — a player feeds the next, its friend, the
//! discards it needs, and closes when the friend's hand is low and holds back when it is
//! high. Each such choice of a seat A is valued for another seat B twice: with B's actual
//! hand, and with B's hand as [`Resample`] draws it from A's view (what A may legally
//! know), averaged over many draws.
//!
//! - **Discards** (to B, the next player, who may take the card): for each legal discard
//!   `o`, `h(o)` is its [use](use_of) to B with B's actual hand less its use expected from
//!   A's view; the decision's gain is `h(chosen)` less the mean of `h` over the options
//!   about as good for A. Given A's view every `h(o)` averages zero, so an honest A's
//!   gains do whatever it chooses: the gain is centred already ([`Screened::centred`]).
//!   The resampled hands are uniform over the unseen cards, while players keep their
//!   low cards and their melds, so the expectation is read with what B's last discard
//!   shows ([`kept_over`]) and calibrated per pair over a game on what A knew (the
//!   expected use and A's own deadwood left: [`calibrate`]).
//! - **Closing or going on** (for every other seat B): `choice` is +1 for a close, −1 for a
//!   discard that could have closed; `hidden` is B's points at that close as expected from
//!   A's view less B's actual points (positive when B's hand is lower than A could know:
//!   closing then helps B). The decisions are compared within strata (the close A had,
//!   how many cards B took and holds) and fitted on the expectation, as Mus's are.
//!
//! A close that makes chinchón wins the game and is not weighed; nor are draws or cards
//! laid off.

use crate::experto::best_lay;
use tapete_cards::chance::rng_from_seed;
use tapete_chinchon::meld::{Close, Meld, Solver};
use tapete_chinchon::rules::MeterCartas;
use tapete_chinchon::{Action, Card, ChinchonGame, ChinchonRules, ChinchonView, Hand, Phase};
use tapete_review::screen::{calibrate, Choice, Screened, Worth};
use tapete_table::{Game, Record, Resample, Seat};

/// Hands of the other seats drawn from the chooser's view for a discard: each option's
/// expected use is a mean over as many.
pub const DISCARD_DRAWS: usize = 48;
/// Hands drawn from the chooser's view for a close (rarer decisions: more draws).
pub const CLOSE_DRAWS: usize = 96;

/// What taking `card` from the pile does for `hand` (seven cards): how much it lowers the
/// least deadwood, once the best card is put back — what a player counts a card on the
/// pile by. Never negative: the card taken can go back.
pub fn use_of(solver: &Solver, hand: &Hand, card: Card) -> f64 {
    let Ok(now) = solver.analyze_hand(hand) else {
        return 0.0;
    };
    let mut eight = *hand;
    if eight.add(card).is_err() {
        return 0.0;
    }
    let Ok(after) = solver.analyze_hand(&eight) else {
        return 0.0;
    };
    let best = after
        .discards()
        .iter()
        .map(|d| d.deadwood)
        .min()
        .unwrap_or(now.deadwood());
    f64::from(now.deadwood().saturating_sub(best))
}

/// How likely a player who discarded `thrown` is to have kept `hand` over it: its chance,
/// among the eight discards it had, if it picks one with a weight falling by e for every
/// [`KEEP_SCALE`] points of deadwood left — what the discard shows of the hand kept.
pub fn kept_over(solver: &Solver, hand: &Hand, thrown: Card) -> f64 {
    let mut eight = *hand;
    if eight.add(thrown).is_err() {
        return 0.0;
    }
    let Ok(a) = solver.analyze_hand(&eight) else {
        return 1.0;
    };
    let least = a.discards().iter().map(|d| d.deadwood).min().unwrap_or(0);
    let weight = |dw: u16| (-f64::from(dw - least) / KEEP_SCALE).exp();
    let all: f64 = a.discards().iter().map(|d| weight(d.deadwood)).sum();
    let chosen = a
        .discards()
        .iter()
        .find(|d| d.card == thrown)
        .map_or(0.0, |d| weight(d.deadwood));
    if all > 0.0 {
        chosen / all
    } else {
        0.0
    }
}

/// Points of deadwood that make a discard e times less likely, in [`kept_over`].
pub const KEEP_SCALE: f64 = 3.0;

/// The points `hand` scores when another player closes with `close` and `melds`: its
/// least deadwood once it lays off what it can onto them (when the rules let it).
pub fn points_at_close(
    solver: &Solver,
    rules: &ChinchonRules,
    hand: &Hand,
    close: Close,
    melds: &[Meld],
) -> f64 {
    let lays = match rules.meter_cartas {
        MeterCartas::On => true,
        MeterCartas::NotAfterMenosDiez => close != Close::MenosDiez,
        MeterCartas::Off => false,
    };
    let dw = if lays {
        best_lay(solver, hand, melds).0
    } else {
        solver.analyze_hand(hand).map_or(0, |a| a.deadwood())
    };
    f64::from(dw)
}

/// Every seat's hand in `draws` games resampled from `view` (a seat's view): what that
/// seat may legally think the others hold. Draws that fail are left out.
pub fn hands_from_view(view: &ChinchonView, draws: usize, seed: u64) -> Vec<Vec<Hand>> {
    let mut rng = rng_from_seed(seed);
    (0..draws)
        .filter_map(|_| {
            let g = ChinchonGame::resample(view, &mut rng).ok()?;
            Some((0..view.seats).map(|s| g.hand(s)).collect())
        })
        .collect()
}

/// What a decision did, for the evidence: the action's word without its card (a
/// screen's evidence never shows a card).
pub fn verb(action: &Action) -> String {
    action
        .to_string()
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string()
}

/// The player after `seat` still in the game, if another is.
pub fn next_in(view: &ChinchonView, seat: Seat) -> Option<Seat> {
    (1..view.seats)
        .map(|k| (seat + k) % view.seats)
        .find(|&s| !view.out[s])
}

/// The real closes of the eight cards in `view` that are legal: each card whose discard
/// leaves seven that close, with how.
pub fn closes(solver: &Solver, view: &ChinchonView, legal: &[Action]) -> Vec<(Card, Close)> {
    let Ok(a) = solver.analyze_hand(&view.hand) else {
        return Vec::new();
    };
    let mut out: Vec<(Card, Close)> = Vec::new();
    for d in a.discards() {
        if let Some(c) = d.close {
            if legal.contains(&Action::Cierro(d.card)) && !out.iter().any(|x| x.0 == d.card) {
                out.push((d.card, c));
            }
        }
    }
    out
}

/// The close `card` makes from the eight cards of `hand`, with its melds.
pub fn close_with(solver: &Solver, hand: &Hand, card: Card) -> Option<(Close, Vec<Meld>)> {
    let mut seven = *hand;
    if !seven.remove(card) {
        return None;
    }
    solver.closing(&seven.to_vec())
}

/// Each discard and close of `record` weighed (see the module's docs). The game is
/// replayed from its record, so a record that does not replay yields what it gave up to
/// there.
/// A game of two yields nothing: there is no third player for soft play to beat, and
/// helping the only other player is throwing the game, which the win-trading screen
/// weighs ([`tapete_review::trading`]).
pub fn screen(record: &Record<ChinchonGame>) -> Vec<Screened> {
    if record.seats < 3 {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut discards = Vec::new();
    let Ok(mut game) = ChinchonGame::new(&record.rules, record.seats, record.seed) else {
        return out;
    };
    // Each seat's last discard this hand, seen by all.
    let mut last: Vec<Option<Card>> = vec![None; record.seats];
    let mut hand = game.hand_number();
    for (index, (seat, action)) in record.actions.iter().enumerate() {
        let seat = *seat;
        if game.hand_number() != hand {
            hand = game.hand_number();
            last = vec![None; record.seats];
        }
        if game.phase() == Phase::Discard && game.turn() == seat {
            let seed = record.seed ^ (index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let view = game.view(seat);
            let legal = game.legal_actions(seat);
            out.extend(
                weigh_close(&game, &view, &legal, action, seed)
                    .into_iter()
                    .map(|s| Screened { index, ..s }),
            );
            let next = next_in(&view, seat);
            let kept = next.and_then(|n| last.get(n).copied().flatten());
            if let Some(d) = weigh_discard(&game, &view, &legal, action, kept, seed ^ 0xD15C) {
                discards.push(Choice { index, ..d });
            }
            if let (Action::Descarto(c), Some(l)) = (action, last.get_mut(seat)) {
                *l = Some(*c);
            }
        }
        if game.apply(seat, action).is_err() {
            break;
        }
    }
    out.extend(calibrate(&discards, ALIKE));
    out.sort_by_key(|s| s.index);
    out
}

/// Options are compared with the chosen one when they leave the seat itself within this
/// many points of deadwood of the choice ([`calibrate`]): the options about as good for
/// it, among which a friend's hand may tip the choice at little cost.
pub const ALIKE: f64 = 5.0;

/// The close decision of the seat whose `view` it is, about to play `action` in `game`,
/// if it could close (short of a chinchón): one for every other seat still in. `seed`
/// seeds the hands drawn from the view.
pub fn weigh_close(
    game: &ChinchonGame,
    view: &ChinchonView,
    legal: &[Action],
    action: &Action,
    seed: u64,
) -> Vec<Screened> {
    let Some(me) = view.seat else {
        return Vec::new();
    };
    let solver = game.solver();
    let real = closes(solver, view, legal);
    let Some(&(best, how)) = real.iter().max_by_key(|(_, c)| c.rank()) else {
        return Vec::new();
    };
    if how == Close::Chinchon {
        return Vec::new();
    }
    let (choice, card) = match *action {
        Action::Cierro(c) if real.iter().any(|x| x.0 == c) => (1.0, c),
        Action::Descarto(_) => (-1.0, best),
        _ => return Vec::new(),
    };
    let Some((close, melds)) = close_with(solver, &view.hand, card) else {
        return Vec::new();
    };
    if close == Close::Chinchon {
        return Vec::new();
    }
    let rules = game.rules();
    let drawn = hands_from_view(view, CLOSE_DRAWS, seed);
    if drawn.is_empty() {
        return Vec::new();
    }
    let kind = match close {
        Close::MenosDiez => "menos_diez",
        _ => "normal",
    };
    (0..view.seats)
        .filter(|&b| b != me && !view.out[b])
        .map(|b| {
            let expected = drawn
                .iter()
                .map(|h| points_at_close(solver, rules, &h[b], close, &melds))
                .sum::<f64>()
                / drawn.len() as f64;
            let actual = points_at_close(solver, rules, &game.hand(b), close, &melds);
            let holds = view.holds.get(b).map_or(0, Hand::len).min(2);
            Screened {
                index: 0,
                seat: me,
                partner: b,
                choice,
                hidden: expected - actual,
                stratum: format!("close:{kind}:{holds}"),
                action: verb(action),
                legal: expected,
                centred: false,
            }
        })
        .collect()
}

/// The discard decision of the seat whose `view` it is, about to play `action` in
/// `game`, for the next player: each option's use to it from what the seat could know
/// (the next player's last discard this hand, `last`, included: the expected use, and
/// the seat's own deadwood left) and with its actual hand (see the module's docs). `seed`
/// seeds the hands drawn from the view.
pub fn weigh_discard(
    game: &ChinchonGame,
    view: &ChinchonView,
    legal: &[Action],
    action: &Action,
    last: Option<Card>,
    seed: u64,
) -> Option<Choice> {
    let me = view.seat?;
    let Action::Descarto(chosen) = *action else {
        return None;
    };
    let next = next_in(view, me)?;
    let options: Vec<Card> = view
        .hand
        .distinct()
        .filter(|&c| legal.contains(&Action::Descarto(c)))
        .collect();
    let at = options.iter().position(|&c| c == chosen)?;
    if options.len() < 2 {
        return None;
    }
    let solver = game.solver();
    let drawn = hands_from_view(view, DISCARD_DRAWS, seed);
    if drawn.is_empty() {
        return None;
    }
    let theirs = game.hand(next);
    let own = solver.analyze_hand(&view.hand).ok()?;
    let own_left = |o: Card| {
        own.discards()
            .iter()
            .find(|d| d.card == o)
            .map_or(0.0, |d| f64::from(d.deadwood))
    };
    let weights: Vec<f64> = drawn
        .iter()
        .map(|h| last.map_or(1.0, |x| kept_over(solver, &h[next], x)))
        .collect();
    let total: f64 = weights.iter().sum();
    if total <= 0.0 {
        return None;
    }
    let options = options
        .iter()
        .map(|&o| {
            let own = own_left(o);
            let draws: Vec<(f64, Vec<f64>, f64)> = drawn
                .iter()
                .zip(&weights)
                .map(|(h, &w)| (w, vec![use_of(solver, &h[next], o), own], 0.0))
                .collect();
            Worth {
                actual: use_of(solver, &theirs, o),
                cross: Vec::new(),
                ..Worth::of_draws(&draws)
            }
        })
        .collect();
    Some(Choice {
        index: 0,
        seat: me,
        partner: next,
        action: verb(action),
        kind: "discard".into(),
        chosen: at,
        options,
    })
}
