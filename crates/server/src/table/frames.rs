//! Frames: what each connection is sent — the table's description, the state each seat
//! may see (built once per change and shared), and the small messages between.

use super::*;

impl Actor {
    pub(super) fn send_text(&mut self, conn: u64, msg: Arc<str>) {
        let refused = match self.conns.get(&conn) {
            Some(c) => c.out.try_send(msg).err(),
            None => None,
        };
        if let Some(why) = refused {
            if why == crate::outbox::Refused::Full {
                self.env.gauges.closed_slow();
            }
            // A client that cannot keep up (its queue is full of messages or of bytes) or
            // is gone is closed; it reconnects and gets the whole state again.
            if let Some(c) = self.conns.remove(&conn) {
                self.left(c);
            }
        }
    }

    pub(super) fn send(&mut self, conn: u64, msg: Value) {
        self.send_text(conn, msg.to_string().into());
    }

    pub(super) fn error(&mut self, conn: u64, message: impl Into<String>, id: Option<u64>) {
        let mut m = json!({"type": "error", "message": message.into()});
        if let Some(id) = id {
            m["id"] = json!(id);
        }
        self.send(conn, m);
    }

    pub(super) fn table_info(&self) -> TableInfo {
        TableInfo {
            id: self.row.id.clone(),
            game: self.row.game.clone(),
            rules: self.row.rules.clone(),
            status: self.row.status.clone(),
            created: self.row.created,
            creator: self.row.creator,
            bot: self.row.bot.clone(),
            pace_ms: self.row.pace_ms,
            away_s: self.row.away_s,
            hold_s: self.row.hold_s,
            turn_s: self.row.turn_s,
            actions: self.n,
            seats: self
                .shown_players()
                .into_iter()
                .enumerate()
                .map(|(seat, p)| SeatInfo {
                    seat,
                    player: p.clone(),
                    bot: p.is_none().then(|| self.row.bot.clone()),
                    connected: p.as_ref().is_some_and(|p| self.is_connected(p.id)),
                    away: self.is_away(seat),
                })
                .collect(),
            outcome: self.game.outcome(),
        }
    }

    pub(super) fn publish_info(&mut self) {
        let info = self.table_info();
        match self.info.write() {
            Ok(mut w) => *w = info,
            Err(p) => *p.into_inner() = info,
        }
    }

    /// What every connection's state shares, made once per change: the table's
    /// description, the narration (public: the same for everybody), the hold and the
    /// outcome; and each seat's part (view and legal actions), made once and shared by that
    /// seat's connections.
    pub(super) fn frame(&self) -> Frame {
        let hold = match &self.hold {
            Some(h) => json!({
                "ms": h.until.saturating_duration_since(Instant::now()).as_millis() as u64,
                "waiting": h.waiting,
            })
            .to_string(),
            None => "null".into(),
        };
        let now = Instant::now();
        let clock: Vec<Value> = self
            .clocks
            .iter()
            .map(|(seat, until)| {
                json!({"seat": seat, "ms": until.saturating_duration_since(now).as_millis() as u64})
            })
            .collect();
        Frame {
            clock: json!(clock).to_string(),
            info: serde_json::to_string(&self.table_info()).unwrap_or_else(|_| "null".into()),
            // Before the start the game is only a placeholder (the deal's seed is chosen
            // at the start): nothing has happened to tell.
            lines: if self.row.status == WAITING {
                "[]".into()
            } else {
                recent_lines(&self.game.lines(None))
            },
            hold,
            outcome: serde_json::to_string(&self.game.outcome()).unwrap_or_else(|_| "null".into()),
            parts: HashMap::new(),
        }
    }

    pub(super) fn state_text(&self, c: &Conn, frame: &mut Frame) -> String {
        let seat = c.player.as_ref().and_then(|p| self.seat_of(p.id));
        // Before the start nobody is shown a seat's view: there are no cards yet.
        let view_seat = if self.row.status == WAITING {
            None
        } else {
            seat
        };
        let part = frame.parts.entry(view_seat).or_insert_with(|| {
            let legal = match (view_seat, self.row.status.as_str()) {
                (Some(s), PLAYING) => self.game.legal(s),
                _ => Vec::new(),
            };
            format!(
                r#""view":{},"legal":{}"#,
                self.game.view_text(view_seat),
                json!(legal),
            )
        });
        let pending = c
            .player
            .as_ref()
            .and_then(|p| self.pending.get(&p.id))
            .map(|(_, s)| *s);
        let you = json!({
            "player": c.player.as_ref().map(|p| p.id),
            "seat": seat,
            "pending_seat": pending,
        });
        format!(
            r#"{{"type":"state","table":{},"you":{you},"n":{},{part},"lines":{},"hold":{},"clock":{},"outcome":{}}}"#,
            frame.info, self.n, frame.lines, frame.hold, frame.clock, frame.outcome
        )
    }

    /// Sends every connection the state it may see.
    pub(super) fn broadcast(&mut self) {
        let mut frame = self.frame();
        let msgs: Vec<(u64, Arc<str>)> = self
            .conns
            .iter()
            .map(|(id, c)| (*id, self.state_text(c, &mut frame).into()))
            .collect();
        for (id, m) in msgs {
            self.send_text(id, m);
        }
    }
}

/// The parts of a state every connection shares; see [`Actor::frame`].
pub(super) struct Frame {
    pub(super) info: String,
    pub(super) lines: String,
    pub(super) hold: String,
    /// The turn clocks running: `[{"seat", "ms"}]`, the time left (not a moment, so the
    /// clients' clocks need not agree with the server's).
    pub(super) clock: String,
    pub(super) outcome: String,
    pub(super) parts: HashMap<Option<Seat>, String>,
}

/// The last [`MAX_LINES`] lines of a story, as a JSON array.
pub(super) fn recent_lines(lines: &[String]) -> String {
    json!(lines[lines.len().saturating_sub(MAX_LINES)..]).to_string()
}
