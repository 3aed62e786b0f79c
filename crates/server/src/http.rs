//! The HTTP side: pages and their files (embedded in the binary), the JSON API of
//! `docs/server.md`, and the WebSocket upgrade; and each TCP connection's HTTP/1 session,
//! with its time limits.
//!
//! Nothing here names a game: a game's pages are files of its web face (`web.rs`: its table
//! module `{game}.js`, any page of its own as `{page}.html`, served at `/{page}`),
//! and its tools are reached through `/api/tools/{game}/{tool}`; odds tools for games the
//! server does not deal through `/api/odds/{name}`.

use crate::code::{Code, Refused};
use crate::lang::Lang;
use crate::store::{now, StoredTable, TableRow};
use crate::table::{PlayerRef, TableInfo, FINISHED, WAITING};
use crate::{account, markdown, ws, Hub, Kind, Limits, OddsTool, Session};
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Extension, Json, Router};
use rand::Rng;
use serde::Deserialize;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tower::ServiceExt;

mod accounts;
mod friends;
mod friends_tables;
mod players;

pub(crate) use friends_tables::{may_see, unloaded, InviteQuery};

use crate::web::{Web, ASSETS, RULES, RULES_ES};

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
        .route("/", get(|| page("index.html")))
        .route("/t/{id}", get(|| page("table.html")))
        .route("/replay/{id}", get(|| page("replay.html")))
        // The service worker, at the top so that it may serve every page (see sw.js).
        .route("/sw.js", get(|| page("sw.js")))
        .route("/{page}", get(named_page))
        .route("/rules/{game}", get(rules_page))
        .route("/assets/{file}", get(asset))
        .route("/assets/i18n/{file}", get(catalog))
        .route("/api/players", post(create_player))
        .route("/api/me", get(me))
        .route("/api/accounts", post(accounts::create_account))
        .route(
            "/api/sessions",
            get(accounts::list_sessions).post(accounts::log_in),
        )
        .route("/api/sessions/current", delete(accounts::log_out))
        .route("/api/sessions/{id}", delete(accounts::end_session))
        .route("/api/me/password", post(accounts::change_password))
        .route("/api/games", get(game_kinds))
        .route("/api/tables", get(open_tables).post(create_table))
        .route("/api/tables/{id}", get(one_table))
        .route(
            "/api/tables/{id}/seats/{seat}/reserve",
            post(friends_tables::reserve_seat),
        )
        .route(
            "/api/tables/{id}/seats/{seat}",
            delete(friends_tables::free_seat),
        )
        .route("/api/tables/{id}/rematch", post(friends_tables::rematch))
        .route("/api/tables/{id}/invitations", post(friends::invite))
        .route("/api/friends", get(friends::list).post(friends::ask))
        .route("/api/friends/{player}", delete(friends::remove))
        .route(
            "/api/friends/requests/{player}",
            delete(friends::drop_request),
        )
        .route("/api/invitations/{id}", delete(friends::dismiss))
        .route("/api/invitations/{id}/accept", post(friends::accept))
        .route("/api/tables/{id}/replay", get(replay))
        .route("/api/tables/{id}/replay/{n}", get(replay_step))
        .route("/api/players/{id}/games", get(player_games))
        .route("/api/players/{id}", get(players::player))
        .route("/api/profiles/{nickname}", get(players::profile))
        .route("/api/bots/{level}", get(players::bot))
        .route("/api/leaderboard/{game}", get(players::leaderboard))
        .route("/@/{nickname}", get(players::profile_page))
        .route("/bot/{level}", get(players::bot_page))
        .route("/p/{id}", get(players::player_page))
        .route("/leaderboard/{game}", get(players::leaderboard_page))
        .route("/api/tools/{game}/{tool}", get(game_tool))
        .route("/api/odds/{name}", get(odds_tool))
        .route("/api/{tool}", get(tool_alias))
        .route("/ws/{id}", get(ws::upgrade))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(16 * 1024))
        .layer(axum::middleware::from_fn(security_headers))
        .layer(axum::middleware::from_fn_with_state(
            hub.clone(),
            node_header,
        ))
        .with_state(hub)
}

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
    fn new(status: StatusCode, code: Code, msg: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: msg.into(),
            retry_after: None,
            node: None,
        }
    }
    /// The same error, saying to ask again in `seconds`.
    fn retry_after(mut self, seconds: u64) -> ApiError {
        self.retry_after = Some(seconds);
        self
    }
    /// A 400 Bad Request.
    fn bad(code: Code, msg: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, code, msg)
    }
    /// A refusal of the table's task or the friends' part, with the status its code means.
    fn refused(status: StatusCode, r: Refused) -> ApiError {
        ApiError::new(status, r.code, r.message)
    }
    /// A failure of ours: logged in full, answered without its details (a database
    /// message is for the operator, not for whoever asked).
    fn internal(msg: impl std::fmt::Display) -> ApiError {
        eprintln!("internal error: {msg}");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            Code::Internal,
            "internal error: the server could not do that now; try again later",
        )
    }
    fn too_many(retry_after: u64, what: &str) -> ApiError {
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

type ApiResult<T> = Result<Json<T>, ApiError>;

fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "json" => "application/json",
        "webmanifest" => "application/manifest+json",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        _ => "application/octet-stream",
    }
}

