import { DECIMALS, fromScaled, type PointsHistory } from '@elex/contract';
import type { AppDeps } from '../../deps.js';
import { selectPointsHistory } from '../../read-models/points-history.js';
import type { PointsCurrency } from './points.service.js';

/** Reasons whose reference is worth showing (a check-in's day, a task's id); others are internal keys. */
const SHOWN_REFERENCES = new Set(['checkIn', 'task']);

/** /elex/activity/pointsHistory: the member's points (or XME) entries, newest first, with the balances. */
export async function pointsHistory(
  deps: AppDeps,
  userId: number,
  query: { page: number; pageSize: number; currency?: PointsCurrency | undefined },
): Promise<PointsHistory> {
  const found = await selectPointsHistory(deps.db, userId, {
    currency: query.currency ?? null,
    offset: (query.page - 1) * query.pageSize,
    limit: query.pageSize,
  });
  return {
    entries: found.rows.map((row) => ({
      id: String(row.id),
      currency: row.currency,
      amount: row.amount,
      reason: row.reason,
      reference: SHOWN_REFERENCES.has(row.reason) ? row.reference : null,
      task: row.task
        ? {
            kind: row.task.kind,
            threshold:
              row.task.thresholdMicro === null ? null : fromScaled(row.task.thresholdMicro, DECIMALS.usdt),
          }
        : null,
      createdAt: row.createdAt.toISOString(),
    })),
    total: found.total,
    page: query.page,
    pageSize: query.pageSize,
    points: found.points,
    xmeEnergy: found.xme,
  };
}
