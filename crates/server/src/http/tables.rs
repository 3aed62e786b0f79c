//! Tables over HTTP: the games offered, the lobby's list, making a table, one table's
//! description, and a finished table's log and replay.

use super::api::*;
use super::InviteQuery;
use crate::code::Code;
use crate::hub::Hub;
use crate::store::now;
use crate::table::DEFAULT_TURN_S;
use crate::table::{StoredTable, TableInfo, TableRow, TableStatus};
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

pub(crate) async fn game_kinds(State(hub): State<Arc<Hub>>) -> Json<Value> {
    let kinds: Vec<Value> = hub
        .kinds
        .iter()
        .map(|k| {
            json!({
                "name": k.name(),
                "title": k.title(),
                "seats": {
                    "min": k.seat_range().start(),
                    "max": k.seat_range().end(),
                    "default": k.default_seats(),
                },
                "rules": k.default_rules(),
                "bots": k.bot_names(),
                "default_bot": k.default_bot(),
                "tools": k.tools(),
                "partners": k.partners(),
                "reviews": k.reviews(),
                // Whether its tournaments may be played in duplicate.
                "duplicate": k
                    .duplicate_rules(&k.default_rules(), k.default_seats(), 1)
                    .is_ok(),
                // Whether an absent side of its tournaments may lose juego by juego.
                "courtesy_juegos": k
                    .give_juego(&k.default_rules(), k.default_seats(), 0)
                    .is_ok(),
                "rule_docs": k
                    .rule_docs()
                    .iter()
                    .map(|(key, doc)| (key.to_string(), json!(doc)))
                    .collect::<serde_json::Map<String, Value>>(),
            })
        })
        .collect();
    Json(Value::Array(kinds))
}

/// Tables a page of the lobby's list holds.
pub const TABLES_PAGE: usize = 50;

/// The furthest page of the lobby's list one may ask for.
pub(crate) const MAX_TABLES_PAGE: usize = 10_000;

/// `?page=N` of the lobby's list.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TablesQuery {
    page: Option<usize>,
}

/// People seated at a table and connected to it now.
pub(crate) fn people_here(t: &TableInfo) -> usize {
    t.seats
        .iter()
        .filter(|s| s.player.is_some() && s.connected)
        .count()
}

