//! The decision engine shared by `avanzado` and `experto`: every choice is read off the
//! exact leyes of the hand, the position, the score, the declarations, the partner's calls
//! (and, for `experto`, the partner's seña), under a [`Style`] that says how much of it a
//! level uses and how boldly.
//!
//! - **Mus**: cut when the hand's exact net value en paso (expected piedras ours less
//!   theirs, at our position) clears a bar; with a mus policy, the bar also weighs what the
//!   best discard promises and what the others said before us.
//! - **Discard**: the expected-value discard of [`crate::discard`].
//! - **Envite**: the pair's chance `p` of winning the lance comes from the leyes, conditioned
//!   on the pares/juego declarations heard (and the partner's seña), then moved by the
//!   betting of the lance: a partner's envite raises it, a rival's envite lowers it
//!   (`p^(1+γ)`, with γ by the kind of bet: small for a plain envido of 2, larger for a
//!   raise, largest for an órdago, fitted to the lances such hands actually won), a
//!   partner's *no quiero* lowers it. Answers compare the game equity of
//!   accepting with that of declining (a pot-odds rule that turns into órdago logic near
//!   the target); openings envidar above a threshold, with a mixed band below it and bluffs
//!   at a set rate (experto: at the rate its read of the table gives, which also makes it
//!   raise, as a farol, openings it would let go), and the score shifts every threshold
//!   (bolder when behind).

use crate::basico::choose;
use crate::discard;
use crate::leyes_cache;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use tapete_mus::events::Event;
use tapete_mus::rules::{self, ParesKind};
use tapete_mus::view::Phase;
use tapete_mus::{Action, Jugada, Lance, MusView, Sena};
use tapete_mus_odds::leyes::{Conditions, Declared};
use tapete_table::Seat;

/// How a level plays: which parts of the engine it uses and its thresholds.
#[derive(Clone, Debug)]
pub struct Style {
    /// Cut the mus when the hand's net value en paso (piedras, ours less theirs, from the
    /// exact leyes at our position) reaches this. An average first deal is about 0; the
    /// best fifth of hands are above ~2.
    pub cut_net: f64,
    /// The mano cuts this much lighter (every tie is his).
    pub cut_mano_bonus: f64,
    /// Each mus already played lowers the bar by this much (hands have improved).
    pub cut_step_per_mus: f64,
    /// Mus policy (experto): the bar rises by this share of what the best discard is
    /// expected to add to the hand (a hand that improves a lot by drawing asks for mus).
    pub mus_gain_weight: f64,
    /// Mus policy: each rival who asked for mus before us this round lowers the bar by this
    /// (a rival asking for mus holds a weak hand, so ours is relatively better)…
    pub rival_mus_read: f64,
    /// …and a partner asking for mus raises it by this (the pair is weaker than our hand).
    pub partner_mus_read: f64,
    /// Open the betting with envido 2 when the pair's chance reaches this.
    pub open_min: f64,
    /// Below `open_min`, within this band, envidar with a probability growing linearly to
    /// `open_min` (a mixed strategy: the same hand does not always say the same).
    pub open_band: f64,
    /// Open with [`Style::open_big_amount`] when the chance reaches this.
    pub open_big: f64,
    /// The larger opening.
    pub open_big_amount: u8,
    /// Raise a standing bet when our chance (after reading the bet) reaches this.
    pub raise_min: f64,
    /// Extra chance demanded over the break-even of accepting.
    pub accept_margin: f64,
    /// While our partner still answers after us, accept only with this much more (if we
    /// decline he still decides).
    pub pending_margin: f64,
    /// γ: a rival's envite turns our chance p into p^(1+γ) (each envite or raise of theirs
    /// in the lance counts, at most two; 0 ignores what their betting says). This is the
    /// weight of a raise, of an opening above 2, and of any envite at juego (whose few
    /// strong hands make every bet there telling).
    pub rival_bet_shrink: f64,
    /// γ of a rival's plain opening envido of 2 at grande, chica, pares or punto: the
    /// cheapest bet says least (players open it with about the better half of hands).
    pub rival_envite_shrink: f64,
    /// γ of a rival's órdago: nobody stakes the game without a hand near the top.
    pub rival_ordago_shrink: f64,
    /// δ: each rival who passed in the lance before any bet turns our chance p into
    /// 1 − (1 − p)^(1+δ) (a pass shows a hand that did not want to bet; 0 ignores it).
    pub rival_pass_boost: f64,
    /// A partner's envite or raise in the lance adds this share of the remaining chance.
    pub partner_bet_help: f64,
    /// Our partner said no quiero to this bet before us: our chance shrinks by this share.
    pub partner_decline_cut: f64,
    /// Faroles: chance of envidar with a hand below the band.
    pub bluff_rate: f64,
    /// Faroles are this many times likelier from the last position of our pair to speak
    /// (nobody of ours left to be hurt by the bet, and the rivals have shown weakness).
    pub bluff_position_factor: f64,
    /// How much the score moves the thresholds: the shift is this times (equity − ½), so
    /// behind we open and accept lighter, ahead we ask more.
    pub score_weight: f64,
    /// Pass the most informative seña and read the partner's.
    pub senas: bool,
    /// Cut the mus whatever the hand (`cortamus`).
    pub always_cut: bool,
    /// Accept an órdago only when the pair's chance at the lance from the leyes alone
    /// (before reading the betting) reaches this; 0 leaves it to the game equity.
    pub ordago_accept_min: f64,
    /// See every envite and raise, whatever the hand (órdagos still by the rules above).
    pub calls_everything: bool,
    /// Chance of throwing an órdago instead of an opening or a raise the hand would make.
    pub ordago_rate: f64,
}

