//! Line mode: the table as plain text, one prompt per decision. Used when stdin is not a
//! terminal, so a game can be scripted, piped and tested.

use crate::command::{self, Command};
use crate::session::{Session, Turn};
use crate::status;
use crate::PlayOptions;
use std::io::{BufRead, Write};
use tapete_mus::narrate::{cards_text, legal_summary, Narrator};
use tapete_mus::{Action, Event, MusGame};
use tapete_table::{Game, Record};

/// Plays one match reading decisions from `input` and telling everything to `output`.
pub(crate) fn play<R: BufRead, W: Write>(
    opts: &PlayOptions,
    mut input: R,
    mut out: W,
) -> anyhow::Result<Record<MusGame>> {
    let mut session = Session::new(opts)?;
    let first = session.view();
    let mut narrator = Narrator::for_seat(opts.human)
        .with_mode(opts.rules.mode)
        .with_mano(first.mano);
    writeln!(
        out,
        "tapete · mus — you are seat {}, your partner seat {}; bots: {} (seed {})",
        opts.human,
        (opts.human + 2) % 4,
        opts.bots,
        opts.seed
    )?;
    writeln!(out, "type `help` for the words you can use")?;
    for e in &first.log {
        tell(&mut out, &mut narrator, e)?;
    }
    // The status block is printed again only when something changed since the last prompt.
    let mut show_block = true;
    loop {
        let before = session.view().cards;
        let events = match session.turn() {
            Turn::Over => break,
            Turn::Auto(action) => session.apply(opts.human, &action)?,
            Turn::Bot(seat) => {
                let events = session.bot_move(seat)?.1;
                for incident in session.incidents.drain(..) {
                    writeln!(out, "bot protocol: {incident}")?;
                }
                events
            }
            Turn::Human(legal) => {
                let view = session.view();
                if show_block {
                    for line in status::block(&view) {
                        writeln!(out, "{line}")?;
                    }
                }
                show_block = false;
                write!(out, "{} > ", legal_summary(&legal))?;
                out.flush()?;
                let mut text = String::new();
                if input.read_line(&mut text)? == 0 {
                    writeln!(out)?;
                    writeln!(out, "input ended: the game stops here")?;
                    return Ok(session.record);
                }
                // Input is not a terminal here, so nothing echoed it: keep the transcript
                // readable by writing it after the prompt.
                writeln!(out, "{}", text.trim_end())?;
                match command::parse(&text, &view) {
                    Err(e) => {
                        writeln!(out, "error: {e}")?;
                        continue;
                    }
                    Ok(Command::Empty) => continue,
                    Ok(Command::Help) => {
                        for line in command::help_lines() {
                            writeln!(out, "  {line}")?;
                        }
                        continue;
                    }
                    Ok(Command::Quit) => {
                        writeln!(out, "you leave the table")?;
                        return Ok(session.record);
                    }
                    Ok(Command::Act(action)) => match session.apply(opts.human, &action) {
                        Err(e) => {
                            writeln!(out, "error: {e}")?;
                            continue;
                        }
                        Ok(events) => {
                            if let Action::Descarto(cards) = &action {
                                writeln!(out, "you throw {cards}")?;
                            }
                            events
                        }
                    },
                }
            }
        };
        show_block = true;
        tell_all(&mut out, &mut narrator, &events)?;
        if events.iter().any(|e| matches!(e, Event::Served)) {
            new_cards(&mut out, &session, &before)?;
        }
    }
    let view = session.view();
    writeln!(out, "── the end ──")?;
    for row in status::score_rows(&view) {
        writeln!(out, "  {row}")?;
    }
    match session.game.outcome() {
        Some(o) => {
            let ours = o.winners.contains(&opts.human);
            writeln!(
                out,
                "{} — {}",
                if ours { "nosotros win" } else { "ellos win" },
                o.summary
            )?;
        }
        None => writeln!(out, "the match did not finish")?,
    }
    Ok(session.record)
}

fn tell<W: Write>(out: &mut W, narrator: &mut Narrator, event: &Event) -> std::io::Result<()> {
    for line in narrator.lines(event) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

fn tell_all<W: Write>(
    out: &mut W,
    narrator: &mut Narrator,
    events: &[Event],
) -> std::io::Result<()> {
    for e in events {
        tell(out, narrator, e)?;
    }
    Ok(())
}

/// After a serve the human learns which cards came in.
fn new_cards<W: Write>(
    out: &mut W,
    session: &Session,
    before: &[tapete_cards::Card],
) -> std::io::Result<()> {
    let now = session.view().cards;
    let fresh: Vec<_> = now
        .iter()
        .filter(|c| !before.contains(c))
        .copied()
        .collect();
    if !fresh.is_empty() {
        writeln!(out, "your new cards: {}", cards_text(&fresh))?;
    }
    Ok(())
}
