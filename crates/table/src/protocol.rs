//! The bot protocol: any program can play a seat by reading and writing JSON lines.
//!
//! [`ProcessBot`] is a [`Bot`] that runs a command (`sh -c COMMAND`) and talks to it over
//! its stdin and stdout, one JSON object per line. tapete sends a `hello` when the game
//! starts, an `act` request (the seat's view and its legal actions as text) whenever the
//! seat must decide, an `error` when an answer is malformed or illegal, and an `end` when
//! the game is over; the program answers each `act` with `{"action": "…"}`. The full
//! description, for people writing bots, is in `docs/bot-protocol.md`.
//!
//! The game never depends on the program behaving: a malformed or illegal answer gets an
//! error message back and another chance, up to [`ProcessOptions::max_answers`] answers per
//! decision, after which the decision is played by the fallback bot; a program that dies
//! or does not answer in time is stopped and the fallback plays the seat for the rest of
//! the game. Every such incident is kept and handed out by [`Bot::incidents`].

use crate::{Bot, Game, Outcome, Seat};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::fmt::Display;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::str::FromStr;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The protocol version sent in `hello`; bumped on any incompatible change.
pub const PROTOCOL_VERSION: u32 = 1;

/// Longest answer line accepted, in bytes; longer lines are refused as malformed.
pub const MAX_LINE: usize = 1 << 20;

/// Lines of the program's stderr kept to explain why it died.
const STDERR_TAIL: usize = 5;

/// How a [`ProcessBot`] treats its program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessOptions {
    /// The game's name, sent in `hello` (`"mus"`).
    pub game: String,
    /// Longest wait for one answer (the first one includes the program's start-up).
    pub timeout: Duration,
    /// Answers allowed per decision, the first included; after that many bad ones the
    /// fallback decides.
    pub max_answers: u32,
    /// Longest wait for the program to exit after `end` before it is killed.
    pub exit_grace: Duration,
}

impl ProcessOptions {
    /// Defaults for `game`: 10 s per answer, 3 answers per decision, 2 s to exit.
    pub fn new(game: &str) -> ProcessOptions {
        ProcessOptions {
            game: game.to_string(),
            timeout: Duration::from_secs(10),
            max_answers: 3,
            exit_grace: Duration::from_secs(2),
        }
    }
}

/// What the stdout reader thread saw.
enum Line {
    Text(String),
    TooLong,
    Eof,
}

/// A program that is running.
struct Running {
    child: Child,
    /// Messages for the writer thread (which owns the program's stdin). Dropping it closes
    /// the program's stdin.
    to_stdin: Option<Sender<String>>,
    from_stdout: Receiver<Line>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
}

enum State {
    /// Not spawned yet.
    Idle,
    Running(Running),
    /// Failed (or never started): the fallback plays the seat until the next `start`.
    Failed,
    /// The game ended and the program was told.
    Done,
}

/// A seat played by an outside program through the JSON-lines bot protocol.
pub struct ProcessBot<G: Game> {
    command: String,
    options: ProcessOptions,
    fallback: Box<dyn Bot<G>>,
    state: State,
    seat: Option<Seat>,
    seats: Option<usize>,
    rules: Value,
    next_id: u64,
    incidents: Vec<String>,
}

impl<G: Game> ProcessBot<G> {
    /// A bot that runs `command` with `sh -c` when the game starts; `fallback` plays the
    /// decisions the program fails to make.
    pub fn new(command: &str, options: ProcessOptions, fallback: Box<dyn Bot<G>>) -> Self {
        ProcessBot {
            command: command.to_string(),
            options,
            fallback,
            state: State::Idle,
            seat: None,
            seats: None,
            rules: Value::Null,
            next_id: 1,
            incidents: Vec::new(),
        }
    }

    /// The command this bot runs.
    pub fn command(&self) -> &str {
        &self.command
    }

    fn who(&self) -> String {
        match self.seat {
            Some(s) => format!("seat {s} (`{}`)", self.command),
            None => format!("`{}`", self.command),
        }
    }

