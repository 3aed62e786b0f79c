//! Tikki as a deterministic state machine behind [`tapete_table::Game`].
//!
//! A round: the dealer (the first by lot from the seed, then each round the next seat to
//! the left) deals seven cards each, one at a time from the left; the dealer's left leads.
//! Each trick, in turn from the leader, every player holding cards lays one or more face
//! down; with the retreat round on, a second pass lets each take cards back, one card
//! revealed for each; then all is turned up and the best combination takes every card of
//! the trick to its pile. The stock refills the hands one card at a time from the dealer's
//! left, skipping full hands; the winner leads next (or, with an empty hand, the next seat
//! to its left holding cards). When one player alone still holds cards and the stock is
//! empty, those cards go to its pile; when no one holds any, the piles are scored and the
//! next round is dealt at once, or the game ends.

use crate::action::Action;
use crate::card::TikkiCards;
use crate::card::{Card, Cards};
use crate::combo::best;
use crate::events::{Event, Trick};
use crate::rules::TikkiRules;
use crate::view::{Phase, RoundResult, TikkiView};
use rand_chacha::ChaCha8Rng;
use tapete_cards::chance::{below, deal, rng_from_seed};
use tapete_table::{Game, Outcome, Seat, SetupError, ToAct};

/// Why an action was refused (nothing changed).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    #[error("the game is over")]
    Over,
    #[error("there is no seat {0} at this table")]
    NoSuchSeat(Seat),
    #[error("it is seat {0}'s turn")]
    NotYourTurn(Seat),
    #[error("lay at least one card")]
    NoCards,
    #[error("{0} is not in your hand")]
    NotInHand(Card),
    #[error("this is the retreat round: `retreat CARD reveal CARD` or `keep`")]
    RetreatNow,
    #[error("there is no retreat round now: lay cards, e.g. `lay 3S`")]
    NoRetreatNow,
    #[error("{0} is not among your face-down cards on the table")]
    NotFaceDown(Card),
    #[error("the card taken back and the card revealed must differ")]
    SameCard,
}

/// A game of tikki.
#[derive(Clone, Debug, PartialEq)]
pub struct TikkiGame {
    pub(crate) rules: TikkiRules,
    pub(crate) seats: usize,
    pub(crate) rng: ChaCha8Rng,
    pub(crate) round: u32,
    pub(crate) dealer: Seat,
    pub(crate) leader: Seat,
    pub(crate) phase: Phase,
    pub(crate) turn: Seat,
    pub(crate) hands: Vec<Cards>,
    pub(crate) in_trick: Vec<bool>,
    pub(crate) laid: Vec<Cards>,
    pub(crate) revealed: Vec<Cards>,
    pub(crate) retreated: Vec<usize>,
    pub(crate) retreat_done: Vec<bool>,
    /// The stock, drawn from the end.
    pub(crate) stock: Vec<Card>,
    pub(crate) piles: Vec<Cards>,
    pub(crate) tricks: Vec<Trick>,
    pub(crate) scores: Vec<u32>,
    pub(crate) history: Vec<RoundResult>,
    pub(crate) winners: Vec<Seat>,
}

impl TikkiGame {
    /// The table options.
    pub fn rules(&self) -> &TikkiRules {
        &self.rules
    }

    /// Players at the table.
    pub fn seats(&self) -> usize {
        self.seats
    }

    /// The round being played, from 1.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Who dealt this round.
    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    /// Lay, retreat or over.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// A seat's hand (hidden information: for tests, audits and hosts).
    pub fn hand(&self, seat: Seat) -> Cards {
        self.hands.get(seat).copied().unwrap_or_default()
    }

    /// A seat's cards on the table this trick (hidden until the reveal).
    pub fn laid(&self, seat: Seat) -> Cards {
        self.laid.get(seat).copied().unwrap_or_default()
    }

    /// A seat's trick pile this round.
    pub fn pile(&self, seat: Seat) -> Cards {
        self.piles.get(seat).copied().unwrap_or_default()
    }

    /// The stock, top card last (hidden information).
    pub fn stock(&self) -> &[Card] {
        &self.stock
    }

