//! The runner: every few seconds each server looks at the tournaments that are due —
//! those whose start came, those running — and does what is due: seeds and starts them,
//! reads the results of finished matches from their tables' logs, records who did not
//! come within the courtesy time, opens the tables of the matches paired now, keeps the
//! standings, and ends the tournament when nothing is left.
//!
//! Every step may be taken by any server of a cluster, and twice: a match's table is
//! stored with its board in one transaction that another server's same board refuses, a
//! start or an end happens once by its status, and the rest is recomputed from storage. So
//! a server killed mid-round loses nothing: the next look (on any server) goes on.

use super::store::NewMatch;
use super::*;
use crate::hub::Hub;
use crate::notices::{Notice, NoticeKind};
use crate::table::{StoredTable, TableRow, TableStatus};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tapete_table::Outcome;
use tapete_tournament::duplicate::{self, TableResult};
use tapete_tournament::event::{Format, Next, Pairing};
use tapete_tournament::{swiss, tres_ceros};

/// How often each server looks at the tournaments due.
pub const LOOK_EVERY: Duration = Duration::from_secs(2);

/// Most finished matches' outcomes a server keeps read (a log, once finished, never
/// changes).
const OUTCOMES_KEPT: usize = 20_000;

/// The outcomes read from finished tables' logs, by table.
#[derive(Default)]
pub struct Outcomes {
    read: Mutex<HashMap<String, Outcome>>,
}

/// Looks at the due tournaments for ever, every [`LOOK_EVERY`].
pub(crate) async fn run(hub: Arc<Hub>) {
    loop {
        let now = hub.clock().epoch();
        match hub.db.due_tournaments(now).await {
            Ok(ids) => {
                for id in ids {
                    if let Err(e) = advance(&hub, &id).await {
                        tracing::warn!(tournament = %id, "not advanced: {e}");
                    }
                }
            }
            Err(e) => tracing::warn!("the tournaments due were not read: {e}"),
        }
        let at = hub.clock().now() + LOOK_EVERY;
        hub.clock().sleep_until(Some(at)).await;
    }
}

