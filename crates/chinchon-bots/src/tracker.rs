//! What a seat can know of the cards, read from its view alone: which cards it has not
//! seen (the stock and the others' hidden cards), how many of those each other player
//! hides, and what each one evidently collects — from the cards it took from the pile
//! and still holds (their meld partners are likely in its hand) and from what it
//! discarded (it is not collecting around those).
//!
//! ```
//! use tapete_chinchon::{ChinchonGame, ChinchonRules};
//! use tapete_chinchon_bots::tracker::Tracker;
//! use tapete_table::Game;
//!
//! let game = ChinchonGame::new(&ChinchonRules::default(), 2, 7).unwrap();
//! let t = Tracker::new(&game.view(0));
//! // 40 cards: my seven and the muestra are seen; the stock and the other seven are not.
//! assert_eq!(t.unseen_len(), 32);
//! assert_eq!(t.hidden(1), 7);
//! ```

use tapete_chinchon::meld::Solver;
use tapete_chinchon::ChinchonDeck;
use tapete_chinchon::{Card, ChinchonView, Hand, Suit};
use tapete_table::Seat;

/// The chance that a player keeps a meld partner of a card it took from the pile and
/// still holds: it took the card to make a meld, so the partners are likely in its hand.
const PARTNER_OF_HOLD: f64 = 0.45;
/// How much less likely a player holds a card of the number of one it discarded.
const SAME_NUMBER_DISCARDED: f64 = 0.5;
/// How much less likely a player holds a card next to one of its suit it discarded.
const NEAR_DISCARDED: f64 = 0.65;

/// Card knowledge of one seat at one moment (see the module docs).
#[derive(Clone, Debug)]
pub struct Tracker {
    me: Seat,
    seats: usize,
    unseen: Hand,
    unseen_len: usize,
    hidden: Vec<usize>,
    active: Vec<bool>,
    /// By seat and card index: the chance that seat holds (a copy of) the card.
    holds_p: Vec<[f64; 49]>,
}

impl Tracker {
    /// The knowledge in `view` (a seat's view; a spectator's is read as seat 0's with no
    /// cards).
    pub fn new(view: &ChinchonView) -> Tracker {
        let me = view.seat.unwrap_or(0);
        let seats = view.seats;
        let deck = view.rules.deck_for(seats);
        let mut seen = view.hand;
        let add_all = |h: &mut Hand, cards: &mut dyn Iterator<Item = Card>| {
            for c in cards {
                // A view never shows more copies than the deck has; a card that would
                // be one too many is simply not counted twice.
                let _ = h.add(c);
            }
        };
        add_all(&mut seen, &mut view.pile.iter().copied());
        let closer = view.close.as_ref().map(|c| c.closer);
        for o in (0..seats).filter(|&o| o != me) {
            match &view.close {
                Some(c) if Some(o) == closer => add_all(&mut seen, &mut c.cards.iter()),
                _ => add_all(
                    &mut seen,
                    &mut view.holds.get(o).copied().unwrap_or_default().iter(),
                ),
            }
        }
        if let Some(c) = &view.close {
            add_all(
                &mut seen,
                &mut std::iter::once(c.down).chain(c.laid.iter().map(|l| l.card)),
            );
        }
        let mut unseen = deck.multiset();
        for c in seen.iter() {
            unseen.remove(c);
        }
        let unseen_len = unseen.len();
        let hidden: Vec<usize> = (0..seats)
            .map(|o| {
                if o == me {
                    return 0;
                }
                let size = view.hand_sizes.get(o).copied().unwrap_or(0) as usize;
                let known = match &view.close {
                    Some(c) if Some(o) == closer => c.cards.len(),
                    _ => view.holds.get(o).map_or(0, Hand::len),
                };
                size.saturating_sub(known)
            })
            .collect();
        let active: Vec<bool> = (0..seats)
            .map(|s| !view.out.get(s).copied().unwrap_or(false))
            .collect();
        let mut t = Tracker {
            me,
            seats,
            unseen,
            unseen_len,
            hidden,
            active,
            holds_p: vec![[0.0; 49]; seats],
        };
        let solver = Solver::new(&view.rules);
        for o in (0..seats).filter(|&o| o != me) {
            t.holds_p[o] = t.read_player(view, &solver, o);
        }
        t
    }

