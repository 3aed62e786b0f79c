//! `basico`: the source's computer player, as the spec's last section describes it.
//!
//! - **Draw.** It takes the pile's top card only if that lets it close, or if the card
//!   joins two of its unmatched cards into a meld; otherwise it draws from the stock. (So
//!   it never takes the fourth card of a group it already has, as the source notes.)
//! - **Close.** As soon as the rules allow, with the best close it has (chinchón, menos
//!   diez, the fewest points).
//! - **Discard.** Never a matched card. Each unmatched card gets a counter of its positive
//!   relations with the other cards in hand: +2 for each card of its number when no other
//!   copy of that number has been seen discarded, +1 when some has; +1 for each card of its
//!   suit two places away in the sequence whose middle card is still live, and +1 for each
//!   card one place away whose next card beyond (the one that would make three) is still
//!   live. It discards the lowest counter and, among equals, the highest number, then the
//!   first in hand order.
//!
//! Matched and unmatched come from the meld solver's best arrangement. The source had no
//! jokers and no meter cartas; here a joker is kept while any other card is unmatched, and
//! after a close it lays every card that lowers its count.

use crate::action::Action;
use crate::card::{Card, Hand};
use crate::game::ChinchonGame;
use crate::meld::Solver;
use crate::rules::ChinchonRules;
use crate::view::{ChinchonView, Phase};
use rand_chacha::ChaCha8Rng;
use tapete_table::Bot;

/// The source's rule-based player. Deterministic: it uses no randomness.
#[derive(Clone, Debug, Default)]
pub struct Basico {
    solver: Option<(ChinchonRules, Solver)>,
}

/// What the player knows of the cards: its hand, what has been seen discarded, the deck.
struct Knowledge<'a> {
    view: &'a ChinchonView,
    seen: Hand,
    hand: Hand,
}

impl Knowledge<'_> {
    /// Copies of `x` seen discarded that are not among the player's own.
    fn seen_elsewhere(&self, x: Card) -> u8 {
        self.seen.count(x).saturating_sub(self.hand.count(x))
    }

    /// Whether no copy of `x` is left for the player to get: every copy not in its hand
    /// has been seen discarded.
    fn dead(&self, x: Card) -> bool {
        let deck = self.view.rules.deck_for(self.view.seats);
        let copies = deck.copies(x);
        copies.saturating_sub(self.hand.count(x)) <= self.seen_elsewhere(x)
    }
}

impl Basico {
    fn solver(&mut self, rules: &ChinchonRules) -> Solver {
        match &self.solver {
            Some((r, s)) if r == rules => *s,
            _ => {
                let s = Solver::new(rules);
                self.solver = Some((*rules, s));
                s
            }
        }
    }

    /// The relation counter of `card` (one copy of it) among the cards of `hand`.
    pub fn counter(view: &ChinchonView, solver: &Solver, hand: &Hand, card: Card) -> u32 {
        let k = Knowledge {
            view,
            seen: view.seen_discarded(),
            hand: *hand,
        };
        counter(&k, solver, card)
    }

    fn draw(&self, view: &ChinchonView, legal: &[Action], solver: &Solver) -> Action {
        let Some(top) = view.pile_top() else {
            return Action::Robo;
        };
        if !legal.contains(&Action::Tomo) {
            return Action::Robo;
        }
        let mut with = view.hand;
        if with.add(top).is_err() {
            return Action::Robo;
        }
        let first_round =
            view.rules.no_close_first_turn && (view.turns as usize) < view.active().count();
        if !first_round && solver.analyze_hand(&with).is_ok_and(|a| a.can_close()) {
            return Action::Tomo;
        }
        let Ok(now) = solver.analyze_hand(&view.hand) else {
            return Action::Robo;
        };
        let loose = now.unmatched();
        for (i, &a) in loose.iter().enumerate() {
            for &b in &loose[i + 1..] {
                if solver
                    .analyze(&[a, b, top])
                    .is_ok_and(|m| m.deadwood() == 0)
                {
                    return Action::Tomo;
                }
            }
        }
        Action::Robo
    }

