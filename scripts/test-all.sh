#!/usr/bin/env bash
# Every check, in order of speed: lint, types, unit + integration (Vitest), build, e2e (Playwright).
# Writes test-results/vitest.json and test-results/playwright.json for .ci/run's summary line.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results
status=0
step() { echo; echo "=== $1"; shift; "$@" || status=1; }
step "lint" npx biome check .
step "typecheck" npx tsc --noEmit
step "unit + integration" npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json
step "build" npx next build
if [ "$status" -eq 0 ] || [ -d .next ]; then
  PW_SKIP_BUILD=1 PLAYWRIGHT_JSON_OUTPUT_NAME=test-results/playwright.json \
    step "e2e" npx playwright test --reporter=list,json
fi
exit $status
