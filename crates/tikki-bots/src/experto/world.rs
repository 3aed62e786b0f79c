//! One determinized round as plain arrays, played out fast.
//!
//! A [`World`] holds the rest of a round once every hidden card has been given a place
//! (a resampled [`TikkiGame`]): hands, the cards on the table this trick, the stock in
//! drawing order and the piles. It follows the engine's rules for the rest of the round —
//! laying in turn from the leader, the retreat round when the table plays it, the reveal,
//! the refill one card at a time from the dealer's left, the leftover cards of the last
//! holder — without events, views or allocation, so a search can play thousands of
//! rounds a decision. Every seat is played by [`World::greedy_lay`] and
//! [`World::greedy_retreat`], basico's rules read from the arrays.

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use tapete_table::{Game, Seat};
use tapete_tikki::bots::{Basico, Trick};
use tapete_tikki::combo::{best, best_score, Kind};
use tapete_tikki::TikkiCards;
use tapete_tikki::{Action, Card, Cards, Phase, TikkiGame, TikkiRules, TikkiView};

/// The most seats at a tikki table.
pub const MAX_SEATS: usize = 5;

/// The rest of one round with every card in its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct World {
    pub seats: usize,
    pub dealer: Seat,
    pub leader: Seat,
    pub turn: Seat,
    /// True while the retreat round of this trick is on.
    pub retreating: bool,
    /// Whether the table plays the retreat round.
    pub retreat_rule: bool,
    pub hands: [Cards; MAX_SEATS],
    pub laid: [Cards; MAX_SEATS],
    pub revealed: [Cards; MAX_SEATS],
    pub done: [bool; MAX_SEATS],
    pub in_trick: [bool; MAX_SEATS],
    pub piles: [Cards; MAX_SEATS],
    /// Drawn from the end.
    pub stock: Vec<Card>,
    /// True once the round is scored.
    pub over: bool,
}

impl World {
    /// The round of `game` (a full state, e.g. resampled from a view) as a world; `view`
    /// is any seat's view of the same state, for the public fields the game keeps to
    /// itself. `None` when the game is over or has too many seats.
    pub fn from_game(game: &TikkiGame, view: &TikkiView) -> Option<World> {
        let seats = game.seats();
        if seats > MAX_SEATS || game.phase() == Phase::Over {
            return None;
        }
        let turn = *game.to_act().seats().first()?;
        let mut w = World {
            seats,
            dealer: game.dealer(),
            leader: view.leader,
            turn,
            retreating: game.phase() == Phase::Retreat,
            retreat_rule: game.rules().retreat,
            hands: [Cards::EMPTY; MAX_SEATS],
            laid: [Cards::EMPTY; MAX_SEATS],
            revealed: [Cards::EMPTY; MAX_SEATS],
            done: [false; MAX_SEATS],
            in_trick: [false; MAX_SEATS],
            piles: [Cards::EMPTY; MAX_SEATS],
            stock: game.stock().to_vec(),
            over: false,
        };
        for s in 0..seats {
            w.hands[s] = game.hand(s);
            w.laid[s] = game.laid(s);
            w.piles[s] = game.pile(s);
            w.revealed[s] = *view.revealed.get(s)?;
            w.done[s] = *view.retreat_done.get(s)?;
            w.in_trick[s] = *view.in_trick.get(s)?;
        }
        Some(w)
    }

    /// Copies `other` into `self`, reusing the stock's memory.
    pub fn copy_from(&mut self, other: &World) {
        self.seats = other.seats;
        self.dealer = other.dealer;
        self.leader = other.leader;
        self.turn = other.turn;
        self.retreating = other.retreating;
        self.retreat_rule = other.retreat_rule;
        self.hands = other.hands;
        self.laid = other.laid;
        self.revealed = other.revealed;
        self.done = other.done;
        self.in_trick = other.in_trick;
        self.piles = other.piles;
        self.stock.clear();
        self.stock.extend_from_slice(&other.stock);
        self.over = other.over;
    }

    /// Every card not seen by `me`: the others' hands and face-down cards, and the stock.
    pub fn hidden_from(&self, me: Seat) -> Cards {
        let mut out: Cards = self.stock.iter().copied().collect();
        for s in (0..self.seats).filter(|&s| s != me) {
            out = out
                .union(self.hands[s])
                .union(self.laid[s].difference(self.revealed[s]));
        }
        out
    }

