//! The review of Chinchón games: the exact chances to close it shows, that it reads only
//! the seat's view, the labels of decisions planted bad and good, the chance of winning
//! from the scores, and whole games reviewed from every seat.

use crate::common::{c, h};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tapete_chinchon::rules::Reenganche;
use tapete_chinchon::{
    Action, ActionError, Card, ChinchonGame, ChinchonRules, ChinchonView, Deal, Event, Phase,
};
use tapete_chinchon_bots::review::equity::{win_chance, Standing, FLOOR};
use tapete_chinchon_bots::review::{ChinchonReviewer, Players};
use tapete_chinchon_bots::Experto;
use tapete_chinchon_odds::{odds, Query};
use tapete_review::{review, Decision, Label, Review, Reviewer, Settings};
use tapete_table::story::{Arg, Line, Phrase};
use tapete_table::{Bot, Game, Outcome, Record, Resample, ResampleError, Seat, SetupError, ToAct};

/// Few worlds: the tests check what the review does, not how precisely.
fn quick() -> Settings {
    Settings {
        seed: 7,
        min_worlds: 8,
        max_worlds: 16,
        target_se: 5.0,
        threads: 1,
    }
}

/// A game of experto at every seat, its first `max` actions (all if 0).
fn bot_record(rules: ChinchonRules, seats: usize, seed: u64, max: usize) -> Record<ChinchonGame> {
    let mut g = ChinchonGame::new(&rules, seats, seed).unwrap();
    let mut rec = Record::new(rules, seats, seed);
    let mut bot = Experto::default();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    while g.phase() != Phase::Over && (max == 0 || rec.actions.len() < max) {
        let seat = g.turn();
        let legal = g.legal_actions(seat);
        let a = bot.act(&g.view(seat), &legal, &mut rng);
        g.apply(seat, &a).unwrap();
        rec.actions.push((seat, a));
    }
    rec
}

/// The game of `rec` after its first `n` actions.
fn replay(rec: &Record<ChinchonGame>, n: usize) -> ChinchonGame {
    let mut g = ChinchonGame::new(&rec.rules, rec.seats, rec.seed).unwrap();
    for (s, a) in &rec.actions[..n] {
        g.apply(*s, a).unwrap();
    }
    g
}

/// The odds engine asked directly: seven cards left by discarding `card` in `view`, the
/// cards known out of the stock the pile (with `card` on it) and what the others hold
/// from it.
fn direct_odds(view: &ChinchonView, card: Card) -> Vec<f64> {
    let mut hand = view.hand;
    assert!(hand.remove(card));
    let mut seen = view.pile.clone();
    seen.push(card);
    for o in (0..view.seats).filter(|&o| Some(o) != view.seat) {
        seen.extend(view.holds[o].iter());
    }
    let q = Query {
        rules: view.rules,
        decks: view.decks,
        hand: hand.to_vec(),
        seen,
        draws: 3,
    };
    odds(&q).unwrap().within.iter().map(|w| w.p).collect()
}

#[test]
fn the_close_odds_of_each_discard_are_the_odds_engines() {
    let mut discards = 0;
    let mut with_holds = 0;
    // Few decisions (the odds with a nearly full stock take a while): seat 0's first turn
    // at two seats, the last seat's first turn at four, when others have taken cards from
    // the pile.
    for (seats, seed, max, seat) in [(2, 3, 2, 0), (4, 6, 8, 3)] {
        let rec = bot_record(ChinchonRules::default(), seats, seed, max);
        let r = review(
            &ChinchonReviewer::default(),
            &rec,
            seat,
            &quick(),
            &|_, _| {},
        )
        .unwrap();
        for d in &r.decisions {
            let view = replay(&rec, d.at).view(seat);
            for o in &d.options {
                let action: Action = o.action.parse().unwrap();
                match (action, o.exact.get("close")) {
                    (Action::Descarto(card), Some(close)) => {
                        let shown: Vec<f64> = serde_json::from_value(close.clone()).unwrap();
                        assert_eq!(shown, direct_odds(&view, card), "{} at {}", o.action, d.at);
                        assert!(shown.windows(2).all(|w| w[0] <= w[1]), "{shown:?}");
                        discards += 1;
                        if (0..seats).any(|o| o != seat && !view.holds[o].is_empty()) {
                            with_holds += 1;
                        }
                    }
                    (Action::Descarto(_), None) => {
                        panic!("{} at {}: no close odds", o.action, d.at)
                    }
                    (_, None) => {}
                    (_, Some(_)) => panic!("{} at {} carries close odds", o.action, d.at),
                }
            }
        }
    }
    assert!(discards >= 16, "{discards} discards checked");
    assert!(
        with_holds > 0,
        "some with cards the others took from the pile"
    );
}

