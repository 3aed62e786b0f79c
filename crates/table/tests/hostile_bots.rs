//! Programs that misbehave on purpose against the bot protocol: children left behind,
//! endless lines, floods, blank lines and stale answers, stderr spam. The table must stay
//! in charge: bounded memory, decisions taken by the deadline, nothing left running.
#![cfg(target_os = "linux")]

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tapete_table::test_race::Race;
use tapete_table::{Bot, ProcessBot, ProcessOptions};

/// A directory of its own for one test's files, removed when dropped.
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("tapete-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    Scratch(dir)
}

/// A bot running `script` (with `$DIR` standing for `dir`), seated and started.
fn bot(dir: &Path, script: &str, timeout_ms: u64, max_answers: u32) -> ProcessBot<Race> {
    let options = ProcessOptions {
        timeout: Duration::from_millis(timeout_ms),
        max_answers,
        ..ProcessOptions::new("race")
    };
    let script = script.replace("$DIR", &dir.display().to_string());
    let mut bot = ProcessBot::new(&script, options, Box::new(tapete_table::RandomBot));
    bot.start(0, 2, &());
    bot
}

/// One decision of `bot`, where 1 and 2 are legal.
fn decide(bot: &mut ProcessBot<Race>) -> u8 {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    bot.act(&0, &[1, 2], &mut rng)
}

/// Waits (a few seconds at most) for a file the script writes.
fn wait_for(path: &Path, limit: Duration) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if path.exists() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
}

/// The pid a script wrote to `path`. The shell creates the file before it
/// writes the number, so an empty file means "not yet", not "no pid".
fn pid_in(path: &Path) -> u32 {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(5) {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        if let Ok(pid) = text.trim().parse() {
            return pid;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("{path:?} holds no pid after 5 s");
}

/// Whether `pid` runs (a zombie waiting for its parent does not).
fn runs(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z"),
        Err(_) => false,
    }
}

/// Whether `pid` is gone within a few seconds (killing is asynchronous).
fn ends(pid: u32) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(5) {
        if !runs(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
}

/// This process's peak resident memory, in bytes.
fn peak_memory() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM");
    kb * 1024
}

const MB: u64 = 1024 * 1024;

#[test]
fn a_child_of_a_program_that_exited_is_killed_with_it() {
    let dir = scratch("exited");
    let mut b = bot(
        &dir,
        "sleep 1000 </dev/null >/dev/null 2>&1 & echo $! > $DIR/child; exit 3",
        5000,
        3,
    );
    let child = pid_in(&dir.join("child"));
    assert!([1, 2].contains(&decide(&mut b)));
    let incidents = b.incidents();
    assert_eq!(incidents.len(), 1, "{incidents:?}");
    assert!(incidents[0].contains("exit status: 3"), "{incidents:?}");
    assert!(ends(child), "the program's child {child} still runs");
}

#[test]
fn a_child_holding_the_pipes_is_killed_after_a_timeout() {
    let dir = scratch("holding");
    // The child keeps stdout open, so the table only sees silence.
    let mut b = bot(&dir, "sleep 1000 & echo $! > $DIR/child; exit 0", 300, 3);
    let child = pid_in(&dir.join("child"));
    decide(&mut b);
    let incidents = b.incidents();
    assert!(incidents[0].contains("no answer"), "{incidents:?}");
    assert!(ends(child), "the program's child {child} still runs");
}

#[test]
fn a_child_left_running_at_the_end_is_killed() {
    let dir = scratch("end");
    let mut b = bot(
        &dir,
        r#"sleep 1000 </dev/null >/dev/null 2>&1 & echo $! > $DIR/child
while read -r line; do case "$line" in *'"act"'*) echo '{"action":"1"}';; esac; done
exit 0"#,
        5000,
        3,
    );
    let child = pid_in(&dir.join("child"));
    assert_eq!(decide(&mut b), 1);
    b.finish(None, &1);
    assert_eq!(b.incidents(), Vec::<String>::new());
    assert!(ends(child), "the program's child {child} still runs");
}

