//! The friends' API (accounts only): the list with who is online and where, requests
//! (both agree), removing a friend, invitations to a table. See [`crate::friends`] for the
//! rules and bounds.

use super::api::*;
use crate::accounts::{self, Session};
use crate::code::Code;
use crate::friends::{self, Asked, Person};
use crate::hub::Hub;
use crate::notices::{Notice, NoticeKind};
use crate::table::{Ask, TableInfo, TableStatus};
use axum::extract::rejection::{JsonRejection, PathRejection};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// A person named by nickname.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Nickname {
    nickname: String,
}

/// The caller's session, if it is an account's (guests are told to make one).
pub(crate) async fn account_caller(hub: &Hub, headers: &HeaderMap) -> Result<Session, ApiError> {
    let s = caller_session(hub, headers).await?;
    if !s.account {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            Code::FriendsAccountOnly,
            "friends are for accounts: make an account (it keeps your nickname and games) to \
             add friends and invite them",
        ));
    }
    Ok(s)
}

pub(crate) fn db_error(e: crate::store::DbError) -> ApiError {
    ApiError::internal(e)
}

/// The account of a nickname, or a 404 that says so.
pub(crate) async fn account_named(hub: &Hub, nickname: &str) -> Result<Person, ApiError> {
    let key = accounts::nickname_key(nickname.trim());
    hub.db
        .account_of(key)
        .await
        .map_err(db_error)?
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                Code::FriendsNoSuchAccount,
                format!(
                    "no account is called `{}`: check the nickname (guests cannot be friends)",
                    nickname.trim()
                ),
            )
        })
}

/// A request or an invitation spends one of the caller's tokens.
pub(crate) fn rate(hub: &Hub, player: i64) -> Result<(), ApiError> {
    hub.social.rate.take(player).map_err(|s| {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            Code::RateLimited,
            format!(
                "too many friend requests and invitations: at most {} at once, then {} a \
                 minute; try again in {s} s",
                friends::RATE_BURST,
                friends::RATE_PER_MINUTE
            ),
        )
        .retry_after(s)
    })
}

