import { fileURLToPath } from 'node:url';
import { configDefaults, defineProject } from 'vitest/config';
import { testFilesByIsolation } from '../../vitest.isolation.js';

/**
 * Which server test files run where. By engine: alone (no PostgreSQL), every file runs on PGlite. When
 * `npm test` finds a PostgreSQL, it runs the server files on it, and the PGlite pass keeps only the
 * files below that test PGlite itself or the places where the engines differ (docs/decisions.md, "Each
 * server test file once, on PostgreSQL when there is one"). By module graph: the files share one per
 * worker, but for those that replace a module (docs/decisions.md, "Test files share their
 * modules"); each project takes the engine's files and leaves out the other project's.
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
/** By module graph: the files that replace a module keep a graph of their own (../../vitest.isolation.ts). */
const byIsolation = testFilesByIsolation(fileURLToPath(new URL('.', import.meta.url)), ['src']);

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
/**
 * A PGlite pass with a PostgreSQL pass after it (ELEX_POSTGRES_PASS=1, set by scripts/test.sh when a
 * PostgreSQL answers): each other file runs once, on PostgreSQL.
 */
const postgresFollows = !onPostgres && process.env.ELEX_POSTGRES_PASS === '1';
const engineInclude = postgresFollows ? [...PGLITE_ONLY, ...EVERY_ENGINE] : ['src/**/*.test.ts'];
const engineExclude = [...configDefaults.exclude, ...(onPostgres ? PGLITE_ONLY : [])];

const common = {
  testTimeout: 30_000,
  hookTimeout: 60_000,
  setupFiles: ['./src/test/setup.ts'],
  globalSetup: ['./src/test/global-setup.ts'],
};

/** Most server files: one module graph per worker, evaluated once rather than once per file. */
export default defineProject({
  test: {
    name: 'server',
    include: engineInclude,
    exclude: [...engineExclude, ...byIsolation.isolated],
    isolate: false,
    ...common,
  },
});

/**
 * The files that replace a module or an environment variable (vitest.isolation.ts), each in a module
 * graph of its own.
 */
export const isolatedServerProject = defineProject({
  test: {
    name: 'server-isolated',
    include: engineInclude,
    exclude: [...engineExclude, ...byIsolation.shared],
    isolate: true,
    ...common,
  },
});