    /// Gives seat `s` exactly `hand` in its hand and `down` among its face-down cards
    /// (sets of its sizes, of cards hidden from whoever dealt the world), each card
    /// brought from wherever it was and the card it displaces sent there: every place
    /// keeps its size. False, and nothing changed, when the sizes do not match or a card
    /// is not in the world.
    pub fn place(&mut self, s: Seat, hand: Cards, down: Cards) -> bool {
        if s >= self.seats
            || hand.len() != self.hands[s].len()
            || down.len() != self.face_down(s).len()
            || !hand.intersection(down).is_empty()
        {
            return false;
        }
        let wanted = hand.union(down);
        if wanted
            .iter()
            .any(|c| matches!(self.place_of(c), Place::Nowhere))
            || !wanted.intersection(self.revealed[s]).is_empty()
        {
            return false;
        }
        for (target, at_hand) in [(hand, true), (down, false)] {
            for c in target.iter() {
                let here = if at_hand {
                    self.hands[s]
                } else {
                    self.face_down(s)
                };
                if here.contains(c) {
                    continue;
                }
                // A card of this place not wanted here goes where `c` is.
                let Some(x) = here.iter().find(|&x| !target.contains(x)) else {
                    return false;
                };
                self.swap(c, x);
            }
        }
        true
    }

    /// Moves `card` (hidden from the searching seat) to where `with` is, and `with` to
    /// where `card` was: hands, face-down cards and the stock keep their sizes.
    fn swap(&mut self, card: Card, with: Card) {
        let here = self.place_of(card);
        let there = self.place_of(with);
        self.put(here, card, with);
        self.put(there, with, card);
    }

    fn place_of(&self, card: Card) -> Place {
        if let Some(i) = self.stock.iter().position(|&c| c == card) {
            return Place::Stock(i);
        }
        for s in 0..self.seats {
            if self.hands[s].contains(card) {
                return Place::Hand(s);
            }
            if self.laid[s].contains(card) {
                return Place::Laid(s);
            }
        }
        Place::Nowhere
    }

    fn put(&mut self, place: Place, out: Card, into: Card) {
        match place {
            Place::Stock(i) => self.stock[i] = into,
            Place::Hand(s) => {
                self.hands[s].remove(out);
                self.hands[s].insert(into);
            }
            Place::Laid(s) => {
                self.laid[s].remove(out);
                self.laid[s].insert(into);
            }
            Place::Nowhere => {}
        }
    }

    /// Gives the other players' face-down cards the shape sensible players give them, in
    /// place of the uniform deal, for each seat `s` with chance `chance[s]`: a seat that
    /// laid several cards (none shown yet) laid a combination of that many, the best of
    /// that size it held; a seat that laid one card shed its weakest. Each such seat's hand
    /// and face-down cards are dealt again from the cards `me` has not seen (rejection
    /// sampling, so likely holdings stay likely) and the cards they displace take the
    /// freed places. A seat for which no such deal turns up keeps its uniform one.
    pub fn shape_lays(&mut self, me: Seat, chance: &[f64; MAX_SEATS], rng: &mut ChaCha8Rng) {
        let mut locked = Cards::EMPTY;
        for (s, &p) in chance.iter().enumerate().take(self.seats) {
            if s == me || !self.in_trick[s] || !self.revealed[s].is_empty() {
                continue;
            }
            if p <= 0.0 || (p < 1.0 && rng.gen::<f64>() >= p) {
                locked = locked.union(self.laid[s]);
                continue;
            }
            let k = self.laid[s].len();
            if k == 0 {
                continue;
            }
            let mine_now = self.hands[s].union(self.laid[s]);
            let pool: Vec<Card> = self.hidden_from(me).difference(locked).iter().collect();
            let n = mine_now.len();
            if pool.len() < n {
                continue;
            }
            let mut found = None;
            for _ in 0..TRIES {
                let held = draw(&pool, n, rng);
                if let Some(lay) = shaped_lay(held, k) {
                    found = Some((held, lay));
                    break;
                }
            }
            let Some((held, lay)) = found else {
                locked = locked.union(self.laid[s]);
                continue;
            };
            // Bring every card of `held` to seat `s`, sending its cards not held away.
            let incoming: Vec<Card> = held.difference(mine_now).iter().collect();
            let outgoing: Vec<Card> = mine_now.difference(held).iter().collect();
            for (&card, &with) in incoming.iter().zip(&outgoing) {
                self.swap(card, with);
            }
            // Now seat s holds `held` between hand and table: arrange them.
            self.hands[s] = held.difference(lay);
            self.laid[s] = lay;
            locked = locked.union(lay);
        }
    }

    /// Plays the rest of the round with basico's rules at every seat.
    pub fn play_out(&mut self) {
        let mut steps = 0;
        while !self.over && steps < MAX_STEPS {
            let s = self.turn;
            if self.retreating {
                match self.greedy_retreat(s) {
                    Some((back, reveal)) => self.retreat(s, back, reveal),
                    None => self.keep(s),
                }
            } else {
                let lay = self.greedy_lay(s);
                self.lay(s, lay);
            }
            steps += 1;
        }
    }

