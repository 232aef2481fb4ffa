import { randomBytes } from 'node:crypto';
import { type Locale, SESSION_LIFETIME_DAYS } from '@elex/contract';
import type { Executor } from '../../db/client.js';
import { answerKind } from '../../db/member-answers.js';
import type { AppDeps } from '../../deps.js';
import { findLiveSession, insertSession, rememberLocale, touchSession } from './auth.repository.js';
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

/**
 * A live session as kept in this process. `lastSeenAt` is the one field changed in place, when this
 * process touches the row: a hint that spares writes, not an answer.
 */
interface LiveSession {
  userId: number;
  sessionId: number;
  expiresAt: number;
  lastSeenAt: number | null;
}

/** Sessions kept per process, by token digest: about one per member active in the last minutes. */
const LIVE_SESSIONS = answerKind<LiveSession>('sessions', 20_000);

async function findSession(deps: AppDeps, digest: string, now: Date): Promise<LiveSession | undefined> {
  const row = await findLiveSession(deps.db, digest, now);
  return (
    row && {
      userId: row.userId,
      sessionId: row.id,
      expiresAt: row.expiresAt.getTime(),
      lastSeenAt: row.lastSeenAt?.getTime() ?? null,
    }
  );
}

/**
 * The member behind a token, or null when the token is unknown, revoked or expired. A session kept in
 * this process (deps.memberAnswers) is dropped on every instance when it is revoked or its member
 * deleted (the sessions and users triggers notify), and is never served past its expiry.
 */
export async function resolveSession(
  deps: AppDeps,
  token: string,
  /** The language the request was made in, when it names one: remembered with the minute's touch. */
  spoken?: Locale,
): Promise<Member | null> {
  if (!token) return null;
  const now = deps.clock.now();
  const digest = tokenDigest(token);
  const kept = deps.memberAnswers?.of(LIVE_SESSIONS);
  const session = kept
    ? await kept.read(
        digest,
        async () => {
          const found = await findSession(deps, digest, now);
          return found && { member: found.userId, value: found };
        },
        (live) => live.expiresAt > now.getTime(),
      )
    : await findSession(deps, digest, now);
  if (!session || session.expiresAt <= now.getTime()) return null;
  if (session.lastSeenAt === null || now.getTime() - session.lastSeenAt >= TOUCH_INTERVAL_MS) {
    await touchSession(deps.db, session.sessionId, now);
    // A language chosen on the site reaches the mails sent later (a decision, an answer), within a
    // minute and with no write on the calls in between; only login and registration wrote it before.
    if (spoken) await rememberLocale(deps.db, session.userId, spoken);
    session.lastSeenAt = now.getTime();
  }
  return { userId: session.userId, sessionId: session.sessionId };
}
