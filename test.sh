#!/usr/bin/env bash
# Every test of tapete: the pages' type check (`e2e/typecheck.sh`), the Rust tests and the
# browser tests (`e2e/run.sh`, headless Debian chromium), arranged for a 2-core machine. One build serves both. The browser tests start
# on the `tapete` binary as soon as it is built, while the rest compiles at a lower priority
# (so the pages' timers keep their pace). Each Rust test binary runs as soon as it and the
# tapete binary are built (one at a time while the build goes on, then as many as there
# are cores), so that no core waits on the slowest test of one binary; the doc tests follow. The browser tests' output
# comes last. With arguments, the Rust tests are `cargo test --workspace ARGS` after the
# build instead (e.g. `bash test.sh -- --skip slow`).
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
declare -A running=() # pid -> index of the test binary it runs
# The pids of the processes whose parent is $1 (each job below is a subshell that waits
# on its command to record the command's status).
children() {
  local stat rest
  for stat in /proc/[0-9]*/stat; do
    read -r rest <"$stat" 2>/dev/null || continue
    rest="${rest##*) }" # after the command's name: "state ppid ..."
    rest="${rest#* }"
    [ "${rest%% *}" != "$1" ] || { stat="${stat#/proc/}"; echo "${stat%/stat}"; }
  done
}
cleanup() {
  local pid child
  for pid in "$build_pid" "$e2e_pid" "${!running[@]}"; do
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      for child in $(children "$pid"); do kill "$child" 2>/dev/null || true; done
      kill "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
    fi
  done
  rm -rf "$logs"
}
trap cleanup EXIT INT TERM

start_e2e() {
  step "browser tests started (their output follows the Rust tests')"
  (
    status=0
    TAPETE_BIN="$target/debug/tapete" bash e2e/run.sh || status=$?
    echo "$status" >"$logs/e2e.rc"
  ) >"$logs/e2e.log" 2>&1 &
  e2e_pid=$!
}

cores="$(nproc 2>/dev/null || echo 2)"
[ "$cores" -ge 1 ] || cores=1
pipeline=1
[ "$#" -eq 0 ] || pipeline=0

