import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { historyFromOf } from './history-from.js';
import { pageRows } from './page-rows.js';
import type { EstimateSql } from './pending-estimates.js';

export interface RebateListFilter {
  userId: number;
  platId: number | undefined;
  uid: string | undefined;
  status: 'pending' | 'completed' | 'failed' | undefined;
  /** Period end on or after / before. */
  endFrom: Date | undefined;
  endBefore: Date | undefined;
}

export interface RebateListRow {
  id: number;
  platId: number;
  uid: string;
  periodStart: Date;
  periodEnd: Date;
  tradingVolumeMicro: bigint;
  feeMicro: bigint;
  /** Completed: the amount paid; pending: the estimate with today's rates; failed: 0. */
  amountMicro: bigint;
  status: 'pending' | 'completed' | 'failed';
  failureReason: string | null;
  createdAt: Date;
}

const date = (value: Date | string) => new Date(value);

/**
 * The filter's conditions on a record `r` of a UID `p` (plat_id, uid, history_from): records settled up
 * to an earlier holder's account deletion are not the member's (visibleRecords() in the repository).
 * Written so that one text serves every filter: an absent bound is ±infinity, an absent status null.
 */
function recordConditions(filter: RebateListFilter) {
  return sql`r.plat_id = p.plat_id and r.uid = p.uid
    and (p.history_from is null or r.settled_at is null or r.settled_at > p.history_from)
    and (${filter.status ?? null}::text is null or r.status = ${filter.status ?? null}::text)
    and r.period_end >= coalesce(${filter.endFrom?.toISOString() ?? null}::timestamptz, '-infinity')
    and r.period_end < coalesce(${filter.endBefore?.toISOString() ?? null}::timestamptz, 'infinity')`;
}

/**
 * One side of the page: each listed UID's records from its own index range
 * (rebates_plat_uid_period_end_id_idx), only as many as the page reaches, merged. `span` says which
 * side reads (a one-time filter: the other side runs no scan) and how many to skip and take.
 */
function pageSide(filter: RebateListFilter, side: 'newest' | 'oldest') {
  const order = side === 'newest' ? sql.raw('period_end desc, id desc') : sql.raw('period_end, id');
  const reads = side === 'newest' ? sql`not span.from_oldest` : sql`span.from_oldest`;
  return sql`select merged.id, merged.period_end from span, listed p cross join lateral (
      select r.id, r.period_end from rebates r where ${recordConditions(filter)}
      order by ${order} limit span.skip + span.take
    ) merged
    where ${reads}
    order by ${order} offset (select skip from span) limit (select take from span)`;
}

/**
 * /elex/user/seeRebateData in one statement (issue 14): the member's live UIDs the filter names, each
 * with the number of its records the filter lets through (from the kept totals, rebate_uid_totals,
 * when no period bounds the list and the member sees the UID's whole history; else counted), their
 * sum, and the page with each pending record's estimate (the rule as SQL, today's rates, the roster's
 * registration: the basic rate without one). A page past the middle of the list is read from its
 * oldest end, so the last page of a 100,000-record export reads 100 records; a page past the end is
 * empty and still carries the count. One text for every member, filter and number of UIDs, so the
 * statement is named once; every plan reads each UID's records in its index's order (decisions, "The
 * record list in two statements": a generic plan must not rely on a sort its values make cheap).
 */
export async function selectRebateList(
  db: Executor,
  filter: RebateListFilter,
  page: { offset: number; limit: number },
  estimate: EstimateSql,
): Promise<{ rows: RebateListRow[]; total: number }> {
  const bounded = filter.endFrom !== undefined || filter.endBefore !== undefined;
  const found = rowsOf<{
    total: string;
    id: string | number | null;
    plat_id: number;
    uid: string;
    period_start: Date | string;
    period_end: Date | string;
    trading_volume_micro: string;
    fee_micro: string;
    amount: string;
    status: RebateListRow['status'];
    failure_reason: string | null;
    created_at: Date | string;
  }>(
    await db.execute(sql`
      with rate as (${estimate.rates}),
      listed as (
        select b.plat_id, b.uid, ${historyFromOf('b')} as history_from
        from exchange_bindings b
        where b.user_id = ${filter.userId}::bigint and b.unbound_at is null
          and (${filter.platId ?? null}::integer is null or b.plat_id = ${filter.platId ?? null}::integer)
          and (${filter.uid ?? null}::text is null or b.uid = ${filter.uid ?? null}::text)
      ),
      counted as (
        select (case when p.history_from is null and not ${bounded}::boolean
          then (select coalesce(sum(t.records), 0) from rebate_uid_totals t
            where t.plat_id = p.plat_id and t.uid = p.uid
              and (${filter.status ?? null}::text is null or t.status = ${filter.status ?? null}::text))
          else (select count(*) from rebates r where ${recordConditions(filter)})
        end) as records
        from listed p
      ),
      span as (
        select n, from_oldest,
          (case when from_oldest then greatest(0, n - ${page.offset}::bigint - ${page.limit}::bigint)
            else ${page.offset}::bigint end) as skip,
          greatest(0, (case when from_oldest then least(${page.limit}::bigint, n - ${page.offset}::bigint)
            else ${page.limit}::bigint end)) as take
        from (select n, ${page.offset}::bigint * 2 > n as from_oldest
          from (select coalesce(sum(records), 0)::bigint as n from counted) total) sides
      ),
      page as (
        (${pageSide(filter, 'newest')})
        union all
        (${pageSide(filter, 'oldest')})
      )
      select span.n::text as total, r.id, r.plat_id, r.uid, r.period_start, r.period_end,
        r.trading_volume_micro::text, r.fee_micro::text, r.status, r.failure_reason, r.created_at,
        (case r.status
          when 'completed' then coalesce(r.amount_micro, 0)
          when 'pending' then case when rate.plat_id is null then 0 else ${estimate.recordEstimate} end
          else 0 end)::text as amount
      from span
      left join (page join rebates r on r.id = page.id
        left join rate on rate.plat_id = r.plat_id
        left join referrals rf on rf.plat_id = r.plat_id and rf.uid = r.uid) on true
      order by r.period_end desc, r.id desc`),
  );
  const { first, rows } = pageRows(found, (row) => row.id);
  return {
    rows: rows.map((row) => ({
      id: Number(row.id),
      platId: Number(row.plat_id),
      uid: row.uid,
      periodStart: date(row.period_start),
      periodEnd: date(row.period_end),
      tradingVolumeMicro: BigInt(row.trading_volume_micro),
      feeMicro: BigInt(row.fee_micro),
      amountMicro: BigInt(row.amount),
      status: row.status,
      failureReason: row.failure_reason,
      createdAt: date(row.created_at),
    })),
    total: Number(first?.total ?? 0),
  };
}
