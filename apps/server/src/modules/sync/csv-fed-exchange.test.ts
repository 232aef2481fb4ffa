import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AdapterOptions } from '../../integrations/exchanges/adapter.js';
import { exchangeCase } from '../../integrations/exchanges/testing/cases.js';
import type { FakeExchange } from '../../integrations/exchanges/testing/fake-exchange.js';
import { runCommandAs } from '../../test/ops-command.js';
import { rebatesImport } from '../admin/imports.commands.js';
import { adminCall, newOperator } from '../admin/test-support.js';
import { rebates } from '../cashback/cashback.tables.js';
import { type CashbackTestContext, createCashbackTestApp } from '../cashback/test-support.js';
import { accountCode, balanceOf } from '../ledger/ledger.service.js';
import { runErrorText, storedRunError } from './run-error.js';
import { syncExchange } from './sync.service.js';
import { syncRuns } from './sync.tables.js';
import { cashbackIngest } from './sync.wiring.js';

/**
 * BingX's commission list has no fee, and cashback is fee x rate: figures from it would settle as
 * 'completed 0.00' and block the CSV with the real fees (same periods = duplicates). So BingX is
 * synced for its roster only and its figures come by CSV, through the real ingest end to end.
 */
const BINGX = 6;
const fast: AdapterOptions = {
  retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
  sleep: async () => {},
  rateLimit: { limit: 1000, intervalMs: 1000 },
};
const COMMISSIONS = '/openApi/agent/v2/reward/commissionDataList';

