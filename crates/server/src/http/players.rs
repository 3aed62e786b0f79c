//! Profiles and leaderboards: a player's ratings per game with their history and recent
//! rated games, a bot level's the same, and each game's best accounts (see
//! [`crate::ratings`]); and their pages.

use super::api::*;
use super::pages::{file, not_found_page};
use crate::accounts;
use crate::code::Code;
use crate::hub::Hub;
use crate::lang::Lang;
use crate::ratings::{Rated, Ratings, PROVISIONAL_GAMES};
use crate::Kind;
use axum::extract::rejection::PathRejection;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::Json;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;

/// Accounts a leaderboard page lists.
pub const PAGE: i64 = 50;
/// Accounts a leaderboard lists in all (its pages).
pub const TOP: i64 = 100;

/// Refuses a guest asking for a rated table.
pub(crate) async fn account_only(hub: &Hub, player: i64) -> Result<(), ApiError> {
    if hub
        .db
        .is_account(player)
        .await
        .map_err(ApiError::internal)?
    {
        return Ok(());
    }
    Err(ApiError::new(
        StatusCode::FORBIDDEN,
        Code::RatedNeedsAccount,
        "only accounts play rated games: make an account or log in first",
    ))
}

/// A rated table plays the game's standard rules: options other than the defaults are
/// refused, naming them.
pub(crate) fn standard_rules(kind: &dyn Kind, rules: &Value, seats: usize) -> Result<(), ApiError> {
    let standard = kind
        .check_rules(&Value::Null, seats)
        .or_else(|_| kind.check_rules(&json!({}), seats))
        .map_err(ApiError::internal)?;
    if *rules == standard {
        return Ok(());
    }
    let changed: Vec<String> = match (rules.as_object(), standard.as_object()) {
        (Some(r), Some(s)) => r
            .iter()
            .filter(|(k, v)| s.get(*k) != Some(v))
            .map(|(k, _)| format!("`{k}`"))
            .collect(),
        _ => Vec::new(),
    };
    Err(ApiError::bad(
        Code::RatedRules,
        format!(
            "a rated game plays {}'s standard rules: leave out {} (or make the table unrated)",
            kind.title(),
            if changed.is_empty() {
                "the options".to_string()
            } else {
                changed.join(", ")
            }
        ),
    ))
}

/// Counts a read of a profile, a games list or a leaderboard page against its address:
/// profiles are public, but nobody lists every player in a moment.
pub(crate) fn may_read(hub: &Hub, peer: &SocketAddr) -> Result<(), ApiError> {
    hub.profile_reads
        .take(peer.ip())
        .map_err(|s| ApiError::too_many(s, "profile reads"))
}

pub(crate) fn player_not_found(what: impl std::fmt::Display) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        Code::PlayerNotFound,
        format!("no player {what}"),
    )
}

/// A profile's JSON: who, then its ratings and recent rated games (each with its replay).
/// Private tables are in neither: their games are not among the recent ones, and their
/// points of the rating history carry no table (see [`crate::ratings`]).
pub(crate) fn profile_json(head: Value, r: Ratings) -> Value {
    let mut v = head;
    let recent: Vec<Value> = r
        .recent
        .into_iter()
        .map(|g| {
            let mut j = json!(g);
            j["replay"] = json!(format!("/replay/{}", g.table));
            j
        })
        .collect();
    v["ratings"] = json!(r.games);
    v["recent"] = json!(recent);
    v["provisional_games"] = json!(PROVISIONAL_GAMES);
    v
}

pub(crate) async fn profile_of(hub: &Hub, id: i64) -> ApiResult<Value> {
    let (nickname, account) = hub
        .db
        .player_kind(id)
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(|| player_not_found(id))?;
    let r = hub
        .db
        .ratings(Rated::Player(id))
        .await
        .map_err(ApiError::internal)?;
    Ok(Json(profile_json(
        json!({"id": id, "nickname": nickname, "account": account, "bot": null}),
        r,
    )))
}

