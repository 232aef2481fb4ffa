import * as z from 'zod';
import { DECIMAL_PATTERN, DECIMALS, toScaled, VIP_RULES } from './catalog.js';
import { ExchangeMarkSchema, exchangeUidSchema, platIdSchema } from './exchanges.js';
import type { MessageKey } from './messages.js';
import { pageNumberSchema, pageSizeSchema } from './paging.js';
import { PayoutSummarySchema } from './payouts.js';
import { isAllowedAppLink, isCalendarDay, strictIdSchema } from './rules.js';
import { referralCodeSchema, SIGNUP_PROBLEMS, signupUrlTemplateSchema } from './signup-links.js';
import { TASK_GROUPS, TASK_KINDS } from './tasks.js';
import { txHashSchema, WITHDRAWAL_STATUSES } from './withdrawals.js';

/**
 * The operator console (issue 6, docs/operator-console.md). Every call is `POST /elex/admin/<call>`
 * and needs an operator's session: no token answers -5000, a member's token 1003 'forbidden'.
 * Amounts are USDT decimal strings with 6 decimals, times ISO 8601 in UTC, days YYYY-MM-DD (UTC).
 */

const fail = (key: MessageKey) => ({ error: key });
const usdt = z.string();
const isoTime = z.string();

const pageSize = pageSizeSchema();
const idSchema = strictIdSchema;

