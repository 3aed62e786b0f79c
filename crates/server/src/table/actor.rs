//! The table's task: its loop over commands, timers and the database's recoveries; the
//! game and its stored row; starting, playing, finishing and going idle.

use super::*;

/// A write of the table's that could not be saved: nothing changed, and the person may
/// try again (the database is unreachable, or another server holds the table now).
pub(super) fn not_saved(what: &str, e: crate::store::DbError) -> Refusal {
    Refusal::new(
        Code::NotSaved,
        format!("could not save {what} ({e}); nothing changed"),
    )
}

/// How long a finished table nobody is connected to keeps its task.
pub(super) const FINISHED_IDLE_END: Duration = Duration::from_secs(30);

/// The least pause between bot actions at a table where no person holds a seat.
pub(super) const ALL_BOTS_PACE: Duration = Duration::from_millis(1000);

/// Longest wait after a failed write before the bots try again.
pub(super) const MAX_BACKOFF: Duration = Duration::from_secs(60);

/// Connections one person may have open to one table.
pub(super) const MAX_CONNS_PER_PLAYER: usize = 4;

/// Lines of the story a state carries: the most recent ones, which the page shows. A hand
/// nobody ends (draws and discards for ever) must not make every state grow.
pub const MAX_LINES: usize = 200;

/// A table's task: the game and its stored row, composed with its parts — who sits where
/// and who is away ([`Seating`]), its timers ([`Pacing`]) and its connections
/// ([`Connections`]) — each with its own invariants; the actor keeps them in step with
/// the game and with storage.
pub(super) struct Actor {
    pub(super) env: TableEnv,
    pub(super) kind: Arc<dyn Kind>,
    pub(super) row: TableRow,
    pub(super) game: Box<dyn TableGame>,
    /// Actions applied so far.
    pub(super) n: u64,
    pub(super) seating: Seating,
    pub(super) private: PrivatePart,
    pub(super) pacing: Pacing,
    pub(super) conns: Connections,
    pub(super) talk: Talk,
    /// The spectators' states of a tournament's match, shown behind (see `watch.rs`).
    pub(super) watch: Delayed,
    /// The addresses of the players of a rated game already kept, (player, address).
    pub(super) addresses: HashSet<(i64, String)>,
    /// The people told it is their turn, for as long as that turn lasts.
    pub(super) turn_noticed: HashSet<i64>,
    pub(super) info: Arc<RwLock<TableInfo>>,
    /// Counts the writes of `info` (see [`TableHandle::changes`]).
    pub(super) changes: Arc<AtomicU64>,
    pub(super) me: mpsc::UnboundedSender<Cmd>,
    /// A write of an action failed since the database last answered: it may have been
    /// stored all the same (its commit's answer lost with the connection).
    pub(super) unsure: bool,
    /// What each person gave to the deal before the start (see `deal.rs`).
    pub(super) contributions: HashMap<i64, String>,
}

