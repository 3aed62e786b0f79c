//! Every game of the catalog passes the contract's checks and replays its golden
//! playthrough byte for byte. A game added to the catalog is checked here with no change
//! to this file; its golden file is `tests/golden/GAME.jsonl` (write it with
//! `TAPETE_BLESS=1 cargo test -p tapete-catalog --test conformance` and review it).

use std::path::PathBuf;
use tapete_host::{Host, Visitor};
use tapete_table::conformance::{random_games, Check};
use tapete_table::{Game, ResampleError};

/// Random games per seat count (the smallest and the largest table, and one between), as
/// long as they take at most [`BUDGET`] actions together.
const GAMES: u64 = 500;
/// Actions per seat count: five hundred short games (Mus), or as many long ones (random
/// Chinchón plays thousands of actions a game) as fit.
const BUDGET: u64 = 25_000;

struct Conforms;

impl Visitor for Conforms {
    type Output = Result<String, String>;
    fn visit<H: Host>(self) -> Result<String, String> {
        let (lo, hi) = (*H::SEATS.start(), *H::SEATS.end());
        let mut seat_counts = vec![lo, (lo + hi) / 2, hi];
        seat_counts.dedup();
        let mut said = Vec::new();
        for seats in seat_counts {
            let mut check = Check::<H::G>::new(H::arena_rules(), seats, GAMES);
            check.seed = 1000 * seats as u64;
            check.budget = BUDGET;
            check.thorough_every = 3;
            check.resample = H::resampler();
            if let Some(resample) = check.resample {
                check.resample_every = 11;
                // The error is the game's own, typed: a spectator has no cards to deal around.
                let game = H::G::new(&check.rules, seats, 0).map_err(|e| e.to_string())?;
                let mut rng = rand::SeedableRng::seed_from_u64(0);
                match resample(&game.spectator_view(), &mut rng) {
                    Err(ResampleError::Spectator) => {}
                    other => {
                        return Err(format!("{}: a spectator resampled to {other:?}", H::NAME))
                    }
                }
            }
            let r =
                random_games(&check).map_err(|e| format!("{} with {seats} seats: {e}", H::NAME))?;
            said.push(format!(
                "{} × {seats} seats: {} games, {} actions, {} refusals, {}/{} resamples differing",
                H::NAME,
                r.games,
                r.actions,
                r.refused,
                r.resamples_differing,
                r.resamples
            ));
        }
        Ok(said.join("\n"))
    }
}

/// Each game on its own thread: the games are independent and the test is the longest of
/// its binary.
#[test]
fn every_game_conforms() {
    let results: Vec<Result<String, String>> = std::thread::scope(|s| {
        let runs: Vec<_> = tapete_catalog::names()
            .into_iter()
            .map(|name| s.spawn(move || tapete_catalog::visit(name, Conforms).unwrap()))
            .collect();
        runs.into_iter()
            .map(|r| {
                r.join()
                    .unwrap_or_else(|_| Err("a game's check panicked".into()))
            })
            .collect()
    });
    for r in results {
        eprintln!("{}", r.unwrap_or_else(|e| panic!("{e}")));
    }
}

/// Actions in a golden playthrough: a hand or two, enough to cover deals and scoring while
/// keeping the file reviewable.
const GOLDEN_ACTIONS: usize = 30;

struct Golden;

impl Visitor for Golden {
    type Output = Result<(), String>;
    fn visit<H: Host>(self) -> Result<(), String> {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/golden")
            .join(format!("{}.jsonl", H::NAME));
        tapete_host::golden::check_file::<H>(
            &path,
            H::arena_rules(),
            H::DEFAULT_SEATS,
            7,
            H::default_bot(),
            GOLDEN_ACTIONS,
        )
    }
}

#[test]
fn every_game_replays_its_golden_playthrough() {
    for name in tapete_catalog::names() {
        tapete_catalog::visit(name, Golden)
            .unwrap()
            .unwrap_or_else(|e| panic!("{e}"));
    }
}
