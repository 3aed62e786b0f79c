//! Two sides, many games: the game-independent part of an arena.
//!
//! Where the sides sit is a [`Layout`]. In partnership games (Mus) side A and side B sit
//! alternately around the table (A at the even seats, B at the odd ones) and swap in every
//! other game, so that each side is first to act equally often. In every other game A holds
//! one seat and B all the others, A's seat moving one place each game so that A sits
//! everywhere equally: A's fair share of the wins is then one in the number of seats. With
//! two seats both layouts are the same. Games run in parallel on a rayon pool; game `i`
//! uses seed `seed + i` and its own bot RNG, and statistics are sums, so the results do not
//! depend on the number of threads. [`wilson_interval`] puts a confidence interval on A's
//! win rate.

/// Call once before an arena with `cmd:` bots: SIGTERM, SIGINT and SIGHUP then kill every
/// bot program (with all it started) before they end the arena, instead of leaving the
/// programs running in their own process groups.
pub use crate::protocol::stop_programs_on_signals;
use crate::{play_out, Bot, Game, PlayError, Record, Seat};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// One of the two sides of an arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    A,
    B,
}

impl Side {
    /// 0 for A, 1 for B: an index into per-side arrays.
    pub fn index(self) -> usize {
        match self {
            Side::A => 0,
            Side::B => 1,
        }
    }

    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }
}

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval for a proportion: `successes` out of `trials`, with `z`
/// standard deviations (use [`Z95`]). Unlike the normal approximation it stays inside
/// [0, 1] and behaves at 0 and at `trials` successes. With no trials it is [0, 1].
pub fn wilson_interval(successes: u64, trials: u64, z: f64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let n = trials as f64;
    let p = successes.min(trials) as f64 / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At 0 and at all successes the bounds are exactly 0 and 1; say so despite rounding.
    let low = if successes == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if successes >= trials {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (low, high)
}

/// The side at `seat` in game number `game` of an alternating arena: in even games A holds
/// the even seats (seat 0 among them), in odd games the odd ones.
pub fn side_at(game: u64, seat: Seat) -> Side {
    match (seat as u64 + game) % 2 {
        0 => Side::A,
        _ => Side::B,
    }
}

/// Seed of the bots' RNG in the game with shuffle seed `seed`, apart from the shuffle's
/// own stream.
pub fn bot_seed(seed: u64) -> u64 {
    seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5EED_B075
}

/// Where the two sides sit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Layout {
    /// Partners: A at the even seats and B at the odd ones, swapped every other game.
    Alternate,
    /// A at the even seats and B at the odd ones in every game (a plain simulation).
    Fixed,
    /// A at one seat, B at all the others; A's seat is the game's number modulo the seats.
    OneSeat,
    /// A at seat 0, B at all the others, in every game (a plain simulation).
    FirstSeat,
}

/// One game of an arena: its number, seed and where the sides sit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fixture {
    /// 0-based number of the game.
    pub index: u64,
    /// Its shuffle seed.
    pub seed: u64,
    /// Seats at the table.
    pub seats: usize,
    /// A's seat (in the alternating layouts, the first of A's seats: 0 or 1).
    pub a_seat: Seat,
    /// How the sides sit.
    pub layout: Layout,
}

impl Fixture {
    /// The fixture of game `index` with this seed, seat count and layout.
    pub fn new(index: u64, seed: u64, seats: usize, layout: Layout) -> Fixture {
        let a_seat = match layout {
            Layout::Alternate => (index % 2) as Seat,
            Layout::Fixed | Layout::FirstSeat => 0,
            Layout::OneSeat => (index % seats.max(1) as u64) as Seat,
        };
        Fixture {
            index,
            seed,
            seats,
            a_seat,
            layout,
        }
    }

    /// The side at `seat`.
    pub fn side_of(&self, seat: Seat) -> Side {
        let a = match self.layout {
            Layout::Alternate | Layout::Fixed => seat % 2 == self.a_seat % 2,
            Layout::OneSeat | Layout::FirstSeat => seat == self.a_seat,
        };
        if a {
            Side::A
        } else {
            Side::B
        }
    }

    /// True when B holds seat 0 in an alternating layout (the sides swapped).
    pub fn swapped(&self) -> bool {
        self.side_of(0) == Side::B
    }
}