/** A page of rows: the rows, how many match, which page. */
export function pageOf<T extends z.ZodType>(row: T) {
  return z.object({
    rows: z.array(row),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
}

/** A reason an operator writes for a refusal or an unbinding: shown to the member or kept in the log. */
export const operatorReasonSchema = z
  .string(fail('operatorReasonRequired'))
  .trim()
  .min(1, fail('operatorReasonRequired'))
  .max(500, fail('invalidValue'));

// ---------------------------------------------------------------------------------------------------
// whoami

// /elex/admin/whoami {}: the operator calling. A member hears 1003: the web shows its forbidden page.
export const OperatorSchema = z.object({
  userId: z.number().int(),
  email: z.string(),
  userCode: z.string(),
});
export type Operator = z.infer<typeof OperatorSchema>;

// ---------------------------------------------------------------------------------------------------
// Dashboard

export const DASHBOARD_RANGES = [7, 30, 90] as const;

// /elex/admin/dashboard {days}: the last `days` UTC days, today included.
export const DashboardRequestSchema = z.object({
  days: z.coerce
    .number()
    .int()
    .refine((days) => (DASHBOARD_RANGES as readonly number[]).includes(days), fail('invalidValue'))
    .default(30),
});
export type DashboardRequest = z.input<typeof DashboardRequestSchema>;

export const DashboardDaySchema = z.object({
  day: z.string(),
  signUps: z.number().int(),
  /** UIDs bound that day. */
  boundUids: z.number().int(),
  /** Cashback credited to UIDs by settled rebates. */
  cashbackAccrued: usdt,
  /**
   * Paid out on chain by approved withdrawals (lines into `payout`): the cashback and the rewards
   * parts both, whatever the name says; the console labels it "Withdrawals paid".
   */
  cashbackPaid: usdt,
});
export type DashboardDay = z.infer<typeof DashboardDaySchema>;

/** A partner whose sign-up link is not ready, and why. */
export const PartnerNotReadySchema = z.object({
  platId: z.number().int(),
  name: z.string(),
  problems: z.array(z.enum(SIGNUP_PROBLEMS)),
});
export type PartnerNotReady = z.infer<typeof PartnerNotReadySchema>;

export const DashboardSchema = z.object({
  days: z.array(DashboardDaySchema),
  totals: z.object({
    members: z.number().int(),
    liveBindings: z.number().int(),
    signUps: z.number().int(),
    boundUids: z.number().int(),
    cashbackAccrued: usdt,
    cashbackPaid: usdt,
  }),
  /** Withdrawals waiting for a decision: the funds on hold. */
  pendingWithdrawals: z.object({ count: z.number().int(), amount: usdt }),
  /** First-party page views in the range by route, most viewed first (the console's own pages left out). */
  pageViews: z.array(z.object({ page: z.string(), views: z.number().int() })),
  /** Partners whose sign-up link cannot be offered yet, in catalog order (production hides their link). */
  partnersNotReady: z.array(PartnerNotReadySchema),
});
export type Dashboard = z.infer<typeof DashboardSchema>;

// ---------------------------------------------------------------------------------------------------
// Members

// /elex/admin/searchMembers {query, suspendedOnly?, page, pageSize}: by e-mail (part of it), user
// code, invite code or UID; `suspendedOnly` keeps the suspended members (then the text may be empty).
export const SearchMembersRequestSchema = z
  .object({
    query: z.string().trim().max(200).default(''),
    suspendedOnly: z.boolean().default(false),
    page: pageNumberSchema,
    pageSize,
  })
  .refine((request) => request.suspendedOnly || request.query.length > 0, {
    error: 'requiredInformation',
    path: ['query'],
  });
export type SearchMembersRequest = z.input<typeof SearchMembersRequestSchema>;

export const MemberSummarySchema = z.object({
  userId: z.number().int(),
  /** Null once the account was deleted. */
  email: z.string().nullable(),
  userCode: z.string(),
  inviteCode: z.string(),
  createdAt: isoTime,
  deletedAt: isoTime.nullable(),
  isOperator: z.boolean(),
  liveBindings: z.number().int(),
  /** When an operator suspended the account (it cannot log in or withdraw), or null. */
  suspendedAt: isoTime.nullable(),
});
export type MemberSummary = z.infer<typeof MemberSummarySchema>;
export const MemberSearchPageSchema = pageOf(MemberSummarySchema);
export type MemberSearchPage = z.infer<typeof MemberSearchPageSchema>;

// /elex/admin/memberDetail {userId}
export const MemberRequestSchema = z.object({ userId: idSchema });

export const AdminBindingSchema = z.object({
  platId: z.number().int(),
  uid: z.string(),
  address: z.string(),
  boundAt: isoTime,
  unboundAt: isoTime.nullable(),
  unbindReason: z.string().nullable(),
  /** The UID's cashback account now (it stays with the UID after an unbinding). */
  balance: usdt,
});
export type AdminBinding = z.infer<typeof AdminBindingSchema>;

export const MemberDetailSchema = z.object({
  member: MemberSummarySchema.extend({
    inviterId: z.number().int().nullable(),
    locale: z.string(),
    withdrawalLockedUntil: isoTime.nullable(),
    /** The suspension in force: why, by whom (the operator's e-mail), since when; null when none. */
    suspension: z.object({ at: isoTime, reason: z.string(), by: z.string().nullable() }).nullable(),
    /** The last time an operator lifted the 72 h withdrawal lock, from the audit log; null when never. */
    lockLifted: z
      .object({ at: isoTime, reason: z.string(), by: z.string(), lockedUntil: isoTime.nullable() })
      .nullable(),
  }),
  bindings: z.array(AdminBindingSchema),
  balances: z.object({
    /** Event rewards (invite bonuses ...) not yet withdrawn. */
    rewards: usdt,
    /** Sum of the live bindings' cashback accounts. */
    cashback: usdt,
  }),
});
export type MemberDetail = z.infer<typeof MemberDetailSchema>;

// /elex/admin/memberLedger {userId, page, pageSize}: the ledger lines of the member's reward account
// and of every UID the member ever bound (those no longer bound marked), newest first, with each
// account's balance after the line.
export const MemberLedgerRequestSchema = z.object({
  userId: idSchema,
  page: pageNumberSchema,
  pageSize,
});
export const LedgerEntrySchema = z.object({
  lineId: z.number().int(),
  at: isoTime,
  /** The journal's kind: 'rebate', 'inviteBonus', the withdrawal kinds ... */
  kind: z.string(),
  memo: z.string().nullable(),
  account: z.string(),
  /** Signed: positive credits the account. */
  amount: usdt,
  balanceAfter: usdt,
  /** A line of the cashback account of a UID the member bound once and no longer holds. */
  bindingEnded: z.boolean(),
});
export type LedgerEntry = z.infer<typeof LedgerEntrySchema>;
export const MemberLedgerPageSchema = pageOf(LedgerEntrySchema);
export type MemberLedgerPage = z.infer<typeof MemberLedgerPageSchema>;

// /elex/admin/unbindUid {userId, platId, uid, reason}: ends a disputed binding of that member (refused
// when the UID is held by anyone else now). The UID's cashback stays on its ledger account until the
// UID is bound again.
export const UnbindUidRequestSchema = z.object({
  userId: idSchema,
  platId: platIdSchema,
  uid: exchangeUidSchema,
  reason: operatorReasonSchema,
});
export type UnbindUidRequest = z.input<typeof UnbindUidRequestSchema>;

// /elex/admin/suspendMember {userId, reason}: the member can no longer log in or withdraw, and every
// session of theirs ends at once. The reason is shown to the member when a login is refused.
// /elex/admin/reinstateMember {userId, reason}: lifts the suspension. Both answer the member's detail.
export const MemberActionRequestSchema = z.object({ userId: idSchema, reason: operatorReasonSchema });
export type MemberActionRequest = z.input<typeof MemberActionRequestSchema>;

// /elex/admin/liftWithdrawalLock {userId, reason}: ends the 72 h withdrawal lock after a password change
// or reset now; answers the member's detail.
export const LiftWithdrawalLockRequestSchema = MemberActionRequestSchema.extend({});

// ---------------------------------------------------------------------------------------------------
// The catalog editor

/**
 * A decimal typed by an operator: at most `decimals` places and at most `max` (inclusive), as a
 * string (never a float). The server stores it as an integer at that scale.
 */
export function boundedDecimalSchema(decimals: number, max: string) {
  return z
    .string(fail('requiredValue'))
    .trim()
    .min(1, fail('requiredValue'))
    .refine((value) => {
      const match = DECIMAL_PATTERN.exec(value);
      if (!match || (match[2]?.length ?? 0) > decimals || (match[1]?.length ?? 0) > 12) return false;
      return toScaled(value, decimals) <= toScaled(max, decimals);
    }, fail('invalidValue'));
}

/** A whole number typed as text (VIP volumes and asset amounts), or empty for none. */
const optionalWholeSchema = z
  .string()
  .trim()
  .regex(/^(\d{1,15})?$/, fail('invalidValue'))
  .nullable()
  .transform((value) => (value ? value : null));

const httpsUrlSchema = z
  .string(fail('requiredValue'))
  .trim()
  .max(2000, fail('invalidValue'))
  .refine((value) => {
    try {
      return new URL(value).protocol === 'https:';
    } catch {
      return false;
    }
  }, fail('urlInvalid'));

/** A logo or icon: a path on this site (`/logos/...` drawn by us, `/media/...` uploaded). */
export const sitePathSchema = z
  .string(fail('requiredValue'))
  .trim()
  .regex(/^\/(logos|media)\/[A-Za-z0-9._/-]{1,200}$/, fail('invalidValue'))
  .refine((value) => !value.includes('..'), fail('invalidValue'));

const dayOrNullSchema = z
  .string()
  .trim()
  .nullable()
  .transform((value) => (value ? value : null))
  .refine((value) => value === null || isCalendarDay(value), fail('invalidValue'));

/** Fee rates: percent with 4 decimals, at most 10 %. Cash rates: percent with 2 decimals, at most 100 %. */
export const feePercentSchema = boundedDecimalSchema(DECIMALS.feePercent, '10');
export const cashPercentSchema = boundedDecimalSchema(DECIMALS.cashPercent, '100');
/** Our rating out of 10, one decimal. */
export const scoreSchema = boundedDecimalSchema(1, '10');

export const AdminVipTierSchema = z.object({
  level: z.string(fail('requiredValue')).trim().min(1, fail('requiredValue')).max(32, fail('invalidValue')),
  /** 30-day volume requirement, whole USDT; null for none. */
  volume30d: optionalWholeSchema,
  /** Previous-day asset requirement, whole units; null for none. */
  assetAmount: optionalWholeSchema,
  /** The asset counted (USDT, BNB ...); needed with an amount. */
  assetSymbol: z
    .string()
    .trim()
    .regex(/^([A-Z0-9]{2,10})?$/, fail('invalidValue'))
    .nullable()
    .transform((value) => (value ? value : null)),
  limitPrice: feePercentSchema,
  marketPrice: feePercentSchema,
});
export type AdminVipTier = z.output<typeof AdminVipTierSchema>;
export type AdminVipTierInput = z.input<typeof AdminVipTierSchema>;

export const ACTIVITY_KINDS = ['general', 'hot'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

const titleSchema = z
  .string(fail('requiredValue'))
  .trim()
  .min(1, fail('requiredValue'))
  .max(200, fail('invalidValue'));

export const AdminActivitySchema = z.object({
  id: z.number().int(),
  platId: z.number().int(),
  kind: z.enum(ACTIVITY_KINDS),
  titles: z.object({ en: z.string(), zh: z.string(), ko: z.string() }),
  activityUrl: z.string(),
  position: z.number().int(),
  /** The activity's version: a change sends it back (`SaveActivityRequestSchema`). */
  updatedAt: isoTime,
});
export type AdminActivity = z.infer<typeof AdminActivitySchema>;

/** The editable fields of a partner (everything but its fixed platId). */
export const ExchangeFieldsSchema = z.object({
  name: z.string(fail('requiredValue')).trim().min(1, fail('requiredValue')).max(64, fail('invalidValue')),
  abbreviation: z
    .string(fail('requiredValue'))
    .trim()
    .regex(/^[A-Za-z0-9]{1,16}$/, fail('invalidValue')),
  logo: sitePathSchema,
  position: z.coerce.number(fail('requiredValue')).int(fail('invalidValue')).min(0).max(100_000),
  score: scoreSchema,
  cashRate: cashPercentSchema,
  speedUpCashRate: cashPercentSchema,
  limitPrice: feePercentSchema,
  marketPrice: feePercentSchema,
  vipRule: z.enum(VIP_RULES),
  marks: z
    .array(
      ExchangeMarkSchema.extend({
        tag: z
          .string()
          .trim()
          .regex(/^[A-Za-z][A-Za-z0-9]{0,31}$/, fail('invalidValue')),
        iconUrl: sitePathSchema,
      }),
    )
    .max(8, fail('invalidValue')),
  /** The sign-up link with `{code}` where the referral code goes (signup-links.ts). */
  signupUrlTemplate: signupUrlTemplateSchema,
  referralCode: referralCodeSchema,
  newUserDiscountPercent: z.coerce.number(fail('requiredValue')).int(fail('invalidValue')).min(0).max(100),
  newUserDiscountDays: z.coerce.number(fail('requiredValue')).int(fail('invalidValue')).min(0).max(3650),
  isRecommended: z.boolean(),
  isRacing: z.boolean(),
  feesCheckedOn: dayOrNullSchema,
});
export type ExchangeFields = z.output<typeof ExchangeFieldsSchema>;

/**
 * Where a partner is in its life (issue 12): a `draft` is seen only in the console until it is
 * published; `live` is on every public list; `retired` left the public lists and takes no new
 * bindings, while the UIDs bound there keep their records and balances (and can be withdrawn).
 */
export const EXCHANGE_STATUSES = ['draft', 'live', 'retired'] as const;
export type ExchangeStatus = (typeof EXCHANGE_STATUSES)[number];
export type ExchangeFieldsInput = z.input<typeof ExchangeFieldsSchema>;

/** One partner as the editor sees it: every field, its VIP table and its activities. */
export const CatalogExchangeSchema = z.object({
  platId: z.number().int(),
  status: z.enum(EXCHANGE_STATUSES),
  name: z.string(),
  abbreviation: z.string(),
  logo: z.string(),
  position: z.number().int(),
  score: z.string(),
  cashRate: z.string(),
  speedUpCashRate: z.string(),
  limitPrice: z.string(),
  marketPrice: z.string(),
  vipRule: z.enum(VIP_RULES),
  marks: z.array(ExchangeMarkSchema),
  /** The sign-up link with `{code}`; `signupProblems()` says whether traders can be offered it. */
  signupUrlTemplate: z.string(),
  referralCode: z.string(),
  newUserDiscountPercent: z.number().int(),
  newUserDiscountDays: z.number().int(),
  isRecommended: z.boolean(),
  isRacing: z.boolean(),
  feesCheckedOn: z.string().nullable(),
  updatedAt: isoTime,
  vipTiers: z.array(
    z.object({
      level: z.string(),
      volume30d: z.string().nullable(),
      assetAmount: z.string().nullable(),
      assetSymbol: z.string().nullable(),
      limitPrice: z.string(),
      marketPrice: z.string(),
    }),
  ),
  activities: z.array(AdminActivitySchema),
});
export type CatalogExchange = z.infer<typeof CatalogExchangeSchema>;

// /elex/admin/catalog {}: every partner in catalog order.
export const CatalogSchema = z.object({ exchanges: z.array(CatalogExchangeSchema) });
export type Catalog = z.infer<typeof CatalogSchema>;

/**
 * The `updatedAt` of the partner the editor loaded, sent back with a save: the save is refused
 * (`exchangeEditedMeanwhile`) when the partner changed since, so one operator's save never silently
 * undoes another's (a lost update). Every write to a partner moves its `updatedAt` forward.
 */
export const expectedUpdatedAtSchema = z
  .string(fail('requiredValue'))
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, fail('invalidValue'))
  .refine((value) => !Number.isNaN(Date.parse(value)), fail('invalidValue'));

// /elex/admin/updateExchange {platId, updatedAt, ...fields}: saves every field at once, if the partner
// is still as the editor loaded it; answers the partner.
export const UpdateExchangeRequestSchema = ExchangeFieldsSchema.extend({
  platId: platIdSchema,
  updatedAt: expectedUpdatedAtSchema,
});
export type UpdateExchangeRequest = z.input<typeof UpdateExchangeRequestSchema>;

// /elex/admin/createExchange {name, abbreviation}: a new partner, as a draft with a fresh platId and
// neutral figures (no fees, no cashback, the placeholder referral code): the editor completes it.
export const CreateExchangeRequestSchema = ExchangeFieldsSchema.pick({ name: true, abbreviation: true });
export type CreateExchangeRequest = z.input<typeof CreateExchangeRequestSchema>;

// /elex/admin/publishExchange, /retireExchange, /reinstateExchange {platId, updatedAt}: draft -> live,
// live -> retired, retired -> live, if the partner is still the version the page showed (`updatedAt`):
// otherwise refused with `exchangeStatusEditedMeanwhile`, so a publish never makes live what another
// operator saved unseen. Each answers the partner, with its new version.
export const ExchangeStatusRequestSchema = z.object({
  platId: platIdSchema,
  updatedAt: expectedUpdatedAtSchema,
});
export type ExchangeStatusRequest = z.input<typeof ExchangeStatusRequestSchema>;

// /elex/admin/replaceVipTiers {platId, updatedAt, tiers}: the whole VIP table, in level order, if the
// partner is still as the editor loaded it.
export const ReplaceVipTiersRequestSchema = z.object({
  platId: platIdSchema,
  updatedAt: expectedUpdatedAtSchema,
  tiers: z
    .array(
      AdminVipTierSchema.refine((tier) => (tier.assetAmount === null) === (tier.assetSymbol === null), {
        error: 'invalidValue',
        path: ['assetSymbol'],
      }),
    )
    .max(20, fail('invalidValue')),
});
export type ReplaceVipTiersRequest = z.input<typeof ReplaceVipTiersRequestSchema>;

// /elex/admin/saveActivity {id?, updatedAt?, platId, kind, titles, activityUrl, position}: adds one (no
// id) or changes one, if it is still the version the editor loaded (`updatedAt`, required with an id):
// otherwise refused with `activityEditedMeanwhile`, like a partner's save.
export const SaveActivityRequestSchema = z
  .object({
    id: idSchema.optional(),
    updatedAt: expectedUpdatedAtSchema.optional(),
    platId: platIdSchema,
    kind: z.enum(ACTIVITY_KINDS),
    titles: z.object({ en: titleSchema, zh: titleSchema, ko: titleSchema }),
    activityUrl: httpsUrlSchema,
    position: z.coerce.number(fail('requiredValue')).int(fail('invalidValue')).min(0).max(100_000),
  })
  .refine((activity) => activity.id === undefined || activity.updatedAt !== undefined, {
    error: 'requiredValue',
    path: ['updatedAt'],
  });
export type SaveActivityRequest = z.input<typeof SaveActivityRequestSchema>;

// /elex/admin/deleteActivity {id, updatedAt}: removes the activity if it is still the version the
// confirmation showed (`updatedAt`, as `catalog` answered it): otherwise refused with
// `activityEditedMeanwhile`, so a removal never takes away a change its operator has not seen.
export const DeleteActivityRequestSchema = z.object({ id: idSchema, updatedAt: expectedUpdatedAtSchema });
export type DeleteActivityRequest = z.input<typeof DeleteActivityRequestSchema>;

/** Logos: SVG, PNG or WebP, at most 200 KB, the type read from the content (not the name). */
export const LOGO_UPLOAD = {
  maxBytes: 200 * 1024,
  contentTypes: ['image/svg+xml', 'image/png', 'image/webp'],
  accept: '.svg,.png,.webp,image/svg+xml,image/png,image/webp',
} as const;

// /elex/admin/uploadLogo {platId, updatedAt, fileName, content}: `content` is the file in base64. Stores
// the file under /media/<sha256>.<ext> and makes it the partner's logo, if the partner is still the
// version the page showed (`updatedAt`; else `logoEditedMeanwhile`); answers the partner, with its new
// version.
export const UploadLogoRequestSchema = z.object({
  platId: platIdSchema,
  updatedAt: expectedUpdatedAtSchema,
  fileName: z.string().trim().min(1, fail('requiredValue')).max(200, fail('invalidValue')),
  content: z
    .string(fail('requiredValue'))
    .min(1, fail('requiredValue'))
    // base64 of 200 KB is 4/3 as long; anything longer cannot be a valid logo.
    .max(Math.ceil((LOGO_UPLOAD.maxBytes * 4) / 3) + 4, fail('logoTooLarge'))
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, fail('invalidValue')),
});
export type UploadLogoRequest = z.input<typeof UploadLogoRequestSchema>;

// ---------------------------------------------------------------------------------------------------
// Imports and syncs

export const IMPORT_KINDS = ['referrals', 'rebates'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];
export const IMPORT_STATUSES = ['succeeded', 'rejected', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** CSV uploads: the same files as `referrals:import` and `rebates:import`, up to 20 MB. */
export const IMPORT_UPLOAD = { maxBytes: 20 * 1024 * 1024 } as const;
/**
 * How many problems (or notices) of one file an import answers and keeps on its run: the first ones
 * by line, with the counts of all of them. A file of a million bad lines must not build, send or
 * store a million problems (issue 14).
 */
export const IMPORT_PROBLEMS_KEPT = 200;

// /elex/admin/uploadImport {kind, platId, fileName, csv}: the CSV text itself (UTF-8). Checked exactly
// like the commands check a file: any bad line imports nothing and every problem is listed.
export const UploadImportRequestSchema = z.object({
  kind: z.enum(IMPORT_KINDS),
  platId: platIdSchema,
  fileName: z.string().trim().min(1, fail('requiredValue')).max(200, fail('invalidValue')),
  csv: z.string(fail('requiredValue')).max(IMPORT_UPLOAD.maxBytes, fail('importTooLarge')),
});
export type UploadImportRequest = z.input<typeof UploadImportRequestSchema>;

export const ImportProblemSchema = z.object({
  line: z.number().int(),
  field: z.string(),
  reason: z.string(),
});
export type ImportProblem = z.infer<typeof ImportProblemSchema>;

export const ImportResultSchema = z.object({
  runId: z.number().int(),
  status: z.enum(IMPORT_STATUSES),
  rows: z.number().int(),
  inserted: z.number().int(),
  duplicates: z.number().int(),
  settledCompleted: z.number().int(),
  settledFailed: z.number().int(),
  credited: usdt,
  /** The first IMPORT_PROBLEMS_KEPT problems of a refused file, by line (empty when it was imported). */
  problems: z.array(ImportProblemSchema),
  /** How many problems the refused file had in all, and on how many of its lines. */
  problemCount: z.number().int(),
  problemLines: z.number().int(),
  /**
   * The first IMPORT_PROBLEMS_KEPT lines of an imported file the operator should know of, by line: a
   * roster line that states another registration time for a UID already in the roster (the stored
   * time stays); `noticeCount` says how many there were.
   */
  notices: z.array(ImportProblemSchema),
  noticeCount: z.number().int(),
});
export type ImportResult = z.infer<typeof ImportResultSchema>;

// /elex/admin/importRuns {page, pageSize}: uploads, newest first.
export const PageRequestSchema = z.object({ page: pageNumberSchema, pageSize });
export type PageRequest = z.input<typeof PageRequestSchema>;
export const ImportRunSchema = z.object({
  id: z.number().int(),
  kind: z.enum(IMPORT_KINDS),
  platId: z.number().int(),
  fileName: z.string(),
  sizeBytes: z.number().int(),
  operator: z.string().nullable(),
  status: z.enum(IMPORT_STATUSES),
  rows: z.number().int(),
  inserted: z.number().int(),
  duplicates: z.number().int(),
  settledCompleted: z.number().int(),
  settledFailed: z.number().int(),
  credited: usdt,
  problemCount: z.number().int(),
  /** The first problems of a refused file. */
  problems: z.array(ImportProblemSchema),
  /** How many notices an imported file had, and the first ones (see ImportResult). */
  noticeCount: z.number().int(),
  notices: z.array(ImportProblemSchema),
  error: z.string().nullable(),
  startedAt: isoTime,
  finishedAt: isoTime,
});
export type ImportRun = z.infer<typeof ImportRunSchema>;
export const ImportRunPageSchema = pageOf(ImportRunSchema);
export type ImportRunPage = z.infer<typeof ImportRunPageSchema>;

export const SYNC_RUN_STATUSES = ['running', 'succeeded', 'failed', 'skipped'] as const;

// /elex/admin/syncRuns {platId?, beforeId?}: exchange sync runs, newest first, 50 at a time; the
// next page starts before the last id shown.
export const SyncRunsRequestSchema = z.object({
  platId: platIdSchema.optional(),
  beforeId: idSchema.optional(),
});
export type SyncRunsRequest = z.input<typeof SyncRunsRequestSchema>;
export const SyncRunSchema = z.object({
  id: z.number().int(),
  platId: z.number().int(),
  exchange: z.string(),
  trigger: z.string(),
  status: z.enum(SYNC_RUN_STATUSES),
  windowStart: isoTime,
  windowEnd: isoTime,
  segmentsTotal: z.number().int(),
  segmentsDone: z.number().int(),
  referralsInserted: z.number().int(),
  rebatesInserted: z.number().int(),
  rebatesDuplicates: z.number().int(),
  rebatesSettled: z.number().int(),
  /**
   * An operator's `sync:skip` of the segment in its window (status 'skipped'); `error` then says who
   * and why. A run skipped because another held the exchange has an empty window and false here.
   */
  segmentSkipped: z.boolean(),
  error: z.string().nullable(),
  startedAt: isoTime,
  finishedAt: isoTime.nullable(),
});
export type SyncRun = z.infer<typeof SyncRunSchema>;
export const SyncRunListSchema = z.object({
  runs: z.array(SyncRunSchema),
  /** Where each exchange's sync resumes. */
  cursors: z.array(z.object({ platId: z.number().int(), nextSegmentStart: isoTime })),
  /**
   * Segments operators skipped (`sync:skip`), newest first, whatever the page: each is missing data
   * until a later run pulls it (`pulledByRunId`).
   */
  skippedSegments: z.array(
    z.object({
      runId: z.number().int(),
      platId: z.number().int(),
      from: isoTime,
      to: isoTime,
      note: z.string(),
      skippedAt: isoTime,
      pulledByRunId: z.number().int().nullable(),
      /** The operator's command that pulls it. */
      pullCommand: z.string(),
    }),
  ),
  hasMore: z.boolean(),
});
export type SyncRunList = z.infer<typeof SyncRunListSchema>;

// ---------------------------------------------------------------------------------------------------
// Withdrawals

// /elex/admin/withdrawalQueue {status?, page, pageSize}: oldest first (pending by default).
export const WithdrawalQueueRequestSchema = z.object({
  status: z.enum(WITHDRAWAL_STATUSES).default('pending'),
  page: pageNumberSchema,
  pageSize,
});
export type WithdrawalQueueRequest = z.input<typeof WithdrawalQueueRequestSchema>;

export const BalanceHistoryEntrySchema = z.object({
  at: isoTime,
  /** Which balance moved: the withdrawal's UID cashback or the member's rewards. */
  account: z.enum(['cashback', 'rewards']),
  /** The journal kind: 'rebate', 'inviteBonus', 'withdrawalHold', 'withdrawalRelease' ... */
  kind: z.string(),
  amount: usdt,
  balanceAfter: usdt,
});
export type BalanceHistoryEntry = z.infer<typeof BalanceHistoryEntrySchema>;

const statusTotalSchema = z.object({ count: z.number().int(), amount: usdt });

/**
 * What the payout fast lane does with a pending withdrawal (docs/withdrawals.md "Fast lane"): 'sends'
 * (eligible: sent in turn, oldest first, ten a pass), or the first reason it does not: the
 * withdrawal's own conditions, then what holds the lane (the fee ceiling, a dispute, the limits).
 */
export const FAST_LANE_VERDICTS = [
  'sends',
  'overMaximum',
  'sentBefore',
  'operator',
  'suspended',
  'passwordChanged',
  'accountTooNew',
  'newAddress',
  'recentRejection',
  'feeCeiling',
  'uidFrozen',
  'dailyLimit',
  'memberDailyLimit',
] as const;
export type FastLaneVerdict = (typeof FAST_LANE_VERDICTS)[number];

export const WithdrawalQueueItemSchema = z.object({
  id: z.string(),
  status: z.enum(WITHDRAWAL_STATUSES),
  platId: z.number().int(),
  uid: z.string(),
  amount: usdt,
  /** The parts drawn from the UID's cashback and from the member's rewards. */
  cashbackPart: usdt,
  rewardsPart: usdt,
  address: z.string(),
  createdAt: isoTime,
  decidedAt: isoTime.nullable(),
  txHash: z.string().nullable(),
  failureReason: z.string().nullable(),
  member: z.object({
    userId: z.number().int(),
    email: z.string().nullable(),
    userCode: z.string(),
    memberSince: isoTime.nullable(),
    /** The member was suspended (the withdrawal stays for the operator to decide). */
    suspendedAt: isoTime.nullable(),
  }),
  /** Whether the UID is still bound to this member. */
  isBindingLive: z.boolean(),
  /** Pending longer than the 48 hours the spec promises. */
  isOverdue: z.boolean(),
  /** The UID's cashback and the member's rewards, latest movements first. */
  balanceHistory: z.array(BalanceHistoryEntrySchema),
  summary: z.object({
    cashbackEarned: usdt,
    cashbackBalance: usdt,
    rewardsEarned: usdt,
    rewardsBalance: usdt,
    withdrawals: z.object({
      pending: statusTotalSchema,
      completed: statusTotalSchema,
      failed: statusTotalSchema,
      cancelled: statusTotalSchema,
    }),
  }),
  /** The newest on-chain payout of this withdrawal (any state), or null when none was sent. */
  payout: PayoutSummarySchema.nullable(),
  /**
   * What the fast lane does with it; null when the lane is off, the withdrawal is not pending or its
   * payout is on its way.
   */
  fastLane: z.enum(FAST_LANE_VERDICTS).nullable(),
});
export type WithdrawalQueueItem = z.infer<typeof WithdrawalQueueItemSchema>;
export const WithdrawalQueuePageSchema = pageOf(WithdrawalQueueItemSchema);
export type WithdrawalQueuePage = z.infer<typeof WithdrawalQueuePageSchema>;

// /elex/admin/approveWithdrawal {id, txHash}: paid on chain -> completed; the member gets a mail.
export const ApproveWithdrawalRequestSchema = z.object({
  id: z.string(fail('requiredValue')).trim().min(1, fail('requiredValue')),
  txHash: txHashSchema,
});
export type ApproveWithdrawalRequest = z.input<typeof ApproveWithdrawalRequestSchema>;

// /elex/admin/rejectWithdrawal {id, reason}: -> failed, the funds return; the member gets a mail.
export const RejectWithdrawalRequestSchema = z.object({
  id: z.string(fail('requiredValue')).trim().min(1, fail('requiredValue')),
  reason: operatorReasonSchema,
});
export type RejectWithdrawalRequest = z.input<typeof RejectWithdrawalRequestSchema>;

/** What a decision answers: the withdrawal's id, its new status and the decision's own fields. */
export const ApproveWithdrawalAnswerSchema = z.object({
  id: z.string(),
  status: z.literal('completed'),
  /** The payout's hash as recorded: lower case. */
  txHash: z.string(),
  decidedAt: isoTime,
});
export const RejectWithdrawalAnswerSchema = z.object({
  id: z.string(),
  status: z.literal('failed'),
  /** The operator's reason, trimmed: the member is shown it. */
  failureReason: z.string(),
  decidedAt: isoTime,
});

// ---------------------------------------------------------------------------------------------------
// Points tasks

export const AdminTaskDefinitionSchema = z.object({
  id: z.string(),
  group: z.enum(TASK_GROUPS),
  kind: z.enum(TASK_KINDS),
  points: z.number().int(),
  /** Trade tasks: the cumulative volume to reach, USDT; null for the others. */
  threshold: z.string().nullable(),
  link: z.string().nullable(),
  appLink: z.string().nullable(),
  sortOrder: z.number().int(),
  enabled: z.boolean(),
  updatedAt: isoTime,
});
export type AdminTaskDefinition = z.infer<typeof AdminTaskDefinitionSchema>;

// /elex/admin/taskDefinitions {}: every task, disabled ones included, in display order.
export const TaskDefinitionListSchema = z.object({ tasks: z.array(AdminTaskDefinitionSchema) });

const emptyAsNull = z
  .string()
  .trim()
  .max(2000, fail('invalidValue'))
  .nullable()
  .transform((value) => (value ? value : null));

// /elex/admin/updateTaskDefinition {id, points, threshold?, link, appLink, sortOrder, enabled}: a claim
// already paid keeps its points; new claims pay the new value. Links are checked by the tasks module.
export const UpdateTaskDefinitionRequestSchema = z.object({
  id: z
    .string(fail('requiredValue'))
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, fail('invalidValue')),
  /** The task's `updatedAt` as `taskDefinitions` answered it: `taskEditedMeanwhile` when it changed since. */
  updatedAt: expectedUpdatedAtSchema,
  points: z.coerce.number(fail('requiredValue')).int(fail('invalidValue')).min(0).max(1_000_000),
  threshold: z
    .string()
    .trim()
    .regex(/^(\d{1,12}(\.\d{1,6})?)?$/, fail('invalidValue'))
    .nullable()
    .optional()
    .transform((value) => (value ? value : undefined)),
  link: emptyAsNull,
  // An app link opens the community's app (tg://, discord://) or the web over https; nothing else.
  appLink: emptyAsNull.refine((value) => value === null || isAllowedAppLink(value), fail('invalidValue')),
  sortOrder: z.coerce.number(fail('requiredValue')).int(fail('invalidValue')).min(0).max(100_000),
  enabled: z.boolean(),
});
export type UpdateTaskDefinitionRequest = z.input<typeof UpdateTaskDefinitionRequestSchema>;

// ---------------------------------------------------------------------------------------------------
// The audit log

// /elex/admin/auditLog {page, pageSize, action?, target?}: newest first.
export const AuditLogRequestSchema = z.object({
  action: z.string().trim().max(64).optional(),
  target: z.string().trim().max(200).optional(),
  page: pageNumberSchema,
  pageSize,
});
export type AuditLogRequest = z.input<typeof AuditLogRequestSchema>;
export const AuditEntrySchema = z.object({
  id: z.number().int(),
  at: isoTime,
  actor: z.string(),
  action: z.string(),
  target: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  requestId: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export const AuditLogPageSchema = pageOf(AuditEntrySchema);
export type AuditLogPage = z.infer<typeof AuditLogPageSchema>;

/** The actions the log records (the audit page offers them as a filter). */
export const AUDIT_ACTIONS = [
  'operator.grant',
  'operator.revoke',
  'withdrawal.approve',
  'withdrawal.reject',
  'withdrawal.send',
  'payout.explainTransfer',
  'binding.unbind',
  // Migration 0044: a binding stored overlapping its UID's previous one starts at that one's end.
  'binding.moveStart',
  'exchange.update',
  'exchange.vipTiers',
  'exchange.logo',
  'exchange.create',
  'exchange.publish',
  'exchange.retire',
  'exchange.reinstate',
  'member.suspend',
  'member.reinstate',
  'member.liftWithdrawalLock',
  // Migration 0046: a stored e-mail written in the canonical form, or left (two accounts of one mailbox).
  'member.emailCanonical',
  'member.emailLeft',
  'activity.create',
  'activity.update',
  'activity.delete',
  'import.referrals',
  'import.rebates',
  'task.update',
  'promotion.create',
  'promotion.update',
  'rebates.settle',
  'sync.run',
  'sync.skip',
  'housekeeping.run',
  'kept.rebuild',
  'support.reply',
  'support.close',
  'support.moveBinding',
  'support.verifyOwnership',
  'correction.propose',
  'correction.approve',
  'correction.reject',
  'correction.post',
  'export.create',
  'alerts.update',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
