import type { TradeFrequency } from './constants.js';
import { CALCULATOR } from './constants.js';

/**
 * The catalog's pure rules, free of zod so the home page can use them without loading it (the
 * contract is side-effect free: a page pays only for the modules it imports). The wire schemas that
 * use these live in exchanges.ts.
 */

// ---------------------------------------------------------------------------------------------------
// Exact decimals: strings <-> scaled integers (bigint), so no rate or amount ever passes through a float.

/** Digits after the point of each wire unit (see above). */
export const DECIMALS = { feePercent: 4, cashPercent: 2, usdt: 6 } as const;

export const DECIMAL_PATTERN = /^(\d+)(?:\.(\d+))?$/;

/** "12.5" at scale 6 -> 12500000n. Throws on anything but a plain non-negative decimal. */
export function toScaled(value: string, scale: number): bigint {
  const match = DECIMAL_PATTERN.exec(value.trim());
  if (!match) throw new RangeError(`not a decimal: ${value}`);
  const [, whole = '0', fraction = ''] = match;
  if (fraction.length > scale && /[1-9]/.test(fraction.slice(scale))) {
    throw new RangeError(`${value} has more than ${scale} decimals`);
  }
  return BigInt(whole) * 10n ** BigInt(scale) + BigInt(fraction.slice(0, scale).padEnd(scale, '0') || '0');
}

