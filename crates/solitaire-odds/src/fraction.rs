//! Exact non-negative fractions over big integers, always reduced.

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Mul};

/// A non-negative fraction `num / den` in lowest terms (`den > 0`). Probabilities are
/// answered as these so they can be compared and added exactly; [`Fraction::to_f64`] gives
/// the decimal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fraction {
    num: BigUint,
    den: BigUint,
}

impl Fraction {
    /// `num / den` reduced, or `None` when `den` is 0.
    pub fn new(num: BigUint, den: BigUint) -> Option<Fraction> {
        if den.is_zero() {
            return None;
        }
        let g = num.gcd(&den);
        if g.is_one() {
            return Some(Fraction { num, den });
        }
        Some(Fraction {
            num: num / &g,
            den: den / &g,
        })
    }

    /// `num / den` for a denominator the caller knows is positive (a count of tables or
    /// picks, at least 1 for valid parameters); 0 if it is not.
    pub(crate) fn ratio(num: BigUint, den: BigUint) -> Fraction {
        Fraction::new(num, den).unwrap_or_else(Fraction::zero)
    }

    /// 0.
    pub fn zero() -> Fraction {
        Fraction {
            num: BigUint::zero(),
            den: BigUint::one(),
        }
    }

    /// 1.
    pub fn one() -> Fraction {
        Fraction {
            num: BigUint::one(),
            den: BigUint::one(),
        }
    }

    /// The numerator, in lowest terms.
    pub fn numer(&self) -> &BigUint {
        &self.num
    }

    /// The denominator, in lowest terms (at least 1).
    pub fn denom(&self) -> &BigUint {
        &self.den
    }

    /// Whether this is 0.
    pub fn is_zero(&self) -> bool {
        self.num.is_zero()
    }

    /// The nearest `f64` (to within an ulp or so), however many digits the numerator and
    /// denominator have: the quotient is taken to 64 significant bits in integers first,
    /// so neither side has to fit in a float.
    pub fn to_f64(&self) -> f64 {
        if self.num.is_zero() {
            return 0.0;
        }
        let nb = i64::try_from(self.num.bits()).unwrap_or(i64::MAX);
        let db = i64::try_from(self.den.bits()).unwrap_or(i64::MAX);
        // num / den = q · 2^(−shift) with q of about 64 bits.
        let shift = 64 - (nb - db);
        let q = if shift >= 0 {
            (&self.num << shift.unsigned_abs()) / &self.den
        } else {
            &self.num / (&self.den << shift.unsigned_abs())
        };
        let q = q.to_f64().unwrap_or(f64::INFINITY);
        let e = -shift;
        if e > 1_100 {
            return f64::INFINITY;
        }
        if e < -1_200 {
            return 0.0;
        }
        // Two steps, so neither power over- or underflows on its own.
        let e = e as i32;
        q * 2f64.powi(e / 2) * 2f64.powi(e - e / 2)
    }
}

impl fmt::Display for Fraction {
    /// `num/den`, always with the slash (`1/1`, `0/1`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.num, self.den)
    }
}

impl Add for &Fraction {
    type Output = Fraction;
    fn add(self, o: &Fraction) -> Fraction {
        Fraction::ratio(&self.num * &o.den + &o.num * &self.den, &self.den * &o.den)
    }
}

impl Mul for &Fraction {
    type Output = Fraction;
    fn mul(self, o: &Fraction) -> Fraction {
        Fraction::ratio(&self.num * &o.num, &self.den * &o.den)
    }
}

impl<'a> std::iter::Sum<&'a Fraction> for Fraction {
    fn sum<I: Iterator<Item = &'a Fraction>>(iter: I) -> Fraction {
        iter.fold(Fraction::zero(), |acc, f| &acc + f)
    }
}

impl std::iter::Sum for Fraction {
    fn sum<I: Iterator<Item = Fraction>>(iter: I) -> Fraction {
        iter.fold(Fraction::zero(), |acc, f| &acc + &f)
    }
}

impl PartialOrd for Fraction {
    fn partial_cmp(&self, o: &Fraction) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for Fraction {
    fn cmp(&self, o: &Fraction) -> Ordering {
        (&self.num * &o.den).cmp(&(&o.num * &self.den))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(n: u64, d: u64) -> Fraction {
        Fraction::new(n.into(), d.into()).expect("a denominator")
    }

    #[test]
    fn reduces_and_prints_with_a_slash() {
        assert_eq!(f(6, 4).to_string(), "3/2");
        assert_eq!(f(0, 7).to_string(), "0/1");
        assert_eq!(f(5, 5).to_string(), "1/1");
        assert!(Fraction::new(1u32.into(), 0u32.into()).is_none());
    }

    #[test]
    fn adds_multiplies_and_compares() {
        assert_eq!(&f(1, 3) + &f(1, 6), f(1, 2));
        assert_eq!(&f(2, 3) * &f(3, 4), f(1, 2));
        assert!(f(1, 3) < f(1, 2));
        assert_eq!(
            [f(1, 2), f(1, 4), f(1, 4)].iter().sum::<Fraction>(),
            f(1, 1)
        );
    }

    #[test]
    fn floats_of_huge_and_tiny_fractions() {
        assert_eq!(f(1, 4).to_f64(), 0.25);
        assert_eq!(f(3, 1).to_f64(), 3.0);
        let third = f(1, 3).to_f64();
        assert!((third - 1.0 / 3.0).abs() < 1e-16);
        // 10^400 / (3·10^400): neither side fits in a float.
        let big = BigUint::from(10u32).pow(400);
        let x = Fraction::new(big.clone(), big.clone() * 3u32).expect("fraction");
        assert!((x.to_f64() - 1.0 / 3.0).abs() < 1e-16);
        let tiny = Fraction::new(1u32.into(), big).expect("fraction");
        assert_eq!(tiny.to_f64(), 0.0);
        let p = f(964_444_044_208, 262_190_765_217_675).to_f64();
        assert!((p - 964_444_044_208.0 / 262_190_765_217_675.0).abs() < 1e-18);
    }
}
