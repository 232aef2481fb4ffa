import { CASHBACK } from '@elex/contract';
import { type SQL, sql } from 'drizzle-orm';

/**
 * THE cashback rule (docs/cashback.md, "The rule"). Everything that decides an amount lives here;
 * settlement, the pending estimates and ledger:check all call these functions.
 *
 * Sources:
 * - spec section 9: "Speed-up cashback within 3 weeks after registration" (CASHBACK.speedUpWeeks);
 *   the exchange detail page: basic cashback = cash rate, speed-up cashback for new traders.
 * - issue 5: cashback = fee x the exchange's cash rate (the speed-up rate when the period starts
 *   within the first 3 weeks after the UID's registration), never more than the commission the
 *   exchange paid us for that UID and period, floored to micro-USDT with integer arithmetic.
 * - spec section 9: "Cashback accruable for trades up to 5 years old" (CASHBACK.accruableYears).
 * - issue 5: an invite bonus of INVITE_BONUS_PERCENT of the friend's cashback, floored.
 *
 * Units: amounts in micro-USDT (bigint), rates in basis points of the fee (40 % = 4000).
 *
 * Settlement decides a page of records in one SQL statement (issue 14): `rebateRuleSql` below is the
 * same rule as SQL expressions over the record's columns, and a property test on the real database
 * engine (rebate-rule.test.ts) holds the two forms equal.
 */

const BASIS_POINTS = 10_000n;
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Whether a period earns the speed-up rate: it starts before registration + 3 weeks. The window is
 * half-open, so a period starting exactly 3 weeks after registration earns the basic rate. A period
 * that starts before the registration (a daily report of the registration day) is in the window.
 */
export function isInSpeedUpWindow(periodStart: Date, registeredAt: Date): boolean {
  return periodStart.getTime() < registeredAt.getTime() + CASHBACK.speedUpWeeks * WEEK_MS;
}

/** fee x rate, floored to the micro-USDT, capped by the commission received. */
export function rebateAmount(feeMicro: bigint, cashRateBps: number, commissionMicro: bigint): bigint {
  if (feeMicro < 0n || commissionMicro < 0n || !Number.isInteger(cashRateBps) || cashRateBps < 0) {
    throw new RangeError('rebateAmount needs non-negative integers');
  }
  const byRate = (feeMicro * BigInt(cashRateBps)) / BASIS_POINTS;
  return byRate < commissionMicro ? byRate : commissionMicro;
}

export interface RebateRuleInput {
  feeMicro: bigint;
  commissionMicro: bigint;
  periodStart: Date;
  /** When the UID registered at the exchange (the roster). */
  registeredAt: Date;
  /** The exchange's rates at settlement, basis points. */
  cashRateBps: number;
  speedUpCashRateBps: number;
}

export interface RebateOutcome {
  amountMicro: bigint;
  /** The rate applied. */
  cashRateBps: number;
  isSpeedUp: boolean;
}

export function computeRebate(input: RebateRuleInput): RebateOutcome {
  const isSpeedUp = isInSpeedUpWindow(input.periodStart, input.registeredAt);
  const cashRateBps = isSpeedUp ? input.speedUpCashRateBps : input.cashRateBps;
  return {
    amountMicro: rebateAmount(input.feeMicro, cashRateBps, input.commissionMicro),
    cashRateBps,
    isSpeedUp,
  };
}

/** The inviter's bonus on a friend's cashback: amount x percent / 100, floored. */
export function inviteBonusAmount(cashbackMicro: bigint, percent: number): bigint {
  if (cashbackMicro < 0n || !Number.isInteger(percent) || percent < 0) {
    throw new RangeError('inviteBonusAmount needs non-negative integers');
  }
  return (cashbackMicro * BigInt(percent)) / 100n;
}

/** inviteBonusAmount as SQL over a cashback column (settlement's invite bonuses of a page). */
export function inviteBonusSql(cashbackMicro: SQL, percent: number): SQL {
  if (!Number.isInteger(percent) || percent < 0)
    throw new RangeError('inviteBonusSql needs a non-negative integer');
  return sql`div(${cashbackMicro}::numeric * ${percent}::integer, 100::numeric)::bigint`;
}

/** The oldest period start that still earns cashback at `now`: 5 calendar years back, UTC. */
export function oldestAccruablePeriodStart(now: Date): Date {
  const oldest = new Date(now);
  oldest.setUTCFullYear(oldest.getUTCFullYear() - CASHBACK.accruableYears);
  return oldest;
}

/**
 * computeRebate as SQL over a record's columns, for settlement's one statement per page. Integer
 * arithmetic in numeric (no bigint overflow); the speed-up window in exact seconds, so no time zone
 * or daylight-saving rule can move its edge.
 */
export function rebateRuleSql(columns: {
  feeMicro: SQL;
  commissionMicro: SQL;
  periodStart: SQL;
  /** Null: not in the roster, the basic rate (what a pending record's estimate assumes). */
  registeredAt: SQL;
  /** A number, or a column when one statement covers several exchanges (the member's estimates). */
  cashRateBps: number | SQL;
  speedUpCashRateBps: number | SQL;
}): { isSpeedUp: SQL; cashRateBps: SQL; amountMicro: SQL } {
  const windowSeconds = CASHBACK.speedUpWeeks * (WEEK_MS / 1000);
  const isSpeedUp = sql`(${columns.periodStart} < ${columns.registeredAt} + make_interval(secs => ${windowSeconds}))`;
  const cashRateBps = sql`(case when ${isSpeedUp} then ${columns.speedUpCashRateBps}::integer else ${columns.cashRateBps}::integer end)`;
  const amountMicro = sql`least(div(${columns.feeMicro}::numeric * ${cashRateBps}, ${BASIS_POINTS.toString()}::numeric), ${columns.commissionMicro}::numeric)::bigint`;
  return { isSpeedUp, cashRateBps, amountMicro };
}