/// Rules that deal a first hand chosen card by card ([`ChinchonGame::arranged`]); the
/// seed shuffles the rest of the stock.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct DealtRules {
    rules: ChinchonRules,
    hands: Vec<String>,
    muestra: String,
    stock: String,
    scores: Vec<i32>,
}

/// Chinchón with a first hand chosen card by card: records of it can differ in the cards
/// one seat never sees and in nothing else.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Dealt(ChinchonGame);

impl Game for Dealt {
    const NAME: &'static str = "chinchon";
    type Rules = DealtRules;
    type Action = Action;
    type View = ChinchonView;
    type Event = Event;
    type Error = ActionError;

    fn new(r: &DealtRules, _seats: usize, seed: u64) -> Result<Self, SetupError> {
        let deal = Deal {
            hands: r.hands.iter().map(|s| h(s)).collect(),
            muestra: c(&r.muestra),
            stock_top: r.stock.split_whitespace().map(c).collect(),
            scores: r.scores.clone(),
            mano: 0,
        };
        ChinchonGame::arranged(&r.rules, &deal, seed).map(Dealt)
    }
    fn to_act(&self) -> ToAct {
        self.0.to_act()
    }
    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        self.0.legal_actions(seat)
    }
    fn apply(&mut self, seat: Seat, a: &Action) -> Result<Vec<Event>, ActionError> {
        self.0.apply(seat, a)
    }
    fn view(&self, seat: Seat) -> ChinchonView {
        self.0.view(seat)
    }
    fn spectator_view(&self) -> ChinchonView {
        self.0.spectator_view()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
}

impl Resample for Dealt {
    fn resample(view: &ChinchonView, rng: &mut ChaCha8Rng) -> Result<Self, ResampleError> {
        ChinchonGame::resample(view, rng).map(Dealt)
    }
}

/// Chinchón's reviewer on [`Dealt`] games.
struct DealtReviewer(ChinchonReviewer);

impl Reviewer for DealtReviewer {
    type G = Dealt;
    type Policy = Players;

    fn options(
        &self,
        view: &ChinchonView,
        legal: &[Action],
        played: &Action,
    ) -> Option<Vec<Action>> {
        self.0.options(view, legal, played)
    }
    fn policy(&self) -> Players {
        self.0.policy()
    }
    fn rollout_action(
        &self,
        policy: &mut Players,
        world: &Dealt,
        seat: Seat,
        legal: &[Action],
        rng: &mut ChaCha8Rng,
    ) -> Action {
        self.0.rollout_action(policy, &world.0, seat, legal, rng)
    }
    fn settle(&self, world: &Dealt, events: &[Event], seat: Seat) -> Option<f64> {
        self.0.settle(&world.0, events, seat)
    }
    fn equity(&self, game: &Dealt, seat: Seat) -> f64 {
        self.0.equity(&game.0, seat)
    }
    fn hand(&self, game: &Dealt) -> u32 {
        self.0.hand(&game.0)
    }
    fn exact(
        &self,
        view: &ChinchonView,
        options: &[Action],
    ) -> (Map<String, Value>, Vec<Map<String, Value>>) {
        self.0.exact(view, options)
    }
    fn reason(&self, view: &ChinchonView, d: &Decision) -> Option<Line> {
        self.0.reason(view, d)
    }
}

/// A record of a dealt game: seat 0 (mano) holds `mine`, seat 1 `theirs`, the stock gives
/// `stock` first; `actions` by whoever is to act.
fn dealt_record(
    mine: &str,
    theirs: &str,
    stock: &str,
    scores: [i32; 2],
    seed: u64,
    actions: &[&str],
) -> Record<Dealt> {
    let rules = DealtRules {
        rules: ChinchonRules::default(),
        hands: vec![mine.into(), theirs.into()],
        muestra: "7c".into(),
        stock: stock.into(),
        scores: scores.to_vec(),
    };
    let mut g = Dealt::new(&rules, 2, seed).unwrap();
    let mut rec = Record::new(rules, 2, seed);
    for a in actions {
        let seat = g.to_act().seats()[0];
        let action: Action = a.parse().unwrap();
        g.apply(seat, &action)
            .unwrap_or_else(|e| panic!("seat {seat} `{a}`: {e}"));
        rec.actions.push((seat, action));
    }
    rec
}

