import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { rowsOf } from '../db/rows.js';

export interface PendingOfBinding {
  platId: number;
  uid: string;
  /** What the UID's pending records would pay if they settled now (micro-USDT). */
  pendingMicro: bigint;
}

/**
 * How the statement estimates pending records (cashback's estimate-sql.ts places the rule here): the
 * partners' rates as rows, and a record `r`'s estimate with `rate` and the roster row `rf` in scope.
 */
export interface EstimateSql {
  rates: SQL;
  recordEstimate: SQL;
}

/**
 * The estimate of a UID's pending records, summed, for a statement that has the UID's exchange's
 * `rate` row and its roster row `rf` in scope. No partner, no estimate.
 */
export function pendingEstimateSql(estimate: EstimateSql, platId: SQL, uid: SQL): SQL {
  return sql`case when rate.plat_id is null then 0 else coalesce((
      select sum(${estimate.recordEstimate}) from rebates r
      where r.plat_id = ${platId} and r.uid = ${uid} and r.status = 'pending'), 0) end`;
}

/**
 * /elex/exchange/expireRebate in one statement (issue 14): the member's live bindings, oldest first,
 * each with the estimate of its pending records. It was a read of the bindings, of every pending record
 * (each mapped to an object) and of the roster, then the rule in TypeScript per record; the pending
 * records come from `rebates_pending_uid_idx`. rebate-rule.test.ts holds the SQL rule equal to the
 * TypeScript one, pending-estimates.test.ts the estimates.
 */
export async function selectPendingByBinding(
  db: Executor,
  userId: number,
  platId: number | undefined,
  estimate: EstimateSql,
): Promise<PendingOfBinding[]> {
  const rows = rowsOf<{ plat_id: number; uid: string; pending: string }>(
    await db.execute(sql`
      with rate as (${estimate.rates})
      select b.plat_id, b.uid, (${pendingEstimateSql(estimate, sql`b.plat_id`, sql`b.uid`)})::text as pending
      from exchange_bindings b
      left join rate on rate.plat_id = b.plat_id
      left join referrals rf on rf.plat_id = b.plat_id and rf.uid = b.uid
      where b.user_id = ${userId}::bigint and b.unbound_at is null
        and (${platId ?? null}::integer is null or b.plat_id = ${platId ?? null}::integer)
      order by b.bound_at, b.id`),
  );
  return rows.map((row) => ({
    platId: Number(row.plat_id),
    uid: row.uid,
    pendingMicro: BigInt(row.pending),
  }));
}
