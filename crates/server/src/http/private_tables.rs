//! Private tables over HTTP: tables seen only through their invitation link
//! (or by the people who sat there), seats kept for named accounts, and the rematch
//! ("otra") of a finished table.
//!
//! A private table is answered exactly as a table that does not exist to anyone without
//! the link who never sat there: the same status, code and words, so its id tells nothing.

use super::accounts::new_token;
use super::api::*;
use crate::accounts;
use crate::code::{Code, Refusal};
use crate::hub::Hub;
use crate::store::now;
use crate::table::access::{may_see, may_see_friends};
use crate::table::{Ask, PlayerRef, TableHandle, TableInfo, TableStatus};
use crate::table::{NewRematch, PrivateRow, StoredTable, TableRow};
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::Arc;

/// `?invite=SECRET` on a table's addresses: its invitation link's secret.
#[derive(Deserialize, Default)]
pub(crate) struct InviteQuery {
    pub invite: Option<String>,
}

/// The invite of a query, a malformed query being none.
pub(crate) fn invite_of(query: Result<Query<InviteQuery>, QueryRejection>) -> Option<String> {
    query.ok().and_then(|Query(q)| q.invite)
}

/// The answer to a table nobody may know of: the same as to a table that does not exist.
pub(crate) fn no_table(id: &str) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        Code::TableNotFound,
        format!("no table `{id}`"),
    )
}

/// The person a request comes from, if it names a known session (else a visitor).
pub(crate) async fn viewer(hub: &Hub, headers: &HeaderMap) -> Option<PlayerRef> {
    let token = bearer(headers).ok()??;
    session_for_token(hub, token).await.ok()?.map(|s| s.player)
}

/// A stored table (a finished game's log) the request may see, else the answer of a table
/// that does not exist.
pub(crate) async fn check_stored(
    hub: &Hub,
    stored: &StoredTable,
    headers: &HeaderMap,
    invite: Option<&str>,
) -> Result<(), ApiError> {
    if stored.private.invite.is_none() {
        return Ok(());
    }
    let player = viewer(hub, headers).await.map(|p| p.id);
    if may_see_friends(
        &hub.db,
        &stored.row.id,
        stored.row.creator,
        &stored.private,
        player,
        invite,
    )
    .await
    .map_err(ApiError::internal)?
    {
        Ok(())
    } else {
        Err(no_table(&stored.row.id))
    }
}

/// Why a table could not be had here, as an answer. A table another server runs is
/// `table_moved` (with where) only to whoever may see it: to anyone else a private table
/// is, there as here, a table that does not exist.
pub(crate) async fn unloaded(
    hub: &Hub,
    id: &str,
    e: crate::Unloaded,
    player: Option<i64>,
    invite: Option<&str>,
) -> ApiError {
    if let crate::Unloaded::Elsewhere(_) = &e {
        match hub.db.visibility(id.to_owned()).await {
            Ok(Some((creator, friends))) => {
                match may_see_friends(&hub.db, id, creator, &friends, player, invite).await {
                    Ok(true) => {}
                    Ok(false) => return no_table(id),
                    Err(msg) => return ApiError::internal(msg),
                }
            }
            Ok(None) => return no_table(id),
            Err(msg) => return ApiError::internal(msg),
        }
    }
    ApiError::from(e)
}

/// A table the request may see, else the answer of a table that does not exist.
pub(crate) async fn visible_table(
    hub: &Arc<Hub>,
    id: &str,
    headers: &HeaderMap,
    invite: Option<&str>,
) -> Result<TableHandle, ApiError> {
    let handle = match hub.table_or_load(id).await {
        Ok(h) => h.ok_or_else(|| no_table(id))?,
        Err(e) => {
            let player = viewer(hub, headers).await.map(|p| p.id);
            return Err(unloaded(hub, id, e, player, invite).await);
        }
    };
    let info = handle.info();
    let player = match info.private.private {
        true => viewer(hub, headers).await.map(|p| p.id),
        false => None,
    };
    if may_see(&hub.db, &info, player, invite)
        .await
        .map_err(ApiError::internal)?
    {
        Ok(handle)
    } else {
        Err(no_table(id))
    }
}

