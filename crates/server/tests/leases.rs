//! One owner per table on PostgreSQL, at the store: two nodes racing for a table's lease
//! give it one owner, a node whose lease another took (it was paused past its expiry)
//! has its writes refused in their transaction, a dead node's tables (its session ended,
//! and its lock with it) are taken at once, and a node whose connection was cut takes its
//! lock again. `deploy/test-postgres.sh` runs them.

use crate::support::fresh_postgres;
use serde_json::json;
use tapete_server::store::lease::{Claim, NOT_OWNER};
use tapete_server::store::Db;
use tapete_server::table::{NewRematch, TableRow};

fn row(id: &str) -> TableRow {
    TableRow {
        id: id.into(),
        game: "ring".into(),
        seats: 2,
        rules: json!({}),
        seed: 7,
        creator: None,
        bot: "random".into(),
        pace_ms: 0,
        status: tapete_server::table::TableStatus::Playing,
        created: 0,
        finished: None,
        outcome: None,
        away_s: 30,
        hold_s: 10,
        turn_s: 0,
        rated: false,
        deal: None,
    }
}

/// Two nodes on one fresh database, opened on a runtime whose time is paused (their
/// graces and patience wait for `tokio::time::advance`, never for a real sleep), and the
/// database's URL, for a plain client to play the leases' clock.
fn two_nodes(name: &str) -> (tokio::runtime::Runtime, String, Db, Db) {
    let base =
        std::env::var("TAPETE_TEST_PG").expect("needs PostgreSQL: deploy/test-postgres.sh runs it");
    let url = fresh_postgres(&base, name).to_string_lossy().into_owned();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .start_paused(true)
        .build()
        .unwrap();
    let (a, b) = rt.block_on(async {
        (
            Db::open_postgres(&url, "a", None).unwrap(),
            Db::open_postgres(&url, "b", None).unwrap(),
        )
    });
    (rt, url, a, b)
}

/// Ends every lease now, as if its node had stopped renewing long ago.
fn expire_all(url: &str) {
    sql(url, "UPDATE leases SET expires = 0");
}

/// Runs one statement on its own client (on a thread of its own: the blocking client
/// must not run on the test's runtime); the first column of the first row, if any.
fn sql(url: &str, statement: &str) -> Option<i64> {
    let (url, statement) = (url.to_owned(), statement.to_owned());
    std::thread::spawn(move || {
        let mut c = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        c.query(&statement, &[]).unwrap().first().map(|r| r.get(0))
    })
    .join()
    .unwrap()
}

