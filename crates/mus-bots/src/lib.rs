//! Mus computer players. Each sees only its own [`tapete_mus::MusView`] and the legal
//! actions: no peeking, ever.
//!
//! Choose one by name with [`by_name`]: `random`, `basico`, `avanzado`, `experto`,
//! `maestro` (with its budget: `maestro:iters=500`, `maestro:ms=200`), the threshold family
//! [`umbral`] (`umbral:tight`, `umbral:loose`, `umbral:seed=N`), an opponent style (`conservador`,
//! `agresivo`, `farolero`, `pasivo`, `cortamus`: experto's reading with one trait changed
//! and no read of the table, see [`policy::style`]), or `cmd:COMMAND` for an outside program speaking the bot protocol
//! (`docs/bot-protocol.md`), e.g. `cmd:python3 mus_bot.py`.
//!
//! ```
//! let bot = tapete_mus_bots::by_name("basico").unwrap();
//! assert!(tapete_mus_bots::by_name("genius").is_err());
//! # drop(bot);
//! ```

mod avanzado;
mod basico;
pub mod calibrate;
pub mod discard;
mod experto;
pub mod leyes_cache;
pub mod maestro;
pub mod policy;
pub mod read;
pub mod review;
pub mod screen;
pub mod strength;
pub mod umbral;

pub use avanzado::Avanzado;
pub use basico::Basico;
pub use experto::Experto;
pub use maestro::Maestro;
pub use tapete_mus::bots::RandomMus;
pub use umbral::Umbral;

use std::time::Duration;
use tapete_mus::Action;

/// Whether `action` bets: an envite, a raise or an órdago (what a rival must answer).
pub(crate) fn is_bet(action: &Action) -> bool {
    matches!(
        action,
        Action::Envido(_) | Action::Reenvido(_) | Action::Ordago
    )
}
use tapete_mus::MusGame;
use tapete_table::{Bot, ProcessBot, ProcessOptions};

/// Names of every level, weakest first.
pub const LEVELS: &[&str] = &["random", "basico", "avanzado", "experto", "maestro"];

/// Every built-in player: the levels, the opponent styles ([`policy::STYLES`]), then the
/// threshold family [`umbral`] (`umbral:tight`, `umbral:loose`, `umbral:seed=N`, …).
pub const PLAYERS: &[&str] = &[
    "random",
    "basico",
    "avanzado",
    "experto",
    "maestro",
    "conservador",
    "agresivo",
    "farolero",
    "pasivo",
    "cortamus",
    "umbral",
];

/// The bot called `name`, or an error listing the names. A level may carry parameters
/// after a colon: `maestro:iters=500`, `maestro:ms=200,policy=avanzado`. `cmd:COMMAND` runs COMMAND (kept as written, case
/// and all) as a protocol bot with the default answer timeout.
pub fn by_name(name: &str) -> Result<Box<dyn Bot<MusGame>>, String> {
    let (level, params) = name.trim().split_once(':').unwrap_or((name.trim(), ""));
    let level = level.trim().to_lowercase();
    if level == "cmd" {
        return command_bot(params, ProcessOptions::new("mus").timeout).map(|b| Box::new(b) as _);
    }
    let params = params.trim().to_lowercase();
    let params = params.as_str();
    match level.as_str() {
        "random" => Ok(Box::new(RandomMus)),
        "basico" | "básico" => Ok(Box::new(Basico::default())),
        "avanzado" => Ok(Box::new(Avanzado::default())),
        "experto" => Ok(Box::new(Experto::default())),
        "maestro" => Ok(Box::new(maestro_params(params)?)),
        "umbral" => Ok(Box::new(umbral::umbral_params(params)?)),
        other => match policy::style(other) {
            Some(style) => Ok(Box::new(Experto::fixed(style))),
            None => Err(format!(
                "`{other}` is not a bot level: choose one of {}, or cmd:COMMAND",
                PLAYERS.join(", ")
            )),
        },
    }
}

/// A seat played by `command` through the bot protocol, waiting at most `timeout` for
/// each answer; the `random` level plays whatever the program fails to decide.
pub fn command_bot(command: &str, timeout: Duration) -> Result<ProcessBot<MusGame>, String> {
    let command = command.trim();
    if command.is_empty() {
        return Err("`cmd:` needs a command to run, e.g. cmd:python3 mus_bot.py".into());
    }
    let options = ProcessOptions {
        timeout,
        ..ProcessOptions::new("mus")
    };
    Ok(ProcessBot::new(command, options, Box::new(RandomMus)))
}

