//! experto: its choices in positions built card by card, what it reads from the view,
//! and a small duel against basico.

use crate::common::*;
use tapete_chinchon::Resample;
use tapete_chinchon::{Action, ChinchonGame, ChinchonRules, Phase};
use tapete_chinchon_bots::Experto;
use tapete_table::Game;

/// Seat 0 (mano) holds a run of six oros and a 2, and has drawn a rey: it can close
/// with 2 points now, or wait for the 7o (chinchón) or a 2 (menos diez).
fn six_oros(scores: [i32; 2]) -> ChinchonGame {
    let mut g = dealt(
        "1o 2o 3o 4o 5o 6o 2c",
        "10c 11c 12c 10e 11e 12e 4b",
        "7c",
        "12b",
        scores,
    );
    play(&mut g, &["robo"]);
    g
}

#[test]
fn closes_at_once_when_the_close_puts_the_opponent_out() {
    // 80 points and a whole hand of cards: a close now leaves it past 100.
    let g = six_oros([10, 80]);
    assert_eq!(
        decide(&mut Experto::default(), &g, 1),
        Action::Cierro(c("12b"))
    );
}

#[test]
fn waits_for_a_chinchon_when_behind_and_nobody_is_near_closing() {
    // Far behind on the first turn: a chinchón wins the game, a close of 2 points
    // changes little; nobody else is close to closing yet.
    let g = six_oros([90, 10]);
    assert_eq!(
        decide(&mut Experto::default(), &g, 1),
        Action::Descarto(c("12b")),
        "keeps the six oros and the 2"
    );
    // Level at the start of the game: the points of a close now are worth more.
    let g = six_oros([0, 0]);
    assert_eq!(
        decide(&mut Experto::default(), &g, 1),
        Action::Cierro(c("12b"))
    );
}

#[test]
fn never_closes_itself_out_of_the_game() {
    // 99 points: closing with the 2 left makes 101. It discards instead and hopes for
    // menos diez (any close with points would put it out).
    let g = six_oros([99, 10]);
    let a = decide(&mut Experto::default(), &g, 1);
    assert!(matches!(a, Action::Descarto(_)), "{a}");
}

#[test]
fn takes_the_pile_card_that_makes_a_meld_and_leaves_a_useless_one() {
    // Seat 1 discards the 3c, which joins seat 0's 1c 2c; or the 12e, which joins
    // nothing of seat 0's and is worth more than any of its cards.
    let mut g = dealt(
        "1c 2c 5o 7e 10b 11o 4o",
        "3c 12e 4c 4e 4b 6b 6c",
        "7c",
        "10c 11b",
        [0, 0],
    );
    play(&mut g, &["robo", "descarto 10c"]);
    // Seat 1 now throws the 3c.
    play(&mut g, &["robo", "descarto 3c"]);
    assert_eq!(decide(&mut Experto::default(), &g, 1), Action::Tomo);
    let mut g2 = dealt(
        "1c 2c 5o 7e 10b 11o 4o",
        "3c 12e 4c 4e 4b 6b 6c",
        "7c",
        "10c 11b",
        [0, 0],
    );
    play(&mut g2, &["robo", "descarto 10c", "robo", "descarto 12e"]);
    assert_eq!(decide(&mut Experto::default(), &g2, 1), Action::Robo);
}

/// Seat 0 closes with 4o 5o 6o, 1c 1e 1b and the 2c left; seat 1, holding `theirs`, is
/// to lay cards onto those melds.
fn laying(theirs: &str) -> ChinchonGame {
    let mut g = dealt("4o 5o 6o 1c 1e 1b 2c", theirs, "3c", "12b", [0, 0]);
    play(&mut g, &["robo", "cierro 12b"]);
    assert_eq!(g.phase(), Phase::LayOff);
    g
}

#[test]
fn lays_off_every_card_that_fits_in_the_order_that_makes_them_fit() {
    // The sota de oros fits the run only after the 7o (7 is followed by the sota).
    let mut g = laying("10o 7o 11c 12c 12e 3e 5b");
    let mut bot = Experto::default();
    assert_eq!(decide(&mut bot, &g, 1), Action::Meto(c("7o")));
    play(&mut g, &["meto 7o"]);
    assert_eq!(decide(&mut bot, &g, 1), Action::Meto(c("10o")));
}

#[test]
fn does_not_lay_off_a_card_that_breaks_its_own_meld() {
    // 7o fits the closer's run, but it is one of three 7s: laying it leaves 14 points.
    let g = laying("7o 7c 7e 11c 12c 12e 3e");
    assert_eq!(decide(&mut Experto::default(), &g, 1), Action::Listo);
}

