//! The Mus table as one deterministic state machine: deal, mus and discards, the four
//! lances with declarations and betting, the counting, games, vacas and the match.
//!
//! Seats are fixed (pairs: seats 0 and 2, seats 1 and 3); the mano moves one seat each
//! hand, so the old mano becomes the postre. All randomness comes from the seed.

use crate::betting::{BetError, Betting, Settled};
use crate::eval::{self, Evaluation};
use crate::events::{Event, LanceStatus, ScoreReason, Showdown};
use crate::narrate::{in_pair_order, pair_label, PAIR_ORDER};
use crate::view::{BetView, HandSummary, MusView, Phase as PhaseView};
use crate::{rules, Action, Jugada, Lance, MusRules, Sena};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use tapete_cards::chance::deal;
use tapete_cards::{rng_from_seed, Card, CardSet, Deck};
use tapete_table::{Game, Outcome, Seat, SetupError, ToAct};

/// Why an action was refused. The game is unchanged after any of these.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("the match is over")]
    MatchOver,
    #[error("seat {0} does not exist: seats are 0–3")]
    NoSuchSeat(Seat),
    #[error("it is not seat {seat}'s turn: waiting for {waiting}")]
    NotYourTurn { seat: Seat, waiting: String },
    #[error("`{action}` is not possible now: {expected}")]
    WrongPhase { action: Action, expected: String },
    #[error("{0}")]
    Bet(#[from] BetError),
    #[error("discard between 1 and 4 cards, not {0}")]
    DiscardCount(usize),
    #[error("you do not hold {0}")]
    NotHeld(Card),
    #[error("you have already discarded this round")]
    AlreadyDiscarded,
    #[error("you have already passed your seña this hand")]
    AlreadySignalled,
    #[error("a seña tells the truth: your hand does not show {0}")]
    FalseSena(Sena),
    #[error("declarations are truthful: you {} {lance}", if *has { "have" } else { "do not have" })]
    FalseDeclaration { lance: Lance, has: bool },
}

/// Where a hand stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Speaking mus / no hay mus; `pos` is the position to speak.
    Mus { pos: usize },
    /// Everybody said mus: each seat discards (all at once).
    Discard,
    /// The mus is cut and the table plays señas: each seat passes one (all at once).
    Senas,
    /// Declaring pares or juego; `pos` is the position to declare.
    Declare { lance: Lance, pos: usize },
    /// Betting a lance.
    Bet { lance: Lance, betting: Betting },
    /// The match is over.
    Over,
}

/// Piedras, games and vacas per pair (pair 0: seats 0 and 2). When the match is over
/// they stay as it ended: the last juego's piedras, the last vaca's games and every vaca.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Scores {
    pub piedras: [u8; 2],
    pub games: [u8; 2],
    pub vacas: [u8; 2],
}

impl Scores {
    /// Counts a juego won by `pair` under `rules`: a vaca when it has enough juegos, the
    /// match when it has enough vacas. Returns (vaca won, match won). The juegos of a vaca
    /// won are cleared only when the match goes on, so a finished match shows its end.
    pub(crate) fn count_juego(&mut self, pair: usize, rules: &MusRules) -> (bool, bool) {
        self.games[pair] += 1;
        let vaca = self.games[pair] >= rules.games_to_win_vaca();
        let mut won = false;
        if vaca {
            self.vacas[pair] += 1;
            won = self.vacas[pair] >= rules.vacas_to_win_match();
            if !won {
                self.games = [0, 0];
            }
        }
        if !won {
            self.piedras = [0, 0];
        }
        (vaca, won)
    }
}

/// A whole Mus match. Cloning is cheap enough for search; equality compares everything,
/// the RNG included, so a replay can be checked for an exact match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MusGame {
    pub(crate) rules: MusRules,
    pub(crate) rng: ChaCha8Rng,
    pub(crate) scores: Scores,
    pub(crate) winner: Option<usize>,
    pub(crate) hand_no: u32,
    pub(crate) game_no: u32,
    pub(crate) mano: Seat,
    pub(crate) hands: [CardSet; 4],
    pub(crate) deck: Deck,
    pub(crate) pile: Vec<Card>,
    pub(crate) discards: [Option<CardSet>; 4],
    pub(crate) mus_rounds: u8,
    pub(crate) phase: Phase,
    pub(crate) pares: [Option<bool>; 4],
    pub(crate) juego: [Option<bool>; 4],
    pub(crate) senas: [Option<Sena>; 4],
    pub(crate) lances: Vec<(Lance, LanceStatus)>,
    pub(crate) log: Vec<Event>,
    pub(crate) last_hand: Option<HandSummary>,
    /// The table's seed, from which each board's is made (boards only; never in a view:
    /// it would tell the boards to come).
    pub(crate) seed: u64,
    /// The board being played, from 0 (boards only).
    pub(crate) board: u32,
    /// Each finished board's net piedras for pair 0–2 (boards only).
    pub(crate) board_nets: Vec<i64>,
}

