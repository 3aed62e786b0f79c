//! The accounts' API: sign up (a guest keeps everything), log in on another device, log
//! out, the list of one's sessions and ending one, a new password.
//!
//! A login never says whether a nickname has an account: a wrong password and an unknown
//! nickname get the same status and words, and both check one password hash, so the time
//! does not tell either.
//!
//! Failed logins are bounded as OWASP's "device cookies" advise ([`crate::net::limit::LoginThrottle`]):
//! each login answers a device token ([`accounts::device_token`]) that the page keeps and
//! sends with its next login; a device the account knows so is counted apart, on a small
//! budget of its own, and every other attempt per address and per nickname. A stranger
//! failing on a nickname again and again shuts out unknown devices, never the owner's.

use super::api::*;
use crate::accounts::token_hash;
use crate::accounts::AccountRefusal;
use crate::accounts::{self, Busy};
use crate::code::Code;
use crate::net::limit::{Throttled, Whose};
use crate::Hub;
use axum::extract::rejection::{JsonRejection, PathRejection};
use axum::extract::{ConnectInfo, Path, State};
use axum::http::header;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use rand::Rng;
use serde::Deserialize;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;

/// A nickname and a password, to sign up or log in.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Credentials {
    nickname: String,
    password: String,
}

/// A login: a nickname and a password, and the device token this browser was given at
/// its last login to that account, if it has one.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Login {
    nickname: String,
    password: String,
    #[serde(default)]
    device: Option<String>,
}

/// An old password and a new one.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewPassword {
    old: String,
    new: String,
}

/// The password hasher's refusal as an answer: 503 when busy.
pub(crate) fn busy(b: Busy) -> ApiError {
    match b {
        Busy::Full => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            Code::Busy,
            "the server is busy checking other passwords: try again in a few seconds",
        )
        .retry_after(5),
        Busy::Failed(e) => ApiError::internal(format!("password hashing: {e}")),
    }
}

/// The one answer to every failed login, whatever failed.
pub(crate) fn wrong_login() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        Code::WrongLogin,
        "wrong nickname or password: check both and try again",
    )
}

pub(crate) fn too_many_failures(t: Throttled) -> ApiError {
    let whose = match t.whose {
        Whose::Address => "from your address",
        Whose::Nickname => "for this nickname from a device it does not know",
        Whose::Device => "from this device",
    };
    too_many_wrong(format!("too many failed logins {whose}"), t.seconds)
}

/// A 429 for too many wrong passwords: `what`, and the wait.
pub(crate) fn too_many_wrong(what: String, seconds: u64) -> ApiError {
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        Code::LoginThrottled,
        format!("{what}: try again in {seconds} s"),
    )
    .retry_after(seconds)
}

impl Hub {
    /// Forgets ended sessions: their tokens are refused from now on and their WebSockets
    /// close.
    fn forget_sessions(&self, ended: &[i64]) {
        self.sessions.forget(ended);
    }

    /// A player's nickname and account, as the sessions in memory know them.
    fn renamed(&self, player: i64, nickname: &str) {
        self.sessions.renamed(player, nickname);
        // The tables open now show the new name at once (stored ones read it when loaded).
        let open: Vec<_> = match self.tables.read() {
            Ok(t) => t.values().cloned().collect(),
            Err(_) => Vec::new(),
        };
        for handle in open {
            let info = handle.info();
            if info
                .seats
                .iter()
                .any(|s| s.player.as_ref().is_some_and(|p| p.id == player))
            {
                let _ = handle.tx.send(crate::table::Cmd::Renamed {
                    player,
                    nickname: nickname.to_string(),
                });
            }
        }
    }

    /// A device token for `player`'s browser (keeping the id of the device it came from).
    async fn device_for(&self, player: i64, device: Option<&str>) -> Result<String, ApiError> {
        let secret = self.device_secret().await.map_err(ApiError::internal)?;
        Ok(accounts::device_token(
            secret,
            player,
            device,
            self.clock().epoch(),
        ))
    }
}

