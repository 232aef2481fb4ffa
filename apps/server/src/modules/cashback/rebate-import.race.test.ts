import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { buildApp } from '../../app.js';
import { testOperatorActor } from '../../test/ops-command.js';
import { openRaceApps, type RaceApps } from '../../test/race-apps.js';
import { runCsvImport } from '../admin/imports.service.js';
import { accountCode, balanceOf } from '../ledger/ledger.service.js';
import { checkAllInvariants } from './cashback.check.js';
import { rebates } from './cashback.tables.js';
import { ingestReferrals } from './ingest.service.js';
import { BITGET, type CashbackTestContext, nextUid } from './test-support.js';

/**
 * Figures files arriving at the same moment on two app instances (red-team review of imports,
 * 2026-11-29): the same file twice, and two files whose periods of one UID overlap. On PostgreSQL two
 * instances on one database; on PGlite one (the imports take turns).
 */
type App = Awaited<ReturnType<typeof buildApp>>;
let race: RaceApps;
let ctx: CashbackTestContext;
let apps: App[];
beforeAll(async () => {
  race = await openRaceApps();
  ({ ctx, apps } = race);
});
afterAll(() => race?.close());

const HEADER = 'uid,period_start,period_end,trading_volume,fee,commission';
const upload = (app: App, fileName: string, lines: string[]) => {
  const csv = Buffer.from(`${[HEADER, ...lines].join('\n')}\n`);
  return runCsvImport(
    app.deps,
    { actor: testOperatorActor, requestId: null },
    { kind: 'rebates', platId: BITGET, fileName, source: csv, sizeBytes: csv.length },
  );
};

describe(`figures files at the same moment (${process.env.TEST_DATABASE_URL ? 'PostgreSQL, two instances' : 'PGlite'})`, () => {
  it('the same file on two instances at once is stored and paid once; the other run is all duplicates', async () => {
    ctx.clock.set(new Date('2026-10-20T12:00:00Z'));
    const uids = Array.from({ length: 30 }, () => nextUid('TWICE'));
    await ingestReferrals(
      ctx.deps,
      BITGET,
      uids.map((uid) => ({ uid, registeredAt: new Date('2025-01-01T00:00:00Z') })),
      { kind: 'csv', label: 'roster.csv' },
    );
    const lines = uids.flatMap((uid) =>
      [1, 2, 3].map((day) => `${uid},2026-10-0${day}T00:00:00Z,2026-10-0${day + 1}T00:00:00Z,100,2,1`),
    );
    const second = apps[1] ?? ctx.app;
    const results = await Promise.all([upload(ctx.app, 'a.csv', lines), upload(second, 'a.csv', lines)]);
    expect(results.map((result) => result.status)).toEqual(['succeeded', 'succeeded']);
    expect(results.map((result) => result.inserted).sort()).toEqual([0, 90]);
    expect(results.map((result) => result.duplicates).sort()).toEqual([0, 90]);
    for (const uid of uids)
      expect(await balanceOf(ctx.db, accountCode.cashback(BITGET, uid))).toBe(3_000_000n);
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });

  it('two files overlapping one UID at once: one is stored, the other refused naming the stored period', async () => {
    ctx.clock.set(new Date('2026-10-20T12:00:00Z'));
    const uid = nextUid('OVER');
    await ingestReferrals(ctx.deps, BITGET, [{ uid, registeredAt: new Date('2025-01-01T00:00:00Z') }], {
      kind: 'csv',
      label: 'roster.csv',
    });
    const week = [`${uid},2026-10-05T00:00:00Z,2026-10-12T00:00:00Z,700,14,7`];
    const days = [1, 2, 3, 4, 5, 6, 7].map(
      (n) =>
        `${uid},2026-10-${String(4 + n).padStart(2, '0')}T00:00:00Z,2026-10-${String(5 + n).padStart(2, '0')}T00:00:00Z,100,2,1`,
    );
    const second = apps[1] ?? ctx.app;
    const results = await Promise.all([upload(ctx.app, 'week.csv', week), upload(second, 'days.csv', days)]);
    expect(results.map((result) => result.status).sort()).toEqual(['rejected', 'succeeded']);
    // Paid for the week once, either way.
    expect(await balanceOf(ctx.db, accountCode.cashback(BITGET, uid))).toBe(7_000_000n);
    const stored = await ctx.db.select({ fee: rebates.feeMicro }).from(rebates).where(eq(rebates.uid, uid));
    expect(stored.reduce((sum, row) => sum + row.fee, 0n)).toBe(14_000_000n);
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });
});
