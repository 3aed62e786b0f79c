//! The whole game as one deterministic state machine behind [`tapete_table::Game`].
//!
//! Seats are numbered 0..N; play goes from a seat to the next (seat + 1, "to the right")
//! skipping players who are out. The first hand is dealt by the last seat, so seat 0 is
//! mano; each hand the deal moves one player on (the old mano deals). A deal is seven cards
//! to each player, one at a time from the mano; then the muestra, face up, starts the
//! pile; the rest is the stock. All chance comes from the game's own ChaCha stream, seeded
//! once, through tapete's pinned shuffle: a deal per hand, and a shuffle each time the
//! stock is rebuilt from the pile.
//!
//! A hand: each turn, draw (`robo`/`tomo`), then discard (`descarto`) or close (`cierro`).
//! After a normal close or menos diez, with meter cartas, each other player in turn from
//! the closer's right may lay cards onto the closer's melds (`meto`) until it says `listo`
//! (players with nothing that fits are passed over). Then the hand is counted, players
//! past the target go out (or re-enter, with reenganche), and the next hand is dealt at
//! once. A chinchón ends the game.

use crate::action::Action;
use crate::card::ChinchonDeck;
use crate::card::{Card, DeckSpec, Hand};
use crate::events::{CloseState, Event, HandResult, Laid, SeatResult, SheetRow};
use crate::meld::{Close, MeldKind, Solver};
use crate::rules::{ChinchonRules, MeterCartas, Reenganche, FALSE_CLOSE_PENALTY, HAND_SIZE};
use crate::view::{ChinchonView, Phase};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use tapete_cards::chance::{deal, rng_from_seed, shuffle};
use tapete_table::{Game, Outcome, Seat, SetupError, ToAct};

/// Why an action was refused. Nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    #[error("the game is over")]
    Over,
    #[error("there is no seat {0} at this table")]
    NoSeat(Seat),
    #[error("it is seat {turn}'s turn, not seat {seat}'s")]
    NotYourTurn { seat: Seat, turn: Seat },
    #[error("draw first: robo (the stock) or tomo (the pile)")]
    MustDraw,
    #[error("you have drawn already: descarto CARD or cierro CARD")]
    AlreadyDrew,
    #[error("the hand is closed: lay cards onto the closer's melds (meto CARD) or say listo")]
    LayingOff,
    #[error("nobody has closed: there are no melds to lay cards onto")]
    NotLayingOff,
    #[error("you do not hold {0}")]
    NotHeld(Card),
    #[error(
        "the seven cards left after putting {card} down do not close: all must be in melds but \
         one worth {limit} or less"
    )]
    NoClose { card: Card, limit: u8 },
    #[error("nobody may close during the first round of a hand")]
    FirstRound,
    #[error("{0} fits none of the closer's melds")]
    NoFit(Card),
}

/// A first hand chosen card by card: see [`ChinchonGame::arranged`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deal {
    /// Each seat's seven cards.
    pub hands: Vec<Hand>,
    /// The card face up on the pile.
    pub muestra: Card,
    /// The stock's first cards, in the order they will be drawn.
    pub stock_top: Vec<Card>,
    /// Scores to start from (empty: all 0).
    pub scores: Vec<i32>,
    /// Who plays first.
    pub mano: Seat,
}

/// A whole game of Chinchón. Cloning is cheap enough for search; equality compares
/// everything, the RNG included, so a replay can be checked for an exact match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChinchonGame {
    pub(crate) rules: ChinchonRules,
    pub(crate) solver: Solver,
    pub(crate) seats: usize,
    pub(crate) deck: DeckSpec,
    pub(crate) rng: ChaCha8Rng,
    pub(crate) hand_no: u32,
    pub(crate) mano: Seat,
    pub(crate) phase: Phase,
    pub(crate) turn: Seat,
    pub(crate) turns: u32,
    /// Times this hand's stock has been rebuilt from the pile.
    pub(crate) rebuilds: u8,
    pub(crate) fresh: bool,
    pub(crate) hands: Vec<Hand>,
    /// The stock; its last card is the top.
    pub(crate) stock: Vec<Card>,
    /// The discard pile; its last card is the top.
    pub(crate) pile: Vec<Card>,
    pub(crate) muestra: Card,
    pub(crate) took: Vec<Hand>,
    pub(crate) holds: Vec<Hand>,
    pub(crate) discarded: Vec<Hand>,
    pub(crate) scores: Vec<i32>,
    pub(crate) out: Vec<bool>,
    pub(crate) reentered: Vec<bool>,
    pub(crate) out_order: Vec<Vec<Seat>>,
    pub(crate) close: Option<CloseState>,
    pub(crate) last_hand: Option<HandResult>,
    pub(crate) sheet: Vec<SheetRow>,
    pub(crate) winners: Vec<Seat>,
    pub(crate) chinchon: Option<Seat>,
}

