//! Tournaments over HTTP: making one, the list of public ones, one tournament with its
//! entrants, matches and standings (recomputed from the tables' logs), signing up and
//! withdrawing, the organiser's early start, and taking one's seat at one's match. See
//! [`crate::tournaments`] for the rules and bounds.

use super::api::*;
use super::private_tables::{account_called, invite_of, refused};
use super::InviteQuery;
use crate::code::Code;
use crate::hub::Hub;
use crate::table::access::same_secret;
use crate::table::{Ask, PlayerRef, TableStatus};
use crate::tournaments::{self as t, Settings, Status, Stored};
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;
use tapete_tournament::event::Format;

/// A new tournament, as asked for.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewTournament {
    name: String,
    game: String,
    /// `swiss`, `tres_ceros`, `knockout` or `double`.
    format: String,
    /// Swiss or duplicate rounds (default 5, at most [`t::MAX_ROUNDS`]).
    rounds: Option<u32>,
    /// Duplicate: the boards each round's tables play (default [`t::DEFAULT_BOARDS`]).
    boards: Option<u32>,
    /// Arena: how long it lasts, in minutes (default [`t::DEFAULT_ARENA_MINUTES`]).
    minutes: Option<u32>,
    /// Groups: the most a group holds (default 4) and how many go on from each (default 2).
    group_size: Option<u32>,
    advance: Option<u32>,
    /// A knockout's Cuadro B.
    #[serde(default)]
    consolation: bool,
    #[serde(default)]
    rules: Value,
    /// When it starts (seconds since the epoch; default: in an hour).
    start: Option<i64>,
    #[serde(default)]
    rated: bool,
    /// Seen only through its link (and by its entrants).
    #[serde(default)]
    private: bool,
    /// Whether bots may stand in for people who do not come.
    #[serde(default)]
    bots: bool,
    courtesy_s: Option<u64>,
    /// An absent side loses a juego each courtesy time, the match only when the juegos
    /// would decide it (Mus's juegos; not with bot stand-ins).
    #[serde(default)]
    courtesy_juegos: bool,
    /// The longest a match may be played (seconds, [`t::TIME_LIMIT_S`]); none: no limit.
    time_limit_s: Option<u64>,
    turn_s: Option<u64>,
    pace_ms: Option<u64>,
    bot: Option<String>,
    /// A cuadrilla's tournament: private to its members (the caller must be one).
    cuadrilla: Option<String>,
}

fn not_found(id: &str) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        Code::TournamentNotFound,
        format!("no tournament `{id}`"),
    )
}

fn refusal_status(code: Code) -> StatusCode {
    match code {
        Code::TournamentNotFound | Code::NoSuchEntry => StatusCode::NOT_FOUND,
        Code::NotYourEntry | Code::NotOrganiser => StatusCode::FORBIDDEN,
        Code::TooManyTournaments => StatusCode::TOO_MANY_REQUESTS,
        _ => StatusCode::CONFLICT,
    }
}

fn store_refusal((code, msg): (Code, String)) -> ApiError {
    ApiError::new(refusal_status(code), code, msg)
}

