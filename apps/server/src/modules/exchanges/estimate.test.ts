import { CashbackEstimateResponseSchema, State } from '@elex/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebates } from '../../db/schema.js';
import { seedPartnerCatalog } from '../../db/seed/seed-catalog.js';
import { createTestApp, post } from '../../test/test-app.js';

type Ctx = Awaited<ReturnType<typeof createTestApp>>;

const OKX = 2;
const BYBIT = 3;
const BITGET = 4;
const DAY_MS = 24 * 60 * 60 * 1000;
// Bybit: maker 0.02 %, taker 0.055 %, 40 % back, 55 % in the first 3 weeks. 3.5 trades × 30 days ×
// 40,000 USDT × 0.0375 % = 1,575 USDT of fees in a regular 30 days, 52.50 a day.
const answers = { platId: BYBIT, leverage: 20, seed: '2,000', frequency: 'twoToFive' };

async function estimate(ctx: Ctx, body: Record<string, unknown> = answers) {
  const res = await post(ctx.app, '/elex/exchange/estimate', body);
  expect(res.json()).toMatchObject({ state: State.Success });
  return CashbackEstimateResponseSchema.parse(res.json().content);
}

describe('the calculator for a trader who signs up now (new-user discount and speed-up rate)', () => {
  let ctx: Ctx;
  beforeAll(async () => {
    ctx = await createTestApp();
    await seedPartnerCatalog(ctx.db);
  });
  afterAll(() => ctx.close());

  it('shows the first 30 days and 6 months with fees 20 % lower for 90 days and 55 % back for 3 weeks', async () => {
    const content = await estimate(ctx);
    // A regular 30 days, once both are over: 1,575 × 40 %.
    expect(content).toMatchObject({ monthly: '630.000000', sixMonths: '3780.000000', cashRate: '40.00' });
    // Signing up now: 52.50 × 80 % = 42 USDT of fees a day for 90 days.
    // First 30 days: 21 days × 42 × 55 % + 9 days × 42 × 40 % = 485.10 + 151.20.
    // First 6 months: that + 60 days × 42 × 40 % + 90 days × 52.50 × 40 % = 636.30 + 1,008 + 1,890.
    expect(content.newTrader).toEqual({
      monthly: '636.300000',
      sixMonths: '3534.300000',
      speedUpCashRate: '55.00',
      speedUpDays: 21,
      discountPercent: 20,
      discountDays: 90,
    });
  });
});

describe('the calculator never promises more than the commission the exchange pays us', () => {
  let ctx: Ctx;
  beforeAll(async () => {
    ctx = await createTestApp();
    await seedPartnerCatalog(ctx.db);
    // What Bybit paid us over the last 30 days: 30 % of its traders' fees (less than the 40 % and
    // 55 % the catalog offers). Bitget's 60 % is more than its 50 % rate: no cap there.
    const now = ctx.clock.now().getTime();
    const record = (platId: number, uid: string, daysAgo: number, fee: bigint, commission: bigint) => ({
      platId,
      uid,
      periodStart: new Date(now - daysAgo * DAY_MS),
      periodEnd: new Date(now - daysAgo * DAY_MS + DAY_MS / 4),
      tradingVolumeMicro: fee * 2000n,
      feeMicro: fee,
      commissionMicro: commission,
      source: 'csv' as const,
      sourceLabel: 'estimate.test',
      createdAt: new Date(now - DAY_MS),
    });
    await ctx.db.insert(rebates).values([
      record(BYBIT, 'BYB001', 3, 60_000_000n, 20_000_000n),
      record(BYBIT, 'BYB002', 10, 40_000_000n, 10_000_000n),
      // Older than 30 days: not what the exchange pays now.
      record(BYBIT, 'BYB003', 45, 100_000_000n, 100_000_000n),
      record(BITGET, 'BTG001', 2, 100_000_000n, 60_000_000n),
      // OKX paid 45 %: above its 40 % rate, below its 50 % speed-up rate.
      record(OKX, 'OKX001', 5, 100_000_000n, 45_000_000n),
    ]);
  });
  afterAll(() => ctx.close());

  it('caps the cash rate at the share of the fees the exchange paid us in the last 30 days', async () => {
    const content = await estimate(ctx);
    // 1,575 × 30 % = 472.50, not 1,575 × 40 % = 630.
    expect(content).toMatchObject({
      monthly: '472.500000',
      sixMonths: '2835.000000',
      cashRate: '30.00',
      commissionShare: '30.00',
    });
    expect(content.comparisons.find((row) => row.platId === BYBIT)?.monthly).toBe('472.500000');
    // The speed-up rate is capped too: 90 days of 42 USDT × 30 % + 90 days of 52.50 × 30 %.
    expect(content.newTrader).toMatchObject({ monthly: '378.000000', speedUpCashRate: '30.00' });
    expect(content.newTrader.sixMonths).toBe('2551.500000');
  });

  it('keeps the catalog rate where the exchange pays us more than it', async () => {
    const content = await estimate(ctx, { ...answers, platId: BITGET });
    expect(content).toMatchObject({ cashRate: '50.00', commissionShare: null });
  });

  it('names the share it capped at when only the speed-up rate is above it', async () => {
    const content = await estimate(ctx, { ...answers, platId: OKX });
    // The page quotes the share (45 %), not the regular rate (40 %, which was not lowered).
    expect(content).toMatchObject({ cashRate: '40.00', commissionShare: '45.00' });
    expect(content.newTrader.speedUpCashRate).toBe('45.00');
  });
});
