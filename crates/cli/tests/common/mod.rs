//! Running the `tapete` binary from the tests, their temporary files, and reading the
//! states a server sends.
#![allow(dead_code)]

use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// A path for a temporary file of this test process.
pub fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tapete-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

/// Runs `tapete ARGS` with `stdin` as its input; its output once it exits.
pub fn tapete(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tapete"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tapete binary runs");
    let mut input = child.stdin.take().expect("stdin");
    // The game may end (or never start) before reading everything: a broken pipe is fine.
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    child.wait_with_output().expect("tapete finishes")
}

/// Runs `tapete ARGS` that must succeed; its JSON output.
pub fn ok_json(args: &[&str]) -> Value {
    let out = tapete(args, "");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

/// Runs `tapete ARGS` that must succeed; its text output.
pub fn ok_text(args: &[&str]) -> String {
    let out = tapete(args, "");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// Runs `tapete ARGS` that must fail as an input error (exit 2, no NaN printed); its
/// stderr.
pub fn input_error(args: &[&str]) -> String {
    let out = tapete(args, "");
    assert_eq!(out.status.code(), Some(2), "{args:?} should exit 2");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("NaN"), "{stdout}");
    String::from_utf8(out.stderr).expect("utf-8")
}

/// The legal actions of a server's state for its reader (none when it has none).
pub fn legal(state: &Value) -> Vec<String> {
    state["legal"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// A quick, always legal choice: pass or decline where possible, else the first.
pub fn choose(legal: &[String]) -> String {
    for pref in ["no hay mus", "paso", "no quiero"] {
        if let Some(a) = legal.iter().find(|a| *a == pref) {
            return a.clone();
        }
    }
    legal[0].clone()
}

/// Whether the end of a hand is held for this connection's `next`.
pub fn held_for_me(state: &Value) -> bool {
    let me = &state["you"]["seat"];
    !me.is_null()
        && state["hold"]["waiting"]
            .as_array()
            .is_some_and(|w| w.contains(me))
}
