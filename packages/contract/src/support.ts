import * as z from 'zod';
import { exchangeUidSchema, platIdSchema } from './exchanges.js';
import type { MessageKey } from './messages.js';
import { pageNumberSchema, pageSizeSchema } from './paging.js';
import { CONTROL_CHARACTER_PATTERN, polygonAddressSchema, strictIdSchema } from './rules.js';

/**
 * Support requests and UID disputes (issue 11, docs/support.md). A member opens a request from a
 * refusal dialog, a UID page or My Page, with text and optionally one image (a screenshot of the
 * exchange's account page); operators answer it in the console. A request of kind `uidBoundByOther`
 * is a dispute: while it is open the UID's money is frozen (no withdrawal is requested or paid), and
 * an operator may move the binding, with its balance, to the claimant.
 */

const fail = (key: MessageKey) => ({ error: key });

export const SUPPORT_KINDS = [
  /** "This UID is mine and someone else bound it": a dispute, it freezes the UID. */
  'uidBoundByOther',
  /** "Prove this UID is mine": an operator's check ends the new binding's hold early. */
  'ownership',
  'missingCashback',
  'withdrawal',
  'account',
  'other',
] as const;
export type SupportKind = (typeof SUPPORT_KINDS)[number];
/** Kinds about one exchange UID: platId and uid are required. */
export const UID_SUPPORT_KINDS: readonly SupportKind[] = ['uidBoundByOther', 'ownership', 'missingCashback'];

/** open: waiting for an operator; answered: an operator replied, waiting for the member; closed. */
export const SUPPORT_STATUSES = ['open', 'answered', 'closed'] as const;
export type SupportStatus = (typeof SUPPORT_STATUSES)[number];

/** How a closed request ended. */
export const SUPPORT_RESOLUTIONS = ['moved', 'verified', 'closed'] as const;
export type SupportResolution = (typeof SUPPORT_RESOLUTIONS)[number];

export const SUPPORT = {
  maxTextLength: 4000,
  /** A screenshot: PNG, JPEG or WebP up to 2 MB. */
  maxImageBytes: 2 * 1024 * 1024,
  imageTypes: ['image/png', 'image/jpeg', 'image/webp'],
  /** Requests a member may have open at once (a dispute freezes money: no flood of them). */
  maxOpenPerMember: 5,
  /**
   * Days a closed request's screenshots are kept: a year in which a decision can be questioned and
   * looked at again, after which housekeeping erases them (they show people's exchange accounts).
   */
  imageRetentionDays: 365,
} as const;
export type SupportImageType = (typeof SUPPORT.imageTypes)[number];

/**
 * Text a person writes: trimmed, not empty, bounded, and without control characters other than line
 * breaks and tabs (PostgreSQL refuses NUL; the others hide text from the operator who reads it).
 */
export const supportTextSchema = z
  .string(fail('requiredInformation'))
  .trim()
  .min(1, fail('requiredInformation'))
  .max(SUPPORT.maxTextLength, fail('supportTextTooLong'))
  .refine((text) => !CONTROL_CHARACTER_PATTERN.test(text), fail('controlCharacters'));

/** An id as the console and pages send it (a positive integer, strictly). */
export const supportIdSchema = strictIdSchema;

/** One image, base64 in the JSON body (every call is JSON; the size is checked after decoding). */
export const SupportImageSchema = z.object({
  contentType: z.enum(SUPPORT.imageTypes, fail('supportImageType')),
  data: z
    .string(fail('supportImageType'))
    .max(Math.ceil((SUPPORT.maxImageBytes * 4) / 3) + 4, fail('supportImageTooLarge'))
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, fail('supportImageType')),
});
export type SupportImage = z.infer<typeof SupportImageSchema>;

// /elex/support/create: member. A UID kind needs platId and uid; a dispute also the Polygon address
// that would receive the UID's withdrawals if an operator moves the binding to the claimant.
export const CreateSupportRequestSchema = z
  .object({
    kind: z.enum(SUPPORT_KINDS, fail('requiredInformation')),
    platId: platIdSchema.optional(),
    uid: exchangeUidSchema.optional(),
    address: polygonAddressSchema.optional(),
    text: supportTextSchema,
    image: SupportImageSchema.optional(),
  })
  .superRefine((value, context) => {
    if (!UID_SUPPORT_KINDS.includes(value.kind)) return;
    const required = (field: string) =>
      context.addIssue({
        code: 'custom',
        path: [field],
        message: 'requiredInformation' satisfies MessageKey,
      });
    if (value.platId === undefined) required('platId');
    if (value.uid === undefined) required('uid');
    if (value.kind === 'uidBoundByOther' && value.address === undefined) required('address');
  });
export type CreateSupportRequest = z.input<typeof CreateSupportRequestSchema>;

// /elex/support/reply {id, text, image?}: the member writes again (an answered request opens again).
export const SupportReplySchema = z.object({
  id: supportIdSchema,
  text: supportTextSchema,
  image: SupportImageSchema.optional(),
});
export type SupportReply = z.input<typeof SupportReplySchema>;

