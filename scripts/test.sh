#!/usr/bin/env bash
# Everything `make test` runs, after making sure the machine has what the tests need.
set -euo pipefail
cd "$(dirname "$0")/.."

ensure_chromium() {
  command -v chromium >/dev/null 2>&1 && return
  echo "installing Debian's chromium for the browser tests"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
}

ensure_postgres() {
  pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null && return
  if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
    echo "installing PostgreSQL for the database tests"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  fi
  echo "starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && return; sleep 1; done
  echo "PostgreSQL did not start" >&2
  exit 1
}

ensure_chromium
ensure_postgres

# The tests start a hundred-odd Python processes (servers, their workers, CLI commands) and pytest
# rewrites every test module: let each compiled module and rewritten test be kept for the next.
unset PYTHONDONTWRITEBYTECODE

# Vitest runs beside pytest (its 25 s would otherwise come first); its output is shown when it ends.
vitest_log=$(mktemp)
trap 'rm -f "$vitest_log"' EXIT
(cd frontend && npm test --silent) >"$vitest_log" 2>&1 &
vitest_pid=$!

# pytest exits 5 when it selects no test; only both halves selecting none is a failure.
pytest_status() {
  local parallel=$1 alone=$2
  if (( parallel == 5 && alone == 5 )); then return 5; fi
  for status in "$parallel" "$alone"; do
    if (( status != 0 && status != 5 )); then return "$status"; fi
  done
  return 0
}

# pytest-xdist workers; SERVICEMATCH_TEST_WORKERS=0 runs every test in this one process. Three on
# two cores: a browser test spends part of its time waiting (a 4 s loader, a worker's poll), which
# a third worker fills (990 s against 1,104 s for the same tests on two; docs/benchmarks.md).
# They are handed out one test at a time, in the order collected, except that the browser tests
# on a server of their own (xdist_group) go to one worker together: --dist loadgroup in
# pyproject.toml, the order in e2e/conftest.py.
# SERVICEMATCH_FUZZ_EXAMPLES=N sets how many requests the schema fuzz makes per operation and
# mode (backend/tests/intake/test_openapi_fuzz.py: 5 unless set; 100 or more for a thorough run).
workers=${SERVICEMATCH_TEST_WORKERS:-3}
parallel=0 alone=0
echo "== backend, API and browser tests (pytest, SQLite and PostgreSQL, $workers workers)"
python3 -m uv run --frozen pytest -n "$workers" -m "not alone" --durations=15 "$@" || parallel=$?
vitest=0
wait "$vitest_pid" || vitest=$?
echo "== frontend unit tests (vitest, run beside pytest)"
cat "$vitest_log"
echo "== tests timing the pages (Lighthouse), one at a time on a machine the other tests left idle"
python3 -m uv run --frozen pytest -m alone --durations=5 "$@" || alone=$?
if (( vitest != 0 )); then echo "vitest failed (exit status $vitest)" >&2; exit "$vitest"; fi
pytest_status "$parallel" "$alone"
