import { like } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../http/app-error.js';
import { bindExchangeUid, unbindUid } from '../bindings/bindings.service.js';
import { accountCode, balanceOf } from '../ledger/ledger.service.js';
import { checkAllInvariants } from './cashback.check.js';
import { rebates } from './cashback.tables.js';
import { IngestRejectedError, ingestRebates, ingestReferrals, settleRebates } from './ingest.service.js';
import { loadPartners, type Partner } from './partners.js';
import {
  BINANCE,
  BITGET,
  type CashbackTestContext,
  createCashbackTestApp,
  createMember,
  DAY_MS,
} from './test-support.js';

/**
 * Random sequences of roster imports, figure imports (with repeats and refused overlaps), clock moves,
 * settlements, bindings and unbindings keep every ledger invariant, and the balances match a plain
 * in-memory model of the rules (docs/cashback.md).
 */
let ctx: CashbackTestContext;
let partners: Map<number, Partner>;
beforeAll(async () => {
  ctx = await createCashbackTestApp();
  partners = await loadPartners(ctx.deps);
});
afterAll(() => ctx.close());

const HOUR_MS = 60 * 60 * 1000;
/** The speed-up window, 3 weeks after registration (spec section 9), restated for the model. */
const SPEED_UP_MS = 21 * DAY_MS;
const T0 = Date.parse('2026-03-01T00:00:00Z');
const EXCHANGES = [BINANCE, BITGET] as const;
const UIDS_PER_EXCHANGE = 3;
/** Day slots before T0: every period is one UTC day, so two periods are equal or disjoint. */
const SLOTS = 8;
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const api = { kind: 'api', label: 'property' } as const;

type Op =
  | { kind: 'referrals'; exchange: number; uids: number[]; registeredDaysAgo: number }
  | {
      kind: 'rebates';
      exchange: number;
      rows: Array<{ uid: number; slot: number; fee: bigint; commission: bigint }>;
      overlap: boolean;
    }
  | { kind: 'advance'; hours: number }
  | { kind: 'settle' }
  | { kind: 'bind'; member: number; exchange: number; uid: number }
  | { kind: 'unbind'; exchange: number; uid: number };

const exchangeArb = fc.integer({ min: 0, max: EXCHANGES.length - 1 });
const uidArb = fc.integer({ min: 0, max: UIDS_PER_EXCHANGE - 1 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('referrals' as const),
    exchange: exchangeArb,
    uids: fc.array(uidArb, { minLength: 1, maxLength: 3 }),
    registeredDaysAgo: fc.integer({ min: 0, max: 40 }),
  }),
  fc.record({
    kind: fc.constant('rebates' as const),
    exchange: exchangeArb,
    rows: fc.array(
      fc.record({
        uid: uidArb,
        slot: fc.integer({ min: 0, max: SLOTS - 1 }),
        fee: fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 50_000_000n })),
        commission: fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 40_000_000n })),
      }),
      { minLength: 1, maxLength: 4 },
    ),
    overlap: fc.integer({ min: 0, max: 9 }).map((roll) => roll < 2),
  }),
  fc.record({ kind: fc.constant('advance' as const), hours: fc.integer({ min: 1, max: 24 * 8 }) }),
  fc.constant({ kind: 'settle' as const }),
  fc.record({
    kind: fc.constant('bind' as const),
    member: fc.integer({ min: 0, max: 1 }),
    exchange: exchangeArb,
    uid: uidArb,
  }),
  fc.record({ kind: fc.constant('unbind' as const), exchange: exchangeArb, uid: uidArb }),
);

interface ModelRecord {
  platId: number;
  uid: string;
  periodStart: number;
  periodEnd: number;
  fee: bigint;
  commission: bigint;
  status: 'pending' | 'completed' | 'failed';
  /** Why it failed: a record refused as not referred settles again once its UID is in the roster. */
  reason?: 'uidNotReferred' | 'noCommission';
}

let run = 0;

