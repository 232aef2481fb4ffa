import { OWNERSHIP } from '@elex/contract';
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { historyFromOf } from './history-from.js';
import { type EstimateSql, pendingEstimateSql } from './pending-estimates.js';
import { isoText, runRendered, statementsOf, usdtText } from './rendered-statements.js';

/** OWNERSHIP.holdDays in hours: an interval of days would follow the session's time zone. */
const HOLD = sql.raw(`interval '${OWNERSHIP.holdDays * 24} hours'`);

/**
 * /elex/user/seeRebateByExchangeId in one statement (issue 14): the member's own live binding of the
 * UID, and of it the kept balance, the cashback credited from the binding's history start, the
 * estimate of the pending records, the paid cashback per trading day, the last arrival, until when the
 * ownership check holds its money (ownership-hold.ts: OWNERSHIP.holdDays after the binding, unless an
 * operator confirmed the owner) and whether a dispute freezes it. It was nine statements, seven of them
 * side by side.
 *
 * The answer is the BindingDetail's JSON as PostgreSQL writes it (row_to_json: the contract's keys in
 * its order, no spaces, times as toISOString writes them, amounts as fromScaled), spliced by the route
 * into the envelope: the app parses and serializes none of its 90 days. Rendered once per estimate and
 * prepared by name (rendered-statements.ts).
 *
 * A holder who follows a deleted account (history_from set) sees only what settled after it, as
 * the record list and myInfo's summary count: the daily series and the last arrival then read the
 * records, since the kept figures (rebate_uid_days, rebate_uid_totals) count the UID's whole history.
 * The account codes are the ledger's (`cashback:<platId>:<uid>`, ledger/accounts.ts). Undefined: not
 * this member's live binding.
 */
export async function selectBindingDetailJson(
  db: Executor,
  query: {
    userId: number;
    platId: number;
    uid: string;
    /** The first trading day of the daily series (a UTC day, YYYY-MM-DD). */
    sinceDay: string;
    creditedKinds: readonly string[];
    estimate: EstimateSql;
    now: Date;
  },
): Promise<string | undefined> {
  const [row] = await runRendered<{ detail: string }>(
    db,
    statementsOf(query.estimate),
    'binding_detail',
    'detail',
    () => bindingDetailStatement(query.estimate),
    {
      userId: query.userId,
      platId: query.platId,
      uid: query.uid,
      creditedKinds: [...query.creditedKinds],
      sinceDay: query.sinceDay,
      sinceTime: `${query.sinceDay}T00:00:00Z`,
      now: query.now.toISOString(),
    },
  );
  return row?.detail;
}

function bindingDetailStatement(estimate: EstimateSql) {
  // A Date keeps milliseconds: the hold's end as ownershipHeldUntil computes it from one.
  const holdEnd = sql`date_trunc('milliseconds', b.bound_at) + ${HOLD}`;
  return sql`
      with rate as (${estimate.rates}),
      b as (
        select b.id, b.plat_id, b.uid, b.address, b.bound_at, b.ownership_verified_at,
          ${historyFromOf('b')} as history_from
        from exchange_bindings b
        where b.plat_id = ${sql.placeholder('platId')}::integer and b.uid = ${sql.placeholder('uid')}::text
          and b.unbound_at is null and b.user_id = ${sql.placeholder('userId')}::bigint
      )
      select row_to_json(detail)::text as detail
      from b
      left join ledger_accounts a on a.code = 'cashback:' || b.plat_id || ':' || b.uid
      left join rate on rate.plat_id = b.plat_id
      left join referrals rf on rf.plat_id = b.plat_id and rf.uid = b.uid
      cross join lateral (
        select b.plat_id as "platId", b.uid, b.address, ${isoText('b.bound_at')} as "boundAt",
          ${usdtText('coalesce(a.balance, 0)::bigint')} as balance,
          ${usdtText(sql`(select coalesce(sum(l.amount), 0) from ledger_lines l
            join ledger_journals j on j.id = l.journal_id
            where l.account_id = a.id and j.kind = any(${sql.placeholder('creditedKinds')}::text[])
              and (b.history_from is null
                or j.created_at >= date_trunc('milliseconds', b.history_from) + interval '1 millisecond')
          )::bigint`)} as "totalRebate",
          ${usdtText(sql`(${pendingEstimateSql(estimate, sql`b.plat_id`, sql`b.uid`)})::bigint`)}
            as "pendingRebate",
          (select coalesce('[' || string_agg(row_to_json(dd)::text, ',' order by dd.day) || ']', '[]')::json
            from (
              select d.day, ${usdtText('d.total::bigint')} as amount from (
                select to_char(k.day, 'YYYY-MM-DD') as day, k.amount_micro as total from rebate_uid_days k
                where b.history_from is null and k.plat_id = b.plat_id and k.uid = b.uid
                  and k.day >= ${sql.placeholder('sinceDay')}::date
                union all
                select to_char(r.period_start at time zone 'UTC', 'YYYY-MM-DD') as day,
                  sum(r.amount_micro) as total
                from rebates r
                where b.history_from is not null
                  and r.plat_id = b.plat_id and r.uid = b.uid and r.status = 'completed'
                  and r.amount_micro > 0
                  and r.period_start >= ${sql.placeholder('sinceTime')}::timestamptz
                  and r.settled_at > b.history_from
                group by 1) d
            ) dd
          ) as daily,
          ${isoText(sql`case when b.history_from is null
            then (select max(t.last_created_at) from rebate_uid_totals t
              where t.plat_id = b.plat_id and t.uid = b.uid)
            else (select max(r.created_at) from rebates r where r.plat_id = b.plat_id and r.uid = b.uid
              and (r.settled_at is null or r.settled_at > b.history_from))
          end`)} as "lastDataAt",
          case when b.ownership_verified_at is null and ${holdEnd} > ${sql.placeholder('now')}::timestamptz
            then ${isoText(holdEnd)} end as "heldUntil",
          exists (
            select 1 from support_requests s
            where s.kind = 'uidBoundByOther' and s.status <> 'closed' and s.plat_id = b.plat_id
              and s.uid = b.uid
          ) as frozen
      ) detail`;
}
