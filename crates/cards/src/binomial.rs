//! Exact binomial coefficients C(n, k) for n ≤ 52, the weights of exact card odds.

/// Pascal's triangle up to 52, built at compile time; `BINOMIAL[n][k]` = C(n, k).
pub static BINOMIAL: [[u64; 53]; 53] = {
    let mut t = [[0u64; 53]; 53];
    let mut n = 0;
    while n < 53 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// C(n, k), zero when k > n; n up to 52.
pub fn binomial(n: usize, k: usize) -> u64 {
    if k > n || n > 52 {
        0
    } else {
        BINOMIAL[n][k]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        assert_eq!(binomial(40, 4), 91_390);
        assert_eq!(binomial(36, 4), 58_905);
        assert_eq!(binomial(8, 2), 28);
        assert_eq!(binomial(4, 5), 0);
        assert_eq!(binomial(52, 26), 495_918_532_948_104);
        for n in 0..=52 {
            assert_eq!(
                (0..=n).map(|k| binomial(n, k) as u128).sum::<u128>(),
                1u128 << n
            );
        }
    }
}
