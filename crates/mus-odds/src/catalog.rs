//! Every jugada of a mode with what each lance needs to know about it, and the binomial
//! weights that count how many ways a deck can deal it.

use tapete_cards::binomial;
use tapete_mus::rules::{self, Lance};
use tapete_mus::{Jugada, Mode, Rank};

/// Cards per rank, indexed by `Rank as usize` (ranks a mode does not use stay 0).
pub type Counts = [u8; 10];

/// Key of the fourth lance that orders juego and punto at once: a hand with juego ranks
/// above every hand without, juego hands by juego order, the others by their punto.
pub const JUEGO_BASE: u32 = 64;

/// One jugada, precomputed for counting.
#[derive(Clone, Debug)]
pub struct Entry {
    pub jugada: Jugada,
    /// Cards of each rank.
    pub counts: Counts,
    /// Its weight's factors as places in a [`DeckTable`]: `rank * 5 + how many` for each
    /// rank it holds, padded with place 0 (C(n, 0) = 1) to four.
    slots: [u8; 4],
    /// Strength per lance (higher is better): grande, chica, pares (0 = none).
    pub grande: u32,
    pub chica: u32,
    pub pares: u32,
    /// Juego and punto in one order: `JUEGO_BASE + juego strength`, or the punto value.
    pub cuarto: u32,
    /// Cuenta for its holder: pares 1/2/3, juego 3 (31) or 2.
    pub pares_cuenta: u8,
    pub juego_cuenta: u8,
}

impl Entry {
    /// True when it holds pares.
    pub fn has_pares(&self) -> bool {
        self.pares > 0
    }

    /// True when it holds juego.
    pub fn has_juego(&self) -> bool {
        self.cuarto >= JUEGO_BASE
    }

    /// Strength in the given lance (juego and punto share [`Entry::cuarto`]).
    pub fn strength(&self, lance: Lance) -> u32 {
        match lance {
            Lance::Grande => self.grande,
            Lance::Chica => self.chica,
            Lance::Pares => self.pares,
            Lance::Juego | Lance::Punto => self.cuarto,
        }
    }

    /// Ways to deal this jugada from a deck with `deck` cards per rank.
    #[inline]
    pub fn weight(&self, deck: &Counts) -> u64 {
        self.weight_in(&deck_table(deck))
    }

    /// As [`Entry::weight`], from the deck's table of binomials: four lookups, no branch
    /// (the counting asks this of every jugada for each of many decks).
    #[inline]
    pub fn weight_in(&self, t: &DeckTable) -> u64 {
        let [a, b, c, d] = self.slots;
        t[a as usize] * t[b as usize] * t[c as usize] * t[d as usize]
    }

    /// True when a deck with `deck` cards per rank can deal it.
    #[inline]
    pub fn fits(&self, deck: &Counts) -> bool {
        self.counts.iter().zip(deck).all(|(k, n)| k <= n)
    }
}

/// A deck's binomials, `t[rank * 5 + k]` = C(cards of that rank, k) for k up to 4: a
/// jugada's weight is the product of four of them ([`Entry::weight_in`]).
pub type DeckTable = [u64; 50];

/// The binomials of a deck with `deck` cards per rank.
pub fn deck_table(deck: &Counts) -> DeckTable {
    let mut t = [0u64; 50];
    for (r, &n) in deck.iter().enumerate() {
        for k in 0..5 {
            t[r * 5 + k] = binomial(n as usize, k);
        }
    }
    t
}

/// All jugadas of a mode (330 or 715), in the engine's grande order, high to low.
#[derive(Clone, Debug)]
pub struct Catalog {
    pub mode: Mode,
    pub real31: bool,
    pub entries: Vec<Entry>,
}

impl Catalog {
    /// The catalogue for a mode, with 31 real on or off.
    pub fn new(mode: Mode, real31: bool) -> Catalog {
        let entries = Jugada::all(mode)
            .into_iter()
            .map(|j| {
                let mut counts = [0u8; 10];
                for r in j.ranks() {
                    counts[r as usize] += 1;
                }
                let mut slots = [0u8; 4];
                for (slot, r) in slots.iter_mut().zip((0..10).filter(|&r| counts[r] > 0)) {
                    *slot = (r * 5) as u8 + counts[r];
                }
                let juego = rules::juego_strength(j, real31);
                Entry {
                    jugada: j,
                    counts,
                    slots,
                    grande: rules::grande(j),
                    chica: rules::chica(j),
                    pares: rules::pares_strength(j),
                    cuarto: if juego > 0 {
                        JUEGO_BASE + juego
                    } else {
                        j.value() as u32
                    },
                    pares_cuenta: rules::pares(j).map_or(0, |p| p.kind.cuenta()),
                    juego_cuenta: rules::juego_cuenta(j),
                }
            })
            .collect();
        Catalog {
            mode,
            real31,
            entries,
        }
    }

    /// A full 40-card deck's cards per rank in this mode.
    pub fn full_deck(&self) -> Counts {
        let mut c = [0u8; 10];
        for &r in Rank::in_mode(self.mode) {
            c[r as usize] = r.copies(self.mode);
        }
        c
    }

    /// Index of a jugada in the catalogue.
    pub fn index_of(&self, j: Jugada) -> Option<usize> {
        self.entries.iter().position(|e| e.jugada == j)
    }

    /// The deck left after removing `hands` from a full deck, or `None` if they do not fit.
    pub fn deck_without(&self, hands: &[Jugada]) -> Option<Counts> {
        let mut deck = self.full_deck();
        for h in hands {
            for r in h.ranks() {
                let slot = &mut deck[r as usize];
                *slot = slot.checked_sub(1)?;
            }
        }
        Some(deck)
    }
}

/// Cards left in a deck.
pub fn total(deck: &Counts) -> usize {
    deck.iter().map(|&c| c as usize).sum()
}

/// `deck` less the cards of `e`.
#[inline]
pub fn minus(deck: &Counts, e: &Entry) -> Counts {
    let mut d = *deck;
    for (slot, k) in d.iter_mut().zip(e.counts) {
        *slot -= k;
    }
    d
}
