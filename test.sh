#!/usr/bin/env bash
# Every test of tapete: the Rust tests (`cargo test --workspace`) and the browser tests
# (`e2e/run.sh`, headless Debian chromium), arranged for a 2-core machine. One build serves
# both: the browser tests start on the `tapete` binary as soon as it is built, while the
# rest of the tests compile (at a lower priority, so the pages' timers keep their pace);
# the Rust tests then run beside them. The browser tests' output follows the Rust tests'.
# Arguments go to `cargo test` (e.g. `bash test.sh -- --skip slow`).
set -euo pipefail
root="$(cd "$(dirname "$0")" && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"

logs="$(mktemp -d)"
start=$SECONDS
# "== what (at N s)": each step with the seconds since the start.
step() { echo "== $1 (at $((SECONDS - start)) s)"; }
build_pid=""
e2e_pid=""
cleanup() {
  for pid in "$build_pid" "$e2e_pid"; do
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
    fi
  done
  rm -rf "$logs"
}
trap cleanup EXIT INT TERM

start_e2e() {
  step "browser tests started (their output follows the Rust tests')"
  TAPETE_BIN="$target/debug/tapete" bash e2e/run.sh >"$logs/e2e.log" 2>&1 &
  e2e_pid=$!
}

step "building every test"
# The binary's artifact message (`"executable": ".../debug/tapete"`) says it is ready.
nice -n 10 cargo test --workspace --no-run --message-format=json-render-diagnostics \
  >"$logs/build.json" &
build_pid=$!
while kill -0 "$build_pid" 2>/dev/null; do
  if [ -z "$e2e_pid" ] && grep -q '"executable":"[^"]*/debug/tapete"' "$logs/build.json"; then
    start_e2e
  fi
  sleep 1
done
build=0
wait "$build_pid" || build=$?
build_pid=""
if [ "$build" -ne 0 ]; then
  echo "test.sh: the build failed" >&2
  exit "$build"
fi
if [ -z "$e2e_pid" ]; then
  start_e2e
fi

step "cargo test --workspace"
rust=0
cargo test --workspace "$@" || rust=$?

step "Rust tests done; waiting for the browser tests"
e2e=0
wait "$e2e_pid" || e2e=$?
e2e_pid=""
step "browser tests done (bash e2e/run.sh); their output:"
cat "$logs/e2e.log"

if [ "$rust" -ne 0 ] || [ "$e2e" -ne 0 ]; then
  echo "test.sh: failed (Rust tests: exit $rust, browser tests: exit $e2e)" >&2
  exit 1
fi
echo "test.sh: every test passed in $((SECONDS - start)) s"