/// The seed board `board` (from 0) of a table of seed `seed` is dealt from: its deal is the
/// first hand of a match of that seed, with the mano moved `board` seats on. A public
/// function of the table's seed, so that every table given one seed plays the same boards
/// and anyone holding a record can check them.
pub fn board_seed(seed: u64, board: u32) -> u64 {
    // splitmix64 of the seed moved on by the board: neighbouring boards get unrelated seeds.
    let mut x = seed.wrapping_add(
        u64::from(board)
            .wrapping_add(1)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15),
    );
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

impl MusGame {
    /// A new match; the first mano is seat 0. Played as boards, the first board is dealt
    /// from [`board_seed`]`(seed, 0)`.
    pub fn start(rules: MusRules, seed: u64) -> Result<MusGame, SetupError> {
        rules.validate().map_err(SetupError::Rules)?;
        let first = if rules.boards > 0 {
            board_seed(seed, 0)
        } else {
            seed
        };
        let mut g = MusGame {
            rules,
            rng: rng_from_seed(first),
            scores: Scores::default(),
            winner: None,
            hand_no: 0,
            game_no: 1,
            mano: 0,
            hands: [CardSet::EMPTY; 4],
            deck: Deck::from_cards(Vec::new(), &mut rng_from_seed(0)),
            pile: Vec::new(),
            discards: [None; 4],
            mus_rounds: 0,
            phase: Phase::Over,
            pares: [None; 4],
            juego: [None; 4],
            senas: [None; 4],
            lances: Vec::new(),
            log: Vec::new(),
            last_hand: None,
            seed,
            board: 0,
            board_nets: Vec::new(),
        };
        // Juegos given before play (a tournament's courtesy) count as won; validation made
        // sure they leave the match to play.
        for pair in g.rules.juegos_given.clone() {
            g.scores.count_juego(usize::from(pair), &g.rules);
            g.game_no += 1;
        }
        let mut events = Vec::new();
        g.deal(&mut events);
        Ok(g)
    }

    /// A match whose first hand is dealt by hand: `cards[seat]` for each seat, `mano` the
    /// first mano and `piedras` the score to start from; the rest of the deck is shuffled
    /// with `seed`. For analysis, teaching positions and rule tests. Such a game is not
    /// reproduced by a [`tapete_table::Record`], which starts from a seed alone.
    pub fn from_deal(
        rules: MusRules,
        cards: [CardSet; 4],
        mano: Seat,
        piedras: [u8; 2],
        seed: u64,
    ) -> Result<MusGame, SetupError> {
        let mut g = MusGame::start(rules, seed)?;
        let dealt = cards.iter().fold(CardSet::EMPTY, |acc, h| acc.union(*h));
        if cards.iter().any(|h| h.len() != 4) || dealt.len() != 16 {
            return Err(SetupError::Rules(
                "a deal is four hands of four different cards".into(),
            ));
        }
        if mano >= 4 {
            return Err(SetupError::Rules(format!("seat {mano} does not exist")));
        }
        if piedras.iter().any(|&p| p >= g.rules.target) {
            return Err(SetupError::Rules(format!(
                "piedras must be below the target {}",
                g.rules.target
            )));
        }
        let rest: Vec<Card> = CardSet::full().difference(dealt).iter().collect();
        g.deck = Deck::from_cards(rest, &mut g.rng);
        g.hands = cards;
        g.mano = mano;
        g.scores.piedras = piedras;
        if let Some(Event::HandStarted { mano: m, .. }) = g.log.first_mut() {
            *m = mano;
        }
        Ok(g)
    }

    /// The table options.
    pub fn rules(&self) -> &MusRules {
        &self.rules
    }

    /// Piedras, games and vacas.
    pub fn scores(&self) -> Scores {
        self.scores
    }

    /// The seat that is mano this hand.
    pub fn mano(&self) -> Seat {
        self.mano
    }

    /// Position of `seat` this hand (0 = mano, 3 = postre).
    pub fn position(&self, seat: Seat) -> usize {
        (seat + 4 - self.mano) % 4
    }

    /// Seat at position `pos` this hand.
    pub fn seat_at(&self, pos: usize) -> Seat {
        (self.mano + pos) % 4
    }

    /// Number of the current hand (1-based).
    pub fn hand_number(&self) -> u32 {
        self.hand_no
    }

    /// The referee's knowledge of a seat's cards. Never give this to a player: players and
    /// bots get [`Game::view`].
    pub fn cards_of(&self, seat: Seat) -> CardSet {
        self.hands[seat % 4]
    }