/// Does what is due in tournament `id` now (see the module's docs).
pub(crate) async fn advance(hub: &Arc<Hub>, id: &str) -> Result<(), String> {
    let now = hub.clock().epoch();
    let Some(mut t) = hub
        .db
        .tournament(id.to_string())
        .await
        .map_err(|e| e.to_string())?
    else {
        return Ok(());
    };
    if t.row.status == Status::Signup {
        if t.row.start_at > now {
            return Ok(());
        }
        if t.entries.len() < 2 {
            // Nobody to play: it ends as it is.
            let standings = serde_json::json!({"cancelled": "too_few"});
            return hub
                .db
                .finish_tournament(id.to_string(), standings, now)
                .await
                .map_err(|e| e.to_string());
        }
        // Seeded in order of entry.
        let order: Vec<i64> = t.entries.iter().map(|e| e.entry).collect();
        hub.db
            .start_tournament(id.to_string(), order)
            .await
            .map_err(|e| e.to_string())?;
        match hub
            .db
            .tournament(id.to_string())
            .await
            .map_err(|e| e.to_string())?
        {
            Some(again) => t = again,
            None => return Ok(()),
        }
    }
    if t.row.status != Status::Running {
        return Ok(());
    }
    let event = event_of(&t)?;
    // The matches past their time limit stop, the game's rules saying who is ahead.
    if let Some(limit) = t.settings.time_limit_s {
        for b in &t.boards {
            let over = b.forfeit.is_none()
                && b.status == Some(TableStatus::Playing)
                && now >= b.courtesy_until + limit as i64;
            let Some(table) = b.table_id.as_deref().filter(|_| over) else {
                continue;
            };
            if let Ok(Some(handle)) = hub.table_or_load(table).await {
                if let Err(e) = handle.ask(crate::table::Ask::TimeUp).await {
                    tracing::warn!(tournament = %id, table, "not stopped at its time: {e}");
                }
            }
        }
    }
    // The matches whose courtesy time is over: who did not come loses, or (bots allowed,
    // somebody came) the match starts with the bot in the empty seats.
    let mut changed = false;
    for b in &t.boards {
        let due = b.forfeit.is_none()
            && b.status == Some(TableStatus::Waiting)
            && now >= b.courtesy_until;
        let Some(table) = b.table_id.as_deref().filter(|_| due) else {
            continue;
        };
        match at_the_end_of_courtesy(hub, &t, table).await {
            Courtesy::Elsewhere => {}
            Courtesy::Begin(handle) => {
                if let Err(e) = handle.begin().await {
                    tracing::warn!(tournament = %id, table, "the match did not start: {e}");
                }
            }
            Courtesy::Absent(absent, handle) => {
                if let Some(rules) = juego_to_give(hub, &t, &handle, absent) {
                    let ask = crate::table::Ask::GiveJuego {
                        rules,
                        from: b.courtesy_until,
                        until: b.courtesy_until + t.settings.courtesy_s as i64,
                    };
                    if let Err(e) = handle.ask(ask).await {
                        tracing::warn!(tournament = %id, table, "no juego given: {e}");
                    }
                    changed = true;
                    continue;
                }
                // In an arena who did not come is paired again only once back.
                let pause = match (&t.settings.format, absent) {
                    (Format::Arena { .. }, Absent::First) => vec![b.first],
                    (Format::Arena { .. }, Absent::Second) => vec![b.second],
                    (Format::Arena { .. }, Absent::Both) => vec![b.first, b.second],
                    _ => Vec::new(),
                };
                hub.db
                    .set_forfeit(id.to_string(), b.round, b.board, absent, pause)
                    .await
                    .map_err(|e| e.to_string())?;
                // Its table is gone from storage: its task stops too.
                let _ = handle.tx.send(crate::table::Cmd::Leave);
                changed = true;
            }
        }
    }
    if changed {
        t = match hub
            .db
            .tournament(id.to_string())
            .await
            .map_err(|e| e.to_string())?
        {
            Some(t) => t,
            None => return Ok(()),
        };
    }
    let results = results_of(hub, &t).await?;
    if let Format::Arena { minutes } = t.settings.format {
        return advance_arena(hub, &t, &results, minutes, now).await;
    }
    let next = event.next(&results).map_err(|e| e.to_string())?;
    let boards = boards_of(hub, &t).await?;
    let standings = standings_of(&event, &results, &boards, &next)?;
    if next.over {
        return hub
            .db
            .finish_tournament(id.to_string(), standings, now)
            .await
            .map_err(|e| e.to_string());
    }
    for pairing in &next.pending {
        let (round, board) = key_columns(pairing.key);
        if t.boards
            .iter()
            .any(|b| b.round == round && b.board == board)
        {
            continue;
        }
        let withdrawn = |seed: usize| {
            t.entries
                .iter()
                .any(|e| e.seed == Some(seed as i64) && e.withdrawn.is_some())
        };
        match Absent::of(withdrawn(pairing.first), withdrawn(pairing.second)) {
            Some(absent) => hub
                .db
                .walkover(
                    id.to_string(),
                    round,
                    board,
                    (pairing.first, pairing.second),
                    absent,
                    now,
                )
                .await
                .map_err(|e| e.to_string())?,
            None => open_match(hub, &t, pairing).await?,
        }
    }
    keep_standings(hub, &t, standings).await
}

