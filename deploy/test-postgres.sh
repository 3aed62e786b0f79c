#!/usr/bin/env bash
# The server's tests again, each test server on a fresh PostgreSQL database instead of a
# SQLite file (the tests that look into a SQLite file stay on theirs). The database server
# is a throw-away cluster of Debian's postgresql made by pg_virtualenv (postgresql-common):
# PostgreSQL refuses to run as root, and pg_virtualenv runs it as its own user and removes
# it afterwards. Arguments go to the test binary (e.g. a test name to run only that).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v pg_virtualenv >/dev/null 2>&1; then
  echo "pg_virtualenv is missing: install Debian's postgresql (apt-get install postgresql)" >&2
  exit 1
fi
# pg_virtualenv exports PGHOST, PGPORT (when not 5432), PGUSER and PGPASSWORD.
exec pg_virtualenv -t bash -c '
  export TAPETE_TEST_PG="postgresql://${PGUSER}:${PGPASSWORD}@${PGHOST}:${PGPORT:-5432}/postgres"
  exec cargo test -p tapete-server --test server -- "$@"
' test-postgres "$@"
