import * as z from 'zod';
import {
  DECIMAL_PATTERN,
  DECIMALS,
  EXCHANGE_UID_PATTERN,
  SEED_USDT,
  toScaled,
  VIP_RULES,
} from './catalog.js';
import { TRADE_FREQUENCIES } from './constants.js';
import type { MessageKey } from './messages.js';
import { leverageSchema, PLAT_ID_MAX } from './rules.js';

/**
 * The public catalog of partner exchanges (issue 4): the home list, the exchange dictionary, the
 * detail page and the cashback estimate.
 *
 * Units on the wire, all decimal strings (never floats):
 * - fee rates (`limitPrice` maker, `marketPrice` taker): percent of the order value with 4 decimals,
 *   "0.0200" is 0.02 %. One unit of the last digit is one part per million of the order value.
 * - cash rates (`cashRate`, `speedUpCashRate`): percent of the fee paid back with 2 decimals,
 *   "40.00" is 40 %. One unit of the last digit is one basis point.
 * - USDT amounts: 6 decimals ("12.500000"), as everywhere else.
 */

const fail = (key: MessageKey) => ({ error: key });

// ---------------------------------------------------------------------------------------------------
// Shapes

const decimalString = z.string().regex(DECIMAL_PATTERN);

/** A tag shown on an exchange: a key the web translates (`exchanges.tags.<tag>`) and its icon. */
export const ExchangeMarkSchema = z.object({ tag: z.string(), iconUrl: z.string() });
export type ExchangeMark = z.infer<typeof ExchangeMarkSchema>;

/** spec section 3: Activity (platId, title, activityUrl); the title is in the `lang` header's language. */
export const ActivitySchema = z.object({
  platId: z.number().int(),
  title: z.string(),
  activityUrl: z.string(),
});
export type Activity = z.infer<typeof ActivitySchema>;

/** spec section 3: allExchange row, plus what the home tabs and logos need. */
export const ExchangeIndexRowSchema = z.object({
  platId: z.number().int(),
  platname: z.string(),
  abbreviation: z.string(),
  logo: z.string(),
  /** Our editorial rating out of 10, one decimal. */
  score: z.number(),
  /** Basic cashback: percent of the fees paid back. */
  cashRate: decimalString,
  /** Maker (limit order) fee, percent. */
  limitPrice: decimalString,
  /** Taker (market order) fee, percent. */
  marketPrice: decimalString,
  /** Average cashback per trader over the last 30 days, USDT. */
  personAvg: decimalString,
  mark: z.array(ExchangeMarkSchema),
  isRecommended: z.boolean(),
  isRacing: z.boolean(),
});
export type ExchangeIndexRow = z.infer<typeof ExchangeIndexRowSchema>;

/** spec section 3: fames row, the hall of fame (largest cashback paid). */
export const FameSchema = z.object({ platId: z.number().int(), amount: decimalString });
export type Fame = z.infer<typeof FameSchema>;

/** `POST /elex/exchange/index`, empty payload. allExchange comes in catalog order. */
export const ExchangeIndexResponseSchema = z.object({
  allExchange: z.array(ExchangeIndexRowSchema),
  fames: z.array(FameSchema),
  generalActivity: z.array(ActivitySchema),
  hotActivity: z.array(ActivitySchema),
});
export type ExchangeIndexResponse = z.infer<typeof ExchangeIndexResponseSchema>;

/**
 * One entry of the exchange dictionary, `GET /elex/user/config/res.json` (spec section 3: id, logo,
 * Abbreviation, other fields not shown). `Abbreviation` keeps the spec's capital A.
 */
export const ExchangeDictionaryEntrySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  Abbreviation: z.string(),
  logo: z.string(),
  /**
   * The exchange's sign-up page carrying our referral code, built on the server from the partner's
   * link template and `referralCode` (they cannot disagree). Null when the partner's link is not ready
   * and the server runs in production: no trader is sent through a link that would not refer them.
   */
  signupUrl: z.string().nullable(),
  /** Our referral code at this exchange; null exactly when `signupUrl` is. */
  referralCode: z.string().nullable(),
  score: z.number(),
  cashRate: decimalString,
  speedUpCashRate: decimalString,
  limitPrice: decimalString,
  marketPrice: decimalString,
  newUserDiscountPercent: z.number().int(),
  newUserDiscountDays: z.number().int(),
  mark: z.array(ExchangeMarkSchema),
  isRecommended: z.boolean(),
  isRacing: z.boolean(),
  /** The day the fee figures were last checked against a published source (YYYY-MM-DD), or null. */
  feesCheckedOn: z.string().nullable(),
  /**
   * No longer a partner (issue 12): kept in the dictionary so members' UIDs, records and balances
   * there still show its name and logo, but left out of every list a visitor chooses from. The server
   * always sends it; absent reads as not retired.
   */
  retired: z.boolean().optional(),
});
export type ExchangeDictionaryEntry = z.infer<typeof ExchangeDictionaryEntrySchema>;

export const ExchangeDictionarySchema = z.object({
  exchangeList: z.array(ExchangeDictionaryEntrySchema),
  /** Each exchange's score, by id (the spec's second list). */
  score: z.array(z.object({ id: z.number().int(), score: z.number() })),
});
export type ExchangeDictionary = z.infer<typeof ExchangeDictionarySchema>;

/** An exchange id on the wire: a positive integer, as a number or digits (a form-encoded body sends text). */
export const platIdSchema = z
  .union(
    [
      z.number(),
      z
        .string()
        .trim()
        .regex(/^\d{1,10}$/),
    ],
    {
      error: (issue) =>
        issue.input === undefined || issue.input === null ? 'requiredValue' : 'invalidValue',
    },
  )
  .transform(Number)
  .pipe(
    z
      .number()
      .int(fail('invalidValue'))
      .positive(fail('invalidValue'))
      .max(PLAT_ID_MAX, fail('invalidValue')),
  );

/** `POST /elex/exchange/detail` (payload not shown in the spec: designed for the detail page). */
export const ExchangeDetailRequestSchema = z.object({ platId: platIdSchema });
export type ExchangeDetailRequest = z.input<typeof ExchangeDetailRequestSchema>;

export const VipTierSchema = z.object({
  level: z.string(),
  /** 30-day trading volume requirement, whole USDT; null when the tier has none. */
  volume30d: decimalString.nullable(),
  /** Previous-day asset requirement; the symbol is the asset counted (USDT, or BNB at Binance). */
  asset: z.object({ amount: decimalString, symbol: z.string() }).nullable(),
  limitPrice: decimalString,
  marketPrice: decimalString,
});
export type VipTier = z.infer<typeof VipTierSchema>;

export const RankingRowSchema = z.object({
  rank: z.number().int(),
  /** Masked on the server: the whole UID never leaves it (e.g. 12****89). */
  uid: z.string(),
  amount: decimalString,
});
export type RankingRow = z.infer<typeof RankingRowSchema>;

export const ExchangeDetailResponseSchema = z.object({
  platId: z.number().int(),
  platname: z.string(),
  abbreviation: z.string(),
  logo: z.string(),
  score: z.number(),
  mark: z.array(ExchangeMarkSchema),
  /**
   * issue 12: the partner was retired. Its page still opens (old links, members' history) and says so;
   * it offers no sign-up and no binding. Absent reads as not retired.
   */
  retired: z.boolean().optional(),
  /** As in the exchange dictionary: null when the partner's sign-up link is not ready (production). */
  signupUrl: z.string().nullable(),
  referralCode: z.string().nullable(),
  limitPrice: decimalString,
  marketPrice: decimalString,
  cashRate: decimalString,
  speedUpCashRate: decimalString,
  speedUpWeeks: z.number().int(),
  newUserDiscountPercent: z.number().int(),
  newUserDiscountDays: z.number().int(),
  vipRule: z.enum(VIP_RULES),
  vipTiers: z.array(VipTierSchema),
  personAvg: decimalString,
  rankingDays: z.number().int(),
  ranking: z.array(RankingRowSchema),
  activities: z.array(ActivitySchema),
  feesCheckedOn: z.string().nullable(),
});
export type ExchangeDetailResponse = z.infer<typeof ExchangeDetailResponseSchema>;

