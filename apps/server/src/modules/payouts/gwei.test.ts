import * as viem from 'viem';
import { describe, expect, it } from 'vitest';
import { formatGwei, parseGweiSetting } from './gwei.js';

describe('gwei without viem (the same answers as viem)', () => {
  it('formats wei as viem formatGwei does', () => {
    const values = [
      0n,
      1n,
      10n,
      999_999_999n,
      10n ** 9n,
      1_500_000_000n,
      10n ** 12n,
      123_456_789_012_345n,
      -1n,
      -2_500_000_000n,
    ];
    for (let i = 0; i < 500; i += 1)
      values.push(BigInt(Math.floor(Math.random() * 1e15)) * 10n ** BigInt(i % 4));
    for (const wei of values) expect(formatGwei(wei)).toBe(viem.formatGwei(wei));
  });

  it('reads PAYOUT_MAX_FEE_GWEI (0.001 to 1e6, up to 9 decimals) as viem parseGwei does', () => {
    const values = [0.001, 1, 25, 30, 1000, 1_000_000, 0.123456789, 999_999.999999999, 12.5];
    for (let i = 0; i < 2000; i += 1) {
      const decimals = i % 10;
      values.push(Number((0.001 + Math.random() * 1_000_000).toFixed(decimals)));
    }
    for (const gwei of values) expect(parseGweiSetting(gwei)).toBe(viem.parseGwei(String(gwei)));
  });
});
