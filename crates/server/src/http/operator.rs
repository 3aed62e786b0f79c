//! The operator's API, `/api/operator/…` (see [`crate::operator`]): the screens' flags,
//! the chat's reports, suspensions, the log of operator actions, and any finished game's
//! replay with every hand shown.
//!
//! Every route is behind [`only_operators`], which answers anyone else 403 `not_operator`
//! before the request is read any further: the same answer whatever the path names, so a
//! stranger learns nothing of what exists. Every action of an operator, and every read of
//! evidence (flags, reports, replays), is written in the operator's log.

use super::api::*;
use crate::code::Code;
use crate::hub::Hub;
use crate::operator::{self, FlagStatus, Scope, MAX_PAGE};
use crate::table::PlayerRef;
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{Path, Query, Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Extension, Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// The operator making a request (put there by [`only_operators`]).
#[derive(Clone)]
pub(crate) struct Operator(pub PlayerRef);

fn not_operator() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        Code::NotOperator,
        "only the server's operators may do that",
    )
}

/// Lets through only a session of an operator's account; anyone else (no token, a token
/// that is no one's, a guest, an account that is no operator) is answered 403
/// `not_operator` whatever was asked.
async fn only_operators(
    State(hub): State<Arc<Hub>>,
    mut req: Request,
    next: axum::middleware::Next,
) -> Response {
    let token = match bearer(req.headers()) {
        Ok(Some(t)) => t.to_owned(),
        _ => return not_operator().into_response(),
    };
    let session = match session_for_token(&hub, &token).await {
        Ok(s) => s,
        Err(e) => return e.into_response(),
    };
    match session.filter(|s| s.account && hub.is_operator(s.player.id)) {
        Some(s) => {
            req.extensions_mut().insert(Operator(s.player));
            next.run(req).await
        }
        None => not_operator().into_response(),
    }
}

/// The operator's routes, each behind [`only_operators`].
pub(crate) fn routes(hub: Arc<Hub>) -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/operator/flags", get(flags))
        .route("/api/operator/flags/{id}", post(judge_flag))
        .route("/api/operator/reports", get(reports))
        .route("/api/operator/suspensions", get(suspensions).post(suspend))
        .route("/api/operator/suspensions/{id}", delete(lift))
        .route("/api/operator/log", get(log))
        .route("/api/operator/screen", post(screen))
        .route("/api/operator/tables/{id}/replay", get(replay))
        .route("/api/operator/tables/{id}/replay/{n}", get(replay_step))
        .route_layer(axum::middleware::from_fn_with_state(hub, only_operators))
}

/// `?page=N` of the operator's lists (from 1).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PageQuery {
    page: Option<usize>,
}

fn page_of(query: Result<Query<PageQuery>, QueryRejection>) -> Result<usize, ApiError> {
    let Query(q) = query?;
    let page = q.page.unwrap_or(1);
    if !(1..=MAX_PAGE).contains(&page) {
        return Err(ApiError::bad(
            Code::NoSuchPage,
            format!("no page {page}: pages are numbered 1 to {MAX_PAGE}"),
        ));
    }
    Ok(page)
}

/// Writes a line of the operator's log; a line that cannot be written fails the request
/// (what an operator saw or did is never left out of the log).
async fn logged(
    hub: &Hub,
    who: &Operator,
    action: &'static str,
    target: String,
    details: Value,
) -> Result<(), ApiError> {
    hub.db
        .log_operator(who.0.id, action, target, details)
        .await
        .map_err(ApiError::internal)
}

/// Refuses a suspended person what their suspension keeps them from: a seat at a table, a
/// new table or a tournament (`rated`: a rated one, which a suspension from rated play
/// keeps them from too); 403 `suspended`, the reason in its sentence.
pub(crate) async fn not_suspended(hub: &Hub, player: i64, rated: bool) -> Result<(), ApiError> {
    let suspension = hub
        .db
        .suspension_of(player)
        .await
        .map_err(ApiError::internal)?;
    match suspension.filter(|s| s.keeps_from(rated)) {
        Some(s) => Err(ApiError::refused(StatusCode::FORBIDDEN, s.refusal())),
        None => Ok(()),
    }
}

