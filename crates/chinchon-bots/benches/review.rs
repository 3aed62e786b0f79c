//! How long the review takes to value one decision of Chinchón, with the review's default
//! `Settings` (at least 32 worlds, at most 384, one thread).
//!
//! The decisions are seat 0's in a game of experto against itself, two seats: a draw and a
//! discard in the middle of the first hand, each valued alone (`tapete_review::decision_at`):
//!
//! - `valuation/…`: its options played out in the worlds (what the target of 200 ms a
//!   decision is about), with basico and with experto playing the rollouts;
//! - before them, every decision of seat 0 in that hand valued once with each rollout
//!   player, the median and the longest printed;
//! - `with exact/discard`: the same discard with its exact chances to close within 1, 2
//!   and 3 draws for every option (the odds engine), as the review shows it.
//!
//! ```text
//! cargo bench -p tapete-chinchon-bots --features bench --bench review
//! ```

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{Map, Value};
use std::time::{Duration, Instant};
use tapete_chinchon::{Action, ChinchonGame, ChinchonRules, ChinchonView, Event, Phase};
use tapete_chinchon_bots::review::{ChinchonReviewer, Players, Rollout};
use tapete_chinchon_bots::Experto;
use tapete_review::{decision_at, Decision, Reviewer, Settings};
use tapete_table::story::Line;
use tapete_table::{Bot, Game, Record, Seat};

/// Chinchón's reviewer, its exact parts left out when `exact` is false.
struct Timed {
    inner: ChinchonReviewer,
    exact: bool,
}

impl Reviewer for Timed {
    type G = ChinchonGame;
    type Policy = Players;

    fn options(
        &self,
        view: &ChinchonView,
        legal: &[Action],
        played: &Action,
    ) -> Option<Vec<Action>> {
        self.inner.options(view, legal, played)
    }
    fn policy(&self) -> Players {
        self.inner.policy()
    }
    fn rollout_action(
        &self,
        policy: &mut Players,
        world: &ChinchonGame,
        seat: Seat,
        legal: &[Action],
        rng: &mut ChaCha8Rng,
    ) -> Action {
        self.inner.rollout_action(policy, world, seat, legal, rng)
    }
    fn settle(&self, world: &ChinchonGame, events: &[Event], seat: Seat) -> Option<f64> {
        self.inner.settle(world, events, seat)
    }
    fn equity(&self, game: &ChinchonGame, seat: Seat) -> f64 {
        self.inner.equity(game, seat)
    }
    fn hand(&self, game: &ChinchonGame) -> u32 {
        self.inner.hand(game)
    }
    fn exact(
        &self,
        view: &ChinchonView,
        options: &[Action],
    ) -> (Map<String, Value>, Vec<Map<String, Value>>) {
        if self.exact {
            self.inner.exact(view, options)
        } else {
            (Map::new(), vec![Map::new(); options.len()])
        }
    }
    fn reason(&self, view: &ChinchonView, d: &Decision) -> Option<Line> {
        self.inner.reason(view, d)
    }
}

/// A game of experto against itself, and the record of it.
fn game(seed: u64) -> (Record<ChinchonGame>, Vec<(usize, ChinchonView)>) {
    let rules = ChinchonRules::default();
    let mut g = ChinchonGame::new(&rules, 2, seed).expect("a table of two");
    let mut rec = Record::new(rules, 2, seed);
    let mut bot = Experto::default();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut views = Vec::new();
    while g.phase() != Phase::Over && g.hand_number() == 1 {
        let seat = g.turn();
        let legal = g.legal_actions(seat);
        let view = g.view(seat);
        let a = bot.act(&view, &legal, &mut rng);
        if seat == 0 && legal.len() > 1 {
            views.push((rec.actions.len(), view));
        }
        g.apply(seat, &a).expect("a legal action");
        rec.actions.push((seat, a));
    }
    (rec, views)
}

fn bench(c: &mut Criterion) {
    let (rec, views) = game(3);
    let pick = |phase: Phase| {
        views
            .iter()
            .filter(|(_, v)| v.phase == phase)
            .nth(2)
            .or_else(|| views.iter().find(|(_, v)| v.phase == phase))
            .cloned()
            .expect("a decision of seat 0")
    };
    let settings = Settings::default();
    let run = |at: usize, rollout: Rollout, exact: bool| -> Decision {
        let timed = Timed {
            inner: ChinchonReviewer { rollout },
            exact,
        };
        decision_at(&timed, &rec, 0, at, &settings)
            .expect("a review")
            .expect("a decision of seat 0")
    };
    for phase in [Phase::Draw, Phase::Discard] {
        let (at, _) = pick(phase);
        for rollout in [Rollout::Basico, Rollout::Experto] {
            let d = run(at, rollout, false);
            let worlds = d.options.iter().map(|o| o.worlds).max().unwrap_or(0);
            eprintln!(
                "{phase:?}, {rollout:?}: {} options, {worlds} worlds; {} played, {} best, loss {} ± {}",
                d.options.len(),
                d.played,
                d.best,
                d.loss,
                d.se
            );
        }
    }
    // Every decision of seat 0 in the hand, valuation only: the median and the longest.
    for rollout in [Rollout::Basico, Rollout::Experto] {
        let mut times: Vec<f64> = views
            .iter()
            .map(|(at, _)| {
                let t = Instant::now();
                black_box(run(*at, rollout, false));
                t.elapsed().as_secs_f64() * 1000.0
            })
            .collect();
        times.sort_by(f64::total_cmp);
        eprintln!(
            "{rollout:?}: {} decisions of seat 0 in the hand, median {:.1} ms, longest {:.1} ms",
            times.len(),
            times[times.len() / 2],
            times[times.len() - 1]
        );
    }
    let mut g = c.benchmark_group("valuation");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    for phase in [Phase::Draw, Phase::Discard] {
        let (at, _) = pick(phase);
        for rollout in [Rollout::Basico, Rollout::Experto] {
            let name = format!("{phase:?} {rollout:?}").to_lowercase();
            g.bench_function(name, |b| b.iter(|| black_box(run(at, rollout, false))));
        }
    }
    g.finish();
    let mut g = c.benchmark_group("with exact");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    let (at, _) = pick(Phase::Discard);
    g.bench_function("discard", |b| {
        b.iter(|| black_box(run(at, Rollout::default(), true)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
