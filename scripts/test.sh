#!/usr/bin/env bash
# The one test command (`npm test`): the browser check, typecheck, lint, unit and integration tests on
# PGlite (the server files on PostgreSQL instead when one answers, but for those where the engines
# differ), the production build, then the e2e suite in Chromium (its server on PGlite). Dependencies
# are installed by the caller (`npm install` in .ci/run).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

started=$SECONDS
section() {
  printf '\n\033[1m==> %s\033[0m  (%ss)\n' "$1" "$((SECONDS - started))"
}

# First, so a machine without the browser learns it at once rather than after the other suites.
section "Browser (chromium, Noto CJK fonts)"
bash scripts/ensure-browser.sh

section "Typecheck"
npm run typecheck

section "Lint (biome, module boundaries, knip)"
npm run lint

# The suite only needs an administrative connection: each test file creates and drops its own
# database. The `test` database is the machine's default; `postgres` exists on every server.
PG_CANDIDATES=('postgres://postgres@127.0.0.1:5432/test' 'postgres://postgres@127.0.0.1:5432/postgres')
# Prints nothing and succeeds when a PostgreSQL accepts a connection at $1 within 3 s; otherwise prints
# why not (pg is a server dependency, so no psql is needed).
postgres_answers() {
  PG_URL="$1" node -e '
    const pg = require("pg");
    const client = new pg.Client({ connectionString: process.env.PG_URL, connectionTimeoutMillis: 3000 });
    client.connect().then(() => client.query("select 1")).then(() => client.end())
      .then(() => process.exit(0), (error) => { console.log(error.message || error.code); process.exit(1); });
  ' 2>/dev/null
}

# Which PostgreSQL the second pass uses, found first: the PGlite pass then keeps only the server files
# that test PGlite itself or where the engines differ, and the rest run once, on PostgreSQL
# (apps/server/vitest.config.ts).
pg_url="${TEST_DATABASE_URL:-}"
pg_reasons=()
if [[ -z "$pg_url" ]]; then
  for candidate in "${PG_CANDIDATES[@]}"; do
    if reason=$(postgres_answers "$candidate"); then
      pg_url=$candidate
      break
    fi
    pg_reasons+=("${candidate##*/}: ${reason:-no answer}")
  done
fi

section "Unit and integration tests (embedded PGlite$([[ -n "$pg_url" ]] && echo ': the server files where the engines differ'))"
# Always PGlite here, even when the caller exports TEST_DATABASE_URL for the next step.
if [[ -n "$pg_url" ]]; then
  env -u TEST_DATABASE_URL ELEX_POSTGRES_PASS=1 npx vitest run
else
  env -u TEST_DATABASE_URL npx vitest run
fi

if [[ -n "$pg_url" ]]; then
  section "Server tests on PostgreSQL ($([[ -n "${TEST_DATABASE_URL:-}" ]] && echo 'TEST_DATABASE_URL from the environment' || echo "$pg_url"))"
  TEST_DATABASE_URL="$pg_url" npx vitest run --project server --project server-isolated
else
  section "Server tests on PostgreSQL: skipped (127.0.0.1:5432 ${pg_reasons[*]}; set TEST_DATABASE_URL to run them)"
fi

section "Build (web)"
npm run build

section "End-to-end tests (Chromium, production server)"
npm run test:e2e

section "All tests passed"
