import { CASHBACK } from '@elex/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.js';
import { call, nextEmail, signUp } from '../auth/test-support.js';
import { checkAllInvariants } from './cashback.check.js';
import { ingestRebates, ingestReferrals } from './ingest.service.js';
import {
  BINANCE,
  BITGET,
  type CashbackTestContext,
  createCashbackTestApp,
  DAY_MS,
  figures,
  nextUid,
} from './test-support.js';

/**
 * seeRebateData merges each UID's newest records and counts from the kept totals (issue 14): the
 * pages must still be the member's records in one order (period end, newest first, then id), with
 * nothing skipped or repeated at a page's edge, and the totals the records' counts, whatever the
 * filter. Three UIDs on two exchanges whose periods interleave and end at the same moments.
 */
let ctx: CashbackTestContext;
let member: string;
const uids = { a: nextUid('P'), b: nextUid('P'), c: nextUid('P') };
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const api = { kind: 'api', label: 'test' } as const;
const HOUR_MS = 3_600_000;
const START = Date.parse('2026-03-01T00:00:00Z');

const as = (url: string, body: object = {}) =>
  call(ctx, url, body, { token: member }).then((res) => res.json());

beforeAll(async () => {
  ctx = await createCashbackTestApp();
  ctx.clock.set(new Date(START - 10 * DAY_MS));
  member = await signUp(ctx, nextEmail('pages'));
  const registeredAt = new Date(START - 100 * DAY_MS);
  await ingestReferrals(
    ctx.deps,
    BITGET,
    [uids.a, uids.b].map((uid) => ({ uid, registeredAt })),
    api,
  );
  await ingestReferrals(ctx.deps, BINANCE, [{ uid: uids.c, registeredAt }], api);
  for (const [platId, uid] of [
    [BITGET, uids.a],
    [BITGET, uids.b],
    [BINANCE, uids.c],
  ] as const) {
    expect((await as('/elex/user/bindExchangeUid', { platId, uid, address: ADDRESS })).state).toBe(0);
  }
  // A: 6-hour periods; B: 12-hour periods ending at A's ends; C: daily, one without commission
  // (failed). Imported in three batches; the last day's arrive after the earlier ones settled.
  const rows = (uid: string, hours: number, count: number, from = 0) =>
    Array.from({ length: count }, (_, n) =>
      figures(
        uid,
        new Date(START + (from + n) * hours * HOUR_MS),
        {
          fee: String(1 + n),
          commission: uid === uids.c && n === 1 ? '0' : '100',
          volume: String(10 * (n + 1)),
        },
        hours,
      ),
    );
  ctx.clock.set(new Date(START + 5 * DAY_MS));
  await ingestRebates(ctx.deps, BITGET, [...rows(uids.a, 6, 12), ...rows(uids.b, 12, 6)], api);
  await ingestRebates(ctx.deps, BINANCE, rows(uids.c, 24, 3), api);
  // Settled by now; these stay pending (their periods ended less than 24 hours ago).
  ctx.clock.set(new Date(START + 6 * DAY_MS));
  await ingestRebates(ctx.deps, BITGET, [...rows(uids.a, 6, 4, 20), ...rows(uids.b, 12, 2, 10)], api);
});
afterAll(() => ctx.close());

interface Expected {
  id: string;
  platId: number;
  status: string;
  periodEnd: string;
}

/** The member's records in the list's order, straight from the table. */
async function expected(filter: { platId?: number; status?: string; from?: string }): Promise<Expected[]> {
  const found = rowsOf<{ id: string; plat_id: number; status: string; period_end: Date | string }>(
    await ctx.db.execute(sql`
      select r.id::text as id, r.plat_id, r.status, r.period_end from rebates r
      where r.uid in (${uids.a}, ${uids.b}, ${uids.c})
      order by r.period_end desc, r.id desc`),
  );
  return found
    .map((row) => ({
      id: row.id,
      platId: row.plat_id,
      status: row.status,
      periodEnd: new Date(row.period_end).toISOString(),
    }))
    .filter((row) => filter.platId === undefined || row.platId === filter.platId)
    .filter((row) => filter.status === undefined || row.status === filter.status)
    .filter((row) => filter.from === undefined || row.periodEnd >= `${filter.from}T00:00:00.000Z`);
}

