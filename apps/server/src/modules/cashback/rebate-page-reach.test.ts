import { CASHBACK, fromScaled, State } from '@elex/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.js';
import { call, nextEmail, signUp } from '../auth/test-support.js';
import { ingestRebates, ingestReferrals } from './ingest.service.js';
import {
  BITGET,
  type CashbackTestContext,
  createCashbackTestApp,
  DAY_MS,
  figures,
  nextUid,
} from './test-support.js';

/**
 * A heavy trader's records by page number (issue 14). Each UID's newest (or oldest) records are merged
 * up to the page asked for, so page 600 of a 120,000-record list made the database read and sort
 * 60,000 records per UID: 1.6 s at p99 under load. Page numbers reach the newest and the oldest
 * CASHBACK.pageNumberReach records; a page between them is refused with a message naming the page,
 * the reach and the way on (filters, the CSV export, `after`), and the cursor reads any depth.
 */
let ctx: CashbackTestContext;
let member: string;
const uid = nextUid('R');
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const api = { kind: 'api', label: 'test' } as const;
const HOUR_MS = 3_600_000;
const START = Date.parse('2025-01-01T00:00:00Z');
const REACH = CASHBACK.pageNumberReach;
/** Enough hourly records for a middle that neither end's reach covers. */
const RECORDS = 2 * REACH + 250;

const as = (body: object, lang = 'en') =>
  call(ctx, '/elex/user/seeRebateData', body, { token: member, lang }).then((res) => res.json());

beforeAll(async () => {
  ctx = await createCashbackTestApp();
  // After the last period: records settled, the session fresh.
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
  const rows = Array.from({ length: RECORDS }, (_, n) =>
    figures(uid, new Date(START + n * HOUR_MS), { fee: String((n % 7) + 1), commission: '100' }, 1),
  );
  await ingestRebates(ctx.deps, BITGET, rows, api);
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

describe('seeRebateData pages by number deep in a long list', () => {
  it('answers pages within the reach of either end, and refuses one between them, naming the way on', async () => {
    const ids = await allIds();
    expect(ids).toHaveLength(RECORDS);
    const pageSize = 100;
    const page = async (number: number) => {
      const answer = await as({ page: number, pageSize });
      expect(answer.state, `page ${number}`).toBe(0);
      expect(answer.content.total).toBe(RECORDS);
      return answer.content.records.map((record: { id: string }) => record.id);
    };
    // The newest REACH records: the last page of them is still read.
    const lastNear = REACH / pageSize;
    expect(await page(lastNear)).toEqual(ids.slice(REACH - pageSize, REACH));
    // A page ending within the oldest REACH records, and the last page.
    const firstFar = Math.floor((RECORDS - REACH) / pageSize) + 1;
    expect(await page(firstFar)).toEqual(ids.slice((firstFar - 1) * pageSize, firstFar * pageSize));
    const last = Math.ceil(RECORDS / pageSize);
    expect(await page(last)).toEqual(ids.slice((last - 1) * pageSize));

    // Between them: refused, naming the page and the reach, in each language.
    for (const deep of [lastNear + 1, firstFar - 1]) {
      const refused = await as({ page: deep, pageSize });
      expect(refused.state).toBe(State.ValidationFailed);
      expect(refused.content).toBeNull();
      expect(refused.message).toContain(`${deep}`);
      expect(refused.message).toContain(`${REACH}`);
      expect(refused.message).toContain('after');
    }
    for (const lang of ['zh', 'ko']) {
      const refused = await as({ page: lastNear + 1, pageSize }, lang);
      expect(refused.state).toBe(State.ValidationFailed);
      expect(refused.message).toContain(`${REACH}`);
      expect(refused.message).not.toBe((await as({ page: lastNear + 1, pageSize })).message);
    }

    // The cursor reads the same middle: the records after the last one page numbers reach.
    const after = await as({ pageSize, after: ids[REACH - 1] });
    expect(after.state).toBe(0);
    expect(after.content.records.map((record: { id: string }) => record.id)).toEqual(
      ids.slice(REACH, REACH + pageSize),
    );
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