    /// What seat `o` probably holds: certain for what it took and still holds, likelier
    /// around those cards, less likely around what it discarded, the base rate elsewhere.
    fn read_player(&self, view: &ChinchonView, solver: &Solver, o: Seat) -> [f64; 49] {
        let mut p = [0.0; 49];
        if self.unseen_len == 0 {
            return p;
        }
        let rate = self.hidden[o] as f64 / self.unseen_len as f64;
        for c in self.unseen.distinct() {
            p[c.index()] = (self.unseen.count(c) as f64 * rate).min(1.0);
        }
        let holds = match &view.close {
            Some(c) if c.closer == o => c.cards,
            _ => view.holds.get(o).copied().unwrap_or_default(),
        };
        for y in holds.iter() {
            for z in self.unseen.distinct() {
                if related(solver, y, z) {
                    p[z.index()] = p[z.index()].max(PARTNER_OF_HOLD.min(rate * 4.0));
                }
            }
        }
        let discarded = view.discarded.get(o).copied().unwrap_or_default();
        for y in discarded.iter() {
            for z in self.unseen.distinct() {
                if y.number().is_some() && y.number() == z.number() {
                    p[z.index()] *= SAME_NUMBER_DISCARDED;
                } else if near_in_suit(solver, y, z, 1) {
                    p[z.index()] *= NEAR_DISCARDED;
                }
            }
        }
        for y in holds.iter() {
            p[y.index()] = 1.0;
        }
        p
    }

    /// The seat this knowledge is for.
    pub fn me(&self) -> Seat {
        self.me
    }

    /// Cards not seen: the stock and the others' hidden cards.
    pub fn unseen(&self) -> &Hand {
        &self.unseen
    }

    /// How many cards are unseen, copies counted.
    pub fn unseen_len(&self) -> usize {
        self.unseen_len
    }

    /// How many of its cards seat `o` hides (0 for this seat).
    pub fn hidden(&self, o: Seat) -> usize {
        self.hidden.get(o).copied().unwrap_or(0)
    }

    /// The chance that seat `o` holds `card` (for this seat: 0; the estimate for others).
    pub fn holds(&self, o: Seat, card: Card) -> f64 {
        self.holds_p.get(o).map_or(0.0, |p| p[card.index()])
    }

    /// The other players still in, in turn order from this seat.
    pub fn opponents(&self) -> impl Iterator<Item = Seat> + '_ {
        (1..self.seats)
            .map(move |k| (self.me + k) % self.seats)
            .filter(move |&s| self.active[s])
    }

    /// The player who acts after this seat (the one that may take its discard).
    pub fn next(&self) -> Option<Seat> {
        self.opponents().next()
    }

    /// How likely seat `o` is to want `card` from the pile: the chance it holds two
    /// cards that make a meld with it (a joker counting as any partner), each pair's
    /// chance the product of the two, capped at 1.
    pub fn danger(&self, solver: &Solver, o: Seat, card: Card) -> f64 {
        if card.is_joker() {
            // Any two cards of a meld-in-waiting welcome a joker: call it likely.
            return 0.6;
        }
        let p = |c: Card| self.holds(o, c);
        let mut total = 0.0;
        let mut singles = 0.0;
        let (Some(number), Some(suit)) = (card.number(), card.suit()) else {
            return 0.0;
        };
        // Groups: two others of the number.
        let same: Vec<Card> = Suit::ALL
            .iter()
            .filter_map(|&s| Card::new(number, s))
            .filter(|&c| c != card)
            .collect();
        for (i, &a) in same.iter().enumerate() {
            singles += p(a);
            for &b in &same[i + 1..] {
                total += p(a) * p(b);
            }
        }
        // Escaleras: the two below, one on each side, the two above.
        if let Some(r) = solver.rank(card) {
            let at = |k: i32| -> Option<Card> {
                let rr = r as i32 + k;
                if rr < 0 || rr >= solver.seq_len() as i32 {
                    return None;
                }
                card_at(solver, suit, rr as u8)
            };
            for (x, y) in [(-2, -1), (-1, 1), (1, 2)] {
                if let (Some(a), Some(b)) = (at(x), at(y)) {
                    total += p(a) * p(b);
                }
            }
            for k in [-1, 1] {
                if let Some(a) = at(k) {
                    singles += p(a);
                }
            }
        }
        let joker = self.holds(o, Card::JOKER);
        (total + joker * singles.min(1.0)).min(1.0)
    }
}

/// The card of `suit` at sequence rank `rank`.
pub fn card_at(solver: &Solver, suit: Suit, rank: u8) -> Option<Card> {
    (1..=12u8)
        .filter_map(|n| Card::new(n, suit))
        .find(|c| solver.rank(*c) == Some(rank))
}

/// Whether two cards can be in a meld together: the same number, or the same suit at
/// most two places apart in the sequence.
pub fn related(solver: &Solver, a: Card, b: Card) -> bool {
    if a.is_joker() || b.is_joker() {
        return false;
    }
    (a.number() == b.number() && a != b) || near_in_suit(solver, a, b, 2)
}

/// Whether two cards are of one suit and at most `d` places apart (but not the same).
fn near_in_suit(solver: &Solver, a: Card, b: Card, d: u8) -> bool {
    if a.suit().is_none() || a.suit() != b.suit() || a == b {
        return false;
    }
    match (solver.rank(a), solver.rank(b)) {
        (Some(x), Some(y)) => x.abs_diff(y) <= d,
        _ => false,
    }
}