#[test]
fn an_endless_line_is_refused_early_and_never_kept() {
    let dir = scratch("long-line");
    let before = peak_memory();
    // 300 MB on one line that never ends: the program then waits with it open.
    let mut b = bot(
        &dir,
        r"head -c 300000000 /dev/zero | tr '\0' a; touch $DIR/written; exec sleep 1000",
        2000,
        1,
    );
    assert!(
        wait_for(&dir.join("written"), Duration::from_secs(60)),
        "the line was written"
    );
    assert!([1, 2].contains(&decide(&mut b)));
    let incidents = b.incidents();
    assert_eq!(incidents.len(), 1, "{incidents:?}");
    assert!(
        incidents[0].contains("longer than 65536 bytes"),
        "{incidents:?}"
    );
    assert!(incidents[0].contains("it was stopped"), "{incidents:?}");
    let grew = peak_memory().saturating_sub(before);
    assert!(grew < 64 * MB, "memory grew by {} MB", grew / MB);
}

#[test]
fn a_flood_of_lines_waits_for_the_table() {
    let dir = scratch("flood");
    let before = peak_memory();
    // Three million blank lines before any request: a table reading them all ahead would
    // hold them in memory; a bounded one makes the program wait.
    let mut b = bot(
        &dir,
        "yes '' | head -n 3000000; touch $DIR/flooded; exec sleep 1000",
        500,
        3,
    );
    let flooded = wait_for(&dir.join("flooded"), Duration::from_secs(3));
    let grew = peak_memory().saturating_sub(before);
    assert!(grew < 64 * MB, "memory grew by {} MB", grew / MB);
    assert!(!flooded, "the program wrote its flood without waiting");
    // Blank lines are no answer: the decision times out.
    decide(&mut b);
    let incidents = b.incidents();
    assert!(incidents[0].contains("no answer"), "{incidents:?}");
}

#[test]
fn blank_lines_and_stale_answers_do_not_put_off_the_deadline() {
    let dir = scratch("deadline");
    // Something every 50 ms for 4 s, then exit: a deadline put off by each line would
    // last until the exit.
    for line in ["", r#"{"id":0,"action":"1"}"#] {
        let script = format!(
            "i=0; while [ $i -lt 80 ]; do echo '{line}'; sleep 0.05; i=$((i+1)); done; exit 0"
        );
        let mut b = bot(&dir, &script, 1000, 3);
        decide(&mut b);
        let incidents = b.incidents();
        assert_eq!(incidents.len(), 1, "{line:?}: {incidents:?}");
        assert!(
            incidents[0].contains("no answer to request 1 within 1.0 s"),
            "{line:?}: {incidents:?}"
        );
    }
}

#[test]
fn stderr_spam_is_kept_short_and_said_to_be_cut() {
    let dir = scratch("stderr");
    let before = peak_memory();
    let mut b = bot(
        &dir,
        r"{ head -c 200000000 /dev/zero | tr '\0' e; echo; yes spam | head -n 200000; echo last words; } >&2; exit 4",
        10_000,
        3,
    );
    decide(&mut b);
    let incidents = b.incidents();
    assert_eq!(incidents.len(), 1, "{incidents:?}");
    let note = &incidents[0];
    assert!(note.contains("exit status: 4"), "{note}");
    assert!(note.contains("its stderr ends: last words"), "{note}");
    assert!(note.contains("were not kept"), "{note}");
    assert!(note.len() < 4096, "{} bytes", note.len());
    let grew = peak_memory().saturating_sub(before);
    assert!(grew < 64 * MB, "memory grew by {} MB", grew / MB);
}

