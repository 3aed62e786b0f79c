//! What a table does when its database stops answering for a while — a person whose action
//! could not be saved is told so (`not_saved`) and, once the database answers again, is
//! sent the table as it is, without asking — and how a quiet link shows it is alive (a
//! heartbeat every few seconds). On SQLite and, through `deploy/test-postgres.sh`, on
//! PostgreSQL.

use crate::support::{legal, read_of, send, state_until, Server, Ws};
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tungstenite::Message;

/// The server's database refusing every write until dropped. SQLite: another connection
/// holds the file's write lock (a write waits out the busy timeout, 5 s, then fails).
/// PostgreSQL: the database takes no new connection and the server's are cut.
enum Outage {
    Sqlite(rusqlite::Connection),
    Postgres { admin: String, db: String },
}

impl Outage {
    fn begin(server: &Server) -> Outage {
        let db = server.db.to_string_lossy().into_owned();
        if tapete_server::store::pg::is_url(&db) {
            let admin = std::env::var("TAPETE_TEST_PG").expect("the PostgreSQL server's URL");
            let name = db.rsplit_once('/').expect("a URL ending in /database").1;
            let outage = Outage::Postgres {
                admin,
                db: name.to_owned(),
            };
            outage.sql(&format!(
                "ALTER DATABASE {name} WITH ALLOW_CONNECTIONS false;
                 SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}';"
            ));
            outage
        } else {
            let c = rusqlite::Connection::open(&db).unwrap();
            c.busy_timeout(Duration::from_secs(10)).unwrap();
            c.execute_batch("BEGIN EXCLUSIVE").unwrap();
            Outage::Sqlite(c)
        }
    }

    /// Runs `statements` on the PostgreSQL server's maintenance database (on a thread of
    /// its own: the blocking client must not run inside a runtime).
    fn sql(&self, statements: &str) {
        let Outage::Postgres { admin, .. } = self else {
            return;
        };
        let (admin, statements) = (admin.clone(), statements.to_owned());
        std::thread::spawn(move || {
            let mut c = postgres::Client::connect(&admin, postgres::NoTls).unwrap();
            c.batch_execute(&statements).unwrap();
        })
        .join()
        .unwrap();
    }
}

impl Drop for Outage {
    fn drop(&mut self) {
        match self {
            Outage::Sqlite(c) => c.execute_batch("ROLLBACK").unwrap(),
            Outage::Postgres { db, .. } => {
                let db = db.clone();
                self.sql(&format!("ALTER DATABASE {db} WITH ALLOW_CONNECTIONS true"));
            }
        }
    }
}

/// Ane's first turn at a Ring table of two where a bot plays the other seat: her link and
/// the state that waits for her.
fn ane_to_play(server: &Server) -> (Ws, Value) {
    let ane = server.player("Ane");
    let id = server.table(
        &ane,
        json!({"game": "ring", "seats": 2, "pace_ms": 0, "hold_s": 0, "start": true}),
    );
    let mut ws = server.ws(&id, Some(&ane));
    let s = state_until(&mut ws, |s| !legal(s).is_empty());
    (ws, s)
}

#[test]
fn a_person_whose_action_was_not_saved_gets_the_table_again_once_the_database_answers() {
    let server = Server::start("outage", crate::support::roomy());
    let (mut ws, s) = ane_to_play(&server);
    let n = s["n"].as_u64().unwrap();
    let outage = Outage::begin(&server);
    send(
        &mut ws,
        json!({"type": "act", "action": legal(&s)[0], "id": 1}),
    );
    let e = read_of(&mut ws, "error");
    assert_eq!(e["code"], "not_saved", "{e}");
    assert_eq!(e["id"], 1, "{e}");
    drop(outage);
    // Back: the table sends its state again by itself, as it is (nothing was played).
    let back = Instant::now();
    let again = read_of(&mut ws, "state");
    // (Within a probe or two, a second apart; the bound leaves room for a loaded machine,
    // and without the resend nothing but heartbeats comes for good.)
    assert!(
        back.elapsed() < Duration::from_secs(8),
        "the state came {:?} after the database answered again",
        back.elapsed()
    );
    assert_eq!(again["n"], n, "{again}");
    assert_eq!(legal(&again), legal(&s), "still her turn");
    // And the game goes on from there.
    send(
        &mut ws,
        json!({"type": "act", "action": legal(&again)[0], "id": 2}),
    );
    let ack = read_of(&mut ws, "ack");
    assert_eq!(ack["n"], n + 1, "{ack}");
}

/// The next text message on `ws`, heartbeats included, as sent.
fn next_text(ws: &mut Ws) -> String {
    loop {
        match ws.read().expect("the link stays open") {
            Message::Text(t) => return t.as_str().to_string(),
            _ => continue,
        }
    }
}

#[test]
fn a_quiet_link_hears_a_heartbeat_every_few_seconds() {
    // Paused time: the server's clock moves only when the test says.
    let server = Server::start_paused("heartbeat", crate::support::roomy());
    let ane = server.player("Ane");
    // A table waiting for its start: nothing happens at it.
    let id = server.table(&ane, json!({"game": "ring", "seats": 2}));
    let mut ws = server.ws(&id, Some(&ane));
    read_of(&mut ws, "state");
    let just_short = tapete_server::BEAT_EVERY - Duration::from_millis(1);
    for _ in 0..2 {
        // Just short of the beat's time, no beat: the answer to a ping sent then comes
        // before any (what the server sends goes in order, and a beat due during the
        // quiet time would have been sent as the clock passed it).
        server.advance(just_short);
        send(&mut ws, json!({"type": "ping"}));
        loop {
            let t = next_text(&mut ws);
            assert_ne!(
                t,
                tapete_server::BEAT,
                "a heartbeat within {just_short:?} of quiet"
            );
            if t.contains(r#""pong""#) {
                break;
            }
        }
        // The pong was the last message: a whole quiet time later comes the beat.
        server.advance(tapete_server::BEAT_EVERY);
        assert_eq!(next_text(&mut ws), tapete_server::BEAT);
    }
}
