import { State } from '@elex/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, nextEmail, signUp } from '../auth/test-support.js';
import { ingestRebates, ingestReferrals } from './ingest.service.js';
import { maskEmail } from './mask-email.js';
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
 * The member views on one story: Alice binds a Bitget and a Binance UID; her friend Fay, who signed up
 * with Alice's invite code, binds a Bitget UID. Figures arrive day by day and settle the next day.
 */
let ctx: CashbackTestContext;
let alice: string;
let fay: string;
let fayEmail: string;
let other: string;
const bitgetUid = nextUid('A');
const binanceUid = nextUid('A');
const fayUid = nextUid('F');
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const api = { kind: 'api', label: 'test' } as const;
const DAY1 = Date.parse('2026-03-01T00:00:00Z');

const as = (token: string, url: string, body: object = {}) =>
  call(ctx, url, body, { token }).then((res) => res.json());

beforeAll(async () => {
  ctx = await createCashbackTestApp();
  ctx.clock.set(new Date(DAY1 - 10 * DAY_MS));
  alice = await signUp(ctx, nextEmail('alice'));
  const { inviteCode } = (await as(alice, '/elex/user/profile')).content;
  fayEmail = nextEmail('fay');
  fay = await signUp(ctx, fayEmail, { code: inviteCode });
  other = await signUp(ctx, nextEmail('other'));
  // Registered long ago: the basic rates apply (Bitget 50 %, Binance 30 %).
  const registeredAt = new Date(DAY1 - 100 * DAY_MS);
  await ingestReferrals(
    ctx.deps,
    BITGET,
    [bitgetUid, fayUid].map((uid) => ({ uid, registeredAt })),
    api,
  );
  await ingestReferrals(ctx.deps, BINANCE, [{ uid: binanceUid, registeredAt }], api);
  expect(
    (await as(alice, '/elex/user/bindExchangeUid', { platId: BITGET, uid: bitgetUid, address: ADDRESS }))
      .state,
  ).toBe(0);
  ctx.clock.advance(1000);
  expect(
    (await as(alice, '/elex/user/bindExchangeUid', { platId: BINANCE, uid: binanceUid, address: ADDRESS }))
      .state,
  ).toBe(0);
  expect(
    (await as(fay, '/elex/user/bindExchangeUid', { platId: BITGET, uid: fayUid, address: ADDRESS })).state,
  ).toBe(0);

  // Day d's figures arrive on day d + 1 at 06:00 and settle on day d + 2 at 06:00 (24 h delay).
  const fees: Record<string, string[]> = {
    [bitgetUid]: ['10', '20', '30', '40'],
    [fayUid]: ['100', '0', '2'],
  };
  for (let day = 0; day < 4; day += 1) {
    ctx.clock.set(new Date(DAY1 + (day + 1) * DAY_MS + 6 * 3_600_000));
    const rows = Object.entries(fees).flatMap(([uid, list]) =>
      list[day] === undefined
        ? []
        : [figures(uid, new Date(DAY1 + day * DAY_MS), { fee: list[day] as string, commission: '1000' })],
    );
    await ingestRebates(ctx.deps, BITGET, rows, api);
  }
  await ingestRebates(
    ctx.deps,
    BINANCE,
    [figures(binanceUid, new Date(DAY1), { fee: '10', commission: '1' })],
    api,
  );
  // Now: day 4, 06:00. Bitget days 0-2 settled (5 + 10 + 15), day 3 pending (estimate 20).
});
afterAll(() => ctx.close());

describe('myInfo', () => {
  it('lists the live bindings with their balances and the all-time totals', async () => {
    const info = await as(alice, '/elex/user/myInfo');
    expect(info).toMatchObject({ state: 0, message: 'OK' });
    expect(info.content).toEqual({
      exchangeBinds: [
        {
          platId: BITGET,
          uid: bitgetUid,
          balance: '30.000000',
          address: ADDRESS,
          boundAt: expect.any(String),
        },
        // Binance: 10 x 30 % = 3, capped by the 1 USDT commission.
        {
          platId: BINANCE,
          uid: binanceUid,
          balance: '1.000000',
          address: ADDRESS,
          boundAt: expect.any(String),
        },
      ],
      // Fay's settled cashback 50 + 0 + 1 = 51: Alice's invite bonus is 10 %.
      totalReward: '5.100000',
      totalRebate: '31.000000',
    });
  });

  it('answers an empty list for a member with no binding', async () => {
    expect((await as(other, '/elex/user/myInfo')).content).toEqual({
      exchangeBinds: [],
      totalReward: '0.000000',
      totalRebate: '0.000000',
    });
  });
});

