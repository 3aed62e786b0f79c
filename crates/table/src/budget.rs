//! How long a search player may think per decision, and the `iters=N` / `ms=M` parameters
//! that set it in a player's name (`maestro:iters=1024,ms=1000`). Every game's search
//! players share it, so the words and the limits are the same at every table.

/// The most milliseconds a decision may be given.
pub const MAX_MS: u64 = 10_000;
/// The most rollouts a decision may be given.
pub const MAX_ITERS: u32 = 1_000_000;

/// A thinking budget per decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Wall-clock milliseconds, checked between rollouts.
    Millis(u64),
    /// A fixed number of rollouts: the same choices on every machine.
    Iters(u32),
    /// A number of rollouts, fewer if the milliseconds pass first.
    ItersWithin {
        /// Rollouts per decision.
        iters: u32,
        /// Wall-clock cap in milliseconds.
        ms: u64,
    },
}

impl Budget {
    /// The budget of the rollouts and milliseconds given: both, either, or `default`.
    pub fn from_given(iters: Option<u32>, ms: Option<u64>, default: Budget) -> Budget {
        match (iters, ms) {
            (Some(iters), Some(ms)) => Budget::ItersWithin { iters, ms },
            (Some(n), None) => Budget::Iters(n),
            (None, Some(n)) => Budget::Millis(n),
            (None, None) => default,
        }
    }
}

/// The `iters=` and `ms=` parameters of a player's name, read one at a time among the
/// player's other parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BudgetParams {
    /// `iters=N`, if given.
    pub iters: Option<u32>,
    /// `ms=M`, if given.
    pub ms: Option<u64>,
}

impl BudgetParams {
    /// Reads `key=value` if `key` is `iters` or `ms` (`None` for any other key): an error
    /// names a value out of range (1 to [`MAX_ITERS`] rollouts, 1 to [`MAX_MS`]
    /// milliseconds) or a key given twice.
    pub fn read(&mut self, key: &str, value: &str) -> Option<Result<(), String>> {
        let twice = || Err(format!("`{key}` is given twice"));
        Some(match key {
            "ms" if self.ms.is_some() => twice(),
            "iters" if self.iters.is_some() => twice(),
            "ms" => match value.parse::<u64>() {
                Ok(n) if (1..=MAX_MS).contains(&n) => {
                    self.ms = Some(n);
                    Ok(())
                }
                _ => Err(format!("`ms={value}` is not from 1 to {MAX_MS}")),
            },
            "iters" => match value.parse::<u32>() {
                Ok(n) if (1..=MAX_ITERS).contains(&n) => {
                    self.iters = Some(n);
                    Ok(())
                }
                _ => Err(format!("`iters={value}` is not from 1 to {MAX_ITERS}")),
            },
            _ => return None,
        })
    }

    /// The budget given, or `default` when neither parameter was.
    pub fn budget(self, default: Budget) -> Budget {
        Budget::from_given(self.iters, self.ms, default)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_either_or_neither() {
        let d = Budget::Iters(7);
        let mut p = BudgetParams::default();
        assert_eq!(p.budget(d), d);
        assert_eq!(p.read("ms", "200"), Some(Ok(())));
        assert_eq!(p.budget(d), Budget::Millis(200));
        assert_eq!(p.read("iters", "64"), Some(Ok(())));
        assert_eq!(p.budget(d), Budget::ItersWithin { iters: 64, ms: 200 });
        assert_eq!(p.read("keep", "2"), None);
    }

    #[test]
    fn refuses_ranges_junk_and_repeats_without_change() {
        let mut p = BudgetParams::default();
        for (k, v) in [("ms", "0"), ("ms", "10001"), ("iters", "x"), ("iters", "0")] {
            let e = p.read(k, v).and_then(Result::err).expect("refused");
            assert!(e.contains(&format!("`{k}={v}`")), "{e}");
        }
        assert_eq!(p, BudgetParams::default());
        p.read("iters", "5");
        let e = p.read("iters", "6").and_then(Result::err).expect("refused");
        assert!(e.contains("given twice"), "{e}");
        assert_eq!(p.iters, Some(5));
    }
}