    /// Applies an action of the seat to act; false (and nothing changed) if it does not
    /// fit the phase or the cards.
    pub fn apply(&mut self, action: &Action) -> bool {
        let s = self.turn;
        match *action {
            Action::Lay(cards) if !self.retreating => {
                if cards.is_empty() || !cards.is_subset(self.hands[s]) {
                    return false;
                }
                self.lay(s, cards);
            }
            Action::Retreat { back, reveal } if self.retreating => {
                let down = self.face_down(s);
                if back == reveal || !down.contains(back) || !down.contains(reveal) {
                    return false;
                }
                self.retreat(s, back, reveal);
            }
            Action::Keep if self.retreating => self.keep(s),
            _ => return false,
        }
        true
    }

    fn face_down(&self, s: Seat) -> Cards {
        self.laid[s].difference(self.revealed[s])
    }

    /// Basico's lay, from what seat `s` sees in this world.
    pub fn greedy_lay(&self, s: Seat) -> Cards {
        let hand = self.hands[s];
        let Some(b) = best(hand) else {
            return Cards::EMPTY;
        };
        let (mut on_table, mut to_come, mut need) = (0usize, 0usize, Kind::Pair);
        for o in (0..self.seats).filter(|&o| o != s && self.in_trick[o]) {
            let n = self.laid[o].len();
            on_table += n;
            need = need.max(Basico::to_beat(n));
            if n == 0 {
                to_come += 1;
            }
        }
        let trick = Trick {
            on_table,
            to_come,
            need,
            last_cards: self.stock.is_empty(),
        };
        Basico::spend_or_shed(hand, &b, self.piles[s], &trick)
    }

    /// Basico's retreat: take back the best face-down card, showing the weakest, while
    /// another seat's shown cards beat the whole lay. `None`: keep.
    pub fn greedy_retreat(&self, s: Seat) -> Option<(Card, Card)> {
        let mine = best_score(self.laid[s]);
        let beaten = (0..self.seats)
            .filter(|&o| o != s)
            .any(|o| best_score(self.revealed[o]) > mine);
        let down = self.face_down(s);
        if !beaten || down.len() < 2 {
            return None;
        }
        let back = down.iter().max_by_key(|c| c.strength())?;
        let reveal = down.iter().min_by_key(|c| c.strength())?;
        (back != reveal).then_some((back, reveal))
    }

    fn lay(&mut self, s: Seat, cards: Cards) {
        self.hands[s] = self.hands[s].difference(cards);
        self.laid[s] = cards;
        let next = (1..self.seats)
            .map(|k| (s + k) % self.seats)
            .take_while(|&o| o != self.leader)
            .find(|&o| self.in_trick[o]);
        match next {
            Some(o) => self.turn = o,
            None => self.after_laying(),
        }
    }

    fn retreat(&mut self, s: Seat, back: Card, reveal: Card) {
        self.laid[s].remove(back);
        self.hands[s].insert(back);
        self.revealed[s].insert(reveal);
        if self.face_down(s).len() < 2 {
            self.done[s] = true;
            self.after_laying();
        }
    }

    fn keep(&mut self, s: Seat) {
        self.done[s] = true;
        self.after_laying();
    }

    fn after_laying(&mut self) {
        if self.retreat_rule {
            let next = (0..self.seats)
                .map(|k| (self.leader + k) % self.seats)
                .find(|&o| self.in_trick[o] && !self.done[o] && self.face_down(o).len() >= 2);
            if let Some(o) = next {
                self.retreating = true;
                self.turn = o;
                return;
            }
        }
        self.reveal();
    }

    fn reveal(&mut self) {
        let winner = (0..self.seats)
            .filter(|&s| self.in_trick[s] && !self.laid[s].is_empty())
            .max_by_key(|&s| best_score(self.laid[s]))
            .unwrap_or(self.leader);
        let trick = self.laid[..self.seats]
            .iter()
            .fold(Cards::EMPTY, |a, &c| a.union(c));
        self.piles[winner] = self.piles[winner].union(trick);
        self.laid = [Cards::EMPTY; MAX_SEATS];
        self.revealed = [Cards::EMPTY; MAX_SEATS];
        self.done = [false; MAX_SEATS];
        self.retreating = false;
        self.refill();
        let mut holders = (0..self.seats).filter(|&s| !self.hands[s].is_empty());
        let (first, second) = (holders.next(), holders.next());
        match (first, second) {
            (None, _) => self.over = true,
            (Some(only), None) if self.stock.is_empty() => {
                self.piles[only] = self.piles[only].union(self.hands[only]);
                self.hands[only] = Cards::EMPTY;
                self.over = true;
            }
            _ => {
                let leader = (0..self.seats)
                    .map(|k| (winner + k) % self.seats)
                    .find(|&s| !self.hands[s].is_empty())
                    .unwrap_or(winner);
                self.leader = leader;
                self.turn = leader;
                for s in 0..self.seats {
                    self.in_trick[s] = !self.hands[s].is_empty();
                }
            }
        }
    }