/// An arena's turn: while its time runs, everybody free (not in a match, not paused) is
/// paired at once; once it is over, the matches under way finish (and count), and then
/// the arena ends.
async fn advance_arena(
    hub: &Arc<Hub>,
    t: &Stored,
    results: &[MatchResult],
    minutes: u32,
    now: i64,
) -> Result<(), String> {
    let id = &t.row.id;
    let n = t.entries.len();
    let ends = arena_end(t, minutes);
    let played = arena_played(results);
    let busy: Vec<usize> = t
        .boards
        .iter()
        .filter(|b| {
            b.forfeit.is_none() && b.table_id.is_some() && b.status != Some(TableStatus::Finished)
        })
        .flat_map(|b| [b.first, b.second])
        .collect();
    let standings = arena_standings(n, results, ends);
    if now >= ends && busy.is_empty() {
        return hub
            .db
            .finish_tournament(id.to_string(), standings, now)
            .await
            .map_err(|e| e.to_string());
    }
    if now < ends {
        let out: Vec<usize> = t
            .entries
            .iter()
            .filter(|e| e.withdrawn.is_some())
            .filter_map(|e| e.seed.map(|s| s as usize))
            .collect();
        // Numbered on from the last match paired.
        let from = t.boards.iter().map(|b| b.board + 1).max().unwrap_or(0);
        let pairs = tapete_tournament::arena::next(n, &played, &busy, &out);
        for (board, (first, second)) in (from..).zip(pairs) {
            let pairing = Pairing {
                key: tapete_tournament::event::MatchKey::Board { round: 1, board },
                first,
                second,
            };
            open_match(hub, t, &pairing).await?;
        }
    }
    keep_standings(hub, t, standings).await
}

/// Stores the standings just computed when they differ from those kept.
async fn keep_standings(hub: &Arc<Hub>, t: &Stored, standings: Value) -> Result<(), String> {
    if t.standings.as_ref() == Some(&standings) {
        return Ok(());
    }
    hub.db
        .set_standings(t.row.id.clone(), standings)
        .await
        .map_err(|e| e.to_string())
}

/// When an arena started `minutes` ago is over (seconds since the epoch).
pub(crate) fn arena_end(t: &Stored, minutes: u32) -> i64 {
    t.row.start_at + i64::from(minutes) * 60
}

/// An arena's results as its scoring reads them: in the order they were paired (each
/// entrant's own matches in the order it played them, which is what its streaks need).
fn arena_played(results: &[MatchResult]) -> Vec<tapete_tournament::Played> {
    let mut played: Vec<&MatchResult> = results.iter().collect();
    played.sort_by_key(|r| r.key);
    played
        .into_iter()
        .map(|r| {
            tapete_tournament::Played::new(
                1,
                r.first,
                r.second,
                r.winner,
                r.first_points,
                r.second_points,
            )
        })
        .collect()
}

/// An arena's standings, as pages show them, with when it ends.
pub(crate) fn arena_standings(entrants: usize, results: &[MatchResult], ends: i64) -> Value {
    let rows = tapete_tournament::arena::standings(entrants, &arena_played(results));
    serde_json::json!({"kind": "arena", "rows": rows, "ends_at": ends})
}

/// What the end of a match's courtesy time does.
enum Courtesy {
    /// Another server runs the table: its look decides.
    Elsewhere,
    /// The match starts, the table's bot playing the seats nobody took.
    Begin(crate::table::TableHandle),
    /// Who did not come loses; the table, which never started, goes.
    Absent(Absent, crate::table::TableHandle),
}

/// Decides a waiting match whose courtesy time is over: a side came when its people all
/// sat. A match both sides came to starts; with bots allowed, so does a match somebody
/// came to (the bot plays who did not); otherwise the sides that did not come lose.
async fn at_the_end_of_courtesy(hub: &Arc<Hub>, t: &Stored, table: &str) -> Courtesy {
    let handle = match hub.table_or_load(table).await {
        Ok(Some(h)) => h,
        _ => return Courtesy::Elsewhere,
    };
    let info = handle.info();
    let sat = |side: Side| {
        t.settings
            .seats_of(side)
            .iter()
            .filter(|s| info.seats.get(**s).is_some_and(|x| x.player.is_some()))
            .count()
    };
    let whole = t.settings.seats_of(Side::First).len();
    let (first, second) = (sat(Side::First), sat(Side::Second));
    match Absent::of(first < whole, second < whole) {
        None => Courtesy::Begin(handle),
        Some(_) if t.settings.bots && first + second > 0 => Courtesy::Begin(handle),
        Some(absent) => Courtesy::Absent(absent, handle),
    }
}

