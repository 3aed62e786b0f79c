//! What tournaments store: the tournament with its settings, its entrants, and the tables
//! of its matches (with who did not come). No result is stored: results are read from the
//! tables' logs. The standings last computed are kept only to be shown and compared.

use super::*;
use crate::code::Code;
use crate::store::{params, Connection, Db, DbError, DbResult, OptionalExtension};
use crate::table::store::{insert_table, PrivateRow, TableRow};
use crate::table::TableStatus;
use std::collections::HashMap;

/// A tournament's row.
#[derive(Clone, Debug, Serialize)]
pub struct TournamentRow {
    pub id: String,
    pub organiser: PlayerRef,
    pub name: String,
    pub game: String,
    #[serde(skip)]
    pub settings: Settings,
    pub start_at: i64,
    pub rated: bool,
    /// The secret of a private tournament (seen through its link, and by its entrants).
    #[serde(skip)]
    pub invite: Option<String>,
    pub cuadrilla: Option<String>,
    pub status: Status,
    pub created: i64,
    pub finished: Option<i64>,
}

/// One entrant as stored.
#[derive(Clone, Debug)]
pub struct EntryRow {
    pub entry: i64,
    pub player: PlayerRef,
    pub partner: Option<PlayerRef>,
    pub substitute: Option<PlayerRef>,
    pub joined: i64,
    /// Its seed (the event's entrant number), from the start on.
    pub seed: Option<i64>,
    /// The round from which it is out.
    pub withdrawn: Option<i64>,
}

impl EntryRow {
    /// The accounts who play for this entrant (not its substitute).
    pub fn people(&self) -> Vec<&PlayerRef> {
        std::iter::once(&self.player)
            .chain(self.partner.as_ref())
            .collect()
    }
}

/// One match's table as stored.
#[derive(Clone, Debug)]
pub struct BoardRow {
    pub round: u32,
    pub board: u32,
    /// Its table (`None`: a walkover, the other side withdrawn).
    pub table_id: Option<String>,
    /// The seeds of its two sides.
    pub first: usize,
    pub second: usize,
    /// When the courtesy time ends.
    pub courtesy_until: i64,
    pub forfeit: Option<Absent>,
    /// The table's status now.
    pub status: Option<TableStatus>,
    /// Who sits at each seat of its table now (`None`: the table's bot, a stand-in once
    /// the match started).
    pub seated: Vec<Option<i64>>,
}

/// A tournament with its entrants (in seed order once started, else in order of entry)
/// and its matches' tables.
#[derive(Clone, Debug)]
pub struct Stored {
    pub row: TournamentRow,
    pub settings: Settings,
    pub entries: Vec<EntryRow>,
    pub boards: Vec<BoardRow>,
    /// The standings last computed and stored.
    pub standings: Option<Value>,
}

/// A new match's table to store with its board.
pub struct NewMatch {
    /// Each entrant's substitute, with the seats it may take: (seat, player).
    pub substitutes: Vec<(usize, i64)>,
    pub tournament: String,
    pub round: u32,
    pub board: u32,
    pub first: usize,
    pub second: usize,
    pub row: TableRow,
    pub private: PrivateRow,
    pub courtesy_until: i64,
    /// An arena's match: opened only if neither side is in a match not finished (checked
    /// with the tournament locked, so two servers pairing at once cannot seat an entrant
    /// twice).
    pub arena: bool,
}

fn player_ref(c: &Connection, id: Option<i64>) -> DbResult<Option<PlayerRef>> {
    let Some(id) = id else { return Ok(None) };
    Ok(
        c.query_row("SELECT nickname FROM players WHERE id = ?1", [id], |r| {
            r.get::<_, String>(0)
        })
        .optional()?
        .map(|nickname| PlayerRef { id, nickname }),
    )
}

/// A player's reference from a row's id and nickname columns (`None`: a NULL id).
fn person(r: &crate::store::sql::Row, id: usize, nick: usize) -> DbResult<Option<PlayerRef>> {
    let id: Option<i64> = r.get(id)?;
    let nickname: Option<String> = r.get(nick)?;
    Ok(id
        .zip(nickname)
        .map(|(id, nickname)| PlayerRef { id, nickname }))
}