/// `POST /api/accounts {"nickname","password"}`: a new account, or (with a guest's
/// token) that guest made an account, keeping its id, history and tables.
pub(crate) async fn create_account(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Json<Credentials>, JsonRejection>,
) -> ApiResult<Value> {
    let guest = match bearer(&headers)? {
        Some(token) => {
            let s = session_for_token(&hub, token).await?.ok_or_else(|| {
                ApiError::new(
                    StatusCode::UNAUTHORIZED,
                    Code::UnknownToken,
                    "unknown token: send none to make a new account",
                )
            })?;
            if s.account {
                return Err(ApiError::new(
                    StatusCode::CONFLICT,
                    Code::AlreadyAccount,
                    "you have an account already: log out first to make another",
                ));
            }
            Some((s.player.id, token.trim().to_string()))
        }
        None => None,
    };
    hub.new_accounts
        .take(peer.ip())
        .map_err(|s| ApiError::too_many(s, "new accounts"))?;
    let Json(body) = body?;
    let nickname = nickname(&body.nickname)?;
    accounts::check_password(&body.password)
        .map_err(|r| ApiError::refused(StatusCode::BAD_REQUEST, r))?;
    let key = accounts::nickname_key(&nickname);
    let look = accounts::nickname_look(&nickname);
    if hub
        .db
        .nickname_taken(key.clone(), look.clone())
        .await
        .map_err(ApiError::internal)?
    {
        return Err(nickname_taken(&nickname));
    }
    let phc = hub.passwords.hash(body.password).await.map_err(busy)?;
    let (guest_id, token) = match guest {
        Some((id, token)) => (Some(id), token),
        None => (None, new_token()),
    };
    let id = hub
        .db
        .create_account(
            nickname.clone(),
            key,
            look,
            phc,
            guest_id,
            token_hash(&token),
            agent_of(&headers),
        )
        .await
        .map_err(ApiError::internal)?
        .map_err(|r| match r {
            AccountRefusal::Taken => nickname_taken(&nickname),
            AccountRefusal::AlreadyOne => ApiError::new(
                StatusCode::CONFLICT,
                Code::AlreadyAccount,
                "you have an account already: log out first to make another",
            ),
        })?;
    hub.renamed(id, &nickname);
    // Where the account was made: accounts made from one address are not rated against
    // each other. The account stands even if this is not kept (said on the log).
    let address = crate::ratings::network(peer.ip());
    if let Err(e) = hub.db.note_signup_address(id, address).await {
        tracing::warn!(
            player = id,
            "the account's sign-up address was not kept: {e}"
        );
    }
    // The browser that made the account is one it knows.
    let device = hub.device_for(id, None).await?;
    Ok(Json(
        json!({"id": id, "nickname": nickname, "token": token, "device": device}),
    ))
}

/// `POST /api/sessions {"nickname","password","device"}`: logs in, a new session and
/// token, and a device token for this browser's next login. The account's least recently
/// used sessions beyond [`crate::Limits::sessions_per_account`] end.
pub(crate) async fn log_in(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Json<Login>, JsonRejection>,
) -> ApiResult<Value> {
    let Json(body) = body?;
    if body.password.len() > accounts::MAX_PASSWORD_BYTES {
        return Err(wrong_login());
    }
    let key = accounts::nickname_key(body.nickname.trim());
    let found = hub
        .db
        .account_by_key(key.clone())
        .await
        .map_err(ApiError::internal)?;
    // A device is known only to the account it logged in to: for a nickname without one,
    // every device is unknown, as for a wrong token.
    let device = match (&body.device, &found) {
        (Some(token), Some((id, _, _))) => {
            let secret = hub.device_secret().await.map_err(ApiError::internal)?;
            accounts::known_device(secret, token, *id, hub.clock().epoch())
        }
        _ => None,
    };
    let device = device.as_deref();
    hub.logins
        .check(hub.clock().now(), peer.ip(), &key, device)
        .map_err(too_many_failures)?;
    let phc = found.as_ref().map(|(_, _, phc)| phc.clone());
    let ok = hub
        .passwords
        .verify(body.password, phc)
        .await
        .map_err(busy)?;
    let Some((id, nickname, _)) = found.filter(|_| ok) else {
        hub.logins
            .failed(hub.clock().now(), peer.ip(), &key, device);
        return Err(wrong_login());
    };
    let token = new_token();
    let (_, ended) = hub
        .db
        .create_session(
            id,
            token_hash(&token),
            agent_of(&headers),
            hub.limits.sessions_per_account,
        )
        .await
        .map_err(ApiError::internal)?;
    hub.forget_sessions(&ended);
    let device = hub.device_for(id, device).await?;
    Ok(Json(
        json!({"id": id, "nickname": nickname, "token": token, "device": device}),
    ))
}

/// A guest's only session cannot end: its token is its only key.
pub(crate) fn guest_keeps_its_session() -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        Code::GuestKeepsSession,
        "a guest who logs out cannot come back: make an account first (with a password, \
         you can log in again anywhere)",
    )
}

