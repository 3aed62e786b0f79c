#!/usr/bin/env bash
# Try the multi-server deployment on one machine: PostgreSQL (Debian's, in a throw-away
# cluster made by pg_virtualenv, since PostgreSQL refuses to run as root), three
# `tapete serve` nodes on loopback sharing it, and HAProxy in front (deploy/haproxy.cfg).
# It serves until Ctrl-C, then stops them all; with a command after `--`, it runs that
# command against the cluster (TAPETE_CLUSTER_URL is HAProxy's address, TAPETE_CLUSTER_DB
# the database's URL, TAPETE_CLUSTER_DIR holds the logs and each process's pid) and stops
# them all when it ends, with its status.
#
#   deploy/cluster.sh                       # http://127.0.0.1:8080/ until Ctrl-C
#   deploy/cluster.sh --port 9000 -- sh -c \
#     'tapete loadtest --addr 127.0.0.1:9000 --db "$TAPETE_CLUSTER_DB" --tables 100'
#
# Options: --port P (HAProxy's port; the nodes take P+1..P+3), --bin PATH (the tapete
# binary; by default target/release/tapete, built if missing), --dir DIR (logs; a new
# temporary directory by default).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
port=8080
bin=""
dir=""
while [ "$#" -gt 0 ]; do
  case "$1" in
    --port) port="$2"; shift 2 ;;
    --bin) bin="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --) shift; break ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "cluster.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
for tool in pg_virtualenv haproxy; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "cluster.sh: $tool is missing: apt-get install postgresql haproxy" >&2
    exit 1
  fi
done
if [ -z "$bin" ]; then
  bin="$root/target/release/tapete"
  [ -x "$bin" ] || (cd "$root" && cargo build --release -p tapete --bins)
fi
[ -n "$dir" ] || dir="$(mktemp -d /tmp/tapete-cluster.XXXXXX)"
mkdir -p "$dir"

# Inside pg_virtualenv: PGHOST, PGPORT (when not 5432), PGUSER and PGPASSWORD are set.
if [ -z "${TAPETE_CLUSTER_INSIDE:-}" ]; then
  export TAPETE_CLUSTER_INSIDE=1
  exec pg_virtualenv -t "$0" --port "$port" --bin "$bin" --dir "$dir" -- "$@"
fi

psql -q -c "CREATE DATABASE tapete" postgres
db="postgresql://${PGUSER}:${PGPASSWORD}@${PGHOST}:${PGPORT:-5432}/tapete"
pids=()
stop() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap stop EXIT
trap 'exit 130' INT TERM

for i in 1 2 3; do
  TAPETE_DB="$db" "$bin" serve --addr "127.0.0.1:$((port + i))" --node "n$i" --proxy 127.0.0.1 \
    --max-conns-per-addr 100000 --creates-per-minute 1000000 --open-tables-per-addr 1000000 \
    >"$dir/n$i.log" 2>&1 &
  pids+=("$!")
  echo "$!" >"$dir/n$i.pid"
done
TAPETE_FRONT="127.0.0.1:$port" TAPETE_N1="127.0.0.1:$((port + 1))" \
  TAPETE_N2="127.0.0.1:$((port + 2))" TAPETE_N3="127.0.0.1:$((port + 3))" \
  TAPETE_CONNS_PER_ADDR="${TAPETE_CONNS_PER_ADDR:-100000}" \
  TAPETE_REQS_PER_ADDR="${TAPETE_REQS_PER_ADDR:-1000000}" \
  haproxy -db -f "$root/deploy/haproxy.cfg" >"$dir/haproxy.log" 2>&1 &
pids+=("$!")
echo "$!" >"$dir/haproxy.pid"

url="http://127.0.0.1:$port"
# Each node, then HAProxy (whose checks see a node up after two answers, a second apart).
for p in $((port + 1)) $((port + 2)) $((port + 3)) "$port"; do
  for _ in $(seq 150); do
    if curl -fsS "http://127.0.0.1:$p/api/games" >/dev/null 2>&1; then break; fi
    sleep 0.2
  done
  curl -fsS "http://127.0.0.1:$p/api/games" >/dev/null ||
    { echo "cluster.sh: 127.0.0.1:$p did not answer; logs in $dir" >&2; exit 1; }
done
sleep 2
echo "tapete cluster at $url/ (nodes n1-n3 on ports $((port + 1))-$((port + 3)), PostgreSQL $(psql -Atc 'show server_version' postgres); logs in $dir)"
if [ "$#" -gt 0 ]; then
  TAPETE_CLUSTER_URL="$url" TAPETE_CLUSTER_DB="$db" TAPETE_CLUSTER_DIR="$dir" "$@"
else
  echo "Ctrl-C stops it all."
  while :; do sleep 3600 & wait "$!"; done
fi
