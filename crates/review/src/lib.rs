//! The review of a game: every decision of one seat, valued from that seat's view alone.
//!
//! A game is rules + seed + actions ([`Record`]), so a finished game can be walked again
//! action by action. At each action of the reviewed seat that was a real choice, the review
//! asks the game's [`Reviewer`] which options to weigh, deals worlds that fit what the seat
//! could see ([`Resample`]: never a hidden card), plays every option out in each world to
//! the end of the hand with the game's rollout players, and scores the end by the seat's
//! chance of winning the game from the score reached ([`Reviewer::equity`]). The options are
//! compared on common worlds and common random streams, so the difference between two of
//! them is measured far more precisely than either value.
//!
//! From those values ([`doc`]):
//! - the **loss** of the option played, in points of game-win chance (0–100), against the
//!   best option, with its paired standard error, and a **label**: good (< 5), inaccuracy
//!   (≥ 5), mistake (≥ 10), blunder (≥ 20), given only when the loss is at least two
//!   standard errors ([`Label::of`]);
//! - an **accuracy** per decision and per seat (lichess's curve on the loss, [`accuracy`]);
//! - **luck and skill** per hand: skill is minus the losses of the seat's decisions in the
//!   hand, luck is everything else that moved its chance (the cards, the others' play);
//!   they sum to the change from the hand's start to its end.
//!
//! Games add what only they know: exact parts beside the values (Mus's leyes, Chinchón's
//! chance to close) through [`Reviewer::exact`], and a reason in words through
//! [`Reviewer::reason`].
//!
//! ```
//! use tapete_review::{review, Label, Settings};
//! use tapete_review::toy::{Duel, DuelReviewer};
//! use tapete_table::Record;
//!
//! // Seat 0 holds a 9 of ten cards and folds: a clear blunder.
//! let mut rec = Record::<Duel>::new((), 2, 3);
//! rec.actions.push((0, tapete_review::toy::DuelAction::Fold));
//! let r = review(&DuelReviewer, &rec, 0, &Settings::default(), &|_, _| {}).unwrap();
//! let d = &r.decisions[0];
//! assert_eq!(d.best, "bet");
//! assert_eq!(d.label, Label::Blunder);
//! ```

pub mod doc;
pub mod screen;
pub mod toy;
pub mod trading;
mod value;

pub use doc::{accuracy, Decision, HandSplit, Label, OptionValue, Review};