    /// Starts the program and sends `hello`, unless it already runs.
    fn ensure_running(&mut self) {
        if !matches!(self.state, State::Idle) {
            return;
        }
        match spawn(&self.command) {
            Ok(running) => {
                self.state = State::Running(running);
                let hello = json!({
                    "type": "hello",
                    "protocol": PROTOCOL_VERSION,
                    "game": self.options.game,
                    "seat": self.seat,
                    "seats": self.seats,
                    "rules": self.rules,
                    "timeout_ms": self.options.timeout.as_millis() as u64,
                    "max_answers": self.options.max_answers,
                });
                self.send(&hello);
            }
            Err(e) => {
                let who = self.who();
                self.fail(format!(
                    "{who}: cannot start the program: {e}; a random player takes the seat"
                ));
            }
        }
    }

    /// Queues one message for the program.
    fn send(&mut self, msg: &Value) {
        if let State::Running(r) = &mut self.state {
            if let Some(tx) = &r.to_stdin {
                // A closed writer means the program is gone: the next read tells.
                let _ = tx.send(format!("{msg}\n"));
            }
        }
    }

    /// Records an incident, stops the program and hands the seat to the fallback.
    fn fail(&mut self, incident: String) {
        self.incidents.push(incident);
        if let State::Running(r) = std::mem::replace(&mut self.state, State::Failed) {
            stop(r);
        }
    }

    /// Why the program is gone: its exit status and the last lines of its stderr.
    fn death_note(&mut self) -> String {
        let State::Running(r) = &mut self.state else {
            return String::new();
        };
        let deadline = Instant::now() + Duration::from_millis(500);
        let status = loop {
            match r.child.try_wait() {
                Ok(Some(s)) => break Some(s),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                _ => break None,
            }
        };
        // Give the stderr reader a moment to catch the last words.
        thread::sleep(Duration::from_millis(20));
        let mut note = match status {
            Some(s) => format!("the program exited ({s})"),
            None => "the program closed its output".to_string(),
        };
        let tail: Vec<String> = r
            .stderr_tail
            .lock()
            .map(|t| t.iter().cloned().collect())
            .unwrap_or_default();
        if let Some(last) = tail.last() {
            note.push_str(&format!("; its stderr ends: {last}"));
        }
        note
    }
}

/// Starts `sh -c command` with piped stdin, stdout and stderr, and the threads that
/// carry them.
fn spawn(command: &str) -> std::io::Result<Running> {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // Its own process group, so that stopping it stops whatever the shell started.
        cmd.process_group(0);
    }
    let mut child = cmd.spawn()?;
    let missing = || std::io::Error::other("the program's pipes were not set up");
    let stdin = child.stdin.take().ok_or_else(missing)?;
    let stdout = child.stdout.take().ok_or_else(missing)?;
    let stderr = child.stderr.take().ok_or_else(missing)?;

    let (to_stdin, rx) = mpsc::channel::<String>();
    thread::spawn(move || write_lines(stdin, rx));
    let (tx, from_stdout) = mpsc::channel();
    thread::spawn(move || read_lines(stdout, tx));
    let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
    let tail = Arc::clone(&stderr_tail);
    thread::spawn(move || keep_tail(stderr, tail));
    Ok(Running {
        child,
        to_stdin: Some(to_stdin),
        from_stdout,
        stderr_tail,
    })
}

/// Writes queued messages to the program's stdin, so that a program that does not read
/// never blocks the table.
fn write_lines(mut stdin: ChildStdin, rx: Receiver<String>) {
    for msg in rx {
        if stdin
            .write_all(msg.as_bytes())
            .and_then(|()| stdin.flush())
            .is_err()
        {
            return;
        }
    }
}

/// Reads the program's stdout line by line (at most [`MAX_LINE`] bytes each).
fn read_lines(stdout: impl Read, tx: Sender<Line>) {
    let mut reader = BufReader::new(stdout);
    loop {
        let mut buf = Vec::new();
        match reader
            .by_ref()
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)
        {
            Ok(0) | Err(_) => {
                let _ = tx.send(Line::Eof);
                return;
            }
            Ok(_) => {}
        }
        let line = if buf.len() > MAX_LINE {
            // Skip the rest of that line.
            let mut rest = Vec::new();
            if reader.read_until(b'\n', &mut rest).is_err() {
                let _ = tx.send(Line::Eof);
                return;
            }
            Line::TooLong
        } else {
            Line::Text(String::from_utf8_lossy(&buf).into_owned())
        };
        if tx.send(line).is_err() {
            return;
        }
    }
}

