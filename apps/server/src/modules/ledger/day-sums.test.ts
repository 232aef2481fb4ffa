import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.js';
import { sumLinesByDayAndKind } from '../../read-models/console-reports.js';
import { type CashbackTestContext, createCashbackTestApp, DAY_MS } from '../cashback/test-support.js';
import { runHousekeeping } from '../housekeeping/housekeeping.service.js';
import { accountCode } from './accounts.js';
import { rebuildLedgerDaySums } from './day-sums.js';
import { checkLedgerInvariants } from './ledger.check.js';
import { type JournalInput, postJournals } from './ledger.service.js';

/**
 * The ledger's sums by day (ledger.tables.ts, `ledger_day_sums`): kept as lines are posted, by the UTC
 * day of their journal; read by the dashboard; folded by housekeeping without changing a sum; proved by
 * ledger:check and rebuilt by kept:rebuild.
 */
let ctx: CashbackTestContext;
beforeAll(async () => {
  ctx = await createCashbackTestApp();
});
afterAll(() => ctx.close());

const DAY1 = Date.parse('2026-03-01T00:00:00Z');
const at = (day: number, ms = 9 * 3_600_000) => new Date(DAY1 + (day - 1) * DAY_MS + ms);
const CASHBACK = accountCode.cashback(1, 'DAYS0001');
let next = 0;

function rebate(when: Date, micro: bigint): JournalInput {
  return {
    kind: 'rebate',
    key: `days:${next++}`,
    at: when,
    lines: [
      { account: accountCode.commission(1), amount: -micro },
      { account: CASHBACK, amount: micro },
    ],
  };
}

function payout(when: Date, micro: bigint): JournalInput {
  return {
    kind: 'withdrawal',
    key: `days:${next++}`,
    at: when,
    lines: [
      { account: CASHBACK, amount: -micro },
      { account: accountCode.payout, amount: micro },
    ],
  };
}

const post = (...journals: JournalInput[]) => ctx.db.transaction((tx) => postJournals(tx, journals));
const accrued = async (from: string, to: string) =>
  Object.fromEntries(
    await sumLinesByDayAndKind(ctx.db, { accountKind: 'cashback', journalKinds: ['rebate'], from, to }),
  );
const paid = async (from: string, to: string) =>
  Object.fromEntries(await sumLinesByDayAndKind(ctx.db, { accountKind: 'payout', from, to }));
const rowsPerKey = async () =>
  rowsOf<{ day: string; account: string; journal: string; rows: number }>(
    await ctx.db.execute(sql`
      select to_char(day, 'YYYY-MM-DD') as day, account_kind as account, journal_kind as journal,
        count(*)::int as rows
      from ledger_day_sums group by 1, 2, 3 order by 1, 2, 3`),
  );
const dayProblems = async () =>
  (await checkLedgerInvariants(ctx.db)).filter((problem) => problem.invariant.includes('ledger_day_sums'));
const creditProblems = async () =>
  (await checkLedgerInvariants(ctx.db)).filter((problem) =>
    problem.invariant.includes('cashback_credit_days'),
  );
/** The credits kept for the test's UID: rows and sum per day. */
const creditsPerDay = async () =>
  rowsOf<{ day: string; rows: number; amount: string }>(
    await ctx.db.execute(sql`
      select to_char(c.day, 'YYYY-MM-DD') as day, count(*)::int as rows, sum(c.amount)::text as amount
      from cashback_credit_days c join ledger_accounts a on a.id = c.account_id
      where a.code = ${CASHBACK} group by 1 order by 1`),
  );

