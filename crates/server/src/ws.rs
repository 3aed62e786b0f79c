//! One WebSocket per table connection: decodes and rate-limits what the browser sends,
//! hands it to the table's task, and writes back what the task sends.

use crate::http::player_for_token;
use crate::msg;
use crate::table::{Cmd, PlayerRef, TableHandle};
use crate::Hub;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::mpsc;

/// Messages per second a connection may send on average.
pub const RATE: f64 = 20.0;
/// Messages a connection may send at once.
pub const BURST: f64 = 40.0;
/// Refused messages after which a flooding connection is closed.
const MAX_REFUSED: u32 = 200;
/// Frames beyond this are not even read (the decoder refuses anything over
/// [`msg::MAX_MESSAGE`] with an error; this only bounds memory).
const MAX_FRAME: usize = 64 * 1024;
/// Messages queued for a client before it counts as too slow and is dropped.
const OUT_QUEUE: usize = 256;

/// A token bucket: `RATE` per second, up to `BURST` at once.
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    fn new() -> Bucket {
        Bucket {
            tokens: BURST,
            at: Instant::now(),
        }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.at).as_secs_f64() * RATE).min(BURST);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// `GET /ws/{table}?token=…`: opens a connection to a table (a spectator without a token).
pub async fn upgrade(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
    ws: WebSocketUpgrade,
) -> Response {
    let player = match q.get("token") {
        Some(t) => match player_for_token(&hub, t).await {
            Ok(p) => p,
            Err(e) => return e.into_response(),
        },
        None => None,
    };
    let handle = match hub.table_or_load(&id).await {
        Ok(Some(h)) => h,
        Ok(None) => {
            return (
                StatusCode::NOT_FOUND,
                Json(json!({"error": format!("no table `{id}`")})),
            )
                .into_response()
        }
        Err(e) => {
            return (
                StatusCode::INTERNAL_SERVER_ERROR,
                Json(json!({ "error": e })),
            )
                .into_response()
        }
    };
    let conn = hub.conn_id();
    ws.max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| run(socket, handle, conn, player))
}

fn error(message: impl Into<String>) -> String {
    json!({"type": "error", "message": message.into()}).to_string()
}

async fn run(socket: WebSocket, table: TableHandle, conn: u64, player: Option<PlayerRef>) {
    let (mut sink, mut stream) = socket.split();
    let (out, mut outbox) = mpsc::channel::<String>(OUT_QUEUE);
    if table
        .tx
        .send(Cmd::Connect {
            conn,
            player,
            out: out.clone(),
        })
        .is_err()
    {
        return;
    }
    let writer = tokio::spawn(async move {
        while let Some(m) = outbox.recv().await {
            if sink.send(Message::Text(m.into())).await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });
    let mut bucket = Bucket::new();
    let mut refused = 0u32;
    while let Some(Ok(frame)) = stream.next().await {
        let text = match frame {
            Message::Text(t) => t,
            Message::Binary(_) => {
                let _ = out.try_send(error("binary messages are not accepted: send JSON text"));
                continue;
            }
            Message::Close(_) => break,
            _ => continue,
        };
        if !bucket.take() {
            refused += 1;
            if refused > MAX_REFUSED {
                break;
            }
            let _ = out.try_send(error(format!(
                "too many messages: at most {RATE} per second; this one was ignored"
            )));
            continue;
        }
        match msg::decode(text.as_str()) {
            Ok(msg) => {
                if table.tx.send(Cmd::Client { conn, msg }).is_err() {
                    break;
                }
            }
            Err(e) => {
                let _ = out.try_send(error(e));
            }
        }
    }
    let _ = table.tx.send(Cmd::Disconnect { conn });
    drop(out);
    let _ = tokio::time::timeout(std::time::Duration::from_secs(2), writer).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucket_allows_a_burst_then_the_rate() {
        let mut b = Bucket::new();
        let taken = (0..100).filter(|_| b.take()).count();
        assert_eq!(taken, BURST as usize);
        b.at -= std::time::Duration::from_millis(500);
        let again = (0..100).filter(|_| b.take()).count();
        assert!((9..=11).contains(&again), "{again}");
    }
}
