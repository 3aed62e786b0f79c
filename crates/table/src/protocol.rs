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
//!
//! Nor can a program take more than its share: the time for a request is fixed when it is
//! sent, stdout lines are capped at [`MAX_LINE`] bytes while they are read (a program
//! writing a longer one is stopped) and at most [`QUEUED_LINES`] wait, messages the program
//! leaves unread are capped at [`ProcessOptions::max_unread`] bytes (past that it is
//! stopped), only the end of stderr is kept, and stopping a program kills its whole process
//! group, so nothing it started outlives it.

mod programs;

pub use programs::{stop_programs_on_signals, MAX_PROGRAMS};

use crate::{Bot, Game, Outcome, Seat};
use programs::Program;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::fmt::Display;
use std::io::{Read, Write};
use std::process::{ChildStdin, Command, Stdio};
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The protocol version sent in `hello`; bumped on any incompatible change.
pub const PROTOCOL_VERSION: u32 = 1;

/// Longest line accepted from a program's stdout, in bytes (the newline not counted). A
/// program writing a longer line is stopped as soon as the line passes this length (an
/// answer is one short line: anything that long is garbage), and none of it is kept.
pub const MAX_LINE: usize = 64 * 1024;

/// Default of [`ProcessOptions::max_unread`]: 4 MiB of messages written to a program and
/// not yet read by it.
pub const MAX_UNREAD: usize = 4 * 1024 * 1024;

/// Lines from a program's stdout waiting to be read by the table. When they are this
/// many, tapete stops reading until it needs an answer, so a program that floods its
/// stdout waits instead of filling the memory.
pub const QUEUED_LINES: usize = 16;

/// Lines kept from the end of a program's stderr, to explain why it died.
pub const STDERR_LINES: usize = 8;

/// Bytes kept of each stderr line; the rest of a longer line is dropped.
pub const STDERR_LINE: usize = 1024;

/// How long to wait for a dead program's exit status and last stderr.
const DEATH_WAIT: Duration = Duration::from_millis(500);

/// How a [`ProcessBot`] treats its program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessOptions {
    /// The game's name, sent in `hello` (`"mus"`).
    pub game: String,
    /// Longest wait for the answer to one request, counted from the moment the request is
    /// sent and the same for all its answers (the first request's includes the program's
    /// start-up).
    pub timeout: Duration,
    /// Answers allowed per decision, the first included; after that many bad ones the
    /// fallback decides.
    pub max_answers: u32,
    /// Longest wait for the program to exit after `end` before it is killed.
    pub exit_grace: Duration,
    /// Most bytes of messages waiting for the program to read them (beyond what its stdin
    /// pipe holds). A program that does not read its stdin is stopped when one more message
    /// would pass this, so it cannot make tapete hold an ever-growing queue; a single
    /// message is always sent to a program that has read everything before it.
    pub max_unread: usize,
}

impl ProcessOptions {
    /// Defaults for `game`: 10 s per request, 3 answers per decision, 2 s to exit.
    pub fn new(game: &str) -> ProcessOptions {
        ProcessOptions {
            game: game.to_string(),
            timeout: Duration::from_secs(10),
            max_answers: 3,
            exit_grace: Duration::from_secs(2),
            max_unread: MAX_UNREAD,
        }
    }
}

/// What the stdout reader thread saw.
#[derive(Debug, PartialEq, Eq)]
enum Line {
    Text(String),
    /// A line past [`MAX_LINE`] bytes (sent once, when it passes; then nothing more is read).
    TooLong,
    Eof,
}

