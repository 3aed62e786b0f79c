//! Line mode: the table as plain text, one prompt per decision. Used when stdin is not a
//! terminal, so a game can be scripted, piped and tested.

use crate::command::{self, Command};
use crate::session::{Session, Turn};
use crate::PlayOptions;
use anyhow::anyhow;
use std::io::{BufRead, Write};
use tapete_host::face::{EventOf, Vantage};
use tapete_host::{Face, Narrate};
use tapete_table::{Game, Record};

/// Plays one match reading decisions from `input` and telling everything to `output`.
pub(crate) fn play<H: Face, R: BufRead, W: Write>(
    opts: PlayOptions<H>,
    mut input: R,
    mut out: W,
) -> anyhow::Result<Record<H::G>> {
    let seed = opts.seed;
    let mut session = Session::new(opts)?;
    let human = session.human;
    let seats = session.seats();
    let mut narrator = H::narrator(&session.game, Some(human));
    {
        let to_act = session.to_act();
        let at = Vantage {
            me: human,
            seats,
            to_act: &to_act,
            held: false,
        };
        let intro = H::intro(&session.view(), &at, &session.names);
        writeln!(out, "{intro} (seed {seed})")?;
    }
    writeln!(out, "type `help` for the words you can use")?;
    for line in narrator.opening(&session.game) {
        writeln!(out, "{line}")?;
    }
    // The status block is printed again only when something changed since the last prompt.
    let mut show_block = true;
    loop {
        let before = session.view();
        let events = match session.turn() {
            Turn::Over => break,
            Turn::Auto(action) => session
                .apply(human, &action)
                .map_err(|e| anyhow!("`{action}`, made for you, was refused: {e}"))?,
            Turn::Opening(..) => {
                let (seat, action, events) = session.opening_step()?;
                if seat == human {
                    for line in H::own_lines(&action) {
                        writeln!(out, "{line}")?;
                    }
                }
                events
            }
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
                    let to_act = session.to_act();
                    let at = Vantage {
                        me: human,
                        seats,
                        to_act: &to_act,
                        held: false,
                    };
                    for line in H::status(&view, &at) {
                        writeln!(out, "{line}")?;
                    }
                }
                show_block = false;
                write!(out, "{} > ", H::prompt(&view, &legal))?;
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
                match command::parse::<H>(&text, &view) {
                    Err(e) => {
                        writeln!(out, "error: {e}")?;
                        continue;
                    }
                    Ok(Command::Empty) => continue,
                    Ok(Command::Help) => {
                        for line in H::help() {
                            writeln!(out, "  {line}")?;
                        }
                        continue;
                    }
                    Ok(Command::Quit) => {
                        writeln!(out, "you leave the table")?;
                        return Ok(session.record);
                    }
                    Ok(Command::Act(action)) => match session.apply(human, &action) {
                        Err(e) => {
                            writeln!(out, "error: {e}")?;
                            continue;
                        }
                        Ok(events) => {
                            for line in H::own_lines(&action) {
                                writeln!(out, "{line}")?;
                            }
                            events
                        }
                    },
                }
            }
        };
        show_block = true;
        tell::<H, W>(&mut out, &mut narrator, &events)?;
        for line in H::news(&before, &session.view(), &events) {
            writeln!(out, "{line}")?;
        }
    }
    writeln!(out, "── the end ──")?;
    let at = Vantage {
        me: human,
        seats,
        to_act: &[],
        held: false,
    };
    let outcome = session.game.outcome();
    for line in H::final_lines(&session.view(), &at, outcome.as_ref()) {
        writeln!(out, "{line}")?;
    }
    Ok(session.record)
}

/// Narrates `events` to the human.
fn tell<H: Face, W: Write>(
    out: &mut W,
    narrator: &mut H::Narrator,
    events: &[EventOf<H>],
) -> std::io::Result<()> {
    for e in events {
        for line in narrator.lines(e) {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::test_ring::RingHost;
    use crate::{play_lines, PlayOptions};
    use std::io::Cursor;
    use tapete_host::test_race::RaceHost;
    use tapete_table::Game;

    fn run<H: tapete_host::Face>(
        opts: PlayOptions<H>,
        input: &str,
    ) -> (String, tapete_table::Record<H::G>) {
        let mut out = Vec::new();
        let rec = play_lines(opts, Cursor::new(input.as_bytes()), &mut out).expect("runs");
        (String::from_utf8(out).expect("utf-8"), rec)
    }

    /// What the bot at seat 0 added first, as narrated.
    fn rec_first(out: &str) -> u8 {
        out.lines()
            .find_map(|l| l.strip_prefix("seat 0 adds: "))
            .and_then(|n| n.parse().ok())
            .expect("seat 0 moved first")
    }

    #[test]
    fn a_two_seat_game_without_cards_is_played_to_the_end_line_by_line() {
        let opts = PlayOptions::<RaceHost>::new((), 2, 5, 1, "random").expect("options");
        let (out, rec) = run(opts, &"3\nhelp\n\n1\n".repeat(10));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines[0],
            "tapete · race — you are seat 1; bots: random (seed 5)"
        );
        let first_move = rec_first(&out);
        assert!(
            out.contains(&format!("── total {first_move} of 5 ──")),
            "the block after the bot's move:\n{out}"
        );
        assert!(out.contains("1 | 2 > 3"), "{out}");
        assert!(out.contains("error: `3`: add 1 or 2"), "{out}");
        assert!(
            out.contains("  1 | 2 — add one or two to the total"),
            "{out}"
        );
        assert!(
            out.contains("seat 0 adds: 1") || out.contains("seat 0 adds: 2"),
            "{out}"
        );
        let game = rec.replay().expect("replays");
        let outcome = game.outcome().expect("over");
        let end: Vec<&str> = out.lines().skip_while(|l| *l != "── the end ──").collect();
        let verdict = if outcome.winners.contains(&1) {
            "you win at"
        } else {
            "you lose at"
        };
        assert!(end[1].starts_with(verdict), "{out}");
    }

    #[test]
    fn many_seats_play_in_turn_and_errors_ask_again() {
        for seats in [2, 5, 8] {
            let opts =
                PlayOptions::<RingHost>::new((), seats, 2, seats - 1, "random").expect("options");
            let (out, rec) = run(opts, &"add 4\nadd 1\n".repeat(20));
            assert!(out.starts_with(&format!(
                "tapete · ring — you are seat {} of {seats}; bots: {}",
                seats - 1,
                seats - 1
            )));
            assert!(out.contains("the ring starts at 0"));
            let game = rec.replay().expect("replays");
            assert!(game.outcome().is_some(), "{out}");
            assert!(out.contains("── the end ──\ncount "), "{out}");
            for (i, line) in out.lines().enumerate() {
                if line.starts_with("error: ") {
                    let next = out.lines().nth(i + 1).unwrap_or("");
                    assert!(next.contains(" > "), "no prompt after `{line}`: `{next}`");
                }
            }
            let own = rec.actions.iter().filter(|(s, _)| *s == seats - 1).count();
            assert_eq!(out.matches("you adds 1").count(), own, "{out}");
        }
    }

    #[test]
    fn input_ending_stops_with_the_record_so_far() {
        let opts = PlayOptions::<RingHost>::new((), 3, 0, 0, "random").expect("options");
        let (out, rec) = run(opts, "add 2\n");
        assert!(out.ends_with("input ended: the game stops here\n"), "{out}");
        assert!(rec.replay().is_ok());
        assert_eq!(rec.actions[0], (0, 2));
    }
}