    fn refill(&mut self) {
        loop {
            let mut gave = false;
            for k in 1..=self.seats {
                let s = (self.dealer + k) % self.seats;
                if self.hands[s].len() >= TikkiRules::HAND {
                    continue;
                }
                let Some(c) = self.stock.pop() else {
                    return;
                };
                self.hands[s].insert(c);
                gave = true;
            }
            if !gave {
                return;
            }
        }
    }

    /// Each seat's points for this round's pile.
    pub fn points(&self) -> [u32; MAX_SEATS] {
        let mut out = [0; MAX_SEATS];
        for (s, p) in out.iter_mut().enumerate().take(self.seats) {
            *p = self.piles[s].pile_points();
        }
        out
    }
}

/// Deals of a seat's cards tried before its uniform deal is kept.
const TRIES: usize = 48;

/// A round never takes this many decisions (52 cards, one at least a lay).
const MAX_STEPS: usize = 1000;

#[derive(Clone, Copy)]
enum Place {
    Stock(usize),
    Hand(Seat),
    Laid(Seat),
    Nowhere,
}

/// `n` distinct cards of `pool`, uniformly.
fn draw(pool: &[Card], n: usize, rng: &mut ChaCha8Rng) -> Cards {
    let mut out = Cards::EMPTY;
    while out.len() < n {
        out.insert(pool[rng.gen_range(0..pool.len())]);
    }
    out
}

/// What a sensible player holding `held` lays as `k` cards: for one card, its weakest
/// outside its best combination; for more, the best combination of exactly `k` cards it
/// holds (`None` if it holds none).
fn shaped_lay(held: Cards, k: usize) -> Option<Cards> {
    if k == 1 {
        let b = best(held)?;
        let shed = held
            .difference(b.cards)
            .iter()
            .chain(held.iter())
            .min_by_key(|c| c.strength())?;
        return Some(std::iter::once(shed).collect());
    }
    let mut found: Option<(u16, Cards)> = None;
    let mut consider = |set: Cards| {
        let s = best_score(set);
        if found.is_none_or(|(b, _)| s > b) {
            found = Some((s, set));
        }
    };
    let bits = held.bits();
    // k of a kind.
    if k <= 4 {
        for r in 0..13u32 {
            let group = (bits >> (4 * r)) & 0xF;
            if group.count_ones() as usize >= k {
                // The strongest k of the rank: the lowest suit indices.
                let mut take = 0u64;
                let mut g = group;
                for _ in 0..k {
                    let low = g & g.wrapping_neg();
                    take |= low;
                    g &= g - 1;
                }
                consider(Cards::from_bits(take << (4 * r)));
            }
        }
    }
    // k-card straight flushes.
    if (2..=7).contains(&k) {
        for suit in 0..4u32 {
            let mut run = 0usize;
            for r in 0..13u32 {
                let i = 4 * r + suit;
                if bits >> i & 1 == 0 {
                    run = 0;
                    continue;
                }
                run += 1;
                if run >= k {
                    let set = (0..k as u32).fold(0u64, |acc, j| acc | 1 << (i - 4 * j));
                    consider(Cards::from_bits(set));
                }
            }
        }
    }
    found.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(t: &str) -> Cards {
        t.split_whitespace().map(|c| c.parse().unwrap()).collect()
    }

    #[test]
    fn shaped_lays_are_combinations_of_the_count_or_the_weakest_card() {
        let held = set("3S 3H 4H 4D 5D 9C 13S");
        assert_eq!(shaped_lay(held, 2), Some(set("4D 5D")));
        assert_eq!(shaped_lay(held, 3), None);
        assert_eq!(shaped_lay(held, 1), Some(set("3H")));
        assert_eq!(
            shaped_lay(set("7S 7H 7D 8D 9D 1C 2C"), 3),
            Some(set("7D 8D 9D"))
        );
        assert_eq!(
            shaped_lay(set("7S 7H 7D 7C 9D 1C 2C"), 3),
            Some(set("7S 7H 7D"))
        );
    }
}