/// `GET /api/tables?page=N`: the open public tables, [`TABLES_PAGE`] a page: those where a
/// seated person is connected first, then the others, each newest first. So tables made
/// and left (many of them, from many addresses) never push the tables people are at off
/// the first page. `Link: <…?page=N+1>; rel="next"` says there is a next page, and
/// `X-Total-Count` how many tables there are.
pub(crate) async fn open_tables(
    State(hub): State<Arc<Hub>>,
    query: Result<Query<TablesQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query?;
    let page = q.page.unwrap_or(1);
    if !(1..=MAX_TABLES_PAGE).contains(&page) {
        return Err(ApiError::bad(
            Code::NoSuchPage,
            format!("no page {page}: pages are numbered from 1 (to {MAX_TABLES_PAGE} at most)"),
        ));
    }
    let mut tables: Vec<TableInfo> = hub
        .tables_everywhere()
        .await
        .into_iter()
        // A tournament's matches are found on its page, not among the tables to join.
        .filter(|t| {
            t.status != TableStatus::Finished
                && !t.private.private
                && t.private.tournament.is_none()
        })
        .collect();
    tables.sort_by(|a, b| {
        (people_here(b) > 0)
            .cmp(&(people_here(a) > 0))
            .then(b.created.cmp(&a.created))
            .then(a.id.cmp(&b.id))
    });
    let total = tables.len();
    let start = (page - 1) * TABLES_PAGE;
    let shown: Vec<TableInfo> = tables.into_iter().skip(start).take(TABLES_PAGE).collect();
    let mut res = Json(shown).into_response();
    let h = res.headers_mut();
    h.insert("x-total-count", HeaderValue::from(total));
    if total > start + TABLES_PAGE {
        if let Ok(v) =
            HeaderValue::from_str(&format!("</api/tables?page={}>; rel=\"next\"", page + 1))
        {
            h.insert(header::LINK, v);
        }
    }
    Ok(res)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewTable {
    game: String,
    #[serde(default)]
    rules: Value,
    bot: Option<String>,
    pace_ms: Option<u64>,
    /// Seats at the table, within the game's range (default: the game's default).
    seats: Option<usize>,
    seat: Option<usize>,
    /// Start at once, bots in every other seat (no waiting for friends).
    #[serde(default)]
    start: bool,
    /// The creator's contribution to the deal (32 hexadecimal digits; see
    /// `tapete_table::fair`).
    #[serde(default)]
    seed: Option<String>,
    /// Seconds a person may be gone on their turn before the bot plays for them.
    away_s: Option<u64>,
    /// Seconds the end of a hand waits for the people at the table to press next.
    hold_s: Option<u64>,
    /// Seconds a person has for each turn before the bot plays it (0: no clock).
    turn_s: Option<u64>,
    /// A rated game: accounts only, the game's standard rules (see `rating`).
    #[serde(default)]
    rated: bool,
    /// Seen only through its invitation link (and by who sat there), in no list.
    #[serde(default)]
    private: bool,
    /// Seats kept for accounts, by seat: `{"1": "mikel"}`.
    #[serde(default)]
    reserve: HashMap<String, String>,
    /// A table of this cuadrilla (the maker a member): private, and open to its members.
    cuadrilla: Option<String>,
}

/// Longest pause a table may put between bot actions.
pub(crate) const MAX_PACE_MS: u64 = 5000;

/// The game called `name`, or the refusal that lists the games.
pub(crate) fn kind_named(hub: &Hub, name: &str) -> Result<Arc<dyn tapete_host::Kind>, ApiError> {
    hub.kind(name).cloned().ok_or_else(|| {
        let names: Vec<&str> = hub.kinds.iter().map(|k| k.name()).collect();
        ApiError::bad(
            Code::UnknownGame,
            format!("unknown game `{name}`: choose {}", names.join(", ")),
        )
    })
}

/// The bot level asked for (default: the game's), or the refusal that lists its levels.
pub(crate) fn bot_level(
    kind: &dyn tapete_host::Kind,
    asked: Option<String>,
) -> Result<String, ApiError> {
    let bot = asked.unwrap_or_else(|| kind.default_bot().to_string());
    if !kind.bot_names().contains(&bot.as_str()) {
        return Err(ApiError::bad(
            Code::BotNotFound,
            format!(
                "`{bot}` is not a bot level: choose one of {}",
                kind.bot_names().join(", ")
            ),
        ));
    }
    Ok(bot)
}

/// The bots' pause asked for (default 700 ms), at most [`MAX_PACE_MS`].
pub(crate) fn bots_pace(asked: Option<u64>) -> Result<u64, ApiError> {
    let pace_ms = asked.unwrap_or(700);
    if pace_ms > MAX_PACE_MS {
        return Err(ApiError::bad(
            Code::BadOptions,
            format!("pace_ms {pace_ms} is too slow: at most {MAX_PACE_MS}"),
        ));
    }
    Ok(pace_ms)
}

/// Longest `away_s` and `hold_s`.
pub(crate) const MAX_AWAY_S: u64 = 600;

pub(crate) const MAX_HOLD_S: u64 = 60;

/// The turn clock's bounds, when it is on (0 is off).
pub const TURN_S: std::ops::RangeInclusive<u64> = 10..=600;

pub(crate) async fn create_table(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Json<NewTable>, JsonRejection>,
) -> ApiResult<Value> {
    let player = caller(&hub, &headers).await?;
    let Json(req) = body?;
    let contribution = req
        .seed
        .as_deref()
        .map(tapete_table::fair::contribution)
        .transpose()
        .map_err(|e| ApiError::bad(Code::BadContribution, e.to_string()))?;
    if req.rated {
        super::players::account_only(&hub, player.id).await?;
    }
    super::not_suspended(&hub, player.id, req.rated).await?;
    hub.new_tables
        .take(peer.ip())
        .map_err(|s| ApiError::too_many(s, "new tables"))?;
    let open = hub
        .db
        .open_tables_of(player.id)
        .await
        .map_err(ApiError::internal)?;
    if open >= hub.limits.open_tables_per_player {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            Code::TooManyTables,
            format!(
                "you have {open} tables that are not finished (at most {}): finish or leave one \
                 first",
                hub.limits.open_tables_per_player
            ),
        ));
    }
    let kind = kind_named(&hub, &req.game)?;
    let bot = bot_level(kind.as_ref(), req.bot)?;
    let pace_ms = bots_pace(req.pace_ms)?;
    let away_s = req.away_s.unwrap_or(30);
    if away_s > MAX_AWAY_S {
        return Err(ApiError::bad(
            Code::BadOptions,
            format!("away_s {away_s} is too long: at most {MAX_AWAY_S} seconds"),
        ));
    }
    let hold_s = req.hold_s.unwrap_or(10);
    if hold_s > MAX_HOLD_S {
        return Err(ApiError::bad(
            Code::BadOptions,
            format!("hold_s {hold_s} is too long: at most {MAX_HOLD_S} seconds"),
        ));
    }
    let turn_s = req.turn_s.unwrap_or(DEFAULT_TURN_S);
    if turn_s != 0 && !TURN_S.contains(&turn_s) {
        return Err(ApiError::bad(
            Code::BadOptions,
            format!(
                "turn_s {turn_s} is not a turn clock: 0 (no clock) or {} to {} seconds",
                TURN_S.start(),
                TURN_S.end()
            ),
        ));
    }
    if req.rated && turn_s == 0 {
        // A player who never acts would hold a rated game for ever.
        return Err(ApiError::bad(
            Code::RatedNeedsClock,
            format!(
                "a rated table always has a turn clock: leave out turn_s (it is \
                 {DEFAULT_TURN_S} seconds) or choose {} to {} seconds",
                TURN_S.start(),
                TURN_S.end()
            ),
        ));
    }
    let count = req.seats.unwrap_or_else(|| kind.default_seats());
    let range = kind.seat_range();
    if !range.contains(&count) {
        let allowed = if range.start() == range.end() {
            format!("{}", range.start())
        } else {
            format!("{} to {}", range.start(), range.end())
        };
        return Err(ApiError::bad(
            Code::BadOptions,
            format!(
                "{} is played by {allowed} players: a table of {count} seats cannot be made",
                kind.title()
            ),
        ));
    }
    let seat = req.seat.unwrap_or(0);
    if seat >= count {
        return Err(ApiError::bad(
            Code::NoSuchSeat,
            format!("there is no seat {seat}: seats are 0 to {}", count - 1),
        ));
    }
    // The rules with every key filled in, checked for this many seats. No game is made:
    // a table's seed is chosen when it starts.
    let rules = kind
        .check_rules(&req.rules, count)
        .map_err(|e| ApiError::bad(Code::BadOptions, e))?;
    if req.rated {
        super::players::standard_rules(kind.as_ref(), &rules, count)?;
    }
    let cuadrilla = super::cuadrillas::for_table(&hub, req.cuadrilla.as_deref(), player.id).await?;
    let mut friends = super::private_tables::new_friends(
        &hub,
        req.private || cuadrilla.is_some(),
        &req.reserve,
        count,
        &player,
        seat,
    )
    .await?;
    friends.cuadrilla = cuadrilla;
    let id = table_id();
    hub.open_table_from(peer.ip(), &id).map_err(|open| {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            Code::TooManyTablesFromAddress,
            format!(
                "{open} tables made from your address are open (at most {}): play or leave one \
                 first (a table nobody comes to ends within minutes)",
                hub.limits.open_tables_per_addr
            ),
        )
    })?;
    let seed: u64 = rand::random();
    let mut seats = vec![None; count];
    seats[seat] = Some(player.id);
    let row = TableRow {
        id,
        game: kind.name().to_string(),
        seats: count,
        rules,
        seed,
        creator: Some(player.id),
        bot,
        pace_ms,
        status: TableStatus::Waiting,
        created: now(),
        finished: None,
        outcome: None,
        away_s,
        hold_s,
        turn_s,
        rated: req.rated,
        deal: Some(crate::table::Deal::new()),
    };
    hub.db
        .create_table_with(row.clone(), seats.clone(), friends.clone())
        .await
        .map_err(ApiError::internal)?;
    let stored = StoredTable {
        row,
        seats: seats
            .iter()
            .map(|s| s.map(|id| (id, player.nickname.clone())))
            .collect(),
        actions: Vec::new(),
        pending: Vec::new(),
        hand_seats: Vec::new(),
        private: friends,
        contributions: contribution
            .iter()
            .map(|c| (player.id, c.clone()))
            .collect(),
    };
    // A new table is this server's to run (with PostgreSQL, by its lease).
    hub.db
        .claim(stored.row.id.clone())
        .await
        .map_err(ApiError::internal)?;
    let id = stored.row.id.clone();
    if let Some(c) = contribution {
        hub.db
            .set_contribution(id.clone(), player.id, c)
            .await
            .map_err(ApiError::internal)?;
    }
    if req.rated {
        // The creator sits from here, maybe never connecting before the start.
        hub.db
            .note_table_address(
                stored.row.id.clone(),
                player.id,
                crate::ratings::network(peer.ip()),
            )
            .await
            .map_err(ApiError::internal)?;
    }
    let handle = hub.start_table(stored).map_err(ApiError::internal)?;
    hub.table_made(peer.ip(), &id);
    if req.start {
        handle
            .begin()
            .await
            .map_err(|e| ApiError::internal(format!("table {}: {e}", handle.info().id)))?;
    }
    Ok(Json(super::private_tables::created(&handle.info())))
}

