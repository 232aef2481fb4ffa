import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AdapterOptions } from './adapter.js';
import { ExchangeApiError } from './http.js';
import { EXCHANGE_CASES, type ExchangeCase } from './testing/cases.js';
import { DAY, dayStart, type FakeExchange } from './testing/fake-exchange.js';
import type { CommissionEntry, ReferralEntry, TimeWindow } from './types.js';

/**
 * The same behaviour asked of every adapter, each against its exchange's fake: the fake recomputes
 * the signature from the request as the exchange documents it, so a passing call proves the signing.
 */

async function collect<T>(pages: AsyncIterable<T[]>): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let count = 0;
  for await (const page of pages) {
    items.push(...page);
    count += 1;
  }
  return { items, pages: count };
}

function totalsByUid(entries: CommissionEntry[]) {
  const totals = new Map<string, { volume: bigint; fee: bigint; commission: bigint }>();
  for (const entry of entries) {
    const total = totals.get(entry.uid) ?? { volume: 0n, fee: 0n, commission: 0n };
    total.volume += entry.tradingVolumeMicro;
    total.fee += entry.feeMicro;
    total.commission += entry.commissionMicro;
    totals.set(entry.uid, total);
  }
  return totals;
}

/** A started fake with six referrals, an adapter factory with instant retries, and recorded sleeps. */
function useFake(exchange: ExchangeCase) {
  const context = {
    fake: undefined as unknown as FakeExchange,
    sleeps: [] as number[],
    // Instant retries and a generous rate so tests take milliseconds; real values are the defaults.
    fast: {
      retry: { attempts: 5, baseDelayMs: 1, maxDelayMs: 8 },
      sleep: async (ms: number) => {
        context.sleeps.push(ms);
      },
      rateLimit: { limit: 1000, intervalMs: 1000 },
    } satisfies AdapterOptions,
  };
  beforeEach(async () => {
    context.sleeps.length = 0;
    context.fake = await exchange.createFake().start();
    context.fake
      .addReferral('10000001', at(1))
      .addReferral('10000002', at(2))
      .addReferral('10000003', at(30))
      .addReferral('10000004', at(50))
      .addReferral('10000005', at(71))
      .addReferral('10000009', at(-5)); // registered before the window
  });
  afterEach(() => context.fake.close());
  return context;
}

const base = dayStart(new Date(Date.now() - 10 * DAY));
const at = (hours: number) => new Date(base.getTime() + hours * 3_600_000);
const window: TimeWindow = { from: base, to: at(72) };

describe.each(EXCHANGE_CASES)('$name adapter against its fake', (exchange) => {
  const context = useFake(exchange);

  it('signs as documented: the fake accepts every call and the adapter reads the answers', async () => {
    const adapter = exchange.createAdapter(context.fake, context.fast);
    const ours = await adapter.checkReferral('10000003');
    expect(ours?.uid).toBe('10000003');
    expect(ours?.registeredAt.toISOString()).toBe(at(30).toISOString());
    expect(await adapter.checkReferral('55555555')).toBeNull();
    expect(context.fake.requests.every((request) => request.signed)).toBe(true);
  });

  it('lists the referrals registered in the window, paging to the end', async () => {
    const adapter = exchange.createAdapter(context.fake, { ...context.fast, pageSize: 2 });
    const { items } = await collect<ReferralEntry>(adapter.listReferrals(window));
    expect(items.map((entry) => entry.uid).sort()).toEqual([
      '10000001',
      '10000002',
      '10000003',
      '10000004',
      '10000005',
    ]);
    expect(items.find((entry) => entry.uid === '10000004')?.registeredAt.toISOString()).toBe(
      at(50).toISOString(),
    );
    expect(context.fake.served.length).toBeGreaterThanOrEqual(3);
  });

  it('answers a wrong secret with an auth error at once, naming the settings to check', async () => {
    const adapter = exchange.createAdapter(context.fake, context.fast, 'not-the-secret');
    const error = await adapter.checkReferral('10000001').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExchangeApiError);
    expect((error as ExchangeApiError).kind).toBe('auth');
    expect((error as ExchangeApiError).message).toContain(`${exchange.envPrefix}_API_SECRET`);
    expect(context.fake.requests).toHaveLength(1);
    expect(context.sleeps).toEqual([]);
  });

  it('retries the exchange’s rate-limit answer, HTTP 429 and 5xx with growing delays, then succeeds', async () => {
    context.fake.queueFaults('rate-limit', 'http-429', 'server', 'html-502');
    const adapter = exchange.createAdapter(context.fake, {
      ...context.fast,
      retry: { attempts: 5, baseDelayMs: 4, maxDelayMs: 1000 },
    });
    const { items } = await collect<ReferralEntry>(adapter.listReferrals(window));
    expect(items).toHaveLength(5);
    // Four faulted answers, then the call (and the calls after it) went through.
    expect(context.fake.requests.slice(0, 4).every((request) => !request.signed)).toBe(true);
    expect(context.fake.requests[4]?.signed).toBe(true);
    expect(context.sleeps).toHaveLength(4);
    // Exponential with jitter in the upper half: 4, 8, 16, 32 ms at most.
    context.sleeps.forEach((ms, index) => {
      expect(ms).toBeGreaterThanOrEqual(2 ** (index + 2) / 2);
      expect(ms).toBeLessThanOrEqual(2 ** (index + 2));
    });
  });

  it('gives up after the last attempt with an error that says what happened', async () => {
    context.fake.queueFaults('server', 'server', 'server');
    const adapter = exchange.createAdapter(context.fake, {
      ...context.fast,
      retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
    });
    const error = (await collect(adapter.listReferrals(window)).catch(
      (caught: unknown) => caught,
    )) as ExchangeApiError;
    expect(error).toBeInstanceOf(ExchangeApiError);
    expect(error.kind).toBe('server');
    expect(error.message).toMatch(
      new RegExp(`^${exchange.name} (GET|POST) /.+: exchange server error \\(HTTP 5\\d\\d`),
    );
    expect(error.message).toContain('gave up after 3 attempts');
    expect(context.fake.requests).toHaveLength(3);
  });

  it('a live UID check (a trader is waiting) retries once after a short delay, then gives up', async () => {
    context.fake.queueFaults('server', 'server', 'server');
    const { retry: _patient, ...rest } = context.fast;
    const adapter = exchange.createAdapter(context.fake, rest);
    const error = (await adapter
      .checkReferral('10000002')
      .catch((caught: unknown) => caught)) as ExchangeApiError;
    expect(error).toBeInstanceOf(ExchangeApiError);
    expect(error.message).toContain('gave up after 2 attempts');
    expect(context.fake.requests).toHaveLength(2);
    expect(context.sleeps).toHaveLength(1);
    expect(context.sleeps[0]).toBeLessThanOrEqual(250);
  });
});

