//! Profiles and leaderboards: a player's ratings per game with their history and recent
//! rated games, a bot level's the same, and each game's best accounts (see
//! [`crate::rating`]); and their pages.

use super::{file, not_found_page, ApiError, ApiResult};
use crate::code::Code;
use crate::lang::Lang;
use crate::rating::{Rated, Ratings, PROVISIONAL_GAMES};
use crate::{account, Hub, Kind};
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;

/// Accounts a leaderboard page lists.
pub const PAGE: i64 = 50;
/// Accounts a leaderboard lists in all (its pages).
pub const TOP: i64 = 100;

/// Refuses a guest asking for a rated table.
pub(super) async fn account_only(hub: &Hub, player: i64) -> Result<(), ApiError> {
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
pub(super) fn standard_rules(kind: &dyn Kind, rules: &Value, seats: usize) -> Result<(), ApiError> {
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
pub(super) fn may_read(hub: &Hub, peer: &SocketAddr) -> Result<(), ApiError> {
    hub.profile_reads
        .take(peer.ip())
        .map_err(|s| ApiError::too_many(s, "profile reads"))
}

fn player_not_found(what: impl std::fmt::Display) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        Code::PlayerNotFound,
        format!("no player {what}"),
    )
}

/// A profile's JSON: who, then its ratings and recent rated games (each with its replay).
/// Private tables are in neither: their games are not among the recent ones, and their
/// points of the rating history carry no table (see [`crate::rating`]).
fn profile_json(head: Value, r: Ratings) -> Value {
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

async fn profile_of(hub: &Hub, id: i64) -> ApiResult<Value> {
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
pub(super) async fn player(
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
async fn account_id(hub: &Hub, nickname: &str) -> Result<Option<i64>, ApiError> {
    Ok(hub
        .db
        .account_by_key(account::nickname_key(nickname))
        .await
        .map_err(ApiError::internal)?
        .map(|(id, _, _)| id))
}

/// `GET /api/profiles/{nickname}`: an account's profile, by its nickname.
pub(super) async fn profile(
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

/// The games that have a bot level of this name.
fn games_of_bot(hub: &Hub, level: &str) -> Vec<&'static str> {
    hub.kinds
        .iter()
        .filter(|k| k.bot_names().contains(&level))
        .map(|k| k.name())
        .collect()
}

/// `GET /api/bots/{level}`: a bot level's profile: its rating in each game it has played
/// rated, and the games that have it.
pub(super) async fn bot(
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
pub(super) struct PageQuery {
    page: Option<i64>,
}

/// `GET /api/leaderboard/{game}?page=N`: the accounts with at least
/// [`PROVISIONAL_GAMES`] rated games of `game`, best first, [`PAGE`] a page, the best
/// [`TOP`] in all; and every bot level's rating beside them, as reference points.
pub(super) async fn leaderboard(
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

fn unknown_game(hub: &Hub, game: &str) -> ApiError {
    let names: Vec<&str> = hub.kinds.iter().map(|k| k.name()).collect();
    ApiError::new(
        StatusCode::NOT_FOUND,
        Code::UnknownGame,
        format!("unknown game `{game}`: the games are {}", names.join(", ")),
    )
}

/// `/@/{nickname}`: an account's profile page (the site's 404 page for any other name).
pub(super) async fn profile_page(
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
pub(super) async fn player_page(
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

/// `/bot/{level}`: a bot level's profile page.
pub(super) async fn bot_page(
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
pub(super) async fn leaderboard_page(
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