/// Parses maestro's parameters, comma-separated: `iters=N` (a fixed number of rollouts per
/// decision, 1–1000000, for reproducible play), `ms=N` (a time budget per decision,
/// 1–10000 milliseconds) or both (N rollouts unless the time runs out first;
/// [`maestro::DEFAULT_BUDGET`], 256 rollouts within a second, when neither is given),
/// `policy=LEVEL` (who plays the rollouts: basico, avanzado or experto, the default),
/// `read=on|off` (read each rival's habits this match, the default, or play every rival as
/// the rollout policy; see [`maestro`]) and `ordago=evidence|policy` (with the read, a
/// rival answers our órdagos by the folds it has shown, the default, or as the rollout
/// policy from the start) and `robust=on|off` (an órdago of ours valued by its worst case
/// over the answer models the evidence leaves, the default, or by the read alone) and
/// `evidence=on|off` (the rivals' answers, cards shown or not, weigh those models, the
/// default, or only shown answers rule them out) and `bets=on|off` (the rivals' bets and
/// pasos weigh the models of their bets, the default, or only shown bets rule them out).
/// Empty gives the defaults.
pub fn maestro_params(params: &str) -> Result<Maestro, String> {
    let mut m = Maestro::default();
    let (mut ms, mut iters) = (None, None);
    for part in params.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part.split_once('=') {
            Some(("ms", n)) => match n.trim().parse::<u64>() {
                _ if ms.is_some() => return Err("maestro: ms= is given twice".into()),
                Ok(n) if (1..=10_000).contains(&n) => ms = Some(n),
                _ => {
                    return Err(format!(
                        "maestro:ms={n}: the budget is 1 to 10000 milliseconds"
                    ))
                }
            },
            Some(("iters", n)) => match n.trim().parse::<u32>() {
                _ if iters.is_some() => return Err("maestro: iters= is given twice".into()),
                Ok(n) if (1..=1_000_000).contains(&n) => iters = Some(n),
                _ => {
                    return Err(format!(
                        "maestro:iters={n}: the budget is 1 to 1000000 rollouts"
                    ))
                }
            },
            Some(("read", v)) => match v.trim() {
                "on" => m.read = true,
                "off" => m.read = false,
                _ => {
                    return Err(format!(
                        "maestro:read={v}: reading the table is on (the default) or off"
                    ))
                }
            },
            Some(("ordago", v)) => match v.trim() {
                "evidence" => m.answers = maestro::Answers::Evidence,
                "policy" => m.answers = maestro::Answers::Policy,
                _ => {
                    return Err(format!(
                        "maestro:ordago={v}: the rivals answer órdagos by the evidence \
                         (the default) or as the rollout policy"
                    ))
                }
            },
            Some(("robust", v)) => match v.trim() {
                "on" => m.robust = true,
                "off" => m.robust = false,
                _ => {
                    return Err(format!(
                        "maestro:robust={v}: valuing our órdagos by their worst case is on \
                         (the default) or off"
                    ))
                }
            },
            Some(("evidence", v)) => match v.trim() {
                "on" => m.weigh_answers = true,
                "off" => m.weigh_answers = false,
                _ => {
                    return Err(format!(
                        "maestro:evidence={v}: weighing the answer models by every answer \
                         of the rivals is on (the default) or off (shown answers only)"
                    ))
                }
            },
            Some(("bets", v)) => match v.trim() {
                "on" => m.weigh_bets = true,
                "off" => m.weigh_bets = false,
                _ => {
                    return Err(format!(
                        "maestro:bets={v}: weighing the bettor models by every call of \
                         the rivals is on (the default) or off (shown bets only)"
                    ))
                }
            },
            Some(("policy", name)) => {
                m.rollout = maestro::Policy::by_name(name.trim()).ok_or_else(|| {
                    format!(
                        "maestro:policy={name}: the rollout policy is basico, avanzado or experto"
                    )
                })?
            }
            _ => {
                return Err(format!(
                    "`maestro:{params}`: maestro takes iters=N, ms=N (or both: N rollouts \
                     unless the milliseconds pass first), policy=LEVEL, read=on|off, \
                     ordago=evidence|policy, robust=on|off, evidence=on|off and bets=on|off, \
                     comma-separated, \
                     e.g. maestro:iters=500,policy=avanzado"
                ))
            }
        }
    }
    m.budget = maestro::Budget::from_given(iters, ms, m.budget);
    Ok(m)
}
