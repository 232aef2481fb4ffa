import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.js';
import { BITGET, type CashbackTestContext, createCashbackTestApp } from '../cashback/test-support.js';
import { adminCall, type Caller, FIGURES_HEADER, newOperator } from './test-support.js';

/**
 * issue 14, "no manual ANALYZE": an import of many UIDs or records leaves the planner's statistics of
 * what it wrote fresh. Until autovacuum came by, the console's roster page after a large roster import
 * planned for an empty roster (198 ms instead of 9 at 17,604 UIDs), and the member calls after a large
 * figures file planned for the table it had been (myInfo 123 ms instead of 2.9).
 */
let ctx: CashbackTestContext;
let operator: Caller;

beforeAll(async () => {
  ctx = await createCashbackTestApp();
  ctx.clock.set(new Date('2026-10-20T12:00:00Z'));
  operator = await newOperator(ctx);
}, 60_000);
afterAll(() => ctx.close());

/** What the planner believes a table holds: its row estimate, -1 or 0 before any statistics. */
async function plannedRows(table: 'referrals' | 'rebates'): Promise<number> {
  const [row] = rowsOf<{ rows: number }>(
    await ctx.db.execute(sql`select reltuples::float8 as rows from pg_class where oid = ${table}::regclass`),
  );
  return Number(row?.rows);
}

const roster = (prefix: string, count: number) =>
  [
    'uid,registered_at',
    ...Array.from({ length: count }, (_, index) => `${prefix}${index},2026-10-05T00:00:00Z`),
    '',
  ].join('\n');

describe('a large import refreshes the statistics of what it wrote', () => {
  it('after a roster of 10,000 UIDs the planner knows them all, with no ANALYZE by hand', async () => {
    expect(await plannedRows('referrals')).toBeLessThan(1);
    const answer = await adminCall(ctx, operator, 'uploadImport', {
      kind: 'referrals',
      platId: BITGET,
      fileName: 'big-roster.csv',
      csv: roster('9100', 10_000),
    });
    expect(answer.state, answer.message).toBe(0);
    expect(answer.content.status).toBe('succeeded');
    expect(answer.content.inserted).toBe(10_000);
    expect(await plannedRows('referrals')).toBe(10_000);
  });

  it('after a figures file of 10,000 records the planner knows them all', async () => {
    expect(await plannedRows('rebates')).toBeLessThan(1);
    // UIDs outside the roster: the records are stored and settle as failed ('uidNotReferred').
    const lines = Array.from(
      { length: 10_000 },
      (_, index) => `9200${index},2026-10-05T00:00:00Z,2026-10-06T00:00:00Z,100,2,1`,
    );
    const answer = await adminCall(ctx, operator, 'uploadImport', {
      kind: 'rebates',
      platId: BITGET,
      fileName: 'big-figures.csv',
      csv: [FIGURES_HEADER, ...lines, ''].join('\n'),
    });
    expect(answer.state, answer.message).toBe(0);
    expect(answer.content.inserted).toBe(10_000);
    expect(await plannedRows('rebates')).toBe(10_000);
  });
});