/// `POST /api/operator/screen`: screens the newest rated games now and stores what they
/// flag (see [`crate::operator::screen`]); answers what was done. Logged.
async fn screen(
    State(hub): State<Arc<Hub>>,
    Extension(who): Extension<Operator>,
) -> ApiResult<Value> {
    let summary = operator::screen::screen_now(&hub)
        .await
        .map_err(ApiError::internal)?;
    let details =
        json!({"games": summary.games, "flagged": summary.flagged, "stored": summary.stored});
    logged(&hub, &who, "screen", String::new(), details).await?;
    Ok(Json(json!(summary)))
}

/// `GET /api/operator/flags?page=N`: the open flags first, then the judged, newest first.
async fn flags(
    State(hub): State<Arc<Hub>>,
    Extension(who): Extension<Operator>,
    query: Result<Query<PageQuery>, QueryRejection>,
) -> ApiResult<Value> {
    let page = page_of(query)?;
    logged(
        &hub,
        &who,
        "read_flags",
        String::new(),
        json!({"page": page}),
    )
    .await?;
    let flags = hub.db.flags(page).await.map_err(ApiError::internal)?;
    Ok(Json(json!(flags)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Judgement {
    status: String,
    #[serde(default)]
    note: String,
}

/// `POST /api/operator/flags/{id}` `{status, note}`: an operator's judgement of a flag
/// (`dismissed`, `acted`, or `open` again), with a note of at most 500 characters.
async fn judge_flag(
    State(hub): State<Arc<Hub>>,
    Extension(who): Extension<Operator>,
    path: Result<Path<i64>, PathRejection>,
    body: Result<Json<Judgement>, JsonRejection>,
) -> ApiResult<Value> {
    let Path(id) = path?;
    let Json(j) = body?;
    let status = FlagStatus::parse(&j.status).ok_or_else(|| {
        ApiError::bad(
            Code::BadRequest,
            format!(
                "`{}` is not a flag's status: open, dismissed or acted",
                operator::bounded(&j.status, 20)
            ),
        )
    })?;
    let note = operator::check_reason(&j.note, true)
        .map_err(|r| ApiError::refused(StatusCode::BAD_REQUEST, r))?;
    let flag = hub
        .db
        .judge_flag(id, status, note, who.0.id)
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                Code::FlagNotFound,
                format!("no flag {id}"),
            )
        })?;
    Ok(Json(json!(flag)))
}

/// `GET /api/operator/reports?page=N`: the chat's reports, newest first.
async fn reports(
    State(hub): State<Arc<Hub>>,
    Extension(who): Extension<Operator>,
    query: Result<Query<PageQuery>, QueryRejection>,
) -> ApiResult<Value> {
    let page = page_of(query)?;
    logged(
        &hub,
        &who,
        "read_reports",
        String::new(),
        json!({"page": page}),
    )
    .await?;
    let reports = hub
        .db
        .chat_reports(page)
        .await
        .map_err(ApiError::internal)?;
    Ok(Json(json!(reports)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewSuspension {
    /// The player's id (a number), or an account's nickname (a string).
    player: Value,
    scope: String,
    reason: String,
}

/// The player a suspension names: an id (any player), or an account's nickname.
async fn player_named(hub: &Hub, player: &Value) -> Result<PlayerRef, ApiError> {
    let not_found = |what: String| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            Code::PlayerNotFound,
            format!("no player {what}"),
        )
    };
    match player {
        Value::Number(n) => {
            let id = n
                .as_i64()
                .ok_or_else(|| not_found(format!("with the id {n}")))?;
            let nickname = hub
                .db
                .player(id)
                .await
                .map_err(ApiError::internal)?
                .ok_or_else(|| not_found(format!("with the id {id}")))?;
            Ok(PlayerRef { id, nickname })
        }
        Value::String(name) => {
            let found = hub
                .db
                .account_by_key(crate::accounts::nickname_key(name))
                .await
                .map_err(ApiError::internal)?;
            match found {
                Some((id, nickname, _)) => Ok(PlayerRef { id, nickname }),
                None => Err(not_found(format!(
                    "with an account called `{}`",
                    operator::bounded(name, 24)
                ))),
            }
        }
        _ => Err(ApiError::bad(
            Code::BadRequest,
            "`player` is a player's id (a number) or an account's nickname (a string)",
        )),
    }
}

/// `POST /api/operator/suspensions` `{player, scope, reason}`: suspends an account from
/// rated play (`rated`) or from the whole site (`site`), for a reason the suspended person
/// reads (1 to 500 characters).
async fn suspend(
    State(hub): State<Arc<Hub>>,
    Extension(who): Extension<Operator>,
    body: Result<Json<NewSuspension>, JsonRejection>,
) -> ApiResult<Value> {
    let Json(req) = body?;
    let scope = Scope::parse(&req.scope).ok_or_else(|| {
        ApiError::bad(
            Code::BadRequest,
            format!(
                "`{}` is not a suspension's scope: rated or site",
                operator::bounded(&req.scope, 20)
            ),
        )
    })?;
    let reason = operator::check_reason(&req.reason, false)
        .map_err(|r| ApiError::refused(StatusCode::BAD_REQUEST, r))?;
    let player = player_named(&hub, &req.player).await?;
    if player.id == who.0.id {
        return Err(ApiError::bad(
            Code::OperatorSelf,
            "an operator does not suspend themselves",
        ));
    }
    let s = hub
        .db
        .suspend(player.id, scope, reason, who.0.id)
        .await
        .map_err(ApiError::internal)?;
    tracing::info!(
        player = player.id,
        operator = who.0.id,
        scope = scope.as_str(),
        "suspended"
    );
    Ok(Json(json!(s)))
}

/// `DELETE /api/operator/suspensions/{id}`: lifts a suspension in force.
async fn lift(
    State(hub): State<Arc<Hub>>,
    Extension(who): Extension<Operator>,
    path: Result<Path<i64>, PathRejection>,
) -> ApiResult<Value> {
    let Path(id) = path?;
    let s = hub
        .db
        .lift_suspension(id, who.0.id)
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                Code::SuspensionNotFound,
                format!("no suspension {id} in force"),
            )
        })?;
    tracing::info!(
        player = s.player.id,
        operator = who.0.id,
        "suspension lifted"
    );
    Ok(Json(json!(s)))
}

