//! Cuadrillas over HTTP (see [`crate::cuadrillas`]): making one, reading one (its members
//! and their ratings, its tables, its league tables, its slot), joining by its link,
//! leaving or being removed, renaming and moving its slot, and one's own list.
//!
//! To anyone who is not a member and brings no link, or a wrong one, a cuadrilla does not
//! exist: the same 404 `cuadrilla_not_found` as an unknown id.

use super::api::*;
use super::private_tables::{invite_of, new_invite, viewer, InviteQuery};
use crate::code::Code;
use crate::cuadrillas::{
    check_name, league_game, CuadrillaRow, LocalSlot, PlayedTable, Slot, LEAGUE_GAMES,
    RECENT_TABLES,
};
use crate::hub::Hub;
use crate::table::access::same_secret;
use crate::table::PlayerRef;
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde::{Deserialize, Deserializer};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The answer to a cuadrilla the asker may not know of: the same as to none.
fn no_cuadrilla(id: &str) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        Code::CuadrillaNotFound,
        format!("no cuadrilla `{id}`"),
    )
}

/// The account making the call; a guest is refused (`account_only`).
async fn account(hub: &Hub, headers: &HeaderMap) -> Result<PlayerRef, ApiError> {
    let me = caller(hub, headers).await?;
    if !hub.db.is_account(me.id).await.map_err(ApiError::internal)? {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            Code::AccountOnly,
            "cuadrillas are for accounts: make an account or log in first",
        ));
    }
    Ok(me)
}

async fn stored(hub: &Hub, id: &str) -> Result<CuadrillaRow, ApiError> {
    hub.db
        .cuadrilla(id.to_string())
        .await
        .map_err(ApiError::internal)?
        .ok_or_else(|| no_cuadrilla(id))
}

async fn member(hub: &Hub, id: &str, player: i64) -> Result<bool, ApiError> {
    hub.db
        .is_member(id.to_string(), player)
        .await
        .map_err(ApiError::internal)
}

/// A cuadrilla its member asks about: else (not a member, or none) 404.
async fn as_member(hub: &Hub, id: &str, player: i64) -> Result<CuadrillaRow, ApiError> {
    let row = stored(hub, id).await?;
    if !member(hub, id, player).await? {
        return Err(no_cuadrilla(id));
    }
    Ok(row)
}

/// A slot as a page reads it: as chosen, and when it next begins.
fn slot_json(slot: Option<Slot>, now: i64) -> Value {
    match slot {
        Some(s) => {
            let l = s.local();
            json!({"day": l.day, "time": l.time, "offset_min": l.offset_min,
                   "next": s.next_start(now)})
        }
        None => Value::Null,
    }
}

fn bad_slot(e: String) -> ApiError {
    ApiError::bad(Code::CuadrillaSlot, e)
}

fn bad_name(e: String) -> ApiError {
    ApiError::bad(Code::CuadrillaName, e)
}

/// `POST /api/cuadrillas` `{"name", "slot"?: {"day", "time", "offset_min"}}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewCuadrilla {
    name: String,
    slot: Option<LocalSlot>,
}

/// `POST /api/cuadrillas`: a new cuadrilla, its maker its owner and first member; answers
/// its id and invitation secret.
pub(crate) async fn create(
    State(hub): State<Arc<Hub>>,
    headers: HeaderMap,
    body: Result<Json<NewCuadrilla>, JsonRejection>,
) -> ApiResult<Value> {
    let me = account(&hub, &headers).await?;
    let Json(req) = body?;
    let name = check_name(&req.name).map_err(bad_name)?;
    let slot = req
        .slot
        .as_ref()
        .map(Slot::from_local)
        .transpose()
        .map_err(bad_slot)?;
    let now = hub.clock().now();
    hub.cuadrillas.creates.check_at(me.id, now).map_err(|s| {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            Code::CuadrillaRateLimited,
            format!("you made too many cuadrillas lately: try again in {s} s"),
        )
        .retry_after(s)
    })?;
    let epoch = hub.clock().epoch();
    let row = CuadrillaRow {
        id: table_id(),
        name,
        owner: me.id,
        invite: new_invite(),
        created: epoch,
        slot,
        noticed: slot.map_or(0, |s| s.last_start(epoch)),
    };
    if !hub
        .db
        .create_cuadrilla(row.clone())
        .await
        .map_err(ApiError::internal)?
    {
        return Err(too_many());
    }
    let _ = hub.cuadrillas.creates.take_at(me.id, now);
    Ok(Json(json!({"id": row.id, "invite": row.invite})))
}

fn too_many() -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        Code::CuadrillaTooMany,
        format!(
            "you belong to {} cuadrillas, as many as one may: leave one first",
            crate::cuadrillas::MAX_PER_PERSON
        ),
    )
}

