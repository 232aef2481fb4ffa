import { CASHBACK } from '@elex/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdapterOptions } from './adapter.js';
import { ExchangeApiError } from './http.js';
import { BingxFake } from './testing/bingx-fake.js';
import { EXCHANGE_CASES, exchangeCase } from './testing/cases.js';
import { DAY, dayStart, type FakeExchange } from './testing/fake-exchange.js';
import { GateFake } from './testing/gate-fake.js';
import type { CommissionEntry, TimeWindow } from './types.js';

/** What differs between exchanges: periods, coins, who counts as ours, what each API refuses. */

const fast: AdapterOptions = {
  retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
  sleep: async () => {},
  rateLimit: { limit: 1000, intervalMs: 1000 },
};
const day1 = dayStart(new Date(Date.now() - 5 * DAY));
const hoursAfter = (hours: number) => new Date(day1.getTime() + hours * 3_600_000);
const twoDays: TimeWindow = { from: day1, to: hoursAfter(48) };

let fake: FakeExchange | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function all(pages: AsyncIterable<CommissionEntry[]>) {
  const entries: CommissionEntry[] = [];
  for await (const page of pages) entries.push(...page);
  return entries;
}

describe('Bitget', () => {
  const bitget = exchangeCase('bitget');

  it('gives one entry per UID and day from rows per symbol, and reports rows in other coins', async () => {
    fake = await bitget.createFake().start();
    fake
      .addTrade({ uid: '20000001', at: hoursAfter(1), volume: '100', fee: '0.1', commission: '0.03' })
      .addTrade({ uid: '20000001', at: hoursAfter(5), volume: '200', fee: '0.2', commission: '0.06' })
      .addTrade({ uid: '20000001', at: hoursAfter(7), volume: '1', fee: '1', commission: '5', coin: 'BGB' })
      .addTrade({ uid: '20000001', at: hoursAfter(30), volume: '50', fee: '0.05', commission: '0.015' });
    const warn = vi.fn();
    const entries = await all(bitget.createAdapter(fake, { ...fast, warn }).listCommissions(twoDays));
    expect(entries).toEqual([
      {
        uid: '20000001',
        periodStart: day1,
        periodEnd: hoursAfter(24),
        tradingVolumeMicro: 300_000_000n,
        feeMicro: 300_000n,
        commissionMicro: 90_000n,
      },
      {
        uid: '20000001',
        periodStart: hoursAfter(24),
        periodEnd: hoursAfter(48),
        tradingVolumeMicro: 50_000_000n,
        feeMicro: 50_000n,
        commissionMicro: 15_000n,
      },
    ]);
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('other than USDT'),
      expect.objectContaining({ rowsByCoin: { BGB: 1 } }),
    );
  });

  it('a day belongs to the 6-hour segment its end falls in (read once the whole day settled), so no segment counts it twice', async () => {
    fake = await bitget.createFake().start();
    fake.addTrade({ uid: '20000001', at: hoursAfter(13), volume: '10', fee: '1', commission: '0.5' });
    const adapter = bitget.createAdapter(fake, fast);
    const segments = [0, 6, 12, 18].map((hour) => ({ from: hoursAfter(hour), to: hoursAfter(hour + 6) }));
    const perSegment = await Promise.all(segments.map((segment) => all(adapter.listCommissions(segment))));
    expect(perSegment.map((entries) => entries.length)).toEqual([0, 0, 0, 1]);
    // Segments that end no day ask nothing.
    expect(fake.served).toHaveLength(1);
  });

  it('leaves out a UID-day whose net commission is negative (a clawback) and reports it', async () => {
    fake = await bitget.createFake().start();
    fake
      .addTrade({ uid: '20000001', at: hoursAfter(1), volume: '10', fee: '0.1', commission: '0.2' })
      .addTrade({ uid: '20000001', at: hoursAfter(2), volume: '0', fee: '0', commission: '-0.5' })
      .addTrade({ uid: '20000002', at: hoursAfter(2), volume: '10', fee: '0.1', commission: '0.05' });
    const warn = vi.fn();
    const entries = await all(bitget.createAdapter(fake, { ...fast, warn }).listCommissions(twoDays));
    expect(entries.map((entry) => entry.uid)).toEqual(['20000002']);
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('negative'),
      expect.objectContaining({
        entries: [expect.objectContaining({ uid: '20000001', commissionMicro: '-300000' })],
      }),
    );
  });

  it('asks for the customer list by POST with a JSON body, as the exchange notes say', async () => {
    fake = await bitget.createFake().start();
    fake.addReferral('20000001', hoursAfter(2));
    await bitget.createAdapter(fake, fast).checkReferral('20000001');
    expect(fake.served[0]?.method).toBe('POST');
    expect(JSON.parse(fake.served[0]?.body ?? '{}')).toMatchObject({ uid: '20000001' });
  });
});

describe('OKX', () => {
  const okx = exchangeCase('okx');

  it('gives one entry per invitee for the window asked, with its totals', async () => {
    fake = await okx.createFake().start();
    fake
      .addReferral('30000001', hoursAfter(-100))
      .addTrade({ uid: '30000001', at: hoursAfter(2), volume: '10.5', fee: '0.0105', commission: '0.0042' })
      .addTrade({ uid: '30000001', at: hoursAfter(3), volume: '4.5', fee: '0.0045', commission: '0.0018' });
    const segment = { from: day1, to: hoursAfter(6) };
    expect(await all(okx.createAdapter(fake, fast).listCommissions(segment))).toEqual([
      {
        uid: '30000001',
        periodStart: segment.from,
        periodEnd: segment.to,
        tradingVolumeMicro: 15_000_000n,
        feeMicro: 15_000n,
        commissionMicro: 6_000n,
      },
    ]);
  });

  it('refuses a window that starts more than 180 days ago without calling OKX', async () => {
    fake = await okx.createFake().start();
    const old = { from: new Date(Date.now() - 200 * DAY), to: new Date(Date.now() - 190 * DAY) };
    const error = await all(okx.createAdapter(fake, fast).listCommissions(old)).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ExchangeApiError);
    expect((error as ExchangeApiError).kind).toBe('request');
    expect((error as ExchangeApiError).message).toContain('180 days');
    expect(fake.requests).toHaveLength(0);
  });
});

