import { CASHBACK } from '@elex/contract';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Executor } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { openTestDatabase } from '../../test/test-app.js';
import {
  computeRebate,
  inviteBonusAmount,
  inviteBonusSql,
  type RebateRuleInput,
  rebateRuleSql,
} from './rebate-rule.js';

/**
 * Settlement decides records with the rule as SQL (rebateRuleSql, issue 14); the member's estimates
 * and the tests use it as TypeScript (computeRebate). On the real engine, both forms give the same
 * rate, window and amount for any record: random ones, the edges of the speed-up window to the
 * millisecond, a session in a time zone with daylight saving, amounts past 64-bit products.
 */
let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
}, 60_000);
afterAll(() => database.close());

const WINDOW_MS = CASHBACK.speedUpWeeks * 7 * 24 * 60 * 60 * 1000;

type Case = RebateRuleInput;

/** Each case through the SQL form (a statement per case: the rates are settlement's parameters, not columns). */
async function bySql(db: Executor, cases: readonly Case[]) {
  const answers: Array<{ amountMicro: bigint; cashRateBps: number; isSpeedUp: boolean }> = [];
  for (const item of cases) {
    const rule = rebateRuleSql({
      feeMicro: sql`d.fee_micro`,
      commissionMicro: sql`d.commission_micro`,
      periodStart: sql`d.period_start`,
      registeredAt: sql`d.registered_at`,
      cashRateBps: item.cashRateBps,
      speedUpCashRateBps: item.speedUpCashRateBps,
    });
    const [row] = rowsOf<{ amount: string; rate: number; speed_up: boolean }>(
      await db.execute(sql`
        select ${rule.amountMicro}::text as amount, ${rule.cashRateBps} as rate, ${rule.isSpeedUp} as speed_up
        from (select ${item.feeMicro.toString()}::bigint as fee_micro,
          ${item.commissionMicro.toString()}::bigint as commission_micro,
          ${item.periodStart.toISOString()}::timestamptz as period_start,
          ${item.registeredAt.toISOString()}::timestamptz as registered_at) d`),
    );
    answers.push({
      amountMicro: BigInt(row?.amount ?? '-1'),
      cashRateBps: Number(row?.rate),
      isSpeedUp: Boolean(row?.speed_up),
    });
  }
  return answers;
}

const dateArb = fc.date({
  min: new Date('2020-01-01T00:00:00Z'),
  max: new Date('2030-12-31T00:00:00Z'),
  noInvalidDate: true,
});

const caseArb: fc.Arbitrary<Case> = fc
  .record({
    feeMicro: fc.bigInt({ min: 0n, max: 2n ** 62n }),
    commissionMicro: fc.bigInt({ min: 0n, max: 2n ** 62n }),
    registeredAt: dateArb,
    // Around the window's edge more often than not.
    offsetMs: fc.oneof(
      fc.integer({ min: -3 * WINDOW_MS, max: 3 * WINDOW_MS }),
      fc.integer({ min: WINDOW_MS - 2_000, max: WINDOW_MS + 2_000 }),
    ),
    cashRateBps: fc.integer({ min: 0, max: 10_000 }),
    speedUpCashRateBps: fc.integer({ min: 0, max: 10_000 }),
  })
  .map(({ offsetMs, registeredAt, ...rest }) => ({
    ...rest,
    registeredAt,
    periodStart: new Date(registeredAt.getTime() + offsetMs),
  }));

describe('the rebate rule in SQL', () => {
  it('decides every record as the TypeScript rule does', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(caseArb, { minLength: 1, maxLength: 20 }), async (cases) => {
        expect(await bySql(database.db, cases)).toEqual(cases.map((item) => computeRebate(item)));
      }),
      { numRuns: 30 },
    );
  });

  it('keeps the window edge to the millisecond, whatever the session time zone', async () => {
    // 2026-03-29 is a daylight-saving change in Berlin: 3 weeks after a registration a week before it
    // are 504 hours, not "21 days" of local time.
    const registeredAt = new Date('2026-03-22T10:00:00Z');
    const edge = registeredAt.getTime() + WINDOW_MS;
    const cases: Case[] = [edge - 1, edge, edge + 1].map((time) => ({
      feeMicro: 10_000_000n,
      commissionMicro: 100_000_000n,
      periodStart: new Date(time),
      registeredAt,
      cashRateBps: 4000,
      speedUpCashRateBps: 5000,
    }));
    const answers = await database.db.transaction(async (tx) => {
      await tx.execute(sql`set local time zone 'Europe/Berlin'`);
      return bySql(tx, cases);
    });
    expect(answers.map((answer) => answer.isSpeedUp)).toEqual([true, false, false]);
    expect(answers).toEqual(cases.map((item) => computeRebate(item)));
  });
});

describe('the invite bonus in SQL', () => {
  it('floors each cashback as the TypeScript rule does, past 64-bit products', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }),
        fc.integer({ min: 0, max: 100 }),
        async (cashbackMicro, percent) => {
          const [row] = rowsOf<{ bonus: string }>(
            await database.db.execute(
              sql`select ${inviteBonusSql(sql`${cashbackMicro.toString()}::bigint`, percent)}::text as bonus`,
            ),
          );
          expect(BigInt(row?.bonus ?? '-1')).toBe(inviteBonusAmount(cashbackMicro, percent));
        },
      ),
      { numRuns: 60 },
    );
  });
});
