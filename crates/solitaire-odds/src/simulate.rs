//! The Monte Carlo: the real game played many times, in parallel and reproducibly.
//!
//! Games are played in chunks of [`CHUNK`], each chunk from its own ChaCha stream of the
//! seed, so the result depends on the seed and the number of games alone, never on the
//! number of threads.

use crate::{OddsError, Params};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

/// Games per chunk: the unit of parallel work and of progress reports.
pub const CHUNK: u64 = 4_096;

/// What the simulation saw.
#[derive(Clone, Debug, PartialEq)]
pub struct Simulation {
    /// Games played.
    pub games: u64,
    /// Games won (the table cleared before the deck ran out).
    pub wins: u64,
    /// `wins / games`.
    pub rate: f64,
    /// The standard error of `rate`, `√(rate (1 − rate) / games)`.
    pub stderr: f64,
    /// `stacks[r]`: games that ended with `r` stacks left on the table.
    pub stacks: Vec<u64>,
    /// `cards[c]`: games that ended with `c` cards left on the table.
    pub cards: Vec<u64>,
}

/// Per-chunk tallies.
struct Tally {
    wins: u64,
    stacks: Vec<u64>,
    cards: Vec<u64>,
}

impl Tally {
    fn new(p: &Params) -> Tally {
        Tally {
            wins: 0,
            stacks: vec![0; p.values.min(p.board) as usize + 1],
            cards: vec![0; p.board as usize + 1],
        }
    }

    fn merge(mut self, o: Tally) -> Tally {
        self.wins += o.wins;
        for (a, b) in self.stacks.iter_mut().zip(o.stacks) {
            *a += b;
        }
        for (a, b) in self.cards.iter_mut().zip(o.cards) {
            *a += b;
        }
        self
    }
}

/// One real game on a shuffled prefix of the deck (`deck[i]` is the value of the `i`-th
/// card): the first `board` cards are the table, then every third card of the rest counts.
/// Returns the stacks and cards left when the deck ran out (0 and 0 for a win).
fn play(p: &Params, deck: &[u16], stack: &mut [u32]) -> (usize, usize) {
    let board = p.board as usize;
    stack.iter_mut().for_each(|s| *s = 0);
    let mut stacks = 0;
    for &v in &deck[..board] {
        let s = &mut stack[usize::from(v)];
        if *s == 0 {
            stacks += 1;
        }
        *s += 1;
    }
    let mut cards = board;
    // Cards are turned three at a time; the third of each three is the one that counts.
    for third in deck[board..].chunks_exact(3).map(|three| three[2]) {
        if stacks == 0 {
            break;
        }
        let s = &mut stack[usize::from(third)];
        if *s > 0 {
            cards -= *s as usize;
            *s = 0;
            stacks -= 1;
        }
    }
    (stacks, cards)
}

/// Plays the real game `games` times from `seed`, in parallel: shuffle the deck, deal
/// `board` cards to the table stacked by value, turn the rest three at a time and remove
/// the stack of every third card's value. `progress(n)` is called as each chunk of `n`
/// games ends.
///
/// The real game fixes `pick` at `⌊(deck − board) / 3⌋`; parameters with another pick are
/// refused ([`OddsError::NotTheRealGame`]) rather than simulated by a different game.
pub fn simulate(
    p: &Params,
    games: u64,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Simulation, OddsError> {
    p.validate()?;
    if !p.is_real_game() {
        return Err(OddsError::NotTheRealGame {
            pick: p.pick,
            real: p.real_pick(),
            deck: p.deck(),
            board: p.board,
        });
    }
    if games == 0 {
        return Err(OddsError::NoGames);
    }
    // Only the table and the turned threes matter: a uniformly shuffled prefix of that
    // length is all a game needs (any one or two cards after it are never third cards).
    let used = (p.board + 3 * p.pick) as usize;
    let chunks = games.div_ceil(CHUNK);
    let tally = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            rng.set_stream(c);
            let mut t = Tally::new(p);
            // Card i has value i mod values; the deck size is at most MAX_DECK.
            let mut deck: Vec<u16> = (0..p.deck()).map(|i| (i % p.values) as u16).collect();
            let mut stack = vec![0u32; p.values as usize];
            let count = CHUNK.min(games - c * CHUNK);
            for _ in 0..count {
                let (prefix, _) = deck.partial_shuffle(&mut rng, used);
                let (stacks, cards) = play(p, prefix, &mut stack);
                if stacks == 0 {
                    t.wins += 1;
                }
                t.stacks[stacks] += 1;
                t.cards[cards] += 1;
            }
            progress(count);
            t
        })
        .reduce(|| Tally::new(p), Tally::merge);
    let rate = tally.wins as f64 / games as f64;
    Ok(Simulation {
        games,
        wins: tally.wins,
        rate,
        stderr: (rate * (1.0 - rate) / games as f64).sqrt(),
        stacks: tally.stacks,
        cards: tally.cards,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(suits: u32, values: u32, board: u32) -> Params {
        Params::real_game(suits, values, board).expect("a game")
    }

    #[test]
    fn a_game_by_hand() {
        // Nine cards, three on the table, two third cards among the six left.
        let p = params(3, 3, 3);
        // Table 0 0 1; the rest 2 2 1 | 1 2 0: third cards 1 and 0, won.
        let deck = [0u16, 0, 1, 2, 2, 1, 1, 2, 0];
        assert_eq!(play(&p, &deck, &mut [0; 3]), (0, 0));
        // Third cards 2 and 2: both stacks stay, three cards.
        let deck = [0u16, 0, 1, 1, 2, 2, 0, 1, 2];
        assert_eq!(play(&p, &deck, &mut [0; 3]), (2, 3));
        // Third cards 0 then 2: the stack of 1 stays.
        let deck = [0u16, 0, 1, 2, 1, 0, 1, 2, 2];
        assert_eq!(play(&p, &deck, &mut [0; 3]), (1, 1));
    }

    #[test]
    fn refuses_a_pick_the_real_game_does_not_have() {
        let p = Params {
            pick: 12,
            ..Params::default()
        };
        assert_eq!(
            simulate(&p, 10, 0, &|_| {}),
            Err(OddsError::NotTheRealGame {
                pick: 12,
                real: 13,
                deck: 52,
                board: 13
            })
        );
        assert_eq!(
            simulate(&Params::default(), 0, 0, &|_| {}),
            Err(OddsError::NoGames)
        );
    }

    #[test]
    fn an_empty_table_is_always_won() {
        let s = simulate(&params(4, 13, 0), 1_000, 3, &|_| {}).expect("simulation");
        assert_eq!((s.wins, s.rate, s.stderr), (1_000, 1.0, 0.0));
    }
}
