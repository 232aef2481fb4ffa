import { CASHBACK, fromScaled, State } from '@elex/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.js';
import { call, nextEmail, signUp } from '../auth/test-support.js';
import { ingestReferrals } from './ingest.service.js';
import { BITGET, type CashbackTestContext, createCashbackTestApp, DAY_MS, nextUid } from './test-support.js';

/**
 * A long list of records by page number and by cursor (issue 14). A page by number merges each UID's
 * records from the nearer end of the list down to it, so a page in the middle of a heavy trader's list
 * read every record before it (page 600 of 100: 1.7–4 s). Page numbers reach the newest and the oldest
 * CASHBACK.pageReach records; a page wholly between them is refused (1001, the way on: `after`), and
 * the cursor reads any depth. The route's own constant, with just over twice its records.
 */
let ctx: CashbackTestContext;
let member: string;
const uid = nextUid('R');
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const api = { kind: 'api', label: 'test' } as const;
const HOUR_MS = 3_600_000;
const START = Date.parse('2025-01-01T00:00:00Z');
const REACH = CASHBACK.pageReach;
/** Hourly records: a middle that neither end's reach covers, by 250 records. */
const RECORDS = 2 * REACH + 250;
const PAGE_SIZE = 100;

const as = (body: object, lang = 'en') =>
  call(ctx, '/elex/user/seeRebateData', body, { token: member, lang }).then((res) => res.json());

beforeAll(async () => {
  ctx = await createCashbackTestApp();
  ctx.clock.set(new Date(START + (RECORDS + 72) * HOUR_MS));
  member = await signUp(ctx, nextEmail('reach'));
  await ingestReferrals(ctx.deps, BITGET, [{ uid, registeredAt: new Date(START - 100 * DAY_MS) }], api);
  expect(
    (
      await call(
        ctx,
        '/elex/user/bindExchangeUid',
        { platId: BITGET, uid, address: ADDRESS },
        { token: member },
      ).then((res) => res.json())
    ).state,
  ).toBe(0);
  // One statement for all of them (the kept totals follow by the table's statement triggers).
  await ctx.db.execute(sql`
    insert into rebates (plat_id, uid, period_start, period_end, trading_volume_micro, fee_micro,
                         commission_micro, source, source_label, created_at)
    select ${BITGET}, ${uid}, ${new Date(START).toISOString()}::timestamptz + g * interval '1 hour',
           ${new Date(START).toISOString()}::timestamptz + (g + 1) * interval '1 hour',
           1000000000 + g, (g % 7 + 1) * 1000000, 100000000, 'csv', 'deep pages', now()
    from generate_series(0, ${RECORDS - 1}) g`);
}, 120_000);
afterAll(() => ctx.close());

/** The member's record ids in the list's order (newest period first), straight from the table. */
async function allIds(): Promise<string[]> {
  return rowsOf<{ id: string }>(
    await ctx.db.execute(
      sql`select id::text as id from rebates where uid = ${uid} order by period_end desc, id desc`,
    ),
  ).map((row) => row.id);
}

const idsOf = (answer: { content: { records: { id: string }[] } }) =>
  answer.content.records.map((record) => record.id);

