import { configDefaults, defineProject } from 'vitest/config';

/**
 * Files the suite runs on one engine only (docs/decisions.md, "Each server test file on the engines it
 * tests"). `npm test` runs the server tests twice, on PGlite and then on PostgreSQL; these would do the
 * same work twice for nothing.
 */
/** PGlite by construction (a PGlite data directory, PGlite's own migrator): the PostgreSQL pass skips them. */
const PGLITE_ONLY = [
  'src/ops/ops-live.test.ts',
  'src/main.test.ts',
  // Each migration's test migrates a PGlite of its own to the migration before, adds data, then migrates on.
  'src/**/*-migration.test.ts',
  // The HTTP layer's answers to malformed requests; the engine behind it is the same PostgreSQL.
  'src/http/fuzz.test.ts',
  // The boundary rules on a tree of its own; no database.
  'src/boundaries.test.ts',
  // The build's module graph (what main.js loads at start); no database.
  'src/start-graph.test.ts',
  // The endpoint table against the HTTP layer (who may call, what it answers); the engine is the same.
  'src/http/openapi.test.ts',
];
/**
 * About size (more records than a statement's 65,535 parameters), the same on both engines: run on
 * PostgreSQL when the suite has one (ELEX_SCALE_ON_POSTGRES, set by scripts/test.sh for the PGlite
 * pass), else on PGlite.
 */
const SCALE = [
  'src/modules/cashback/large-import.test.ts',
  // 220,000 records through the rebates' statement triggers, then streamed out over a socket.
  'src/modules/exports/exports-streaming.test.ts',
];

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const scaleLater = !onPostgres && process.env.ELEX_SCALE_ON_POSTGRES === '1';

export default defineProject({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(onPostgres ? PGLITE_ONLY : []), ...(scaleLater ? SCALE : [])],
    // Each file gets its own fresh database, loaded from one migrated template per run.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    setupFiles: ['./src/test/setup.ts'],
    globalSetup: ['./src/test/global-setup.ts'],
  },
});