    /// Points by seat after the finished rounds.
    pub fn scores(&self) -> &[u32] {
        &self.scores
    }

    /// The finished rounds.
    pub fn history(&self) -> &[RoundResult] {
        &self.history
    }

    /// The winners once over (several when level on points).
    pub fn winners(&self) -> &[Seat] {
        &self.winners
    }

    /// Every card of the deck, wherever it is: for conservation checks.
    pub fn all_cards(&self) -> Vec<Card> {
        let mut out: Vec<Card> = self.stock.clone();
        for s in 0..self.seats {
            out.extend(self.hands[s].iter());
            out.extend(self.laid[s].iter());
            out.extend(self.piles[s].iter());
        }
        out
    }

    /// The event that tells the current round's deal (for narrators starting mid-game).
    pub fn deal_event(&self) -> Event {
        Event::RoundDealt {
            round: self.round,
            dealer: self.dealer,
            leader: self.first_leader(),
            stock: self.deck_size() - TikkiRules::HAND * self.seats,
        }
    }

    /// A round set up by hand, for tests and worked examples: round 1 with these hands
    /// (by seat) and this stock (drawn from the end), `dealer` dealing, so the dealer's left
    /// leads. The cards need not make a whole deck; setting up checks only the seats and
    /// options.
    #[doc(hidden)]
    pub fn arranged(
        rules: &TikkiRules,
        dealer: Seat,
        hands: Vec<Cards>,
        stock: Vec<Card>,
    ) -> Result<TikkiGame, SetupError> {
        let seats = hands.len();
        let mut g = TikkiGame::new(rules, seats, 0)?;
        g.dealer = dealer % seats;
        g.hands = hands;
        g.stock = stock;
        g.start_trick(g.first_leader());
        Ok(g)
    }

    fn deck_size(&self) -> usize {
        4 * usize::from(self.rules.top)
    }

    fn first_leader(&self) -> Seat {
        (self.dealer + 1) % self.seats
    }

    /// The first seat from `from` (itself included) going left that holds cards.
    fn holder_from(&self, from: Seat) -> Option<Seat> {
        (0..self.seats)
            .map(|k| (from + k) % self.seats)
            .find(|&s| !self.hands[s].is_empty())
    }

    /// Shuffles and deals a round; the dealer's left leads.
    fn deal(&mut self) {
        let deck = Cards::deck(self.rules.top).to_vec();
        let dealt = deal(deck, &mut self.rng, self.seats, TikkiRules::HAND);
        self.hands = vec![Cards::EMPTY; self.seats];
        for (k, cards) in dealt.hands.into_iter().enumerate() {
            self.hands[(self.dealer + 1 + k) % self.seats] = cards.into_iter().collect();
        }
        self.stock = dealt.rest;
        self.piles = vec![Cards::EMPTY; self.seats];
        self.tricks.clear();
        self.start_trick(self.first_leader());
    }

    fn start_trick(&mut self, leader: Seat) {
        self.leader = leader;
        self.turn = leader;
        self.phase = Phase::Lay;
        self.in_trick = self.hands.iter().map(|h| !h.is_empty()).collect();
        self.laid = vec![Cards::EMPTY; self.seats];
        self.revealed = vec![Cards::EMPTY; self.seats];
        self.retreated = vec![0; self.seats];
        self.retreat_done = vec![false; self.seats];
    }

    fn face_down(&self, seat: Seat) -> Cards {
        self.laid[seat].difference(self.revealed[seat])
    }

    /// The next seat to act in the retreat round: in turn from the leader, the first in
    /// the trick not yet done that still has two face-down cards (one to take back, one to
    /// reveal).
    fn next_retreater(&self) -> Option<Seat> {
        (0..self.seats)
            .map(|k| (self.leader + k) % self.seats)
            .find(|&s| self.in_trick[s] && !self.retreat_done[s] && self.face_down(s).len() >= 2)
    }

    /// After the last lay or retreat decision: the next retreat turn, or the reveal.
    fn after_laying(&mut self, events: &mut Vec<Event>) {
        if self.rules.retreat {
            if let Some(s) = self.next_retreater() {
                self.phase = Phase::Retreat;
                self.turn = s;
                return;
            }
        }
        self.reveal(events);
    }