pub(crate) async fn one_table(
    State(hub): State<Arc<Hub>>,
    path: Result<Path<String>, PathRejection>,
    query: Result<Query<InviteQuery>, QueryRejection>,
    headers: HeaderMap,
) -> ApiResult<TableInfo> {
    let Path(id) = path?;
    let invite = super::private_tables::invite_of(query);
    let handle =
        super::private_tables::visible_table(&hub, &id, &headers, invite.as_deref()).await?;
    Ok(Json(handle.info()))
}

/// `GET /api/tables/{id}/fairness`: what the table's deal is checked with (see
/// `tapete_table::fair`): the commitment, the contributions and, once the game is over,
/// the secret and the seed. Before the end 403 `not_revealed`; a duplicate round's table
/// waits for its round's end (403 `deals_in_play`); a table made before deals were
/// committed 404 `no_commitment`.
pub(crate) async fn fairness(
    State(hub): State<Arc<Hub>>,
    path: Result<Path<String>, PathRejection>,
    query: Result<Query<InviteQuery>, QueryRejection>,
    headers: HeaderMap,
) -> ApiResult<tapete_table::fair::Fairness> {
    let Path(id) = path?;
    let invite = super::private_tables::invite_of(query);
    let handle =
        super::private_tables::visible_table(&hub, &id, &headers, invite.as_deref()).await?;
    let info = handle.info();
    let Some(shown) = info.fairness else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            Code::NoCommitment,
            "this table was made before its deals were committed: it has no secret to show",
        ));
    };
    if info.status != TableStatus::Finished {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            Code::NotRevealed,
            format!(
                "the secret is revealed when the game is over; its commitment is {}",
                shown.commitment
            ),
        ));
    }
    if shown.secret.is_some() {
        return Ok(Json(shown));
    }
    // A secret other tables share: shown with the table's log, once they are done.
    let stored = finished_log(&hub, &id, &headers, invite.as_deref()).await?;
    match &stored.row.deal {
        Some(d) => Ok(Json(d.shown(stored.row.seed, true))),
        None => Err(ApiError::internal(format!("table {id}: its deal is gone"))),
    }
}