    /// The referee's knowledge of the seña a seat passed this hand (its partner sees it in
    /// its view; nobody else does).
    pub fn sena_of(&self, seat: Seat) -> Option<Sena> {
        self.senas[seat % 4]
    }

    /// Checks that the 40 cards are all accounted for exactly once: hands, pending
    /// discards, deck and discard pile.
    pub fn audit(&self) -> Result<(), String> {
        let mut seen = CardSet::EMPTY;
        let mut total = 0;
        let mut add = |cards: &mut dyn Iterator<Item = Card>, place: &str| -> Result<(), String> {
            for c in cards {
                total += 1;
                if !seen.insert(c) {
                    return Err(format!("{c} appears twice (again in {place})"));
                }
            }
            Ok(())
        };
        for s in 0..4 {
            add(&mut self.hands[s].iter(), "a hand")?;
        }
        add(&mut self.deck.cards().iter().copied(), "the deck")?;
        add(&mut self.pile.iter().copied(), "the discard pile")?;
        for s in 0..4 {
            add(
                &mut self.discards[s].unwrap_or_default().iter(),
                "a pending discard",
            )?;
        }
        if total != 40 {
            return Err(format!("{total} cards accounted for, not 40"));
        }
        if self.winner.is_none() {
            for s in 0..4 {
                let held = self.hands[s].len() + self.discards[s].map_or(0, |d| d.len());
                if held != 4 {
                    return Err(format!("seat {s} holds {held} cards"));
                }
            }
        }
        Ok(())
    }

    fn jugada(&self, seat: Seat) -> Jugada {
        Jugada::from_set(self.hands[seat], self.rules.mode)
            .unwrap_or(Jugada::new([crate::Rank::As; 4]))
    }

    fn jugadas_by_position(&self) -> [Jugada; 4] {
        [0, 1, 2, 3].map(|p| self.jugada(self.seat_at(p)))
    }

    fn evaluation(&self) -> Evaluation {
        Evaluation::new(self.jugadas_by_position(), self.rules.real31)
    }

    fn emit(&mut self, events: &mut Vec<Event>, e: Event) {
        self.log.push(e.clone());
        events.push(e);
    }

    // ---- the hand -------------------------------------------------------------------

    fn deal(&mut self, events: &mut Vec<Event>) {
        self.hand_no += 1;
        let dealt = deal(Card::all().collect(), &mut self.rng, 4, 4);
        self.deck = Deck::stacked(dealt.rest);
        self.pile.clear();
        for (p, cards) in dealt.hands.into_iter().enumerate() {
            let seat = self.seat_at(p);
            self.hands[seat] = cards.into_iter().collect();
        }
        self.discards = [None; 4];
        self.mus_rounds = 0;
        self.pares = [None; 4];
        self.juego = [None; 4];
        self.senas = [None; 4];
        self.lances.clear();
        self.log.clear();
        self.phase = Phase::Mus { pos: 0 };
        let e = Event::HandStarted {
            hand: self.hand_no,
            game: self.game_no,
            mano: self.mano,
        };
        self.emit(events, e);
    }

    /// Serves every discard from the mano on, rebuilding the deck from the pile when empty.
    fn serve(&mut self, events: &mut Vec<Event>) {
        let discards = self.discards.map(|d| d.unwrap_or_default());
        for d in &discards {
            self.pile.extend(d.iter());
        }
        for p in 0..4 {
            let seat = self.seat_at(p);
            for _ in 0..discards[seat].len() {
                if self.deck.is_empty() {
                    let (own, rest): (Vec<Card>, Vec<Card>) =
                        self.pile.iter().partition(|&&c| discards[seat].contains(c));
                    self.pile = own;
                    self.deck = Deck::from_cards(rest, &mut self.rng);
                    let e = Event::DeckRebuilt {
                        cards: self.deck.len() as u8,
                    };
                    self.emit(events, e);
                }
                if let Some(c) = self.deck.pop() {
                    self.hands[seat].insert(c);
                }
            }
        }
        self.discards = [None; 4];
        self.mus_rounds = self.mus_rounds.saturating_add(1);
        self.emit(events, Event::Served);
        self.phase = Phase::Mus { pos: 0 };
    }

    fn start_betting(&mut self, lance: Lance, eligible: [bool; 4], events: &mut Vec<Event>) {
        let first_deje = if lance == Lance::Punto && self.rules.punto_y_miedo {
            2
        } else {
            1
        };
        self.phase = Phase::Bet {
            lance,
            betting: Betting::new(eligible, first_deje, self.rules.target),
        };
        self.emit(events, Event::LanceStarted { lance });
    }

