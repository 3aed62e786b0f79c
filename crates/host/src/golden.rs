//! Golden playthroughs: one file per game holding a record and, at every step, each seat's
//! view, the spectators' view and what each audience was told. Replaying the record must
//! reproduce the file byte for byte, so any change to a game's rules, views, narration or
//! chance shows up as a diff to review (and, when intended, to bless).
//!
//! The file is JSON lines: first `{"record": …}`, then one line per state, starting with
//! the state before any action: `{"step", "action" (null at first), "told": [per audience],
//! "views": [per seat, then the spectators']}`.

use crate::{Host, Narrate};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use tapete_table::story::texts;
use tapete_table::{Bot, Game, Record};

/// Plays a game of `H` with its `bot` level at every seat (seeded, so the same every time)
/// for at most `max_actions` actions, and returns its record.
pub fn play_record<H: Host>(
    rules: <H::G as Game>::Rules,
    seats: usize,
    seed: u64,
    bot: &str,
    max_actions: usize,
) -> Result<Record<H::G>, String> {
    let mut game = H::G::new(&rules, seats, seed).map_err(|e| e.to_string())?;
    let mut bots: Vec<Box<dyn Bot<H::G>>> = (0..seats)
        .map(|_| H::make_bot(bot))
        .collect::<Result<_, _>>()?;
    for (seat, b) in bots.iter_mut().enumerate() {
        b.start(seat, seats, &rules);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x601D);
    let mut record = Record::new(rules, seats, seed);
    while record.actions.len() < max_actions {
        let Some(&seat) = game.to_act().seats().first() else {
            break;
        };
        let legal = game.legal_actions(seat);
        let action = bots[seat].act(&game.view(seat), &legal, &mut rng);
        game.apply(seat, &action)
            .map_err(|e| format!("the {bot} bot's `{action}` was refused: {e}"))?;
        record.actions.push((seat, action));
    }
    Ok(record)
}

/// The golden text of `record`: see the module's documentation.
pub fn playthrough<H: Host>(record: &Record<H::G>) -> Result<String, String> {
    let mut out = String::new();
    let line = |v: Value, out: &mut String| {
        out.push_str(&v.to_string());
        out.push('\n');
    };
    line(json!({ "record": record }), &mut out);
    let seats = record.seats;
    let mut game = H::G::new(&record.rules, seats, record.seed).map_err(|e| e.to_string())?;
    let mut narrators: Vec<H::Narrator> = (0..seats)
        .map(Some)
        .chain([None])
        .map(|s| H::narrator(&game, s))
        .collect();
    let told: Vec<Vec<String>> = narrators
        .iter_mut()
        .map(|n| texts(&n.opening(&game)))
        .collect();
    line(state(&game, seats, 0, None, told), &mut out);
    for (i, (seat, action)) in record.actions.iter().enumerate() {
        let events = game
            .apply(*seat, action)
            .map_err(|e| format!("action {i} ({seat}: {action}) was refused: {e}"))?;
        let told: Vec<Vec<String>> = narrators
            .iter_mut()
            .map(|n| events.iter().flat_map(|e| texts(&n.lines(e))).collect())
            .collect();
        let act = json!({ "seat": seat, "action": action.to_string() });
        line(state(&game, seats, i + 1, Some(act), told), &mut out);
    }
    Ok(out)
}

fn state<G: Game>(
    game: &G,
    seats: usize,
    step: usize,
    action: Option<Value>,
    told: Vec<Vec<String>>,
) -> Value {
    let mut views: Vec<Value> = (0..seats)
        .map(|s| serde_json::to_value(game.view(s)).unwrap_or(Value::Null))
        .collect();
    views.push(serde_json::to_value(game.spectator_view()).unwrap_or(Value::Null));
    json!({ "step": step, "action": action, "told": told, "views": views })
}

/// Checks `H`'s golden file at `path`: its record replays to the very same text. With the
/// environment variable `TAPETE_BLESS=1`, (re)writes the file instead from a game its
/// `bot` plays (see [`play_record`]). A missing file is an error, so that a game without
/// one cannot pass unnoticed.
pub fn check_file<H: Host>(
    path: &std::path::Path,
    rules: <H::G as Game>::Rules,
    seats: usize,
    seed: u64,
    bot: &str,
    max_actions: usize,
) -> Result<(), String> {
    if std::env::var("TAPETE_BLESS").is_ok_and(|v| v == "1") {
        let record = play_record::<H>(rules, seats, seed, bot, max_actions)?;
        let text = playthrough::<H>(&record)?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        }
        return std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()));
    }
    let stored = std::fs::read_to_string(path).map_err(|e| {
        format!(
            "{}: {e} (write it with TAPETE_BLESS=1 and review it)",
            path.display()
        )
    })?;
    let first = stored.lines().next().unwrap_or_default();
    let head: Value = serde_json::from_str(first)
        .map_err(|e| format!("{}: the first line is not JSON: {e}", path.display()))?;
    let record: Record<H::G> = serde_json::from_value(head["record"].clone())
        .map_err(|e| format!("{}: no record on the first line: {e}", path.display()))?;
    let now = playthrough::<H>(&record)?;
    if now == stored {
        return Ok(());
    }
    let (n, (a, b)) = stored
        .lines()
        .zip(now.lines())
        .enumerate()
        .find(|(_, (a, b))| a != b)
        .unwrap_or((stored.lines().count().min(now.lines().count()), ("", "")));
    Err(format!(
        "{} no longer replays byte for byte: first difference at line {}\n  stored: {}\n  now:    {}\n\
         (if the change is intended, rerun with TAPETE_BLESS=1 and review the diff)",
        path.display(),
        n + 1,
        clip(a),
        clip(b)
    ))
}

fn clip(s: &str) -> String {
    if s.len() <= 400 {
        s.to_string()
    } else {
        let mut end = 400;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}…", &s[..end])
    }
}
