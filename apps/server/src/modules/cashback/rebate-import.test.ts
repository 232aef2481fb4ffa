import { IMPORT_PROBLEMS_KEPT } from '@elex/contract';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/rows.js';
import { testOperatorActor } from '../../test/ops-command.js';
import { listImportRuns, runCsvImport } from '../admin/imports.service.js';
import { bindExchangeUid } from '../bindings/bindings.service.js';
import { accountCode, balanceOf } from '../ledger/ledger.service.js';
import { checkAllInvariants } from './cashback.check.js';
import { eventRewards, rebates } from './cashback.tables.js';
import { ingestRebates, ingestReferrals, settleRebates } from './ingest.service.js';
import { importRebateFile, RebateFileRejectedError, STAGING_BATCH } from './rebate-import.js';
import {
  BITGET,
  type CashbackTestContext,
  createCashbackTestApp,
  createMember,
  DAY_MS,
  figures,
  nextUid,
} from './test-support.js';

/**
 * A figures file stores each record already decided (issue 14: written once, not written pending and
 * rewritten): every outcome the rule knows arrives as settlement would have made it, what is not due
 * yet waits and settles later, and a period stored before is left alone.
 */
let ctx: CashbackTestContext;
beforeAll(async () => {
  ctx = await createCashbackTestApp({ inviteBonusPercent: 10 });
});
afterAll(() => ctx.close());

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const HOUR_MS = 60 * 60 * 1000;

