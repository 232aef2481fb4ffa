import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { countedPage, totalOverPage } from '../../db/counted-page.js';
import {
  type DecidedVia,
  type NewWithdrawalRow,
  type WithdrawalRow,
  type WithdrawalStatusValue,
  withdrawals,
} from './withdrawals.tables.js';

/** The withdrawals module's queries; every function accepts the database or an open transaction. */

export async function findWithdrawal(db: Executor, id: number): Promise<WithdrawalRow | undefined> {
  const [row] = await db.select().from(withdrawals).where(eq(withdrawals.id, id)).limit(1);
  return row;
}

/** The withdrawal with its row locked until the transaction ends (an on-chain send holds it). */
export async function findWithdrawalForUpdate(tx: Executor, id: number): Promise<WithdrawalRow | undefined> {
  const [row] = await tx.select().from(withdrawals).where(eq(withdrawals.id, id)).limit(1).for('update');
  return row;
}

export async function findByRequestId(
  db: Executor,
  userId: number,
  requestId: string,
): Promise<WithdrawalRow | undefined> {
  const [row] = await db
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.userId, userId), eq(withdrawals.requestId, requestId)))
    .limit(1);
  return row;
}

/** Inserts the withdrawal unless the member already sent this request id; undefined when they had. */
export async function insertWithdrawalUnlessExists(
  tx: Executor,
  row: NewWithdrawalRow,
): Promise<WithdrawalRow | undefined> {
  const [inserted] = await tx
    .insert(withdrawals)
    .values(row)
    .onConflictDoNothing({ target: [withdrawals.userId, withdrawals.requestId] })
    .returning();
  return inserted;
}

export interface Decision {
  status: Exclude<WithdrawalStatusValue, 'pending'>;
  decidedAt: Date;
  decidedBy: number | null;
  decidedVia: DecidedVia;
  txHash?: string | null;
  failureReason?: string | null;
}

/**
 * Decides a pending withdrawal: `UPDATE ... WHERE status = 'pending' RETURNING`. Of two decisions
 * racing for one withdrawal, the second waits for the first's row lock, then finds it decided and
 * gets undefined. `ownerId` limits it to one member's withdrawal (a cancel).
 */
export async function decidePending(
  tx: Executor,
  id: number,
  decision: Decision,
  ownerId?: number,
): Promise<WithdrawalRow | undefined> {
  const [row] = await tx
    .update(withdrawals)
    .set({
      status: decision.status,
      decidedAt: decision.decidedAt,
      decidedBy: decision.decidedBy,
      decidedVia: decision.decidedVia,
      txHash: decision.txHash ?? null,
      failureReason: decision.failureReason ?? null,
    })
    .where(
      and(
        eq(withdrawals.id, id),
        eq(withdrawals.status, 'pending'),
        ownerId === undefined ? undefined : eq(withdrawals.userId, ownerId),
      ),
    )
    .returning();
  return row;
}

export interface PageQuery {
  status?: WithdrawalStatusValue | undefined;
  page: number;
  pageSize: number;
}

async function selectPage(
  db: Executor,
  where: SQL | undefined,
  order: SQL[],
  query: PageQuery,
  scope: 'member' | 'everyone',
): Promise<{ rows: WithdrawalRow[]; total: number }> {
  const filter = and(where, query.status ? eq(withdrawals.status, query.status) : undefined);
  const offset = (query.page - 1) * query.pageSize;
  const countAll = async () => {
    const [total] = await db.select({ value: count() }).from(withdrawals).where(filter);
    return total?.value ?? 0;
  };
  if (scope === 'everyone') {
    // The console's queue spans every member's history: a window count would read and hold every
    // matching row for each page, so the page stays an ordered scan to its limit, counted apart.
    const rows = await db
      .select()
      .from(withdrawals)
      .where(filter)
      .orderBy(...order)
      .limit(query.pageSize)
      .offset(offset);
    return { rows, total: await countAll() };
  }
  const found = await db
    .select({ row: withdrawals, total: totalOverPage() })
    .from(withdrawals)
    .where(filter)
    .orderBy(...order)
    .limit(query.pageSize)
    .offset(offset);
  return countedPage(found, offset, countAll);
}

/** A member's withdrawals, newest first. */
export function selectMemberPage(db: Executor, userId: number, query: PageQuery) {
  return selectPage(
    db,
    eq(withdrawals.userId, userId),
    [desc(withdrawals.createdAt), desc(withdrawals.id)],
    query,
    'member',
  );
}

/** The operator queue: every member's withdrawals, oldest first (first come, first paid). */
export function selectQueuePage(db: Executor, query: PageQuery) {
  return selectPage(db, undefined, [asc(withdrawals.createdAt), asc(withdrawals.id)], query, 'everyone');
}

export interface StatusTotals {
  userId: number;
  status: WithdrawalStatusValue;
  count: number;
  amountMicro: bigint;
}

/** Per member and status: how many withdrawals and how much (the queue's history summary). */
export async function selectStatusTotals(db: Executor, userIds: readonly number[]): Promise<StatusTotals[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .select({
      userId: withdrawals.userId,
      status: withdrawals.status,
      count: count(),
      amountMicro: sql<string>`coalesce(sum(${withdrawals.amountMicro}), 0)`,
    })
    .from(withdrawals)
    .where(inArray(withdrawals.userId, [...new Set(userIds)]))
    .groupBy(withdrawals.userId, withdrawals.status);
  return rows.map((row) => ({ ...row, amountMicro: BigInt(row.amountMicro) }));
}

/** Every member's withdrawals under review: how many and how much (what the payout wallet will owe). */
export async function selectPendingTotals(db: Executor): Promise<{ count: number; amountMicro: bigint }> {
  const [row] = await db
    .select({ count: count(), amountMicro: sql<string>`coalesce(sum(${withdrawals.amountMicro}), 0)` })
    .from(withdrawals)
    .where(eq(withdrawals.status, 'pending'));
  return { count: Number(row?.count ?? 0), amountMicro: BigInt(row?.amountMicro ?? 0) };
}
