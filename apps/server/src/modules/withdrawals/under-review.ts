import type { Executor } from '../../db/client.js';
import { selectMemberPage } from './withdrawals.repository.js';

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
