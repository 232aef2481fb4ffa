import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountCode, balanceOf } from '../ledger/ledger.service.js';
import { checkAllInvariants } from './cashback.check.js';
import { lockExchangeLedger } from './cashback.repository.js';
import { rebates } from './cashback.tables.js';
import { ingestRebates, ingestReferrals } from './ingest.service.js';
import { loadPartners } from './partners.js';
import { settleExchange } from './settlement.service.js';
import {
  BITGET,
  type CashbackTestContext,
  createCashbackTestApp,
  DAY_MS,
  figures,
  nextUid,
} from './test-support.js';

/**
 * Records stored pending that fall due together settle UID by UID (issue 14): a page holds whole UIDs,
 * so one journal pays each UID's records of a page, whatever order the records arrived in. In period
 * order a day's worth of hourly records of many UIDs put every UID on every page.
 */
let ctx: CashbackTestContext;
beforeAll(async () => {
  ctx = await createCashbackTestApp();
});
afterAll(() => ctx.close());

const HOUR_MS = 60 * 60 * 1000;

describe('settling records that fall due together', () => {
  it('pays each UID once per page it spans, not once per record, in pages of whole UIDs', async () => {
    ctx.clock.set(new Date('2026-10-20T12:00:00Z'));
    const now = ctx.clock.now().getTime();
    const uids = Array.from({ length: 25 }, () => nextUid('DUE'));
    await ingestReferrals(
      ctx.deps,
      BITGET,
      uids.map((uid) => ({ uid, registeredAt: new Date(now - 400 * DAY_MS) })),
      { kind: 'csv', label: 'roster.csv' },
      { settle: false },
    );
    // 20 hourly periods of each UID ending within the last day: all wait for the settlement delay.
    const firstHour = now - 21 * HOUR_MS;
    const entries = [];
    for (let hour = 0; hour < 20; hour += 1) {
      for (const uid of uids) {
        entries.push(figures(uid, new Date(firstHour + hour * HOUR_MS), { fee: '2', commission: '1' }, 1));
      }
    }
    const stored = await ingestRebates(ctx.deps, BITGET, entries, { kind: 'api', label: 'hourly' });
    expect(stored).toMatchObject({ inserted: 500, settled: 0 });

    ctx.clock.set(new Date(now + 2 * DAY_MS));
    const partner = (await loadPartners(ctx.deps)).get(BITGET);
    if (!partner) throw new Error('Bitget is in the catalog');
    const settled = await ctx.db.transaction(async (tx) => {
      await lockExchangeLedger(tx, BITGET);
      return settleExchange(tx, ctx.deps, partner, ctx.clock.now(), { pageSize: 50 });
    });
    expect(settled).toMatchObject({ completed: 500, failed: 0, creditedMicro: 500n * 1_000_000n });

    const records = await ctx.db
      .select({ uid: rebates.uid, status: rebates.status, journalId: rebates.journalId })
      .from(rebates)
      .where(inArray(rebates.uid, uids));
    expect(records.every((record) => record.status === 'completed')).toBe(true);
    // 20 records a UID, 50 a page: five UIDs straddle a page boundary (records 41-60, 141-160 ...), so
    // 25 + 5 journals. In period order each page held every UID: 25 journals a page, 250 in all.
    expect(new Set(records.map((record) => record.journalId)).size).toBe(30);
    for (const uid of uids) {
      expect(await balanceOf(ctx.db, accountCode.cashback(BITGET, uid))).toBe(20n * 1_000_000n);
    }
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });
});
