//! What a player reads of the table it sits at: each other player's habits this match.
//!
//! Every finished hand's public log, with the cards when they were shown, adds to a record
//! per seat: how often it cut the mus, how its shown hands ranked when it bet, passed or
//! threw an órdago, and how it answered envites and órdagos; and per pair, how often it
//! let the other pair's envites go, and its raises. `experto` reads it to pick its faroles
//! and its calls ([`crate::policy::Exploit`]). It shapes maestro's search three ways:
//!
//! - **Órdago answers.** In the rollouts, a rival facing an órdago of ours answers by the
//!   evidence. Until its pair has been seen folding (an envite let go, an órdago
//!   declined), it answers without fear ([`TableRead::accepts_without_fear`]): it accepts
//!   whenever its own hand makes accepting worth at least declining, so an órdago is
//!   thrown only when it pays against a player who folds nothing but the hands its cards
//!   tell it to fold. Each fold seen ([`TableRead::folds_seen`]) makes the rollout player's
//!   answer likelier, who reads an órdago as a strong hand. A rival seen declining with
//!   its hand shown never accepts with a hand no better than the best it declined with.
//! - **Deal weighting.** The belief's reading of a seat's calls ([`Reading`]) follows what
//!   its shown hands said: bets from weak hands make its bets say less; órdagos from
//!   middling hands make its órdagos say less; a player who always cuts the mus, or sees
//!   every envite, says nothing by doing so.
//! - **Rollout players.** A seat that always cuts the mus, sees every envite or bluffs
//!   often is played that way in the rollouts.
//!
//! All of it comes from the view: the public log and the cards shown at the counting.

use crate::leyes_cache::lance_chance;
use crate::policy::{
    Ctx, Exploit, Style, BLUFF_MAX, FOLD_HIGH, FOLD_LOW, FOLD_PRIOR, FOLD_PRIOR_WEIGHT,
    RAISE_FAROL_MAX, RAISE_FOLD_HIGH, RAISE_FOLD_LOW, RAISE_FOLD_PRIOR, RAISE_FOLD_PRIOR_WEIGHT,
};
use crate::strength::percentile;
use rand_chacha::ChaCha8Rng;
use tapete_cards::CardSet;
use tapete_mus::events::Event;
use tapete_mus::rules::Lance;
use tapete_mus::view::HandSummary;
use tapete_mus::{Action, MusRules, MusView};
use tapete_table::Seat;

/// Mus calls seen before a seat's cutting habit is trusted.
const MIN_MUS_CALLS: u32 = 5;
/// A seat cutting at least this share of its mus calls is read as always cutting.
const ALWAYS_CUT: f64 = 0.9;
/// Envites answered before a seat that never declines is read as seeing them all.
const MIN_ENVITES: u32 = 4;
/// A shown hand below this percentile in the lance bet was a bluff.
const BLUFF_BELOW: f64 = 0.4;
/// Share of experto's shown bets made below [`BLUFF_BELOW`] (docs/bots.md): the default
/// reading is right for a player who bluffs this much.
const BASE_BLUFF_SHARE: f64 = 0.045;
/// Shown bets before a seat's bluffing is judged.
const MIN_BETS: usize = 6;
/// Standard errors above [`BASE_BLUFF_SHARE`] a seat's share of bluffs must be to be read
/// as a bluffer: a short match shows few hands, and reading a careful player as a bluffer
/// costs more than the reverse.
const BLUFF_Z: f64 = 2.0;
/// An órdago shown below this percentile was light: experto never throws one.
const LIGHT_ORDAGO: f64 = 0.8;
/// How far above the best hand a seat has folded with it is assumed to accept an órdago.
const FOLD_MARGIN: f64 = 0.02;
/// How far from an órdago-answer threshold a shown answer must fall to contradict it (a
/// player's thresholds are not exact).
const MODEL_MARGIN: f64 = 0.05;
/// Shown answers contradicting an órdago-answer threshold that rule it out: one could be a
/// player's whim, or the score.
const MODEL_RULED_OUT: usize = 2;

