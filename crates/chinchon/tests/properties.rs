//! Properties over thousands of seeded random games with random table options and 2–8
//! players: every game ends; `apply` accepts what `legal_actions` lists and refuses the
//! rest, changing nothing; the cards in play are always the whole deck; views hide other
//! hands and the stock (a game resampled from a view shows that view again); a record
//! replays to the identical state.

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use tapete_cards::rng_from_seed;
use tapete_chinchon::card::DeckSize;
use tapete_chinchon::rules::{FigureValues, MeterCartas, Reenganche};
use tapete_chinchon::Resample;
use tapete_chinchon::{Action, Card, ChinchonGame, ChinchonRules, Event, Phase};
use tapete_table::{Game, Record};

fn random_rules(rng: &mut ChaCha8Rng) -> ChinchonRules {
    ChinchonRules {
        deck: if rng.gen_bool(0.5) {
            DeckSize::Forty
        } else {
            DeckSize::FortyEight
        },
        two_decks_from: [Some(5), Some(3), None][rng.gen_range(0..3)],
        jokers: rng.gen_range(0..=2),
        joker_penalty: [50, 25][rng.gen_range(0..2)],
        close_limit: rng.gen_range(3..=5),
        figures: [FigureValues::Number, FigureValues::Ten][rng.gen_range(0..2)],
        meter_cartas: [
            MeterCartas::On,
            MeterCartas::NotAfterMenosDiez,
            MeterCartas::Off,
        ][rng.gen_range(0..3)],
        no_close_first_turn: rng.gen_bool(0.3),
        target: [30, 70, 100][rng.gen_range(0..3)],
        reenganche: [
            Reenganche::Off,
            Reenganche::Highest,
            Reenganche::SecondHighest,
        ][rng.gen_range(0..3)],
        allow_false_close: rng.gen_bool(0.1),
        stock_rebuilds: rng.gen_range(0..=4),
        hand_turns: rng.gen_range(50..=400),
    }
}

/// Every action there is, for probing what `apply` refuses.
fn universe() -> Vec<Action> {
    let mut all = vec![Action::Robo, Action::Tomo, Action::Listo];
    for c in Card::all() {
        all.extend([Action::Descarto(c), Action::Cierro(c), Action::Meto(c)]);
    }
    all
}

fn sorted(mut cards: Vec<Card>) -> Vec<Card> {
    cards.sort();
    cards
}

/// A random legal action, closing whenever a close is legal half of the time (so that
/// hands end and lay-offs happen often).
fn choose(legal: &[Action], rng: &mut ChaCha8Rng) -> Action {
    let closes: Vec<&Action> = legal
        .iter()
        .filter(|a| matches!(a, Action::Cierro(_)))
        .collect();
    if !closes.is_empty() && rng.gen_bool(0.5) {
        return **closes.choose(rng).unwrap_or(&&legal[0]);
    }
    legal[rng.gen_range(0..legal.len())]
}

/// Views hide other hands and the stock: a game resampled from a seat's view shows that
/// seat the very same view, and the view's JSON holds no hidden field.
fn check_views(g: &ChinchonGame, rng: &mut ChaCha8Rng) {
    for seat in 0..g.seats() {
        let view = g.view(seat);
        assert_eq!(view.hand, g.hand(seat));
        let json = serde_json::to_value(&view).unwrap();
        assert!(json.get("hands").is_none() && json.get("stock_cards").is_none());
        if g.phase() != Phase::Over {
            let again = ChinchonGame::resample(&view, rng).unwrap();
            assert_eq!(
                again.view(seat),
                view,
                "resampled view differs for seat {seat}"
            );
            assert_eq!(again.legal_actions(seat), g.legal_actions(seat));
            assert_eq!(sorted(again.all_cards()), sorted(g.deck().cards()));
        }
    }
    let spectator = g.spectator_view();
    assert!(spectator.hand.is_empty());
}