/// Courtesy by juegos: the table's options with one more juego given to the side that
/// came, when one side did not; `None` when the tournament loses matches outright, or the
/// juego would decide the match (then the absent side loses it).
fn juego_to_give(
    hub: &Arc<Hub>,
    t: &Stored,
    handle: &crate::table::TableHandle,
    absent: Absent,
) -> Option<Value> {
    if !t.settings.courtesy_juegos {
        return None;
    }
    let came = match absent {
        Absent::First => Side::Second,
        Absent::Second => Side::First,
        Absent::Both => return None,
    };
    let kind = hub.kind(&t.row.game)?;
    let info = handle.info();
    let seat = *t.settings.seats_of(came).first()?;
    match kind.give_juego(&info.rules, info.seats.len(), seat) {
        Ok(more) => more,
        Err(e) => {
            tracing::warn!(tournament = %t.row.id, table = %info.id, "no juego to give: {e}");
            None
        }
    }
}

/// The results so far: each finished match's from its table's log, each match somebody
/// did not come to from who did not.
pub(crate) async fn results_of(hub: &Arc<Hub>, t: &Stored) -> Result<Vec<MatchResult>, String> {
    let mut out = Vec::new();
    for b in &t.boards {
        let key = key_of(b.round, b.board);
        if let Some(absent) = b.forfeit {
            out.push(absent.result(key, b.first, b.second));
            continue;
        }
        let (Some(table), Some(TableStatus::Finished)) = (&b.table_id, b.status) else {
            continue;
        };
        let outcome = outcome_of(hub, table).await?;
        out.push(result_of(&t.settings, key, b.first, b.second, &outcome));
    }
    Ok(out)
}

/// A duplicate tournament's boards as played: each board of each finished table, its
/// first side's net, keyed by the round's deals and the board (the tables of a round were
/// dealt the same boards). A match somebody did not come to played no board.
pub(crate) async fn boards_of(hub: &Arc<Hub>, t: &Stored) -> Result<Vec<TableResult>, String> {
    let mut out = Vec::new();
    if t.settings.deals.is_none() {
        return Ok(out);
    }
    let first_seat = t.settings.seats_of(Side::First)[0];
    for b in &t.boards {
        let (None, Some(table), Some(TableStatus::Finished)) = (b.forfeit, &b.table_id, b.status)
        else {
            continue;
        };
        let outcome = outcome_of(hub, table).await?;
        for (k, scores) in outcome.boards.iter().enumerate() {
            out.push(TableResult {
                round: b.round,
                deals: (u64::from(b.round) << 32) | k as u64,
                first: b.first,
                second: b.second,
                first_net: scores.get(first_seat).copied().unwrap_or(0),
            });
        }
    }
    Ok(out)
}

/// Whether `table`, a match of tournament `tournament`, was dealt boards that other
/// tables of its round are still playing (a duplicate round not over): what it shows
/// whole — its replay, its review — waits for the round's end.
pub(crate) async fn deals_in_play(
    hub: &Arc<Hub>,
    tournament: &str,
    table: &str,
) -> Result<bool, String> {
    Ok(hub
        .db
        .tournament(tournament.to_string())
        .await
        .map_err(|e| e.to_string())?
        .is_some_and(|t| round_in_play(t.settings.deals.is_some(), &t.boards, table)))
}

/// [`deals_in_play`] on a tournament's matches as stored: in a duplicate (`duplicate`),
/// `table` is of a round some other table of which has not finished (a match nobody came
/// to plays no board).
fn round_in_play(duplicate: bool, boards: &[BoardRow], table: &str) -> bool {
    if !duplicate {
        return false;
    }
    let Some(round) = boards
        .iter()
        .find(|b| b.table_id.as_deref() == Some(table))
        .map(|b| b.round)
    else {
        return false;
    };
    boards.iter().any(|b| {
        b.round == round
            && b.forfeit.is_none()
            && b.table_id.is_some()
            && b.status != Some(TableStatus::Finished)
    })
}

