import { CASHBACK } from '@elex/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computeRebate,
  inviteBonusAmount,
  isInSpeedUpWindow,
  oldestAccruablePeriodStart,
  rebateAmount,
} from './rebate-rule.js';

const registeredAt = new Date('2026-03-01T10:00:00Z');
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
const rates = { cashRateBps: 4000, speedUpCashRateBps: 5000 };

describe('the rebate rule', () => {
  it('pays the speed-up rate for a period starting within 3 weeks of registration, the basic rate from then on', () => {
    const windowEnd = registeredAt.getTime() + CASHBACK.speedUpWeeks * WEEK_MS;
    const at = (time: number) =>
      computeRebate({
        feeMicro: 10_000_000n,
        commissionMicro: 100_000_000n,
        periodStart: new Date(time),
        registeredAt,
        ...rates,
      });
    expect(at(registeredAt.getTime())).toEqual({
      amountMicro: 5_000_000n,
      cashRateBps: 5000,
      isSpeedUp: true,
    });
    expect(at(windowEnd - 1)).toMatchObject({ amountMicro: 5_000_000n, isSpeedUp: true });
    // The window is half-open: a period starting exactly 3 weeks later earns the basic rate.
    expect(at(windowEnd)).toEqual({ amountMicro: 4_000_000n, cashRateBps: 4000, isSpeedUp: false });
    // A daily period that starts at midnight before a 10:00 registration is in the window.
    expect(isInSpeedUpWindow(new Date('2026-03-01T00:00:00Z'), registeredAt)).toBe(true);
  });

  it('never pays more than the commission received', () => {
    expect(rebateAmount(10_000_000n, 5000, 3_000_000n)).toBe(3_000_000n);
    expect(rebateAmount(10_000_000n, 5000, 5_000_000n)).toBe(5_000_000n);
    expect(rebateAmount(10_000_000n, 5000, 0n)).toBe(0n);
  });

  it('floors to the micro-USDT with integer arithmetic', () => {
    // 0.000003 USDT fee x 40 % = 0.0000012 -> 0.000001
    expect(rebateAmount(3n, 4000, 1_000n)).toBe(1n);
    expect(rebateAmount(1n, 4000, 1_000n)).toBe(0n);
    // 12.345679 x 33.33 % = 4.11481481... -> 4.114814
    expect(rebateAmount(12_345_679n, 3333, 100_000_000n)).toBe(4_114_814n);
    // Far beyond a float's exact range: 9,000,000,000 USDT of fees at 55.55 %.
    expect(rebateAmount(9_000_000_000_000_000n, 5555, 2n ** 62n)).toBe(4_999_500_000_000_000n);
  });

  it('is fee x rate / 10000 floored, capped by the commission, for any amounts', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        (fee, rate, commission) => {
          const amount = rebateAmount(fee, rate, commission);
          expect(amount <= commission).toBe(true);
          expect(amount * 10_000n <= fee * BigInt(rate)).toBe(true);
          if (amount < commission) expect((amount + 1n) * 10_000n > fee * BigInt(rate)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('gives the inviter the configured percent of the cashback, floored', () => {
    expect(inviteBonusAmount(5_000_000n, 10)).toBe(500_000n);
    expect(inviteBonusAmount(9n, 10)).toBe(0n);
    expect(inviteBonusAmount(19n, 10)).toBe(1n);
    expect(inviteBonusAmount(5_000_000n, 0)).toBe(0n);
  });

  it('accrues for periods up to 5 calendar years old', () => {
    expect(oldestAccruablePeriodStart(new Date('2026-11-22T10:00:00Z')).toISOString()).toBe(
      '2021-11-22T10:00:00.000Z',
    );
  });

  it('refuses negative or fractional inputs rather than guessing', () => {
    expect(() => rebateAmount(-1n, 4000, 10n)).toThrow(RangeError);
    expect(() => rebateAmount(1n, 40.5, 10n)).toThrow(RangeError);
    expect(() => inviteBonusAmount(1n, 2.5)).toThrow(RangeError);
  });
});
