import { describe, expect, it } from 'vitest';
import { CommissionSums } from './adapter.js';

const period = { from: new Date('2026-01-13T00:00:00Z'), to: new Date('2026-01-13T06:00:00Z') };

describe('summing an exchange’s figures', () => {
  it('reads an empty string as no figure, as OKX writes an absent one (it stopped the sync, found in review)', () => {
    const sums = new CommissionSums('okx');
    sums.add('12345678', period, { volume: '', fee: '', commission: '' });
    sums.add('12345679', period, { volume: '100', fee: '', commission: '0.04' });
    expect(
      sums
        .entries()
        .map((entry) => [entry.uid, entry.tradingVolumeMicro, entry.feeMicro, entry.commissionMicro]),
    ).toEqual([['12345679', 100_000_000n, 0n, 40_000n]]);
  });

  it('stops on a figure that is not a decimal, naming the exchange, the UID and the field', () => {
    const sums = new CommissionSums('okx');
    expect(() => sums.add('12345678', period, { commission: 'n/a' })).toThrow(
      'okx: UID 12345678: commission is not a decimal: "n/a"',
    );
  });
});
