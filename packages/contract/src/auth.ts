import * as z from 'zod';
import {
  emailSchema,
  loginPasswordSchema,
  newPasswordSchema,
  strictEmailSchema,
  verificationCodeSchema,
} from './rules.js';

/**
 * Calls of the accounts module (spec sections 3 and 7). Field names on the wire are the spec's:
 * `passwd`, `authcode` on login and register, `authCode` on verify and reset, `code` for the invite code.
 */

/** spec: code modules. 3 sends to the logged-in member's own address (withdrawal confirmation). */
export const CodeModule = { Login: 0, Register: 1, ResetPassword: 2, OwnAddress: 3 } as const;
export type CodeModule = (typeof CodeModule)[keyof typeof CodeModule];

/** An optional text field where an empty or blank value means none. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((value) => value || undefined);

/** A form-encoded body (the spec's default content type) sends booleans as the text "true" or "false". */
const formBoolean = z.preprocess(
  (value) => (value === 'true' ? true : value === 'false' ? false : value),
  z.boolean(),
);

const codeModuleSchema = z.coerce
  .number()
  .pipe(z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]));

/** A token answer: login and register. */
export const TokenResponseSchema = z.object({ token: z.string() });
export type TokenResponse = z.infer<typeof TokenResponseSchema>;

// /elex/user/verifyEmail
export const VerifyEmailRequestSchema = z.object({ email: emailSchema });
export const VerifyEmailResponseSchema = z.object({ hasEmail: z.boolean() });

// /elex/user/verifyCode: sends a code. Email is required for modules 0-2 and ignored for module 3.
// Module 1 (register) may carry the visitor's `encr` and invite `code`: a promotion code that cannot
// be used (EncrRefusalContentSchema) or an invite code nobody has ('inviteCodeUnknown', content
// `{ field: 'code' }`) is refused before any mail goes out; the other modules ignore them.
export const VerifyCodeRequestSchema = z
  .object({
    module: codeModuleSchema,
    email: z.unknown().optional(),
    encr: optionalText(64),
    code: optionalText(64),
  })
  .transform((value, ctx) => {
    if (value.module === CodeModule.OwnAddress) {
      return { module: value.module, email: undefined, encr: undefined, code: undefined };
    }
    const email = emailSchema.safeParse(value.email);
    if (!email.success) {
      for (const issue of email.error.issues)
        ctx.addIssue({ code: 'custom', message: issue.message, path: ['email'] });
      return z.NEVER;
    }
    const register = value.module === CodeModule.Register;
    return {
      module: value.module,
      email: email.data,
      encr: register ? value.encr : undefined,
      code: register ? value.code : undefined,
    };
  });
export type VerifyCodeRequest = z.output<typeof VerifyCodeRequestSchema>;
/** Seconds until another code may be requested for the same e-mail and module. */
export const VerifyCodeResponseSchema = z.object({ resendAfterSeconds: z.number().int() });

// /elex/user/verifyCode2: checks a code without consuming it (reset flow, step 2).
export const VerifyCode2RequestSchema = z.object({
  email: emailSchema,
  module: codeModuleSchema,
  authCode: verificationCodeSchema,
});

// /elex/user/register
export const RegisterRequestSchema = z.object({
  email: emailSchema,
  passwd: newPasswordSchema,
  /** The invite code of the member who invited this one; optional. */
  code: optionalText(32),
  authcode: verificationCodeSchema,
  /**
   * The exclusive sign-up code from a promotion link; optional, grants 1000 XME energy and 100 points.
   * Must be a live promotion code (any letter case); otherwise the registration is refused.
   */
  encr: optionalText(64),
  /** The marketing-consent flag (news about promotions by e-mail). */
  marketingConsent: formBoolean.optional().default(false),
});
export type RegisterRequest = z.input<typeof RegisterRequestSchema>;

// /elex/user/login
export const LoginRequestSchema = z.object({
  email: emailSchema,
  passwd: loginPasswordSchema,
  authcode: verificationCodeSchema,
});
export type LoginRequest = z.input<typeof LoginRequestSchema>;

// /elex/user/changePasswd: reset with an e-mailed code (module 2).
export const ResetPasswordRequestSchema = z.object({
  email: strictEmailSchema,
  authCode: verificationCodeSchema,
  passwd: newPasswordSchema,
});
export type ResetPasswordRequest = z.input<typeof ResetPasswordRequestSchema>;

// /elex/user/updatePass: a logged-in member changes the password.
export const UpdatePasswordRequestSchema = z.object({
  oldPasswd: loginPasswordSchema,
  passwd: newPasswordSchema,
});
export type UpdatePasswordRequest = z.input<typeof UpdatePasswordRequestSchema>;
/** When withdrawals open again: 72 h after the change, always sent (ISO time). */
export const WithdrawalLockResponseSchema = z.object({ withdrawalLockedUntil: z.string() });

// /elex/user/logout: revokes the calling session. Empty payload, null content.

// /elex/user/deleteAccount: needs the password; erases personal data for good, and with it the money
// not withdrawn (terms, section 8). `forfeitTotal` is the USDT the dialog told the member they would
// lose (`forfeitOnDeletion`): the server refuses with `deletionForfeitChanged` when the money held is
// no longer that sum, so a member never loses more than they were shown (docs/accounts.md).
export const DeleteAccountRequestSchema = z.object({
  passwd: loginPasswordSchema,
  forfeitTotal: z
    .string({
      error: (issue) =>
        issue.input === undefined || issue.input === null ? 'requiredValue' : 'invalidValue',
    })
    .trim()
    .regex(/^\d{1,12}(\.\d{1,6})?$/, { error: 'invalidValue' }),
});
export type DeleteAccountRequest = z.input<typeof DeleteAccountRequestSchema>;

// /elex/user/getSettings and /elex/user/saveSettings: notification settings.
export const SettingsSchema = z.object({ marketingConsent: formBoolean });
export type Settings = z.infer<typeof SettingsSchema>;

// /elex/user/profile: the member's own profile for My Page.
export const ProfileSchema = z.object({
  email: z.string(),
  userCode: z.string(),
  inviteCode: z.string(),
  points: z.number().int(),
  xmeEnergy: z.number().int(),
  /** ISO time until which withdrawals are locked after a password change or reset, or null. */
  withdrawalLockedUntil: z.string().nullable(),
  createdAt: z.string(),
});
export type Profile = z.infer<typeof ProfileSchema>;

/** Session lifetime: a login lasts 30 days, then the member logs in again. */
export const SESSION_LIFETIME_DAYS = 30;
