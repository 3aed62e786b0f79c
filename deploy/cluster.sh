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
# In the logs' directory, from any shell: `sh DIR/n2.sh` starts node n2 again (after a
# `kill -9 $(cat DIR/n2.pid)`, say), and `. DIR/env` gives the shell the database's
# environment (PGHOST, PGPORT, PGUSER, PGPASSWORD, the cluster's configuration), for
# `psql tapete` or `pg_ctlcluster $PGVERSION regress stop` / `start`.
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
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
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
# pg_virtualenv picks a free port: 5432 when it is free, another when not (PGPORT says).
export PGPORT="${PGPORT:-5432}"
db="postgresql://${PGUSER}:${PGPASSWORD}@${PGHOST}:${PGPORT}/tapete"
# The database's environment, for another shell (psql, pg_ctlcluster; as root too:
# pg_ctlcluster runs PostgreSQL as its owner).
{
  for v in PGHOST PGPORT PGUSER PGPASSWORD PGVERSION PG_CLUSTER_CONF_ROOT PGSYSCONFDIR; do
    printf 'export %s=%q\n' "$v" "${!v:-}"
  done
  printf 'export TAPETE_CLUSTER_DB=%q\n' "$db"
} >"$dir/env"
chmod 600 "$dir/env"
stop() {
  local f
  for f in "$dir"/n?.pid "$dir/haproxy.pid"; do
    if [ -f "$f" ]; then kill "$(cat "$f")" 2>/dev/null || true; fi
  done
  wait 2>/dev/null || true
}
trap stop EXIT
trap 'exit 130' INT TERM

for i in 1 2 3; do
  # Each node's own starter: run now, and again by anyone to start the node again once
  # it was stopped or killed (its log goes on).
  {
    echo '#!/bin/sh'
    echo "# Starts node n$i of the cluster in $dir (again), in the background."
    printf 'TAPETE_DB=%q %q serve --addr 127.0.0.1:%s --node n%s --proxy 127.0.0.1 \\\n' \
      "$db" "$bin" "$((port + i))" "$i"
    printf '  --max-conns-per-addr 100000 --creates-per-minute 1000000 --open-tables-per-addr 1000000 \\\n'
    printf '  >>%q 2>&1 &\n' "$dir/n$i.log"
    printf 'echo $! >%q\n' "$dir/n$i.pid"
  } >"$dir/n$i.sh"
  chmod 700 "$dir/n$i.sh"
  sh "$dir/n$i.sh"
done
TAPETE_FRONT="127.0.0.1:$port" TAPETE_N1="127.0.0.1:$((port + 1))" \
  TAPETE_N2="127.0.0.1:$((port + 2))" TAPETE_N3="127.0.0.1:$((port + 3))" \
  TAPETE_CONNS_PER_ADDR="${TAPETE_CONNS_PER_ADDR:-100000}" \
  TAPETE_REQS_PER_ADDR="${TAPETE_REQS_PER_ADDR:-1000000}" \
  haproxy -db -f "$root/deploy/haproxy.cfg" >"$dir/haproxy.log" 2>&1 &
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
echo "tapete cluster at $url/ (nodes n1-n3 on ports $((port + 1))-$((port + 3)); PostgreSQL $(psql -Atc 'show server_version' postgres) on port $PGPORT, cluster \"$PGVERSION regress\"; logs in $dir)"
echo "start a node again: sh $dir/n2.sh; the database's environment: . $dir/env"
if [ "$#" -gt 0 ]; then
  TAPETE_CLUSTER_URL="$url" TAPETE_CLUSTER_DB="$db" TAPETE_CLUSTER_DIR="$dir" "$@"
else
  echo "Ctrl-C stops it all."
  while :; do sleep 3600 & wait "$!"; done
fi
