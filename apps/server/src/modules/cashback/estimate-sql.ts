import { sql } from 'drizzle-orm';
import type { EstimateSql } from '../../read-models/pending-estimates.js';
import type { Partner } from './partners.js';
import { rebateRuleSql } from './rebate-rule.js';

/**
 * How a member's reads estimate pending records in SQL (read-models: the binding detail, expireRebate,
 * the record list): every partner's rates as rows, and the rule over a record; the rule is this
 * module's (rebate-rule.ts), the read models only place it in their statements.
 * Today's rates of every partner travel as three array parameters, so a statement's text is the same
 * for every member and exchange (and PostgreSQL keeps it named, db/named-statements.ts).
 */
export function estimateSql(partners: ReadonlyMap<number, Partner>): EstimateSql {
  const list = [...partners.values()];
  // The same rates give the same object: a read model keeps its statements rendered per estimate
  // (rebate-list.ts), so a call does not rebuild the rule's SQL and render it again (issue 14).
  const key = list
    .map((partner) => `${partner.platId}:${partner.cashRateBps}:${partner.speedUpCashRateBps}`)
    .join(',');
  if (lastEstimate?.key === key) return lastEstimate.estimate;
  const estimate = buildEstimateSql(list);
  lastEstimate = { key, estimate };
  return estimate;
}

let lastEstimate: { key: string; estimate: EstimateSql } | undefined;

function buildEstimateSql(list: Partner[]): EstimateSql {
  const rule = rebateRuleSql({
    feeMicro: sql`r.fee_micro`,
    commissionMicro: sql`r.commission_micro`,
    periodStart: sql`r.period_start`,
    registeredAt: sql`rf.registered_at`,
    cashRateBps: sql`rate.cash_rate_bps`,
    speedUpCashRateBps: sql`rate.speed_up_cash_rate_bps`,
  });
  return {
    rates: sql`select * from unnest(
        ${sql.param(list.map((partner) => partner.platId))}::integer[],
        ${sql.param(list.map((partner) => partner.cashRateBps))}::integer[],
        ${sql.param(list.map((partner) => partner.speedUpCashRateBps))}::integer[]
      ) as rate(plat_id, cash_rate_bps, speed_up_cash_rate_bps)`,
    recordEstimate: rule.amountMicro,
  };
}