/// A table of the cuadrilla as a page reads it: who sat where (`null`: the bot).
fn table_json(t: &PlayedTable) -> Value {
    let seats: Vec<Value> = t
        .seats
        .iter()
        .map(|s| match s {
            Some((id, nickname)) => json!({"id": id, "nickname": nickname}),
            None => Value::Null,
        })
        .collect();
    let mut v = json!({"id": t.id, "game": t.game, "status": t.status, "created": t.created,
                       "finished": t.finished, "seats": seats});
    if let Some(o) = &t.outcome {
        v["winners"] = o.get("winners").cloned().unwrap_or(Value::Null);
        v["scores"] = o.get("scores").cloned().unwrap_or(Value::Null);
    }
    v
}

/// A cuadrilla as `GET /api/cuadrillas/{id}` answers it: to a member, everything and its
/// link; to someone with its link, everything but its tables (which they may not open).
async fn document(hub: &Hub, row: &CuadrillaRow, member: bool) -> Result<Value, ApiError> {
    let members = hub
        .db
        .cuadrilla_members(row.id.clone())
        .await
        .map_err(ApiError::internal)?;
    let ratings = hub
        .db
        .member_ratings(row.id.clone())
        .await
        .map_err(ApiError::internal)?;
    let tables = hub
        .db
        .cuadrilla_tables(row.id.clone(), LEAGUE_GAMES)
        .await
        .map_err(ApiError::internal)?;
    let mut names: BTreeMap<i64, String> = BTreeMap::new();
    for m in &members {
        names.insert(m.id, m.nickname.clone());
    }
    let mut games = Vec::new();
    for t in tables.iter().filter(|t| t.status == "finished") {
        let (Some(kind), Some(outcome)) = (hub.kind(&t.game), &t.outcome) else {
            continue;
        };
        let seats: Vec<Option<i64>> = t.seats.iter().map(|s| s.as_ref().map(|p| p.0)).collect();
        for (id, nickname) in t.seats.iter().flatten() {
            names.entry(*id).or_insert_with(|| nickname.clone());
        }
        if let Some(g) = league_game(
            &t.game,
            kind.partners(),
            kind.scores_against(),
            &seats,
            outcome,
        ) {
            games.push(g);
        }
    }
    let league = tapete_tournament::league::tables(&games);
    let members_json: Vec<Value> = members
        .iter()
        .map(|m| {
            let rated: Vec<&crate::cuadrillas::MemberRating> =
                ratings.iter().filter(|r| r.player == m.id).collect();
            json!({"id": m.id, "nickname": m.nickname, "joined": m.joined,
                   "owner": m.id == row.owner, "ratings": rated})
        })
        .collect();
    let (open, recent): (Vec<&PlayedTable>, Vec<&PlayedTable>) =
        tables.iter().partition(|t| t.status != "finished");
    let now = hub.clock().epoch();
    let mut doc = json!({
        "id": row.id,
        "name": row.name,
        "owner": row.owner,
        "created": row.created,
        "member": member,
        "members": members_json,
        "slot": slot_json(row.slot, now),
        "league": league,
        "games": games.len(),
        "names": names.iter().map(|(id, n)| (id.to_string(), json!(n))).collect::<Map<_, _>>(),
        "open": [],
        "recent": [],
    });
    if member {
        let tournaments = hub
            .db
            .cuadrilla_tournaments(row.id.clone())
            .await
            .map_err(ApiError::internal)?;
        doc["tournaments"] = Value::Array(
            tournaments
                .iter()
                .map(|t| {
                    json!({"id": t.id, "name": t.name, "game": t.game, "status": t.status,
                           "start": t.start_at,
                           "format": crate::tournaments::format_name(&t.settings.format)})
                })
                .collect(),
        );
        doc["invite"] = json!(row.invite);
        doc["open"] = Value::Array(open.into_iter().map(table_json).collect());
        doc["recent"] = Value::Array(
            recent
                .into_iter()
                .take(RECENT_TABLES)
                .map(table_json)
                .collect(),
        );
    }
    Ok(doc)
}

/// `GET /api/cuadrillas/{id}[?invite=S]`: to its members, and to whoever brings its link.
pub(crate) async fn one(
    State(hub): State<Arc<Hub>>,
    path: Result<Path<String>, PathRejection>,
    query: Result<Query<InviteQuery>, QueryRejection>,
    headers: HeaderMap,
) -> ApiResult<Value> {
    let Path(id) = path?;
    let invite = invite_of(query);
    let row = stored(&hub, &id).await?;
    let me = viewer(&hub, &headers).await;
    let is_member = match &me {
        Some(p) => member(&hub, &id, p.id).await?,
        None => false,
    };
    if !is_member && !invite.is_some_and(|i| same_secret(&i, &row.invite)) {
        return Err(no_cuadrilla(&id));
    }
    Ok(Json(document(&hub, &row, is_member).await?))
}

/// `{"invite"}`: the link's secret, to join.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Join {
    invite: String,
}

