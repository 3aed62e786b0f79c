//! Ratings over HTTP: each game's leaderboard and each bot level's page.

use super::api::*;
use super::pages::{file, not_found_page};
use super::players::{may_read, profile_json, PAGE, TOP};
use crate::code::Code;
use crate::http::lang::Lang;
use crate::hub::Hub;
use crate::ratings::{Rated, PROVISIONAL_GAMES};
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;

/// The games that have a bot level of this name.
pub(crate) fn games_of_bot(hub: &Hub, level: &str) -> Vec<&'static str> {
    hub.kinds
        .iter()
        .filter(|k| k.bot_names().contains(&level))
        .map(|k| k.name())
        .collect()
}

/// `GET /api/bots/{level}`: a bot level's profile: its rating in each game it has played
/// rated, and the games that have it.
pub(crate) async fn bot(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    path: Result<Path<String>, PathRejection>,
) -> ApiResult<Value> {
    may_read(&hub, &peer)?;
    let Path(level) = path?;
    let games = games_of_bot(&hub, &level);
    if games.is_empty() {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            Code::BotNotFound,
            format!("no bot level `{level}`: `tapete games` lists them"),
        ));
    }
    let r = hub
        .db
        .ratings(Rated::Bot(level.clone()))
        .await
        .map_err(ApiError::internal)?;
    Ok(Json(profile_json(
        json!({"id": null, "nickname": level, "account": false, "bot": level, "games": games}),
        r,
    )))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PageQuery {
    page: Option<i64>,
}

/// `GET /api/leaderboard/{game}?page=N`: the accounts with at least
/// [`PROVISIONAL_GAMES`] rated games of `game`, best first, [`PAGE`] a page, the best
/// [`TOP`] in all; and every bot level's rating beside them, as reference points.
pub(crate) async fn leaderboard(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    path: Result<Path<String>, PathRejection>,
    query: Result<Query<PageQuery>, QueryRejection>,
) -> ApiResult<Value> {
    may_read(&hub, &peer)?;
    let Path(game) = path?;
    let Query(q) = query?;
    let kind = hub.kind(&game).ok_or_else(|| unknown_game(&hub, &game))?;
    let pages = TOP / PAGE;
    let page = q.page.unwrap_or(1);
    if !(1..=pages).contains(&page) {
        return Err(ApiError::bad(
            Code::NoSuchPage,
            format!("no page {page}: a leaderboard has pages 1 to {pages} (the best {TOP})"),
        ));
    }
    let (players, total) = hub
        .db
        .leaderboard(game.clone(), (page - 1) * PAGE, PAGE)
        .await
        .map_err(ApiError::internal)?;
    let bots = hub
        .db
        .bot_ratings(game.clone())
        .await
        .map_err(ApiError::internal)?;
    Ok(Json(json!({
        "game": game,
        "title": kind.title(),
        "page": page,
        "pages": ((total.min(TOP) + PAGE - 1) / PAGE).max(1),
        "ranked": total,
        "min_games": PROVISIONAL_GAMES,
        "players": players,
        "bots": bots,
    })))
}

pub(crate) fn unknown_game(hub: &Hub, game: &str) -> ApiError {
    let names: Vec<&str> = hub.kinds.iter().map(|k| k.name()).collect();
    ApiError::new(
        StatusCode::NOT_FOUND,
        Code::UnknownGame,
        format!("unknown game `{game}`: the games are {}", names.join(", ")),
    )
}

/// `/bot/{level}`: a bot level's profile page.
pub(crate) async fn bot_page(
    State(hub): State<Arc<Hub>>,
    Path(level): Path<String>,
    headers: HeaderMap,
) -> Response {
    if games_of_bot(&hub, &level).is_empty() {
        not_found_page(&format!("/bot/{level}"), Lang::choose(None, &headers))
    } else {
        file("profile.html")
    }
}

/// `/leaderboard/{game}`: a game's leaderboard page.
pub(crate) async fn leaderboard_page(
    State(hub): State<Arc<Hub>>,
    Path(game): Path<String>,
    headers: HeaderMap,
) -> Response {
    if hub.kind(&game).is_some() {
        file("leaderboard.html")
    } else {
        not_found_page(
            &format!("/leaderboard/{game}"),
            Lang::choose(None, &headers),
        )
    }
}