/// A program that is running.
struct Running {
    program: Program,
    /// Messages for the writer thread (which owns the program's stdin). Dropping it closes
    /// the program's stdin.
    to_stdin: Option<Sender<String>>,
    /// Bytes handed to the writer thread and not yet written into the program's stdin.
    unread: Arc<AtomicUsize>,
    from_stdout: Receiver<Line>,
    stderr: Arc<Mutex<StderrTail>>,
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
    /// Whether the program has written anything on stdout in this game.
    spoke: bool,
    /// Why the program could not be started, if it could not: see [`Bot::unable`].
    unable: Option<String>,
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
            spoke: false,
            unable: None,
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
                let _ = self.send(&hello);
            }
            Err(e) => {
                let who = self.who();
                self.unable = Some(format!("{who}: cannot start the program: {e}"));
                self.fail(format!(
                    "{who}: cannot start the program: {e}; a random player takes the seat"
                ));
            }
        }
    }

    /// Queues one message for the program; false when the program is not running (any
    /// more: one that left more than [`ProcessOptions::max_unread`] bytes unread is
    /// stopped here).
    fn send(&mut self, msg: &Value) -> bool {
        let State::Running(r) = &mut self.state else {
            return false;
        };
        let text = format!("{msg}\n");
        let unread = r.unread.load(Ordering::SeqCst);
        if unread > 0 && unread + text.len() > self.options.max_unread {
            let who = self.who();
            self.fail(format!(
                "{who}: the program does not read its stdin ({unread} bytes of messages wait unread, and at most {} may); it was stopped and a random player takes the seat for the rest of the game",
                self.options.max_unread
            ));
            return false;
        }
        if let Some(tx) = &r.to_stdin {
            r.unread.fetch_add(text.len(), Ordering::SeqCst);
            // A closed writer means the program is gone: the next read tells.
            let _ = tx.send(text);
        }
        true
    }

    /// Records an incident, stops the program and hands the seat to the fallback.
    fn fail(&mut self, incident: String) {
        self.incidents.push(incident);
        if let State::Running(r) = std::mem::replace(&mut self.state, State::Failed) {
            stop(r);
        }
    }

    /// Why the program is gone: its exit status and the end of its stderr, in words, and
    /// the exit status if it came.
    fn death_note(&mut self) -> (String, Option<std::process::ExitStatus>) {
        let State::Running(r) = &mut self.state else {
            return (String::new(), None);
        };
        // Wait a little for the exit status and for the stderr reader to catch the last
        // words (until the program's stderr closes).
        let deadline = Instant::now() + DEATH_WAIT;
        let mut status = None;
        loop {
            if status.is_none() {
                status = r.program.exit_status();
            }
            let closed = r.stderr.lock().map(|t| t.closed).unwrap_or(true);
            if (status.is_some() && closed) || Instant::now() >= deadline {
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
        let mut note = match status {
            Some(s) => format!("the program exited ({s})"),
            None => "the program closed its output".to_string(),
        };
        if let Ok(tail) = r.stderr.lock() {
            if let Some(last) = tail.last_line() {
                note.push_str(&format!("; its stderr ends: {last}"));
            }
            if tail.dropped > 0 {
                note.push_str(&format!(
                    " ({} earlier bytes of its stderr were not kept)",
                    tail.dropped
                ));
            }
        }
        (note, status)
    }
}

/// Words the shell itself understands first in a command (builtins and keywords): a
/// command starting with one is not looked up as a program.
const SHELL_WORDS: &[&str] = &[
    ".", ":", "[", "alias", "bg", "break", "case", "cd", "command", "continue", "echo", "eval",
    "exec", "exit", "export", "false", "fg", "for", "getopts", "hash", "if", "jobs", "kill",
    "printf", "pwd", "read", "readonly", "return", "set", "shift", "test", "times", "trap", "true",
    "type", "ulimit", "umask", "unalias", "unset", "until", "wait", "while", "{", "!",
];

/// Checks, before anything is played, that a plain command (a program and its arguments,
/// no shell syntax) names a program that can be run: a path to an executable file, or a
/// name found on `PATH`. The error says what is missing. Commands using shell syntax
/// (pipes, quotes, variables, `&&`…) and shell builtins are not checked here: a shell
/// that cannot run them exits with 127 or 126, which [`Bot::unable`] reports.
pub fn check_command(command: &str) -> Result<(), String> {
    let command = command.trim();
    let special = |c: char| "\n;&|<>()$`\"'\\*?[]{}~=#".contains(c);
    if command.chars().any(special) {
        return Ok(());
    }
    let Some(program) = command.split_whitespace().next() else {
        return Err("the command is empty".into());
    };
    if SHELL_WORDS.contains(&program) {
        return Ok(());
    }
    let runnable = |p: &std::path::Path| -> bool {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            p.metadata()
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        }
        #[cfg(not(unix))]
        {
            p.is_file()
        }
    };
    if program.contains('/') {
        let path = std::path::Path::new(program);
        return if runnable(path) {
            Ok(())
        } else if path.exists() {
            Err(format!(
                "`{program}` is not an executable file (run it through its interpreter, e.g. `python3 {program}`, or make it executable)"
            ))
        } else {
            Err(format!("`{program}` does not exist"))
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    if std::env::split_paths(&path).any(|dir| runnable(&dir.join(program))) {
        Ok(())
    } else {
        Err(format!(
            "`{program}` is not found: no such program on PATH (give its path, e.g. `./{program}`)"
        ))
    }
}

/// Starts `sh -c command` with piped stdin, stdout and stderr, in a process group of its
/// own, and the threads that carry them.
fn spawn(command: &str) -> std::io::Result<Running> {
    check_command(command).map_err(std::io::Error::other)?;
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut program = Program::spawn(&mut cmd)?;
    let (stdin, stdout, stderr) = program
        .pipes()
        .ok_or_else(|| std::io::Error::other("the program's pipes were not set up"))?;

    let (to_stdin, rx) = mpsc::channel::<String>();
    let unread = Arc::new(AtomicUsize::new(0));
    let written = Arc::clone(&unread);
    thread::spawn(move || write_lines(stdin, rx, &written));
    let (tx, from_stdout) = mpsc::sync_channel(QUEUED_LINES);
    thread::spawn(move || read_lines(stdout, tx));
    let tail = Arc::new(Mutex::new(StderrTail::default()));
    let kept = Arc::clone(&tail);
    thread::spawn(move || keep_tail(stderr, kept));
    Ok(Running {
        program,
        to_stdin: Some(to_stdin),
        unread,
        from_stdout,
        stderr: tail,
    })
}

/// Writes queued messages to the program's stdin, so that a program that does not read
/// never blocks the table; `unread` counts the bytes queued and not written yet.
fn write_lines(mut stdin: ChildStdin, rx: Receiver<String>, unread: &AtomicUsize) {
    for msg in rx {
        let wrote = stdin.write_all(msg.as_bytes()).and_then(|()| stdin.flush());
        unread.fetch_sub(msg.len(), Ordering::SeqCst);
        if wrote.is_err() {
            return;
        }
    }
}

/// Bytes read from a program's pipes at a time.
const CHUNK: usize = 16 * 1024;

/// Reads `from` in chunks, handing each to `take`, until the end, an error, or `take`
/// says stop (returns false).
fn read_chunks(mut from: impl Read, mut take: impl FnMut(&[u8]) -> bool) {
    let mut chunk = vec![0u8; CHUNK];
    loop {
        match from.read(&mut chunk) {
            Ok(0) => return,
            Ok(n) => {
                if !take(&chunk[..n]) {
                    return;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
}

/// Reads the program's stdout into lines of at most [`MAX_LINE`] bytes, never holding
/// more than that: a longer line is reported as [`Line::TooLong`] as soon as it passes
/// the cap, and then reading stops (the program is to be stopped). At most
/// [`QUEUED_LINES`] lines wait in `tx`; past that the reader (and so the program) waits.
fn read_lines(stdout: impl Read, tx: SyncSender<Line>) {
    let mut line: Vec<u8> = Vec::new();
    let mut too_long = false;
    read_chunks(stdout, |mut bytes| {
        while !bytes.is_empty() {
            let (part, ended) = match bytes.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    let part = &bytes[..i];
                    bytes = &bytes[i + 1..];
                    (part, true)
                }
                None => (std::mem::take(&mut bytes), false),
            };
            if line.len() + part.len() > MAX_LINE {
                too_long = true;
                let _ = tx.send(Line::TooLong);
                return false;
            }
            line.extend_from_slice(part);
            if ended {
                let text = String::from_utf8_lossy(&line).into_owned();
                line.clear();
                if tx.send(Line::Text(text)).is_err() {
                    return false;
                }
            }
        }
        true
    });
    if !too_long {
        let _ = tx.send(Line::Eof);
    }
}

/// The end of a program's stderr: its last [`STDERR_LINES`] non-blank lines, each cut at
/// [`STDERR_LINE`] bytes, and how much was dropped.
#[derive(Debug, Default)]
struct StderrTail {
    /// The lines kept, as shown, each with the number of its bytes stored.
    lines: VecDeque<(String, usize)>,
    /// The line being read: its first [`STDERR_LINE`] bytes.
    partial: Vec<u8>,
    /// Whether the line being read was longer.
    cut: bool,
    /// Bytes of non-blank lines not kept: the cut ends of long lines, and lines pushed out
    /// by later ones.
    dropped: u64,
    /// The program's stderr has closed.
    closed: bool,
}

impl StderrTail {
    /// Takes in the next bytes of stderr.
    fn push(&mut self, mut bytes: &[u8]) {
        while let Some(i) = bytes.iter().position(|&b| b == b'\n') {
            self.take(&bytes[..i]);
            self.end_line();
            bytes = &bytes[i + 1..];
        }
        self.take(bytes);
    }

    /// Adds part of the current line, up to the cap.
    fn take(&mut self, part: &[u8]) {
        let room = STDERR_LINE - self.partial.len();
        let kept = part.len().min(room);
        self.partial.extend_from_slice(&part[..kept]);
        if kept < part.len() {
            self.cut = true;
            self.dropped += (part.len() - kept) as u64;
        }
    }

    /// The current line, as text (empty when blank).
    fn partial_text(&self) -> String {
        let text = String::from_utf8_lossy(&self.partial).trim().to_string();
        if self.cut && !text.is_empty() {
            format!("{text}… (cut)")
        } else {
            text
        }
    }

    fn end_line(&mut self) {
        let text = self.partial_text();
        let stored = self.partial.len();
        self.partial.clear();
        self.cut = false;
        if text.is_empty() {
            return;
        }
        if self.lines.len() == STDERR_LINES {
            if let Some((_, bytes)) = self.lines.pop_front() {
                self.dropped += bytes as u64;
            }
        }
        self.lines.push_back((text, stored));
    }

    /// The last non-blank line, even if it has no newline yet.
    fn last_line(&self) -> Option<String> {
        let partial = self.partial_text();
        if partial.is_empty() {
            self.lines.back().map(|(text, _)| text.clone())
        } else {
            Some(partial)
        }
    }
}

/// Keeps the end of the program's stderr, reading all of it so that the program never
/// blocks on it.
fn keep_tail(stderr: impl Read, tail: Arc<Mutex<StderrTail>>) {
    read_chunks(stderr, |bytes| match tail.lock() {
        Ok(mut t) => {
            t.push(bytes);
            true
        }
        Err(_) => false,
    });
    if let Ok(mut t) = tail.lock() {
        t.end_line();
        t.closed = true;
    }
}

/// Kills the program and everything it started (its process group), and reaps it.
fn stop(mut r: Running) {
    r.to_stdin = None;
    r.program.stop();
}

/// Why `said` is not an action, given the game's own reason: the reason alone when it
/// already quotes the answer (as the games' reasons do), so the text is not said twice.
fn not_an_action(said: &str, reason: &str) -> String {
    if reason.contains(&format!("`{}`", said.trim())) {
        reason.to_string()
    } else {
        format!("`{said}` is not an action: {reason}")
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
        self.spoke = false;
        self.unable = None;
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
        if !self.send(&json!({ "type": "act", "id": id, "view": view_json, "legal": legal_text })) {
            return self.fallback.act(view, legal, rng);
        }

        // One deadline for the whole request, whatever comes in the meantime: blank lines,
        // answers to older requests and bad answers do not put it off.
        let timeout = self.options.timeout;
        let deadline = Instant::now() + timeout;
        let mut answers = 0;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let got = match &self.state {
                State::Running(_) if left.is_zero() => Err(RecvTimeoutError::Timeout),
                State::Running(r) => r.from_stdout.recv_timeout(left),
                _ => return self.fallback.act(view, legal, rng),
            };
            if matches!(got, Ok(Line::Text(_) | Line::TooLong)) {
                self.spoke = true;
            }
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
                    let (note, status) = self.death_note();
                    // A shell that could not find or run the command exits with 127 or
                    // 126: the program never started, and no game with it can be played.
                    if !self.spoke && matches!(status.and_then(|s| s.code()), Some(126 | 127)) {
                        self.unable = Some(format!("{who}: cannot start the program: {note}"));
                    }
                    self.fail(format!(
                        "{who}: {note} before answering request {id}; a random player takes the seat for the rest of the game"
                    ));
                    return self.fallback.act(view, legal, rng);
                }
                Ok(Line::TooLong) => {
                    let who = self.who();
                    self.fail(format!(
                        "{who}: the program wrote a line longer than {MAX_LINE} bytes on stdout (an answer is one short line); it was stopped and a random player takes the seat for the rest of the game"
                    ));
                    return self.fallback.act(view, legal, rng);
                }
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
                            Err(e) => not_an_action(&said, &e.to_string()),
                        },
                        Err(e) => e,
                    }
                }
            };
            answers += 1;
            let left = self.options.max_answers.saturating_sub(answers);
            if left > 0 {
                if !self.send(&json!({
                    "type": "error", "id": id, "message": problem, "answers_left": left,
                })) {
                    return self.fallback.act(view, legal, rng);
                }
                continue;
            }
            let action = self.fallback.act(view, legal, rng);
            let _ = self.send(&json!({
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
            let _ =
                self.send(&json!({ "type": "end", "outcome": outcome, "won": won, "view": view }));
        }
        if let State::Running(mut r) = std::mem::replace(&mut self.state, State::Done) {
            // Closing stdin tells the program there is nothing more.
            r.to_stdin = None;
            let deadline = Instant::now() + self.options.exit_grace;
            while Instant::now() < deadline && r.program.exit_status().is_none() {
                thread::sleep(Duration::from_millis(2));
            }
            // Whatever it left running goes with it.
            stop(r);
        }
    }

    fn incidents(&mut self) -> Vec<String> {
        std::mem::take(&mut self.incidents)
    }

    fn unable(&self) -> Option<String> {
        self.unable.clone()
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

    /// Serves `long` bytes of `a` with no newline, then waits for `go` before ending the
    /// line and sending one answer.
    struct Gated {
        long: usize,
        go: Receiver<()>,
        rest: Option<&'static [u8]>,
    }

    impl Read for Gated {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.long > 0 {
                let n = self.long.min(buf.len());
                buf[..n].fill(b'a');
                self.long -= n;
                return Ok(n);
            }
            let Some(rest) = self.rest.take() else {
                return Ok(0);
            };
            if self.go.recv().is_err() {
                return Ok(0);
            }
            buf[..rest.len()].copy_from_slice(rest);
            Ok(rest.len())
        }
    }

    #[test]
    fn a_line_past_the_cap_is_refused_before_it_ends() {
        let (go, wait) = mpsc::channel();
        let stdout = Gated {
            long: 5 * MAX_LINE,
            go: wait,
            rest: Some(b"aaa\n{\"action\":\"1\"}\n"),
        };
        let (tx, rx) = mpsc::sync_channel(QUEUED_LINES);
        thread::spawn(move || read_lines(stdout, tx));
        // The line has not ended (the reader is waiting for more) and is refused already.
        assert_eq!(rx.recv_timeout(Duration::from_secs(30)), Ok(Line::TooLong));
        // Nothing more is read: the program is to be stopped.
        assert_eq!(rx.recv(), Err(mpsc::RecvError));
        assert!(go.send(()).is_err(), "the reader waits for no more");
    }

    #[test]
    fn a_line_of_exactly_the_cap_is_accepted() {
        let mut bytes = vec![b'x'; MAX_LINE];
        bytes.push(b'\n');
        bytes.extend(vec![b'y'; MAX_LINE + 1]);
        bytes.push(b'\n');
        let (tx, rx) = mpsc::sync_channel(QUEUED_LINES);
        read_lines(std::io::Cursor::new(bytes), tx);
        assert_eq!(rx.recv(), Ok(Line::Text("x".repeat(MAX_LINE))));
        assert_eq!(rx.recv(), Ok(Line::TooLong));
        assert_eq!(rx.recv(), Err(mpsc::RecvError));
    }

    /// Endless blank lines, counting the bytes read.
    struct Flood(Arc<std::sync::atomic::AtomicUsize>);

    impl Read for Flood {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            buf.fill(b'\n');
            self.0
                .fetch_add(buf.len(), std::sync::atomic::Ordering::SeqCst);
            Ok(buf.len())
        }
    }

    #[test]
    fn a_flood_of_lines_is_not_read_ahead_of_the_table() {
        let read = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let (tx, rx) = mpsc::sync_channel(QUEUED_LINES);
        let flood = Flood(Arc::clone(&read));
        thread::spawn(move || read_lines(flood, tx));
        assert_eq!(rx.recv(), Ok(Line::Text(String::new())));
        // Give an unbounded reader time to run ahead; a bounded one stops at its queue.
        thread::sleep(Duration::from_millis(300));
        let ahead = read.load(std::sync::atomic::Ordering::SeqCst);
        assert!(ahead <= CHUNK, "{ahead} bytes read ahead");
        // Taking lines lets it go on.
        for _ in 0..(3 * CHUNK) {
            assert_eq!(rx.recv(), Ok(Line::Text(String::new())));
        }
        drop(rx);
    }

    #[test]
    fn the_stderr_tail_keeps_the_last_lines_and_cuts_long_ones() {
        let mut tail = StderrTail::default();
        tail.push(b"first\n\n   \n");
        tail.push(&vec![b'e'; 10 * STDERR_LINE]);
        tail.push(b"\nnot ended");
        assert_eq!(tail.last_line().as_deref(), Some("not ended"));
        tail.end_line();
        let long = format!("{}… (cut)", "e".repeat(STDERR_LINE));
        assert_eq!(
            tail.lines
                .iter()
                .map(|(t, _)| t.as_str())
                .collect::<Vec<_>>(),
            ["first", &long, "not ended"]
        );
        assert_eq!(tail.dropped, 9 * STDERR_LINE as u64);
        // Ten more lines of 6 bytes: of the 13, the first 5 are pushed out.
        for i in 0..10 {
            tail.push(format!("line {i}\n").as_bytes());
        }
        assert_eq!(STDERR_LINES, 8);
        assert_eq!(tail.lines.len(), STDERR_LINES);
        assert_eq!(tail.last_line().as_deref(), Some("line 9"));
        let pushed_out = ("first".len() + STDERR_LINE + "not ended".len() + 2 * 6) as u64;
        assert_eq!(tail.dropped, 9 * STDERR_LINE as u64 + pushed_out);
    }

    fn bot(cmd: &str, timeout_ms: u64) -> Box<dyn Bot<Race>> {
        let options = ProcessOptions {
            timeout: Duration::from_millis(timeout_ms),
            ..ProcessOptions::new("race")
        };
        Box::new(ProcessBot::<Race>::new(cmd, options, Box::new(RandomBot)))
    }

    /// Plays a race between `a` (seat 0) and random (seat 1): how it ended, the game and
    /// seat 0's incidents.
    fn try_race(a: Box<dyn Bot<Race>>) -> (Result<(), crate::PlayError>, Race, Vec<String>) {
        let mut bots = vec![a, Box::new(RandomBot) as Box<dyn Bot<Race>>];
        let mut game = Race::new(&(), 2, 0).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut record = Record::new((), 2, 0);
        let ended = play_out(
            &mut game,
            &mut bots,
            &mut rng,
            &mut record,
            100,
            |_, _, _, _| {},
        );
        let incidents = bots[0].incidents();
        (ended, game, incidents)
    }

    /// Plays a race that must end: the game and seat 0's incidents.
    fn race(a: Box<dyn Bot<Race>>) -> (Race, Vec<String>) {
        let (ended, game, incidents) = try_race(a);
        ended.unwrap();
        (game, incidents)
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

    #[test]
    fn a_program_that_cannot_start_stops_the_game_with_its_reason() {
        // Not found by the check before starting, and by the shell (exit 127) when the
        // command's shell syntax keeps it from being checked first.
        for (cmd, says) in [
            (
                "/nonexistent/dir/bot --x",
                "`/nonexistent/dir/bot` does not exist",
            ),
            (
                "tapete-no-such-bot-xyz",
                "`tapete-no-such-bot-xyz` is not found",
            ),
            ("tapete-no-such-bot-xyz \"quoted\"", "exit status: 127"),
        ] {
            let err = try_race(bot(cmd, 5000)).0.unwrap_err();
            let text = err.to_string();
            assert!(matches!(err, crate::PlayError::Unable(_)), "{cmd}: {text}");
            assert!(text.contains("cannot start the program"), "{cmd}: {text}");
            assert!(text.contains(says), "{cmd}: {text}");
        }
        // A program that starts and then fails is no such case: a stand-in plays on (127
        // counts only before the program says anything: the shell's "not found").
        let (game, incidents) = race(bot("exit 3", 5000));
        assert!(game.outcome().is_some(), "{incidents:?}");
        let (game, _) = race(bot("echo '{\"action\":\"9\"}'; exit 127", 5000));
        assert!(game.outcome().is_some());
    }

    #[test]
    fn a_reason_that_quotes_the_answer_is_not_said_twice() {
        assert_eq!(
            not_an_action("xyz", "`xyz` is not an action: lay CARDS or keep"),
            "`xyz` is not an action: lay CARDS or keep"
        );
        assert_eq!(
            not_an_action("9", "invalid digit found in string"),
            "`9` is not an action: invalid digit found in string"
        );
    }
}
