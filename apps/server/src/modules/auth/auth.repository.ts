import type { Locale } from '@elex/contract';
import { and, count, desc, eq, gt, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { builtOnce } from '../../db/built-once.js';
import type { Executor } from '../../db/client.js';
import { chunks } from '../../db/rows.js';
import {
  deletedEmails,
  type SessionRow,
  sessions,
  type UserRow,
  users,
  type VerificationCodeRow,
  verificationCodes,
} from './auth.tables.js';

export type NewUser = typeof users.$inferInsert;
export type NewSession = typeof sessions.$inferInsert;
export type NewVerificationCode = typeof verificationCodes.$inferInsert;

// --- users

/**
 * A live account stored under any of these forms of one address, the first form (the canonical one)
 * before the others: an account stored in an older form is still found (migration 0046).
 */
export async function findActiveUserByEmailForms(
  db: Executor,
  forms: readonly string[],
): Promise<UserRow | undefined> {
  const [canonical] = forms;
  const [row] = await db
    .select()
    .from(users)
    .where(and(inArray(users.email, [...forms]), isNull(users.deletedAt)))
    .orderBy(sql`${users.email} = ${canonical} desc`, users.id)
    .limit(1);
  return row;
}

export async function findActiveUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.email, email), isNull(users.deletedAt)))
    .limit(1);
  return row;
}

const userById = builtOnce((db) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare('user_by_id'),
);

export async function findUserById(db: Executor, id: number): Promise<UserRow | undefined> {
  const [row] = await userById(db).execute({ id });
  return row;
}

/** Members' inviters whose accounts still exist, by member id (members without one are absent). */
export async function selectActiveInviters(
  db: Executor,
  ids: readonly number[],
): Promise<Map<number, number>> {
  const found = new Map<number, number>();
  const inviters = alias(users, 'inviters');
  for (const part of chunks([...new Set(ids)])) {
    const rows = await db
      .select({ id: users.id, inviterId: inviters.id })
      .from(users)
      .innerJoin(inviters, eq(inviters.id, users.inviterId))
      .where(and(inArray(users.id, part), isNull(inviters.deletedAt)));
    for (const row of rows) found.set(row.id, row.inviterId);
  }
  return found;
}

/**
 * The user row held `FOR KEY SHARE`: a deletion (it clears the e-mail, a unique key) waits for the
 * transaction, while the `FOR NO KEY UPDATE` lock of a money action on the member does not.
 */
export async function findUserByIdForKeyShare(db: Executor, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1).for('key share');
  return row;
}

/** The user row held `FOR SHARE` until the transaction ends: an UPDATE of it waits, reads do not. */
export async function findUserByIdForShare(db: Executor, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1).for('share');
  return row;
}

/**
 * The user row held `FOR NO KEY UPDATE`: one money action on a member at a time (corrections, a
 * dispute's move, a deletion), while rows that merely reference the member (a bonus, an account, a
 * withdrawal; their foreign key takes `FOR KEY SHARE`) are still written meanwhile.
 */
export async function findUserByIdForNoKeyUpdate(db: Executor, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1).for('no key update');
  return row;
}

/** The user row held `FOR UPDATE` until the transaction ends: for an operator's change of it. */
export async function findUserByIdForUpdate(db: Executor, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1).for('update');
  return row;
}

export async function findActiveUserByInviteCode(
  db: Executor,
  inviteCode: string,
): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.inviteCode, inviteCode), isNull(users.deletedAt)))
    .limit(1);
  return row;
}

/**
 * Inserts a user unless a unique key (e-mail, user code, invite code) is taken, in which case it
 * answers undefined. ON CONFLICT keeps the transaction usable, so the caller can tell a taken e-mail
 * from a code collision and retry; a concurrent insert of the same e-mail waits for the other
 * transaction and then conflicts.
 */
export async function insertUserUnlessTaken(tx: Executor, user: NewUser): Promise<UserRow | undefined> {
  const [row] = await tx.insert(users).values(user).onConflictDoNothing().returning();
  return row;
}

export async function updateUser(tx: Executor, id: number, patch: Partial<NewUser>) {
  await tx.update(users).set(patch).where(eq(users.id, id));
}

