//! `basico`: the thesis' level *básico* (chapter 4.1 of "Motor de inteligencia artificial
//! para un juego de Mus", Barrera and Romero de Tejada, 2008): fixed rules, no modelling of
//! the rivals, decisions from the player's own hand, its position, what was declared and
//! the score.
//!
//! The thesis splits the level into *políticas de corte/descarte* (§4.1.1: when to cut the
//! mus and what to throw away, one flowchart) and *políticas de envite* (§4.1.2: one
//! flowchart each for grande and chica, pares, juego and punto). The copy of the thesis we
//! have keeps the table of contents and the probability chapters (2–3) but not the body of
//! chapter 4, so the flowcharts are rebuilt here from what the thesis does keep:
//!
//! - a hand is judged by its chance of winning each lance against the unknown hands and by
//!   its *ganancia estimada* (§2.3: P(win) · cuenta · P(lance is played)), computed in
//!   [`crate::strength`];
//! - corte: cut with a hand that already scores well (31, medias or duples, good pares with
//!   juego, or a high estimated gain); otherwise mus, keeping reyes, pitos and pairs and
//!   throwing the middle cards;
//! - envite, per lance: envidar with a strong hand, see a bet when the hand is good enough
//!   for its size, raise with a very strong one, órdago only with a near-certain hand when
//!   the game is slipping away; the rivals considered are the ones in the lance (in pares
//!   and juego, those who said *sí*), ties go to the player closer to the mano, and the
//!   score moves the thresholds (don't feed rivals close to the target; accept anything when
//!   declining would lose the game).
//!
//! Every threshold is a named constant below.

use crate::strength::{Field, HandOdds};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use tapete_cards::{Card, CardSet};
use tapete_mus::events::Event;
use tapete_mus::rules::{self, ParesKind};
use tapete_mus::view::Phase;
use tapete_mus::{Action, Lance, Mode, MusGame, MusView, Rank};
use tapete_table::{Bot, Seat};

// ---- §4.1.1 políticas de corte ---------------------------------------------------------

/// Cut with juego de 31, the best juego: it can only be tied.
pub const CUT_WITH_31: bool = true;
/// Cut with medias or duples: the pares cuenta alone is 2 or 3 piedras.
pub const CUT_PARES_KIND: ParesKind = ParesKind::Medias;
/// Cut with pares of at least this rank when the hand also has juego (two lances served).
pub const CUT_PARES_WITH_JUEGO: Rank = Rank::Caballo;
/// Cut when the estimated gain (piedras en paso, thesis §2.3) reaches this. Roughly the best
/// fifth of first deals; an average hand expects about 1.7.
pub const CUT_GAIN: f64 = 2.8;
/// The mano may cut a little lighter: every tie is his.
pub const CUT_GAIN_MANO_BONUS: f64 = 0.15;
/// Each mus already played this hand lowers the bar by this much: the hands have improved
/// and the cards we wait for may be in the rivals' hands.
pub const CUT_GAIN_STEP_PER_MUS: f64 = 0.3;
/// After this many mus rounds, cut whatever we hold (the deck is being recycled and the
/// hands stop improving).
pub const MAX_MUS_ROUNDS: u8 = 4;

// ---- §4.1.2 políticas de envite ---------------------------------------------------------

/// Open the betting (envido 2) when the pair's chance of winning the lance reaches this.
pub const ENVIDO_MIN: f64 = 0.62;
/// Open with a larger envite when the chance reaches this.
pub const ENVIDO_BIG: f64 = 0.85;
/// The larger opening envite.
pub const ENVIDO_BIG_AMOUNT: u8 = 4;
/// Chance of envidar with a hand that does not warrant it (the only randomness).
pub const BLUFF_RATE: f64 = 0.04;
/// See a bet of 2 with this chance of winning…
pub const ACCEPT_BASE: f64 = 0.5;
/// …plus this much for every piedra above 2…
pub const ACCEPT_PER_PIEDRA: f64 = 0.02;
/// …but never asking for more than this.
pub const ACCEPT_MAX: f64 = 0.8;
/// Raise a standing bet with this chance.
pub const RAISE_MIN: f64 = 0.82;
/// The raise: so many piedras more.
pub const RAISE_AMOUNT: u8 = 2;
/// Accept an órdago with this chance.
pub const ORDAGO_ACCEPT: f64 = 0.82;
/// Accept an órdago with this chance when the game is nearly lost anyway.
pub const ORDAGO_ACCEPT_DESPERATE: f64 = 0.55;
/// Throw an órdago (opening or raising) with this chance, when losing badly.
pub const ORDAGO_THROW: f64 = 0.9;
/// Always answer with an órdago holding a hand that cannot lose (e.g. 31 as mano).
pub const ORDAGO_SURE: f64 = 0.999;
/// "Losing badly": the rivals lead by at least this many piedras…
pub const LOSING_GAP: u8 = 15;
/// …or need at most this many to win.
pub const RIVALS_NEAR: u8 = 5;
/// Extra chance demanded to accept a bet whose loss would carry the rivals to the target.
pub const NEAR_TARGET_MARGIN: f64 = 0.1;
/// How much the partner adds to our chance when he takes part and has said nothing: the
/// part of the remaining chance that he wins for us.
pub const PARTNER_HELP: f64 = 0.15;
/// As above, when the partner has envidado or raised in this lance.
pub const PARTNER_BET_HELP: f64 = 0.5;

