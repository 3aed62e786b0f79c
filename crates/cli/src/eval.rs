//! `tapete mus eval`: four known hands resolved lance by lance, with the cuenta.

use crate::args::ModeArgs;
use crate::error::{CliError, CliResult};
use crate::text::{emit, pair_name, table};
use clap::{Args, Subcommand};
use serde_json::json;
use tapete_cards::Card;
use tapete_host::row;
use tapete_mus::eval::{validate_deal, Evaluation};
use tapete_mus::{Jugada, Lance, Mode};

/// Mus tools.
#[derive(Subcommand, Debug)]
pub enum MusCommand {
    /// Resolve four hands: who wins each lance, why, and the cuenta.
    Eval(EvalArgs),
    /// Exact odds (leyes) of a hand per position and lance, given the declarations heard.
    Leyes(crate::leyes::LeyesArgs),
    /// Exact counts of every jugada and category out of C(40,4).
    Tables(crate::tables::TablesArgs),
    /// Random deals: observed frequencies against the exact ones, and gains en paso.
    Simulate(crate::simulate::SimulateArgs),
    /// Bots' games with every hand known: the chance before each bet answered against
    /// the lances actually won, per lance and kind of bet.
    Calibrate(crate::calibrate::CalibrateArgs),
}

/// Arguments of `tapete mus eval`.
#[derive(Args, Debug)]
#[command(
    after_help = "Hands are in seat order, mano first: jugada notation (RRCA, 7654) or four \
cards as one argument (\"12o 3c 11e 1b\").\nExample: tapete mus eval S777 SSSA 754A \"11c 5o 4e 1b\""
)]
pub struct EvalArgs {
    /// The four hands, mano (position 0) first.
    #[arg(value_name = "HAND", required = true, num_args = 1..)]
    pub hands: Vec<String>,
    #[command(flatten)]
    pub mode: ModeArgs,
}

/// How a lance of pares or juego goes: bet by both pairs, taken unbet by one, or void.
fn status(winner: Option<usize>, bet: bool) -> String {
    match (winner, bet) {
        (None, _) => "void".into(),
        (Some(_), true) => "bet".into(),
        (Some(w), false) => format!("unbet: pair {} takes it", pair_name(w % 2)),
    }
}

/// Groups the arguments into four hand texts: four arguments, or sixteen single cards.
fn hand_texts(args: &[String]) -> CliResult<Vec<String>> {
    if args.len() == 16 && args.iter().all(|a| a.trim().parse::<Card>().is_ok()) {
        return Ok(args.chunks(4).map(|c| c.join(" ")).collect());
    }
    if args.len() != 4 {
        return Err(CliError::input(format!(
            "give exactly four hands, mano first (got {}); write cards of one hand as one \
             argument, like \"12o 3c 11e 1b\"",
            args.len()
        )));
    }
    Ok(args.to_vec())
}

/// Parses and checks the four hands: each must be a hand, together a possible deal.
pub fn parse_deal(args: &[String], mode: Mode) -> CliResult<[Jugada; 4]> {
    let texts = hand_texts(args)?;
    let mut hands = Vec::with_capacity(4);
    let mut seen: Vec<Card> = Vec::new();
    for (pos, text) in texts.iter().enumerate() {
        let j = Jugada::parse(text, mode)
            .map_err(|e| CliError::input(format!("hand {pos} (`{}`): {e}", text.trim())))?;
        if text.split_whitespace().count() > 1 {
            for c in text.split(|c: char| c.is_whitespace() || c == ',') {
                if let Ok(card) = c.parse::<Card>() {
                    if seen.contains(&card) {
                        return Err(CliError::input(format!(
                            "these four hands are not a possible deal: {card} appears twice"
                        )));
                    }
                    seen.push(card);
                }
            }
        }
        hands.push(j);
    }
    let hands: [Jugada; 4] = hands
        .try_into()
        .map_err(|_| CliError::input("give exactly four hands"))?;
    validate_deal(&hands, mode).map_err(|e| CliError::input(e.to_string()))?;
    Ok(hands)
}

/// Runs `tapete mus eval`.
pub fn run(a: &EvalArgs, json: bool) -> CliResult {
    let hands = parse_deal(&a.hands, a.mode.mode)?;
    let ev = Evaluation::new(hands, a.mode.real31);
    if json {
        emit(&format!("{}\n", to_json(&ev, a.mode.mode)))
    } else {
        emit(&to_text(&ev, a.mode.mode))
    }
}

/// The evaluation as the documented JSON object.
pub fn to_json(ev: &Evaluation, mode: Mode) -> serde_json::Value {
    let reasons: serde_json::Map<String, serde_json::Value> = Lance::ALL
        .iter()
        .map(|&l| (l.name().to_string(), json!(ev.reason(l))))
        .collect();
    json!({
        "mode": mode.to_string(),
        "real31": ev.real31,
        "hands": ev.hands.iter().map(|h| h.to_string()).collect::<Vec<_>>(),
        "grande": ev.grande,
        "chica": ev.chica,
        "pares": ev.pares,
        "pares_bet": ev.pares_bet,
        "juego": ev.juego,
        "juego_bet": ev.juego_bet,
        "punto": ev.punto,
        "cuenta": ev.cuenta,
        "en_paso": ev.en_paso,
        "reasons": reasons,
        "status": {
            "pares": status(ev.pares, ev.pares_bet),
            "juego": status(ev.juego, ev.juego_bet),
        },
    })
}

/// The evaluation as aligned text.
pub fn to_text(ev: &Evaluation, mode: Mode) -> String {
    let mut out = format!(
        "mode {mode}, 31 real {}\n\n",
        if ev.real31 { "on" } else { "off" }
    );
    let mut rows = vec![row!["pos", "hand", "pair", "value", ""]];
    for (p, h) in ev.hands.iter().enumerate() {
        let role = match p {
            0 => "mano",
            3 => "postre",
            _ => "",
        };
        rows.push(row![p, h, pair_name(p % 2), h.value(), role]);
    }
    out.push_str(&table(&rows));
    out.push('\n');
    let mut rows = vec![row!["lance", "winner", "pair", "status", "reason"]];
    for lance in Lance::ALL {
        let w = ev.winner(lance);
        let st = match lance {
            Lance::Grande | Lance::Chica => "played".to_string(),
            Lance::Pares => status(ev.pares, ev.pares_bet),
            Lance::Juego => status(ev.juego, ev.juego_bet),
            Lance::Punto if ev.juego.is_some() => "not played".to_string(),
            Lance::Punto => "played".to_string(),
        };
        let (pos, pair) = match w {
            Some(w) => (w.to_string(), pair_name(w % 2)),
            None => ("—".to_string(), "—".to_string()),
        };
        rows.push(vec![
            lance.name().to_string(),
            pos,
            pair,
            st,
            ev.reason(lance),
        ]);
    }
    out.push_str(&table(&rows));
    out.push('\n');
    let rows = vec![
        row![
            "piedras",
            format!("pair {}", pair_name(0)),
            format!("pair {}", pair_name(1))
        ],
        row!["cuenta", ev.cuenta[0], ev.cuenta[1]],
        row!["all en paso", ev.en_paso[0], ev.en_paso[1]],
    ];
    out.push_str(&table(&rows));
    out
}