#[test]
fn holds_back_the_card_the_next_player_evidently_collects() {
    // Seat 0 holds 10o 11o 12o, 10c 11c 12c, and the 5o and 4b unmatched: without
    // other knowledge it throws the 5o (the higher). Seat 1 shows 5c and 5e taken from
    // the pile: the 5o would give it three 5s, so the 4b goes instead.
    let g = dealt(
        "10o 11o 12o 10c 11c 12c 4b",
        "5c 5e 7b 6e 12e 11e 2b",
        "7c",
        "5o",
        [0, 0],
    );
    let mut g = g;
    play(&mut g, &["robo"]);
    let plain = g.view(0);
    let legal = g.legal_actions(0);
    let mut bot = Experto::default();
    use tapete_table::Bot;
    assert_eq!(
        bot.act(&plain, &legal, &mut rng(1)),
        Action::Descarto(c("5o"))
    );
    let mut shown = plain.clone();
    shown.holds[1] = h("5c 5e");
    shown.took[1] = h("5c 5e");
    assert_eq!(
        bot.act(&shown, &legal, &mut rng(1)),
        Action::Descarto(c("4b"))
    );
}

#[test]
fn reads_nothing_but_its_view() {
    // Two deals that show seat 0 the same view (resampled from it) get the same choice,
    // at every decision of a game.
    let rules = ChinchonRules::default();
    for seats in [2, 4] {
        let mut g = ChinchonGame::new(&rules, seats, 5).unwrap();
        let mut bots: Vec<Experto> = (0..seats).map(|_| Experto::default()).collect();
        let mut steps = 0;
        while g.phase() != Phase::Over && steps < 300 {
            let seat = g.to_act().seats()[0];
            let view = g.view(seat);
            let other = ChinchonGame::resample(&view, &mut rng(steps)).unwrap();
            assert_eq!(other.view(seat), view);
            if seat == 0 {
                assert_ne!(other.all_cards(), g.all_cards(), "a different deal");
            }
            let a = decide(&mut bots[seat], &g, steps);
            assert_eq!(decide(&mut bots[seat], &other, steps), a);
            g.apply(seat, &a).unwrap();
            steps += 1;
        }
    }
}

#[test]
fn plays_whole_games_at_every_table_size_with_legal_actions() {
    // experto in every seat: each action it picks is one the game lists, and each game
    // ends, with places for everybody, within the actions its hands allow (a hand lasts
    // at most `hand_turns` turns of two actions, and the lay-offs after a close).
    let rules = ChinchonRules::default();
    let per_hand = 2 * rules.hand_turns as usize + 2 * 8 * 7;
    for seats in [2, 3, 4, 6] {
        for game in 0..2u64 {
            let seed = 40 + 10 * seats as u64 + game;
            let mut g = ChinchonGame::new(&rules, seats, seed).unwrap();
            let mut bots: Vec<Experto> = (0..seats).map(|_| Experto::default()).collect();
            for (s, b) in bots.iter_mut().enumerate() {
                tapete_table::Bot::start(b, s, seats, &rules);
            }
            let mut actions = 0usize;
            while g.phase() != Phase::Over {
                let seat = g.turn();
                let legal = g.legal_actions(seat);
                let a = decide(&mut bots[seat], &g, seed + actions as u64);
                assert!(
                    legal.contains(&a),
                    "{seats} seats, seed {seed}: {a} is not legal"
                );
                g.apply(seat, &a).unwrap();
                actions += 1;
                let hands = g.hand_number() as usize;
                assert!(
                    actions <= hands * per_hand,
                    "{seats} seats, seed {seed}: {actions} actions in {hands} hands"
                );
            }
            let outcome = g.outcome().expect("an outcome once over");
            assert!(!outcome.winners.is_empty());
            assert_eq!(outcome.places.len(), seats);
            assert!(outcome
                .places
                .iter()
                .all(|&p| p >= 1 && p as usize <= seats));
            assert!(
                outcome.winners.iter().all(|&w| outcome.places[w] == 1),
                "{outcome:?}"
            );
        }
    }
}

#[test]
fn beats_basico_in_a_small_duel() {
    let games = 300;
    let wins = duel("experto", "basico", 2, games, 1);
    let rate = wins as f64 / games as f64;
    assert!(rate > 0.55, "experto won {wins} of {games} against basico");
}
