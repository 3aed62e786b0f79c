//! The table task's tests: whole tables driven through their handle.

use super::frames::recent_lines;
use super::*;

/// Connects a watcher (connection 1) on `slow_out` and Ane (connection 2) with room
/// to spare: the watcher's close signal, Ane's inbox, and Ane's close signal to keep.
fn watcher_and_ane(
    table: &TableHandle,
    ane: i64,
    slow_out: crate::net::outbox::OutSender,
) -> (
    oneshot::Receiver<()>,
    crate::net::outbox::OutReceiver,
    oneshot::Receiver<()>,
) {
    let (close, closed) = oneshot::channel();
    table
        .tx
        .send(Cmd::Connect {
            conn: 1,
            player: None,
            addr: None,
            out: slow_out,
            close,
        })
        .unwrap();
    let (inbox, open) = connect_ane(table, ane);
    (closed, inbox, open)
}

/// Connects Ane as connection 2 with room to spare: her inbox, and the close signal to
/// keep while she stays.
fn connect_ane(
    table: &TableHandle,
    ane: i64,
) -> (crate::net::outbox::OutReceiver, oneshot::Receiver<()>) {
    let (out, inbox) = crate::net::outbox::outbox(64, 1 << 20);
    let (close, open) = oneshot::channel();
    let player = PlayerRef {
        id: ane,
        nickname: "Ane".into(),
    };
    table
        .tx
        .send(Cmd::Connect {
            conn: 2,
            player: Some(player),
            addr: None,
            out,
            close,
        })
        .unwrap();
    (inbox, open)
}

#[tokio::test]
async fn a_client_that_cannot_keep_up_is_told_to_close() {
    let (table, ane) = race_table("slow").await;
    // A watcher that never reads: room for one message, the state it gets on arrival.
    let (slow_out, _never_read) = crate::net::outbox::outbox(1, 1 << 20);
    let (mut closed, mut inbox, _open) = watcher_and_ane(&table, ane, slow_out);
    table
        .tx
        .send(Cmd::Client {
            conn: 2,
            msg: ClientMsg::Sit {
                seat: 0,
                confirm: false,
                seed: None,
            },
        })
        .unwrap();
    // The sit makes a new state for everybody; the watcher's queue is full: it is let go.
    let told = tokio::time::timeout(Duration::from_secs(5), &mut closed).await;
    assert!(
        matches!(told, Ok(Err(_))),
        "the slow client is told to close"
    );
    // The others are served as before.
    let mut seated = false;
    while let Ok(Some(m)) = tokio::time::timeout(Duration::from_secs(5), inbox.recv()).await {
        if m.contains(r#""seat":0"#) && m.contains(r#""type":"state""#) {
            seated = true;
            break;
        }
    }
    assert!(seated);
}

#[tokio::test]
async fn a_client_whose_queued_bytes_pass_the_bound_is_told_to_close() {
    let (table, ane) = race_table("bytes").await;
    // A watcher that never reads, with room for 64 messages but only 512 bytes.
    let (slow_out, mut never_read) = crate::net::outbox::outbox(64, 512);
    let watch = slow_out.clone();
    let (mut closed, mut inbox, _open) = watcher_and_ane(&table, ane, slow_out);
    // Ane sits, starts and plays: every change is a state of some 400 bytes for the
    // watcher too, until its bytes are full.
    let say = |msg| table.tx.send(Cmd::Client { conn: 2, msg }).unwrap();
    say(ClientMsg::Sit {
        seat: 0,
        confirm: false,
        seed: None,
    });
    say(ClientMsg::Start {});
    let told = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            tokio::select! {
                r = &mut closed => return r,
                m = inbox.recv() => {
                    let m = m.expect("Ane's connection stays open");
                    inbox.written(&m);
                    if m.contains(r#""legal":["#) && !m.contains(r#""legal":[]"#) {
                        say(ClientMsg::Act { action: "1".into(), id: None });
                    }
                }
            }
        }
    })
    .await;
    assert!(matches!(told, Ok(Err(_))), "the watcher is told to close");
    let mut queued = 0;
    while never_read.try_recv().is_some() {
        queued += 1;
    }
    assert!(
        queued < 64,
        "closed for its bytes, not its count of messages ({queued} queued)"
    );
    // Only a single state larger than the bound may pass it, into an empty queue.
    assert!(
        watch.queued_bytes() <= 512 || queued == 1,
        "{} bytes held in {queued} messages",
        watch.queued_bytes()
    );
}

