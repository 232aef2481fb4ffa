import * as z from 'zod';
import { CASHBACK, PAGING } from './constants.js';
import { exchangeUidSchema } from './exchanges.js';
import type { MessageKey } from './messages.js';
import { pageNumberSchema, pageSizeSchema } from './paging.js';
import { isCalendarDay, PLAT_ID_MAX, polygonAddressSchema, xmeUidSchema } from './rules.js';

/**
 * The cashback engine's calls (issue 5): UID binding, the member's balances and records.
 * USDT amounts travel as decimal strings with 6 decimals ("12.500000"); the server keeps them as
 * integer micro-USDT. Times are ISO 8601 strings in UTC.
 */

const fail = (key: MessageKey) => ({ error: key });
const usdt = z.string();
const isoTime = z.string();

const platIdSchema = z.coerce
  .number(fail('requiredInformation'))
  .int(fail('requiredInformation'))
  .positive(fail('requiredInformation'))
  .max(PLAT_ID_MAX, fail('invalidValue'));
/** A UID to bind: required first ('Please enter the required information'), then the catalog's UID rule. */
const requiredUidSchema = z
  .string(fail('requiredInformation'))
  .trim()
  .min(1, fail('requiredInformation'))
  .pipe(exchangeUidSchema);

// ---------------------------------------------------------------------------------------------------
// Binding

/**
 * Whether a UID can be bound: `eligible` (referred with our code, not bound), `boundToYou`,
 * `boundToOther` ('This account is already bound!'), `notReferred` ('Only accounts created with the
 * product's referral code can be bound': the exchange's live check said so), `notYetListed` (an
 * exchange fed by CSV or sync does not list it yet: a new account can take CASHBACK.rosterDelayHours).
 */
export const UID_ELIGIBILITY = [
  'eligible',
  'boundToYou',
  'boundToOther',
  'notReferred',
  'notYetListed',
] as const;
export type UidEligibility = (typeof UID_ELIGIBILITY)[number];

// /elex/user/verifyExchangeUid {platId, uid}: public (the /exchangeNo search), rate-limited.
export const VerifyExchangeUidRequestSchema = z.object({ platId: platIdSchema, uid: requiredUidSchema });
export const VerifyExchangeUidResponseSchema = z.object({
  platId: z.number().int(),
  uid: z.string(),
  eligibility: z.enum(UID_ELIGIBILITY),
});
export type VerifyExchangeUidResponse = z.infer<typeof VerifyExchangeUidResponseSchema>;

// /elex/user/bindExchangeUid {platId, uid, address}: member; success message 'Binding successful'.
export const BindExchangeUidRequestSchema = z.object({
  platId: platIdSchema,
  uid: requiredUidSchema,
  /** The Polygon address that receives this UID's withdrawals (EIP-55 checked). */
  address: polygonAddressSchema,
});
export type BindExchangeUidRequest = z.input<typeof BindExchangeUidRequestSchema>;

/**
 * The content of a bindExchangeUid refusal (state 1002): its message key, so a client tells 'not
 * referred' (which has its own explanation page) from the other refusals without reading the
 * translated message.
 */
export const BindingRefusalSchema = z.object({
  messageKey: z.enum([
    'uidNotReferred',
    'uidAlreadyBound',
    'exchangeUnavailable',
    'uidNotYetListed',
    'exchangeRetired',
    'bindOwnImport',
    'bindOwnRoster',
  ]),
});
export type BindingRefusal = z.infer<typeof BindingRefusalSchema>;

export const ExchangeBindSchema = z.object({
  platId: z.number().int(),
  uid: z.string(),
  /** Cashback plus event rewards still withdrawable for this UID. */
  balance: usdt,
  /** The receiving address, checksummed. */
  address: z.string(),
  boundAt: isoTime,
});
export type ExchangeBind = z.infer<typeof ExchangeBindSchema>;

// /elex/user/bindXmeUid {xmeUid}: links the member's XME account (for the binding task).
export const BindXmeUidRequestSchema = z.object({ xmeUid: xmeUidSchema });
/** The XME account bound now, as stored: one the binding task locked keeps its first letter case. */
export const BindXmeUidResponseSchema = z.object({ xmeUid: z.string() });

// ---------------------------------------------------------------------------------------------------
// Member views

// /elex/user/myInfo {}: spec section 3.
export const MyInfoSchema = z.object({
  exchangeBinds: z.array(ExchangeBindSchema),
  /** Event rewards credited to the member (invite bonuses ...), all time. */
  totalReward: usdt,
  /** Cashback credited to the member's bound UIDs, all time. */
  totalRebate: usdt,
});
export type MyInfo = z.infer<typeof MyInfoSchema>;

export const REBATE_STATUSES = ['pending', 'completed', 'failed'] as const;
export type RebateStatus = (typeof REBATE_STATUSES)[number];