/// The basic player. Deterministic given the rng; see the module docs.
#[derive(Clone, Debug)]
pub struct Basico {
    /// Chance of an unwarranted envite; [`BLUFF_RATE`] by default.
    pub bluff_rate: f64,
}

impl Default for Basico {
    fn default() -> Self {
        Basico {
            bluff_rate: BLUFF_RATE,
        }
    }
}

impl Bot<MusGame> for Basico {
    fn act(&mut self, view: &MusView, legal: &[Action], rng: &mut ChaCha8Rng) -> Action {
        let want = self.decide(view, legal, rng);
        choose(legal, want)
    }
}

impl Basico {
    /// The action this player wants (possibly not legal: [`choose`] maps it onto `legal`).
    fn decide(&self, view: &MusView, legal: &[Action], rng: &mut ChaCha8Rng) -> Action {
        let (Some(seat), Some(odds)) = (view.seat, HandOdds::new(&view.cards, &view.rules)) else {
            return safe_default(legal);
        };
        let me = Me {
            view,
            odds,
            seat,
            pos: view.position_of(seat),
        };
        match view.phase {
            Phase::Mus => {
                if me.cut() {
                    Action::NoHayMus
                } else {
                    Action::Mus
                }
            }
            Phase::Discard => Action::Descarto(discard(&view.cards, view.rules.mode)),
            Phase::Bet { lance } => me.bet(lance, self.bluff_rate, rng),
            // Básico plays without señas ("ninguna" is listed first).
            Phase::Declare { .. } | Phase::Senas | Phase::Over => safe_default(legal),
        }
    }
}

/// One decision's worth of facts about ourselves.
struct Me<'a> {
    view: &'a MusView,
    odds: HandOdds,
    seat: Seat,
    pos: usize,
}

