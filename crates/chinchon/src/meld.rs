//! The meld solver: for up to eight cards, the least deadwood over every set of disjoint
//! melds, whether seven cards can close (normal, menos diez, chinchón), and for eight cards
//! every discard with its result.
//!
//! Melds:
//! - a **group** is 3 or 4 cards of one number, any suits (with two decks, two copies of a
//!   card may sit in one group);
//! - an **escalera** is 3 or more cards of one suit consecutive in sequence order: 1–7,
//!   sota, caballo, rey in the 40-card deck (7 is followed by the sota), 1–12 in the 48-card
//!   deck; no wrap from rey to as;
//! - a joker stands for any one card of a meld, at most one joker per meld, so a meld holds
//!   at least two real cards. A joker left unmatched counts its penalty.
//!
//! Closing, with seven cards (the eighth put down):
//! - **chinchón**: the seven form one escalera. A joker may be one of them: the spec lets a
//!   joker stand for any card of a meld and calls chinchón "a single escalera of one suit",
//!   which an escalera with its joker still is;
//! - **menos diez**: all seven in melds;
//! - **normal**: all but one in melds, that one worth the close limit or less.
//!
//! How it is fast (no allocation; every table on the stack): the melds among the cards are
//! listed once as bitmasks over the cards' places (groups per number, escaleras per suit
//! from the ranks present, each meld once), then one dynamic programme over the subsets of
//! the cards that are in some meld gives the least deadwood of *every* subset at once, so
//! the eight discards, and for each the closes (which need the least deadwood of the
//! subsets of six), are table look-ups.
//!
//! ```
//! use tapete_chinchon::meld::{Close, Solver};
//! use tapete_chinchon::{Card, ChinchonRules};
//!
//! let solver = Solver::new(&ChinchonRules::default());
//! let cards: Vec<Card> = "1o 2o 3o 7c 7e 7b 12o".split(' ').map(|c| c.parse().unwrap()).collect();
//! let a = solver.analyze(&cards).unwrap();
//! assert_eq!(a.deadwood(), 12);
//! assert!(!a.can_close(), "the rey is worth 12, more than 3");
//!
//! let mut eight = cards.clone();
//! eight.push("2c".parse().unwrap());
//! let a = solver.analyze(&eight).unwrap();
//! let best = a.best_discard().unwrap();
//! assert_eq!(best.card.to_string(), "12o");
//! assert_eq!(best.close, Some(Close::Normal { card: "2c".parse().unwrap(), points: 2 }));
//! ```

use crate::card::{Card, Hand, Suit};
use crate::rules::ChinchonRules;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The most cards the solver takes: a hand of seven and the card just drawn.
pub const MAX_CARDS: usize = 8;

/// Why cards could not be analysed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MeldError {
    #[error("{0} cards are too many: a hand is analysed with 8 cards at most")]
    TooMany(usize),
}

/// How seven cards close.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Close {
    /// Six in melds and `card` left, worth `points` (no more than the close limit).
    Normal { card: Card, points: u8 },
    /// All seven in melds: the closer scores −10.
    MenosDiez,
    /// The seven are one escalera: the closer wins the game.
    Chinchon,
}

impl Close {
    /// Higher is better for the closer: chinchón, menos diez, then the fewest points.
    pub fn rank(self) -> u16 {
        match self {
            Close::Chinchon => 1000,
            Close::MenosDiez => 900,
            Close::Normal { points, .. } => 800 - points as u16,
        }
    }

    /// The closer's points for the hand (chinchón scores nothing: the game is won).
    pub fn points(self) -> i32 {
        match self {
            Close::Normal { points, .. } => points as i32,
            Close::MenosDiez => crate::rules::MENOS_DIEZ,
            Close::Chinchon => 0,
        }
    }
}

impl fmt::Display for Close {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Close::Normal { card, points } => write!(f, "normal close with {card} left ({points})"),
            Close::MenosDiez => f.write_str("menos diez"),
            Close::Chinchon => f.write_str("chinchón"),
        }
    }
}

/// The shape of a meld on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MeldKind {
    /// Cards of one number.
    Group { number: u8 },
    /// An escalera of `suit` from the card numbered `low` to the one numbered `high`
    /// (the joker's place included).
    Run { suit: Suit, low: u8, high: u8 },
}

