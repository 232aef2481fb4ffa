import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testOperatorActor } from '../../test/ops-command.js';
import { runCsvImport } from '../admin/imports.service.js';
import { checkAllInvariants } from './cashback.check.js';
import { rowsOf } from './cashback.repository.js';
import { ingestRebates, ingestReferrals } from './ingest.service.js';
import { STAGING_BATCH } from './rebate-import.js';
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

describe('a figures file larger than a staging batch and an insert chunk', () => {
  it('streams, records, settles and credits every line once; the same file again is all duplicates', async () => {
    const lines = STAGING_BATCH + 1_000;
    const now = ctx.clock.now().getTime();
    const day = Date.UTC(
      new Date(now).getUTCFullYear(),
      new Date(now).getUTCMonth(),
      new Date(now).getUTCDate(),
    );
    const registeredAt = new Date(now - 400 * DAY_MS);
    const uids = Array.from({ length: 500 }, (_, n) => `CSV${n}`);
    await ingestReferrals(
      ctx.deps,
      BITGET,
      uids.map((uid) => ({ uid, registeredAt })),
      { kind: 'csv', label: 'roster.csv' },
      { settle: false },
    );
    // Each UID a run of whole days ending 3 days ago; commission 1 caps Bitget's 50 % of a 4 USDT fee.
    const body = ['uid,period_start,period_end,trading_volume,fee,commission'];
    for (let n = 0; n < lines; n += 1) {
      const start = day - (3 + Math.floor(n / uids.length)) * DAY_MS;
      const period = (time: number) => new Date(time).toISOString();
      body.push(`${uids[n % uids.length]},${period(start)},${period(start + DAY_MS)},100,4,1`);
    }
    const csv = Buffer.from(`${body.join('\n')}\n`);
    const importFile = () =>
      runCsvImport(
        ctx.deps,
        { actor: testOperatorActor, requestId: null },
        { kind: 'rebates', platId: BITGET, fileName: 'big.csv', source: csv, sizeBytes: csv.length },
      );
    const first = await importFile();
    expect(first).toMatchObject({ status: 'succeeded', rows: lines, inserted: lines, duplicates: 0 });
    expect(first.settledCompleted).toBe(lines);
    expect(first.credited).toBe(`${lines}.000000`);
    const again = await importFile();
    expect(again).toMatchObject({ status: 'succeeded', rows: lines, inserted: 0, duplicates: lines });
    expect(again.credited).toBe('0.000000');
    const [balances] = rowsOf<{ total: string }>(
      await ctx.db.execute(
        sql`select sum(balance)::text as total from ledger_accounts where code like 'cashback:4:CSV%'`,
      ),
    );
    expect(balances?.total).toBe(String(lines * 1_000_000));
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  }, 300_000);
});