    fn reveal(&mut self, events: &mut Vec<Event>) {
        let bests: Vec<_> = (0..self.seats)
            .map(|s| {
                if self.in_trick[s] {
                    best(self.laid[s])
                } else {
                    None
                }
            })
            .collect();
        let winner = (0..self.seats)
            .filter(|&s| bests[s].is_some())
            .max_by_key(|&s| bests[s])
            .unwrap_or(self.leader);
        let trick = Trick {
            leader: self.leader,
            laid: self.laid.clone(),
            retreated: self.retreated.clone(),
            best: bests,
            winner,
        };
        self.piles[winner] = self.piles[winner].union(trick.cards());
        self.tricks.push(trick.clone());
        events.push(Event::Revealed { trick });
        self.laid = vec![Cards::EMPTY; self.seats];
        self.refill(events);
        let holders: Vec<Seat> = (0..self.seats)
            .filter(|&s| !self.hands[s].is_empty())
            .collect();
        match holders[..] {
            [] => self.end_round(events),
            [only] if self.stock.is_empty() => {
                let cards = self.hands[only];
                self.piles[only] = self.piles[only].union(cards);
                self.hands[only] = Cards::EMPTY;
                events.push(Event::Leftover { seat: only, cards });
                self.end_round(events);
            }
            _ => {
                let leader = self.holder_from(winner).unwrap_or(winner);
                self.start_trick(leader);
            }
        }
    }

    /// One card at a time from the dealer's left, skipping full hands, until every hand
    /// holds seven or the stock is empty.
    fn refill(&mut self, events: &mut Vec<Event>) {
        let mut drawn = vec![0usize; self.seats];
        'deal: loop {
            let mut gave = false;
            for k in 1..=self.seats {
                let s = (self.dealer + k) % self.seats;
                if self.hands[s].len() >= TikkiRules::HAND {
                    continue;
                }
                let Some(c) = self.stock.pop() else {
                    break 'deal;
                };
                self.hands[s].insert(c);
                drawn[s] += 1;
                gave = true;
            }
            if !gave {
                break;
            }
        }
        if drawn.iter().any(|&d| d > 0) {
            events.push(Event::Refilled {
                drawn,
                stock: self.stock.len(),
            });
        }
    }

    fn end_round(&mut self, events: &mut Vec<Event>) {
        let points: Vec<u32> = self.piles.iter().map(|p| p.pile_points()).collect();
        for (s, p) in points.iter().enumerate() {
            self.scores[s] += p;
        }
        self.history.push(RoundResult {
            dealer: self.dealer,
            piles: self.piles.clone(),
            points: points.clone(),
            last_trick: self.tricks.last().cloned(),
        });
        events.push(Event::RoundScored {
            round: self.round,
            points,
            scores: self.scores.clone(),
        });
        let over = if self.rules.target > 0 {
            self.scores.iter().any(|&s| s >= self.rules.target)
        } else {
            self.round >= self.rules.rounds_for(self.seats)
        };
        if over {
            let top = self.scores.iter().copied().max().unwrap_or(0);
            self.winners = (0..self.seats).filter(|&s| self.scores[s] == top).collect();
            self.phase = Phase::Over;
            self.in_trick = vec![false; self.seats];
            self.revealed = vec![Cards::EMPTY; self.seats];
            self.retreated = vec![0; self.seats];
            self.retreat_done = vec![false; self.seats];
            events.push(Event::GameOver {
                winners: self.winners.clone(),
                scores: self.scores.clone(),
            });
            return;
        }
        self.round += 1;
        self.dealer = (self.dealer + 1) % self.seats;
        self.deal();
        events.push(self.deal_event());
    }

    fn check(&self, seat: Seat, action: &Action) -> Result<(), ActionError> {
        if self.phase == Phase::Over {
            return Err(ActionError::Over);
        }
        if seat >= self.seats {
            return Err(ActionError::NoSuchSeat(seat));
        }
        if seat != self.turn {
            return Err(ActionError::NotYourTurn(self.turn));
        }
        match (self.phase, action) {
            (Phase::Lay, Action::Lay(cards)) => {
                if cards.is_empty() {
                    return Err(ActionError::NoCards);
                }
                match cards.difference(self.hands[seat]).iter().next() {
                    Some(c) => Err(ActionError::NotInHand(c)),
                    None => Ok(()),
                }
            }
            (Phase::Lay, _) => Err(ActionError::NoRetreatNow),
            (Phase::Retreat, Action::Lay(_)) => Err(ActionError::RetreatNow),
            (Phase::Retreat, Action::Keep) => Ok(()),
            (Phase::Retreat, Action::Retreat { back, reveal }) => {
                let down = self.face_down(seat);
                if back == reveal {
                    Err(ActionError::SameCard)
                } else if !down.contains(*back) {
                    Err(ActionError::NotFaceDown(*back))
                } else if !down.contains(*reveal) {
                    Err(ActionError::NotFaceDown(*reveal))
                } else {
                    Ok(())
                }
            }
            (Phase::Over, _) => Err(ActionError::Over),
        }
    }

    fn make_view(&self, seat: Option<Seat>) -> TikkiView {
        let own = |v: &[Cards]| seat.and_then(|s| v.get(s).copied()).unwrap_or_default();
        TikkiView {
            rules: self.rules,
            seats: self.seats,
            seat,
            round: self.round,
            dealer: self.dealer,
            leader: self.leader,
            phase: self.phase,
            turn: (self.phase != Phase::Over).then_some(self.turn),
            hand: own(&self.hands),
            laid: own(&self.laid),
            hand_sizes: self.hands.iter().map(|h| h.len()).collect(),
            in_trick: self.in_trick.clone(),
            laid_counts: self.laid.iter().map(|l| l.len()).collect(),
            revealed: self.revealed.clone(),
            retreated: self.retreated.clone(),
            retreat_done: self.retreat_done.clone(),
            tricks: self.tricks.clone(),
            piles: self.piles.clone(),
            stock: self.stock.len(),
            scores: self.scores.clone(),
            history: self.history.clone(),
            winners: self.winners.clone(),
        }
    }
}

