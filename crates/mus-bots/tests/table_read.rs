//! maestro reads the table: each rival's record from the finished hands its views show,
//! the fearless answer to an órdago until a rival's pair has folded, and the readings
//! and rollout players that follow from a record.

use crate::common;

use tapete_cards::{rng_from_seed, CardSet};
use tapete_mus::{Action, Lance, Mode, MusGame, MusRules, MusView};
use tapete_mus_bots::leyes_cache::lance_chance;
use tapete_mus_bots::maestro::{percentile, PairAnswers, Reading, SeatRecord, TableRead};
use tapete_mus_bots::{policy, Basico, Experto, Maestro};
use tapete_table::{Bot, Game};

fn set(s: &str) -> CardSet {
    s.split_whitespace().map(|c| c.parse().unwrap()).collect()
}

/// A deal where seat 0, mano, holds three kings and has just cut the mus.
fn cut_deal() -> MusGame {
    let cards = [
        set("12o 12b 12c 1e"),
        set("11o 10b 7c 4e"),
        set("5o 6b 7o 4c"),
        set("11c 5c 6c 7e"),
    ];
    let mut g = MusGame::from_deal(MusRules::default(), cards, 0, [0, 0], 9).unwrap();
    g.apply(0, &Action::NoHayMus).unwrap();
    g
}

/// A hand where seat 0 throws an órdago at grande that both rivals decline, played to its
/// end by basico; the game and seat 0's view after it.
fn declined_ordago() -> MusGame {
    let mut g = cut_deal();
    g.apply(0, &Action::Ordago).unwrap();
    g.apply(1, &Action::NoQuiero).unwrap();
    g.apply(3, &Action::NoQuiero).unwrap();
    let mut bot = Basico::default();
    let mut rng = rng_from_seed(3);
    while g.view(0).last_hand.is_none() {
        let seat = common::turn(&g);
        let legal = g.legal_actions(seat);
        let a = bot.act(&g.view(seat), &legal, &mut rng);
        g.apply(seat, &a).unwrap();
    }
    g
}

#[test]
fn a_finished_hand_is_recorded_once() {
    let g = declined_ordago();
    let view = g.view(0);
    let shown = view
        .last_hand
        .as_ref()
        .unwrap()
        .cards
        .expect("shown at the counting");
    let mut t = TableRead::default();
    t.observe(&view);
    let once = t.clone();
    t.observe(&view);
    assert_eq!(t, once, "the same hand is not counted twice");
    assert_eq!((t.seats[0].mus_calls, t.seats[0].cuts), (1, 1));
    for seat in [1, 3] {
        let p = percentile(shown[seat], Lance::Grande, Mode::OchoReyes, false);
        // The first answer is to the grande órdago (basico may throw more later).
        assert_eq!(t.seats[seat].ordago_answers[0], (false, Some(p)));
    }
    let p0 = percentile(shown[0], Lance::Grande, Mode::OchoReyes, false);
    assert_eq!(t.seats[0].ordagos[0], p0);
    // Declining with a hand of percentile p puts the threshold between p and the top.
    // It is assumed to accept with any hand better than the best it declined with.
    let declined = t.seats[1].declined.iter().copied().fold(0.0, f64::max);
    assert!(declined >= t.seats[1].ordago_answers[0].1.unwrap());
    let th = t.seats[1].ordago_threshold().unwrap();
    assert!(th > declined && th < declined + 0.05, "{declined} {th}");
    assert_eq!(t.seats[2].ordago_threshold(), None);
}

#[test]
fn a_shown_ordago_answer_keeps_its_hands_lance_chance() {
    let g = declined_ordago();
    let view = g.view(0);
    let shown = view.last_hand.as_ref().unwrap().cards.unwrap();
    let mut t = TableRead::default();
    t.observe(&view);
    for seat in [1, 3] {
        let cards: Vec<_> = shown[seat].iter().collect();
        // Seat 0 is mano: seat s sits at position s.
        let p = lance_chance(&cards, seat, Lance::Grande, Mode::OchoReyes, false).unwrap();
        assert_eq!(t.seats[seat].ordago_chances[0], (false, p));
        assert!((0.0..=1.0).contains(&p));
    }
    assert!(t.seats[0].ordago_chances.is_empty() && t.seats[2].ordago_chances.is_empty());
}

