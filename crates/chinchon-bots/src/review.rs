//! The review of a Chinchón game ([`tapete_review`]): every real choice of one seat —
//! the stock or the pile, the discard, closing or not, laying cards off — valued from that
//! seat's view alone.
//!
//! - **Options.** Every legal action: both draws; every distinct card to discard (the
//!   game has no idea of cards of equal effect, so none are merged); every card a close
//!   can be made with (the close it makes follows from the card); at meter cartas every
//!   card that fits and `listo`. A false close (a table that allows them lists a close
//!   with every card) is weighed only when it was played: it costs 50 points and the
//!   hand, and is never worth weighing otherwise.
//! - **Rollouts.** Each option is played in worlds dealt from the seat's view
//!   ([`ChinchonGame::resample`]), then the rest of the hand by the rollout players
//!   ([`Rollout`]), each reading its own seat's view of the world.
//! - **Value.** A rollout stops when the hand is counted (or dealt again after a false
//!   close, or the game is over) and is worth the seat's chance of winning the game from
//!   the scores reached ([`equity`]).
//! - **Exact parts.** Each discard carries `"close"`: the exact chance to be able to close
//!   within 1, 2 and 3 draws after it (`tapete-chinchon-odds`), from the seven cards left
//!   and the cards the seat knows to be out of the stock — the pile with the discard on
//!   top and the cards the others took from the pile and still hold.
//! - **Reason.** A line (`review.chinchon.*`) comparing the option played with the best
//!   one, or with the runner-up when it was the best, by their chances to win the game and,
//!   for discards, to close.
//!
//! ```
//! use tapete_chinchon::{ChinchonGame, ChinchonRules};
//! use tapete_chinchon_bots::review::ChinchonReviewer;
//! use tapete_review::Reviewer;
//! use tapete_table::Game;
//!
//! let game = ChinchonGame::new(&ChinchonRules::default(), 2, 1).unwrap();
//! let r = ChinchonReviewer::default();
//! assert_eq!(r.hand(&game), 1);
//! let even = r.equity(&game, 0) + r.equity(&game, 1);
//! assert!((even - 1.0).abs() < 1e-9);
//! ```

pub mod equity;

use crate::Experto;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Map, Value};
use tapete_chinchon::bots::Basico;
use tapete_chinchon::meld::Solver;
use tapete_chinchon::rules::TARGETS;
use tapete_chinchon::{Action, Card, ChinchonGame, ChinchonView, Event, Phase};
use tapete_chinchon_odds::{odds, odds_each, Query, MAX_DRAWS};
use tapete_review::{Decision, OptionValue, Reviewer};
use tapete_table::story::{Line, Phrase};
use tapete_table::{Bot, Game, Seat};

/// Who plays the rollouts, at every seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Rollout {
    /// `basico`, the source's rule-based player (what maestro's search rolls out with
    /// too): a discard of eight options is valued in about 15 ms, a draw in 2 ms
    /// (`benches/review.rs`), well within the 200 ms a decision the review aims at.
    #[default]
    Basico,
    /// `experto`: plays the rest of the hand more as a strong player would, at some sixty
    /// times the cost (about 0.9 s for that discard).
    Experto,
}

/// The rollout players of one world: one player serves every seat (neither keeps any
/// memory of a seat; each decides from the view it is handed).
pub enum Players {
    /// `basico` at every seat.
    Basico(Basico),
    /// `experto` at every seat.
    Experto(Box<Experto>),
}

/// Chinchón's reviewer (see the module docs).
#[derive(Clone, Copy, Debug, Default)]
pub struct ChinchonReviewer {
    /// Who plays the rollouts.
    pub rollout: Rollout,
}

/// The chance of winning the game from the scores of `game` for `seat`: 1 or 0 once the
/// game is over (a shared win split among the winners), 0 once the seat is out, else from
/// the tables of [`equity`].
pub fn equity(game: &ChinchonGame, seat: Seat) -> f64 {
    if game.phase() == Phase::Over {
        let w = game.winners();
        return if w.contains(&seat) {
            1.0 / w.len() as f64
        } else {
            0.0
        };
    }
    let v = game.spectator_view();
    equity::win_chance(&equity::Standing::from_view(&v), seat)
}