fn review_dealt(rec: &Record<Dealt>, settings: &Settings) -> Review {
    review(
        &DealtReviewer(ChinchonReviewer::default()),
        rec,
        0,
        settings,
        &|_, _| {},
    )
    .unwrap()
}

#[test]
fn a_review_never_reads_a_hidden_card() {
    // The same cards for seat 0 and the same play; seat 1 holds other cards (but those it
    // discards) and the stock under the cards drawn lies in another order.
    let stock = "6o 10c 11e 1c";
    let actions = [
        "robo",
        "descarto 12b",
        "robo",
        "descarto 4c",
        "tomo",
        "descarto 10b",
        "robo",
        "descarto 6e",
        "robo",
    ];
    let mine = "1o 2o 3o 5c 5e 10b 12b";
    let a = dealt_record(mine, "4c 6e 7b 11o 11c 2b 3b", stock, [0, 0], 1, &actions);
    let b = dealt_record(mine, "4c 6e 7b 12o 12c 1b 7e", stock, [0, 0], 2, &actions);
    // The two games differ in what seat 0 cannot see, and only there.
    let (mut ga, mut gb) = (
        Dealt::new(&a.rules, 2, a.seed).unwrap(),
        Dealt::new(&b.rules, 2, b.seed).unwrap(),
    );
    assert_ne!(ga.0.hand(1), gb.0.hand(1));
    for (s, action) in &a.actions {
        assert_eq!(ga.view(0), gb.view(0));
        ga.apply(*s, action).unwrap();
        gb.apply(*s, action).unwrap();
    }
    assert_ne!(ga.0.stock(), gb.0.stock());
    let (ra, rb) = (review_dealt(&a, &quick()), review_dealt(&b, &quick()));
    assert!(ra.decisions.len() >= 5, "{} decisions", ra.decisions.len());
    assert_eq!(ra, rb);
}

#[test]
fn breaking_a_meld_for_nothing_is_a_mistake_and_keeping_it_is_good() {
    // 1o 2o 3o and three 5s made; the 11c drawn and the 12b are dead weight.
    let settings = Settings {
        min_worlds: 32,
        max_worlds: 96,
        ..quick()
    };
    let mine = "1o 2o 3o 5c 5e 5b 12b";
    let theirs = "4c 6e 7b 11o 10c 2b 3b";
    let label = |discard: &str| {
        let rec = dealt_record(mine, theirs, "11c", [80, 80], 3, &["robo", discard]);
        let r = review_dealt(&rec, &settings);
        let d = r.decisions.iter().find(|d| d.at == 1).unwrap().clone();
        assert_eq!(d.options.len(), 8, "every card of eight: {:?}", d.options);
        d
    };
    let bad = label("descarto 2o");
    assert!(
        bad.label >= Label::Mistake,
        "{} lost {} ± {}: {:?}",
        bad.played,
        bad.loss,
        bad.se,
        bad.label
    );
    assert!(
        bad.best == "descarto 12b" || bad.best == "descarto 11c",
        "{}",
        bad.best
    );
    let reason = bad.reason.clone().unwrap();
    assert_eq!(reason.phrase.key, "review.chinchon.better_close");
    assert!(
        reason.text.starts_with("discarding 2o kept a "),
        "{}",
        reason.text
    );
    let good = label("descarto 12b");
    assert_eq!(
        good.label,
        Label::Good,
        "{} lost {} ± {}",
        good.played,
        good.loss,
        good.se
    );
}