/// Starts the task of a table restored from storage (or just created).
///
/// `on_idle` is called when the task ends because nobody was connected for a while; the
/// table stays in storage and is started again if someone asks for it.
pub fn spawn(
    env: TableEnv,
    kind: Arc<dyn Kind>,
    stored: StoredTable,
    on_idle: Box<dyn FnOnce() + Send>,
) -> Result<TableHandle, String> {
    if stored.seats.len() != stored.row.seats {
        return Err(format!(
            "table {}: {} seats listed for a table of {}",
            stored.row.id,
            stored.seats.len(),
            stored.row.seats
        ));
    }
    // Replaying the log through `apply` also tells every audience its story again.
    let mut game = kind
        .new_game(&stored.row.rules, stored.row.seats, stored.row.seed)
        .map_err(|e| format!("table {}: {e}", stored.row.id))?;
    for (i, (seat, action)) in stored.actions.iter().enumerate() {
        game.apply(*seat, action).map_err(|e| {
            format!(
                "table {}: stored action {} ({action} by seat {seat}) does not replay: {e}",
                stored.row.id,
                i + 1
            )
        })?;
    }
    // A finished table whose log does not end its game was stopped at its time limit.
    if stored.row.status == TableStatus::Finished && game.outcome().is_none() {
        game.stop();
    }
    let (tx, rx) = mpsc::unbounded_channel();
    let seats: Vec<Option<PlayerRef>> = stored
        .seats
        .into_iter()
        .map(|s| s.map(|(id, nickname)| PlayerRef { id, nickname }))
        .collect();
    let start = env.clock.now();
    let pending = stored
        .pending
        .into_iter()
        .map(|(id, nickname, seat)| (PlayerRef { id, nickname }, seat))
        .collect();
    // Who held which seat this hand is stored with the table, so a restart or an unload
    // forgets nobody's look at a hand.
    let seating = Seating::restore(seats, pending, stored.hand_seats, start);
    let private = PrivatePart::restore(stored.private, stored.row.seats, start, env.clock.epoch());
    let mut actor = Actor {
        env,
        kind,
        row: stored.row,
        game,
        n: stored.actions.len() as u64,
        seating,
        private,
        pacing: Pacing::new(start),
        conns: Connections::new(start),
        talk: Talk::default(),
        watch: Delayed::default(),
        addresses: HashSet::new(),
        turn_noticed: HashSet::new(),
        info: Arc::new(RwLock::new(TableInfo {
            id: String::new(),
            game: String::new(),
            rules: Value::Null,
            status: TableStatus::Waiting,
            created: 0,
            creator: None,
            bot: String::new(),
            pace_ms: 0,
            away_s: 0,
            hold_s: 0,
            turn_s: 0,
            actions: 0,
            seats: Vec::new(),
            outcome: None,
            rated: false,
            fairness: None,
            private: PrivateInfo::default(),
        })),
        changes: Arc::default(),
        me: tx.clone(),
        unsure: false,
        contributions: stored.contributions.into_iter().collect(),
    };
    actor.publish_info();
    let handle = TableHandle {
        tx,
        info: actor.info.clone(),
        changes: actor.changes.clone(),
    };
    // The task's lines say which table (not which request or connection woke it).
    let span = tracing::info_span!(parent: None, "table", id = %actor.row.id);
    tokio::spawn(tracing::Instrument::instrument(
        actor.run(rx, on_idle),
        span,
    ));
    Ok(handle)
}

/// A bot's seed for decision `n` at `seat`: reproducible from the table's id and seed,
/// different for every decision and every table — tables dealt the same boards (a
/// duplicate round's) still play their own chances.
pub(super) fn bot_seed(table: &str, table_seed: u64, n: u64, seat: Seat) -> u64 {
    // FNV-1a of the id: the same on every server and every run.
    let id = table.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let mut x = table_seed ^ id ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ ((seat as u64) << 56);
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^ (x >> 33)
}

impl Actor {
    /// Now, on the table's clock.
    pub(super) fn now(&self) -> Instant {
        self.env.clock.now()
    }

