import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCall, type Caller, newMember, newOperator } from '../modules/admin/test-support.js';
import { call } from '../modules/auth/test-support.js';
import type { CashbackTestContext as TestContext } from '../modules/cashback/test-support.js';
import { createSupportRequest, replyToOwnRequest } from '../modules/support/support.service.js';
import { fundedMember, registerMember, type TestMember } from '../modules/withdrawals/test-support.js';
import {
  type MemberInstances,
  notificationsSettled,
  openMemberInstances,
  QUIET,
  readersOf,
  writeUntold,
} from '../test/member-instances.js';

/**
 * /elex/support/list (pages 1 to 3) kept per process, evicted by the database's notifications
 * (migration 0059_member_notify_support): two app instances on one database, each kind of change to
 * what the list shows (a request opened, the member's reply, an operator's reply, a close, a change
 * or a deletion by hand) made through one seen through it at once and through the other right after;
 * a change with its notifying trigger off stays unseen (kept); a fourth page and MEMBER_CACHE=off
 * read every time. The same for /elex/user/seeAdjustments (its corrections' trigger in the same
 * migration; a posted correction's ledger lines notify too, 0028/0055).
 */

interface Summary {
  id: string;
  kind: string;
  status: string;
  resolution: string | null;
  updatedAt: string;
}
interface SupportList {
  records: Summary[];
  total: number;
}

async function content<T>(response: Promise<{ json(): unknown }>): Promise<T> {
  const body = (await response).json() as { state: number; content: T };
  expect(body.state, JSON.stringify(body)).toBe(0);
  return body.content;
}

const listOf = (ctx: TestContext, member: Caller, query: Record<string, unknown> = {}) =>
  content<SupportList>(
    call(ctx, '/elex/support/list', { page: 1, pageSize: 20, ...query }, { token: member.token }),
  );

for (const cache of ['on', 'off'] as const) {
  describe(`supportList with MEMBER_CACHE=${cache}`, () => {
    let instances: MemberInstances;
    let a: TestContext;
    let b: TestContext;
    let operator: Caller;
    const kept = cache === 'on';

    beforeAll(async () => {
      instances = await openMemberInstances(2, kept ? QUIET : { ...QUIET, enabled: false });
      [a, b] = instances.contexts as unknown as [TestContext, TestContext];
      operator = await newOperator(a);
    });
    afterAll(() => instances.close());

    const { seenByBoth, readOnBoth } = readersOf<TestContext>(() => [a, b]);

    /** A request of kind 'other' opened by `member` through A (the service, past the route's rate limit). */
    async function openRequest(member: Caller, text = 'Where is my cashback?') {
      instances.clock.advance(1_000);
      const summary = await createSupportRequest(a.deps, member.userId, { kind: 'other', text });
      return summary.id;
    }

    it('a request opened through A shows on A at once and on B right after (pages 1 and 2)', async () => {
      const member = await newMember(a, 'support');
      await openRequest(member);
      expect((await readOnBoth((ctx) => listOf(ctx, member))).total).toBe(1);
      await readOnBoth((ctx) => listOf(ctx, member, { page: 2, pageSize: 1 }));
      const id = await openRequest(member);
      await seenByBoth(
        (ctx) => listOf(ctx, member),
        (list) => list.total === 2 && list.records[0]?.id === id && list.records[0]?.status === 'open',
      );
      await seenByBoth(
        (ctx) => listOf(ctx, member, { page: 2, pageSize: 1 }),
        (list) => list.total === 2 && list.records[0]?.id !== id,
      );
    });

    it("an operator's reply, the member's reply and a close show on A at once and on B right after", async () => {
      const member = await newMember(a, 'support');
      const older = await openRequest(member);
      const id = await openRequest(member);
      const newer = await openRequest(member);
      expect((await readOnBoth((ctx) => listOf(ctx, member))).records.map((r) => r.id)).toEqual([
        newer,
        id,
        older,
      ]);
      instances.clock.advance(1_000);
      expect(await adminCall(a, operator, 'support/reply', { id, text: 'Which exchange?' })).toMatchObject({
        state: 0,
      });
      await seenByBoth(
        (ctx) => listOf(ctx, member),
        (list) => list.records[0]?.id === id && list.records[0]?.status === 'answered',
      );
      instances.clock.advance(1_000);
      await replyToOwnRequest(a.deps, member.userId, { id: Number(older), text: 'Any news?' });
      await seenByBoth(
        (ctx) => listOf(ctx, member),
        (list) => list.records[0]?.id === older && list.records[0]?.status === 'open',
      );
      instances.clock.advance(1_000);
      expect(await adminCall(a, operator, 'support/close', { id, text: 'Solved.' })).toMatchObject({
        state: 0,
      });
      await seenByBoth(
        (ctx) => listOf(ctx, member),
        (list) =>
          list.records[0]?.id === id &&
          list.records[0]?.status === 'closed' &&
          list.records[0]?.resolution === 'closed',
      );
    });

    it("a request changed, moved to another member or deleted by hand (psql) shows in both members' lists on A at once and on B right after", async () => {
      const member = await newMember(a, 'support');
      const other = await newMember(a, 'support');
      const id = await openRequest(member);
      await readOnBoth((ctx) => listOf(ctx, member));
      await readOnBoth((ctx) => listOf(ctx, other));
      await a.db.execute(sql`update support_requests set kind = 'account' where id = ${id}`);
      await seenByBoth(
        (ctx) => listOf(ctx, member),
        (list) => list.records[0]?.kind === 'account',
      );
      await a.db.execute(sql`update support_requests set user_id = ${other.userId} where id = ${id}`);
      await seenByBoth(
        (ctx) => listOf(ctx, member),
        (list) => list.total === 0,
      );
      await seenByBoth(
        (ctx) => listOf(ctx, other),
        (list) => list.total === 1 && list.records[0]?.id === id,
      );
      await a.db.transaction(async (tx) => {
        await tx.execute(sql`delete from support_messages where request_id = ${id}`);
        await tx.execute(sql`delete from support_requests where id = ${id}`);
      });
      await seenByBoth(
        (ctx) => listOf(ctx, other),
        (list) => list.total === 0,
      );
    });

    it(`a request changed with its trigger off is ${kept ? 'not seen (kept)' : 'seen at once'}`, async () => {
      const member = await newMember(a, 'support');
      const id = await openRequest(member);
      await notificationsSettled();
      const before = await readOnBoth((ctx) => listOf(ctx, member));
      expect(before.records[0]?.status).toBe('open');
      await writeUntold(a, 'support_requests', 'support_requests_notify_updated', (tx) =>
        tx.execute(sql`update support_requests set status = 'answered', kind = 'account' where id = ${id}`),
      );
      for (const ctx of [a, b]) {
        const now = await listOf(ctx, member);
        expect(now.records[0]?.status).toBe(kept ? 'open' : 'answered');
        expect(now.records[0]?.kind).toBe(kept ? 'other' : 'account');
      }
    });

    it('a fourth page is read every time', async () => {
      const member = await newMember(a, 'support');
      const ids: string[] = [];
      for (let n = 0; n < 5; n += 1) ids.push(await openRequest(member));
      // Newest first: the fourth of one each a page is the second opened.
      const fourth = ids[1] as string;
      const deep = await readOnBoth((ctx) => listOf(ctx, member, { page: 4, pageSize: 1 }));
      expect(deep.records[0]?.id).toBe(fourth);
      await writeUntold(a, 'support_requests', 'support_requests_notify_updated', (tx) =>
        tx.execute(sql`update support_requests set kind = 'withdrawal' where id = ${fourth}`),
      );
      for (const ctx of [a, b]) {
        expect((await listOf(ctx, member, { page: 4, pageSize: 1 })).records[0]?.kind).toBe('withdrawal');
      }
    });
  });
}