/// The cards `view`'s seat knows to be out of the stock once it has discarded `card`: the
/// pile with `card` on top, and what the others took from the pile and still hold.
pub fn seen_after_discard(view: &ChinchonView, card: Card) -> Vec<Card> {
    let me = view.seat.unwrap_or(usize::MAX);
    let mut seen = view.pile.clone();
    seen.push(card);
    for (o, h) in view.holds.iter().enumerate() {
        if o != me {
            seen.extend(h.iter());
        }
    }
    seen
}

/// The exact chances to be able to close within 1, 2 and 3 draws after `view`'s seat
/// discards `card`, by the odds engine; `None` when the seat does not hold eight cards
/// with `card` among them, or the engine refuses the query.
pub fn close_odds(view: &ChinchonView, card: Card) -> Option<Vec<f64>> {
    let o = odds(&close_query(view, card)?).ok()?;
    Some(o.within.iter().map(|w| w.p).collect())
}

/// The odds engine's question for discarding `card` from the eight cards of `view`.
fn close_query(view: &ChinchonView, card: Card) -> Option<Query> {
    if view.hand.len() != 8 {
        return None;
    }
    let mut seven = view.hand;
    if !seven.remove(card) {
        return None;
    }
    let mut rules = view.rules;
    // The target plays no part in the odds; a game older than today's bound on targets
    // still gets them.
    rules.target = rules.target.clamp(*TARGETS.start(), *TARGETS.end());
    let q = Query {
        rules,
        decks: view.decks,
        hand: seven.to_vec(),
        seen: seen_after_discard(view, card),
        draws: MAX_DRAWS,
    };
    Some(q)
}

/// The cards `hand` can really close with (putting the card down leaves seven that
/// close).
fn real_closes(view: &ChinchonView) -> Vec<Card> {
    let solver = Solver::new(&view.rules);
    solver
        .analyze_hand(&view.hand)
        .map(|a| {
            a.discards()
                .iter()
                .filter(|d| d.close.is_some())
                .map(|d| d.card)
                .collect()
        })
        .unwrap_or_default()
}

impl Reviewer for ChinchonReviewer {
    type G = ChinchonGame;
    type Policy = Players;

    fn options(
        &self,
        view: &ChinchonView,
        legal: &[Action],
        played: &Action,
    ) -> Option<Vec<Action>> {
        if legal.len() < 2 {
            return None;
        }
        let closes = if view.rules.allow_false_close && view.phase == Phase::Discard {
            Some(real_closes(view))
        } else {
            None
        };
        let options: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|a| match (a, &closes) {
                (Action::Cierro(c), Some(real)) => a == played || real.contains(c),
                _ => true,
            })
            .collect();
        (options.len() > 1).then_some(options)
    }

    fn policy(&self) -> Players {
        match self.rollout {
            Rollout::Basico => Players::Basico(Basico::default()),
            Rollout::Experto => Players::Experto(Box::default()),
        }
    }

    fn rollout_action(
        &self,
        policy: &mut Players,
        world: &ChinchonGame,
        seat: Seat,
        legal: &[Action],
        rng: &mut ChaCha8Rng,
    ) -> Action {
        let view = world.view(seat);
        match policy {
            Players::Basico(b) => b.act(&view, legal, rng),
            Players::Experto(e) => e.act(&view, legal, rng),
        }
    }

    fn settle(&self, world: &ChinchonGame, events: &[Event], seat: Seat) -> Option<f64> {
        events
            .iter()
            .any(|e| {
                matches!(
                    e,
                    Event::HandScored(_) | Event::FalseClose { .. } | Event::GameOver { .. }
                )
            })
            .then(|| equity(world, seat))
    }

    fn equity(&self, game: &ChinchonGame, seat: Seat) -> f64 {
        equity(game, seat)
    }

    fn hand(&self, game: &ChinchonGame) -> u32 {
        game.hand_number()
    }

    fn exact(
        &self,
        view: &ChinchonView,
        options: &[Action],
    ) -> (Map<String, Value>, Vec<Map<String, Value>>) {
        // Every discard leaves the same cards unseen: their odds are counted together.
        let discards: Vec<Option<Card>> = options
            .iter()
            .map(|a| match (a, view.phase) {
                (Action::Descarto(c), Phase::Discard) => Some(*c),
                _ => None,
            })
            .collect();
        let queries: Vec<Query> = discards
            .iter()
            .flatten()
            .filter_map(|&c| close_query(view, c))
            .collect();
        let mut counted = odds_each(&queries).into_iter();
        let per_option = discards
            .iter()
            .map(|d| {
                let mut m = Map::new();
                if d.is_some_and(|c| close_query(view, c).is_some()) {
                    if let Some(Ok(o)) = counted.next() {
                        let p: Vec<f64> = o.within.iter().map(|w| w.p).collect();
                        m.insert("close".into(), json!(p));
                    }
                }
                m
            })
            .collect();
        (Map::new(), per_option)
    }

    fn reason(&self, view: &ChinchonView, d: &Decision) -> Option<Line> {
        reason(view, d)
    }

    fn max_rollout_steps(&self) -> usize {
        // A hand lasts at most `hand_turns` turns (1000), each a draw and a discard, and
        // the lay-offs after a close.
        2500
    }
}