/// `POST /api/tournaments`: accounts only; checked and bounded before anything is stored.
pub(crate) async fn create(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    body: Result<Json<NewTournament>, JsonRejection>,
) -> ApiResult<Value> {
    let me = super::friends::account_caller(&hub, &headers).await?;
    let Json(req) = body?;
    super::not_suspended(&hub, me.player.id, false).await?;
    let bad = |m: String| ApiError::bad(Code::BadOptions, m);
    let name = req.name.trim().to_string();
    if name.is_empty() || name.chars().count() > t::MAX_NAME {
        return Err(bad(format!(
            "a tournament's name has 1 to {} characters",
            t::MAX_NAME
        )));
    }
    let kind = super::tables::kind_named(&hub, &req.game)?;
    let pairs = kind.partners();
    let seats = if pairs { 4 } else { 2 };
    if !kind.seat_range().contains(&seats) {
        return Err(bad(format!(
            "{} has no table of {seats} seats for a match",
            kind.title()
        )));
    }
    let rounds = || {
        let rounds = req.rounds.unwrap_or(5);
        if rounds == 0 || rounds > t::MAX_ROUNDS {
            return Err(bad(format!(
                "a Swiss or a duplicate has 1 to {} rounds (fewer than its entrants)",
                t::MAX_ROUNDS
            )));
        }
        Ok(rounds)
    };
    let format = match req.format.as_str() {
        "swiss" => Format::Swiss { rounds: rounds()? },
        "duplicate" => Format::Duplicate { rounds: rounds()? },
        "tres_ceros" => Format::TresCeros,
        "knockout" => Format::Knockout {
            consolation: req.consolation,
        },
        "double" => Format::Double,
        "groups" => Format::Groups {
            size: req.group_size.unwrap_or(4),
            advance: req.advance.unwrap_or(2),
        },
        "arena" => {
            let minutes = req.minutes.unwrap_or(t::DEFAULT_ARENA_MINUTES);
            if !t::ARENA_MINUTES.contains(&minutes) {
                return Err(bad(format!(
                    "an arena lasts {} to {} minutes",
                    t::ARENA_MINUTES.start(),
                    t::ARENA_MINUTES.end()
                )));
            }
            Format::Arena { minutes }
        }
        other => {
            return Err(bad(format!(
                "unknown format `{other}`: choose swiss, duplicate, tres_ceros, knockout, double, groups or arena"
            )))
        }
    };
    let duplicate = matches!(format, Format::Duplicate { .. });
    if req.rounds.is_some() && !matches!(format, Format::Swiss { .. } | Format::Duplicate { .. }) {
        return Err(bad("`rounds` is for a Swiss or a duplicate only".into()));
    }
    if req.boards.is_some() && !duplicate {
        return Err(bad("`boards` is for a duplicate only".into()));
    }
    if req.minutes.is_some() && !matches!(format, Format::Arena { .. }) {
        return Err(bad("`minutes` is for an arena only".into()));
    }
    if let Format::Groups { size, advance } = format {
        // The field is known only at the start; the options themselves are checked now.
        use tapete_tournament::groups::{MAX_GROUP, MIN_GROUP};
        if !(MIN_GROUP..=MAX_GROUP).contains(&size) || advance == 0 || advance >= size {
            return Err(bad(format!(
                "groups hold {MIN_GROUP} to {MAX_GROUP} entrants, and 1 to the group size \
                 less one go on from each (group_size {size}, advance {advance})"
            )));
        }
    } else if req.group_size.is_some() || req.advance.is_some() {
        return Err(bad("`group_size` and `advance` are for groups only".into()));
    }
    if req.consolation && !matches!(format, Format::Knockout { .. }) {
        return Err(bad("`consolation` (Cuadro B) is for a knockout only".into()));
    }
    let rules = if duplicate {
        kind.duplicate_rules(&req.rules, seats, req.boards.unwrap_or(t::DEFAULT_BOARDS))
            .map_err(|e| ApiError::bad(Code::BadOptions, e))?
    } else {
        kind.check_rules(&req.rules, seats)
            .map_err(|e| ApiError::bad(Code::BadOptions, e))?
    };
    if req.rated {
        super::players::standard_rules(kind.as_ref(), &rules, seats)?;
    }
    let now = hub.clock().epoch();
    let start = req.start.unwrap_or(now + 3600).max(now);
    if start > now + t::MAX_START_AHEAD_S {
        return Err(bad(format!(
            "a tournament starts within {} days",
            t::MAX_START_AHEAD_S / 86_400
        )));
    }
    let courtesy_s = req.courtesy_s.unwrap_or(t::DEFAULT_COURTESY_S);
    if !t::COURTESY_S.contains(&courtesy_s) {
        return Err(bad(format!(
            "courtesy_s is {} to {} seconds",
            t::COURTESY_S.start(),
            t::COURTESY_S.end()
        )));
    }
    if req.courtesy_juegos {
        if req.bots {
            return Err(bad(
                "courtesy by juegos and bot stand-ins exclude each other: at the end of the \
                 courtesy time a stand-in would play the absent side's seats"
                    .into(),
            ));
        }
        // The rules must have juegos to give: the first one given shows it.
        kind.give_juego(&rules, seats, 0)
            .map_err(|e| bad(format!("courtesy by juegos: {e}")))?;
    }
    let turn_s = req.turn_s.unwrap_or(crate::table::DEFAULT_TURN_S);
    if !super::tables::TURN_S.contains(&turn_s) {
        return Err(bad(format!(
            "a tournament's tables always have a turn clock: turn_s is {} to {} seconds",
            super::tables::TURN_S.start(),
            super::tables::TURN_S.end()
        )));
    }
    if let Some(limit) = req.time_limit_s {
        if !t::TIME_LIMIT_S.contains(&limit) {
            return Err(bad(format!(
                "time_limit_s is {} to {} seconds (or none)",
                t::TIME_LIMIT_S.start(),
                t::TIME_LIMIT_S.end()
            )));
        }
    }
    let pace_ms = super::tables::bots_pace(req.pace_ms)?;
    let bot = super::tables::bot_level(kind.as_ref(), req.bot)?;
    if let Some(c) = &req.cuadrilla {
        let member = hub
            .db
            .is_member(c.clone(), me.player.id)
            .await
            .map_err(ApiError::internal)?;
        if !member {
            return Err(ApiError::new(
                StatusCode::NOT_FOUND,
                Code::CuadrillaNotFound,
                format!("no cuadrilla `{c}` of yours"),
            ));
        }
    }
    let settings = Settings {
        format,
        rules,
        seats,
        pairs,
        courtesy_s,
        courtesy_juegos: req.courtesy_juegos,
        bots: req.bots,
        bot,
        turn_s,
        pace_ms,
        deals: duplicate.then(rand::random),
        time_limit_s: req.time_limit_s,
    };
    let row = t::TournamentRow {
        id: super::new_table_id(),
        organiser: me.player.clone(),
        name,
        game: kind.name().to_string(),
        settings,
        start_at: start,
        rated: req.rated,
        invite: (req.private || req.cuadrilla.is_some()).then(super::new_secret),
        cuadrilla: req.cuadrilla.clone(),
        status: Status::Signup,
        created: now,
        finished: None,
    };
    hub.db
        .create_tournament(row.clone())
        .await
        .map_err(ApiError::internal)?
        .map_err(store_refusal)?;
    Ok(Json(json!({"id": row.id, "invite": row.invite})))
}