/// Avanzado's thresholds (see [`Style`] for each one's meaning).
pub fn avanzado_style() -> Style {
    Style {
        cut_net: 2.0,
        cut_mano_bonus: 0.3,
        cut_step_per_mus: 0.5,
        mus_gain_weight: 0.0,
        rival_mus_read: 0.0,
        partner_mus_read: 0.0,
        open_min: 0.6,
        open_band: 0.1,
        open_big: 0.85,
        open_big_amount: 4,
        raise_min: 0.85,
        accept_margin: 0.05,
        pending_margin: 0.1,
        rival_bet_shrink: 1.0,
        rival_envite_shrink: 1.0,
        rival_ordago_shrink: 1.0,
        rival_pass_boost: 0.0,
        partner_bet_help: 0.4,
        partner_decline_cut: 0.0,
        bluff_rate: 0.05,
        bluff_position_factor: 1.0,
        score_weight: 0.2,
        senas: false,
        always_cut: false,
        ordago_accept_min: 0.0,
        calls_everything: false,
        ordago_rate: 0.0,
    }
}

/// Experto's thresholds (see [`Style`] for each one's meaning).
pub fn experto_style() -> Style {
    Style {
        // Cuts lighter than avanzado: its mus policy already keeps hands that draw well.
        cut_net: 0.3,
        cut_mano_bonus: 0.3,
        cut_step_per_mus: 0.5,
        mus_gain_weight: 0.3,
        rival_mus_read: 0.7,
        partner_mus_read: 0.2,
        open_min: 0.66,
        open_band: 0.12,
        open_big: 0.85,
        open_big_amount: 4,
        // Raises lighter: a hand read at 0.6 or more after the rivals bet wins its lance
        // most of the time (docs/bots.md).
        raise_min: 0.6,
        accept_margin: 0.1,
        pending_margin: 0.1,
        // How much a rival's bet says, by how strong a bet it is: a plain envido of 2
        // says least, a raise or a bigger opening more, an órdago most (fitted to the
        // lances won after each: docs/bots.md).
        rival_bet_shrink: 3.0,
        rival_envite_shrink: 1.0,
        rival_ordago_shrink: 8.0,
        // Position: rivals who passed before us showed no hand worth a bet, so the postre
        // opens lighter after their passes.
        rival_pass_boost: 0.4,
        partner_bet_help: 0.2,
        partner_decline_cut: 0.25,
        bluff_rate: 0.02,
        bluff_position_factor: 2.0,
        score_weight: 0.25,
        senas: true,
        always_cut: false,
        ordago_accept_min: 0.0,
        calls_everything: false,
        ordago_rate: 0.0,
    }
}

