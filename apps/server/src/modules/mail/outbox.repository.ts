import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { type MailOutboxRow, mailOutbox } from './mail.tables.js';

export type NewOutboxMail = typeof mailOutbox.$inferInsert;

export async function insertOutboxMail(tx: Executor, mail: NewOutboxMail): Promise<number> {
  const [row] = await tx.insert(mailOutbox).values(mail).returning({ id: mailOutbox.id });
  if (!row) throw new Error('outbox insert returned no row');
  return row.id;
}

/**
 * Takes up to `limit` due mails under a lease and counts the attempt. SKIP LOCKED plus the lease let
 * several instances drain one outbox without sending a mail twice; a worker that dies mid-send leaves
 * the lease to run out and the mail is tried again.
 */
export async function claimDueMails(
  db: Executor,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<MailOutboxRow[]> {
  const due = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(
      and(
        eq(mailOutbox.status, 'pending'),
        lte(mailOutbox.nextAttemptAt, now),
        or(isNull(mailOutbox.lockedUntil), lt(mailOutbox.lockedUntil, now)),
      ),
    )
    .orderBy(asc(mailOutbox.id))
    .limit(limit)
    .for('update', { skipLocked: true });
  const rows = await db
    .update(mailOutbox)
    .set({ lockedUntil: leaseUntil, attempts: sql`${mailOutbox.attempts} + 1` })
    .where(inArray(mailOutbox.id, due))
    .returning();
  return rows.sort((a, b) => a.id - b.id);
}

/**
 * Renews a claimed mail's lease just before it is sent, if the claim is still this drain's: still
 * pending, and no other drain has claimed it since (each claim counts an attempt). A batch is claimed
 * together and sent one by one, so with a slow mail server the later ones' lease could run out and
 * another instance send them too. Answers whether the mail is still this drain's to send.
 */
export async function renewMailLease(
  db: Executor,
  claim: { id: number; attempts: number },
  leaseUntil: Date,
): Promise<boolean> {
  const rows = await db
    .update(mailOutbox)
    .set({ lockedUntil: leaseUntil })
    .where(
      and(
        eq(mailOutbox.id, claim.id),
        eq(mailOutbox.attempts, claim.attempts),
        eq(mailOutbox.status, 'pending'),
      ),
    )
    .returning({ id: mailOutbox.id });
  return rows.length === 1;
}

/** Sent: the encrypted payload (recipient and parameters) is erased for good. */
export async function markMailSent(db: Executor, id: number, now: Date) {
  await db
    .update(mailOutbox)
    .set({ status: 'sent', sentAt: now, payload: null, lockedUntil: null, lastError: null })
    .where(eq(mailOutbox.id, id));
}

export async function markMailRetry(db: Executor, id: number, error: string, nextAttemptAt: Date) {
  await db
    .update(mailOutbox)
    .set({ lockedUntil: null, lastError: error, nextAttemptAt })
    .where(eq(mailOutbox.id, id));
}

/** Given up: kept for the operator with its last error; a stale code's payload is erased too. */
/**
 * A deleted member's mails not sent yet are dropped, their encrypted address and parameters erased:
 * nothing reaches an erased account after its deletion notice (which is queued after this). A drain
 * holding one renews its lease before sending, which a dropped mail fails.
 */
export async function dropPendingMailsOf(db: Executor, userId: number, reason: string): Promise<number> {
  const rows = await db
    .update(mailOutbox)
    .set({ status: 'failed', payload: null, lockedUntil: null, lastError: reason })
    .where(and(eq(mailOutbox.userId, userId), eq(mailOutbox.status, 'pending')))
    .returning({ id: mailOutbox.id });
  return rows.length;
}

export async function markMailFailed(db: Executor, id: number, error: string, erasePayload: boolean) {
  await db
    .update(mailOutbox)
    .set({
      status: 'failed',
      lockedUntil: null,
      lastError: error,
      ...(erasePayload ? { payload: null } : {}),
    })
    .where(eq(mailOutbox.id, id));
}

/**
 * Housekeeping: deletes up to `limit` mails sent before `cutoff` (their payload is already erased).
 * Pending and failed mails are never touched: the first wait for the worker, the second for an
 * operator. SKIP LOCKED lets instances pruning at once take different rows.
 */
export async function deleteMailsSentBefore(db: Executor, cutoff: Date, limit: number): Promise<number> {
  const old = and(eq(mailOutbox.status, 'sent'), lt(mailOutbox.sentAt, cutoff));
  const batch = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(old)
    .limit(limit)
    .for('update', { skipLocked: true });
  const rows = await db
    .delete(mailOutbox)
    .where(and(inArray(mailOutbox.id, batch), old))
    .returning({ id: mailOutbox.id });
  return rows.length;
}