describe('a figures file', () => {
  it('stores each record with the outcome settlement gives it, and what is not due settles later', async () => {
    ctx.clock.set(new Date('2026-10-20T12:00:00Z'));
    const now = ctx.clock.now().getTime();
    const names = ['PAID', 'EARLY', 'UNLISTED', 'LOST', 'FREE', 'STORED'];
    const [paid, early, unlisted, lost, free, stored] = names.map((name) => nextUid(name)) as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    // A UID's name in the assertions (nextUid adds a suffix that may start with letters).
    const nameOf = new Map([paid, early, unlisted, lost, free, stored].map((uid, n) => [uid, names[n]]));
    await ingestReferrals(
      ctx.deps,
      BITGET,
      [paid, early, free, stored].map((uid) => ({ uid, registeredAt: new Date(now - 400 * DAY_MS) })),
      { kind: 'csv', label: 'roster.csv' },
      { settle: false },
    );
    const inviter = await createMember(ctx);
    const friend = await createMember(ctx, { inviterId: inviter.id });
    await bindExchangeUid(ctx.deps, friend.id, { platId: BITGET, uid: paid, address: ADDRESS });
    const day = (daysAgo: number) => new Date(Date.UTC(2026, 9, 20) - daysAgo * DAY_MS);
    await ingestRebates(
      ctx.deps,
      BITGET,
      [figures(stored, day(5), { fee: '2', commission: '1', volume: '100' })],
      {
        kind: 'api',
        label: 'earlier',
      },
    );

    const period = (start: Date, hours = 24) =>
      `${start.toISOString()},${new Date(start.getTime() + hours * HOUR_MS).toISOString()}`;
    const csv = Buffer.from(
      [
        'uid,period_start,period_end,trading_volume,fee,commission',
        `${paid},${period(day(3))},100,4,1`,
        `${paid},${period(day(4))},100,0.999999,1`,
        // Ends in the hour: not due until the settlement delay has passed.
        `${early},${period(new Date(now - 2 * HOUR_MS), 1)},100,4,1`,
        // Not in the roster: waits out the grace, then fails.
        `${unlisted},${period(day(3))},100,4,1`,
        `${lost},${period(day(10))},100,4,1`,
        `${free},${period(day(3))},100,4,0`,
        // Stored already with the same figures: a duplicate, left as it was (other figures refuse
        // the file: see the next test).
        `${stored},${period(day(5))},100,2,1`,
        '',
      ].join('\n'),
    );
    const result = await runCsvImport(
      ctx.deps,
      { actor: testOperatorActor, requestId: null },
      { kind: 'rebates', platId: BITGET, fileName: 'mixed.csv', source: csv, sizeBytes: csv.length },
    );
    expect(result).toMatchObject({
      status: 'succeeded',
      rows: 7,
      inserted: 6,
      duplicates: 1,
      settledCompleted: 2,
      settledFailed: 2,
      // 4 x 50 % capped at 1, and 0.999999 x 50 % = 0.4999995 floored.
      credited: '1.499999',
    });

    const outcome = async () =>
      Object.fromEntries(
        (
          await ctx.db
            .select()
            .from(rebates)
            .where(inArray(rebates.uid, [paid, early, unlisted, lost, free, stored]))
        ).map((row) => [
          `${nameOf.get(row.uid)}:${row.periodStart.toISOString().slice(0, 10)}`,
          [row.status, row.failureReason ?? row.amountMicro, row.journalId !== null],
        ]),
      );
    expect(await outcome()).toEqual({
      [`PAID:${day(3).toISOString().slice(0, 10)}`]: ['completed', 1_000_000n, true],
      [`PAID:${day(4).toISOString().slice(0, 10)}`]: ['completed', 499_999n, true],
      [`EARLY:${new Date(now - 2 * HOUR_MS).toISOString().slice(0, 10)}`]: ['pending', null, false],
      [`UNLISTED:${day(3).toISOString().slice(0, 10)}`]: ['pending', null, false],
      [`LOST:${day(10).toISOString().slice(0, 10)}`]: ['failed', 'uidNotReferred', false],
      [`FREE:${day(3).toISOString().slice(0, 10)}`]: ['failed', 'noCommission', false],
      [`STORED:${day(5).toISOString().slice(0, 10)}`]: ['completed', 1_000_000n, true],
    });
    expect(await balanceOf(ctx.db, accountCode.cashback(BITGET, paid))).toBe(1_499_999n);
    // The friend's inviter: 10 % of each record, floored (0.1 + 0.0499999 -> 0.049999).
    const rewards = await ctx.db.select().from(eventRewards).where(eq(eventRewards.userId, inviter.id));
    expect(rewards.map((reward) => reward.amountMicro).sort()).toEqual([100_000n, 49_999n].sort());
    expect(await balanceOf(ctx.db, accountCode.rewards(inviter.id))).toBe(149_999n);
    expect(await checkAllInvariants(ctx.db)).toEqual([]);

    // A day later the early record is due, and the unlisted UID has joined the roster.
    ctx.clock.set(new Date(now + DAY_MS));
    await ingestReferrals(ctx.deps, BITGET, [{ uid: unlisted, registeredAt: new Date(now - 400 * DAY_MS) }], {
      kind: 'csv',
      label: 'late-roster.csv',
    });
    await settleRebates(ctx.deps);
    const later = await outcome();
    expect(later[`EARLY:${new Date(now - 2 * HOUR_MS).toISOString().slice(0, 10)}`]).toEqual([
      'completed',
      1_000_000n,
      true,
    ]);
    expect(later[`UNLISTED:${day(3).toISOString().slice(0, 10)}`]).toEqual(['completed', 1_000_000n, true]);
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });

  it('refuses a line that restates the figures of a stored period, naming both; the same figures are a duplicate', async () => {
    ctx.clock.set(new Date('2026-10-20T12:00:00Z'));
    const [restated, same, fresh] = [nextUid('RESTATE'), nextUid('SAME'), nextUid('FRESH')];
    await ingestReferrals(
      ctx.deps,
      BITGET,
      [restated, same, fresh].map((uid) => ({ uid, registeredAt: new Date('2025-01-01T00:00:00Z') })),
      { kind: 'csv', label: 'roster.csv' },
      { settle: false },
    );
    const start = new Date('2026-10-10T00:00:00Z');
    await ingestRebates(
      ctx.deps,
      BITGET,
      [
        figures(restated, start, { fee: '2', commission: '1', volume: '100' }),
        figures(same, start, { fee: '2', commission: '1', volume: '100' }),
      ],
      { kind: 'csv', label: 'first.csv' },
    );
    const period = '2026-10-10T00:00:00Z,2026-10-11T00:00:00Z';
    // The exchange restated one UID's day (a higher commission): the operator must hear it, not read
    // "1 duplicate" and believe the member was paid on the file's figures.
    const csv = Buffer.from(
      [
        'uid,period_start,period_end,trading_volume,fee,commission',
        `${same},${period},100,2,1`,
        `${restated},${period},100,9,3`,
        `${fresh},${period},100,2,1`,
        '',
      ].join('\n'),
    );
    const result = await runCsvImport(
      ctx.deps,
      { actor: testOperatorActor, requestId: null },
      { kind: 'rebates', platId: BITGET, fileName: 'restated.csv', source: csv, sizeBytes: csv.length },
    );
    expect(result).toMatchObject({ status: 'rejected', inserted: 0 });
    expect(result.problems).toEqual([
      expect.objectContaining({
        line: 3,
        field: 'row',
        reason:
          'the figures differ from those imported for this UID and period (volume 100.000000, fee 2.000000, commission 1.000000); the first figures stand: remove the line, and post a correction if the new ones are right',
      }),
    ]);
    // Nothing of the file was written, and the stored figures are untouched.
    expect(await ctx.db.select({ id: rebates.id }).from(rebates).where(eq(rebates.uid, fresh))).toEqual([]);
    expect(await balanceOf(ctx.db, accountCode.cashback(BITGET, restated))).toBe(1_000_000n);

    // Without the restated line the same file imports, the known period a duplicate.
    const kept = Buffer.from(
      [
        'uid,period_start,period_end,trading_volume,fee,commission',
        `${same},${period},100,2,1`,
        `${fresh},${period},100,2,1`,
        '',
      ].join('\n'),
    );
    const again = await runCsvImport(
      ctx.deps,
      { actor: testOperatorActor, requestId: null },
      { kind: 'rebates', platId: BITGET, fileName: 'kept.csv', source: kept, sizeBytes: kept.length },
    );
    expect(again).toMatchObject({ status: 'succeeded', rows: 2, inserted: 1, duplicates: 1 });
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });

  it('reads a portal file as written: BOM, CRLF, columns in another order and case, quoted cells; refuses grouped or exponent amounts', async () => {
    ctx.clock.set(new Date('2026-10-20T12:00:00Z'));
    const uid = nextUid('PORTAL');
    await ingestReferrals(
      ctx.deps,
      BITGET,
      [{ uid, registeredAt: new Date('2025-01-01T00:00:00Z') }],
      {
        kind: 'csv',
        label: 'roster.csv',
      },
      { settle: false },
    );
    const upload = (fileName: string, text: string) => {
      const csv = Buffer.from(text);
      return runCsvImport(
        ctx.deps,
        { actor: testOperatorActor, requestId: null },
        { kind: 'rebates', platId: BITGET, fileName, source: csv, sizeBytes: csv.length },
      );
    };
    // Commission before fee: read by name, not by place (swapped, the member would be paid on the fee).
    const portal = await upload(
      'portal.csv',
      `\ufeffCommission,FEE,uid,Period_End,period_start,trading_volume\r\n"0.5","3.000001","${uid}",2026-10-02T00:00:00Z,"2026-10-01T00:00:00Z","1234.5"\r\n`,
    );
    expect(portal).toMatchObject({ status: 'succeeded', inserted: 1 });
    const [record] = await ctx.db.select().from(rebates).where(eq(rebates.uid, uid));
    expect(record).toMatchObject({
      commissionMicro: 500_000n,
      feeMicro: 3_000_001n,
      tradingVolumeMicro: 1_234_500_000n,
      amountMicro: 500_000n,
    });

    const header = 'uid,period_start,period_end,trading_volume,fee,commission';
    const odd = await upload(
      'odd.csv',
      [
        header,
        `${uid},2026-10-03T00:00:00Z,2026-10-04T00:00:00Z,"1,234.5",2,1`,
        `${uid},2026-10-04T00:00:00Z,2026-10-05T00:00:00Z,100,1e3,1`,
        `${uid},2026-10-05T00:00:00Z,2026-10-06T00:00:00Z,100,2,1.5E-7`,
        `${uid},2026-10-06T00:00:00Z,2026-10-07T00:00:00Z,100,2,0.0000001`,
        '',
      ].join('\n'),
    );
    expect(odd).toMatchObject({ status: 'rejected', inserted: 0 });
    expect(odd.problems.map((problem) => [problem.line, problem.field])).toEqual([
      [2, 'trading_volume'],
      [3, 'fee'],
      [4, 'commission'],
      [5, 'commission'],
    ]);
  });

  it('pays each UID once per step whatever the file order: a file sorted by day is stored UID by UID', async () => {
    ctx.clock.set(new Date('2026-10-20T12:00:00Z'));
    const uids = Array.from({ length: 25 }, () => nextUid('DAY'));
    await ingestReferrals(
      ctx.deps,
      BITGET,
      uids.map((uid) => ({ uid, registeredAt: new Date('2025-01-01T00:00:00Z') })),
      { kind: 'csv', label: 'roster.csv' },
      { settle: false },
    );
    // 100 days x 25 UIDs, day after day: 2,500 rows, so the import stores them in steps of 1,000.
    const lines = ['uid,period_start,period_end,trading_volume,fee,commission'];
    for (let day = 0; day < 100; day += 1) {
      const start = new Date(Date.UTC(2026, 6, 1) + day * DAY_MS);
      const end = new Date(start.getTime() + DAY_MS);
      for (const uid of uids) lines.push(`${uid},${start.toISOString()},${end.toISOString()},100,2,1`);
    }
    const csv = Buffer.from(`${lines.join('\n')}\n`);
    const result = await runCsvImport(
      ctx.deps,
      { actor: testOperatorActor, requestId: null },
      { kind: 'rebates', platId: BITGET, fileName: 'by-day.csv', source: csv, sizeBytes: csv.length },
    );
    expect(result).toMatchObject({ status: 'succeeded', inserted: 2_500, settledCompleted: 2_500 });
    const stored = await ctx.db
      .select({ uid: rebates.uid, journalId: rebates.journalId })
      .from(rebates)
      .where(inArray(rebates.uid, uids));
    // In file order every step held every UID (75 journals); by UID, 10 whole UIDs a step.
    expect(new Set(stored.map((row) => row.journalId)).size).toBe(25);
    for (const uid of uids) {
      expect(await balanceOf(ctx.db, accountCode.cashback(BITGET, uid))).toBe(100n * 1_000_000n);
    }
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });

  it('names each bad line of a file longer than a staging batch on its own line, on both sides of a batch', async () => {
    ctx.clock.set(new Date('2026-10-20T12:00:00Z'));
    const uid = nextUid('BATCH');
    // STAGING_BATCH + 5 good lines of one UID, hour after hour; then three of them spoiled.
    const lines = ['uid,period_start,period_end,trading_volume,fee,commission'];
    const rows = STAGING_BATCH + 5;
    for (let hour = 0; hour < rows; hour += 1) {
      const start = new Date(Date.UTC(2026, 0, 1) + hour * HOUR_MS);
      lines.push(
        `${uid},${start.toISOString()},${new Date(start.getTime() + HOUR_MS).toISOString()},100,2,1`,
      );
    }
    // Line n of the file is lines[n - 1]. A period in the future (validated with its batch) in the
    // first batch and in the second; a cell that does not parse between them.
    const future = (line: number, day: number) => {
      lines[line - 1] = `${uid},2026-11-${day}T00:00:00Z,2026-11-${day}T01:00:00Z,100,2,1`;
    };
    future(3, 10);
    lines[STAGING_BATCH - 1] = `${uid},2026-02-01T00:00:00Z,2026-02-01T01:00:00Z,lots,2,1`;
    future(STAGING_BATCH + 4, 11);
    const csv = Buffer.from(`${lines.join('\n')}\n`);
    const result = await runCsvImport(
      ctx.deps,
      { actor: testOperatorActor, requestId: null },
      { kind: 'rebates', platId: BITGET, fileName: 'batches.csv', source: csv, sizeBytes: csv.length },
    );
    expect(result).toMatchObject({ status: 'rejected', inserted: 0 });
    expect(result.problems.map((problem) => [problem.line, problem.field])).toEqual([
      [3, 'period_end'],
      [STAGING_BATCH, 'trading_volume'],
      [STAGING_BATCH + 4, 'period_end'],
    ]);
    expect(await ctx.db.select({ id: rebates.id }).from(rebates).where(eq(rebates.uid, uid))).toEqual([]);
  });
});