    fn settle(&mut self, lance: Lance, status: LanceStatus, events: &mut Vec<Event>) {
        self.lances.push((lance, status.clone()));
        self.emit(events, Event::LanceSettled { lance, status });
    }

    /// Moves to the next lance after `lance` is settled.
    fn next_lance(&mut self, after: Lance, events: &mut Vec<Event>) {
        match after {
            Lance::Grande => self.start_betting(Lance::Chica, [true; 4], events),
            Lance::Chica => {
                self.phase = Phase::Declare {
                    lance: Lance::Pares,
                    pos: 0,
                }
            }
            Lance::Pares => {
                self.phase = Phase::Declare {
                    lance: Lance::Juego,
                    pos: 0,
                }
            }
            Lance::Juego | Lance::Punto => self.count(events),
        }
    }

    /// After every declaration of `lance` is in: bet it, or settle it unbet.
    fn after_declarations(&mut self, lance: Lance, events: &mut Vec<Event>) {
        let decl = if lance == Lance::Pares {
            self.pares
        } else {
            self.juego
        };
        let eligible = [0, 1, 2, 3].map(|p| decl[self.seat_at(p)] == Some(true));
        let pair_has = |pair: usize| eligible[pair] || eligible[pair + 2];
        match (pair_has(0), pair_has(1)) {
            (true, true) => self.start_betting(lance, eligible, events),
            (false, false) if lance == Lance::Juego => {
                self.start_betting(Lance::Punto, [true; 4], events)
            }
            (false, false) => {
                self.settle(lance, LanceStatus::Void, events);
                self.next_lance(lance, events);
            }
            (has0, _) => {
                let pos_pair = if has0 { 0 } else { 1 };
                let pair = self.seat_at(pos_pair) % 2;
                self.settle(lance, LanceStatus::Unbet { pair }, events);
                self.next_lance(lance, events);
            }
        }
    }

    /// Adds piedras; returns true when the pair reached the target (the game is won).
    fn score(
        &mut self,
        pair: usize,
        piedras: u8,
        lance: Lance,
        reason: ScoreReason,
        events: &mut Vec<Event>,
    ) -> bool {
        if piedras == 0 {
            return false;
        }
        let total = self.scores.piedras[pair].saturating_add(piedras);
        self.scores.piedras[pair] = total;
        self.emit(
            events,
            Event::Scored {
                pair,
                piedras,
                lance,
                reason,
                total,
            },
        );
        total >= self.rules.target
    }

    fn show(&mut self, events: &mut Vec<Event>) -> Evaluation {
        let eval = self.evaluation();
        let e = Event::Showdown(Showdown::new(self.hands, self.mano, &eval));
        self.emit(events, e);
        eval
    }

    /// The counting: lance by lance; the game ends the moment a pair reaches the target.
    fn count(&mut self, events: &mut Vec<Event>) {
        let eval = self.show(events);
        let hands = eval.hands;
        let lances = self.lances.clone();
        for (lance, status) in lances {
            let Some(wpos) = eval.winner(lance) else {
                continue;
            };
            let pair = self.seat_at(wpos) % 2;
            let pos_pair = wpos % 2;
            let bet = match status {
                LanceStatus::Accepted { piedras } => piedras,
                _ => 0,
            };
            let (base, reason) = match lance {
                Lance::Grande | Lance::Chica if status == LanceStatus::EnPaso => {
                    (1, ScoreReason::EnPaso)
                }
                Lance::Grande | Lance::Chica => (0, ScoreReason::EnPaso),
                Lance::Pares => (eval::pares_cuenta(&hands, pos_pair), ScoreReason::Cuenta),
                Lance::Juego => (eval::juego_cuenta(&hands, pos_pair), ScoreReason::Cuenta),
                Lance::Punto => (1, ScoreReason::Cuenta),
            };
            if self.score(pair, bet, lance, ScoreReason::Envite, events)
                || self.score(pair, base, lance, reason, events)
            {
                self.win_game(pair, false, events);
                return;
            }
        }
        self.end_hand(Some(eval), events);
    }

    fn end_hand(&mut self, shown: Option<Evaluation>, events: &mut Vec<Event>) {
        self.last_hand = Some(HandSummary {
            hand: self.hand_no,
            mano: self.mano,
            cards: shown.as_ref().map(|_| self.hands),
            lances: self.lances.clone(),
            log: self.log.clone(),
        });
        if self.winner.is_some() {
            self.phase = Phase::Over;
            return;
        }
        if self.rules.boards > 0 {
            self.end_board(events);
            return;
        }
        self.mano = (self.mano + 1) % 4;
        self.deal(events);
    }