/// One seat's habits this match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeatRecord {
    /// Mus or no hay mus said.
    pub mus_calls: u32,
    /// Of them, no hay mus.
    pub cuts: u32,
    /// Envites and raises (not órdagos) of the other pair it answered.
    pub envites_answered: u32,
    /// Of them, declined.
    pub envites_declined: u32,
    /// Percentiles of its shown hands in the lance when it opened or raised (not órdago).
    pub bets: Vec<f64>,
    /// Percentiles of its shown hands when it threw an órdago.
    pub ordagos: Vec<f64>,
    /// Its answers to órdagos: accepted or not, with the hand's percentile if shown.
    pub ordago_answers: Vec<(bool, Option<f64>)>,
    /// Percentiles of its shown hands when it declined a bet (envite or órdago).
    pub declined: Vec<f64>,
    /// Its answers to órdagos with the hand shown: accepted or not, with the chance its
    /// four cards gave its pair to win the lance ([`crate::leyes_cache::lance_chance`]).
    pub ordago_chances: Vec<(bool, f64)>,
    /// The same for its answers to envites and raises (seen or raised: accepted).
    pub envite_chances: Vec<(bool, f64)>,
    /// The lance chances of its shown hands when it threw an órdago.
    pub ordago_throw_chances: Vec<f64>,
    /// The lance chances of its shown hands when it opened or raised (not órdago).
    pub bet_chances: Vec<f64>,
}

impl SeatRecord {
    /// Whether the seat is read as always cutting the mus.
    pub fn always_cuts(&self) -> bool {
        self.mus_calls >= MIN_MUS_CALLS
            && f64::from(self.cuts) >= ALWAYS_CUT * f64::from(self.mus_calls)
    }

    /// Whether the seat is read as seeing every envite.
    pub fn calls_everything(&self) -> bool {
        self.envites_answered >= MIN_ENVITES && self.envites_declined == 0
    }

    /// How many times experto's share of its shown bets were bluffs, when the record shows
    /// clearly more than experto's ([`BLUFF_Z`] standard errors); `None` otherwise.
    pub fn bluffs(&self) -> Option<f64> {
        if self.bets.len() < MIN_BETS {
            return None;
        }
        let (weak, n) = self.weak_bets();
        let b = BASE_BLUFF_SHARE;
        let z = (weak - n * b) / (n * b * (1.0 - b)).sqrt();
        (z >= BLUFF_Z).then(|| weak / n / b)
    }

    /// The share of its bets read as faroles beyond experto's own: the shown share below
    /// [`BLUFF_BELOW`] over experto's [`BASE_BLUFF_SHARE`], counted only once
    /// [`SeatRecord::bluffs`] says it clearly bluffs more. Shown bets are those called to
    /// the counting, so this is a floor.
    pub fn bluff_excess(&self) -> f64 {
        if self.bluffs().is_none() {
            return 0.0;
        }
        let (weak, n) = self.weak_bets();
        ((weak / n - BASE_BLUFF_SHARE) / (1.0 - BASE_BLUFF_SHARE)).clamp(0.0, 1.0)
    }

    /// Shown bets below [`BLUFF_BELOW`], and all shown bets.
    fn weak_bets(&self) -> (f64, f64) {
        let weak = self.bets.iter().filter(|&&p| p < BLUFF_BELOW).count();
        (weak as f64, self.bets.len() as f64)
    }

    /// Where its órdagos start, once it has shown a light one (below [`LIGHT_ORDAGO`]):
    /// a little below the mean of those it showed.
    pub fn light_ordagos(&self) -> Option<f64> {
        if !self.ordagos.iter().any(|&p| p < LIGHT_ORDAGO) {
            return None;
        }
        let mean = self.ordagos.iter().sum::<f64>() / self.ordagos.len() as f64;
        Some(mean - 0.1)
    }

    /// The percentile below which the seat is taken to decline an órdago, once it has
    /// been seen declining a bet with its hand shown: just above the best hand it declined
    /// with (who declines an envite with a hand declines an órdago with it too). `None`
    /// while it has shown no fold.
    pub fn ordago_threshold(&self) -> Option<f64> {
        let best = self.declined.iter().copied().reduce(f64::max)?;
        Some((best + FOLD_MARGIN).min(0.99))
    }
}

/// How the deal weighting reads one seat's calls: the curves of its bets, órdagos, mus and quiero.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reading {
    /// Likelihood of an envite or raise from the weakest hands (the bluff floor).
    pub bet_floor: f64,
    /// Percentile around which its órdagos start.
    pub ordago_centre: f64,
    /// Whether its cutting the mus says anything about its hand.
    pub cut_tells: bool,
    /// Whether its seeing an envite says anything about its hand.
    pub quiero_tells: bool,
}

impl Default for Reading {
    fn default() -> Self {
        Reading {
            bet_floor: 0.08,
            ordago_centre: 0.75,
            cut_tells: true,
            quiero_tells: true,
        }
    }
}

