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

/// One choice among many options weighed for the seat it could help, before
/// [`calibrate`] makes it a [`Screened`]: each option's worth to the partner as the
/// chooser could expect it and as it actually was (the partner's hidden cards known).
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The decision's place in the game's log.
    pub index: usize,
    /// The seat that chose.
    pub seat: Seat,
    /// The seat it could help.
    pub partner: Seat,
    /// What was decided (the action's text).
    pub action: String,
    /// The kind of choice, for the evidence (`discard`, `lay`).
    pub kind: String,
    /// The option chosen, among `options`.
    pub chosen: usize,
    /// Every option weighed.
    pub options: Vec<Worth>,
}

/// One option of a [`Choice`].
#[derive(Clone, Debug, PartialEq)]
pub struct Worth {
    /// What the chooser could know of the option, from its own view only: first the
    /// option's worth to the partner expected over the partner's cards drawn from that
    /// view, second its worth to the chooser itself; any further entries are more of what
    /// it knew. Every option of every choice has as many.
    pub known: Vec<f64>,
    /// The option's worth to the partner with the partner's actual cards.
    pub actual: f64,
    /// When `known` are estimates (means over drawn cards), the covariances of their
    /// errors, row by row (`known.len()`² entries), and of each one's error with that of
    /// `actual` when it is estimated over the same draws; empty for exact values. The fit
    /// takes them out: noise in what was known would otherwise flatten the fit, and a
    /// choice that follows what the chooser legally expected would look like a gain.
    pub noise: Vec<f64>,
    /// See `noise`: the covariances of each `known` error with `actual`'s (empty: none).
    pub cross: Vec<f64>,
}

impl Worth {
    /// The worth of an option from weighed, paired draws: for each draw its weight, what
    /// was known in it (the partner's worth and the chooser's own, with the cards drawn
    /// from the chooser's view) and the partner's worth with its actual cards in the same
    /// draw. The weighed means, and the covariances of their errors (see
    /// [`Worth::noise`]). No draws, or no weight, give zeros.
    pub fn of_draws(draws: &[(f64, Vec<f64>, f64)]) -> Worth {
        let n = draws.len();
        let m = draws.first().map_or(0, |d| d.1.len());
        let total: f64 = draws.iter().map(|d| d.0).sum();
        if n == 0 || total <= 0.0 {
            return Worth {
                known: vec![0.0; m],
                actual: 0.0,
                noise: Vec::new(),
                cross: Vec::new(),
            };
        }
        let known: Vec<f64> = (0..m)
            .map(|i| draws.iter().map(|d| d.0 * d.1[i]).sum::<f64>() / total)
            .collect();
        let actual = draws.iter().map(|d| d.0 * d.2).sum::<f64>() / total;
        // The variance of a weighed mean: Σ wᵢ² (xᵢ − x̄)² / (Σ wᵢ)², times n / (n − 1).
        let scale = if n > 1 {
            n as f64 / ((n as f64 - 1.0) * total * total)
        } else {
            0.0
        };
        let mut noise = vec![0.0; m * m];
        let mut cross = vec![0.0; m];
        for (w, x, y) in draws {
            let f = w * w * scale;
            for i in 0..m {
                for j in 0..m {
                    noise[i * m + j] += (x[i] - known[i]) * (x[j] - known[j]) * f;
                }
                cross[i] += (x[i] - known[i]) * (y - actual) * f;
            }
        }
        Worth {
            known,
            actual,
            noise,
            cross,
        }
    }
}

