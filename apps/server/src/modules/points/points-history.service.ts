import { DECIMALS, fromScaled, type PointsHistory } from '@elex/contract';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { AppDeps } from '../../app.js';
import type { Executor } from '../../db/client.js';
import { listTaskDefinitions } from '../tasks/tasks.service.js';
import { balances, type PointsCurrency } from './points.service.js';
import { pointsEntries } from './points.tables.js';

/** Reasons whose reference is worth showing (a check-in's day, a task's id); others are internal keys. */
const SHOWN_REFERENCES = new Set(['checkIn', 'task']);

/** /elex/activity/pointsHistory: the member's points (or XME) entries, newest first, with the balances. */
export async function pointsHistory(
  deps: AppDeps,
  userId: number,
  query: { page: number; pageSize: number; currency?: PointsCurrency | undefined },
): Promise<PointsHistory> {
  const where = and(
    eq(pointsEntries.userId, userId),
    query.currency ? eq(pointsEntries.currency, query.currency) : undefined,
  );
  const [totalRow] = await deps.db.select({ value: count() }).from(pointsEntries).where(where);
  const rows = await deps.db
    .select()
    .from(pointsEntries)
    .where(where)
    .orderBy(desc(pointsEntries.createdAt), desc(pointsEntries.id))
    .offset((query.page - 1) * query.pageSize)
    .limit(query.pageSize);
  const tasks = rows.some((row) => row.reason === 'task')
    ? new Map((await listTaskDefinitions(deps.db)).map((task) => [task.id, task]))
    : new Map();
  const { points, xme } = await balances(deps.db, userId);
  return {
    entries: rows.map((row) => {
      const task = row.reason === 'task' ? tasks.get(row.reference) : undefined;
      return {
        id: String(row.id),
        currency: row.currency,
        amount: row.amount,
        reason: row.reason,
        reference: SHOWN_REFERENCES.has(row.reason) ? row.reference : null,
        task: task
          ? {
              kind: task.kind,
              threshold: task.thresholdMicro === null ? null : fromScaled(task.thresholdMicro, DECIMALS.usdt),
            }
          : null,
        createdAt: row.createdAt.toISOString(),
      };
    }),
    total: totalRow?.value ?? 0,
    page: query.page,
    pageSize: query.pageSize,
    points,
    xmeEnergy: xme,
  };
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

/** Per reference, the points a member was granted for one reason (what each invited friend earned them). */
export async function pointsByReference(
  db: Executor,
  userId: number,
  reason: string,
  references: readonly string[],
): Promise<Map<string, number>> {
  if (references.length === 0) return new Map();
  const rows = await db
    .select({ reference: pointsEntries.reference, amount: pointsEntries.amount })
    .from(pointsEntries)
    .where(
      and(
        eq(pointsEntries.userId, userId),
        eq(pointsEntries.currency, 'points'),
        eq(pointsEntries.reason, reason),
        inArray(pointsEntries.reference, [...references]),
      ),
    );
  const totals = new Map<string, number>();
  for (const row of rows) totals.set(row.reference, (totals.get(row.reference) ?? 0) + row.amount);
  return totals;
}

/** The sum of a member's points for one reason (all friends' invite points together). */
export async function pointsForReason(db: Executor, userId: number, reason: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${pointsEntries.amount}), 0)` })
    .from(pointsEntries)
    .where(
      and(
        eq(pointsEntries.userId, userId),
        eq(pointsEntries.currency, 'points'),
        eq(pointsEntries.reason, reason),
      ),
    );
  return Number(row?.total ?? 0);
}
