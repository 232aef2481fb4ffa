import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** Keyed digests: the database keeps these instead of codes, tokens, deleted e-mails and IPs. */
function hmac(secret: string, value: string): string {
  return createHmac('sha256', secret).update(value).digest('hex');
}

/** accounts issue: deleted_emails holds HMAC-SHA256(APP_SECRET, lower-cased email). */
export function emailDigest(secret: string, email: string): string {
  return hmac(secret, email);
}

/** The per-IP code cap needs to count an IP, not to know it. */
export function ipDigest(secret: string, ip: string): string {
  return hmac(secret, `ip|${ip}`);
}

/** accounts issue: a code is stored only as HMAC-SHA256(APP_SECRET, email|module|code). */
export function codeDigest(secret: string, email: string, module: number, code: string): string {
  return hmac(secret, `${email}|${module}|${code}`);
}

/** A session token is 32 random bytes: a plain SHA-256 is enough, no pepper needed. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
