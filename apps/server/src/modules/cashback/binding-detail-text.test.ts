import { fromScaled, OWNERSHIP } from '@elex/contract';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
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
 * seeRebateByExchangeId at -c 50 (issue 14): the app rendered its statement with drizzle on every
 * call (sent unnamed: PostgreSQL parsed and planned it each time), then parsed the daily series, turned
 * 90 days of amounts into BigInt and back into text and serialized the answer. Now the statement is
 * rendered once per estimate and prepared by name, and PostgreSQL writes the answer's JSON, which the
 * route splices into the envelope. The bytes must be those the object path wrote: the same fields in
 * the same order, times as toISOString and amounts as fromScaled of the rows.
 */
let ctx: CashbackTestContext;
let member: string;
const uid = nextUid('D');
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const START = Date.parse('2026-05-01T00:00:00Z');
const DAYS = 40;

beforeAll(async () => {
  ctx = await createCashbackTestApp();
  ctx.clock.set(new Date(START + (DAYS - 5) * DAY_MS + 1234));
  member = await signUp(ctx, nextEmail('detailtext'));
  await ingestReferrals(ctx.deps, BITGET, [{ uid, registeredAt: new Date(START - 100 * DAY_MS) }], {
    kind: 'api',
    label: 'test',
  });
  const bound = await call(
    ctx,
    '/elex/user/bindExchangeUid',
    { platId: BITGET, uid, address: ADDRESS },
    {
      token: member,
    },
  );
  expect((await bound.json()).state).toBe(0);
  // A day after the last period: the last day's records are pending still; some paid nothing.
  ctx.clock.set(new Date(START + DAYS * DAY_MS + 60 * 60 * 1000));
  const rows = Array.from({ length: DAYS }, (_, n) =>
    figures(uid, new Date(START + n * DAY_MS), {
      fee: `${n}.${String(n * 7919)
        .padStart(6, '0')
        .slice(-6)}`,
      commission: n % 9 === 0 ? '0' : '100',
    }),
  );
  await ingestRebates(ctx.deps, BITGET, rows, { kind: 'api', label: 'test' });
});
afterAll(() => ctx.close());

/** The answer as the object path wrote it, from the rows (toISOString and fromScaled of each value). */
async function objectPathAnswer(lang: string, message: string): Promise<string> {
  const usdt = (micro: string | bigint) => fromScaled(BigInt(micro), 6);
  const [binding] = rowsOf<{ bound_at: string | Date; ownership_verified_at: string | Date | null }>(
    await ctx.db.execute(
      sql`select bound_at, ownership_verified_at from exchange_bindings where uid = ${uid} and unbound_at is null`,
    ),
  );
  const [balance] = rowsOf<{ balance: string }>(
    await ctx.db.execute(
      sql`select balance::text as balance from ledger_accounts where code = ${`cashback:${BITGET}:${uid}`}`,
    ),
  );
  const days = rowsOf<{ day: string; total: string }>(
    await ctx.db.execute(sql`select to_char(day, 'YYYY-MM-DD') as day, amount_micro::text as total
      from rebate_uid_days where uid = ${uid} order by day`),
  );
  const [last] = rowsOf<{ last: string | Date }>(
    await ctx.db.execute(sql`select max(created_at) as last from rebates where uid = ${uid}`),
  );
  const token = { token: member, lang };
  const info = (await (await call(ctx, '/elex/user/myInfo', {}, token)).json()).content;
  const pending = (await (await call(ctx, '/elex/exchange/expireRebate', {}, token)).json()).content;
  const boundAt = new Date(binding?.bound_at as string);
  const holdEnd = new Date(boundAt.getTime() + OWNERSHIP.holdDays * DAY_MS);
  const heldUntil =
    binding?.ownership_verified_at === null && holdEnd.getTime() > ctx.clock.now().getTime()
      ? holdEnd.toISOString()
      : null;
  return JSON.stringify({
    state: 0,
    message,
    content: {
      platId: BITGET,
      uid,
      address: ADDRESS,
      boundAt: boundAt.toISOString(),
      balance: usdt(balance?.balance ?? '0'),
      totalRebate: info.totalRebate,
      pendingRebate: pending.pending[0].amount,
      daily: days.map((day) => ({ day: day.day, amount: usdt(day.total) })),
      lastDataAt: new Date(last?.last as string).toISOString(),
      heldUntil,
      frozen: false,
    },
  });
}

it('answers the binding detail as the text the object path wrote, rendering and serializing nothing', async () => {
  const ask = () =>
    call(ctx, '/elex/user/seeRebateByExchangeId', { platId: BITGET, uid }, { token: member, lang: 'zh' });
  await ask();
  const stringify = vi.spyOn(JSON, 'stringify');
  const rendered = vi.spyOn(PgDialect.prototype, 'sqlToQuery');
  let answer: Awaited<ReturnType<typeof ask>>;
  try {
    answer = await ask();
    // The detail's statement was not rendered again, and no part of the answer was serialized.
    const detailRenders = rendered.mock.results.filter((result) =>
      String((result.value as { sql?: string })?.sql).includes('rebate_uid_days'),
    );
    expect(detailRenders).toHaveLength(0);
    const serialized = stringify.mock.calls.filter(
      ([value]) => typeof value === 'object' && value !== null && ('content' in value || 'daily' in value),
    );
    expect(serialized).toEqual([]);
  } finally {
    stringify.mockRestore();
    rendered.mockRestore();
  }
  expect(answer.statusCode).toBe(200);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  const envelope = JSON.parse(answer.body);
  expect(envelope.message).not.toBe('ok');
  // Inside the ownership hold, with paid days, failed days (absent) and a pending estimate.
  expect(envelope.content.heldUntil).not.toBeNull();
  expect(envelope.content.daily.length).toBeGreaterThan(20);
  expect(envelope.content.pendingRebate).not.toBe('0.000000');
  expect(answer.body).toBe(await objectPathAnswer('zh', envelope.message));

  // After the hold: heldUntil null, in en.
  ctx.clock.set(new Date(START + 60 * DAY_MS));
  const later = await call(
    ctx,
    '/elex/user/seeRebateByExchangeId',
    { platId: BITGET, uid },
    { token: member },
  );
  expect(JSON.parse(later.body).content.heldUntil).toBeNull();
  expect(later.body).toBe(await objectPathAnswer('en', JSON.parse(later.body).message));
});

it('answers 1004 for a UID the member does not hold, as before', async () => {
  const answer = await call(
    ctx,
    '/elex/user/seeRebateByExchangeId',
    { platId: BITGET, uid: 'NOTBOUND' },
    { token: member },
  );
  expect(JSON.parse(answer.body)).toEqual({ state: 1004, message: 'Not found', content: null });
});
