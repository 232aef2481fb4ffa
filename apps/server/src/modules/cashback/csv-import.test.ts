import { IMPORT_PROBLEMS_KEPT } from '@elex/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalUtcTime,
  parseAnyIsoTime,
  parseAnyUsdt,
  parseIsoTime,
  parseUsdt,
  readReferralFile,
} from './csv-import.js';

const padded = (value: number, width: number) => String(value).padStart(width, '0');

/** Times in the canonical UTC shape, real or not: months to 19, days to 39, hours to 29, seconds to 69. */
const canonicalShaped = fc
  .record({
    year: fc.oneof(fc.integer({ min: 1000, max: 9999 }), fc.constantFrom(1900, 2000, 2024, 2100, 2400)),
    month: fc.integer({ min: 0, max: 19 }),
    day: fc.integer({ min: 0, max: 39 }),
    hour: fc.integer({ min: 0, max: 29 }),
    minute: fc.integer({ min: 0, max: 69 }),
    second: fc.integer({ min: 0, max: 69 }),
    millisecond: fc.option(fc.integer({ min: 0, max: 999 })),
  })
  .map(
    (t) =>
      `${t.year}-${padded(t.month, 2)}-${padded(t.day, 2)}T${padded(t.hour, 2)}:${padded(t.minute, 2)}:${padded(t.second, 2)}` +
      `${t.millisecond === null ? '' : `.${padded(t.millisecond, 3)}`}Z`,
  );

const instant = (value: Date | object | undefined) => (value instanceof Date ? value.getTime() : undefined);

describe('reading a figures file line', () => {
  it('reads canonical UTC times digit by digit exactly as the general ISO 8601 reader does', () => {
    fc.assert(
      fc.property(canonicalShaped, (value) => {
        // Every real time is taken by the fast path, every other one left to the general reader.
        expect(instant(canonicalUtcTime(value))).toBe(instant(parseAnyIsoTime(value)));
      }),
      { numRuns: 20_000 },
    );
    expect(canonicalUtcTime('2024-02-29T23:59:59.999Z')?.toISOString()).toBe('2024-02-29T23:59:59.999Z');
    expect(canonicalUtcTime('2100-02-29T00:00:00Z')).toBeUndefined();
    expect(canonicalUtcTime('2026-01-31T00:00:00+00:00')).toBeUndefined();
    expect(canonicalUtcTime('2026-01-31')).toBeUndefined();
  });

  it('refuses a time outside the years the database holds, naming the cell (an import stopped with a fault)', () => {
    for (const value of ['9999-12-31T23:00:00-14:00', '9999-06-01T00:00:00Z', '1969-12-31T23:59:59Z']) {
      expect(parseIsoTime(value)).toEqual({ key: 'importTimeOutOfRange', params: { cell: `"${value}"` } });
    }
    expect(parseIsoTime('1970-01-01T00:00:00Z')).toEqual(new Date(0));
    expect(parseIsoTime('9998-12-31T23:00:00+01:00')).toEqual(new Date('9998-12-31T22:00:00Z'));
  });

  it('reads small USDT amounts without BigInt arithmetic, to the same micro-USDT and the same refusals', () => {
    const decimal = fc
      .record({
        sign: fc.constantFrom('', '', '-'),
        whole: fc.stringMatching(/^\d{0,12}$/),
        fraction: fc.option(fc.stringMatching(/^\d{0,8}$/)),
      })
      .map(({ sign, whole, fraction }) => `${sign}${whole}${fraction === null ? '' : `.${fraction}`}`);
    fc.assert(
      fc.property(decimal, (value) => {
        expect(parseUsdt(value)).toEqual(parseAnyUsdt(value));
      }),
      { numRuns: 20_000 },
    );
    expect(parseUsdt('999999999.999999')).toBe(999_999_999_999_999n);
    expect(parseUsdt('0.000001')).toBe(1n);
    expect(parseUsdt('12.5')).toBe(12_500_000n);
    expect(parseUsdt('1.1234567')).toEqual({
      key: 'importTooManyDecimals',
      params: { decimals: 6, cell: '"1.1234567"' },
    });
  });
});

describe('a roster file of many bad lines (issue 14)', () => {
  it('keeps the first problems by line, whichever check found them, and counts them all', async () => {
    const copies = 3 * IMPORT_PROBLEMS_KEPT;
    // Line 2 registers in the future (found by the last check); lines 3.. give its UID again; a line
    // with too few cells in between.
    const lines = ['uid,registered_at', '71000001,2027-01-01T00:00:00Z'];
    for (let n = 0; n < copies; n += 1) lines.push('71000001,2026-01-01T00:00:00Z');
    lines[9] = '71000002';
    const parsed = await readReferralFile(
      Buffer.from(`${lines.join('\n')}\n`),
      new Date('2026-10-20T00:00:00Z'),
    );
    expect(parsed.problems).toHaveLength(IMPORT_PROBLEMS_KEPT);
    expect(parsed.problems.slice(0, 3).map((problem) => [problem.line, problem.field])).toEqual([
      [2, 'registered_at'],
      [3, 'uid'],
      [4, 'uid'],
    ]);
    expect(parsed.problems.find((problem) => problem.line === 10)?.field).toBe('row');
    expect(parsed.problems.at(-1)?.line).toBe(IMPORT_PROBLEMS_KEPT + 1);
    expect([parsed.problemCount, parsed.problemLines]).toEqual([copies + 1, copies + 1]);
  });
});
