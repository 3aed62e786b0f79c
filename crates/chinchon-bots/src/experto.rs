//! `experto`: the strongest player without search.
//!
//! It reads everything its view shows through a [`Tracker`]: the cards it has not seen
//! (the stock and the others' hidden cards, each equally likely to be drawn), and what each
//! opponent collects — the cards it took from the pile and still holds make their meld
//! partners likely in its hand, its discards make the cards around them unlikely.
//!
//! **Seven cards are valued** by what they cost if the hand ended now and what they
//! promise with the next draw ([`outlook`], exact over the unseen cards):
//!
//! `cost = q·deadwood + (1 − q)·(κ·E[deadwood after the draw] − G·P(close) − M·P(menos diez) − C·P(chinchón))`
//!
//! where `q` is the chance another player closes before its next turn (a hazard that grows
//! with the turns each one has played and with the melds it evidently holds), `G` what a
//! close is worth (the deadwood the others are expected to be left with, which shrinks as
//! the hand goes on), and `M`, `C` the extra of menos diez and of a chinchón, which wins
//! the game. Discarding a card the next player evidently needs (it would make a meld
//! with two cards that player probably holds) costs its chance times a price.
//!
//! - **Discard**: the card whose seven left cost least, the price of feeding the next
//!   player included.
//! - **Draw**: `tomo` (the pile) when the card on top, with the best discard after it,
//!   costs less than the average over the unseen cards of drawing `robo` (the stock) and
//!   discarding as well — a close on the draw counted at what closing is worth.
//! - **Close**: not always as soon as allowed. It weighs the chance of winning the game
//!   ([`win_chance`]) after closing now — the others' expected deadwood added to their
//!   scores, so closing is certain when it puts an opponent out — against waiting a turn
//!   for menos diez or a chinchón with the same seven, which risks another player closing
//!   first. A close that would put it past the target is never made for fewer points.
//! - **Meter cartas**: lays off the cards that leave it the least deadwood, trying every
//!   order (a card laid may make room for the next).
//!
//! It sees only its view and uses its rng only to break a hand that goes round and round
//! (nobody closing for dozens of turns), so it is deterministic otherwise.

use crate::outlook::{outlook, without, Outlook};
use crate::tracker::{related, Tracker};
use crate::value::win_chance;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use tapete_chinchon::meld::{Close, Meld, MeldKind, Solver};
use tapete_chinchon::{Action, Card, ChinchonGame, ChinchonRules, ChinchonView, Hand, Phase};
use tapete_table::{Bot, Seat};

/// The weights of experto's valuation (see the module docs); the defaults are tuned in
/// the arena against `basico` and against itself.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    /// κ: weight of the expected deadwood after the next draw.
    pub future: f64,
    /// What closing with the next card is worth, as a share of the deadwood the others
    /// are expected to hold then.
    pub close_gain: f64,
    /// Extra points of a menos diez on the next card.
    pub menos_diez_gain: f64,
    /// Points a chinchón on the next card is worth (it wins the game).
    pub chinchon_gain: f64,
    /// Price, in points, of a discard the next player certainly needs.
    pub danger: f64,
    /// How much likelier the others are to close for each card they took and hold.
    pub holds_hazard: f64,
    /// Scale of the chance that the others close (1: as measured).
    pub hazard: f64,
    /// How much more likely to win waiting must be to wait instead of closing.
    pub wait_margin: f64,
    /// Discards weighed: those leaving at most this much more deadwood than the least.
    pub discard_window: f64,
    /// Discards considered after each unseen card when valuing `robo`.
    pub robo_discards: usize,
    /// Turns of a hand after which play is varied at random to break a hand that goes
    /// round and round.
    pub stall_turns: u32,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            future: 0.9,
            close_gain: 1.0,
            menos_diez_gain: 10.0,
            chinchon_gain: 60.0,
            danger: 3.0,
            holds_hazard: 0.25,
            hazard: 1.0,
            wait_margin: 0.002,
            discard_window: f64::INFINITY,
            robo_discards: 2,
            stall_turns: 60,
        }
    }
}

