import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importRebateFile, RebateFileRejectedError } from './rebate-import.js';
import { BITGET, type CashbackTestContext, createCashbackTestApp, nextUid } from './test-support.js';

/**
 * The file-wide checks of a figures file (a key given twice, periods of one UID that overlap) are one
 * sort of the staged file (docs/decisions.md, "A figures file's duplicates and overlaps in one sort").
 * Random small files, where repeats and overlaps are common, are refused with exactly the problems a
 * plain model of the rules names: each repeat of a key on its own line naming the key's first line,
 * and among first lines, sorted by period, a line starting before the furthest end so far overlapping
 * the line that reached it, reported on the later of the two lines.
 */
let ctx: CashbackTestContext;
beforeAll(async () => {
  ctx = await createCashbackTestApp();
});
afterAll(() => ctx.close());

const HOUR_MS = 60 * 60 * 1000;
const ROLLED_BACK = new Error('rolled back');
const BASE = Date.UTC(2026, 8, 1);

interface Row {
  line: number;
  uid: string;
  start: number;
  end: number;
}

interface Problem {
  line: number;
  field: string;
  reason: string;
}

const duplicate = (line: number) => `duplicate row: the same UID and period are on line ${line}`;
const overlap = (line: number) => `the period overlaps the one on line ${line} for the same UID`;

function expectedProblems(rows: Row[]): Problem[] {
  const problems: Problem[] = [];
  const firstLineOf = new Map<string, number>();
  const firsts: Row[] = [];
  for (const row of rows) {
    const key = `${row.uid} ${row.start} ${row.end}`;
    const first = firstLineOf.get(key);
    if (first === undefined) {
      firstLineOf.set(key, row.line);
      firsts.push(row);
    } else problems.push({ line: row.line, field: 'row', reason: duplicate(first) });
  }
  for (const uid of new Set(firsts.map((row) => row.uid))) {
    const ordered = firsts
      .filter((row) => row.uid === uid)
      .sort((a, b) => a.start - b.start || a.end - b.end || a.line - b.line);
    let reacher: Row | undefined;
    for (const row of ordered) {
      if (reacher && row.start < reacher.end) {
        problems.push({
          line: Math.max(row.line, reacher.line),
          field: 'period_start',
          reason: overlap(Math.min(row.line, reacher.line)),
        });
      }
      if (!reacher || row.end > reacher.end) reacher = row;
    }
  }
  return sortProblems(problems);
}

const sortProblems = (problems: Problem[]) =>
  [...problems].sort(
    (a, b) => a.line - b.line || a.field.localeCompare(b.field) || a.reason.localeCompare(b.reason),
  );

// Two UIDs, periods of one to three hours starting on one of six hours: repeats and overlaps abound.
const rowArb = fc.record({
  uid: fc.integer({ min: 0, max: 1 }),
  startHour: fc.integer({ min: 0, max: 5 }),
  hours: fc.integer({ min: 1, max: 3 }),
});

describe('a figures file’s duplicates and overlaps', () => {
  it('are the problems a plain model of the rules names, whatever the file order', async () => {
    ctx.clock.set(new Date('2026-10-20T12:00:00Z'));
    await fc.assert(
      fc.asyncProperty(fc.array(rowArb, { minLength: 1, maxLength: 14 }), async (drawn) => {
        const uids = [nextUid('FWA'), nextUid('FWB')];
        const rows = drawn.map((row, n) => ({
          line: n + 2,
          uid: uids[row.uid] as string,
          start: BASE + row.startHour * HOUR_MS,
          end: BASE + (row.startHour + row.hours) * HOUR_MS,
        }));
        const csv = [
          'uid,period_start,period_end,trading_volume,fee,commission',
          ...rows.map(
            (row) =>
              `${row.uid},${new Date(row.start).toISOString()},${new Date(row.end).toISOString()},100,2,1`,
          ),
        ].join('\n');
        const outcome = await ctx.db
          .transaction(async (tx) => {
            await importRebateFile(tx, ctx.deps, BITGET, Buffer.from(`${csv}\n`), {
              kind: 'csv',
              label: 'random.csv',
            });
            // A clean file is stored: taken back so every run starts from the same records.
            throw ROLLED_BACK;
          })
          .catch((error: unknown) => error);
        // Refused with its problems, or stored and taken back: any other error fails the run.
        if (!(outcome instanceof RebateFileRejectedError)) expect(outcome).toBe(ROLLED_BACK);
        const found =
          outcome instanceof RebateFileRejectedError
            ? outcome.problems.map(({ line, field, reason }) => ({ line, field, reason: reason ?? '' }))
            : [];
        expect(sortProblems(found)).toEqual(expectedProblems(rows));
      }),
      { numRuns: 40 },
    );
  });
});
