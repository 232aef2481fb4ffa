import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type CashbackTestContext, createCashbackTestApp, DAY_MS, usdt } from '../cashback/test-support.js';
import { accountCode, postJournals } from '../ledger/ledger.service.js';
import { selectPublicStatistics } from './exchanges.repository.js';
import * as first from './statistics-cache.js';

/**
 * The public statistics are computed about once per TTL whatever the number of processes
 * (statistics-cache.ts): the figures go to `public_statistics` under the database's lock, and a
 * process takes the stored ones when another computed them less than a TTL ago. A second process is
 * a second copy of the module (its own cache), on the same database. Whether a process computed or
 * took the stored figures shows in what they hold: credits posted after the stored figures were
 * computed appear only in figures computed again.
 */
const LISTED = [1, 4, 9];
const T = Date.parse('2100-03-01T12:00:00Z');
let ctx: CashbackTestContext;
let second: typeof first;
beforeAll(async () => {
  ctx = await createCashbackTestApp();
  vi.resetModules();
  second = await import('./statistics-cache.js');
});
afterAll(() => ctx.close());

let credits = 0;
async function credit(uid: string, amount: string) {
  credits += 1;
  await ctx.db.transaction((tx) =>
    postJournals(tx, [
      {
        kind: 'rebate',
        key: `shared-statistics:${credits}`,
        at: new Date(T - DAY_MS),
        lines: [
          { account: accountCode.commission(4), amount: -usdt(amount) },
          { account: accountCode.cashback(4, uid), amount: usdt(amount) },
        ],
      },
    ]),
  );
}

const at = (ms: number) => new Date(T + ms);
async function bitgetRanking(cache: typeof first, ms: number) {
  const served = await cache.servedStatistics(ctx.db, LISTED, at(ms));
  return served.value.ranking.get(4)?.map((entry) => `${entry.uid} ${entry.amountMicro / 1_000_000n}`);
}

describe('public statistics shared by the processes of one database', () => {
  it('are taken from the store when fresh, and computed by whoever finds them old', async () => {
    await credit('ONE', '5');
    expect(await bitgetRanking(first, 0)).toEqual(['ONE 5']);
    const stored = await selectPublicStatistics(ctx.db);
    expect(stored?.computedAt.getTime()).toBe(T);
    expect(stored?.exchanges).toBe('1,4,9');

    // A process starting 5 s later serves the stored figures: it did not rank the window again.
    await credit('TWO', '7');
    expect(await bitgetRanking(second, 5_000)).toEqual(['ONE 5']);

    // Once they are a TTL old, the first process to look computes them again (the request that
    // finds them old is answered with the last ones) and stores them.
    const old = first.STATISTICS_TTL_MS + 1_000;
    expect(await bitgetRanking(second, old)).toEqual(['ONE 5']);
    await second.refreshStatistics(ctx.db, at(old));
    expect(await bitgetRanking(second, old)).toEqual(['TWO 7', 'ONE 5']);
    expect((await selectPublicStatistics(ctx.db))?.computedAt.getTime()).toBe(T + old);

    // The first process, old too by then, takes what the second stored a second ago.
    await credit('THREE', '9');
    first.latestStatistics(ctx.db, at(old + 1_000));
    await first.refreshStatistics(ctx.db, at(old + 1_000));
    expect(await bitgetRanking(first, old + 1_000)).toEqual(['TWO 7', 'ONE 5']);

    // Asked to recompute (the tests' refresh), a process ranks the window whatever is stored.
    await first.refreshStatistics(ctx.db, at(old + 2_000));
    expect(await bitgetRanking(first, old + 2_000)).toEqual(['THREE 9', 'TWO 7', 'ONE 5']);
  });

  it('are computed again when the stored ones are unreadable, for other exchanges or from a clock ahead', async () => {
    vi.resetModules();
    const fresh: typeof first = await import('./statistics-cache.js');
    const start = 10 * first.STATISTICS_TTL_MS;
    await first.refreshStatistics(ctx.db, at(start));
    const stored = await selectPublicStatistics(ctx.db);

    await credit('FOUR', '11');
    // Written by another version of the figures' shape: read as none.
    await ctx.db.execute(sql`update public_statistics set figures = '{"shape": 0}'::jsonb`);
    expect((await bitgetRanking(fresh, start + 1_000))?.[0]).toBe('FOUR 11');

    vi.resetModules();
    const other: typeof first = await import('./statistics-cache.js');
    await ctx.db.execute(sql`update public_statistics set figures = ${JSON.stringify(stored?.figures)}::jsonb,
      computed_at = ${at(start)}, exchanges = '1,4'`);
    expect((await bitgetRanking(other, start + 1_000))?.[0]).toBe('FOUR 11');

    vi.resetModules();
    const behind: typeof first = await import('./statistics-cache.js');
    await ctx.db.execute(sql`update public_statistics set figures = ${JSON.stringify(stored?.figures)}::jsonb,
      computed_at = ${at(start + 60_000)}, exchanges = '1,4,9'`);
    expect((await bitgetRanking(behind, start + 1_000))?.[0]).toBe('FOUR 11');
  });
});

// PGlite is one session: a lock it holds is its own to take again, so no second process can hold it.
describe.runIf(process.env.TEST_DATABASE_URL)('while another process computes them', () => {
  it('a process keeps its last figures and looks again a little later', async () => {
    vi.resetModules();
    const cache: typeof first = await import('./statistics-cache.js');
    const start = 100 * first.STATISTICS_TTL_MS;
    const before = await bitgetRanking(cache, start);
    await credit('FIVE', '13');
    const old = start + first.STATISTICS_TTL_MS;
    const transactions = vi.spyOn(ctx.db, 'transaction');
    try {
      await ctx.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('public-statistics', 0))`);
        transactions.mockClear();
        cache.latestStatistics(ctx.db, at(old));
        await cache.refreshStatistics(ctx.db, at(old));
        expect(transactions).toHaveBeenCalledTimes(1);
        expect(await bitgetRanking(cache, old)).toEqual(before);
      });
      // Within STATISTICS_RETRY_MS no new attempt; after it, the figures are computed.
      transactions.mockClear();
      cache.latestStatistics(ctx.db, at(old + cache.STATISTICS_RETRY_MS - 1));
      expect(transactions).not.toHaveBeenCalled();
      cache.latestStatistics(ctx.db, at(old + cache.STATISTICS_RETRY_MS));
      expect(transactions).toHaveBeenCalledTimes(1);
      await cache.refreshStatistics(ctx.db, at(old + cache.STATISTICS_RETRY_MS));
      expect((await bitgetRanking(cache, old + cache.STATISTICS_RETRY_MS))?.[0]).toBe('FIVE 13');
    } finally {
      transactions.mockRestore();
    }
  });
});
