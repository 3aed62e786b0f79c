//! Reviews over HTTP: the review of one seat of a finished table, answered once it is
//! stored, queued when it is not (see [`crate::review`]).

use super::api::*;
use super::private_tables::check_stored;
use crate::accounts::Session;
use crate::code::Code;
use crate::hub::Hub;
use crate::review::{Asked, Status};
use crate::table::{StoredTable, TableStatus};
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;

/// `?seat=N&invite=SECRET` of a review's address.
#[derive(Deserialize)]
pub(crate) struct ReviewQuery {
    seat: Option<String>,
    invite: Option<String>,
}

/// How long a client is told to wait when the queue is full.
const FULL_RETRY_S: u64 = 30;

/// `GET /api/tables/{id}/review?seat=N`: the review of seat `N` of a finished table. 200
/// with the document once it is stored; else it is queued (or the one queued is joined)
/// and the answer is 202 with where it stands, `{"status": "queued", "position": k}` or
/// `{"status": "running", "position": 0, "done", "total"}`, for the page to ask again.
/// Anyone who may watch a public table's replay may read its reviews; a private table's
/// are for the people who sat there.
pub(crate) async fn review(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    path: Result<Path<String>, PathRejection>,
    query: Result<Query<ReviewQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let Path(id) = path?;
    let Query(q) = query?;
    hub.review_reads
        .take_at(peer.ip(), hub.clock().now())
        .map_err(|s| ApiError::too_many(s, "review requests"))?;
    let seat = seat_of(q.seat.as_deref())?;
    let (stored, session) = players_table(&hub, &id, &headers, q.invite.as_deref()).await?;
    let reviews = hub.kind(&stored.row.game).is_some_and(|k| k.reviews());
    if !reviews {
        let title = hub
            .kind(&stored.row.game)
            .map_or(stored.row.game.as_str(), |k| k.title());
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            Code::ReviewUnsupported,
            format!("{title} has no review yet"),
        ));
    }
    if seat >= stored.row.seats {
        return Err(ApiError::bad(
            Code::NoSuchSeat,
            format!(
                "there is no seat {seat}: this table's seats are 0 to {}",
                stored.row.seats - 1
            ),
        ));
    }
    if stored.row.status != TableStatus::Finished {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            Code::NotFinished,
            "the game is not over: a review shows a seat's cards, so only finished games are \
             reviewed",
        ));
    }
    super::tables::not_dealt_elsewhere(&hub, &stored).await?;
    let key = (id.clone(), seat);
    // The queue first: a review made meanwhile is stored before it leaves the queue.
    if let Some(st) = hub.reviews.status(&key) {
        return Ok(pending(st));
    }
    if let Some(doc) = hub
        .db
        .review(id.clone(), seat)
        .await
        .map_err(ApiError::internal)?
    {
        return Ok(([(header::CONTENT_TYPE, "application/json")], doc).into_response());
    }
    if hub.reviews.failed(&key).is_some() {
        return Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            Code::ReviewFailed,
            format!("the review of seat {seat} could not be made; ask again later"),
        ));
    }
    // A new review: counted against the person (an account) or the address (guests and
    // visitors), and only once it is queued.
    let who = match &session {
        Some(s) if s.account => format!("account {}", s.player.id),
        _ => format!("address {}", crate::ratings::network(peer.ip())),
    };
    let now = hub.clock().now();
    hub.review_asks.check_at(who.clone(), now).map_err(|s| {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            Code::ReviewRateLimited,
            format!("you have asked for many new reviews: try again in {s} s"),
        )
        .retry_after(s)
    })?;
    match hub.reviews.ask(key) {
        Asked::New(st) => {
            let _ = hub.review_asks.take_at(who, now);
            Ok(pending(st))
        }
        Asked::Joined(st) => Ok(pending(st)),
        Asked::Full => Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            Code::ReviewQueueFull,
            format!(
                "{} reviews are waiting to be made, as many as the server takes: ask again \
                 in {FULL_RETRY_S} s",
                hub.limits.review_queue
            ),
        )
        .retry_after(FULL_RETRY_S)),
    }
}

/// A review on its way, as a 202.
fn pending(st: Status) -> Response {
    let body = match st {
        Status::Queued { position } => json!({"status": "queued", "position": position}),
        Status::Running { done, total } => {
            json!({"status": "running", "position": 0, "done": done, "total": total})
        }
    };
    (StatusCode::ACCEPTED, Json(body)).into_response()
}

/// The stored table `id` the request may see (finished ones from the replays' cache),
/// else the answer of a table that does not exist.
async fn table_of(
    hub: &Arc<Hub>,
    id: &str,
    headers: &HeaderMap,
    invite: Option<&str>,
) -> Result<Arc<StoredTable>, ApiError> {
    let stored = super::tables::stored_table(hub, id).await?;
    check_stored(hub, &stored, headers, invite).await?;
    Ok(stored)
}