/// How one pair answered the other pair's envites and raises (not órdagos).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairAnswers {
    /// Envites and raises of the other pair it had to answer.
    pub faced: u32,
    /// Of them, the ones it let go (every seat of the pair said no quiero).
    pub folded: u32,
    /// Of the envites faced, the raises (a reenvido over its own pair's envite).
    pub raises_faced: u32,
    /// Of them, the ones it let go.
    pub raises_folded: u32,
}

impl PairAnswers {
    /// The share of envites the pair lets go, read as `prior` over `weight` envites before
    /// any is seen: a few answers move it little.
    pub fn fold_share(&self, prior: f64, weight: f64) -> f64 {
        share(self.folded, self.faced, prior, weight)
    }

    /// The share of raises the pair lets go, read the same way.
    pub fn raise_fold_share(&self, prior: f64, weight: f64) -> f64 {
        share(self.raises_folded, self.raises_faced, prior, weight)
    }
}

/// `folded` of `faced`, with `weight` answers at `prior` counted before any was seen.
fn share(folded: u32, faced: u32, prior: f64, weight: f64) -> f64 {
    (f64::from(folded) + prior * weight) / (f64::from(faced) + weight)
}

/// Every seat's record this match, built from the finished hands in the views.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TableRead {
    /// The last hand recorded (hand numbers run through the match).
    last_hand: u32,
    /// By seat.
    pub seats: [SeatRecord; 4],
    /// By pair (seat % 2).
    pub pairs: [PairAnswers; 2],
}

impl TableRead {
    /// Whether the view shows a finished hand not yet recorded.
    pub fn is_new(&self, view: &MusView) -> bool {
        view.last_hand
            .as_ref()
            .is_some_and(|h| h.hand > self.last_hand)
    }

    /// Records the view's last finished hand if it is new.
    pub fn observe(&mut self, view: &MusView) {
        if let Some(h) = &view.last_hand {
            if h.hand > self.last_hand {
                self.last_hand = h.hand;
                self.record(h, &view.rules);
            }
        }
    }

    /// Adds one finished hand to the records.
    pub fn record(&mut self, hand: &HandSummary, rules: &MusRules) {
        let pct = |seat: Seat, lance: Lance| {
            hand.cards
                .map(|c| percentile(c[seat], lance, rules.mode, rules.real31))
        };
        let chance = |seat: Seat, lance: Lance| {
            let cards: Vec<_> = hand.cards?[seat].iter().collect();
            let position = (seat + 4 - hand.mano) % 4;
            lance_chance(&cards, position, lance, rules.mode, rules.real31)
        };
        let mut lance = None;
        // The pair of the standing bet, and whether it is an órdago.
        let mut bet: Option<(usize, bool)> = None;
        // The pair whose envite (not órdago) waits for an answer other than no quiero, and
        // whether that envite is a raise.
        let mut unanswered: Option<(usize, bool)> = None;
        for e in &hand.log {
            match e {
                Event::LanceStarted { lance: l } => {
                    lance = Some(*l);
                    bet = None;
                    unanswered = None;
                }
                Event::LanceSettled { .. } => {
                    if let Some((p, raise)) = unanswered.take() {
                        let a = &mut self.pairs[1 - p];
                        a.faced += 1;
                        a.folded += 1;
                        if raise {
                            a.raises_faced += 1;
                            a.raises_folded += 1;
                        }
                    }
                    lance = None;
                    bet = None;
                }
                Event::Said { seat, action } => {
                    let s = *seat;
                    if lance.is_some() {
                        match action {
                            Action::Quiero
                            | Action::Envido(_)
                            | Action::Reenvido(_)
                            | Action::Ordago => {
                                if let Some((p, raise)) = unanswered.take() {
                                    if p != s % 2 {
                                        self.pairs[s % 2].faced += 1;
                                        if raise {
                                            self.pairs[s % 2].raises_faced += 1;
                                        }
                                    }
                                }
                                if matches!(action, Action::Envido(_) | Action::Reenvido(_)) {
                                    unanswered =
                                        Some((s % 2, matches!(action, Action::Reenvido(_))));
                                }
                            }
                            _ => {}
                        }
                    }
                    let r = &mut self.seats[s % 4];
                    match (action, lance) {
                        (Action::Mus, _) => r.mus_calls += 1,
                        (Action::NoHayMus, _) => {
                            r.mus_calls += 1;
                            r.cuts += 1;
                        }
                        (Action::Envido(_) | Action::Reenvido(_), Some(l)) => {
                            if let Some((pair, false)) = bet {
                                if pair != s % 2 {
                                    r.envites_answered += 1;
                                    r.envite_chances.extend(chance(s, l).map(|p| (true, p)));
                                }
                            }
                            r.bets.extend(pct(s, l));
                            r.bet_chances.extend(chance(s, l));
                            bet = Some((s % 2, false));
                        }
                        (Action::Ordago, Some(l)) => {
                            if let Some((pair, false)) = bet {
                                if pair != s % 2 {
                                    r.envites_answered += 1;
                                    r.envite_chances.extend(chance(s, l).map(|p| (true, p)));
                                }
                            }
                            r.ordagos.extend(pct(s, l));
                            r.ordago_throw_chances.extend(chance(s, l));
                            bet = Some((s % 2, true));
                        }
                        (Action::Quiero | Action::NoQuiero, Some(l)) => {
                            let accepted = *action == Action::Quiero;
                            if !accepted && bet.is_some_and(|(pair, _)| pair != s % 2) {
                                r.declined.extend(pct(s, l));
                            }
                            match bet {
                                Some((pair, true)) if pair != s % 2 => {
                                    r.ordago_answers.push((accepted, pct(s, l)));
                                    if let Some(p) = chance(s, l) {
                                        r.ordago_chances.push((accepted, p));
                                    }
                                }
                                Some((pair, false)) if pair != s % 2 => {
                                    r.envites_answered += 1;
                                    if !accepted {
                                        r.envites_declined += 1;
                                    }
                                    r.envite_chances.extend(chance(s, l).map(|p| (accepted, p)));
                                }
                                _ => {}
                            }
                        }
                        _ => {}
                    }
                }
                _ => {}
            }
        }
    }

