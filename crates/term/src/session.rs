//! One human and bots at a table: whose turn it is, applying and recording actions.
//!
//! Both front-ends (line mode and the full-screen table) drive the game through this, so
//! they agree on what bots may see (their own view and legal actions, nothing else), on the
//! seeding that makes a run reproducible, and on what goes into the record.

use crate::PlayOptions;
use anyhow::{anyhow, bail};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;
use tapete_host::face::{ActionOf, EventOf, ViewOf};
use tapete_host::Face;
use tapete_table::{Bot, Game, Record, Seat};

/// Mixed into the seed for the bots' RNG so that it differs from the shuffle's.
pub const BOT_SEED_MIX: u64 = 0x7a9e_7e00_b075_5eed;

/// What happens next at the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Turn<A> {
    /// The human must choose one of these actions.
    Human(Vec<A>),
    /// The human's only sensible action (the face's [`Face::forced`]): applied without
    /// asking.
    Auto(A),
    /// This bot acts.
    Bot(Seat),
    /// The next action of the opening the table was given (`play --from`), played as it
    /// was recorded, whoever's it is.
    Opening(Seat, A),
    /// The match is over.
    Over,
}

/// The game, the bots and the record of every action applied.
pub(crate) struct Session<H: Face> {
    pub game: H::G,
    pub record: Record<H::G>,
    pub human: Seat,
    /// The name shown for each seat's bot (`None` at the human's seat).
    pub names: Vec<Option<String>>,
    bots: Vec<Option<Box<dyn Bot<H::G>>>>,
    rng: ChaCha8Rng,
    /// Whether the bots have been told the match is over.
    finished: bool,
    /// Problems reported by bots (outside programs that misbehaved), not yet shown.
    pub incidents: Vec<String>,
    /// The opening not yet played ([`Turn::Opening`]).
    opening: VecDeque<(Seat, ActionOf<H>)>,
}

impl<H: Face> Session<H> {
    /// Sets up the table, refusing a bad seat count, seat, bot list or rules with a reason.
    pub fn new(opts: PlayOptions<H>) -> anyhow::Result<Session<H>> {
        let PlayOptions {
            rules,
            seats,
            seed,
            human,
            bots,
            opening,
        } = opts;
        tapete_host::check_seats::<H>(seats).map_err(anyhow::Error::msg)?;
        if human >= seats {
            bail!(
                "seat {human} does not exist: seats are 0–{} at a table of {seats}",
                seats - 1
            );
        }
        if bots.len() != seats {
            bail!(
                "a table of {seats} seats needs one entry per seat in the bot list, not {}",
                bots.len()
            );
        }
        H::validate_rules(&rules, seats).map_err(anyhow::Error::msg)?;
        let game =
            H::G::new(&rules, seats, seed).map_err(|e| anyhow!("cannot set up the table: {e}"))?;
        let mut names = Vec::with_capacity(seats);
        let mut seated = Vec::with_capacity(seats);
        for (seat, bot) in bots.into_iter().enumerate() {
            match (seat == human, bot) {
                (true, None) => {
                    names.push(None);
                    seated.push(None);
                }
                (true, Some((name, _))) => {
                    bail!("seat {seat} is the human's, but the bot `{name}` was given for it")
                }
                (false, None) => bail!("seat {seat} has no bot: every seat but yours needs one"),
                (false, Some((name, mut bot))) => {
                    bot.start(seat, seats, &rules);
                    if let Some(why) = bot.unable() {
                        bail!("the bot `{name}` at seat {seat} cannot play: {why}");
                    }
                    names.push(Some(name));
                    seated.push(Some(bot));
                }
            }
        }
        Ok(Session {
            game,
            record: Record::new(rules, seats, seed),
            human,
            names,
            bots: seated,
            rng: ChaCha8Rng::seed_from_u64(seed ^ BOT_SEED_MIX),
            finished: false,
            incidents: Vec::new(),
            opening: opening.into(),
        })
    }

    /// Plays the next action of the opening ([`Turn::Opening`]) for the seat that made
    /// it, with its events. A refused action stops the table with its place in the opening.
    pub fn opening_step(&mut self) -> anyhow::Result<(Seat, ActionOf<H>, Vec<EventOf<H>>)> {
        let done = self.record.actions.len();
        let Some((seat, action)) = self.opening.pop_front() else {
            bail!("the opening is over");
        };
        match self.apply(seat, &action) {
            Ok(events) => Ok((seat, action, events)),
            Err(e) => {
                self.opening.clear();
                bail!("the opening's action {done} (seat {seat}: `{action}`) was refused: {e}")
            }
        }
    }

    /// The human's view.
    pub fn view(&self) -> ViewOf<H> {
        self.game.view(self.human)
    }

    /// How many seats the table has.
    pub fn seats(&self) -> usize {
        self.record.seats
    }

    /// The seats that may act now (empty once over).
    pub fn to_act(&self) -> Vec<Seat> {
        self.game.to_act().seats().to_vec()
    }