impl ChinchonGame {
    /// A new game, its first hand dealt: `rules` checked for `seats` players as a game
    /// may be played or replayed ([`ChinchonRules::playable_for`]; a new table is checked
    /// first by [`ChinchonRules::validate_for`], which keeps every option to what people
    /// play).
    pub fn start(rules: &ChinchonRules, seats: usize, seed: u64) -> Result<Self, SetupError> {
        if !crate::rules::SEATS.contains(&seats) {
            return Err(SetupError::Seats {
                wanted: "2–8",
                got: seats,
            });
        }
        rules.playable_for(seats).map_err(SetupError::Rules)?;
        let deck = rules.deck_for(seats);
        let mut g = ChinchonGame {
            rules: *rules,
            solver: Solver::new(rules),
            seats,
            deck,
            rng: rng_from_seed(seed),
            hand_no: 0,
            mano: 0,
            phase: Phase::Draw,
            turn: 0,
            turns: 0,
            rebuilds: 0,
            fresh: true,
            hands: vec![Hand::EMPTY; seats],
            stock: Vec::with_capacity(deck.len()),
            pile: Vec::with_capacity(deck.len()),
            muestra: Card::JOKER,
            took: vec![Hand::EMPTY; seats],
            holds: vec![Hand::EMPTY; seats],
            discarded: vec![Hand::EMPTY; seats],
            scores: vec![0; seats],
            out: vec![false; seats],
            reentered: vec![false; seats],
            out_order: Vec::new(),
            close: None,
            last_hand: None,
            sheet: Vec::new(),
            winners: Vec::new(),
            chinchon: None,
        };
        let mut events = Vec::new();
        g.deal(&mut events);
        Ok(g)
    }

    /// A game whose first hand is dealt by hand — for worked examples, lessons and
    /// tests: `deal.hands` by seat (seven cards each), the muestra, the cards the stock
    /// gives first (in the order they are drawn), the scores to start from and the mano.
    /// The rest of the deck is shuffled under the given stock cards.
    pub fn arranged(rules: &ChinchonRules, deal: &Deal, seed: u64) -> Result<Self, SetupError> {
        let seats = deal.hands.len();
        let mut g = ChinchonGame::start(rules, seats, seed)?;
        let bad = |m: String| Err(SetupError::Rules(m));
        if deal.mano >= seats {
            return bad(format!("the mano, seat {}, is not at the table", deal.mano));
        }
        if !deal.scores.is_empty() && deal.scores.len() != seats {
            return bad(format!("{} scores for {seats} seats", deal.scores.len()));
        }
        let mut rest = g.deck.multiset();
        for (s, h) in deal.hands.iter().enumerate() {
            if h.len() != HAND_SIZE {
                return bad(format!("seat {s} has {} cards, not {HAND_SIZE}", h.len()));
            }
            rest = match rest.minus(h) {
                Some(r) => r,
                None => return bad(format!("seat {s}'s cards {h} are not all left in the deck")),
            };
        }
        for &c in std::iter::once(&deal.muestra).chain(&deal.stock_top) {
            if !rest.remove(c) {
                return bad(format!("{c} is not left in the deck"));
            }
        }
        let mut stock = rest.to_vec();
        shuffle(&mut stock, &mut g.rng);
        stock.extend(deal.stock_top.iter().rev());
        g.mano = deal.mano;
        g.turn = deal.mano;
        g.hands = deal.hands.clone();
        g.muestra = deal.muestra;
        g.pile = vec![deal.muestra];
        g.stock = stock;
        if !deal.scores.is_empty() {
            g.scores = deal.scores.clone();
        }
        Ok(g)
    }

    /// The table's options.
    pub fn rules(&self) -> &ChinchonRules {
        &self.rules
    }

    /// The meld solver for this table's options.
    pub fn solver(&self) -> &Solver {
        &self.solver
    }

    /// Players at the table.
    pub fn seats(&self) -> usize {
        self.seats
    }

