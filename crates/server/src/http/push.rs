//! Web Push subscriptions (see [`crate::push`]): `GET /api/push/key` (the server's VAPID
//! public key, base64url), `POST /api/push/subscriptions` (a browser's
//! `PushSubscription.toJSON()`, and the language of its pages) and
//! `DELETE /api/push/subscriptions` (`{"endpoint": …}`). Subscriptions are an account's.

use super::api::*;
use crate::code::Code;
use crate::hub::Hub;
use crate::push::{Refused, Subscription, PER_PERSON};
use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// The caller's session, if it is an account's.
async fn account(hub: &Hub, headers: &HeaderMap) -> Result<i64, ApiError> {
    let s = caller_session(hub, headers).await?;
    if !s.account {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            Code::AccountOnly,
            "notices by Web Push are for accounts: make one to have them",
        ));
    }
    Ok(s.player.id)
}

/// `GET /api/push/key`: `{"key": …}`, the key a browser subscribes with
/// (`applicationServerKey`).
pub(crate) async fn key(State(hub): State<Arc<Hub>>) -> ApiResult<Value> {
    let key = hub
        .push
        .public_key(&hub.db)
        .await
        .map_err(ApiError::internal)?;
    Ok(Json(json!({ "key": key })))
}

/// `POST /api/push/subscriptions`: keeps the caller's browser's subscription (the same
/// endpoint again updates it); `{"endpoint": …}`.
pub(crate) async fn subscribe(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    body: Result<Json<Subscription>, JsonRejection>,
) -> ApiResult<Value> {
    let Json(sub) = body?;
    let me = account(&hub, &headers).await?;
    let stored = sub.checked(hub.push.loopback).map_err(|r| match r {
        Refused::Endpoint(m) => ApiError::bad(Code::PushBadEndpoint, m),
        Refused::Keys(m) => ApiError::bad(Code::PushBadKeys, m),
    })?;
    let endpoint = stored.endpoint.clone();
    if !hub
        .db
        .add_subscription(me, stored)
        .await
        .map_err(ApiError::internal)?
    {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            Code::PushTooManySubscriptions,
            format!(
                "{PER_PERSON} browsers already have notices of this account: turn them off in \
                 one first"
            ),
        ));
    }
    Ok(Json(json!({ "endpoint": endpoint })))
}

/// A subscription named by its endpoint.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Endpoint {
    endpoint: String,
}

/// `DELETE /api/push/subscriptions`: forgets the caller's subscription at `endpoint`;
/// `{"removed": true|false}` (false: there was none, which is no error: the browser is
/// unsubscribed all the same).
pub(crate) async fn unsubscribe(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    body: Result<Json<Endpoint>, JsonRejection>,
) -> ApiResult<Value> {
    let Json(body) = body?;
    let me = account(&hub, &headers).await?;
    let removed = hub
        .db
        .remove_subscription(me, body.endpoint)
        .await
        .map_err(ApiError::internal)?;
    Ok(Json(json!({ "removed": removed })))
}