#[test]
fn shown_ordago_answers_rule_out_the_thresholds_they_contradict() {
    const MODELS: [f64; 5] = [0.5, 0.65, 0.8, 0.9, 2.0];
    let mut t = TableRead::default();
    assert_eq!(
        t.answer_thresholds(1, true, &MODELS),
        MODELS,
        "no evidence: every model"
    );
    // A tight pair: declines at 0.72 and 0.75, accepts at 0.85 and 0.9.
    t.seats[1].ordago_chances = vec![(false, 0.75), (true, 0.85)];
    t.seats[3].ordago_chances = vec![(false, 0.72), (true, 0.9)];
    assert_eq!(t.answer_thresholds(1, true, &MODELS), [0.8, 0.9]);
    // The other pair's record counts for nothing.
    t.seats[0].ordago_chances = vec![(true, 0.1), (true, 0.2)];
    assert_eq!(t.answer_thresholds(1, true, &MODELS), [0.8, 0.9]);
    assert_eq!(
        t.answer_thresholds(0, true, &MODELS),
        [0.5, 0.65, 0.8, 0.9, 2.0]
    );
    // Two acceptances below 0.85 rule out 0.9; one below 0.75 does not rule out 0.8.
    t.seats[3]
        .ordago_chances
        .extend([(true, 0.75), (true, 0.8)]);
    assert_eq!(t.answer_thresholds(1, true, &MODELS), [0.8]);
    t.seats[1].ordago_chances.push((true, 0.6));
    assert_eq!(t.answer_thresholds(1, true, &MODELS), [0.8]);
    // Answers no single threshold explains leave them all standing.
    let mut mixed = TableRead::default();
    mixed.seats[1].ordago_chances = vec![(true, 0.1), (true, 0.2), (false, 0.99), (false, 0.98)];
    assert_eq!(mixed.answer_thresholds(1, true, &MODELS), MODELS);
    // Answers to envites are a record of their own.
    assert_eq!(t.answer_thresholds(1, false, &MODELS), MODELS);
    t.seats[3].envite_chances = vec![(true, 0.55), (true, 0.6)];
    assert_eq!(t.answer_thresholds(1, false, &MODELS), [0.5, 0.65]);
    assert_eq!(t.answer_thresholds(1, true, &MODELS), [0.8]);
}

/// Seat 1's view of an órdago seat 0 threw at grande, on the deal of `seed`, at 0–0.
fn facing_ordago(seed: u64) -> (MusGame, MusView) {
    let rules = MusRules::default();
    let dealt = MusGame::new(&rules, 4, seed).unwrap();
    let cards = std::array::from_fn(|s| dealt.cards_of(s));
    let mut g = MusGame::from_deal(rules, cards, 0, [0, 0], seed).unwrap();
    g.apply(0, &Action::NoHayMus).unwrap();
    g.apply(0, &Action::Ordago).unwrap();
    let view = g.view(1);
    (g, view)
}

#[test]
fn a_rival_seen_folding_nothing_answers_without_fear() {
    let t = TableRead::default();
    let mut fearful = Experto::default();
    let mut rng = rng_from_seed(5);
    // (fearless accepts, experto accepts) counts.
    let mut both = [[0; 2]; 2];
    for seed in 0..400u64 {
        let (g, view) = facing_ordago(seed);
        let p = percentile(g.cards_of(1), Lance::Grande, Mode::OchoReyes, false);
        let fearless = t.accepts_without_fear(&view, Lance::Grande, &mut rng);
        let legal = g.legal_actions(1);
        let experto = fearful.act(&view, &legal, &mut rng) == Action::Quiero;
        both[usize::from(fearless)][usize::from(experto)] += 1;
        if p >= 0.85 {
            assert!(fearless, "seed {seed}: a top hand ({p:.2}) accepts");
        }
        assert!(
            fearless || !experto,
            "seed {seed}: experto accepts what the fearless answer folds"
        );
    }
    // The fearless answer accepts every hand experto accepts and many that it folds, and
    // still folds weak hands.
    assert!(
        both[1][0] > 40 && both[1][1] > 10 && both[0][0] > 40,
        "{both:?}"
    );
}

#[test]
fn a_rival_seen_folding_never_accepts_below_its_best_fold() {
    let mut t = TableRead::default();
    t.seats[1].declined = vec![0.6, 0.73, 0.2];
    assert_eq!(t.seats[1].ordago_threshold(), Some(0.75));
    let fresh = TableRead::default();
    let mut rng = rng_from_seed(6);
    let mut below = [0; 2];
    for seed in 0..300u64 {
        let (g, view) = facing_ordago(seed);
        let p = percentile(g.cards_of(1), Lance::Grande, Mode::OchoReyes, false);
        let accepts = t.accepts_without_fear(&view, Lance::Grande, &mut rng);
        let before = fresh.accepts_without_fear(&view, Lance::Grande, &mut rng);
        if p < 0.75 {
            assert!(!accepts, "seed {seed}: {p:.2} is below its best fold");
            below[usize::from(before)] += 1;
        } else {
            assert_eq!(accepts, before, "seed {seed}: above its folds, as before");
        }
    }
    assert!(below[1] > 20, "the fold seen changes answers: {below:?}");
}

