import { and, eq, sql } from 'drizzle-orm';
import { builtOnce } from '../../db/built-once.js';
import type { Executor } from '../../db/client.js';
import { pointsEntries } from './points.tables.js';

export type PointsCurrency = 'points' | 'xme';

export interface PointsGrant {
  userId: number;
  currency: PointsCurrency;
  /** Positive for a grant, negative for a spend; never zero. */
  amount: number;
  /** What the entry is for, e.g. 'exclusiveSignup', 'checkIn'. */
  reason: string;
  /** What makes it unique within the reason, e.g. 'signup', a day, a task id. */
  reference: string;
  at: Date;
  /** A trade task's claim: the threshold it was claimed under, micro-USDT (its history label). */
  thresholdMicro?: bigint | null;
}

/**
 * Books an entry once: a second grant with the same (user, currency, reason, reference) is ignored,
 * so retries and concurrent requests cannot pay twice. Answers whether this call booked it.
 */
export async function grantPoints(tx: Executor, grant: PointsGrant): Promise<boolean> {
  if (!Number.isInteger(grant.amount) || grant.amount === 0) {
    throw new Error(`a points entry needs a non-zero integer amount, got ${grant.amount}`);
  }
  const rows = await tx
    .insert(pointsEntries)
    .values({
      userId: grant.userId,
      currency: grant.currency,
      amount: grant.amount,
      reason: grant.reason,
      reference: grant.reference,
      createdAt: grant.at,
      thresholdMicro: grant.thresholdMicro ?? null,
    })
    .onConflictDoNothing()
    .returning({ id: pointsEntries.id });
  return rows.length > 0;
}

export interface Balances {
  points: number;
  xme: number;
}

/** A member's balances: the sums of the ledger. */
const balancesOf = builtOnce((db) =>
  db
    .select({
      currency: pointsEntries.currency,
      total: sql<string>`coalesce(sum(${pointsEntries.amount}), 0)`,
    })
    .from(pointsEntries)
    .where(eq(pointsEntries.userId, sql.placeholder('userId')))
    .groupBy(pointsEntries.currency)
    .prepare('points_balances'),
);

export async function balances(db: Executor, userId: number): Promise<Balances> {
  const rows = await balancesOf(db).execute({ userId });
  const result: Balances = { points: 0, xme: 0 };
  for (const row of rows) result[row.currency] = Number(row.total);
  return result;
}

/** Whether an entry exists, e.g. to show a task as claimed. */
export async function hasEntry(
  db: Executor,
  key: Pick<PointsGrant, 'userId' | 'currency' | 'reason' | 'reference'>,
): Promise<boolean> {
  const rows = await db
    .select({ id: pointsEntries.id })
    .from(pointsEntries)
    .where(
      and(
        eq(pointsEntries.userId, key.userId),
        eq(pointsEntries.currency, key.currency),
        eq(pointsEntries.reason, key.reason),
        eq(pointsEntries.reference, key.reference),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** The references of a member's entries for one reason (which tasks were claimed ...). */
export async function grantedReferences(
  db: Executor,
  userId: number,
  currency: PointsCurrency,
  reason: string,
): Promise<Set<string>> {
  const rows = await db
    .select({ reference: pointsEntries.reference })
    .from(pointsEntries)
    .where(
      and(
        eq(pointsEntries.userId, userId),
        eq(pointsEntries.currency, currency),
        eq(pointsEntries.reason, reason),
      ),
    );
  return new Set(rows.map((row) => row.reference));
}