    /// The cards `seat` holds (empty for a seat out of the game or past the table).
    pub fn hand(&self, seat: Seat) -> Hand {
        self.hands.get(seat).copied().unwrap_or_default()
    }

    /// The stock, bottom first (its last card is drawn next).
    pub fn stock(&self) -> &[Card] {
        &self.stock
    }

    /// Points by seat.
    pub fn scores(&self) -> &[i32] {
        &self.scores
    }

    /// Where the hand stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Whose turn it is (meaningless once over).
    pub fn turn(&self) -> Seat {
        self.turn
    }

    /// The seat that played first this hand.
    pub fn mano(&self) -> Seat {
        self.mano
    }

    /// The seat that dealt this hand: the player before the mano.
    pub fn dealer(&self) -> Seat {
        self.prev_active(self.mano)
    }

    /// The close on the table (while others lay cards onto it, and after the game's last
    /// hand).
    pub fn close_state(&self) -> Option<&CloseState> {
        self.close.as_ref()
    }

    /// The winners, once over.
    pub fn winners(&self) -> &[Seat] {
        &self.winners
    }

    /// The seat whose chinchón won the game, if one did.
    pub fn chinchon(&self) -> Option<Seat> {
        self.chinchon
    }

    /// The hand being played (1 for the first).
    pub fn hand_number(&self) -> u32 {
        self.hand_no
    }

    /// Whether seats may change hands without anybody having seen another seat's cards of
    /// this hand: nothing has happened since the deal, or the game is over.
    pub fn at_boundary(&self) -> bool {
        self.fresh || self.phase == Phase::Over
    }

    /// Everything, every hidden card included (each hand and the stock): for replays of
    /// finished games. The spectator's view with `hands` (by seat) and `stock_cards` (the
    /// stock, bottom first) added.
    pub fn full_view(&self) -> Value {
        let mut v = serde_json::to_value(self.spectator_view()).unwrap_or(Value::Null);
        if let Value::Object(m) = &mut v {
            m.insert(
                "hands".into(),
                serde_json::to_value(&self.hands).unwrap_or(Value::Null),
            );
            m.insert(
                "stock_cards".into(),
                serde_json::to_value(&self.stock).unwrap_or(Value::Null),
            );
        }
        v
    }

    /// The lines a story of this game starts from: the current hand's deal as an event.
    pub fn deal_event(&self) -> Event {
        Event::HandDealt {
            hand: self.hand_no,
            dealer: self.dealer(),
            mano: self.mano,
            muestra: self.muestra,
            stock: self.stock.len(),
        }
    }

    /// Every card in play: hands, stock, pile and what lies on the table after a close.
    /// Always the whole deck.
    pub fn all_cards(&self) -> Vec<Card> {
        let mut all: Vec<Card> = self.hands.iter().flat_map(Hand::iter).collect();
        all.extend(&self.stock);
        all.extend(&self.pile);
        if let Some(c) = &self.close {
            all.push(c.down);
            all.extend(c.laid.iter().map(|l| l.card));
        }
        all
    }

    /// The deck this table plays with.
    pub fn deck(&self) -> DeckSpec {
        self.deck
    }

    fn active_count(&self) -> usize {
        self.out.iter().filter(|o| !**o).count()
    }

    fn next_active(&self, seat: Seat) -> Seat {
        (1..=self.seats)
            .map(|k| (seat + k) % self.seats)
            .find(|&s| !self.out[s])
            .unwrap_or(seat)
    }

    fn prev_active(&self, seat: Seat) -> Seat {
        (1..=self.seats)
            .map(|k| (seat + self.seats - k) % self.seats)
            .find(|&s| !self.out[s])
            .unwrap_or(seat)
    }

    fn deal(&mut self, events: &mut Vec<Event>) {
        self.hand_no += 1;
        let order: Vec<Seat> = (0..self.seats)
            .map(|k| (self.mano + k) % self.seats)
            .filter(|&s| !self.out[s])
            .collect();
        let dealt = deal(self.deck.cards(), &mut self.rng, order.len(), HAND_SIZE);
        for s in 0..self.seats {
            self.hands[s] = Hand::EMPTY;
            self.took[s] = Hand::EMPTY;
            self.holds[s] = Hand::EMPTY;
            self.discarded[s] = Hand::EMPTY;
        }
        for (&s, cards) in order.iter().zip(dealt.hands) {
            for c in cards {
                let added = self.hands[s].add(c);
                debug_assert!(added.is_ok(), "a deck has at most two copies");
            }
        }
        let mut cards: Vec<Card> = dealt.rest;
        // The deck holds more than seven cards a player and two more (checked at start).
        self.muestra = cards.pop().unwrap_or(Card::JOKER);
        self.pile.clear();
        self.pile.push(self.muestra);
        self.stock = cards;
        self.phase = Phase::Draw;
        self.turn = self.mano;
        self.turns = 0;
        self.rebuilds = 0;
        self.fresh = true;
        self.close = None;
        events.push(self.deal_event());
    }

