use super::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn cards(s: &str) -> Vec<Card> {
    s.split_whitespace().map(|c| c.parse().unwrap()).collect()
}

fn query(hand: &str, seen: &str, draws: u8) -> Query {
    Query {
        rules: ChinchonRules::default(),
        decks: 1,
        hand: cards(hand),
        seen: cards(seen),
        draws,
    }
}

/// The same expectimax written plainly over physical cards (each copy its own index), with
/// no memory and no counting by copies: what the fast search must equal.
fn brute(solver: &Solver, hand: &[Card], unseen: &[Card], k: u8) -> u128 {
    let closes = |hand: &[Card], c: Card| {
        let mut eight = hand.to_vec();
        eight.push(c);
        solver
            .analyze(&eight)
            .unwrap()
            .discards()
            .iter()
            .any(|d| d.can_close())
    };
    let mut total = 0;
    for (i, &c) in unseen.iter().enumerate() {
        let mut rest = unseen.to_vec();
        rest.remove(i);
        if closes(hand, c) {
            total += falling(rest.len() as u128, k - 1);
        } else if k > 1 {
            let mut eight = hand.to_vec();
            eight.push(c);
            let best = (0..8)
                .map(|d| {
                    let mut next = eight.clone();
                    next.remove(d);
                    brute(solver, &next, &rest, k - 1)
                })
                .max()
                .unwrap_or(0);
            total += best;
        }
    }
    total
}

fn unseen_list(q: &Query) -> Vec<Card> {
    let deck = q.rules.deck.spec(q.rules.jokers, q.decks);
    let mut all = deck.cards();
    for c in q.hand.iter().chain(&q.seen) {
        let i = all.iter().position(|x| x == c).unwrap();
        all.remove(i);
    }
    all
}

#[test]
fn equals_a_plain_enumeration_on_small_stocks() {
    // Many cards seen, so the plain enumeration stays small: 12 unseen cards.
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut some_chance = 0;
    for (decks, jokers) in [(1u8, 0u8), (1, 1), (2, 0)] {
        for _ in 0..6 {
            let mut q = query("1o 1o 1o 1o 1o 1o 1o", "", 2);
            q.decks = decks;
            q.rules.jokers = jokers;
            let deck = q.rules.deck.spec(jokers, decks);
            let mut all = deck.cards();
            for i in (1..all.len()).rev() {
                let j = rng.gen_range(0..=i);
                all.swap(i, j);
            }
            q.hand = all[..7].to_vec();
            q.seen = all[7..all.len() - 12].to_vec();
            let o = odds(&q).unwrap();
            let solver = Solver::new(&q.rules);
            let unseen = unseen_list(&q);
            assert_eq!(unseen.len(), 12);
            for w in &o.within {
                let want = Ratio::new(
                    brute(&solver, &q.hand, &unseen, w.draws),
                    falling(12, w.draws),
                );
                assert_eq!(w.exact, want, "{:?} within {}", q.hand, w.draws);
                some_chance += usize::from(w.exact.num > 0);
            }
        }
    }
    assert!(
        some_chance >= 6,
        "the hands tried must have some chance to close"
    );
}

#[test]
fn three_draws_equal_the_enumeration_too() {
    let mut q = query("1o 2o 3o 7c 7e 11b 5b", "", 3);
    // Leave 9 cards unseen.
    let deck = q.rules.deck.spec(0, 1);
    let rest: Vec<Card> = deck
        .cards()
        .into_iter()
        .filter(|c| !q.hand.contains(c))
        .collect();
    q.seen = rest[..rest.len() - 9].to_vec();
    let o = odds(&q).unwrap();
    let solver = Solver::new(&q.rules);
    let unseen = unseen_list(&q);
    for w in &o.within {
        let want = Ratio::new(
            brute(&solver, &q.hand, &unseen, w.draws),
            falling(9, w.draws),
        );
        assert_eq!(w.exact, want, "within {}", w.draws);
    }
    assert!(o.within[0].p <= o.within[1].p && o.within[1].p <= o.within[2].p);
}