/// The chance that a player closes at its next turn, by the turns it has played this
/// hand (measured with `basico`, which closes as soon as it can).
const HAZARD: [f64; 10] = [
    0.015, 0.045, 0.09, 0.13, 0.175, 0.21, 0.24, 0.26, 0.27, 0.28,
];

/// The deadwood a player is left with when another closes, by the turns it has played
/// this hand (after laying cards off; measured the same way).
const DEADWOOD: [f64; 12] = [
    35.0, 30.0, 26.0, 22.0, 19.0, 16.5, 14.5, 12.5, 12.0, 10.5, 10.0, 9.0,
];

fn by_turn(table: &[f64], turns: usize) -> f64 {
    table[turns.min(table.len() - 1)]
}

/// Spread of the others' deadwood around its expectation, for the close decision: a
/// few equally likely multiples.
const SPREAD: [f64; 5] = [0.4, 0.7, 1.0, 1.3, 1.6];

/// The experto player.
#[derive(Clone, Debug, Default)]
pub struct Experto {
    /// The weights of its valuation.
    pub style: Style,
    solver: Option<(ChinchonRules, Solver)>,
}

impl Experto {
    /// An experto with these weights.
    pub fn with_style(style: Style) -> Experto {
        Experto {
            style,
            solver: None,
        }
    }

    fn solver(&mut self, rules: &ChinchonRules) -> Solver {
        match &self.solver {
            Some((r, s)) if r == rules => *s,
            _ => {
                let s = Solver::new(rules);
                self.solver = Some((*rules, s));
                s
            }
        }
    }

    /// Every legal discard or close with its cost (lower is better), as experto values
    /// them; empty outside the discard phase. A close's cost is what closing now is
    /// worth in the same units. For search players that want experto's candidates.
    pub fn ranked(&mut self, view: &ChinchonView, legal: &[Action]) -> Vec<(Action, f64)> {
        let solver = self.solver(&view.rules);
        let ctx = Context::new(view, &solver, &self.style);
        let mut out = match view.phase {
            Phase::Discard => ctx.discards(legal),
            Phase::Draw => ctx.draws(legal),
            _ => Vec::new(),
        };
        out.sort_by(|a, b| a.1.total_cmp(&b.1));
        out
    }
}

/// One decision's knowledge and the numbers every candidate shares.
struct Context<'a> {
    view: &'a ChinchonView,
    solver: &'a Solver,
    style: &'a Style,
    tracker: Tracker,
    me: Seat,
    /// Chance another player closes before this one's next turn.
    q: f64,
    /// What closing now is worth: the others' expected deadwood now.
    gain_now: f64,
    /// What closing at the next turn is worth.
    gain_next: f64,
    /// Per card index: the chance the next player wants it (lazily filled).
    danger: std::cell::RefCell<[f64; 49]>,
    /// Whether a close is allowed this turn (the first-round option).
    may_close: bool,
    /// Outlooks already worked out in this decision, by the seven cards.
    outlooks: std::cell::RefCell<Vec<(Hand, Outlook)>>,
}