#[test]
fn folds_seen_count_envites_let_go_and_ordagos_declined() {
    let mut g = cut_deal();
    // Grande: an envite let go by both rivals.
    g.apply(0, &Action::Envido(2)).unwrap();
    g.apply(1, &Action::NoQuiero).unwrap();
    g.apply(3, &Action::NoQuiero).unwrap();
    // Chica: an órdago both rivals decline.
    g.apply(0, &Action::Ordago).unwrap();
    g.apply(1, &Action::NoQuiero).unwrap();
    g.apply(3, &Action::NoQuiero).unwrap();
    // The rest passed.
    pass_to_the_end(&mut g);
    let mut t = TableRead::default();
    t.observe(&g.view(0));
    // One envite let go by the pair, and one no quiero to the órdago from each rival.
    assert_eq!(t.folds_seen(1), 3);
    assert_eq!(t.folds_seen(0), 0, "the other pair folded nothing");
    assert_eq!(
        TableRead::default().folds_seen(1),
        0,
        "nothing seen, nothing counted"
    );
}

#[test]
fn habits_change_the_reading_and_the_rollout_player() {
    let base = policy::experto_style();
    let plain = TableRead::default();
    assert_eq!(plain.reading(1), Reading::default());
    let s = plain.style(1, &base);
    assert!(!s.always_cut && !s.calls_everything);

    let mut t = TableRead::default();
    t.seats[1] = SeatRecord {
        mus_calls: 8,
        cuts: 8,
        envites_answered: 5,
        envites_declined: 0,
        bets: vec![0.1, 0.2, 0.15, 0.3, 0.9, 0.7],
        ordagos: vec![0.5, 0.55],
        ordago_answers: vec![],
        declined: vec![],
        ..SeatRecord::default()
    };
    let r = t.reading(1);
    let d = Reading::default();
    assert!(!r.cut_tells && !r.quiero_tells);
    assert!(r.bet_floor > 2.0 * d.bet_floor, "{r:?}");
    assert!(r.ordago_centre < d.ordago_centre, "{r:?}");
    let s = t.style(1, &base);
    assert!(s.always_cut && s.calls_everything && s.bluff_rate > base.bluff_rate);
    // Too little seen, or nothing unlike experto: no habit read.
    t.seats[3] = SeatRecord {
        mus_calls: 3,
        cuts: 3,
        envites_answered: 2,
        bets: vec![0.1, 0.5, 0.7, 0.9, 0.8],
        ordagos: vec![0.95, 0.85],
        ..Default::default()
    };
    assert_eq!(t.reading(3), Reading::default());
    t.seats[3].bets.extend([0.6, 0.9, 0.7, 0.8, 0.75]);
    assert_eq!(
        t.seats[3].bluffs(),
        None,
        "one bluff in ten is experto's own rate"
    );
    assert_eq!(t.style(3, &base).bluff_rate, base.bluff_rate);
}

#[test]
fn maestro_learns_a_cortamus_over_a_game() {
    let rules = common::one_game_rules();
    let mut g = MusGame::new(&rules, 4, 5).unwrap();
    let mut m = Maestro::with_iters(8);
    m.read = true;
    m.rollout = tapete_mus_bots::maestro::Policy::by_name("basico").unwrap();
    let mut cortamus = tapete_mus_bots::Experto::fixed(policy::style("cortamus").unwrap());
    let mut partner = Basico::default();
    let mut rng = rng_from_seed(11);
    while g.outcome().is_none() {
        let seat = common::turn(&g);
        let legal = g.legal_actions(seat);
        let view = g.view(seat);
        let a = match seat {
            0 => m.act(&view, &legal, &mut rng),
            2 => partner.act(&view, &legal, &mut rng),
            _ => cortamus.act(&view, &legal, &mut rng),
        };
        g.apply(seat, &a).unwrap();
    }
    let seen = m.table.seats[1].mus_calls + m.table.seats[3].mus_calls;
    assert!(seen > 0, "maestro saw the rivals speak");
    for seat in [1, 3] {
        let r = &m.table.seats[seat];
        assert_eq!(r.cuts, r.mus_calls, "a cortamus only cuts");
    }
}

