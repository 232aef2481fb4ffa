import * as z from 'zod';
import { PLACEHOLDER_REFERRAL_CODE } from './constants.js';
import type { MessageKey } from './messages.js';

/**
 * One referral code per partner, and every sign-up link built from it (issue 11): the catalog stores
 * a link template with one `{code}` slot and the code; the server fills the slot, so the link a trader
 * opens and the code the dialog shows can never disagree (docs/exchanges.md, "Sign-up links").
 */

/** Where a sign-up link template takes the partner's referral code. */
export const SIGNUP_CODE_SLOT = '{code}';

/**
 * A referral code as the partners issue them (BGELEX01, 12345678, CPA_00XYZ): letters, digits, '-' or
 * '_'. Such a code goes into a URL as it is, so no encoding can make the link and the code differ.
 */
export const REFERRAL_CODE_PATTERN = /^[A-Za-z0-9_-]{2,64}$/;

/** The sign-up link of a partner: its template with the code in the slot. */
export function buildSignupUrl(template: string, referralCode: string): string {
  // A function replacement: a string one would read `$&` or `$1` in a code as patterns.
  return template.replace(SIGNUP_CODE_SLOT, () => referralCode);
}

const slotCount = (template: string) => template.split(SIGNUP_CODE_SLOT).length - 1;

/** Why a partner's sign-up link cannot be offered to traders yet (the console lists them). */
export const SIGNUP_PROBLEMS = ['placeholderCode', 'missingTemplate'] as const;
export type SignupProblem = (typeof SIGNUP_PROBLEMS)[number];

/** The seed's placeholder, however it is capitalised: a sign-up with it is nobody's referral. */
export function isPlaceholderReferralCode(code: string): boolean {
  return code.trim().toUpperCase() === PLACEHOLDER_REFERRAL_CODE;
}

/**
 * - `placeholderCode`: the code is still the seed's placeholder; nobody signing up with it is ours.
 * - `missingTemplate`: the stored link has no `{code}` slot (a link migration 0015 could not convert
 *   because it did not contain the code), so the link may not carry the code at all.
 */
export function signupProblems(partner: {
  referralCode: string;
  signupUrlTemplate: string;
}): SignupProblem[] {
  const problems: SignupProblem[] = [];
  if (isPlaceholderReferralCode(partner.referralCode)) problems.push('placeholderCode');
  if (slotCount(partner.signupUrlTemplate) !== 1) problems.push('missingTemplate');
  return problems;
}

/** The host a URL names, or null when it is not an https URL. */
function httpsHost(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' ? parsed.host : null;
  } catch {
    return null;
  }
}

/**
 * What is wrong with a template an operator typed, or null: an https URL once the code is in it,
 * with `{code}` exactly once and after the host (a code must never choose the site a trader opens).
 */
export function signupTemplateProblem(template: string): MessageKey | null {
  const withCodeA = httpsHost(template.split(SIGNUP_CODE_SLOT).join('A0'));
  if (withCodeA === null) return 'urlInvalid';
  if (slotCount(template) !== 1) return 'signupTemplateSlot';
  if (withCodeA !== httpsHost(buildSignupUrl(template, 'B1'))) return 'signupTemplateSlot';
  return null;
}

export const signupUrlTemplateSchema = z
  .string({ error: 'requiredValue' })
  .trim()
  .min(1, { error: 'requiredValue' })
  .max(2000, { error: 'invalidValue' })
  .superRefine((value, context) => {
    const problem = signupTemplateProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

export const referralCodeSchema = z
  .string({ error: 'requiredValue' })
  .trim()
  .min(1, { error: 'requiredValue' })
  .regex(REFERRAL_CODE_PATTERN, { error: 'referralCodeInvalid' });
