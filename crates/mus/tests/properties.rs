//! Properties over thousands of seeded random games played with random legal actions:
//! every game ends; the 40 cards are always all accounted for; piedras only change by the
//! rules; a view never shows another seat's hidden cards; `legal_actions` is exactly what
//! `apply` accepts, and a refused action changes nothing; a record replays exactly.

use proptest::prelude::*;
use rand::Rng;
use serde_json::Value;
use tapete_cards::{rng_from_seed, Card, CardSet};
use tapete_mus::bots::RandomMus;
use tapete_mus::events::{Event, ScoreReason};
use tapete_mus::{Action, Lance, Mode, MusGame, MusRules};
use tapete_table::{Bot, Game, Record};

fn rules_strategy() -> impl Strategy<Value = MusRules> {
    (
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        prop_oneof![Just(1u8), Just(3)],
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(four, real31, thirty, juegos, miedo, senas)| MusRules {
            mode: if four {
                Mode::CuatroReyes
            } else {
                Mode::OchoReyes
            },
            real31,
            target: if thirty { 30 } else { 40 },
            juegos,
            vacas: 1,
            punto_y_miedo: miedo,
            senas,
            boards: 0,
            juegos_given: Vec::new(),
        })
}

/// Every card named anywhere in a JSON value (strings, and words inside strings).
fn cards_in(v: &Value, out: &mut CardSet) {
    match v {
        Value::String(s) => {
            for w in s.split_whitespace() {
                if let Ok(c) = w.parse::<Card>() {
                    out.insert(c);
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| cards_in(x, out)),
        Value::Object(o) => o.values().for_each(|x| cards_in(x, out)),
        _ => {}
    }
}

/// Cards a view shows, leaving out the previous hand's showdown (those cards were shown
/// to everybody, and may since have been dealt again).
fn shown_cards(g: &MusGame, seat: Option<usize>) -> CardSet {
    let view = match seat {
        Some(s) => g.view(s),
        None => g.spectator_view(),
    };
    let mut json = serde_json::to_value(&view).expect("views serialize");
    if let Some(o) = json.as_object_mut() {
        o.remove("last_hand");
    }
    let mut out = CardSet::EMPTY;
    cards_in(&json, &mut out);
    out
}

/// An action from the whole vocabulary, legal or not.
fn any_action(rng: &mut impl Rng) -> Action {
    match rng.gen_range(0..11) {
        0 => Action::Mus,
        1 => Action::NoHayMus,
        2 => Action::Paso,
        3 => Action::Envido(rng.gen_range(0..50)),
        4 => Action::Reenvido(rng.gen_range(0..50)),
        5 => Action::Quiero,
        6 => Action::NoQuiero,
        7 => Action::Ordago,
        8 => Action::Pares(rng.gen()),
        9 => Action::Juego(rng.gen()),
        _ => Action::Descarto(
            (0..rng.gen_range(0..6))
                .filter_map(|_| Card::from_index(rng.gen_range(0..40)))
                .collect(),
        ),
    }
}

/// Follows the betting from the public calls alone, to check every deje.
#[derive(Default)]
struct BetTracker {
    lance: Option<Lance>,
    /// (total standing, deje if declined)
    bet: Option<(u8, u8)>,
}

impl BetTracker {
    fn first_deje(&self, rules: &MusRules) -> u8 {
        if self.lance == Some(Lance::Punto) && rules.punto_y_miedo {
            2
        } else {
            1
        }
    }

    fn said(&mut self, action: &Action, rules: &MusRules) {
        let first = self.first_deje(rules);
        self.bet = match (action, self.bet) {
            (Action::Envido(n), _) => Some((*n, first)),
            (Action::Reenvido(n), Some((total, _))) => Some((total + n, total)),
            (Action::Ordago, Some((total, _))) => Some((total, total)),
            (Action::Ordago, None) => Some((0, first)),
            (_, b) => b,
        };
    }
}

fn play_checked(seed: u64, rules: MusRules) -> Result<usize, TestCaseError> {
    let mut g = MusGame::new(&rules, 4, seed).expect("valid rules");
    let mut rec = Record::<MusGame>::new(rules.clone(), 4, seed);
    let mut rng = rng_from_seed(seed.wrapping_mul(31).wrapping_add(7));
    let mut bot = RandomMus;
    let mut piedras = [0u8; 2];
    let mut bets = BetTracker::default();
    let mut steps = 0;
    // The piedras of the last game won, and how many games and hands were played.
    let mut last_game: Option<[u8; 2]> = None;
    let mut games_played = 0u32;
    let mut hands_played = 1u32;
    while g.outcome().is_none() {
        prop_assert!(steps < 100_000, "game did not end");
        g.audit().map_err(TestCaseError::fail)?;
        prop_assert_eq!(g.scores().piedras, piedras);

        // Views: own cards only; spectators see none; a seña reaches the partner only.
        for seat in 0..4 {
            let view = g.view(seat);
            prop_assert_eq!(view.partner_sena, g.sena_of((seat + 2) % 4));
            prop_assert_eq!(view.my_sena, g.sena_of(seat));
            let public_sena = view.log.iter().any(|e| {
                matches!(
                    e,
                    Event::Said {
                        action: Action::Sena(_),
                        ..
                    }
                )
            });
            prop_assert!(!public_sena, "a seña reached the public log");
            let shown = shown_cards(&g, Some(seat));
            prop_assert_eq!(
                g.view(seat).cards.iter().copied().collect::<CardSet>(),
                g.cards_of(seat)
            );
            for other in (0..4).filter(|&o| o != seat) {
                let leak = shown.intersection(g.cards_of(other));
                prop_assert!(
                    leak.is_empty(),
                    "seat {} sees {} of seat {}",
                    seat,
                    leak,
                    other
                );
            }
        }
        let all_hands = (0..4).fold(CardSet::EMPTY, |acc, s| acc.union(g.cards_of(s)));
        prop_assert!(shown_cards(&g, None).intersection(all_hands).is_empty());

        // A probe: legal exactly when apply accepts it; refused changes nothing.
        let probe_seat = rng.gen_range(0..5);
        let probe = any_action(&mut rng);
        let legal = g.legal_actions(probe_seat).contains(&probe);
        let mut h = g.clone();
        let result = h.apply(probe_seat, &probe);
        prop_assert_eq!(
            result.is_ok(),
            legal,
            "{}: {} → {:?}",
            probe_seat,
            probe,
            result
        );
        if result.is_err() {
            prop_assert!(h == g, "a refused action changed the game");
        }

        // A standing bet names who still answers it: the player to act and, at most, his
        // partner after him — never the betting pair.
        if let Some(b) = g.view(0).bet {
            let answering: Vec<usize> = (0..4).filter(|&s| b.answers(s)).collect();
            prop_assert!(!answering.is_empty() && answering.len() <= 2);
            prop_assert!(answering.iter().all(|s| s % 2 != b.pair), "{:?}", b);
            for s in g.to_act().seats() {
                prop_assert!(b.answers(*s), "to act but not answering: {:?}", b);
            }
        }

        // The real move.
        let seats = g.to_act().seats().to_vec();
        let seat = seats[rng.gen_range(0..seats.len())];
        let legal = g.legal_actions(seat);
        prop_assert!(!legal.is_empty());
        let action = bot.act(&g.view(seat), &legal, &mut rng);
        let before = g.scores();
        let events = g
            .apply(seat, &action)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        rec.actions.push((seat, action.clone()));
        steps += 1;

        // Piedras: only Scored events move them, only by the rules.
        let counting = events.iter().any(|e| matches!(e, Event::Showdown(_)));
        for e in &events {
            match e {
                Event::LanceStarted { lance } => {
                    bets = BetTracker {
                        lance: Some(*lance),
                        bet: None,
                    }
                }
                Event::Said { action, .. } => bets.said(action, &rules),
                Event::Scored {
                    pair,
                    piedras: p,
                    reason,
                    total,
                    lance,
                } => {
                    piedras[*pair] += p;
                    prop_assert_eq!(piedras[*pair], *total);
                    match reason {
                        ScoreReason::Deje => {
                            prop_assert_eq!(&action, &Action::NoQuiero);
                            prop_assert_eq!(Some(*lance), bets.lance);
                            prop_assert_eq!(Some(*p), bets.bet.map(|b| b.1), "deje");
                        }
                        ScoreReason::EnPaso => {
                            prop_assert!(counting);
                            prop_assert_eq!(*p, 1);
                        }
                        ScoreReason::Cuenta => {
                            prop_assert!(counting);
                            // Two players of a pair: at most 3 + 3 (duples, 31).
                            prop_assert!(*p <= 6);
                        }
                        ScoreReason::Envite => prop_assert!(counting),
                    }
                }
                Event::GameWon { piedras: p, .. } => {
                    last_game = Some(*p);
                    games_played += 1;
                    piedras = [0, 0];
                }
                Event::HandStarted { .. } => hands_played += 1,
                _ => {}
            }
        }
        let after = g.scores();
        let games_won = events
            .iter()
            .filter(|e| matches!(e, Event::GameWon { .. }))
            .count();
        prop_assert!(games_won <= 1);
        if games_won == 0 {
            prop_assert_eq!(after.games, before.games);
            prop_assert!(
                after.piedras[0] >= before.piedras[0] && after.piedras[1] >= before.piedras[1]
            );
        }
    }
    g.audit().map_err(TestCaseError::fail)?;

    // The final score stays: the last game's piedras, its juego and vaca counted, and
    // the numbers of the last game and hand played.
    let end = g.view(0);
    let winner = end.winner.expect("a winner");
    prop_assert_eq!(Some(end.scores.piedras), last_game);
    prop_assert_eq!(end.scores.games[winner], rules.games_to_win_vaca());
    prop_assert_eq!(end.scores.vacas[winner], rules.vacas_to_win_match());
    prop_assert!(end.scores.games[1 - winner] < rules.games_to_win_vaca());
    prop_assert!(end.scores.vacas[1 - winner] < rules.vacas_to_win_match());
    prop_assert_eq!(end.game_number, games_played);
    prop_assert_eq!(end.hand_number, hands_played);

    // The record replays to the very same state, also through JSON.
    let json = serde_json::to_string(&rec).expect("records serialize");
    let back: Record<MusGame> = serde_json::from_str(&json).expect("records deserialize");
    let replayed = back
        .replay()
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert!(replayed == g, "replay differs");
    Ok(steps)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_every_rule(seed in any::<u64>(), rules in rules_strategy()) {
        play_checked(seed, rules)?;
    }
}

#[test]
fn records_replay_the_same_outcome_step_by_step() {
    let rules = MusRules::default();
    let mut g = MusGame::new(&rules, 4, 99).unwrap();
    let mut bots: Vec<Box<dyn Bot<MusGame>>> = (0..4).map(|_| Box::new(RandomMus) as _).collect();
    let mut rec = Record::new(rules, 4, 99);
    let mut rng = rng_from_seed(5);
    let mut views = Vec::new();
    tapete_table::play_out(
        &mut g,
        &mut bots,
        &mut rng,
        &mut rec,
        100_000,
        |g, _, _, _| views.push(g.view(0)),
    )
    .unwrap();
    let mut i = 0;
    rec.replay_steps(|_, g, _| {
        assert_eq!(g.view(0), views[i]);
        i += 1;
    })
    .unwrap();
    assert_eq!(i, rec.actions.len());
}