/// A meld as shown on the table: its shape and its cards in order (in an escalera the
/// joker stands where it counts; in a group it comes last).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Meld {
    #[serde(flatten)]
    pub kind: MeldKind,
    pub cards: Vec<Card>,
}

impl Meld {
    /// Whether a joker is in the meld.
    pub fn has_joker(&self) -> bool {
        self.cards.iter().any(|c| c.is_joker())
    }
}

impl fmt::Display for Meld {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.cards.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

/// One discard from eight cards and what the seven left are worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Discard {
    /// The card put down.
    pub card: Card,
    /// The least deadwood of the seven left.
    pub deadwood: u16,
    /// How the seven left close, if they can.
    pub close: Option<Close>,
}

impl Discard {
    /// Whether the seven left can close.
    pub fn can_close(&self) -> bool {
        self.close.is_some()
    }
}

/// What the solver found for some cards (up to eight); fixed size, no allocation.
#[derive(Clone, Copy, Debug)]
pub struct Analysis {
    cards: [Card; MAX_CARDS],
    n: u8,
    deadwood: u16,
    melds: [u8; 2],
    n_melds: u8,
    close: Option<Close>,
    discards: [Discard; MAX_CARDS],
    n_discards: u8,
    best: Option<u8>,
    seq_len: u8,
}

impl Analysis {
    /// The cards analysed, in the order given.
    pub fn cards(&self) -> &[Card] {
        &self.cards[..self.n as usize]
    }

    /// The least total value of cards left out of melds.
    pub fn deadwood(&self) -> u16 {
        self.deadwood
    }

    /// The melds of an arrangement with the least deadwood.
    pub fn melds(&self) -> Vec<Meld> {
        self.melds[..self.n_melds as usize]
            .iter()
            .map(|&m| self.meld_of(m))
            .collect()
    }

    /// The melds' places among [`Analysis::cards`], as bitmasks.
    pub fn meld_masks(&self) -> &[u8] {
        &self.melds[..self.n_melds as usize]
    }

    /// The places of the cards in no meld of that arrangement, as a bitmask.
    pub fn unmatched_mask(&self) -> u8 {
        let all = ((1u16 << self.n) - 1) as u8;
        self.melds[..self.n_melds as usize]
            .iter()
            .fold(all, |acc, m| acc & !m)
    }

    /// The cards in no meld of that arrangement, in the order given.
    pub fn unmatched(&self) -> Vec<Card> {
        let free = self.unmatched_mask();
        (0..self.n as usize)
            .filter(|i| free & (1 << i) != 0)
            .map(|i| self.cards[i])
            .collect()
    }

    /// Seven cards: how they close. Eight: the best close among the discards.
    pub fn close(&self) -> Option<Close> {
        self.close
    }

    /// Seven cards: whether they close. Eight: whether some discard closes.
    pub fn can_close(&self) -> bool {
        self.close.is_some()
    }

    /// Whether the close (see [`Analysis::close`]) is menos diez or better.
    pub fn menos_diez(&self) -> bool {
        matches!(self.close, Some(Close::MenosDiez | Close::Chinchon))
    }

    /// Whether the close is a chinchón.
    pub fn chinchon(&self) -> bool {
        self.close == Some(Close::Chinchon)
    }

    /// Eight cards: each discard in the order of the cards (copies included). Otherwise
    /// empty.
    pub fn discards(&self) -> &[Discard] {
        &self.discards[..self.n_discards as usize]
    }

    /// Eight cards: the best discard — the best close (chinchón, menos diez, the fewest
    /// points), else the least deadwood; the first such card among equals.
    pub fn best_discard(&self) -> Option<Discard> {
        self.best.map(|i| self.discards[i as usize])
    }

    fn meld_of(&self, mask: u8) -> Meld {
        let cards: Vec<Card> = (0..self.n as usize)
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| self.cards[i])
            .collect();
        shape(&cards, self.seq_len)
    }
}

/// The sequence rank of a card in a deck whose sequence is `seq_len` long (10 or 12).
fn rank_in(card: Card, seq_len: u8) -> Option<u8> {
    let n = card.number()?;
    match (seq_len, n) {
        (12, n) => Some(n - 1),
        (_, 1..=7) => Some(n - 1),
        (_, 10..=12) => Some(n - 3),
        _ => None,
    }
}