describe("the ledger's sums by day", () => {
  it('count each line on the UTC day of its journal, whichever statement posted it', async () => {
    // The last millisecond of day 1 and the first of day 2; one statement with journals of days 2 and 3.
    await post(rebate(at(1, DAY_MS - 1), 10_000_000n));
    await post(rebate(at(2, 0), 20_000_000n));
    await post(rebate(at(2), 1_500_000n), rebate(at(3), 4_000_000n), payout(at(3), 3_000_000n));
    await post(payout(at(3, DAY_MS - 1), 2_000_000n));

    expect(await accrued('2026-03-01', '2026-03-04')).toEqual({
      '2026-03-01': 10_000_000n,
      '2026-03-02': 21_500_000n,
      '2026-03-03': 4_000_000n,
    });
    // The range is [from, to): day 1 alone, then none before it.
    expect(await accrued('2026-03-01', '2026-03-02')).toEqual({ '2026-03-01': 10_000_000n });
    expect(await accrued('2026-02-01', '2026-03-01')).toEqual({});
    expect(await paid('2026-03-01', '2026-03-04')).toEqual({ '2026-03-03': 5_000_000n });
    expect(await dayProblems()).toEqual([]);
    // The cashback credited per account and day: rebates only (the payouts are not credits), a row per
    // posting statement.
    expect(await creditsPerDay()).toEqual([
      { day: '2026-03-01', rows: 1, amount: '10000000' },
      { day: '2026-03-02', rows: 2, amount: '21500000' },
      { day: '2026-03-03', rows: 1, amount: '4000000' },
    ]);
    expect(await creditProblems()).toEqual([]);
  });

  it('are folded by housekeeping into one row a key for past days, the sums unchanged', async () => {
    // Five more postings on day 4 (five rows a key), three on day 6, which is "today" below.
    for (let hour = 1; hour <= 5; hour += 1) await post(rebate(at(4, hour * 3_600_000), 1_000_000n));
    for (let hour = 1; hour <= 3; hour += 1) await post(rebate(at(6, hour * 3_600_000), 100_000n));
    const before = {
      accrued: await accrued('2026-03-01', '2026-03-07'),
      paid: await paid('2026-03-01', '2026-03-07'),
    };
    const rowsBefore = await rowsPerKey();
    expect(rowsBefore).toContainEqual({ day: '2026-03-04', account: 'cashback', journal: 'rebate', rows: 5 });

    // Today is day 6 at noon: days before day 4 (two days kept) are folded, in batches of 2 rows.
    ctx.clock.set(at(6, 12 * 3_600_000));
    const result = await runHousekeeping(ctx.deps, { batchSize: 2 });
    const fold = result.tables.find((table) => table.table === 'ledger_day_sums');
    expect(fold?.complete).toBe(true);
    expect(fold?.deleted).toBeGreaterThan(0);

    const rowsAfter = await rowsPerKey();
    for (const row of rowsAfter) {
      if (row.day < '2026-03-04') expect(row).toMatchObject({ rows: 1 });
    }
    // Days inside the two kept are untouched: day 4 still has its five rows, today its three.
    expect(rowsAfter).toContainEqual({ day: '2026-03-04', account: 'cashback', journal: 'rebate', rows: 5 });
    expect(rowsAfter).toContainEqual({ day: '2026-03-06', account: 'cashback', journal: 'rebate', rows: 3 });
    expect(rowsAfter.map(({ rows: _, ...key }) => key)).toEqual(rowsBefore.map(({ rows: _, ...key }) => key));
    // The credits too: day 2's two rows are one, day 4 keeps its five, no sum changed.
    expect(await creditsPerDay()).toEqual([
      { day: '2026-03-01', rows: 1, amount: '10000000' },
      { day: '2026-03-02', rows: 1, amount: '21500000' },
      { day: '2026-03-03', rows: 1, amount: '4000000' },
      { day: '2026-03-04', rows: 5, amount: '5000000' },
      { day: '2026-03-06', rows: 3, amount: '300000' },
    ]);
    expect(result.tables.find((table) => table.table === 'cashback_credit_days')?.deleted).toBe(2);
    expect(await creditProblems()).toEqual([]);
    expect({
      accrued: await accrued('2026-03-01', '2026-03-07'),
      paid: await paid('2026-03-01', '2026-03-07'),
    }).toEqual(before);
    expect(await dayProblems()).toEqual([]);

    // A second run finds nothing left to fold.
    const again = await runHousekeeping(ctx.deps, { batchSize: 2 });
    expect(again.tables.find((table) => table.table === 'ledger_day_sums')?.deleted).toBe(0);
  });

  it('are named by ledger:check when off, and rebuilt from the lines', async () => {
    await ctx.db.execute(sql`update ledger_day_sums set amount = amount + 1
      where id = (select min(id) from ledger_day_sums where day = '2026-03-02' and account_kind = 'cashback')`);
    await ctx.db.execute(
      sql`delete from ledger_day_sums where day = '2026-03-03' and account_kind = 'payout'`,
    );
    const problems = await dayProblems();
    expect(problems).toHaveLength(1);
    expect(problems[0]?.detail).toContain('2 found');
    expect(problems[0]?.detail).toContain(
      '2026-03-02 cashback/rebate: kept 21500001 in 2 lines, lines 21500000 in 2 lines',
    );
    expect(problems[0]?.detail).toContain(
      '2026-03-03 payout/withdrawal: kept 0 in 0 lines, lines 5000000 in 2 lines',
    );

    await ctx.db.execute(sql`update cashback_credit_days set amount = amount - 7
      where day = '2026-03-01'`);
    await ctx.db.execute(sql`delete from cashback_credit_days where day = '2026-03-03'`);
    const credits = await creditProblems();
    expect(credits).toHaveLength(1);
    expect(credits[0]?.detail).toContain(`2026-03-01 ${CASHBACK}: kept 9999993, lines 10000000`);
    expect(credits[0]?.detail).toContain(`2026-03-03 ${CASHBACK}: kept 0, lines 4000000`);

    const rebuilt = await ctx.db.transaction((tx) => rebuildLedgerDaySums(tx));
    // Two keys were off in each: the wrong sum taken out and the right one put in; the missing key put in.
    expect(rebuilt).toEqual([
      expect.objectContaining({ table: 'ledger_day_sums', removed: 1, added: 2 }),
      expect.objectContaining({ table: 'cashback_credit_days', removed: 1, added: 2 }),
    ]);
    expect(await dayProblems()).toEqual([]);
    expect(await creditProblems()).toEqual([]);
    expect(await paid('2026-03-01', '2026-03-07')).toEqual({ '2026-03-03': 5_000_000n });
    expect((await rowsPerKey()).every((row) => row.rows === 1)).toBe(true);
    expect(await ctx.db.transaction((tx) => rebuildLedgerDaySums(tx))).toEqual([
      expect.objectContaining({ removed: 0, added: 0 }),
      expect.objectContaining({ removed: 0, added: 0 }),
    ]);
  });
});
