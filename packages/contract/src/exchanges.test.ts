import { describe, expect, it } from 'vitest';
import { TRADE_FREQUENCIES } from './constants.js';
import {
  CashbackEstimateRequestSchema,
  compareDecimals,
  ExchangeDetailRequestSchema,
  estimateCashback,
  estimateCashbackMicro,
  estimateNewTraderCashback,
  exchangeUidSchema,
  feesForEstimate,
  fromScaled,
  HOME_TABS,
  maskUid,
  rankExchanges,
  seedUsdtSchema,
  toScaled,
} from './index.js';

describe('exact decimals', () => {
  it.each([
    ['12.5', 6, 12_500_000n],
    ['0.0200', 4, 200n],
    ['0.055', 4, 550n],
    ['40', 2, 4000n],
    ['0', 6, 0n],
    ['100000000', 6, 100_000_000_000_000n],
  ])('reads %s at scale %i as %s', (text, scale, expected) => {
    expect(toScaled(text, scale)).toBe(expected);
  });

  it('refuses text that is not a plain decimal, or that would lose digits', () => {
    for (const text of ['', '-1', '1e3', '1.2.3', 'abc', ' .5']) expect(() => toScaled(text, 6)).toThrow();
    expect(() => toScaled('0.1234567', 6)).toThrow();
    expect(toScaled('0.1234560', 6)).toBe(123_456n);
  });

  it.each([
    [12_500_000n, 6, '12.500000'],
    [5n, 6, '0.000005'],
    [200n, 4, '0.0200'],
    [0n, 2, '0.00'],
    [-1_500_000n, 6, '-1.500000'],
    [7n, 0, '7'],
  ])('writes %s at scale %i as %s', (value, scale, expected) => {
    expect(fromScaled(value, scale)).toBe(expected);
  });

  it('compares decimals of different lengths exactly', () => {
    expect(compareDecimals('0.055', '0.0500')).toBe(1);
    expect(compareDecimals('0.05', '0.0500')).toBe(0);
    expect(compareDecimals('9.99', '10')).toBe(-1);
    // 0.1 + 0.2 style float traps do not exist here
    expect(compareDecimals('0.3', '0.30000000000000004')).toBe(-1);
  });
});

describe('rankExchanges (spec section 4: the six home tabs)', () => {
  const row = (
    platId: number,
    score: number,
    cashRate: string,
    limitPrice: string,
    marketPrice: string,
    flags: { isRecommended?: boolean; isRacing?: boolean } = {},
  ) => ({
    platId,
    score,
    cashRate,
    limitPrice,
    marketPrice,
    isRecommended: flags.isRecommended ?? false,
    isRacing: flags.isRacing ?? false,
  });
  // Catalog order: 1, 2, 3, 4.
  const rows = [
    row(1, 8.5, '30.00', '0.0200', '0.0500', { isRacing: true }),
    row(2, 9.6, '45.00', '0.0000', '0.0400', { isRecommended: true }),
    row(3, 9.1, '60.00', '0.0200', '0.0600', { isRecommended: true, isRacing: true }),
    row(4, 9.6, '5.50', '0.0180', '0.0550'),
  ];
  const ids = (tab: (typeof HOME_TABS)[number]) => rankExchanges(rows, tab).map((r) => r.platId);

  it('has the six tabs in the spec order', () => {
    expect(HOME_TABS).toEqual([
      'overall',
      'recommend',
      'racing',
      'mostCashback',
      'limitPrice',
      'marketPrice',
    ]);
  });

  it('overall: score descending, ties in catalog order', () => {
    expect(ids('overall')).toEqual([2, 4, 3, 1]);
  });

  it('recommend: only recommended exchanges, score descending', () => {
    expect(ids('recommend')).toEqual([2, 3]);
  });

  it('racing: only racing exchanges, in catalog order (no sort)', () => {
    expect(ids('racing')).toEqual([1, 3]);
  });

  it('most cashback: cash rate descending, compared as numbers not text', () => {
    // As text '5.50' > '45.00'; as numbers it is last.
    expect(ids('mostCashback')).toEqual([3, 2, 1, 4]);
  });

  it('limit: limitPrice descending, ties in catalog order', () => {
    expect(ids('limitPrice')).toEqual([1, 3, 4, 2]);
  });

  it('market: marketPrice descending', () => {
    expect(ids('marketPrice')).toEqual([3, 4, 1, 2]);
  });

  it('never reorders the list it was given', () => {
    rankExchanges(rows, 'overall');
    expect(rows.map((r) => r.platId)).toEqual([1, 2, 3, 4]);
  });
});

