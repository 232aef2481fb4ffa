import { randomBytes } from 'node:crypto';
import * as viem from 'viem';
import { describe, expect, it } from 'vitest';
import { getAddress, isAddress, ZERO_ADDRESS } from './address.js';

/** Random addresses in random casings: checksummed, lowercase, uppercase, one letter flipped, mixed. */
function casings(): string[] {
  const lower = `0x${randomBytes(20).toString('hex')}`;
  const checksummed = viem.getAddress(lower);
  const letters = [...checksummed].map((char, index) => (index > 1 && /[a-fA-F]/.test(char) ? index : -1));
  const flipAt = letters.find((index) => index > 0);
  const flipped =
    flipAt === undefined
      ? checksummed
      : `${checksummed.slice(0, flipAt)}${
          checksummed[flipAt] === checksummed[flipAt]?.toUpperCase()
            ? checksummed[flipAt]?.toLowerCase()
            : checksummed[flipAt]?.toUpperCase()
        }${checksummed.slice(flipAt + 1)}`;
  const mixed = `0x${[...lower.slice(2)].map((char) => (Math.random() < 0.5 ? char.toUpperCase() : char)).join('')}`;
  return [checksummed, lower, `0x${lower.slice(2).toUpperCase()}`, flipped, mixed];
}

describe('EVM addresses without viem (the same answers as viem)', () => {
  it('checks and checksums 200 random addresses in five casings each as viem does', () => {
    for (let round = 0; round < 200; round += 1) {
      for (const address of casings()) {
        expect(isAddress(address)).toBe(viem.isAddress(address));
        expect(isAddress(address, { strict: false })).toBe(viem.isAddress(address, { strict: false }));
        expect(getAddress(address)).toBe(viem.getAddress(address));
      }
    }
  });

  it('refuses what is not an address, as viem does', () => {
    for (const value of [
      '',
      '0x',
      'hello',
      `0x${'g'.repeat(40)}`,
      `0x${'a'.repeat(39)}`,
      `0x${'a'.repeat(41)}`,
      `${'a'.repeat(42)}`,
      ` 0x${'a'.repeat(40)}`,
    ]) {
      expect(isAddress(value)).toBe(false);
      expect(viem.isAddress(value)).toBe(false);
      expect(() => getAddress(value)).toThrow(/invalid/);
    }
    expect(ZERO_ADDRESS).toBe(viem.zeroAddress);
  });
});
