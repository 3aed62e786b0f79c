//! The platform's conformance checks (`tapete_table::conformance`) on Chinchón, with its
//! resampler, for several table sizes and options.

use tapete_chinchon::rules::{MeterCartas, Reenganche};
use tapete_chinchon::{ChinchonGame, ChinchonRules, DeckSize};
use tapete_table::conformance::{random_games, Check};
use tapete_table::Resample;

#[test]
fn chinchon_conforms() {
    // (options, seats, games): fewer games where every step checks more seats.
    let tables = [
        (
            ChinchonRules {
                target: 50,
                ..ChinchonRules::default()
            },
            2,
            12,
        ),
        (
            ChinchonRules {
                jokers: 2,
                deck: DeckSize::FortyEight,
                meter_cartas: MeterCartas::NotAfterMenosDiez,
                allow_false_close: true,
                ..ChinchonRules::default()
            },
            4,
            20,
        ),
        (
            ChinchonRules {
                reenganche: Reenganche::SecondHighest,
                target: 70,
                jokers: 1,
                ..ChinchonRules::default()
            },
            8,
            5,
        ),
    ];
    for (i, (rules, seats, games)) in tables.into_iter().enumerate() {
        let check = Check {
            seed: 100 * i as u64,
            resample: Some(ChinchonGame::resample),
            resample_every: 25,
            ..Check::new(rules, seats, games)
        };
        let report = random_games::<ChinchonGame>(&check).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(report.games, games);
        assert!(report.refused > 0 && report.resamples >= 20, "{report:?}");
    }
}
