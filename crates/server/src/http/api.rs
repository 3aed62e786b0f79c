//! What every handler shares: the API's refusal ([`ApiError`], a status, a typed code and
//! the English detail), the caller's session from its bearer token, and ids from paths.

use crate::accounts::Session;
use crate::code::{Code, Refusal};
use crate::hub::Hub;
use crate::table::PlayerRef;
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use rand::Rng;
use serde_json::json;

/// An API error: a status, a stable machine code and a sentence, sent as
/// `{"error": …, "code": …}`. The sentence is for programs and the docs; the pages show the
/// person their catalog's words for the code (`error.<code>`). A 429 or 503 may say when to
/// ask again (`Retry-After`, in seconds).
pub struct ApiError {
    status: StatusCode,
    code: Code,
    message: String,
    retry_after: Option<u64>,
    /// The server to ask instead (`node`), for a table another server runs.
    node: Option<String>,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, code: Code, msg: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: msg.into(),
            retry_after: None,
            node: None,
        }
    }
    /// The same error, saying to ask again in `seconds`.
    pub(crate) fn retry_after(mut self, seconds: u64) -> ApiError {
        self.retry_after = Some(seconds);
        self
    }
    /// A 400 Bad Request.
    pub(crate) fn bad(code: Code, msg: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, code, msg)
    }
    /// A refusal of the table's task or the friends' part, with the status its code means.
    pub(crate) fn refused(status: StatusCode, r: Refusal) -> ApiError {
        ApiError::new(status, r.code, r.message)
    }
    /// A failure of ours: logged in full, answered without its details (a database
    /// message is for the operator, not for whoever asked).
    pub(crate) fn internal(msg: impl std::fmt::Display) -> ApiError {
        tracing::error!("internal error: {msg}");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            Code::Internal,
            "internal error: the server could not do that now; try again later",
        )
    }
    pub(crate) fn too_many(retry_after: u64, what: &str) -> ApiError {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            Code::RateLimited,
            format!("too many {what} from your address: try again in {retry_after} s"),
        )
        .retry_after(retry_after)
    }
}

impl From<crate::Unloaded> for ApiError {
    fn from(e: crate::Unloaded) -> Self {
        match e {
            crate::Unloaded::Elsewhere(node) => {
                let mut e = ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    Code::TableMoved,
                    format!("the table is run by the server {node}: ask there (`?node={node}`)"),
                )
                .retry_after(1);
                e.node = Some(node);
                e
            }
            crate::Unloaded::Failed(msg) => ApiError::internal(msg),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = json!({ "error": self.message, "code": self.code });
        if let Some(node) = &self.node {
            body["node"] = json!(node);
        }
        let mut res = match self.retry_after {
            Some(s) => {
                body["retry_after"] = json!(s);
                (
                    self.status,
                    [(header::RETRY_AFTER, s.to_string())],
                    Json(body),
                )
                    .into_response()
            }
            None => (self.status, Json(body)).into_response(),
        };
        if self.status == StatusCode::UNAUTHORIZED {
            res.headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        }
        res
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> Self {
        // Too large stays 413; every other body problem is the documented 400.
        if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(r.status(), Code::TooLarge, r.body_text())
        } else {
            ApiError::bad(Code::BadRequest, r.body_text())
        }
    }
}

impl From<PathRejection> for ApiError {
    fn from(r: PathRejection) -> Self {
        ApiError::bad(Code::BadRequest, r.body_text())
    }
}

impl From<QueryRejection> for ApiError {
    fn from(r: QueryRejection) -> Self {
        ApiError::bad(Code::BadRequest, r.body_text())
    }
}

pub(crate) type ApiResult<T> = Result<Json<T>, ApiError>;

/// The session a token belongs to, if any.
pub(crate) async fn session_for_token(hub: &Hub, token: &str) -> Result<Option<Session>, ApiError> {
    hub.sessions
        .of_token(&hub.db, token)
        .await
        .map_err(ApiError::internal)
}

/// The bearer token of a request, if it sends one; a header that is there but not of the
/// form `Authorization: Bearer TOKEN` is a 401.
pub(crate) fn bearer(headers: &HeaderMap) -> Result<Option<&str>, ApiError> {
    let unauthorized = |m: &str| ApiError::new(StatusCode::UNAUTHORIZED, Code::BadToken, m);
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let value = value
        .to_str()
        .map_err(|_| unauthorized("the Authorization header is not text"))?;
    value
        .strip_prefix("Bearer ")
        .map(Some)
        .ok_or_else(|| unauthorized("write the header as `Authorization: Bearer TOKEN`"))
}

/// The session making an API call (`Authorization: Bearer TOKEN`).
pub(crate) async fn caller_session(hub: &Hub, headers: &HeaderMap) -> Result<Session, ApiError> {
    let unauthorized = |code, m: &str| ApiError::new(StatusCode::UNAUTHORIZED, code, m);
    let token = bearer(headers)?.ok_or_else(|| {
        unauthorized(
            Code::NeedsPlayer,
            "pick a nickname first (no Authorization header)",
        )
    })?;
    session_for_token(hub, token).await?.ok_or_else(|| {
        unauthorized(
            Code::UnknownToken,
            "unknown token (it may have been logged out): log in or pick a nickname again",
        )
    })
}

/// The player making an API call (`Authorization: Bearer TOKEN`).
pub(crate) async fn caller(hub: &Hub, headers: &HeaderMap) -> Result<PlayerRef, ApiError> {
    caller_session(hub, headers).await.map(|s| s.player)
}

pub(crate) fn table_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let mut rng = rand::thread_rng();
    (0..8)
        .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char)
        .collect()
}