// ---------------------------------------------------------------------------------------------------
// UIDs

/** A UID as exchanges show it: 4 to 32 letters, digits, '-' or '_'. */
export const exchangeUidSchema = z
  .string(fail('uidInvalid'))
  .trim()
  .regex(EXCHANGE_UID_PATTERN, fail('uidInvalid'));

// ---------------------------------------------------------------------------------------------------
// The cashback estimate (calculator). docs/calculator.md explains the formula.

const SEED_PATTERN = /^\d{1,9}(\.\d{1,6})?$/;

/** A seed in USDT: digits with up to 6 decimals (thousands separators allowed), 1 to 100,000,000. */
export const seedUsdtSchema = z
  .union([z.string(), z.number()], fail('seedInvalid'))
  .transform((value) => String(value).replace(/[\s,]/g, ''))
  .pipe(
    z
      .string()
      .regex(SEED_PATTERN, fail('seedInvalid'))
      .refine((value) => {
        if (!SEED_PATTERN.test(value)) return true; // the pattern has said so already
        const micro = toScaled(value, DECIMALS.usdt);
        return (
          micro >= toScaled(SEED_USDT.min, DECIMALS.usdt) && micro <= toScaled(SEED_USDT.max, DECIMALS.usdt)
        );
      }, fail('seedInvalid')),
  );

export const tradeFrequencySchema = z.enum(TRADE_FREQUENCIES, fail('frequencyRequired'));

/** `POST /elex/exchange/estimate`: the calculator's four answers. */
export const CashbackEstimateRequestSchema = z.object({
  platId: z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^\d{1,10}$/),
      ],
      fail('exchangeRequired'),
    )
    .transform(Number)
    .pipe(z.number().int(fail('exchangeRequired')).positive(fail('exchangeRequired'))),
  leverage: leverageSchema,
  seed: seedUsdtSchema,
  frequency: tradeFrequencySchema,
});
export type CashbackEstimateRequest = z.input<typeof CashbackEstimateRequestSchema>;

export const CashbackEstimateResponseSchema = z.object({
  platId: z.number().int(),
  /** Estimated cashback over 30 days, USDT. */
  monthly: decimalString,
  /** Six times the 30-day figure, USDT. */
  sixMonths: decimalString,
  /**
   * The rates the figures were computed with, as the server holds them now: the fees of the VIP level
   * the estimated 30-day volume reaches (`vipLevel`), or the regular fees (`vipLevel` null).
   */
  limitPrice: decimalString,
  marketPrice: decimalString,
  cashRate: decimalString,
  vipLevel: z.string().nullable(),
  /**
   * The share of its traders' fees the exchange paid us in the last 30 days (percent), when it is lower
   * than the catalog's cash rate or speed-up rate and so capped one of them; null when nothing was
   * capped. The estimate never promises more than we receive, and the page quotes this share.
   */
  commissionShare: decimalString.nullable(),
  /**
   * A trader who signs up now with our code: the first 30 days and the first 6 months, with the
   * speed-up rate for `speedUpDays` days and fees `discountPercent` % lower for `discountDays` days.
   * `monthly` and `sixMonths` above are a regular period, once both are over.
   */
  newTrader: z.object({
    monthly: decimalString,
    sixMonths: decimalString,
    speedUpCashRate: decimalString,
    speedUpDays: z.number().int(),
    discountPercent: z.number().int(),
    discountDays: z.number().int(),
  }),
  /** The same answers at every partner, most cashback first (the chart). */
  comparisons: z.array(z.object({ platId: z.number().int(), platname: z.string(), monthly: decimalString })),
});
export type CashbackEstimateResponse = z.infer<typeof CashbackEstimateResponseSchema>;