/// The number printed on the card at sequence rank `r`.
fn number_at(r: u8, seq_len: u8) -> u8 {
    if seq_len == 12 || r < 7 {
        r + 1
    } else {
        r + 3
    }
}

/// The shape of a set of cards known to be a meld, with its cards ordered for the table.
fn shape(cards: &[Card], seq_len: u8) -> Meld {
    let mut reals: Vec<Card> = cards.iter().copied().filter(|c| !c.is_joker()).collect();
    reals.sort();
    let joker = reals.len() < cards.len();
    let number = reals.first().and_then(|c| c.number());
    if reals.iter().all(|c| c.number() == number) {
        if joker {
            reals.push(Card::JOKER);
        }
        return Meld {
            kind: MeldKind::Group {
                number: number.unwrap_or(0),
            },
            cards: reals,
        };
    }
    let suit = reals[0].suit().unwrap_or(Suit::Oros);
    let mut ranked: Vec<(u8, Card)> = reals
        .iter()
        .map(|&c| (rank_in(c, seq_len).unwrap_or(0), c))
        .collect();
    ranked.sort();
    let mut out = Vec::with_capacity(cards.len());
    let lo = ranked[0].0;
    let hi = ranked[ranked.len() - 1].0;
    let mut joker_at = None;
    if joker {
        joker_at = (lo..=hi)
            .find(|r| ranked.iter().all(|(x, _)| x != r))
            .or(if hi + 1 < seq_len {
                Some(hi + 1)
            } else {
                lo.checked_sub(1)
            });
    }
    let (low, high) = match joker_at {
        Some(j) => (lo.min(j), hi.max(j)),
        None => (lo, hi),
    };
    let mut k = 0;
    for r in low..=high {
        if Some(r) == joker_at {
            out.push(Card::JOKER);
        } else if k < ranked.len() {
            out.push(ranked[k].1);
            k += 1;
        }
    }
    Meld {
        kind: MeldKind::Run {
            suit,
            low: number_at(low, seq_len),
            high: number_at(high, seq_len),
        },
        cards: out,
    }
}

/// The solver for one table's options: card values, the sequence and the close limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solver {
    value: [u8; 49],
    rank: [u8; 49],
    seq_len: u8,
    limit: u8,
}

const NO_RANK: u8 = u8::MAX;

/// Every meld among some cards, as bitmasks over their places, bucketed by lowest place.
struct Melds {
    /// Bucket `l` holds melds whose lowest place is `l`, at `START[l]..START[l] + len[l]`;
    /// a bucket has room for every mask with that lowest place.
    masks: [u8; 256],
    len: [u8; MAX_CARDS],
    seen: [u64; 4],
    /// Places that are in some meld.
    core: u8,
    /// Bit `i`: the seven places other than `i` (of 0..8) form one escalera.
    chinchon: u16,
}

const START: [usize; MAX_CARDS] = [0, 128, 192, 224, 240, 248, 252, 254];

impl Melds {
    fn new() -> Melds {
        Melds {
            masks: [0; 256],
            len: [0; MAX_CARDS],
            seen: [0; 4],
            core: 0,
            chinchon: 0,
        }
    }

    #[inline]
    fn push(&mut self, m: u8) {
        let (w, b) = ((m >> 6) as usize, m & 63);
        if self.seen[w] & (1 << b) != 0 {
            return;
        }
        self.seen[w] |= 1 << b;
        let l = m.trailing_zeros() as usize;
        self.masks[START[l] + self.len[l] as usize] = m;
        self.len[l] += 1;
        self.core |= m;
    }

    #[inline]
    fn bucket(&self, l: usize) -> &[u8] {
        &self.masks[START[l]..START[l] + self.len[l] as usize]
    }
}

/// Submasks of `m` with `lo..=hi` bits, each passed to `f`.
#[inline]
fn submasks(m: u8, lo: u32, hi: u32, mut f: impl FnMut(u8)) {
    let mut s = m;
    while s != 0 {
        let k = s.count_ones();
        if k >= lo && k <= hi {
            f(s);
        }
        s = (s - 1) & m;
    }
}

