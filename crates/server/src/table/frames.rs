//! Frames: the connections ([`Connections`]) and what each is sent — the table's
//! description, the state each seat may see (built once per change and shared), and the
//! small messages between.

use super::*;
use tapete_host::story::Line;

/// One connection to the table.
pub(super) struct Conn {
    pub(super) player: Option<PlayerRef>,
    pub(super) out: OutSender,
    /// Dropped with the connection: the socket closes.
    pub(super) _close: oneshot::Sender<()>,
    /// Where it comes from (see [`crate::ratings::network`]), for a rated game's record.
    pub(super) addr: Option<String>,
    /// The narration this connection has: how many lines of which telling (see
    /// [`Connections::tell`]); `None` before its first state.
    pub(super) told: Option<(u64, usize)>,
    /// Whether the chat history it was last sent was a seated person's (`None`: none yet):
    /// sitting down or standing up changes the channels it may read.
    pub(super) chat_seated: Option<bool>,
}

/// The connections open to the table and what they are owed: their first state, a new
/// state for everybody, or only the table's description.
///
/// It keeps: a newcomer is a connection that is open; `empty_since` is set exactly
/// while nobody is connected.
pub(super) struct Connections {
    conns: HashMap<u64, Conn>,
    /// Connections that have not had their first state yet.
    newcomers: Vec<u64>,
    /// When the last connection closed (`None` while someone is connected).
    empty_since: Option<Instant>,
    /// The game or the seats changed: everybody gets a new state.
    state_owed: bool,
    /// Only who is connected or away changed: everybody gets the table's description.
    info_owed: bool,
    /// The narration last put in a frame, and its telling: a count that grows whenever a
    /// frame's narration is not the last one with lines added (a new hand drops the hand
    /// before the last), so that lines already sent are sent again only then.
    story: Vec<Line>,
    telling: u64,
    /// The hand count of the game's [`TableGame::story_mark`] when `story` was taken
    /// (`None` before the start): while it stays the same, the story only grows.
    hands: Option<u64>,
}

impl Connections {
    /// Nobody connected since `now`; everybody (nobody yet) owed a state.
    pub(super) fn new(now: Instant) -> Connections {
        Connections {
            conns: HashMap::new(),
            newcomers: Vec::new(),
            empty_since: Some(now),
            state_owed: true,
            info_owed: false,
            story: Vec::new(),
            telling: 0,
            hands: None,
        }
    }

    /// The narration of the last frame.
    pub(super) fn story(&self) -> &[Line] {
        &self.story
    }

    /// Takes the narration a frame will carry and returns its telling. `mark` is the
    /// game's [`TableGame::story_mark`] (`None`: not started, nothing to tell) and
    /// `lines_from(k)` its story from line `k` on. Within one hand count only the added
    /// lines are copied; otherwise the whole story is taken, and its telling moves on
    /// unless it merely grew.
    pub(super) fn tell(
        &mut self,
        mark: Option<(u64, usize)>,
        lines_from: impl Fn(usize) -> Vec<Line>,
    ) -> u64 {
        let Some((hands, len)) = mark else {
            if !self.story.is_empty() {
                self.telling += 1;
                self.story.clear();
            }
            self.hands = None;
            return self.telling;
        };
        let n = self.story.len();
        match self.hands {
            Some(h) if h == hands && len >= n => {
                if len > n {
                    self.story.extend(lines_from(n));
                }
            }
            _ => {
                let lines = lines_from(0);
                if lines.len() < n || lines[..n] != self.story[..] {
                    self.telling += 1;
                }
                self.story = lines;
            }
        }
        self.hands = Some(hands);
        self.telling
    }

    pub(super) fn get(&self, conn: u64) -> Option<&Conn> {
        self.conns.get(&conn)
    }

    pub(super) fn is_empty(&self) -> bool {
        self.conns.is_empty()
    }

    /// Records which chat history connection `conn` was sent (a seated person's or not).
    pub(super) fn set_chat_seated(&mut self, conn: u64, seated: bool) {
        if let Some(c) = self.conns.get_mut(&conn) {
            c.chat_seated = Some(seated);
        }
    }

