//! maestro reads the table: each rival's record from the finished hands its views show,
//! the worst-case answer to an órdago until a rival has declined one, and the readings
//! and rollout players that follow from a record.

mod common;

use tapete_cards::{rng_from_seed, CardSet};
use tapete_mus::{Action, Lance, Mode, MusGame, MusRules};
use tapete_mus_bots::maestro::{
    lance_winner, percentile, PairAnswers, Reading, SeatRecord, TableRead,
};
use tapete_mus_bots::{policy, Basico, Maestro};
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
fn a_rival_never_seen_folding_accepts_exactly_when_its_pair_wins() {
    let t = TableRead::default();
    let rules = MusRules::default();
    let mut both = [0; 2];
    for seed in 0..300u64 {
        let g = MusGame::new(&rules, 4, seed).unwrap();
        for lance in [Lance::Grande, Lance::Chica] {
            let w = lance_winner(&g, lance).unwrap();
            for seat in 0..4 {
                let accepts = t.accepts_ordago(seat, lance, &g);
                assert_eq!(
                    accepts,
                    w % 2 == seat % 2,
                    "seed {seed} seat {seat} {lance:?}"
                );
                both[usize::from(accepts)] += 1;
            }
        }
    }
    assert!(both[0] > 0 && both[1] > 0);
}

#[test]
fn a_rival_seen_folding_accepts_above_its_best_fold() {
    let mut t = TableRead::default();
    t.seats[1].declined = vec![0.6, 0.73, 0.2];
    assert_eq!(t.seats[1].ordago_threshold(), Some(0.75));
    let rules = MusRules::default();
    for seed in 0..200u64 {
        let g = MusGame::new(&rules, 4, seed).unwrap();
        let p = percentile(g.cards_of(1), Lance::Grande, rules.mode, rules.real31);
        assert_eq!(
            t.accepts_ordago(1, Lance::Grande, &g),
            p >= 0.75,
            "seed {seed}"
        );
        // Seat 3, never seen folding, still accepts exactly when its pair wins.
        let w = lance_winner(&g, Lance::Grande).unwrap();
        assert_eq!(
            t.accepts_ordago(3, Lance::Grande, &g),
            w % 2 == 1,
            "seed {seed}"
        );
    }
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
    while g.view(0).last_hand.is_none() {
        let seat = common::turn(&g);
        let legal = g.legal_actions(seat);
        let a = if legal.contains(&Action::Paso) {
            Action::Paso
        } else {
            legal[0].clone()
        };
        g.apply(seat, &a).unwrap();
    }
    let mut t = TableRead::default();
    t.observe(&g.view(2));
    assert_eq!(
        t.pairs[1],
        PairAnswers {
            faced: 2,
            folded: 1
        }
    );
    assert_eq!(t.pairs[0], PairAnswers::default());
    let share = t.pairs[1].fold_share(0.5, 2.0);
    assert!(
        (share - 0.5).abs() < 1e-12,
        "(1 + 1) / (2 + 2), got {share}"
    );
}
