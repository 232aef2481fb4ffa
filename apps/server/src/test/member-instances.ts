import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { expect } from 'vitest';
import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import type { DatabaseHandle } from '../db/client.js';
import { seedPartnerCatalog } from '../db/seed/seed-catalog.js';
import { ManualClock } from '../lib/clock.js';
import { sessions } from '../modules/auth/auth.tables.js';
import { tokenDigest } from '../modules/auth/digests.js';
import type { CashbackTestContext } from '../modules/cashback/test-support.js';
import { openSharedTestDatabase, testConfig } from './test-app.js';

/** No heartbeat during a test unless it asks: a late one on a busy machine would empty the caches. */
export const QUIET: Partial<Config['memberCache']> = { heartbeatMs: 600_000 };

export interface MemberInstances {
  handles: DatabaseHandle[];
  clock: ManualClock;
  contexts: CashbackTestContext[];
  close(): Promise<void>;
}

/**
 * `count` app instances on one fresh database, as production runs them (on PostgreSQL each with its
 * own pool; on PGlite one session seen by all), sharing a manual clock, with the member cache set as
 * given (db/member-answers.ts): the tests of answers kept per process.
 */
export async function openMemberInstances(
  count: number,
  memberCache: Partial<Config['memberCache']> = QUIET,
): Promise<MemberInstances> {
  const shared = await openSharedTestDatabase(count);
  const clock = new ManualClock();
  const config = testConfig({ memberCache: { ...testConfig().memberCache, ...memberCache } });
  const apps: Awaited<ReturnType<typeof buildApp>>[] = [];
  for (const handle of shared.handles) {
    apps.push(await buildApp({ config, database: handle, clock, logger: false }));
    // A pool's idle client may see the test database dropped at the end: not a failure of the test.
    const client = (handle.db as unknown as { $client?: unknown }).$client;
    if (client instanceof pg.Pool) client.on('error', () => {});
  }
  await seedPartnerCatalog(apps[0]?.deps.db as CashbackTestContext['db']);
  return {
    handles: shared.handles,
    clock,
    contexts: apps.map((app) => ({
      app,
      clock,
      config,
      db: app.deps.db,
      deps: app.deps,
      close: async () => {},
    })),
    async close() {
      for (const app of apps) await app.close();
      await shared.close();
    },
  };
}

/** Reads until `accept` takes the answer (a notification is on its way), at most 10 s. */
export async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

type Transaction = Parameters<Parameters<CashbackTestContext['db']['transaction']>[0]>[0];

/**
 * `write` in one transaction with `table`'s notifying `trigger` off: a change no cache is told of (a
 * test that answers are kept, or that the member cache off reads every time).
 */
export async function writeUntold(
  ctx: Pick<CashbackTestContext, 'db'>,
  table: string,
  trigger: string,
  write: (tx: Transaction) => Promise<unknown>,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await tx.execute(sql.raw(`alter table ${table} disable trigger ${trigger}`));
    await write(tx);
    await tx.execute(sql.raw(`alter table ${table} enable trigger ${trigger}`));
  });
}

/** Changes a binding's address with its notifying trigger off: a change no cache is told of. */
export async function changeAddressUntold(
  ctx: Pick<CashbackTestContext, 'db'>,
  uid: string,
  address: string,
) {
  await writeUntold(ctx, 'exchange_bindings', 'exchange_bindings_notify_updated', (tx) =>
    tx.execute(sql`update exchange_bindings set address = ${address} where uid = ${uid}`),
  );
}

/** The member behind a session token. */
export async function memberOf(ctx: Pick<CashbackTestContext, 'db'>, token: string): Promise<number> {
  const rows = await ctx.db
    .select({ userId: sessions.userId })
    .from(sessions)
    .where(eq(sessions.tokenHash, tokenDigest(token)));
  return Number(rows[0]?.userId);
}

/**
 * Waits for the notifications of what was just written to arrive: each reaches an instance twice (its
 * pooled connection, before the commit returns; then its listener), and a read the second overtakes
 * is answered but not kept. A test that shows an answer is kept reads it after this.
 */
export const notificationsSettled = () => new Promise((resolve) => setTimeout(resolve, 300));

/**
 * Reads through two instances of one database, A and B (`both()` is asked at each call: the tests
 * open them in a hook): `seenByBoth` checks A's answer at once and B's right after (its notification
 * is on its way); `readOnBoth` reads through both, so each keeps the answer, and they agree.
 */
export function readersOf<C>(both: () => readonly [C, C]) {
  return {
    async seenByBoth<T>(read: (ctx: C) => Promise<T>, check: (value: T) => boolean): Promise<void> {
      const [a, b] = both();
      const onA = await read(a);
      expect(check(onA), JSON.stringify(onA)).toBe(true);
      const onB = await eventually(() => read(b), check);
      expect(check(onB), JSON.stringify(onB)).toBe(true);
    },
    async readOnBoth<T>(read: (ctx: C) => Promise<T>): Promise<T> {
      const [a, b] = both();
      const onA = await read(a);
      expect(await read(b)).toEqual(onA);
      return onA;
    },
  };
}
