//! One WebSocket per table connection: decodes and rate-limits what the browser sends,
//! hands it to the table's task, and writes back what the task sends.

use super::api::session_for_token;
use crate::accounts::token_hash;
use crate::code::Code;
use crate::msg::{self, ErrorMsg, ServerMsg};
use crate::net::limit::Bucket;
use crate::net::outbox::{outbox_counted, Gauges, OutReceiver};
use crate::table::{Cmd, PlayerRef, TableHandle};
use crate::Hub;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::oneshot;
use tokio::time::Instant;
use tracing::Instrument;

/// Messages per second a connection may send on average.
pub const RATE: f64 = 20.0;
/// Messages a connection may send at once.
pub const BURST: f64 = 40.0;
/// Refusal messages after which a flooding connection is closed.
pub(crate) const MAX_REFUSED: u32 = 200;
/// Frames beyond this are not even read (the decoder refuses anything over
/// [`msg::MAX_MESSAGE`] with an error; this only bounds memory).
pub(crate) const MAX_FRAME: usize = 64 * 1024;
/// What one read of a WebSocket takes at most; a larger frame takes several reads.
pub(crate) const READ_BUFFER: usize = 8 * 1024;
/// A connection the server has sent nothing for this long is sent a heartbeat
/// ([`BEAT`]), so that a page hears from a live server at least this often and can call a
/// link dead after two of them are missing (a frozen or unreachable server).
pub const BEAT_EVERY: Duration = Duration::from_secs(5);
/// The heartbeat: a message the pages read (unlike a WebSocket ping, which a browser
/// answers without telling the page).
pub const BEAT: &str = r#"{"type":"beat"}"#;

#[cfg(test)]
#[test]
fn the_beat_is_the_protocol_s() {
    assert_eq!(BEAT, ServerMsg::Beat.text());
}
/// Messages queued for a client before it counts as too slow and is closed: room for the
/// answers to a whole burst, and a few states. Their bytes are bounded too
/// ([`crate::Limits::queued_bytes_per_conn`]).
pub(crate) const OUT_QUEUE: usize = 64;

/// `GET /ws/{table}?token=…`: opens a connection to a table (a spectator without a token).
pub async fn upgrade(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    path: Result<Path<String>, PathRejection>,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
    ws: WebSocketUpgrade,
) -> Response {
    let (Ok(Path(id)), Ok(Query(q))) = (path, query) else {
        return (
            StatusCode::BAD_REQUEST,
            Json(json!({"error": "write the address as /ws/TABLE?token=TOKEN", "code": Code::BadRequest})),
        )
            .into_response();
    };
    // A token that is no one's (logged out, ended) is refused, not taken for a spectator:
    // the page must know it is logged out.
    let session = match q.get("token") {
        Some(t) => match session_for_token(&hub, t).await {
            Ok(Some(s)) => Some((s, token_hash(t.trim()))),
            Ok(None) => {
                return (
                    StatusCode::UNAUTHORIZED,
                    Json(json!({"error": "unknown token (it may have been logged out): log in or pick a nickname again", "code": Code::UnknownToken})),
                )
                    .into_response()
            }
            Err(e) => return e.into_response(),
        },
        None => None,
    };
    let player = session.as_ref().map(|(s, _)| s.player.clone());
    let ended = session.map(|(s, hash)| Ended {
        session: s.id,
        token_hash: hash,
        revoked: hub.sessions.revoked(),
        db: hub.db.clone(),
    });
    // A private table is, to whoever may not see it, a table that does not exist.
    let invite = q.get("invite").map(String::as_str);
    let viewer = player.as_ref().map(|p| p.id);
    let handle = match hub.table_or_load(&id).await {
        Ok(Some(h)) => {
            match crate::table::access::may_see(&hub.db, &h.info(), viewer, invite).await {
                Ok(true) => h,
                Ok(false) => return no_table(&id),
                Err(e) => return cannot_open(&id, e),
            }
        }
        Ok(None) => return no_table(&id),
        Err(e @ crate::Unloaded::Elsewhere(_)) => {
            return super::unloaded(&hub, &id, e, viewer, invite)
                .await
                .into_response()
        }
        Err(e) => return cannot_open(&id, e),
    };
    // The people this person mutes in chat, for the table to leave out of what it sends.
    let muted = match &player {
        Some(p) => match hub.db.mutes_of(p.id).await {
            Ok(m) => Some((p.id, m)),
            Err(e) => {
                tracing::warn!(player = p.id, "mutes not read, none kept: {e}");
                Some((p.id, Default::default()))
            }
        },
        None => None,
    };
    let conn = hub.conn_id();
    let idle = hub.limits.ws_idle;
    let (max_queued, gauges) = (hub.limits.queued_bytes_per_conn, hub.gauges.clone());
    ws.max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        // A person's messages are small: the library's 128 KiB default read buffer is
        // zeroed on every read and held per connection.
        .read_buffer_size(READ_BUFFER)
        .on_upgrade(move |socket| {
            // The connection's lines say which it is, at which table, whose.
            let span = tracing::info_span!(
                parent: None,
                "ws",
                conn,
                table = %id,
                player = player.as_ref().map(|p| p.id)
            );
            async move {
                // Online while connected (friends see it).
                let _here = player.as_ref().map(|p| hub.social.presence.enter(p.id));
                let _mutes = muted.map(|(player, muted)| hub.env.chat_mutes.enter(player, muted));
                let addr = Some(crate::ratings::network(peer.ip()));
                tracing::debug!("connected");
                run(
                    socket, handle, conn, player, addr, ended, idle, max_queued, gauges,
                )
                .await;
                tracing::debug!("closed");
            }
            .instrument(span)
        })
}