use rand_chacha::ChaCha8Rng;
use serde_json::{Map, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use tapete_table::story::Line;
use tapete_table::{Game, Record, ReplayError, Resample, Seat};

/// What a game tells the review: which choices to weigh, how the rest of a hand is played
/// out, what a score is worth, and its exact parts.
///
/// Everything it is handed at a decision is the seat's view; a world it plays out is one
/// dealt from that view ([`Resample`]), where each rollout player reads its own seat's view
/// of that world.
pub trait Reviewer: Sync {
    /// The game reviewed.
    type G: Resample;
    /// The players of a rollout, one value for every seat (made afresh for each world).
    type Policy;

    /// The options worth weighing at a decision where `played` was chosen from `legal`,
    /// all legal, `played` among them; `None` when the action was no real choice (only one
    /// legal action, or a formality the game does not review).
    fn options(
        &self,
        view: &<Self::G as Game>::View,
        legal: &[<Self::G as Game>::Action],
        played: &<Self::G as Game>::Action,
    ) -> Option<Vec<<Self::G as Game>::Action>>;

    /// A world consistent with `view` (a decision's), or `None` when none fits: by
    /// default [`Resample::resample`], the unseen cards at random. A game whose public
    /// calls say something of the hidden cards (a bet is likelier from a strong hand)
    /// weighs the worlds here; it reads nothing but the view.
    fn world(&self, view: &<Self::G as Game>::View, rng: &mut ChaCha8Rng) -> Option<Self::G> {
        <Self::G as Resample>::resample(view, rng).ok()
    }

    /// New rollout players.
    fn policy(&self) -> Self::Policy;

    /// How many models of the others an option is valued against (1 by default). A
    /// choice whose worth rests on how the others answer it (an órdago: do they see it?)
    /// is played out in every world once per model, and is worth its worst model's mean:
    /// the review does not credit a choice with answers it has no evidence for.
    fn models(
        &self,
        _view: &<Self::G as Game>::View,
        _option: &<Self::G as Game>::Action,
    ) -> usize {
        1
    }

    /// Sets rollout players made by [`Reviewer::policy`] to play model `model` (below
    /// [`Reviewer::models`]) of a decision seen as `view`, before a rollout.
    fn set_model(
        &self,
        _policy: &mut Self::Policy,
        _view: &<Self::G as Game>::View,
        _model: usize,
    ) {
    }

    /// The action `seat` takes in a rollout in `world` (`legal` is never empty): the
    /// rollout player decides from `seat`'s view of that world.
    fn rollout_action(
        &self,
        policy: &mut Self::Policy,
        world: &Self::G,
        seat: Seat,
        legal: &[<Self::G as Game>::Action],
        rng: &mut ChaCha8Rng,
    ) -> <Self::G as Game>::Action;

    /// After an action of a rollout (its `events`), `seat`'s chance of winning the game if
    /// the rollout stops here (the hand is over, or the game), or `None` to play on.
    fn settle(
        &self,
        world: &Self::G,
        events: &[<Self::G as Game>::Event],
        seat: Seat,
    ) -> Option<f64>;

    /// `seat`'s chance of winning the game from the public score of `game` (its side's, in
    /// a partnership game), as if a new hand were about to be dealt; 1 or 0 once over.
    fn equity(&self, game: &Self::G, seat: Seat) -> f64;

    /// The hand `game` is in, counted from 1 (public).
    fn hand(&self, game: &Self::G) -> u32;

    /// Exact parts of a decision, shown beside the values: members of the decision
    /// (Mus: `"leyes"`), then one map per option (Chinchón: `"close"`).
    fn exact(
        &self,
        _view: &<Self::G as Game>::View,
        options: &[<Self::G as Game>::Action],
    ) -> (Map<String, Value>, Vec<Map<String, Value>>) {
        (Map::new(), vec![Map::new(); options.len()])
    }

    /// A reason in words for a valued decision (a catalog key with its arguments and
    /// English text), built from its numbers.
    fn reason(&self, _view: &<Self::G as Game>::View, _decision: &Decision) -> Option<Line> {
        None
    }

    /// The most actions a rollout plays before it is scored where it stands.
    fn max_rollout_steps(&self) -> usize {
        2000
    }
}

/// How hard a review looks.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Seeds the worlds and the rollouts: the same seed, the same review.
    pub seed: u64,
    /// Worlds every decision is valued in, at least.
    pub min_worlds: usize,
    /// Worlds a decision is valued in, at most.
    pub max_worlds: usize,
    /// A decision stops once the loss of the option played is known to this standard
    /// error (in points of game-win chance) or its label is settled.
    pub target_se: f64,
    /// Threads (decisions are valued side by side); 0 for one per core.
    pub threads: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            seed: 0x7e71_5100,
            min_worlds: 32,
            max_worlds: 1024,
            target_se: 0.3,
            threads: 1,
        }
    }
}

/// Why a review could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    #[error("the record does not replay: {0}")]
    Replay(#[from] ReplayError),
    #[error("seat {seat} is not at this table: its seats are 0–{}", seats.saturating_sub(1))]
    Seat { seat: Seat, seats: usize },
    #[error("{0} has no review")]
    Unsupported(String),
    #[error("decision at action {at}: no deal of the unseen cards fits the seat's view")]
    NoWorld { at: usize },
    #[error("the review could not start its threads: {0}")]
    Threads(String),
}

/// One decision to value: where it is and what the seat saw.
struct Spot<G: Game> {
    at: usize,
    hand: u32,
    view: G::View,
    options: Vec<G::Action>,
    played: usize,
}