    fn closing_allowed(&self) -> bool {
        !(self.rules.no_close_first_turn && (self.turns as usize) < self.active_count())
    }

    fn meter_allowed(&self, close: Close) -> bool {
        match self.rules.meter_cartas {
            MeterCartas::On => true,
            MeterCartas::NotAfterMenosDiez => close != Close::MenosDiez,
            MeterCartas::Off => false,
        }
    }

    /// The closer's meld `card` goes onto: the first escalera it fits, else the first
    /// group.
    fn meld_for(&self, card: Card) -> Option<usize> {
        let close = self.close.as_ref()?;
        let fits = |want_run: bool| {
            close.melds.iter().position(|m| {
                matches!(m.kind, MeldKind::Run { .. }) == want_run && self.solver.fits(m, card)
            })
        };
        fits(true).or_else(|| fits(false))
    }

    fn can_lay(&self, seat: Seat) -> bool {
        self.hands[seat]
            .distinct()
            .any(|c| self.meld_for(c).is_some())
    }

    /// Legal actions of `seat`, pushed into `out` (cleared first).
    pub fn legal_into(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        if self.phase == Phase::Over || seat != self.turn || seat >= self.seats {
            return;
        }
        match self.phase {
            Phase::Draw => {
                out.push(Action::Robo);
                if !self.pile.is_empty() {
                    out.push(Action::Tomo);
                }
            }
            Phase::Discard => {
                let hand = self.hands[seat];
                out.extend(hand.distinct().map(Action::Descarto));
                if !self.closing_allowed() {
                    return;
                }
                if self.rules.allow_false_close {
                    out.extend(hand.distinct().map(Action::Cierro));
                    return;
                }
                if let Ok(a) = self.solver.analyze_hand(&hand) {
                    for d in a.discards() {
                        let close = Action::Cierro(d.card);
                        if d.close.is_some() && !out.contains(&close) {
                            out.push(close);
                        }
                    }
                }
            }
            Phase::LayOff => {
                out.extend(
                    self.hands[seat]
                        .distinct()
                        .filter(|&c| self.meld_for(c).is_some())
                        .map(Action::Meto),
                );
                out.push(Action::Listo);
            }
            Phase::Over => {}
        }
    }

    fn check_turn(&self, seat: Seat) -> Result<(), ActionError> {
        if self.phase == Phase::Over {
            return Err(ActionError::Over);
        }
        if seat >= self.seats {
            return Err(ActionError::NoSeat(seat));
        }
        if seat != self.turn {
            return Err(ActionError::NotYourTurn {
                seat,
                turn: self.turn,
            });
        }
        Ok(())
    }

