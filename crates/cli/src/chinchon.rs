//! `tapete chinchon analyze` and `tapete chinchon odds`: the meld solver and the exact odds
//! of closing, for any hand and table options.

use crate::error::{CliError, CliResult};
use crate::text::{emit, percent, table};
use clap::{Args, Subcommand};
use serde_json::{json, Value};
use tapete_chinchon::narrate::{cards_text, melds_text};
use tapete_chinchon::ChinchonDeck;
use tapete_chinchon::{Analysis, Card, ChinchonRules, Close, Solver};
use tapete_chinchon_odds::{odds, Query};
use tapete_host::row;

/// Chinchón tools.
#[derive(Subcommand, Debug)]
pub enum ChinchonCommand {
    /// The best melds of 7 or 8 cards: deadwood, whether they close (menos diez,
    /// chinchón), and for 8 cards every discard.
    Analyze(AnalyzeArgs),
    /// Exact odds of closing: with the next stock card (the outs), and within 1–3 draws
    /// discarding as well as possible.
    Odds(OddsArgs),
}

/// Table options the tools take (those that change melds, values and the deck).
#[derive(Args, Debug, Clone)]
pub struct ToolRules {
    /// The deck: 40 (no 8 and 9) or 48 cards.
    #[arg(long, value_name = "40|48", default_value = "40")]
    pub deck: u8,
    /// Jokers (comodines) per deck: 0, 1 or 2; write a joker `J`.
    #[arg(long, value_name = "N", default_value = "0")]
    pub jokers: u8,
    /// What a joker left unmatched counts: 50 or 25.
    #[arg(long, value_name = "POINTS", default_value = "50")]
    pub joker_penalty: u8,
    /// The most the one unmatched card of a normal close may count: 3, 4 or 5.
    #[arg(long, value_name = "N", default_value = "3")]
    pub close_limit: u8,
    /// What sota, caballo and rey count: number (10, 11, 12), ten, or eight_nine_ten.
    #[arg(long, value_name = "VALUES", default_value = "number")]
    pub figures: String,
}

impl ToolRules {
    fn rules(&self) -> CliResult<ChinchonRules> {
        let v = json!({
            "deck": self.deck,
            "jokers": self.jokers,
            "joker_penalty": self.joker_penalty,
            "close_limit": self.close_limit,
            "figures": self.figures.trim().to_lowercase(),
        });
        let rules: ChinchonRules =
            serde_json::from_value(v).map_err(|e| CliError::usage(format!("options: {e}")))?;
        rules.validate().map_err(CliError::usage)?;
        Ok(rules)
    }
}

/// Arguments of `tapete chinchon analyze`.
#[derive(Args, Debug)]
#[command(
    after_help = "Cards: number + suit letter (o oros, c copas, e espadas, b bastos; 10 sota, \
11 caballo, 12 rey), J for a joker.\nExample: tapete chinchon analyze 1o 2o 3o 7c 7e 7b 12o 4o\n\n\
--json: {\"cards\", \"melds\" (lists of cards), \"unmatched\", \"deadwood\", \"can_close\", \
\"close\", \"menos_diez\", \"chinchon\"} and, for 8 cards, \"discards\" ([{\"card\", \
\"deadwood\", \"can_close\", \"close\"}]) and \"best_discard\"."
)]
pub struct AnalyzeArgs {
    /// Up to 8 cards (one argument each, or several in one quoted argument).
    #[arg(value_name = "CARD", required = true, num_args = 1..)]
    pub cards: Vec<String>,
    /// Decks shuffled together: 1, or 2 (then a card may be named twice).
    #[arg(long, value_name = "1|2", default_value = "1")]
    pub decks: u8,
    #[command(flatten)]
    pub rules: ToolRules,
}