    /// Since when nobody is connected.
    pub(super) fn empty_since(&self) -> Option<Instant> {
        self.empty_since
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = (u64, &Conn)> {
        self.conns.iter().map(|(id, c)| (*id, c))
    }

    /// The person on `conn` (`None`: a spectator, or no such connection).
    pub(super) fn player_of(&self, conn: u64) -> Option<PlayerRef> {
        self.conns.get(&conn).and_then(|c| c.player.clone())
    }

    /// How many connections `player` has open.
    pub(super) fn count_of(&self, player: i64) -> usize {
        self.conns
            .values()
            .filter(|c| c.player.as_ref().is_some_and(|p| p.id == player))
            .count()
    }

    pub(super) fn is_connected(&self, player: i64) -> bool {
        self.count_of(player) > 0
    }

    /// A connection opens; it is owed its first state.
    pub(super) fn add(&mut self, id: u64, conn: Conn) {
        self.conns.insert(id, conn);
        self.newcomers.push(id);
        self.empty_since = None;
    }

    /// A connection closes (or is closed), nobody connected from `now` if it was the last.
    pub(super) fn remove(&mut self, id: u64, now: Instant) -> Option<Conn> {
        let c = self.conns.remove(&id)?;
        self.newcomers.retain(|n| *n != id);
        if self.conns.is_empty() {
            self.empty_since = Some(now);
        }
        Some(c)
    }

    /// `player` is now called `nickname` on their connections.
    pub(super) fn rename(&mut self, player: i64, nickname: &str) {
        for p in self.conns.values_mut().filter_map(|c| c.player.as_mut()) {
            if p.id == player {
                p.nickname = nickname.to_string();
            }
        }
    }

    /// `id` has been sent the narration of the last frame, of `telling`.
    pub(super) fn told(&mut self, id: u64, telling: u64) {
        let n = self.story.len();
        if let Some(c) = self.conns.get_mut(&id) {
            c.told = Some((telling, n));
        }
    }

    /// Everybody is owed a new state.
    pub(super) fn owe_state(&mut self) {
        self.state_owed = true;
    }

    /// Everybody is owed the table's description.
    pub(super) fn owe_info(&mut self) {
        self.info_owed = true;
    }

    /// What is owed, taken: (a state for everybody, the description, the newcomers).
    pub(super) fn take_owed(&mut self) -> (bool, bool, Vec<u64>) {
        let owed = (
            self.state_owed,
            self.info_owed,
            std::mem::take(&mut self.newcomers),
        );
        self.state_owed = false;
        self.info_owed = false;
        owed
    }
}

impl Actor {
    pub(super) fn send_text(&mut self, conn: u64, msg: Arc<str>) {
        let refused = match self.conns.get(conn) {
            Some(c) => c.out.try_send(msg).err(),
            None => None,
        };
        if let Some(why) = refused {
            if why == crate::net::outbox::Refused::Full {
                self.env.gauges.closed_slow();
            }
            // A client that cannot keep up (its queue is full of messages or of bytes) or
            // is gone is closed; it reconnects and gets the whole state again.
            self.disconnect(conn);
        }
    }

    pub(super) fn send(&mut self, conn: u64, msg: ServerMsg) {
        self.send_text(conn, msg.text().into());
    }

    pub(super) fn error(&mut self, conn: u64, r: Refusal, id: Option<u64>) {
        let mut m = ErrorMsg::from(r);
        m.id = id;
        self.send(conn, ServerMsg::Error(m));
    }

    pub(super) fn table_info(&self) -> TableInfo {
        TableInfo {
            id: self.row.id.clone(),
            game: self.row.game.clone(),
            rules: self.row.rules.clone(),
            status: self.row.status,
            created: self.row.created,
            creator: self.row.creator,
            bot: self.row.bot.clone(),
            pace_ms: self.row.pace_ms,
            away_s: self.row.away_s,
            hold_s: self.row.hold_s,
            turn_s: self.row.turn_s,
            actions: self.n,
            seats: self
                .seating
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
            rated: self.row.rated,
            fairness: self.fairness(),
            private: self.private.info(),
        }
    }

