import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { historyFromOf } from './history-from.js';
import { type EstimateSql, pendingEstimateSql } from './pending-estimates.js';

export interface BindingDetailRow {
  platId: number;
  uid: string;
  address: string;
  boundAt: Date;
  ownershipVerifiedAt: Date | null;
  /** The UID's kept balance (micro-USDT). */
  balanceMicro: bigint;
  /** Cashback credited to the UID from the binding's history start (rebate and correction journals). */
  creditedMicro: bigint;
  /** The estimate of its pending records. */
  pendingMicro: bigint;
  /** Paid cashback per trading day (UTC day of the period's start) since the asked day, oldest first. */
  daily: Array<{ day: string; totalMicro: bigint }>;
  lastDataAt: Date | null;
  /** An open dispute freezes the UID's money (docs/support.md). */
  frozen: boolean;
}

const date = (value: Date | string | null) => (value === null ? null : new Date(value));

/**
 * /elex/user/seeRebateByExchangeId in one statement (issue 14): the member's own live binding of the
 * UID, and of it the kept balance, the cashback credited from the binding's history start, the
 * estimate of the pending records, the paid cashback per trading day, the last arrival and whether a
 * dispute freezes it. It was nine statements, seven of them side by side.
 *
 * A holder who follows a deleted account (history_from set) sees only what settled after it, as
 * the record list and myInfo's summary count: the daily series and the last arrival then read the
 * records, since the kept figures (rebate_uid_days, rebate_uid_totals) count the UID's whole history. The account codes are the ledger's
 * (`cashback:<platId>:<uid>`, ledger/accounts.ts). Undefined: not this member's live binding.
 */
export async function selectBindingDetail(
  db: Executor,
  query: {
    userId: number;
    platId: number;
    uid: string;
    /** The first trading day of the daily series (a UTC day, YYYY-MM-DD). */
    sinceDay: string;
    creditedKinds: readonly string[];
    estimate: EstimateSql;
  },
): Promise<BindingDetailRow | undefined> {
  const sinceDay = query.sinceDay;
  const [row] = rowsOf<{
    plat_id: number;
    uid: string;
    address: string;
    bound_at: Date | string;
    ownership_verified_at: Date | string | null;
    balance: string;
    credited: string;
    pending: string;
    daily: Array<[string, string]> | string;
    last_data_at: Date | string | null;
    frozen: boolean;
  }>(
    await db.execute(sql`
      with rate as (${query.estimate.rates}),
      b as (
        select b.id, b.plat_id, b.uid, b.address, b.bound_at, b.ownership_verified_at,
          ${historyFromOf('b')} as history_from
        from exchange_bindings b
        where b.plat_id = ${query.platId}::integer and b.uid = ${query.uid}::text and b.unbound_at is null
          and b.user_id = ${query.userId}::bigint
      )
      select b.plat_id, b.uid, b.address, b.bound_at, b.ownership_verified_at,
        coalesce(a.balance, 0)::text as balance,
        (select coalesce(sum(l.amount), 0) from ledger_lines l join ledger_journals j on j.id = l.journal_id
          where l.account_id = a.id and j.kind = any(${sql.param([...query.creditedKinds])}::text[])
            and (b.history_from is null
              or j.created_at >= date_trunc('milliseconds', b.history_from) + interval '1 millisecond')
        )::text as credited,
        (${pendingEstimateSql(query.estimate, sql`b.plat_id`, sql`b.uid`)})::text as pending,
        (select coalesce(json_agg(json_build_array(d.day, d.total::text) order by d.day), '[]'::json) from (
          select to_char(k.day, 'YYYY-MM-DD') as day, k.amount_micro as total from rebate_uid_days k
          where b.history_from is null and k.plat_id = b.plat_id and k.uid = b.uid
            and k.day >= ${sinceDay}::date
          union all
          select to_char(r.period_start at time zone 'UTC', 'YYYY-MM-DD') as day, sum(r.amount_micro) as total
          from rebates r
          where b.history_from is not null
            and r.plat_id = b.plat_id and r.uid = b.uid and r.status = 'completed' and r.amount_micro > 0
            and r.period_start >= ${`${sinceDay}T00:00:00Z`}::timestamptz
            and r.settled_at > b.history_from
          group by 1) d
        ) as daily,
        case when b.history_from is null
          then (select max(t.last_created_at) from rebate_uid_totals t where t.plat_id = b.plat_id and t.uid = b.uid)
          else (select max(r.created_at) from rebates r where r.plat_id = b.plat_id and r.uid = b.uid
            and (r.settled_at is null or r.settled_at > b.history_from))
        end as last_data_at,
        exists (
          select 1 from support_requests s
          where s.kind = 'uidBoundByOther' and s.status <> 'closed' and s.plat_id = b.plat_id and s.uid = b.uid
        ) as frozen
      from b
      left join ledger_accounts a on a.code = 'cashback:' || b.plat_id || ':' || b.uid
      left join rate on rate.plat_id = b.plat_id
      left join referrals rf on rf.plat_id = b.plat_id and rf.uid = b.uid`),
  );
  if (!row) return undefined;
  const daily =
    typeof row.daily === 'string' ? (JSON.parse(row.daily) as Array<[string, string]>) : row.daily;
  return {
    platId: Number(row.plat_id),
    uid: row.uid,
    address: row.address,
    boundAt: new Date(row.bound_at),
    ownershipVerifiedAt: date(row.ownership_verified_at),
    balanceMicro: BigInt(row.balance),
    creditedMicro: BigInt(row.credited),
    pendingMicro: BigInt(row.pending),
    daily: daily.map(([day, total]) => ({ day, totalMicro: BigInt(total) })),
    lastDataAt: date(row.last_data_at),
    frozen: row.frozen,
  };
}
