//! Mus's review ([`tapete_review`]): every choice of a seat valued as its pair's chance of
//! winning the match, with the exact leyes of its hand beside the values.
//!
//! - **Decisions**: mus or no hay mus, the discard, the seña, every envite, raise, answer and
//!   órdago, and a declaration where there is a choice. The options weighed are maestro's
//!   candidates ([`crate::maestro::candidates`]: paso, envites of 2 and 4, the envite to the
//!   target, órdago; the basico discard and its neighbours) and the action played.
//! - **Rollouts**: experto at all four seats, without a read of the table, plays the rest
//!   of the hand, each from its own seat's view of the world.
//! - **Value**: the pair's chance of winning the match from the score at the end of the
//!   hand ([`match_chance`]).
//! - **Leyes**: the exact chance that the seat's pair wins each lance at the showdown, from
//!   its own four cards, its partner's seña if one was passed and every pares and juego
//!   declaration heard (not the bets: reading them is a model).

use crate::leyes_cache::lance_chance;
use crate::maestro::{after_juego, believed_world, candidates, match_chance_as};
use crate::policy;
use crate::read::TableRead;
use crate::Experto;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Map, Value};
use tapete_mus::events::Event;
use tapete_mus::view::Phase;
use tapete_mus::{Action, Jugada, Lance, MusGame, MusView};
use tapete_mus_odds::leyes::{Conditions, Declared};
use tapete_review::{Decision, Reviewer};
use tapete_table::story::{Arg, Line, Phrase};
use tapete_table::{Bot, Game, Seat};

/// Mus's [`Reviewer`].
#[derive(Clone, Copy, Debug, Default)]
pub struct MusReviewer;

/// How the rivals answer an órdago of the reviewed pair in the lance of the decision.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Answer {
    /// As a player without fear: accepting whenever its own hand makes accepting worth at
    /// least declining ([`TableRead::accepts_without_fear`]).
    Fearless,
    /// Accepting when its own four cards win the lance with at least this chance.
    From(f64),
}

/// The answers an órdago of the reviewed seat is valued against: it is worth the worst.
const ORDAGO_ANSWERS: [Answer; 3] = [Answer::Fearless, Answer::From(0.65), Answer::From(0.8)];

/// The players of a rollout: experto at every seat, and how the rivals answer an órdago
/// of the reviewed pair in the decision's lance.
#[derive(Clone, Debug)]
pub struct Rollout {
    bots: [Experto; 4],
    answer: Answer,
    us: usize,
    lance: Option<Lance>,
}

impl Reviewer for MusReviewer {
    type G = MusGame;
    type Policy = Rollout;

    fn options(&self, view: &MusView, legal: &[Action], _played: &Action) -> Option<Vec<Action>> {
        let seat = view.seat?;
        Some(candidates(view, seat, legal))
    }

    fn world(&self, view: &MusView, rng: &mut ChaCha8Rng) -> Option<MusGame> {
        believed_world(view, rng)
    }

    fn policy(&self) -> Rollout {
        Rollout {
            bots: std::array::from_fn(|_| Experto::fixed(policy::experto_style())),
            answer: Answer::Fearless,
            us: 0,
            lance: None,
        }
    }

    fn models(&self, _view: &MusView, option: &Action) -> usize {
        if *option == Action::Ordago {
            ORDAGO_ANSWERS.len()
        } else {
            1
        }
    }

    fn set_model(&self, policy: &mut Rollout, view: &MusView, model: usize) {
        policy.answer = ORDAGO_ANSWERS
            .get(model)
            .copied()
            .unwrap_or(Answer::Fearless);
        policy.us = view.seat.unwrap_or(0) % 2;
        policy.lance = view.lance();
    }

    fn rollout_action(
        &self,
        policy: &mut Rollout,
        world: &MusGame,
        seat: Seat,
        legal: &[Action],
        rng: &mut ChaCha8Rng,
    ) -> Action {
        let view = world.view_without_history(seat);
        // An órdago is answered without fear (folds are not assumed without evidence of
        // them), or, for the reviewed pair's órdago in the decision's lance, as the model
        // being valued says.
        if let (Phase::Bet { lance }, Some(bet)) = (view.phase, view.bet) {
            if bet.ordago && bet.pair != seat % 2 && legal.contains(&Action::Quiero) {
                let model = if bet.pair == policy.us && Some(lance) == policy.lance {
                    policy.answer
                } else {
                    Answer::Fearless
                };
                let accepts = match model {
                    Answer::Fearless => {
                        TableRead::default().accepts_without_fear(&view, lance, rng)
                    }
                    Answer::From(t) => view.position.is_some_and(|p| {
                        lance_chance(&view.cards, p, lance, view.rules.mode, view.rules.real31)
                            .is_some_and(|c| c >= t)
                    }),
                };
                return if accepts {
                    Action::Quiero
                } else {
                    Action::NoQuiero
                };
            }
        }
        policy.bots[seat % 4].act(&view, legal, rng)
    }

    fn settle(&self, world: &MusGame, events: &[Event], seat: Seat) -> Option<f64> {
        events
            .iter()
            .any(|e| {
                matches!(
                    e,
                    Event::HandStarted { .. } | Event::GameWon { .. } | Event::MatchWon { .. }
                )
            })
            .then(|| self.equity(world, seat))
    }