async function runSequence(ops: Op[]) {
  run += 1;
  const inviter = await createMember(ctx);
  const members = [await createMember(ctx, { inviterId: inviter.id }), await createMember(ctx)];
  const uidOf = (exchange: number, index: number) => `P${run}X${exchange}U${index}`;
  const platOf = (exchange: number) => EXCHANGES[exchange] as number;
  const key = (platId: number, uid: string) => `${platId}:${uid}`;

  // The model.
  const roster = new Map<string, number>();
  const records: ModelRecord[] = [];
  const owners = new Map<string, number>();
  const cashback = new Map<string, bigint>();
  let rewards = 0n;

  const settleModel = (platId: number, now: number) => {
    const partner = partners.get(platId) as Partner;
    for (const record of records) {
      if (record.platId !== platId) continue;
      const registeredAt = roster.get(key(platId, record.uid));
      const unreferred = record.status === 'failed' && record.reason === 'uidNotReferred';
      if (!(record.status === 'pending' || (unreferred && registeredAt !== undefined))) continue;
      if (record.status === 'pending' && record.periodEnd > now - ctx.config.settlementDelayHours * HOUR_MS) {
        continue;
      }
      if (registeredAt === undefined) {
        if (record.periodEnd <= now - 7 * DAY_MS) {
          record.status = 'failed';
          record.reason = 'uidNotReferred';
        }
        continue;
      }
      if (record.commission === 0n) {
        record.status = 'failed';
        record.reason = 'noCommission';
        continue;
      }
      record.status = 'completed';
      // The rule written out here (docs/cashback.md), not imported from rebate-rule.ts, so that a
      // mistake there cannot agree with itself: fee x rate in basis points, floored, capped by the
      // commission; the speed-up rate while the period starts within 3 weeks of registration.
      const speedUp = record.periodStart < registeredAt + SPEED_UP_MS;
      const rateBps = BigInt(speedUp ? partner.speedUpCashRateBps : partner.cashRateBps);
      const byRate = (record.fee * rateBps) / 10_000n;
      const amountMicro = byRate < record.commission ? byRate : record.commission;
      const account = key(platId, record.uid);
      cashback.set(account, (cashback.get(account) ?? 0n) + amountMicro);
      if (amountMicro > 0n && owners.get(account) === members[0]?.id) {
        // The inviter's bonus: a whole percent of the friend's cashback, floored.
        rewards += (amountMicro * BigInt(ctx.config.inviteBonusPercent)) / 100n;
      }
    }
  };

  ctx.clock.set(new Date(T0));
  for (const op of ops) {
    const now = ctx.clock.now().getTime();
    switch (op.kind) {
      case 'referrals': {
        const platId = platOf(op.exchange);
        const registeredAt = now - op.registeredDaysAgo * DAY_MS;
        const uids = op.uids.map((index) => uidOf(op.exchange, index));
        await ingestReferrals(
          ctx.deps,
          platId,
          uids.map((uid) => ({ uid, registeredAt: new Date(registeredAt) })),
          api,
        );
        for (const uid of uids) if (!roster.has(key(platId, uid))) roster.set(key(platId, uid), registeredAt);
        settleModel(platId, now);
        break;
      }
      case 'rebates': {
        const platId = platOf(op.exchange);
        const rows = op.rows.map((row) => {
          const periodStart = T0 - (SLOTS + 2 - row.slot) * DAY_MS;
          return {
            uid: uidOf(op.exchange, row.uid),
            periodStart: new Date(periodStart),
            periodEnd: new Date(periodStart + DAY_MS),
            tradingVolumeMicro: row.fee * 1000n,
            feeMicro: row.fee,
            commissionMicro: row.commission,
          };
        });
        if (op.overlap) {
          const first = rows[0] as (typeof rows)[number];
          rows.push({
            ...first,
            periodStart: new Date(first.periodStart.getTime() + 12 * HOUR_MS),
            periodEnd: new Date(first.periodEnd.getTime() + 12 * HOUR_MS),
          });
          await expect(ingestRebates(ctx.deps, platId, rows, api)).rejects.toBeInstanceOf(
            IngestRejectedError,
          );
          break;
        }
        const before = records.length;
        for (const row of rows) {
          const exists = records.some(
            (record) =>
              record.platId === platId &&
              record.uid === row.uid &&
              record.periodStart === row.periodStart.getTime(),
          );
          if (exists) continue;
          records.push({
            platId,
            uid: row.uid,
            periodStart: row.periodStart.getTime(),
            periodEnd: row.periodEnd.getTime(),
            fee: row.feeMicro,
            commission: row.commissionMicro,
            status: 'pending',
          });
        }
        const result = await ingestRebates(ctx.deps, platId, rows, api);
        expect(result.inserted).toBe(records.length - before);
        expect(result.duplicates).toBe(rows.length - (records.length - before));
        settleModel(platId, now);
        break;
      }
      case 'advance':
        ctx.clock.advance(op.hours * HOUR_MS);
        break;
      case 'settle':
        await settleRebates(ctx.deps);
        for (const platId of EXCHANGES) settleModel(platId, now);
        break;
      case 'bind': {
        const platId = platOf(op.exchange);
        const uid = uidOf(op.exchange, op.uid);
        const member = members[op.member] as { id: number };
        const expected = owners.has(key(platId, uid))
          ? 'uidAlreadyBound'
          : roster.has(key(platId, uid))
            ? 'ok'
            : // No exchange here has a live check: an unlisted UID may be new, not "not referred".
              'uidNotYetListed';
        const outcome = await bindExchangeUid(ctx.deps, member.id, { platId, uid, address: ADDRESS }).then(
          () => 'ok',
          (error: unknown) => (error instanceof AppError ? error.messageKey : String(error)),
        );
        expect(outcome).toBe(expected);
        if (outcome === 'ok') owners.set(key(platId, uid), member.id);
        break;
      }
      case 'unbind': {
        const platId = platOf(op.exchange);
        const uid = uidOf(op.exchange, op.uid);
        await ctx.db.transaction((tx) =>
          unbindUid(tx, { platId, uid, reason: 'property', operatorId: null, at: ctx.clock.now() }),
        );
        owners.delete(key(platId, uid));
        break;
      }
    }
  }

  expect(await checkAllInvariants(ctx.db)).toEqual([]);
  for (const [exchange, platId] of EXCHANGES.entries()) {
    for (let index = 0; index < UIDS_PER_EXCHANGE; index += 1) {
      const uid = uidOf(exchange, index);
      expect(await balanceOf(ctx.db, accountCode.cashback(platId, uid))).toBe(
        cashback.get(key(platId, uid)) ?? 0n,
      );
    }
  }
  expect(await balanceOf(ctx.db, accountCode.rewards(inviter.id))).toBe(rewards);
  const stored = await ctx.db
    .select({
      platId: rebates.platId,
      uid: rebates.uid,
      periodStart: rebates.periodStart,
      status: rebates.status,
    })
    .from(rebates)
    .where(like(rebates.uid, `P${run}X%`));
  const describe = (record: { platId: number; uid: string; periodStart: number; status: string }) =>
    `${record.platId}:${record.uid}:${new Date(record.periodStart).toISOString()}:${record.status}`;
  expect(
    stored.map((record) => describe({ ...record, periodStart: record.periodStart.getTime() })).sort(),
  ).toEqual(records.map(describe).sort());
}

