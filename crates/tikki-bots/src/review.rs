//! Tikki's review ([`tapete_review`]): every choice of one seat valued from its own view.
//!
//! - **Decisions and options.** Every lay and every retreat-round decision with more than
//!   one legal action; its options are all the legal actions (up to 127 lays of a
//!   seven-card hand; `keep` and every take-back/show pair in the retreat round). No two
//!   are merged: two different lays put different cards on the table, in a pile and in
//!   the hand, so the rules make none of them equivalent.
//! - **Rollouts.** Each world is dealt from the seat's view ([`TikkiGame`]'s `Resample`)
//!   and played to the end of the round by basico at every seat, each reading only what its
//!   own seat sees of that world (its hand and pile, how many cards each other seat laid,
//!   whether the stock is empty; the retreat round from its own view). Basico, not experto:
//!   a decision's options are played out in thousands of rounds, and experto searches
//!   hundreds of rounds for each of its own decisions, so it would cost some ten thousand
//!   times as much for a player whose choices a review would compare against the same
//!   rollouts anyway.
//! - **Value.** Where a round ends (or the game), the seat's chance of winning the game
//!   from the scores reached ([`EquityTable`], see [`equity`]).
//! - **Hands** are rounds, counted from 1.
//! - **No exact parts.** The exact chance that a lay is beaten would need every deal of the
//!   unseen cards among several hands at once (and the others' face-down cards were chosen,
//!   not dealt); that is neither cheap nor exact, so the review shows only the values.
//! - **Reasons** name the combinations the played and the best lay count as, from the
//!   numbers (`review.tikki.*` keys).
//!
//! ```no_run
//! use tapete_review::Settings;
//! use tapete_table::Record;
//! use tapete_tikki::{TikkiGame, TikkiRules};
//!
//! let record = Record::<TikkiGame>::new(TikkiRules::default(), 3, 7);
//! let review = tapete_tikki_bots::review::review(&record, 0, &Settings::default(), &|_, _| {})
//!     .unwrap();
//! assert!(review.decisions.is_empty());
//! ```

pub mod equity;

pub use equity::EquityTable;

use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use tapete_review::{Decision, Label, Review, ReviewError, Reviewer, Settings};
use tapete_table::story::{Line, Phrase};
use tapete_table::{Game, Record, ReplayError, Seat};
use tapete_tikki::bots::{Basico, Trick};
use tapete_tikki::combo::{best, Kind};
use tapete_tikki::{Action, Cards, Event, Phase, TikkiGame, TikkiView};

/// The reviewer of tikki for one kind of table: see the module docs.
#[derive(Clone, Debug)]
pub struct TikkiReviewer {
    table: Arc<EquityTable>,
}

impl TikkiReviewer {
    /// The reviewer of games of `seats` players with these rules (its equity table is
    /// measured on first use and kept for the next review).
    pub fn new(rules: &tapete_tikki::TikkiRules, seats: usize) -> TikkiReviewer {
        TikkiReviewer {
            table: EquityTable::of(rules, seats),
        }
    }

    /// The equity table the review values scores with.
    pub fn table(&self) -> &EquityTable {
        &self.table
    }
}