impl Solver {
    /// A solver for a table with these options.
    pub fn new(rules: &ChinchonRules) -> Solver {
        let seq_len = rules.deck.per_suit();
        let mut value = [0u8; 49];
        let mut rank = [NO_RANK; 49];
        for c in Card::all() {
            value[c.index()] = rules.value(c);
            rank[c.index()] = rank_in(c, seq_len).unwrap_or(NO_RANK);
        }
        Solver {
            value,
            rank,
            seq_len,
            limit: rules.close_limit,
        }
    }

    /// What `card` counts when left unmatched.
    pub fn value(&self, card: Card) -> u8 {
        self.value[card.index()]
    }

    /// The card's place in the sequence of escaleras (0 for the as), `None` for the joker
    /// and for 8s and 9s in the 40-card deck.
    pub fn rank(&self, card: Card) -> Option<u8> {
        let r = self.rank[card.index()];
        (r != NO_RANK).then_some(r)
    }

    /// Length of the sequence: 10 (40-card deck) or 12.
    pub fn seq_len(&self) -> u8 {
        self.seq_len
    }

    /// The highest value of the one card a normal close may leave.
    pub fn close_limit(&self) -> u8 {
        self.limit
    }

    /// Analyses up to eight cards (see [`Analysis`]).
    pub fn analyze(&self, cards: &[Card]) -> Result<Analysis, MeldError> {
        if cards.len() > MAX_CARDS {
            return Err(MeldError::TooMany(cards.len()));
        }
        Ok(self.analyze_fit(cards))
    }

    /// Analyses the cards of a hand of up to eight.
    pub fn analyze_hand(&self, hand: &Hand) -> Result<Analysis, MeldError> {
        if hand.len() > MAX_CARDS {
            return Err(MeldError::TooMany(hand.len()));
        }
        let mut cards = [Card::JOKER; MAX_CARDS];
        for (slot, c) in cards.iter_mut().zip(hand.iter()) {
            *slot = c;
        }
        Ok(self.analyze_fit(&cards[..hand.len()]))
    }

    /// The least deadwood of up to eight cards (more are an error).
    pub fn deadwood(&self, cards: &[Card]) -> Result<u16, MeldError> {
        self.analyze(cards).map(|a| a.deadwood())
    }

    /// How seven cards close, with the melds shown: for a normal close six cards in melds
    /// and the one left; otherwise every card in melds. `None` if they cannot close (or
    /// are not seven).
    pub fn closing(&self, seven: &[Card]) -> Option<(Close, Vec<Meld>)> {
        if seven.len() != 7 {
            return None;
        }
        let mut cards = [Card::JOKER; MAX_CARDS];
        cards[..7].copy_from_slice(seven);
        let (melds, f, choice) = self.tables(&cards[..7]);
        let close = self.close_of(&melds, &f, 0x7F, &cards)?;
        let shown = match close {
            Close::Chinchon => 0x7F,
            Close::MenosDiez => 0x7F,
            Close::Normal { card, .. } => {
                // The place of that card whose removal leaves all in melds.
                let core = melds.core;
                let y = (0..7).find(|&i| {
                    let rest = 0x7F ^ (1u8 << i);
                    cards[i] == card && rest & !core == 0 && f[rest as usize] == 0
                })?;
                0x7F ^ (1u8 << y)
            }
        };
        let mut out = Vec::with_capacity(2);
        if close == Close::Chinchon {
            out.push(self.meld(&cards[..7]));
            return Some((close, out));
        }
        let mut s = shown;
        while s != 0 {
            let m = choice[s as usize];
            if m == 0 {
                // Cannot happen for a set with deadwood 0; stop rather than loop.
                return None;
            }
            let members: Vec<Card> = (0..7)
                .filter(|i| m & (1 << i) != 0)
                .map(|i| cards[i])
                .collect();
            out.push(self.meld(&members));
            s ^= m;
        }
        Some((close, out))
    }

    /// The shape of cards known to form a meld, ordered for the table.
    pub fn meld(&self, cards: &[Card]) -> Meld {
        shape(cards, self.seq_len)
    }