/// A finished table's outcome, read by replaying its stored log.
pub(crate) async fn outcome_of(hub: &Arc<Hub>, table: &str) -> Result<Outcome, String> {
    if let Some(o) = hub
        .tournament_outcomes
        .read
        .lock()
        .ok()
        .and_then(|m| m.get(table).cloned())
    {
        return Ok(o);
    }
    let stored = hub
        .db
        .table(table.to_string())
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("table {table} is not stored"))?;
    let kind = hub
        .kind(&stored.row.game)
        .cloned()
        .ok_or_else(|| format!("table {table}: unknown game `{}`", stored.row.game))?;
    let outcome = tokio::task::spawn_blocking(move || replay_outcome(kind.as_ref(), &stored))
        .await
        .map_err(|e| e.to_string())??;
    if let Ok(mut m) = hub.tournament_outcomes.read.lock() {
        if m.len() >= OUTCOMES_KEPT {
            m.clear();
        }
        m.insert(table.to_string(), outcome.clone());
    }
    Ok(outcome)
}

/// The outcome a stored log comes to.
pub fn replay_outcome(
    kind: &dyn tapete_host::Kind,
    stored: &StoredTable,
) -> Result<Outcome, String> {
    let row = &stored.row;
    let mut game = kind.new_game(&row.rules, row.seats, row.seed)?;
    for (seat, action) in &stored.actions {
        game.apply(*seat, action)
            .map_err(|e| format!("table {}: its log does not replay: {e}", row.id))?;
    }
    // A finished table whose log does not end its game was stopped at its time limit: its
    // result is where its log leaves the game, by the game's rules of who is ahead.
    if row.status == TableStatus::Finished && game.outcome().is_none() {
        game.stop();
    }
    game.outcome()
        .ok_or_else(|| format!("table {}: its log does not end the game", row.id))
}

/// The standings the results make, as pages show them.
pub(crate) fn standings_of(
    event: &tapete_tournament::event::Event,
    results: &[MatchResult],
    boards: &[TableResult],
    next: &Next,
) -> Result<Value, String> {
    let e = |e: tapete_tournament::TournamentError| e.to_string();
    Ok(match event.format {
        Format::Arena { .. } => return Err("an arena's standings are arena_standings'".into()),
        Format::Groups { .. } => {
            let state = event.groups(results).map_err(e)?;
            serde_json::json!({"kind": "groups", "round": next.round, "groups": state})
        }
        Format::Duplicate { .. } => {
            let rows = duplicate::standings(event.entrants, boards);
            serde_json::json!({"kind": "duplicate", "rows": rows, "round": next.round, "bye": next.bye})
        }
        Format::Swiss { .. } => {
            let (h, _) = event.history(results).map_err(e)?;
            let rows =
                swiss::standings(event.entrants, &h, &swiss::Options::default()).map_err(e)?;
            serde_json::json!({"kind": "swiss", "rows": rows, "round": next.round, "bye": next.bye})
        }
        Format::TresCeros => {
            let (h, _) = event.history(results).map_err(e)?;
            let rows = tres_ceros::standings(event.entrants, &h);
            serde_json::json!({"kind": "tres_ceros", "rows": rows, "round": next.round, "bye": next.bye})
        }
        Format::Knockout { .. } | Format::Double => {
            let bracket = event.bracket().map_err(e)?;
            let done = event.bracket_results(results).map_err(e)?;
            let state = bracket.state(&done).map_err(e)?;
            serde_json::json!({"kind": "bracket", "matches": bracket.matches(), "state": state})
        }
    })
}

