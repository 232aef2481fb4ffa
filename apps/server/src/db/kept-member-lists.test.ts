import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signUp, type TestContext } from '../modules/auth/test-support.js';
import type { CashbackTestContext } from '../modules/cashback/test-support.js';
import { grantPoints } from '../modules/points/points.service.js';
import { applyDeposit, fundedMember, ownCode, type TestMember } from '../modules/withdrawals/test-support.js';
import {
  type MemberInstances,
  memberOf,
  notificationsSettled,
  openMemberInstances,
  QUIET,
  readersOf,
  writeUntold,
} from '../test/member-instances.js';

/**
 * pointsHistory and depositRecord (pages 1 to 3) and signHistory kept per process, evicted by the database's
 * notifications (migrations 0051 and 0054_member_notify_lists): two app instances on one database, a
 * change made through one seen through it at once and through the other right after; a new UTC day
 * shows with nothing written; a change with the notifying trigger off stays unseen (they are kept);
 * a deeper page and MEMBER_CACHE=off read every time.
 */

const DAY_MS = 24 * 60 * 60_000;

interface PointsPage {
  entries: { reason: string; reference: string | null; amount: number; task: { kind: string } | null }[];
  total: number;
  points: number;
  xmeEnergy: number;
}
interface Calendar {
  today: string;
  signedDays: string[];
  isSignToday: boolean;
  streak: number;
}

async function content<T>(response: Promise<{ json(): unknown }>): Promise<T> {
  const body = (await response).json() as { state: number; content: T };
  expect(body.state, JSON.stringify(body)).toBe(0);
  return body.content;
}

interface Deposits {
  records: {
    id: string;
    status: string;
    payout: { stage: string; txHash: string; confirmations: number } | null;
  }[];
  total: number;
}

const deposits = (ctx: TestContext, token: string, query: Record<string, unknown> = {}) =>
  content<Deposits>(
    call(ctx, '/elex/exchange/depositRecord', { page: 1, pageSize: 20, ...query }, { token }),
  );

const HASH = (digit: string) => `0x${digit.repeat(64)}`;
let nonce = 0;

/** A payout of `withdrawalId` signed now (as the sender writes it), answering its id. */
async function signPayout(ctx: TestContext, withdrawalId: string): Promise<number> {
  nonce += 1;
  const rows = await ctx.db.execute<{ id: string }>(sql`
    insert into payouts (withdrawal_id, chain_id, from_address, nonce, to_address, token_address, amount_micro,
      state, sent_via, created_at, updated_at)
    values (${Number(withdrawalId)}, 137, '0x1111111111111111111111111111111111111111', ${nonce},
      '0x2222222222222222222222222222222222222222', '0x3333333333333333333333333333333333333333', 1000000,
      'signed', 'cli', now(), now())
    returning id`);
  const first = (Array.isArray(rows) ? rows : (rows as { rows: { id: string }[] }).rows)[0];
  return Number(first?.id);
}

const history = (ctx: TestContext, token: string, query: Record<string, unknown> = {}) =>
  content<PointsPage>(
    call(ctx, '/elex/activity/pointsHistory', { page: 1, pageSize: 20, ...query }, { token }),
  );
const calendar = (ctx: TestContext, token: string, month?: string) =>
  content<Calendar>(call(ctx, '/elex/activity/signHistory', month ? { month } : {}, { token }));

async function grant(ctx: TestContext, userId: number, reason: string, reference: string) {
  await grantPoints(ctx.db, {
    userId,
    currency: 'points',
    amount: 7,
    reason,
    reference,
    at: ctx.clock.now(),
  });
}

/** A points entry added with its notifying trigger off: a change no cache is told of. */
async function grantUntold(ctx: TestContext, userId: number, reason: string, reference: string) {
  await writeUntold(ctx, 'points_entries', 'points_entries_notify_inserted', (tx) =>
    grantPoints(tx, { userId, currency: 'points', amount: 1, reason, reference, at: ctx.clock.now() }),
  );
}