    pub(super) async fn run(
        mut self,
        mut rx: mpsc::UnboundedReceiver<Cmd>,
        on_idle: Box<dyn FnOnce() + Send>,
    ) {
        // A log that is already over (a crash between the last action and its status, in
        // an older version) makes a finished table.
        if self.row.status != TableStatus::Finished {
            if let Some(o) = self.game.outcome() {
                let o = serde_json::to_value(o).unwrap_or(Value::Null);
                if let Err(e) = self.set_status(TableStatus::Finished, Some(o)).await {
                    tracing::error!("its end was not stored: {e}");
                }
            }
        }
        self.load_chat().await;
        self.after_change().await;
        let mut idle = false;
        // The database writable again after a failure (see `Db::recoveries`).
        let mut recoveries = self.env.db.recoveries();
        recoveries.borrow_and_update();
        let mut watching = true;
        loop {
            // Checked before every wait, not only after a command: a deadline already
            // reached when the task first gets here (a busy machine, a clock moved on) is
            // not among the wakes to come.
            if self.idle_over() {
                idle = true;
                break;
            }
            let wake = self.next_wake();
            let cmd = tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => Some(cmd),
                    None => break,
                },
                _ = self.env.clock.sleep_until(wake) => None,
                r = recoveries.changed(), if watching => {
                    match r {
                        Ok(()) => {
                            if !self.database_back().await {
                                break;
                            }
                        }
                        // The database was closed: nothing more will come.
                        Err(_) => watching = false,
                    }
                    None
                }
            };
            match cmd {
                Some(Cmd::Connect {
                    conn,
                    player,
                    addr,
                    out,
                    close,
                }) => {
                    let id = player.as_ref().map(|p| p.id);
                    self.connect(conn, player, addr, out, close);
                    if let Some(id) = id {
                        self.note_addresses(id).await;
                    }
                }
                Some(Cmd::Disconnect { conn }) => self.disconnect(conn),
                Some(Cmd::Renamed { player, nickname }) => {
                    self.seating.rename(player, &nickname);
                    self.conns.rename(player, &nickname);
                    self.conns.owe_info();
                }
                Some(Cmd::Client { conn, msg }) => self.client(conn, msg).await,
                Some(Cmd::BotDone { n, seat, action }) => self.bot_done(n, seat, action).await,
                Some(Cmd::Begin { reply }) => {
                    let r = if self.row.status == TableStatus::Waiting {
                        self.begin().await
                    } else {
                        Ok(())
                    };
                    let _ = reply.send(r);
                }
                Some(Cmd::Leave) => break,
                Some(Cmd::Private { ask, reply }) => {
                    let r = self.private_ask(ask).await;
                    // The answer carries the table as it is now.
                    self.publish_info();
                    let _ = reply.send(r);
                }
                None => {}
            }
            self.after_change().await;
        }
        if idle && self.row.status == TableStatus::Waiting && !self.private.awaits_someone() {
            // A table that never started and that nobody came back to is of no use to
            // anyone: it goes, from the lobby and from storage, before its lease.
            if let Err(e) = self.env.db.drop_waiting_table(self.row.id.clone()).await {
                tracing::warn!("the table nobody came to was not removed: {e}");
            }
        }
        on_idle();
    }

    pub(super) fn idle_after(&self) -> Duration {
        match self.row.status {
            TableStatus::Finished => FINISHED_IDLE_END.min(self.env.idle_end),
            TableStatus::Waiting if !self.private.awaits_someone() => {
                self.env.waiting_end.min(self.env.idle_end)
            }
            _ => self.env.idle_end,
        }
    }

    /// Whether the table's task may end: nobody connected for long enough, and no rated
    /// game under way (the bots play it out for the people gone, so that it is rated).
    pub(super) fn idle_over(&self) -> bool {
        // A rated game, or a tournament's match, is played out by the bots for the people
        // gone: its result counts.
        let rated_under_way = (self.row.rated || self.private.in_tournament())
            && self.row.status == TableStatus::Playing;
        !self.pacing.bot_busy()
            && !rated_under_way
            && self.private_wake().is_none()
            && self.conns.is_empty()
            && self
                .conns
                .empty_since()
                .is_some_and(|since| self.now() >= since + self.idle_after())
    }

    pub(super) async fn client(&mut self, conn: u64, msg: ClientMsg) {
        match msg {
            ClientMsg::Ping {} => self.send(conn, ServerMsg::Pong),
            ClientMsg::Chat { text } => self.chat(conn, text).await,
            ClientMsg::Mute { player, on } => self.mute(conn, player, on).await,
            ClientMsg::Report { n } => self.report(conn, n).await,
            ClientMsg::Contribute { seed } => {
                if let Err(e) = self.contribute(conn, &seed, false).await {
                    self.error(conn, e, None);
                }
            }
            ClientMsg::Sit {
                seat,
                confirm,
                seed,
            } => {
                // A bad contribution is refused before anything else: the seat is not taken.
                let given = match seed.as_deref().map(tapete_table::fair::contribution) {
                    Some(Err(e)) => {
                        let r = Refusal::new(Code::BadContribution, e.to_string());
                        self.error(conn, r, None);
                        return;
                    }
                    Some(Ok(c)) => Some(c),
                    None => None,
                };
                if let Some((question, about)) = self.other_side(conn, seat).filter(|_| !confirm) {
                    // Asked, not refused for good: the same move with `confirm` is granted.
                    let mut m = ErrorMsg::new(Code::SwitchSides, question);
                    m.seats = Some(about["seats"].clone());
                    m.score = Some(about["score"].clone());
                    m.ask = Some(json!({"type": "sit", "seat": seat, "confirm": true}));
                    self.send(conn, ServerMsg::Error(m));
                } else {
                    let mut r = Ok(());
                    if let Some(c) = given.filter(|_| self.row.status == TableStatus::Waiting) {
                        r = self.contribute(conn, &c, true).await;
                    }
                    if let Err(e) = r.and(self.sit(conn, seat).await) {
                        self.error(conn, e, None);
                    }
                }
            }
            ClientMsg::Stand {} => {
                if let Err(e) = self.stand(conn).await {
                    self.error(conn, e, None);
                }
            }
            ClientMsg::Start {} => {
                if let Err(e) = self.start(conn).await {
                    self.error(conn, e, None);
                }
            }
            ClientMsg::Next {} => {
                if let Some(p) = self.player_of(conn) {
                    self.back(p.id);
                    if let Some(seat) = self.seat_of(p.id) {
                        self.seen_the_end(seat);
                    }
                }
            }
            ClientMsg::Back {} => {
                if let Some(p) = self.player_of(conn) {
                    self.back(p.id);
                }
            }
            ClientMsg::Act { action, id } => {
                let seat = match self.player_of(conn) {
                    None => Err(Refusal::new(
                        Code::PickNickname,
                        "spectators cannot play: pick a nickname and sit",
                    )),
                    Some(p) => self.seat_of(p.id).ok_or_else(|| {
                        Refusal::new(
                            Code::NotSeated,
                            "you are not seated at this table: sit first",
                        )
                    }),
                };
                let result = match seat {
                    Err(e) => Err(e),
                    Ok(_) if self.row.status == TableStatus::Waiting => Err(Refusal::new(
                        Code::NotStarted,
                        "the game has not started yet",
                    )),
                    Ok(_) if self.row.status == TableStatus::Finished => {
                        Err(Refusal::new(Code::GameOver, "the game is over"))
                    }
                    Ok(seat) => {
                        let r = self.play(seat, &action, false).await;
                        if r.is_ok() {
                            if let Some(p) = self.person_at(seat).map(|p| p.id) {
                                self.back(p);
                            }
                        }
                        // Acting after the end of a hand shows it was seen; an action that
                        // ended the hand itself (a new deal, nothing played in it yet) was
                        // not: its end waits for this person's `next` too.
                        if r.is_ok() && !self.game.at_boundary() {
                            self.seen_the_end(seat);
                        }
                        r
                    }
                };
                match result {
                    Ok(n) => {
                        self.send(conn, ServerMsg::Ack { id, n });
                    }
                    Err(e) => self.error(conn, e, id),
                }
            }
        }
    }

    pub(super) async fn start(&mut self, conn: u64) -> Result<(), Refusal> {
        let player = self
            .player_of(conn)
            .ok_or_else(|| Refusal::new(Code::PickNickname, "spectators cannot start the game"))?;
        if self.row.status != TableStatus::Waiting {
            return Err(Refusal::new(
                Code::AlreadyStarted,
                "the game has already started",
            ));
        }
        let allowed = match self.row.creator {
            Some(c) => c == player.id,
            None => self.seat_of(player.id).is_some(),
        };
        if !allowed {
            return Err(Refusal::new(
                Code::NotCreator,
                "only the table's creator can start the game",
            ));
        }
        self.begin().await
    }

    /// Starts the game: the deal's seed is made only now, from the table's secret and the
    /// contributions of the people seated now (see `deal.rs`), so nobody could have seen a
    /// card while seats were still changing, and neither the server nor a player could
    /// choose the cards. A duplicate round's tables all deal the round's seed.
    pub(super) async fn begin(&mut self) -> Result<(), Refusal> {
        let (seed, contributions) = self.seed_now()?;
        let game = self
            .kind
            .new_game(&self.row.rules, self.row.seats, seed)
            .map_err(|e| Refusal::new(Code::Internal, format!("internal error: {e}")))?;
        if self.row.rated {
            self.save_roster().await?;
            let people: Vec<i64> = self.seating.seated().map(|(_, p)| p.id).collect();
            for id in people {
                self.note_addresses(id).await;
            }
        }
        self.env
            .db
            .start_table(self.row.id.clone(), seed, contributions.clone())
            .await
            .map_err(|e| not_saved("the table", e))?;
        self.row.seed = seed;
        if let Some(d) = self.row.deal.as_mut() {
            d.contributions = contributions;
        }
        self.row.status = TableStatus::Playing;
        self.game = game;
        self.new_hand().await;
        self.private_begin().await;
        self.conns.owe_state();
        Ok(())
    }

    pub(super) async fn set_status(
        &mut self,
        status: TableStatus,
        outcome: Option<Value>,
    ) -> Result<(), Refusal> {
        self.env
            .db
            .set_status(self.row.id.clone(), status, outcome.clone())
            .await
            .map_err(|e| not_saved("the table", e))?;
        self.row.status = status;
        if status == TableStatus::Finished {
            self.row.finished = Some(self.env.clock.epoch());
            self.queue_reviews();
        }
        self.row.outcome = outcome;
        self.conns.owe_state();
        Ok(())
    }

    /// The database can be written again after a failure: every connection is sent its
    /// state again (a person whose action was refused sees the table as it is) and the
    /// bots go on at once, whatever backoff they were waiting out. Whether the task goes
    /// on: when a write of this table failed, its log is read, and a log longer than the
    /// table (a commit whose answer was lost with the connection) ends the task, to be
    /// started again from storage when its people reconnect.
    pub(super) async fn database_back(&mut self) -> bool {
        if std::mem::take(&mut self.unsure) {
            match self.env.db.action_count(self.row.id.clone()).await {
                Ok(stored) if stored != self.n => {
                    tracing::warn!(
                        stored,
                        applied = self.n,
                        "more actions stored than applied: started again from storage"
                    );
                    return false;
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!("its log was not read after the database came back: {e}");
                    self.unsure = true;
                }
            }
        }
        self.pacing.forgive();
        self.conns.owe_state();
        true
    }

    /// Checks, stores and applies one action, the table's bot's if `by_bot`; returns its
    /// number.
    pub(super) async fn play(
        &mut self,
        seat: Seat,
        action: &str,
        by_bot: bool,
    ) -> Result<u64, Refusal> {
        let text = self.game.check(seat, action).map_err(|e| {
            let code = if self.game.to_act().contains(&seat) {
                Code::IllegalAction
            } else {
                Code::NotYourTurn
            };
            Refusal::new(code, e)
        })?;
        let internal = |e| Refusal::new(Code::Internal, e);
        let n = self.n + 1;
        let was_boundary = self.game.at_boundary();
        // The outcome is known before the write, so that the last action and the
        // finished status are stored together.
        let (outcome, boundary) = self
            .game
            .preview(seat, &text)
            .map_err(|e| internal(format!("internal error: a checked action was refused: {e}")))?;
        let outcome = outcome.map(|o| serde_json::to_value(o).unwrap_or(Value::Null));
        let new_hand = outcome.is_none() && boundary && !was_boundary;
        self.env
            .db
            .append_action_by(
                self.row.id.clone(),
                n,
                seat,
                text.clone(),
                outcome.clone(),
                new_hand,
                by_bot && self.row.rated,
            )
            .await
            .map_err(|e| {
                // Whether it was stored is for the database to say once it answers again.
                self.unsure = true;
                not_saved("the action", e)
            })?;
        // Stored: the same action on the same game, as previewed.
        self.game
            .apply(seat, &text)
            .map_err(|e| internal(format!("internal error: a stored action was refused: {e}")))?;
        self.n = n;
        self.conns.owe_state();
        // The seat has played: if its turn goes on, its clock starts again.
        self.pacing.played(seat);
        if let Some(o) = outcome {
            self.row.status = TableStatus::Finished;
            self.row.finished = Some(self.env.clock.epoch());
            self.row.outcome = Some(o);
            self.seating.forget_asks();
            self.pacing.end_hold();
            self.queue_reviews();
        } else if new_hand {
            self.new_hand().await;
            self.hold_the_end();
        }
        Ok(n)
    }

    pub(super) async fn after_change(&mut self) {
        self.private_tick().await;
        self.play_forced().await;
        // Away flags change with time alone: keep the description current.
        let away_now: Vec<bool> = (0..self.seating.count()).map(|s| self.is_away(s)).collect();
        let shown = self
            .info
            .read()
            .map(|i| i.seats.iter().map(|s| s.away).collect::<Vec<_>>())
            .unwrap_or_default();
        if away_now != shown {
            self.conns.owe_info();
        }
        if self.pacing.is_holding() && !self.pacing.holds_at(self.now()) {
            self.pacing.end_hold();
            self.conns.owe_state();
        }
        self.tick_clocks();
        self.notice_turns();
        let (state, info, newcomers) = self.conns.take_owed();
        let chat_newcomers = newcomers.clone();
        if state {
            self.publish_info();
            self.broadcast();
        } else if !newcomers.is_empty() || info {
            if info {
                self.publish_info();
            }
            // A newcomer gets the whole state; the others, if anything, a small message.
            let mut frame = self.frame();
            for id in &newcomers {
                if let Some(c) = self.conns.get(*id) {
                    if self.delays_watchers() && self.watches(c) {
                        // A spectator of a tournament's match: the state of a while ago.
                        if let Some(m) = self.watch.shown() {
                            self.send_text(*id, m);
                        }
                        continue;
                    }
                    let m = self.state_text(c, &mut frame);
                    self.conns.told(*id, frame.telling);
                    self.send_text(*id, m.into());
                }
            }
            if info {
                let msg: Arc<str> = ServerMsg::Table { table: &frame.info }.text().into();
                let ids: Vec<u64> = self
                    .conns
                    .iter()
                    .map(|(id, _)| id)
                    .filter(|id| !newcomers.contains(id))
                    .collect();
                for id in ids {
                    self.send_text(id, msg.clone());
                }
            }
        }
        self.release_to_watchers();
        self.chat_after_change(&chat_newcomers);
        self.schedule_bot();
    }
}