    /// A board's hand is over: its net is kept (a juego won in it was kept already), and
    /// the next board is dealt from its own seed, or the match ends on the boards' total.
    fn end_board(&mut self, events: &mut Vec<Event>) {
        if self.board_nets.len() <= self.board as usize {
            let p = self.scores.piedras;
            self.board_nets.push(i64::from(p[0]) - i64::from(p[1]));
        }
        let net = self.board_nets.last().copied().unwrap_or(0);
        let total = self.board_total();
        self.emit(
            events,
            Event::BoardEnded {
                board: self.board + 1,
                net,
                total,
            },
        );
        if self.board_nets.len() >= usize::from(self.rules.boards) {
            self.phase = Phase::Over;
            match total.signum() {
                1 => self.winner = Some(0),
                -1 => self.winner = Some(1),
                _ => {}
            }
            let e = match self.winner {
                Some(pair) => Event::MatchWon { pair },
                None => Event::MatchDrawn,
            };
            self.emit(events, e);
            return;
        }
        self.board += 1;
        self.scores.piedras = [0, 0];
        self.rng = rng_from_seed(board_seed(self.seed, self.board));
        self.mano = self.board as usize % 4;
        self.deal(events);
    }

    /// Pair 0–2's net piedras over the boards finished (0 when not playing boards).
    pub fn board_total(&self) -> i64 {
        self.board_nets.iter().sum()
    }

    /// Each finished board's net piedras for pair 0–2, in order (empty when not playing
    /// boards).
    pub fn board_nets(&self) -> &[i64] {
        &self.board_nets
    }

    fn win_game(&mut self, pair: usize, ordago: bool, events: &mut Vec<Event>) {
        let piedras = self.scores.piedras;
        self.emit(
            events,
            Event::GameWon {
                pair,
                ordago,
                piedras,
            },
        );
        if self.rules.boards > 0 {
            // A juego won on a board counts the target to its winner against what the
            // losers had; the board ends with its hand.
            let net = i64::from(self.rules.target) - i64::from(piedras[1 - pair]);
            self.board_nets.push(if pair == 0 { net } else { -net });
            let shown = self.log.iter().any(|e| matches!(e, Event::Showdown(_)));
            let eval = shown.then(|| self.evaluation());
            self.end_hand(eval, events);
            return;
        }
        let (vaca, won) = self.scores.count_juego(pair, &self.rules);
        if vaca {
            self.emit(events, Event::VacaWon { pair });
        }
        if won {
            self.winner = Some(pair);
            self.emit(events, Event::MatchWon { pair });
        } else {
            // The final score stays on the table: only a game still to play starts from
            // zero (and a new vaca from no juegos).
            self.game_no += 1;
        }
        let shown = self.log.iter().any(|e| matches!(e, Event::Showdown(_)));
        let eval = shown.then(|| self.evaluation());
        self.end_hand(eval, events);
    }

    // ---- validation -----------------------------------------------------------------

    fn waiting(&self) -> String {
        let seats = self.to_act();
        let names: Vec<String> = seats.seats().iter().map(|s| format!("seat {s}")).collect();
        names.join(", ")
    }

    fn check(&self, seat: Seat, action: &Action) -> Result<(), RuleError> {
        if seat >= 4 {
            return Err(RuleError::NoSuchSeat(seat));
        }
        let not_turn = || RuleError::NotYourTurn {
            seat,
            waiting: self.waiting(),
        };
        let wrong = |expected: &str| RuleError::WrongPhase {
            action: action.clone(),
            expected: expected.to_string(),
        };
        let pos = self.position(seat);
        match &self.phase {
            Phase::Over => Err(RuleError::MatchOver),
            Phase::Mus { pos: p } => {
                if *p != pos {
                    return Err(not_turn());
                }
                match action {
                    Action::Mus | Action::NoHayMus => Ok(()),
                    _ => Err(wrong("say mus or no hay mus")),
                }
            }
            Phase::Discard => {
                let Action::Descarto(cards) = action else {
                    return Err(wrong(
                        "everybody said mus: discard 1 to 4 cards (descarto …)",
                    ));
                };
                if self.discards[seat].is_some() {
                    return Err(RuleError::AlreadyDiscarded);
                }
                if let Some(c) = cards.difference(self.hands[seat]).iter().next() {
                    return Err(RuleError::NotHeld(c));
                }
                if !(1..=4).contains(&cards.len()) {
                    return Err(RuleError::DiscardCount(cards.len()));
                }
                Ok(())
            }
            Phase::Senas => {
                let Action::Sena(sena) = action else {
                    return Err(wrong(
                        "pass a seña to your partner (seña dos reyes, seña ninguna…)",
                    ));
                };
                if self.senas[seat].is_some() {
                    return Err(RuleError::AlreadySignalled);
                }
                if !sena.holds(self.jugada(seat)) {
                    return Err(RuleError::FalseSena(*sena));
                }
                Ok(())
            }
            Phase::Declare { lance, pos: p } => {
                if *p != pos {
                    return Err(not_turn());
                }
                let truth = self.truth(*lance, seat);
                match (lance, action) {
                    (Lance::Pares, Action::Pares(has)) | (Lance::Juego, Action::Juego(has)) => {
                        if *has == truth {
                            Ok(())
                        } else {
                            Err(RuleError::FalseDeclaration {
                                lance: *lance,
                                has: truth,
                            })
                        }
                    }
                    _ => Err(wrong(&format!(
                        "declare {lance}: `{lance} sí` or `{lance} no`"
                    ))),
                }
            }
            Phase::Bet { betting, .. } => {
                if betting.turn() != Some(pos) {
                    return Err(not_turn());
                }
                betting.check(pos, action).map_err(RuleError::from)
            }
        }
    }

