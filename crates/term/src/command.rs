//! What the human types, understood: the terminal's own words (`help`, `quit`), or an
//! action in the game's words as its face reads them.

use tapete_host::face::{ActionOf, ViewOf};
use tapete_host::Face;

/// One line of input, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Command<A> {
    /// Take this action (still to be checked by the engine).
    Act(A),
    /// Show the help.
    Help,
    /// Leave the table.
    Quit,
    /// Nothing typed.
    Empty,
}

/// Understands one line typed while `view` is on the table, or says why not.
pub(crate) fn parse<H: Face>(text: &str, view: &ViewOf<H>) -> Result<Command<ActionOf<H>>, String> {
    match text.trim().to_lowercase().as_str() {
        "" => Ok(Command::Empty),
        "help" | "?" | "ayuda" => Ok(Command::Help),
        "quit" | "exit" | "salir" => Ok(Command::Quit),
        _ => H::parse_command(text.trim(), view).map(Command::Act),
    }
}