    pub(super) fn publish_info(&mut self) {
        let info = self.table_info();
        match self.info.write() {
            Ok(mut w) => *w = info,
            Err(p) => *p.into_inner() = info,
        }
        self.changes.fetch_add(1, Ordering::Release);
    }

    /// What every connection's state shares, made once per change: the table's
    /// description, the narration (public: the same for everybody), the hold and the
    /// outcome; and each seat's part (view and legal actions), made once and shared by that
    /// seat's connections.
    pub(super) fn frame(&mut self) -> Frame {
        let now = self.now();
        let hold = match self.pacing.hold_left(now) {
            Some((left, waiting)) => json!({
                "ms": left.as_millis() as u64,
                "waiting": waiting,
            })
            .to_string(),
            None => "null".into(),
        };
        let clock: Vec<Value> = self
            .pacing
            .clocks_left(now)
            .into_iter()
            .map(|(seat, left)| json!({"seat": seat, "ms": left.as_millis() as u64}))
            .collect();
        // Before the start the game is only a placeholder (the deal's seed is chosen at the
        // start): nothing has happened to tell.
        let mark = (self.row.status != TableStatus::Waiting).then(|| self.game.story_mark(None));
        let telling = self
            .conns
            .tell(mark, |from| self.game.lines_from(None, from));
        Frame {
            clock: json!(clock).to_string(),
            info: serde_json::to_string(&self.table_info()).unwrap_or_else(|_| "null".into()),
            telling,
            lines: None,
            more: HashMap::new(),
            hold,
            outcome: serde_json::to_string(&self.game.outcome()).unwrap_or_else(|_| "null".into()),
            parts: HashMap::new(),
        }
    }

    pub(super) fn state_text(&self, c: &Conn, frame: &mut Frame) -> String {
        self.state_text_for(c.player.as_ref(), c.told, frame)
    }