#[test]
fn not_closing_a_chinchon_is_a_blunder_and_closing_it_is_good() {
    // Six oros in a row and the 7o drawn: putting the rey down is a chinchón.
    let mine = "1o 2o 3o 4o 5o 6o 12b";
    let theirs = "4c 6e 7b 11o 10c 2b 3b";
    let run = |play: &str| {
        let rec = dealt_record(mine, theirs, "7o", [30, 30], 4, &["robo", play]);
        review_dealt(&rec, &quick())
            .decisions
            .into_iter()
            .find(|d| d.at == 1)
            .unwrap()
    };
    let missed = run("descarto 4o");
    assert_eq!(
        missed.label,
        Label::Blunder,
        "lost {} ± {}",
        missed.loss,
        missed.se
    );
    let best = missed
        .options
        .iter()
        .find(|o| o.action == "cierro 12b")
        .unwrap();
    assert_eq!((best.win, best.se), (1.0, 0.0), "a chinchón wins the game");
    assert_eq!(missed.best_win(), 1.0);
    assert!(
        best.exact.get("close").is_none(),
        "a close carries no close odds"
    );
    let closed = run("cierro 12b");
    assert_eq!((closed.label, closed.loss), (Label::Good, 0.0));
    assert_eq!(
        closed.reason.unwrap().phrase.key,
        "review.chinchon.best",
        "the best choice, told so"
    );
}

#[test]
fn the_chance_of_winning_is_one_or_zero_at_the_end() {
    let rec = bot_record(
        ChinchonRules {
            target: 20,
            ..ChinchonRules::default()
        },
        3,
        8,
        0,
    );
    let g = replay(&rec, rec.actions.len());
    assert_eq!(g.phase(), Phase::Over);
    let r = ChinchonReviewer::default();
    for seat in 0..3 {
        let want = if g.winners().contains(&seat) {
            1.0 / g.winners().len() as f64
        } else {
            0.0
        };
        assert_eq!(r.equity(&g, seat), want, "seat {seat}");
    }
    // Alone within the target: won; past it, or out: lost; all past: the fewest points.
    let mut s = Standing::new(&[40, 101, 120], 0, 100);
    assert_eq!(win_chance(&s, 0), 1.0);
    assert_eq!(win_chance(&s, 1), 0.0);
    s.out = vec![false, true, true];
    assert_eq!((win_chance(&s, 0), win_chance(&s, 2)), (1.0, 0.0));
    let all_past = Standing::new(&[104, 110], 1, 100);
    assert_eq!(
        (win_chance(&all_past, 0), win_chance(&all_past, 1)),
        (1.0, 0.0)
    );
    let tied = Standing::new(&[104, 104], 1, 100);
    assert_eq!(win_chance(&tied, 0), 0.5);
}

#[test]
fn equal_scores_are_even_and_every_seat_sums_to_one() {
    for target in [30, 100] {
        for score in [FLOOR, -10, 0, 17, target / 2, target] {
            // Two players: what the mano's edge gives one, swapping the mano gives the other.
            let as_mano = win_chance(&Standing::new(&[score, score], 0, target), 0);
            let other = win_chance(&Standing::new(&[score, score], 1, target), 1);
            assert!(
                (as_mano - other).abs() < 1e-12,
                "{score}: {as_mano} {other}"
            );
            let not_mano = win_chance(&Standing::new(&[score, score], 1, target), 0);
            assert!((as_mano + not_mano - 1.0).abs() < 1e-9);
            assert!(
                (as_mano - 0.5).abs() < 0.03,
                "the mano's edge is small: {as_mano}"
            );
            for n in 3..=8 {
                let s = Standing::new(&vec![score; n], score.rem_euclid(n as i32) as usize, target);
                for seat in 0..n {
                    let p = win_chance(&s, seat);
                    assert!((p - 1.0 / n as f64).abs() < 1e-9, "{n} at {score}: {p}");
                }
            }
        }
        // Uneven scores, reenganche too: the chances of all add up to one.
        for reenganche in [
            Reenganche::Off,
            Reenganche::Highest,
            Reenganche::SecondHighest,
        ] {
            for scores in [vec![5, 60], vec![10, 50, 80], vec![0, 95, 40, 3, 70]] {
                let scores: Vec<i32> = scores.iter().map(|&x| x * target / 100).collect();
                let mut s = Standing::new(&scores, 1, target);
                s.reenganche = reenganche;
                let sum: f64 = (0..scores.len()).map(|i| win_chance(&s, i)).sum();
                assert!((sum - 1.0).abs() < 1e-6, "{scores:?} {reenganche:?}: {sum}");
            }
        }
    }
}