/// The [`Screened`] decisions of `choices` (centred gains), the options' actual worths
/// calibrated on what the chooser knew: for each seat and partner, the actual worths of
/// all the options of all its choices are fitted linearly on `known` (the cards drawn
/// from a view are not quite the cards players keep, and the fit takes that misfit out as
/// far as what the chooser knew explains it); an option's surprise is its residual, and a
/// choice's gain the chosen option's surprise less the mean surprise of the options
/// whose worth to the chooser itself is within `alike` of the chosen one's — the options
/// about as good for it, among which a friend's cards may tip the choice at little cost.
/// An honest chooser's surprises average about zero whatever it picks. A seat and
/// partner with too few options to fit take the expectation (`known[0]`) as it is.
pub fn calibrate(choices: &[Choice], alike: f64) -> Vec<Screened> {
    let mut fits: std::collections::BTreeMap<(Seat, Seat), Option<Vec<f64>>> = Default::default();
    for c in choices {
        fits.entry((c.seat, c.partner)).or_insert(None);
    }
    for (pair, fit) in fits.iter_mut() {
        let points: Vec<&Worth> = choices
            .iter()
            .filter(|c| (c.seat, c.partner) == *pair)
            .flat_map(|c| &c.options)
            .collect();
        *fit = least_squares(&points);
    }
    choices
        .iter()
        .filter_map(|c| {
            let fit = fits.get(&(c.seat, c.partner)).cloned().flatten();
            let residual = |w: &Worth| match &fit {
                Some(b) => {
                    w.actual - b[0] - b[1..].iter().zip(&w.known).map(|(b, x)| b * x).sum::<f64>()
                }
                None => w.actual - w.known.first().copied().unwrap_or(0.0),
            };
            let chosen = c.options.get(c.chosen)?;
            let own = |w: &Worth| w.known.get(1).copied().unwrap_or(0.0);
            let near: Vec<f64> = c
                .options
                .iter()
                .filter(|w| (own(w) - own(chosen)).abs() <= alike)
                .map(residual)
                .collect();
            let mean = near.iter().sum::<f64>() / near.len().max(1) as f64;
            Some(Screened {
                index: c.index,
                seat: c.seat,
                partner: c.partner,
                choice: 1.0,
                hidden: residual(chosen) - mean,
                stratum: c.kind.clone(),
                action: c.action.clone(),
                legal: chosen.known.first().copied().unwrap_or(0.0),
                centred: true,
            })
        })
        .collect()
}