    /// Who acts next. When several seats act at once (Mus's discards), the human goes
    /// first and the bots follow in seat order.
    pub fn turn(&self) -> Turn<ActionOf<H>> {
        if let Some((seat, action)) = self.opening.front() {
            return Turn::Opening(*seat, action.clone());
        }
        let seats = self.to_act();
        let Some(&first) = seats.first() else {
            return Turn::Over;
        };
        if seats.contains(&self.human) {
            let legal = self.game.legal_actions(self.human);
            if let Some(action) = H::forced(&legal) {
                return Turn::Auto(action);
            }
            return Turn::Human(legal);
        }
        Turn::Bot(first)
    }

    /// Applies one action for `seat` and records it; refused actions change nothing and
    /// come back as the engine's reason.
    pub fn apply(&mut self, seat: Seat, action: &ActionOf<H>) -> Result<Vec<EventOf<H>>, String> {
        let events = self.game.apply(seat, action).map_err(|e| e.to_string())?;
        self.record.actions.push((seat, action.clone()));
        if !self.finished && self.game.outcome().is_some() {
            self.finished = true;
            let outcome = self.game.outcome();
            for (seat, bot) in self.bots.iter_mut().enumerate() {
                if let Some(bot) = bot {
                    bot.finish(outcome.as_ref(), &self.game.view(seat));
                }
            }
        }
        Ok(events)
    }

    /// Lets the bot at `seat` choose from its own view and legal actions, and applies it.
    pub fn bot_move(&mut self, seat: Seat) -> anyhow::Result<(ActionOf<H>, Vec<EventOf<H>>)> {
        let legal = self.game.legal_actions(seat);
        if legal.is_empty() {
            bail!("seat {seat} was asked to act but has no legal action");
        }
        let view = self.game.view(seat);
        let Some(Some(bot)) = self.bots.get_mut(seat) else {
            bail!("seat {seat} has no bot");
        };
        let action = bot.act(&view, &legal, &mut self.rng);
        // A program that could not run at all (not found, not executable) ends the game
        // with its reason, as in the arena: a stand-in would hide the mistake.
        if let Some(why) = bot.unable() {
            bail!("the bot at seat {seat} cannot play: {why}");
        }
        self.incidents.extend(bot.incidents());
        match self.apply(seat, &action) {
            Ok(events) => Ok((action, events)),
            Err(e) => bail!("the bot at seat {seat} chose `{action}`, which was refused: {e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_ring::RingHost;
    use tapete_host::test_race::RaceHost;
    use tapete_table::RandomBot;

    fn refusal<H: Face>(opts: PlayOptions<H>) -> String {
        match Session::new(opts) {
            Ok(_) => panic!("set up a table it should have refused"),
            Err(e) => e.to_string(),
        }
    }

    fn random<H: Face>(name: &str) -> Option<crate::NamedBot<H::G>> {
        Some((name.to_string(), Box::new(RandomBot)))
    }

    #[test]
    fn bad_tables_are_refused_with_the_reason() {
        let e = refusal(PlayOptions::<RingHost> {
            rules: (),
            seats: 9,
            seed: 0,
            human: 0,
            bots: (0..9).map(|_| random::<RingHost>("r")).collect(),
            opening: Vec::new(),
        });
        assert_eq!(e, "Ring is played by 2–8 players, not 9");
        let e = refusal(PlayOptions::<RaceHost>::new((), 2, 0, 2, "random").expect("options"));
        assert_eq!(e, "seat 2 does not exist: seats are 0–1 at a table of 2");
        let e = refusal(PlayOptions::<RingHost> {
            rules: (),
            seats: 3,
            seed: 0,
            human: 0,
            bots: vec![None, random::<RingHost>("r")],
            opening: Vec::new(),
        });
        assert!(
            e.contains("needs one entry per seat") && e.contains("not 2"),
            "{e}"
        );
        let e = refusal(PlayOptions::<RingHost> {
            rules: (),
            seats: 3,
            seed: 0,
            human: 1,
            bots: vec![random::<RingHost>("a"), random::<RingHost>("b"), None],
            opening: Vec::new(),
        });
        assert_eq!(e, "seat 1 is the human's, but the bot `b` was given for it");
        let e = refusal(PlayOptions::<RingHost> {
            rules: (),
            seats: 3,
            seed: 0,
            human: 0,
            bots: vec![None, None, random::<RingHost>("c")],
            opening: Vec::new(),
        });
        assert_eq!(e, "seat 1 has no bot: every seat but yours needs one");
        assert!(PlayOptions::<RaceHost>::new((), 2, 0, 0, "genius").is_err());
        assert!(PlayOptions::<RaceHost>::new((), 3, 0, 0, "random").is_err());
    }

    #[test]
    fn the_human_acts_first_and_bots_follow_in_turn() {
        let mut s = Session::new(PlayOptions::<RingHost>::new((), 4, 0, 2, "random").expect("o"))
            .expect("session");
        assert_eq!(s.turn(), Turn::Bot(0));
        s.bot_move(0).expect("bot");
        s.bot_move(1).expect("bot");
        assert_eq!(s.turn(), Turn::Human(vec![1, 2, 3]));
        assert!(s.bot_move(2).is_err(), "no bot plays the human's seat");
        let e = s.apply(2, &7).expect_err("not legal");
        assert_eq!(e, "seat 2 cannot add 7 now");
        assert_eq!(s.record.actions.len(), 2, "a refusal is not recorded");
        s.apply(2, &3).expect("legal");
        assert_eq!(s.turn(), Turn::Bot(3));
    }
}