/// How to run an arena.
#[derive(Clone, Debug)]
pub struct ArenaConfig<G: Game> {
    /// Table options of every game.
    pub rules: G::Rules,
    /// Seats at the table.
    pub seats: usize,
    /// Games to play.
    pub games: u64,
    /// Number of the first game played: games `first` to `first + games - 1` are played
    /// (0 for a whole run; a shard of a larger run starts further on). Game `i` sits its
    /// sides as [`Layout`] says for game `i`.
    pub first: u64,
    /// Seed of game 0; game `i` uses `seed + i`.
    pub seed: u64,
    /// Worker threads (`None`: one per CPU).
    pub threads: Option<usize>,
    /// Most actions one game may take: a game still going then is stopped and counted as
    /// unfinished (the run goes on).
    pub max_actions: usize,
    /// Where the sides sit.
    pub layout: Layout,
}

/// Statistics gathered from a game as it is played, and summed over games.
///
/// A fresh `Default` value watches each game; the values are then merged. Keep them sums
/// (or anything whose merge does not depend on order) so that the results do not depend on
/// the number of threads.
pub trait Observer<G: Game>: Default + Send {
    /// One action was applied in the game `fixture`, producing these public events.
    fn step(
        &mut self,
        fixture: &Fixture,
        game: &G,
        seat: Seat,
        action: &G::Action,
        events: &[G::Event],
    );
    /// The game is over; `game` is its final state.
    fn finish(&mut self, _fixture: &Fixture, _game: &G, _actions: usize) {}
    /// Adds another's sums to these.
    fn merge(&mut self, other: Self);
}

impl<G: Game> Observer<G> for () {
    fn step(&mut self, _: &Fixture, _: &G, _: Seat, _: &G::Action, _: &[G::Event]) {}
    fn merge(&mut self, _: ()) {}
}

/// Something a bot reported during one game (see [`Bot::incidents`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Incident {
    /// Number of the game.
    pub game: u64,
    /// Its seed.
    pub seed: u64,
    /// The bot's seat.
    pub seat: Seat,
    /// The bot's side.
    pub side: Side,
    /// What happened, in one sentence.
    pub message: String,
}

/// What an arena produced. It serializes whole, so that the reports of shards of one run
/// played apart (on other machines) can be read back and merged ([`ArenaReport::merge`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ArenaReport<T> {
    /// Games played, finished or not.
    pub games: u64,
    /// Games won by each side (`[A, B]`).
    pub wins: [u64; 2],
    /// Finished games with no winner.
    pub draws: u64,
    /// Games stopped unfinished at [`ArenaConfig::max_actions`], as `(number, seed)` in
    /// order. They count in no win, draw or place.
    pub unfinished: Vec<(u64, u64)>,
    /// Games each side started from the first seat (`[A, B]`).
    pub first: [u64; 2],
    /// Games won by each seat (a partnership's win counts for each of its seats).
    pub seat_wins: Vec<u64>,
    /// The sum of A's places over the games whose outcome had places (1 is first).
    pub a_place_sum: u64,
    /// Games whose outcome had places.
    pub placed: u64,
    /// Actions taken in all games.
    pub actions: u64,
    /// Seats at the table.
    pub seats: usize,
    /// How the sides sat.
    pub layout: Layout,
    /// The most actions a game could take ([`ArenaConfig::max_actions`]).
    pub max_actions: usize,
    /// The observers' sums.
    pub stats: T,
    /// Every incident, by game and seat.
    pub incidents: Vec<Incident>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Worker threads used.
    pub threads: usize,
}

impl<T: Default> ArenaReport<T> {
    /// The report of no game yet, of a run set up as `config`.
    fn empty<G: Game>(config: &ArenaConfig<G>) -> ArenaReport<T> {
        ArenaReport {
            games: 0,
            wins: [0; 2],
            draws: 0,
            unfinished: Vec::new(),
            first: [0; 2],
            seat_wins: Vec::new(),
            a_place_sum: 0,
            placed: 0,
            actions: 0,
            seats: config.seats,
            layout: config.layout,
            max_actions: config.max_actions,
            stats: T::default(),
            incidents: Vec::new(),
            seconds: 0.0,
            threads: 0,
        }
    }
}