/// Whether `player` (or the holder of `invite`) may see a tournament: a public one anyone,
/// a private one its organiser, its entrants and whoever has its link (and a cuadrilla's
/// its members: see [`visible`]).
fn may_see(t: &Stored, player: Option<i64>, invite: Option<&str>) -> bool {
    let Some(secret) = &t.row.invite else {
        return true;
    };
    if invite.is_some_and(|i| same_secret(i, secret)) {
        return true;
    }
    let Some(p) = player else { return false };
    t.row.organiser.id == p
        || t.entries.iter().any(|e| {
            e.people().iter().any(|x| x.id == p) || e.substitute.as_ref().is_some_and(|s| s.id == p)
        })
}

async fn visible(
    hub: &Arc<Hub>,
    id: &str,
    headers: &HeaderMap,
    invite: Option<&str>,
) -> Result<(Stored, Option<PlayerRef>), ApiError> {
    let t = hub
        .db
        .tournament(id.to_string())
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(|| not_found(id))?;
    let viewer = super::private_tables::viewer(hub, headers).await;
    if !may_see(&t, viewer.as_ref().map(|p| p.id), invite) {
        let member = match (&t.row.cuadrilla, &viewer) {
            (Some(c), Some(p)) => hub
                .db
                .is_member(c.clone(), p.id)
                .await
                .map_err(ApiError::internal)?,
            _ => false,
        };
        if !member {
            return Err(not_found(id));
        }
    }
    Ok((t, viewer))
}

