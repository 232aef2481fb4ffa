import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CommissionEntry } from '../../integrations/exchanges/types.js';
import { parseRebateLine } from './csv-import.js';
import { stagingJson } from './rebate-staging-json.js';

/** The staging parameter as it was built before issue 14's parse work: objects through JSON.stringify. */
const asObjects = (entries: readonly CommissionEntry[], lines: readonly number[]) =>
  JSON.stringify(
    entries.map((entry, index) => ({
      line: lines[index],
      uid: entry.uid,
      period_start: entry.periodStart.toISOString(),
      period_end: entry.periodEnd.toISOString(),
      trading_volume_micro: entry.tradingVolumeMicro.toString(),
      fee_micro: entry.feeMicro.toString(),
      commission_micro: entry.commissionMicro.toString(),
    })),
  );

const time = fc.integer({ min: 0, max: Date.UTC(9998, 11, 31) }).map((ms) => new Date(ms));
const micro = fc.bigInt({ min: 0n, max: 2n ** 63n - 1n });

describe('the staging JSON of a figures batch (issue 14)', () => {
  it('is the text JSON.stringify gives of the rows as objects, boundaries repeated or not', () => {
    const entry = fc.record({
      uid: fc.stringMatching(/^[A-Za-z0-9_-]{4,32}$/),
      periodStart: fc.oneof(time, fc.constant(new Date('2026-11-27T00:00:00Z'))),
      periodEnd: fc.oneof(time, fc.constant(new Date('2026-11-28T00:00:00Z'))),
      tradingVolumeMicro: micro,
      feeMicro: micro,
      commissionMicro: micro,
    });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(entry, fc.integer({ min: 2, max: 2 ** 31 - 1 })), { maxLength: 30 }),
        (rows) => {
          const entries = rows.map(([row]) => row);
          const lines = rows.map(([, line]) => line);
          expect(stagingJson(entries, lines)).toBe(asObjects(entries, lines));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('reads a period boundary given again to an equal Date of its own, and still refuses a bad one', () => {
    const values = {
      uid: 'BENCH0000001',
      period_start: '2026-11-27T00:00:00.000Z',
      period_end: '2026-11-28T00:00:00Z',
      trading_volume: '1250.5',
      fee: '2.007919',
      commission: '2',
    };
    const first = parseRebateLine(values, 2).entry;
    const again = parseRebateLine(values, 3).entry;
    expect(again?.periodStart).toEqual(new Date('2026-11-27T00:00:00Z'));
    expect(again?.periodEnd).toEqual(first?.periodEnd);
    expect(again?.periodStart).not.toBe(first?.periodStart);
    expect(parseRebateLine({ ...values, period_end: '2026-11-28T00:00:00' }, 4).problems).toEqual([
      expect.objectContaining({ line: 4, field: 'period_end', key: 'importTimeNeedsZone' }),
    ]);
  });
});
