//! Each game's tools (Mus's leyes) and the odds tools, bounded in how many run at once.

use super::api::*;
use crate::code::Code;
use crate::hub::Hub;
use crate::{Kind, OddsTool};
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::Json;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

/// `GET /api/tools/{game}/{tool}?…`: one of a game's tools (Mus's leyes) on the URL's
/// parameters, given to it as a JSON object of strings. Tools are CPU work: they run on
/// blocking threads, a bounded number at once ([`calculate`]).
pub(crate) async fn game_tool(
    State(hub): State<Arc<Hub>>,
    path: Result<Path<(String, String)>, PathRejection>,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> ApiResult<Value> {
    let Path((game, tool)) = path?;
    let kind = hub.kind(&game).cloned().ok_or_else(|| {
        let names: Vec<&str> = hub.kinds.iter().map(|k| k.name()).collect();
        ApiError::new(
            StatusCode::NOT_FOUND,
            Code::UnknownGame,
            format!("unknown game `{game}`: the games are {}", names.join(", ")),
        )
    })?;
    run_tool(&hub, kind, &tool, query).await
}

/// `GET /api/{tool}?…`: the short form of a tool's address, for the first game that
/// offers a tool of that name (`/api/leyes` is Mus's leyes).
pub(crate) async fn tool_alias(
    State(hub): State<Arc<Hub>>,
    path: Result<Path<String>, PathRejection>,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> ApiResult<Value> {
    let Path(tool) = path?;
    let kind = hub
        .kinds
        .iter()
        .find(|k| k.tools().contains(&tool.as_str()))
        .cloned()
        .ok_or_else(|| {
            ApiError::new(StatusCode::NOT_FOUND, Code::NotFound, "no such page or API")
        })?;
    run_tool(&hub, kind, &tool, query).await
}

pub(crate) async fn run_tool(
    hub: &Hub,
    kind: Arc<dyn Kind>,
    tool: &str,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> ApiResult<Value> {
    if !kind.tools().contains(&tool) {
        let offered = if kind.tools().is_empty() {
            "it has none".to_string()
        } else {
            format!("its tools are {}", kind.tools().join(", "))
        };
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            Code::ToolNotFound,
            format!("{} has no tool `{tool}`: {offered}", kind.title()),
        ));
    }
    let query = query_object(query)?;
    let tool = tool.to_string();
    calculate(hub, move || kind.tool(&tool, &query)).await
}

/// `GET /api/odds/{name}?…`: one of the odds tools the server was given (prisoner's
/// solitaire), on the URL's parameters as a JSON object of strings.
pub(crate) async fn odds_tool(
    State(hub): State<Arc<Hub>>,
    path: Result<Path<String>, PathRejection>,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> ApiResult<Value> {
    let Path(name) = path?;
    let tool: Arc<dyn OddsTool> = hub
        .odds
        .iter()
        .find(|o| o.name() == name)
        .cloned()
        .ok_or_else(|| {
            let names: Vec<&str> = hub.odds.iter().map(|o| o.name()).collect();
            let offered = if names.is_empty() {
                "this server offers none".to_string()
            } else {
                format!("the odds tools are {}", names.join(", "))
            };
            ApiError::new(
                StatusCode::NOT_FOUND,
                Code::ToolNotFound,
                format!("no odds tool `{name}`: {offered}"),
            )
        })?;
    let query = query_object(query)?;
    calculate(&hub, move || tool.answer(&query)).await
}

/// The URL's parameters as a JSON object of strings (a malformed query is a 400).
pub(crate) fn query_object(
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Result<Value, ApiError> {
    let Query(q) = query?;
    Ok(Value::Object(
        q.into_iter().map(|(k, v)| (k, Value::String(v))).collect(),
    ))
}

/// Runs a calculation on a blocking thread, no more at once than
/// [`Limits::calculations`] (503 after waiting 5 s for a turn); its error is the caller's
/// 400. The turn is held until the calculation ends, even when the request stopped waiting
/// for it (timed out, or the client left), so the bound counts every thread at work.
pub(crate) async fn calculate(
    hub: &Hub,
    work: impl FnOnce() -> Result<Value, String> + Send + 'static,
) -> ApiResult<Value> {
    let permit = tokio::time::timeout(
        Duration::from_secs(5),
        hub.calculations.clone().acquire_owned(),
    )
    .await
    .map_err(|_| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            Code::Busy,
            "the server is busy with other calculations: try again in a moment",
        )
    })?
    .map_err(ApiError::internal)?;
    let answer = tokio::task::spawn_blocking(move || {
        let answer = work();
        drop(permit);
        answer
    })
    .await
    .map_err(ApiError::internal)?
    .map_err(|e| ApiError::bad(Code::ToolRefused, e))?;
    Ok(Json(answer))
}
