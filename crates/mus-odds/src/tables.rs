//! Exact probability tables of a first deal: every jugada, and the categories players
//! reason with (pares, medias, duples, juego by value, punto by value, and the thesis'
//! combined table), as counts out of C(40,4) = 91,390.

use crate::catalog::{Catalog, Entry};
use serde::Serialize;
use tapete_mus::rules::ParesKind;
use tapete_mus::{rules, Mode};

/// One line of a table: an exact count out of `total` and its probability.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    pub name: String,
    pub count: u64,
    pub probability: f64,
}

/// Everything `tapete mus tables` prints.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tables {
    pub mode: Mode,
    /// C(40, 4): every 4-card hand.
    pub total: u64,
    /// Every jugada, grande order high to low.
    pub jugadas: Vec<Row>,
    /// Pares, pares sencillos, medias, duples, juego, 31, 31 with pares, sin juego…
    pub categories: Vec<Row>,
    /// Juego by value, in juego order (31, 32, 40, 37 … 33).
    pub juego: Vec<Row>,
    /// Punto by value, 30 down to 4.
    pub punto: Vec<Row>,
    /// The combined table: juego sin pares, pares sin juego, duples y juego, …
    pub combined: Vec<Row>,
}

impl Tables {
    /// The count of a category, combined line or jugada by name.
    pub fn count(&self, name: &str) -> Option<u64> {
        self.categories
            .iter()
            .chain(&self.combined)
            .chain(&self.jugadas)
            .chain(&self.juego)
            .chain(&self.punto)
            .find(|r| r.name == name)
            .map(|r| r.count)
    }
}

/// Builds the tables for `mode`.
pub fn tables(mode: Mode) -> Tables {
    let cat = Catalog::new(mode, false);
    let deck = cat.full_deck();
    let total = tapete_cards::binomial(40, 4);
    let row = |name: String, count: u64| Row {
        name,
        count,
        probability: count as f64 / total as f64,
    };
    let t = crate::catalog::deck_table(&deck);
    let counted: Vec<(&Entry, u64)> = cat.entries.iter().map(|e| (e, e.weight_in(&t))).collect();
    let sum = |f: &dyn Fn(&Entry) -> bool| -> u64 {
        counted.iter().filter(|(e, _)| f(e)).map(|(_, w)| w).sum()
    };
    let kind = |e: &Entry| rules::pares(e.jugada).map(|p| p.kind);
    let value = |e: &Entry| e.jugada.value();

    let jugadas = counted
        .iter()
        .map(|(e, w)| row(e.jugada.to_string(), *w))
        .collect();
    let categories = vec![
        row("pares".into(), sum(&|e| e.has_pares())),
        row(
            "pares sencillos".into(),
            sum(&|e| kind(e) == Some(ParesKind::Pares)),
        ),
        row(
            "medias".into(),
            sum(&|e| kind(e) == Some(ParesKind::Medias)),
        ),
        row(
            "duples".into(),
            sum(&|e| kind(e) == Some(ParesKind::Duples)),
        ),
        row("sin pares".into(), sum(&|e| !e.has_pares())),
        row("juego".into(), sum(&|e| e.has_juego())),
        row("31".into(), sum(&|e| value(e) == 31)),
        row(
            "31 con pares".into(),
            sum(&|e| value(e) == 31 && e.has_pares()),
        ),
        row("sin juego".into(), sum(&|e| !e.has_juego())),
        row("30 al punto".into(), sum(&|e| value(e) == 30)),
    ];
    let juego = [31u8, 32, 40, 37, 36, 35, 34, 33]
        .iter()
        .map(|&v| row(v.to_string(), sum(&|e| value(e) == v)))
        .collect();
    let punto = (4u8..=30)
        .rev()
        .map(|v| row(v.to_string(), sum(&|e| value(e) == v)))
        .filter(|r| r.count > 0)
        .collect();
    let combined = vec![
        row(
            "juego sin pares".into(),
            sum(&|e| e.has_juego() && !e.has_pares()),
        ),
        row(
            "pares sin juego".into(),
            sum(&|e| e.has_pares() && !e.has_juego()),
        ),
        row(
            "pares sencillos sin juego".into(),
            sum(&|e| kind(e) == Some(ParesKind::Pares) && !e.has_juego()),
        ),
        row(
            "pares y juego".into(),
            sum(&|e| e.has_pares() && e.has_juego()),
        ),
        row(
            "pares sencillos y juego".into(),
            sum(&|e| kind(e) == Some(ParesKind::Pares) && e.has_juego()),
        ),
        row(
            "medias y juego".into(),
            sum(&|e| kind(e) == Some(ParesKind::Medias) && e.has_juego()),
        ),
        row(
            "duples y juego".into(),
            sum(&|e| kind(e) == Some(ParesKind::Duples) && e.has_juego()),
        ),
        row(
            "ni pares ni juego".into(),
            sum(&|e| !e.has_pares() && !e.has_juego()),
        ),
    ];
    Tables {
        mode,
        total,
        jugadas,
        categories,
        juego,
        punto,
        combined,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_reyes_reproduces_the_published_counts() {
        let t = tables(Mode::OchoReyes);
        assert_eq!(t.total, 91_390);
        assert_eq!(t.jugadas.len(), 330);
        assert_eq!(t.jugadas.iter().map(|r| r.count).sum::<u64>(), 91_390);
        let c = |n: &str| t.count(n).unwrap();
        assert_eq!(c("pares"), 51_710);
        assert_eq!(c("duples"), 3_486);
        assert_eq!(c("medias"), 4_448);
        assert_eq!(c("pares sencillos"), 43_776);
        assert_eq!(c("juego"), 24_444);
        assert_eq!(c("31"), 8_384);
        assert_eq!(c("31 con pares"), 4_800);
        assert_eq!(c("sin juego"), 66_946);
        assert_eq!(c("30 al punto"), 3_024);
        // The thesis' table 2.14 (juego sin pares, pares y juego).
        assert_eq!(c("juego sin pares"), 8_192);
        assert_eq!(c("pares y juego"), 16_252);
        // Single jugadas from the thesis' table 2.1.
        assert_eq!(c("RRAA"), 784);
        assert_eq!(c("RRCC"), 168);
        assert_eq!(c("7654"), 256);
    }

    #[test]
    fn every_table_adds_up() {
        for mode in [Mode::OchoReyes, Mode::CuatroReyes] {
            let t = tables(mode);
            let sum = |rows: &[Row]| rows.iter().map(|r| r.count).sum::<u64>();
            assert_eq!(sum(&t.jugadas), t.total);
            assert_eq!(sum(&t.juego) + sum(&t.punto), t.total);
            assert_eq!(sum(&t.juego), t.count("juego").unwrap());
            let c = |n: &str| t.count(n).unwrap();
            assert_eq!(c("pares sencillos") + c("medias") + c("duples"), c("pares"));
            assert_eq!(c("pares") + c("sin pares"), t.total);
            assert_eq!(c("juego sin pares") + c("pares y juego"), c("juego"));
            assert_eq!(
                c("pares sencillos y juego") + c("medias y juego") + c("duples y juego"),
                c("pares y juego")
            );
            assert_eq!(
                c("juego sin pares")
                    + c("pares sin juego")
                    + c("pares y juego")
                    + c("ni pares ni juego"),
                t.total
            );
        }
        assert_eq!(tables(Mode::CuatroReyes).jugadas.len(), 715);
    }
}