/// The decisions of `seat` in `record` up to action `until` (all when `None`), the hands'
/// starts (hand, the seat's chance then) and the seat's chance where the walk stopped.
#[allow(clippy::type_complexity)]
fn walk<R: Reviewer>(
    reviewer: &R,
    record: &Record<R::G>,
    seat: Seat,
    until: Option<usize>,
) -> Result<(Vec<Spot<R::G>>, Vec<(u32, f64)>, f64), ReviewError> {
    if seat >= record.seats {
        return Err(ReviewError::Seat {
            seat,
            seats: record.seats,
        });
    }
    let mut spots: Vec<Spot<R::G>> = Vec::new();
    let mut starts: Vec<(u32, f64)> = Vec::new();
    let mut game = R::G::new(&record.rules, record.seats, record.seed)
        .map_err(|e| ReviewError::Replay(e.into()))?;
    starts.push((reviewer.hand(&game), reviewer.equity(&game, seat)));
    let actions = match until {
        Some(at) => &record.actions[..(at + 1).min(record.actions.len())],
        None => &record.actions[..],
    };
    for (at, (s, action)) in actions.iter().enumerate() {
        if *s == seat && until.is_none_or(|u| u == at) {
            let legal = game.legal_actions(seat);
            if legal.len() > 1 && legal.contains(action) {
                let view = game.view(seat);
                if let Some(mut options) = reviewer.options(&view, &legal, action) {
                    options.retain(|o| legal.contains(o));
                    if !options.contains(action) {
                        options.push(action.clone());
                    }
                    if options.len() > 1 {
                        let played = options.iter().position(|o| o == action).unwrap_or(0);
                        spots.push(Spot {
                            at,
                            hand: reviewer.hand(&game),
                            view,
                            options,
                            played,
                        });
                    }
                }
            }
        }
        game.apply(*s, action).map_err(|e| ReplayError::Refused {
            index: at,
            seat: *s,
            action: action.to_string(),
            reason: e.to_string(),
        })?;
        let hand = reviewer.hand(&game);
        if starts.last().is_some_and(|&(h, _)| h != hand) && game.outcome().is_none() {
            starts.push((hand, reviewer.equity(&game, seat)));
        }
    }
    let end = reviewer.equity(&game, seat);
    Ok((spots, starts, end))
}

/// Values one decision, seeded by `settings` and its place in the game.
fn value_spot<R: Reviewer>(
    reviewer: &R,
    spot: &Spot<R::G>,
    seat: Seat,
    settings: &Settings,
) -> Result<Decision, ReviewError> {
    let seed = settings.seed ^ (spot.at as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let valued = value::value(
        reviewer,
        &spot.view,
        seat,
        &spot.options,
        spot.played,
        settings,
        seed,
    )
    .ok_or(ReviewError::NoWorld { at: spot.at })?;
    let (members, per_option) = reviewer.exact(&spot.view, &spot.options);
    let mut d = doc::decision(
        spot.at,
        spot.hand,
        &spot.options,
        spot.played,
        &valued,
        members,
        per_option,
    );
    d.reason = reviewer.reason(&spot.view, &d);
    Ok(d)
}

/// The decision of `seat` at action `at` of `record`, valued as [`review`] values it (the
/// same settings give the same numbers); `None` when that action was no real choice of
/// `seat`. Only the game up to `at` is replayed: a record may stop right after it.
pub fn decision_at<R: Reviewer>(
    reviewer: &R,
    record: &Record<R::G>,
    seat: Seat,
    at: usize,
    settings: &Settings,
) -> Result<Option<Decision>, ReviewError> {
    let (spots, _, _) = walk(reviewer, record, seat, Some(at))?;
    spots
        .first()
        .map(|spot| value_spot(reviewer, spot, seat, settings))
        .transpose()
}

/// Reviews `seat` of the game in `record`: every real choice it made, valued from its
/// view, with luck and skill per hand. `progress(done, total)` is told after each
/// decision valued (from any thread).
pub fn review<R: Reviewer>(
    reviewer: &R,
    record: &Record<R::G>,
    seat: Seat,
    settings: &Settings,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Review, ReviewError>
where
    <R::G as Game>::View: Send + Sync,
{
    let (spots, starts, end) = walk(reviewer, record, seat, None)?;
    let total = spots.len();
    let done = AtomicUsize::new(0);
    // A decision no world can be dealt for (declarations the game's dealer cannot meet in
    // its attempts) is left unvalued, and said so; the rest of the review stands.
    let value_spot = |spot: &Spot<R::G>| -> Result<Result<Decision, usize>, ReviewError> {
        let d = match value_spot(reviewer, spot, seat, settings) {
            Ok(d) => Ok(d),
            Err(ReviewError::NoWorld { at }) => Err(at),
            Err(e) => return Err(e),
        };
        progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
        Ok(d)
    };
    let threads = match settings.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let valued: Vec<Result<Decision, usize>> = if threads <= 1 {
        spots.iter().map(value_spot).collect::<Result<_, _>>()?
    } else {
        use rayon::prelude::*;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| ReviewError::Threads(e.to_string()))?;
        pool.install(|| spots.par_iter().map(value_spot).collect::<Result<_, _>>())?
    };
    let (mut decisions, mut unvalued) = (Vec::new(), Vec::new());
    for v in valued {
        match v {
            Ok(d) => decisions.push(d),
            Err(at) => unvalued.push(at),
        }
    }
    let mut review = doc::assemble(R::G::NAME, seat, decisions, &starts, end);
    review.unvalued = unvalued;
    Ok(review)
}
