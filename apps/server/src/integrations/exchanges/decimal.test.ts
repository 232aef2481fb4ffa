import { describe, expect, it } from 'vitest';
import { parseAtto, toMicroUsdt } from './decimal.js';
import { parseExchangeTime, splitWindow } from './windows.js';

describe('exact decimals from exchange answers', () => {
  it.each([
    ['12.5', 12_500_000n],
    ['0.000001', 1n],
    ['100', 100_000_000n],
    ['0E-8', 0n],
    ['1.5E-3', 1_500n],
    ['2e2', 200_000_000n],
    ['-0.25', -250_000n],
    ['+3', 3_000_000n],
    ['.5', 500_000n],
    ['  7.000000 ', 7_000_000n],
    ['123456789012345.123456', 123_456_789_012_345_123_456n],
  ])('reads %j as %s micro-USDT', (text, micro) => {
    expect(toMicroUsdt(text)).toBe(micro);
  });

  it('truncates below one micro-USDT toward zero, never rounding up what we were paid', () => {
    expect(toMicroUsdt('0.0000019')).toBe(1n);
    expect(toMicroUsdt('-0.0000019')).toBe(-1n);
    expect(toMicroUsdt('0.00000099999999')).toBe(0n);
  });

  it('keeps 18 places while summing, so many tiny amounts add up exactly', () => {
    const tiny = parseAtto('0.00000001');
    expect(tiny * 100n).toBe(parseAtto('0.000001'));
  });

  it('reads a JSON number by its shortest text, without float arithmetic', () => {
    expect(toMicroUsdt(0.1)).toBe(100_000n);
    expect(toMicroUsdt(1e-7)).toBe(0n);
  });

  it.each(['', 'abc', '1.2.3', '1e', '0x10', 'NaN', 'Infinity', '1,5', '--1'])('refuses %j', (text) => {
    expect(() => parseAtto(text)).toThrow(RangeError);
  });

  it('refuses more than 18 significant decimals instead of dropping them silently', () => {
    expect(() => parseAtto('0.0000000000000000001')).toThrow(/more than 18 decimals/);
    expect(parseAtto('0.1000000000000000000')).toBe(parseAtto('0.1'));
  });
});

describe('exchange times and windows', () => {
  it.each([
    ['1767225600000', '2026-01-01T00:00:00.000Z'],
    [1767225600000, '2026-01-01T00:00:00.000Z'],
    ['20260101', '2026-01-01T00:00:00.000Z'],
    ['2026-01-01 08:30:00', '2026-01-01T08:30:00.000Z'],
    ['2026-01-01T08:30:00Z', '2026-01-01T08:30:00.000Z'],
    ['2026-01-01', '2026-01-01T00:00:00.000Z'],
  ])('reads %j as %s', (value, iso) => {
    expect(parseExchangeTime(value).toISOString()).toBe(iso);
  });

  it('reads unix seconds when told', () => {
    expect(parseExchangeTime('1767225600', 's').toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });

  it.each([undefined, null, '', 'yesterday', '2026-13-45'])('refuses %j', (value) => {
    expect(() => parseExchangeTime(value)).toThrow(RangeError);
  });

  it('splits a window into parts of at most the given length, without gaps or overlap', () => {
    const from = new Date('2026-01-01T00:00:00Z');
    const to = new Date('2026-04-15T00:00:00Z');
    const parts = splitWindow({ from, to }, 30 * 86_400_000);
    expect(parts).toHaveLength(4);
    expect(parts[0]?.from).toEqual(from);
    expect(parts.at(-1)?.to).toEqual(to);
    for (const [index, part] of parts.slice(1).entries()) expect(part.from).toEqual(parts[index]?.to);
  });
});