/// A tournament as pages draw it: its settings, entrants, matches with their results
/// (read from the tables' logs) and the standings they make.
pub(crate) async fn view(hub: &Arc<Hub>, t: &Stored) -> Result<Value, ApiError> {
    let entrants: Vec<Value> = t
        .entries
        .iter()
        .map(|e| {
            json!({
                "entry": e.entry,
                "seed": e.seed,
                "players": e.people(),
                "substitute": e.substitute,
                "withdrawn": e.withdrawn,
            })
        })
        .collect();
    let mut matches = Vec::new();
    let mut standings = Value::Null;
    let mut round = 0;
    let mut rounds = match t.settings.format {
        Format::Swiss { rounds } | Format::Duplicate { rounds } => Some(rounds),
        _ => None,
    };
    if t.row.status != Status::Signup {
        let results = crate::tournaments::results_of(hub, t)
            .await
            .map_err(ApiError::internal)?;
        for b in &t.boards {
            let key = t::key_of(b.round, b.board);
            let result = results.iter().find(|r| r.key == key);
            matches.push(json!({
                "round": b.round,
                "board": b.board,
                "table": b.table_id,
                "first": b.first,
                "second": b.second,
                "status": b.status.map(TableStatus::as_str),
                "absent": b.forfeit,
                "courtesy_until": b.courtesy_until,
                // Seats the table's bot played for somebody who did not come.
                "stand_ins": if b.status.is_some_and(|s| s != TableStatus::Waiting) {
                    b.seated.iter().enumerate().filter(|(_, p)| p.is_none()).map(|(s, _)| s).collect()
                } else {
                    Vec::new()
                },
                "winner": result.and_then(|r| r.winner),
                "points": result.map(|r| [r.first_points, r.second_points]),
            }));
        }
        if t.row.status == Status::Finished && t.entries.len() < 2 {
            standings = t.standings.clone().unwrap_or(Value::Null);
        } else if let Format::Arena { minutes } = t.settings.format {
            let ends = crate::tournaments::arena_end(t, minutes);
            standings = crate::tournaments::arena_standings(t.entries.len(), &results, ends);
        } else {
            let event = t::event_of(t).map_err(ApiError::internal)?;
            if let Format::Swiss { rounds: r } | Format::Duplicate { rounds: r } = event.format {
                // As many as its field can be paired in.
                rounds = Some(r);
            }
            let next = event.next(&results).map_err(ApiError::internal)?;
            round = next.round;
            let boards = crate::tournaments::boards_of(hub, t)
                .await
                .map_err(ApiError::internal)?;
            standings = crate::tournaments::standings_of(&event, &results, &boards, &next)
                .map_err(ApiError::internal)?;
        }
    }
    let s = &t.settings;
    Ok(json!({
        "id": t.row.id,
        "name": t.row.name,
        "game": t.row.game,
        "format": t::format_name(&s.format),
        "rounds": rounds,
        "consolation": matches!(s.format, Format::Knockout { consolation: true }),
        "minutes": match s.format {
            Format::Arena { minutes } => Some(minutes),
            _ => None,
        },
        "group_size": match s.format {
            Format::Groups { size, .. } => Some(size),
            _ => None,
        },
        "advance": match s.format {
            Format::Groups { advance, .. } => Some(advance),
            _ => None,
        },
        "rules": s.rules,
        "pairs": s.pairs,
        "bots": s.bots,
        "bot": s.bot,
        "courtesy_s": s.courtesy_s,
        "courtesy_juegos": s.courtesy_juegos,
        "time_limit_s": s.time_limit_s,
        "turn_s": s.turn_s,
        "start": t.row.start_at,
        "rated": t.row.rated,
        "private": t.row.invite.is_some(),
        "cuadrilla": t.row.cuadrilla,
        "organiser": t.row.organiser,
        "status": t.row.status,
        "finished": t.row.finished,
        "entrants": entrants,
        "max_entrants": t::MAX_ENTRANTS,
        "round": round,
        "matches": matches,
        "standings": standings,
    }))
}

/// `GET /api/tournaments/{id}[?invite=S]`.
pub(crate) async fn one(
    State(hub): State<Arc<Hub>>,
    path: Result<Path<String>, PathRejection>,
    query: Result<Query<InviteQuery>, QueryRejection>,
    headers: HeaderMap,
) -> ApiResult<Value> {
    let Path(id) = path?;
    let invite = invite_of(query);
    let (t, viewer) = visible(&hub, &id, &headers, invite.as_deref()).await?;
    let mut v = view(&hub, &t).await?;
    // The link is shown to the organiser and the entrants, who pass it on.
    let inside = viewer.is_some_and(|p| may_see(&t, Some(p.id), None));
    if inside || invite.is_some() {
        v["invite"] = json!(t.row.invite);
    }
    Ok(Json(v))
}

