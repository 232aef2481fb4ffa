import { fromScaled } from '@elex/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
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
 * The CSV export walks the records in pages of 100 (issue 14: p99 57–107 ms at -c 50 on a million
 * rows, where every other member call is under 20 ms). The app parsed each record's eleven fields from
 * PostgreSQL's row and serialized them again into the answer; now PostgreSQL writes the page's JSON
 * array and the app splices it into the envelope. The bytes must be those JSON.stringify wrote before
 * (key order, no spaces, escapes), in every locale, for a full page, a short one and an empty one.
 */
let ctx: CashbackTestContext;
let member: string;
const uid = nextUid('T');
const START = Date.parse('2026-01-01T00:00:00Z');
const RECORDS = 130;

beforeAll(async () => {
  ctx = await createCashbackTestApp();
  // A day after the last period: the last day's records are pending still (SETTLEMENT_DELAY_HOURS).
  ctx.clock.set(new Date(START + RECORDS * DAY_MS + 60 * 60 * 1000));
  member = await signUp(ctx, nextEmail('pagetext'));
  await ingestReferrals(ctx.deps, BITGET, [{ uid, registeredAt: new Date(START - 100 * DAY_MS) }], {
    kind: 'api',
    label: 'test',
  });
  const bound = await call(
    ctx,
    '/elex/user/bindExchangeUid',
    { platId: BITGET, uid, address: '0x52908400098527886E0F7030069857D2E4169EE7' },
    { token: member },
  );
  expect((await bound.json()).state).toBe(0);
  // Settled records (completed, and failed without commission), then pending ones (an estimate).
  const rows = Array.from({ length: RECORDS }, (_, n) =>
    figures(uid, new Date(START + n * DAY_MS), {
      fee: `${n}.${String(n * 7919)
        .padStart(6, '0')
        .slice(-6)}`,
      commission: n % 9 === 0 ? '0' : '100',
      volume: `${n * 1000}.5`,
    }),
  );
  await ingestRebates(ctx.deps, BITGET, rows, { kind: 'api', label: 'test' });
});
afterAll(() => ctx.close());

it('sends a 100-record export page as the text JSON.stringify wrote, without serializing its records', async () => {
  const stringify = vi.spyOn(JSON, 'stringify');
  let first: string;
  try {
    const answer = await call(
      ctx,
      '/elex/user/seeRebateData',
      { pageSize: 100 },
      { token: member, lang: 'zh' },
    );
    first = answer.body;
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    // Neither the envelope nor a record went through JSON.stringify: the records were not serialized.
    const serialized = stringify.mock.calls.filter(
      ([value]) => typeof value === 'object' && value !== null && ('content' in value || 'uid' in value),
    );
    expect(serialized).toEqual([]);
  } finally {
    stringify.mockRestore();
  }
  const envelope = JSON.parse(first);
  expect(first).toBe(JSON.stringify(envelope));
  expect(envelope.state).toBe(0);
  expect(envelope.message).not.toBe('ok');
  const page = envelope.content;
  expect(Object.keys(page)).toEqual(['records', 'total', 'page', 'pageSize', 'next']);
  expect(page).toMatchObject({ total: RECORDS, page: 1, pageSize: 100 });
  expect(page.records).toHaveLength(100);
  expect(Object.keys(page.records[0])).toEqual([
    'id',
    'platId',
    'uid',
    'periodStart',
    'periodEnd',
    'tradingVolume',
    'fee',
    'status',
    'failureReason',
    'createdAt',
    'amount',
  ]);
  expect(page.next).toBe(page.records[99].id);
  const statuses = new Set(page.records.map((record: { status: string }) => record.status));
  expect([...statuses].sort()).toEqual(['completed', 'failed', 'pending']);
  expect(page.records.find((record: { status: string }) => record.status === 'failed')).toMatchObject({
    failureReason: 'noCommission',
    amount: '0.000000',
  });
  expect(page.records[0]).toMatchObject({
    platId: BITGET,
    uid,
    periodStart: new Date(START + (RECORDS - 1) * DAY_MS).toISOString(),
    tradingVolume: `${(RECORDS - 1) * 1000}.500000`,
  });

  // The rest by cursor: a short page ends the walk; after the last record, an empty page.
  const rest = await call(
    ctx,
    '/elex/user/seeRebateData',
    { pageSize: 100, after: page.next },
    { token: member },
  );
  expect(rest.body).toBe(JSON.stringify(JSON.parse(rest.body)));
  const restPage = JSON.parse(rest.body).content;
  expect(restPage.records).toHaveLength(RECORDS - 100);
  expect(restPage.next).toBeNull();
  const last = restPage.records.at(-1).id;
  const empty = await call(
    ctx,
    '/elex/user/seeRebateData',
    { pageSize: 100, after: last },
    { token: member },
  );
  expect(empty.body).toBe(
    JSON.stringify({
      state: 0,
      message: 'ok',
      content: { records: [], total: RECORDS, page: 1, pageSize: 100, next: null },
    }).replace('"ok"', JSON.stringify(JSON.parse(empty.body).message)),
  );
});

it('sends the ordinary list pages (20, filtered, by number) as the records of their rows', async () => {
  const usdt = (micro: string | null) => fromScaled(BigInt(micro ?? '0'), 6);
  const rows = rowsOf<{
    id: string;
    period_start: string | Date;
    period_end: string | Date;
    created_at: string | Date;
    volume: string;
    fee: string;
    amount: string | null;
    status: string;
    failure_reason: string | null;
  }>(
    await ctx.db.execute(sql`select id::text as id, period_start, period_end, created_at,
        trading_volume_micro::text as volume, fee_micro::text as fee, amount_micro::text as amount,
        status, failure_reason
      from rebates where uid = ${uid} and status = 'completed' order by period_end desc, id desc`),
  );
  const iso = (value: string | Date) => new Date(value).toISOString();
  for (const [page, body] of [
    [2, { platId: BITGET, status: 'completed', page: 2, pageSize: 20 }],
    [1, { platId: BITGET, uid, status: 'completed', from: '2026-02-01', page: 1, pageSize: 20 }],
  ] as const) {
    const answer = await call(ctx, '/elex/user/seeRebateData', body, { token: member });
    const content = JSON.parse(answer.body).content;
    const listed = rows.filter((row) => !('from' in body) || iso(row.period_end) >= '2026-02-01');
    const expected = {
      records: listed.slice((page - 1) * 20, page * 20).map((row) => ({
        id: row.id,
        platId: BITGET,
        uid,
        periodStart: iso(row.period_start),
        periodEnd: iso(row.period_end),
        tradingVolume: usdt(row.volume),
        fee: usdt(row.fee),
        status: row.status,
        failureReason: row.failure_reason,
        createdAt: iso(row.created_at),
        amount: usdt(row.amount),
      })),
      total: listed.length,
      page,
      pageSize: 20,
      // The page's last record when a record follows it.
      next: listed.length > page * 20 ? (listed[page * 20 - 1]?.id ?? null) : null,
    };
    expect(answer.body).toBe(JSON.stringify({ state: 0, message: 'OK', content: expected }));
    expect(content.records).toHaveLength(20);
  }
});