fn file(name: &str) -> Response {
    served(
        name,
        ASSETS.iter().find(|(n, _)| *n == name).map(|(_, b)| *b),
    )
}

/// A file's answer (`bytes` of the file `name`), or 404 without it.
fn served(name: &str, bytes: Option<impl IntoResponse>) -> Response {
    match bytes {
        Some(bytes) => (
            [
                (header::CONTENT_TYPE, content_type(name)),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            bytes,
        )
            .into_response(),
        None => ApiError::new(
            StatusCode::NOT_FOUND,
            Code::NotFound,
            format!("no file `{name}`"),
        )
        .into_response(),
    }
}

async fn page(name: &'static str) -> Response {
    file(name)
}

/// `/assets/{file}`: a file of the platform's or of a game's web face.
async fn asset(Extension(web): Extension<Arc<Web>>, Path(name): Path<String>) -> Response {
    served(&name, web.file(&name))
}

/// `/assets/i18n/{lang}.json`: one language's catalog of the pages' words.
async fn catalog(Extension(web): Extension<Arc<Web>>, Path(name): Path<String>) -> Response {
    served(&name, web.catalog(&name))
}

/// `/{page}`: the page `{page}.html` of the platform or a web face (the history, a game's tool page such as
/// `/leyes`), so that a page is added as a file alone.
async fn named_page(
    Extension(web): Extension<Arc<Web>>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Response {
    let wanted = format!("{name}.html");
    if let Some(page) = web.file(&wanted) {
        served(&wanted, Some(page))
    } else {
        not_found_page(&format!("/{name}"), Lang::choose(None, &headers))
    }
}

/// An unknown address: JSON under `/api/` (a program asked), else a page for people.
async fn not_found(uri: axum::http::Uri, headers: HeaderMap) -> Response {
    if uri.path().starts_with("/api/") || uri.path() == "/api" {
        ApiError::new(StatusCode::NOT_FOUND, Code::NotFound, "no such page or API").into_response()
    } else {
        not_found_page(uri.path(), Lang::choose(None, &headers))
    }
}

/// A page of the site's look made on the server, in `lang`: `body` is HTML already escaped.
/// It varies with the language the person asked for, so caches keep one per language.
fn html_page(status: StatusCode, lang: Lang, title: &str, body: &str) -> Response {
    let html = format!(
        "<!doctype html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1, viewport-fit=cover\">\n\
         <meta name=\"theme-color\" content=\"#17231b\">\n<title>{} · tapete</title>\n\
         <link rel=\"icon\" href=\"/assets/favicon.svg\" type=\"image/svg+xml\">\n\
         <link rel=\"manifest\" href=\"/assets/manifest.webmanifest\">\n\
         <link rel=\"stylesheet\" href=\"/assets/style.css\">\n\
         <script type=\"module\" src=\"/assets/doc.js\"></script>\n</head>\n<body>\n\
         <main class=\"page\" id=\"app\">\n{body}</main>\n</body>\n</html>\n",
        lang.code(),
        markdown::escape(title)
    );
    (
        status,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::VARY, "Accept-Language, Cookie"),
        ],
        html,
    )
        .into_response()
}