    fn apply_action(&mut self, seat: Seat, action: &Action) -> Result<Vec<Event>, ActionError> {
        self.check_turn(seat)?;
        let mut events = Vec::with_capacity(2);
        match (self.phase, *action) {
            (Phase::Draw, Action::Robo) => {
                let card = self.stock.pop().ok_or(ActionError::MustDraw)?;
                let _ = self.hands[seat].add(card);
                self.phase = Phase::Discard;
                events.push(Event::DrewStock { seat });
            }
            (Phase::Draw, Action::Tomo) => {
                let card = self.pile.pop().ok_or(ActionError::MustDraw)?;
                let _ = self.hands[seat].add(card);
                let _ = self.took[seat].add(card);
                let _ = self.holds[seat].add(card);
                self.phase = Phase::Discard;
                events.push(Event::TookPile { seat, card });
            }
            (Phase::Draw, Action::Descarto(_) | Action::Cierro(_)) => {
                return Err(ActionError::MustDraw)
            }
            (Phase::Discard, Action::Robo | Action::Tomo) => return Err(ActionError::AlreadyDrew),
            (Phase::Discard, Action::Descarto(card)) => {
                if !self.hands[seat].remove(card) {
                    return Err(ActionError::NotHeld(card));
                }
                self.holds[seat].remove(card);
                let _ = self.discarded[seat].add(card);
                self.pile.push(card);
                self.turns += 1;
                events.push(Event::Discarded { seat, card });
                let stock_out = self.stock.is_empty();
                if (stock_out && self.rebuilds >= self.rules.stock_rebuilds)
                    || self.turns >= u32::from(self.rules.hand_turns)
                {
                    events.push(Event::HandRanOut {
                        turns: self.turns,
                        rebuilds: self.rebuilds,
                        stock_out,
                    });
                    self.score_unclosed(&mut events);
                    return Ok(events);
                }
                if stock_out {
                    self.rebuilds += 1;
                    let top = self.pile.pop();
                    self.stock.append(&mut self.pile);
                    shuffle(&mut self.stock, &mut self.rng);
                    self.pile.extend(top);
                    events.push(Event::StockRebuilt {
                        cards: self.stock.len(),
                    });
                }
                self.turn = self.next_active(seat);
                self.phase = Phase::Draw;
            }
            (Phase::Discard, Action::Cierro(card)) => {
                self.close_with(seat, card, &mut events)?;
            }
            (Phase::LayOff, Action::Meto(card)) => {
                if !self.hands[seat].contains(card) {
                    return Err(ActionError::NotHeld(card));
                }
                let meld = self.meld_for(card).ok_or(ActionError::NoFit(card))?;
                let Some(close) = self.close.as_mut() else {
                    return Err(ActionError::NotLayingOff);
                };
                let Some(laid) = self.solver.laid(&close.melds[meld], card) else {
                    return Err(ActionError::NoFit(card));
                };
                close.melds[meld] = laid;
                let l = Laid { seat, card, meld };
                close.laid.push(l);
                self.hands[seat].remove(card);
                self.holds[seat].remove(card);
                events.push(Event::LaidOff(l));
                if !self.can_lay(seat) {
                    self.next_layer(seat, &mut events);
                }
            }
            (Phase::LayOff, Action::Listo) => {
                events.push(Event::DoneLayingOff { seat });
                self.next_layer(seat, &mut events);
            }
            (Phase::LayOff, _) => return Err(ActionError::LayingOff),
            (_, Action::Meto(_) | Action::Listo) => return Err(ActionError::NotLayingOff),
            (Phase::Over, _) => return Err(ActionError::Over),
        }
        Ok(events)
    }

    fn close_with(
        &mut self,
        seat: Seat,
        card: Card,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if !self.hands[seat].contains(card) {
            return Err(ActionError::NotHeld(card));
        }
        if !self.closing_allowed() {
            return Err(ActionError::FirstRound);
        }
        let mut rest = self.hands[seat];
        rest.remove(card);
        let mut seven = [Card::JOKER; HAND_SIZE];
        for (slot, c) in seven.iter_mut().zip(rest.iter()) {
            *slot = c;
        }
        let Some((close, melds)) = self.solver.closing(&seven) else {
            if !self.rules.allow_false_close {
                return Err(ActionError::NoClose {
                    card,
                    limit: self.rules.close_limit,
                });
            }
            return {
                self.false_close(seat, card, rest, events);
                Ok(())
            };
        };
        self.hands[seat] = rest;
        self.holds[seat].remove(card);
        events.push(Event::Closed {
            seat,
            down: card,
            close,
            melds: melds.clone(),
        });
        let state = CloseState {
            closer: seat,
            down: card,
            close,
            melds,
            cards: rest,
            laid: Vec::new(),
        };
        if close == Close::Chinchon {
            let unmatched = Vec::new();
            self.last_hand = Some(HandResult {
                hand: self.hand_no,
                closer: Some(seat),
                down: Some(card),
                close: Some(close),
                results: vec![SeatResult {
                    seat,
                    melds: state.melds.clone(),
                    unmatched,
                    laid: Vec::new(),
                    points: 0,
                }],
                scores: self.scores.clone(),
            });
            self.close = Some(state);
            self.chinchon = Some(seat);
            self.finish(vec![seat], events);
            self.note_sheet();
            return Ok(());
        }
        let meter = self.meter_allowed(close);
        self.close = Some(state);
        if meter {
            self.next_layer(seat, events);
        } else {
            self.score_hand(events);
        }
        Ok(())
    }

