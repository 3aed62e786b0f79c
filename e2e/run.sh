#!/usr/bin/env bash
# Browser end-to-end tests of the online table, in headless Chromium (/usr/bin/chromium).
# Builds tapete (the tests' build), serves it on a free port with a fresh database, runs e2e/tests/ and stops
# the server. Extra arguments go to `node --test` (e.g. e2e/run.sh --test-name-pattern leyes).
# While working on the pages, TAPETE_ASSETS=crates/server/assets (an absolute path) has the
# browsers load the pages' files from that folder instead of the ones built into the server.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

if [ ! -x /usr/bin/chromium ]; then
  echo "e2e: /usr/bin/chromium is missing (apt-get install -y chromium)" >&2
  exit 1
fi

# The binary the Rust tests use (the test profile is optimised): after `cargo test
# --workspace` this builds nothing, so the README's test command compiles tapete once.
cargo test --workspace --no-run --quiet
bin="${CARGO_TARGET_DIR:-$root/target}/debug/tapete"

tmp="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

# Every browser of the tests comes from 127.0.0.1: lift the per-address limits (creations
# per minute, open connections) that guard a public server.
"$bin" serve --addr 127.0.0.1:0 --db "$tmp/t.db" --creates-per-minute 1000 \
  --max-conns-per-addr 1000 >"$tmp/server.out" 2>"$tmp/server.err" &
server_pid=$!

url=""
for _ in $(seq 1 300); do
  url="$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$tmp/server.out" | head -n1 || true)"
  [ -n "$url" ] && break
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "e2e: the server died:" >&2
    cat "$tmp/server.out" "$tmp/server.err" >&2
    exit 1
  fi
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "e2e: the server did not say where it listens:" >&2
  cat "$tmp/server.out" "$tmp/server.err" >&2
  exit 1
fi
echo "e2e: server at $url"

cd "$root/e2e"
if [ ! -d node_modules ]; then
  npm ci --no-audit --no-fund
fi
status=0
# The pages' rule ports against the engine's CLI, hand by hand (Node alone, no browser).
TAPETE_BIN="$bin" node --test "$@" unit/ || status=$?
[ "$status" -eq 0 ] || exit "$status"
TAPETE_URL="$url" TAPETE_BIN="$bin" node --test "$@" tests/ || status=$?
if [ "$status" -ne 0 ]; then
  echo "e2e: server stderr (last lines):" >&2
  tail -n 40 "$tmp/server.err" >&2 || true
fi
exit "$status"