#[test]
fn a_state_carries_only_the_latest_lines_of_a_long_hand() {
    let story: Vec<tapete_host::story::Line> = (0..1000)
        .map(|i| {
            tapete_host::story::Phrase::new("story.test.draws")
                .seat("seat", 0)
                .num("n", i)
                .line(format!("seat 0 draws, line {i}"))
        })
        .collect();
    let sent: Vec<Value> = serde_json::from_str(&recent_lines(&story)).unwrap();
    assert_eq!(sent.len(), MAX_LINES);
    assert_eq!(sent.first().unwrap(), &story[1000 - MAX_LINES].wire());
    assert_eq!(sent.last().unwrap()["args"]["n"]["num"], 999);
    assert!(
        sent.iter().all(|l| l.get("text").is_none()),
        "no English text on the wire"
    );
    let short = story[..3].to_vec();
    let wire: Vec<Value> = short.iter().map(|l| l.wire()).collect();
    assert_eq!(recent_lines(&short), json!(wire).to_string());
}

#[test]
fn lines_already_sent_are_sent_again_only_when_the_story_is_not_the_last_one_grown() {
    let line = |i: i64| {
        tapete_host::story::Phrase::new("story.test.draws")
            .num("n", i)
            .line(format!("line {i}"))
    };
    // A story as a game keeps it: its hand count and its lines.
    let tell = |c: &mut Connections, hands: u64, lines: Vec<tapete_host::story::Line>| {
        c.tell(Some((hands, lines.len())), |from| lines[from..].to_vec())
    };
    let mut c = Connections::new(Instant::now());
    assert_eq!(
        c.tell(None, |_| Vec::new()),
        0,
        "nothing told before the start"
    );
    let first = tell(&mut c, 0, vec![line(0), line(1)]);
    assert_eq!(
        tell(&mut c, 0, vec![line(0), line(1), line(2)]),
        first,
        "lines added"
    );
    assert_eq!(
        tell(&mut c, 0, vec![line(0), line(1), line(2)]),
        first,
        "nothing new"
    );
    assert_eq!(
        c.story(),
        &[line(0), line(1), line(2)],
        "the added line taken"
    );
    // A new hand drops the hand before the last: the story is told again.
    let second = tell(&mut c, 1, vec![line(2), line(3)]);
    assert_ne!(second, first);
    assert_eq!(c.story(), &[line(2), line(3)]);
    assert_ne!(
        tell(&mut c, 2, vec![line(2), line(9)]),
        second,
        "a line changed"
    );
    // A new hand whose story merely grew the last one keeps its telling.
    let third = tell(&mut c, 2, vec![line(2), line(9)]);
    assert_eq!(tell(&mut c, 3, vec![line(2), line(9), line(4)]), third);
    assert_eq!(c.story(), &[line(2), line(9), line(4)]);
}

/// The next state Ane's connection is sent (other messages skipped), parsed.
async fn next_state(inbox: &mut crate::net::outbox::OutReceiver) -> Value {
    loop {
        let m = inbox.recv().await.expect("Ane's connection stays open");
        inbox.written(&m);
        let v: Value = serde_json::from_str(&m).unwrap();
        if v["type"] == "state" {
            return v;
        }
    }
}

