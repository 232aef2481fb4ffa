import { State } from '@elex/contract';
import { sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.js';
import { isDeadlock, isLockTimeout } from '../../db/pg-errors.js';
import { AppError } from '../../http/app-error.js';

/**
 * A money action someone is waiting for: a member's withdrawal, deletion or dispute, an operator's
 * decision or correction. Every posting locks its accounts until its transaction commits, and an
 * import or a sync settles a whole file in one transaction: a 1M-line import holds the cashback
 * accounts of every UID it credited for over a minute. Waiting that long would hang the member's
 * request and hold one of the pool's connections (ten of them and every call waits), so the action
 * waits at most `ACCOUNT_LOCK_WAIT_MS` (`lock_timeout`, for this transaction only) and is refused with
 * 'accountBusy' instead: its transaction rolls back whole, so nothing changed and the same request can
 * simply be sent again. Background work (imports, settlement, the payout tracker) still waits.
 */
export async function inMoneyTransaction<T>(
  deps: { db: Database; config: { accountLockWaitMs: number } },
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  try {
    return await deps.db.transaction(async (tx) => {
      await waitForLocksAtMost(tx, deps.config.accountLockWaitMs);
      return work(tx);
    });
  } catch (error) {
    // The key as content too, so a client can tell "try the same again soon" from a final refusal.
    // A deadlock rolled back whole too: the same answer, not a fault.
    if (isLockTimeout(error) || isDeadlock(error))
      throw new AppError(State.Refused, 'accountBusy', {}, { messageKey: 'accountBusy' });
    throw error;
  }
}

/** This transaction's lock waits end after `ms` with 55P03 (lock_not_available). */
export async function waitForLocksAtMost(tx: Transaction, ms: number): Promise<void> {
  await tx.execute(sql.raw(`set local lock_timeout = ${Math.max(1, Math.floor(ms))}`));
}