impl TikkiGame {
    /// Every seat's points in seat order, "12–7–0".
    fn points_text(&self) -> String {
        self.scores
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join("–")
    }

    /// The seats by their points, the most first, those level together.
    fn by_points(&self) -> Vec<Vec<Seat>> {
        let mut levels: Vec<u32> = self.scores.clone();
        levels.sort_unstable_by(|a, b| b.cmp(a));
        levels.dedup();
        levels
            .iter()
            .map(|&p| (0..self.seats).filter(|&s| self.scores[s] == p).collect())
            .collect()
    }

    /// The result if play stopped now (a match past its time limit): the most points wins
    /// (level: they share it), the others by their points. A game already over is its own
    /// result.
    pub fn standing_now(&self) -> Outcome {
        if let Some(o) = self.outcome() {
            return o;
        }
        let order = self.by_points();
        let winners = order.first().cloned().unwrap_or_default();
        let points = self.points_text();
        let who = seats_text(&winners);
        Outcome {
            winners,
            scores: self.scores.iter().map(|&p| i64::from(p)).collect(),
            places: Outcome::places_from_order(self.seats, &order),
            summary: format!(
                "stopped at its time limit after {} rounds, {who} ahead (points {points})",
                self.round
            ),
            boards: Vec::new(),
        }
    }
}

impl Game for TikkiGame {
    const NAME: &'static str = "tikki";
    type Rules = TikkiRules;
    type Action = Action;
    type View = TikkiView;
    type Event = Event;
    type Error = ActionError;