/// "No such page" in `lang`, with a way back to the lobby, status 404.
fn not_found_page(path: &str, lang: Lang) -> Response {
    let (title, text, back) = match lang {
        Lang::En => (
            "No such page",
            "There is nothing at <code>{}</code> here: the link may be mistyped, or the page gone.",
            "To the lobby",
        ),
        Lang::Es => (
            "Esta página no existe",
            "Aquí no hay nada en <code>{}</code>: puede que el enlace esté mal escrito o que la \
             página ya no exista.",
            "A las mesas",
        ),
    };
    let body = format!(
        "<section class=\"panel\" data-testid=\"no-such-page\">\n<h1>{title}</h1>\n\
         <p>{}</p>\n<p><a class=\"btn primary\" href=\"/\">{back}</a></p>\n</section>\n",
        text.replace("{}", &markdown::escape(path))
    );
    html_page(StatusCode::NOT_FOUND, lang, title, &body)
}

/// A game's rules in `lang` (Spanish from `docs/rules/es/`, English otherwise, and English
/// when a game has no Spanish rules yet), with the language they are really in.
fn rules_doc(game: &str, lang: Lang) -> Option<(&'static str, Lang)> {
    let es = RULES_ES
        .iter()
        .find(|(n, _)| *n == game)
        .map(|(_, md)| (*md, Lang::Es));
    let en = RULES
        .iter()
        .find(|(n, _)| *n == game)
        .map(|(_, md)| (*md, Lang::En));
    en?;
    match lang {
        Lang::Es => es.or(en),
        Lang::En => en,
    }
}

/// The rules of a game (`docs/rules/{game}.md`, or its Spanish `docs/rules/es/{game}.md`)
/// as a page: `/rules/{game}`. Links to another game's rules lead to its page; links the
/// site cannot follow (files of the source tree) show their text alone.
pub fn rules_html(game: &str, lang: Lang) -> Option<String> {
    let (md, _) = rules_doc(game, lang)?;
    let link = |target: &str| -> Option<String> {
        if target.starts_with('#')
            || target.starts_with("https://")
            || target.starts_with("http://")
        {
            return Some(target.to_string());
        }
        let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
        let name = file.strip_suffix(".md")?;
        RULES.iter().any(|(n, _)| *n == name).then(|| {
            if anchor.is_empty() {
                format!("/rules/{name}")
            } else {
                format!("/rules/{name}#{anchor}")
            }
        })
    };
    Some(markdown::to_html(md, &link))
}

/// `?lang=es|en` on a rules page: the link to the other language.
#[derive(Deserialize)]
struct LangQuery {
    lang: Option<String>,
}

