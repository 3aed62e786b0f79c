//! The review engine on a game whose values are known exactly.

use tapete_review::toy::{Duel, DuelAction, DuelReviewer};
use tapete_review::{review, Label, Review, ReviewError, Settings};
use tapete_table::{Game, Record};

fn record(seed: u64, action: DuelAction) -> Record<Duel> {
    let mut rec = Record::<Duel>::new((), 2, seed);
    rec.actions.push((0, action));
    rec
}

fn run(rec: &Record<Duel>, settings: &Settings) -> Review {
    review(&DuelReviewer, rec, 0, settings, &|_, _| {}).unwrap()
}

fn card(seed: u64) -> [u8; 2] {
    Duel::new(&(), 2, seed).unwrap().cards
}

#[test]
fn values_match_the_exact_chances() {
    for seed in 0..12 {
        let c = card(seed)[0];
        let r = run(&record(seed, DuelAction::Fold), &Settings::default());
        let d = &r.decisions[0];
        let bet = d.options.iter().find(|o| o.action == "bet").unwrap();
        let exact = f64::from(c - 1) / 9.0;
        assert!(
            (bet.win - exact).abs() <= 3.0 * bet.se + 1e-9,
            "card {c}: {} ± {} against {exact}",
            bet.win,
            bet.se
        );
        let fold = d.options.iter().find(|o| o.action == "fold").unwrap();
        assert_eq!(fold.win, 0.0);
        // The loss is the bet's value, to its error; the label follows it.
        assert!((d.loss / 100.0 - exact).abs() <= 3.0 * d.se / 100.0 + 1e-9);
        let want = if exact >= 0.2 + 3.0 * bet.se {
            Label::Blunder
        } else {
            d.label
        };
        assert_eq!(d.label, want, "card {c}: loss {} ± {}", d.loss, d.se);
        if c == 1 {
            assert_eq!((d.loss, d.label), (0.0, Label::Good));
        }
    }
}

#[test]
fn a_review_never_reads_a_hidden_card() {
    // Two deals where seat 0 holds the same card and seat 1 another: seat 0's review is
    // the same document, word for word.
    let seeds: Vec<u64> = (0..200).collect();
    let mut found = 0;
    for &a in &seeds {
        for &b in &seeds {
            let (ca, cb) = (card(a), card(b));
            if a < b && ca[0] == cb[0] && ca[1] != cb[1] {
                let ra = run(&record(a, DuelAction::Bet), &Settings::default());
                let rb = run(&record(b, DuelAction::Bet), &Settings::default());
                assert_eq!(ra.decisions, rb.decisions, "seeds {a} and {b}");
                found += 1;
            }
        }
        if found >= 3 {
            break;
        }
    }
    assert!(found >= 3);
}

#[test]
fn the_same_seed_gives_the_same_review_on_any_number_of_threads() {
    let rec = record(5, DuelAction::Fold);
    let one = run(&rec, &Settings::default());
    let two = run(
        &rec,
        &Settings {
            threads: 2,
            ..Settings::default()
        },
    );
    assert_eq!(one, two);
    let other = run(
        &rec,
        &Settings {
            seed: 99,
            ..Settings::default()
        },
    );
    assert_eq!(one.decisions[0].label, other.decisions[0].label);
}

#[test]
fn luck_and_skill_sum_to_the_result() {
    for (seed, a) in [
        (1, DuelAction::Bet),
        (2, DuelAction::Fold),
        (3, DuelAction::Bet),
    ] {
        let r = run(&record(seed, a), &Settings::default());
        let sum = r.luck + r.skill;
        assert!((sum - (r.result - 50.0)).abs() < 0.02, "{r:?}");
        assert_eq!(r.hands.len(), 1);
    }
}

#[test]
fn bad_records_and_seats_are_refused_by_name() {
    let rec = record(1, DuelAction::Bet);
    let e = review(&DuelReviewer, &rec, 2, &Settings::default(), &|_, _| {}).unwrap_err();
    assert!(matches!(e, ReviewError::Seat { seat: 2, seats: 2 }), "{e}");
    assert_eq!(
        e.to_string(),
        "seat 2 is not at this table: its seats are 0–1"
    );
    let mut bad = rec.clone();
    bad.actions.push((1, DuelAction::Fold));
    let e = review(&DuelReviewer, &bad, 0, &Settings::default(), &|_, _| {}).unwrap_err();
    assert!(e.to_string().contains("action 1"), "{e}");
    // Seat 1 never chose: nothing to review, and no error.
    let r = review(&DuelReviewer, &rec, 1, &Settings::default(), &|_, _| {}).unwrap();
    assert!(r.decisions.is_empty());
    assert_eq!(r.accuracy, 100.0);
}

/// The duel's reviewer, unable to deal a world when the seat holds a 10.
struct NoWorldForTens;

impl tapete_review::Reviewer for NoWorldForTens {
    type G = Duel;
    type Policy = ();
    fn options(
        &self,
        v: &tapete_review::toy::DuelView,
        l: &[DuelAction],
        p: &DuelAction,
    ) -> Option<Vec<DuelAction>> {
        DuelReviewer.options(v, l, p)
    }
    fn world(
        &self,
        v: &tapete_review::toy::DuelView,
        rng: &mut rand_chacha::ChaCha8Rng,
    ) -> Option<Duel> {
        (v.card != 10).then(|| DuelReviewer.world(v, rng)).flatten()
    }
    fn policy(&self) {}
    fn rollout_action(
        &self,
        _: &mut (),
        w: &Duel,
        s: usize,
        l: &[DuelAction],
        r: &mut rand_chacha::ChaCha8Rng,
    ) -> DuelAction {
        DuelReviewer.rollout_action(&mut (), w, s, l, r)
    }
    fn settle(&self, w: &Duel, e: &[String], s: usize) -> Option<f64> {
        DuelReviewer.settle(w, e, s)
    }
    fn equity(&self, g: &Duel, s: usize) -> f64 {
        DuelReviewer.equity(g, s)
    }
    fn hand(&self, _: &Duel) -> u32 {
        1
    }
}

#[test]
fn a_decision_no_world_fits_is_left_unvalued_and_said() {
    let seed = (0..500).find(|&s| card(s)[0] == 10).unwrap();
    let r = review(
        &NoWorldForTens,
        &record(seed, DuelAction::Fold),
        0,
        &Settings::default(),
        &|_, _| {},
    )
    .unwrap();
    assert_eq!((r.decisions.len(), r.unvalued.clone()), (0, vec![0]));
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["unvalued"], serde_json::json!([0]));
    let other = (0..500).find(|&s| card(s)[0] != 10).unwrap();
    let r = review(
        &NoWorldForTens,
        &record(other, DuelAction::Fold),
        0,
        &Settings::default(),
        &|_, _| {},
    )
    .unwrap();
    assert_eq!(r.decisions.len(), 1);
    assert!(serde_json::to_value(&r).unwrap().get("unvalued").is_none());
}
