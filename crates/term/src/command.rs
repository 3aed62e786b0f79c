//! What the human types, understood: an action in players' words, `help` or `quit`.
//!
//! Besides the engine's own words (`descarto 12o 1b`), discards may name the cards by
//! their place in the hand as shown: `descarto 1 3` (or just `1 3` while discarding).

use tapete_mus::view::Phase;
use tapete_mus::{Action, MusView};

/// One line of input, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Command {
    /// Take this action (still to be checked by the engine).
    Act(Action),
    /// Show the help.
    Help,
    /// Leave the table.
    Quit,
    /// Nothing typed.
    Empty,
}

/// Understands one line typed while `view` is on the table, or says why not.
pub(crate) fn parse(text: &str, view: &MusView) -> Result<Command, String> {
    let t = text.trim();
    let lower = t.to_lowercase();
    match lower.as_str() {
        "" => return Ok(Command::Empty),
        "help" | "?" | "ayuda" => return Ok(Command::Help),
        "quit" | "exit" | "salir" => return Ok(Command::Quit),
        _ => {}
    }
    let words: Vec<&str> = lower.split_whitespace().collect();
    let places: &[&str] = match words.as_slice() {
        ["descarto", rest @ ..] if !rest.is_empty() => rest,
        all if view.phase == Phase::Discard => all,
        _ => &[],
    };
    if !places.is_empty() && places.iter().all(|w| w.chars().all(|c| c.is_ascii_digit())) {
        return discard_by_place(places, view).map(Command::Act);
    }
    t.parse::<Action>()
        .map(Command::Act)
        .map_err(|e| e.to_string())
}

/// Discards the cards at these places (1-based, as shown) of the human's hand.
pub(crate) fn discard_by_place(places: &[&str], view: &MusView) -> Result<Action, String> {
    let mut chosen = tapete_cards::CardSet::EMPTY;
    for w in places {
        let place: usize = w
            .parse()
            .map_err(|_| format!("`{w}` is not a place in your hand: use 1–4"))?;
        let card = place
            .checked_sub(1)
            .and_then(|i| view.cards.get(i))
            .ok_or_else(|| {
                format!(
                    "`{w}` is not a place in your hand: use 1–{}",
                    view.cards.len()
                )
            })?;
        if !chosen.insert(*card) {
            return Err(format!("place {place} is named twice"));
        }
    }
    Ok(Action::Descarto(chosen))
}

/// The help text, one line per entry, shared by both front-ends.
pub(crate) fn help_lines() -> Vec<String> {
    [
        "mus | no hay mus (or corto)     — at the start of a hand",
        "descarto 12o 1b | descarto 1 3  — after mus: cards by name or by place 1–4",
        "paso | envido [N] | órdago      — with no bet standing (envido alone is 2)",
        "quiero | no quiero | reenvido N — facing a bet (N more; also `N más`)",
        "pares and juego are declared for you: declarations are truthful",
        "cards: number + suit letter: o oros, c copas, e espadas, b bastos; 10 sota, 11 caballo, 12 rey",
        "help shows this; quit leaves the table",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}