    fn new(rules: &TikkiRules, seats: usize, seed: u64) -> Result<Self, SetupError> {
        if !(2..=5).contains(&seats) {
            return Err(SetupError::Seats {
                wanted: "2 to 5",
                got: seats,
            });
        }
        rules.validate_for(seats).map_err(SetupError::Rules)?;
        let mut rng = rng_from_seed(seed);
        let dealer = below(&mut rng, seats as u32) as usize;
        let mut g = TikkiGame {
            rules: *rules,
            seats,
            rng,
            round: 1,
            dealer,
            leader: 0,
            phase: Phase::Lay,
            turn: 0,
            hands: vec![Cards::EMPTY; seats],
            in_trick: vec![false; seats],
            laid: vec![Cards::EMPTY; seats],
            revealed: vec![Cards::EMPTY; seats],
            retreated: vec![0; seats],
            retreat_done: vec![false; seats],
            stock: Vec::new(),
            piles: vec![Cards::EMPTY; seats],
            tricks: Vec::new(),
            scores: vec![0; seats],
            history: Vec::new(),
            winners: Vec::new(),
        };
        g.deal();
        Ok(g)
    }

    fn to_act(&self) -> ToAct {
        match self.phase {
            Phase::Over => ToAct::Over,
            _ => ToAct::Seats(vec![self.turn]),
        }
    }

    /// Laying: every non-empty subset of the hand (at most 127). Retreat round: `keep`,
    /// then every (take back, reveal) pair of face-down cards (at most 42).
    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if self.phase == Phase::Over || seat != self.turn {
            return Vec::new();
        }
        match self.phase {
            Phase::Lay => {
                let cards = self.hands[seat].to_vec();
                (1u32..1 << cards.len())
                    .map(|mask| {
                        Action::Lay(
                            (0..cards.len())
                                .filter(|i| mask >> i & 1 == 1)
                                .map(|i| cards[i])
                                .collect(),
                        )
                    })
                    .collect()
            }
            Phase::Retreat => {
                let down = self.face_down(seat);
                let mut out = vec![Action::Keep];
                for back in down.iter() {
                    for reveal in down.iter().filter(|&r| r != back) {
                        out.push(Action::Retreat { back, reveal });
                    }
                }
                out
            }
            Phase::Over => Vec::new(),
        }
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Event>, ActionError> {
        self.check(seat, action)?;
        let mut events = Vec::new();
        match *action {
            Action::Lay(cards) => {
                self.hands[seat] = self.hands[seat].difference(cards);
                self.laid[seat] = cards;
                events.push(Event::Laid {
                    seat,
                    count: cards.len(),
                });
                let next = (1..self.seats)
                    .map(|k| (seat + k) % self.seats)
                    .take_while(|&s| s != self.leader)
                    .find(|&s| self.in_trick[s]);
                match next {
                    Some(s) => self.turn = s,
                    None => self.after_laying(&mut events),
                }
            }
            Action::Retreat { back, reveal } => {
                self.laid[seat].remove(back);
                self.hands[seat].insert(back);
                self.revealed[seat].insert(reveal);
                self.retreated[seat] += 1;
                events.push(Event::Retreated {
                    seat,
                    revealed: reveal,
                });
                if self.face_down(seat).len() < 2 {
                    self.retreat_done[seat] = true;
                    self.after_laying(&mut events);
                }
            }
            Action::Keep => {
                self.retreat_done[seat] = true;
                events.push(Event::Kept { seat });
                self.after_laying(&mut events);
            }
        }
        Ok(events)
    }

    fn view(&self, seat: Seat) -> TikkiView {
        self.make_view((seat < self.seats).then_some(seat))
    }

    fn spectator_view(&self) -> TikkiView {
        self.make_view(None)
    }

    /// Most points wins; seats level on the most points share the win (and first place).
    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let order = self.by_points();
        let who = seats_text(&self.winners);
        let verb = if self.winners.len() == 1 {
            "wins"
        } else {
            "share the win"
        };
        let points = self.points_text();
        Some(Outcome {
            winners: self.winners.clone(),
            scores: self.scores.iter().map(|&p| i64::from(p)).collect(),
            places: Outcome::places_from_order(self.seats, &order),
            summary: format!("{who} {verb} after {} rounds (points {points})", self.round),
            boards: Vec::new(),
        })
    }
}

/// "seat 0 and seat 2": seats as an outcome's summary names them.
fn seats_text(seats: &[Seat]) -> String {
    seats
        .iter()
        .map(|s| format!("seat {s}"))
        .collect::<Vec<_>>()
        .join(" and ")
}