interface Adjustments {
  records: { id: string; account: string; uid: string | null; amount: string; reason: string }[];
  total: number;
}

const adjustmentsOf = (
  ctx: TestContext,
  member: Pick<TestMember, 'token'>,
  query: Record<string, unknown> = {},
) =>
  content<Adjustments>(
    call(ctx, '/elex/user/seeAdjustments', { page: 1, pageSize: 20, ...query }, { token: member.token }),
  );

for (const cache of ['on', 'off'] as const) {
  describe(`seeAdjustments with MEMBER_CACHE=${cache}`, () => {
    let instances: MemberInstances;
    let a: TestContext;
    let b: TestContext;
    let alice: Caller;
    let bob: Caller;
    const kept = cache === 'on';

    beforeAll(async () => {
      instances = await openMemberInstances(2, kept ? QUIET : { ...QUIET, enabled: false });
      [a, b] = instances.contexts as unknown as [TestContext, TestContext];
      alice = await newOperator(a);
      bob = await newOperator(a);
    });
    afterAll(() => instances.close());

    const { seenByBoth, readOnBoth } = readersOf<TestContext>(() => [a, b]);

    const propose = async (body: object) => {
      instances.clock.advance(1_000);
      const answer = await adminCall(a, alice, 'corrections/propose', body);
      expect(answer.state, JSON.stringify(answer)).toBe(0);
      return answer.content as { id: number; status: string };
    };
    const onUid = (member: TestMember, amount: string, reason: string) =>
      propose({
        userId: member.userId,
        account: 'cashback',
        platId: member.platId,
        uid: member.uid,
        amount,
        reason,
      });

    it("a correction posted at once (the UID's and the rewards') shows on A at once and on B right after", async () => {
      const member = await fundedMember(a, { cashback: '0' });
      expect((await readOnBoth((ctx) => adjustmentsOf(ctx, member))).total).toBe(0);
      await readOnBoth((ctx) => adjustmentsOf(ctx, member, { account: 'cashback', page: 2, pageSize: 1 }));
      await readOnBoth((ctx) => adjustmentsOf(ctx, member, { platId: member.platId, uid: member.uid }));
      expect((await onUid(member, '2.5', 'Missed rebate')).status).toBe('posted');
      await seenByBoth(
        (ctx) => adjustmentsOf(ctx, member),
        (list) => list.total === 1 && list.records[0]?.amount === '2.500000',
      );
      await seenByBoth(
        (ctx) => adjustmentsOf(ctx, member, { platId: member.platId, uid: member.uid }),
        (list) => list.total === 1,
      );
      await seenByBoth(
        (ctx) => adjustmentsOf(ctx, member, { account: 'cashback', page: 2, pageSize: 1 }),
        (list) => list.total === 1 && list.records.length === 0,
      );
      expect(
        (await propose({ userId: member.userId, account: 'rewards', amount: '1', reason: 'Event prize' }))
          .status,
      ).toBe('posted');
      await seenByBoth(
        (ctx) => adjustmentsOf(ctx, member),
        (list) => list.total === 2 && list.records[0]?.account === 'rewards',
      );
    });

    it('a correction approved by a second operator shows on A at once and on B right after', async () => {
      const member = await fundedMember(a, { cashback: '0' });
      const pending = await onUid(member, '500', 'Large missed rebate');
      expect(pending.status).toBe('pending');
      expect((await readOnBoth((ctx) => adjustmentsOf(ctx, member))).total).toBe(0);
      instances.clock.advance(1_000);
      expect(await adminCall(a, bob, 'corrections/approve', { id: pending.id })).toMatchObject({ state: 0 });
      await seenByBoth(
        (ctx) => adjustmentsOf(ctx, member),
        (list) => list.total === 1 && list.records[0]?.amount === '500.000000',
      );
    });

    it('a pending correction marked posted by hand (psql, no ledger lines) shows on A at once and on B right after', async () => {
      const member = await fundedMember(a, { cashback: '0' });
      const pending = await onUid(member, '300', 'Hand repair');
      expect((await readOnBoth((ctx) => adjustmentsOf(ctx, member))).total).toBe(0);
      await a.db.execute(sql`
        update corrections set status = 'posted', decided_at = now(), decided_by = 'psql',
          journal_id = (select min(id) from ledger_journals)
        where id = ${pending.id}`);
      await seenByBoth(
        (ctx) => adjustmentsOf(ctx, member),
        (list) => list.total === 1 && list.records[0]?.reason === 'Hand repair',
      );
    });

    it("the UID's binding ended, and bound by the next member, shows in both members' lists on A at once and on B right after", async () => {
      const member = await fundedMember(a, { cashback: '0' });
      await onUid(member, '3', 'Missed rebate');
      expect((await readOnBoth((ctx) => adjustmentsOf(ctx, member))).total).toBe(1);
      const next = await registerMember(a);
      await readOnBoth((ctx) => adjustmentsOf(ctx, next));
      await a.db.execute(sql`
        update exchange_bindings set unbound_at = now(), unbind_reason = 'operator'
        where uid = ${member.uid} and unbound_at is null`);
      await seenByBoth(
        (ctx) => adjustmentsOf(ctx, member),
        (list) => list.total === 0,
      );
      await a.db.execute(sql`
        insert into exchange_bindings (user_id, plat_id, uid, address, bound_at)
        values (${next.userId}, ${member.platId}, ${member.uid}, '0x52908400098527886E0F7030069857D2E4169EE7', now())`);
      await seenByBoth(
        (ctx) => adjustmentsOf(ctx, next),
        (list) => list.total === 1,
      );
    });

    it(`a correction posted with its notifying triggers off is ${kept ? 'not seen (kept)' : 'seen at once'}; a fourth page is read every time`, async () => {
      const member = await fundedMember(a, { cashback: '0' });
      for (let n = 0; n < 5; n += 1) await onUid(member, '1', `Rebate ${n}`);
      const pending = await onUid(member, '400', 'Untold');
      await notificationsSettled();
      expect((await readOnBoth((ctx) => adjustmentsOf(ctx, member))).total).toBe(5);
      const deep = await readOnBoth((ctx) => adjustmentsOf(ctx, member, { page: 4, pageSize: 1 }));
      expect(deep.total).toBe(5);
      await writeUntold(a, 'corrections', 'corrections_notify_updated', (tx) =>
        tx.execute(sql`
          update corrections set status = 'posted', decided_at = now(), decided_by = 'psql',
            journal_id = (select min(id) from ledger_journals)
          where id = ${pending.id}`),
      );
      for (const ctx of [a, b]) {
        expect((await adjustmentsOf(ctx, member)).total).toBe(kept ? 5 : 6);
        expect((await adjustmentsOf(ctx, member, { page: 4, pageSize: 1 })).total).toBe(6);
      }
    });
  });
}