/// `GET /api/tournaments`: public tournaments not finished, and those of the last week.
pub(crate) async fn list(State(hub): State<Arc<Hub>>) -> ApiResult<Value> {
    let since = hub.clock().epoch() - 7 * 86_400;
    let rows = hub
        .db
        .public_tournaments(since)
        .await
        .map_err(ApiError::internal)?;
    let out: Vec<Value> = rows
        .iter()
        .map(|r| {
            json!({
                "id": r.id,
                "name": r.name,
                "game": r.game,
                "format": t::format_name(&r.settings.format),
                "start": r.start_at,
                "status": r.status,
                "rated": r.rated,
                "organiser": r.organiser,
            })
        })
        .collect();
    Ok(Json(Value::Array(out)))
}

/// An entry, as asked for: the caller, with a partner for a pair game, and maybe a
/// substitute.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewEntry {
    partner: Option<String>,
    substitute: Option<String>,
    invite: Option<String>,
}

/// `POST /api/tournaments/{id}/entries`.
pub(crate) async fn enter(
    State(hub): State<Arc<Hub>>,
    path: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    body: Result<Json<NewEntry>, JsonRejection>,
) -> ApiResult<Value> {
    let Path(id) = path?;
    let me = super::friends::account_caller(&hub, &headers).await?;
    let Json(req) = body?;
    let (t, _) = visible(&hub, &id, &headers, req.invite.as_deref()).await?;
    let mut people = vec![me.player.id];
    match (&req.partner, t.settings.pairs) {
        (Some(p), true) => {
            let partner = account_called(&hub, p).await?;
            if partner.id == me.player.id {
                return Err(ApiError::bad(
                    Code::EntryNeedsPartner,
                    "your partner is somebody else: name them",
                ));
            }
            people.push(partner.id);
        }
        (None, true) => {
            return Err(ApiError::bad(
                Code::EntryNeedsPartner,
                format!("{} is played in pairs: name your partner", t.row.game),
            ))
        }
        (Some(_), false) => {
            return Err(ApiError::bad(
                Code::EntryHasNoPartner,
                format!(
                    "{} is played one against one: an entry has no partner",
                    t.row.game
                ),
            ))
        }
        (None, false) => {}
    }
    // Nobody suspended from what the tournament plays enters it.
    for p in &people {
        if let Err(e) = super::not_suspended(&hub, *p, t.row.rated).await {
            if *p == me.player.id {
                return Err(e);
            }
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                Code::Suspended,
                "your partner's account is suspended: they cannot enter",
            ));
        }
    }
    if let Some(c) = &t.row.cuadrilla {
        for p in &people {
            if !hub
                .db
                .is_member(c.clone(), *p)
                .await
                .map_err(ApiError::internal)?
            {
                return Err(ApiError::new(
                    StatusCode::FORBIDDEN,
                    Code::TournamentMembersOnly,
                    "a cuadrilla's tournament is for its members: both of a pair",
                ));
            }
        }
    }
    let substitute = match &req.substitute {
        Some(s) => {
            let p = account_called(&hub, s).await?;
            if people.contains(&p.id) {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    Code::AlreadyEntered,
                    "a substitute is somebody not already in the entry",
                ));
            }
            Some(p.id)
        }
        None => None,
    };
    let now = hub.clock().epoch();
    let entry = hub
        .db
        .enter_tournament(id, people, substitute, now)
        .await
        .map_err(ApiError::internal)?
        .map_err(store_refusal)?;
    Ok(Json(json!({"entry": entry})))
}

