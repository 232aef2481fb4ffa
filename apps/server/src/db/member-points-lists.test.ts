import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signUp, type TestContext } from '../modules/auth/test-support.js';
import { grantPoints } from '../modules/points/points.service.js';
import {
  eventually,
  type MemberInstances,
  memberOf,
  openMemberInstances,
  QUIET,
} from '../test/member-instances.js';

/**
 * pointsHistory (pages 1 to 3) and signHistory kept per process, evicted by the database's
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
  await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`alter table points_entries disable trigger points_entries_notify_inserted`);
    await grantPoints(tx, { userId, currency: 'points', amount: 1, reason, reference, at: ctx.clock.now() });
    await tx.execute(sql`alter table points_entries enable trigger points_entries_notify_inserted`);
  });
}

for (const cache of ['on', 'off'] as const) {
  describe(`pointsHistory and signHistory with MEMBER_CACHE=${cache}`, () => {
    let instances: MemberInstances;
    let a: TestContext;
    let b: TestContext;
    const kept = cache === 'on';

    beforeAll(async () => {
      instances = await openMemberInstances(2, kept ? QUIET : { ...QUIET, enabled: false });
      [a, b] = instances.contexts as unknown as [TestContext, TestContext];
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
      const points = await readOnBoth((ctx) => history(ctx, token));
      const days = await readOnBoth((ctx) => calendar(ctx, token));
      await grantUntold(a, userId, 'untold', 'one');
      await a.db.transaction(async (tx) => {
        await tx.execute(sql`alter table check_ins disable trigger check_ins_notify_inserted`);
        await tx.execute(
          sql`insert into check_ins (user_id, day, points, created_at) values (${userId}, ${days.today}::date, 1, now())`,
        );
        await tx.execute(sql`alter table check_ins enable trigger check_ins_notify_inserted`);
      });
      for (const ctx of [a, b]) {
        expect((await history(ctx, token)).total).toBe(kept ? points.total : points.total + 1);
        expect((await calendar(ctx, token)).isSignToday).toBe(!kept);
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
