//! Exact odds of prisoner's solitaire ("vangin pasianssi").
//!
//! # The game
//! From a shuffled deck of `suits × values` cards, `board` cards are dealt to the table and
//! stacked by value. The rest of the deck is turned three cards at a time and only the third
//! card counts: if the table holds a stack of its value, that stack is removed. The game is
//! won when the table is cleared before the deck runs out.
//!
//! # From the real game to the `pick` model
//! Every third card of a well-shuffled deck is as random as any other card, so the cards
//! that count are simply `pick` cards chosen uniformly from the `deck − board` left after
//! the deal, with `pick = ⌊(deck − board) / 3⌋` in the real game (13 for the 52-card deck
//! with 13 on the table: 39 cards turned, 13 of them third cards; a remainder of one or two
//! cards is never a third card). The game is won iff every value on the table appears at
//! least once among the picked cards. [`Params::real_game`] builds the real game's
//! parameters; [`Params`] itself lets `pick` be anything from 0 to `deck − board`.
//!
//! # The method
//! 1. **Condition on the table's type**: the sizes of its stacks, largest first, i.e. a
//!    partition of `board` into at most `values` parts, each at most `suits` (39 types for
//!    13 cards of the 52-card deck, OEIS A001400). Which values and suits a table has does
//!    not matter for what follows, only its type.
//! 2. **Tables of a type**: with `k` parts of which `c_p` have size `p`, pick the values
//!    (`values! / ((values − k)! · ∏ c_p!)` ways: the parts are ordered, so equal sizes
//!    are divided out) and for each the suits (`∏ C(suits, p)^c_p`). Over all types these
//!    add up to `C(deck, board)`.
//! 3. **Winning picks given a type**: the remaining deck has `suits − p` cards of a table
//!    value whose stack has `p`, and `suits` of every other value. The `pick`-subsets that
//!    hold at least one card of every table value are the coefficient of `z^pick` in
//!    `∏ (table values) [(1+z)^(suits−p) − 1] · ∏ (other values) (1+z)^suits`:
//!    each factor counts the ways to take cards of one value, and the `− 1` drops taking
//!    none. A stack holding all `suits` copies makes its factor 0: that type cannot be won.
//! 4. **Sum**: the answer is `Σ P(type) · P(win | type)`, which is the number of winning
//!    (table, pick) pairs over `C(deck, board) · C(deck − board, pick)`, reduced. Counts are
//!    big integers ([`num_bigint::BigUint`]), so any deck size is exact.
//!
//! The types are walked depth-first by part size, so tables sharing their largest stacks
//! share the product of their factors, and every polynomial is cut at degree `pick`.
//!
//! The same walk with one more variable per factor gives the exact [`distribution`] of
//! how many stacks (and cards) are left on the table when the deck runs out: in the `pick`
//! model these are the table values none of the picked cards hit. [`simulate`] plays the
//! real game as an independent check.
//!
//! ```
//! use tapete_solitaire_odds::{win_probability, Params};
//!
//! let p = win_probability(&Params::default()).unwrap();
//! assert_eq!(p.to_string(), "964444044208/262190765217675");
//! assert!((p.to_f64() - 0.003_678_405_848_532_853).abs() < 1e-15);
//! ```

mod exact;
mod fraction;
mod simulate;
pub mod web;

pub use exact::{
    count_types, distribution, types, win_count, win_probability, Count, Distribution, TypeOdds,
};
pub use fraction::Fraction;
pub use num_bigint::BigUint;
pub use simulate::{simulate, Simulation, CHUNK};

use thiserror::Error;

/// Most cards a deck may have (`suits × values`). Far beyond any real deck; it keeps the
/// exact computation to seconds.
pub const MAX_DECK: u32 = 1_000;

/// Most table types the exact computation goes through.
pub const MAX_TYPES: u64 = 100_000;

/// Most coefficient operations the exact computation may take (an estimate made before
/// starting: [`Params::work`]); a few seconds of big-integer arithmetic at most.
pub const MAX_WORK: u64 = 1_000_000_000;

