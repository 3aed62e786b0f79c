//! Properties of random games: every card is somewhere exactly once at every step (hands +
//! table + piles + stock = the deck), others never see a hidden card, and resampling any
//! seat's view gives a game that shows that seat the same view.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tapete_table::Game;
use tapete_tikki::Resample;
use tapete_tikki::TikkiCards;
use tapete_tikki::{Cards, TikkiGame, TikkiRules};

fn conserved(g: &TikkiGame) -> Result<(), TestCaseError> {
    let all = g.all_cards();
    let set: Cards = all.iter().copied().collect();
    prop_assert_eq!(all.len(), set.len(), "a card is in two places");
    prop_assert_eq!(set, Cards::deck(g.rules().top), "cards went missing");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn cards_are_conserved_and_views_resample(
        seed in any::<u64>(),
        seats in 2usize..=5,
        small in any::<bool>(),
        retreat in any::<bool>(),
    ) {
        let top = if small { (7 * seats).div_ceil(4) as u8 } else { 13 };
        let rules = TikkiRules { top, retreat, rounds: 1, ..TikkiRules::default() };
        let mut g = TikkiGame::new(&rules, seats, seed).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        conserved(&g)?;
        let mut steps = 0;
        while let [seat] = g.to_act().seats()[..] {
            let legal = g.legal_actions(seat);
            let a = legal[rng.gen_range(0..legal.len())];
            g.apply(seat, &a).unwrap();
            conserved(&g)?;
            if g.outcome().is_none() {
                let who = rng.gen_range(0..seats);
                let view = g.view(who);
                let other = TikkiGame::resample(&view, &mut rng).unwrap();
                prop_assert_eq!(&other.view(who), &view);
                conserved(&other)?;
                // Others' views hold no hand but their own.
                for s in (0..seats).filter(|&s| s != who) {
                    prop_assert!(view.hand.intersection(g.hand(s)).is_empty());
                }
            }
            steps += 1;
            prop_assert!(steps < 10_000);
        }
        prop_assert!(g.outcome().is_some());
    }
}

#[test]
fn small_decks_too_small_for_the_table_are_refused() {
    let rules = TikkiRules {
        top: 8,
        ..TikkiRules::default()
    };
    let e = TikkiGame::new(&rules, 5, 0).unwrap_err().to_string();
    assert!(e.contains("too few to deal 7 to each of 5 players"), "{e}");
    assert!(e.contains("ranks 1–9 at least"), "{e}");
    assert!(TikkiGame::new(&TikkiRules { top: 9, ..rules }, 5, 0).is_ok());
    assert!(TikkiGame::new(&TikkiRules::default(), 6, 0).is_err());
    assert!(TikkiGame::new(&TikkiRules::default(), 1, 0).is_err());
}