describe('UIDs', () => {
  it.each([
    ['1234567889', '12****89'],
    ['12345678', '12****78'],
    ['1234567', '1****7'],
    ['123456', '1****6'],
    ['12345', '1****'],
    ['1234', '1****'],
  ])('masks %s as %s', (uid, masked) => {
    expect(maskUid(uid)).toBe(masked);
  });

  it('hides at least four characters of every UID (all but one of a shorter one), so a public ranking never gives a short one away', () => {
    for (let length = 4; length <= 32; length += 1) {
      const uid = 'x'.repeat(length);
      const shown = maskUid(uid).replace('****', '').length;
      expect(length - shown, uid).toBeGreaterThanOrEqual(Math.min(4, length - 1));
    }
  });

  it('accepts exchange UIDs and refuses anything else with the uidInvalid key', () => {
    expect(exchangeUidSchema.parse(' 40512345 ')).toBe('40512345');
    for (const bad of ['123', 'a b c d', '12345678901234567890123456789012345', '<script>']) {
      const result = exchangeUidSchema.safeParse(bad);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('uidInvalid');
    }
  });
});

describe('the detail request', () => {
  it('accepts a positive integer as a number or text', () => {
    expect(ExchangeDetailRequestSchema.parse({ platId: 3 })).toEqual({ platId: 3 });
    expect(ExchangeDetailRequestSchema.parse({ platId: '3' })).toEqual({ platId: 3 });
  });

  it.each([0, -1, 1.5, 'abc', '', null, true, [1], 2 ** 40])('refuses %s', (platId) => {
    expect(ExchangeDetailRequestSchema.safeParse({ platId }).success).toBe(false);
  });
});

describe('the cashback estimate (docs/calculator.md)', () => {
  const base = { seed: '1000', leverage: 10, limitPrice: '0.0200', marketPrice: '0.0500', cashRate: '40.00' };

  it('follows the formula: trades × 30 days × seed × leverage × mean fee × cash rate', () => {
    // 1 trade a day of 10,000 USDT at a 0.035 % mean fee pays 3.5 USDT; 40 % back is 1.4; × 30 days = 42.
    expect(estimateCashback({ ...base, frequency: 'onceOrLess' })).toEqual({
      monthlyMicro: 42_000_000n,
      sixMonthsMicro: 252_000_000n,
      monthly: '42.000000',
      sixMonths: '252.000000',
    });
  });

  it('counts each frequency as the middle of its range', () => {
    const monthly = TRADE_FREQUENCIES.map((frequency) => estimateCashback({ ...base, frequency }).monthly);
    expect(monthly).toEqual(['42.000000', '63.000000', '147.000000', '315.000000', '504.000000']);
  });

  it('rounds down to the micro-USDT and never goes through a float', () => {
    // 0.1 USDT seed, leverage 1, once a day, 0.0001 % fees, 0.01 % back: 3e-12 USDT a month, rounds to 0.
    expect(
      estimateCashbackMicro({
        frequency: 'onceOrLess',
        seed: '0.1',
        leverage: 1,
        limitPrice: '0.0001',
        marketPrice: '0.0001',
        cashRate: '0.01',
      }),
    ).toBe(0n);
    // The largest inputs stay exact: 100,000,000 USDT × 125 × 12 trades × 30 days.
    const largest = estimateCashback({
      frequency: 'moreThanTen',
      seed: '100000000',
      leverage: 125,
      limitPrice: '0.0200',
      marketPrice: '0.0600',
      cashRate: '70.00',
    });
    // 4.5e12 USDT traded × 0.04 % mean fee × 70 % = 1.26e9 USDT.
    expect(largest.monthly).toBe('1260000000.000000');
  });

  it('is zero when the fees or the cash rate are zero', () => {
    expect(estimateCashback({ ...base, frequency: 'fiveToTen', cashRate: '0' }).monthly).toBe('0.000000');
    expect(
      estimateCashback({ ...base, frequency: 'fiveToTen', limitPrice: '0', marketPrice: '0' }).monthly,
    ).toBe('0.000000');
  });
});

