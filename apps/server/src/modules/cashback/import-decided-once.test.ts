import { eq, inArray, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommissionEntry } from '../../integrations/exchanges/types.js';
import { bindExchangeUid } from '../bindings/bindings.service.js';
import { accountCode, balanceOf } from '../ledger/ledger.service.js';
import { checkAllInvariants } from './cashback.check.js';
import { eventRewards, rebates } from './cashback.tables.js';
import { ingestRebates, ingestReferrals } from './ingest.service.js';
import { importRebateFile } from './rebate-import.js';
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
 * An import decides its whole file by the rule in the statement that numbers it by UID, and stores
 * each page from there (issue 14: no page table written per page). What it stores and credits must
 * be what the two-step path (records stored pending, then a settlement page decided into its table
 * and applied) makes of the same figures, outcome by outcome.
 */
let ctx: CashbackTestContext;
beforeAll(async () => {
  ctx = await createCashbackTestApp({ inviteBonusPercent: 10 });
});
afterAll(() => ctx.close());

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const HOUR_MS = 60 * 60 * 1000;
const dialect = new PgDialect();

describe('a figures file decided once', () => {
  it('stores and credits what settling the same figures stored pending does, for every outcome', async () => {
    ctx.clock.set(new Date('2026-10-20T12:00:00Z'));
    const now = ctx.clock.now().getTime();
    const day = (daysAgo: number) => new Date(Date.UTC(2026, 9, 20) - daysAgo * DAY_MS);
    const longAgo = new Date(now - 400 * DAY_MS);
    // Each case: its rows (start, amounts, hours), its registration (null: not in the roster), whether
    // its holder was invited.
    const cases: Array<{
      name: string;
      rows: Array<{ start: Date; fee: string; commission: string; hours?: number }>;
      registeredAt: Date | null;
      invited?: boolean;
    }> = [
      {
        name: 'capped and floored',
        rows: [
          { start: day(3), fee: '4', commission: '1' },
          { start: day(4), fee: '0.999999', commission: '1' },
          { start: day(6), fee: '1.333333', commission: '5' },
        ],
        registeredAt: longAgo,
        invited: true,
      },
      { name: 'speed-up', rows: [{ start: day(3), fee: '2.5', commission: '9' }], registeredAt: day(5) },
      { name: 'no commission', rows: [{ start: day(3), fee: '4', commission: '0' }], registeredAt: longAgo },
      {
        name: 'not due',
        rows: [{ start: new Date(now - 2 * HOUR_MS), fee: '4', commission: '1', hours: 1 }],
        registeredAt: longAgo,
      },
      {
        name: 'unreferred in grace',
        rows: [{ start: day(3), fee: '4', commission: '1' }],
        registeredAt: null,
      },
      {
        name: 'unreferred past grace',
        rows: [{ start: day(10), fee: '4', commission: '1' }],
        registeredAt: null,
      },
    ];
    // Side a: the file; side b: the same figures stored pending through the API path, then settled.
    const sides = cases.map((entry) => ({ ...entry, a: nextUid('FA'), b: nextUid('FB') }));
    const roster = sides.flatMap((side) =>
      side.registeredAt
        ? [side.a, side.b].map((uid) => ({ uid, registeredAt: side.registeredAt as Date }))
        : [],
    );
    await ingestReferrals(ctx.deps, BITGET, roster, { kind: 'csv', label: 'roster.csv' }, { settle: false });
    const inviters: Record<'a' | 'b', number> = { a: 0, b: 0 };
    for (const key of ['a', 'b'] as const) {
      const inviter = await createMember(ctx);
      inviters[key] = inviter.id;
      for (const side of sides.filter((entry) => entry.invited)) {
        const friend = await createMember(ctx, { inviterId: inviter.id });
        await bindExchangeUid(ctx.deps, friend.id, { platId: BITGET, uid: side[key], address: ADDRESS });
      }
    }
    const entriesOf = (key: 'a' | 'b'): CommissionEntry[] =>
      sides.flatMap((side) =>
        side.rows.map((row) =>
          figures(
            side[key],
            row.start,
            { fee: row.fee, commission: row.commission, volume: '100' },
            row.hours,
          ),
        ),
      );

    const csv = Buffer.from(
      [
        'uid,period_start,period_end,trading_volume,fee,commission',
        ...entriesOf('a').map(
          (entry) =>
            `${entry.uid},${entry.periodStart.toISOString()},${entry.periodEnd.toISOString()},100,` +
            `${Number(entry.feeMicro) / 1e6},${Number(entry.commissionMicro) / 1e6}`,
        ),
        '',
      ].join('\n'),
    );
    const imported = await ctx.db.transaction((tx) =>
      importRebateFile(tx, ctx.deps, BITGET, csv, { kind: 'csv', label: 'mixed.csv' }),
    );
    const ingested = await ingestRebates(ctx.deps, BITGET, entriesOf('b'), { kind: 'api', label: 'sync' });
    expect(imported.inserted).toBe(ingested.inserted);
    expect(imported.settlement).toEqual(ingested.settlement);
    expect(imported.settlement.completed).toBe(4);
    expect(imported.settlement.failed).toBe(2);

    const outcomes = async (key: 'a' | 'b') => {
      const found = await ctx.db
        .select()
        .from(rebates)
        .where(
          inArray(
            rebates.uid,
            sides.map((side) => side[key]),
          ),
        );
      return Object.fromEntries(
        sides.flatMap((side) =>
          found
            .filter((row) => row.uid === side[key])
            .map((row) => [
              `${side.name} ${row.periodStart.toISOString()}`,
              [
                row.status,
                row.failureReason,
                row.cashRateBps,
                row.isSpeedUp,
                row.amountMicro,
                row.journalId !== null,
              ],
            ]),
        ),
      );
    };
    const fromFile = await outcomes('a');
    expect(Object.keys(fromFile)).toHaveLength(8);
    expect(fromFile).toEqual(await outcomes('b'));
    // Every outcome is there: completed (with the speed-up rate once), both failures, pending twice.
    expect(Object.values(fromFile).map((outcome) => outcome[0] ?? outcome[1])).toEqual(
      expect.arrayContaining(['completed', 'failed', 'pending']),
    );
    expect(Object.values(fromFile).filter((outcome) => outcome[3] === true)).toHaveLength(1);

    for (const side of sides) {
      expect([side.name, await balanceOf(ctx.db, accountCode.cashback(BITGET, side.a))]).toEqual([
        side.name,
        await balanceOf(ctx.db, accountCode.cashback(BITGET, side.b)),
      ]);
    }
    const bonuses = async (inviterId: number) =>
      (await ctx.db.select().from(eventRewards).where(eq(eventRewards.userId, inviterId)))
        .map((reward) => reward.amountMicro)
        .sort();
    expect(await bonuses(inviters.a)).toHaveLength(3);
    expect(await bonuses(inviters.a)).toEqual(await bonuses(inviters.b));
    expect(await balanceOf(ctx.db, accountCode.rewards(inviters.a))).toBe(
      await balanceOf(ctx.db, accountCode.rewards(inviters.b)),
    );
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });

  it("writes no settlement page table for the file's rows", async () => {
    ctx.clock.set(new Date('2026-10-20T12:00:00Z'));
    const day = (daysAgo: number) => new Date(Date.UTC(2026, 9, 20) - daysAgo * DAY_MS);
    const uids = Array.from({ length: 5 }, () => nextUid('FP'));
    await ingestReferrals(
      ctx.deps,
      BITGET,
      uids.map((uid) => ({ uid, registeredAt: new Date(ctx.clock.now().getTime() - 400 * DAY_MS) })),
      { kind: 'csv', label: 'roster.csv' },
      { settle: false },
    );
    const csv = Buffer.from(
      [
        'uid,period_start,period_end,trading_volume,fee,commission',
        ...uids.flatMap((uid) =>
          [3, 4, 5].map((n) => `${uid},${day(n).toISOString()},${day(n - 1).toISOString()},100,2,1`),
        ),
        '',
      ].join('\n'),
    );
    const statements: string[] = [];
    const result = await ctx.db.transaction(async (tx) => {
      const execute = tx.execute.bind(tx);
      Object.assign(tx, {
        execute: (query: Parameters<typeof execute>[0]) => {
          statements.push(typeof query === 'string' ? query : dialect.sqlToQuery(query.getSQL()).sql);
          return execute(query);
        },
      });
      return importRebateFile(tx, ctx.deps, BITGET, csv, { kind: 'csv', label: 'due.csv' });
    });
    expect(result.settlement.completed).toBe(15);
    // (Records stored pending before, due now, still settle through the page table at the end.)
    expect(
      statements.filter((text) => /insert into settlement_page/.test(text) && /rebate_import/.test(text)),
    ).toEqual([]);
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });

  it('stops, storing and paying nothing, when a page finds one of its keys stored meanwhile', async () => {
    ctx.clock.set(new Date('2026-10-20T12:00:00Z'));
    const day = (daysAgo: number) => new Date(Date.UTC(2026, 9, 20) - daysAgo * DAY_MS);
    const uids = Array.from({ length: 3 }, () => nextUid('SM'));
    await ingestReferrals(
      ctx.deps,
      BITGET,
      uids.map((uid) => ({ uid, registeredAt: new Date(ctx.clock.now().getTime() - 400 * DAY_MS) })),
      { kind: 'csv', label: 'roster.csv' },
      { settle: false },
    );
    const csv = Buffer.from(
      [
        'uid,period_start,period_end,trading_volume,fee,commission',
        ...uids.flatMap((uid) =>
          [3, 4].map((n) => `${uid},${day(n).toISOString()},${day(n - 1).toISOString()},100,2,1`),
        ),
        '',
      ].join('\n'),
    );
    const before = await ctx.db.select().from(rebates).where(inArray(rebates.uid, uids));
    expect(before).toEqual([]);
    // No path stores a record of an exchange while its import holds the ledger lock: the clash is made
    // by hand, in the import's transaction, just before the page's records are stored.
    const attempt = ctx.db.transaction(async (tx) => {
      const execute = tx.execute.bind(tx);
      Object.assign(tx, {
        execute: async (query: Parameters<typeof execute>[0]) => {
          const text = typeof query === 'string' ? query : dialect.sqlToQuery(query.getSQL()).sql;
          if (/^\s*with credited as/.test(text)) {
            await execute(sql`
              insert into rebates (plat_id, uid, period_start, period_end, trading_volume_micro, fee_micro,
                commission_micro, source, source_label, created_at)
              select ${BITGET}, uid, period_start, period_end, 1, 1, 1, 'api', 'meanwhile', now()
              from rebate_import_by_uid order by n desc limit 1`);
          }
          return execute(query);
        },
      });
      return importRebateFile(tx, ctx.deps, BITGET, csv, { kind: 'csv', label: 'clash.csv' });
    });
    await expect(attempt).rejects.toThrow('a rebate record of the same period was stored during the import');
    expect(await ctx.db.select().from(rebates).where(inArray(rebates.uid, uids))).toEqual([]);
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });

  it('names a clash on the id as what it is, not as a record stored meanwhile', async () => {
    ctx.clock.set(new Date('2026-10-20T12:00:00Z'));
    const day = (daysAgo: number) => new Date(Date.UTC(2026, 9, 20) - daysAgo * DAY_MS);
    const uid = nextUid('SQ');
    const csv = Buffer.from(
      `uid,period_start,period_end,trading_volume,fee,commission\n${uid},${day(3).toISOString()},${day(2).toISOString()},100,2,1\n`,
    );
    // A sequence set back (a restore, a hand-made setval) hands out an id a stored record holds.
    // setval is not rolled back with the import, so the sequence is put right after.
    await ctx.db.execute(sql`select setval('rebates_id_seq', (select min(id) from rebates), false)`);
    try {
      const attempt = ctx.db.transaction((tx) =>
        importRebateFile(tx, ctx.deps, BITGET, csv, { kind: 'csv', label: 'behind.csv' }),
      );
      await expect(attempt).rejects.toSatisfy(
        (error: Error) =>
          !error.message.includes('stored during the import') &&
          /rebates_pkey/.test(String(error.cause ?? error.message)),
      );
    } finally {
      await ctx.db.execute(sql`select setval('rebates_id_seq', (select max(id) from rebates))`);
    }
    expect(await ctx.db.select().from(rebates).where(eq(rebates.uid, uid))).toEqual([]);
  });
});