impl<T> ArenaReport<T> {
    /// Adds the report of other games of the same run (another shard): sums, the
    /// unfinished games and incidents kept in game order, the seconds summed (machine
    /// time, not wall time) and the threads too.
    pub fn merge<G: Game>(&mut self, other: ArenaReport<T>)
    where
        T: Observer<G>,
    {
        self.games += other.games;
        self.draws += other.draws;
        for s in 0..2 {
            self.wins[s] += other.wins[s];
            self.first[s] += other.first[s];
        }
        if self.seat_wins.len() < other.seat_wins.len() {
            self.seat_wins.resize(other.seat_wins.len(), 0);
        }
        for (a, b) in self.seat_wins.iter_mut().zip(&other.seat_wins) {
            *a += b;
        }
        self.a_place_sum += other.a_place_sum;
        self.placed += other.placed;
        self.actions += other.actions;
        self.stats.merge(other.stats);
        self.unfinished.extend(other.unfinished);
        self.unfinished.sort_unstable();
        self.incidents.extend(other.incidents);
        self.incidents.sort_by_key(|i| (i.game, i.seat));
        self.seconds += other.seconds;
        self.threads += other.threads;
    }

    /// Games that ended: the games played but the unfinished ones.
    pub fn finished(&self) -> u64 {
        self.games - self.unfinished.len() as u64
    }

    /// A's share of the finished games (unfinished ones have no result to count).
    pub fn a_win_rate(&self) -> f64 {
        let finished = self.finished();
        if finished == 0 {
            0.0
        } else {
            self.wins[0] as f64 / finished as f64
        }
    }

    /// A's share of the wins if both sides were equally strong: one half with partners,
    /// one in the number of seats when A holds one seat.
    pub fn fair_share(&self) -> f64 {
        match self.layout {
            Layout::OneSeat | Layout::FirstSeat if self.seats > 0 => 1.0 / self.seats as f64,
            _ => 0.5,
        }
    }

    /// A's average place (1 is first), if the outcomes had places.
    pub fn a_mean_place(&self) -> Option<f64> {
        (self.placed > 0).then(|| self.a_place_sum as f64 / self.placed as f64)
    }

    /// The 95% Wilson interval on A's win rate (over the finished games).
    pub fn ci95(&self) -> (f64, f64) {
        wilson_interval(self.wins[0], self.finished(), Z95)
    }

    /// Games per second of wall-clock time.
    pub fn games_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.games as f64 / self.seconds
        } else {
            0.0
        }
    }
}

/// Why an arena stopped.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    #[error("the arena needs at least one game")]
    NoGames,
    #[error("cannot start the worker threads: {0}")]
    Threads(String),
    #[error("game {index} (seed {seed}) could not be set up: {reason}")]
    Setup {
        index: u64,
        seed: u64,
        reason: String,
    },
    #[error("game {index} (seed {seed}): {error}")]
    Play {
        index: u64,
        seed: u64,
        error: PlayError,
    },
    /// A bot could not play at all ([`Bot::unable`]): the results would be a stand-in's.
    #[error("{reason} (in game {index}, seed {seed}); no results: fix the bot and run again")]
    Unable {
        index: u64,
        seed: u64,
        reason: String,
    },
    #[error("game {index} (seed {seed}): cannot keep its record: {reason}")]
    Keep {
        index: u64,
        seed: u64,
        reason: String,
    },
}

/// A rayon pool of `threads` workers (all cores when `None`; at least one).
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, String> {
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        pool = pool.num_threads(t.max(1));
    }
    pool.build()
        .map_err(|e| format!("cannot start the worker threads: {e}"))
}

/// What [`run_arena_keeping`] does with each game's record: an error stops the arena.
pub type KeepRecord<'a, G> = dyn Fn(&Fixture, &Record<G>) -> Result<(), String> + Sync + 'a;

/// Plays `config.games` games, asking `make_bot(side, seat)` for each seat's bot in every
/// game, with one `T` watching each game; `progress` is called after each game.
pub fn run_arena<G, T, F>(
    config: &ArenaConfig<G>,
    make_bot: F,
    progress: &(dyn Fn() + Sync),
) -> Result<ArenaReport<T>, ArenaError>
where
    G: Game,
    T: Observer<G>,
    F: Fn(Side, Seat) -> Result<Box<dyn Bot<G>>, String> + Sync,
{
    run_arena_keeping(config, make_bot, progress, &|_, _| Ok(()))
}

