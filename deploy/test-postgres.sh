#!/usr/bin/env bash
# The tests that need PostgreSQL: the server's tests again, each test server on a fresh
# PostgreSQL database instead of a SQLite file (the tests that look into a SQLite file stay
# on theirs), the store's lease and fencing tests, and the cluster's tests (three nodes
# behind HAProxy, killed and frozen; crates/cli/tests/cluster.rs). The database server is
# a throw-away cluster of Debian's postgresql made by pg_virtualenv (postgresql-common):
# PostgreSQL refuses to run as root, and pg_virtualenv runs it as its own user and removes
# it afterwards. Arguments go to both test binaries (e.g. a test name to run only that).
# The cluster tests' measurements (each failover's time and tries) are shown in the log.
# `--workspace` builds with the features test.sh built with, so nothing compiles again.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in pg_virtualenv haproxy; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "$tool is missing: apt-get install postgresql haproxy" >&2
    exit 1
  fi
done
# pg_virtualenv exports PGHOST, PGPORT (when not 5432), PGUSER, PGPASSWORD and PGVERSION;
# its cluster is called "regress" (a cluster test stops and starts it with pg_ctlcluster).
exec pg_virtualenv -t bash -c 'set -e
  export TAPETE_TEST_PG="postgresql://${PGUSER}:${PGPASSWORD}@${PGHOST}:${PGPORT:-5432}/postgres"
  export TAPETE_TEST_PG_CLUSTER="${PGVERSION} regress"
  cargo test --workspace --test server -- --include-ignored "$@"
  cargo test --workspace --test cli cluster:: -- --include-ignored --test-threads 1 --show-output "$@"
' test-postgres "$@"
