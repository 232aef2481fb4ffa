import { describe, expect, it } from 'vitest';
import { displayUsdt, withdrawalAmountProblem } from './withdrawals.js';

const usdt = (whole: number) => BigInt(whole) * 1_000_000n;

describe('displayUsdt', () => {
  it('shows two decimals at least and every digit that counts', () => {
    expect(displayUsdt(12_500_000n)).toBe('12.50');
    expect(displayUsdt(123_400n)).toBe('0.1234');
    expect(displayUsdt(50_000_001n)).toBe('50.000001');
    expect(displayUsdt('112.750000')).toBe('112.75');
    expect(displayUsdt('0')).toBe('0.00');
  });
});

describe('the withdrawal amount rule (form and server)', () => {
  it('refuses less than 50 USDT with what is missing', () => {
    expect(withdrawalAmountProblem(49_995_000n)).toEqual({
      key: 'withdrawalBelowMinimum',
      values: { minimum: '50.00', shortfall: '0.005' },
    });
    expect(withdrawalAmountProblem(usdt(50))).toBeNull();
  });

  it('refuses any amount of a UID holding under 50, naming what it still needs', () => {
    expect(withdrawalAmountProblem(usdt(60), 32_500_000n)).toEqual({
      key: 'withdrawalBelowMinimum',
      values: { minimum: '50.00', shortfall: '17.50' },
    });
  });

  it('refuses more than the UID holds, naming what it holds; takes all of it', () => {
    expect(withdrawalAmountProblem(112_750_001n, 112_750_000n)).toEqual({
      key: 'withdrawalOverBalance',
      values: { available: '112.75' },
    });
    expect(withdrawalAmountProblem(112_750_000n, 112_750_000n)).toBeNull();
  });
});
