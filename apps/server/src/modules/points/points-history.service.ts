import { DECIMALS, fromScaled, type PointsHistory } from '@elex/contract';
import { answerKind, keptPageForMember } from '../../db/member-answers.js';
import type { AppDeps } from '../../deps.js';
import { selectPointsHistory } from '../../read-models/points-history.js';
import type { PointsCurrency } from './points.service.js';

/** Reasons whose reference is worth showing (a check-in's day, a task's id); others are internal keys. */
const SHOWN_REFERENCES = new Set(['checkIn', 'task']);

/** A page of 100 entries is ~25 KB as JSON; 20,000 pages and 64 MiB at most per process. */
const POINTS_PAGES = answerKind<PointsHistory>('pointsHistory', 20_000, {
  maxBytes: 64 * 1024 * 1024,
  sizeOf: (value) => 200 + value.entries.length * 250,
});

type PointsHistoryQuery = { page: number; pageSize: number; currency?: PointsCurrency | undefined };

/**
 * /elex/activity/pointsHistory: the member's points (or XME) entries, newest first, with the balances.
 * Pages 1 to 3 are kept in this process by member and request until the member changes: a points
 * entry added notifies (migration 0051; 0002 refuses changing or removing one), a task definition's
 * kind, id, creation or removal notifies every member (0054_member_notify_lists). Nothing in it
 * depends on the clock. Kept values are frozen.
 */
export async function pointsHistory(
  deps: AppDeps,
  userId: number,
  query: PointsHistoryQuery,
): Promise<PointsHistory> {
  return keptPageForMember(
    deps.memberAnswers,
    POINTS_PAGES,
    userId,
    { page: query.page, pageSize: query.pageSize, filter: [query.currency ?? null] },
    () => readPointsHistory(deps, userId, query),
  );
}

async function readPointsHistory(
  deps: AppDeps,
  userId: number,
  query: PointsHistoryQuery,
): Promise<PointsHistory> {
  const found = await selectPointsHistory(deps.db, userId, {
    currency: query.currency ?? null,
    offset: (query.page - 1) * query.pageSize,
    limit: query.pageSize,
  });
  return Object.freeze({
    entries: Object.freeze(
      found.rows.map((row) =>
        Object.freeze({
          id: String(row.id),
          currency: row.currency,
          amount: row.amount,
          reason: row.reason,
          reference: SHOWN_REFERENCES.has(row.reason) ? row.reference : null,
          task: row.task
            ? Object.freeze({
                kind: row.task.kind,
                threshold:
                  row.task.thresholdMicro === null
                    ? null
                    : fromScaled(row.task.thresholdMicro, DECIMALS.usdt),
              })
            : null,
          createdAt: row.createdAt.toISOString(),
        }),
      ),
    ),
    total: found.total,
    page: query.page,
    pageSize: query.pageSize,
    points: found.points,
    xmeEnergy: found.xme,
  }) as PointsHistory;
}