/// Tells a connection that its session was ended (logged out, revoked, or ended by a new
/// password), so it closes.
pub(crate) struct Ended {
    session: i64,
    token_hash: String,
    revoked: tokio::sync::broadcast::Receiver<i64>,
    db: crate::store::Db,
}

impl Ended {
    /// Resolves once this session is ended.
    async fn wait(&mut self) {
        loop {
            match self.revoked.recv().await {
                Ok(id) if id == self.session => return,
                Ok(_) => {}
                // Some were missed: whether this session is still there, the database says.
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                    if let Ok(None) = self.db.session_by_token(self.token_hash.clone()).await {
                        return;
                    }
                }
                Err(tokio::sync::broadcast::error::RecvError::Closed) => {
                    std::future::pending::<()>().await
                }
            }
        }
    }
}

/// Waits for the session's end, or forever without a session (a spectator).
pub(crate) async fn session_end(ended: &mut Option<Ended>) {
    match ended {
        Some(e) => e.wait().await,
        None => std::future::pending().await,
    }
}

pub(crate) fn error(code: Code, message: impl Into<String>) -> Arc<str> {
    let message = message.into();
    ServerMsg::Error(ErrorMsg::new(code, message)).text().into()
}

#[allow(clippy::too_many_arguments)]
pub(crate) async fn run(
    socket: WebSocket,
    table: TableHandle,
    conn: u64,
    player: Option<PlayerRef>,
    addr: Option<String>,
    mut ended: Option<Ended>,
    idle: Duration,
    max_queued: usize,
    gauges: Arc<Gauges>,
) {
    let (sink, mut stream) = socket.split();
    let (out, outbox) = outbox_counted(OUT_QUEUE, max_queued, gauges);
    let (close, mut closed) = oneshot::channel::<()>();
    if table
        .tx
        .send(Cmd::Connect {
            conn,
            player,
            addr,
            out: out.clone(),
            close,
        })
        .is_err()
    {
        return;
    }
    let ping_every = idle / 3;
    let mut writer = tokio::spawn(write(sink, outbox, ping_every).in_current_span());
    let mut bucket = Bucket::with(RATE, BURST);
    let mut refused = 0u32;
    let mut told: Option<Instant> = None;
    let mut writer_done = false;
    loop {
        let frame = tokio::select! {
            // The table dropped this connection (too slow, or refused it): close.
            _ = &mut closed => break,
            // The session was ended: say so and close.
            _ = session_end(&mut ended) => {
                let _ = out.try_send(error(Code::SessionEnded, "this session was ended (logged out): log in again"));
                break;
            }
            // The writer could not write (the client stopped reading): close.
            _ = &mut writer, if !writer_done => {
                writer_done = true;
                break;
            }
            f = tokio::time::timeout(idle, stream.next()) => match f {
                Ok(Some(Ok(frame))) => frame,
                // Silent past the limit (not even a pong), closed, or broken.
                _ => break,
            },
        };
        let text = match frame {
            Message::Close(_) => break,
            Message::Ping(_) | Message::Pong(_) => continue,
            other => other,
        };
        // Every message counts against the rate, whatever it holds.
        if !bucket.take() {
            refused += 1;
            if refused > MAX_REFUSED {
                break;
            }
            // Said at most once a second: the answers to a flood must not flood back.
            if told.is_none_or(|t| t.elapsed() >= Duration::from_secs(1)) {
                told = Some(Instant::now());
                let _ = out.try_send(error(
                    Code::RateLimited,
                    format!(
                        "too many messages: at most {RATE} per second; the ones over are ignored"
                    ),
                ));
            }
            continue;
        }
        let text = match text {
            Message::Text(t) => t,
            _ => {
                let _ = out.try_send(error(
                    Code::BadMessage,
                    "binary messages are not accepted: send JSON text",
                ));
                continue;
            }
        };
        match msg::decode(text.as_str()) {
            Ok(msg) => {
                if table.tx.send(Cmd::Client { conn, msg }).is_err() {
                    break;
                }
            }
            Err(e) => {
                let _ = out.try_send(error(Code::BadMessage, e));
            }
        }
    }
    let _ = table.tx.send(Cmd::Disconnect { conn });
    drop(out);
    if !writer_done
        && tokio::time::timeout(Duration::from_secs(2), &mut writer)
            .await
            .is_err()
    {
        writer.abort();
    }
}