describe('seeRebateData pages at every size', () => {
  const filters = [
    {},
    { status: 'completed' },
    { status: 'pending' },
    { status: 'failed' },
    { platId: BITGET },
    { platId: BINANCE, status: 'completed' },
    { from: '2026-03-03' },
  ];
  it.each(filters)(
    'walks %o page by page in one order, each record once, with the right total',
    async (filter) => {
      const want = await expected(filter);
      expect(want.length).toBeGreaterThan(0);
      for (const pageSize of [1, 3, 7, 100]) {
        const seen: string[] = [];
        for (let page = 1; page <= Math.ceil(want.length / pageSize) + 1; page += 1) {
          const answer = await as('/elex/user/seeRebateData', { ...filter, page, pageSize });
          expect(answer.state).toBe(0);
          expect(answer.content.total).toBe(want.length);
          const ids = answer.content.records.map((record: { id: string }) => record.id);
          seen.push(...ids);
          // `next` exactly when a record follows the page, whichever end the page was read from.
          expect(answer.content.next, `page ${page} of ${pageSize}`).toBe(
            page * pageSize < want.length ? ids.at(-1) : null,
          );
        }
        expect(seen).toEqual(want.map((row) => row.id));
      }
    },
  );

  it.each(filters)(
    'walks %o by cursor (after: the last record of each page) in the same order, each record once',
    async (filter) => {
      const want = await expected(filter);
      for (const pageSize of [1, 3, 7, 100]) {
        const seen: string[] = [];
        let after: string | undefined;
        let asked = 0;
        for (let step = 0; step <= want.length + 1; step += 1) {
          const answer = await as('/elex/user/seeRebateData', { ...filter, pageSize, after });
          asked += 1;
          expect(answer.state).toBe(0);
          expect(answer.content.total).toBe(want.length);
          const ids = answer.content.records.map((record: { id: string }) => record.id);
          seen.push(...ids);
          // A page names its last record to go on from exactly when a record follows it.
          expect(answer.content.next).toBe(seen.length < want.length ? ids.at(-1) : null);
          after = answer.content.next ?? undefined;
          if (!after) break;
        }
        expect(seen).toEqual(want.map((row) => row.id));
        // The walk ends on its last records, never on an empty page asked for after them.
        expect(asked).toBe(Math.ceil(want.length / pageSize));
      }
    },
  );

  it('gives `next` exactly when a record follows: two full pages end on the second, by number and by cursor', async () => {
    const want = (await expected({ platId: BITGET })).map((row) => row.id);
    // Two exchanges' UIDs: A's 16 and B's 8 records.
    expect(want).toHaveLength(24);
    const page = (body: object) =>
      as('/elex/user/seeRebateData', { platId: BITGET, ...body }).then((answer) => {
        expect(answer.state, JSON.stringify(body)).toBe(0);
        return {
          ids: answer.content.records.map((record: { id: string }) => record.id),
          next: answer.content.next,
        };
      });
    // Exactly two full pages of 12: page 2 (by number, read from the newest end) ends the list.
    expect(await page({ page: 1, pageSize: 12 })).toEqual({ ids: want.slice(0, 12), next: want[11] });
    expect(await page({ page: 2, pageSize: 12 })).toEqual({ ids: want.slice(12), next: null });
    // By cursor: the page after page 1's last record is full and ends the list.
    expect(await page({ page: 2, pageSize: 12, after: want[11] })).toEqual({
      ids: want.slice(12),
      next: null,
    });
    // Three full pages of 8: page 3 is read from the oldest end and ends the list; page 2 does not.
    expect(await page({ page: 2, pageSize: 8 })).toEqual({ ids: want.slice(8, 16), next: want[15] });
    expect(await page({ page: 3, pageSize: 8 })).toEqual({ ids: want.slice(16), next: null });
    // The whole list as one full first page (the first page's own statement): no next.
    expect(await page({ pageSize: 24 })).toEqual({ ids: want, next: null });
    // A page followed by one record names its last record; the page of that one record ends the list.
    expect(await page({ pageSize: 23 })).toEqual({ ids: want.slice(0, 23), next: want[22] });
    expect(await page({ page: 2, pageSize: 23 })).toEqual({ ids: want.slice(23), next: null });
    expect(await page({ pageSize: 23, after: want[22] })).toEqual({ ids: want.slice(23), next: null });
    expect(await page({ pageSize: 22, after: want[0] })).toEqual({ ids: want.slice(1, 23), next: want[22] });
  });

  it("refuses a cursor that is another member's record, and names a cursor that is not a record id", async () => {
    // The stranger has a UID and a record of their own, so their list is read from the cursor on.
    const stranger = await signUp(ctx, nextEmail('stranger'));
    const theirUid = nextUid('S');
    await ingestReferrals(
      ctx.deps,
      BINANCE,
      [{ uid: theirUid, registeredAt: new Date(START - DAY_MS) }],
      api,
    );
    const bind = await call(
      ctx,
      '/elex/user/bindExchangeUid',
      { platId: BINANCE, uid: theirUid, address: ADDRESS },
      { token: stranger },
    ).then((res) => res.json());
    expect(bind.state).toBe(0);
    await ingestRebates(
      ctx.deps,
      BINANCE,
      [figures(theirUid, new Date(START), { fee: '1', commission: '100' }, 24)],
      api,
    );
    const asStranger = (body: object) =>
      call(ctx, '/elex/user/seeRebateData', body, { token: stranger }).then((res) => res.json());
    const own = await asStranger({});
    expect(own.content.records).toHaveLength(1);
    // After their own last record: the end of their list.
    expect(await asStranger({ after: own.content.records[0].id })).toMatchObject({
      state: 0,
      content: { records: [], next: null },
    });
    // After the member's record: refused, not an empty page that would pass for the end.
    const refusedForeign = await asStranger({ after: (await expected({}))[0]?.id });
    expect(refusedForeign.state).not.toBe(0);
    expect(JSON.stringify(refusedForeign)).toContain('after');

    for (const after of ['0', '-5', '1.5', 'abc', '9'.repeat(19), 42]) {
      const refused = await as('/elex/user/seeRebateData', { after });
      expect(refused.state, String(after)).not.toBe(0);
      expect(JSON.stringify(refused)).toContain('after');
    }
    // Pages of the export's size: the first, or by cursor; a deep page number holds at most 100.
    const all = await expected({});
    const first = await as('/elex/user/seeRebateData', { pageSize: CASHBACK.exportPageSize });
    expect(first.content.records).toHaveLength(all.length);
    const byCursor = await as('/elex/user/seeRebateData', {
      pageSize: CASHBACK.exportPageSize,
      after: all[0]?.id,
    });
    expect(byCursor.content.records).toHaveLength(all.length - 1);
    const deep = await as('/elex/user/seeRebateData', { page: 2, pageSize: 101 });
    expect(deep.state).not.toBe(0);
    expect(JSON.stringify(deep)).toContain('pageSize');
  });

  it('keeps totals that equal the records, and ledger:check names a total that does not', async () => {
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
    const kept = rowsOf<{ status: string; records: string }>(
      await ctx.db.execute(sql`
        select status, sum(records)::text as records from rebate_uid_totals
        where uid in (${uids.a}, ${uids.b}, ${uids.c}) group by status order by status`),
    );
    expect(kept).toEqual([
      { status: 'completed', records: '20' },
      { status: 'failed', records: '1' },
      { status: 'pending', records: '6' },
    ]);
    await ctx.db.execute(
      sql`update rebate_uid_totals set records = records + 1 where uid = ${uids.b} and status = 'completed'`,
    );
    const problems = await checkAllInvariants(ctx.db);
    expect(problems.map((problem) => problem.invariant)).toEqual([
      expect.stringContaining("each UID's kept totals (rebate_uid_totals)"),
    ]);
    expect(problems[0]?.detail).toContain(`${BITGET}:${uids.b} completed`);
    await ctx.db.execute(
      sql`update rebate_uid_totals set records = records - 1 where uid = ${uids.b} and status = 'completed'`,
    );
  });

  it('keeps the paid cashback per trading day that the chart reads, and ledger:check names a day that is off', async () => {
    const kept = rowsOf<{ day: string; amount: string }>(
      await ctx.db.execute(sql`
        select to_char(day, 'YYYY-MM-DD') as day, amount_micro::text as amount from rebate_uid_days
        where plat_id = ${BINANCE} and uid = ${uids.c} order by day`),
    );
    const summed = rowsOf<{ day: string; amount: string }>(
      await ctx.db.execute(sql`
        select to_char(period_start at time zone 'UTC', 'YYYY-MM-DD') as day, sum(amount_micro)::text as amount
        from rebates where plat_id = ${BINANCE} and uid = ${uids.c} and status = 'completed' and amount_micro > 0
        group by 1 order by 1`),
    );
    expect(kept.length).toBeGreaterThan(1);
    expect(kept).toEqual(summed);
    const [first] = kept;
    await ctx.db.execute(
      sql`update rebate_uid_days set amount_micro = amount_micro + 1 where uid = ${uids.c} and day = ${first?.day}::date`,
    );
    const problems = await checkAllInvariants(ctx.db);
    expect(problems.map((problem) => problem.invariant)).toEqual([
      expect.stringContaining('rebate_uid_days'),
    ]);
    expect(problems[0]?.detail).toContain(`${BINANCE}:${uids.c} ${first?.day}`);
    await ctx.db.execute(
      sql`update rebate_uid_days set amount_micro = amount_micro - 1 where uid = ${uids.c} and day = ${first?.day}::date`,
    );
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });
});
