import type { Executor } from '../../db/client.js';
import { livePayoutOf, payoutOfAttemptHash } from './payouts.repository.js';

/**
 * What the withdrawal flow asks of payouts: the payout of a withdrawal that may still move money, or
 * has moved it (at most one). Read with the caller's executor, so a decision under the withdrawal's
 * row lock sees every send committed before it. Apart from payouts.service, which calls into the
 * withdrawal flow, so that the two do not import each other.
 */
export function payoutMovingMoneyFor(db: Executor, withdrawalId: number) {
  return livePayoutOf(db, withdrawalId);
}

/**
 * The payout whose signed transaction this hash is, if it is one: the payout wallet's own transfer,
 * which pays its own withdrawal or nothing (reverted, dropped), never a payment made by hand.
 */
export function payoutSignedAs(db: Executor, txHash: string) {
  return payoutOfAttemptHash(db, txHash.toLowerCase());
}