describe('the ledger under random sequences of imports, settlements and bindings', () => {
  it('keeps every invariant and matches the model', async () => {
    await fc.assert(fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 14 }), runSequence), {
      numRuns: 25,
    });
  });

  it('credits nothing for a repeated import, in any order of repeats', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: SLOTS - 1 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 2, max: 4 }),
        async (slots, repeats) => {
          run += 1;
          const uid = `DUP${run}`;
          ctx.clock.set(new Date(T0));
          await ingestReferrals(ctx.deps, BITGET, [{ uid, registeredAt: new Date(T0 - 100 * DAY_MS) }], api);
          const rows = slots.map((slot) => ({
            uid,
            periodStart: new Date(T0 - (SLOTS + 2 - slot) * DAY_MS),
            periodEnd: new Date(T0 - (SLOTS + 1 - slot) * DAY_MS),
            tradingVolumeMicro: 1n,
            feeMicro: 2_000_000n + BigInt(slot),
            commissionMicro: 10_000_000n,
          }));
          await ingestRebates(ctx.deps, BITGET, rows, api);
          const once = await balanceOf(ctx.db, accountCode.cashback(BITGET, uid));
          for (let repeat = 1; repeat < repeats; repeat += 1) {
            const again = await ingestRebates(ctx.deps, BITGET, [...rows].reverse(), api);
            expect(again.inserted).toBe(0);
            expect(again.settled).toBe(0);
          }
          expect(await balanceOf(ctx.db, accountCode.cashback(BITGET, uid))).toBe(once);
          expect(once).toBeGreaterThan(0n);
        },
      ),
      { numRuns: 10 },
    );
    expect(await checkAllInvariants(ctx.db)).toEqual([]);
  });
});
