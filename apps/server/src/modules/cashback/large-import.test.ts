import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAllInvariants } from './cashback.check.js';
import { ingestRebates, ingestReferrals } from './ingest.service.js';
import { BITGET, type CashbackTestContext, createCashbackTestApp, DAY_MS, figures } from './test-support.js';

/**
 * Issue 13: an exchange with more than 65,535 due records could neither import nor settle (one
 * `IN (...)` over every credited UID passed PostgreSQL's parameter limit, and every later import of
 * that exchange failed the same way). Here one import brings more UIDs and records than that, then a
 * one-row import still works, and the ledger is sound. `LARGE_IMPORT_ROWS` raises the size for a
 * manual run (the 200,000).
 */
const ROWS = Number(process.env.LARGE_IMPORT_ROWS ?? 70_000);

let ctx: CashbackTestContext;
beforeAll(async () => {
  ctx = await createCashbackTestApp();
});
afterAll(() => ctx.close());

describe(`an import of ${ROWS.toLocaleString('en')} due records for one exchange`, () => {
  it('records, settles and credits every one, and the next import still works', async () => {
    const now = ctx.clock.now().getTime();
    const registeredAt = new Date(now - 400 * DAY_MS);
    const uids = Array.from({ length: ROWS }, (_, n) => `BIG${n}`);
    const api = { kind: 'api', label: 'large import' } as const;
    const roster = await ingestReferrals(
      ctx.deps,
      BITGET,
      uids.map((uid) => ({ uid, registeredAt })),
      api,
      { settle: false },
    );
    expect(roster.inserted).toBe(ROWS);
    const day = new Date(now - 3 * DAY_MS);
    const result = await ingestRebates(
      ctx.deps,
      BITGET,
      uids.map((uid) => figures(uid, day, { fee: '2', commission: '1' })),
      api,
    );
    // Bitget's basic rate is 50 %: 1 USDT of each 2 USDT fee, within the 1 USDT commission.
    expect(result).toMatchObject({ inserted: ROWS, settled: ROWS });
    expect(result.settlement.creditedMicro).toBe(BigInt(ROWS) * 1_000_000n);

    const next = await ingestRebates(
      ctx.deps,
      BITGET,
      [figures('BIG0', new Date(now - 2 * DAY_MS), { fee: '2', commission: '1' })],
      api,
    );
    expect(next).toMatchObject({ inserted: 1, settled: 1 });
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  }, 900_000);
});