/// `DELETE /api/sessions/current`: logs out (this token is refused from now on).
pub(crate) async fn log_out(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> ApiResult<Value> {
    let s = caller_session(&hub, &headers).await?;
    if !s.account {
        return Err(guest_keeps_its_session());
    }
    hub.db
        .delete_session(s.player.id, s.id)
        .await
        .map_err(ApiError::internal)?;
    hub.forget_sessions(&[s.id]);
    Ok(Json(json!({"ended": s.id})))
}

/// `GET /api/sessions`: the caller's sessions, the most recently used first.
pub(crate) async fn list_sessions(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
) -> ApiResult<Vec<Value>> {
    let s = caller_session(&hub, &headers).await?;
    let rows = hub
        .db
        .sessions_of(s.player.id)
        .await
        .map_err(ApiError::internal)?;
    Ok(Json(
        rows.into_iter()
            .map(|r| {
                json!({
                    "id": r.id,
                    "created": r.created,
                    "last_used": r.last_used,
                    "agent": r.agent,
                    "current": r.id == s.id,
                })
            })
            .collect(),
    ))
}

/// `DELETE /api/sessions/{id}`: ends one of the caller's sessions (another device's).
pub(crate) async fn end_session(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    path: Result<Path<i64>, PathRejection>,
) -> ApiResult<Value> {
    let s = caller_session(&hub, &headers).await?;
    let Path(id) = path.map_err(|_| {
        ApiError::bad(
            Code::BadRequest,
            "a session is a number, e.g. DELETE /api/sessions/7",
        )
    })?;
    if id == s.id && !s.account {
        return Err(guest_keeps_its_session());
    }
    if !hub
        .db
        .delete_session(s.player.id, id)
        .await
        .map_err(ApiError::internal)?
    {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            Code::SessionNotFound,
            format!("you have no session {id}: GET /api/sessions lists yours"),
        ));
    }
    hub.forget_sessions(&[id]);
    Ok(Json(json!({"ended": id})))
}

/// `POST /api/me/password {"old","new"}`: a new password; every other session ends.
/// Wrong old passwords are counted per session: the account's failed logins (a stranger's
/// guesses) never stop its owner from changing it.
pub(crate) async fn change_password(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    body: Result<Json<NewPassword>, JsonRejection>,
) -> ApiResult<Value> {
    let s = caller_session(&hub, &headers).await?;
    let Json(body) = body?;
    let phc = hub
        .db
        .password_hash(s.player.id)
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::FORBIDDEN,
                Code::AccountOnly,
                "a guest has no password: make an account first",
            )
        })?;
    accounts::check_password(&body.new)
        .map_err(|r| ApiError::refused(StatusCode::BAD_REQUEST, r))?;
    hub.wrong_old_passwords
        .check(s.id)
        .map_err(|w| too_many_wrong("too many wrong passwords on this session".into(), w))?;
    if body.old.len() > accounts::MAX_PASSWORD_BYTES
        || !hub
            .passwords
            .verify(body.old, Some(phc))
            .await
            .map_err(busy)?
    {
        let _ = hub.wrong_old_passwords.take(s.id);
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            Code::WrongPassword,
            "the old password is wrong: nothing was changed",
        ));
    }
    let phc = hub.passwords.hash(body.new).await.map_err(busy)?;
    let ended = hub
        .db
        .set_password(s.player.id, phc, s.id)
        .await
        .map_err(ApiError::internal)?;
    hub.forget_sessions(&ended);
    Ok(Json(json!({"ended": ended})))
}
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewPlayer {
    nickname: String,
}

/// Characters that show nothing or reorder the text around them (zero-width spaces and
/// joiners, bidirectional controls, the byte-order mark, soft hyphens…): a nickname with
/// them could pass for someone else's.
pub(crate) fn invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}'
        | '\u{FFA0}' | '\u{FFF0}'..='\u{FFFB}' | '\u{E0000}'..='\u{E0FFF}')
}

/// Checks a nickname: 1–24 characters once trimmed, no control or invisible characters.
pub(crate) fn nickname(raw: &str) -> Result<String, ApiError> {
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
pub(crate) fn new_token() -> String {
    let mut rng = rand::thread_rng();
    (0..16)
        .map(|_| format!("{:02x}", rng.gen::<u8>()))
        .collect()
}

/// The device of a request in short, from its `User-Agent`.
pub(crate) fn agent_of(headers: &HeaderMap) -> String {
    let ua = headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    accounts::short_agent(ua)
}

/// A nickname that an account holds, or one like it.
pub(crate) fn nickname_taken(nickname: &str) -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        Code::NicknameTaken,
        format!(
            "the nickname `{nickname}` belongs to an account (or looks like one that does): \
             choose another, or log in if it is yours"
        ),
    )
}

pub(crate) async fn create_player(
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
            accounts::nickname_key(&nickname),
            accounts::nickname_look(&nickname),
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
pub(crate) async fn me(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> ApiResult<Value> {
    let s = caller_session(&hub, &headers).await?;
    let mut me = json!({"id": s.player.id, "nickname": s.player.nickname, "account": s.account});
    // An operator is told so (the top bar's link), and a suspended person reads why.
    if hub.is_operator(s.player.id) {
        me["operator"] = json!(true);
    }
    let suspension = hub
        .db
        .suspension_of(s.player.id)
        .await
        .map_err(ApiError::internal)?;
    if let Some(x) = suspension {
        me["suspension"] = json!({"scope": x.scope, "reason": x.reason, "at": x.at});
    }
    Ok(Json(me))
}