/** 12500000n at scale 6 -> "12.500000". */
export function fromScaled(value: bigint, scale: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`;
}

/** Compares two decimal strings exactly (for sorting): negative, zero or positive. */
export function compareDecimals(a: string, b: string): number {
  const scale = Math.max(fractionDigits(a), fractionDigits(b));
  const difference = toScaled(a, scale) - toScaled(b, scale);
  return difference === 0n ? 0 : difference < 0n ? -1 : 1;
}

function fractionDigits(value: string): number {
  const point = value.indexOf('.');
  return point === -1 ? 0 : value.length - point - 1;
}

/** VIP tiers: does a tier need the volume or the assets, or both (Binance asks for both)? */
export const VIP_RULES = ['either', 'both'] as const;
export type VipRule = (typeof VIP_RULES)[number];

// ---------------------------------------------------------------------------------------------------
// Home tabs (spec section 4)

/** spec: the six tabs, in order. */
export const HOME_TABS = [
  'overall',
  'recommend',
  'racing',
  'mostCashback',
  'limitPrice',
  'marketPrice',
] as const;
export type HomeTab = (typeof HOME_TABS)[number];

/** What ranking reads of an exchange index row (exchanges.ts imports this file, so not a Pick of it). */
interface RankableRow {
  score: number;
  /** Decimal strings: cashback and fee percents. */
  cashRate: string;
  limitPrice: string;
  marketPrice: string;
  isRecommended: boolean;
  isRacing: boolean;
}

/**
 * The rows one tab shows, in its order (spec section 4): overall and recommend by score descending,
 * most cashback by cashRate descending, limit by limitPrice descending, market by marketPrice
 * descending, racing unsorted (catalog order). Recommend and racing keep only their flagged rows.
 * Ties keep catalog order (the sort is stable).
 */
export function rankExchanges<T extends RankableRow>(rows: readonly T[], tab: HomeTab): T[] {
  const byDecimal = (key: 'cashRate' | 'limitPrice' | 'marketPrice') => (a: T, b: T) =>
    compareDecimals(b[key], a[key]);
  const byScore = (a: T, b: T) => b.score - a.score;
  switch (tab) {
    case 'overall':
      return [...rows].sort(byScore);
    case 'recommend':
      return rows.filter((row) => row.isRecommended).sort(byScore);
    case 'racing':
      return rows.filter((row) => row.isRacing);
    case 'mostCashback':
      return [...rows].sort(byDecimal('cashRate'));
    case 'limitPrice':
      return [...rows].sort(byDecimal('limitPrice'));
    case 'marketPrice':
      return [...rows].sort(byDecimal('marketPrice'));
  }
}

// ---------------------------------------------------------------------------------------------------
// UIDs

/** A UID as exchanges show it: 4 to 32 letters, digits, '-' or '_'. */
export const EXCHANGE_UID_PATTERN = /^[A-Za-z0-9_-]{4,32}$/;

/**
 * 1234567889 -> 12****89: keeps the first and last two characters and hides the rest, but always hides
 * at least four (all but the first of a four-character UID), since the public ranking shows members'
 * UIDs: 123456 -> 1****6, 12345 -> 1****. Two and two of a five-character UID (12****45) left one
 * character to guess.
 */
export function maskUid(uid: string): string {
  if (uid.length < 6) return `${uid.slice(0, 1)}****`;
  if (uid.length < 8) return `${uid.slice(0, 1)}****${uid.slice(-1)}`;
  return `${uid.slice(0, 2)}****${uid.slice(-2)}`;
}

// ---------------------------------------------------------------------------------------------------
// The cashback estimate (calculator). docs/calculator.md explains the formula.

/**
 * spec: five trade frequencies. Each counts as this many orders a day, in tenths (the middle of its
 * range; "once or less" counts one, "more than 10" counts twelve).
 */
export const TRADES_PER_DAY_TENTHS: Record<TradeFrequency, number> = {
  onceOrLess: 10,
  oneToTwo: 15,
  twoToFive: 35,
  fiveToTen: 75,
  moreThanTen: 120,
};

/** The seed the calculator accepts, in USDT. */
export const SEED_USDT = { min: '1', max: '100000000' } as const;

export interface CashbackEstimateInput {
  frequency: TradeFrequency;
  /** USDT, decimal string. */
  seed: string;
  leverage: number;
  /** Maker fee percent (wire format). */
  limitPrice: string;
  /** Taker fee percent (wire format). */
  marketPrice: string;
  /** Cash rate percent (wire format). */
  cashRate: string;
  /** Days the estimate covers (CALCULATOR.resultDays, 30, by default). */
  days?: number;
}

/**
 * Estimated cashback in micro-USDT, rounded down:
 *   trades a day × days × seed × leverage × (maker fee + taker fee) / 2 × cash rate.
 * Each trade is one order whose size is the seed times the leverage, paying the average of the
 * maker and the taker fee. Integer arithmetic throughout: seed in micro-USDT, fees in parts per
 * million, the cash rate in basis points, trades in tenths.
 */
export function estimateCashbackMicro(input: CashbackEstimateInput): bigint {
  const days = BigInt(input.days ?? CALCULATOR.resultDays);
  const tradesTenths = BigInt(TRADES_PER_DAY_TENTHS[input.frequency]);
  const seedMicro = toScaled(input.seed, DECIMALS.usdt);
  const leverage = BigInt(input.leverage);
  const feeSumPpm =
    toScaled(input.limitPrice, DECIMALS.feePercent) + toScaled(input.marketPrice, DECIMALS.feePercent);
  const cashBps = toScaled(input.cashRate, DECIMALS.cashPercent);
  // tenths (10) x average of two fees (2) x ppm (1e6) x basis points (1e4)
  const divisor = 10n * 2n * 1_000_000n * 10_000n;
  return (tradesTenths * days * seedMicro * leverage * feeSumPpm * cashBps) / divisor;
}

/** The 30-day trading volume the calculator's answers make, in micro-USDT: trades × 30 days × seed × leverage. */
export function estimatedVolume30dMicro(
  input: Pick<CashbackEstimateInput, 'frequency' | 'seed' | 'leverage'>,
) {
  const tradesTenths = BigInt(TRADES_PER_DAY_TENTHS[input.frequency]);
  const seedMicro = toScaled(input.seed, DECIMALS.usdt);
  return (tradesTenths * BigInt(CALCULATOR.resultDays) * seedMicro * BigInt(input.leverage)) / 10n;
}

/** A VIP level as the wire carries it (the structure of exchanges.ts's VipTier). */
export interface EstimateVipTier {
  level: string;
  /** Whole USDT, or null for no volume requirement. */
  volume30d: string | null;
  asset: { amount: string; symbol: string } | null;
  limitPrice: string;
  marketPrice: string;
}

/**
 * The fees the calculator's trader would pay: the exchange's regular fees, or those of a VIP level
 * the answers reach, whichever are lowest (the lowest fees give the smallest cashback: the estimate
 * never promises more than the rule pays on the fee actually charged). A level is reached by its 30-day
 * volume (the estimated volume) and by a USDT asset requirement (the seed counts as the balance); an
 * asset in another coin (BNB, KCS) is not known, so not reached. `vipRule` 'either' needs one of the
 * level's requirements, 'both' every one it lists.
 */
export function feesForEstimate(
  input: Pick<CashbackEstimateInput, 'frequency' | 'seed' | 'leverage' | 'limitPrice' | 'marketPrice'>,
  tiers: readonly EstimateVipTier[],
  vipRule: VipRule,
): { vipLevel: string | null; limitPrice: string; marketPrice: string } {
  const volumeMicro = estimatedVolume30dMicro(input);
  const seedMicro = toScaled(input.seed, DECIMALS.usdt);
  const usdtMicro = (whole: string) => toScaled(whole, 0) * 10n ** BigInt(DECIMALS.usdt);
  const feeSum = (fees: { limitPrice: string; marketPrice: string }) =>
    toScaled(fees.limitPrice, DECIMALS.feePercent) + toScaled(fees.marketPrice, DECIMALS.feePercent);
  const reaches = (tier: EstimateVipTier) => {
    const volume = tier.volume30d === null ? null : volumeMicro >= usdtMicro(tier.volume30d);
    const asset =
      tier.asset === null ? null : tier.asset.symbol === 'USDT' && seedMicro >= usdtMicro(tier.asset.amount);
    const met = [volume, asset].filter((value) => value !== null);
    if (met.length === 0) return true;
    return vipRule === 'both' ? met.every(Boolean) : met.some(Boolean);
  };
  let best: { vipLevel: string | null; limitPrice: string; marketPrice: string } = {
    vipLevel: null,
    limitPrice: input.limitPrice,
    marketPrice: input.marketPrice,
  };
  for (const tier of tiers) {
    if (reaches(tier) && feeSum(tier) < feeSum(best)) {
      best = { vipLevel: tier.level, limitPrice: tier.limitPrice, marketPrice: tier.marketPrice };
    }
  }
  return best;
}

/**
 * What a trader who signs up now with our code gets on top of the regular terms (spec section 9 and
 * the exchange detail page): the speed-up cash rate for the first `speedUpDays` days and fees
 * `discountPercent` % lower for the first `discountDays` days.
 */
export interface NewTraderTerms {
  /** Cash rate percent of the first weeks (wire format). */
  speedUpCashRate: string;
  speedUpDays: number;
  discountPercent: number;
  discountDays: number;
}

/**
 * Estimated cashback in micro-USDT of a trader who signs up now, over the first `days` days after the
 * sign-up, rounded down once: each day is the regular formula's day with that day's rate (speed-up
 * or basic) on that day's fee (discounted or not). The discount lowers the fee, so the cashback too:
 * the cashback rule pays a share of the fee actually charged (docs/cashback.md).
 */
export function estimateNewTraderMicro(input: CashbackEstimateInput & NewTraderTerms): bigint {
  const days = input.days ?? CALCULATOR.resultDays;
  const tradesTenths = BigInt(TRADES_PER_DAY_TENTHS[input.frequency]);
  const seedMicro = toScaled(input.seed, DECIMALS.usdt);
  const feeSumPpm =
    toScaled(input.limitPrice, DECIMALS.feePercent) + toScaled(input.marketPrice, DECIMALS.feePercent);
  const cashBps = toScaled(input.cashRate, DECIMALS.cashPercent);
  const speedUpBps = toScaled(input.speedUpCashRate, DECIMALS.cashPercent);
  // Σ over the days of rate (basis points) × share of the fee paid (percent).
  let ratePercentSum = 0n;
  for (let day = 0; day < days; day += 1) {
    const rate = day < input.speedUpDays ? speedUpBps : cashBps;
    const paid = day < input.discountDays ? BigInt(100 - input.discountPercent) : 100n;
    ratePercentSum += rate * paid;
  }
  // tenths (10) x average of two fees (2) x ppm (1e6) x basis points (1e4) x percent (100)
  const divisor = 10n * 2n * 1_000_000n * 10_000n * 100n;
  return (tradesTenths * seedMicro * BigInt(input.leverage) * feeSumPpm * ratePercentSum) / divisor;
}

/** The first 30 days and the first 6 months of a trader who signs up now, as USDT strings. */
export function estimateNewTraderCashback(input: Omit<CashbackEstimateInput, 'days'> & NewTraderTerms) {
  const monthlyMicro = estimateNewTraderMicro({ ...input, days: CALCULATOR.resultDays });
  const sixMonthsMicro = estimateNewTraderMicro({
    ...input,
    days: CALCULATOR.resultDays * CALCULATOR.longTermMonths,
  });
  return {
    monthly: fromScaled(monthlyMicro, DECIMALS.usdt),
    sixMonths: fromScaled(sixMonthsMicro, DECIMALS.usdt),
  };
}

/** The 30-day and 6-month estimates as USDT strings (6 decimals). */
export function estimateCashback(input: Omit<CashbackEstimateInput, 'days'>) {
  const monthlyMicro = estimateCashbackMicro({ ...input, days: CALCULATOR.resultDays });
  const sixMonthsMicro = monthlyMicro * BigInt(CALCULATOR.longTermMonths);
  return {
    monthlyMicro,
    sixMonthsMicro,
    monthly: fromScaled(monthlyMicro, DECIMALS.usdt),
    sixMonths: fromScaled(sixMonthsMicro, DECIMALS.usdt),
  };
}