/// [`run_arena`], handing every game's record (finished or not) to `keep` as soon as the
/// game is over; an error from `keep` stops the arena.
pub fn run_arena_keeping<G, T, F>(
    config: &ArenaConfig<G>,
    make_bot: F,
    progress: &(dyn Fn() + Sync),
    keep: &KeepRecord<'_, G>,
) -> Result<ArenaReport<T>, ArenaError>
where
    G: Game,
    T: Observer<G>,
    F: Fn(Side, Seat) -> Result<Box<dyn Bot<G>>, String> + Sync,
{
    if config.games == 0 {
        return Err(ArenaError::NoGames);
    }
    let pool = thread_pool(config.threads).map_err(ArenaError::Threads)?;
    let threads = pool.current_num_threads();
    let start = Instant::now();
    let total: Result<ArenaReport<T>, ArenaError> = pool.install(|| {
        (config.first..config.first.saturating_add(config.games))
            .into_par_iter()
            .map(|index| {
                let r = play_one::<G, T, F>(config, index, &make_bot, keep);
                progress();
                r
            })
            .try_reduce(
                || ArenaReport::empty(config),
                |mut x, y| {
                    x.merge::<G>(y);
                    Ok(x)
                },
            )
    });
    let mut total = total?;
    total.seat_wins.resize(config.seats, 0);
    total.seconds = start.elapsed().as_secs_f64();
    total.threads = threads;
    Ok(total)
}

