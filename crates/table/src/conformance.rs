//! The checks every game of tapete must pass, whatever its rules: seeded random games end;
//! `apply` accepts exactly the legal actions and a refused action changes nothing; actions
//! survive their text form; views serialize; a record replays to the identical state; and,
//! for games that can resample, a state resampled from a seat's view shows that seat the
//! same view while the hidden cards vary.
//!
//! The last check is what keeps views honest: a resampler only knows what the view shows,
//! so if a view leaked a hidden card into a field the resampler does not read, the
//! resampled view would differ; if the resampler copied everything, the hidden state would
//! never vary.
//!
//! ```
//! use tapete_table::conformance::{random_games, Check};
//! use tapete_table::test_race::Race;
//!
//! let report = random_games::<Race>(&Check::new((), 2, 50)).unwrap();
//! assert_eq!(report.games, 50);
//! ```

use crate::{Game, Record, ResampleError};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Debug;

/// A resampler: a full state consistent with a view (a game's [`crate::Resample`]).
pub type Resampler<G> = fn(&<G as Game>::View, &mut ChaCha8Rng) -> Result<G, ResampleError>;

/// What to check.
pub struct Check<G: Game> {
    /// Table options of every game.
    pub rules: G::Rules,
    /// Seats at the table.
    pub seats: usize,
    /// Games to play.
    pub games: u64,
    /// Seed of game 0 (game `i` uses `seed + i`).
    pub seed: u64,
    /// Most actions one game may take before it is called stuck.
    pub max_actions: usize,
    /// Legal actions tried on a copy at each step (all of them when fewer).
    pub tries: usize,
    /// The game's resampler, if it has one.
    pub resample: Option<Resampler<G>>,
    /// Resample a seat's view every this many steps (0: never).
    pub resample_every: usize,
    /// Most actions in all games together: no game starts once they are spent, so that
    /// games of thousands of actions (random Chinchón) keep the check quick.
    pub budget: u64,
    /// The costly checks (every seat's view serialized, legal actions tried on copies,
    /// refusals probed) run at one step in this many, chosen at random (1: every step).
    pub thorough_every: u32,
}

impl<G: Game> Check<G> {
    /// `games` games of `seats` seats from seed 0, 100,000 actions at most each, 4 legal
    /// actions tried per step, no resampling.
    pub fn new(rules: G::Rules, seats: usize, games: u64) -> Check<G> {
        Check {
            rules,
            seats,
            games,
            seed: 0,
            max_actions: 100_000,
            tries: 4,
            resample: None,
            resample_every: 0,
            budget: u64::MAX,
            thorough_every: 1,
        }
    }
}

/// What the checks saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Games played to their end.
    pub games: u64,
    /// Actions applied in them.
    pub actions: u64,
    /// Refused actions tried (each left the state unchanged).
    pub refused: u64,
    /// Resamples made (each showed its seat the same view).
    pub resamples: u64,
    /// Resamples whose hidden state differed from the real one.
    pub resamples_differing: u64,
}

/// Plays `check.games` seeded random games, checking every rule of the contract at every
/// step. The first violation is returned as an error naming the game, the step and what
/// went wrong.
pub fn random_games<G>(check: &Check<G>) -> Result<Report, String>
where
    G: Game + PartialEq + Debug,
{
    let mut report = Report::default();
    for i in 0..check.games {
        if report.actions >= check.budget {
            break;
        }
        let seed = check.seed.wrapping_add(i);
        one_game(check, seed, &mut report).map_err(|e| format!("game seed {seed}: {e}"))?;
        report.games += 1;
    }
    if check.resample.is_some() && report.resamples >= 20 && report.resamples_differing == 0 {
        return Err(format!(
            "{} resamples all equalled the real state: the resampler sees hidden cards, or \
             the views show them",
            report.resamples
        ));
    }
    Ok(report)
}