async fn rules_page(
    Path(game): Path<String>,
    query: Result<Query<LangQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Response {
    let asked = query.ok().and_then(|Query(q)| q.lang);
    let lang = Lang::choose(asked.as_deref(), &headers);
    let (Some(html), Some((md, lang))) = (rules_html(&game, lang), rules_doc(&game, lang)) else {
        return not_found_page(&format!("/rules/{game}"), lang);
    };
    let title = md
        .lines()
        .next()
        .map(|l| l.trim_start_matches('#').trim().to_string())
        .unwrap_or_else(|| game.clone());
    let other = lang.other();
    let (heading, other_text, back) = match lang {
        Lang::En => (
            format!("How to play {title}"),
            "Léelas en español",
            "To the lobby",
        ),
        Lang::Es => (
            format!("Cómo se juega: {title}"),
            "Read them in English",
            "A las mesas",
        ),
    };
    let body = format!(
        "<p class=\"small\"><a href=\"/rules/{game}?lang={code}\" hreflang=\"{code}\" lang=\"{code}\" \
         data-testid=\"other-lang\">{other_text}</a></p>\n\
         <article class=\"panel doc\" data-testid=\"rules\">\n{html}</article>\n\
         <p><a class=\"btn\" href=\"/\">{back}</a></p>\n",
        game = markdown::escape(&game),
        code = other.code(),
    );
    html_page(StatusCode::OK, lang, &heading, &body)
}

/// The hex SHA-256 of a token: what the database keeps instead of the token.
pub(crate) fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// How often a session's last use is written down (seconds): a busy session is not a
/// write per request.
const TOUCH_EVERY: i64 = 60;

/// The session a token belongs to, if any.
pub(crate) async fn session_for_token(hub: &Hub, token: &str) -> Result<Option<Session>, ApiError> {
    let hash = token_hash(token.trim());
    let t = now();
    let cached = hub.tokens.read().ok().and_then(|m| m.get(&hash).cloned());
    if let Some(s) = cached {
        if t - s.touched >= TOUCH_EVERY {
            if let Ok(mut m) = hub.tokens.write() {
                if let Some(c) = m.get_mut(&hash) {
                    c.touched = t;
                }
            }
            let (db, id) = (hub.db.clone(), s.id);
            tokio::spawn(async move {
                if let Err(e) = db.touch_session(id).await {
                    eprintln!("session {id}: {e}");
                }
            });
        }
        return Ok(Some(s));
    }
    let found = hub
        .db
        .session_by_token(hash.clone())
        .await
        .map_err(ApiError::internal)?
        .map(|s| Session {
            id: s.session,
            player: PlayerRef {
                id: s.player,
                nickname: s.nickname,
            },
            account: s.account,
            touched: 0,
        });
    let Some(mut s) = found else { return Ok(None) };
    s.touched = t;
    if let Ok(mut m) = hub.tokens.write() {
        m.insert(hash, s.clone());
    }
    hub.db
        .touch_session(s.id)
        .await
        .map_err(ApiError::internal)?;
    Ok(Some(s))
}

/// The bearer token of a request, if it sends one; a header that is there but not of the
/// form `Authorization: Bearer TOKEN` is a 401.
fn bearer(headers: &HeaderMap) -> Result<Option<&str>, ApiError> {
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
async fn caller_session(hub: &Hub, headers: &HeaderMap) -> Result<Session, ApiError> {
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
async fn caller(hub: &Hub, headers: &HeaderMap) -> Result<PlayerRef, ApiError> {
    caller_session(hub, headers).await.map(|s| s.player)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewPlayer {
    nickname: String,
}

/// Characters that show nothing or reorder the text around them (zero-width spaces and
/// joiners, bidirectional controls, the byte-order mark, soft hyphens…): a nickname with
/// them could pass for someone else's.
fn invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}'
        | '\u{FFA0}' | '\u{FFF0}'..='\u{FFFB}' | '\u{E0000}'..='\u{E0FFF}')
}

/// Checks a nickname: 1–24 characters once trimmed, no control or invisible characters.
fn nickname(raw: &str) -> Result<String, ApiError> {
    let n = raw.trim();
    let chars = n.chars().count();
    if chars == 0 {
        return Err(ApiError::bad(Code::NicknameEmpty, "the nickname is empty"));
    }
    if chars > 24 {
        return Err(ApiError::bad(
            Code::NicknameTooLong,
            format!("the nickname is {chars} characters long: at most 24"),
        ));
    }
    if n.chars().any(char::is_control) {
        return Err(ApiError::bad(
            Code::NicknameInvalid,
            "the nickname has control characters",
        ));
    }
    if let Some(c) = n.chars().find(|c| invisible(*c)) {
        return Err(ApiError::bad(
            Code::NicknameInvalid,
            format!(
                "the nickname has an invisible character (U+{:04X}): use letters, digits and \
             visible signs",
                c as u32
            ),
        ));
    }
    Ok(n.to_string())
}

/// A new token: 128 random bits in hex.
fn new_token() -> String {
    let mut rng = rand::thread_rng();
    (0..16)
        .map(|_| format!("{:02x}", rng.gen::<u8>()))
        .collect()
}

/// The device of a request in short, from its `User-Agent`.
fn agent_of(headers: &HeaderMap) -> String {
    let ua = headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    account::short_agent(ua)
}

/// A nickname that an account holds, or one like it.
fn nickname_taken(nickname: &str) -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        Code::NicknameTaken,
        format!(
            "the nickname `{nickname}` belongs to an account (or looks like one that does): \
             choose another, or log in if it is yours"
        ),
    )
}

async fn create_player(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Json<NewPlayer>, JsonRejection>,
) -> ApiResult<Value> {
    hub.new_guests
        .take(peer.ip())
        .map_err(|s| ApiError::too_many(s, "new players"))?;
    let Json(body) = body?;
    let nickname = nickname(&body.nickname)?;
    let token = new_token();
    let id = hub
        .db
        .create_guest(
            nickname.clone(),
            account::nickname_key(&nickname),
            account::nickname_look(&nickname),
            token_hash(&token),
            agent_of(&headers),
        )
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(|| nickname_taken(&nickname))?;
    Ok(Json(
        json!({"id": id, "nickname": nickname, "token": token}),
    ))
}