    fn truth(&self, lance: Lance, seat: Seat) -> bool {
        let j = self.jugada(seat);
        match lance {
            Lance::Pares => rules::pares(j).is_some(),
            _ => rules::has_juego(j),
        }
    }

    fn bet_view(&self) -> Option<BetView> {
        match &self.phase {
            Phase::Bet { betting, .. } => betting.bet().map(|b| {
                let mut answering = [false; 4];
                for &pos in betting.waiting() {
                    answering[self.seat_at(pos)] = true;
                }
                BetView {
                    pair: self.seat_at(b.pair) % 2,
                    total: b.total,
                    deje: b.deje,
                    ordago: b.ordago,
                    answering,
                }
            }),
            _ => None,
        }
    }

    fn phase_view(&self) -> PhaseView {
        match &self.phase {
            Phase::Mus { .. } => PhaseView::Mus,
            Phase::Discard => PhaseView::Discard,
            Phase::Senas => PhaseView::Senas,
            Phase::Declare { lance, .. } => PhaseView::Declare { lance: *lance },
            Phase::Bet { lance, .. } => PhaseView::Bet { lance: *lance },
            Phase::Over => PhaseView::Over,
        }
    }

    /// What `seat` sees, as [`Game::view`] gives it, but without the previous hand's
    /// summary (`last_hand` is `None`): the cheaper view for players that never read it,
    /// such as a search player's rollouts. Every other field is the same as `view`'s.
    pub fn view_without_history(&self, seat: Seat) -> MusView {
        self.make_view_inner((seat < 4).then_some(seat), false)
    }

    fn make_view(&self, seat: Option<Seat>) -> MusView {
        self.make_view_inner(seat, true)
    }

    fn make_view_inner(&self, seat: Option<Seat>, history: bool) -> MusView {
        MusView {
            seat,
            position: seat.map(|s| self.position(s)),
            rules: self.rules.clone(),
            hand_number: self.hand_no,
            game_number: self.game_no,
            mano: self.mano,
            cards: seat.map(|s| self.hands[s].to_vec()).unwrap_or_default(),
            scores: self.scores,
            phase: self.phase_view(),
            to_act: self.to_act().seats().to_vec(),
            bet: self.bet_view(),
            discarded: self.discards.map(|d| d.is_some()),
            my_discard: seat.and_then(|s| self.discards[s]),
            mus_rounds: self.mus_rounds,
            deck_left: self.deck.len(),
            pares: self.pares,
            juego: self.juego,
            senas_sent: self.senas.map(|s| s.is_some()),
            my_sena: seat.and_then(|s| self.senas[s]),
            partner_sena: seat.and_then(|s| self.senas[(s + 2) % 4]),
            lances: self.lances.clone(),
            log: self.log.clone(),
            last_hand: if history {
                self.last_hand.clone()
            } else {
                None
            },
            winner: self.winner,
            board: (self.rules.boards > 0).then_some(self.board + 1),
            board_nets: self.board_nets.clone(),
        }
    }
}

impl Game for MusGame {
    const NAME: &'static str = "mus";
    type Rules = MusRules;
    type Action = Action;
    type View = MusView;
    type Event = Event;
    type Error = RuleError;

    fn new(rules: &MusRules, seats: usize, seed: u64) -> Result<Self, SetupError> {
        if seats != 4 {
            return Err(SetupError::Seats {
                wanted: "4",
                got: seats,
            });
        }
        MusGame::start(rules.clone(), seed)
    }