/// A table's description as an answer, with its invitation secret when `with_invite`
/// (the creator's, and the rematch's people's).
pub(crate) fn with_invite(info: &TableInfo, with_invite: bool) -> Value {
    let mut v = serde_json::to_value(info).unwrap_or(Value::Null);
    if let (true, Some(invite)) = (with_invite, &info.private.invite) {
        v["invite"] = json!(invite);
    }
    v
}

/// The create answer: the new table, and its secret for the creator.
pub(crate) fn created(info: &TableInfo) -> Value {
    with_invite(info, true)
}

/// A refusal of the table's as an API error, its status following its code.
pub(crate) fn refused(r: Refusal) -> ApiError {
    let status = match r.code {
        Code::NoSuchSeat => StatusCode::BAD_REQUEST,
        Code::Suspended => StatusCode::FORBIDDEN,
        Code::Internal => return ApiError::internal(r.message),
        Code::NotSaved => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::CONFLICT,
    };
    ApiError::refused(status, r)
}

/// The account of a nickname, for a seat kept for it.
pub(crate) async fn account_called(hub: &Hub, nickname: &str) -> Result<PlayerRef, ApiError> {
    let found = hub
        .db
        .account_by_key(accounts::nickname_key(nickname.trim()))
        .await
        .map_err(ApiError::internal)?;
    match found {
        Some((id, nickname, _)) => Ok(PlayerRef { id, nickname }),
        None => Err(ApiError::new(
            StatusCode::NOT_FOUND,
            Code::UnknownAccount,
            format!(
                "no account is called `{}`: seats are kept for accounts only; ask your friend \
                 the nickname of theirs",
                nickname.trim()
            ),
        )),
    }
}

/// A new invitation secret: 128 random bits.
pub(crate) fn new_invite() -> String {
    new_token()
}

/// What `"private"` and `"reserve"` of a new table make of its friends' part: checked
/// (seats of the table, accounts that exist, one seat each, not the creator's), before
/// anything is stored.
pub(crate) async fn new_friends(
    hub: &Hub,
    private: bool,
    reserve: &HashMap<String, String>,
    seats: usize,
    creator: &PlayerRef,
    creator_seat: usize,
) -> Result<PrivateRow, ApiError> {
    let mut reserved: Vec<(usize, i64, String)> = Vec::new();
    let mut wanted: Vec<(&String, &String)> = reserve.iter().collect();
    wanted.sort();
    for (seat, nickname) in wanted {
        let s: usize = seat
            .trim()
            .parse()
            .ok()
            .filter(|s| *s < seats)
            .ok_or_else(|| {
                ApiError::bad(
                    Code::NoSuchSeat,
                    format!(
                        "`reserve` names seat `{seat}`: seats are 0 to {}",
                        seats - 1
                    ),
                )
            })?;
        if s == creator_seat {
            return Err(ApiError::bad(
                Code::SeatTaken,
                format!("seat {s} is yours: keep another seat for {nickname}"),
            ));
        }
        let p = account_called(hub, nickname).await?;
        if p.id == creator.id || reserved.iter().any(|(_, id, _)| *id == p.id) {
            return Err(ApiError::bad(
                Code::AlreadyAtTable,
                format!(
                    "{} would have two seats at this table: keep one seat per person",
                    p.nickname
                ),
            ));
        }
        reserved.push((s, p.id, p.nickname));
    }
    Ok(PrivateRow {
        invite: private.then(new_invite),
        reserved,
        ..PrivateRow::default()
    })
}

/// The seat of a table's address, and the table's id.
pub(crate) type SeatPath = Result<Path<(String, usize)>, PathRejection>;

pub(crate) fn seat_path(path: SeatPath) -> Result<(String, usize), ApiError> {
    path.map(|Path(p)| p).map_err(|_| {
        ApiError::bad(
            Code::NoSuchSeat,
            "write the address as /api/tables/TABLE/seats/SEAT, SEAT a number",
        )
    })
}