/// `GET /api/me`: who the token is, and whether it has an account.
async fn me(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> ApiResult<Value> {
    let s = caller_session(&hub, &headers).await?;
    Ok(Json(
        json!({"id": s.player.id, "nickname": s.player.nickname, "account": s.account}),
    ))
}

async fn game_kinds(State(hub): State<Arc<Hub>>) -> Json<Value> {
    let kinds: Vec<Value> = hub
        .kinds
        .iter()
        .map(|k| {
            json!({
                "name": k.name(),
                "title": k.title(),
                "seats": {
                    "min": k.seat_range().start(),
                    "max": k.seat_range().end(),
                    "default": k.default_seats(),
                },
                "rules": k.default_rules(),
                "bots": k.bot_names(),
                "default_bot": k.default_bot(),
                "tools": k.tools(),
                "partners": k.partners(),
                "rule_docs": k
                    .rule_docs()
                    .iter()
                    .map(|(key, doc)| (key.to_string(), json!(doc)))
                    .collect::<serde_json::Map<String, Value>>(),
            })
        })
        .collect();
    Json(Value::Array(kinds))
}

/// Tables a page of the lobby's list holds.
pub const TABLES_PAGE: usize = 50;
/// The furthest page of the lobby's list one may ask for.
const MAX_TABLES_PAGE: usize = 10_000;

/// `?page=N` of the lobby's list.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TablesQuery {
    page: Option<usize>,
}

/// People seated at a table and connected to it now.
fn people_here(t: &TableInfo) -> usize {
    t.seats
        .iter()
        .filter(|s| s.player.is_some() && s.connected)
        .count()
}

/// `GET /api/tables?page=N`: the open public tables, [`TABLES_PAGE`] a page: those where a
/// seated person is connected first, then the others, each newest first. So tables made
/// and left (many of them, from many addresses) never push the tables people are at off
/// the first page. `Link: <…?page=N+1>; rel="next"` says there is a next page, and
/// `X-Total-Count` how many tables there are.
async fn open_tables(
    State(hub): State<Arc<Hub>>,
    query: Result<Query<TablesQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query?;
    let page = q.page.unwrap_or(1);
    if !(1..=MAX_TABLES_PAGE).contains(&page) {
        return Err(ApiError::bad(
            Code::NoSuchPage,
            format!("no page {page}: pages are numbered from 1 (to {MAX_TABLES_PAGE} at most)"),
        ));
    }
    let mut tables: Vec<TableInfo> = hub
        .tables_everywhere()
        .await
        .into_iter()
        .filter(|t| t.status != FINISHED && !t.friends.private)
        .collect();
    tables.sort_by(|a, b| {
        (people_here(b) > 0)
            .cmp(&(people_here(a) > 0))
            .then(b.created.cmp(&a.created))
            .then(a.id.cmp(&b.id))
    });
    let total = tables.len();
    let start = (page - 1) * TABLES_PAGE;
    let shown: Vec<TableInfo> = tables.into_iter().skip(start).take(TABLES_PAGE).collect();
    let mut res = Json(shown).into_response();
    let h = res.headers_mut();
    h.insert("x-total-count", HeaderValue::from(total));
    if total > start + TABLES_PAGE {
        if let Ok(v) =
            HeaderValue::from_str(&format!("</api/tables?page={}>; rel=\"next\"", page + 1))
        {
            h.insert(header::LINK, v);
        }
    }
    Ok(res)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewTable {
    game: String,
    #[serde(default)]
    rules: Value,
    bot: Option<String>,
    pace_ms: Option<u64>,
    /// Seats at the table, within the game's range (default: the game's default).
    seats: Option<usize>,
    seat: Option<usize>,
    /// Start at once, bots in every other seat (no waiting for friends).
    #[serde(default)]
    start: bool,
    /// Seconds a person may be gone on their turn before the bot plays for them.
    away_s: Option<u64>,
    /// Seconds the end of a hand waits for the people at the table to press next.
    hold_s: Option<u64>,
    /// Seconds a person has for each turn before the bot plays it (0: no clock).
    turn_s: Option<u64>,
    /// A rated game: accounts only, the game's standard rules (see `rating`).
    #[serde(default)]
    rated: bool,
    /// Seen only through its invitation link (and by who sat there), in no list.
    #[serde(default)]
    private: bool,
    /// Seats kept for accounts, by seat: `{"1": "mikel"}`.
    #[serde(default)]
    reserve: HashMap<String, String>,
}

/// Longest pause a table may put between bot actions.
const MAX_PACE_MS: u64 = 5000;
/// Longest `away_s` and `hold_s`.
const MAX_AWAY_S: u64 = 600;
const MAX_HOLD_S: u64 = 60;
/// The turn clock of a table made without one named.
pub const DEFAULT_TURN_S: u64 = 60;
/// The turn clock's bounds, when it is on (0 is off).
pub const TURN_S: std::ops::RangeInclusive<u64> = 10..=600;

fn table_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let mut rng = rand::thread_rng();
    (0..8)
        .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char)
        .collect()
}