let ctx: CashbackTestContext;
let dir: string;
let fake: FakeExchange | undefined;
beforeAll(async () => {
  ctx = await createCashbackTestApp();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-bingx-'));
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('BingX: roster by API, figures by CSV', () => {
  it('a sync pulls the roster but no fee-less figures, so a later rebates CSV pays its cashback', async () => {
    ctx.clock.set(new Date('2026-01-16T13:30:00Z'));
    const uid = '61000001';
    fake = await exchangeCase('bingx').createFake().start();
    fake
      .addReferral(uid, new Date('2026-01-13T20:00:00Z'))
      // The API's daily row for the 14th: volume and commission, fee 0.
      .addTrade({ uid, at: new Date('2026-01-14T09:00:00Z'), volume: '1000', fee: '0', commission: '1.5' });
    const adapter = exchangeCase('bingx').createAdapter(fake, fast);

    const summary = await syncExchange(
      { db: ctx.db, clock: ctx.clock, ingest: cashbackIngest(ctx.deps) },
      { platId: BINGX, adapter },
      { trigger: 'job', backfillDays: 3 },
    );
    expect(summary).toMatchObject({ status: 'succeeded', referralsInserted: 1, rebatesInserted: 0 });
    // The window covers the 14th, yet the commission list is never asked.
    expect(summary.window.from.getTime()).toBeLessThanOrEqual(Date.parse('2026-01-14T00:00:00Z'));
    expect(summary.window.to.getTime()).toBeGreaterThanOrEqual(Date.parse('2026-01-15T00:00:00Z'));
    expect(fake.served.filter((request) => request.path === COMMISSIONS)).toHaveLength(0);

    // The affiliate portal's report for the same day, with the fee.
    const file = path.join(dir, 'bingx-2026-01-14.csv');
    fs.writeFileSync(
      file,
      'uid,period_start,period_end,trading_volume,fee,commission\n' +
        `${uid},2026-01-14T00:00:00Z,2026-01-15T00:00:00Z,1000,2,1.5\n`,
    );
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCommandAs(rebatesImport, ctx.deps, ['bingx', file], {
      out: (line) => out.push(line),
      err: (line) => err.push(line),
    });
    expect(err).toEqual([]);
    expect(code).toBe(0);
    expect(out.join('\n')).toContain('1 row(s), 1 new, 0 already imported; settled 1: 1 completed');

    // Registered on the 13th: the speed-up rate (60 %) of the 2 USDT fee, under the 1.5 commission.
    expect(await balanceOf(ctx.db, accountCode.cashback(BINGX, uid))).toBe(1_200_000n);
    const [record] = await ctx.db
      .select()
      .from(rebates)
      .where(and(eq(rebates.platId, BINGX), eq(rebates.uid, uid)));
    expect(record).toMatchObject({ status: 'completed', feeMicro: 2_000_000n, amountMicro: 1_200_000n });
  });
});

describe('Bitget: a CSV row and the sync over the same days', () => {
  it("a UID's period imported by CSV leaves out that UID's overlapping API rows, not the segment's other UIDs", async () => {
    ctx.clock.set(new Date('2026-02-16T13:30:00Z'));
    const BITGET = 4;
    const [csvUid, apiUid] = ['72000001', '72000002'];
    fake = await exchangeCase('bitget').createFake().start();
    fake
      .addReferral(csvUid, new Date('2026-02-01T00:00:00Z'))
      .addReferral(apiUid, new Date('2026-02-01T00:00:00Z'))
      // The 13th, due 48 h after it ends: one trade of each UID.
      .addTrade({
        uid: csvUid,
        at: new Date('2026-02-13T09:00:00Z'),
        volume: '100',
        fee: '2',
        commission: '1',
      })
      .addTrade({
        uid: apiUid,
        at: new Date('2026-02-13T10:00:00Z'),
        volume: '100',
        fee: '2',
        commission: '1',
      });
    // An operator imported the portal's report for csvUid over the 10th to the 14th (its trades of
    // those days, the 13th's among them).
    const file = path.join(dir, 'bitget-week.csv');
    fs.writeFileSync(
      file,
      'uid,period_start,period_end,trading_volume,fee,commission\n' +
        `${csvUid},2026-02-10T00:00:00Z,2026-02-14T00:00:00Z,400,8,4\n`,
    );
    const code = await runCommandAs(rebatesImport, ctx.deps, ['bitget', file], {
      out: () => {},
      err: () => {},
    });
    expect(code).toBe(0);

    const summary = await syncExchange(
      { db: ctx.db, clock: ctx.clock, ingest: cashbackIngest(ctx.deps) },
      { platId: BITGET, adapter: exchangeCase('bitget').createAdapter(fake, fast) },
      { trigger: 'job', backfillDays: 4 },
    );
    // The other UID of the segment is paid; the clashing row is left out, and the run says so.
    expect(summary).toMatchObject({ status: 'succeeded', rebatesInserted: 1 });
    expect(summary.error).toContain(csvUid);
    const [apiRecord] = await ctx.db
      .select()
      .from(rebates)
      .where(and(eq(rebates.platId, BITGET), eq(rebates.uid, apiUid)));
    expect(apiRecord).toMatchObject({ feeMicro: 2_000_000n, periodStart: new Date('2026-02-13T00:00:00Z') });
    const csvRecords = await ctx.db
      .select()
      .from(rebates)
      .where(and(eq(rebates.platId, BITGET), eq(rebates.uid, csvUid)));
    expect(csvRecords.map((record) => record.feeMicro)).toEqual([8_000_000n]);

    // The exchange restates apiUid's 13th and an operator pulls that day again: the stored figures
    // stand, and the run names the row instead of counting it as a duplicate.
    fake.addTrade({
      uid: apiUid,
      at: new Date('2026-02-13T11:00:00Z'),
      volume: '50',
      fee: '1',
      commission: '0.5',
    });
    const again = await syncExchange(
      { db: ctx.db, clock: ctx.clock, ingest: cashbackIngest(ctx.deps) },
      { platId: BITGET, adapter: exchangeCase('bitget').createAdapter(fake, fast) },
      {
        trigger: 'cli',
        backfillDays: 4,
        window: { from: new Date('2026-02-13T18:00:00Z'), to: new Date('2026-02-14T00:00:00Z') },
      },
    );
    expect(again).toMatchObject({ status: 'succeeded', rebatesInserted: 0, rebatesDuplicates: 0 });
    expect(again.error).toContain(
      `${apiUid} 2026-02-13T00:00:00.000Z..2026-02-14T00:00:00.000Z: the figures differ`,
    );

    // The console says the same in the operator's language, and keeps no English in it.
    const operator = await newOperator(ctx);
    const runsIn = async (lang: string) =>
      (await adminCall(ctx, operator, 'syncRuns', { platId: BITGET }, lang)).content.runs as Array<{
        id: number;
        error: string | null;
      }>;
    const zh = await runsIn('zh');
    expect(zh.find((run) => run.id === again.runId)?.error).toBe(
      '略去 2 行与此前已存数据冲突的记录，已存数据保持不变：' +
        `${csvUid} 2026-02-13T00:00:00.000Z..2026-02-14T00:00:00.000Z：` +
        '与该 UID 已导入的周期 2026-02-10T00:00:00.000Z - 2026-02-14T00:00:00.000Z 重叠; ' +
        `${apiUid} 2026-02-13T00:00:00.000Z..2026-02-14T00:00:00.000Z：` +
        '交易所的数字与该 UID 此周期已存的不同（交易量 100.000000，手续费 2.000000，佣金 1.000000）；以已存的数字为准：如新数字正确请提交调整',
    );
    expect(zh.find((run) => run.id === summary.runId)?.error).toMatch(/^略去 1 行与此前已存数据冲突的记录/);
    const ko = await runsIn('ko');
    expect(ko.find((run) => run.id === again.runId)?.error).toMatch(
      /^이전에 저장된 수치와 충돌하는 2개 행을 제외했습니다.*거래량 100\.000000, 수수료 2\.000000, 커미션 1\.000000/,
    );
    const en = await runsIn('en');
    expect(en.find((run) => run.id === again.runId)?.error).toBe(
      'left out 2 row(s) that clash with figures stored before, which stand: ' +
        `${csvUid} 2026-02-13T00:00:00.000Z..2026-02-14T00:00:00.000Z: ` +
        'overlaps the imported period 2026-02-10T00:00:00.000Z - 2026-02-14T00:00:00.000Z of this UID; ' +
        `${apiUid} 2026-02-13T00:00:00.000Z..2026-02-14T00:00:00.000Z: ` +
        'the figures differ from those stored for this UID and period (volume 100.000000, fee 2.000000, commission 1.000000); the stored figures stand: post a correction if the new ones are right',
    );

    // A note kept in English before notes were kept as facts is shown as it was kept.
    const oldNote = `left out 1 row(s) that clash with figures stored before, which stand: ${apiUid} 2026-02-13T00:00:00.000Z..2026-02-14T00:00:00.000Z: the figures differ`;
    const [old] = await ctx.db
      .insert(syncRuns)
      .values({
        platId: BITGET,
        exchange: 'bitget',
        trigger: 'cli',
        status: 'succeeded',
        windowStart: new Date('2026-02-13T18:00:00Z'),
        windowEnd: new Date('2026-02-14T00:00:00Z'),
        segmentsTotal: 1,
        segmentsDone: 1,
        error: oldNote,
        instance: 'test',
        startedAt: ctx.clock.now(),
        finishedAt: ctx.clock.now(),
      })
      .returning();
    expect((await runsIn('zh')).find((run) => run.id === old?.id)?.error).toBe(oldNote);
  });

  it('a run that fails after leaving out rows names both, and the command line reads English', async () => {
    const failure = 'bitget answered 503';
    const row = {
      uid: '73000001',
      periodStart: new Date('2026-02-13T00:00:00Z'),
      periodEnd: new Date('2026-02-14T00:00:00Z'),
      key: 'importOverlapsStored' as const,
      params: { start: '2026-02-10T00:00:00.000Z', end: '2026-02-14T00:00:00.000Z' },
    };
    const rows = [row];
    const stored = storedRunError(failure, rows);
    expect(runErrorText(stored ?? null, 'en')).toBe(
      `${failure} | left out 1 row(s) that clash with figures stored before, which stand: ` +
        '73000001 2026-02-13T00:00:00.000Z..2026-02-14T00:00:00.000Z: overlaps the imported period 2026-02-10T00:00:00.000Z - 2026-02-14T00:00:00.000Z of this UID',
    );
    expect(runErrorText(stored ?? null, 'zh')).toMatch(new RegExp(`^${failure} \\| 略去 1 行`));
    // A failure alone is kept as its text, as before.
    expect(storedRunError(failure, [])).toBe(failure);
    // Past 20 rows the note lists 20 and counts the rest.
    const many = Array.from({ length: 23 }, (_, i) => ({
      ...row,
      uid: `7300${String(i).padStart(4, '0')}`,
    }));
    const text = runErrorText(storedRunError(undefined, many) ?? null, 'en') ?? '';
    expect(text).toMatch(/^left out 23 row\(s\)/);
    expect(text).toContain('73000019 ');
    expect(text).not.toContain('73000020 ');
    expect(text).toMatch(/; and 3 more \(all in the server log\)$/);
  });
});