/// Keeps the last lines of the program's stderr.
fn keep_tail(stderr: impl Read, tail: Arc<Mutex<VecDeque<String>>>) {
    let reader = BufReader::new(stderr);
    for line in reader.split(b'\n') {
        let Ok(line) = line else { return };
        let text = String::from_utf8_lossy(&line).trim().to_string();
        if text.is_empty() {
            continue;
        }
        if let Ok(mut t) = tail.lock() {
            if t.len() == STDERR_TAIL {
                t.pop_front();
            }
            t.push_back(text.chars().take(300).collect());
        }
    }
}

/// Kills the program (and its process group) and reaps it.
fn stop(mut r: Running) {
    r.to_stdin = None;
    if let Ok(Some(_)) = r.child.try_wait() {
        return;
    }
    #[cfg(unix)]
    {
        // The program leads its own process group (it was started with `process_group(0)`);
        // kill that group, so programs it started go too, but only after checking the group
        // really is the one the program leads: never signal anyone else's group.
        let pid = r.child.id();
        if leads_own_group(pid) {
            let _ = Command::new("kill")
                .arg("-KILL")
                .arg("--")
                .arg(format!("-{pid}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
        }
    }
    let _ = r.child.kill();
    let _ = r.child.wait();
}

/// Whether process `pid` is alive and leads its own process group (Linux: read from
/// `/proc/PID/stat`; elsewhere, assumed from how the program was started).
#[cfg(unix)]
fn leads_own_group(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // Fields after the command name (in parentheses): state, ppid, pgrp, …
        Ok(stat) => {
            stat.rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(2))
                .and_then(|g| g.parse::<u32>().ok())
                == Some(pid)
        }
        Err(_) => !std::path::Path::new("/proc/self/stat").exists(),
    }
}

