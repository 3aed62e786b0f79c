//! The chance of winning the game from the scores: games are won by outlasting the
//! others, not by points, so a search values the end of a hand by this and the close
//! decision weighs risk by it.
//!
//! Each player still in adds points hand after hand, about `m` a hand with spread `s`
//! (more at larger tables, where fewer hands are one's own close; the figures are in
//! docs/bots.md). The hands a player lasts before
//! passing the target are then about normal, with mean `r / m` and variance
//! `r s² / m³` for a margin of `r` points (renewal theory); the player who lasts longest
//! wins. With two players that is one normal probability; with more, one integral over
//! the last survivor's time, taken numerically.
//!
//! ```
//! use tapete_chinchon_bots::value::win_chance;
//!
//! let even = win_chance(&[40, 40], &[false, false], 0, 100);
//! assert!((even - 0.5).abs() < 1e-6);
//! assert!(win_chance(&[20, 90], &[false, false], 0, 100) > 0.8);
//! assert_eq!(win_chance(&[101, 90], &[false, false], 0, 100), 0.0);
//! ```

use tapete_table::Seat;

/// Points a player adds in a hand, on average, at a table of `seats`.
fn mean_points(seats: usize) -> f64 {
    9.2 + 2.05 * seats.saturating_sub(2) as f64
}

/// Spread of the points a player adds in a hand.
fn spread_points(seats: usize) -> f64 {
    13.5 + 0.3 * seats.saturating_sub(2) as f64
}

/// The standard normal distribution function.
pub fn phi(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The complementary error function (Numerical Recipes' Chebyshev fit, relative error
/// below 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// The chance that seat `me` wins the game when the scores are `scores` and `out` marks
/// who is out already, at a table whose target is `target` (more points and a player is
/// out). A score past the target counts as out; if everybody left is past it, the fewest
/// points win, as at the table.
pub fn win_chance(scores: &[i32], out: &[bool], me: Seat, target: i32) -> f64 {
    let seats = scores.len();
    if me >= seats || out.get(me).copied().unwrap_or(true) {
        return 0.0;
    }
    let alive: Vec<Seat> = (0..seats)
        .filter(|&s| !out.get(s).copied().unwrap_or(true))
        .collect();
    let within: Vec<Seat> = alive
        .iter()
        .copied()
        .filter(|&s| scores[s] <= target)
        .collect();
    if within.is_empty() {
        // All passed together: the fewest points win (shared on a tie).
        let least = alive.iter().map(|&s| scores[s]).min().unwrap_or(0);
        let tied = alive.iter().filter(|&&s| scores[s] == least).count();
        return if scores[me] == least {
            1.0 / tied as f64
        } else {
            0.0
        };
    }
    if scores[me] > target {
        return 0.0;
    }
    if within.len() == 1 {
        return 1.0;
    }
    let m = mean_points(alive.len());
    let s2 = spread_points(alive.len()).powi(2);
    let life = |s: Seat| -> (f64, f64) {
        // Half a point of margin: a player at exactly the target is still in.
        let r = (target - scores[s]) as f64 + 0.5;
        let mean = r / m;
        let var = (r * s2 / (m * m * m)).max(0.05);
        (mean, var.sqrt())
    };
    let (mu, sd) = life(me);
    let others: Vec<(f64, f64)> = within
        .iter()
        .filter(|&&s| s != me)
        .map(|&s| life(s))
        .collect();
    if let [(mo, so)] = others[..] {
        return phi((mu - mo) / (sd * sd + so * so).sqrt());
    }
    // P(my time beats every other's) = ∫ f_me(t) Π Φ((t − μ_o)/σ_o) dt, by the midpoint
    // rule over ±6 standard deviations.
    const STEPS: usize = 96;
    let lo = mu - 6.0 * sd;
    let h = 12.0 * sd / STEPS as f64;
    let mut total = 0.0;
    for i in 0..STEPS {
        let t = lo + (i as f64 + 0.5) * h;
        let z = (t - mu) / sd;
        let density = (-0.5 * z * z).exp() / (sd * (2.0 * std::f64::consts::PI).sqrt());
        let beat: f64 = others.iter().map(|&(mo, so)| phi((t - mo) / so)).product();
        total += density * beat * h;
    }
    total.clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_normal_distribution_is_right_at_known_points() {
        assert!((phi(0.0) - 0.5).abs() < 1e-7);
        assert!((phi(1.959_964) - 0.975).abs() < 1e-6);
        assert!((phi(-1.0) - 0.158_655_25).abs() < 1e-6);
    }

    #[test]
    fn chances_add_up_to_one_at_any_table() {
        for scores in [vec![10, 50, 80], vec![0, 0, 0, 0], vec![95, 20, 60, 99, 3]] {
            let out = vec![false; scores.len()];
            let sum: f64 = (0..scores.len())
                .map(|s| win_chance(&scores, &out, s, 100))
                .sum();
            assert!((sum - 1.0).abs() < 1e-3, "{scores:?}: {sum}");
        }
    }

    #[test]
    fn fewer_points_are_better_and_the_out_do_not_count() {
        let out = [false, false, false];
        assert!(win_chance(&[10, 50, 50], &out, 0, 100) > win_chance(&[30, 50, 50], &out, 0, 100));
        assert_eq!(
            win_chance(&[10, 120, 50], &[false, true, false], 1, 100),
            0.0
        );
        let two = win_chance(&[10, 50], &[false, false], 0, 100);
        let with_out = win_chance(&[10, 120, 50], &[false, true, false], 0, 100);
        assert!(
            with_out > two - 0.05,
            "an out player changes the field: {with_out} {two}"
        );
        // Everybody past the target together: the fewest points win.
        assert_eq!(win_chance(&[104, 110], &[false, false], 0, 100), 1.0);
        assert_eq!(win_chance(&[104, 110], &[false, false], 1, 100), 0.0);
    }
}