#[test]
fn the_next_card_agrees_with_drawing_it() {
    let q = query("1o 2o 3o 7c 7e 11b 5b", "7b 12c", 1);
    let o = odds(&q).unwrap();
    let solver = Solver::new(&q.rules);
    let unseen = unseen_list(&q);
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let n = 20_000;
    let mut hits = 0;
    for _ in 0..n {
        let c = unseen[rng.gen_range(0..unseen.len())];
        let mut eight = q.hand.clone();
        eight.push(c);
        if solver
            .analyze(&eight)
            .unwrap()
            .discards()
            .iter()
            .any(|d| d.can_close())
        {
            hits += 1;
        }
    }
    let p = o.p_next;
    let se = (p * (1.0 - p) / n as f64).sqrt();
    let seen = hits as f64 / n as f64;
    assert!(
        (seen - p).abs() < 4.0 * se + 1e-9,
        "exact {p}, drawn {seen}"
    );
    // The outs are exactly the cards counted.
    let counted: u32 = o.outs.iter().map(|out| u32::from(out.unseen)).sum();
    assert_eq!(
        Ratio::new(u128::from(counted), o.unseen as u128),
        o.p_next_exact
    );
}

#[test]
fn outs_of_a_hand_one_card_from_closing() {
    // 1o 2o 3o and 7c 7e 7b in melds; 12b must go: any card ≤ 3 closes by keeping it
    // (discarding the rey), and so does anything joining the melds (4o, 7o…).
    let o = odds(&query("1o 2o 3o 7c 7e 7b 12b", "", 1)).unwrap();
    let outs: Vec<String> = o.outs.iter().map(|x| x.card.to_string()).collect();
    for c in ["1c", "2e", "3b", "4o", "7o"] {
        assert!(outs.contains(&c.to_string()), "{c} closes: {outs:?}");
    }
    for c in ["5c", "6e", "10b", "12c"] {
        assert!(
            !outs.contains(&c.to_string()),
            "{c} does not close: {outs:?}"
        );
    }
    assert!(!o.closes_now);
}

#[test]
fn bad_queries_are_refused_by_name() {
    assert_eq!(odds(&query("1o 2o", "", 1)), Err(OddsError::HandSize(2)));
    assert_eq!(
        odds(&query("1o 2o 3o 7c 7e 7b 12b", "", 4)),
        Err(OddsError::Draws(4))
    );
    let e = odds(&query("1o 2o 3o 7c 7e 7b 8b", "", 1)).unwrap_err();
    assert!(e.to_string().contains("`8b` is not in the deck"), "{e}");
    let e = odds(&query("1o 2o 3o 7c 7e 7b 12b", "12b", 1)).unwrap_err();
    assert!(e.to_string().contains("named 2 times"), "{e}");
    let e = odds(&query("1o 2o 3o 7c 7e 7b J", "", 1)).unwrap_err();
    assert!(e.to_string().contains("not in the deck"), "{e}");
}

#[test]
fn odds_each_equals_odds_one_by_one() {
    // A hand of eight's discards, each leaving the same cards unseen, and a query of
    // another table between them: counted together, each answer is its own.
    let eight = cards("1o 2o 3o 7c 7e 5b 10c 12e");
    let mut queries: Vec<Query> = (0..eight.len())
        .map(|i| {
            let hand: Vec<Card> = eight
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &c)| c)
                .collect();
            let seen = vec![eight[i], cards("4c")[0]];
            Query {
                rules: ChinchonRules::default(),
                decks: 1,
                hand,
                seen,
                draws: 3,
            }
        })
        .collect();
    queries.insert(3, query("1c 2c 3c 4c 5c 6c 7c", "", 2));
    queries.push(query("1o 1o", "", 1));
    let together = odds_each(&queries);
    assert_eq!(together.len(), queries.len());
    for (q, t) in queries.iter().zip(&together) {
        match (odds(q), t) {
            (Ok(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}")),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
            (a, b) => panic!("{a:?} against {b:?}"),
        }
    }
}