// Paused time: the clock's 30 s pass at once, and no sleep bounds the waits (tokio
// would jump to it while the table waits for the database).
#[tokio::test(start_paused = true)]
async fn a_turn_clock_that_runs_out_hands_the_turn_to_the_bot_until_the_person_is_back() {
    let (table, mut inbox, _open, mine) = ane_to_play("clock", 30).await;
    let say = |msg| table.tx.send(Cmd::Client { conn: 2, msg }).unwrap();
    // Ane's turn comes with her clock: its whole time left, in milliseconds.
    assert_eq!(mine["table"]["turn_s"], 30);
    assert_eq!(mine["clock"], json!([{"seat": 0, "ms": 30_000}]));
    let turn_began = Instant::now();
    let n = mine["n"].as_u64().unwrap();
    // She does nothing: when the clock runs out she is away and the bot plays her turn.
    let away = loop {
        let v = next_state(&mut inbox).await;
        if v["table"]["seats"][0]["away"] == true {
            break v;
        }
        assert_eq!(
            v["n"], n,
            "nobody plays Ane's turn before her clock runs out"
        );
    };
    assert!(turn_began.elapsed() >= Duration::from_secs(30));
    assert_eq!(away["clock"], json!([]), "no clock runs for the bot");
    let played = loop {
        let v = next_state(&mut inbox).await;
        if v["n"].as_u64().unwrap() > n {
            break v;
        }
    };
    let told = played.get("more").unwrap_or(&played["lines"]);
    assert!(
        told.as_array()
            .unwrap()
            .iter()
            .any(|l| l["key"] == "story.race.adds" && l["args"]["seat"] == json!({"seat": 0})),
        "the bot played Ane's turn: {told}"
    );
    // Saying she is back gives her the seat again.
    say(ClientMsg::Back {});
    loop {
        let v = next_state(&mut inbox).await;
        if v["table"]["seats"][0]["away"] == false {
            break;
        }
    }
}