/// The seat of `?seat=N`: a review, and a view of one, are of one seat.
fn seat_of(seat: Option<&str>) -> Result<usize, ApiError> {
    match seat.map(str::trim) {
        None | Some("") => Err(ApiError::bad(
            Code::ReviewNeedsSeat,
            "a review is of one seat: ask for it with `?seat=N`",
        )),
        Some(s) => s.parse().map_err(|_| {
            ApiError::bad(
                Code::ReviewNeedsSeat,
                format!("seat `{s}` is not a seat number: ask with `?seat=N`"),
            )
        }),
    }
}

/// The stored table `id` whose reviews the request may read, with the asker's session:
/// any table it may see, but a private one only for the people who sat at it (403 to
/// anyone else who may see it; to whoever may not, the 404 of a table that does not
/// exist).
async fn players_table(
    hub: &Arc<Hub>,
    id: &str,
    headers: &HeaderMap,
    invite: Option<&str>,
) -> Result<(Arc<StoredTable>, Option<Session>), ApiError> {
    let stored = table_of(hub, id, headers, invite).await?;
    let session = match bearer(headers).ok().flatten() {
        Some(token) => session_for_token(hub, token).await?,
        None => None,
    };
    if stored.private.invite.is_some() {
        let sat = match &session {
            Some(s) => hub
                .db
                .sat_at(id.to_string(), s.player.id)
                .await
                .map_err(ApiError::internal)?,
            None => false,
        };
        if !sat {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                Code::ReviewPlayersOnly,
                "a private table's reviews are only for the people who sat at it",
            ));
        }
    }
    Ok((stored, session))
}

/// `?seat=N&at=K&invite=SECRET` of a seat's view.
#[derive(Deserialize)]
pub(crate) struct ViewQuery {
    seat: Option<String>,
    at: Option<String>,
    invite: Option<String>,
}

/// `GET /api/tables/{id}/view?seat=N&at=K`: what seat `N` of a finished table saw after
/// the first `K` actions (so before action `K`, a review's decision `at`): the view its
/// page was sent then, the actions it could take and its story of the hand. Never another
/// seat's hidden card: the game is replayed and asked for that seat's view, as the table
/// asked it live. Read by the review page, under the review's rules (a private table's
/// only for the people who sat at it); built on demand like a replay's steps, a few at a
/// time on the whole server.
pub(crate) async fn seat_view(
    State(hub): State<Arc<Hub>>,
    path: Result<Path<String>, PathRejection>,
    query: Result<Query<ViewQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let Path(id) = path?;
    let Query(q) = query?;
    let seat = seat_of(q.seat.as_deref())?;
    let at: usize = match q.at.as_deref().map(str::trim) {
        None | Some("") => {
            return Err(ApiError::bad(
                Code::BadRequest,
                "a view is of one moment: ask for it with `?at=K` (the actions before it)",
            ))
        }
        Some(s) => s.parse().map_err(|_| {
            ApiError::bad(
                Code::BadRequest,
                format!("at `{s}` is not a number of actions: ask with `?at=K`"),
            )
        })?,
    };
    let (stored, _) = players_table(&hub, &id, &headers, q.invite.as_deref()).await?;
    if seat >= stored.row.seats {
        return Err(ApiError::bad(
            Code::NoSuchSeat,
            format!(
                "there is no seat {seat}: this table's seats are 0 to {}",
                stored.row.seats - 1
            ),
        ));
    }
    if stored.row.status != TableStatus::Finished {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            Code::NotFinished,
            "the game is not over: a seat's view is shown only once the game is finished",
        ));
    }
    super::tables::not_dealt_elsewhere(&hub, &stored).await?;
    if at > stored.actions.len() {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            Code::NoSuchStep,
            format!(
                "no moment after {at} actions: this game has {} actions",
                stored.actions.len()
            ),
        ));
    }
    let answer = super::tables::replayed(&hub, stored, at, move |game, stored| {
        let view: Value = serde_json::from_str(&game.view_text(Some(seat)))
            .map_err(|e| format!("the view as JSON: {e}"))?;
        let lines = game.lines(Some(seat));
        Ok(json!({
            "seat": seat,
            "at": at,
            "actions": stored.actions.len(),
            "view": view,
            "to_act": game.to_act(),
            "legal": game.legal(seat),
            "lines": lines.iter().map(tapete_host::story::Line::wire).collect::<Vec<_>>(),
        }))
    })
    .await?;
    Ok(Json(answer))
}
