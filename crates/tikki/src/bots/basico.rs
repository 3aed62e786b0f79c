//! `basico`: a greedy, sensible player.
//!
//! Laying, it weighs what the trick is worth — the points its cards would add to its own
//! pile (its own combination's cards counted exactly against the pile, every other card on
//! the table or still to come as one point) — against the combination it would spend. It
//! reads the table: a player who laid three cards may hold three of a kind or a run, so
//! it contests that only with as much; one card each lets a pair win, and so does a dump
//! of four or more (rarely a combination). It spends its best combination when that is
//! strong enough and the trick worth it (the stronger the combination, the more the trick
//! must be worth, so strong hands wait for rich tricks), and otherwise sheds its lowest
//! card outside its best combination. In the retreat round it takes its best cards back
//! when the others' shown cards already beat its own lay.

use crate::action::Action;
use crate::card::Cards;
use crate::card::TikkiCards;
use crate::combo::{best, Combination, Kind};
use crate::game::TikkiGame;
use crate::view::{Phase, TikkiView};
use rand_chacha::ChaCha8Rng;
use tapete_table::Bot;

/// What basico reads of a trick before it lays.
#[derive(Clone, Copy, Debug)]
pub struct Trick {
    /// Cards the others have laid on the table.
    pub on_table: usize,
    /// Others in the trick still to lay.
    pub to_come: usize,
    /// The least combination that can contest what they laid ([`Basico::to_beat`]).
    pub need: Kind,
    /// The stock is empty: these are the last cards.
    pub last_cards: bool,
}

/// The greedy player described in the module docs.
#[derive(Clone, Copy, Debug, Default)]
pub struct Basico;

impl Basico {
    /// The lay `basico` chooses from `view` (its turn to lay).
    pub fn lay(view: &TikkiView) -> Cards {
        let Some(me) = view.seat else {
            return Cards::EMPTY;
        };
        let hand = view.hand;
        let Some(b) = best(hand) else {
            return Cards::EMPTY;
        };
        let others: Vec<usize> = (0..view.seats)
            .filter(|&s| s != me && view.in_trick.get(s).copied().unwrap_or(false))
            .collect();
        let laid = |s: usize| view.laid_counts.get(s).copied().unwrap_or(0);
        let on_table: usize = others.iter().map(|&s| laid(s)).sum();
        let to_come = others.iter().filter(|&&s| laid(s) == 0).count();
        let need = others
            .iter()
            .map(|&s| Basico::to_beat(laid(s)))
            .max()
            .unwrap_or(Kind::Pair);
        let pile = view.piles.get(me).copied().unwrap_or_default();
        let trick = Trick {
            on_table,
            to_come,
            need,
            last_cards: view.stock == 0,
        };
        Basico::spend_or_shed(hand, &b, pile, &trick)
    }

    /// Basico's choice once the table is read: its best combination `b` when that can
    /// contest the trick and the trick is worth it to a player with `pile` (the stronger
    /// the combination, the more it must be worth), else its weakest card outside `b`.
    /// The one rule both the engine's view and a search's array table call.
    pub fn spend_or_shed(hand: Cards, b: &Combination, pile: Cards, trick: &Trick) -> Cards {
        let mine = pile.union(b.cards).pile_points() - pile.pile_points();
        let worth = mine as usize + trick.on_table + trick.to_come;
        let bar = 2 + b.kind as usize;
        if b.kind >= trick.need && (worth >= bar || trick.last_cards) {
            return b.cards;
        }
        let shed = hand
            .difference(b.cards)
            .iter()
            .chain(hand.iter())
            .min_by_key(|c| c.strength());
        shed.map_or(Cards::EMPTY, |c| std::iter::once(c).collect())
    }

    /// The least combination basico contests a lay of `count` cards with: one card (or
    /// none yet) falls to a pair; two may be a 2-card straight flush; three may be three
    /// of a kind or a run. Four or more cards is rarely a combination (four of a kind and
    /// the longer straight flushes are rare): it reads as cards dumped at random, which a
    /// pair usually beats.
    pub fn to_beat(count: usize) -> Kind {
        match count {
            2 => Kind::StraightFlush2,
            3 => Kind::ThreeOfAKind,
            _ => Kind::Pair,
        }
    }

    /// The retreat decision: take back the best face-down card, showing the weakest, while
    /// another player's shown cards beat the whole lay.
    pub fn retreat(view: &TikkiView) -> Action {
        let Some(me) = view.seat else {
            return Action::Keep;
        };
        let mine = best(view.laid).map_or(0, |c| c.score());
        let beaten = (0..view.seats)
            .filter(|&s| s != me)
            .filter_map(|s| view.revealed.get(s))
            .any(|&r| best(r).is_some_and(|c| c.score() > mine));
        let down = view
            .laid
            .difference(view.revealed.get(me).copied().unwrap_or_default());
        if !beaten || down.len() < 2 {
            return Action::Keep;
        }
        let back = down.iter().max_by_key(|c| c.strength());
        let reveal = down.iter().min_by_key(|c| c.strength());
        match (back, reveal) {
            (Some(back), Some(reveal)) if back != reveal => Action::Retreat { back, reveal },
            _ => Action::Keep,
        }
    }
}

impl Bot<TikkiGame> for Basico {
    fn act(&mut self, view: &TikkiView, legal: &[Action], _rng: &mut ChaCha8Rng) -> Action {
        let wanted = match view.phase {
            Phase::Lay => Action::Lay(Basico::lay(view)),
            Phase::Retreat => Basico::retreat(view),
            Phase::Over => Action::Keep,
        };
        if legal.contains(&wanted) {
            wanted
        } else {
            legal[0]
        }
    }
}