fn play_one(seed: u64, probe: bool) -> (usize, u32) {
    let mut rng = rng_from_seed(seed);
    let (rules, seats) = loop {
        let rules = random_rules(&mut rng);
        let seats = rng.gen_range(2..=8);
        if rules.validate_for(seats).is_ok() {
            break (rules, seats);
        }
    };
    let mut g = ChinchonGame::new(&rules, seats, seed).unwrap();
    let mut record = Record::<ChinchonGame>::new(rules, seats, seed);
    let deck = sorted(g.deck().cards());
    let all = universe();
    let mut steps = 0usize;
    let mut closes = 0u32;
    let mut ran_out = 0u32;
    check_views(&g, &mut rng);
    while let Some(&seat) = g.to_act().seats().first() {
        assert!(steps < 2_000_000, "seed {seed}: the game does not end");
        let legal = g.legal_actions(seat);
        assert!(
            !legal.is_empty(),
            "seed {seed}: seat {seat} must act but cannot"
        );
        if probe {
            // Another legal action is accepted too.
            let other = legal[rng.gen_range(0..legal.len())];
            assert!(g.clone().apply(seat, &other).is_ok(), "{other} was listed");
            // Actions not listed are refused and change nothing, for any seat.
            for _ in 0..4 {
                let a = all[rng.gen_range(0..all.len())];
                let s = rng.gen_range(0..seats + 1);
                if s == seat && legal.contains(&a) {
                    continue;
                }
                let mut c = g.clone();
                assert!(
                    c.apply(s, &a).is_err(),
                    "seed {seed}: seat {s} `{a}` accepted"
                );
                assert_eq!(c, g, "a refused `{a}` changed the game");
            }
        }
        let a = choose(&legal, &mut rng);
        let events = g
            .apply(seat, &a)
            .unwrap_or_else(|e| panic!("seed {seed}: listed `{a}` refused: {e}"));
        assert!(!events.is_empty());
        closes += events
            .iter()
            .filter(|e| matches!(e, Event::Closed { .. } | Event::FalseClose { .. }))
            .count() as u32;
        ran_out += events
            .iter()
            .filter(|e| matches!(e, Event::HandRanOut { .. }))
            .count() as u32;
        record.actions.push((seat, a));
        steps += 1;
        assert_eq!(
            sorted(g.all_cards()),
            deck,
            "seed {seed}: cards lost or made by {a} of {seat}: {events:?}"
        );
        if probe {
            let next = g.to_act().seats().first().copied().unwrap_or(0);
            for x in g.legal_actions(next) {
                assert!(g.clone().apply(next, &x).is_ok(), "listed `{x}` refused");
            }
        }
        if probe && (steps.is_multiple_of(97) || g.at_boundary() || g.phase() == Phase::LayOff) {
            check_views(&g, &mut rng);
        }
    }
    let outcome = g.outcome().expect("over means an outcome");
    assert!(!outcome.winners.is_empty());
    assert_eq!(outcome.places.len(), seats);
    assert_eq!(outcome.scores.len(), seats);
    for &w in &outcome.winners {
        assert_eq!(outcome.places[w], 1);
    }
    // Who went out earlier places after who went out later.
    let order = g.spectator_view().out_order;
    for (i, early) in order.iter().enumerate() {
        for late in &order[i + 1..] {
            for (&a, &b) in early.iter().zip(late.iter()) {
                assert!(
                    outcome.places[a] > outcome.places[b],
                    "{order:?} {outcome:?}"
                );
            }
        }
    }
    assert!(outcome
        .places
        .iter()
        .all(|&p| p >= 1 && p as usize <= seats));
    // The score sheet has a row for every close, each counting its closer, and for
    // every hand that ran out, counting everybody still in; it ends where the game ended.
    let view = g.spectator_view();
    assert_eq!(
        view.sheet.len(),
        (closes + ran_out) as usize,
        "seed {seed}: sheet rows"
    );
    for row in &view.sheet {
        match row.closer {
            Some(closer) => assert!(row.points[closer].is_some(), "seed {seed}: {row:?}"),
            None => assert!(
                row.points.iter().any(Option::is_some),
                "seed {seed}: {row:?}"
            ),
        }
        assert_eq!(row.points.len(), seats);
    }
    if let Some(last) = view.sheet.last() {
        assert_eq!(
            last.out, view.out,
            "seed {seed}: the last row's eliminations"
        );
        assert_eq!(Some(last.hand), view.last_hand.as_ref().map(|h| h.hand));
    }
    assert!(g.legal_actions(0).is_empty());
    assert!(g.apply(0, &Action::Robo).is_err());
    let again = record.replay().expect("the record replays");
    assert_eq!(again, g, "seed {seed}: replay differs");
    let json = serde_json::to_string(&record).unwrap();
    let back: Record<ChinchonGame> = serde_json::from_str(&json).unwrap();
    assert_eq!(back.replay().unwrap(), g);
    (steps, closes)
}

#[test]
fn random_games_keep_every_property() {
    let mut steps = 0;
    let mut closes = 0;
    for seed in 0..300 {
        let (s, c) = play_one(seed, true);
        steps += s;
        closes += c;
    }
    assert!(closes > 600, "only {closes} closes in 300 games");
    assert!(steps > 100_000);
}

#[test]
fn thousands_of_random_games_end_and_replay() {
    for seed in 1000..3000 {
        play_one(seed, false);
    }
}
