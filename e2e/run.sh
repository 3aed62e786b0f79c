#!/usr/bin/env bash
# Browser end-to-end tests of the online table, in headless Chromium (/usr/bin/chromium).
# Builds tapete (the tests' build; or takes the binary TAPETE_BIN names), serves it on a
# free port with a fresh database, starts one Chromium that every test file connects to
# (browser.mjs), runs e2e/unit/ then e2e/tests/ and stops both. Extra arguments go to `node --test` (e.g. e2e/run.sh --test-name-pattern leyes).
# While working on the pages, TAPETE_ASSETS=1 has the browsers load the pages' files from the
# source tree (crates/server/assets and every crates/*/web) instead of the ones built into
# the server.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

if [ ! -x /usr/bin/chromium ]; then
  echo "e2e: /usr/bin/chromium is missing (apt-get install -y chromium)" >&2
  exit 1
fi

# The binary the Rust tests use (the test profile is optimised): after `cargo test
# --workspace` this builds nothing, so tapete is compiled once. TAPETE_BIN names one
# already built (test.sh starts these tests while the Rust tests still compile).
if [ -n "${TAPETE_BIN:-}" ]; then
  bin="$TAPETE_BIN"
else
  cargo test --workspace --no-run --quiet
  bin="${CARGO_TARGET_DIR:-$root/target}/debug/tapete"
fi

tmp="$(mktemp -d)"
server_pid=""
browser_pid=""
cleanup() {
  for pid in "$browser_pid" "$server_pid"; do
    if [ -n "$pid" ]; then
      kill "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
    fi
  done
  rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

# Waits (up to 30 s) for a process started with its output in FILE.out and FILE.err to
# print the address it listens on (PATTERN), and prints that address; stops the run with
# the process's output if it dies or never says.
listening() {
  local what="$1" pid="$2" pattern="$3" file="$4" found=""
  for _ in $(seq 1 300); do
    found="$(grep -o "$pattern" "$file.out" | head -n1 || true)"
    if [ -n "$found" ]; then
      echo "$found"
      return 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "e2e: $what died:" >&2
      cat "$file.out" "$file.err" >&2
      exit 1
    fi
    sleep 0.1
  done
  echo "e2e: $what did not say where it listens:" >&2
  cat "$file.out" "$file.err" >&2
  exit 1
}

# Every browser of the tests comes from 127.0.0.1: lift the per-address limits (creations
# per minute, open tables, open connections) that guard a public server.
"$bin" serve --addr 127.0.0.1:0 --db "$tmp/t.db" --creates-per-minute 1000 \
  --open-tables-per-addr 1000 --profile-reads-per-minute 1000 --max-conns-per-addr 1000 \
  >"$tmp/server.out" 2>"$tmp/server.err" &
server_pid=$!

url="$(listening "the server" "$server_pid" 'http://127\.0\.0\.1:[0-9]*' "$tmp/server")"
echo "e2e: server at $url"

cd "$root/e2e"
if [ ! -d node_modules ]; then
  npm ci --no-audit --no-fund
fi
status=0
# The pages' rule ports against the engine's CLI, hand by hand (Node alone, no browser).
TAPETE_BIN="$bin" node --test "$@" unit/ || status=$?
[ "$status" -eq 0 ] || exit "$status"

# One Chromium for every test file (each file connects and makes its own contexts).
node browser.mjs >"$tmp/browser.out" 2>"$tmp/browser.err" &
browser_pid=$!
browser="$(listening "the browser" "$browser_pid" 'ws://[^ ]*' "$tmp/browser")"

# The slowest files first, so that none of them starts last and keeps the whole run waiting
# (the others follow in name order).
files=()
for f in in-reach-chinchon in-reach-tikki senas chinchon-game tikki-game in-reach-mus \
  tikki-fairness i18n bubbles whole-game; do
  if [ -f "tests/$f.test.mjs" ]; then files+=("tests/$f.test.mjs"); fi
done
for f in tests/*.test.mjs; do
  case " ${files[*]} " in *" $f "*) ;; *) files+=("$f") ;; esac
done

# Three files at a time: the tests mostly wait (bots' pace, pages' timers), so the shared
# browser and server keep up; a later --test-concurrency among the arguments wins.
TAPETE_URL="$url" TAPETE_BIN="$bin" TAPETE_BROWSER="$browser" node --test --test-concurrency=3 "$@" "${files[@]}" || status=$?
if [ "$status" -ne 0 ]; then
  echo "e2e: server stderr (last lines):" >&2
  tail -n 40 "$tmp/server.err" >&2 || true
fi
exit "$status"