impl Me<'_> {
    fn pair(&self) -> usize {
        self.seat % 2
    }

    fn partner(&self) -> Seat {
        (self.seat + 2) % 4
    }

    fn rivals(&self) -> [Seat; 2] {
        [(self.seat + 1) % 4, (self.seat + 3) % 4]
    }

    fn ours(&self) -> u8 {
        self.view.scores.piedras[self.pair()]
    }

    fn theirs(&self) -> u8 {
        self.view.scores.piedras[1 - self.pair()]
    }

    fn target(&self) -> u8 {
        self.view.rules.target
    }

    /// Losing badly: far behind, or the rivals about to win.
    fn losing_badly(&self) -> bool {
        let (us, them) = (self.ours(), self.theirs());
        them >= us.saturating_add(LOSING_GAP)
            || (them.saturating_add(RIVALS_NEAR) >= self.target() && them > us)
    }

    /// §4.1.1: cut the mus (no hay mus) or ask for cards.
    fn cut(&self) -> bool {
        let j = self.odds.jugada();
        let juego = rules::has_juego(j);
        if CUT_WITH_31 && j.value() == 31 {
            return true;
        }
        if let Some(p) = rules::pares(j) {
            if p.kind >= CUT_PARES_KIND || (juego && p.high >= CUT_PARES_WITH_JUEGO) {
                return true;
            }
        }
        if self.view.mus_rounds >= MAX_MUS_ROUNDS {
            return true;
        }
        let bonus = if self.pos == 0 {
            CUT_GAIN_MANO_BONUS
        } else {
            0.0
        };
        let bar = CUT_GAIN - CUT_GAIN_STEP_PER_MUS * self.view.mus_rounds as f64;
        self.odds.estimated_gain(self.pos) + bonus >= bar
    }

    /// Does `seat` take part in the betting of `lance`?
    fn plays(&self, seat: Seat, lance: Lance) -> bool {
        match lance {
            Lance::Pares => self.view.pares[seat] == Some(true),
            Lance::Juego => self.view.juego[seat] == Some(true),
            _ => true,
        }
    }

    /// Events of the lance being bet, from its start.
    fn lance_log(&self, lance: Lance) -> &[Event] {
        let log = &self.view.log;
        let start = log
            .iter()
            .rposition(|e| matches!(e, Event::LanceStarted { lance: l } if *l == lance))
            .map_or(0, |i| i + 1);
        &log[start..]
    }

    /// Our own chance of winning `lance` against the rivals that take part in it.
    fn own_chance(&self, lance: Lance) -> f64 {
        let field = match lance {
            Lance::Grande | Lance::Chica => Field::All,
            _ => Field::Players,
        };
        let mut p = 1.0;
        let mut cache: [Option<f64>; 2] = [None, None];
        for r in self.rivals() {
            if !self.plays(r, lance) {
                continue;
            }
            let ahead = self.pos < self.view.position_of(r);
            let slot = &mut cache[ahead as usize];
            let b = *slot.get_or_insert_with(|| self.odds.beat_one(lance, ahead, field));
            p *= b;
        }
        p
    }

    /// The pair's chance: ours, plus what the partner may win when we lose.
    fn pair_chance(&self, lance: Lance, own: f64) -> f64 {
        let partner = self.partner();
        if !self.plays(partner, lance) {
            return own;
        }
        let partner_bet = self.lance_log(lance).iter().any(|e| {
            matches!(e, Event::Said { seat, action: Action::Envido(_) | Action::Reenvido(_) | Action::Ordago } if *seat == partner)
        });
        let help = if partner_bet {
            PARTNER_BET_HELP
        } else {
            PARTNER_HELP
        };
        own + (1.0 - own) * help
    }

    /// Whether our partner still answers the standing bet after us (the engine says who
    /// has yet to answer it).
    fn partner_pending(&self) -> bool {
        self.view.bet.is_some_and(|b| b.answers(self.partner()))
    }

    /// §4.1.2: the betting of `lance`.
    fn bet(&self, lance: Lance, bluff_rate: f64, rng: &mut ChaCha8Rng) -> Action {
        let own = self.own_chance(lance);
        let chance = self.pair_chance(lance, own);
        let (us, them, target) = (self.ours(), self.theirs(), self.target());
        let Some(bet) = self.view.bet else {
            // Opening.
            let bluff = rng.gen_bool(bluff_rate.clamp(0.0, 1.0));
            if chance >= ORDAGO_SURE || (self.losing_badly() && chance >= ORDAGO_THROW) {
                return Action::Ordago;
            }
            if chance >= ENVIDO_BIG {
                return Action::Envido(ENVIDO_BIG_AMOUNT);
            }
            // A declined envite carries us to the target: the rivals must see it.
            let first_deje = if lance == Lance::Punto && self.view.rules.punto_y_miedo {
                2
            } else {
                1
            };
            if chance >= ENVIDO_MIN
                || bluff
                || (us.saturating_add(first_deje) >= target && chance >= 0.3)
            {
                return Action::Envido(2);
            }
            return Action::Paso;
        };
        // Answering: while the partner still speaks after us, we answer for our hand alone.
        let pending = self.partner_pending();
        let judged = if pending { own } else { chance };
        let declining_loses = !pending && them.saturating_add(bet.deje) >= target;
        if bet.ordago {
            let need = if self.losing_badly() {
                ORDAGO_ACCEPT_DESPERATE
            } else {
                ORDAGO_ACCEPT
            };
            return if declining_loses || judged >= need {
                Action::Quiero
            } else {
                Action::NoQuiero
            };
        }
        if chance >= ORDAGO_SURE || (self.losing_badly() && judged >= ORDAGO_THROW) {
            return Action::Ordago;
        }
        if judged >= RAISE_MIN && bet.total < target / 2 {
            return Action::Reenvido(RAISE_AMOUNT);
        }
        let mut need =
            (ACCEPT_BASE + ACCEPT_PER_PIEDRA * bet.total.saturating_sub(2) as f64).min(ACCEPT_MAX);
        if them.saturating_add(bet.total) >= target {
            need += NEAR_TARGET_MARGIN;
        }
        if declining_loses || judged >= need {
            Action::Quiero
        } else {
            Action::NoQuiero
        }
    }
}

