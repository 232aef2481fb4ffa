import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../auth/auth.tables.js';
import { call, nextEmail, signUp } from '../auth/test-support.js';
import { exchangeBindings } from '../bindings/bindings.tables.js';
import { ingestRebates, ingestReferrals } from './ingest.service.js';
import { computeRebate, rebateAmount } from './rebate-rule.js';
import {
  BINANCE,
  BITGET,
  type CashbackTestContext,
  createCashbackTestApp,
  DAY_MS,
  figures,
  nextUid,
  usdt,
} from './test-support.js';

/**
 * The estimates of pending records, now computed by the rule as SQL in the member's statement, equal
 * the rule in TypeScript record by record: hourly records across the end of a UID's speed-up window,
 * fees that the commission caps, a UID not in the roster (the basic rate), and another exchange.
 * Seed rates: Bitget 50 % / 60 %, Binance 30 % / 40 %.
 */
let ctx: CashbackTestContext;
let member: string;
const NOW = Date.parse('2026-06-10T12:00:00Z');
const HOUR_MS = 60 * 60 * 1000;
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const api = { kind: 'api', label: 'test' } as const;
const newTrader = nextUid('N');
const unrostered = nextUid('X');
const binanceUid = nextUid('B');
// The speed-up window (3 weeks from registration) ends 7.5 hours before now: of the last 20 hourly
// periods, those starting before that end earn the speed-up rate.
const registeredAt = new Date(NOW - 21 * DAY_MS - 7.5 * HOUR_MS);

/** Twenty hourly periods ending at the last full hour, with fees and commissions that vary. */
const hourly = (uid: string, salt: number) =>
  Array.from({ length: 20 }, (_, n) => {
    const fee = `${(n * 37 + salt) % 90}.${String((n * 7919 + salt) % 1_000_000).padStart(6, '0')}`;
    // Every fourth record's commission caps the cashback.
    const commission = n % 4 === 0 ? `${(n % 7) + 1}.5` : '1000';
    return figures(uid, new Date(NOW - (n + 2) * HOUR_MS), { fee, commission }, 1);
  });

const rates = { [BITGET]: { cash: 5000, speedUp: 6000 }, [BINANCE]: { cash: 3000, speedUp: 4000 } } as const;

function expected(platId: 4 | 1, rows: ReturnType<typeof hourly>, registered: Date | undefined): bigint {
  const rate = rates[platId];
  return rows.reduce(
    (sum, row) =>
      sum +
      (registered
        ? computeRebate({
            feeMicro: row.feeMicro,
            commissionMicro: row.commissionMicro,
            periodStart: row.periodStart,
            registeredAt: registered,
            cashRateBps: rate.cash,
            speedUpCashRateBps: rate.speedUp,
          }).amountMicro
        : rebateAmount(row.feeMicro, rate.cash, row.commissionMicro)),
    0n,
  );
}

const micro = (amount: bigint) => `${amount / 1_000_000n}.${String(amount % 1_000_000n).padStart(6, '0')}`;
const as = (token: string, url: string, body: object = {}) =>
  call(ctx, url, body, { token }).then((res) => res.json());

let records: Record<string, ReturnType<typeof hourly>>;

beforeAll(async () => {
  ctx = await createCashbackTestApp();
  ctx.clock.set(new Date(NOW));
  const email = nextEmail('pending');
  member = await signUp(ctx, email);
  await ingestReferrals(ctx.deps, BITGET, [{ uid: newTrader, registeredAt }], api);
  await ingestReferrals(ctx.deps, BINANCE, [{ uid: binanceUid, registeredAt }], api);
  for (const [platId, uid] of [
    [BITGET, newTrader],
    [BITGET, unrostered],
    [BINANCE, binanceUid],
  ] as const) {
    if (uid === unrostered) {
      // Binding asks for the roster; a UID bound before its exchange dropped it from the roster has
      // none: its row is written as the binding wrote it.
      const [user] = await ctx.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, email.toLowerCase()));
      await ctx.db
        .insert(exchangeBindings)
        .values({ userId: user?.id as number, platId, uid, address: ADDRESS, boundAt: ctx.clock.now() });
    } else {
      const bound = await as(member, '/elex/user/bindExchangeUid', { platId, uid, address: ADDRESS });
      expect(bound.state).toBe(0);
    }
    ctx.clock.advance(1);
  }
  records = {
    [newTrader]: hourly(newTrader, 3),
    [unrostered]: hourly(unrostered, 11),
    [binanceUid]: hourly(binanceUid, 29),
  };
  await ingestRebates(ctx.deps, BITGET, [...(records[newTrader] ?? []), ...(records[unrostered] ?? [])], api);
  await ingestRebates(ctx.deps, BINANCE, records[binanceUid] ?? [], api);
});
afterAll(() => ctx.close());

describe('pending estimates', () => {
  it('equal the TypeScript rule per UID: the speed-up window, commission caps, no roster row', async () => {
    const speedUp = expected(BITGET, records[newTrader] ?? [], registeredAt);
    const basic = expected(BITGET, records[unrostered] ?? [], undefined);
    const binance = expected(BINANCE, records[binanceUid] ?? [], registeredAt);
    // The window's end falls inside the records: neither all speed-up nor all basic.
    expect(speedUp).toBeGreaterThan(expected(BITGET, records[newTrader] ?? [], new Date(0)));
    expect(speedUp).toBeLessThan(expected(BITGET, records[newTrader] ?? [], new Date(NOW)));
    const answer = await as(member, '/elex/exchange/expireRebate');
    expect(answer.content).toEqual({
      pending: [
        { platId: BITGET, uid: newTrader, amount: micro(speedUp) },
        { platId: BITGET, uid: unrostered, amount: micro(basic) },
        { platId: BINANCE, uid: binanceUid, amount: micro(binance) },
      ],
      total: micro(speedUp + basic + binance),
    });
    const bitgetOnly = await as(member, '/elex/exchange/expireRebate', { platId: BITGET });
    expect(bitgetOnly.content.total).toBe(micro(speedUp + basic));
    expect(usdt(bitgetOnly.content.pending[1].amount)).toBe(basic);
  });

  it('show on the binding detail and on each pending record of the list', async () => {
    const detail = await as(member, '/elex/user/seeRebateByExchangeId', { platId: BITGET, uid: newTrader });
    expect(detail.content.pendingRebate).toBe(
      micro(expected(BITGET, records[newTrader] ?? [], registeredAt)),
    );
    const list = await as(member, '/elex/user/seeRebateData', {
      uid: unrostered,
      status: 'pending',
      pageSize: 50,
    });
    expect(list.content.total).toBe(20);
    const byStart = new Map((records[unrostered] ?? []).map((row) => [row.periodStart.toISOString(), row]));
    for (const record of list.content.records) {
      const row = byStart.get(record.periodStart);
      expect(row).toBeDefined();
      if (row)
        expect(record.amount).toBe(
          micro(rebateAmount(row.feeMicro, rates[BITGET].cash, row.commissionMicro)),
        );
    }
  });
});