export const RebateRecordSchema = z.object({
  id: z.string(),
  platId: z.number().int(),
  uid: z.string(),
  periodStart: isoTime,
  periodEnd: isoTime,
  tradingVolume: usdt,
  fee: usdt,
  /** The cashback of this record (fee x cash rate, capped by the commission received). */
  amount: usdt,
  status: z.enum(REBATE_STATUSES),
  /** Why a record failed, a message key the web translates. */
  failureReason: z.string().nullable(),
  createdAt: isoTime,
});
export type RebateRecord = z.infer<typeof RebateRecordSchema>;

const pageSize = pageSizeSchema();
const dayFilter = z.string().refine(isCalendarDay, fail('invalidValue')).optional();

// /elex/user/seeRebateData: the member's records, paged and filterable.
export const RebateQuerySchema = z
  .object({
    platId: platIdSchema.optional(),
    uid: exchangeUidSchema.optional(),
    status: z.enum(REBATE_STATUSES).optional(),
    /** Inclusive UTC days on the period's end, YYYY-MM-DD. */
    from: dayFilter,
    to: dayFilter,
    /**
     * Up to `PAGING.maxPage` for a page by number; with `after` any safe integer: the page is read
     * after the cursor and its number is only what the pager shows (a walk deep into a long list).
     */
    page: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).default(1),
    /** Up to 100, or up to `CASHBACK.exportPageSize` for the first page and pages read by cursor. */
    pageSize: z.coerce.number().int().min(1).max(CASHBACK.exportPageSize).default(20),
    /**
     * A walk of the whole list (the CSV export): the records after this one, the previous page's `next`.
     * The page is then read from there, whatever `page` says: each page costs the same, where a page
     * number far into a long list made the database skip every record before it.
     */
    after: z
      .string()
      // At most 15 digits: every such id is exact as a JavaScript number.
      .regex(/^[1-9]\d{0,14}$/, fail('invalidValue'))
      .optional(),
  })
  .refine((query) => query.pageSize <= PAGING.maxPageSize || query.page === 1 || query.after !== undefined, {
    error: 'invalidValue',
    path: ['pageSize'],
  })
  .refine((query) => query.page <= PAGING.maxPage || query.after !== undefined, {
    error: 'invalidValue',
    path: ['page'],
  });
export type RebateQuery = z.input<typeof RebateQuerySchema>;
/**
 * The content of a seeRebateData refusal of a page number too deep into a long list (state 1001, issue
 * 14): a page wholly between the newest and the oldest `CASHBACK.pageReach` records. A client tells it
 * from a refused `after` without reading the translated message; `after` reads any depth.
 */
export const RebatePageTooDeepSchema = z.object({ messageKey: z.literal('rebatePageTooDeep') });
export const RebatePageSchema = z.object({
  records: z.array(RebateRecordSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** What `after` takes for the records that follow this page; null when the page ends the list. */
  next: z.string().nullable(),
});
export type RebatePage = z.infer<typeof RebatePageSchema>;

// /elex/user/seeRebateByExchangeId {platId, uid}: one bound UID's detail page.
export const BindingDetailRequestSchema = z.object({ platId: platIdSchema, uid: requiredUidSchema });
export const BindingDetailSchema = z.object({
  platId: z.number().int(),
  uid: z.string(),
  address: z.string(),
  boundAt: isoTime,
  balance: usdt,
  totalRebate: usdt,
  pendingRebate: usdt,
  /**
   * Cashback paid per trading day: completed records summed by the UTC day their period starts, the
   * last 90 days, oldest first; days without cashback are absent.
   */
  daily: z.array(z.object({ day: z.string(), amount: usdt })),
  /** When the exchange's data last arrived for this UID, or null. */
  lastDataAt: isoTime.nullable(),
  /** Until when the new binding's money is held for the ownership check, or null (withdrawable). */
  heldUntil: isoTime.nullable(),
  /** An open dispute freezes the UID's money. */
  frozen: z.boolean(),
});
export type BindingDetail = z.infer<typeof BindingDetailSchema>;

// /elex/exchange/expireRebate {platId?}: amounts still pending settlement, per bound UID.
export const PendingRebateRequestSchema = z.object({ platId: platIdSchema.optional() });
export const PendingRebateSchema = z.object({
  /** Every live binding (of the exchange asked for), with the estimate of its pending records. */
  pending: z.array(z.object({ platId: z.number().int(), uid: z.string(), amount: usdt })),
  total: usdt,
});
export type PendingRebates = z.infer<typeof PendingRebateSchema>;

// /elex/user/seeRewardData {page, pageSize}: event rewards (invite bonuses ...), newest first.
export const RewardQuerySchema = z.object({ page: pageNumberSchema, pageSize });
export const RewardRecordSchema = z.object({
  id: z.string(),
  /** What the reward is for, a key the web translates (e.g. 'inviteBonus'). */
  kind: z.string(),
  amount: usdt,
  /** The friend's masked e-mail for an invite bonus, else null. */
  source: z.string().nullable(),
  createdAt: isoTime,
});
export const RewardPageSchema = z.object({
  records: z.array(RewardRecordSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type RewardRecord = z.infer<typeof RewardRecordSchema>;
export type RewardPage = z.infer<typeof RewardPageSchema>;
