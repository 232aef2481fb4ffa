import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCall, type Caller, newMember, newOperator } from '../modules/admin/test-support.js';
import { call } from '../modules/auth/test-support.js';
import type { CashbackTestContext as TestContext } from '../modules/cashback/test-support.js';
import { createSupportRequest, replyToOwnRequest } from '../modules/support/support.service.js';
import {
  eventually,
  type MemberInstances,
  notificationsSettled,
  openMemberInstances,
  QUIET,
  writeUntold,
} from '../test/member-instances.js';

/**
 * /elex/support/list (pages 1 to 3) kept per process, evicted by the database's notifications
 * (migration 0059_member_notify_support): two app instances on one database, each kind of change to
 * what the list shows (a request opened, the member's reply, an operator's reply, a close, a change
 * or a deletion by hand) made through one seen through it at once and through the other right after;
 * a change with its notifying trigger off stays unseen (kept); a fourth page and MEMBER_CACHE=off
 * read every time.
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

    /** `read`'s answer through A satisfies `check` now, and through B right after. */
    async function seenByBoth<T>(read: (ctx: TestContext) => Promise<T>, check: (value: T) => boolean) {
      const onA = await read(a);
      expect(check(onA), JSON.stringify(onA)).toBe(true);
      const onB = await eventually(() => read(b), check);
      expect(check(onB), JSON.stringify(onB)).toBe(true);
    }

    /** Reads through both instances, so each keeps the answer. */
    async function readOnBoth<T>(read: (ctx: TestContext) => Promise<T>): Promise<T> {
      const onA = await read(a);
      expect(await read(b)).toEqual(onA);
      return onA;
    }

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
