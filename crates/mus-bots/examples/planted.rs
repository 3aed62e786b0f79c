//! Measures the Mus review on planted errors (docs/review.md has the results).
//!
//! Plays games of maestro (seats 0 and 2) against experto, reviews seat 0 twice (two
//! seeds), and plants errors: at some of seat 0's decisions, another of the options the
//! review weighs takes the place of maestro's choice. Each planted choice's true cost is
//! its loss against maestro's choice, valued from the seat's view in many more worlds than
//! a review uses; the review's label of the planted choice is the one `decision_at` gives
//! with the default settings. Prints one JSON line per game and a summary.
//!
//! `cargo run --release -p tapete-mus-bots --example planted -- GAMES [FIRST_SEED] [PLANT_EVERY]`

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use tapete_mus::{MusGame, MusRules};
use tapete_mus_bots::review::MusReviewer;
use tapete_review::{decision_at, review, Label, Reviewer, Settings};
use tapete_table::{play_out, Bot, Game, Record};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(10);
    let first: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let every: f64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10.0);
    let rules = MusRules {
        juegos: 1,
        vacas: 1,
        ..MusRules::default()
    };
    let base = Settings {
        max_worlds: std::env::var("MAX_WORLDS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(Settings::default().max_worlds),
        target_se: std::env::var("TARGET_SE")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(Settings::default().target_se),
        ..Settings::default()
    };
    let precise = Settings {
        min_worlds: 1000,
        max_worlds: 1000,
        target_se: 0.0,
        ..Settings::default()
    };
    let (mut untouched, mut untouched_marked, mut relabelled) = (0usize, 0usize, 0usize);
    let mut planted: Vec<(f64, f64, Label)> = Vec::new();
    for seed in first..first + games {
        let mut g = MusGame::new(&rules, 4, seed).expect("rules");
        let mut rec = Record::new(rules.clone(), 4, seed);
        let mut bots: Vec<Box<dyn Bot<MusGame>>> = (0..4)
            .map(|s| tapete_mus_bots::by_name(if s % 2 == 0 { "maestro" } else { "experto" }))
            .collect::<Result<_, _>>()
            .expect("levels");
        play_out(
            &mut g,
            &mut bots,
            &mut ChaCha8Rng::seed_from_u64(seed),
            &mut rec,
            100_000,
            |_, _, _, _| {},
        )
        .expect("the game plays");
        let one = review(&MusReviewer, &rec, 0, &base, &|_, _| {}).expect("review");
        let two = review(
            &MusReviewer,
            &rec,
            0,
            &Settings {
                seed: 0x5eed ^ seed,
                ..base.clone()
            },
            &|_, _| {},
        )
        .expect("review");
        untouched += one.decisions.len();
        untouched_marked += one
            .decisions
            .iter()
            .filter(|d| d.label >= Label::Mistake)
            .count();
        let flips: Vec<_> = one
            .decisions
            .iter()
            .zip(&two.decisions)
            .filter(|(a, b)| a.label != b.label)
            .map(|(a, b)| json!([a.label.name(), a.loss, a.se, b.label.name(), b.loss, b.se]))
            .collect();
        relabelled += flips.len();
        // Plant errors: about one decision in `every`.
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xbad);
        let mut state = MusGame::new(&rules, 4, seed).expect("rules");
        let mut game_planted = Vec::new();
        for (at, (s, a)) in rec.actions.iter().enumerate() {
            if *s == 0 && one.decisions.iter().any(|d| d.at == at) && rng.gen_bool(1.0 / every) {
                let view = state.view(0);
                let legal = state.legal_actions(0);
                let options = MusReviewer.options(&view, &legal, a).unwrap_or_default();
                let others: Vec<_> = options.iter().filter(|o| *o != a).cloned().collect();
                if !others.is_empty() {
                    let bad = others[rng.gen_range(0..others.len())].clone();
                    let mut planted_rec = rec.clone();
                    planted_rec.actions.truncate(at);
                    planted_rec.actions.push((0, bad.clone()));
                    let label =
                        decision_at(&MusReviewer, &planted_rec, 0, at, &Settings::default())
                            .expect("review")
                            .map_or(Label::Good, |d| d.label);
                    // The true cost: planted against maestro's choice, in many worlds.
                    let mut pair = planted_rec.clone();
                    pair.actions[at].1 = a.clone();
                    let d = decision_at(&MusReviewer, &pair, 0, at, &precise).expect("review");
                    if let Some(d) = d {
                        let win = |x: &str| {
                            d.options
                                .iter()
                                .find(|o| o.action == x)
                                .map_or(0.0, |o| o.win)
                        };
                        let cost = 100.0 * (win(&a.to_string()) - win(&bad.to_string()));
                        game_planted.push(json!({"at": at, "played": a.to_string(), "planted": bad.to_string(), "cost": cost, "label": label.name()}));
                        planted.push((cost, d.se, label));
                    }
                }
            }
            state.apply(*s, a).expect("replays");
        }
        println!(
            "{}",
            json!({"seed": seed, "decisions": one.decisions.len(), "counts": one.counts(), "planted": game_planted, "flips": flips})
        );
    }
    let costly: Vec<_> = planted.iter().filter(|p| p.0 >= 10.0).collect();
    let caught = costly.iter().filter(|p| p.2 >= Label::Mistake).count();
    println!(
        "{}",
        json!({
            "games": games,
            "untouched": untouched,
            "untouched_marked_mistake_or_blunder": untouched_marked,
            "relabelled_with_another_seed": relabelled,
            "planted": planted.len(),
            "planted_costing_10_or_more": costly.len(),
            "of_those_marked_mistake_or_blunder": caught,
        })
    );
}
