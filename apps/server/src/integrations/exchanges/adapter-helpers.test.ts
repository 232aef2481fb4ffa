import { describe, expect, it } from 'vitest';
import { CommissionSums, cachedRoster } from './adapter.js';

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

describe('a roster read whole and reused', () => {
  const entry = (uid: string, registeredAt: Date) => ({ uid, registeredAt });

  it('is read once for windows that had ended, and again for one that ended after the read', async () => {
    const list = [entry('80000001', new Date(Date.now() - 3_600_000))];
    let reads = 0;
    const listReferrals = cachedRoster(async function* () {
      reads += 1;
      yield [...list];
    });
    const uids = async (window: { from: Date; to: Date }) => {
      const found: string[] = [];
      for await (const page of listReferrals(window)) found.push(...page.map((referral) => referral.uid));
      return found;
    };
    const hourAgo = { from: new Date(Date.now() - 7_200_000), to: new Date(Date.now() - 1_000) };
    expect(await uids(hourAgo)).toEqual(['80000001']);
    expect(await uids(hourAgo)).toEqual(['80000001']);
    expect(reads).toBe(1);
    // A trader registers after the read; the next window ends after it (a retry a minute later).
    const registered = new Date(Date.now() + 30_000);
    list.push(entry('80000002', registered));
    const later = { from: hourAgo.from, to: new Date(registered.getTime() + 1_000) };
    expect(await uids(later)).toEqual(['80000001', '80000002']);
    expect(reads).toBe(2);
  });
});
