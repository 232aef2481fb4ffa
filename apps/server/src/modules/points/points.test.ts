import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointsEntries, users } from '../../db/schema.js';
import { createAccountsTestApp, nextEmail, signUp, type TestContext } from '../auth/test-support.js';
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