    fn discard(&self, view: &ChinchonView, legal: &[Action], solver: &Solver) -> Action {
        let fallback = legal.first().copied().unwrap_or(Action::Listo);
        let Ok(a) = solver.analyze_hand(&view.hand) else {
            return fallback;
        };
        let best_close = a
            .discards()
            .iter()
            .filter(|d| d.close.is_some() && legal.contains(&Action::Cierro(d.card)))
            .max_by_key(|d| {
                (
                    d.close.map_or(0, |c| c.rank()),
                    std::cmp::Reverse(d.deadwood),
                )
            });
        if let Some(d) = best_close {
            return Action::Cierro(d.card);
        }
        let k = Knowledge {
            view,
            seen: view.seen_discarded(),
            hand: view.hand,
        };
        let loose = a.unmatched();
        let real: Vec<Card> = loose.iter().copied().filter(|c| !c.is_joker()).collect();
        let all: Vec<Card> = view.hand.iter().filter(|c| !c.is_joker()).collect();
        let candidates = if !real.is_empty() {
            real
        } else if !loose.is_empty() {
            loose
        } else if !all.is_empty() {
            all
        } else {
            view.hand.to_vec()
        };
        let mut best: Option<(u32, u8, Card)> = None;
        for &c in &candidates {
            let score = counter(&k, solver, c);
            let number = c.number().unwrap_or(0);
            let better = match best {
                None => true,
                Some((s, n, _)) => score < s || (score == s && number > n),
            };
            if better {
                best = Some((score, number, c));
            }
        }
        best.map_or(fallback, |(_, _, c)| Action::Descarto(c))
    }

    fn lay(&self, view: &ChinchonView, legal: &[Action], solver: &Solver) -> Action {
        let now = solver
            .analyze_hand(&view.hand)
            .map_or(u16::MAX, |a| a.deadwood());
        let mut best: Option<(u16, Action)> = None;
        for &a in legal {
            let Action::Meto(c) = a else { continue };
            let mut rest = view.hand;
            rest.remove(c);
            let dw = solver
                .analyze_hand(&rest)
                .map_or(u16::MAX, |x| x.deadwood());
            if dw < now && best.is_none_or(|(b, _)| dw < b) {
                best = Some((dw, a));
            }
        }
        best.map_or(Action::Listo, |(_, a)| a)
    }
}

fn counter(k: &Knowledge, solver: &Solver, card: Card) -> u32 {
    let (Some(number), Some(suit)) = (card.number(), card.suit()) else {
        return u32::MAX;
    };
    let seq_len = solver.seq_len();
    let rank = solver.rank(card);
    let mut others = k.hand;
    others.remove(card);
    let mut total = 0u32;
    for d in others.iter() {
        if d.is_joker() {
            continue;
        }
        if d.number() == Some(number) {
            let some_gone = tapete_cards::Suit::ALL
                .iter()
                .any(|&s| Card::new(number, s).is_some_and(|x| k.seen_elsewhere(x) > 0));
            total += if some_gone { 1 } else { 2 };
            continue;
        }
        if d.suit() != Some(suit) {
            continue;
        }
        let (Some(rc), Some(rd)) = (rank, solver.rank(d)) else {
            continue;
        };
        let link_rank = match rd as i32 - rc as i32 {
            2 | -2 => (rc as i32 + rd as i32) / 2,
            1 => rd as i32 + 1,
            -1 => rd as i32 - 1,
            _ => continue,
        };
        if link_rank < 0 || link_rank >= seq_len as i32 {
            continue;
        }
        let link = (0..=12u8)
            .filter_map(|n| Card::new(n, suit))
            .find(|x| solver.rank(*x) == Some(link_rank as u8));
        if let Some(x) = link {
            if !k.dead(x) {
                total += 1;
            }
        }
    }
    total
}