async fn create_table(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Json<NewTable>, JsonRejection>,
) -> ApiResult<Value> {
    let player = caller(&hub, &headers).await?;
    let Json(req) = body?;
    if req.rated {
        players::account_only(&hub, player.id).await?;
    }
    hub.new_tables
        .take(peer.ip())
        .map_err(|s| ApiError::too_many(s, "new tables"))?;
    let open = hub
        .db
        .open_tables_of(player.id)
        .await
        .map_err(ApiError::internal)?;
    if open >= hub.limits.open_tables_per_player {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            Code::TooManyTables,
            format!(
                "you have {open} tables that are not finished (at most {}): finish or leave one \
                 first",
                hub.limits.open_tables_per_player
            ),
        ));
    }
    let kind = hub.kind(&req.game).ok_or_else(|| {
        let names: Vec<&str> = hub.kinds.iter().map(|k| k.name()).collect();
        ApiError::bad(
            Code::UnknownGame,
            format!("unknown game `{}`: choose {}", req.game, names.join(", ")),
        )
    })?;
    let bot = req.bot.unwrap_or_else(|| kind.default_bot().to_string());
    if !kind.bot_names().contains(&bot.as_str()) {
        return Err(ApiError::bad(
            Code::BotNotFound,
            format!(
                "`{bot}` is not a bot level: choose one of {}",
                kind.bot_names().join(", ")
            ),
        ));
    }
    let pace_ms = req.pace_ms.unwrap_or(700);
    if pace_ms > MAX_PACE_MS {
        return Err(ApiError::bad(
            Code::BadOptions,
            format!("pace_ms {pace_ms} is too slow: at most {MAX_PACE_MS}"),
        ));
    }
    let away_s = req.away_s.unwrap_or(30);
    if away_s > MAX_AWAY_S {
        return Err(ApiError::bad(
            Code::BadOptions,
            format!("away_s {away_s} is too long: at most {MAX_AWAY_S} seconds"),
        ));
    }
    let hold_s = req.hold_s.unwrap_or(10);
    if hold_s > MAX_HOLD_S {
        return Err(ApiError::bad(
            Code::BadOptions,
            format!("hold_s {hold_s} is too long: at most {MAX_HOLD_S} seconds"),
        ));
    }
    let turn_s = req.turn_s.unwrap_or(DEFAULT_TURN_S);
    if turn_s != 0 && !TURN_S.contains(&turn_s) {
        return Err(ApiError::bad(
            Code::BadOptions,
            format!(
                "turn_s {turn_s} is not a turn clock: 0 (no clock) or {} to {} seconds",
                TURN_S.start(),
                TURN_S.end()
            ),
        ));
    }
    if req.rated && turn_s == 0 {
        // A player who never acts would hold a rated game for ever.
        return Err(ApiError::bad(
            Code::RatedNeedsClock,
            format!(
                "a rated table always has a turn clock: leave out turn_s (it is \
                 {DEFAULT_TURN_S} seconds) or choose {} to {} seconds",
                TURN_S.start(),
                TURN_S.end()
            ),
        ));
    }
    let count = req.seats.unwrap_or_else(|| kind.default_seats());
    let range = kind.seat_range();
    if !range.contains(&count) {
        let allowed = if range.start() == range.end() {
            format!("{}", range.start())
        } else {
            format!("{} to {}", range.start(), range.end())
        };
        return Err(ApiError::bad(
            Code::BadOptions,
            format!(
                "{} is played by {allowed} players: a table of {count} seats cannot be made",
                kind.title()
            ),
        ));
    }
    let seat = req.seat.unwrap_or(0);
    if seat >= count {
        return Err(ApiError::bad(
            Code::NoSuchSeat,
            format!("there is no seat {seat}: seats are 0 to {}", count - 1),
        ));
    }
    // The rules with every key filled in, checked for this many seats. No game is made:
    // a table's seed is chosen when it starts.
    let rules = kind
        .check_rules(&req.rules, count)
        .map_err(|e| ApiError::bad(Code::BadOptions, e))?;
    if req.rated {
        players::standard_rules(kind.as_ref(), &rules, count)?;
    }
    let friends =
        friends_tables::new_friends(&hub, req.private, &req.reserve, count, &player, seat).await?;
    let id = table_id();
    hub.open_table_from(peer.ip(), &id).map_err(|open| {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            Code::TooManyTablesFromAddress,
            format!(
                "{open} tables made from your address are open (at most {}): play or leave one \
                 first (a table nobody comes to ends within minutes)",
                hub.limits.open_tables_per_addr
            ),
        )
    })?;
    let seed: u64 = rand::random();
    let mut seats = vec![None; count];
    seats[seat] = Some(player.id);
    let row = TableRow {
        id,
        game: kind.name().to_string(),
        seats: count,
        rules,
        seed,
        creator: Some(player.id),
        bot,
        pace_ms,
        status: WAITING.to_string(),
        created: now(),
        finished: None,
        outcome: None,
        away_s,
        hold_s,
        turn_s,
        rated: req.rated,
    };
    hub.db
        .create_table_with(row.clone(), seats.clone(), friends.clone())
        .await
        .map_err(ApiError::internal)?;
    let stored = StoredTable {
        row,
        seats: seats
            .iter()
            .map(|s| s.map(|id| (id, player.nickname.clone())))
            .collect(),
        actions: Vec::new(),
        pending: Vec::new(),
        hand_seats: Vec::new(),
        friends,
    };
    // A new table is this server's to run (with PostgreSQL, by its lease).
    hub.db
        .claim(stored.row.id.clone())
        .await
        .map_err(ApiError::internal)?;
    let id = stored.row.id.clone();
    if req.rated {
        // The creator sits from here, maybe never connecting before the start.
        hub.db
            .note_table_address(
                stored.row.id.clone(),
                player.id,
                crate::rating::network(peer.ip()),
            )
            .await
            .map_err(ApiError::internal)?;
    }
    let handle = hub.start_table(stored).map_err(ApiError::internal)?;
    hub.table_made(peer.ip(), &id);
    if req.start {
        handle
            .begin()
            .await
            .map_err(|e| ApiError::internal(format!("table {}: {e}", handle.info().id)))?;
    }
    Ok(Json(friends_tables::created(&handle.info())))
}

