import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointsEntries, users } from '../../db/schema.js';
import { call, createAccountsTestApp, nextEmail, signUp, type TestContext } from '../auth/test-support.js';
import { balances, grantPoints, hasEntry } from './points.service.js';

let ctx: TestContext;
let userId: number;
beforeAll(async () => {
  ctx = await createAccountsTestApp();
  const email = nextEmail('points');
  await signUp(ctx, email);
  const [user] = await ctx.db.select().from(users).where(eq(users.email, email));
  userId = user?.id ?? 0;
});
afterAll(() => ctx.close());

describe('the points ledger', () => {
  it('books a grant once, whatever the retries', async () => {
    const grant = {
      userId,
      currency: 'points',
      amount: 10,
      reason: 'checkIn',
      reference: '2026-01-15',
      at: ctx.clock.now(),
    } as const;
    expect(await grantPoints(ctx.db, grant)).toBe(true);
    expect(await grantPoints(ctx.db, grant)).toBe(false);
    const concurrent = await Promise.all(
      [1, 2, 3].map(() => grantPoints(ctx.db, { ...grant, reference: '2026-01-16' })),
    );
    expect(concurrent.filter(Boolean)).toHaveLength(1);
    expect(await hasEntry(ctx.db, grant)).toBe(true);
    expect(await balances(ctx.db, userId)).toEqual({ points: 20, xme: 0 });
  });

  it('sums each currency apart, spends included', async () => {
    await grantPoints(ctx.db, {
      userId,
      currency: 'xme',
      amount: 1000,
      reason: 'exclusiveSignup',
      reference: 'signup',
      at: ctx.clock.now(),
    });
    await grantPoints(ctx.db, {
      userId,
      currency: 'points',
      amount: -5,
      reason: 'spend',
      reference: 'order-1',
      at: ctx.clock.now(),
    });
    expect(await balances(ctx.db, userId)).toEqual({ points: 15, xme: 1000 });
    expect(await balances(ctx.db, 999_999)).toEqual({ points: 0, xme: 0 });
  });

  it('refuses a zero or fractional amount', async () => {
    for (const amount of [0, 1.5]) {
      await expect(
        grantPoints(ctx.db, {
          userId,
          currency: 'points',
          amount,
          reason: 'bad',
          reference: String(amount),
          at: ctx.clock.now(),
        }),
      ).rejects.toThrow(/non-zero integer/);
    }
  });

  it('refuses to update, delete or truncate an entry (append-only, enforced by the database)', async () => {
    await expect(
      ctx.db.update(pointsEntries).set({ amount: 1_000_000 }).where(eq(pointsEntries.userId, userId)),
    ).rejects.toThrow();
    await expect(ctx.db.delete(pointsEntries).where(eq(pointsEntries.userId, userId))).rejects.toThrow();
    await expect(ctx.db.execute(sql`truncate points_entries`)).rejects.toThrow();
    expect(await balances(ctx.db, userId)).toEqual({ points: 15, xme: 1000 });
  });

  it('refuses an unknown currency', async () => {
    await expect(
      ctx.db.execute(sql`insert into points_entries (user_id, currency, amount, reason, reference, created_at)
        values (${userId}, 'usdt', 1, 'x', 'y', now())`),
    ).rejects.toThrow();
  });
});

describe('/elex/activity/pointsHistory', () => {
  it('pages the entries newest first under the currency filter, with both balances over all entries', async () => {
    const email = nextEmail('history');
    const token = await signUp(ctx, email);
    const [member] = await ctx.db.select().from(users).where(eq(users.email, email));
    const memberId = member?.id ?? 0;
    const start = ctx.clock.now().getTime();
    const at = (minutes: number) => new Date(start + minutes * 60_000);
    // Four check-ins and an XME grant and spend, one task entry whose task has a threshold.
    for (const [index, day] of ['2026-02-01', '2026-02-02', '2026-02-03', '2026-02-04'].entries())
      await grantPoints(ctx.db, {
        userId: memberId,
        currency: 'points',
        amount: 5,
        reason: 'checkIn',
        reference: day,
        at: at(index + 1),
      });
    await grantPoints(ctx.db, {
      userId: memberId,
      currency: 'xme',
      amount: 300,
      reason: 'xmeBonus',
      reference: 'a',
      at: at(5),
    });
    await grantPoints(ctx.db, {
      userId: memberId,
      currency: 'xme',
      amount: -100,
      reason: 'xmeSpend',
      reference: 'b',
      at: at(6),
    });
    await grantPoints(ctx.db, {
      userId: memberId,
      currency: 'points',
      amount: 200,
      reason: 'task',
      reference: 'tradeTier1',
      at: at(7),
      thresholdMicro: 12_500_000_000n,
    });
    const history = async (body: object) =>
      (await call(ctx, '/elex/activity/pointsHistory', body, { token })).json().content;

    const all = await history({ page: 1, pageSize: 3 });
    expect(all).toMatchObject({ total: 7, page: 1, pageSize: 3, points: 220, xmeEnergy: 200 });
    expect(all.entries.map((entry: { reason: string }) => entry.reason)).toEqual([
      'task',
      'xmeSpend',
      'xmeBonus',
    ]);
    const [task] = all.entries;
    expect(task.reference).toBe('tradeTier1');
    // The threshold the entry was booked with, not the tier's current one (10,000).
    expect(task.task).toEqual({ kind: 'tradingVolume', threshold: '12500.000000' });
    // Internal references stay hidden; a check-in shows its day.
    expect(all.entries[1].reference).toBeNull();

    const points = await history({ currency: 'points', page: 2, pageSize: 3 });
    expect(points).toMatchObject({ total: 5, points: 220, xmeEnergy: 200 });
    expect(points.entries.map((entry: { reference: string }) => entry.reference)).toEqual([
      '2026-02-02',
      '2026-02-01',
    ]);

    const xme = await history({ currency: 'xme', page: 1, pageSize: 20 });
    expect(xme.total).toBe(2);
    expect(xme.entries.map((entry: { amount: number }) => entry.amount)).toEqual([-100, 300]);
    // A page past the end is empty but still counts and sums.
    expect(await history({ currency: 'xme', page: 3, pageSize: 20 })).toMatchObject({
      entries: [],
      total: 2,
      xmeEnergy: 200,
    });
  });
});
