import { configDefaults, defineProject } from 'vitest/config';

/**
 * Which engine runs which file. Alone (no PostgreSQL), every file runs on PGlite. When `npm test` finds
 * a PostgreSQL, it runs the server files on it, and the PGlite pass keeps only the files below that
 * test PGlite itself or the places where the engines differ (docs/decisions.md, "Each server test file
 * once, on PostgreSQL when there is one").
 */
/** PGlite by construction (a PGlite data directory, PGlite's own migrator), or no database at all. */
const PGLITE_ONLY = [
  'src/ops/ops-live.test.ts',
  'src/main.test.ts',
  // Each migration's test migrates a PGlite of its own to the migration before, adds data, then migrates on.
  'src/**/*-migration.test.ts',
  // No database: the boundary rules on a tree of its own, the build's module graph (what main.js loads).
  'src/boundaries.test.ts',
  'src/start-graph.test.ts',
];
/**
 * On every engine the machine has, as this is where the two differ: the database layer (connections,
 * statements, the kept tables' triggers), a process killed mid-write and started again on the same
 * data, and the job runner each engine has (in process on PGlite, pg-boss on PostgreSQL).
 */
const EVERY_ENGINE = [
  'src/db/**/*.test.ts',
  'src/modules/cashback/import-kill.test.ts',
  'src/modules/payouts/payouts-kill.test.ts',
  'src/modules/sync/sync.job.test.ts',
  'src/modules/housekeeping/housekeeping.job.test.ts',
];

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
/**
 * A PGlite pass with a PostgreSQL pass after it (ELEX_POSTGRES_PASS=1, set by scripts/test.sh when a
 * PostgreSQL answers): each other file runs once, on PostgreSQL (docs/decisions.md, "Each server test
 * file once, on PostgreSQL when there is one").
 */
const postgresFollows = !onPostgres && process.env.ELEX_POSTGRES_PASS === '1';

export default defineProject({
  test: {
    name: 'server',
    include: postgresFollows ? [...PGLITE_ONLY, ...EVERY_ENGINE] : ['src/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(onPostgres ? PGLITE_ONLY : [])],
    // Each file gets its own fresh database, loaded from one migrated template per run.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    setupFiles: ['./src/test/setup.ts'],
    globalSetup: ['./src/test/global-setup.ts'],
  },
});