    /// Whether `card` may be laid onto `meld` (meter cartas): a group of three takes a
    /// fourth of its number; an escalera takes the next card of its suit at either end;
    /// a joker joins a meld that has none (at the top of an escalera, or at its bottom
    /// when the top is the rey).
    pub fn fits(&self, meld: &Meld, card: Card) -> bool {
        match meld.kind {
            MeldKind::Group { number } => {
                meld.cards.len() < 4
                    && if card.is_joker() {
                        !meld.has_joker()
                    } else {
                        card.number() == Some(number)
                    }
            }
            MeldKind::Run { suit, low, high } => {
                let ends = Card::new(low, suit)
                    .and_then(|c| self.rank(c))
                    .zip(Card::new(high, suit).and_then(|c| self.rank(c)));
                let Some((lo, hi)) = ends else {
                    return false;
                };
                if card.is_joker() {
                    !meld.has_joker() && (hi + 1 < self.seq_len || lo > 0)
                } else {
                    card.suit() == Some(suit)
                        && self.rank(card).is_some_and(|r| r + 1 == lo || r == hi + 1)
                }
            }
        }
    }

    /// `meld` with `card` laid onto it, or `None` if it does not fit (see [`Solver::fits`]).
    pub fn laid(&self, meld: &Meld, card: Card) -> Option<Meld> {
        if !self.fits(meld, card) {
            return None;
        }
        match meld.kind {
            MeldKind::Group { number } => {
                let fits = meld.cards.len() < 4
                    && if card.is_joker() {
                        !meld.has_joker()
                    } else {
                        card.number() == Some(number)
                    };
                fits.then(|| {
                    let reals: Vec<Card> = meld.cards.iter().copied().chain([card]).collect();
                    self.meld(&reals)
                })
            }
            MeldKind::Run { suit, low, high } => {
                let lo = rank_in(Card::new(low, suit)?, self.seq_len)?;
                let hi = rank_in(Card::new(high, suit)?, self.seq_len)?;
                let mut cards = meld.cards.clone();
                if card.is_joker() {
                    if meld.has_joker() {
                        return None;
                    }
                    if hi + 1 < self.seq_len {
                        cards.push(card);
                        Some(Meld {
                            kind: MeldKind::Run {
                                suit,
                                low,
                                high: number_at(hi + 1, self.seq_len),
                            },
                            cards,
                        })
                    } else if lo > 0 {
                        cards.insert(0, card);
                        Some(Meld {
                            kind: MeldKind::Run {
                                suit,
                                low: number_at(lo - 1, self.seq_len),
                                high,
                            },
                            cards,
                        })
                    } else {
                        None
                    }
                } else {
                    if card.suit() != Some(suit) {
                        return None;
                    }
                    let r = self.rank(card)?;
                    if r + 1 == lo {
                        cards.insert(0, card);
                        Some(Meld {
                            kind: MeldKind::Run {
                                suit,
                                low: card.number()?,
                                high,
                            },
                            cards,
                        })
                    } else if r == hi + 1 {
                        cards.push(card);
                        Some(Meld {
                            kind: MeldKind::Run {
                                suit,
                                low,
                                high: card.number()?,
                            },
                            cards,
                        })
                    } else {
                        None
                    }
                }
            }
        }
    }

    fn analyze_fit(&self, cards: &[Card]) -> Analysis {
        let n = cards.len();
        let mut arr = [Card::JOKER; MAX_CARDS];
        arr[..n].copy_from_slice(cards);
        let full = ((1u16 << n) - 1) as u8;
        let (melds, f, choice) = self.tables(cards);
        let core = melds.core;
        let free = full & !core;
        let free_sum = self.sum(&arr, free);

        let deadwood = f[(full & core) as usize] + free_sum;
        let mut out = Analysis {
            cards: arr,
            n: n as u8,
            deadwood,
            melds: [0; 2],
            n_melds: 0,
            close: None,
            discards: [Discard {
                card: Card::JOKER,
                deadwood: 0,
                close: None,
            }; MAX_CARDS],
            n_discards: 0,
            best: None,
            seq_len: self.seq_len,
        };
        let mut s = full & core;
        while s != 0 {
            let m = choice[s as usize];
            if m == 0 {
                s &= s - 1;
            } else {
                out.melds[out.n_melds as usize] = m;
                out.n_melds += 1;
                s ^= m;
            }
        }
        if n == 7 {
            out.close = self.close_of(&melds, &f, full, &arr);
        } else if n == 8 {
            let mut best: Option<(u8, u16, u16)> = None; // (index, close rank, deadwood)
            for i in 0..8 {
                let bit = 1u8 << i;
                let s = full ^ bit;
                let dw = f[(s & core) as usize] + free_sum
                    - if free & bit != 0 {
                        arr[i].value_in(self)
                    } else {
                        0
                    };
                let close = self.close_of(&melds, &f, s, &arr);
                out.discards[i] = Discard {
                    card: arr[i],
                    deadwood: dw,
                    close,
                };
                let rank = close.map_or(0, Close::rank);
                let better = match best {
                    None => true,
                    Some((_, r, d)) => rank > r || (rank == r && dw < d),
                };
                if better {
                    best = Some((i as u8, rank, dw));
                }
            }
            out.n_discards = 8;
            out.best = best.map(|b| b.0);
            out.close = out.best.and_then(|b| out.discards[b as usize].close);
        }
        out
    }