/// The opponent styles: each a small, stated change to experto's reading of the leyes,
/// like the personalities of the players one meets at a Mus table. They are opponents for
/// people and a population to measure the levels against.
pub const STYLES: &[&str] = &["conservador", "agresivo", "farolero", "pasivo", "cortamus"];

/// The style called `name` (one of [`STYLES`]), or `None`.
///
/// - `conservador`: bets and accepts only strong hands (opens at 0.8, sees a bet with a
///   wide margin), never bluffs, and accepts an órdago only with at least 80% to win the
///   lance by the leyes.
/// - `agresivo`: opens and raises light (0.5), opens big sooner, and throws an órdago in
///   a quarter of the openings and raises it makes.
/// - `farolero`: bluffs a third of the lances it would pass, from any seat.
/// - `pasivo`: sees every envite and raise, but rarely bets (opens only at 0.9, never
///   raises, never bluffs).
/// - `cortamus`: experto that always cuts the mus.
pub fn style(name: &str) -> Option<Style> {
    let e = experto_style();
    Some(match name {
        "conservador" => Style {
            open_min: 0.8,
            open_band: 0.0,
            open_big: 0.92,
            raise_min: 0.85,
            accept_margin: 0.25,
            bluff_rate: 0.0,
            ordago_accept_min: 0.8,
            ..e
        },
        "agresivo" => Style {
            open_min: 0.5,
            open_band: 0.1,
            open_big: 0.7,
            raise_min: 0.5,
            accept_margin: 0.0,
            bluff_rate: 0.05,
            ordago_rate: 0.25,
            ..e
        },
        "farolero" => Style {
            bluff_rate: 0.33,
            bluff_position_factor: 1.0,
            ..e
        },
        "pasivo" => Style {
            open_min: 0.9,
            open_band: 0.0,
            open_big: 0.97,
            raise_min: 2.0,
            bluff_rate: 0.0,
            calls_everything: true,
            ..e
        },
        "cortamus" => Style {
            always_cut: true,
            ..e
        },
        _ => return None,
    })
}

/// Raises of our pair per lance, at most.
pub const MAX_RAISES: usize = 2;
/// No raising a bet that already stands at this many piedras.
pub const MAX_RAISE_TOTAL: i32 = 12;

/// Rough chance that the pair needing `need_us` piedras wins the game against a pair
/// needing `need_them`: a logistic race whose spread grows with the piedras still to play
/// (a hand moves ~7 piedras between the pairs).
pub fn equity(need_us: i32, need_them: i32) -> f64 {
    if need_us <= 0 {
        return 1.0;
    }
    if need_them <= 0 {
        return 0.0;
    }
    let spread = 2.0 + 0.35 * ((need_us * need_them) as f64).sqrt();
    1.0 / (1.0 + (-(need_them - need_us) as f64 / spread).exp())
}

/// What experto takes from its read of the table into one decision (made by
/// `Exploit::of`, beside the read in [`crate::read`]):
/// how often to bluff against the pair it faces, with an opening or a raise, and how much
/// each rival's bets say.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exploit {
    /// The chance of a farol in a lance we would pass, in place of the style's.
    pub bluff_rate: f64,
    /// By seat: the share of that seat's bets read as faroles beyond the style's own
    /// reading (0 for a seat that bluffs no more than experto).
    pub bluffs: [f64; 4],
    /// The chance of raising, as a farol, a plain opening envido we would let go.
    pub raise_farol_rate: f64,
}

/// The rival pair's share of envites let go that the read starts from: about what
/// experto and the styles let go (docs/bots.md).
pub const FOLD_PRIOR: f64 = 0.75;
/// How many envites that starting share weighs: four answers that see the envite bring
/// the faroles back to the style's rate.
pub const FOLD_PRIOR_WEIGHT: f64 = 4.0;
/// At or below this share of envites let go, faroles stay at the style's rate…
pub const FOLD_LOW: f64 = 0.4;
/// …and at or above this one they reach [`BLUFF_MAX`]; in between, a straight line.
pub const FOLD_HIGH: f64 = 0.75;
/// Faroles against a pair that lets go at least [`FOLD_HIGH`] of the envites it faces.
pub const BLUFF_MAX: f64 = 0.7;
/// The rival pair's share of raises let go that the read starts from, before any raise
/// of ours was answered: between what the levels and styles let go (docs/bots.md).
pub const RAISE_FOLD_PRIOR: f64 = 0.5;
/// How many raises that starting share weighs: two raises seen bring the rate down
/// against a pair that sees them.
pub const RAISE_FOLD_PRIOR_WEIGHT: f64 = 2.0;
/// At or below this share of raises let go, no raise is a farol (for a weak hand, the
/// raises let go then win less than the raises seen lose, against the one piedra that
/// letting the opening go costs)…
pub const RAISE_FOLD_LOW: f64 = 0.35;
/// …and at or above this one [`RAISE_FAROL_MAX`] of the openings we would let go are
/// raised instead; in between, a straight line.
pub const RAISE_FOLD_HIGH: f64 = 0.65;
/// Raises as faroles against a pair that lets go at least [`RAISE_FOLD_HIGH`] of them.
pub const RAISE_FAROL_MAX: f64 = 1.0;