/// The parameters of a game: the deck, the table and how many cards count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Params {
    /// Copies of each value (suits of the deck): 4 for a French deck.
    pub suits: u32,
    /// Values of the deck: 13 for a French deck.
    pub values: u32,
    /// Cards dealt to the table.
    pub board: u32,
    /// Cards picked from the rest of the deck (the third cards of the real game).
    pub pick: u32,
}

impl Default for Params {
    /// The classic game: 52 cards, 13 on the table, 13 third cards out of the 39 left.
    fn default() -> Params {
        Params {
            suits: 4,
            values: 13,
            board: 13,
            pick: 13,
        }
    }
}

/// Why a question cannot be answered.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OddsError {
    /// The deck has no suits.
    #[error("a deck needs at least one suit: suits is 0")]
    NoSuits,
    /// The deck has no values.
    #[error("a deck needs at least one value: values is 0")]
    NoValues,
    /// The deck is larger than [`MAX_DECK`].
    #[error("{suits} suits × {values} values is {deck} cards: at most {MAX_DECK} are supported")]
    DeckTooLarge {
        /// Suits asked for.
        suits: u32,
        /// Values asked for.
        values: u32,
        /// Their product.
        deck: u64,
    },
    /// More cards on the table than in the deck.
    #[error("the table cannot take {board} cards from a deck of {deck}")]
    BoardTooLarge {
        /// Cards asked for on the table.
        board: u32,
        /// Cards in the deck.
        deck: u32,
    },
    /// More cards picked than are left after the deal.
    #[error(
        "cannot pick {pick} cards: only {left} are left after dealing {board} of {deck} to \
         the table (board + pick is at most the deck)"
    )]
    PickTooLarge {
        /// Cards asked to pick.
        pick: u32,
        /// Cards on the table.
        board: u32,
        /// Cards in the deck.
        deck: u32,
        /// Cards left after the deal.
        left: u32,
    },
    /// Too many table types to go through.
    #[error(
        "{types} table types are too many to go through (at most {MAX_TYPES}): use a smaller \
         table or fewer suits"
    )]
    TooManyTypes {
        /// How many types (saturating).
        types: u64,
    },
    /// The computation would take too long.
    #[error(
        "that would take about {work} word operations (at most {MAX_WORK}): use a \
         smaller deck, table or pick"
    )]
    TooMuchWork {
        /// The estimate.
        work: u64,
    },
    /// The simulation plays the real game, whose `pick` is fixed by the deck and table.
    #[error(
        "the real game with {deck} cards and {board} on the table turns {real} third cards, \
         not {pick}: the simulation plays the real game, so pick must be {real}"
    )]
    NotTheRealGame {
        /// The pick asked for.
        pick: u32,
        /// The real game's pick, ⌊(deck − board) / 3⌋.
        real: u32,
        /// Cards in the deck.
        deck: u32,
        /// Cards on the table.
        board: u32,
    },
    /// A simulation of no games.
    #[error("simulate at least one game")]
    NoGames,
}

impl Params {
    /// The real game's parameters: `pick = ⌊(deck − board) / 3⌋`, the number of third cards
    /// when the rest of the deck is turned three at a time.
    pub fn real_game(suits: u32, values: u32, board: u32) -> Result<Params, OddsError> {
        let mut p = Params {
            suits,
            values,
            board,
            pick: 0,
        };
        p.check_deck()?;
        p.pick = p.real_pick();
        p.validate()?;
        Ok(p)
    }

    /// Cards in the deck, `suits × values` (saturating; [`Params::validate`] refuses decks
    /// above [`MAX_DECK`]).
    pub fn deck(&self) -> u32 {
        self.suits.saturating_mul(self.values)
    }

    /// Cards left after the deal, `deck − board` (0 if the table would take more).
    pub fn left(&self) -> u32 {
        self.deck().saturating_sub(self.board)
    }

    /// The real game's pick for this deck and table: `⌊(deck − board) / 3⌋`.
    pub fn real_pick(&self) -> u32 {
        self.left() / 3
    }

