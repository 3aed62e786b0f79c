//! The HTTP side: pages and their files (embedded in the binary), the JSON API of
//! `docs/server.md`, and the WebSocket upgrade; and each TCP connection's HTTP/1 session,
//! with its time limits.
//!
//! Nothing here names a game: a game's pages are files of its web face (`web.rs`: its table
//! module `{game}.js`, any page of its own as `{page}.html`, served at `/{page}`),
//! and its tools are reached through `/api/tools/{game}/{tool}`; odds tools for games the
//! server does not deal through `/api/odds/{name}`.

use crate::code::Code;
use crate::hub::Hub;
use crate::Limits;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::Router;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tower::ServiceExt;
use tracing::Instrument;

mod accounts;
mod api;
mod cuadrillas;
mod friends;
pub mod lang;
mod markdown;
mod notices;
mod operator;
mod pages;
mod players;
mod private_tables;
mod push;
mod ratings;
mod review;
mod tables;
mod tools;
mod tournaments;
pub(crate) mod ws;

pub(crate) use accounts::invisible;
pub(crate) use api::table_id as new_table_id;
pub(crate) use private_tables::new_invite as new_secret;

pub(crate) use api::ApiError;
pub(crate) use operator::not_suspended;
pub(crate) use private_tables::{unloaded, InviteQuery};

/// Serves one TCP connection: HTTP/1 with upgrades (the WebSocket), a bound on the time
/// to send a request's headers (slow senders are cut off, idle keep-alive connections
/// closed), and on the time to answer a request.
pub(crate) async fn serve_connection(
    stream: tokio::net::TcpStream,
    peer: SocketAddr,
    router: Router,
    limits: &Limits,
) {
    let _ = stream.set_nodelay(true);
    let timeout = limits.request_timeout;
    let service = hyper::service::service_fn(move |mut req: Request<hyper::body::Incoming>| {
        let router = router.clone();
        req.extensions_mut().insert(ConnectInfo(peer));
        async move {
            let req = req.map(axum::body::Body::new);
            let upgrade = req.headers().contains_key(header::UPGRADE);
            let answer = router.oneshot(req);
            if upgrade {
                return answer.await;
            }
            match tokio::time::timeout(timeout, answer).await {
                Ok(r) => r,
                Err(_) => Ok(ApiError::new(
                    StatusCode::REQUEST_TIMEOUT,
                    Code::Timeout,
                    "the request took too long to send or to answer",
                )
                .into_response()),
            }
        }
    });
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(64 * 1024);
    let io = hyper_util::rt::TokioIo::new(stream);
    let _ = http.serve_connection(io, service).with_upgrades().await;
}

/// Headers every answer carries: the pages load only their own scripts and styles, are
/// never framed by another site, and no content type is guessed.
async fn security_headers(req: Request, next: axum::middleware::Next) -> Response {
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; \
             connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
        ),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    res
}

/// The header naming a request: sent back on every answer, and on every line the server
/// logs while handling it.
pub const REQUEST_ID: &str = "x-request-id";