    /// How the belief should read `seat`'s calls.
    pub fn reading(&self, seat: Seat) -> Reading {
        let r = &self.seats[seat % 4];
        let d = Reading::default();
        Reading {
            bet_floor: r
                .bluffs()
                .map_or(d.bet_floor, |x| (d.bet_floor * x).min(0.6)),
            ordago_centre: r
                .light_ordagos()
                .map_or(d.ordago_centre, |c| c.clamp(0.45, d.ordago_centre)),
            cut_tells: !r.always_cuts(),
            quiero_tells: !r.calls_everything(),
        }
    }

    /// `base` changed where `seat` has shown a habit of its own: the player of that seat
    /// in the rollouts.
    pub fn style(&self, seat: Seat, base: &Style) -> Style {
        let r = &self.seats[seat % 4];
        let mut s = base.clone();
        if r.always_cuts() {
            s.always_cut = true;
        }
        if r.calls_everything() {
            s.calls_everything = true;
        }
        if let Some(x) = r.bluffs() {
            s.bluff_rate = (s.bluff_rate * x).clamp(s.bluff_rate, 0.4);
        }
        s
    }

    /// Whether the seat of `view`, facing an órdago of the other pair in `lance`, accepts
    /// it as a player without fear would: whenever its own hand (the leyes, the
    /// declarations, its partner's seña) makes accepting worth at least declining, reading
    /// nothing into the órdago itself; but never with a hand no better than one it has
    /// been seen folding with ([`SeatRecord::ordago_threshold`]). The rng is for the
    /// policy's mixed choices (none when answering an órdago).
    pub fn accepts_without_fear(&self, view: &MusView, lance: Lance, rng: &mut ChaCha8Rng) -> bool {
        let Some(seat) = view.seat else {
            return true;
        };
        let style = fearless_style();
        let by_hand = Ctx::new(view, &style).is_none_or(|c| c.bet(lance, rng) == Action::Quiero);
        let cards: CardSet = view.cards.iter().copied().collect();
        let rules = &view.rules;
        by_hand
            && self.seats[seat % 4]
                .ordago_threshold()
                .is_none_or(|t| percentile(cards, lance, rules.mode, rules.real31) >= t)
    }