/// `GET /api/friends`: friends (online, and at which public table), requests received and
/// sent, invitations received.
pub(crate) async fn list(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> ApiResult<Value> {
    let me = account_caller(&hub, &headers).await?;
    // The lobby asks for this while it is open: its person is online.
    hub.social.presence.touch(me.player.id);
    let stored = hub.db.friends_of(me.player.id).await.map_err(db_error)?;
    let at = friends::seated_at(&hub.tables_everywhere().await);
    let mut list: Vec<Value> = Vec::with_capacity(stored.friends.len());
    for f in &stored.friends {
        let online = hub.online(f.id).await;
        let table = at
            .get(&f.id)
            .map(|(id, game)| json!({"id": id, "game": game}));
        list.push(json!({"id": f.id, "nickname": f.nickname, "online": online, "table": table}));
    }
    Ok(Json(json!({
        "friends": list,
        "incoming": stored.incoming,
        "outgoing": stored.outgoing,
        "invitations": stored.invitations,
    })))
}

/// `POST /api/friends {"nickname"}`: asks an account to be friends, or accepts its request.
pub(crate) async fn ask(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    body: Result<Json<Nickname>, JsonRejection>,
) -> ApiResult<Value> {
    let me = account_caller(&hub, &headers).await?;
    let Json(body) = body?;
    let other = account_named(&hub, &body.nickname).await?;
    if other.id == me.player.id {
        return Err(ApiError::bad(
            Code::FriendsSelf,
            "you cannot be your own friend",
        ));
    }
    rate(&hub, me.player.id)?;
    match hub
        .db
        .ask_friend(me.player.id, other.id)
        .await
        .map_err(db_error)?
    {
        Asked::Requested => Ok(Json(json!({"status": "requested", "friend": other}))),
        Asked::Friends => Ok(Json(json!({"status": "friends", "friend": other}))),
        Asked::Refusal(code, m) => Err(ApiError::new(StatusCode::CONFLICT, code, m)),
    }
}

/// `{"ok": true}` when something was there to end, else 404 with `message` and `code`.
pub(crate) fn ok_or_missing(
    done: crate::store::DbResult<bool>,
    message: &str,
    code: Code,
) -> ApiResult<Value> {
    if done.map_err(db_error)? {
        Ok(Json(json!({"ok": true})))
    } else {
        Err(ApiError::new(StatusCode::NOT_FOUND, code, message))
    }
}

pub(crate) fn other_id(path: Result<Path<i64>, PathRejection>) -> Result<i64, ApiError> {
    path.map(|Path(id)| id).map_err(|_| {
        ApiError::bad(
            Code::BadRequest,
            "write the person as their number: /api/friends/ID",
        )
    })
}

/// `DELETE /api/friends/requests/{player}`: declines a request received, or cancels one sent.
pub(crate) async fn drop_request(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    path: Result<Path<i64>, PathRejection>,
) -> ApiResult<Value> {
    let me = account_caller(&hub, &headers).await?;
    let other = other_id(path)?;
    let done = hub.db.drop_friend_request(me.player.id, other).await;
    ok_or_missing(
        done,
        "no friend request between you two",
        Code::FriendsNoRequest,
    )
}

/// `DELETE /api/friends/{player}`: ends a friendship (both ways).
pub(crate) async fn remove(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    path: Result<Path<i64>, PathRejection>,
) -> ApiResult<Value> {
    let me = account_caller(&hub, &headers).await?;
    let other = other_id(path)?;
    let done = hub.db.remove_friend(me.player.id, other).await;
    ok_or_missing(done, "they are not your friend", Code::FriendsNotFriends)
}

/// `POST /api/tables/{id}/invitations {"nickname"}`: invites a friend to a table that is
/// not over.
pub(crate) async fn invite(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    path: Result<Path<String>, PathRejection>,
    body: Result<Json<Nickname>, JsonRejection>,
) -> ApiResult<Value> {
    let me = account_caller(&hub, &headers).await?;
    let Path(table) = path?;
    let Json(body) = body?;
    let no_table = || {
        ApiError::new(
            StatusCode::NOT_FOUND,
            Code::TableNotFound,
            format!("no table `{table}`"),
        )
    };
    let info = match hub.table_or_load(&table).await {
        Ok(Some(h)) => h.info(),
        Ok(None) => return Err(no_table()),
        Err(e) => return Err(super::unloaded(&hub, &table, e, Some(me.player.id), None).await),
    };
    // A private table is, to whoever may not see it, a table that does not exist.
    if !crate::table::access::may_see(&hub.db, &info, Some(me.player.id), None)
        .await
        .map_err(ApiError::internal)?
    {
        return Err(no_table());
    }
    if info.status == TableStatus::Finished {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            Code::GameOver,
            "this table's game is over: invite them to a new table",
        ));
    }
    let other = account_named(&hub, &body.nickname).await?;
    if other.id == me.player.id {
        return Err(ApiError::bad(
            Code::FriendsSelf,
            "you cannot invite yourself",
        ));
    }
    rate(&hub, me.player.id)?;
    match hub
        .db
        .invite(me.player.id, other.id, table.clone())
        .await
        .map_err(db_error)?
    {
        Ok(id) => {
            let mut args = serde_json::Map::new();
            args.insert("from".into(), json!(me.player.nickname));
            args.insert("game".into(), json!(info.game));
            let notice = Notice {
                kind: NoticeKind::Invitation,
                url: format!("/t/{table}"),
                args,
            };
            hub.notify(other.id, notice).await;
            Ok(Json(json!({"id": id, "table": table, "to": other})))
        }
        Err((code, m)) => {
            let status = if code == Code::FriendsNotFriends {
                StatusCode::FORBIDDEN
            } else {
                StatusCode::CONFLICT
            };
            Err(ApiError::new(status, code, m))
        }
    }
}

/// `POST /api/invitations/{id}/accept`: the invitee comes to the table: seated at the
/// seat kept for them, else at the first free one (from the next deal once cards are
/// out), else watching. The invitation is their link until they sit, when it is answered.
pub(crate) async fn accept(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    path: Result<Path<i64>, PathRejection>,
    body: Result<Option<Json<super::private_tables::SeatBody>>, JsonRejection>,
) -> ApiResult<TableInfo> {
    let seed = super::private_tables::contribution_of(body)?;
    let me = account_caller(&hub, &headers).await?;
    let id = invitation_id(path)?;
    let Some(table) = hub
        .db
        .invited_to(me.player.id, id)
        .await
        .map_err(db_error)?
    else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            Code::FriendsNoInvitation,
            format!("no invitation {id} of yours: it was declined, answered or has expired"),
        ));
    };
    let handle = super::private_tables::visible_table(&hub, &table, &headers, None).await?;
    handle
        .ask(Ask::Join {
            player: me.player,
            seed,
        })
        .await
        .map_err(super::private_tables::refused)?;
    Ok(Json(handle.info()))
}

pub(crate) fn invitation_id(path: Result<Path<i64>, PathRejection>) -> Result<i64, ApiError> {
    path.map(|Path(id)| id).map_err(|_| {
        ApiError::bad(
            Code::BadRequest,
            "write the invitation as its number: /api/invitations/ID",
        )
    })
}

/// `DELETE /api/invitations/{id}`: dismisses an invitation received (or withdraws one sent).
pub(crate) async fn dismiss(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    path: Result<Path<i64>, PathRejection>,
) -> ApiResult<Value> {
    let me = account_caller(&hub, &headers).await?;
    let id = invitation_id(path)?;
    let done = hub.db.dismiss_invitation(me.player.id, id).await;
    ok_or_missing(
        done,
        &format!("no invitation {id} of yours"),
        Code::FriendsNoInvitation,
    )
}