describe('seeRebateData pages by number deep in a long list', () => {
  it('answers pages within the reach of either end as the table orders them, and the cursor at any depth', async () => {
    const ids = await allIds();
    expect(ids).toHaveLength(RECORDS);
    const page = async (number: number, pageSize = PAGE_SIZE) => {
      const answer = await as({ page: number, pageSize });
      expect(answer.state, `page ${number} of ${pageSize}`).toBe(0);
      expect(answer.content.total).toBe(RECORDS);
      return idsOf(answer);
    };
    const slice = (number: number, pageSize = PAGE_SIZE) =>
      ids.slice((number - 1) * pageSize, number * pageSize);
    // The last page ending within the newest REACH records; the same with the web's pages of 20.
    const lastNear = REACH / PAGE_SIZE;
    const firstFar = Math.floor((RECORDS - REACH) / PAGE_SIZE) + 1;
    const last = Math.ceil(RECORDS / PAGE_SIZE);
    for (const number of [1, 2, lastNear, firstFar, last]) {
      expect(await page(number), `page ${number}`).toEqual(slice(number));
    }
    expect(await page(REACH / 20, 20)).toEqual(slice(REACH / 20, 20));
    // The cursor reads the pages page numbers do not reach: after the last record page lastNear shows.
    for (const depth of [REACH, REACH + PAGE_SIZE]) {
      const after = await as({ pageSize: PAGE_SIZE, after: ids[depth - 1] });
      expect(after.state).toBe(0);
      expect(idsOf(after)).toEqual(ids.slice(depth, depth + PAGE_SIZE));
      expect(after.content.next).toBe(ids[depth + PAGE_SIZE - 1]);
    }
  });

  it('refuses a page wholly between the newest and the oldest reach, naming the page, the reach and `after`, in each language, and changes nothing', async () => {
    const before = await as({ page: REACH / PAGE_SIZE, pageSize: PAGE_SIZE });
    const totals = () =>
      ctx.db.execute(
        sql`select status, records::text from rebate_uid_totals where uid = ${uid} order by status`,
      );
    const totalsBefore = rowsOf(await totals());
    const lastNear = REACH / PAGE_SIZE;
    const firstFar = Math.floor((RECORDS - REACH) / PAGE_SIZE) + 1;
    const deep = [lastNear + 1, firstFar - 1];
    expect(deep[0]).toBeLessThanOrEqual(deep[1] as number);
    const messages = new Set<string>();
    for (const number of deep) {
      for (const lang of ['en', 'zh', 'ko']) {
        const refused = await as({ page: number, pageSize: PAGE_SIZE }, lang);
        expect(refused.state, `page ${number} ${lang}`).toBe(State.ValidationFailed);
        expect(refused.content).toEqual({ messageKey: 'rebatePageTooDeep' });
        expect(refused.message).toContain(`${number}`);
        expect(refused.message).toContain(`${REACH}`);
        expect(refused.message).toContain(`${RECORDS}`);
        expect(refused.message).toContain('after');
        if (number === deep[0]) messages.add(refused.message);
      }
    }
    // One wording per language.
    expect(messages.size).toBe(3);
    // Pages of 20 meet the same bound: the first one past the newest REACH records.
    const byTwenty = await as({ page: REACH / 20 + 1, pageSize: 20 });
    expect(byTwenty.state).toBe(State.ValidationFailed);
    expect(byTwenty.content).toEqual({ messageKey: 'rebatePageTooDeep' });

    expect(rowsOf(await totals())).toEqual(totalsBefore);
    expect(await as({ page: REACH / PAGE_SIZE, pageSize: PAGE_SIZE })).toEqual(before);
  });

  it('answers a walk by cursor past page 10,000 (the page number is only shown), and bounds a page by number', async () => {
    const ids = await allIds();
    // Page 10,001 of 20 lies past 200,000 records: the walk's page number, read after its cursor.
    const walked = await as({ page: 10_001, pageSize: 20, after: ids[99] });
    expect(walked.state).toBe(0);
    expect(walked.content).toMatchObject({ page: 10_001, pageSize: 20, total: RECORDS, next: ids[119] });
    expect(idsOf(walked)).toEqual(ids.slice(100, 120));
    // The largest page number a walk can name, and the walk's last page: no next after the oldest.
    const far = await as({ page: Number.MAX_SAFE_INTEGER, pageSize: 20, after: ids[RECORDS - 21] });
    expect(far.state).toBe(0);
    expect(far.content).toMatchObject({ page: Number.MAX_SAFE_INTEGER, next: null });
    expect(idsOf(far)).toEqual(ids.slice(RECORDS - 20));
    // By number the cap stays: page 10,001 is refused as bad input, naming the page, in each language;
    // the last page the cap allows is answered (past the list: no records, no next).
    const messages = new Set<string>();
    for (const lang of ['en', 'zh', 'ko']) {
      const refused = await as({ page: 10_001, pageSize: 20 }, lang);
      expect(refused.state, lang).toBe(State.ValidationFailed);
      expect(refused.message).toMatch(/^page[:：]/);
      messages.add(refused.message);
    }
    expect(messages.size).toBe(3);
    expect((await as({ page: 10_000, pageSize: 100 })).content).toMatchObject({
      records: [],
      total: RECORDS,
      next: null,
    });
    // Malformed or huge page numbers, with a cursor or without: refused as bad input, never a 500.
    for (const page of [Number.MAX_SAFE_INTEGER + 2, 1e300, '9'.repeat(40), '1e400', -1, 0, 1.5, 'abc']) {
      for (const after of [undefined, ids[99]]) {
        const response = await call(
          ctx,
          '/elex/user/seeRebateData',
          { page, pageSize: 20, after },
          { token: member },
        );
        const refused = await response.json();
        const label = `page ${page} after ${after}`;
        expect(response.statusCode, label).toBeLessThan(500);
        expect(refused.state, label).toBe(State.ValidationFailed);
        expect(refused.message, label).toMatch(/^page[:：]/);
      }
    }
    // 2^31 by number is refused by the cap; with a cursor it is a page number like any other.
    expect((await as({ page: 2_147_483_648, pageSize: 20 })).state).toBe(State.ValidationFailed);
    const wide = await as({ page: 2_147_483_648, pageSize: 20, after: ids[99] });
    expect(wide.state).toBe(0);
    expect(wide.content.page).toBe(2_147_483_648);
  });

  it('decides by the total the filters let through', async () => {
    // The newest 3,000 hours: a page REACH deep now touches the oldest REACH records of that list.
    const firstDay = new Date(START + (RECORDS - 3000) * HOUR_MS).toISOString().slice(0, 10);
    const answer = await as({ from: firstDay, page: REACH / PAGE_SIZE + 1, pageSize: PAGE_SIZE });
    expect(answer.state).toBe(0);
    expect(answer.content.total).toBeLessThan(REACH * 2 + PAGE_SIZE);
    const ids = rowsOf<{ id: string }>(
      await ctx.db.execute(sql`select id::text as id from rebates where uid = ${uid}
        and period_end >= ${`${firstDay}T00:00:00Z`}::timestamptz
        order by period_end desc, id desc`),
    ).map((row) => row.id);
    expect(answer.content.total).toBe(ids.length);
    expect(idsOf(answer)).toEqual(ids.slice(REACH, REACH + PAGE_SIZE));
  });

  it("writes each record's times and amounts as the contract's ISO times and six-decimal USDT", async () => {
    const [row] = rowsOf<{
      id: string;
      period_start: Date | string;
      created_at: Date | string;
      fee_micro: string;
      trading_volume_micro: string;
    }>(
      await ctx.db.execute(sql`
        select id::text as id, period_start, created_at, fee_micro::text, trading_volume_micro::text
        from rebates where uid = ${uid} order by period_end desc, id desc limit 1`),
    );
    const answer = await as({ page: 1, pageSize: 1 });
    const [record] = answer.content.records;
    expect(record).toMatchObject({
      id: row?.id,
      periodStart: new Date(row?.period_start as string).toISOString(),
      createdAt: new Date(row?.created_at as string).toISOString(),
      fee: fromScaled(BigInt(row?.fee_micro as string), 6),
      tradingVolume: fromScaled(BigInt(row?.trading_volume_micro as string), 6),
    });
    expect(record.amount).toMatch(/^\d+\.\d{6}$/);
  });
});
