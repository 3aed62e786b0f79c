//! The caller's notices (see [`crate::notices`]): `GET /api/notices?after=ID`, the ones
//! newer than the last a page has seen.

use super::api::*;
use crate::hub::Hub;
use crate::notices::StoredNotice;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::Json;
use serde::Deserialize;
use std::sync::Arc;

/// `?after=ID`: only the notices after this one.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct After {
    after: Option<i64>,
}

pub(crate) async fn list(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    query: Result<Query<After>, QueryRejection>,
) -> ApiResult<Vec<StoredNotice>> {
    let Query(q) = query?;
    let me = caller(&hub, &headers).await?;
    let notices = hub
        .db
        .notices_of(me.id, q.after.unwrap_or(0))
        .await
        .map_err(ApiError::internal)?;
    Ok(Json(notices))
}