/// A request's id: the one a balancer put in [`REQUEST_ID`] if it is short and plain
/// (letters, digits, `-`, `_`, `.`), else this process's mark and its count of requests.
fn request_id(req: &Request) -> String {
    static COUNT: AtomicU64 = AtomicU64::new(1);
    static MARK: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    let given = req
        .headers()
        .get(REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .filter(|v| {
            !v.is_empty()
                && v.len() <= 64
                && v.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        });
    match given {
        Some(v) => v.to_owned(),
        None => format!(
            "{:08x}-{}",
            MARK.get_or_init(rand::random),
            COUNT.fetch_add(1, Ordering::Relaxed)
        ),
    }
}

/// Handles each request inside a span of its own (its id, method and path), so every
/// line logged meanwhile says which request it was, and answers with the id
/// ([`REQUEST_ID`]). How it was answered is logged at the debug level.
async fn request_span(req: Request, next: axum::middleware::Next) -> Response {
    let id = request_id(&req);
    let span = tracing::info_span!(
        "request",
        id = %id,
        method = %req.method(),
        path = %req.uri().path()
    );
    let start = std::time::Instant::now();
    let mut res = next.run(req).instrument(span.clone()).await;
    span.in_scope(|| {
        tracing::debug!(
            status = res.status().as_u16(),
            ms = start.elapsed().as_millis() as u64,
            "answered"
        )
    });
    if let Ok(v) = HeaderValue::from_str(&id) {
        res.headers_mut().insert(REQUEST_ID, v);
    }
    res
}

/// Which server answered (`X-Tapete-Node`), when several share one database: for the
/// operator's logs and the cluster's tests.
async fn node_header(
    State(hub): State<Arc<Hub>>,
    req: Request,
    next: axum::middleware::Next,
) -> Response {
    let mut res = next.run(req).await;
    if let Some(v) = hub.db.node().and_then(|n| HeaderValue::from_str(n).ok()) {
        res.headers_mut().insert("x-tapete-node", v);
    }
    res
}

/// The API's routes, pages and files.
pub fn router(hub: Arc<Hub>) -> Router {
    Router::new()
        .route("/", get(|| pages::page("index.html")))
        .route("/t/{id}", get(|| pages::page("table.html")))
        .route("/replay/{id}", get(|| pages::page("replay.html")))
        .route("/verify/{id}", get(|| pages::page("verify.html")))
        .route("/c/{id}", get(|| pages::page("cuadrilla.html")))
        .route("/t/{id}/review", get(|| pages::page("review.html")))
        // The service worker, at the top so that it may serve every page (see sw.js).
        .route("/sw.js", get(|| pages::page("sw.js")))
        .route("/{page}", get(pages::named_page))
        .route("/rules/{game}", get(pages::rules_page))
        .route("/assets/{file}", get(pages::asset))
        .route("/assets/i18n/{file}", get(pages::catalog))
        .route("/api/players", post(accounts::create_player))
        .route("/api/me", get(accounts::me))
        .route("/api/accounts", post(accounts::create_account))
        .route(
            "/api/sessions",
            get(accounts::list_sessions).post(accounts::log_in),
        )
        .route("/api/sessions/current", delete(accounts::log_out))
        .route("/api/sessions/{id}", delete(accounts::end_session))
        .route("/api/me/password", post(accounts::change_password))
        .route("/api/games", get(tables::game_kinds))
        .route(
            "/api/tables",
            get(tables::open_tables).post(tables::create_table),
        )
        .route("/api/tables/{id}", get(tables::one_table))
        .route(
            "/api/tables/{id}/seats/{seat}/reserve",
            post(private_tables::reserve_seat),
        )
        .route(
            "/api/tables/{id}/seats/{seat}",
            delete(private_tables::free_seat),
        )
        .route("/api/tables/{id}/rematch", post(private_tables::rematch))
        .route("/api/tables/{id}/invitations", post(friends::invite))
        .route("/api/friends", get(friends::list).post(friends::ask))
        .route("/api/notices", get(notices::list))
        .route("/api/cuadrillas", post(cuadrillas::create))
        .route(
            "/api/cuadrillas/{id}",
            get(cuadrillas::one).patch(cuadrillas::change),
        )
        .route("/api/cuadrillas/{id}/members", post(cuadrillas::join))
        .route(
            "/api/cuadrillas/{id}/members/{player}",
            delete(cuadrillas::remove),
        )
        .route("/api/me/cuadrillas", get(cuadrillas::mine))
        .route("/api/push/key", get(push::key))
        .route(
            "/api/push/subscriptions",
            post(push::subscribe).delete(push::unsubscribe),
        )
        .route(
            "/api/tournaments",
            get(tournaments::list).post(tournaments::create),
        )
        .route("/api/tournaments/{id}", get(tournaments::one))
        .route("/api/tournaments/{id}/entries", post(tournaments::enter))
        .route(
            "/api/tournaments/{id}/entries/{entry}",
            delete(tournaments::withdraw),
        )
        .route("/api/tournaments/{id}/start", post(tournaments::start))
        .route("/api/tournaments/{id}/play", post(tournaments::play))
        .route("/torneo/{id}", get(|| pages::page("torneo.html")))
        .route("/api/friends/{player}", delete(friends::remove))
        .route(
            "/api/friends/requests/{player}",
            delete(friends::drop_request),
        )
        .route("/api/invitations/{id}", delete(friends::dismiss))
        .route("/api/invitations/{id}/accept", post(friends::accept))
        .route("/api/tables/{id}/replay", get(tables::replay))
        .route("/api/tables/{id}/fairness", get(tables::fairness))
        .route("/api/tables/{id}/record", get(tables::record))
        .route("/api/tables/{id}/replay/{n}", get(tables::replay_step))
        .route("/api/tables/{id}/review", get(review::review))
        .route("/api/tables/{id}/view", get(review::seat_view))
        .route("/api/players/{id}/games", get(players::player_games))
        .route("/api/players/{id}", get(players::player))
        .route("/api/profiles/{nickname}", get(players::profile))
        .route("/api/bots/{level}", get(ratings::bot))
        .route("/api/leaderboard/{game}", get(ratings::leaderboard))
        .route("/@/{nickname}", get(players::profile_page))
        .route("/bot/{level}", get(ratings::bot_page))
        .route("/p/{id}", get(players::player_page))
        .route("/leaderboard/{game}", get(ratings::leaderboard_page))
        .route("/api/tools/{game}/{tool}", get(tools::game_tool))
        .route("/api/odds/{name}", get(tools::odds_tool))
        .route("/api/{tool}", get(tools::tool_alias))
        .route("/ws/{id}", get(ws::upgrade))
        .route("/operador", get(|| pages::page("operator.html")))
        .merge(operator::routes(hub.clone()))
        .fallback(pages::not_found)
        .layer(DefaultBodyLimit::max(16 * 1024))
        .layer(axum::middleware::from_fn(security_headers))
        .layer(axum::middleware::from_fn_with_state(
            hub.clone(),
            node_header,
        ))
        .layer(axum::middleware::from_fn(request_span))
        .with_state(hub)
}