# The test binaries cargo has reported built so far (the test profile's artifacts with an
# executable), in the order they were built: their paths in `bins`, their packages'
# folders in `dirs`.
bins=()
dirs=()
declare -A known=()
read_lines=0 # the lines of build.json read so far
collect() {
  local line
  # A line still being written (no newline yet) is read again next time.
  while IFS= read -r line; do
    read_lines=$((read_lines + 1))
    [[ "$line" == *'"reason":"compiler-artifact"'* && "$line" == *'"test":true},"features"'* ]] || continue
    [[ "$line" =~ \"executable\":\"([^\"]*)\" ]] || continue
    local exe="${BASH_REMATCH[1]}"
    [[ "$line" =~ \"manifest_path\":\"([^\"]*)\" ]] || continue
    if [ -z "${known[$exe]:-}" ]; then
      known[$exe]=1
      bins+=("$exe")
      dirs+=("${BASH_REMATCH[1]%/*}")
    fi
  done < <(tail -n "+$((read_lines + 1))" "$logs/build.json")
}
# Sets `name` to the name of test binary number $1 without cargo's hash, e.g. `mus_bots`
# (a variable, not output: the loops below fork as little as they can).
binary_name() {
  name="${bins[$1]##*/}"
  name="${name%-*}"
}

# Runs test binary number $1 in its package's folder (as `cargo test` does), its output to
# a file of its own and its exit status to another: bash's `wait` forgets a job's status
# once the job's pid is used again, and pids wrap within a run.
failed=0
launch() {
  local i="$1"
  (
    cd "${dirs[$i]}"
    status=0
    CARGO_MANIFEST_DIR="${dirs[$i]}" "${bins[$i]}" || status=$?
    echo "$status" >"$logs/test-$i.rc"
  ) >"$logs/test-$i.log" 2>&1 &
  running[$!]="$i"
}
# Shows the output of every binary that has ended (all of it when it failed).
reap() {
  local pid i status name
  for pid in "${!running[@]}"; do
    i="${running[$pid]}"
    if [ ! -s "$logs/test-$i.rc" ]; then
      if kill -0 "$pid" 2>/dev/null; then continue; fi
      # Gone without a status (killed): a failure.
      [ -s "$logs/test-$i.rc" ] || echo 1 >"$logs/test-$i.rc"
    fi
    wait "$pid" 2>/dev/null || true
    status="$(<"$logs/test-$i.rc")"
    unset "running[$pid]"
    binary_name "$i"
    took[$name]=$((SECONDS - started[$i]))
    if [ "$status" -eq 0 ]; then
      echo "-- ${dirs[$i]#"$root"/} $name: $(grep -h '^test result' "$logs/test-$i.log" | tail -n1)"
    else
      failed=1
      echo "-- ${dirs[$i]#"$root"/} $name: FAILED (exit $status)"
      cat "$logs/test-$i.log"
    fi
  done
}
# How long each binary took last time ("name seconds" lines), so that the longest start
# first; one never timed counts as the longest.
times="$target/test-times.txt"
declare -A took=()
if [ -f "$times" ]; then
  while read -r name secs; do took[$name]="$secs"; done <"$times" || true
fi
declare -A started=() # index -> the second it started
# Starts what is built, up to $1 binaries at once, the longest first.
fill() {
  collect
  local i best best_secs secs name
  while [ "${#running[@]}" -lt "$1" ]; do
    best=""
    best_secs=-1
    for ((i = 0; i < ${#bins[@]}; i++)); do
      [ -z "${started[$i]:-}" ] || continue
      binary_name "$i"
      secs="${took[$name]:-100000}"
      if [ "$secs" -gt "$best_secs" ]; then
        best="$i"
        best_secs="$secs"
      fi
    done
    [ -n "$best" ] || return 0
    started[$best]="$SECONDS"
    launch "$best"
  done
}

# The pages' types first (tsc, about a second): a type error stops the run before the build.
step "the pages' types (e2e/typecheck.sh)"
bash e2e/typecheck.sh

step "building every test"
# The binary's artifact message (`"executable": ".../debug/tapete"`) says it is ready.
(
  status=0
  # The tests only (libraries', binaries' and integration tests): not the examples, which
  # `cargo test` would link too and no test runs (CI's clippy --all-targets checks them).
  nice -n 10 cargo test --workspace --no-run --lib --bins --tests \
    --message-format=json-render-diagnostics \
    >"$logs/build.json" || status=$?
  echo "$status" >"$logs/build.rc"
) &
build_pid=$!
while [ ! -s "$logs/build.rc" ] && kill -0 "$build_pid" 2>/dev/null; do
  if [ -z "$e2e_pid" ] && grep -q '"executable":"[^"]*/debug/tapete"' "$logs/build.json"; then
    start_e2e
  fi
  # One binary at a time while the build has the cores, once the tapete binary is built:
  # the CLI's tests run it, and cargo may finish them first.
  if [ "$pipeline" -eq 1 ] && [ -n "$e2e_pid" ]; then
    reap
    fill 1
  fi
  sleep 1
done
wait "$build_pid" 2>/dev/null || true
[ -s "$logs/build.rc" ] || echo 1 >"$logs/build.rc"
build="$(<"$logs/build.rc")"
build_pid=""
if [ "$build" -ne 0 ]; then
  echo "test.sh: the build failed" >&2
  exit "$build"
fi
if [ -z "$e2e_pid" ]; then
  start_e2e
fi

rust=0
if [ "$pipeline" -eq 1 ]; then
  step "built; the remaining test binaries, $cores at a time"
  fill "$cores"
  while [ "${#running[@]}" -gt 0 ]; do
    sleep 0.5
    reap
    fill "$cores"
  done
  for name in "${!took[@]}"; do echo "$name ${took[$name]}"; done >"$times"
  step "doc tests"
  cargo test --workspace --doc --quiet || failed=1
  rust="$failed"
else
  step "cargo test --workspace $*"
  cargo test --workspace "$@" || rust=$?
fi

step "Rust tests done; waiting for the browser tests"
while [ ! -s "$logs/e2e.rc" ] && kill -0 "$e2e_pid" 2>/dev/null; do sleep 1; done
wait "$e2e_pid" 2>/dev/null || true
# Gone without a status (killed): a failure.
[ -s "$logs/e2e.rc" ] || echo 1 >"$logs/e2e.rc"
e2e="$(<"$logs/e2e.rc")"
e2e_pid=""
step "browser tests done (bash e2e/run.sh); their output:"
cat "$logs/e2e.log"

if [ "$rust" -ne 0 ] || [ "$e2e" -ne 0 ]; then
  echo "test.sh: failed (Rust tests: exit $rust, browser tests: exit $e2e)" >&2
  exit 1
fi
echo "test.sh: every test passed in $((SECONDS - start)) s"