/// One decision's facts, from our own view only.
pub struct Ctx<'a> {
    pub view: &'a MusView,
    pub style: &'a Style,
    pub seat: Seat,
    pub pos: usize,
    pub jugada: Jugada,
    /// What the table read says, for a player that reads it.
    pub exploit: Option<Exploit>,
}

impl<'a> Ctx<'a> {
    /// The facts of `view`, or `None` for a spectator or a hand not of 4 cards.
    pub fn new(view: &'a MusView, style: &'a Style) -> Option<Ctx<'a>> {
        let seat = view.seat?;
        let four: [tapete_cards::Card; 4] = view.cards.clone().try_into().ok()?;
        Some(Ctx {
            view,
            style,
            seat,
            pos: view.position_of(seat),
            jugada: Jugada::from_cards(&four, view.rules.mode),
            exploit: None,
        })
    }

    /// The same facts, read with `exploit`.
    pub fn reading(self, exploit: Option<Exploit>) -> Ctx<'a> {
        Ctx { exploit, ..self }
    }

    fn pair(&self) -> usize {
        self.seat % 2
    }

    fn partner(&self) -> Seat {
        (self.seat + 2) % 4
    }

    /// Piedras our pair and the rivals still need.
    fn needs(&self) -> (i32, i32) {
        let t = self.view.rules.target as i32;
        let p = &self.view.scores.piedras;
        (t - p[self.pair()] as i32, t - p[1 - self.pair()] as i32)
    }

    fn equity_after(&self, gain_us: i32, gain_them: i32) -> f64 {
        let (nu, nt) = self.needs();
        equity(nu - gain_us, nt - gain_them)
    }

    /// Threshold shift from the score: positive (more careful) when ahead.
    fn score_shift(&self) -> f64 {
        self.style.score_weight * (self.equity_after(0, 0) - 0.5)
    }

    /// The whole decision, mapped onto `legal`.
    pub fn decide(&self, legal: &[Action], rng: &mut ChaCha8Rng) -> Action {
        let want = match self.view.phase {
            Phase::Mus => {
                if self.cut() {
                    Action::NoHayMus
                } else {
                    Action::Mus
                }
            }
            Phase::Discard => discard::best(&self.view.cards, self.view.rules.mode, self.pos)
                .map_or(Action::Paso, Action::Descarto),
            Phase::Senas => Action::Sena(if self.style.senas {
                most_informative(legal, self.view.rules.mode)
            } else {
                Sena::Ninguna
            }),
            Phase::Bet { lance } => self.bet(lance, rng),
            Phase::Declare { .. } | Phase::Over => Action::Paso,
        };
        choose(legal, want)
    }

    /// Events said since the last deal or serving: this mus round.
    fn this_mus_round(&self) -> &[Event] {
        let log = &self.view.log;
        let start = log
            .iter()
            .rposition(|e| matches!(e, Event::Served | Event::HandStarted { .. }))
            .map_or(0, |i| i + 1);
        &log[start..]
    }

    /// Mus or cut.
    pub fn cut(&self) -> bool {
        let s = self.style;
        let mode = self.view.rules.mode;
        let j = self.jugada;
        if self.view.mus_rounds >= 4 || s.always_cut {
            return true;
        }
        let net = leyes_cache::base(mode, self.view.rules.real31, j)[self.pos].net();
        let mut bar = s.cut_net - s.cut_step_per_mus * self.view.mus_rounds as f64;
        if self.pos == 0 {
            bar -= s.cut_mano_bonus;
        }
        if s.mus_gain_weight > 0.0 {
            // Experto's mus policy: the sure things are cut, whatever else.
            let kind = rules::pares(j).map(|p| p.kind);
            if j.value() == 31 || kind == Some(ParesKind::Duples) {
                return true;
            }
            let after = discard::best_value(&self.view.cards, mode, self.pos);
            bar += s.mus_gain_weight * (after - net).max(0.0);
            for e in self.this_mus_round() {
                if let Event::Said {
                    seat,
                    action: Action::Mus,
                } = e
                {
                    if *seat == self.partner() {
                        bar += s.partner_mus_read;
                    } else if *seat != self.seat {
                        bar -= s.rival_mus_read;
                    }
                }
            }
            // Close to winning, a sure small gain now is worth more than a better hand later.
            let (nu, _) = self.needs();
            if nu <= 8 {
                bar -= 0.5;
            }
        }
        net >= bar
    }

    /// Declarations heard, as conditions for the leyes (next, partner, prev).
    fn conditions(&self, lance: Lance) -> Conditions {
        let mut cond = Conditions::default();
        let rel = [1, 2, 3].map(|d| (self.seat + d) % 4);
        let decl = |x: Option<bool>| match x {
            Some(true) => Declared::Yes,
            Some(false) => Declared::No,
            None => Declared::Unknown,
        };
        if lance == Lance::Pares {
            cond.pares = rel.map(|s| decl(self.view.pares[s]));
        }
        if matches!(lance, Lance::Juego | Lance::Punto) {
            cond.juego = rel.map(|s| decl(self.view.juego[s]));
        }
        if self.style.senas {
            if let Some(sena) = self.view.partner_sena {
                let (p, j) = sena_conditions(sena);
                if cond.pares[1] == Declared::Unknown && lance != Lance::Punto {
                    cond.pares[1] = p;
                }
                if cond.juego[1] == Declared::Unknown {
                    cond.juego[1] = j;
                }
            }
        }
        cond
    }

    /// The leyes' chance in `lance` at our position under the conditions of `lance`.
    fn leyes_chance(&self, lance: Lance) -> f64 {
        let r = &self.view.rules;
        let cond = self.conditions(lance);
        match leyes_cache::lance_chances(r.mode, r.real31, self.jugada, lance, &cond) {
            Some(c) => c[self.pos],
            None => leyes_cache::base(r.mode, r.real31, self.jugada)[self.pos].lance(lance),
        }
    }

    /// The pair's chance in `lance` before reading the betting: leyes, then the partner's
    /// seña where the conditions cannot say it (reyes for grande, pitos for chica, the kind
    /// of pares, 31).
    pub fn prior(&self, lance: Lance) -> f64 {
        let p = self.leyes_chance(lance);
        let Some(sena) = self.view.partner_sena.filter(|_| self.style.senas) else {
            return p;
        };
        let help = match (lance, sena) {
            (Lance::Grande, Sena::DosReyes) => 0.35,
            (Lance::Grande, Sena::TresReyes) => 0.6,
            (Lance::Chica, Sena::DosPitos) => 0.35,
            (Lance::Chica, Sena::TresPitos) => 0.6,
            (Lance::Pares, Sena::Medias) => 0.3,
            (Lance::Pares, Sena::Duples) => 0.5,
            (Lance::Pares, Sena::TresReyes) => 0.4,
            (Lance::Pares, Sena::DosReyes) => 0.2,
            (Lance::Juego, Sena::TreintaYUna) => 0.6,
            _ => 0.0,
        };
        p + (1.0 - p) * help
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

    /// Our chance after reading the betting of the lance so far.
    pub fn chance(&self, lance: Lance) -> f64 {
        let s = self.style;
        let mut p = self.prior(lance);
        let log = self.lance_log(lance);
        let raises = |e: &Event| {
            matches!(
                e,
                Event::Said {
                    action: Action::Envido(_) | Action::Reenvido(_) | Action::Ordago,
                    ..
                }
            )
        };
        let mut rival_bets = 0;
        let mut shrink = 0.0;
        // The largest share of faroles among the rivals who bet, beyond the style's.
        let mut faroles: f64 = 0.0;
        let mut partner_bets = false;
        let mut last_rival_bet = None;
        let mut rival_passes = 0;
        for (i, e) in log.iter().enumerate() {
            if let Event::Said { seat, action } = e {
                if *action == Action::Paso && *seat % 2 != self.pair() {
                    rival_passes += 1;
                }
                if raises(e) {
                    if *seat == self.partner() {
                        partner_bets = true;
                    } else if *seat % 2 != self.pair() {
                        rival_bets += 1;
                        last_rival_bet = Some(i);
                        if let Some(x) = &self.exploit {
                            faroles = faroles.max(x.bluffs[*seat % 4]);
                        }
                        if rival_bets <= 2 {
                            shrink += match action {
                                Action::Ordago => s.rival_ordago_shrink,
                                Action::Envido(2) if lance != Lance::Juego => s.rival_envite_shrink,
                                _ => s.rival_bet_shrink,
                            };
                        }
                    }
                }
            }
        }
        if partner_bets {
            p += (1.0 - p) * s.partner_bet_help;
        }
        if rival_passes > 0 && rival_bets == 0 {
            p = 1.0 - (1.0 - p).powf(1.0 + s.rival_pass_boost * rival_passes as f64);
        }
        if rival_bets > 0 {
            // A farol says nothing of the hand: its share keeps the chance read before it.
            p = faroles * p + (1.0 - faroles) * p.powf(1.0 + shrink);
        }
        if let Some(i) = last_rival_bet {
            let partner_declined = log[i..].iter().any(|e| {
                matches!(e, Event::Said { seat, action: Action::NoQuiero } if *seat == self.partner())
            });
            if partner_declined {
                p *= 1.0 - s.partner_decline_cut;
            }
        }
        p.clamp(0.0, 1.0)
    }

    /// Whether our partner still answers the standing bet after us (the engine says who
    /// has yet to answer it).
    fn partner_pending(&self) -> bool {
        self.view.bet.is_some_and(|b| b.answers(self.partner()))
    }

    /// Whether we are the last of our pair to speak in this lance (nobody of ours after us).
    fn last_of_pair(&self, lance: Lance) -> bool {
        let partner = self.partner();
        let plays = match lance {
            Lance::Pares => self.view.pares[partner] == Some(true),
            Lance::Juego => self.view.juego[partner] == Some(true),
            _ => true,
        };
        !plays || self.view.position_of(partner) < self.pos
    }

    /// The betting of `lance`.
    pub fn bet(&self, lance: Lance, rng: &mut ChaCha8Rng) -> Action {
        let s = self.style;
        let p = self.chance(lance);
        let shift = self.score_shift();
        let (nu, nt) = self.needs();
        let Some(bet) = self.view.bet else {
            // Opening.
            let first_deje: i32 = if lance == Lance::Punto && self.view.rules.punto_y_miedo {
                2
            } else {
                1
            };
            if nu <= first_deje {
                // A declined envite wins us the game: the rivals must see it.
                return Action::Envido(2);
            }
            let sure = p >= 0.985;
            if (sure && rng.gen_bool(0.5))
                || (p >= 0.9 && (nt <= 8 || self.equity_after(0, 0) < 0.2))
            {
                return Action::Ordago;
            }
            if s.ordago_rate > 0.0 && p >= s.open_min + shift && rng.gen_bool(s.ordago_rate) {
                return Action::Ordago;
            }
            if p >= s.open_big + shift {
                return if rng.gen_bool(0.8) {
                    Action::Envido(s.open_big_amount)
                } else {
                    Action::Envido(2)
                };
            }
            let open = s.open_min + shift;
            if p >= open {
                return Action::Envido(2);
            }
            if s.open_band > 0.0 && p >= open - s.open_band {
                let q = (p - (open - s.open_band)) / s.open_band;
                if rng.gen_bool(q.clamp(0.0, 1.0)) {
                    return Action::Envido(2);
                }
            }
            let mut bluff = self.exploit.map_or(s.bluff_rate, |x| x.bluff_rate);
            if self.last_of_pair(lance) {
                bluff *= s.bluff_position_factor;
            }
            if rng.gen_bool(bluff.clamp(0.0, 1.0)) {
                return Action::Envido(2);
            }
            return Action::Paso;
        };
        if bet.pair == self.pair() {
            // Not ours to answer (should not happen): stay put.
            return Action::Paso;
        }
        let pending = self.partner_pending();
        let deje = bet.deje as i32;
        let decline = self.equity_after(0, deje);
        if bet.ordago {
            // Declining when it loses the game anyway costs nothing to refuse.
            if !pending && nt <= deje {
                return Action::Quiero;
            }
            if s.ordago_accept_min > 0.0 {
                return if self.prior(lance) >= s.ordago_accept_min {
                    Action::Quiero
                } else {
                    Action::NoQuiero
                };
            }
            let need = decline + if pending { s.pending_margin } else { 0.0 };
            return if p >= need {
                Action::Quiero
            } else {
                Action::NoQuiero
            };
        }
        let total = bet.total as i32;
        let win = self.equity_after(total, 0);
        let lose = self.equity_after(0, total);
        // Break-even chance of accepting against declining, in game equity.
        let even = if win > lose {
            ((decline - lose) / (win - lose)).clamp(0.0, 1.0)
        } else {
            0.5
        };
        if !pending && nt <= deje {
            // Declining loses the game: see it, or raise to the game with a good hand.
            return if p >= 0.6 {
                Action::Ordago
            } else {
                Action::Quiero
            };
        }
        // Raise at most twice per lance and never past what the game is worth: a bet that
        // already decides the game is accepted or declined, not raised (no endless raises).
        let our_raises = self
            .lance_log(lance)
            .iter()
            .filter(|e| matches!(e, Event::Said { seat, action: Action::Reenvido(_) } if *seat % 2 == self.pair()))
            .count();
        let can_raise = our_raises < MAX_RAISES && total < nu.min(nt) && total < MAX_RAISE_TOTAL;
        if can_raise && p >= s.raise_min + shift {
            if (p >= 0.93 && (nt <= total + 4 || nu <= total))
                || (s.ordago_rate > 0.0 && rng.gen_bool(s.ordago_rate))
            {
                return Action::Ordago;
            }
            return Action::Reenvido(2);
        }
        if s.calls_everything {
            return Action::Quiero;
        }
        let need = even + s.accept_margin + shift + if pending { s.pending_margin } else { 0.0 };
        if p < need && can_raise && our_raises == 0 && total <= 2 {
            // A plain opening we would let go: against a pair that lets raises go, raise
            // it instead, as a farol.
            let rate = self.exploit.map_or(0.0, |x| x.raise_farol_rate);
            if rate > 0.0 && rng.gen_bool(rate.min(1.0)) {
                return Action::Reenvido(2);
            }
        }
        if p >= need {
            Action::Quiero
        } else {
            Action::NoQuiero
        }
    }
}

