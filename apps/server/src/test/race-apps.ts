import pg from 'pg';
import { buildApp } from '../app.js';
import { seedPartnerCatalog } from '../db/seed/seed-catalog.js';
import { type Clock, ManualClock } from '../lib/clock.js';
import type { CashbackTestContext } from '../modules/cashback/test-support.js';
import { openSharedTestDatabase, testConfig } from './test-app.js';

type App = Awaited<ReturnType<typeof buildApp>>;

export interface RaceApps {
  /** The first instance as a test context (seeded partner catalog, shared manual clock). */
  ctx: CashbackTestContext;
  /** One app on PGlite; on PostgreSQL (TEST_DATABASE_URL) two, each with its own pool, on one database. */
  apps: App[];
  close(): Promise<void>;
}

/**
 * The apps a race test sends its concurrent requests to: on PostgreSQL two instances on one database,
 * as production runs them, so only the database's locks stand between them.
 */
export async function openRaceApps(options: { secondBehindMs?: number } = {}): Promise<RaceApps> {
  const shared = await openSharedTestDatabase(2, 5);
  const clock = new ManualClock();
  // `secondBehindMs`: the second instance's host clock runs that far behind the first's (clock skew).
  const behind = options.secondBehindMs ?? 0;
  const skewed: Clock = { now: () => new Date(clock.now().getTime() - behind) };
  const config = testConfig();
  const instances = process.env.TEST_DATABASE_URL ? shared.handles : shared.handles.slice(0, 1);
  const apps: App[] = [];
  for (const [n, handle] of instances.entries())
    apps.push(await buildApp({ config, database: handle, clock: n === 0 ? clock : skewed, logger: false }));
  for (const handle of instances) {
    // A pool's idle client may see the test database dropped at the end: not a failure of the test.
    const client = (handle.db as unknown as { $client?: unknown }).$client;
    if (client instanceof pg.Pool) client.on('error', () => {});
  }
  const first = apps[0] as App;
  await seedPartnerCatalog(first.deps.db);
  return {
    ctx: { app: first, clock, config, db: first.deps.db, deps: first.deps, close: async () => {} },
    apps,
    async close() {
      for (const app of apps) await app.close();
      await shared.close();
    },
  };
}