    fn false_close(&mut self, seat: Seat, card: Card, rest: Hand, events: &mut Vec<Event>) {
        self.hands[seat] = rest;
        self.holds[seat].remove(card);
        // The card put down is shown: it lies on the pile until the new deal.
        self.pile.push(card);
        self.scores[seat] += FALSE_CLOSE_PENALTY;
        events.push(Event::FalseClose {
            seat,
            down: card,
            cards: rest.to_vec(),
            penalty: FALSE_CLOSE_PENALTY,
        });
        self.last_hand = Some(HandResult {
            hand: self.hand_no,
            closer: Some(seat),
            down: Some(card),
            close: None,
            results: vec![SeatResult {
                seat,
                melds: Vec::new(),
                unmatched: rest.to_vec(),
                laid: Vec::new(),
                points: FALSE_CLOSE_PENALTY,
            }],
            scores: self.scores.clone(),
        });
        // The same dealer deals again, unless the mano went out.
        let over = self.settle(events);
        self.note_sheet();
        if !over {
            if self.out[self.mano] {
                self.mano = self.next_active(self.mano);
            }
            self.deal(events);
        }
    }

    /// Passes the lay-off turn to the next player after `from` (in turn order, before
    /// coming back to the closer) that has a card to lay; counts the hand if none.
    fn next_layer(&mut self, from: Seat, events: &mut Vec<Event>) {
        let Some(closer) = self.close.as_ref().map(|c| c.closer) else {
            return;
        };
        let mut s = from;
        loop {
            s = self.next_active(s);
            if s == closer {
                self.score_hand(events);
                return;
            }
            if self.can_lay(s) {
                self.turn = s;
                self.phase = Phase::LayOff;
                return;
            }
        }
    }

    fn score_hand(&mut self, events: &mut Vec<Event>) {
        // The close stays on the table until the next deal (to the end, if the game ends).
        let Some(close) = self.close.clone() else {
            return;
        };
        let mut results = Vec::with_capacity(self.seats);
        for s in 0..self.seats {
            if self.out[s] {
                continue;
            }
            let laid: Vec<Card> = close
                .laid
                .iter()
                .filter(|l| l.seat == s)
                .map(|l| l.card)
                .collect();
            let (melds, unmatched, points) = if s == close.closer {
                let unmatched = match close.close {
                    Close::Normal { card, .. } => vec![card],
                    _ => Vec::new(),
                };
                (close.melds.clone(), unmatched, close.close.points())
            } else {
                self.count_seat(s)
            };
            self.scores[s] += points;
            results.push(SeatResult {
                seat: s,
                melds,
                unmatched,
                laid,
                points,
            });
        }
        let result = HandResult {
            hand: self.hand_no,
            closer: Some(close.closer),
            down: Some(close.down),
            close: Some(close.close),
            results,
            scores: self.scores.clone(),
        };
        self.end_hand(result, events);
    }

    /// The least deadwood of `seat`'s cards: its melds, its other cards and their points.
    fn count_seat(&self, seat: Seat) -> (Vec<crate::meld::Meld>, Vec<Card>, i32) {
        match self.solver.analyze_hand(&self.hands[seat]) {
            Ok(a) => (a.melds(), a.unmatched(), a.deadwood() as i32),
            // Never more than seven cards here.
            Err(_) => (Vec::new(), self.hands[seat].to_vec(), 0),
        }
    }

    /// Counts a hand that ended with nobody closing (the stock spent for the last time,
    /// or the turns of a hand played): each player adds the points of its cards in no
    /// meld, as if another had closed, and the next player deals.
    fn score_unclosed(&mut self, events: &mut Vec<Event>) {
        let mut results = Vec::with_capacity(self.seats);
        for s in (0..self.seats).filter(|&s| !self.out[s]) {
            let (melds, unmatched, points) = self.count_seat(s);
            self.scores[s] += points;
            results.push(SeatResult {
                seat: s,
                melds,
                unmatched,
                laid: Vec::new(),
                points,
            });
        }
        let result = HandResult {
            hand: self.hand_no,
            closer: None,
            down: None,
            close: None,
            results,
            scores: self.scores.clone(),
        };
        self.end_hand(result, events);
    }

    /// Tells and notes a counted hand, puts out whoever passed the target and, unless
    /// the game is over, deals the next hand from the next mano.
    fn end_hand(&mut self, result: HandResult, events: &mut Vec<Event>) {
        self.last_hand = Some(result.clone());
        events.push(Event::HandScored(result));
        let over = self.settle(events);
        self.note_sheet();
        if !over {
            self.mano = self.next_active(self.mano);
            self.deal(events);
        }
    }