for (const cache of ['on', 'off'] as const) {
  describe(`pointsHistory and signHistory with MEMBER_CACHE=${cache}`, () => {
    let instances: MemberInstances;
    let a: TestContext;
    let b: TestContext;
    let cashA: CashbackTestContext;
    const kept = cache === 'on';

    beforeAll(async () => {
      instances = await openMemberInstances(2, kept ? QUIET : { ...QUIET, enabled: false });
      [a, b] = instances.contexts as unknown as [TestContext, TestContext];
      [cashA] = instances.contexts as [CashbackTestContext];
    });
    afterAll(() => instances.close());

    const { seenByBoth, readOnBoth } = readersOf<TestContext>(() => [a, b]);

    it('a check-in through A shows in signHistory and pointsHistory on A at once and on B right after', async () => {
      const token = await signUp(a);
      const month = instances.clock.now().toISOString().slice(0, 7);
      const before = await readOnBoth((ctx) => calendar(ctx, token));
      expect(before).toMatchObject({ isSignToday: false, streak: 0, signedDays: [] });
      await readOnBoth((ctx) => calendar(ctx, token, month));
      const points = await readOnBoth((ctx) => history(ctx, token));
      await readOnBoth((ctx) => history(ctx, token, { currency: 'points', pageSize: 5 }));

      const signed = await call(a, '/elex/activity/sign', {}, { token });
      expect(signed.json()).toMatchObject({ state: 0 });

      await seenByBoth(
        (ctx) => calendar(ctx, token),
        (c) => c.isSignToday && c.streak === 1 && c.signedDays.includes(c.today),
      );
      await seenByBoth(
        (ctx) => calendar(ctx, token, month),
        (c) => c.signedDays.length === 1,
      );
      await seenByBoth(
        (ctx) => history(ctx, token),
        (p) => p.total === points.total + 1 && p.entries[0]?.reason === 'checkIn' && p.points > points.points,
      );
      await seenByBoth(
        (ctx) => history(ctx, token, { currency: 'points', pageSize: 5 }),
        (p) => p.entries.some((e) => e.reason === 'checkIn'),
      );
    });

    it('a new UTC day shows in signHistory with nothing written', async () => {
      const token = await signUp(a);
      expect((await call(a, '/elex/activity/sign', {}, { token })).json()).toMatchObject({ state: 0 });
      const today = await readOnBoth((ctx) => calendar(ctx, token));
      expect(today).toMatchObject({ isSignToday: true, streak: 1 });
      instances.clock.advance(DAY_MS);
      await seenByBoth(
        (ctx) => calendar(ctx, token),
        // Yesterday's run still counts while today's check-in is open.
        (c) => c.today !== today.today && !c.isSignToday && c.streak === 1,
      );
    });

    it("a task definition's new kind shows in pointsHistory on A at once and on B right after", async () => {
      const token = await signUp(a);
      const userId = await memberOf(a, token);
      await grant(a, userId, 'task', 'discord');
      const before = await readOnBoth((ctx) => history(ctx, token));
      expect(before.entries.find((e) => e.reason === 'task')?.task?.kind).toBe('discord');
      try {
        await a.db.execute(sql`update task_definitions set kind = 'telegram' where id = 'discord'`);
        await seenByBoth(
          (ctx) => history(ctx, token),
          (p) => p.entries.find((e) => e.reason === 'task')?.task?.kind === 'telegram',
        );
      } finally {
        await a.db.execute(sql`update task_definitions set kind = 'discord' where id = 'discord'`);
      }
    });

    it(`a points entry or a check-in added with its trigger off is ${kept ? 'not seen (kept)' : 'seen at once'}`, async () => {
      const token = await signUp(a);
      const userId = await memberOf(a, token);
      await notificationsSettled();
      const points = await readOnBoth((ctx) => history(ctx, token));
      const days = await readOnBoth((ctx) => calendar(ctx, token));
      await grantUntold(a, userId, 'untold', 'one');
      await writeUntold(a, 'check_ins', 'check_ins_notify_inserted', (tx) =>
        tx.execute(
          sql`insert into check_ins (user_id, day, points, created_at) values (${userId}, ${days.today}::date, 1, now())`,
        ),
      );
      for (const ctx of [a, b]) {
        expect((await history(ctx, token)).total).toBe(kept ? points.total : points.total + 1);
        expect((await calendar(ctx, token)).isSignToday).toBe(!kept);
      }
    });

    /** A member with 200 USDT of cashback and a withdrawal of 60 under review, both made through A. */
    async function withdrawing(): Promise<{ member: TestMember; id: string }> {
      const member = await fundedMember(cashA, { cashback: '200' });
      await readOnBoth((ctx) => deposits(ctx, member.token));
      const applied = await applyDeposit(cashA, member, {
        amount: '60',
        authCode: await ownCode(cashA, member),
      });
      expect(applied, JSON.stringify(applied)).toMatchObject({ state: 0 });
      return { member, id: applied.content?.id ?? '' };
    }

    it('a withdrawal requested and cancelled through A shows in depositRecord on A at once and on B right after', async () => {
      const { member, id } = await withdrawing();
      await seenByBoth(
        (ctx) => deposits(ctx, member.token),
        (d) => d.total === 1 && d.records[0]?.id === id && d.records[0]?.status === 'pending',
      );
      await readOnBoth((ctx) => deposits(ctx, member.token, { status: 'pending' }));
      const cancelled = await call(a, '/elex/user/cancelDeposit', { id }, { token: member.token });
      expect(cancelled.json()).toMatchObject({ state: 0 });
      await seenByBoth(
        (ctx) => deposits(ctx, member.token),
        (d) => d.records[0]?.status !== 'pending',
      );
      await seenByBoth(
        (ctx) => deposits(ctx, member.token, { status: 'pending' }),
        (d) => d.total === 0,
      );
    });

    it('a decision written without a ledger line (psql) shows in depositRecord on A at once and on B right after', async () => {
      const { member, id } = await withdrawing();
      await readOnBoth((ctx) => deposits(ctx, member.token));
      await a.db.execute(sql`
        update withdrawals set status = 'failed', decided_at = now(), decided_via = 'cli', failure_reason = 'test'
        where id = ${Number(id)}`);
      await seenByBoth(
        (ctx) => deposits(ctx, member.token),
        (d) => d.records[0]?.status === 'failed',
      );
    });

    it('a payout signed, its attempt, its mining and its confirmation show in depositRecord on A at once and on B right after', async () => {
      const { member, id } = await withdrawing();
      await readOnBoth((ctx) => deposits(ctx, member.token));
      const payout = await signPayout(a, id);
      await seenByBoth(
        (ctx) => deposits(ctx, member.token),
        (d) => d.records[0]?.payout?.stage === 'sent' && d.records[0]?.payout?.txHash === '',
      );
      await a.db.execute(sql`
        insert into payout_attempts (payout_id, tx_hash, raw_tx, gas_limit, max_fee_per_gas, max_priority_fee_per_gas, created_at)
        values (${payout}, ${HASH('a')}, '0x00', 60000, 1, 1, now())`);
      await seenByBoth(
        (ctx) => deposits(ctx, member.token),
        (d) => d.records[0]?.payout?.txHash === HASH('a'),
      );
      await a.db.execute(
        sql`update payouts set state = 'mined', mined_hash = ${HASH('b')}, confirmations = 1 where id = ${payout}`,
      );
      await seenByBoth(
        (ctx) => deposits(ctx, member.token),
        (d) => d.records[0]?.payout?.stage === 'confirming' && d.records[0]?.payout?.txHash === HASH('b'),
      );
      await a.db.execute(
        sql`update payouts set state = 'confirmed', finished_at = now() where id = ${payout}`,
      );
      await seenByBoth(
        (ctx) => deposits(ctx, member.token),
        (d) => d.records[0]?.payout?.stage === 'completed',
      );
    });

    it(`a payout confirmed with its trigger off is ${kept ? 'not seen (kept)' : 'seen at once'}`, async () => {
      const { member, id } = await withdrawing();
      const payout = await signPayout(a, id);
      await a.db.execute(
        sql`update payouts set state = 'mined', mined_hash = ${HASH('c')}, confirmations = 1 where id = ${payout}`,
      );
      await notificationsSettled();
      const before = await readOnBoth((ctx) => deposits(ctx, member.token));
      expect(before.records[0]?.payout?.stage).toBe('confirming');
      await writeUntold(a, 'payouts', 'payouts_notify_updated', (tx) =>
        tx.execute(sql`update payouts set state = 'confirmed', finished_at = now() where id = ${payout}`),
      );
      for (const ctx of [a, b]) {
        expect((await deposits(ctx, member.token)).records[0]?.payout?.stage).toBe(
          kept ? 'confirming' : 'completed',
        );
      }
    });

    it('a page past the third is read every time', async () => {
      const token = await signUp(a);
      const userId = await memberOf(a, token);
      for (const reference of ['1', '2', '3', '4']) await grant(a, userId, 'filler', reference);
      const deep = await readOnBoth((ctx) => history(ctx, token, { page: 5, pageSize: 1 }));
      await grantUntold(a, userId, 'filler', '5');
      for (const ctx of [a, b])
        expect((await history(ctx, token, { page: 5, pageSize: 1 })).total).toBe(deep.total + 1);
    });
  });
}