#[tokio::test(start_paused = true)]
async fn a_table_without_a_turn_clock_waits_for_the_person() {
    let (_table, mut inbox, _open, mine) = ane_to_play("noclock", 0).await;
    assert_eq!(mine["clock"], json!([]));
    // An hour later nothing has moved.
    tokio::time::sleep(Duration::from_secs(3600)).await;
    while let Some(m) = inbox.try_recv() {
        assert!(!m.contains(r#""away":true"#), "{m}");
    }
}

#[tokio::test(start_paused = true)]
async fn a_person_gone_from_the_table_is_told_once_that_it_is_their_turn() {
    let (table, ane, mut told) = race_table_telling("told", 0).await;
    let (mut inbox, _open) = connect_ane(&table, ane);
    let say = |msg| table.tx.send(Cmd::Client { conn: 2, msg }).unwrap();
    say(ClientMsg::Sit {
        seat: 0,
        confirm: false,
        seed: None,
    });
    say(ClientMsg::Start {});
    loop {
        let v = next_state(&mut inbox).await;
        if v["legal"].as_array().is_some_and(|l| !l.is_empty()) {
            break;
        }
    }
    // At the table, she is not told.
    let wait = |d| Duration::from_secs(d);
    assert!(
        tokio::time::timeout(wait(60), told.recv()).await.is_err(),
        "nothing while she is there"
    );
    // Gone, she is told once it has been long enough not to be a reload, and only once.
    table.tx.send(Cmd::Disconnect { conn: 2 }).unwrap();
    let gone = Instant::now();
    let (who, notice) = tokio::time::timeout(wait(25), told.recv())
        .await
        .expect("told in time")
        .unwrap();
    let after = gone.elapsed();
    assert!(
        after >= super::pacing::TURN_NOTICE_AFTER && after < Duration::from_secs(12),
        "{after:?}"
    );
    assert_eq!(who, ane);
    assert_eq!(notice.kind, crate::notices::NoticeKind::Turn);
    assert_eq!(notice.url, "/t/told");
    assert_eq!(notice.args["game"], "race");
    // Someone comes to watch (the table's state changes): she is not told again.
    let (watcher_out, _watching) = crate::net::outbox::outbox(64, 1 << 20);
    let (close, _open_watcher) = oneshot::channel();
    table
        .tx
        .send(Cmd::Connect {
            conn: 1,
            player: None,
            addr: None,
            out: watcher_out,
            close,
        })
        .unwrap();
    // Her away time (30 s) passes: the bot plays for her, and nobody tells her again
    // (until the table, idle, ends at 60 s).
    let again = tokio::time::timeout(wait(45), told.recv()).await;
    assert!(
        again.is_err(),
        "told once for that turn: {again:?} at {:?}",
        gone.elapsed()
    );
}

/// A Race table with a turn clock of `turn_s`, started with Ane at seat 0 (connection
/// 2): the table, her connection's inbox, the receiver that keeps it open, and the state
/// of her first turn.
async fn ane_to_play(
    name: &str,
    turn_s: u64,
) -> (
    TableHandle,
    crate::net::outbox::OutReceiver,
    oneshot::Receiver<()>,
    Value,
) {
    let (table, ane) = race_table_with(name, turn_s).await;
    let (mut inbox, open) = connect_ane(&table, ane);
    let say = |msg| table.tx.send(Cmd::Client { conn: 2, msg }).unwrap();
    say(ClientMsg::Sit {
        seat: 0,
        confirm: false,
        seed: None,
    });
    say(ClientMsg::Start {});
    let mine = loop {
        let v = next_state(&mut inbox).await;
        if v["legal"].as_array().is_some_and(|l| !l.is_empty()) {
            break v;
        }
    };
    (table, inbox, open, mine)
}

/// A waiting Race table of two seats and its creator, Ane.
async fn race_table(name: &str) -> (TableHandle, i64) {
    race_table_with(name, 0).await
}

/// A waiting Race table of two seats with a turn clock of `turn_s`, and its creator.
async fn race_table_with(name: &str, turn_s: u64) -> (TableHandle, i64) {
    let (table, ane, _notices) = race_table_telling(name, turn_s).await;
    (table, ane)
}

/// [`race_table_with`], and where the notices it makes arrive.
async fn race_table_telling(
    name: &str,
    turn_s: u64,
) -> (
    TableHandle,
    i64,
    tokio::sync::mpsc::Receiver<(i64, crate::notices::Notice)>,
) {
    let (notices, told) = tokio::sync::mpsc::channel(16);
    let dir = std::env::temp_dir().join(format!("tapete-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = Db::open(&dir.join("t.db")).unwrap();
    let ane = db
        .create_guest(
            "Ane".into(),
            "ane".into(),
            "ane".into(),
            "hash".into(),
            String::new(),
        )
        .await
        .unwrap()
        .unwrap();
    let row = TableRow {
        id: name.into(),
        game: "race".into(),
        seats: 2,
        rules: json!({}),
        seed: 1,
        creator: Some(ane),
        bot: "random".into(),
        pace_ms: 0,
        status: TableStatus::Waiting,
        created: crate::store::now(),
        finished: None,
        outcome: None,
        away_s: 30,
        hold_s: 0,
        turn_s,
        rated: false,
        deal: Some(crate::table::Deal::new()),
    };
    db.create_table(row.clone(), vec![None; 2]).await.unwrap();
    let env = TableEnv {
        clock: db.clock().clone(),
        db,
        idle_end: Duration::from_secs(60),
        waiting_end: Duration::from_secs(60),
        max_watchers: 10,
        bot_threads: Arc::new(Semaphore::new(1)),
        gauges: Arc::default(),
        chat_rates: Arc::default(),
        chat_mutes: Arc::default(),
        reviews: crate::review::Queue::new(
            1,
            1,
            Arc::default(),
            crate::clock::Clock::current(),
            Arc::new(|_, _| Box::pin(async { Ok(()) })),
        ),
        notices: crate::notices::Sender(notices),
    };
    let kind = tapete_host::kind_of::<tapete_host::test_race::RaceHost>();
    let stored = StoredTable {
        row,
        seats: vec![None; 2],
        actions: Vec::new(),
        pending: Vec::new(),
        hand_seats: Vec::new(),
        private: Default::default(),
        contributions: Vec::new(),
    };
    (
        spawn(env, kind, stored, Box::new(|| {})).unwrap(),
        ane,
        told,
    )
}