/// The creator of a visible table asks: else 403.
pub(crate) async fn creator_of(
    hub: &Arc<Hub>,
    id: &str,
    headers: &HeaderMap,
    invite: Option<&str>,
) -> Result<TableHandle, ApiError> {
    let player = caller(hub, headers).await?;
    let handle = visible_table(hub, id, headers, invite).await?;
    if handle.info().creator != Some(player.id) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            Code::NotCreator,
            "only the table's creator can keep or free its seats",
        ));
    }
    Ok(handle)
}

/// `{"nickname"}`: the account a seat is kept for.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Keep {
    nickname: String,
}

/// `POST /api/tables/{id}/seats/{seat}/reserve {"nickname"}`: the creator keeps a seat
/// for an account before the start; nobody else may sit there.
pub(crate) async fn reserve_seat(
    State(hub): State<Arc<Hub>>,
    path: SeatPath,
    query: Result<Query<InviteQuery>, QueryRejection>,
    headers: HeaderMap,
    body: Result<Json<Keep>, JsonRejection>,
) -> Result<Json<TableInfo>, ApiError> {
    let (id, seat) = seat_path(path)?;
    let handle = creator_of(&hub, &id, &headers, invite_of(query).as_deref()).await?;
    let Json(keep) = body?;
    let player = account_called(&hub, &keep.nickname).await?;
    handle
        .ask(Ask::Reserve { seat, player })
        .await
        .map_err(refused)?;
    Ok(Json(handle.info()))
}

/// `DELETE /api/tables/{id}/seats/{seat}`: the creator frees a seat before the start: the
/// account it was kept for, or the person holding it, loses it.
pub(crate) async fn free_seat(
    State(hub): State<Arc<Hub>>,
    path: SeatPath,
    query: Result<Query<InviteQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Result<Json<TableInfo>, ApiError> {
    let (id, seat) = seat_path(path)?;
    let handle = creator_of(&hub, &id, &headers, invite_of(query).as_deref()).await?;
    handle.ask(Ask::Free { seat }).await.map_err(refused)?;
    Ok(Json(handle.info()))
}

/// Where the person of seat `seat` sits in the rematch of a table of `n` seats: one seat
/// on, so the first hand's mano (and dealer) passes to the next player, and partners
/// (seats of the same parity) stay partners.
pub fn rematch_seat(seat: usize, n: usize) -> usize {
    (seat + n - 1) % n
}

/// The optional body of a request that seats its caller: their contribution to the deal
/// (32 hexadecimal digits; see `tapete_table::fair`).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SeatBody {
    #[serde(default)]
    seed: Option<String>,
}

/// The contribution a seating request brings, checked before anything is done: a bad one
/// is 400 `bad_contribution`, naming what is wrong.
pub(crate) fn contribution_of(
    body: Result<Option<Json<SeatBody>>, JsonRejection>,
) -> Result<Option<String>, ApiError> {
    let seed = body?.and_then(|Json(b)| b.seed);
    seed.map(|s| {
        tapete_table::fair::contribution(&s)
            .map_err(|e| ApiError::bad(Code::BadContribution, e.to_string()))
    })
    .transpose()
}

/// The options a rematch of a finished table of `game` plays ([`tapete_host::Kind::rematch_rules`]).
fn rematch_rules(hub: &Hub, game: &str, rules: &Value) -> Value {
    match hub.kind(game) {
        Some(kind) => kind.rematch_rules(rules),
        None => rules.clone(),
    }
}

