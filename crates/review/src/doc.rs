//! The review as a document: what `tapete review --json` prints and the API returns.

use crate::value::Valued;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::fmt::Display;
use tapete_table::story::Line;
use tapete_table::Seat;

/// What a decision's loss says, once it is clear of the values' noise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Label {
    /// A loss below 5 points, or one the values cannot tell from nothing.
    Good,
    /// A loss of 5 points or more.
    Inaccuracy,
    /// 10 points or more.
    Mistake,
    /// 20 points or more.
    Blunder,
}

impl Label {
    /// The label of a loss of `loss` points known to a standard error of `se` points: a
    /// loss under two standard errors is not told from noise, and is good.
    pub fn of(loss: f64, se: f64) -> Label {
        if loss < 2.0 * se {
            return Label::Good;
        }
        match loss {
            l if l >= 20.0 => Label::Blunder,
            l if l >= 10.0 => Label::Mistake,
            l if l >= 5.0 => Label::Inaccuracy,
            _ => Label::Good,
        }
    }

    /// The part of a loss the skill and the accuracy count: the loss once it is at least two
    /// standard errors, nothing before. The best of several noisy values is above the truth
    /// on average, so counting every measured loss would charge a seat that always chose
    /// best with a steady loss.
    pub fn counted(loss: f64, se: f64) -> f64 {
        if loss < 2.0 * se {
            0.0
        } else {
            loss.max(0.0)
        }
    }

    /// The label's name, as in the document (`"mistake"`).
    pub fn name(self) -> &'static str {
        match self {
            Label::Good => "good",
            Label::Inaccuracy => "inaccuracy",
            Label::Mistake => "mistake",
            Label::Blunder => "blunder",
        }
    }
}

/// The accuracy of a decision that lost `loss` points of game-win chance: lichess's curve
/// for a drop in winning chances, 100 for no loss, about 64 for 10 points, 15 for 40.
pub fn accuracy(loss: f64) -> f64 {
    (103.1668 * (-0.04354 * loss.max(0.0)).exp() - 3.1669).clamp(0.0, 100.0)
}

/// One option of a decision and its value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OptionValue {
    /// The action, in the game's text form.
    pub action: String,
    /// The chance of winning the game after it (the seat's side's), 0–1.
    pub win: f64,
    /// The standard error of `win`.
    pub se: f64,
    /// Worlds it was played in.
    pub worlds: usize,
    /// The game's exact parts for this option (Chinchón: `"close"`).
    #[serde(flatten)]
    pub exact: Map<String, Value>,
}

/// One decision of the reviewed seat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    /// The index of the decision's action in the record's action list.
    pub at: usize,
    /// The hand it was made in, from 1.
    pub hand: u32,
    /// The action chosen.
    pub played: String,
    /// The option of the highest value.
    pub best: String,
    /// Every option weighed, the one played among them.
    pub options: Vec<OptionValue>,
    /// Points of game-win chance the choice gave up against the best (0–100).
    pub loss: f64,
    /// The standard error of `loss` (paired over common worlds).
    pub se: f64,
    /// What the loss says.
    pub label: Label,
    /// This decision's accuracy ([`accuracy`] of the loss).
    pub accuracy: f64,
    /// The reason in words, when the game gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Line>,
    /// The game's exact parts for the decision (Mus: `"leyes"`).
    #[serde(flatten)]
    pub exact: Map<String, Value>,
}

impl Decision {
    /// The value of the option played.
    pub fn played_win(&self) -> f64 {
        self.options
            .iter()
            .find(|o| o.action == self.played)
            .map_or(0.0, |o| o.win)
    }

    /// The value of the best option.
    pub fn best_win(&self) -> f64 {
        self.options
            .iter()
            .find(|o| o.action == self.best)
            .map_or(0.0, |o| o.win)
    }
}

/// Luck and skill in one hand, in points of game-win chance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HandSplit {
    /// The hand, from 1.
    pub hand: u32,
    /// The chance of winning the game when the hand was dealt (0–1, from the score).
    pub start: f64,
    /// The chance when it was over (the next hand's start, or the result).
    pub end: f64,
    /// What the seat's own decisions changed: minus their losses (those clear of the
    /// noise, [`Label::counted`]).
    pub skill: f64,
    /// Everything else: the cards and the others' play (`100·(end − start) − skill`).
    pub luck: f64,
}

/// The review of one seat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// The game's name.
    pub game: String,
    /// The seat reviewed.
    pub seat: Seat,
    /// Its accuracy over the game (see docs/review.md), 0–100.
    pub accuracy: f64,
    /// Its decisions, in order.
    pub decisions: Vec<Decision>,
    /// Luck and skill, hand by hand.
    pub hands: Vec<HandSplit>,
    /// The seat's result: 100 for a win, 0 for a loss (its chance where an unfinished
    /// record stops).
    pub result: f64,
    /// The sum of the hands' luck.
    pub luck: f64,
    /// The sum of the hands' skill.
    pub skill: f64,
    /// The result less the luck: what the seat would have scored on average luck.
    pub luck_adjusted: f64,
    /// The decisions (by `at`) no world could be dealt for, left unvalued: their losses
    /// count for nothing in the skill (the game's dealer could not meet every declaration
    /// heard in its attempts).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unvalued: Vec<usize>,
}

impl Review {
    /// How many decisions carry each label, good first.
    pub fn counts(&self) -> [usize; 4] {
        let mut c = [0; 4];
        for d in &self.decisions {
            c[d.label as usize] += 1;
        }
        c
    }
}