/** True when any of these hashes (the forms of one address) is a deleted account's. */
export async function isEmailDeleted(db: Executor, emailHashes: readonly string[]): Promise<boolean> {
  const rows = await db
    .select({ emailHash: deletedEmails.emailHash })
    .from(deletedEmails)
    .where(inArray(deletedEmails.emailHash, [...emailHashes]))
    .limit(1);
  return rows.length > 0;
}

export async function insertDeletedEmail(tx: Executor, emailHash: string, at: Date) {
  await tx.insert(deletedEmails).values({ emailHash, deletedAt: at }).onConflictDoNothing();
}

// --- sessions

export async function insertSession(tx: Executor, session: NewSession) {
  const [row] = await tx.insert(sessions).values(session).returning({ id: sessions.id });
  if (!row) throw new Error('session insert returned no row');
  return row.id;
}

/** The session of a token, if it is live and its member is not deleted. */
const liveSession = builtOnce((db) =>
  db
    .select({
      id: sessions.id,
      userId: sessions.userId,
      expiresAt: sessions.expiresAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql.placeholder('now')),
        isNull(users.deletedAt),
      ),
    )
    .limit(1)
    .prepare('live_session'),
);

export async function findLiveSession(
  db: Executor,
  tokenHash: string,
  now: Date,
): Promise<Pick<SessionRow, 'id' | 'userId' | 'expiresAt' | 'lastSeenAt'> | undefined> {
  const [row] = await liveSession(db).execute({ tokenHash, now });
  return row;
}

export async function touchSession(db: Executor, id: number, now: Date) {
  await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id));
}

/** The language the member now uses, for the mails sent later; written only when it changed. */
export async function rememberLocale(db: Executor, userId: number, locale: Locale) {
  await db
    .update(users)
    .set({ locale })
    .where(and(eq(users.id, userId), ne(users.locale, locale), isNull(users.deletedAt)));
}

export async function revokeSession(tx: Executor, id: number, now: Date) {
  await tx
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
}

/** Revokes every live session of a member, or every one but `exceptSessionId`. */
export async function revokeUserSessions(tx: Executor, userId: number, now: Date, exceptSessionId?: number) {
  await tx
    .update(sessions)
    .set({ revokedAt: now })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        exceptSessionId === undefined ? undefined : ne(sessions.id, exceptSessionId),
      ),
    );
}

/**
 * Housekeeping: deletes up to `limit` sessions that expired, or were revoked, before `cutoff` (a
 * moment in the past): a live session never matches. SKIP LOCKED lets instances pruning at once take
 * different rows, and skips a session being touched right now.
 */
export async function deleteSessionsEndedBefore(db: Executor, cutoff: Date, limit: number): Promise<number> {
  const ended = or(lt(sessions.expiresAt, cutoff), lt(sessions.revokedAt, cutoff));
  const batch = db
    .select({ id: sessions.id })
    .from(sessions)
    .where(ended)
    .limit(limit)
    .for('update', { skipLocked: true });
  const rows = await db
    .delete(sessions)
    .where(and(inArray(sessions.id, batch), ended))
    .returning({ id: sessions.id });
  return rows.length;
}

// --- verification codes

/**
 * Serialises code requests for one e-mail and one IP until the transaction ends, so the cool-down and
 * the hourly caps hold under concurrent requests, on one instance or several. Always e-mail first,
 * then IP, so two requests cannot wait on each other.
 */
export async function lockCodeRequests(tx: Executor, emailHash: string, ipHash: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`code-email|${emailHash}`}, 0))`);
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`code-ip|${ipHash}`}, 0))`);
}

/** accounts issue: only the newest code for an (e-mail, module) counts. */
export async function findNewestCode(
  db: Executor,
  emailHash: string,
  module: number,
): Promise<VerificationCodeRow | undefined> {
  const [row] = await db
    .select()
    .from(verificationCodes)
    .where(and(eq(verificationCodes.emailHash, emailHash), eq(verificationCodes.module, module)))
    .orderBy(desc(verificationCodes.id))
    .limit(1);
  return row;
}

export async function countCodesForEmailSince(db: Executor, emailHash: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(verificationCodes)
    .where(and(eq(verificationCodes.emailHash, emailHash), gt(verificationCodes.createdAt, since)));
  return row?.total ?? 0;
}