describe('the estimate of a trader who signs up now (docs/calculator.md)', () => {
  const base = {
    frequency: 'onceOrLess' as const,
    seed: '1000',
    leverage: 10,
    limitPrice: '0.0200',
    marketPrice: '0.0500',
    cashRate: '40.00',
  };
  const terms = { speedUpCashRate: '50.00', speedUpDays: 21, discountPercent: 20, discountDays: 90 };

  it('pays the speed-up rate for 21 days on fees 20 % lower for 90 days', () => {
    // 3.5 USDT of fees a day, 2.8 with the discount: 21 × 2.8 × 50 % + 9 × 2.8 × 40 % = 29.40 + 10.08;
    // 6 months: that + 60 × 2.8 × 40 % + 90 × 3.5 × 40 % = 39.48 + 67.20 + 126.
    expect(estimateNewTraderCashback({ ...base, ...terms })).toEqual({
      monthly: '39.480000',
      sixMonths: '232.680000',
    });
  });

  it('is the regular estimate without a speed-up rate or a discount', () => {
    const regular = estimateCashback(base);
    expect(
      estimateNewTraderCashback({
        ...base,
        speedUpCashRate: '40.00',
        speedUpDays: 21,
        discountPercent: 0,
        discountDays: 90,
      }),
    ).toEqual({ monthly: regular.monthly, sixMonths: regular.sixMonths });
  });

  it('stays exact at the largest inputs', () => {
    // 4.5e12 USDT traded in 30 days × 0.04 % × 80 % × 100 %: 1.44e9 USDT, nothing lost to a float.
    const largest = estimateNewTraderCashback({
      ...base,
      ...terms,
      frequency: 'moreThanTen',
      seed: '100000000',
      leverage: 125,
      limitPrice: '0.0200',
      marketPrice: '0.0600',
      cashRate: '100.00',
      speedUpCashRate: '100.00',
    });
    expect(largest.monthly).toBe('1440000000.000000');
  });
});

describe('the calculator answers', () => {
  it('reads the seed with separators and up to 6 decimals', () => {
    expect(seedUsdtSchema.parse('1,000.5')).toBe('1000.5');
    expect(seedUsdtSchema.parse(2500)).toBe('2500');
    expect(seedUsdtSchema.parse('100000000')).toBe('100000000');
  });

  it.each(['0', '0.5', '100000000.01', '-5', 'ten', '1.1234567', ''])('refuses the seed %s', (seed) => {
    const result = seedUsdtSchema.safeParse(seed);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('seedInvalid');
  });

  it('validates leverage with the shared rule and message', () => {
    const answer = { platId: 1, seed: '1000', frequency: 'oneToTwo' };
    expect(CashbackEstimateRequestSchema.safeParse({ ...answer, leverage: 125 }).success).toBe(true);
    for (const leverage of [0, 126, 2.5, 'x']) {
      const result = CashbackEstimateRequestSchema.safeParse({ ...answer, leverage });
      expect(result.error?.issues[0]?.message).toBe('leverageRange');
    }
  });

  it('names a missing frequency and a missing exchange', () => {
    const missingFrequency = CashbackEstimateRequestSchema.safeParse({ platId: 1, leverage: 5, seed: '10' });
    expect(missingFrequency.error?.issues[0]?.message).toBe('frequencyRequired');
    const missingExchange = CashbackEstimateRequestSchema.safeParse({
      leverage: 5,
      seed: '10',
      frequency: 'oneToTwo',
    });
    expect(missingExchange.error?.issues[0]?.message).toBe('exchangeRequired');
  });
});

describe('the fees an estimate uses', () => {
  const regular = { limitPrice: '0.0200', marketPrice: '0.0600' };
  // 3.5 trades × 30 days × 10,000 USDT × 20 = 21,000,000 USDT in 30 days.
  const answers = { frequency: 'twoToFive', seed: '10000', leverage: 20, ...regular } as const;
  const tiers = [
    {
      level: 'VIP 1',
      volume30d: '5000000',
      asset: { amount: '30000', symbol: 'USDT' },
      limitPrice: '0.0190',
      marketPrice: '0.0600',
    },
    { level: 'VIP 3', volume30d: '20000000', asset: null, limitPrice: '0.0140', marketPrice: '0.0375' },
    { level: 'VIP 4', volume30d: '50000000', asset: null, limitPrice: '0.0120', marketPrice: '0.0350' },
  ];

  it('takes the cheapest level the volume reaches, and the regular fees below every level', () => {
    expect(feesForEstimate(answers, tiers, 'either')).toEqual({
      vipLevel: 'VIP 3',
      limitPrice: '0.0140',
      marketPrice: '0.0375',
    });
    expect(feesForEstimate({ ...answers, seed: '100' }, tiers, 'either')).toEqual({
      vipLevel: null,
      ...regular,
    });
  });

  it("needs every listed requirement under 'both', and counts only a USDT asset against the seed", () => {
    const both = [
      {
        level: 'T1',
        volume30d: '1000000',
        asset: { amount: '5', symbol: 'BTC' },
        limitPrice: '0.0000',
        marketPrice: '0.0300',
      },
      {
        level: 'T2',
        volume30d: '1000000',
        asset: { amount: '20000', symbol: 'USDT' },
        limitPrice: '0.0100',
        marketPrice: '0.0400',
      },
    ];
    // The BTC balance is unknown: T1 is not reached; the 10,000 USDT seed falls short of T2's 20,000.
    expect(feesForEstimate(answers, both, 'both')).toEqual({ vipLevel: null, ...regular });
    expect(feesForEstimate({ ...answers, seed: '20000' }, both, 'both')).toMatchObject({ vipLevel: 'T2' });
  });
});
