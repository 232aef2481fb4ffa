import { randomBytes } from 'node:crypto';
import { type Algorithm, hash, verify } from '@node-rs/argon2';

/**
 * argon2id with OWASP's first recommended setting: m = 19 MiB, t = 2, p = 1 (accounts issue).
 * `Algorithm` is an ambient const enum that isolatedModules cannot read, hence the literal 2.
 */
const ARGON2ID = 2 as Algorithm;
const PASSWORD_HASH_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, PASSWORD_HASH_OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/** Computes the dummy hash ahead of the first login, so even that one is not faster for an unknown e-mail. */
export function prepareDummyHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(18).toString('base64url'));
  return dummyHash;
}

/**
 * Checks a password. With no stored hash (unknown e-mail, deleted account) it still runs a full
 * argon2 verification against a dummy, so the answer takes as long and reveals nothing.
 */
export async function verifyPassword(
  storedHash: string | null | undefined,
  password: string,
): Promise<boolean> {
  if (!storedHash) {
    await verify(await prepareDummyHash(), password);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}