/// `GET /api/tables/{id}/record`: a finished game as a record `tapete replay` and
/// `tapete verify` read: its game, options, seats, seed and actions, and what its deal is
/// checked with.
pub(crate) async fn record(
    State(hub): State<Arc<Hub>>,
    path: Result<Path<String>, PathRejection>,
    query: Result<Query<InviteQuery>, QueryRejection>,
    headers: HeaderMap,
) -> ApiResult<Value> {
    let Path(id) = path?;
    let invite = super::private_tables::invite_of(query);
    let stored = finished_log(&hub, &id, &headers, invite.as_deref()).await?;
    let actions: Vec<Value> = stored
        .actions
        .iter()
        .map(|(seat, action)| json!([seat, action]))
        .collect();
    let mut record = json!({
        "game": stored.row.game,
        "rules": stored.row.rules,
        "seats": stored.row.seats,
        "seed": stored.row.seed,
        "actions": actions,
    });
    if let Some(d) = &stored.row.deal {
        record["fairness"] = json!(d.shown(stored.row.seed, true));
    }
    Ok(Json(record))
}

/// A finished table's stored log, for its replay (from a small cache: a replay page asks
/// for its steps one by one).
/// A private game's log only to whoever may see the table (to others it does not exist).
/// Refuses what shows a finished table whole (its replay, a review, a seat's view) while
/// other tables of its duplicate round are still playing the same boards.
pub(crate) async fn not_dealt_elsewhere(
    hub: &Arc<Hub>,
    stored: &StoredTable,
) -> Result<(), ApiError> {
    let Some(tournament) = &stored.private.tournament else {
        return Ok(());
    };
    if crate::tournaments::deals_in_play(hub, tournament, &stored.row.id)
        .await
        .map_err(ApiError::internal)?
    {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            Code::DealsInPlay,
            "this table's boards are still being played at other tables of its duplicate \
             round: it can be replayed or reviewed when the round ends",
        ));
    }
    Ok(())
}