/// `GET /api/operator/suspensions?page=N`: those in force first, then the lifted.
async fn suspensions(
    State(hub): State<Arc<Hub>>,
    query: Result<Query<PageQuery>, QueryRejection>,
) -> ApiResult<Value> {
    let page = page_of(query)?;
    let list = hub.db.suspensions(page).await.map_err(ApiError::internal)?;
    Ok(Json(json!(list)))
}

/// `GET /api/operator/log?page=N`: the operators' actions, newest first.
async fn log(
    State(hub): State<Arc<Hub>>,
    query: Result<Query<PageQuery>, QueryRejection>,
) -> ApiResult<Value> {
    let page = page_of(query)?;
    let rows = hub
        .db
        .operator_log(page)
        .await
        .map_err(ApiError::internal)?;
    Ok(Json(json!(rows)))
}

/// Any finished table's stored log, for the operator: a private table's, and a duplicate
/// round's whose other tables are still playing its boards.
async fn finished(hub: &Arc<Hub>, id: &str) -> Result<Arc<crate::table::StoredTable>, ApiError> {
    let stored = super::tables::stored_table(hub, id).await?;
    super::tables::only_finished(&stored)?;
    Ok(stored)
}

/// `GET /api/operator/tables/{id}/replay`: any finished table's replay (as the public
/// one's answer), logged.
async fn replay(
    State(hub): State<Arc<Hub>>,
    Extension(who): Extension<Operator>,
    path: Result<Path<String>, PathRejection>,
) -> ApiResult<Value> {
    let Path(id) = path?;
    let stored = finished(&hub, &id).await?;
    logged(&hub, &who, "replay", id, json!({})).await?;
    super::tables::replay_of(&hub, &stored).await.map(Json)
}

/// `GET /api/operator/tables/{id}/replay/{n}`: step `n` of any finished table's replay,
/// every hand shown; logged once for a run of steps of one table.
async fn replay_step(
    State(hub): State<Arc<Hub>>,
    Extension(who): Extension<Operator>,
    path: Result<Path<(String, usize)>, PathRejection>,
) -> ApiResult<Value> {
    let Path((id, n)) = path?;
    let stored = finished(&hub, &id).await?;
    hub.db
        .log_replay_step(who.0.id, id, n)
        .await
        .map_err(ApiError::internal)?;
    super::tables::replay_step_of(&hub, stored, n)
        .await
        .map(Json)
}