/// The connection's writer: sends what is queued (each message counted in the queue's
/// bytes until it is written), pings the client (whose pong shows the server a live
/// link), and sends a heartbeat after [`BEAT_EVERY`] without a message (which shows the
/// page a live server).
pub(crate) async fn write(
    mut sink: futures_util::stream::SplitSink<WebSocket, Message>,
    mut outbox: OutReceiver,
    ping_every: Duration,
) {
    let mut ping = tokio::time::interval_at(Instant::now() + ping_every, ping_every);
    let beat = tokio::time::sleep(BEAT_EVERY);
    tokio::pin!(beat);
    loop {
        let (msg, queued) = tokio::select! {
            m = outbox.recv() => match m {
                Some(m) => (Message::Text(m.as_ref().into()), Some(m)),
                None => break,
            },
            _ = ping.tick() => (Message::Ping(Default::default()), None),
            _ = &mut beat => (Message::Text(BEAT.into()), None),
        };
        if matches!(msg, Message::Text(_)) {
            beat.as_mut().reset(Instant::now() + BEAT_EVERY);
        }
        let sent = sink.send(msg).await;
        if let Some(m) = queued {
            outbox.written(&m);
        }
        if sent.is_err() {
            break;
        }
    }
    let _ = sink.close().await;
}

/// The answer for a table that does not exist (or that this person may not see).
pub(crate) fn no_table(id: &str) -> Response {
    (
        StatusCode::NOT_FOUND,
        Json(json!({"error": format!("no table `{id}`"), "code": Code::TableNotFound})),
    )
        .into_response()
}

/// The answer for a table that could not be opened (the reason goes to the log).
pub(crate) fn cannot_open(id: &str, e: impl std::fmt::Display) -> Response {
    tracing::error!(table = %id, "the table could not be opened: {e}");
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        Json(json!({"error": "internal error: the table could not be opened", "code": Code::Internal})),
    )
        .into_response()
}