/// The stored table `id`, from the replays' cache (finished tables only) or the database
/// (put in the cache when finished); 404 `table_not_found` when there is none. Who may see
/// it is for the caller to check.
pub(crate) async fn stored_table(hub: &Arc<Hub>, id: &str) -> Result<Arc<StoredTable>, ApiError> {
    if let Some(t) = hub.replay_cache.get(id) {
        return Ok(t);
    }
    let stored = hub
        .db
        .table(id.to_string())
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(|| super::private_tables::no_table(id))?;
    let stored = Arc::new(stored);
    if stored.row.status == TableStatus::Finished {
        hub.replay_cache.put(id.to_string(), stored.clone());
    }
    Ok(stored)
}

/// 403 `not_finished` for a table still played: a replay shows every hand.
pub(crate) fn only_finished(stored: &StoredTable) -> Result<(), ApiError> {
    if stored.row.status != TableStatus::Finished {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            Code::NotFinished,
            "the game is not over: a replay shows every hand, so only finished games can be \
             replayed",
        ));
    }
    Ok(())
}

/// The finished table `id` whose log the request may replay: 404 for a table it may not
/// see (or none), 403 for one not over or whose boards are still dealt elsewhere.
pub(crate) async fn finished_log(
    hub: &Arc<Hub>,
    id: &str,
    headers: &HeaderMap,
    invite: Option<&str>,
) -> Result<Arc<StoredTable>, ApiError> {
    let stored = stored_table(hub, id).await?;
    super::private_tables::check_stored(hub, &stored, headers, invite).await?;
    only_finished(&stored)?;
    not_dealt_elsewhere(hub, &stored).await?;
    Ok(stored)
}

/// `GET /api/tables/{id}/replay`: a finished game's table and actions; each step's view
/// comes from [`replay_step`].
pub(crate) async fn replay(
    State(hub): State<Arc<Hub>>,
    path: Result<Path<String>, PathRejection>,
    query: Result<Query<InviteQuery>, QueryRejection>,
    headers: HeaderMap,
) -> ApiResult<Value> {
    let Path(id) = path?;
    let invite = super::private_tables::invite_of(query);
    let stored = finished_log(&hub, &id, &headers, invite.as_deref()).await?;
    replay_of(&hub, &stored).await.map(Json)
}

