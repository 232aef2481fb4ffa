import * as z from 'zod';
import { expectedUpdatedAtSchema } from './admin.js';
import type { MessageKey } from './messages.js';
import { pageNumberSchema, pageSizeSchema } from './paging.js';
import { isCalendarDay, strictIdSchema } from './rules.js';

/**
 * Promotion codes (`encr`, issue 11): the exclusive sign-up codes operators create in the console.
 * A registration with a code that is unknown, expired, disabled or at its cap is refused before the
 * code mail is sent (docs/accounts.md, docs/operator-console.md).
 */

const fail = (key: MessageKey) => ({ error: key });

/**
 * A code as operators create it: 3 to 32 letters, digits, - or _, starting with a letter or digit.
 * Codes compare case-insensitively: they are stored upper-cased, and what a visitor brings is
 * upper-cased before it is looked up (`canonicalPromotionCode`).
 */
export const PROMOTION_CODE_PATTERN = /^[A-Z0-9][A-Z0-9_-]{2,31}$/;

/** The form a code is stored and compared in. */
export function canonicalPromotionCode(code: string): string {
  return code.trim().toUpperCase();
}

export const promotionCodeSchema = z
  .string(fail('requiredValue'))
  .trim()
  .min(1, fail('requiredValue'))
  .transform(canonicalPromotionCode)
  .refine((code) => PROMOTION_CODE_PATTERN.test(code), fail('promotionCodeFormat'));

/** Why a code cannot be used for a sign-up now. */
export const ENCR_REFUSALS = ['unknown', 'expired', 'disabled', 'usedUp'] as const;
export type EncrRefusal = (typeof ENCR_REFUSALS)[number];

/** The message each refusal answers with. */
export const ENCR_REFUSAL_MESSAGES: Record<EncrRefusal, MessageKey> = {
  unknown: 'encrUnknown',
  expired: 'encrExpired',
  disabled: 'encrDisabled',
  usedUp: 'encrUsedUp',
};

/**
 * The content of a refusal because of the `encr` code (state 1002), on verifyCode, register and
 * checkEncr: tells the client which field to mark, whatever the message's language.
 */
export const EncrRefusalContentSchema = z.object({ encrRefused: z.enum(ENCR_REFUSALS) });
export type EncrRefusalContent = z.infer<typeof EncrRefusalContentSchema>;

/** The `encr` a visitor brings (a link's query value): any text, looked up case-insensitively. */
export const encrInputSchema = z.string().trim().min(1, fail('requiredValue')).max(64, fail('invalidValue'));

// /elex/user/checkEncr {encr}: whether a code can be used for a sign-up now. Answers null, or the
// refusal above. The register page asks on load, so a bad code is marked before anything is typed.
export const CheckEncrRequestSchema = z.object({ encr: encrInputSchema });
export type CheckEncrRequest = z.input<typeof CheckEncrRequestSchema>;

// ---------------------------------------------------------------------------------------------------
// The console (POST /elex/admin/<call>, operators only)

export const PROMOTION_STATUSES = ['active', 'expired', 'disabled', 'usedUp'] as const;
export type PromotionStatus = (typeof PROMOTION_STATUSES)[number];

/** A UTC day, YYYY-MM-DD, that exists on the calendar (rules.ts, isCalendarDay). */
export const daySchema = z.string().trim().refine(isCalendarDay, fail('invalidValue'));

/** An empty field means none: '' and null both become null. */
const emptyAsNull = (value: unknown) => (value === '' || value === null ? null : value);

/** The last UTC day a code works, or null (empty) for no end. */
const validThroughSchema = z.preprocess(emptyAsNull, daySchema.nullable());

/** How many sign-ups a code may give, or null (empty) for no cap. */
export const PROMOTION_MAX_USES = 1_000_000;
const maxUsesSchema = z.preprocess(
  (value) =>
    typeof value === 'string' ? (value.trim() === '' ? null : Number(value.trim())) : emptyAsNull(value),
  z
    .number(fail('promotionCapInvalid'))
    .int(fail('promotionCapInvalid'))
    .min(1, fail('promotionCapInvalid'))
    .max(PROMOTION_MAX_USES, fail('promotionCapInvalid'))
    .nullable(),
);

const noteSchema = z.string().trim().max(200, fail('invalidValue'));

export const PromotionCodeSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  note: z.string(),
  createdAt: z.string(),
  /** The operator's e-mail at the time, or 'migration' for the codes used before the console had them. */
  createdBy: z.string(),
  /** The last UTC day the code works, or null for no end. */
  validThrough: z.string().nullable(),
  maxUses: z.number().int().nullable(),
  /** Registrations that used the code (each one counted once, in its own transaction). */
  signups: z.number().int(),
  disabledAt: z.string().nullable(),
  /** What a registration with it would meet now: disabled, then expired, then used up. */
  status: z.enum(PROMOTION_STATUSES),
  /**
   * The version an operator's change is built on, sent back with it (`updatePromotionCode`): moved by
   * every operator change, never by a sign-up.
   */
  updatedAt: z.string(),
});
export type PromotionCode = z.infer<typeof PromotionCodeSchema>;

// /elex/admin/promotionCodes {page, pageSize}: newest first.
export const PromotionCodesRequestSchema = z.object({
  page: pageNumberSchema,
  pageSize: pageSizeSchema(50),
});
export type PromotionCodesRequest = z.input<typeof PromotionCodesRequestSchema>;
export const PromotionCodePageSchema = z.object({
  rows: z.array(PromotionCodeSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type PromotionCodePage = z.infer<typeof PromotionCodePageSchema>;

// /elex/admin/createPromotionCode {code, note, validThrough, maxUses}: the new code.
export const CreatePromotionCodeRequestSchema = z.object({
  code: promotionCodeSchema,
  note: noteSchema.default(''),
  validThrough: validThroughSchema.default(null),
  maxUses: maxUsesSchema.default(null),
});
export type CreatePromotionCodeRequest = z.input<typeof CreatePromotionCodeRequestSchema>;

// /elex/admin/updatePromotionCode {id, updatedAt, note?, validThrough?, maxUses?, disabled?}: changes
// only the fields sent, and only if the code is still the version the operator saw (`updatedAt` as the
// list answered it): else `promotionCodeEditedMeanwhile`, nothing saved. The edit dialog sends note,
// last day and cap together, and the switch flips what the row showed: built on an older version,
// either would undo or override another operator's change unseen.
export const UpdatePromotionCodeRequestSchema = z.object({
  id: strictIdSchema,
  updatedAt: expectedUpdatedAtSchema,
  note: noteSchema.optional(),
  validThrough: validThroughSchema.optional(),
  maxUses: maxUsesSchema.optional(),
  disabled: z.boolean().optional(),
});
export type UpdatePromotionCodeRequest = z.input<typeof UpdatePromotionCodeRequestSchema>;