export async function countCodesForIpSince(db: Executor, ipHash: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(verificationCodes)
    .where(and(eq(verificationCodes.ipHash, ipHash), gt(verificationCodes.createdAt, since)));
  return row?.total ?? 0;
}

export async function insertCode(tx: Executor, code: NewVerificationCode) {
  await tx.insert(verificationCodes).values(code);
}

/** Serialises the reset-code budget's check and a try's reservation for one e-mail (any instance). */
export async function lockResetTries(tx: Executor, emailHash: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`reset-tries|${emailHash}`}, 0))`);
}

/**
 * The tries still counted (wrong ones: a right one is given back) on an e-mail's codes of a module
 * created after `since`, oldest code first.
 */
export function wrongTriesSince(db: Executor, emailHash: string, module: number, since: Date) {
  return db
    .select({ createdAt: verificationCodes.createdAt, attempts: verificationCodes.attempts })
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.emailHash, emailHash),
        eq(verificationCodes.module, module),
        gt(verificationCodes.createdAt, since),
        gt(verificationCodes.attempts, 0),
      ),
    )
    .orderBy(verificationCodes.createdAt, verificationCodes.id);
}

/**
 * Counts a try before the code is compared, in one statement: however many requests race, no more
 * than `maxAttempts` comparisons ever happen for one code. Answers undefined when the code is spent
 * (too many tries or consumed).
 */
export async function reserveCodeAttempt(db: Executor, id: number, maxAttempts: number) {
  const [row] = await db
    .update(verificationCodes)
    .set({ attempts: sql`${verificationCodes.attempts} + 1` })
    .where(
      and(
        eq(verificationCodes.id, id),
        sql`${verificationCodes.attempts} < ${maxAttempts}`,
        isNull(verificationCodes.consumedAt),
      ),
    )
    .returning({ attempts: verificationCodes.attempts });
  return row;
}

/** A right code gives its reserved try back: only wrong tries count. */
export async function releaseCodeAttempt(db: Executor, id: number) {
  await db
    .update(verificationCodes)
    .set({ attempts: sql`greatest(${verificationCodes.attempts} - 1, 0)` })
    .where(eq(verificationCodes.id, id));
}

/**
 * accounts issue: single use under concurrency. Runs in the transaction of the account change; of two
 * requests with one code, the second waits on the row and then matches nothing.
 */
export async function consumeCode(tx: Executor, id: number, now: Date): Promise<boolean> {
  const rows = await tx
    .update(verificationCodes)
    .set({ consumedAt: now })
    .where(and(eq(verificationCodes.id, id), isNull(verificationCodes.consumedAt)))
    .returning({ id: verificationCodes.id });
  return rows.length > 0;
}

export async function findCodeById(db: Executor, id: number): Promise<VerificationCodeRow | undefined> {
  const [row] = await db.select().from(verificationCodes).where(eq(verificationCodes.id, id)).limit(1);
  return row;
}

export async function deleteCodesForEmail(tx: Executor, emailHash: string) {
  await tx.delete(verificationCodes).where(eq(verificationCodes.emailHash, emailHash));
}

/**
 * Housekeeping: deletes up to `limit` codes that expired (and, when used, were used) before `cutoff`.
 * Safe while the cutoff lies further back than a code's validity (10 minutes) and the windows counted
 * from this table (60 s cool-down, hourly caps): every code of an (e-mail, module) older than a
 * deleted one expired earlier still, so removing the newest cannot make an older code count again.
 * `created_at < cutoff` is implied by the expiry; it is spelt out so the created_at index serves.
 */
export async function deleteCodesExpiredBefore(db: Executor, cutoff: Date, limit: number): Promise<number> {
  const spent = and(
    lt(verificationCodes.createdAt, cutoff),
    lt(verificationCodes.expiresAt, cutoff),
    or(isNull(verificationCodes.consumedAt), lt(verificationCodes.consumedAt, cutoff)),
  );
  const batch = db
    .select({ id: verificationCodes.id })
    .from(verificationCodes)
    .where(spent)
    .limit(limit)
    .for('update', { skipLocked: true });
  const rows = await db
    .delete(verificationCodes)
    .where(and(inArray(verificationCodes.id, batch), spent))
    .returning({ id: verificationCodes.id });
  return rows.length;
}