/// A finished game's replay: its table and actions (whoever may see it: the public
/// replay's checks, or the operator's).
pub(crate) async fn replay_of(hub: &Arc<Hub>, stored: &StoredTable) -> Result<Value, ApiError> {
    let id = &stored.row.id;
    let handle = hub
        .table_or_load(id)
        .await
        .map_err(ApiError::from)?
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                Code::TableNotFound,
                format!("no table `{id}`"),
            )
        })?;
    let actions: Vec<Value> = stored
        .actions
        .iter()
        .enumerate()
        .map(|(i, (seat, action))| json!({"n": i + 1, "seat": seat, "action": action}))
        .collect();
    Ok(json!({
        "table": handle.info(),
        "steps": actions.len() + 1,
        "actions": actions,
    }))
}

/// `GET /api/tables/{id}/replay/{n}`: step `n` of a finished game (0 is the deal): the
/// action, the narration it caused (what applying it told the spectators; for the deal,
/// the opening story) and the full view after it, every hand shown. Built on demand by
/// replaying the log; only a few are built at once.
pub(crate) async fn replay_step(
    State(hub): State<Arc<Hub>>,
    path: Result<Path<(String, usize)>, PathRejection>,
    query: Result<Query<InviteQuery>, QueryRejection>,
    headers: HeaderMap,
) -> ApiResult<Value> {
    let Path((id, n)) = path?;
    let invite = super::private_tables::invite_of(query);
    let stored = finished_log(&hub, &id, &headers, invite.as_deref()).await?;
    replay_step_of(&hub, stored, n).await.map(Json)
}

/// Step `n` of a finished game's replay (see [`replay_step`]), whoever may see it.
pub(crate) async fn replay_step_of(
    hub: &Hub,
    stored: Arc<StoredTable>,
    n: usize,
) -> Result<Value, ApiError> {
    if n > stored.actions.len() {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            Code::NoSuchStep,
            format!(
                "no step {n}: this game has steps 0 to {}",
                stored.actions.len()
            ),
        ));
    }
    replayed(hub, stored, n.saturating_sub(1), move |game, stored| {
        let (seat, action, lines) = match n.checked_sub(1).map(|i| &stored.actions[i]) {
            Some((seat, action)) => {
                let told = game.apply(*seat, action)?;
                (json!(seat), json!(action), told)
            }
            None => (Value::Null, Value::Null, game.lines(None)),
        };
        Ok(json!({
            "n": n,
            "seat": seat,
            "action": action,
            "lines": lines.iter().map(tapete_host::story::Line::wire).collect::<Vec<_>>(),
            "view": game.full_view(),
        }))
    })
    .await
}

/// The game of `stored` made again with its first `upto` actions applied (at most its
/// actions), handed to `then` on a blocking thread: the replays and the views of a
/// finished game. Only a few are made at once on the server (`Hub::replays`).
pub(crate) async fn replayed<T: Send + 'static>(
    hub: &Hub,
    stored: Arc<StoredTable>,
    upto: usize,
    then: impl FnOnce(&mut dyn tapete_host::TableGame, &StoredTable) -> Result<T, String>
        + Send
        + 'static,
) -> Result<T, ApiError> {
    let kind = hub
        .kind(&stored.row.game)
        .cloned()
        .ok_or_else(|| ApiError::internal(format!("unknown game `{}`", stored.row.game)))?;
    let _permit = tokio::time::timeout(Duration::from_secs(5), hub.replays.acquire())
        .await
        .map_err(|_| {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                Code::Busy,
                "the server is busy with other replays: try again in a moment",
            )
        })?
        .map_err(ApiError::internal)?;
    tokio::task::spawn_blocking(move || -> Result<T, String> {
        let row = &stored.row;
        let mut game = kind.new_game(&row.rules, row.seats, row.seed)?;
        for (seat, action) in &stored.actions[..upto.min(stored.actions.len())] {
            game.apply(*seat, action)?;
        }
        then(game.as_mut(), &stored)
    })
    .await
    .map_err(ApiError::internal)?
    .map_err(ApiError::internal)
}
