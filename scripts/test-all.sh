#!/usr/bin/env bash
# Every check, in order of speed: lint, types, unit + integration (Vitest) on embedded PGlite, the
# database suites again on a real PostgreSQL + pgvector (the production path), build, e2e
# (Playwright). Writes test-results/vitest.json, vitest-postgres.json and playwright.json for
# .ci/run's summary line.
#
# The real Postgres: PAPERWISE_TEST_POSTGRES_URL if set (any server with pgvector; each test file
# creates and drops its own database there), else the workplace's pg-real script beside the
# checkout (../shared/tools/pg-real/start.sh, or PAPERWISE_PG_START), which this script starts on a
# free port in a throw-away directory and removes at the end. Without either, the Postgres pass is
# skipped and the output says so.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
mkdir -p test-results
rm -f test-results/vitest.json test-results/vitest-postgres.json test-results/playwright.json
status=0
step() { echo; echo "=== $1"; shift; "$@" || status=1; }

pg_dir_created=""
stop_pg() {
  if [ -n "$pg_dir_created" ]; then
    bash "$PG_START" stop >/dev/null 2>&1 || true
  fi
}
trap stop_pg EXIT

# Finds and starts the real Postgres; prints why when there is none. Sets PAPERWISE_TEST_POSTGRES_URL.
start_postgres() {
  if [ -n "${PAPERWISE_TEST_POSTGRES_URL:-}" ]; then
    echo "Postgres pass: on PAPERWISE_TEST_POSTGRES_URL"
    return 0
  fi
  # The checkout's parent, not the shell's: CI clones to a fresh place with shared/ beside it.
  PG_START=${PAPERWISE_PG_START:-$(dirname "$ROOT")/shared/tools/pg-real/start.sh}
  if [ ! -f "$PG_START" ]; then
    echo "Postgres pass: SKIPPED (no $PG_START and no PAPERWISE_TEST_POSTGRES_URL): only embedded PGlite is tested"
    return 0
  fi
  if [ -z "${PG_REAL_DIR:-}" ]; then
    PG_REAL_DIR=$(mktemp -d "${TMPDIR:-/tmp}/paperwise-pg-XXXXXX")
    pg_dir_created=1
  fi
  if [ -z "${PG_REAL_PORT:-}" ]; then
    PG_REAL_PORT=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
  fi
  export PG_REAL_DIR PG_REAL_PORT PG_START
  local url
  if ! url=$(bash "$PG_START"); then
    echo "Postgres pass: FAILED to start PostgreSQL with $PG_START (see above)"
    return 1
  fi
  export PAPERWISE_TEST_POSTGRES_URL=$url
  echo "Postgres pass: PostgreSQL + pgvector started by $PG_START on 127.0.0.1:$PG_REAL_PORT"
}

step "lint" npx biome check .
step "typecheck" npx tsc --noEmit
step "unit + integration (embedded PGlite)" npx vitest run --project pglite \
  --reporter=default --reporter=json --outputFile.json=test-results/vitest.json
echo
echo "=== real PostgreSQL"
start_postgres || status=1
if [ -n "${PAPERWISE_TEST_POSTGRES_URL:-}" ]; then
  echo "Row-level security (rls.test.ts): not applicable on PGlite (no database roles there); runs in this pass only."
  step "integration again on real PostgreSQL, + row-level security" npx vitest run --project postgres \
    --reporter=default --reporter=json --outputFile.json=test-results/vitest-postgres.json
else
  echo "Row-level security (rls.test.ts): NOT RUN: not applicable on PGlite (no database roles there) and no Postgres pass."
fi
step "build" npx next build
if [ "$status" -eq 0 ] || [ -d .next ]; then
  PW_SKIP_BUILD=1 PLAYWRIGHT_JSON_OUTPUT_NAME=test-results/playwright.json \
    step "e2e" npx playwright test --reporter=list,json
fi
exit $status
