//! `tapete arena` stopped by a signal: the cmd: bots' process groups (the programs and
//! whatever they started) must not outlive it.
#![cfg(target_os = "linux")]

use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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
    let dir =
        std::env::temp_dir().join(format!("tapete-signal-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    Scratch(dir)
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

/// The pids written to the files in `dir` whose names start with `prefix`.
fn pids(dir: &Path, prefix: &str) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read dir").flatten() {
        if entry.file_name().to_string_lossy().starts_with(prefix) {
            if let Ok(text) = std::fs::read_to_string(entry.path()) {
                if let Ok(pid) = text.trim().parse() {
                    found.push(pid);
                }
            }
        }
    }
    found
}

/// Kills whatever is left of `pids` when dropped, so that a failing test leaves nothing.
struct Survivors(Vec<u32>);

impl Drop for Survivors {
    fn drop(&mut self) {
        for pid in self.0.iter().filter(|&&p| runs(p)) {
            let _ = Command::new("kill")
                .arg("-KILL")
                .arg(pid.to_string())
                .status();
        }
    }
}

/// Whether process `pid` (`self` for this one) ignores `sig` (its children then ignore
/// it too).
fn ignored(pid: &str, sig: i32) -> bool {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_else(|e| panic!("/proc/{pid}/status: {e}"));
    status
        .lines()
        .find_map(|l| l.strip_prefix("SigIgn:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & (1 << (sig - 1)) != 0)
}

/// Starts an arena whose A bots each start a child and then never answer, sends `signal`
/// to the arena once both bots run, and checks that the bots and their children go.
fn arena_stopped_by(signal: &str, number: i32) {
    let dir = scratch(signal);
    let bot = dir.join("bot.sh");
    std::fs::write(
        &bot,
        format!(
            "sleep 1000 </dev/null >/dev/null 2>&1 &\n\
             echo $! > {dir}/child.$$\n\
             echo $$ > {dir}/bot.$$\n\
             exec sleep 1000\n",
            dir = dir.display()
        ),
    )
    .expect("write the bot");
    // Started with the signal ignored (as a background job is with SIGINT), this process
    // would pass that on and the arena would rightly keep ignoring it: start the arena
    // through python3 with the signal back to its default, so that it is tested anyway.
    let mut arena = if ignored("self", number) {
        let mut c = Command::new("python3");
        c.args([
            "-c",
            "import os, signal, sys; signal.signal(int(sys.argv[1]), signal.SIG_DFL); os.execv(sys.argv[2], sys.argv[2:])",
        ])
        .arg(number.to_string())
        .arg(env!("CARGO_BIN_EXE_tapete"));
        c
    } else {
        Command::new(env!("CARGO_BIN_EXE_tapete"))
    };
    let mut arena = arena
        .args(["arena", "mus", "--json", "--games", "1", "--threads", "1"])
        .args(["--bot-timeout", "100", "--b", "random", "--a"])
        .arg(format!("cmd:sh {}", bot.display()))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the tapete binary runs");
    let mut left = Survivors(Vec::new());
    // Game 0 seats side A at 0 and 2: two bots, each with a child.
    let start = Instant::now();
    while (pids(&dir, "child").len() < 2 || pids(&dir, "bot").len() < 2)
        && start.elapsed() < Duration::from_secs(20)
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    left.0 = [pids(&dir, "child"), pids(&dir, "bot")].concat();
    assert_eq!(left.0.len(), 4, "two bots and their children started");
    assert!(left.0.iter().all(|&p| runs(p)));
    // Nothing would be tested if the arena ignored the signal: fail instead of passing.
    assert!(
        !ignored(&arena.id().to_string(), number),
        "the arena ignores SIG{signal}: this test cannot check it"
    );

    let sent = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(arena.id().to_string())
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let status = arena.wait().expect("the arena ends");
    assert_eq!(
        status.signal(),
        Some(number),
        "ended by the signal: {status}"
    );
    // The groups were killed before the arena ended; give the kernel a moment to finish.
    let start = Instant::now();
    while left.0.iter().any(|&p| runs(p)) && start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(10));
    }
    let running: Vec<u32> = left.0.iter().copied().filter(|&p| runs(p)).collect();
    assert!(
        running.is_empty(),
        "after {signal} these still run: {running:?}"
    );
}

#[test]
fn sigterm_kills_every_bot_and_its_children() {
    arena_stopped_by("TERM", 15);
}

#[test]
fn sigint_kills_every_bot_and_its_children() {
    arena_stopped_by("INT", 2);
}
