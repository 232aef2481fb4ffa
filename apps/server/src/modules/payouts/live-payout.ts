import type { Executor } from '../../db/client.js';
import { livePayoutOf } from './payouts.repository.js';

/**
 * What the withdrawal flow asks of payouts: the payout of a withdrawal that may still move money, or
 * has moved it (at most one). Read with the caller's executor, so a decision under the withdrawal's
 * row lock sees every send committed before it. Apart from payouts.service, which calls into the
 * withdrawal flow, so that the two do not import each other.
 */
export function payoutMovingMoneyFor(db: Executor, withdrawalId: number) {
  return livePayoutOf(db, withdrawalId);
}