/// `POST /api/cuadrillas/{id}/members {"invite"}`: the caller joins by the link.
pub(crate) async fn join(
    State(hub): State<Arc<Hub>>,
    path: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    body: Result<Json<Join>, JsonRejection>,
) -> ApiResult<Value> {
    let Path(id) = path?;
    let me = account(&hub, &headers).await?;
    let Json(req) = body?;
    let row = stored(&hub, &id).await?;
    if !same_secret(&req.invite, &row.invite) {
        return Err(no_cuadrilla(&id));
    }
    match hub
        .db
        .join_cuadrilla(id.clone(), me.id, hub.clock().epoch())
        .await
        .map_err(ApiError::internal)?
    {
        crate::cuadrillas::Joined::Joined | crate::cuadrillas::Joined::Already => {}
        crate::cuadrillas::Joined::TooMany => return Err(too_many()),
        crate::cuadrillas::Joined::Full => {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                Code::CuadrillaFull,
                format!(
                    "the cuadrilla has {} members, as many as it takes",
                    crate::cuadrillas::MAX_MEMBERS
                ),
            ))
        }
    }
    let row = stored(&hub, &id).await?;
    Ok(Json(document(&hub, &row, true).await?))
}

/// `DELETE /api/cuadrillas/{id}/members/{player}`: a member leaves (their own id), or the
/// owner removes a member, which gives the cuadrilla a new link.
pub(crate) async fn remove(
    State(hub): State<Arc<Hub>>,
    path: Result<Path<(String, i64)>, PathRejection>,
    headers: HeaderMap,
) -> ApiResult<Value> {
    let Path((id, player)) = path?;
    let me = caller(&hub, &headers).await?;
    let row = as_member(&hub, &id, me.id).await?;
    if player != me.id && row.owner != me.id {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            Code::CuadrillaOwnerOnly,
            "only the cuadrilla's owner removes its members (anyone may leave)",
        ));
    }
    let new_link = (player != me.id).then(new_invite);
    if !hub
        .db
        .leave_cuadrilla(id.clone(), player, new_link)
        .await
        .map_err(ApiError::internal)?
    {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            Code::CuadrillaNotMember,
            format!("player {player} is not a member of this cuadrilla"),
        ));
    }
    Ok(Json(json!({"cuadrilla": id, "removed": player})))
}

/// A field given as `null` (`Some(None)`) apart from one left out (`None`).
fn given<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// `PATCH /api/cuadrillas/{id}` `{"name"?, "slot"?}` (`"slot": null`: no slot).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Change {
    name: Option<String>,
    #[serde(default, deserialize_with = "given")]
    slot: Option<Option<LocalSlot>>,
}

/// `PATCH /api/cuadrillas/{id}`: the owner renames it or moves its slot.
pub(crate) async fn change(
    State(hub): State<Arc<Hub>>,
    path: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
    body: Result<Json<Change>, JsonRejection>,
) -> ApiResult<Value> {
    let Path(id) = path?;
    let me = caller(&hub, &headers).await?;
    let row = as_member(&hub, &id, me.id).await?;
    let Json(req) = body?;
    if row.owner != me.id {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            Code::CuadrillaOwnerOnly,
            "only the cuadrilla's owner renames it or moves its slot",
        ));
    }
    let name = req
        .name
        .as_deref()
        .map(check_name)
        .transpose()
        .map_err(bad_name)?;
    let slot = match req.slot {
        None => None,
        Some(None) => Some(None),
        Some(Some(l)) => Some(Some(Slot::from_local(&l).map_err(bad_slot)?)),
    };
    let now = hub.clock().epoch();
    let noticed = slot.flatten().map_or(0, |s| s.last_start(now));
    hub.db
        .update_cuadrilla(id.clone(), name, slot, noticed)
        .await
        .map_err(ApiError::internal)?;
    let row = stored(&hub, &id).await?;
    Ok(Json(document(&hub, &row, true).await?))
}

/// `GET /api/me/cuadrillas`: the caller's cuadrillas, by name.
pub(crate) async fn mine(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> ApiResult<Value> {
    let me = caller(&hub, &headers).await?;
    let rows = hub
        .db
        .cuadrillas_of(me.id)
        .await
        .map_err(ApiError::internal)?;
    let now = hub.clock().epoch();
    let list: Vec<Value> = rows
        .iter()
        .map(|(row, members)| {
            json!({"id": row.id, "name": row.name, "owner": row.owner == me.id,
                   "members": members, "slot": slot_json(row.slot, now)})
        })
        .collect();
    Ok(Json(Value::Array(list)))
}

/// The cuadrilla a new table is made for (`"cuadrilla"` of `POST /api/tables`): its
/// maker must be a member (else, as for anyone, it does not exist).
pub(crate) async fn for_table(
    hub: &Hub,
    cuadrilla: Option<&str>,
    player: i64,
) -> Result<Option<String>, ApiError> {
    let Some(id) = cuadrilla else {
        return Ok(None);
    };
    as_member(hub, id, player).await?;
    Ok(Some(id.to_string()))
}
