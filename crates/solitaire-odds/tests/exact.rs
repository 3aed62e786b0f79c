//! The exact answers: the classic game's fraction, the 39 types of 13 cards, probabilities
//! that add up to 1 exactly, a distribution whose mean agrees with an independent count,
//! and degenerate or huge inputs answered or refused, never a panic.

use tapete_solitaire_odds::{
    count_types, distribution, types, win_count, win_probability, BigUint, Fraction, OddsError,
    Params, MAX_DECK,
};

fn params(suits: u32, values: u32, board: u32, pick: u32) -> Params {
    Params {
        suits,
        values,
        board,
        pick,
    }
}

fn binomial(n: u32, k: u32) -> BigUint {
    if k > n {
        return BigUint::from(0u32);
    }
    (0..k).fold(BigUint::from(1u32), |c, i| c * (n - i) / (i + 1))
}

fn ratio(n: BigUint, d: BigUint) -> Fraction {
    Fraction::new(n, d).expect("a denominator")
}

#[test]
fn the_classic_game() {
    let p = Params::default();
    let f = win_probability(&p).expect("the defaults are valid");
    // 52 cards, 13 on the table, 13 third cards among the 39 left.
    assert_eq!(f.to_string(), "964444044208/262190765217675");
    assert!((f.to_f64() - 0.003_678_405_848_532_853).abs() < 1e-17);
    let c = win_count(&p).expect("valid");
    assert_eq!(c.total, binomial(52, 13) * binomial(39, 13));
    assert_eq!(ratio(c.winning, c.total), f);
    assert_eq!(Params::real_game(4, 13, 13), Ok(p));
}

#[test]
fn thirteen_cards_have_39_types() {
    let p = Params::default();
    assert_eq!(count_types(4, 13, 13), Some(39));
    let ts = types(&p).expect("valid");
    assert_eq!(ts.len(), 39);
    assert_eq!(ts[0].parts, [4, 4, 4, 1]);
    assert_eq!(ts[38].parts, [1; 13]);
    for t in &ts {
        assert_eq!(t.parts.iter().sum::<u32>(), 13);
        assert!(t.parts.windows(2).all(|w| w[0] >= w[1]));
        // A stack of four holds the whole value: nothing left to pick it with.
        if t.parts[0] == 4 {
            assert!(t.win.is_zero(), "{:?}", t.parts);
        } else {
            assert!(!t.win.is_zero(), "{:?}", t.parts);
        }
    }
    // A001400 further on: partitions of n into at most 4 parts.
    let a001400 = [1u64, 1, 2, 3, 5, 6, 9, 11, 15, 18, 23, 27, 34, 39, 47, 54];
    for (n, &want) in a001400.iter().enumerate() {
        assert_eq!(count_types(1_000, 4, n as u32), Some(want), "n = {n}");
    }
}

#[test]
fn type_probabilities_add_up_to_one_exactly() {
    for p in [
        Params::default(),
        params(8, 13, 26, 26),
        params(4, 10, 7, 11),
        params(6, 6, 20, 5),
    ] {
        let ts = types(&p).expect("valid");
        let total: Fraction = ts.iter().map(|t| t.probability.clone()).sum::<Fraction>();
        assert_eq!(total, Fraction::one(), "{p:?}");
        let tables: BigUint = ts.iter().map(|t| t.tables.clone()).sum();
        assert_eq!(tables, binomial(p.suits * p.values, p.board), "{p:?}");
        // Σ P(type) · P(win | type) is the answer.
        let win: Fraction = ts.iter().map(|t| &t.probability * &t.win).sum::<Fraction>();
        assert_eq!(win, win_probability(&p).expect("valid"), "{p:?}");
    }
}

/// The expected stacks and cards left, counted value by value (linearity), without types:
/// a value has `j` cards on the table with chance `C(s, j) C(D − s, b − j) / C(D, b)`, and
/// is missed by every pick with chance `C(L − (s − j), pick) / C(L, pick)`.
fn means_by_values(p: &Params) -> (Fraction, Fraction) {
    let (s, d, b) = (p.suits, p.suits * p.values, p.board);
    let l = d - b;
    let den = binomial(d, b) * binomial(l, p.pick);
    let (mut stacks, mut cards) = (BigUint::from(0u32), BigUint::from(0u32));
    for j in 1..=s.min(b) {
        let on_table = binomial(s, j) * binomial(d - s, b - j);
        let missed = binomial(l - (s - j), p.pick);
        let both = on_table * missed * p.values;
        cards += &both * j;
        stacks += both;
    }
    (ratio(stacks, den.clone()), ratio(cards, den))
}