    fn equity(&self, game: &MusGame, seat: Seat) -> f64 {
        match game.outcome() {
            Some(o) if o.winners.contains(&seat) => 1.0,
            Some(_) => 0.0,
            None => match_chance_as(
                &game.scores(),
                game.rules(),
                seat % 2,
                Some(game.mano() % 2),
            ),
        }
    }

    fn hand(&self, game: &MusGame) -> u32 {
        game.hand_number()
    }

    fn exact(
        &self,
        view: &MusView,
        options: &[Action],
    ) -> (Map<String, Value>, Vec<Map<String, Value>>) {
        let mut members = Map::new();
        if let Some(leyes) = leyes(view) {
            members.insert("leyes".into(), leyes);
        }
        (members, vec![Map::new(); options.len()])
    }

    fn reason(&self, view: &MusView, d: &Decision) -> Option<Line> {
        Some(reason(view, d))
    }
}

/// The declarations heard from the other three seats (next, partner, prev), and the
/// partner's seña, as leyes conditions.
pub fn conditions(view: &MusView) -> Option<Conditions> {
    let seat = view.seat?;
    let rel = [1, 2, 3].map(|d| (seat + d) % 4);
    let decl = |x: Option<bool>| match x {
        Some(true) => Declared::Yes,
        Some(false) => Declared::No,
        None => Declared::Unknown,
    };
    Some(Conditions {
        pares: rel.map(|s| decl(view.pares[s])),
        juego: rel.map(|s| decl(view.juego[s])),
        partner_sena: view.partner_sena,
    })
}

/// The exact chance that the seat's pair wins each lance at the showdown, from what the
/// view shows (see the module docs); `None` without four cards or when nothing fits.
pub fn leyes(view: &MusView) -> Option<Value> {
    let four: [tapete_cards::Card; 4] = view.cards.as_slice().try_into().ok()?;
    let position = view.position?;
    let (mode, real31) = (view.rules.mode, view.rules.real31);
    let hand = Jugada::from_cards(&four, mode);
    let odds = crate::leyes_cache::leyes(mode, real31, hand, &conditions(view)?)?;
    let o = odds[position.min(3)];
    let r = |x: f64| (x * 10_000.0).round() / 10_000.0;
    Some(json!({
        "grande": r(o.grande),
        "chica": r(o.chica),
        "pares": r(o.pares_win),
        "juego": r(o.juego_win),
        "punto": r(o.punto_win),
    }))
}

/// A whole percentage.
fn pct(x: f64) -> i64 {
    (x * 100.0).round() as i64
}

/// The reason in words (`review.mus.reason`: its parts `{ley}{choice}{need}`, each a
/// phrase of its own or empty): the ley of the lance at stake (with the seña when one was
/// passed), what the choice played and the best one left, and what accepting an órdago
/// needed.
fn reason(view: &MusView, d: &Decision) -> Line {
    let (played, best) = (d.played_win(), d.best_win());
    let lance = match view.phase {
        Phase::Bet { lance } | Phase::Declare { lance } => Some(lance),
        _ => None,
    };
    let ley = lance.and_then(|l| {
        let x = d.exact.get("leyes")?.get(l.name())?.as_f64()?;
        Some((l, x))
    });
    let empty = || Arg::Text(String::new());
    let mut text = String::new();
    let ley_part = match ley {
        Some((l, x)) => {
            let sena = view.partner_sena.is_some();
            text += &format!(
                "with your hand{} your pair won the {} {}% of the time; ",
                if sena {
                    " and your partner's seña"
                } else {
                    ""
                },
                l.name(),
                pct(x)
            );
            Arg::Phrase(
                Phrase::new(if sena {
                    "review.mus.ley_sena"
                } else {
                    "review.mus.ley"
                })
                .key("lance", format!("story.mus.lance.{}", l.name()))
                .num("ley", pct(x)),
            )
        }
        None => empty(),
    };
    let choice = if d.played == d.best {
        text += &format!(
            "{} was the best choice: {}% to win the match",
            d.played,
            pct(played)
        );
        Phrase::new("review.mus.best")
            .text("played", d.played.clone())
            .num("played_win", pct(played))
    } else {
        text += &format!(
            "{} left {}% to win the match, {} {}%",
            d.played,
            pct(played),
            d.best,
            pct(best)
        );
        Phrase::new("review.mus.choice")
            .text("played", d.played.clone())
            .text("best", d.best.clone())
            .num("played_win", pct(played))
            .num("best_win", pct(best))
    };
    let need = ordago_need(view, d).map_or_else(empty, |need| {
        text += &format!("; accepting the órdago needed {}%", pct(need));
        Arg::Phrase(Phrase::new("review.mus.need").num("need", pct(need)))
    });
    Phrase::new("review.mus.reason")
        .arg("ley", ley_part)
        .phrase("choice", choice)
        .arg("need", need)
        .line(text)
}

/// Facing a rival's órdago: the chance of winning the lance at which accepting it is worth
/// declining (declining's value between the match won and lost with the juego).
fn ordago_need(view: &MusView, d: &Decision) -> Option<f64> {
    let us = view.seat? % 2;
    view.bet.filter(|b| b.ordago && b.pair != us)?;
    let decline = d
        .options
        .iter()
        .find(|o| o.action == Action::NoQuiero.to_string())?
        .win;
    let won = after_juego(&view.scores, &view.rules, us, true);
    let lost = after_juego(&view.scores, &view.rules, us, false);
    (won > lost).then(|| ((decline - lost) / (won - lost)).clamp(0.0, 1.0))
}