/// §4.1.1 descarte: keep pairs, reyes and pitos (and the figures of a hand at 30 or
/// more, which wait for a pito or a figure), throw the middle cards; at least one card goes.
pub fn discard(cards: &[Card], mode: Mode) -> CardSet {
    let ranks: Vec<Rank> = cards.iter().map(|&c| Rank::of(c, mode)).collect();
    let count = |r: Rank| ranks.iter().filter(|&&x| x == r).count();
    let tens = ranks.iter().filter(|r| r.value() == 10).count();
    let keep_score = |r: Rank| -> u32 {
        if count(r) >= 2 {
            100 + r as u32
        } else if r == Rank::Rey {
            90
        } else if matches!(r, Rank::As | Rank::Dos) {
            80 - r as u32
        } else if r.value() == 10 && tens >= 3 {
            70 + r as u32
        } else {
            // Middle cards: the closest to the centre go first.
            r as u32
        }
    };
    const KEEP: u32 = 50;
    let mut out: CardSet = cards
        .iter()
        .zip(&ranks)
        .filter(|(_, &r)| keep_score(r) < KEEP)
        .map(|(&c, _)| c)
        .collect();
    if out.is_empty() {
        if let Some((&c, _)) = cards
            .iter()
            .zip(&ranks)
            .min_by_key(|(c, &r)| (keep_score(r), c.index()))
        {
            out.insert(c);
        }
    }
    out
}

/// The first of Paso / NoQuiero / Mus that is legal, else the first legal action.
fn safe_default(legal: &[Action]) -> Action {
    [Action::Paso, Action::NoQuiero, Action::Mus]
        .into_iter()
        .find(|a| legal.contains(a))
        .or_else(|| legal.first().cloned())
        .unwrap_or(Action::Paso)
}

/// `want` if legal, else the closest legal action: the nearest amount of the same kind,
/// then quiero for a raise or órdago facing a bet, then paso / no quiero.
pub fn choose(legal: &[Action], want: Action) -> Action {
    if legal.contains(&want) {
        return want;
    }
    let nearest = |n: u8, make: fn(u8) -> Action| -> Option<Action> {
        legal
            .iter()
            .filter_map(|a| match (a, make(0)) {
                (Action::Envido(m), Action::Envido(_))
                | (Action::Reenvido(m), Action::Reenvido(_)) => Some(*m),
                _ => None,
            })
            .min_by_key(|&m| (m.abs_diff(n), m))
            .map(make)
    };
    let fallback = match want {
        Action::Envido(n) => nearest(n, Action::Envido),
        Action::Reenvido(n) => nearest(n, Action::Reenvido).or(Some(Action::Quiero)),
        Action::Ordago => Some(Action::Quiero),
        _ => None,
    };
    match fallback {
        Some(a) if legal.contains(&a) => a,
        _ => safe_default(legal),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(s: &str) -> Vec<Card> {
        s.split_whitespace().map(|c| c.parse().unwrap()).collect()
    }

    #[test]
    fn discards_middle_cards_and_keeps_reyes_pitos_pairs() {
        let m = Mode::OchoReyes;
        let d = discard(&cards("12o 1b 6c 5e"), m);
        assert_eq!(d, cards("6c 5e").into_iter().collect());
        let d = discard(&cards("11o 11b 6c 3e"), m);
        assert_eq!(
            d,
            cards("6c").into_iter().collect(),
            "pair of caballos and a rey kept"
        );
        let d = discard(&cards("12o 11b 10c 4e"), m);
        assert_eq!(
            d,
            cards("4e").into_iter().collect(),
            "figures wait for a pito"
        );
        let d = discard(&cards("12o 3b 12c 3e"), m);
        assert_eq!(d.len(), 1, "something always goes");
    }

    #[test]
    fn choose_falls_back_to_a_legal_action() {
        let legal = vec![Action::Quiero, Action::NoQuiero];
        assert_eq!(choose(&legal, Action::Reenvido(2)), Action::Quiero);
        assert_eq!(choose(&legal, Action::Ordago), Action::Quiero);
        assert_eq!(choose(&legal, Action::Paso), Action::NoQuiero);
        let legal = vec![
            Action::Paso,
            Action::Envido(2),
            Action::Envido(3),
            Action::Ordago,
        ];
        assert_eq!(choose(&legal, Action::Envido(9)), Action::Envido(3));
        assert_eq!(choose(&legal, Action::Quiero), Action::Paso);
        assert_eq!(choose(&[], Action::Quiero), Action::Paso);
    }
}