/// A tournament's row and the standings stored with it: one query, the organiser's
/// nickname joined.
fn load_row(c: &Connection, id: &str) -> DbResult<Option<(TournamentRow, Option<String>)>> {
    let bad = |what: String| DbError(format!("tournament {id}: {what}"));
    let raw = c
        .query_row(
            "SELECT t.organiser, p.nickname, t.name, t.game, t.settings, t.start_at, t.rated,
                    t.invite, t.cuadrilla, t.status, t.created, t.finished, t.standings
             FROM tournaments t JOIN players p ON p.id = t.organiser WHERE t.id = ?1",
            [id],
            |r| {
                Ok((
                    PlayerRef {
                        id: r.get(0)?,
                        nickname: r.get(1)?,
                    },
                    (r.get::<_, String>(2)?, r.get::<_, String>(3)?),
                    (r.get::<_, String>(4)?, r.get::<_, String>(9)?),
                    (r.get(5)?, r.get::<_, i64>(6)?, r.get(10)?, r.get(11)?),
                    (r.get(7)?, r.get(8)?, r.get(12)?),
                ))
            },
        )
        .optional()?;
    let Some((organiser, (name, game), (settings, status), times, (invite, cuadrilla, standings))) =
        raw
    else {
        return Ok(None);
    };
    let (start_at, rated, created, finished) = times;
    let settings: Settings = serde_json::from_str(&settings)
        .map_err(|e| bad(format!("its settings do not read: {e}")))?;
    let status = Status::parse(&status).ok_or_else(|| bad(format!("status `{status}`")))?;
    let row = TournamentRow {
        id: id.to_string(),
        organiser,
        name,
        game,
        settings,
        start_at,
        rated: rated != 0,
        invite,
        cuadrilla,
        status,
        created,
        finished,
    };
    Ok(Some((row, standings)))
}