impl Bot<ChinchonGame> for Basico {
    fn act(&mut self, view: &ChinchonView, legal: &[Action], _rng: &mut ChaCha8Rng) -> Action {
        let solver = self.solver(&view.rules);
        let fallback = legal.first().copied().unwrap_or(Action::Listo);
        let a = match view.phase {
            Phase::Draw => self.draw(view, legal, &solver),
            Phase::Discard => self.discard(view, legal, &solver),
            Phase::LayOff => self.lay(view, legal, &solver),
            Phase::Over => fallback,
        };
        if legal.contains(&a) {
            a
        } else {
            fallback
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::ChinchonDeck;
    use crate::game::Deal;
    use tapete_cards::rng_from_seed;
    use tapete_table::Game;

    fn h(s: &str) -> Hand {
        s.parse().unwrap()
    }

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    /// A two-player game where seat 0 holds `mine`, seat 1 has just discarded `top`, and
    /// it is seat 0's turn to draw. The muestra is a copas figure; seat 1 holds high bastos.
    fn facing(mine: &str, top: &str) -> ChinchonGame {
        let mine = h(mine);
        let top = c(top);
        let deck = ChinchonRules::default().deck_for(2).multiset();
        let mut rest = deck.minus(&mine).unwrap();
        rest.remove(top);
        let muestra = rest
            .iter()
            .find(|x| matches!(x.number(), Some(10..=12)) && x.suit() == Some(crate::Suit::Copas))
            .unwrap();
        rest.remove(muestra);
        let theirs: Vec<Card> = rest.to_vec().into_iter().rev().take(6).collect();
        let mut seat1 = Hand::from_cards(&theirs).unwrap();
        seat1.add(top).unwrap();
        let deal = Deal {
            hands: vec![mine, seat1],
            muestra,
            stock_top: vec![],
            scores: vec![],
            mano: 1,
        };
        let mut g = ChinchonGame::arranged(&ChinchonRules::default(), &deal, 3).unwrap();
        g.apply(1, &Action::Robo).unwrap();
        g.apply(1, &Action::Descarto(top)).unwrap();
        g
    }

    fn decide(g: &ChinchonGame, seat: usize) -> Action {
        let legal = g.legal_actions(seat);
        Basico::default().act(&g.view(seat), &legal, &mut rng_from_seed(0))
    }

    #[test]
    fn takes_the_discard_only_to_join_two_unmatched_cards_or_to_close() {
        assert_eq!(
            decide(&facing("1o 2o 7c 7e 11b 12e 4b", "3o"), 0),
            Action::Tomo
        );
        assert_eq!(
            decide(&facing("1o 2o 7c 7e 11b 12e 4b", "7b"), 0),
            Action::Tomo
        );
        assert_eq!(
            decide(&facing("1o 2o 7c 7e 11b 12e 4b", "6b"), 0),
            Action::Robo
        );
        // Three 5s already: the fourth is not taken (the source's own example).
        assert_eq!(
            decide(&facing("5o 5c 5e 1o 3b 10c 12e", "5b"), 0),
            Action::Robo
        );
        // Six matched and the 2e lets it close.
        assert_eq!(
            decide(&facing("11c 11o 11e 7c 7o 7e 10b", "2e"), 0),
            Action::Tomo
        );
    }

    #[test]
    fn closes_as_soon_as_it_can_with_the_best_close() {
        let mut g = facing("11c 11o 11e 7c 7o 7e 10b", "2e");
        g.apply(0, &Action::Tomo).unwrap();
        assert_eq!(decide(&g, 0), Action::Cierro(c("10b")));
    }

    #[test]
    fn discards_the_unmatched_card_with_the_lowest_counter_then_the_highest() {
        let mut g = facing("1o 2o 3o 7c 7e 11b 4b", "6e");
        g.apply(0, &Action::Tomo).unwrap();
        let view = g.view(0);
        let solver = Solver::new(&view.rules);
        let count = |s: &str| Basico::counter(&view, &solver, &view.hand, c(s));
        // 1o 2o 3o are matched. 7c: the 7e, no 7 seen discarded (+2).
        assert_eq!(count("7c"), 2);
        // 7e: the 7c (+2), and 6e one below, with 5e beyond still live (+1).
        assert_eq!(count("7e"), 3);
        // 6e: 7e one above, with the sota de espadas beyond still live (+1).
        assert_eq!(count("6e"), 1);
        assert_eq!((count("11b"), count("4b")), (0, 0));
        assert_eq!(
            decide(&g, 0),
            Action::Descarto(c("11b")),
            "of two 0s, the higher"
        );
    }

    #[test]
    fn a_link_seen_discarded_gives_no_point() {
        // 5e two above 3e: +1 while 4e is live; once 4e is discarded, nothing.
        let g = facing("3e 5e 4o 5o 6o 11b 12c", "4e");
        let view = g.view(0);
        let solver = Solver::new(&view.rules);
        let mut hand = view.hand;
        hand.add(c("7b")).unwrap();
        assert_eq!(Basico::counter(&view, &solver, &hand, c("3e")), 0);
        let fresh = facing("3e 5e 4o 5o 6o 11b 12c", "6b");
        let view = fresh.view(0);
        assert_eq!(Basico::counter(&view, &solver, &hand, c("3e")), 1);
    }
}
