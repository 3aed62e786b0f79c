//! One human and three bots at a table: whose turn it is, applying and recording actions.
//!
//! Both front-ends (line mode and the full-screen table) drive the game through this, so
//! they agree on what bots may see (their own view and legal actions, nothing else), on the
//! seeding that makes a run reproducible, and on what goes into the record.

use crate::PlayOptions;
use anyhow::{bail, Context};
use rand_chacha::ChaCha8Rng;
use tapete_mus::{Action, Event, MusGame, MusView, RuleError};
use tapete_table::{Bot, Game, Record, Seat};

/// Mixed into the seed for the bots' RNG so that it differs from the shuffle's.
pub const BOT_SEED_MIX: u64 = 0x7a9e_7e00_b075_5eed;

/// What happens next at the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Turn {
    /// The human must choose one of these actions.
    Human(Vec<Action>),
    /// The human's declaration (pares/juego), which has exactly one legal form: applied
    /// without asking.
    Auto(Action),
    /// This bot acts.
    Bot(Seat),
    /// The match is over.
    Over,
}

/// The game, the three bots and the record of every action applied.
pub(crate) struct Session {
    pub game: MusGame,
    pub record: Record<MusGame>,
    pub human: Seat,
    bots: Vec<Option<Box<dyn Bot<MusGame>>>>,
    rng: ChaCha8Rng,
    /// Whether the bots have been told the match is over.
    finished: bool,
    /// Problems reported by bots (outside programs that misbehaved), not yet shown.
    pub incidents: Vec<String>,
}

impl Session {
    /// Sets up the table, refusing a bad seat, bot level or rules with a reason.
    pub fn new(opts: &PlayOptions) -> anyhow::Result<Session> {
        if opts.human >= 4 {
            bail!("seat {} does not exist: seats are 0–3", opts.human);
        }
        let game = MusGame::new(&opts.rules, 4, opts.seed).context("cannot set up the table")?;
        let mut bots = Vec::with_capacity(4);
        for seat in 0..4 {
            if seat == opts.human {
                bots.push(None);
            } else {
                let mut bot =
                    tapete_mus_bots::by_name(opts.bot_for(seat)).map_err(anyhow::Error::msg)?;
                bot.start(seat, 4, &opts.rules);
                bots.push(Some(bot));
            }
        }
        Ok(Session {
            game,
            record: Record::new(opts.rules.clone(), 4, opts.seed),
            human: opts.human,
            bots,
            rng: tapete_cards::rng_from_seed(opts.seed ^ BOT_SEED_MIX),
            finished: false,
            incidents: Vec::new(),
        })
    }

    /// The human's view.
    pub fn view(&self) -> MusView {
        self.game.view(self.human)
    }

    /// Who acts next. When several seats act at once (the discards), the human goes first
    /// and the bots follow in seat order.
    pub fn turn(&self) -> Turn {
        let seats = self.game.to_act().seats().to_vec();
        if seats.is_empty() {
            return Turn::Over;
        }
        if seats.contains(&self.human) {
            let legal = self.game.legal_actions(self.human);
            if let [only @ (Action::Pares(_) | Action::Juego(_))] = legal.as_slice() {
                return Turn::Auto(only.clone());
            }
            return Turn::Human(legal);
        }
        Turn::Bot(seats[0])
    }

    /// Applies one action for `seat` and records it; refused actions change nothing.
    pub fn apply(&mut self, seat: Seat, action: &Action) -> Result<Vec<Event>, RuleError> {
        let events = self.game.apply(seat, action)?;
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
    pub fn bot_move(&mut self, seat: Seat) -> anyhow::Result<(Action, Vec<Event>)> {
        let legal = self.game.legal_actions(seat);
        if legal.is_empty() {
            bail!("seat {seat} was asked to act but has no legal action");
        }
        let view = self.game.view(seat);
        let Some(Some(bot)) = self.bots.get_mut(seat) else {
            bail!("seat {seat} has no bot");
        };
        let action = bot.act(&view, &legal, &mut self.rng);
        self.incidents.extend(bot.incidents());
        match self.apply(seat, &action) {
            Ok(events) => Ok((action, events)),
            Err(e) => bail!("the bot at seat {seat} chose `{action}`, which was refused: {e}"),
        }
    }
}