#[test]
fn endless_long_lines_stop_the_program_at_the_first() {
    let dir = scratch("long-lines");
    // Line after line of 20 MiB: each one is garbage, and the program never tires.
    let mut b = bot(
        &dir,
        r"while :; do head -c 20971520 /dev/zero | tr '\0' a; echo; done & exec cat >/dev/null",
        10_000,
        1_000_000,
    );
    let start = Instant::now();
    for _ in 0..20 {
        assert!([1, 2].contains(&decide(&mut b)));
    }
    let incidents = b.incidents();
    assert_eq!(incidents.len(), 1, "{incidents:?}");
    assert!(
        incidents[0].contains("wrote a line longer than 65536 bytes on stdout"),
        "{incidents:?}"
    );
    assert!(incidents[0].contains("it was stopped"), "{incidents:?}");
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn streaming_garbage_is_stopped_by_the_deadline() {
    let dir = scratch("garbage");
    // Short bad answers without end, and answers allowed without end: only the time limit
    // can end the decision. The program reads its stdin (the errors sent back) all along;
    // a shell loop writes slowly enough that its reader keeps up with the longer errors
    // even on a loaded machine (`yes` could outrun it into the unread cap instead).
    let mut b = bot(
        &dir,
        "while :; do echo garbage; done & exec cat >/dev/null",
        500,
        u32::MAX,
    );
    let start = Instant::now();
    assert!([1, 2].contains(&decide(&mut b)));
    let took = start.elapsed();
    let incidents = b.incidents();
    assert_eq!(incidents.len(), 1, "{incidents:?}");
    assert!(
        incidents[0].contains("no answer to request 1 within 0.5 s"),
        "{incidents:?}"
    );
    assert!(took < Duration::from_secs(3), "{took:?}");
}

/// A race whose view is a quarter of a MiB: every request is that big.
#[derive(Clone)]
struct BigRace(Race);

impl tapete_table::Game for BigRace {
    const NAME: &'static str = "big race";
    type Rules = ();
    type Action = u8;
    type View = String;
    type Event = u8;
    type Error = String;
    fn new(_: &(), seats: usize, seed: u64) -> Result<Self, tapete_table::SetupError> {
        Race::new(&(), seats, seed).map(BigRace)
    }
    fn to_act(&self) -> tapete_table::ToAct {
        self.0.to_act()
    }
    fn legal_actions(&self, seat: usize) -> Vec<u8> {
        self.0.legal_actions(seat)
    }
    fn apply(&mut self, seat: usize, a: &u8) -> Result<Vec<u8>, String> {
        self.0.apply(seat, a)
    }
    fn view(&self, _: usize) -> String {
        "v".repeat(256 * 1024)
    }
    fn spectator_view(&self) -> String {
        String::new()
    }
    fn outcome(&self) -> Option<tapete_table::Outcome> {
        self.0.outcome()
    }
}

#[test]
fn a_program_that_never_reads_is_stopped_before_its_backlog_grows() {
    use tapete_table::protocol::MAX_UNREAD;
    // Answers without reading a byte of what it is sent.
    let mut b = ProcessBot::<BigRace>::new(
        "exec yes '{\"action\":\"1\"}'",
        ProcessOptions::new("big race"),
        Box::new(tapete_table::RandomBot),
    );
    b.start(0, 2, &());
    let view = "v".repeat(256 * 1024);
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut stopped_at = None;
    for i in 0..200 {
        assert!([1, 2].contains(&b.act(&view, &[1, 2], &mut rng)));
        let incidents = b.incidents();
        if !incidents.is_empty() {
            assert_eq!(incidents.len(), 1, "{incidents:?}");
            assert!(
                incidents[0].contains("the program does not read its stdin"),
                "{incidents:?}"
            );
            assert!(incidents[0].contains("it was stopped"), "{incidents:?}");
            stopped_at = Some(i);
            break;
        }
    }
    // What the pipe holds, then the backlog allowed: a few more requests at most.
    let most = (64 * 1024 + MAX_UNREAD) / (256 * 1024) + 2;
    match stopped_at {
        Some(i) => assert!(i <= most, "stopped only after {i} requests"),
        None => panic!("200 requests of 256 KiB were left unread and the program runs on"),
    }
}
