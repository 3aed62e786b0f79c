//! The platform's conformance checks (`tapete_table::conformance`) on tikki, with its
//! resampler: 2–5 seats, the full and the smaller deck, the retreat round on and off.

use tapete_table::conformance::{random_games, Check};
use tapete_table::Resample;
use tapete_tikki::{TikkiGame, TikkiRules};

#[test]
fn tikki_conforms() {
    let mut i = 0u64;
    for seats in 2..=5usize {
        for top in [13u8, (7 * seats).div_ceil(4) as u8 + 1] {
            for retreat in [false, true] {
                let rules = TikkiRules {
                    top,
                    retreat,
                    rounds: 2,
                    ..TikkiRules::default()
                };
                let games = 6;
                let check = Check {
                    seed: 1000 * i,
                    resample: Some(TikkiGame::resample),
                    resample_every: 3,
                    ..Check::new(rules, seats, games)
                };
                i += 1;
                let report = random_games::<TikkiGame>(&check)
                    .unwrap_or_else(|e| panic!("{seats} seats, {rules:?}: {e}"));
                assert_eq!(report.games, games);
                assert!(report.refused > 0 && report.resamples >= 5, "{report:?}");
                assert!(report.resamples_differing > 0, "{report:?}");
            }
        }
    }
}