fn round(x: f64, places: i32) -> f64 {
    let f = 10f64.powi(places);
    (x * f).round() / f
}

/// A decision from its options' values.
pub(crate) fn decision<A: Display>(
    at: usize,
    hand: u32,
    options: &[A],
    played: usize,
    valued: &Valued,
    exact: Map<String, Value>,
    per_option: Vec<Map<String, Value>>,
) -> Decision {
    let (loss, se) = valued.loss(played);
    let mut per_option = per_option.into_iter();
    let name = |i: usize| options.get(i).map(|a| a.to_string()).unwrap_or_default();
    let (played_name, best_name) = (name(played), name(valued.best));
    let options = options
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let (win, se) = valued.mean_se(i);
            OptionValue {
                action: a.to_string(),
                win: round(win, 4),
                se: round(se.min(1.0), 4),
                worlds: valued.series(i).len(),
                exact: per_option.next().unwrap_or_default(),
            }
        })
        .collect();
    Decision {
        at,
        hand,
        played: played_name,
        best: best_name,
        options,
        loss: round(loss, 2),
        se: round(se, 2),
        label: Label::of(loss, se),
        accuracy: round(accuracy(Label::counted(loss, se)), 1),
        reason: None,
        exact,
    }
}

/// The seat's accuracy over its decisions: the mean of the arithmetic and the harmonic
/// means of the decisions' accuracies (the harmonic one weighs the worst decisions most;
/// each counted at 1 at least). 100 without decisions.
fn game_accuracy(decisions: &[Decision]) -> f64 {
    if decisions.is_empty() {
        return 100.0;
    }
    let n = decisions.len() as f64;
    let mean = decisions.iter().map(|d| d.accuracy).sum::<f64>() / n;
    let harmonic = n / decisions
        .iter()
        .map(|d| 1.0 / d.accuracy.max(1.0))
        .sum::<f64>();
    (mean + harmonic) / 2.0
}

/// The whole review from its decisions, the hands' starts (hand, chance) and the chance at
/// the end.
pub(crate) fn assemble(
    game: &str,
    seat: Seat,
    decisions: Vec<Decision>,
    starts: &[(u32, f64)],
    end: f64,
) -> Review {
    let hands: Vec<HandSplit> = starts
        .iter()
        .enumerate()
        .map(|(k, &(hand, start))| {
            let stop = starts.get(k + 1).map_or(end, |s| s.1);
            let skill = -decisions
                .iter()
                .filter(|d| d.hand == hand)
                .map(|d| Label::counted(d.loss, d.se))
                .sum::<f64>();
            HandSplit {
                hand,
                start: round(start, 4),
                end: round(stop, 4),
                skill: round(skill, 2),
                luck: round(100.0 * (stop - start) - skill, 2),
            }
        })
        .collect();
    let luck = hands.iter().map(|h| h.luck).sum::<f64>();
    let skill = hands.iter().map(|h| h.skill).sum::<f64>();
    let result = 100.0 * end;
    Review {
        game: game.to_string(),
        seat,
        accuracy: round(game_accuracy(&decisions), 1),
        decisions,
        hands,
        result: round(result, 2),
        luck: round(luck, 2),
        skill: round(skill, 2),
        luck_adjusted: round(result - luck, 2),
        unvalued: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_follow_the_loss_once_it_is_clear_of_the_noise() {
        assert_eq!(Label::of(4.9, 0.1), Label::Good);
        assert_eq!(Label::of(5.0, 0.1), Label::Inaccuracy);
        assert_eq!(Label::of(10.0, 0.1), Label::Mistake);
        assert_eq!(Label::of(25.0, 1.0), Label::Blunder);
        assert_eq!(Label::of(25.0, 13.0), Label::Good, "under two errors");
        assert_eq!(Label::of(12.0, 5.9), Label::Mistake);
        assert_eq!(Label::counted(1.9, 1.0), 0.0);
        assert_eq!(Label::counted(2.0, 1.0), 2.0);
    }

    #[test]
    fn accuracy_is_lichess_curve() {
        assert!((accuracy(0.0) - 100.0).abs() < 0.01);
        assert!((accuracy(10.0) - 63.6).abs() < 0.1, "{}", accuracy(10.0));
        assert_eq!(accuracy(200.0), 0.0);
    }

    #[test]
    fn hands_split_the_change_into_luck_and_skill() {
        let d = |hand, loss, se| Decision {
            at: 0,
            hand,
            played: "a".into(),
            best: "b".into(),
            options: vec![],
            loss,
            se,
            label: Label::of(loss, se),
            accuracy: accuracy(Label::counted(loss, se)),
            reason: None,
            exact: Map::new(),
        };
        // The 1.5-point loss measured to 1 point is not told from noise: no skill lost.
        let r = assemble(
            "toy",
            0,
            vec![
                d(1, 3.0, 0.5),
                d(1, 12.0, 0.5),
                d(2, 0.0, 0.5),
                d(2, 1.5, 1.0),
            ],
            &[(1, 0.5), (2, 0.3)],
            1.0,
        );
        assert_eq!(r.hands[0].skill, -15.0);
        assert!((r.hands[0].luck - -5.0).abs() < 1e-9);
        assert!((r.hands[1].luck - 70.0).abs() < 1e-9);
        assert_eq!(r.result, 100.0);
        assert!((r.luck + r.skill - 50.0).abs() < 1e-9);
        assert!((r.luck_adjusted - (r.result - r.luck)).abs() < 1e-9);
        assert_eq!(r.counts(), [3, 0, 1, 0]);
    }
}
