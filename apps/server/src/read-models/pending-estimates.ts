import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import type { Partner } from '../modules/cashback/partners.js';
import { rebateRuleSql } from '../modules/cashback/rebate-rule.js';

export interface PendingOfBinding {
  platId: number;
  uid: string;
  /** What the UID's pending records would pay if they settled now (micro-USDT). */
  pendingMicro: bigint;
}

/** The partners' rates as one parameter each: the statement's text is the same for every member. */
export function partnerRates(partners: ReadonlyMap<number, Partner>) {
  const list = [...partners.values()];
  return sql`select * from unnest(
      ${sql.param(list.map((partner) => partner.platId))}::integer[],
      ${sql.param(list.map((partner) => partner.cashRateBps))}::integer[],
      ${sql.param(list.map((partner) => partner.speedUpCashRateBps))}::integer[]
    ) as rate(plat_id, cash_rate_bps, speed_up_cash_rate_bps)`;
}

/**
 * The estimate of a UID's pending records, as SQL for a statement that has the UID's exchange's `rate`
 * row and its roster row `rf` (null: not in the roster) in scope: the cashback rule with today's rates
 * (rebate-rule.ts; the basic rate while the UID is not in the roster), summed. No partner, no estimate.
 */
export function pendingEstimateSql(platId: ReturnType<typeof sql>, uid: ReturnType<typeof sql>) {
  const rule = rebateRuleSql({
    feeMicro: sql`r.fee_micro`,
    commissionMicro: sql`r.commission_micro`,
    periodStart: sql`r.period_start`,
    registeredAt: sql`rf.registered_at`,
    cashRateBps: sql`rate.cash_rate_bps`,
    speedUpCashRateBps: sql`rate.speed_up_cash_rate_bps`,
  });
  return sql`case when rate.plat_id is null then 0 else coalesce((
      select sum(${rule.amountMicro}) from rebates r
      where r.plat_id = ${platId} and r.uid = ${uid} and r.status = 'pending'), 0) end`;
}

/**
 * /elex/exchange/expireRebate in one statement (issue 14): the member's live bindings, oldest first,
 * each with the estimate of its pending records. It was a read of the bindings, of every pending record
 * (each mapped to an object) and of the roster, then the rule in TypeScript per record; the pending
 * records come from `rebates_pending_uid_idx`. rebate-rule.test.ts holds the SQL rule equal to the
 * TypeScript one.
 */
export async function selectPendingByBinding(
  db: Executor,
  userId: number,
  platId: number | undefined,
  partners: ReadonlyMap<number, Partner>,
): Promise<PendingOfBinding[]> {
  const rows = rowsOf<{ plat_id: number; uid: string; pending: string }>(
    await db.execute(sql`
      with rate as (${partnerRates(partners)})
      select b.plat_id, b.uid, (${pendingEstimateSql(sql`b.plat_id`, sql`b.uid`)})::text as pending
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