/// Arguments of `tapete chinchon odds`.
#[derive(Args, Debug)]
#[command(
    after_help = "HAND is the seven cards you hold; --seen the cards you know are out of the \
stock (the discard pile, cards others took from it). Every unseen card is equally likely to \
come next. When --draws asks for more draws than there are unseen cards, the stock runs out \
and is rebuilt as at the table: the --seen cards are taken to lie on the discard pile, so \
they come back with your own discards (all but the last, which stays on top); nobody else's \
draws are counted. So \"within K\" never falls as K grows.\nExample: tapete chinchon odds 1o 2o 3o 7c 7e 7b 12b --seen \"4o 3c\" --draws 3\n\n\
--json: {\"hand\", \"seen\", \"unseen\", \"closes_now\", \"p_next\", \"outs\" (cards), \
\"outs_unseen\" ([{\"card\", \"unseen\"}]), \"within\" ([{\"draws\", \"p\", \"fraction\"}])}."
)]
pub struct OddsArgs {
    /// The seven cards held.
    #[arg(value_name = "CARD", required = true, num_args = 1..)]
    pub hand: Vec<String>,
    /// Cards known to be out of the stock, space-separated in one argument.
    #[arg(long, value_name = "CARDS", default_value = "")]
    pub seen: String,
    /// Look ahead this many draws: 1 to 3.
    #[arg(long, value_name = "K", default_value = "1")]
    pub draws: u8,
    /// Decks shuffled together: 1, or 2 (tables above four players).
    #[arg(long, value_name = "1|2", default_value = "1")]
    pub decks: u8,
    /// Print the exact fractions too.
    #[arg(long)]
    pub exact: bool,
    #[command(flatten)]
    pub rules: ToolRules,
}

/// Cards from arguments, each possibly holding several separated by spaces or commas.
fn parse_cards(args: &[String]) -> CliResult<Vec<Card>> {
    let mut out = Vec::new();
    for a in args {
        for word in a.split(|c: char| c.is_whitespace() || c == ',') {
            if word.is_empty() {
                continue;
            }
            out.push(
                word.parse::<Card>()
                    .map_err(|e| CliError::input(e.to_string()))?,
            );
        }
    }
    Ok(out)
}

/// Checks the number of decks: 1 or 2.
fn check_decks(decks: u8) -> CliResult {
    if (1..=2).contains(&decks) {
        Ok(())
    } else {
        Err(CliError::usage(format!(
            "--decks: 1, or 2 (tables above four players), not {decks}"
        )))
    }
}

/// Checks every card is in the deck the options describe, each at most as often as the
/// deck holds it.
fn check_deck(rules: &ChinchonRules, decks: u8, cards: &[Card]) -> CliResult {
    let deck = rules.deck.spec(rules.jokers, decks);
    for &c in cards {
        deck.check(c)
            .map_err(|e| CliError::input(format!("`{c}`: {e}")))?;
        let named = cards.iter().filter(|&&x| x == c).count();
        if named > usize::from(deck.copies(c)) {
            return Err(CliError::input(format!(
                "`{c}` is named {named} times, but the deck holds {}",
                deck.copies(c)
            )));
        }
    }
    Ok(())
}

fn close_text(c: Close) -> String {
    match c {
        Close::Chinchon => "chinchón".into(),
        Close::MenosDiez => "menos diez".into(),
        Close::Normal { card, points } => format!("normal, {card} left ({points})"),
    }
}

fn close_json(c: Option<Close>) -> Value {
    match c {
        None => Value::Null,
        Some(Close::Chinchon) => json!("chinchon"),
        Some(Close::MenosDiez) => json!("menos_diez"),
        Some(Close::Normal { .. }) => json!("normal"),
    }
}

fn strings(cards: &[Card]) -> Vec<String> {
    cards.iter().map(Card::to_string).collect()
}

/// Runs `tapete chinchon analyze`.
pub fn analyze(a: &AnalyzeArgs, json: bool) -> CliResult {
    let rules = a.rules.rules()?;
    let cards = parse_cards(&a.cards)?;
    if cards.is_empty() || cards.len() > 8 {
        return Err(CliError::input(format!(
            "give 1 to 8 cards (7 held, or 8 with the one drawn), not {}",
            cards.len()
        )));
    }
    check_decks(a.decks)?;
    check_deck(&rules, a.decks, &cards)?;
    let solver = Solver::new(&rules);
    let an = solver
        .analyze(&cards)
        .map_err(|e| CliError::input(e.to_string()))?;
    if json {
        return emit(&format!("{}\n", analysis_json(&an)));
    }
    emit(&analysis_text(&an))
}

fn analysis_json(an: &Analysis) -> Value {
    let melds: Vec<Vec<String>> = an.melds().iter().map(|m| strings(&m.cards)).collect();
    let mut v = json!({
        "cards": strings(an.cards()),
        "melds": melds,
        "unmatched": strings(&an.unmatched()),
        "deadwood": an.deadwood(),
        "can_close": an.can_close(),
        "close": close_json(an.close()),
        "menos_diez": an.menos_diez(),
        "chinchon": an.chinchon(),
    });
    if an.cards().len() == 8 {
        let discards: Vec<Value> = an
            .discards()
            .iter()
            .map(|d| {
                json!({
                    "card": d.card.to_string(),
                    "deadwood": d.deadwood,
                    "can_close": d.can_close(),
                    "close": close_json(d.close),
                })
            })
            .collect();
        v["discards"] = Value::Array(discards);
        v["best_discard"] = an
            .best_discard()
            .map(|d| json!(d.card.to_string()))
            .unwrap_or(Value::Null);
    }
    v
}

