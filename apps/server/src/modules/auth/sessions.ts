import { randomBytes } from 'node:crypto';
import { SESSION_LIFETIME_DAYS } from '@elex/contract';
import type { Executor } from '../../db/client.js';
import type { AppDeps } from '../../deps.js';
import { findLiveSession, insertSession, touchSession } from './auth.repository.js';
import { tokenDigest } from './digests.js';

const DAY_MS = 24 * 60 * 60_000;
/** last_seen_at is a hint for operators, not worth a write on every call. */
const TOUCH_INTERVAL_MS = 60_000;

export interface Member {
  userId: number;
  sessionId: number;
}

/**
 * Opens a session and answers its token: 32 random bytes, base64url. Only the token's SHA-256 is
 * stored; the lifetime counts from creation (30 days), a call does not extend it.
 */
export async function startSession(
  tx: Executor,
  deps: Pick<AppDeps, 'clock'>,
  userId: number,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  await insertSession(tx, {
    userId,
    tokenHash: tokenDigest(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + SESSION_LIFETIME_DAYS * DAY_MS),
    lastSeenAt: now,
  });
  return token;
}

/** The member behind a token, or null when the token is unknown, revoked or expired. */
export async function resolveSession(deps: AppDeps, token: string): Promise<Member | null> {
  if (!token) return null;
  const now = deps.clock.now();
  const session = await findLiveSession(deps.db, tokenDigest(token), now);
  if (!session) return null;
  if (!session.lastSeenAt || now.getTime() - session.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS) {
    await touchSession(deps.db, session.id, now);
  }
  return { userId: session.userId, sessionId: session.id };
}
