import * as z from 'zod';
import { DECIMALS, toScaled } from './catalog.js';
import { exchangeUidSchema, platIdSchema } from './exchanges.js';
import type { MessageKey } from './messages.js';
import { pageNumberSchema, pageSizeSchema } from './paging.js';
import { strictIdSchema } from './rules.js';

/**
 * Corrections (issue 12, docs/operator-console.md "Corrections"): an operator credits or debits a
 * member's money, a UID's cashback or the member's rewards, with a reason the member reads. The
 * counter-account is the platform's `adjustments` account (docs/ledger.md). A correction above the
 * approval threshold (CORRECTION_APPROVAL_USDT) waits for a second operator.
 */

const fail = (key: MessageKey) => ({ error: key });
const usdt = z.string();
const isoTime = z.string();
const pageSize = pageSizeSchema();

/** Which of the member's balances: one UID's cashback, or the member's event rewards. */
export const CORRECTION_ACCOUNTS = ['cashback', 'rewards'] as const;
export type CorrectionAccount = (typeof CORRECTION_ACCOUNTS)[number];

/** pending: waits for a second operator; posted: in the ledger; rejected: refused or withdrawn, nothing moved. */
export const CORRECTION_STATUSES = ['pending', 'posted', 'rejected'] as const;
export type CorrectionStatus = (typeof CORRECTION_STATUSES)[number];

/** The longest reason: the member reads it in their records. */
export const CORRECTION_REASON_MAX = 300;

/** A signed USDT amount typed by an operator: '-' for a debit, up to 6 decimals, never zero. */
const SIGNED_USDT = /^[+-]?\d{1,12}(\.\d{1,6})?$/;
export const signedUsdtAmountSchema = z
  .string(fail('requiredInformation'))
  .trim()
  .min(1, fail('requiredInformation'))
  .regex(SIGNED_USDT, fail('correctionAmountInvalid'))
  // Zod runs every check: the zero test must not trip over a value the pattern refused.
  .refine(
    (value) => !SIGNED_USDT.test(value) || toScaled(value.replace(/^[+-]/, ''), DECIMALS.usdt) !== 0n,
    fail('correctionAmountZero'),
  );

export const correctionReasonSchema = z
  .string(fail('operatorReasonRequired'))
  .trim()
  .min(1, fail('operatorReasonRequired'))
  .max(CORRECTION_REASON_MAX, fail('correctionReasonTooLong'));

// /elex/admin/corrections/propose {userId, account, platId?, uid?, amount, reason, requestId?}: posts at once up
// to the threshold, else waits for a second operator. A cashback correction names one of the UIDs the
// member has bound (live or ended).
export const ProposeCorrectionRequestSchema = z
  .object({
    userId: strictIdSchema,
    account: z.enum(CORRECTION_ACCOUNTS, fail('requiredInformation')),
    platId: platIdSchema.optional(),
    uid: exchangeUidSchema.optional(),
    amount: signedUsdtAmountSchema,
    reason: correctionReasonSchema,
    /**
     * A UUID the console makes per correction it means to post: a click sent again after a lost answer
     * (same id) answers the correction the first made instead of booking a second; the same id with
     * other details is refused. Optional: a call without one is not deduplicated.
     */
    requestId: z.uuid(fail('invalidValue')).optional(),
  })
  .refine((input) => input.account === 'rewards' || (input.platId !== undefined && input.uid), {
    ...fail('correctionUidRequired'),
    path: ['uid'],
  });
export type ProposeCorrectionRequest = z.input<typeof ProposeCorrectionRequestSchema>;

// /elex/admin/corrections/approve {id}: a second operator posts a pending correction.
export const DecideCorrectionRequestSchema = z.object({ id: strictIdSchema });
export type DecideCorrectionRequest = z.input<typeof DecideCorrectionRequestSchema>;

// /elex/admin/corrections/reject {id, reason}: any operator, the proposer included (a withdrawal).
export const RejectCorrectionRequestSchema = z.object({ id: strictIdSchema, reason: correctionReasonSchema });
export type RejectCorrectionRequest = z.input<typeof RejectCorrectionRequestSchema>;

// /elex/admin/corrections/list {status?, userId?, page, pageSize}: pending oldest first, others newest first.
export const CorrectionListRequestSchema = z.object({
  status: z.enum(CORRECTION_STATUSES).optional(),
  userId: strictIdSchema.optional(),
  page: pageNumberSchema,
  pageSize,
});
export type CorrectionListRequest = z.input<typeof CorrectionListRequestSchema>;

export const CorrectionSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  memberEmail: z.string().nullable(),
  account: z.enum(CORRECTION_ACCOUNTS),
  platId: z.number().int().nullable(),
  uid: z.string().nullable(),
  /** The ledger account: `cashback:<platId>:<uid>` or `rewards:<userId>`. */
  accountCode: z.string(),
  /** Signed: positive credits the member. */
  amount: usdt,
  reason: z.string(),
  status: z.enum(CORRECTION_STATUSES),
  /** Above the threshold: a second operator must approve. */
  needsApproval: z.boolean(),
  proposedBy: z.string(),
  proposedById: z.number().int().nullable(),
  proposedAt: isoTime,
  decidedBy: z.string().nullable(),
  decidedAt: isoTime.nullable(),
  /** Why it was rejected. */
  rejectionReason: z.string().nullable(),
  postedAt: isoTime.nullable(),
});
export type Correction = z.infer<typeof CorrectionSchema>;
export const CorrectionPageSchema = z.object({
  rows: z.array(CorrectionSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Corrections above this many USDT (absolute) wait for a second operator. */
  approvalThreshold: usdt,
});
export type CorrectionPage = z.infer<typeof CorrectionPageSchema>;

// /elex/user/seeAdjustments {account?, platId?, uid?, page, pageSize}: posted corrections of the member's
// rewards and live UIDs, newest first. The operator's reason is shown as written.
export const AdjustmentQuerySchema = z.object({
  account: z.enum(CORRECTION_ACCOUNTS).optional(),
  /**
   * Only the cashback corrections of this exchange's UIDs (or of this one UID): the records export of
   * one exchange adds up to its records page. The rewards, which have no exchange, are then left out.
   */
  platId: platIdSchema.optional(),
  uid: exchangeUidSchema.optional(),
  page: pageNumberSchema,
  pageSize,
});
export type AdjustmentQuery = z.input<typeof AdjustmentQuerySchema>;
export const AdjustmentRecordSchema = z.object({
  id: z.string(),
  account: z.enum(CORRECTION_ACCOUNTS),
  platId: z.number().int().nullable(),
  uid: z.string().nullable(),
  /** Signed: positive was added to the balance. */
  amount: usdt,
  reason: z.string(),
  postedAt: isoTime,
});
export type AdjustmentRecord = z.infer<typeof AdjustmentRecordSchema>;
export const AdjustmentPageSchema = z.object({
  records: z.array(AdjustmentRecordSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AdjustmentPage = z.infer<typeof AdjustmentPageSchema>;