    fn to_act(&self) -> ToAct {
        match &self.phase {
            Phase::Over => ToAct::Over,
            Phase::Mus { pos } | Phase::Declare { pos, .. } => {
                ToAct::Seats(vec![self.seat_at(*pos)])
            }
            Phase::Discard => ToAct::Seats(
                (0..4)
                    .map(|p| self.seat_at(p))
                    .filter(|&s| self.discards[s].is_none())
                    .collect(),
            ),
            Phase::Senas => ToAct::Seats(
                (0..4)
                    .map(|p| self.seat_at(p))
                    .filter(|&s| self.senas[s].is_none())
                    .collect(),
            ),
            Phase::Bet { betting, .. } => ToAct::Seats(
                betting
                    .turn()
                    .map(|p| self.seat_at(p))
                    .into_iter()
                    .collect(),
            ),
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if seat >= 4 || !self.to_act().seats().contains(&seat) {
            return Vec::new();
        }
        match &self.phase {
            Phase::Over => Vec::new(),
            Phase::Mus { .. } => vec![Action::Mus, Action::NoHayMus],
            Phase::Discard => {
                let cards = self.hands[seat].to_vec();
                (1u32..16)
                    .map(|mask| {
                        Action::Descarto(
                            cards
                                .iter()
                                .enumerate()
                                .filter(|(i, _)| mask & (1 << i) != 0)
                                .map(|(_, &c)| c)
                                .collect(),
                        )
                    })
                    .collect()
            }
            Phase::Senas => Sena::available(self.jugada(seat))
                .into_iter()
                .map(Action::Sena)
                .collect(),
            Phase::Declare { lance, .. } => {
                let has = self.truth(*lance, seat);
                vec![if *lance == Lance::Pares {
                    Action::Pares(has)
                } else {
                    Action::Juego(has)
                }]
            }
            Phase::Bet { betting, .. } => betting.legal(),
        }
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Event>, RuleError> {
        self.check(seat, action)?;
        let mut events = Vec::new();
        let pos = self.position(seat);
        match action {
            Action::Descarto(cards) => {
                self.emit(
                    &mut events,
                    Event::Discarded {
                        seat,
                        count: cards.len() as u8,
                    },
                );
                // Until everybody has discarded, the cards lie face down by their player.
                self.hands[seat] = self.hands[seat].difference(*cards);
                self.discards[seat] = Some(*cards);
                if self.discards.iter().all(Option::is_some) {
                    self.serve(&mut events);
                }
                return Ok(events);
            }
            Action::Sena(sena) => {
                // Only the partner learns it (through its view): no public event.
                self.senas[seat] = Some(*sena);
                if self.senas.iter().all(Option::is_some) {
                    self.start_betting(Lance::Grande, [true; 4], &mut events);
                }
                return Ok(events);
            }
            _ => self.emit(
                &mut events,
                Event::Said {
                    seat,
                    action: action.clone(),
                },
            ),
        }
        match (self.phase.clone(), action) {
            (Phase::Mus { .. }, Action::NoHayMus) => {
                // The first game of a match is mus corrido: no señas.
                if self.rules.senas && self.game_no > 1 {
                    self.phase = Phase::Senas;
                } else {
                    self.start_betting(Lance::Grande, [true; 4], &mut events)
                }
            }
            (Phase::Mus { pos }, _) if pos < 3 => self.phase = Phase::Mus { pos: pos + 1 },
            (Phase::Mus { .. }, _) => self.phase = Phase::Discard,
            (Phase::Declare { lance, pos }, Action::Pares(has) | Action::Juego(has)) => {
                let decl = if lance == Lance::Pares {
                    &mut self.pares
                } else {
                    &mut self.juego
                };
                decl[seat] = Some(*has);
                if pos < 3 {
                    self.phase = Phase::Declare {
                        lance,
                        pos: pos + 1,
                    };
                } else {
                    self.after_declarations(lance, &mut events);
                }
            }
            (Phase::Bet { lance, .. }, _) => {
                let settled = match &mut self.phase {
                    Phase::Bet { betting, .. } => betting.apply(pos, action)?,
                    _ => None,
                };
                if let Some(s) = settled {
                    self.finish_betting(lance, s, &mut events);
                }
            }
            _ => {}
        }
        Ok(events)
    }

    fn view(&self, seat: Seat) -> MusView {
        self.make_view((seat < 4).then_some(seat))
    }

    fn spectator_view(&self) -> MusView {
        self.make_view(None)
    }

    /// The winning pair, and the final score in pair order (pair 0–2 first, as in
    /// [`Scores`]): "pair 1–3 wins the match (pair 0–2 against pair 1–3: vacas 0–1,
    /// juegos 1–2, piedras 25–40)". The juegos are those of the last vaca.
    fn outcome(&self) -> Option<Outcome> {
        if self.rules.boards > 0 {
            return self.boards_outcome();
        }
        let s = &self.scores;
        self.winner.map(|pair| {
            Outcome::winners_first(
                4,
                vec![pair, pair + 2],
                (0..4).map(|seat| i64::from(s.vacas[seat % 2])).collect(),
                format!(
                    "{} wins the match ({PAIR_ORDER}: vacas {}, juegos {}, piedras {})",
                    pair_label(pair),
                    in_pair_order(s.vacas),
                    in_pair_order(s.games),
                    in_pair_order(s.piedras),
                ),
            )
        })
    }
}

impl MusGame {
    /// The result if play stopped now (a match past its time limit), by who is ahead: in
    /// a match of juegos the pair with more vacas, then more juegos in this vaca, then more
    /// piedras; in a match of boards the better net over the boards, the one under way
    /// counted as it stands. Level is a draw. A match already over is its own result.
    pub fn standing_now(&self) -> Outcome {
        if let Some(o) = self.outcome() {
            return o;
        }
        let s = &self.scores;
        let (key, text): ([i64; 2], String) = if self.rules.boards > 0 {
            let now = i64::from(s.piedras[0]) - i64::from(s.piedras[1]);
            let net = self.board_total() + now;
            (
                [net, -net],
                format!(
                    "net piedras {net:+} over {} boards",
                    self.board_nets.len() + 1
                ),
            )
        } else {
            let k = |p: usize| {
                i64::from(s.vacas[p]) * 10_000
                    + i64::from(s.games[p]) * 100
                    + i64::from(s.piedras[p])
            };
            (
                [k(0), k(1)],
                format!(
                    "{PAIR_ORDER}: vacas {}, juegos {}, piedras {}",
                    in_pair_order(s.vacas),
                    in_pair_order(s.games),
                    in_pair_order(s.piedras)
                ),
            )
        };
        let by_seat = |v: [i64; 2]| (0..4).map(|seat| v[seat % 2]).collect::<Vec<_>>();
        let (winners, places, who) = match key[0].cmp(&key[1]) {
            std::cmp::Ordering::Greater => (vec![0, 2], vec![1, 2, 1, 2], pair_label(0)),
            std::cmp::Ordering::Less => (vec![1, 3], vec![2, 1, 2, 1], pair_label(1)),
            std::cmp::Ordering::Equal => (Vec::new(), vec![1; 4], "nobody".to_string()),
        };
        let scores = if self.rules.boards > 0 {
            by_seat(key)
        } else {
            by_seat([i64::from(s.vacas[0]), i64::from(s.vacas[1])])
        };
        Outcome {
            winners,
            scores,
            places,
            summary: format!("stopped at its time limit, {who} ahead ({text})"),
            boards: if self.rules.boards > 0 {
                self.board_nets.iter().map(|&n| by_seat([n, -n])).collect()
            } else {
                Vec::new()
            },
        }
    }

    /// A match of boards, once every board is played: the pair with more net piedras wins
    /// (equal: both share first place); each seat scores its pair's net, and each board's
    /// net is kept by seat.
    fn boards_outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let by_seat = |net: i64| {
            (0..4)
                .map(|seat| if seat % 2 == 0 { net } else { -net })
                .collect()
        };
        let total = self.board_total();
        let boards = self.board_nets.len();
        let (winners, places, summary) = match self.winner {
            Some(pair) => (
                vec![pair, pair + 2],
                (0..4).map(|s| if s % 2 == pair { 1 } else { 2 }).collect(),
                format!(
                    "{} wins the match by {} net piedras over {boards} boards",
                    pair_label(pair),
                    total.abs()
                ),
            ),
            None => (
                Vec::new(),
                vec![1; 4],
                format!("the pairs draw: level net piedras over {boards} boards"),
            ),
        };
        Some(Outcome {
            winners,
            scores: by_seat(total),
            places,
            summary,
            boards: self.board_nets.iter().map(|&n| by_seat(n)).collect(),
        })
    }

    fn finish_betting(&mut self, lance: Lance, settled: Settled, events: &mut Vec<Event>) {
        let mano = self.mano;
        let status = LanceStatus::from_settled(settled, |pos_pair| (mano + pos_pair) % 2);
        self.settle(lance, status.clone(), events);
        // A deje may reach the target; an accepted órdago ends the game at once.
        let game_won = match status {
            LanceStatus::Declined { pair, piedras } => self
                .score(pair, piedras, lance, ScoreReason::Deje, events)
                .then_some((pair, false)),
            LanceStatus::OrdagoAccepted => {
                let eval = self.show(events);
                let wpos = eval.winner(lance).unwrap_or(0);
                Some((self.seat_at(wpos) % 2, true))
            }
            _ => None,
        };
        match game_won {
            Some((pair, ordago)) => self.win_game(pair, ordago, events),
            None => self.next_lance(lance, events),
        }
    }
}