/// What a partner's seña says about his pares and juego, as leyes conditions.
pub fn sena_conditions(sena: Sena) -> (Declared, Declared) {
    match sena {
        Sena::DosReyes
        | Sena::TresReyes
        | Sena::DosPitos
        | Sena::TresPitos
        | Sena::Medias
        | Sena::Duples => (Declared::Yes, Declared::Unknown),
        Sena::TreintaYUna => (Declared::Unknown, Declared::Yes),
        Sena::Ciego => (Declared::No, Declared::No),
        Sena::Ninguna => (Declared::Unknown, Declared::Unknown),
    }
}

/// The most informative seña among the legal ones: the one a random hand holds least often
/// (most surprising, so it tells the partner most), "ninguna" only when nothing else is true.
pub fn most_informative(legal: &[Action], mode: tapete_mus::Mode) -> Sena {
    let total: u64 = Jugada::all(mode).iter().map(|j| j.combinations(mode)).sum();
    let prior = |s: Sena| -> f64 {
        let holding: u64 = Jugada::all(mode)
            .iter()
            .filter(|j| s.holds(**j))
            .map(|j| j.combinations(mode))
            .sum();
        holding as f64 / total.max(1) as f64
    };
    legal
        .iter()
        .filter_map(|a| match a {
            Action::Sena(s) if *s != Sena::Ninguna => Some(*s),
            _ => None,
        })
        .min_by(|a, b| prior(*a).total_cmp(&prior(*b)))
        .unwrap_or(Sena::Ninguna)
}