fn load(c: &Connection, id: &str) -> DbResult<Option<Stored>> {
    let Some((row, standings)) = load_row(c, id)? else {
        return Ok(None);
    };
    let bad = |what: String| DbError(format!("tournament {id}: {what}"));
    // The entrants, their people's nicknames joined.
    let mut st = c.prepare(
        "SELECT e.entry, e.joined, e.seed, e.withdrawn, e.player, a.nickname, e.partner,
                b.nickname, e.substitute, s.nickname
         FROM tournament_entries e JOIN players a ON a.id = e.player
         LEFT JOIN players b ON b.id = e.partner LEFT JOIN players s ON s.id = e.substitute
         WHERE e.tournament = ?1 ORDER BY coalesce(e.seed, e.entry), e.entry",
    )?;
    let entries = st
        .query_map([id], |r| {
            Ok(EntryRow {
                entry: r.get(0)?,
                joined: r.get(1)?,
                seed: r.get(2)?,
                withdrawn: r.get(3)?,
                player: PlayerRef {
                    id: r.get(4)?,
                    nickname: r.get(5)?,
                },
                partner: person(r, 6, 7)?,
                substitute: person(r, 8, 9)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    // Who sits at each seat of every match's table, in one query.
    let mut seated: HashMap<String, Vec<Option<i64>>> = HashMap::new();
    let mut st = c.prepare(
        "SELECT s.table_id, s.seat, s.player FROM seats s
         JOIN tournament_tables b ON b.table_id = s.table_id
         WHERE b.tournament = ?1 ORDER BY s.table_id, s.seat",
    )?;
    for r in st.query_map([id], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, Option<i64>>(2)?))
    })? {
        let (table, player) = r?;
        seated.entry(table).or_default().push(player);
    }
    let mut st = c.prepare(
        "SELECT b.round, b.board, b.table_id, b.first_entry, b.second_entry,
                b.courtesy_until, b.forfeit, t.status
         FROM tournament_tables b LEFT JOIN tables t ON t.id = b.table_id
         WHERE b.tournament = ?1 ORDER BY b.round, b.board",
    )?;
    let raw = st
        .query_map([id], |r| {
            Ok((
                (r.get::<_, i64>(0)?, r.get::<_, i64>(1)?),
                r.get::<_, Option<String>>(2)?,
                (r.get::<_, i64>(3)?, r.get::<_, i64>(4)?),
                r.get::<_, i64>(5)?,
                (
                    r.get::<_, Option<String>>(6)?,
                    r.get::<_, Option<String>>(7)?,
                ),
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let mut boards = Vec::with_capacity(raw.len());
    for ((round, board), table_id, (first, second), courtesy_until, (forfeit, status)) in raw {
        let forfeit = match forfeit {
            None => None,
            Some(f) => Some(Absent::parse(&f).ok_or_else(|| bad(format!("forfeit `{f}`")))?),
        };
        let status = match status {
            None => None,
            Some(s) => Some(s.parse().map_err(bad)?),
        };
        boards.push(BoardRow {
            round: round as u32,
            board: board as u32,
            seated: table_id
                .as_ref()
                .and_then(|t| seated.remove(t))
                .unwrap_or_default(),
            table_id,
            first: first as usize,
            second: second as usize,
            courtesy_until,
            forfeit,
            status,
        });
    }
    let standings = standings.and_then(|s| serde_json::from_str(&s).ok());
    Ok(Some(Stored {
        settings: row.settings.clone(),
        row,
        entries,
        boards,
        standings,
    }))
}

/// A refusal of the store's (the tournament's state decides it).
pub type Refused = (Code, String);

impl Db {
    /// Stores a new tournament, unless its organiser already has
    /// [`MAX_OPEN_PER_ORGANISER`] not finished.
    pub async fn create_tournament(&self, t: TournamentRow) -> DbResult<Result<(), Refused>> {
        self.call(move |c| {
            let open: i64 = c.query_row(
                "SELECT count(*) FROM tournaments WHERE organiser = ?1 AND status <> 'finished'",
                [t.organiser.id],
                |r| r.get(0),
            )?;
            if open as usize >= MAX_OPEN_PER_ORGANISER {
                return Ok(Err((
                    Code::TooManyTournaments,
                    format!(
                        "you organise {open} tournaments not finished (at most \
                         {MAX_OPEN_PER_ORGANISER}): wait for one to end"
                    ),
                )));
            }
            let settings = serde_json::to_string(&t.settings)
                .map_err(|e| DbError(format!("settings: {e}")))?;
            c.execute(
                "INSERT INTO tournaments (id, organiser, name, game, format, settings, start_at,
                                          rated, invite, cuadrilla, status, created)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                params![
                    t.id,
                    t.organiser.id,
                    t.name,
                    t.game,
                    format_name(&t.settings.format),
                    settings,
                    t.start_at,
                    t.rated as i64,
                    t.invite,
                    t.cuadrilla,
                    t.status.as_str(),
                    t.created,
                ],
            )?;
            Ok(Ok(()))
        })
        .await
    }

    /// A tournament with its entrants and matches.
    pub async fn tournament(&self, id: String) -> DbResult<Option<Stored>> {
        self.call(move |c| load(c, &id)).await
    }

    /// Signs up an entrant: `people` (one, or a pair), with a substitute. Refused once the
    /// tournament started, when it is full, or when one of them is already in it.
    pub async fn enter_tournament(
        &self,
        id: String,
        people: Vec<i64>,
        substitute: Option<i64>,
        now: i64,
    ) -> DbResult<Result<i64, Refused>> {
        self.call(move |c| {
            let status: Option<String> = c
                .query_row("SELECT status FROM tournaments WHERE id = ?1", [&id], |r| {
                    r.get(0)
                })
                .optional()?;
            match status.as_deref() {
                None => {
                    return Ok(Err((
                        Code::TournamentNotFound,
                        format!("no tournament `{id}`"),
                    )))
                }
                Some("signup") => {}
                Some(_) => {
                    return Ok(Err((
                        Code::TournamentStarted,
                        "the tournament has started: entries are closed".to_string(),
                    )))
                }
            }
            let count: i64 = c.query_row(
                "SELECT count(*) FROM tournament_entries WHERE tournament = ?1",
                [&id],
                |r| r.get(0),
            )?;
            if count as usize >= MAX_ENTRANTS {
                return Ok(Err((
                    Code::TournamentFull,
                    format!("the tournament is full ({MAX_ENTRANTS} entrants)"),
                )));
            }
            for p in people.iter().chain(substitute.as_ref()) {
                let there: Option<i64> = c
                    .query_row(
                        "SELECT entry FROM tournament_entries WHERE tournament = ?1
                         AND (player = ?2 OR partner = ?2 OR substitute = ?2)",
                        params![id, p],
                        |r| r.get(0),
                    )
                    .optional()?;
                if there.is_some() {
                    let nick = player_ref(c, Some(*p))?
                        .map(|r| r.nickname)
                        .unwrap_or_default();
                    return Ok(Err((
                        Code::AlreadyEntered,
                        format!("{nick} is already in this tournament (one entry each)"),
                    )));
                }
            }
            let entry: i64 = c.query_row(
                "SELECT coalesce(max(entry), 0) + 1 FROM tournament_entries WHERE tournament = ?1",
                [&id],
                |r| r.get(0),
            )?;
            c.execute(
                "INSERT INTO tournament_entries (tournament, entry, player, partner, substitute,
                                                 joined)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    id,
                    entry,
                    people[0],
                    people.get(1).copied(),
                    substitute,
                    now
                ],
            )?;
            Ok(Ok(entry))
        })
        .await
    }

    /// An entrant leaves: before the start its entry goes; after, it is out from
    /// `from_round` on (its results stand). `by` must be one of its people or the
    /// organiser.
    pub async fn leave_tournament(
        &self,
        id: String,
        entry: i64,
        by: i64,
        from_round: i64,
    ) -> DbResult<Result<(), Refused>> {
        self.call(move |c| {
            let Some(t) = load(c, &id)? else {
                return Ok(Err((
                    Code::TournamentNotFound,
                    format!("no tournament `{id}`"),
                )));
            };
            let Some(e) = t.entries.iter().find(|e| e.entry == entry) else {
                return Ok(Err((
                    Code::NoSuchEntry,
                    format!("tournament {id} has no entry {entry}"),
                )));
            };
            let theirs = e.people().iter().any(|p| p.id == by) || t.row.organiser.id == by;
            if !theirs {
                return Ok(Err((
                    Code::NotYourEntry,
                    "only its people or the organiser may take an entry out".to_string(),
                )));
            }
            match t.row.status {
                Status::Signup => {
                    c.execute(
                        "DELETE FROM tournament_entries WHERE tournament = ?1 AND entry = ?2",
                        params![id, entry],
                    )?;
                }
                Status::Running => {
                    c.execute(
                        "UPDATE tournament_entries SET withdrawn = ?3
                         WHERE tournament = ?1 AND entry = ?2 AND withdrawn IS NULL",
                        params![id, entry, from_round],
                    )?;
                }
                Status::Finished => {
                    return Ok(Err((
                        Code::TournamentOver,
                        "the tournament is over".to_string(),
                    )))
                }
            }
            Ok(Ok(()))
        })
        .await
    }

    /// Starts a tournament in signup: its entrants seeded in `order` (entry numbers), or
    /// finished at once when it has too few. Whether this call started it (another server
    /// may have).
    pub async fn start_tournament(&self, id: String, order: Vec<i64>) -> DbResult<bool> {
        self.call(move |c| {
            let n = c.execute(
                "UPDATE tournaments SET status = 'running' WHERE id = ?1 AND status = 'signup'",
                [&id],
            )?;
            if n == 0 {
                return Ok(false);
            }
            for (seed, entry) in order.iter().enumerate() {
                c.execute(
                    "UPDATE tournament_entries SET seed = ?3 WHERE tournament = ?1 AND entry = ?2",
                    params![id, entry, seed as i64],
                )?;
            }
            Ok(true)
        })
        .await
    }

    /// Ends a tournament that cannot be played (too few entrants at its start) or that is
    /// over, with its last standings.
    pub async fn finish_tournament(&self, id: String, standings: Value, at: i64) -> DbResult<()> {
        self.call(move |c| {
            c.execute(
                "UPDATE tournaments SET status = 'finished', finished = ?2, standings = ?3
                 WHERE id = ?1 AND status <> 'finished'",
                params![id, at, standings.to_string()],
            )?;
            Ok(())
        })
        .await
    }

    /// Keeps the standings last computed.
    pub async fn set_standings(&self, id: String, standings: Value) -> DbResult<()> {
        self.call(move |c| {
            c.execute(
                "UPDATE tournaments SET standings = ?2 WHERE id = ?1",
                params![id, standings.to_string()],
            )?;
            Ok(())
        })
        .await
    }

    /// Stores a match's table with its board, unless the board has one already (another
    /// server made it first): whether this call made it.
    pub async fn open_match(&self, m: NewMatch) -> DbResult<bool> {
        self.call(move |c| {
            let seats: Vec<Option<i64>> = vec![None; m.row.seats];
            let there: Option<String> = c
                .query_row(
                    "SELECT table_id FROM tournament_tables
                     WHERE tournament = ?1 AND round = ?2 AND board = ?3",
                    params![m.tournament, m.round as i64, m.board as i64],
                    |r| r.get(0),
                )
                .optional()?;
            if there.is_some() {
                return Ok(false);
            }
            if m.arena {
                c.execute(
                    "UPDATE tournaments SET status = status WHERE id = ?1",
                    params![m.tournament],
                )?;
                let busy: i64 = c.query_row(
                    "SELECT count(*) FROM tournament_tables b JOIN tables t ON t.id = b.table_id
                     WHERE b.tournament = ?1 AND b.forfeit IS NULL AND t.status <> 'finished'
                     AND (b.first_entry IN (?2, ?3) OR b.second_entry IN (?2, ?3))",
                    params![m.tournament, m.first as i64, m.second as i64],
                    |r| r.get(0),
                )?;
                if busy > 0 {
                    return Ok(false);
                }
            }
            insert_table(c, &m.row, &seats)?;
            if let Some(invite) = &m.private.invite {
                c.execute(
                    "INSERT INTO private_tables (table_id, invite) VALUES (?1, ?2)",
                    params![m.row.id, invite],
                )?;
            }
            for (seat, player, _) in &m.private.reserved {
                c.execute(
                    "INSERT INTO reserved_seats (table_id, seat, player) VALUES (?1, ?2, ?3)",
                    params![m.row.id, *seat as i64, player],
                )?;
                // The seat stays theirs after the start (the kept seat goes then).
                c.execute(
                    "INSERT INTO tournament_seats (table_id, seat, player) VALUES (?1, ?2, ?3)",
                    params![m.row.id, *seat as i64, player],
                )?;
            }
            for (seat, player) in &m.substitutes {
                c.execute(
                    "INSERT INTO tournament_seats (table_id, seat, player) VALUES (?1, ?2, ?3)
                     ON CONFLICT (table_id, seat, player) DO NOTHING",
                    params![m.row.id, *seat as i64, player],
                )?;
            }
            let n = c.execute(
                "INSERT INTO tournament_tables (tournament, round, board, table_id, first_entry,
                                                second_entry, courtesy_until)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                 ON CONFLICT (tournament, round, board) DO NOTHING",
                params![
                    m.tournament,
                    m.round as i64,
                    m.board as i64,
                    m.row.id,
                    m.first as i64,
                    m.second as i64,
                    m.courtesy_until,
                ],
            )?;
            if n == 0 {
                // Made by another server between the look and the insert: this job's
                // savepoint is rolled back with the error, the table with it.
                return Err(DbError("the match was opened by another server".into()));
            }
            Ok(true)
        })
        .await
    }

    /// Records who did not come to a match (once).
    /// Records who did not come to a match, and drops its table, which never started (the
    /// match is then as a walkover: no table); an arena's entrants in `pause` (the absent)
    /// are paused in the same transaction, so nobody absent is paired again meanwhile.
    pub async fn set_forfeit(
        &self,
        tournament: String,
        round: u32,
        board: u32,
        absent: Absent,
        pause: Vec<usize>,
    ) -> DbResult<()> {
        let shared = self.node().is_some();
        self.call(move |c| {
            let table: Option<String> = c
                .query_row(
                    "SELECT b.table_id FROM tournament_tables b JOIN tables t ON t.id = b.table_id
                     WHERE b.tournament = ?1 AND b.round = ?2 AND b.board = ?3
                     AND b.forfeit IS NULL AND t.status = 'waiting'",
                    params![tournament, round as i64, board as i64],
                    |r| r.get(0),
                )
                .optional()?;
            let Some(table) = table else {
                // Recorded already, or started meanwhile: nothing to do.
                return Ok(());
            };
            c.execute(
                "UPDATE tournament_tables SET forfeit = ?4, table_id = NULL
                 WHERE tournament = ?1 AND round = ?2 AND board = ?3 AND forfeit IS NULL",
                params![tournament, round as i64, board as i64, absent.as_str()],
            )?;
            crate::table::drop_table_rows(c, &table, shared)?;
            for seed in &pause {
                c.execute(
                    "UPDATE tournament_entries SET withdrawn = 1
                     WHERE tournament = ?1 AND seed = ?2 AND withdrawn IS NULL",
                    params![tournament, *seed as i64],
                )?;
            }
            Ok(())
        })
        .await
    }

    /// A waiting match past its courtesy time, taken juego by juego: its table plays by
    /// `rules` (one more juego given) and its courtesy time, which ended at `from`, runs
    /// until `until` — both in one transaction, so that neither is done without the other
    /// and a second server's look gives nothing more. False when it was done already, or
    /// the table started or went meanwhile.
    pub async fn give_juego(
        &self,
        table: String,
        rules: Value,
        from: i64,
        until: i64,
    ) -> DbResult<bool> {
        self.call(move |c| {
            let waiting: Option<String> = c
                .query_row(
                    "SELECT status FROM tables WHERE id = ?1",
                    params![table],
                    |r| r.get(0),
                )
                .optional()?;
            if waiting.as_deref() != Some("waiting") {
                return Ok(false);
            }
            let moved = c.execute(
                "UPDATE tournament_tables SET courtesy_until = ?3
                 WHERE table_id = ?1 AND courtesy_until = ?2 AND forfeit IS NULL",
                params![table, from, until],
            )?;
            if moved == 0 {
                return Ok(false);
            }
            c.execute(
                "UPDATE tables SET rules = ?2 WHERE id = ?1",
                params![table, rules.to_string()],
            )?;
            Ok(true)
        })
        .await
    }

    /// The tournaments the runner looks after: running ones, and those in signup whose
    /// start has come.
    pub async fn due_tournaments(&self, now: i64) -> DbResult<Vec<String>> {
        self.call(move |c| {
            let mut st = c.prepare(
                "SELECT id FROM tournaments WHERE status = 'running'
                 OR (status = 'signup' AND start_at <= ?1) ORDER BY created",
            )?;
            let ids = st
                .query_map([now], |r| r.get(0))?
                .collect::<Result<Vec<String>, _>>()?;
            Ok(ids)
        })
        .await
    }

    /// Public tournaments not finished, and those finished in the last week, newest first
    /// (at most 100).
    pub async fn public_tournaments(&self, since: i64) -> DbResult<Vec<TournamentRow>> {
        self.call(move |c| {
            let mut st = c.prepare(
                "SELECT id FROM tournaments WHERE invite IS NULL
                 AND (status <> 'finished' OR finished >= ?1)
                 ORDER BY start_at DESC LIMIT 100",
            )?;
            let ids = st
                .query_map([since], |r| r.get(0))?
                .collect::<Result<Vec<String>, _>>()?;
            let mut out = Vec::new();
            for id in ids {
                if let Some((row, _)) = load_row(c, &id)? {
                    out.push(row);
                }
            }
            Ok(out)
        })
        .await
    }
}

impl Db {
    /// Records a match one side of which withdrew: no table, the other side goes on.
    /// An arena's paused entrant `entry` (it did not come: [`Db::set_forfeit`]) comes
    /// back: it is paired again. Whether it was paused.
    pub async fn resume_entrant(&self, tournament: String, entry: i64) -> DbResult<bool> {
        self.call(move |c| {
            Ok(c.execute(
                "UPDATE tournament_entries SET withdrawn = NULL
                 WHERE tournament = ?1 AND entry = ?2 AND withdrawn IS NOT NULL",
                params![tournament, entry],
            )? > 0)
        })
        .await
    }

    pub async fn walkover(
        &self,
        tournament: String,
        round: u32,
        board: u32,
        sides: (usize, usize),
        absent: Absent,
        at: i64,
    ) -> DbResult<()> {
        self.call(move |c| {
            c.execute(
                "INSERT INTO tournament_tables (tournament, round, board, table_id, first_entry,
                                                second_entry, courtesy_until, forfeit)
                 VALUES (?1, ?2, ?3, NULL, ?4, ?5, ?6, ?7)
                 ON CONFLICT (tournament, round, board) DO NOTHING",
                params![
                    tournament,
                    round as i64,
                    board as i64,
                    sides.0 as i64,
                    sides.1 as i64,
                    at,
                    absent.as_str(),
                ],
            )?;
            Ok(())
        })
        .await
    }
}

impl Db {
    /// Moves a tournament in signup's start to `now` (the organiser starts it early).
    pub async fn start_now(&self, id: String, now: i64) -> DbResult<()> {
        self.call(move |c| {
            c.execute(
                "UPDATE tournaments SET start_at = ?2 WHERE id = ?1 AND status = 'signup'",
                params![id, now],
            )?;
            Ok(())
        })
        .await
    }
}

impl Db {
    /// A cuadrilla's tournaments, newest first (at most 20).
    pub async fn cuadrilla_tournaments(&self, cuadrilla: String) -> DbResult<Vec<TournamentRow>> {
        self.call(move |c| {
            let mut st = c.prepare(
                "SELECT id FROM tournaments WHERE cuadrilla = ?1 ORDER BY created DESC LIMIT 20",
            )?;
            let ids = st
                .query_map([cuadrilla], |r| r.get(0))?
                .collect::<Result<Vec<String>, _>>()?;
            let mut out = Vec::new();
            for id in ids {
                if let Some((row, _)) = load_row(c, &id)? {
                    out.push(row);
                }
            }
            Ok(out)
        })
        .await
    }
}