describe('Bybit', () => {
  const bybit = exchangeCase('bybit');

  it('pulls no commissions: its figures are not settlement, they come by CSV', async () => {
    fake = await bybit.createFake().start();
    fake.addTrade({ uid: '40000001', at: hoursAfter(1), volume: '10', fee: '1', commission: '1' });
    const adapter = bybit.createAdapter(fake, fast);
    expect(adapter.profile.commissionSource).toBe('csv');
    expect(await all(adapter.listCommissions(twoDays))).toEqual([]);
    expect(fake.requests).toHaveLength(0);
  });

  it('treats its IP limit (HTTP 403 with a text body) as a rate limit and retries it', async () => {
    fake = await bybit.createFake().start();
    fake.addReferral('40000001', hoursAfter(1)).queueFaults('http-429');
    expect((await bybit.createAdapter(fake, fast).checkReferral('40000001'))?.uid).toBe('40000001');
    expect(fake.requests[0]?.signed).toBe(false);
  });
});

describe('Gate', () => {
  const gate = exchangeCase('gate');

  it('counts only direct customers (type 3) as ours', async () => {
    const gateFake = await new GateFake({ apiKey: 'test-key', apiSecret: 'test-secret' }).start();
    fake = gateFake;
    gateFake.indirect.push('50000009');
    gateFake.addReferral('50000001', hoursAfter(1));
    const adapter = gate.createAdapter(gateFake, fast);
    expect(await adapter.checkReferral('50000009')).toBeNull();
    expect((await adapter.checkReferral('50000001'))?.registeredAt).toEqual(hoursAfter(1));
  });

  it('sums credits and trades per UID over the window and reports those in other assets', async () => {
    fake = await gate.createFake().start();
    fake
      .addTrade({ uid: '50000001', at: hoursAfter(1), volume: '100', fee: '0.25', commission: '0.1' })
      .addTrade({ uid: '50000001', at: hoursAfter(2), volume: '200', fee: '0.5', commission: '0.2' })
      .addTrade({ uid: '50000001', at: hoursAfter(3), volume: '5', fee: '3', commission: '9', coin: 'GT' })
      .addTrade({ uid: '50000001', at: hoursAfter(6), volume: '1', fee: '1', commission: '1' }); // next segment
    const warn = vi.fn();
    const segment = { from: day1, to: hoursAfter(6) };
    expect(await all(gate.createAdapter(fake, { ...fast, warn }).listCommissions(segment))).toEqual([
      {
        uid: '50000001',
        periodStart: segment.from,
        periodEnd: segment.to,
        tradingVolumeMicro: 305_000_000n,
        feeMicro: 750_000n,
        commissionMicro: 300_000n,
      },
    ]);
    expect(warn).toHaveBeenCalledWith(
      expect.any(String),
      expect.objectContaining({ rowsByCoin: { GT: 1, 'fee:GT': 1 } }),
    );
  });
});

describe('BingX', () => {
  const bingx = exchangeCase('bingx');

  it('counts only direct invitations as ours', async () => {
    const bingxFake = await new BingxFake({ apiKey: 'test-key', apiSecret: 'test-secret' }).start();
    fake = bingxFake;
    bingxFake.indirect.push('60000009');
    expect(await bingx.createAdapter(bingxFake, fast).checkReferral('60000009')).toBeNull();
  });

  it('asks for whole UTC days as YYYYMMDD and gives daily entries', async () => {
    fake = await bingx.createFake().start();
    fake.addTrade({ uid: '60000001', at: hoursAfter(30), volume: '12.34', fee: '0', commission: '0.5' });
    const entries = await all(bingx.createAdapter(fake, fast).listCommissions(twoDays));
    expect(entries).toEqual([
      {
        uid: '60000001',
        periodStart: hoursAfter(24),
        periodEnd: hoursAfter(48),
        tradingVolumeMicro: 12_340_000n,
        feeMicro: 0n,
        commissionMicro: 500_000n,
      },
    ]);
    const day = (date: Date) => date.toISOString().slice(0, 10).replaceAll('-', '');
    expect(fake.served[0]?.query.get('startTime')).toBe(day(day1));
    expect(fake.served[0]?.query.get('endTime')).toBe(day(hoursAfter(24)));
  });
});

describe('what the member pages promise', () => {
  it.each(EXCHANGE_CASES.map((entry) => [entry.name, entry] as const))(
    '%s: figures pulled by API wait no longer than the data delay the pages quote',
    (_name, exchange) => {
      // The profile is read without a request: the fake need not be started.
      const { profile } = exchange.createAdapter(exchange.createFake(), fast);
      // The sync pulls figures once final; the pages say cashback shows that long after a period ends.
      if (profile.commissionSource === 'api') {
        expect(profile.settleHours).toBeLessThanOrEqual(CASHBACK.dataFinalHours);
      } else {
        // A roster alone: read a while after its segment ends (registrations listed late), yet within
        // the delay the pages quote for a new account to appear.
        expect(profile.settleHours).toBeGreaterThan(0);
        expect(profile.settleHours + CASHBACK.dataSegmentHours).toBeLessThanOrEqual(
          CASHBACK.rosterDelayHours,
        );
      }
    },
  );
});
