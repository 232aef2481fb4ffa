#!/usr/bin/env bash
# The one test command (`npm test`): typecheck, lint, unit and integration tests on PGlite, the
# server tests again on PostgreSQL when one answers, the production build, then the e2e suite in
# Chromium. Dependencies are installed by the caller (`npm install` in .ci/run).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

started=$SECONDS
section() {
  printf '\n\033[1m==> %s\033[0m  (%ss)\n' "$1" "$((SECONDS - started))"
}

section "Typecheck"
npm run typecheck

section "Lint (biome)"
npm run lint

section "Unit and integration tests (embedded PGlite)"
# Always PGlite here, even when the caller exports TEST_DATABASE_URL for the next step.
env -u TEST_DATABASE_URL npx vitest run

DEFAULT_PG_URL='postgres://postgres@127.0.0.1:5432/test'
# True when a PostgreSQL accepts a connection at $1 within 3 s (pg is a server dependency, so no psql needed).
postgres_answers() {
  PG_URL="$1" node -e '
    const pg = require("pg");
    const client = new pg.Client({ connectionString: process.env.PG_URL, connectionTimeoutMillis: 3000 });
    client.connect().then(() => client.query("select 1")).then(() => client.end())
      .then(() => process.exit(0), () => process.exit(1));
  ' >/dev/null 2>&1
}

if [[ -n "${TEST_DATABASE_URL:-}" ]]; then
  section "Server tests on PostgreSQL (TEST_DATABASE_URL from the environment)"
  npx vitest run --project server
elif postgres_answers "$DEFAULT_PG_URL"; then
  section "Server tests on PostgreSQL ($DEFAULT_PG_URL)"
  TEST_DATABASE_URL="$DEFAULT_PG_URL" npx vitest run --project server
else
  section "Server tests on PostgreSQL: skipped (nothing answers on 127.0.0.1:5432; set TEST_DATABASE_URL to run them)"
fi

section "Build (web)"
npm run build

section "Browser (chromium, Noto CJK fonts)"
bash scripts/ensure-browser.sh

section "End-to-end tests (Chromium, production server)"
npm run test:e2e

section "All tests passed"