    /// Players past the target go out or re-enter; returns whether the game is over.
    fn settle(&mut self, events: &mut Vec<Event>) -> bool {
        let target = self.rules.target as i32;
        let passed: Vec<Seat> = (0..self.seats)
            .filter(|&s| !self.out[s] && self.scores[s] > target)
            .collect();
        if passed.is_empty() {
            return false;
        }
        let remaining: Vec<Seat> = (0..self.seats)
            .filter(|&s| !self.out[s] && self.scores[s] <= target)
            .collect();
        let back_at = if remaining.len() >= 2 {
            let mut points: Vec<i32> = remaining.iter().map(|&s| self.scores[s]).collect();
            points.sort_unstable_by(|a, b| b.cmp(a));
            match self.rules.reenganche {
                Reenganche::Off => None,
                Reenganche::Highest => Some(points[0]),
                Reenganche::SecondHighest => Some(points[1]),
            }
        } else {
            None
        };
        let mut gone = Vec::new();
        for &s in &passed {
            match back_at {
                Some(score) if !self.reentered[s] => {
                    self.reentered[s] = true;
                    self.scores[s] = score;
                    events.push(Event::Reenganche { seat: s, score });
                }
                _ => {
                    self.out[s] = true;
                    gone.push(s);
                    events.push(Event::Eliminated {
                        seat: s,
                        score: self.scores[s],
                    });
                }
            }
        }
        match self.active_count() {
            0 => {
                // Everybody left passed the target in this hand: the fewest points win.
                let least = gone.iter().map(|&s| self.scores[s]).min().unwrap_or(0);
                let winners: Vec<Seat> = gone
                    .iter()
                    .copied()
                    .filter(|&s| self.scores[s] == least)
                    .collect();
                for &w in &winners {
                    self.out[w] = false;
                }
                gone.retain(|s| !winners.contains(s));
                if !gone.is_empty() {
                    self.out_order.push(gone);
                }
                self.finish(winners, events);
                true
            }
            1 => {
                if !gone.is_empty() {
                    self.out_order.push(gone);
                }
                let winner = (0..self.seats).filter(|&s| !self.out[s]).collect();
                self.finish(winner, events);
                true
            }
            _ => {
                if !gone.is_empty() {
                    self.out_order.push(gone);
                }
                false
            }
        }
    }

    /// Writes the hand just finished (`last_hand`) on the score sheet, with who is out and
    /// who re-entered after it.
    fn note_sheet(&mut self) {
        let Some(h) = &self.last_hand else {
            return;
        };
        let mut points = vec![None; self.seats];
        for r in &h.results {
            if let Some(p) = points.get_mut(r.seat) {
                *p = Some(r.points);
            }
        }
        self.sheet.push(SheetRow {
            hand: h.hand,
            closer: h.closer,
            close: h.close,
            points,
            scores: h.scores.clone(),
            out: self.out.clone(),
            reentered: self.reentered.clone(),
        });
    }

    fn finish(&mut self, winners: Vec<Seat>, events: &mut Vec<Event>) {
        self.phase = Phase::Over;
        self.winners = winners.clone();
        events.push(Event::GameOver {
            winners,
            chinchon: self.chinchon.is_some(),
        });
    }

    fn view_for(&self, seat: Option<Seat>) -> ChinchonView {
        let hand_sizes = self.hands.iter().map(|h| h.len() as u8).collect();
        ChinchonView {
            seat,
            seats: self.seats,
            rules: self.rules,
            decks: self.deck.copy_count(),
            hand_number: self.hand_no,
            dealer: self.dealer(),
            mano: self.mano,
            phase: self.phase,
            turn: (self.phase != Phase::Over).then_some(self.turn),
            turns: self.turns,
            rebuilds: self.rebuilds,
            fresh: self.fresh,
            hand: seat.map(|s| self.hand(s)).unwrap_or_default(),
            hand_sizes,
            stock: self.stock.len(),
            pile: self.pile.clone(),
            muestra: self.muestra,
            took: self.took.clone(),
            holds: self.holds.clone(),
            discarded: self.discarded.clone(),
            scores: self.scores.clone(),
            out: self.out.clone(),
            reentered: self.reentered.clone(),
            out_order: self.out_order.clone(),
            close: self.close.clone(),
            last_hand: self.last_hand.clone(),
            sheet: self.sheet.clone(),
            winners: self.winners.clone(),
            chinchon: self.chinchon,
        }
    }

