import { and, count, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { selectMemberPage } from './withdrawals.repository.js';
import { withdrawals } from './withdrawals.tables.js';

/**
 * Whether a withdrawal of the member's is still under review, read with the caller's executor so a
 * transaction that already holds the member's ledger locks sees every request committed before them.
 * Its own file, apart from withdrawals.service: account deletion (auth) asks this, and the service
 * imports auth for codes and the password lock, so going through it would make the two import each other.
 */
export async function hasWithdrawalUnderReview(db: Executor, userId: number): Promise<boolean> {
  const { total } = await selectMemberPage(db, userId, { status: 'pending', page: 1, pageSize: 1 });
  return total > 0;
}

/**
 * How many withdrawals of a UID are under review (a dispute's binding moves only once they are
 * decided). Read with the caller's executor, like the one above.
 */
export async function countUnderReviewOfUid(db: Executor, platId: number, uid: string): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(withdrawals)
    .where(and(eq(withdrawals.platId, platId), eq(withdrawals.uid, uid), eq(withdrawals.status, 'pending')));
  return row?.value ?? 0;
}