#[test]
fn more_points_never_raise_the_chance_of_winning() {
    let target = 100;
    for n in 2..=8usize {
        for mano in [0, 1] {
            let mut others: Vec<i32> = (0..n as i32).map(|k| 10 + 11 * k).collect();
            others[0] = FLOOR;
            let mut last = f64::INFINITY;
            let mut first = None;
            for mine in FLOOR..=target {
                others[0] = mine;
                let p = win_chance(&Standing::new(&others, mano, target), 0);
                assert!(
                    p <= last + 1e-12,
                    "{n} players, mano {mano}: {mine} points {p} > {last}"
                );
                first.get_or_insert(p);
                last = p;
            }
            assert!(
                first.unwrap() > last + 0.2,
                "{n} players: {first:?} to {last}"
            );
        }
    }
}

/// The English catalog of the review's lines, as the pages' catalogs hold it.
const ENGLISH: &[(&str, &str)] = &[
    ("review.chinchon.act.robo", "drawing from the stock"),
    ("review.chinchon.act.tomo", "taking {card} from the pile"),
    ("review.chinchon.act.descarto", "discarding {card}"),
    ("review.chinchon.act.cierro", "closing with {card} down"),
    ("review.chinchon.act.meto", "laying {card} off"),
    ("review.chinchon.act.listo", "laying off no more"),
    (
        "review.chinchon.best",
        "{played} was the best choice, {win}% to win the game; next, {other} with {other_win}%",
    ),
    (
        "review.chinchon.best_close",
        "{played} was the best choice: a {close}% chance to close within 3 draws and {win}% \
         to win the game; next, {other}: {other_close}% and {other_win}%",
    ),
    (
        "review.chinchon.better",
        "{other} was better: {other_win}% to win the game, against {win}% for {played}",
    ),
    (
        "review.chinchon.better_close",
        "{played} kept a {close}% chance to close within 3 draws and {win}% to win the game; \
         {other}, {other_close}% and {other_win}%",
    ),
];

/// A phrase told from [`ENGLISH`], cards by their codes: every placeholder filled, every
/// argument used.
fn tell(p: &Phrase) -> String {
    let (_, template) = ENGLISH
        .iter()
        .find(|(k, _)| *k == p.key)
        .unwrap_or_else(|| panic!("{} is not in the catalog", p.key));
    let mut text = template.to_string();
    for (name, arg) in &p.args {
        let value = match arg {
            Arg::Card(c) => c.clone(),
            Arg::Num(n) => n.to_string(),
            Arg::Phrase(inner) => tell(inner),
            other => panic!("{}: an argument {other:?}", p.key),
        };
        let slot = format!("{{{name}}}");
        assert!(text.contains(&slot), "{}: {slot} unused", p.key);
        text = text.replace(&slot, &value);
    }
    assert!(!text.contains('{'), "{}: {text}", p.key);
    text
}

#[test]
fn every_seat_of_a_whole_game_is_reviewed() {
    // A short game (the exact odds of every discard take time) of two hands: three
    // players in the first, two in the second.
    for (seats, seed, target) in [(3, 109, 20)] {
        let rules = ChinchonRules {
            target,
            ..ChinchonRules::default()
        };
        let rec = bot_record(rules, seats, seed, 0);
        let end = replay(&rec, rec.actions.len());
        assert_eq!((end.phase(), end.hand_number()), (Phase::Over, 2));
        let first = &end.spectator_view().sheet[0];
        assert_eq!(first.out.iter().filter(|&&o| o).count(), 1, "{first:?}");
        for seat in 0..seats {
            let r = review(
                &ChinchonReviewer::default(),
                &rec,
                seat,
                &quick(),
                &|_, _| {},
            )
            .unwrap();
            assert!(!r.decisions.is_empty());
            for d in &r.decisions {
                let (s, a) = &rec.actions[d.at];
                assert_eq!((*s, a.to_string()), (seat, d.played.clone()));
                assert!(d.options.len() >= 2);
                // The reason's English text is its catalog line.
                let reason = d.reason.as_ref().unwrap();
                assert_eq!(tell(&reason.phrase), reason.text);
            }
            for hand in &r.hands {
                let moved = 100.0 * (hand.end - hand.start);
                assert!(
                    (hand.luck + hand.skill - moved).abs() < 0.02,
                    "seat {seat} hand {}: {} + {} against {moved}",
                    hand.hand,
                    hand.luck,
                    hand.skill
                );
            }
            let end = r.hands.last().unwrap().end;
            assert!(end == 0.0 || end == 1.0 || end == 0.5, "{end}");
            assert_eq!(r.result, 100.0 * end);
        }
    }
}