describe.each(EXCHANGE_CASES.filter((exchange) => exchange.gives.commissions))(
  '$name commissions against its fake',
  (exchange) => {
    const context = useFake(exchange);

    it('sums each UID’s commissions exactly from decimal strings, paging to the end', async () => {
      context.fake
        .addTrade({ uid: '10000001', at: at(1), volume: '1000.5', fee: '0.25', commission: '0.12345678' })
        .addTrade({ uid: '10000001', at: at(3), volume: '2000', fee: '0.5', commission: '1.00000001' })
        .addTrade({ uid: '10000001', at: at(4), volume: '0.000001', fee: '0.000001', commission: '2.5' })
        .addTrade({ uid: '10000002', at: at(5), volume: '10', fee: '0.01', commission: '0.004' })
        .addTrade({ uid: '10000002', at: at(26), volume: '20', fee: '0.02', commission: '0.008' })
        .addTrade({
          uid: '10000003',
          at: at(49),
          volume: '99999999.999999',
          fee: '12.345678',
          commission: '4.5',
        })
        .addTrade({ uid: '10000004', at: at(52), volume: '1', fee: '1', commission: '1' })
        .addTrade({ uid: '10000005', at: at(60), volume: '1', fee: '1', commission: '1' })
        .addTrade({ uid: '10000001', at: at(80), volume: '5', fee: '5', commission: '5' }); // after the window
      const adapter = exchange.createAdapter(context.fake, { ...context.fast, pageSize: 2 });
      const { items } = await collect<CommissionEntry>(adapter.listCommissions(window));
      const totals = totalsByUid(items);
      // 0.12345678 + 1.00000001 + 2.5 = 3.62345679: summed exactly, truncated once below a micro-USDT.
      expect(totals.get('10000001')?.commission).toBe(3_623_456n);
      expect(totals.get('10000002')?.commission).toBe(12_000n);
      expect(totals.get('10000003')?.commission).toBe(4_500_000n);
      expect([...totals.keys()].sort()).toEqual(['10000001', '10000002', '10000003', '10000004', '10000005']);
      if (exchange.gives.volume) {
        expect(totals.get('10000001')?.volume).toBe(3_000_500_001n);
        expect(totals.get('10000003')?.volume).toBe(99_999_999_999_999n);
      }
      if (exchange.gives.fee) expect(totals.get('10000003')?.fee).toBe(12_345_678n);
      for (const entry of items) {
        expect(entry.periodStart.getTime()).toBeGreaterThanOrEqual(window.from.getTime());
        expect(entry.periodStart.getTime()).toBeLessThan(window.to.getTime());
        expect(entry.periodEnd.getTime()).toBeGreaterThan(entry.periodStart.getTime());
      }
      const commissionCalls = context.fake.served.filter(
        (request) => request.path === exchange.commissionPath,
      );
      expect(commissionCalls.length).toBeGreaterThanOrEqual(3);
    });

    it('splits a long window into requests within the API’s longest range, covering it without gaps', async () => {
      const long: TimeWindow = {
        from: dayStart(new Date(Date.now() - 170 * DAY)),
        to: dayStart(new Date(Date.now() - 2 * DAY)),
      };
      context.fake.addTrade({
        uid: '10000001',
        at: new Date(long.from.getTime() + 100 * DAY),
        volume: '1',
        fee: '1',
        commission: '7',
      });
      const adapter = exchange.createAdapter(context.fake, context.fast);
      const { items } = await collect<CommissionEntry>(adapter.listCommissions(long));
      expect(totalsByUid(items).get('10000001')?.commission).toBe(7_000_000n);
      const ranges = context.fake.served
        .filter((request) => request.path === exchange.commissionPath)
        .map((request) => exchange.requestedRange?.(request) ?? { from: 0, to: 0 });
      expect(ranges.length).toBeGreaterThan(1);
      for (const range of ranges) expect(range.to - range.from).toBeLessThanOrEqual(exchange.maxRangeMs ?? 0);
      expect(ranges[0]?.from).toBe(long.from.getTime());
      for (let index = 1; index < ranges.length; index += 1) {
        expect((ranges[index]?.from ?? 0) - (ranges[index - 1]?.to ?? 0)).toBeLessThanOrEqual(
          exchange.rangeResolutionMs ?? 1,
        );
      }
      expect(ranges.at(-1)?.to).toBeGreaterThanOrEqual(long.to.getTime() - (exchange.rangeResolutionMs ?? 1));
    });
  },
);