impl<'a> Context<'a> {
    fn new(view: &'a ChinchonView, solver: &'a Solver, style: &'a Style) -> Context<'a> {
        let tracker = Tracker::new(view);
        let me = tracker.me();
        let active = view.active().count().max(1);
        let own_turns = |o: Seat| -> usize {
            // Turns each player has played: the hand's turns shared out from the mano.
            let t = view.turns as usize;
            let from_mano = (o + view.seats - view.mano) % view.seats;
            let behind = (0..from_mano)
                .filter(|k| !view.out[(view.mano + k) % view.seats])
                .count();
            (t + active - 1 - behind) / active
        };
        let mut stay = 1.0;
        let mut deadwood_now = 0.0;
        let mut deadwood_next = 0.0;
        let mut n = 0.0;
        for o in tracker.opponents() {
            let t = own_turns(o);
            let holds = view.holds.get(o).map_or(0, Hand::len) as f64;
            let h =
                (style.hazard * by_turn(&HAZARD, t) * (1.0 + style.holds_hazard * holds)).min(0.7);
            stay *= 1.0 - h;
            deadwood_now += by_turn(&DEADWOOD, t);
            deadwood_next += by_turn(&DEADWOOD, t + 1);
            n += 1.0;
        }
        let n: f64 = if n > 0.0 { n } else { 1.0 };
        let may_close = !(view.rules.no_close_first_turn && (view.turns as usize) < active);
        Context {
            view,
            solver,
            style,
            me,
            q: 1.0 - stay,
            gain_now: style.close_gain * deadwood_now / n,
            gain_next: style.close_gain * deadwood_next / n,
            danger: std::cell::RefCell::new([-1.0; 49]),
            tracker,
            may_close,
            outlooks: std::cell::RefCell::new(Vec::new()),
        }
    }

    /// The outlook of seven cards, worked out once per decision.
    fn outlook(&self, seven: &[Card; 7]) -> Outlook {
        let key = Hand::from_cards(seven).unwrap_or_default();
        if let Some((_, o)) = self.outlooks.borrow().iter().find(|(h, _)| *h == key) {
            return *o;
        }
        let o = outlook(self.solver, seven, self.tracker.unseen());
        self.outlooks.borrow_mut().push((key, o));
        o
    }

    /// The cost of holding seven cards with this outlook (see the module docs).
    fn cost(&self, o: &Outlook) -> f64 {
        let s = self.style;
        self.q * o.deadwood as f64
            + (1.0 - self.q)
                * (s.future * o.next_deadwood
                    - self.gain_next * o.p_close
                    - s.menos_diez_gain * o.p_menos_diez
                    - s.chinchon_gain * o.p_chinchon)
    }

    /// The cost of a close now, in the same units.
    fn close_cost(&self, close: Close) -> f64 {
        match close {
            Close::Chinchon => -self.style.chinchon_gain - self.gain_now,
            Close::MenosDiez => -10.0 - self.style.menos_diez_gain - self.gain_now,
            Close::Normal { points, .. } => points as f64 - self.gain_now,
        }
    }

    /// The price of putting `card` on the pile for the next player.
    fn feed(&self, card: Card) -> f64 {
        let Some(next) = self.tracker.next() else {
            return 0.0;
        };
        let mut cache = self.danger.borrow_mut();
        let d = &mut cache[card.index()];
        if *d < 0.0 {
            *d = self.tracker.danger(self.solver, next, card);
        }
        *d * self.style.danger
    }

    /// Each legal discard (by its seven left) and close, with its cost.
    fn discards(&self, legal: &[Action]) -> Vec<(Action, f64)> {
        let hand = self.view.hand;
        let mut out = Vec::with_capacity(legal.len());
        let closes = self.closes(legal);
        // Discards that leave far more deadwood than the least are not worth weighing.
        let left: Vec<(Card, u16)> = self
            .solver
            .analyze_hand(&hand)
            .map(|a| a.discards().iter().map(|d| (d.card, d.deadwood)).collect())
            .unwrap_or_default();
        let least = left.iter().map(|x| x.1).min().unwrap_or(0);
        for &a in legal {
            match a {
                Action::Descarto(c) => {
                    let dw = left.iter().find(|x| x.0 == c).map_or(0, |x| x.1);
                    if f64::from(dw) > f64::from(least) + self.style.discard_window {
                        continue;
                    }
                    let Some(seven) = without(&hand, c) else {
                        continue;
                    };
                    let o = self.outlook(&seven);
                    out.push((a, self.cost(&o) + self.feed(c)));
                }
                Action::Cierro(c) => {
                    if let Some(&(_, close)) = closes.iter().find(|(x, _)| *x == c) {
                        out.push((a, self.close_cost(close)));
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// The real closes among the legal actions: each card whose discard leaves seven
    /// that close, with how (a table allowing false closes lists every card).
    fn closes(&self, legal: &[Action]) -> Vec<(Card, Close)> {
        let Ok(a) = self.solver.analyze_hand(&self.view.hand) else {
            return Vec::new();
        };
        let mut out: Vec<(Card, Close)> = Vec::new();
        for d in a.discards() {
            if let Some(c) = d.close {
                if legal.contains(&Action::Cierro(d.card)) && !out.iter().any(|x| x.0 == d.card) {
                    out.push((d.card, c));
                }
            }
        }
        out
    }

    /// The best cost reachable from eight cards: closing (if it may), or the best of the
    /// `limit` discards with the least deadwood.
    fn best_of_eight(&self, eight: &Hand, limit: usize) -> f64 {
        let Ok(a) = self.solver.analyze_hand(eight) else {
            return f64::MAX;
        };
        if self.may_close {
            if let Some(c) = a.close() {
                return self.close_cost(c);
            }
        }
        let mut ds: Vec<(u16, Card)> = a.discards().iter().map(|d| (d.deadwood, d.card)).collect();
        ds.sort();
        ds.dedup_by_key(|x| x.1);
        ds.iter()
            .take(limit.max(1))
            .filter_map(|&(_, c)| {
                let seven = without(eight, c)?;
                Some(self.cost(&self.outlook(&seven)) + self.feed(c))
            })
            .fold(f64::MAX, f64::min)
    }

    /// `robo` and `tomo`, with what each is expected to cost after the best discard.
    fn draws(&self, legal: &[Action]) -> Vec<(Action, f64)> {
        let mut out = Vec::new();
        let hand = self.view.hand;
        let unseen = *self.tracker.unseen();
        if legal.contains(&Action::Robo) {
            let n = unseen.len();
            let cost = if n == 0 {
                0.0
            } else {
                // A card that can join none of the hand, worth no less than its highest
                // loose card, is thrown back: the hand stays as it is.
                let kept = self.solver.analyze_hand(&hand).ok();
                let loosest = kept.as_ref().map_or(0, |a| {
                    a.unmatched()
                        .iter()
                        .map(|&c| self.solver.value(c))
                        .max()
                        .unwrap_or(0)
                });
                let keep = hand_seven(&hand).map(|s| self.cost(&self.outlook(&s)));
                let mut total = 0.0;
                for x in unseen.distinct() {
                    let mut eight = hand;
                    if eight.add(x).is_err() {
                        continue;
                    }
                    let idle = !x.is_joker()
                        && self.solver.value(x) >= loosest
                        && !hand.iter().any(|y| related(self.solver, x, y));
                    let value = match (idle, keep) {
                        (true, Some(k)) => k + self.feed(x),
                        _ => self.best_of_eight(&eight, self.style.robo_discards),
                    };
                    total += unseen.count(x) as f64 * value;
                }
                total / n as f64
            };
            out.push((Action::Robo, cost));
        }
        if let (true, Some(top)) = (legal.contains(&Action::Tomo), self.view.pile_top()) {
            let mut eight = hand;
            if eight.add(top).is_ok() {
                // The card taken may not be the one worth putting back: consider all.
                out.push((Action::Tomo, self.best_of_eight(&eight, 8)));
            }
        }
        out
    }

    /// Whether to close with `close` now rather than wait a turn with the seven left by
    /// `wait` (a discard after which they still close), by the chance to win the game.
    fn close_now(&self, close: Close, wait: Option<(&Outlook, Close)>) -> bool {
        if close == Close::Chinchon {
            return true;
        }
        let Some((w, kept)) = wait else {
            return true;
        };
        let view = self.view;
        let target = view.rules.target as i32;
        let me = self.me;
        let opponents: Vec<Seat> = self.tracker.opponents().collect();
        if opponents.is_empty() {
            return true;
        }
        let per_opp_now = self.gain_now / self.style.close_gain.max(1e-9);
        let per_opp_next = self.gain_next / self.style.close_gain.max(1e-9);
        let chance = |mine: i32, others: f64, closer: Option<Seat>| -> f64 {
            let mut total = 0.0;
            for f in SPREAD {
                let mut scores = view.scores.clone();
                scores[me] += mine;
                for &o in &opponents {
                    if Some(o) != closer {
                        scores[o] += (others * f).round() as i32;
                    }
                }
                total += win_chance(&scores, &view.out, me, target);
            }
            total / SPREAD.len() as f64
        };
        let now = chance(close.points(), per_opp_now, None);
        // Waiting: another may close first (this seat then pays what the seven leave
        // unmatched); else the next card may make menos diez or a chinchón, or it closes
        // as now with the same seven.
        let pay = kept.points().max(0);
        let them = chance(pay, per_opp_next, opponents.first().copied());
        let md = chance(-10, per_opp_next, None);
        let same = chance(kept.points(), per_opp_next, None);
        let p_ch = w.p_chinchon;
        let p_md = (w.p_menos_diez - w.p_chinchon).max(0.0);
        let later = self.q * them
            + (1.0 - self.q) * (p_ch + p_md * md + (1.0 - p_ch - p_md).max(0.0) * same);
        later <= now + self.style.wait_margin
    }
}

impl Experto {
    /// The draw, and whether it was weighed (`false`: a rule decided it — no pile card,
    /// a close on the pile, or a pile card that does not beat keeping the hand).
    fn draw(&mut self, ctx: &Context, legal: &[Action]) -> (Action, bool) {
        let Some(top) = ctx.view.pile_top() else {
            return (Action::Robo, false);
        };
        if !legal.contains(&Action::Tomo) {
            return (Action::Robo, false);
        }
        // A card that closes is taken, unless the seven held close already (waiting for
        // better): then only a better close is worth showing the card.
        let mut eight = ctx.view.hand;
        if eight.add(top).is_ok() && ctx.may_close {
            let now = ctx
                .solver
                .analyze_hand(&ctx.view.hand)
                .ok()
                .and_then(|a| a.close());
            let with = ctx.solver.analyze_hand(&eight).ok().and_then(|a| a.close());
            match (now, with) {
                (None, Some(_)) => return (Action::Tomo, false),
                (Some(n), Some(w)) if w.rank() > n.rank() && !matches!(w, Close::Normal { .. }) => {
                    return (Action::Tomo, false)
                }
                (Some(_), _) => return (Action::Robo, false),
                _ => {}
            }
        }
        // Drawing from the stock is at least as good as keeping the hand as it is (the
        // card drawn can always go back): a pile card that does not beat that is left.
        if let Ok(a) = ctx.solver.analyze_hand(&eight) {
            let kept = a
                .discards()
                .iter()
                .find(|d| d.card == top)
                .and_then(|_| without(&eight, top));
            if let Some(seven) = kept {
                let keep = ctx.cost(&ctx.outlook(&seven));
                if ctx.best_of_eight(&eight, 8) >= keep {
                    return (Action::Robo, false);
                }
            }
        }
        let ranked = ctx.draws(legal);
        let best = ranked
            .iter()
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map_or(Action::Robo, |x| x.0);
        (best, true)
    }

    /// Whether the choice between `robo` and `tomo` in `view` is a close call worth
    /// weighing (a pile card that beats keeping the hand and closes nothing), rather than
    /// one a rule settles.
    pub fn weighs_the_draw(&mut self, view: &ChinchonView, legal: &[Action]) -> bool {
        if view.phase != Phase::Draw {
            return false;
        }
        let solver = self.solver(&view.rules);
        let style = self.style;
        let ctx = Context::new(view, &solver, &style);
        self.draw(&ctx, legal).1
    }

    fn discard(&mut self, ctx: &Context, legal: &[Action]) -> Action {
        let ranked = ctx.discards(legal);
        let best_discard = ranked
            .iter()
            .filter(|(a, _)| matches!(a, Action::Descarto(_)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|x| x.0);
        let closes = ctx.closes(legal);
        let target = ctx.view.rules.target as i32;
        let mine = ctx.view.scores[ctx.me];
        let best_close = closes
            .iter()
            .filter(|(_, c)| mine + c.points() <= target || matches!(c, Close::Chinchon))
            .max_by_key(|(_, c)| c.rank())
            .copied();
        let Some((card, close)) = best_close else {
            return best_discard.unwrap_or(legal[0]);
        };
        // Waiting keeps seven that close: the discard among those with the best outlook.
        let wait = ctx.solver.analyze_hand(&ctx.view.hand).ok().and_then(|a| {
            a.discards()
                .iter()
                .filter(|d| d.close.is_some() && legal.contains(&Action::Descarto(d.card)))
                .filter_map(|d| {
                    let seven = without(&ctx.view.hand, d.card)?;
                    let o = ctx.outlook(&seven);
                    Some((o, d.close?, ctx.cost(&o) + ctx.feed(d.card), d.card))
                })
                .min_by(|a, b| a.2.total_cmp(&b.2))
        });
        let waiting = wait.as_ref().map(|(o, c, _, _)| (o, *c));
        if ctx.close_now(close, waiting) {
            Action::Cierro(card)
        } else {
            wait.map_or(Action::Cierro(card), |(_, _, _, c)| Action::Descarto(c))
        }
    }
}

/// The melds on the table after `card` is laid where the engine puts it (the first
/// escalera it fits, else the first group), or `None` if it fits none.
fn lay_onto(solver: &Solver, melds: &[Meld], card: Card) -> Option<Vec<Meld>> {
    let pick = |run: bool| {
        melds
            .iter()
            .position(|m| matches!(m.kind, MeldKind::Run { .. }) == run && solver.fits(m, card))
    };
    let i = pick(true).or_else(|| pick(false))?;
    let laid = solver.laid(&melds[i], card)?;
    let mut out = melds.to_vec();
    out[i] = laid;
    Some(out)
}

/// The least deadwood `hand` can be left with by laying cards onto `melds`, and the
/// first card to lay for it (`None`: lay nothing more).
pub(crate) fn best_lay(solver: &Solver, hand: &Hand, melds: &[Meld]) -> (u16, Option<Card>) {
    let mut best = (
        solver.analyze_hand(hand).map_or(u16::MAX, |a| a.deadwood()),
        None,
    );
    for c in hand.distinct() {
        let Some(next) = lay_onto(solver, melds, c) else {
            continue;
        };
        let mut rest = *hand;
        rest.remove(c);
        let (dw, _) = best_lay(solver, &rest, &next);
        if dw < best.0 {
            best = (dw, Some(c));
        }
    }
    best
}

/// Seven cards as an array (`None` if there are not seven).
fn hand_seven(hand: &Hand) -> Option<[Card; 7]> {
    if hand.len() != 7 {
        return None;
    }
    let mut seven = [Card::JOKER; 7];
    for (slot, c) in seven.iter_mut().zip(hand.iter()) {
        *slot = c;
    }
    Some(seven)
}

/// Meter cartas: the card that starts the best sequence of lay-offs, or listo.
pub(crate) fn lay(solver: &Solver, view: &ChinchonView, legal: &[Action]) -> Action {
    let Some(close) = &view.close else {
        return Action::Listo;
    };
    match best_lay(solver, &view.hand, &close.melds) {
        (_, Some(c)) if legal.contains(&Action::Meto(c)) => Action::Meto(c),
        _ => Action::Listo,
    }
}

impl Bot<ChinchonGame> for Experto {
    fn act(&mut self, view: &ChinchonView, legal: &[Action], rng: &mut ChaCha8Rng) -> Action {
        let fallback = legal.first().copied().unwrap_or(Action::Listo);
        if legal.len() <= 1 {
            return fallback;
        }
        let solver = self.solver(&view.rules);
        if view.phase == Phase::LayOff {
            return lay(&solver, view, legal);
        }
        if view.turns >= self.style.stall_turns && rng.gen_bool(0.5) {
            // Nobody has closed for a long while: a hand can go round and round with
            // every player putting back the card it drew. Vary the play (never a close
            // refused, never a false one).
            let plain: Vec<Action> = legal
                .iter()
                .copied()
                .filter(|a| !matches!(a, Action::Cierro(_)))
                .collect();
            if !plain.is_empty() && !legal.iter().any(|a| matches!(a, Action::Cierro(_))) {
                return plain[rng.gen_range(0..plain.len())];
            }
        }
        let style = self.style;
        let ctx = Context::new(view, &solver, &style);
        let a = match view.phase {
            Phase::Draw => self.draw(&ctx, legal).0,
            Phase::Discard => self.discard(&ctx, legal),
            _ => fallback,
        };
        if legal.contains(&a) {
            a
        } else {
            fallback
        }
    }
}
