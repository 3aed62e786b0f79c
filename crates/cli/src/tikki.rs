//! `tapete tikki best`: which combination a lay of tikki cards counts as.

use crate::error::{CliError, CliResult};
use crate::text::emit;
use clap::{Args, Subcommand};
use serde_json::json;
use tapete_tikki::{best, Card, Cards};

/// Tikki tools.
#[derive(Subcommand, Debug)]
pub enum TikkiCommand {
    /// The best combination among some cards: the one a lay of them counts as.
    Best(BestArgs),
}

/// Arguments of `tapete tikki best`.
#[derive(Args, Debug)]
#[command(
    after_help = "Cards: rank 1 (ace, lowest) to 13, then suit S H D C (or ♠ ♥ ♦ ♣).\n\
Example: tapete tikki best 3S 3H 4H 4D 5D   (4D 5D, a 2-card straight flush)\n\n\
--json: {\"type\": straight_flush_7 … straight_flush_2 | four_of_a_kind | \
three_of_a_kind | pair | single, \"cards\": [...], \"top\": \"5D\"}."
)]
pub struct BestArgs {
    /// The cards (one argument each, or several in one quoted argument).
    #[arg(value_name = "CARD", required = true, num_args = 1..)]
    pub cards: Vec<String>,
}

fn parse_cards(args: &[String]) -> CliResult<Cards> {
    let mut cards = Cards::EMPTY;
    for word in args.iter().flat_map(|a| a.split_whitespace()) {
        let card: Card = word.parse().map_err(|e| CliError::input(format!("{e}")))?;
        if !cards.insert(card) {
            return Err(CliError::input(format!(
                "{card} is given twice: a deck has one of each card"
            )));
        }
    }
    if cards.is_empty() {
        return Err(CliError::input("give at least one card, e.g. 3S 4S"));
    }
    Ok(cards)
}

/// `tapete tikki best CARDS`.
pub fn run_best(a: &BestArgs, json: bool) -> CliResult {
    let cards = parse_cards(&a.cards)?;
    let b = best(cards).ok_or_else(|| CliError::input("no cards"))?;
    if json {
        let v = json!({
            "type": b.kind.key(),
            "cards": b.cards.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
            "top": b.top.to_string(),
        });
        return emit(&format!("{v}\n"));
    }
    let rest = cards.difference(b.cards);
    let mut out = format!("{}: {}\ntop card: {}\n", b.kind, b.cards, b.top);
    if !rest.is_empty() {
        out.push_str(&format!("not counted: {rest}\n"));
    }
    emit(&out)
}