describe("a file of many bad lines (issue 14: memory stays flat in the file's size)", () => {
  const HEADER = 'uid,period_start,period_end,trading_volume,fee,commission';
  const KEPT = IMPORT_PROBLEMS_KEPT;
  /**
   * Line 2 a period; lines 3.. that same period again (duplicates, `copies` of them), one line that
   * does not parse among them (line 5), then `overlapping` lines of a second UID, each starting half
   * an hour into the one before.
   */
  function badFile(copies: number, overlapping: number) {
    const [dup, over] = [nextUid('DUPS'), nextUid('OVER')];
    const lines = [HEADER, `${dup},2026-10-01T00:00:00Z,2026-10-02T00:00:00Z,100,2,1`];
    for (let n = 0; n < copies; n += 1)
      lines.push(`${dup},2026-10-01T00:00:00Z,2026-10-02T00:00:00Z,100,2,1`);
    lines[4] = `${dup},2026-10-01T00:00:00Z,2026-10-02T00:00:00Z,lots,2,1`;
    const base = Date.UTC(2026, 8, 1);
    for (let n = 0; n < overlapping; n += 1) {
      const start = new Date(base + n * 30 * 60_000);
      lines.push(`${over},${start.toISOString()},${new Date(start.getTime() + HOUR_MS).toISOString()},1,1,1`);
    }
    return Buffer.from(`${lines.join('\n')}\n`);
  }

  it('answers and keeps the first problems by line, and says how many there were on how many lines', async () => {
    ctx.clock.set(new Date('2026-10-20T12:00:00Z'));
    const [copies, overlapping] = [3 * KEPT, KEPT + 50];
    const csv = badFile(copies, overlapping);
    const result = await runCsvImport(
      ctx.deps,
      { actor: testOperatorActor, requestId: null },
      { kind: 'rebates', platId: BITGET, fileName: 'many-bad.csv', source: csv, sizeBytes: csv.length },
    );
    // Every copy but the unparsable one is a duplicate; every overlapping line but the first overlaps.
    const total = copies + (overlapping - 1);
    expect(result).toMatchObject({
      status: 'rejected',
      inserted: 0,
      problemCount: total,
      problemLines: total,
    });
    // The first lines of the file, in order: the operator fixes it from the top.
    expect(result.problems).toHaveLength(KEPT);
    expect(result.problems.slice(0, 4).map((problem) => [problem.line, problem.field])).toEqual([
      [3, 'row'],
      [4, 'row'],
      [5, 'trading_volume'],
      [6, 'row'],
    ]);
    expect(result.problems[0]?.reason).toBe('duplicate row: the same UID and period are on line 2');
    expect(result.problems.at(-1)?.line).toBe(KEPT + 2);
    // The run keeps the same first problems and the true count (the history says "N problem(s)").
    const [run] = (await listImportRuns(ctx.deps, { page: 1, pageSize: 1 })).rows;
    expect(run).toMatchObject({ fileName: 'many-bad.csv', problemCount: total });
    expect(run?.problems).toHaveLength(KEPT);
  });

  it('reads back from the database no more problems than it keeps, and counts the rest there', async () => {
    ctx.clock.set(new Date('2026-10-20T12:00:00Z'));
    const csv = badFile(4 * KEPT, 2 * KEPT);
    let largest = 0;
    const refusal = await ctx.db
      .transaction(async (tx) => {
        // Every statement's answer is measured: a problem list read whole would be thousands of rows.
        const execute = tx.execute.bind(tx);
        Object.assign(tx, {
          execute: async (query: Parameters<typeof execute>[0]) => {
            const answer = await execute(query);
            largest = Math.max(largest, rowsOf(answer).length);
            return answer;
          },
        });
        await importRebateFile(tx, ctx.deps, BITGET, csv, { kind: 'csv', label: 'many-bad.csv' });
      })
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RebateFileRejectedError);
    const { problems, problemCount, problemLines } = refusal as RebateFileRejectedError;
    expect(problems).toHaveLength(KEPT);
    expect([problemCount, problemLines]).toEqual([4 * KEPT + 2 * KEPT - 1, 4 * KEPT + 2 * KEPT - 1]);
    expect(largest).toBeLessThanOrEqual(KEPT);
  });
});