    /// Whether `pick` is the real game's.
    pub fn is_real_game(&self) -> bool {
        self.pick == self.real_pick()
    }

    fn check_deck(&self) -> Result<(), OddsError> {
        if self.suits == 0 {
            return Err(OddsError::NoSuits);
        }
        if self.values == 0 {
            return Err(OddsError::NoValues);
        }
        let deck = u64::from(self.suits) * u64::from(self.values);
        if deck > u64::from(MAX_DECK) {
            return Err(OddsError::DeckTooLarge {
                suits: self.suits,
                values: self.values,
                deck,
            });
        }
        Ok(())
    }

    /// Checks the parameters describe a possible game: a deck of at least one suit and
    /// value and at most [`MAX_DECK`] cards, a table it can fill, and a pick the rest can
    /// give. `board = 0` (an empty table, won at once) and `pick = 0` (nothing counts) are
    /// valid.
    pub fn validate(&self) -> Result<(), OddsError> {
        self.check_deck()?;
        let deck = self.deck();
        if self.board > deck {
            return Err(OddsError::BoardTooLarge {
                board: self.board,
                deck,
            });
        }
        if self.pick > self.left() {
            return Err(OddsError::PickTooLarge {
                pick: self.pick,
                board: self.board,
                deck,
                left: self.left(),
            });
        }
        Ok(())
    }

    /// A generous estimate of the word operations of the exact computation: for every
    /// type, one polynomial product per part size (at most `suits`), each of
    /// `(pick + 1) × (suits + 1)` multiply-adds of numbers [`Params::words`] machine words
    /// long. [`types`], [`win_probability`] and [`distribution`] refuse above [`MAX_WORK`]
    /// (the distribution carries a column per stack or card count and counts
    /// `4 (board + 1)` times this).
    pub fn work(&self) -> u64 {
        let Some(types) = count_types(self.suits, self.values, self.board) else {
            return u64::MAX;
        };
        let sizes = u64::from(self.suits.min(self.board.max(1)));
        types
            .saturating_mul(sizes)
            .saturating_mul(u64::from(self.pick) + 1)
            .saturating_mul(u64::from(self.suits) + 1)
            .saturating_mul(self.words())
    }

    /// The length in 64-bit words of the largest counts the exact computation carries:
    /// the ways to deal the table times the ways to pick, `C(deck, board) · C(left, pick)`
    /// (estimated from the logarithms of the binomials, rounded up).
    pub fn words(&self) -> u64 {
        let log2_binomial = |n: u32, k: u32| -> f64 {
            let k = k.min(n.saturating_sub(k));
            (0..k)
                .map(|i| (f64::from(n - i) / f64::from(i + 1)).log2())
                .sum()
        };
        let bits = log2_binomial(self.deck(), self.board) + log2_binomial(self.left(), self.pick);
        (bits / 64.0).ceil().max(0.0) as u64 + 1
    }

    /// Checks, before any work, that everything asked of one question can be computed
    /// within the bounds: the win probability and the per-type breakdown (one walk each),
    /// and the distribution when asked. Refuses at once what would otherwise be refused
    /// after a while.
    pub fn check_answer(&self, distribution: bool) -> Result<(), OddsError> {
        self.check_exact(1)?;
        if distribution {
            self.check_exact((u64::from(self.board) + 1).saturating_mul(4))?;
        }
        Ok(())
    }

    /// Validates, then checks the exact computation stays within [`MAX_TYPES`] and
    /// [`MAX_WORK`] when each coefficient costs `factor` operations.
    fn check_exact(&self, factor: u64) -> Result<(), OddsError> {
        self.validate()?;
        let types = count_types(self.suits, self.values, self.board).unwrap_or(u64::MAX);
        if types > MAX_TYPES {
            return Err(OddsError::TooManyTypes { types });
        }
        let work = self.work().saturating_mul(factor);
        if work > MAX_WORK {
            return Err(OddsError::TooMuchWork { work });
        }
        Ok(())
    }
}