async fn one_table(
    State(hub): State<Arc<Hub>>,
    path: Result<Path<String>, PathRejection>,
    query: Result<Query<InviteQuery>, QueryRejection>,
    headers: HeaderMap,
) -> ApiResult<TableInfo> {
    let Path(id) = path?;
    let invite = friends_tables::invite_of(query);
    let handle = friends_tables::visible_table(&hub, &id, &headers, invite.as_deref()).await?;
    Ok(Json(handle.info()))
}

/// A finished table's stored log, for its replay (from a small cache: a replay page asks
/// for its steps one by one).
/// A private game's log only to whoever may see the table (to others it does not exist).
async fn finished_log(
    hub: &Arc<Hub>,
    id: &str,
    headers: &HeaderMap,
    invite: Option<&str>,
) -> Result<Arc<StoredTable>, ApiError> {
    if let Some(t) = hub.replay_cache.get(id) {
        friends_tables::check_stored(hub, &t, headers, invite).await?;
        return Ok(t);
    }
    let stored = hub
        .db
        .table(id.to_string())
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                Code::TableNotFound,
                format!("no table `{id}`"),
            )
        })?;
    friends_tables::check_stored(hub, &stored, headers, invite).await?;
    if stored.row.status != FINISHED {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            Code::NotFinished,
            "the game is not over: a replay shows every hand, so only finished games can be \
             replayed",
        ));
    }
    let stored = Arc::new(stored);
    hub.replay_cache.put(id.to_string(), stored.clone());
    Ok(stored)
}