    /// Places by seat: the winners first; then, if a chinchón ended the game, the others
    /// still in by points; then those out, the last to go first (those who went out
    /// together by points).
    fn places(&self) -> Vec<u32> {
        let mut order: Vec<Vec<Seat>> = vec![self.winners.clone()];
        let others: Vec<Seat> = (0..self.seats)
            .filter(|s| !self.out[*s] && !self.winners.contains(s))
            .collect();
        self.by_points(others, &mut order);
        for group in self.out_order.iter().rev() {
            self.by_points(group.clone(), &mut order);
        }
        Outcome::places_from_order(self.seats, &order)
    }

    /// Appends `seats` to a finishing order by their points, the fewest first, those
    /// level together.
    fn by_points(&self, mut seats: Vec<Seat>, order: &mut Vec<Vec<Seat>>) {
        seats.sort_by_key(|&s| self.scores[s]);
        let mut i = 0;
        while i < seats.len() {
            let p = self.scores[seats[i]];
            let group: Vec<Seat> = seats[i..]
                .iter()
                .copied()
                .take_while(|&s| self.scores[s] == p)
                .collect();
            i += group.len();
            order.push(group);
        }
    }
}

impl ChinchonGame {
    /// The result if play stopped now (a match past its time limit): of the players still
    /// in, the fewest points wins (level: they share it); then the others still in by
    /// their points, then those out, the last out first. A game already over is its own
    /// result.
    pub fn standing_now(&self) -> Outcome {
        if let Some(o) = self.outcome() {
            return o;
        }
        let inside: Vec<Seat> = (0..self.seats).filter(|&s| !self.out[s]).collect();
        let best = inside.iter().map(|&s| self.scores[s]).min();
        let winners: Vec<Seat> = inside
            .iter()
            .copied()
            .filter(|&s| Some(self.scores[s]) == best)
            .collect();
        let mut order: Vec<Vec<Seat>> = Vec::new();
        self.by_points(inside, &mut order);
        for group in self.out_order.iter().rev() {
            self.by_points(group.clone(), &mut order);
        }
        let points: Vec<String> = (0..self.seats)
            .map(|s| format!("seat {s} {}", self.scores[s]))
            .collect();
        let names: Vec<String> = winners.iter().map(|s| format!("seat {s}")).collect();
        Outcome {
            winners,
            scores: self.scores.iter().map(|&p| i64::from(p)).collect(),
            places: Outcome::places_from_order(self.seats, &order),
            summary: format!(
                "stopped at its time limit, {} ahead ({})",
                names.join(" and "),
                points.join(", ")
            ),
            boards: Vec::new(),
        }
    }
}

impl Game for ChinchonGame {
    const NAME: &'static str = "chinchon";
    type Rules = ChinchonRules;
    type Action = Action;
    type View = ChinchonView;
    type Event = Event;
    type Error = ActionError;

    fn new(rules: &ChinchonRules, seats: usize, seed: u64) -> Result<Self, SetupError> {
        ChinchonGame::start(rules, seats, seed)
    }

    fn to_act(&self) -> ToAct {
        if self.phase == Phase::Over {
            ToAct::Over
        } else {
            ToAct::Seats(vec![self.turn])
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        let mut out = Vec::with_capacity(18);
        self.legal_into(seat, &mut out);
        out
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Event>, ActionError> {
        // Every refusal happens before anything changes, except inside a close, which
        // checks everything first too.
        let events = self.apply_action(seat, action)?;
        self.fresh = matches!(events.last(), Some(Event::HandDealt { .. }));
        Ok(events)
    }

    fn view(&self, seat: Seat) -> ChinchonView {
        self.view_for(Some(seat).filter(|&s| s < self.seats))
    }

    fn spectator_view(&self) -> ChinchonView {
        self.view_for(None)
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let scores = self.scores.iter().map(|&p| p as i64).collect();
        let names: Vec<String> = self.winners.iter().map(|s| format!("seat {s}")).collect();
        let summary = if let Some(s) = self.chinchon {
            format!("seat {s} wins with a chinchón")
        } else {
            let points: Vec<String> = (0..self.seats)
                .map(|s| format!("seat {s} {}", self.scores[s]))
                .collect();
            format!(
                "{} {} the game ({})",
                names.join(" and "),
                if names.len() == 1 { "wins" } else { "share" },
                points.join(", ")
            )
        };
        Some(Outcome {
            winners: self.winners.clone(),
            scores,
            places: self.places(),
            summary,
            boards: Vec::new(),
        })
    }
}