    #[inline]
    fn sum(&self, cards: &[Card; MAX_CARDS], mask: u8) -> u16 {
        let mut s = 0u16;
        let mut m = mask;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            s += self.value[cards[i].index()] as u16;
            m &= m - 1;
        }
        s
    }

    /// How the seven places of `s` close, if they do.
    #[inline]
    fn close_of(
        &self,
        melds: &Melds,
        f: &[u16; 256],
        s: u8,
        cards: &[Card; MAX_CARDS],
    ) -> Option<Close> {
        debug_assert_eq!(s.count_ones(), 7);
        let missing = (!s).trailing_zeros();
        if melds.chinchon & (1 << missing) != 0 {
            return Some(Close::Chinchon);
        }
        let core = melds.core;
        let free = s & !core;
        match free.count_ones() {
            0 => {
                if f[s as usize] == 0 {
                    return Some(Close::MenosDiez);
                }
                let mut best: Option<(u8, Card)> = None;
                let mut m = s;
                while m != 0 {
                    let i = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let v = self.value[cards[i].index()];
                    let lower = match best {
                        None => true,
                        Some((b, _)) => v < b,
                    };
                    if v <= self.limit && lower && f[(s ^ (1u8 << i)) as usize] == 0 {
                        best = Some((v, cards[i]));
                    }
                }
                best.map(|(points, card)| Close::Normal { card, points })
            }
            1 => {
                let i = free.trailing_zeros() as usize;
                let v = self.value[cards[i].index()];
                (v <= self.limit && f[(s & core) as usize] == 0).then_some(Close::Normal {
                    card: cards[i],
                    points: v,
                })
            }
            _ => None,
        }
    }

    /// The melds among `cards` and the least deadwood of every subset of the places in
    /// some meld, with the meld (or 0: none) the lowest place of each subset is in.
    #[inline]
    fn tables(&self, cards: &[Card]) -> (Melds, [u16; 256], [u8; 256]) {
        let mut melds = Melds::new();
        self.find_melds(cards, &mut melds);
        let mut f = [0u16; 256];
        let mut choice = [0u8; 256];
        let core = melds.core;
        let mut s: u8 = 0;
        loop {
            s = s.wrapping_sub(core) & core;
            if s == 0 {
                break;
            }
            let l = s.trailing_zeros() as usize;
            let mut best = self.value[cards[l].index()] as u16 + f[(s & (s - 1)) as usize];
            let mut ch = 0u8;
            for &m in melds.bucket(l) {
                if m & !s == 0 {
                    let c = f[(s ^ m) as usize];
                    if c < best {
                        best = c;
                        ch = m;
                    }
                }
            }
            f[s as usize] = best;
            choice[s as usize] = ch;
        }
        (melds, f, choice)
    }

    /// Lists every meld among `cards` once.
    #[inline]
    fn find_melds(&self, cards: &[Card], out: &mut Melds) {
        let mut jokers = 0u8;
        let mut by_number = [0u8; 12];
        let mut slots = [[0u8; 12]; 4];
        let mut present = [0u16; 4];
        for (i, &c) in cards.iter().enumerate() {
            let bit = 1u8 << i;
            let idx = c.index();
            if c.is_joker() {
                jokers |= bit;
                continue;
            }
            by_number[idx % 12] |= bit;
            let r = self.rank[idx];
            if r != NO_RANK {
                slots[idx / 12][r as usize] |= bit;
                present[idx / 12] |= 1 << r;
            }
        }
        // Groups.
        for &m in &by_number {
            let p = m.count_ones();
            if p >= 3 {
                submasks(m, 3, 4, |s| out.push(s));
            }
            if p >= 2 && jokers != 0 {
                submasks(m, 2, 3, |s| {
                    let mut j = jokers;
                    while j != 0 {
                        let jb = j & j.wrapping_neg();
                        out.push(s | jb);
                        j &= j - 1;
                    }
                });
            }
        }
        // Escaleras.
        let len = self.seq_len as usize;
        let allowed = u32::from(jokers != 0);
        for suit in 0..4 {
            let p = present[suit].count_ones();
            if p < 3 - allowed {
                continue;
            }
            let slot = &slots[suit];
            for s in 0..len {
                if slot[s] == 0 && allowed == 0 {
                    continue;
                }
                let mut missing = 0u32;
                let mut miss_at = usize::MAX;
                for e in s..len {
                    if slot[e] == 0 {
                        missing += 1;
                        miss_at = e;
                        if missing > allowed {
                            break;
                        }
                    }
                    let w = e - s + 1;
                    if w > cards.len() {
                        break;
                    }
                    if w < 3 {
                        continue;
                    }
                    let window = &slot[s..=e];
                    let top = e == len - 1;
                    if missing == 0 {
                        self.runs(window, usize::MAX, 0, out);
                        if jokers != 0 {
                            for k in 0..w {
                                // The joker at the bottom only when it cannot go on top:
                                // otherwise the same cards come from the window above.
                                if k == 0 && !top {
                                    continue;
                                }
                                self.runs(window, k, jokers, out);
                            }
                        }
                    } else {
                        let k = miss_at - s;
                        if k == 0 && !top {
                            continue;
                        }
                        self.runs(window, k, jokers, out);
                    }
                }
            }
        }
    }

    /// Pushes the escaleras made of one card per rank of `window` (two choices where a
    /// rank has two copies), the rank at `skip` taken by each joker of `jokers` instead
    /// (`skip` out of range: no joker).
    #[inline]
    fn runs(&self, window: &[u8], skip: usize, jokers: u8, out: &mut Melds) {
        let mut base = 0u8;
        let mut dups = [0u8; 4];
        let mut nd = 0;
        for (k, &slot) in window.iter().enumerate() {
            if k == skip {
                continue;
            }
            let low = slot & slot.wrapping_neg();
            base |= low;
            if slot != low && nd < 4 {
                dups[nd] = slot;
                nd += 1;
            }
        }
        let w = window.len() as u16;
        for pick in 0..(1u8 << nd) {
            let mut m = base;
            for (d, &slot) in dups[..nd].iter().enumerate() {
                if pick & (1 << d) != 0 {
                    let low = slot & slot.wrapping_neg();
                    m = (m & !low) | (slot & !low);
                }
            }
            if skip < window.len() {
                let mut j = jokers;
                while j != 0 {
                    let jb = j & j.wrapping_neg();
                    self.push_run(out, m | jb, w);
                    j &= j - 1;
                }
            } else {
                self.push_run(out, m, w);
            }
        }
    }

    #[inline]
    fn push_run(&self, out: &mut Melds, m: u8, w: u16) {
        out.push(m);
        if w == 7 {
            out.chinchon |= 1 << (!m).trailing_zeros();
        }
    }
}

impl Card {
    #[inline]
    fn value_in(self, solver: &Solver) -> u16 {
        solver.value[self.index()] as u16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(s: &str) -> Vec<Card> {
        s.split_whitespace().map(|c| c.parse().unwrap()).collect()
    }

    #[test]
    fn melds_are_listed_once() {
        let solver = Solver::new(&ChinchonRules {
            jokers: 2,
            ..ChinchonRules::default()
        });
        for hand in ["1o 2o 3o 4o J J", "5o 5c 5e 5b J", "11o 12o J 1o 2o J"] {
            let c = cards(hand);
            let mut m = Melds::new();
            solver.find_melds(&c, &mut m);
            let total: usize = m.len.iter().map(|&l| l as usize).sum();
            let distinct = m
                .seen
                .iter()
                .map(|w| w.count_ones() as usize)
                .sum::<usize>();
            assert_eq!(total, distinct, "{hand}");
        }
    }
}