#[test]
#[ignore = "needs PostgreSQL: deploy/test-postgres.sh runs it"]
fn a_node_whose_lease_was_taken_cannot_write_and_learns_it_lost_the_table() {
    let (rt, url, a, b) = two_nodes("fence");
    rt.block_on(async {
        a.create_table(row("t1"), vec![None, None]).await.unwrap();
        assert_eq!(a.claim("t1".into()).await.unwrap(), Claim::Held(1));
        assert_eq!(
            b.claim("t1".into()).await.unwrap(),
            Claim::Elsewhere("a".into())
        );
        assert_eq!(b.claim("nope".into()).await.unwrap(), Claim::Missing);
        // b holds no lease on t1: refused before the database is asked.
        let e = b
            .append_action("t1".into(), 1, 0, "x".into(), None, false)
            .await;
        assert!(e.unwrap_err().0.contains(NOT_OWNER));
        a.append_action("t1".into(), 1, 0, "x".into(), None, false)
            .await
            .unwrap();
        // a is paused past its lease; b takes the table.
        expire_all(&url);
        assert_eq!(b.claim("t1".into()).await.unwrap(), Claim::Held(2));
        // a wakes and writes with its old epoch: refused in the transaction.
        let e = a
            .append_action("t1".into(), 2, 1, "y".into(), None, false)
            .await;
        assert!(e.unwrap_err().0.contains(NOT_OWNER));
        let e = a.set_seat("t1".into(), 1, None).await;
        assert!(e.unwrap_err().0.contains(NOT_OWNER));
        // Nor the friends' table writes: kept seats, the rated roster, the rematch.
        let e = a.set_reserved("t1".into(), 1, Some(7)).await;
        assert!(e.unwrap_err().0.contains(NOT_OWNER));
        let e = a.clear_reserved("t1".into()).await;
        assert!(e.unwrap_err().0.contains(NOT_OWNER));
        let e = a
            .save_roster("t1".into(), vec![(0, Some(7)), (1, None)])
            .await;
        assert!(e.unwrap_err().0.contains(NOT_OWNER));
        let rematch = NewRematch {
            row: row("t1b"),
            seats: vec![None, None],
            reserved: Vec::new(),
            invite: None,
            starts_at: 0,
        };
        let e = a.create_rematch("t1".into(), rematch).await;
        assert!(e.unwrap_err().0.contains(NOT_OWNER));
        assert_eq!(
            sql(&url, "SELECT count(*) FROM tables WHERE id = 't1b'"),
            Some(0)
        );
        assert_eq!(a.renew().await.unwrap(), vec!["t1".to_string()]);
        b.append_action("t1".into(), 2, 1, "z".into(), None, false)
            .await
            .unwrap();
        assert_eq!(b.renew().await.unwrap(), Vec::<String>::new());
        let t = b.table("t1".into()).await.unwrap().unwrap();
        assert_eq!(t.actions, vec![(0, "x".to_string()), (1, "z".to_string())]);
        // b lets go (its task ended): a may take it again at once.
        b.release("t1".into()).await.unwrap();
        assert_eq!(a.claim("t1".into()).await.unwrap(), Claim::Held(3));
        a.close().await;
        b.close().await;
    });
}

#[test]
#[ignore = "needs PostgreSQL: deploy/test-postgres.sh runs it"]
fn two_nodes_racing_for_an_expired_lease_give_it_one_owner() {
    let (rt, url, a, b) = two_nodes("race");
    rt.block_on(async {
        a.create_table(row("t2"), vec![None, None]).await.unwrap();
        a.claim("t2".into()).await.unwrap();
        for round in 0..20 {
            expire_all(&url);
            let (x, y) = tokio::join!(a.claim("t2".into()), b.claim("t2".into()));
            let (x, y) = (x.unwrap(), y.unwrap());
            let held = [&x, &y]
                .iter()
                .filter(|c| matches!(c, Claim::Held(_)))
                .count();
            assert_eq!(held, 1, "round {round}: {x:?} {y:?}");
            let winner = if matches!(x, Claim::Held(_)) {
                "a"
            } else {
                "b"
            };
            let loser = if winner == "a" { &y } else { &x };
            assert_eq!(loser, &Claim::Elsewhere(winner.into()), "round {round}");
        }
        // Twenty takings, each one epoch on.
        let epoch = sql(&url, "SELECT epoch FROM leases WHERE table_id = 't2'");
        assert_eq!(epoch, Some(21));
        a.close().await;
        b.close().await;
    });
}