fn one_game<G>(check: &Check<G>, seed: u64, report: &mut Report) -> Result<(), String>
where
    G: Game + PartialEq + Debug,
{
    let mut game = G::new(&check.rules, check.seats, seed).map_err(|e| format!("set-up: {e}"))?;
    let mut record = Record::<G>::new(check.rules.clone(), check.seats, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xC0DE_C0DE);
    // Actions seen legal at some point: probes for refusals later.
    let mut seen: Vec<G::Action> = Vec::new();
    for step in 0..=check.max_actions {
        let at = |what: String| format!("step {step}: {what}");
        let thorough = check.thorough_every <= 1 || rng.gen_range(0..check.thorough_every) == 0;
        if thorough {
            views_serialize(&game, check.seats).map_err(at)?;
        }
        let acting = game.to_act().seats().to_vec();
        if acting.is_empty() {
            if game.outcome().is_none() {
                return Err(at("the game is over but has no outcome".into()));
            }
            for seat in 0..check.seats {
                if !game.legal_actions(seat).is_empty() {
                    return Err(at(format!("seat {seat} has legal actions after the end")));
                }
            }
            let replayed = record
                .replay()
                .map_err(|e| at(format!("the record does not replay: {e}")))?;
            if replayed != game {
                return Err(at("the record replays to a different state".into()));
            }
            return Ok(());
        }
        if game.outcome().is_some() {
            return Err(at("the game has an outcome but seats may still act".into()));
        }
        for seat in 0..check.seats {
            let legal = game.legal_actions(seat);
            let acts = acting.contains(&seat);
            if acts && legal.is_empty() {
                return Err(at(format!("seat {seat} must act but has no legal action")));
            }
            if !acts && !legal.is_empty() {
                return Err(at(format!(
                    "seat {seat} is not to act but has legal actions: {legal:?}"
                )));
            }
            if !thorough {
                continue;
            }
            for a in &legal {
                let text = a.to_string();
                match text.parse::<G::Action>() {
                    Ok(back) if &back == a => {}
                    Ok(back) => {
                        return Err(at(format!("`{text}` reads back as {back:?}, not {a:?}")))
                    }
                    Err(e) => return Err(at(format!("`{text}` does not read back: {e}"))),
                }
                if !seen.contains(a) && seen.len() < 4096 {
                    seen.push(a.clone());
                }
            }
            // Some legal actions, applied on a copy, must be accepted.
            let mut order: Vec<usize> = (0..legal.len()).collect();
            for k in 0..order.len().min(check.tries) {
                let j = rng.gen_range(k..order.len());
                order.swap(k, j);
                let mut copy = game.clone();
                if let Err(e) = copy.apply(seat, &legal[order[k]]) {
                    return Err(at(format!(
                        "seat {seat}'s legal action `{}` was refused: {e}",
                        legal[order[k]]
                    )));
                }
            }
            // Actions not legal for this seat now must be refused and change nothing.
            let probes = seen.iter().filter(|a| !legal.contains(a)).take(3);
            for probe in probes {
                let before = game.clone();
                if game.apply(seat, probe).is_ok() {
                    return Err(at(format!(
                        "seat {seat} could play `{probe}`, which is not among its legal actions"
                    )));
                }
                if game != before {
                    return Err(at(format!(
                        "refusing `{probe}` to seat {seat} changed the state"
                    )));
                }
                report.refused += 1;
            }
        }
        if let Some(resample) = check.resample {
            if check.resample_every > 0 && step % check.resample_every == 0 {
                let seat = rng.gen_range(0..check.seats);
                let view = game.view(seat);
                let other = resample(&view, &mut rng)
                    .map_err(|e| at(format!("seat {seat}'s view does not resample: {e}")))?;
                let theirs =
                    serde_json::to_string(&other.view(seat)).map_err(|e| at(e.to_string()))?;
                let ours = serde_json::to_string(&view).map_err(|e| at(e.to_string()))?;
                if theirs != ours {
                    return Err(at(format!(
                        "a state resampled from seat {seat}'s view shows it another view: the \
                         view shows something the resampler cannot know, or the resampler is \
                         wrong\n  real:      {ours}\n  resampled: {theirs}"
                    )));
                }
                report.resamples += 1;
                if other != game {
                    report.resamples_differing += 1;
                }
            }
        }
        let seat = acting[rng.gen_range(0..acting.len())];
        let legal = game.legal_actions(seat);
        let action = legal[rng.gen_range(0..legal.len())].clone();
        game.apply(seat, &action)
            .map_err(|e| at(format!("seat {seat}'s legal `{action}` was refused: {e}")))?;
        record.actions.push((seat, action));
        report.actions += 1;
    }
    Err(format!("not over after {} actions", check.max_actions))
}

fn views_serialize<G: Game>(game: &G, seats: usize) -> Result<(), String> {
    for seat in (0..seats).map(Some).chain([None]) {
        let view = match seat {
            Some(s) => game.view(s),
            None => game.spectator_view(),
        };
        serde_json::to_string(&view)
            .map_err(|e| format!("the view of {seat:?} does not serialize: {e}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_race::Race;
    use crate::Seat;

    #[test]
    fn the_race_conforms() {
        let r = random_games::<Race>(&Check::new((), 2, 30)).unwrap();
        assert_eq!(r.games, 30);
        assert!(r.refused > 0, "probes were tried");
    }

    /// A race that accepts an illegal 3 is caught.
    #[derive(Clone, PartialEq, Debug)]
    struct Sloppy(Race);
    impl Game for Sloppy {
        const NAME: &'static str = "sloppy";
        type Rules = ();
        type Action = u8;
        type View = u8;
        type Event = u8;
        type Error = String;
        fn new(r: &(), s: usize, seed: u64) -> Result<Self, crate::SetupError> {
            Race::new(r, s, seed).map(Sloppy)
        }
        fn to_act(&self) -> crate::ToAct {
            self.0.to_act()
        }
        fn legal_actions(&self, seat: Seat) -> Vec<u8> {
            // Seat 1 may add 3 at its first turn only, so 3 becomes a probe later.
            let mut l = self.0.legal_actions(seat);
            if seat == 1 && self.0.total < 2 && !l.is_empty() {
                l.push(3);
            }
            l
        }
        fn apply(&mut self, seat: Seat, a: &u8) -> Result<Vec<u8>, String> {
            if *a == 3 && seat == self.0.turn && self.0.total < 5 {
                self.0.total += 3;
                self.0.turn = 1 - seat;
                return Ok(vec![self.0.total]);
            }
            self.0.apply(seat, a)
        }
        fn view(&self, s: Seat) -> u8 {
            self.0.view(s)
        }
        fn spectator_view(&self) -> u8 {
            self.0.spectator_view()
        }
        fn outcome(&self) -> Option<crate::Outcome> {
            self.0.outcome()
        }
    }

    #[test]
    fn an_illegal_action_accepted_is_caught() {
        let e = random_games::<Sloppy>(&Check::new((), 2, 200)).unwrap_err();
        assert!(e.contains("not among its legal actions"), "{e}");
    }
}
