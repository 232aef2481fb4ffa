import * as z from 'zod';
import { isAddress } from './address.js';
import { LEVERAGE, PASSWORD, VERIFICATION_CODE } from './constants.js';
import type { MessageKey } from './messages.js';

/**
 * Validation rules of spec section 5. Each failure carries a message key of `messages.ts`, so the
 * server answers and the web shows the spec's wording in the user's language.
 */
const fail = (key: MessageKey) => ({ error: key });

/** spec: the simple pattern that login and register check before enabling submit. */
export const SIMPLE_EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** spec: reset uses a stricter pattern. */
export const STRICT_EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;

/**
 * A domain in its ASCII form (IDNA as browsers and node apply it, UTS #46): `bücher.de` is
 * `xn--bcher-kva.de`, the form mail systems look up. The WHATWG URL parser does it the same way in the
 * browser and on the server, so both sides agree on one canonical address. An ASCII domain is left as
 * it is (already lower-cased); undefined when the domain is no host name.
 */
function asciiDomain(domain: string): string | undefined {
  if (!/[^\x20-\x7e]/.test(domain)) return domain;
  if (/[/\\?#@:%[\]]/.test(domain)) return undefined;
  try {
    return new URL(`http://${domain}`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * spec: spaces in the e-mail are trimmed (register strips them anywhere); e-mails compare
 * case-insensitively. Also in Unicode's composed form (NFC): an accented letter typed as one
 * character or as a letter plus a combining accent looks the same and is one address (RFC 6530 asks
 * mail systems to normalise so), so it cannot open a second account or pass a deleted one's ban.
 * One mailbox, one form (red-team review, 2026-11-30): the domain loses one trailing dot (the DNS
 * root, `example.com.` is `example.com`) and an IDN domain is written in punycode. A domain that does
 * not convert is left as typed, and the schemas refuse it (not ASCII).
 */
export function normalizeEmail(raw: string): string {
  const email = tidyEmail(raw);
  const at = email.lastIndexOf('@');
  if (at < 0) return email;
  const domain = email.slice(at + 1);
  return `${email.slice(0, at)}@${asciiDomain(domain) ?? domain}`;
}

/**
 * The e-mail as a form shows it back: the canonical form but for the domain's letters, which stay as
 * the member typed them (`bücher.de`, not `xn--bcher-kva.de`, which nobody recognises as theirs).
 */
export function tidyEmail(raw: string): string {
  const email = raw.replace(/\s+/g, '').normalize('NFC').toLowerCase();
  const at = email.lastIndexOf('@');
  return at >= 0 && email.endsWith('.') ? email.slice(0, -1) : email;
}

/**
 * A quoted local part (`"a"@example.com`) reaches the same mailbox as the bare one, and quoting
 * lets one mailbox be written many ways: refused with its own message rather than canonicalised.
 */
function hasQuotedLocalPart(email: string): boolean {
  const at = email.lastIndexOf('@');
  return email.slice(0, at < 0 ? email.length : at).includes('"');
}

/** The domain as mail systems take it: ASCII labels, none empty. */
function hasMailDomain(email: string): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1);
  return /^[\x21-\x7e]+$/.test(domain) && domain.split('.').every((label) => label.length > 0);
}

function emailSchemaWith(invalid: MessageKey, pattern: RegExp) {
  return z
    .string(fail('emailRequired'))
    .transform(normalizeEmail)
    .pipe(
      z
        .string()
        .min(1, fail('emailRequired'))
        .refine((email) => !hasQuotedLocalPart(email), fail('emailQuotedLocalPart'))
        .max(254, fail(invalid))
        .regex(pattern, fail(invalid))
        .refine(hasMailDomain, fail(invalid)),
    );
}

export const emailSchema = emailSchemaWith('emailInvalid', SIMPLE_EMAIL_PATTERN);

export const strictEmailSchema = emailSchemaWith('emailInvalidStrict', STRICT_EMAIL_PATTERN);

export const loginPasswordSchema = z
  .string(fail('passwordRequired'))
  .min(1, fail('passwordRequired'))
  .min(PASSWORD.loginMinLength, fail('passwordTooShort'))
  .max(128, fail('invalidValue'));

const specials = new RegExp(`[${PASSWORD.specialCharacters.replace(/[\]\\^-]/g, '\\$&')}]`);

/** Register and reset: 8 to 16 characters with a digit and a special character. */
export const newPasswordSchema = z
  .string(fail('passwordRequired'))
  .min(PASSWORD.minLength, fail('passwordLength'))
  .max(PASSWORD.maxLength, fail('passwordLength'))
  .regex(/\d/, fail('passwordComposition'))
  .regex(specials, fail('passwordComposition'));

/** The two live rules the register form shows as the user types. */
export const passwordRuleChecks = {
  length: (value: string) => value.length >= PASSWORD.minLength && value.length <= PASSWORD.maxLength,
  composition: (value: string) => /\d/.test(value) && specials.test(value),
} as const;

const codePattern = new RegExp(`^\\d{${VERIFICATION_CODE.length}}$`);

/**
 * A 6-digit code. The spec sends it as a number on verify and reset, which drops leading zeros,
 * so a number is padded back to 6 digits.
 */
export const verificationCodeSchema = z
  .union(
    [z.string(), z.number().int(fail('codeIncomplete')).nonnegative(fail('codeIncomplete'))],
    fail('codeIncomplete'),
  )
  .transform((value) =>
    typeof value === 'number' ? String(value).padStart(VERIFICATION_CODE.length, '0') : value.trim(),
  )
  .pipe(z.string().regex(codePattern, fail('codeIncomplete')));

export const leverageSchema = z.coerce
  .number(fail('leverageRange'))
  .int(fail('leverageRange'))
  .min(LEVERAGE.min, fail('leverageRange'))
  .max(LEVERAGE.max, fail('leverageRange'));

/**
 * A Polygon receiving address. EIP-55: an all-lowercase address carries no checksum and is accepted;
 * a mixed-case one must match its checksum (EIP-55, address.ts).
 */
export const polygonAddressSchema = z
  .string(fail('requiredInformation'))
  .trim()
  .min(1, fail('requiredInformation'))
  .refine((value) => isAddress(value, { strict: true }), fail('walletAddressInvalid'));

/**
 * An XME account's UID. The XME app publishes no format, so we accept what an account id plausibly is
 * and nothing that is obviously not one: 4 to 32 letters, digits, `-` or `_`, starting and ending with
 * a letter or digit. Two UIDs that differ only in case are one account for the binding task's payout
 * (docs/engagement.md).
 */
export const XME_UID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{2,30}[A-Za-z0-9]$/;

export const xmeUidSchema = z
  .string(fail('requiredInformation'))
  .trim()
  .min(1, fail('requiredInformation'))
  .regex(XME_UID_PATTERN, fail('xmeUidInvalid'));

/** spec: a code dialog checks all six boxes are filled before confirming. */
export function isCompleteCode(digits: readonly string[]): boolean {
  return digits.length === VERIFICATION_CODE.length && digits.every((digit) => /^\d$/.test(digit));
}

/**
 * Characters a person never types: C0 controls except tab, line feed and carriage return, DEL, and
 * half of a UTF-16 surrogate pair on its own (JSON's `"\ud800"`). PostgreSQL refuses NUL in text and
 * a lone surrogate in jsonb (both answered HTTP 500); the others hide text from whoever reads it.
 */
export const CONTROL_CHARACTER_PATTERN =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it finds
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The largest exchange id (PostgreSQL `integer`): a larger one names no exchange. */
export const PLAT_ID_MAX = 2_147_483_647;

/**
 * Whether `value` is a day as YYYY-MM-DD that exists on the calendar, in the years a day of this
 * product can mean (1970 to 9998: the day after it still has four digits, and the database reads
 * neither year 0 nor year 10000).
 */
export function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const year = Number(value.slice(0, 4));
  if (year < 1970 || year > 9998) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/**
 * Where in a JSON payload a string (or a key) holds a control character: its path, or null when none
 * does. The server refuses such a payload before any schema or query sees it (`controlCharacters`,
 * naming the field).
 */
export function controlCharacterPath(value: unknown, path: readonly (string | number)[] = []): string | null {
  if (typeof value === 'string')
    return CONTROL_CHARACTER_PATTERN.test(value) ? path.join('.') || 'body' : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = controlCharacterPath(item, [...path, index]);
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (CONTROL_CHARACTER_PATTERN.test(key)) return [...path, 'key'].join('.');
      const found = controlCharacterPath(item, [...path, key]);
      if (found !== null) return found;
    }
  }
  return null;
}

/**
 * A record id as pages and the console send it: a positive integer, as a JSON number or a string of
 * digits. Nothing looser: `true`, `[1]`, `"0x1"` or `"1e0"` are not id 1 (issue 13).
 */
export const strictIdSchema = z.union(
  [
    z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    z
      .string()
      .regex(/^[1-9]\d{0,15}$/)
      .transform(Number),
  ],
  {
    error: (issue) => (issue.input === undefined || issue.input === null ? 'requiredValue' : 'invalidValue'),
  },
);

/** The schemes a community task may open besides the web: Telegram's and Discord's apps. */
export const APP_LINK_PROTOCOLS = ['https:', 'tg:', 'discord:'] as const;

/**
 * Whether a task's app link opens the web over https or a documented app: parsed as a URL (which
 * drops tabs and line breaks the way browsers do, so `java\tscript:` is seen as `javascript:`).
 */
export function isAllowedAppLink(value: string): boolean {
  try {
    return (APP_LINK_PROTOCOLS as readonly string[]).includes(new URL(value).protocol);
  } catch {
    return false;
  }
}