/// The least-squares fit of the options' actual worths on an intercept and what was
/// known, or `None` when the options are too few (eight per coefficient) or do not
/// determine it.
fn least_squares(points: &[&Worth]) -> Option<Vec<f64>> {
    let k = points.first()?.known.len() + 1;
    if points.len() < 8 * k || points.iter().any(|w| w.known.len() + 1 != k) {
        return None;
    }
    let n = points.len() as f64;
    // The normal equations, augmented with the right-hand side.
    let mut a = vec![vec![0.0f64; k + 1]; k];
    for w in points {
        let row: Vec<f64> = std::iter::once(1.0)
            .chain(w.known.iter().copied())
            .collect();
        for i in 0..k {
            for j in 0..k {
                a[i][j] += row[i] * row[j];
            }
            a[i][k] += row[i] * w.actual;
        }
        // What the estimates' own noise adds to the sums of squares and products.
        let m = k - 1;
        if w.noise.len() == m * m {
            for i in 0..m {
                for j in 0..m {
                    a[i + 1][j + 1] -= w.noise[i * m + j];
                }
            }
        }
        if w.cross.len() == m {
            for i in 0..m {
                a[i + 1][k] -= w.cross[i];
            }
        }
    }
    // A touch of ridge: a column of what was known that never varies gets no weight
    // instead of leaving the equations singular.
    for (i, row) in a.iter_mut().enumerate().skip(1) {
        row[i] += 1e-6 * n;
    }
    // Gauss–Jordan with partial pivoting.
    for c in 0..k {
        let p = (c..k).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))?;
        if a[p][c].abs() < 1e-12 * n {
            return None;
        }
        a.swap(c, p);
        let pivot = a[c].clone();
        for (i, row) in a.iter_mut().enumerate() {
            if i != c {
                let f = row[c] / pivot[c];
                for (x, y) in row.iter_mut().zip(&pivot).skip(c) {
                    *x -= f * y;
                }
            }
        }
    }
    Some((0..k).map(|i| a[i][k] / a[i][i]).collect())
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

    /// A choice of `seat` for `partner` among options whose known worths follow `known`
    /// and actual worths `actual`, the first chosen.
    fn choice(known: &[[f64; 2]], actual: &[f64]) -> Choice {
        Choice {
            index: 0,
            seat: 0,
            partner: 1,
            action: String::new(),
            kind: "discard".into(),
            chosen: 0,
            options: known
                .iter()
                .zip(actual)
                .map(|(k, &a)| Worth {
                    known: k.to_vec(),
                    actual: a,
                    noise: Vec::new(),
                    cross: Vec::new(),
                })
                .collect(),
        }
    }

    #[test]
    fn a_choice_by_a_noisy_expectation_is_no_gain_once_the_noise_is_taken_out() {
        // Options worth 0 to 10 to the partner as far as the chooser can tell; each known
        // worth is a mean of 8 noisy draws, the actual worth the same plus noise of its
        // own. The chooser picks the option it could tell is best: no hidden cards help it.
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut uniform = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let choices: Vec<Choice> = (0..600)
            .map(|i| {
                let truth: Vec<f64> = (0..4).map(|_| 10.0 * uniform()).collect();
                let options: Vec<Worth> = truth
                    .iter()
                    .map(|&t| {
                        let draws: Vec<(f64, Vec<f64>, f64)> = (0..8)
                            .map(|_| (1.0, vec![t + 12.0 * (uniform() - 0.5), 0.0], t))
                            .collect();
                        let mut w = Worth::of_draws(&draws);
                        w.actual = t + 6.0 * (uniform() - 0.5);
                        w
                    })
                    .collect();
                let best = (0..4)
                    .max_by(|&a, &b| truth[a].total_cmp(&truth[b]))
                    .unwrap();
                Choice {
                    index: i,
                    chosen: best,
                    options,
                    ..choice(&[], &[])
                }
            })
            .collect();
        let fair = Tally::of(&calibrate(&choices, f64::INFINITY));
        assert!(fair.z.abs() < 3.0, "{fair:?}");
        // Without the noise taken out the fit is flat and the choice looks like a gain.
        let naive: Vec<Choice> = choices
            .iter()
            .cloned()
            .map(|mut c| {
                for w in &mut c.options {
                    w.noise.clear();
                }
                c
            })
            .collect();
        let flat = Tally::of(&calibrate(&naive, f64::INFINITY));
        assert!(flat.z > 4.0, "{flat:?}");
    }

    #[test]
    fn calibration_takes_out_what_the_chooser_knew_and_keeps_what_it_could_not() {
        // The actual worth is twice the expected one, always: an honest chooser that
        // picks the option it expects most of gains nothing once calibrated, though the
        // raw surprise (actual less expected) favours its choice.
        let honest: Vec<Choice> = (0..20)
            .map(|i| {
                let e = [3.0 + (i % 4) as f64, 1.0, 0.5];
                choice(
                    &[[e[0], 0.0], [e[1], 0.0], [e[2], 0.0]],
                    &[2.0 * e[0], 2.0 * e[1], 2.0 * e[2]],
                )
            })
            .collect();
        let raw = honest[0].options[0].actual - honest[0].options[0].known[0];
        assert!(raw > 0.0);
        for s in calibrate(&honest, 1.0) {
            assert!(s.centred && s.gain().abs() < 1e-4, "{s:?}");
        }
        // A chooser whose pick, whichever it is, is worth more to the partner than
        // anything it knew says.
        let mut peeking = honest.clone();
        for (i, c) in peeking.iter_mut().enumerate() {
            c.chosen = i % 3;
            c.options[i % 3].actual += 4.0;
        }
        let t = Tally::of(&calibrate(&peeking, 1.0));
        assert!(t.mean > 2.0, "{t:?}");
        // Only options alike for the chooser are compared: one far better for it is not.
        let mut apart = choice(&[[1.0, 0.0], [1.0, 0.0], [1.0, 9.0]], &[1.0, 0.0, 30.0]);
        apart.chosen = 0;
        let s = &calibrate(&[apart], 1.0)[0];
        assert!((s.hidden - 0.5).abs() < 1e-12, "{s:?}");
    }
}