/// `POST /api/tables/{id}/rematch`: "otra". Made by the first of the people of a
/// finished table who asks (the others are offered it on the finished table), the same
/// table for everybody who asks after; asking is accepting: the asker sits at their seat.
pub(crate) async fn rematch(
    State(hub): State<Arc<Hub>>,
    path: Result<Path<String>, PathRejection>,
    query: Result<Query<InviteQuery>, QueryRejection>,
    headers: HeaderMap,
    body: Result<Option<Json<SeatBody>>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let Path(id) = path?;
    let seed = contribution_of(body)?;
    let player = caller(&hub, &headers).await?;
    let old = visible_table(&hub, &id, &headers, invite_of(query).as_deref()).await?;
    let info = old.info();
    if info.status != TableStatus::Finished {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            Code::NotFinished,
            "the game is not over: another one is asked for at its end",
        ));
    }
    let people: Vec<(usize, i64)> = info
        .seats
        .iter()
        .filter_map(|s| s.player.as_ref().map(|p| (s.seat, p.id)))
        .collect();
    let Some(&(mine, _)) = people.iter().find(|(_, p)| *p == player.id) else {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            Code::NotAPlayer,
            "only the people seated at the end of the game can ask for another",
        ));
    };
    super::not_suspended(&hub, player.id, info.rated).await?;
    let made = match info.private.rematch.clone() {
        Some(new) => new,
        None => {
            let n = info.seats.len();
            let mut seats = vec![None; n];
            seats[rematch_seat(mine, n)] = Some(player.id);
            let reserved = people
                .iter()
                .filter(|(_, p)| *p != player.id)
                .map(|(s, p)| (rematch_seat(*s, n), *p))
                .collect();
            let row = TableRow {
                id: table_id(),
                game: info.game.clone(),
                seats: n,
                // The same options, but what recorded the finished match only.
                rules: rematch_rules(&hub, &info.game, &info.rules),
                seed: rand::random(),
                creator: Some(player.id),
                bot: info.bot.clone(),
                pace_ms: info.pace_ms,
                status: TableStatus::Waiting,
                created: now(),
                finished: None,
                outcome: None,
                away_s: info.away_s,
                hold_s: info.hold_s,
                // A rated table always has a clock (one made before that rule had none).
                turn_s: if info.rated && info.turn_s == 0 {
                    crate::table::DEFAULT_TURN_S
                } else {
                    info.turn_s
                },
                // Another rated game among the same accounts is rated too.
                rated: info.rated,
                // A rematch draws a new secret.
                deal: Some(crate::table::Deal::new()),
            };
            let new = NewRematch {
                row,
                seats,
                reserved,
                invite: info.private.private.then(new_invite),
                starts_at: hub.clock().epoch() + hub.limits.rematch_wait.as_secs() as i64,
            };
            let made = hub
                .db
                .create_rematch(id.clone(), new)
                .await
                .map_err(ApiError::internal)?;
            match made {
                Ok(new) => {
                    let handle = hub
                        .table_or_load(&new)
                        .await
                        .map_err(ApiError::from)?
                        .ok_or_else(|| ApiError::internal(format!("rematch {new} not stored")))?;
                    // Alone with the bots: nobody to wait for.
                    if handle.info().private.reserved.iter().all(Option::is_none) {
                        handle.begin().await.map_err(ApiError::internal)?;
                    }
                    if let Err(e) = old.ask(Ask::Offer { table: new.clone() }).await {
                        tracing::warn!(table = %id, rematch = %new, "the rematch was not offered: {}", e.message);
                    }
                    new
                }
                Err(before) => before,
            }
        }
    };
    let handle = hub
        .table_or_load(&made)
        .await
        .map_err(ApiError::from)?
        .ok_or_else(|| ApiError::internal(format!("rematch {made} not stored")))?;
    handle
        .ask(Ask::Accept { player, seed })
        .await
        .map_err(refused)?;
    Ok(Json(with_invite(&handle.info(), true)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rematch_passes_the_first_deal_on_and_keeps_partners() {
        let moved: Vec<usize> = (0..4).map(|s| rematch_seat(s, 4)).collect();
        assert_eq!(moved, [3, 0, 1, 2]);
        for s in 0..4 {
            assert_eq!(rematch_seat(s, 4) % 2, rematch_seat((s + 2) % 4, 4) % 2);
        }
        assert_eq!(rematch_seat(1, 3), 0, "seat 1 is first in the rematch");
    }
}
