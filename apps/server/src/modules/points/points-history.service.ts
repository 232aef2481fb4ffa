import { DECIMALS, fromScaled, type PointsHistory } from '@elex/contract';
import { and, count, desc, eq } from 'drizzle-orm';
import type { AppDeps } from '../../deps.js';
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