/// Opens a paired match's table, seats kept for its people, and tells them.
async fn open_match(hub: &Arc<Hub>, t: &Stored, pairing: &Pairing) -> Result<(), String> {
    let now = hub.clock().epoch();
    let (round, board) = key_columns(pairing.key);
    let s = &t.settings;
    let entrant = |seed: usize| {
        t.entries
            .iter()
            .find(|e| e.seed == Some(seed as i64))
            .ok_or_else(|| format!("tournament {}: no entrant seeded {seed}", t.row.id))
    };
    let sides = [
        (Side::First, entrant(pairing.first)?),
        (Side::Second, entrant(pairing.second)?),
    ];
    let mut reserved = Vec::new();
    let mut substitutes = Vec::new();
    for (side, e) in &sides {
        for (seat, p) in s.seats_of(*side).into_iter().zip(e.people()) {
            reserved.push((seat, p.id, p.nickname.clone()));
        }
        if let Some(sub) = &e.substitute {
            substitutes.extend(s.seats_of(*side).into_iter().map(|seat| (seat, sub.id)));
        }
    }
    let id = crate::http::new_table_id();
    // A duplicate round's tables are all dealt the round's boards, from the round's
    // secret with no contributions; any other match from a secret of its own and what its
    // people contribute when they sit.
    let (seed, deal) = match s.deals {
        Some(secret) => {
            let shared = super::round_secret(secret, round);
            let none = vec![String::new(); s.seats];
            let seed = tapete_table::fair::seed_of(&shared, &none).map_err(|e| e.to_string())?;
            (seed, crate::table::Deal::shared(shared))
        }
        None => (0, crate::table::Deal::new()),
    };
    let row = TableRow {
        id: id.clone(),
        game: t.row.game.clone(),
        seats: s.seats,
        rules: s.rules.clone(),
        seed,
        creator: None,
        bot: s.bot.clone(),
        pace_ms: s.pace_ms,
        status: TableStatus::Waiting,
        created: now,
        finished: None,
        outcome: None,
        away_s: 30,
        hold_s: 10,
        turn_s: s.turn_s,
        rated: t.row.rated,
        deal: Some(deal),
    };
    let courtesy_until = now + s.courtesy_s as i64;
    let m = NewMatch {
        substitutes,
        tournament: t.row.id.clone(),
        round,
        board,
        first: pairing.first,
        second: pairing.second,
        row,
        private: crate::table::PrivateRow {
            // A public tournament's matches may be watched by anyone (with a delay); a
            // private one's only by its own people, and so a duplicate's: its boards are
            // being played at the round's other tables.
            invite: (t.row.invite.is_some() || s.deals.is_some()).then(crate::http::new_secret),
            reserved,
            tournament: Some(t.row.id.clone()),
            ..Default::default()
        },
        courtesy_until,
        arena: matches!(s.format, Format::Arena { .. }),
    };
    match hub.db.open_match(m).await {
        Ok(true) => {}
        Ok(false) => return Ok(()),
        Err(e) => {
            tracing::debug!(tournament = %t.row.id, "a match was not opened here: {e}");
            return Ok(());
        }
    }
    // This server runs it (with PostgreSQL, by its lease).
    hub.table_or_load(&id)
        .await
        .map_err(|e| format!("table {id}: {e}"))?;
    for (_, e) in &sides {
        for p in e.people().into_iter().chain(e.substitute.as_ref()) {
            let mut args = serde_json::Map::new();
            args.insert("tournament".into(), Value::String(t.row.name.clone()));
            args.insert("game".into(), Value::String(t.row.game.clone()));
            hub.notify(
                p.id,
                Notice {
                    kind: NoticeKind::MatchStarts,
                    url: format!("/t/{id}"),
                    args,
                },
            )
            .await;
        }
    }
    tracing::info!(tournament = %t.row.id, table = %id, round, board, "match opened");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(round: u32, table: &str, status: TableStatus, forfeit: Option<Absent>) -> BoardRow {
        BoardRow {
            round,
            board: 0,
            table_id: Some(table.into()),
            first: 0,
            second: 1,
            courtesy_until: 0,
            forfeit,
            status: Some(status),
            seated: Vec::new(),
        }
    }

    #[test]
    fn a_duplicate_tables_deals_are_in_play_until_its_round_is_over() {
        use TableStatus::*;
        let boards = vec![
            board(1, "a", Finished, None),
            board(1, "b", Playing, None),
            board(1, "c", Waiting, Some(Absent::Both)),
            board(2, "d", Finished, None),
            board(2, "e", Finished, None),
        ];
        // Round 1: table b still plays the boards a has finished; c played none.
        assert!(round_in_play(true, &boards, "a"));
        assert!(round_in_play(true, &boards, "b"));
        // Round 2 is over; an unknown table is no match; a plain tournament has no boards.
        assert!(!round_in_play(true, &boards, "d"));
        assert!(!round_in_play(true, &boards, "zz"));
        assert!(!round_in_play(false, &boards, "a"));
        let mut done = boards.clone();
        done[1].status = Some(Finished);
        assert!(!round_in_play(true, &done, "a"));
    }
}