#[test]
fn a_pair_folding_and_seeing_envites_is_counted() {
    let mut g = cut_deal();
    // Grande: let go by both rivals.
    g.apply(0, &Action::Envido(2)).unwrap();
    g.apply(1, &Action::NoQuiero).unwrap();
    g.apply(3, &Action::NoQuiero).unwrap();
    // Chica: seen by the first rival.
    g.apply(0, &Action::Envido(2)).unwrap();
    g.apply(1, &Action::Quiero).unwrap();
    // The rest passed.
    pass_to_the_end(&mut g);
    let mut t = TableRead::default();
    t.observe(&g.view(2));
    assert_eq!(
        t.pairs[1],
        PairAnswers {
            faced: 2,
            folded: 1,
            ..PairAnswers::default()
        }
    );
    assert_eq!(t.pairs[0], PairAnswers::default());
    let share = t.pairs[1].fold_share(0.5, 2.0);
    assert!(
        (share - 0.5).abs() < 1e-12,
        "(1 + 1) / (2 + 2), got {share}"
    );
}

/// Plays `action` for whoever speaks next, checking it is a seat of `pair`.
fn say(g: &mut MusGame, pair: usize, action: Action) {
    let seat = common::turn(g);
    assert_eq!(seat % 2, pair, "seat {seat} speaks, not one of pair {pair}");
    g.apply(seat, &action).unwrap();
}

/// Passes for everyone until the hand is over.
fn pass_to_the_end(g: &mut MusGame) {
    while g.view(0).last_hand.is_none() {
        let seat = common::turn(g);
        let legal = g.legal_actions(seat);
        let a = if legal.contains(&Action::Paso) {
            Action::Paso
        } else {
            legal[0].clone()
        };
        g.apply(seat, &a).unwrap();
    }
}

#[test]
fn raises_let_go_and_seen_are_counted_apart() {
    let mut g = cut_deal();
    // Grande: pair 1 opens, pair 0 raises, pair 1 lets the raise go.
    say(&mut g, 0, Action::Paso);
    say(&mut g, 1, Action::Envido(2));
    say(&mut g, 0, Action::Reenvido(2));
    while g.view(0).lance() == Some(Lance::Grande) {
        say(&mut g, 1, Action::NoQuiero);
    }
    // Chica: the same, and pair 1 sees the raise.
    say(&mut g, 0, Action::Paso);
    say(&mut g, 1, Action::Envido(2));
    say(&mut g, 0, Action::Reenvido(2));
    say(&mut g, 1, Action::Quiero);
    pass_to_the_end(&mut g);
    let mut t = TableRead::default();
    t.observe(&g.view(0));
    assert_eq!(
        t.pairs[1],
        PairAnswers {
            faced: 2,
            folded: 1,
            raises_faced: 2,
            raises_folded: 1,
        }
    );
    assert_eq!(
        t.pairs[0],
        PairAnswers {
            faced: 2,
            ..PairAnswers::default()
        },
        "pair 0 saw both openings by raising them"
    );
    let share = t.pairs[1].raise_fold_share(0.5, 2.0);
    assert!(
        (share - 0.5).abs() < 1e-12,
        "(1 + 1) / (2 + 2), got {share}"
    );
}

/// A read where pair 0 answered `n` raises, letting `folded` of them go.
fn raises_answered(n: u32, folded: u32) -> TableRead {
    let mut t = TableRead::default();
    t.pairs[0] = PairAnswers {
        faced: n,
        folded,
        raises_faced: n,
        raises_folded: folded,
    };
    t
}

#[test]
fn raises_are_faroles_as_often_as_the_rivals_let_them_go() {
    let style = policy::experto_style();
    let rate = |t: &TableRead| policy::Exploit::of(t, 1, &style).raise_farol_rate;
    assert_eq!(rate(&raises_answered(10, 10)), policy::RAISE_FAROL_MAX);
    assert_eq!(rate(&raises_answered(10, 0)), 0.0);
    let unseen = rate(&TableRead::default());
    assert!(unseen > 0.0 && unseen < policy::RAISE_FAROL_MAX, "{unseen}");
    // Only the rival pair's answers count.
    assert_eq!(
        policy::Exploit::of(&raises_answered(10, 10), 0, &style).raise_farol_rate,
        unseen
    );

    // Seat 1 faces seat 0's envido at grande with a hand experto lets go.
    let mut g = cut_deal();
    g.apply(0, &Action::Envido(2)).unwrap();
    assert_eq!(common::turn(&g), 1);
    let view = g.view(1);
    let legal = g.legal_actions(1);
    let answer = |read: TableRead, seed: u64| {
        let mut bot = Experto {
            read: Some(std::sync::Arc::new(read)),
            ..Experto::default()
        };
        bot.act(&view, &legal, &mut rng_from_seed(seed))
    };
    let fixed = Experto::fixed(policy::experto_style()).act(&view, &legal, &mut rng_from_seed(1));
    assert_eq!(fixed, Action::NoQuiero, "the hand is one experto lets go");
    for seed in 0..20 {
        assert_eq!(answer(raises_answered(10, 10), seed), Action::Reenvido(2));
        assert_eq!(answer(raises_answered(10, 0), seed), Action::NoQuiero);
    }
}