#[test]
fn the_distribution_adds_up_and_its_means_agree() {
    for p in [
        Params::default(),
        params(4, 13, 20, 10),
        params(8, 13, 26, 26),
        params(3, 7, 9, 4),
        params(4, 13, 13, 0),
    ] {
        let d = distribution(&p).expect("valid");
        assert_eq!(d.stacks.iter().sum::<Fraction>(), Fraction::one(), "{p:?}");
        assert_eq!(d.cards.iter().sum::<Fraction>(), Fraction::one(), "{p:?}");
        let win = win_probability(&p).expect("valid");
        assert_eq!(d.stacks[0], win, "{p:?}: nothing left is a win");
        assert_eq!(d.cards[0], win, "{p:?}");
        let (stacks, cards) = means_by_values(&p);
        assert_eq!(d.mean_stacks(), stacks, "{p:?}");
        assert_eq!(d.mean_cards(), cards, "{p:?}");
    }
    // Nothing picked: the whole table stays.
    let d = distribution(&params(4, 13, 13, 0)).expect("valid");
    assert_eq!(d.cards[13], Fraction::one());
}

#[test]
fn degenerate_inputs_are_answered() {
    // An empty table is cleared already.
    for pick in [0, 1, 13, 52] {
        let p = params(4, 13, 0, pick);
        assert_eq!(win_probability(&p), Ok(Fraction::one()), "{p:?}");
        let d = distribution(&p).expect("valid");
        assert_eq!((d.stacks.len(), d.cards.len()), (1, 1));
    }
    // Nothing picked cannot clear a table.
    let p = params(4, 13, 13, 0);
    assert_eq!(win_probability(&p), Ok(Fraction::zero()));
    // The whole deck on the table: every stack is full, nothing can be won.
    assert_eq!(win_probability(&params(4, 13, 52, 0)), Ok(Fraction::zero()));
    // One card on the table, every other card picked: won unless it was a lone suit.
    assert_eq!(win_probability(&params(4, 13, 1, 51)), Ok(Fraction::one()));
    assert_eq!(win_probability(&params(1, 13, 1, 12)), Ok(Fraction::zero()));
    // One value: any table is one stack, won iff a card is left and picked.
    let f = win_probability(&params(5, 1, 2, 1)).expect("valid");
    assert_eq!(f, Fraction::one());
}

#[test]
fn impossible_inputs_are_refused_by_name() {
    assert_eq!(
        win_probability(&params(0, 13, 13, 13)),
        Err(OddsError::NoSuits)
    );
    assert_eq!(
        win_probability(&params(4, 0, 0, 0)),
        Err(OddsError::NoValues)
    );
    assert_eq!(
        win_probability(&params(4, 13, 53, 0)),
        Err(OddsError::BoardTooLarge {
            board: 53,
            deck: 52
        })
    );
    let e = win_probability(&params(4, 13, 13, 40)).expect_err("too many picked");
    assert_eq!(
        e,
        OddsError::PickTooLarge {
            pick: 40,
            board: 13,
            deck: 52,
            left: 39
        }
    );
    assert!(e.to_string().contains("only 39 are left"), "{e}");
    let huge = params(u32::MAX, u32::MAX, u32::MAX, u32::MAX);
    let e = win_probability(&huge).expect_err("huge");
    assert!(matches!(e, OddsError::DeckTooLarge { .. }), "{e:?}");
    assert!(e.to_string().contains(&MAX_DECK.to_string()), "{e}");
    assert!(matches!(
        types(&params(10, 100, 500, 100)),
        Err(OddsError::TooManyTypes { .. })
    ));
    // 16,928 types of 40 cards with stacks up to 10: the win in a second or two, but not
    // 600 picks, nor the distribution, which carries a column per count left.
    assert!(matches!(
        win_probability(&params(10, 100, 40, 600)),
        Err(OddsError::TooMuchWork { .. })
    ));
    assert!(matches!(
        distribution(&params(10, 100, 40, 300)),
        Err(OddsError::TooMuchWork { .. })
    ));
    assert!(Params::real_game(0, 13, 13).is_err());
    assert!(Params::real_game(4, 13, 60).is_err());
}

#[test]
fn every_small_game_is_answered_or_refused_without_panic() {
    for suits in 1..=5u32 {
        for values in 1..=5 {
            let deck = suits * values;
            for board in 0..=deck + 1 {
                for pick in 0..=(deck + 2).saturating_sub(board) {
                    let p = params(suits, values, board, pick);
                    let valid = board + pick <= deck;
                    let f = win_probability(&p);
                    assert_eq!(f.is_ok(), valid, "{p:?}");
                    let Ok(f) = f else { continue };
                    assert!(f <= Fraction::one(), "{p:?}");
                    let d = distribution(&p).expect("valid");
                    assert_eq!(d.stacks[0], f, "{p:?}");
                    assert_eq!(d.stacks.iter().sum::<Fraction>(), Fraction::one());
                    let ts = types(&p).expect("valid");
                    assert_eq!(Some(ts.len() as u64), count_types(suits, values, board));
                }
            }
        }
    }
}

#[test]
fn bigger_decks_stay_exact() {
    // Two French decks: 104 cards, 26 on the table, the real game's 26 third cards.
    let p = Params::real_game(8, 13, 26).expect("a game");
    assert_eq!(p.pick, 26);
    let f = win_probability(&p).expect("valid");
    assert!(f.denom().bits() > 64, "needs big integers: {f}");
    let x = f.to_f64();
    assert!(x > 0.0 && x < 1.0, "{x}");
}