fn analysis_text(an: &Analysis) -> String {
    let melds = an.melds();
    let mut rows = vec![
        row!["cards", cards_text(an.cards())],
        row![
            "melds",
            if melds.is_empty() {
                "none".to_string()
            } else {
                melds_text(&melds)
            }
        ],
        row!["unmatched", cards_text(&an.unmatched())],
        row!["deadwood", an.deadwood()],
    ];
    let close = match an.close() {
        Some(c) if an.cards().len() == 8 => format!("yes: {}", close_text(c)),
        Some(c) => format!("yes: {}", close_text(c)),
        None => "no".to_string(),
    };
    rows.push(row!["can close", close]);
    let mut out = table(&rows);
    if an.cards().len() == 8 {
        out.push_str("\ndiscards:\n");
        let mut rows = vec![row!["card", "deadwood", "close"]];
        let mut seen: Vec<Card> = Vec::new();
        for d in an.discards() {
            if seen.contains(&d.card) {
                continue;
            }
            seen.push(d.card);
            rows.push(row![
                d.card,
                d.deadwood,
                d.close.map(close_text).unwrap_or("—".into())
            ]);
        }
        out.push_str(&table(&rows));
        if let Some(best) = an.best_discard() {
            out.push_str(&format!("best discard: {}\n", best.card));
        }
    }
    out
}

/// Runs `tapete chinchon odds`.
pub fn run_odds(a: &OddsArgs, json: bool) -> CliResult {
    let rules = a.rules.rules()?;
    let hand = parse_cards(&a.hand)?;
    let seen = parse_cards(std::slice::from_ref(&a.seen))?;
    let mut all = hand.clone();
    all.extend(&seen);
    check_decks(a.decks)?;
    check_deck(&rules, a.decks, &all)?;
    let q = Query {
        rules,
        decks: a.decks,
        hand: hand.clone(),
        seen: seen.clone(),
        draws: a.draws,
    };
    let o = odds(&q).map_err(|e| CliError::input(e.to_string()))?;
    if json {
        let within: Vec<Value> = o
            .within
            .iter()
            .map(|w| json!({ "draws": w.draws, "p": w.p, "fraction": w.exact.to_string() }))
            .collect();
        let outs_unseen: Vec<Value> = o
            .outs
            .iter()
            .map(|x| json!({ "card": x.card.to_string(), "unseen": x.unseen }))
            .collect();
        let v = json!({
            "hand": strings(&hand),
            "seen": strings(&seen),
            "unseen": o.unseen,
            "closes_now": o.closes_now,
            "p_next": o.p_next,
            "p_next_fraction": o.p_next_exact.to_string(),
            "outs": o.outs.iter().map(|x| x.card.to_string()).collect::<Vec<_>>(),
            "outs_unseen": outs_unseen,
            "within": within,
        });
        return emit(&format!("{v}\n"));
    }
    let mut out = format!(
        "hand {} · {} cards unseen{}\n",
        cards_text(&hand),
        o.unseen,
        if o.closes_now {
            " · these seven already close"
        } else {
            ""
        }
    );
    let outs: Vec<String> = o
        .outs
        .iter()
        .map(|x| {
            if x.unseen > 1 {
                format!("{}×{}", x.card, x.unseen)
            } else {
                x.card.to_string()
            }
        })
        .collect();
    out.push_str(&format!(
        "outs ({}): {}\n\n",
        o.outs.iter().map(|x| u32::from(x.unseen)).sum::<u32>(),
        if outs.is_empty() {
            "none".into()
        } else {
            outs.join(" ")
        }
    ));
    let mut rows = vec![if a.exact {
        row!["close within", "probability", "exact"]
    } else {
        row!["close within", "probability"]
    }];
    for w in &o.within {
        let label = if w.draws == 1 {
            "1 draw".to_string()
        } else {
            format!("{} draws", w.draws)
        };
        if a.exact {
            rows.push(row![label, percent(w.p), w.exact]);
        } else {
            rows.push(row![label, percent(w.p)]);
        }
    }
    out.push_str(&table(&rows));
    emit(&out)
}