    /// The state `player` is shown (`None`: an anonymous spectator), for a connection that
    /// has the narration `told` (`None`: none of it).
    pub(super) fn state_text_for(
        &self,
        player: Option<&PlayerRef>,
        told: Option<(u64, usize)>,
        frame: &mut Frame,
    ) -> String {
        let seat = player.and_then(|p| self.seat_of(p.id));
        // Before the start nobody is shown a seat's view: there are no cards yet.
        let view_seat = if self.row.status == TableStatus::Waiting {
            None
        } else {
            seat
        };
        let part = frame.parts.entry(view_seat).or_insert_with(|| {
            let legal = match (view_seat, self.row.status) {
                (Some(s), TableStatus::Playing) => self.game.legal(s),
                _ => Vec::new(),
            };
            format!(
                r#""view":{},"legal":{}"#,
                self.game.view_text(view_seat),
                json!(legal),
            )
        });
        let story = self.conns.story();
        let lines = match told {
            // Only what a page keeps: a connection far behind gets the latest lines whole.
            Some((telling, told))
                if telling == frame.telling
                    && told <= story.len()
                    && story.len() - told <= MAX_LINES =>
            {
                frame
                    .more
                    .entry(told)
                    .or_insert_with(|| format!(r#""more":{}"#, wire_lines(&story[told..])))
                    .clone()
            }
            _ => frame
                .lines
                .get_or_insert_with(|| format!(r#""lines":{}"#, recent_lines(story)))
                .clone(),
        };
        let pending = player.and_then(|p| self.seating.asked(p.id));
        let you = json!({
            "player": player.map(|p| p.id),
            "seat": seat,
            "pending_seat": pending,
        })
        .to_string();
        ServerMsg::State(StateMsg {
            table: &frame.info,
            you: &you,
            n: self.n,
            part,
            lines: &lines,
            hold: &frame.hold,
            clock: &frame.clock,
            outcome: &frame.outcome,
        })
        .text()
    }

    /// Sends every connection the state it may see (the spectators of a tournament's
    /// match, the state of a while ago: see `watch.rs`).
    pub(super) fn broadcast(&mut self) {
        let mut frame = self.frame();
        let delays = self.delays_watchers();
        let msgs: Vec<(u64, Arc<str>)> = self
            .conns
            .iter()
            .filter(|(_, c)| !(delays && self.watches(c)))
            .map(|(id, c)| (id, self.state_text(c, &mut frame).into()))
            .collect();
        for (id, m) in msgs {
            self.conns.told(id, frame.telling);
            self.send_text(id, m);
        }
        if self.private.in_tournament() {
            self.delay_for_watchers(&mut frame);
        }
    }
}

/// The parts of a state every connection shares; see [`Actor::frame`].
pub(super) struct Frame {
    pub(super) info: String,
    /// The narration's telling (see [`Connections::tell`]).
    pub(super) telling: u64,
    /// `"lines":[…]`, the latest lines, for a connection that has none of this telling.
    pub(super) lines: Option<String>,
    /// `"more":[…]`, the lines after the first N, for connections that have N.
    pub(super) more: HashMap<usize, String>,
    pub(super) hold: String,
    /// The turn clocks running: `[{"seat", "ms"}]`, the time left (not a moment, so the
    /// clients' clocks need not agree with the server's).
    pub(super) clock: String,
    pub(super) outcome: String,
    pub(super) parts: HashMap<Option<Seat>, String>,
}

/// The last [`MAX_LINES`] lines of a story, as pages receive them.
pub(super) fn recent_lines(lines: &[Line]) -> String {
    wire_lines(&lines[lines.len().saturating_sub(MAX_LINES)..])
}

/// Lines as pages receive them: a JSON array of `{key, args, kind}` (see [`Line::wire`]).
pub(super) fn wire_lines(lines: &[Line]) -> String {
    Value::Array(lines.iter().map(Line::wire).collect()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conn(player: Option<i64>) -> (Conn, crate::net::outbox::OutReceiver, oneshot::Receiver<()>) {
        let (out, inbox) = crate::net::outbox::outbox(4, 1024);
        let (close, closed) = oneshot::channel();
        let player = player.map(|id| PlayerRef {
            id,
            nickname: format!("p{id}"),
        });
        (
            Conn {
                player,
                out,
                _close: close,
                addr: None,
                told: None,
                chat_seated: None,
            },
            inbox,
            closed,
        )
    }

    #[test]
    fn connections_say_who_is_connected_and_since_when_nobody_is() {
        let start = Instant::now();
        let mut c = Connections::new(start);
        assert_eq!(c.empty_since(), Some(start));
        let (a, _ia, _ca) = conn(Some(7));
        let (b, _ib, _cb) = conn(Some(7));
        let (w, _iw, mut closed) = conn(None);
        c.add(1, a);
        c.add(2, b);
        c.add(3, w);
        assert_eq!(c.empty_since(), None);
        assert_eq!(c.count_of(7), 2);
        assert_eq!(c.player_of(3), None);
        assert_eq!(c.player_of(1).map(|p| p.id), Some(7));
        // A watcher that leaves before its first state is owed nothing.
        assert!(c.remove(3, start).is_some());
        assert!(
            matches!(closed.try_recv(), Err(oneshot::error::TryRecvError::Closed)),
            "its socket is told to close"
        );
        let (state, info, newcomers) = c.take_owed();
        assert!(state && !info);
        assert_eq!(newcomers, [1, 2]);
        assert_eq!(c.take_owed(), (false, false, vec![]));
        let later = start + Duration::from_secs(5);
        c.remove(1, later);
        assert!(c.is_connected(7));
        assert_eq!(c.empty_since(), None);
        c.remove(2, later);
        assert!(!c.is_connected(7));
        assert_eq!(c.empty_since(), Some(later));
        assert!(c.remove(2, later).is_none());
        c.owe_info();
        assert_eq!(c.take_owed(), (false, true, vec![]));
    }
}