describe('seeRebateByExchangeId', () => {
  it('details the member’s own binding: balance, totals, pending, the daily series, last data', async () => {
    const detail = await as(alice, '/elex/user/seeRebateByExchangeId', { platId: BITGET, uid: bitgetUid });
    expect(detail.content).toEqual({
      platId: BITGET,
      uid: bitgetUid,
      address: ADDRESS,
      boundAt: expect.any(String),
      balance: '30.000000',
      totalRebate: '30.000000',
      pendingRebate: '20.000000',
      // By trading day (the period's start), not by the day each was credited (03-03 .. 03-05).
      daily: [
        { day: '2026-03-01', amount: '5.000000' },
        { day: '2026-03-02', amount: '10.000000' },
        { day: '2026-03-03', amount: '15.000000' },
      ],
      lastDataAt: new Date(DAY1 + 4 * DAY_MS + 6 * 3_600_000).toISOString(),
      // Bound more than OWNERSHIP.holdDays ago, and no dispute.
      heldUntil: null,
      frozen: false,
    });
  });

  it('charts a backfill credited at once on its trading days, paid cashback only, the last 90 days', async () => {
    const member = await signUp(ctx, nextEmail('backfill'));
    const uid = nextUid('B');
    await ingestReferrals(ctx.deps, BITGET, [{ uid, registeredAt: new Date(DAY1 - 200 * DAY_MS) }], api);
    expect(
      (await as(member, '/elex/user/bindExchangeUid', { platId: BITGET, uid, address: ADDRESS })).state,
    ).toBe(0);
    // Now 2026-03-05: the chart's first day is 89 days earlier, 2025-12-06.
    const at = (text: string) => new Date(text);
    await ingestRebates(
      ctx.deps,
      BITGET,
      [
        figures(uid, at('2025-12-05T18:00:00Z'), { fee: '8', commission: '1000' }, 6), // before the chart
        figures(uid, at('2025-12-06T00:00:00Z'), { fee: '1', commission: '1000' }, 6),
        figures(uid, at('2026-02-20T00:00:00Z'), { fee: '5', commission: '0' }), // failed: no commission
        figures(uid, at('2026-02-21T00:00:00Z'), { fee: '0', commission: '1' }), // completed, nothing paid
        figures(uid, at('2026-03-02T00:00:00Z'), { fee: '2', commission: '1000' }, 6),
        figures(uid, at('2026-03-02T18:00:00Z'), { fee: '4', commission: '1000' }, 6),
      ],
      api,
    );
    const detail = (await as(member, '/elex/user/seeRebateByExchangeId', { platId: BITGET, uid })).content;
    // Every record was credited in this one import; the chart still shows the days the fees were paid.
    expect(detail.daily).toEqual([
      { day: '2025-12-06', amount: '0.500000' },
      { day: '2026-03-02', amount: '3.000000' },
    ]);
    expect(detail.totalRebate).toBe('7.500000');
  });

  it('answers 1004 for someone else’s UID or one not bound', async () => {
    for (const body of [
      { platId: BITGET, uid: fayUid },
      { platId: BINANCE, uid: bitgetUid },
      { platId: BITGET, uid: 'NOTBOUND' },
    ]) {
      expect(await as(alice, '/elex/user/seeRebateByExchangeId', body)).toEqual({
        state: State.NotFound,
        message: 'Not found',
        content: null,
      });
    }
  });
});