/// Reviews `seat` of the tikki game in `record` ([`tapete_review::review`] with
/// [`TikkiReviewer`]).
pub fn review(
    record: &Record<TikkiGame>,
    seat: Seat,
    settings: &Settings,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Review, ReviewError> {
    // A record whose table cannot be set up is refused before any table is measured.
    TikkiGame::new(&record.rules, record.seats, record.seed)
        .map_err(|e| ReviewError::Replay(ReplayError::Setup(e)))?;
    let reviewer = TikkiReviewer::new(&record.rules, record.seats);
    tapete_review::review(&reviewer, record, seat, settings, progress)
}

/// Basico's lay for `seat` in `game`, read from what that seat sees: its hand and pile,
/// how many cards each other seat has on the table (a seat is in the trick if it has laid
/// or still holds cards) and whether the stock is empty. The same choice as
/// [`Basico::lay`] on the seat's view, without building the view.
pub fn basico_lay(game: &TikkiGame, seat: Seat) -> Cards {
    let hand = game.hand(seat);
    let Some(b) = best(hand) else {
        return Cards::EMPTY;
    };
    let (mut on_table, mut to_come, mut need) = (0usize, 0usize, Kind::Pair);
    for o in (0..game.seats()).filter(|&o| o != seat) {
        let laid = game.laid(o).len();
        if laid == 0 && game.hand(o).is_empty() {
            continue;
        }
        on_table += laid;
        need = need.max(Basico::to_beat(laid));
        if laid == 0 {
            to_come += 1;
        }
    }
    let trick = Trick {
        on_table,
        to_come,
        need,
        last_cards: game.stock().is_empty(),
    };
    Basico::spend_or_shed(hand, &b, game.pile(seat), &trick)
}

impl Reviewer for TikkiReviewer {
    type G = TikkiGame;
    type Policy = ();

    fn options(
        &self,
        _view: &TikkiView,
        legal: &[Action],
        _played: &Action,
    ) -> Option<Vec<Action>> {
        Some(legal.to_vec())
    }

    fn policy(&self) {}

    fn rollout_action(
        &self,
        _policy: &mut (),
        world: &TikkiGame,
        seat: Seat,
        legal: &[Action],
        _rng: &mut ChaCha8Rng,
    ) -> Action {
        let wanted = match world.phase() {
            Phase::Lay => Action::Lay(basico_lay(world, seat)),
            Phase::Retreat => Basico::retreat(&world.view(seat)),
            Phase::Over => Action::Keep,
        };
        if legal.contains(&wanted) {
            wanted
        } else {
            legal[0]
        }
    }

    fn settle(&self, world: &TikkiGame, events: &[Event], seat: Seat) -> Option<f64> {
        events
            .iter()
            .any(|e| matches!(e, Event::RoundScored { .. } | Event::GameOver { .. }))
            .then(|| self.table.of_game(world, seat))
    }

    fn equity(&self, game: &TikkiGame, seat: Seat) -> f64 {
        self.table.of_game(game, seat)
    }

    fn hand(&self, game: &TikkiGame) -> u32 {
        game.round()
    }

    fn reason(&self, _view: &TikkiView, decision: &Decision) -> Option<Line> {
        reason(decision)
    }
}

/// An action as words: "lay 3♠ 4♠", "keep the cards on the table", "take 5♥ back,
/// showing 7♣".
fn action_phrase(a: &Action) -> (Phrase, String) {
    match *a {
        Action::Lay(cards) => (
            Phrase::new("review.tikki.lay").cards("cards", cards.iter()),
            format!("lay {cards}"),
        ),
        Action::Keep => (
            Phrase::new("review.tikki.keep"),
            "keep the cards on the table".into(),
        ),
        Action::Retreat { back, reveal } => (
            Phrase::new("review.tikki.retreat")
                .card("back", back)
                .card("reveal", reveal),
            format!("take {back} back, showing {reveal}"),
        ),
    }
}

/// A combination's kind as words (the narration's own keys).
fn kind_phrase(kind: Kind) -> Phrase {
    match kind {
        Kind::Single => Phrase::new("story.tikki.kind.single"),
        Kind::Pair => Phrase::new("story.tikki.kind.pair"),
        Kind::ThreeOfAKind => Phrase::new("story.tikki.kind.three"),
        Kind::FourOfAKind => Phrase::new("story.tikki.kind.four"),
        sf => Phrase::new("story.tikki.kind.straight_flush").num("n", sf.len() as i64),
    }
}

/// Points of game-win chance as words: "3 points".
fn points(loss: f64) -> (Phrase, String) {
    let n = loss.round() as i64;
    let text = if n == 1 {
        "1 point".to_string()
    } else {
        format!("{n} points")
    };
    (Phrase::new("story.tikki.points").num("count", n), text)
}

/// The reason for a decision, from its numbers: the best play, one as good as the best
/// within the noise, or what the best play does differently (a stronger or a weaker
/// combination, other cards for the same one, another retreat).
fn reason(d: &Decision) -> Option<Line> {
    let played: Action = d.played.parse().ok()?;
    let top: Action = d.best.parse().ok()?;
    let (play, play_text) = action_phrase(&played);
    let (other, other_text) = action_phrase(&top);
    let (loss, loss_text) = points(d.loss);
    if played == top {
        let win = (100.0 * d.played_win()).round() as i64;
        return Some(
            Phrase::new("review.tikki.best")
                .phrase("play", play)
                .num("win", win)
                .line(format!(
                    "{play_text}: the best play, {win}% to win the game"
                )),
        );
    }
    if d.label == Label::Good {
        return Some(
            Phrase::new("review.tikki.close")
                .phrase("play", play)
                .phrase("best", other)
                .phrase("loss", loss)
                .line(format!(
                    "{play_text}: as good as the best, {other_text}, within what the deals \
                     can tell ({loss_text} behind)"
                )),
        );
    }
    let kinds = match (played, top) {
        (Action::Lay(p), Action::Lay(b)) => best(p).zip(best(b)).map(|(p, b)| (p.kind, b.kind)),
        _ => None,
    };
    let Some((mine, theirs)) = kinds else {
        return Some(
            Phrase::new("review.tikki.other")
                .phrase("play", play)
                .phrase("best", other)
                .phrase("loss", loss)
                .line(format!(
                    "{other_text} was worth {loss_text} more of the chance to win the game \
                     than {play_text}"
                )),
        );
    };
    let phrase = |key: &str| {
        let p = Phrase::new(key)
            .phrase("play", play.clone())
            .phrase("kind", kind_phrase(mine))
            .phrase("best", other.clone())
            .phrase("loss", loss.clone());
        // Of the same kind, the best's kind is not said again.
        if mine == theirs {
            p
        } else {
            p.phrase("best_kind", kind_phrase(theirs))
        }
    };
    Some(match mine.cmp(&theirs) {
        std::cmp::Ordering::Less => phrase("review.tikki.weaker").line(format!(
            "{play_text} plays a {mine} where {other_text} plays a {theirs}: {loss_text} \
             less of the chance to win the game"
        )),
        std::cmp::Ordering::Greater => phrase("review.tikki.spent").line(format!(
            "{play_text} spends a {mine}; {other_text} lays only a {theirs}: {loss_text} \
             less of the chance to win the game"
        )),
        std::cmp::Ordering::Equal => phrase("review.tikki.cards").line(format!(
            "{play_text} and {other_text} both play a {mine}; the cards chosen cost \
             {loss_text} of the chance to win the game"
        )),
    })
}
