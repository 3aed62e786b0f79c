//! Screening for partners who see each other's cards: each decision of a seat is valued
//! twice — from what it legally knew, and from that plus its partner's hidden cards — and
//! the difference the choice made is its **gain**: what only the partner's cards explain
//! ([`Screened`], made by each game's `Host::screen`). Over many decisions an
//! honest player's gains average about zero (it cannot know the partner's cards, so they
//! are as likely to favour its choice as not); a player who knows them chooses, far more
//! often than chance allows, what only they show to be right. [`Tally`] sums a pair's
//! gains into a mean, its standard error and a z-score against honest play.

use serde::Serialize;
use tapete_table::Seat;

/// One decision weighed for screening.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Screened {
    /// The decision's place in the game's log (0 is the first action).
    pub index: usize,
    /// The seat that chose.
    pub seat: Seat,
    /// Its partner, whose hidden cards are the question.
    pub partner: Seat,
    /// Which way the choice went: +1 for more at stake (a bet, a raise, an acceptance),
    /// −1 for less (a pass, a refusal).
    pub choice: f64,
    /// What the partner's hidden cards add to the seat's chance: the chance with them
    /// known less the chance from the seat's own knowledge.
    pub hidden: f64,
    /// Decisions alike from the seat's side of the table: the same kind of choice, a
    /// similar chance from its own knowledge, and what its partner had shown by its play.
    /// The test compares choices within a stratum, so that what the partner's play told
    /// an honest seat does not count against it.
    pub stratum: String,
    /// What was decided, for the evidence (the action's text; never a card).
    pub action: String,
    /// The chance the seat's own knowledge gave (the lance's, in Mus), or what it
    /// expected of the partner's side (the screens of games without partners).
    pub legal: f64,
    /// The gain is centred already on what the seat legally knew: a choice among many
    /// options, each valued with the partner's actual cards less its worth expected from
    /// the seat's view, the choice's value less the options' mean (Chinchón's discards).
    /// [`Tally::of`] takes such a gain as its term as it is, outside the strata.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub centred: bool,
}

impl Screened {
    /// The choice's gain: what only the partner's hidden cards explain of it (positive when
    /// the choice went the way they favoured).
    pub fn gain(&self) -> f64 {
        self.choice * self.hidden
    }
}

/// A pair's screened decisions summed up: within each stratum, how much the choices
/// moved with the partner's hidden cards (their covariance), over all decisions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Tally {
    /// Decisions weighed.
    pub n: u64,
    /// The mean, over the decisions, of their share of the within-stratum covariance of
    /// the choice with the hidden cards' worth: about zero for honest play.
    pub mean: f64,
    /// The mean's standard error.
    pub se: f64,
    /// The mean over its standard error: how far from honest play (0) it stands.
    pub z: f64,
}

impl Tally {
    /// The tally of a pair's decisions: a centred decision's gain is its term as it is;
    /// the others' terms come from their strata.
    pub fn of(decisions: &[Screened]) -> Tally {
        let mut strata: std::collections::BTreeMap<&str, Vec<&Screened>> = Default::default();
        let mut terms = Vec::with_capacity(decisions.len());
        for d in decisions {
            if d.centred {
                terms.push(d.gain());
            } else {
                strata.entry(d.stratum.as_str()).or_default().push(d);
            }
        }
        for group in strata.values() {
            terms.extend(partial_terms(group));
        }
        Tally::of_terms(&terms)
    }

    /// The mean of `terms`, its standard error and their ratio.
    pub fn of_terms(terms: &[f64]) -> Tally {
        let n = terms.len();
        if n < 2 {
            return Tally {
                n: n as u64,
                mean: terms.first().copied().unwrap_or(0.0),
                ..Tally::default()
            };
        }
        let mean = terms.iter().sum::<f64>() / n as f64;
        let var = terms.iter().map(|g| (g - mean).powi(2)).sum::<f64>() / (n as f64 - 1.0);
        let se = (var / n as f64).sqrt();
        let z = if se > 0.0 { mean / se } else { 0.0 };
        Tally {
            n: n as u64,
            mean,
            se,
            z,
        }
    }
}