/// Plays game `index` of the arena.
fn play_one<G, T, F>(
    config: &ArenaConfig<G>,
    index: u64,
    make_bot: &F,
    keep: &KeepRecord<'_, G>,
) -> Result<ArenaReport<T>, ArenaError>
where
    G: Game,
    T: Observer<G>,
    F: Fn(Side, Seat) -> Result<Box<dyn Bot<G>>, String>,
{
    let seed = config.seed.wrapping_add(index);
    let fixture = Fixture::new(index, seed, config.seats, config.layout);
    let setup = |reason: String| ArenaError::Setup {
        index,
        seed,
        reason,
    };
    let mut game = G::new(&config.rules, config.seats, seed).map_err(|e| setup(e.to_string()))?;
    let mut bots: Vec<Box<dyn Bot<G>>> = (0..config.seats)
        .map(|seat| make_bot(fixture.side_of(seat), seat))
        .collect::<Result<_, _>>()
        .map_err(setup)?;
    let mut rng = ChaCha8Rng::seed_from_u64(bot_seed(seed));
    let mut record = Record::new(config.rules.clone(), config.seats, seed);
    let mut stats = T::default();
    let played = play_out(
        &mut game,
        &mut bots,
        &mut rng,
        &mut record,
        config.max_actions,
        |g, seat, action, events| stats.step(&fixture, g, seat, action, events),
    );
    let mut incidents = Vec::new();
    for (seat, bot) in bots.iter_mut().enumerate() {
        for message in bot.incidents() {
            incidents.push(Incident {
                game: index,
                seed,
                seat,
                side: fixture.side_of(seat),
                message,
            });
        }
    }
    let finished = match played {
        Ok(()) => true,
        Err(PlayError::TooLong(_)) => false,
        Err(PlayError::Unable(reason)) => {
            return Err(ArenaError::Unable {
                index,
                seed,
                reason,
            })
        }
        Err(error) => return Err(ArenaError::Play { index, seed, error }),
    };
    keep(&fixture, &record).map_err(|reason| ArenaError::Keep {
        index,
        seed,
        reason,
    })?;
    let mut p = ArenaReport {
        games: 1,
        incidents,
        ..ArenaReport::empty(config)
    };
    p.first[fixture.side_of(0).index()] += 1;
    p.actions = record.actions.len() as u64;
    p.seat_wins = vec![0; config.seats];
    if !finished {
        p.stats = stats;
        p.unfinished.push((index, seed));
        return Ok(p);
    }
    stats.finish(&fixture, &game, record.actions.len());
    p.stats = stats;
    let outcome = game.outcome();
    let winners = outcome
        .as_ref()
        .map(|o| o.winners.as_slice())
        .unwrap_or(&[]);
    for &w in winners {
        if let Some(n) = p.seat_wins.get_mut(w) {
            *n += 1;
        }
    }
    if winners.iter().any(|&w| fixture.side_of(w) == Side::A) {
        p.wins[0] += 1;
    } else if winners.is_empty() {
        p.draws += 1;
    } else {
        p.wins[1] += 1;
    }
    if let Some(place) = outcome.as_ref().and_then(|o| o.place(fixture.a_seat)) {
        p.a_place_sum += u64::from(place);
        p.placed += 1;
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_race::Race;

    #[test]
    fn wilson_matches_known_values() {
        // 50 of 100: 0.4038–0.5962 (the classic textbook value).
        let (lo, hi) = wilson_interval(50, 100, Z95);
        assert!(
            (lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4,
            "{lo} {hi}"
        );
        // 0 of 10: starts at 0, ends at 0.2775.
        let (lo, hi) = wilson_interval(0, 10, Z95);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 1e-4, "{hi}");
        // 10 of 10 mirrors it.
        let (lo, hi) = wilson_interval(10, 10, Z95);
        assert!((lo - 0.7225).abs() < 1e-4, "{lo}");
        assert_eq!(hi, 1.0);
        // No games: nothing is known.
        assert_eq!(wilson_interval(0, 0, Z95), (0.0, 1.0));
    }

    #[test]
    fn wilson_contains_the_rate_and_narrows_with_more_games() {
        for (k, n) in [(1u64, 3u64), (7, 20), (530, 1000), (999, 1000)] {
            let (lo, hi) = wilson_interval(k, n, Z95);
            let p = k as f64 / n as f64;
            assert!(lo <= p && p <= hi && 0.0 <= lo && hi <= 1.0, "{k}/{n}");
        }
        let narrow = wilson_interval(5000, 10_000, Z95);
        let wide = wilson_interval(50, 100, Z95);
        assert!(narrow.1 - narrow.0 < (wide.1 - wide.0) / 5.0);
    }

    #[test]
    fn seats_alternate_between_games() {
        // Game 0: A at 0 and 2; game 1: A at 1 and 3.
        assert_eq!(
            (0..4).map(|s| side_at(0, s)).collect::<Vec<_>>(),
            [Side::A, Side::B, Side::A, Side::B]
        );
        assert_eq!(
            (0..4).map(|s| side_at(1, s)).collect::<Vec<_>>(),
            [Side::B, Side::A, Side::B, Side::A]
        );
        for game in 0..10u64 {
            let f = Fixture::new(game, game, 4, Layout::Alternate);
            for seat in 0..4 {
                assert_eq!(f.side_of(seat), side_at(game, seat));
            }
        }
    }

    struct Twos;
    impl Bot<Race> for Twos {
        fn act(&mut self, _: &u8, _: &[u8], _: &mut ChaCha8Rng) -> u8 {
            2
        }
    }

    #[test]
    fn alternation_gives_each_side_the_first_seat_equally() {
        let config = ArenaConfig::<Race> {
            rules: (),
            seats: 2,
            games: 10,
            first: 0,
            seed: 3,
            threads: Some(2),
            max_actions: 100,
            layout: Layout::Alternate,
        };
        let twos = |_: Side, _: Seat| Ok(Box::new(Twos) as Box<dyn Bot<Race>>);
        // With 2+2+2 the first seat always wins: each side wins its 5 games from seat 0.
        let r: ArenaReport<()> = run_arena(&config, twos, &|| {}).unwrap();
        assert_eq!((r.games, r.wins, r.first, r.draws), (10, [5, 5], [5, 5], 0));
        assert_eq!(r.a_win_rate(), 0.5);
        let fixed = ArenaConfig {
            layout: Layout::Fixed,
            ..config
        };
        let r: ArenaReport<()> = run_arena(&fixed, twos, &|| {}).unwrap();
        assert_eq!((r.wins, r.first), ([10, 0], [10, 0]));
    }

    struct Ones;
    impl Bot<Race> for Ones {
        fn act(&mut self, _: &u8, _: &[u8], _: &mut ChaCha8Rng) -> u8 {
            1
        }
    }

    #[test]
    fn a_game_too_long_is_counted_unfinished_and_the_run_goes_on() {
        // A plays 1s, B 2s. With A first: 1, 2, 1, 2 (four actions); with B first: 2, 1, 2
        // (three), B winning. At most three actions: A's first-seat games do not end.
        let config = ArenaConfig::<Race> {
            rules: (),
            seats: 2,
            games: 10,
            first: 0,
            seed: 3,
            threads: Some(2),
            max_actions: 3,
            layout: Layout::Alternate,
        };
        let bots = |side: Side, _: Seat| {
            Ok(match side {
                Side::A => Box::new(Ones) as Box<dyn Bot<Race>>,
                Side::B => Box::new(Twos),
            })
        };
        let kept = std::sync::Mutex::new(Vec::new());
        let keep = |f: &Fixture, r: &Record<Race>| {
            kept.lock().unwrap().push((f.index, r.actions.len()));
            Ok(())
        };
        let r: ArenaReport<()> = run_arena_keeping(&config, bots, &|| {}, &keep).unwrap();
        assert_eq!(r.games, 10);
        assert_eq!(r.unfinished, [(0, 3), (2, 5), (4, 7), (6, 9), (8, 11)]);
        assert_eq!((r.finished(), r.wins, r.draws), (5, [0, 5], 0));
        assert_eq!(r.a_win_rate(), 0.0);
        assert_eq!(r.ci95(), wilson_interval(0, 5, Z95));
        // Every game's record is handed out, the unfinished ones as far as they went.
        let mut kept = kept.into_inner().unwrap();
        kept.sort_unstable();
        let want: Vec<(u64, usize)> = (0..10).map(|i| (i, 3)).collect();
        assert_eq!(kept, want);
    }

    /// N seats, one move each; the seat `seed % seats` wins, the others share place 2.
    #[derive(Clone)]
    struct Lottery {
        seats: usize,
        seed: u64,
        moved: usize,
    }

    impl Game for Lottery {
        const NAME: &'static str = "lottery";
        type Rules = ();
        type Action = u8;
        type View = ();
        type Event = ();
        type Error = String;
        fn new(_: &(), seats: usize, seed: u64) -> Result<Self, crate::SetupError> {
            Ok(Lottery {
                seats,
                seed,
                moved: 0,
            })
        }
        fn to_act(&self) -> crate::ToAct {
            if self.moved == self.seats {
                crate::ToAct::Over
            } else {
                crate::ToAct::Seats(vec![self.moved])
            }
        }
        fn legal_actions(&self, seat: Seat) -> Vec<u8> {
            if seat == self.moved && self.moved < self.seats {
                vec![0]
            } else {
                vec![]
            }
        }
        fn apply(&mut self, seat: Seat, _: &u8) -> Result<Vec<()>, String> {
            if seat != self.moved || self.moved == self.seats {
                return Err("not your turn".into());
            }
            self.moved += 1;
            Ok(vec![])
        }
        fn view(&self, _: Seat) {}
        fn spectator_view(&self) {}
        fn outcome(&self) -> Option<crate::Outcome> {
            (self.moved == self.seats).then(|| {
                let w = (self.seed % self.seats as u64) as Seat;
                crate::Outcome::winners_first(self.seats, vec![w], vec![], String::new())
            })
        }
    }

    #[test]
    fn one_seat_layout_moves_a_through_every_seat() {
        let any = |_: Side, _: Seat| Ok(Box::new(crate::RandomBot) as Box<dyn Bot<Lottery>>);
        let config = |seed| ArenaConfig::<Lottery> {
            rules: (),
            seats: 3,
            games: 9,
            first: 0,
            seed,
            threads: Some(2),
            max_actions: 10,
            layout: Layout::OneSeat,
        };
        // Seed 0: game i is won by seat i % 3, where A sits: A wins all, always first.
        let r: ArenaReport<()> = run_arena(&config(0), any, &|| {}).unwrap();
        assert_eq!((r.wins, r.draws, r.first), ([9, 0], 0, [3, 6]));
        assert_eq!(r.seat_wins, vec![3, 3, 3]);
        assert_eq!(r.a_mean_place(), Some(1.0));
        assert!((r.fair_share() - 1.0 / 3.0).abs() < 1e-12);
        // Seed 1: the winner sits one place after A: B wins all, A always second.
        let r: ArenaReport<()> = run_arena(&config(1), any, &|| {}).unwrap();
        assert_eq!(r.wins, [0, 9]);
        assert_eq!(r.a_mean_place(), Some(2.0));
        let f = Fixture::new(4, 0, 3, Layout::OneSeat);
        assert_eq!(
            (0..3).map(|s| f.side_of(s)).collect::<Vec<_>>(),
            [Side::B, Side::A, Side::B]
        );
    }
}