#[test]
#[ignore = "needs PostgreSQL: deploy/test-postgres.sh runs it"]
fn a_node_learns_the_others_changes_by_notice_within_a_round() {
    let (rt, url, a, b) = two_nodes("notify");
    rt.block_on(async {
        let mirror = b.mirror().expect("PostgreSQL keeps a mirror");
        let until = |what: &str, done: &dyn Fn() -> bool| {
            let start = std::time::Instant::now();
            while !done() {
                assert!(
                    start.elapsed() < std::time::Duration::from_secs(3),
                    "{what}"
                );
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            start.elapsed()
        };
        until("b listens", &|| mirror.is_listening());
        assert_eq!(mirror.tables(), Some(vec![]));
        let v0 = mirror.version().unwrap();
        let info = r#"{"id":"t9","game":"ring"}"#.to_string();
        a.publish(vec![("t9".into(), info.clone())], vec![], Some(vec![5, 6]))
            .await
            .unwrap();
        // Told by notice: no lease is read, and well within the lobby's second.
        let took = until("b mirrors a's table and people", &|| {
            mirror.tables() == Some(vec![info.clone()])
                && mirror
                    .online()
                    .is_some_and(|o| o.contains(&5) && o.contains(&6))
        });
        assert!(took < std::time::Duration::from_secs(1), "{took:?}");
        assert!(mirror.version().unwrap() > v0);
        a.publish(vec![], vec!["t9".into()], Some(vec![6]))
            .await
            .unwrap();
        until(
            "b forgets the table a ended and the person who left",
            &|| {
                mirror.tables() == Some(vec![])
                    && mirror
                        .online()
                        .is_some_and(|o| !o.contains(&5) && o.contains(&6))
            },
        );
        // Its listening connection cut, it connects again and reads everything anew.
        sql(
            &url,
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
             WHERE application_name = 'tapete-listen'",
        );
        // (t10 is a's by its lease, so reading everything anew finds it too.)
        a.create_table(row("t10"), vec![None, None]).await.unwrap();
        assert_eq!(a.claim("t10".into()).await.unwrap(), Claim::Held(1));
        a.publish(vec![("t10".into(), info.clone())], vec![], None)
            .await
            .unwrap();
        until("b mirrors a's table after listening again", &|| {
            mirror.tables() == Some(vec![info.clone()])
        });
        a.publish(vec![], vec!["t10".into()], None).await.unwrap();
        until("and follows the notices again", &|| {
            mirror.tables() == Some(vec![])
        });
        // Its own changes are not in its mirror of the others. A later notice of a's
        // proves b has heard its own: the notices come in order, on one connection.
        b.publish(vec![("t8".into(), info.clone())], vec![], Some(vec![7]))
            .await
            .unwrap();
        let later = r#"{"id":"t11","game":"ring"}"#.to_string();
        a.publish(vec![("t11".into(), later.clone())], vec![], Some(vec![8]))
            .await
            .unwrap();
        until("b mirrors a's later table", &|| {
            mirror.tables().is_some_and(|t| t.contains(&later))
        });
        assert_eq!(mirror.tables(), Some(vec![later]));
        assert!(mirror
            .online()
            .is_some_and(|o| !o.contains(&7) && o.contains(&8)));
        a.close().await;
        b.close().await;
    });
}

#[test]
#[ignore = "needs PostgreSQL: deploy/test-postgres.sh runs it"]
fn past_its_largest_size_a_database_stores_nothing_new_but_keeps_its_leases() {
    let (rt, url, a, b) = two_nodes("full");
    rt.block_on(async {
        a.create_table(row("t1"), vec![None, None]).await.unwrap();
        b.close().await;
        // Any database is past one byte.
        let full = Db::open_postgres(&url, "c", Some(1)).unwrap();
        assert_eq!(full.claim("t1".into()).await.unwrap(), Claim::Held(1));
        let e = full.create_table(row("t2"), vec![None, None]).await;
        assert!(e.unwrap_err().0.contains("database is full"));
        let e = full
            .append_action("t1".into(), 1, 0, "x".into(), None, false)
            .await;
        assert!(e.unwrap_err().0.contains("database is full"));
        full.publish(vec![("t1".into(), "{}".into())], vec![], Some(vec![1]))
            .await
            .unwrap();
        assert_eq!(full.renew().await.unwrap(), Vec::<String>::new());
        // What is there is still read, and nothing half-written.
        let t = full.table("t1".into()).await.unwrap().unwrap();
        assert!(t.actions.is_empty());
        assert_eq!(sql(&url, "SELECT count(*) FROM tables"), Some(1));
        full.close().await;
        a.close().await;
    });
}

#[test]
#[ignore = "needs PostgreSQL: deploy/test-postgres.sh runs it"]
fn a_node_renews_many_leases_in_chunks_and_names_exactly_the_ones_it_lost() {
    let (rt, url, a, b) = two_nodes("renew");
    rt.block_on(async {
        let ids: Vec<String> = (0..2_300).map(|i| format!("r{i:05}")).collect();
        let mut jobs = tokio::task::JoinSet::new();
        for id in ids.clone() {
            let a = a.clone();
            jobs.spawn(async move {
                a.create_table(row(&id), vec![None, None]).await.unwrap();
                assert_eq!(a.claim(id).await.unwrap(), Claim::Held(1));
            });
        }
        while let Some(j) = jobs.join_next().await {
            j.unwrap();
        }
        assert_eq!(a.renew().await.unwrap(), Vec::<String>::new());
        // Three of them, one in each chunk of a thousand, are taken by b.
        sql(
            &url,
            "UPDATE leases SET expires = 0 WHERE table_id IN ('r00007', 'r01500', 'r02299')",
        );
        for t in ["r00007", "r01500", "r02299"] {
            assert_eq!(b.claim(t.into()).await.unwrap(), Claim::Held(2));
        }
        let before = sql(&url, "SELECT min(expires) FROM leases WHERE node = 'a'").unwrap();
        let mut lost = a.renew().await.unwrap();
        lost.sort();
        assert_eq!(lost, ["r00007", "r01500", "r02299"]);
        // Every other lease of a was renewed.
        let after = sql(&url, "SELECT min(expires) FROM leases WHERE node = 'a'").unwrap();
        assert!(after > before, "{before} {after}");
        assert_eq!(
            sql(&url, "SELECT count(*) FROM leases WHERE node = 'a'"),
            Some(2_297)
        );
        assert_eq!(a.renew().await.unwrap(), Vec::<String>::new());
        // Looking for dead or silent owners among 2,300 held leases is one cheap query.
        let polls = 200;
        let start = std::time::Instant::now();
        for _ in 0..polls {
            assert_eq!(b.orphans(64, false).await.unwrap(), Vec::<String>::new());
        }
        let each = start.elapsed() / polls;
        eprintln!("one poll for orphaned tables among 2,300 leases: {each:?}");
        assert!(each < std::time::Duration::from_millis(50), "{each:?}");
        a.close().await;
        b.close().await;
    });
}

/// Ends the session holding `node`'s lock, as a lost connection does (the node's process
/// goes on).
fn cut(url: &str, node: &str) {
    let n = sql(
        url,
        &format!(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_locks
             WHERE locktype = 'advisory' AND objsubid = 2 AND objid = hashtext('{node}')::oid
               AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
        ),
    );
    assert_eq!(n, Some(1), "one session holds {node}'s lock");
}

#[test]
#[ignore = "needs PostgreSQL: deploy/test-postgres.sh runs it"]
fn a_dead_nodes_tables_are_taken_at_once_and_a_live_ones_are_not() {
    let (rt, _url, a, b) = two_nodes("dead");
    rt.block_on(async {
        for t in ["t1", "t2", "t3"] {
            a.create_table(row(t), vec![None, None]).await.unwrap();
            assert_eq!(a.claim(t.into()).await.unwrap(), Claim::Held(1));
        }
        // A finished table's lease is let go rather than taken.
        a.set_status(
            "t3".into(),
            tapete_server::table::TableStatus::Finished,
            Some(json!({})),
        )
        .await
        .unwrap();
        // a is alive: its leases, far from expiring, are its own.
        assert_eq!(
            b.claim("t1".into()).await.unwrap(),
            Claim::Elsewhere("a".into())
        );
        assert_eq!(b.orphans(10, false).await.unwrap(), Vec::<String>::new());
        // a's process ends: PostgreSQL ends its session, and its lock with it.
        a.close().await;
        // No lease has expired, yet b, asked for one of a's tables, takes it at once
        // (once PostgreSQL has ended the session, in a few milliseconds).
        let start = std::time::Instant::now();
        while b.claim("t1".into()).await.unwrap() != Claim::Held(2) {
            assert!(start.elapsed() < std::time::Duration::from_secs(2));
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        eprintln!("a's table taken {:?} after a closed", start.elapsed());
        // The one nobody asks for, b's poll finds once a has been gone for a moment (the
        // pages of a's tables reach the node that will serve them first): not a
        // millisecond before, on b's clock.
        let adopt_after = tapete_server::store::lease::ADOPT_AFTER;
        let ms = std::time::Duration::from_millis(1);
        assert_eq!(b.orphans(10, false).await.unwrap(), Vec::<String>::new());
        tokio::time::advance(adopt_after - ms).await;
        assert_eq!(b.orphans(10, false).await.unwrap(), Vec::<String>::new());
        tokio::time::advance(ms).await;
        assert_eq!(b.orphans(10, false).await.unwrap(), ["t2"]);
        assert_eq!(b.claim("t2".into()).await.unwrap(), Claim::Held(2));
        assert_eq!(b.orphans(10, false).await.unwrap(), Vec::<String>::new());
        b.close().await;
    });
}

#[test]
#[ignore = "needs PostgreSQL: deploy/test-postgres.sh runs it"]
fn a_node_whose_connection_was_cut_takes_its_lock_again_and_keeps_what_nobody_took() {
    let (rt, url, a, b) = two_nodes("cut");
    rt.block_on(async {
        for t in ["t1", "t2"] {
            a.create_table(row(t), vec![None, None]).await.unwrap();
            assert_eq!(a.claim(t.into()).await.unwrap(), Claim::Held(1));
        }
        // a's connection is cut: to b, a is dead until it connects again.
        cut(&url, "a");
        let start = std::time::Instant::now();
        while b.claim("t1".into()).await.unwrap() != Claim::Held(2) {
            assert!(start.elapsed() < std::time::Duration::from_secs(2));
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        // a connects again at its next transaction (the first finds the connection
        // gone), takes its lock again, and learns that t1 is b's now.
        let lost = match a.renew().await {
            Ok(lost) => lost,
            Err(_) => a.renew().await.unwrap(),
        };
        assert_eq!(lost, ["t1"]);
        let e = a
            .append_action("t1".into(), 1, 0, "x".into(), None, false)
            .await;
        assert!(e.unwrap_err().0.contains(NOT_OWNER));
        // t2, which nobody took, is still a's: a is alive again.
        assert_eq!(
            b.claim("t2".into()).await.unwrap(),
            Claim::Elsewhere("a".into())
        );
        a.append_action("t2".into(), 1, 0, "x".into(), None, false)
            .await
            .unwrap();
        // Just connected again, a takes nothing from another node, not even an expired
        // lease: after a database restart every node renews its own first.
        expire_all(&url);
        assert_eq!(
            a.claim("t1".into()).await.unwrap(),
            Claim::Elsewhere("b".into())
        );
        assert_eq!(a.orphans(10, false).await.unwrap(), Vec::<String>::new());
        // Until its grace is over, on its clock, to the millisecond.
        let grace = tapete_server::store::lease::RECONNECT_GRACE;
        let ms = std::time::Duration::from_millis(1);
        tokio::time::advance(grace - ms).await;
        assert_eq!(
            a.claim("t1".into()).await.unwrap(),
            Claim::Elsewhere("b".into())
        );
        tokio::time::advance(ms).await;
        assert_eq!(a.claim("t1".into()).await.unwrap(), Claim::Held(3));
        a.close().await;
        b.close().await;
    });
}

#[test]
#[ignore = "needs PostgreSQL: deploy/test-postgres.sh runs it"]
fn a_second_server_under_a_running_ones_name_is_refused() {
    let (rt, url, a, b) = two_nodes("twice");
    let start = std::time::Instant::now();
    let e = match Db::open_postgres(&url, "a", None) {
        Ok(_) => panic!("two servers named a"),
        Err(e) => e,
    };
    assert!(e.0.contains("another server named `a`"), "{e}");
    assert!(start.elapsed() >= tapete_server::store::lease::LOCK_WAIT);
    rt.block_on(async {
        // Once the first is gone, its name is free at once.
        a.close().await;
        let again = Db::open_postgres(&url, "a", None).unwrap();
        again.close().await;
        b.close().await;
    });
}