/// One stratum's share of the statistic, a term per decision: the products of the
/// choice's and the hidden worth's residuals once each is fitted linearly on the seat's own
/// chance within the stratum — their covariance with what the seat knew taken out (an
/// honest seat's choice follows its own chance, and so, slightly, may the worth of what its
/// partner's play showed). A stratum too small to fit gives nothing.
fn partial_terms(group: &[&Screened]) -> Vec<f64> {
    let k = group.len();
    if k < 3 {
        return vec![0.0; k];
    }
    let n = k as f64;
    let mean = |f: &dyn Fn(&Screened) -> f64| group.iter().map(|d| f(d)).sum::<f64>() / n;
    let (lm, cm, hm) = (mean(&|d| d.legal), mean(&|d| d.choice), mean(&|d| d.hidden));
    let sxx: f64 = group.iter().map(|d| (d.legal - lm).powi(2)).sum();
    let slope = |f: &dyn Fn(&Screened) -> f64, m: f64| {
        if sxx > 1e-12 {
            group
                .iter()
                .map(|d| (d.legal - lm) * (f(d) - m))
                .sum::<f64>()
                / sxx
        } else {
            0.0
        }
    };
    let (bc, bh) = (slope(&|d| d.choice, cm), slope(&|d| d.hidden, hm));
    // Two parameters fitted: the products sum to the covariance over n - 2.
    let unbiased = n / (n - 2.0);
    group
        .iter()
        .map(|d| {
            let rc = d.choice - cm - bc * (d.legal - lm);
            let rh = d.hidden - hm - bh * (d.legal - lm);
            rc * rh * unbiased
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(stratum: &str, choice: f64, hidden: f64) -> Screened {
        Screened {
            index: 0,
            seat: 0,
            partner: 2,
            choice,
            hidden,
            stratum: stratum.into(),
            action: String::new(),
            legal: 0.5,
            centred: false,
        }
    }

    #[test]
    fn a_tally_is_the_mean_its_error_and_their_ratio() {
        let t = Tally::of_terms(&[1.0, 2.0, 3.0, 4.0]);
        assert_eq!(t.n, 4);
        assert!((t.mean - 2.5).abs() < 1e-12);
        let se = (((1.5f64.powi(2) * 2.0 + 0.5f64.powi(2) * 2.0) / 3.0) / 4.0).sqrt();
        assert!((t.se - se).abs() < 1e-12);
        assert!((t.z - 2.5 / se).abs() < 1e-9);
        assert_eq!(Tally::of_terms(&[]).n, 0);
        assert_eq!(Tally::of_terms(&[0.3]).z, 0.0);
    }

    #[test]
    fn choices_that_follow_the_hidden_cards_within_a_stratum_count_and_a_strata_shift_does_not() {
        // Following the hidden cards: bet when they help, pass when they hurt.
        let following: Vec<Screened> = (0..40)
            .map(|i| {
                let h: f64 = if i % 2 == 0 { 0.2 } else { -0.2 };
                d("a", h.signum(), h)
            })
            .collect();
        assert!(Tally::of(&following).z > 10.0);
        // Choices that differ only between strata whose hidden worth differs (what the
        // partner's play told): nothing.
        let mut told: Vec<Screened> = (0..20)
            .map(|i| d("bet", 1.0, 0.2 + 0.01 * (i % 3) as f64))
            .collect();
        told.extend((0..20).map(|i| d("passed", -1.0, -0.2 - 0.01 * (i % 3) as f64)));
        assert_eq!(Tally::of(&told).mean, 0.0);
    }

    #[test]
    fn centred_gains_are_terms_as_they_are_beside_the_strata() {
        // Centred gains alone: their plain mean, even in one stratum where a fit would
        // take their common level out.
        let centred: Vec<Screened> = [0.5, 1.5, 1.0, 1.0]
            .iter()
            .map(|&g| Screened {
                centred: true,
                ..d("discard", 1.0, g)
            })
            .collect();
        let t = Tally::of(&centred);
        assert_eq!(t.n, 4);
        assert!((t.mean - 1.0).abs() < 1e-12);
        // Beside a stratum of uncentred decisions whose choices follow nothing: the
        // stratum gives zeros, the centred gains count.
        let mut both = centred.clone();
        both.extend((0..4).map(|i| d("close", if i % 2 == 0 { 1.0 } else { -1.0 }, 0.3)));
        let t = Tally::of(&both);
        assert_eq!(t.n, 8);
        assert!((t.mean - 0.5).abs() < 1e-12, "{}", t.mean);
    }
}
