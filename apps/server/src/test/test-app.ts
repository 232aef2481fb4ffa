import { inject } from 'vitest';
import { buildApp } from '../app.js';
import { type Config, loadConfig } from '../config.js';
import { type DatabaseHandle, openDatabase } from '../db/client.js';
import { ManualClock } from '../lib/clock.js';
import { openEmbeddedTestDatabase } from './embedded-test-database.js';
import { createScratchDatabase } from './scratch-database.js';

/** A new database copied from the run's migrated template (global-setup.ts) when there is one. */
function createMigratedScratchDatabase(adminUrl: string) {
  return createScratchDatabase(adminUrl, 'elex_test', inject('postgresTemplate') || undefined);
}

/**
 * A fresh migrated database per test file: embedded PGlite in memory by default, or a new
 * PostgreSQL database created on TEST_DATABASE_URL's server (dropped again on close).
 */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return openEmbeddedTestDatabase();

  const scratch = await createMigratedScratchDatabase(adminUrl);
  const handle = await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 5 });
  return {
    ...handle,
    async close() {
      await handle.close();
      await scratch.drop();
    },
  };
}

/**
 * One fresh migrated database seen through `count` handles, as `count` server instances see it: on
 * PostgreSQL (TEST_DATABASE_URL) each handle has its own pool; embedded PGlite is one process by
 * construction, so there it is one handle given out `count` times. close() ends them and drops it.
 */
export async function openSharedTestDatabase(
  count: number,
  poolSize = 5,
): Promise<{ handles: DatabaseHandle[]; close(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const handle = await openEmbeddedTestDatabase();
    return { handles: Array.from({ length: count }, () => handle), close: () => handle.close() };
  }
  const scratch = await createMigratedScratchDatabase(adminUrl);
  const handles: DatabaseHandle[] = [];
  // One after the other: should the template be missing, the first migrates and the others find the
  // migrations applied.
  for (let index = 0; index < count; index += 1) {
    handles.push(await openDatabase({ kind: 'postgres', url: scratch.url, poolSize }));
  }
  return {
    handles,
    async close() {
      for (const handle of handles) await handle.close();
      await scratch.drop();
    },
  };
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }), webDist: undefined, ...overrides };
}

/** Builds the app on a fresh database with a hand-driven clock; close() tears both down. */
export async function createTestApp(overrides: Partial<Config> = {}) {
  const database = await openTestDatabase();
  const clock = new ManualClock();
  const config = testConfig(overrides);
  const app = await buildApp({ config, database, clock, logger: false });
  return {
    app,
    clock,
    config,
    db: database.db,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** POSTs JSON to an `/elex` call the way the web client does. */
export function post(
  app: Awaited<ReturnType<typeof createTestApp>>['app'],
  url: string,
  body: unknown = {},
  headers: Record<string, string> = {},
) {
  return app.inject({
    method: 'POST',
    url,
    payload: body as object,
    headers: { 'content-type': 'application/json', ...headers },
  });
}