/// A chance as a whole percentage.
fn pct(p: f64) -> i64 {
    (100.0 * p).round() as i64
}

/// An option's chance to close within the most draws looked at, if it has one.
fn close_within(o: &OptionValue) -> Option<f64> {
    o.exact
        .get("close")?
        .as_array()?
        .get(usize::from(MAX_DRAWS) - 1)?
        .as_f64()
}

/// An action in words (`review.chinchon.act.*`): a phrase and its English text (`None`
/// for `tomo` with no pile, which is never legal).
fn act_phrase(view: &ChinchonView, a: Action) -> Option<(Phrase, String)> {
    let p = |k: &str| Phrase::new(format!("review.chinchon.act.{k}"));
    Some(match a {
        Action::Robo => (p("robo"), "drawing from the stock".into()),
        Action::Tomo => {
            let c = view.pile_top()?;
            (
                p("tomo").card("card", c),
                format!("taking {c} from the pile"),
            )
        }
        Action::Descarto(c) => (p("descarto").card("card", c), format!("discarding {c}")),
        Action::Cierro(c) => (
            p("cierro").card("card", c),
            format!("closing with {c} down"),
        ),
        Action::Meto(c) => (p("meto").card("card", c), format!("laying {c} off")),
        Action::Listo => (p("listo"), "laying off no more".into()),
    })
}

/// The reason for decision `d` made in `view`: the option played against the best one,
/// or against the runner-up when it was the best (see the module docs).
fn reason(view: &ChinchonView, d: &Decision) -> Option<Line> {
    let played = d.options.iter().find(|o| o.action == d.played)?;
    // An option as good as the best (a tie) was a best choice too.
    let is_best = d.played == d.best || played.win >= d.best_win();
    let other = if is_best {
        d.options
            .iter()
            .filter(|o| o.action != d.played)
            .max_by(|a, b| a.win.total_cmp(&b.win))?
    } else {
        d.options.iter().find(|o| o.action == d.best)?
    };
    let (pa, ta) = act_phrase(view, played.action.parse().ok()?)?;
    let (pb, tb) = act_phrase(view, other.action.parse().ok()?)?;
    let (w, wo) = (pct(played.win), pct(other.win));
    let closes = close_within(played).zip(close_within(other));
    let (key, text) = match (is_best, closes) {
        (true, None) => (
            "best",
            format!("{ta} was the best choice, {w}% to win the game; next, {tb} with {wo}%"),
        ),
        (true, Some((c, co))) => (
            "best_close",
            format!(
                "{ta} was the best choice: a {}% chance to close within 3 draws and {w}% to \
                 win the game; next, {tb}: {}% and {wo}%",
                pct(c),
                pct(co)
            ),
        ),
        (false, None) => (
            "better",
            format!("{tb} was better: {wo}% to win the game, against {w}% for {ta}"),
        ),
        (false, Some((c, co))) => (
            "better_close",
            format!(
                "{ta} kept a {}% chance to close within 3 draws and {w}% to win the game; \
                 {tb}, {}% and {wo}%",
                pct(c),
                pct(co)
            ),
        ),
    };
    let mut phrase = Phrase::new(format!("review.chinchon.{key}"))
        .phrase("played", pa)
        .phrase("other", pb)
        .num("win", w)
        .num("other_win", wo);
    if let Some((c, co)) = closes {
        phrase = phrase.num("close", pct(c)).num("other_close", pct(co));
    }
    Some(phrase.line(text))
}