    /// Which of the answer `thresholds` the seats of `pair` (seat % 2) have not been seen
    /// contradicting this match, for órdagos (`ordago`) or for envites and raises. A
    /// threshold `t` models a rival pair that accepts when either answering seat's
    /// [`lance_chance`] is at least `t` (above 1: one that never accepts); a shown answer
    /// contradicts it when it accepted below `t` or declined at or above it, by more than
    /// [`MODEL_MARGIN`], and [`MODEL_RULED_OUT`] contradictions rule it out. With no
    /// threshold left (the two seats answer too differently for one), all of them stand:
    /// the evidence picks none.
    pub fn answer_thresholds(&self, pair: usize, ordago: bool, thresholds: &[f64]) -> Vec<f64> {
        let answers: Vec<(bool, f64)> = (0..4)
            .filter(|s| s % 2 == pair % 2)
            .flat_map(|s| {
                let r = &self.seats[s];
                if ordago {
                    &r.ordago_chances
                } else {
                    &r.envite_chances
                }
            })
            .copied()
            .collect();
        let standing: Vec<f64> = thresholds
            .iter()
            .copied()
            .filter(|&t| {
                let against = answers
                    .iter()
                    .filter(|&&(accepted, p)| {
                        if accepted {
                            p < t - MODEL_MARGIN
                        } else {
                            p >= t + MODEL_MARGIN
                        }
                    })
                    .count();
                against < MODEL_RULED_OUT
            })
            .collect();
        if standing.is_empty() {
            thresholds.to_vec()
        } else {
            standing
        }
    }

    /// Which of the betting `thresholds` `seat` has not been seen contradicting this match,
    /// for órdagos (`ordago`) or for envites and raises. A threshold `t` models a rival
    /// that bets only when its [`lance_chance`] is at least `t`; [`MODEL_RULED_OUT`] shown
    /// bets below `t` by more than [`MODEL_MARGIN`] rule it out. All may go: a seat seen
    /// betting light is no tight bettor.
    pub fn bet_thresholds(&self, seat: Seat, ordago: bool, thresholds: &[f64]) -> Vec<f64> {
        let r = &self.seats[seat % 4];
        let shown = if ordago {
            &r.ordago_throw_chances
        } else {
            &r.bet_chances
        };
        thresholds
            .iter()
            .copied()
            .filter(|&t| shown.iter().filter(|&&p| p < t - MODEL_MARGIN).count() < MODEL_RULED_OUT)
            .collect()
    }

    /// Folds of `pair` (seat % 2) seen this match: envites it let go, and no quieros its
    /// seats said to órdagos.
    pub fn folds_seen(&self, pair: usize) -> u32 {
        let declined = (0..4)
            .filter(|s| s % 2 == pair % 2)
            .flat_map(|s| &self.seats[s].ordago_answers)
            .filter(|(accepted, _)| !accepted)
            .count();
        self.pairs[pair % 2].folded + declined as u32
    }
}

/// Experto's reading without fear: no bet of the other pair says anything, and no margin
/// is asked over the break-even of accepting.
fn fearless_style() -> Style {
    Style {
        rival_bet_shrink: 0.0,
        rival_envite_shrink: 0.0,
        rival_ordago_shrink: 0.0,
        pending_margin: 0.0,
        partner_decline_cut: 0.0,
        ..crate::policy::experto_style()
    }
}

impl Exploit {
    /// The exploit of `read` for the pair of `seat` under `style`: faroles grow with how
    /// often the rival pair has let our envites go, raises as faroles with how often it
    /// has let our raises go, and a rival whose shown bets were weak more often than
    /// experto's has its bets read as partly faroles.
    pub fn of(read: &TableRead, seat: Seat, style: &Style) -> Exploit {
        let rivals = 1 - seat % 2;
        let fold = read.pairs[rivals].fold_share(FOLD_PRIOR, FOLD_PRIOR_WEIGHT);
        let t = ramp(fold, FOLD_LOW, FOLD_HIGH);
        let bluff_rate = style.bluff_rate + (BLUFF_MAX - style.bluff_rate).max(0.0) * t;
        let bluffs = std::array::from_fn(|s| {
            if s % 2 == seat % 2 {
                0.0
            } else {
                read.seats[s].bluff_excess()
            }
        });
        let raise_fold =
            read.pairs[rivals].raise_fold_share(RAISE_FOLD_PRIOR, RAISE_FOLD_PRIOR_WEIGHT);
        Exploit {
            bluff_rate,
            bluffs,
            raise_farol_rate: RAISE_FAROL_MAX * ramp(raise_fold, RAISE_FOLD_LOW, RAISE_FOLD_HIGH),
        }
    }
}

/// 0 at or below `low`, 1 at or above `high`, a straight line in between.
fn ramp(x: f64, low: f64, high: f64) -> f64 {
    ((x - low) / (high - low)).clamp(0.0, 1.0)
}