describe('seeRebateData', () => {
  it('pages the records of the member’s UIDs, newest period first', async () => {
    const page = (await as(alice, '/elex/user/seeRebateData', { pageSize: 2 })).content;
    expect(page).toMatchObject({ total: 5, page: 1, pageSize: 2 });
    expect(page.records).toEqual([
      {
        id: expect.any(String),
        platId: BITGET,
        uid: bitgetUid,
        periodStart: '2026-03-04T00:00:00.000Z',
        periodEnd: '2026-03-05T00:00:00.000Z',
        tradingVolume: '1000.000000',
        fee: '40.000000',
        amount: '20.000000',
        status: 'pending',
        failureReason: null,
        createdAt: expect.any(String),
      },
      expect.objectContaining({
        periodStart: '2026-03-03T00:00:00.000Z',
        amount: '15.000000',
        status: 'completed',
      }),
    ]);
    const last = (await as(alice, '/elex/user/seeRebateData', { pageSize: 2, page: 3 })).content;
    expect(last.records).toHaveLength(1);
    expect(last.records[0]).toMatchObject({ periodStart: '2026-03-01T00:00:00.000Z' });
  });

  it('filters by exchange, UID, status and days of the period end', async () => {
    const ask = async (filter: object) =>
      (await as(alice, '/elex/user/seeRebateData', filter)).content.records.map(
        (record: { platId: number; fee: string }) => `${record.platId}:${record.fee}`,
      );
    expect(await ask({ platId: BINANCE })).toEqual([`${BINANCE}:10.000000`]);
    expect(await ask({ uid: bitgetUid, status: 'completed' })).toEqual([
      `${BITGET}:30.000000`,
      `${BITGET}:20.000000`,
      `${BITGET}:10.000000`,
    ]);
    expect(await ask({ status: 'pending' })).toEqual([`${BITGET}:40.000000`]);
    // Period ends 2026-03-03 and 2026-03-04 (UTC days, inclusive).
    expect(await ask({ platId: BITGET, from: '2026-03-03', to: '2026-03-04' })).toEqual([
      `${BITGET}:30.000000`,
      `${BITGET}:20.000000`,
    ]);
    // Someone else's UID shows nothing.
    expect(await ask({ uid: fayUid })).toEqual([]);
  });

  it('shows a period without fees as completed with no cashback', async () => {
    expect((await as(fay, '/elex/user/seeRebateData', { status: 'failed' })).content.records).toEqual([]);
    const all = (await as(fay, '/elex/user/seeRebateData', {})).content.records;
    expect(all.map((record: { status: string; amount: string }) => [record.status, record.amount])).toEqual([
      ['completed', '1.000000'],
      ['completed', '0.000000'],
      ['completed', '50.000000'],
    ]);
  });

  it('refuses an impossible day', async () => {
    expect(await as(alice, '/elex/user/seeRebateData', { from: '2026-02-30' })).toMatchObject({
      state: State.ValidationFailed,
      message: 'from: invalid value',
    });
  });
});

describe('expireRebate', () => {
  it('estimates the pending cashback of each live binding', async () => {
    expect((await as(alice, '/elex/exchange/expireRebate')).content).toEqual({
      pending: [
        { platId: BITGET, uid: bitgetUid, amount: '20.000000' },
        { platId: BINANCE, uid: binanceUid, amount: '0.000000' },
      ],
      total: '20.000000',
    });
    expect((await as(alice, '/elex/exchange/expireRebate', { platId: BINANCE })).content).toEqual({
      pending: [{ platId: BINANCE, uid: binanceUid, amount: '0.000000' }],
      total: '0.000000',
    });
  });
});

describe('seeRewardData', () => {
  it('lists invite bonuses newest first with the friend’s masked e-mail', async () => {
    const page = (await as(alice, '/elex/user/seeRewardData', { pageSize: 10 })).content;
    expect(page).toMatchObject({ total: 2, page: 1, pageSize: 10 });
    const source = maskEmail(fayEmail.toLowerCase());
    expect(source).toMatch(/^fa\*\*\*@example\.com$/);
    expect(page.records).toEqual([
      {
        id: expect.any(String),
        kind: 'inviteBonus',
        amount: '0.100000',
        source,
        createdAt: expect.any(String),
      },
      {
        id: expect.any(String),
        kind: 'inviteBonus',
        amount: '5.000000',
        source,
        createdAt: expect.any(String),
      },
    ]);
    expect(Date.parse(page.records[0].createdAt)).toBeGreaterThan(Date.parse(page.records[1].createdAt));
    expect((await as(fay, '/elex/user/seeRewardData')).content).toEqual({
      records: [],
      total: 0,
      page: 1,
      pageSize: 20,
    });
  });
});