/// `GET /api/players/{id}`: a player's profile.
pub(crate) async fn player(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    path: Result<Path<i64>, PathRejection>,
) -> ApiResult<Value> {
    may_read(&hub, &peer)?;
    let Path(id) = path.map_err(|_| {
        ApiError::bad(
            Code::BadRequest,
            "a player is a number, e.g. /api/players/7",
        )
    })?;
    profile_of(&hub, id).await
}

/// The account of a nickname (any spelling that is the same nickname).
pub(crate) async fn account_id(hub: &Hub, nickname: &str) -> Result<Option<i64>, ApiError> {
    Ok(hub
        .db
        .account_by_key(accounts::nickname_key(nickname))
        .await
        .map_err(ApiError::internal)?
        .map(|(id, _, _)| id))
}

/// `GET /api/profiles/{nickname}`: an account's profile, by its nickname.
pub(crate) async fn profile(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    path: Result<Path<String>, PathRejection>,
) -> ApiResult<Value> {
    may_read(&hub, &peer)?;
    let Path(nickname) = path?;
    let id = account_id(&hub, &nickname)
        .await?
        .ok_or_else(|| player_not_found(format!("`{nickname}` with an account")))?;
    profile_of(&hub, id).await
}

/// `/@/{nickname}`: an account's profile page (the site's 404 page for any other name).
pub(crate) async fn profile_page(
    State(hub): State<Arc<Hub>>,
    Path(nickname): Path<String>,
    headers: HeaderMap,
) -> Response {
    match account_id(&hub, &nickname).await {
        Ok(Some(_)) => file("profile.html"),
        _ => not_found_page(&format!("/@/{nickname}"), Lang::choose(None, &headers)),
    }
}

/// `/p/{id}`: any player's profile page, guests too (a seat's link).
pub(crate) async fn player_page(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let known = match id.parse::<i64>() {
        Ok(n) => matches!(hub.db.player_kind(n).await, Ok(Some(_))),
        Err(_) => false,
    };
    if known {
        file("profile.html")
    } else {
        not_found_page(&format!("/p/{id}"), Lang::choose(None, &headers))
    }
}

pub(crate) async fn player_games(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    path: Result<Path<i64>, PathRejection>,
    headers: HeaderMap,
) -> ApiResult<Vec<Value>> {
    super::players::may_read(&hub, &peer)?;
    let Path(id) = path.map_err(|_| {
        ApiError::bad(
            Code::BadRequest,
            "a player is a number, e.g. /api/players/7/games",
        )
    })?;
    if hub
        .db
        .player(id)
        .await
        .map_err(ApiError::internal)?
        .is_none()
    {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            Code::PlayerNotFound,
            format!("no player {id}"),
        ));
    }
    let mut games = hub.db.player_games(id).await.map_err(ApiError::internal)?;
    // Private games are listed only to the people who sat there.
    let viewer = super::private_tables::viewer(&hub, &headers)
        .await
        .map(|p| p.id);
    let ids = games.iter().map(|g| g.table.clone()).collect();
    let hidden = hub
        .db
        .hidden_from(ids, viewer)
        .await
        .map_err(ApiError::internal)?;
    games.retain(|g| !hidden.contains(&g.table));
    Ok(Json(
        games
            .into_iter()
            .map(|g| {
                let winners: Vec<u64> = g
                    .outcome
                    .as_ref()
                    .and_then(|o| o.get("winners"))
                    .and_then(Value::as_array)
                    .map(|w| w.iter().filter_map(Value::as_u64).collect())
                    .unwrap_or_default();
                let field = |name: &str| {
                    g.outcome
                        .as_ref()
                        .and_then(|o| o.get(name))
                        .cloned()
                        .unwrap_or(Value::Null)
                };
                json!({
                    "table": g.table,
                    "game": g.game,
                    "finished": g.finished,
                    "seat": g.seat,
                    "won": winners.contains(&(g.seat as u64)),
                    "winners": winners,
                    "scores": field("scores"),
                    "summary": field("summary"),
                    "players": g.players,
                })
            })
            .collect(),
    ))
}
