//! The exact answers against the real game played at random: the win rate, and what is
//! left on the table, within four standard errors; seeded, so the checks are deterministic
//! (the result does not depend on the number of threads either).

use std::sync::atomic::{AtomicU64, Ordering};
use tapete_solitaire_odds::{distribution, simulate, win_probability, OddsError, Params};

/// How many standard errors `observed` (out of `n`) is from the exact chance `p`.
fn z(observed: u64, n: u64, p: f64) -> f64 {
    let se = (p * (1.0 - p) / n as f64).sqrt();
    let diff = observed as f64 / n as f64 - p;
    if se == 0.0 {
        if diff == 0.0 {
            0.0
        } else {
            f64::INFINITY
        }
    } else {
        diff / se
    }
}

#[test]
fn the_real_game_wins_as_often_as_the_fraction_says() {
    for (p, games, seed) in [
        (Params::default(), 400_000u64, 1u64),
        (Params::real_game(4, 13, 6).expect("a game"), 100_000, 2),
        (Params::real_game(3, 5, 3).expect("a game"), 100_000, 3),
        (Params::real_game(2, 10, 4).expect("a game"), 100_000, 4),
    ] {
        let done = AtomicU64::new(0);
        let s = simulate(&p, games, seed, &|n| {
            done.fetch_add(n, Ordering::Relaxed);
        })
        .expect("the real game");
        assert_eq!(done.load(Ordering::Relaxed), games, "{p:?}: progress");
        assert_eq!(s.games, games);
        let exact = win_probability(&p).expect("valid").to_f64();
        let off = (s.rate - exact).abs();
        assert!(
            off <= 4.0 * s.stderr,
            "{p:?}: {} ± {} vs {exact}",
            s.rate,
            s.stderr
        );
        assert!(z(s.wins, games, exact).abs() <= 4.0, "{p:?}");
        // What is left: every bin of the distribution within four standard errors.
        let d = distribution(&p).expect("valid");
        // (Bins expected fewer than 20 times are too rare for a normal approximation; an
        // impossible one must never be seen.)
        for (what, exact, seen) in [
            ("stacks", &d.stacks, &s.stacks),
            ("cards", &d.cards, &s.cards),
        ] {
            assert_eq!(exact.len(), seen.len(), "{p:?}: {what}");
            for (i, x) in exact.iter().enumerate() {
                if x.is_zero() {
                    assert_eq!(seen[i], 0, "{p:?}: {i} {what} left cannot happen");
                } else if x.to_f64() * games as f64 >= 20.0 {
                    let zi = z(seen[i], games, x.to_f64());
                    assert!(zi.abs() <= 4.0, "{p:?}: {i} {what} left, z = {zi}");
                }
            }
        }
        assert_eq!(s.stacks.iter().sum::<u64>(), games);
        assert_eq!(s.stacks[0], s.wins);
    }
}

#[test]
fn the_result_depends_on_the_seed_not_the_threads() {
    let p = Params::default();
    let run = |threads: usize, seed: u64| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool");
        pool.install(|| simulate(&p, 20_000, seed, &|_| {}))
            .expect("the real game")
    };
    let one = run(1, 9);
    assert_eq!(one, run(2, 9));
    assert_eq!(one, run(3, 9));
    assert_ne!(one.stacks, run(1, 10).stacks);
}

#[test]
fn only_the_real_game_is_simulated() {
    let p = Params {
        pick: 10,
        ..Params::default()
    };
    let e = simulate(&p, 100, 0, &|_| {}).expect_err("not the real game");
    assert_eq!(
        e,
        OddsError::NotTheRealGame {
            pick: 10,
            real: 13,
            deck: 52,
            board: 13
        }
    );
    assert!(e.to_string().contains("pick must be 13"), "{e}");
    // 50 cards left after 2 on the table: 16 third cards, the last two never turned third.
    let p = Params::real_game(4, 13, 2).expect("a game");
    assert_eq!(p.pick, 16);
    assert!(simulate(&p, 1_000, 0, &|_| {}).is_ok());
    assert_eq!(
        simulate(&Params::default(), 0, 0, &|_| {}),
        Err(OddsError::NoGames)
    );
    assert!(matches!(
        simulate(&Params { suits: 0, ..p }, 10, 0, &|_| {}),
        Err(OddsError::NoSuits)
    ));
}