// /elex/support/list {page, pageSize}: the member's requests, newest activity first.
export const SupportListRequestSchema = z.object({
  page: pageNumberSchema,
  pageSize: pageSizeSchema(),
});

export const SupportRequestSummarySchema = z.object({
  id: z.string(),
  kind: z.enum(SUPPORT_KINDS),
  platId: z.number().int().nullable(),
  uid: z.string().nullable(),
  status: z.enum(SUPPORT_STATUSES),
  resolution: z.enum(SUPPORT_RESOLUTIONS).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SupportRequestSummary = z.infer<typeof SupportRequestSummarySchema>;

export const SupportListSchema = z.object({
  records: z.array(SupportRequestSummarySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type SupportList = z.infer<typeof SupportListSchema>;

// /elex/support/detail {id}: one request of the member's with its thread; images as data: URLs.
export const SupportDetailRequestSchema = z.object({ id: supportIdSchema });

export const SupportMessageSchema = z.object({
  id: z.string(),
  author: z.enum(['member', 'operator']),
  text: z.string(),
  /** `data:<type>;base64,...` or null. */
  image: z.string().nullable(),
  /** A screenshot was attached and has since been erased (kept a year after the request closed). */
  imageErased: z.boolean(),
  createdAt: z.string(),
});
export type SupportMessage = z.infer<typeof SupportMessageSchema>;

export const SupportDetailSchema = SupportRequestSummarySchema.extend({
  address: z.string().nullable(),
  messages: z.array(SupportMessageSchema),
});
export type SupportDetail = z.infer<typeof SupportDetailSchema>;

// ---------------------------------------------------------------------------------------------------
// Console: /elex/admin/support/*

export const AdminSupportListRequestSchema = z.object({
  status: z.enum([...SUPPORT_STATUSES, 'active']).optional(),
  kind: z.enum(SUPPORT_KINDS).optional(),
  page: pageNumberSchema,
  pageSize: pageSizeSchema(),
});
export type AdminSupportListRequest = z.input<typeof AdminSupportListRequestSchema>;

export const AdminSupportRowSchema = SupportRequestSummarySchema.extend({
  userId: z.number().int(),
  /** The member's e-mail, or null once the account is deleted. */
  email: z.string().nullable(),
});
export type AdminSupportRow = z.infer<typeof AdminSupportRowSchema>;

export const AdminSupportListSchema = z.object({
  rows: z.array(AdminSupportRowSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AdminSupportList = z.infer<typeof AdminSupportListSchema>;

/** What the operator needs to decide a UID request: who holds the UID now and what it holds. */
export const SupportUidStateSchema = z.object({
  platId: z.number().int(),
  uid: z.string(),
  /** The live binding, or null when nobody holds the UID. */
  holder: z
    .object({
      userId: z.number().int(),
      email: z.string().nullable(),
      boundAt: z.string(),
      /** ISO time until which the binding's money is held for the ownership check, or null. */
      heldUntil: z.string().nullable(),
      ownershipVerifiedAt: z.string().nullable(),
    })
    .nullable(),
  balance: z.string(),
  /** The roster's registration time at the exchange, or null when the UID is not listed. */
  registeredAt: z.string().nullable(),
  /** Whether an open dispute freezes the UID's money now. */
  frozen: z.boolean(),
  /** Withdrawals of this UID under review (they must be decided before the binding moves). */
  withdrawalsUnderReview: z.number().int(),
  /**
   * Invite bonuses this UID's cashback paid the holder's inviter while the holder held it (USDT, per
   * inviter). Moving the binding does not move them: a wrongful holder's inviter keeps them unless an
   * operator corrects that member's rewards. Empty without a holder or bonuses.
   */
  holderInviterBonuses: z.array(
    z.object({ inviterId: z.number().int(), email: z.string().nullable(), amount: z.string() }),
  ),
});
export type SupportUidState = z.infer<typeof SupportUidStateSchema>;

export const AdminSupportDetailSchema = SupportDetailSchema.extend({
  userId: z.number().int(),
  email: z.string().nullable(),
  closedBy: z.number().int().nullable(),
  uidState: SupportUidStateSchema.nullable(),
});
export type AdminSupportDetail = z.infer<typeof AdminSupportDetailSchema>;

// /elex/admin/support/reply {id, text}: the member is mailed and sees it in the thread.
export const AdminSupportReplySchema = z.object({ id: supportIdSchema, text: supportTextSchema });
// /elex/admin/support/close {id, text?}: closes without moving anything (a dispute's freeze ends).
export const AdminSupportCloseSchema = z.object({ id: supportIdSchema, text: supportTextSchema.optional() });
// /elex/admin/support/moveBinding {id}: a dispute's UID, with its balance, goes to the claimant.
// /elex/admin/support/verifyOwnership {id}: the holder of the request's UID is confirmed as its owner.
export const AdminSupportActionSchema = z.object({ id: supportIdSchema });