/// `DELETE /api/tournaments/{id}/entries/{entry}`: before the start the entry goes; after
/// it, the entrant is out from the next round (its results stand).
pub(crate) async fn withdraw(
    State(hub): State<Arc<Hub>>,
    path: Result<Path<(String, i64)>, PathRejection>,
    headers: HeaderMap,
) -> ApiResult<Value> {
    let Path((id, entry)) = path.map_err(|_| {
        ApiError::bad(
            Code::NoSuchEntry,
            "write the address as /api/tournaments/ID/entries/ENTRY, ENTRY a number",
        )
    })?;
    let me = super::friends::account_caller(&hub, &headers).await?;
    let (t, _) = visible(&hub, &id, &headers, None).await?;
    // Out from the round after the one being played (a round paired stays as paired).
    let playing = t.boards.iter().map(|b| b.round).max().unwrap_or(0);
    hub.db
        .leave_tournament(id.clone(), entry, me.player.id, i64::from(playing) + 1)
        .await
        .map_err(ApiError::internal)?
        .map_err(store_refusal)?;
    if t.row.status == Status::Running {
        if let Err(e) = crate::tournaments::advance(&hub, &id).await {
            tracing::warn!(tournament = %id, "not advanced after a withdrawal: {e}");
        }
    }
    Ok(Json(json!({"withdrawn": entry})))
}

/// `POST /api/tournaments/{id}/start`: the organiser starts it now (entries close).
pub(crate) async fn start(
    State(hub): State<Arc<Hub>>,
    path: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
) -> ApiResult<Value> {
    let Path(id) = path?;
    let me = super::friends::account_caller(&hub, &headers).await?;
    let (t, _) = visible(&hub, &id, &headers, None).await?;
    if t.row.organiser.id != me.player.id {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            Code::NotOrganiser,
            "only the organiser starts a tournament early",
        ));
    }
    if t.row.status != Status::Signup {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            Code::TournamentStarted,
            "the tournament has started already",
        ));
    }
    hub.db
        .start_now(id.clone(), hub.clock().epoch())
        .await
        .map_err(ApiError::internal)?;
    crate::tournaments::advance(&hub, &id)
        .await
        .map_err(ApiError::internal)?;
    let t = hub
        .db
        .tournament(id.clone())
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(|| not_found(&id))?;
    Ok(Json(view(&hub, &t).await?))
}

/// `POST /api/tournaments/{id}/play`: the caller takes their seat at their match waiting
/// to start (an entrant's substitute, a seat of its entrant nobody took: the one kept for
/// whom it stands for first); the table's id (and its link) is the answer.
pub(crate) async fn play(
    State(hub): State<Arc<Hub>>,
    path: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    body: Result<Option<Json<super::private_tables::SeatBody>>, JsonRejection>,
) -> ApiResult<Value> {
    let Path(id) = path?;
    let contribution = super::private_tables::contribution_of(body)?;
    let me = super::friends::account_caller(&hub, &headers).await?;
    let (t, _) = visible(&hub, &id, &headers, None).await?;
    let mine = t.entries.iter().find(|e| {
        e.people().iter().any(|p| p.id == me.player.id)
            || e.substitute.as_ref().is_some_and(|s| s.id == me.player.id)
    });
    let Some(seed) = mine.and_then(|e| e.seed) else {
        return Err(no_match());
    };
    // An arena's entrant paused (it did not come, or left) comes back: it is paired again
    // as soon as someone else is free.
    if let (Format::Arena { .. }, Some(e)) = (&t.settings.format, mine) {
        if e.withdrawn.is_some() && t.row.status == Status::Running {
            hub.db
                .resume_entrant(t.row.id.clone(), e.entry)
                .await
                .map_err(ApiError::internal)?;
            return Ok(Json(json!({"resumed": true})));
        }
    }
    let seed = seed as usize;
    let board = t
        .boards
        .iter()
        .rev()
        .find(|b| {
            (b.first == seed || b.second == seed)
                && b.forfeit.is_none()
                && b.status.is_some_and(|s| s != TableStatus::Finished)
        })
        .ok_or_else(no_match)?;
    let table = board.table_id.clone().ok_or_else(no_match)?;
    let handle = hub
        .table_or_load(&table)
        .await
        .map_err(ApiError::from)?
        .ok_or_else(no_match)?;
    handle
        .ask(Ask::Accept {
            player: me.player.clone(),
            seed: contribution,
        })
        .await
        .map_err(refused)?;
    Ok(Json(super::private_tables::created(&handle.info())))
}

fn no_match() -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        Code::NoMatchNow,
        "you have no match of this tournament to sit at now",
    )
}