/// Reads one answer: `{"action": "…"}`, optionally with the request's `id`.
/// `Ok(None)` is an answer to an older request, to be ignored.
fn parse_answer(line: &str, id: u64) -> Result<Option<String>, String> {
    let value: Value = serde_json::from_str(line).map_err(|e| {
        format!(
            "the answer is not JSON ({e}): {}",
            line.chars().take(80).collect::<String>()
        )
    })?;
    let Some(obj) = value.as_object() else {
        return Err(r#"the answer must be a JSON object like {"action": "paso"}"#.into());
    };
    if let Some(got) = obj.get("id") {
        if got.as_u64() != Some(id) {
            return if got.as_u64().is_some_and(|g| g < id) {
                Ok(None)
            } else {
                Err(format!(
                    "the answer's id {got} is not the request's id {id}"
                ))
            };
        }
    }
    match obj.get("action") {
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(format!(
            "\"action\" must be a string like \"paso\", not {other}"
        )),
        None => Err(r#"the answer has no "action": send {"action": "paso"}"#.into()),
    }
}

impl<G: Game> Bot<G> for ProcessBot<G>
where
    <G::Action as FromStr>::Err: Display,
{
    fn start(&mut self, seat: Seat, seats: usize, rules: &G::Rules) {
        if let State::Running(r) = std::mem::replace(&mut self.state, State::Idle) {
            stop(r);
        }
        self.seat = Some(seat);
        self.seats = Some(seats);
        self.rules = serde_json::to_value(rules).unwrap_or(Value::Null);
        self.next_id = 1;
        self.ensure_running();
    }

    fn act(&mut self, view: &G::View, legal: &[G::Action], rng: &mut ChaCha8Rng) -> G::Action {
        self.ensure_running();
        if !matches!(self.state, State::Running(_)) {
            return self.fallback.act(view, legal, rng);
        }
        let id = self.next_id;
        self.next_id += 1;
        let legal_text: Vec<String> = legal.iter().map(ToString::to_string).collect();
        let view_json = match serde_json::to_value(view) {
            Ok(v) => v,
            Err(e) => {
                let who = self.who();
                self.incidents.push(format!(
                    "{who}: request {id}: the view could not be encoded ({e}); played at random"
                ));
                return self.fallback.act(view, legal, rng);
            }
        };
        self.send(&json!({ "type": "act", "id": id, "view": view_json, "legal": legal_text }));

        let timeout = self.options.timeout;
        let mut answers = 0;
        loop {
            let got = match &self.state {
                State::Running(r) => r.from_stdout.recv_timeout(timeout),
                _ => Err(RecvTimeoutError::Disconnected),
            };
            let problem = match got {
                Err(RecvTimeoutError::Timeout) => {
                    let who = self.who();
                    self.fail(format!(
                        "{who}: no answer to request {id} within {:.1} s; the program was stopped and a random player takes the seat for the rest of the game",
                        timeout.as_secs_f64()
                    ));
                    return self.fallback.act(view, legal, rng);
                }
                Ok(Line::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    let who = self.who();
                    let note = self.death_note();
                    self.fail(format!(
                        "{who}: {note} before answering request {id}; a random player takes the seat for the rest of the game"
                    ));
                    return self.fallback.act(view, legal, rng);
                }
                Ok(Line::TooLong) => format!("the answer is longer than {MAX_LINE} bytes"),
                Ok(Line::Text(text)) => {
                    let text = text.trim();
                    if text.is_empty() {
                        continue;
                    }
                    match parse_answer(text, id) {
                        Ok(None) => continue,
                        Ok(Some(said)) => match said.parse::<G::Action>() {
                            Ok(a) if legal.contains(&a) => return a,
                            Ok(a) => {
                                format!("`{a}` is not legal now; legal: {}", legal_text.join(", "))
                            }
                            Err(e) => format!("`{said}` is not an action: {e}"),
                        },
                        Err(e) => e,
                    }
                }
            };
            answers += 1;
            let left = self.options.max_answers.saturating_sub(answers);
            if left > 0 {
                self.send(&json!({
                    "type": "error", "id": id, "message": problem, "answers_left": left,
                }));
                continue;
            }
            let action = self.fallback.act(view, legal, rng);
            self.send(&json!({
                "type": "error", "id": id, "message": problem, "answers_left": 0,
                "played": action.to_string(),
            }));
            let who = self.who();
            self.incidents.push(format!(
                "{who}: request {id}: {answers} bad answers (the last: {problem}); `{action}` was played at random"
            ));
            return action;
        }
    }

    fn finish(&mut self, outcome: Option<&Outcome>, view: &G::View) {
        if let State::Running(_) = self.state {
            let won = match (outcome, self.seat) {
                (Some(o), Some(s)) => Some(o.winners.contains(&s)),
                _ => None,
            };
            let view = serde_json::to_value(view).unwrap_or(Value::Null);
            self.send(&json!({ "type": "end", "outcome": outcome, "won": won, "view": view }));
        }
        if let State::Running(mut r) = std::mem::replace(&mut self.state, State::Done) {
            // Closing stdin tells the program there is nothing more.
            r.to_stdin = None;
            let deadline = Instant::now() + self.options.exit_grace;
            while Instant::now() < deadline {
                match r.child.try_wait() {
                    Ok(None) => thread::sleep(Duration::from_millis(2)),
                    _ => break,
                }
            }
            stop(r);
        }
    }

    fn incidents(&mut self) -> Vec<String> {
        std::mem::take(&mut self.incidents)
    }
}

impl<G: Game> Drop for ProcessBot<G> {
    fn drop(&mut self) {
        if let State::Running(r) = std::mem::replace(&mut self.state, State::Done) {
            stop(r);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_race::Race;
    use crate::{play_out, RandomBot, Record};
    use rand::SeedableRng;

    #[cfg(target_os = "linux")]
    #[test]
    fn only_a_group_leader_has_its_group_killed() {
        use std::os::unix::process::CommandExt;
        // This test process is not started in a group of its own by cargo... unless it is;
        // either way the answer must match what /proc says about its group.
        let me = std::process::id();
        let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
        let pgrp: u32 = stat
            .rsplit_once(')')
            .unwrap()
            .1
            .split_whitespace()
            .nth(2)
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(leads_own_group(me), pgrp == me);
        let mut child = Command::new("sleep")
            .arg("5")
            .process_group(0)
            .spawn()
            .unwrap();
        assert!(leads_own_group(child.id()));
        let mut plain = Command::new("sleep").arg("5").spawn().unwrap();
        assert!(
            !leads_own_group(plain.id()),
            "a child in our group does not lead one"
        );
        for c in [&mut child, &mut plain] {
            c.kill().unwrap();
            c.wait().unwrap();
        }
    }

    #[test]
    fn answers_are_read_strictly_but_kindly() {
        assert_eq!(parse_answer(r#"{"action":"2"}"#, 4), Ok(Some("2".into())));
        assert_eq!(
            parse_answer(r#"{"id":4,"action":"1"}"#, 4),
            Ok(Some("1".into()))
        );
        // An answer to an older request is dropped, not counted against the bot.
        assert_eq!(parse_answer(r#"{"id":3,"action":"1"}"#, 4), Ok(None));
        for bad in [
            "paso",
            "[1]",
            r#"{"act":"2"}"#,
            r#"{"action":2}"#,
            r#"{"id":9,"action":"2"}"#,
        ] {
            assert!(parse_answer(bad, 4).is_err(), "{bad}");
        }
    }

    fn bot(cmd: &str, timeout_ms: u64) -> Box<dyn Bot<Race>> {
        let options = ProcessOptions {
            timeout: Duration::from_millis(timeout_ms),
            ..ProcessOptions::new("race")
        };
        Box::new(ProcessBot::<Race>::new(cmd, options, Box::new(RandomBot)))
    }

    /// Plays a race between `a` (seat 0) and random (seat 1); returns seat 0's incidents.
    fn race(a: Box<dyn Bot<Race>>) -> (Race, Vec<String>) {
        let mut bots = vec![a, Box::new(RandomBot) as Box<dyn Bot<Race>>];
        let mut game = Race::new(&(), 2, 0).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut record = Record::new((), 2, 0);
        play_out(
            &mut game,
            &mut bots,
            &mut rng,
            &mut record,
            100,
            |_, _, _, _| {},
        )
        .unwrap();
        (game, bots[0].incidents())
    }

    #[test]
    fn a_well_behaved_program_plays_its_seat() {
        // Answers "2" to every request, with its id; reads the hello and the end too.
        let script = r#"while read -r line; do
  case "$line" in
    *'"type":"act"'*) id=$(echo "$line" | sed 's/.*"id":\([0-9]*\).*/\1/'); echo "{\"id\":$id,\"action\":\"2\"}";;
  esac
done"#;
        let (game, incidents) = race(bot(script, 5000));
        assert!(game.outcome().is_some());
        assert_eq!(incidents, Vec::<String>::new());
    }

    #[test]
    fn illegal_answers_get_retries_then_a_random_move() {
        let (game, incidents) = race(bot(
            r#"while read -r line; do echo '{"action":"7"}'; done"#,
            5000,
        ));
        assert!(game.outcome().is_some());
        assert!(!incidents.is_empty());
        assert!(
            incidents[0].contains("`7` is not legal now"),
            "{incidents:?}"
        );
        assert!(incidents[0].contains("3 bad answers"), "{incidents:?}");
    }

    #[test]
    fn a_program_that_dies_or_hangs_is_replaced_for_the_game() {
        let (game, incidents) = race(bot("echo bye >&2; exit 5", 5000));
        assert!(game.outcome().is_some());
        assert_eq!(incidents.len(), 1, "{incidents:?}");
        assert!(incidents[0].contains("exit status: 5"), "{incidents:?}");
        assert!(incidents[0].contains("bye"), "{incidents:?}");

        let (game, incidents) = race(bot("sleep 20", 200));
        assert!(game.outcome().is_some());
        assert_eq!(incidents.len(), 1, "{incidents:?}");
        assert!(incidents[0].contains("no answer"), "{incidents:?}");
    }
}
