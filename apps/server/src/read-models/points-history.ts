import type { Executor } from '../db/client.js';
import { queryPrepared } from '../db/prepared.js';
import { pageRows } from './page-rows.js';

interface PointsHistoryRow {
  id: number;
  currency: 'points' | 'xme';
  amount: number;
  reason: string;
  reference: string;
  createdAt: Date;
  /**
   * The task a 'task' entry paid, when its definition still exists: its kind, and the threshold the
   * entry was claimed under (kept with the entry, not the definition's current one).
   */
  task: { kind: string; thresholdMicro: bigint | null } | null;
}

export interface PointsHistoryPage {
  rows: PointsHistoryRow[];
  /** Entries matching the filter. */
  total: number;
  /** The member's balances over all their entries, whatever the filter. */
  points: number;
  xme: number;
}

/**
 * /elex/activity/pointsHistory in one round trip (issue 14): a page of the member's points or XME
 * entries, newest first, each task entry with its task's kind and the threshold it was claimed under
 * (kept with the entry), the count under the filter and both balances. It joins the points ledger with
 * the task definitions, so it lives here; the call made three or four statements before. A member's entries are few (a check-in a day, a
 * task each), so the sums read them all.
 */
const POINTS_HISTORY = `
  with mine as (
    select currency, count(*) as entries, sum(amount) as amount from points_entries
    where user_id = $1::bigint group by currency
  )
  select
    (select coalesce(sum(entries), 0) from mine where $2::text is null or currency = $2::text)::integer as total,
    (select coalesce(sum(amount), 0) from mine where currency = 'points')::bigint::text as points,
    (select coalesce(sum(amount), 0) from mine where currency = 'xme')::bigint::text as xme,
    e.id, e.currency, e.amount, e.reason, e.reference, e.created_at,
    t.kind as task_kind, e.threshold_micro::text as task_threshold
  from (select 1) one
  left join lateral (
    select * from points_entries where user_id = $1::bigint and ($2::text is null or currency = $2::text)
    order by created_at desc, id desc offset $3::integer limit $4::integer
  ) e on true
  left join task_definitions t on e.reason = 'task' and t.id = e.reference
  order by e.created_at desc, e.id desc`;

export async function selectPointsHistory(
  db: Executor,
  userId: number,
  filter: { currency: 'points' | 'xme' | null; offset: number; limit: number },
): Promise<PointsHistoryPage> {
  const found = await queryPrepared<{
    total: number;
    points: string;
    xme: string;
    id: string | number | null;
    currency: 'points' | 'xme';
    amount: number;
    reason: string;
    reference: string;
    created_at: Date | string;
    task_kind: string | null;
    task_threshold: string | null;
  }>(db, 'points_history_v2', POINTS_HISTORY, [userId, filter.currency, filter.offset, filter.limit]);
  const { first, rows } = pageRows(found, (row) => row.id);
  return {
    total: Number(first?.total ?? 0),
    points: Number(first?.points ?? 0),
    xme: Number(first?.xme ?? 0),
    rows: rows.map((row) => ({
      id: Number(row.id),
      currency: row.currency,
      amount: Number(row.amount),
      reason: row.reason,
      reference: row.reference,
      createdAt: new Date(row.created_at),
      task:
        row.task_kind === null
          ? null
          : {
              kind: row.task_kind,
              thresholdMicro: row.task_threshold === null ? null : BigInt(row.task_threshold),
            },
    })),
  };
}