/// `GET /api/tables/{id}/replay`: a finished game's table and actions; each step's view
/// comes from [`replay_step`].
async fn replay(
    State(hub): State<Arc<Hub>>,
    path: Result<Path<String>, PathRejection>,
    query: Result<Query<InviteQuery>, QueryRejection>,
    headers: HeaderMap,
) -> ApiResult<Value> {
    let Path(id) = path?;
    let invite = friends_tables::invite_of(query);
    let stored = finished_log(&hub, &id, &headers, invite.as_deref()).await?;
    let handle = hub
        .table_or_load(&id)
        .await
        .map_err(ApiError::from)?
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                Code::TableNotFound,
                format!("no table `{id}`"),
            )
        })?;
    let actions: Vec<Value> = stored
        .actions
        .iter()
        .enumerate()
        .map(|(i, (seat, action))| json!({"n": i + 1, "seat": seat, "action": action}))
        .collect();
    Ok(Json(json!({
        "table": handle.info(),
        "steps": actions.len() + 1,
        "actions": actions,
    })))
}

/// `GET /api/tables/{id}/replay/{n}`: step `n` of a finished game (0 is the deal): the
/// action, the narration it caused (what applying it told the spectators; for the deal,
/// the opening story) and the full view after it, every hand shown. Built on demand by
/// replaying the log; only a few are built at once.
async fn replay_step(
    State(hub): State<Arc<Hub>>,
    path: Result<Path<(String, usize)>, PathRejection>,
    query: Result<Query<InviteQuery>, QueryRejection>,
    headers: HeaderMap,
) -> ApiResult<Value> {
    let Path((id, n)) = path?;
    let invite = friends_tables::invite_of(query);
    let stored = finished_log(&hub, &id, &headers, invite.as_deref()).await?;
    if n > stored.actions.len() {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            Code::NoSuchStep,
            format!(
                "no step {n}: this game has steps 0 to {}",
                stored.actions.len()
            ),
        ));
    }
    let kind = hub
        .kind(&stored.row.game)
        .cloned()
        .ok_or_else(|| ApiError::internal(format!("unknown game `{}`", stored.row.game)))?;
    let _permit = tokio::time::timeout(Duration::from_secs(5), hub.replays.acquire())
        .await
        .map_err(|_| {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                Code::Busy,
                "the server is busy with other replays: try again in a moment",
            )
        })?
        .map_err(ApiError::internal)?;
    let step = tokio::task::spawn_blocking(move || -> Result<Value, String> {
        let row = &stored.row;
        let mut game = kind.new_game(&row.rules, row.seats, row.seed)?;
        for (seat, action) in &stored.actions[..n.saturating_sub(1)] {
            game.apply(*seat, action)?;
        }
        let (seat, action, lines) = match n.checked_sub(1).map(|i| &stored.actions[i]) {
            Some((seat, action)) => {
                let told = game.apply(*seat, action)?;
                (json!(seat), json!(action), told)
            }
            None => (Value::Null, Value::Null, game.lines(None)),
        };
        Ok(json!({
            "n": n,
            "seat": seat,
            "action": action,
            "lines": lines.iter().map(tapete_host::story::Line::wire).collect::<Vec<_>>(),
            "view": game.full_view(),
        }))
    })
    .await
    .map_err(ApiError::internal)?
    .map_err(ApiError::internal)?;
    Ok(Json(step))
}

async fn player_games(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    path: Result<Path<i64>, PathRejection>,
    headers: HeaderMap,
) -> ApiResult<Vec<Value>> {
    players::may_read(&hub, &peer)?;
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
    let viewer = friends_tables::viewer(&hub, &headers).await.map(|p| p.id);
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

/// `GET /api/tools/{game}/{tool}?…`: one of a game's tools (Mus's leyes) on the URL's
/// parameters, given to it as a JSON object of strings. Tools are CPU work: they run on
/// blocking threads, a bounded number at once ([`calculate`]).
async fn game_tool(
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
async fn tool_alias(
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

async fn run_tool(
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
async fn odds_tool(
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
fn query_object(
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
async fn calculate(
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
