import { displayUsdt } from '@elex/contract';
import type { Transaction } from '../../db/client.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../http/app-error.js';
import {
  ACCOUNT_DELETED_REASON,
  eraseXmeUid,
  forgetUidWatches,
  liveBindingsOf,
  unbindUid,
} from '../bindings/bindings.service.js';
import { accountCode, balanceOf, balancesOf, postJournal } from '../ledger/ledger.service.js';
import { isUidFrozen } from '../support/frozen.js';
import { closeRequestsOfLeavingMember } from '../support/support.service.js';
import { eraseSocialAccounts } from '../tasks/tasks.service.js';
import { hasWithdrawalUnderReview } from '../withdrawals/under-review.js';

/** The ledger journal kind of the balances a deletion forfeits (docs/ledger.md). */
const FORFEIT_JOURNAL_KIND = 'accountDeletion';

/**
 * What a deletion ends besides the user row, in its transaction (docs/accounts.md, "Deletion"):
 *
 * - every live exchange binding, through the bindings module's unbind with the reason
 *   'accountDeleted', so the UID is free for its owner's next account and the Polygon address is no
 *   longer a live destination;
 * - the money not yet withdrawn, which the terms (section 8) say is lost: each bound UID's cashback
 *   goes back to its exchange's commission account and the member's rewards to rewards-expense, one
 *   journal per account. Without it the balance settled by the deletion would wait for the UID's next
 *   binding, and its owner could collect it again under another e-mail (periods settled later go to
 *   whoever binds the UID next, docs/accounts.md). The ledger keeps every line (append-only), so the
 *   records stay whole and anonymous;
 * - the XME account id and the Telegram and Discord ids, through their modules;
 * - the member's open support requests, closed (a dispute of a member who left would freeze the
 *   holder's UID until an operator noticed), before anything else.
 *
 * Refused while a UID the member holds is disputed by someone else ('deletionUidDisputed'): its frozen
 * balance waits for the operator's decision, which may move it to the claimant.
 *
 * The ledger accounts are locked first, in code order ('cashback:' < 'rewards:'), as a withdrawal
 * locks them before it reads the user row: a withdrawal racing the deletion either committed before
 * (its hold left the accounts) or waits and then finds nothing to draw.
 *
 * `shownForfeitMicro` is the sum the deletion dialog showed (issue 11): under the locks the money held
 * must still be exactly that, or nothing happens and the member is told the new sum. A rebate settled,
 * a reward credited or a withdrawal made since the dialog opened cannot make them lose what they did
 * not see.
 */
export async function endMemberHoldings(
  tx: Transaction,
  userId: number,
  at: Date,
  shownForfeitMicro: bigint,
  /** The member's open support requests are closed too (the route; a test of the money alone omits it). */
  requests?: { deps: AppDeps; exchangeName(platId: number): string },
): Promise<{ unbound: number; forfeitedMicro: bigint }> {
  // Before the ledger locks: a dispute's move or confirmation takes the request's row first as well.
  if (requests) {
    await closeRequestsOfLeavingMember(tx, requests.deps, {
      userId,
      at,
      exchangeName: requests.exchangeName,
    });
  }
  const balances = new Map<string, bigint>();
  const lock = async (codes: string[]) => {
    for (const code of codes.filter((candidate) => !balances.has(candidate)).sort()) {
      balances.set(code, await balanceOf(tx, code, { forUpdate: true, at }));
    }
  };
  const rewardsAccount = accountCode.rewards(userId);
  const firstBindings = await liveBindingsOf(tx, userId);
  const held = [
    ...firstBindings.map((binding) => accountCode.cashback(binding.platId, binding.uid)),
    rewardsAccount,
  ];
  // Where a balance goes when it is forfeited (its exchange's commission, rewards-expense), locked with
  // the balances in the one code order, not after them: settlement holds those accounts while it
  // waits for a UID's or an inviter's (found in review, 2026-11-29; it deadlocked, and a deadlock can
  // abort the import). Read before the locks, so an account that was empty costs no wait; one that
  // fills meanwhile changes the sum shown and is refused below.
  const seen = await balancesOf(tx, held);
  const forfeitTargets = [
    ...firstBindings
      .filter((binding) => (seen.get(accountCode.cashback(binding.platId, binding.uid)) ?? 0n) > 0n)
      .map((binding) => accountCode.commission(binding.platId)),
    ...((seen.get(rewardsAccount) ?? 0n) > 0n ? [accountCode.rewardsExpense] : []),
  ];
  await lock([...held, ...forfeitTargets]);
  // A withdrawal under review is decided first: rejected after the deletion, its funds would return
  // to accounts nobody can reach any more. Asked under the locks, so a request that committed a moment
  // before is seen, and one that comes later waits and then finds the balances gone.
  if (await hasWithdrawalUnderReview(tx, userId)) throw AppError.refused('deletionWithdrawalPending');

  // The bindings again, now that the accounts are locked: an operator may have unbound one (and another
  // member bound it) or the member bound one more while the first read waited for the locks. A UID
  // bound since is locked too (after the others: in that rare race a deadlock aborts one side, and the
  // member asks again); only bindings this member still holds are ended and forfeited.
  const bindings = await liveBindingsOf(tx, userId);
  await lock(bindings.map((binding) => accountCode.cashback(binding.platId, binding.uid)));
  // A UID someone disputes is decided first (found in review, 2026-11-29): its frozen balance may be
  // the claimant's, and forfeiting it would let the holder destroy the owner's money and leave the
  // dispute nothing to move. Asked under the UIDs' account locks, which opening a dispute takes too:
  // one committed before is seen, one that comes later waits and then finds the UID unbound.
  for (const binding of bindings) {
    if (await isUidFrozen(tx, binding.platId, binding.uid)) throw AppError.refused('deletionUidDisputed');
  }
  let heldMicro = 0n;
  for (const code of [
    ...bindings.map((binding) => accountCode.cashback(binding.platId, binding.uid)),
    rewardsAccount,
  ]) {
    const balance = balances.get(code) ?? 0n;
    if (balance > 0n) heldMicro += balance;
  }
  if (heldMicro !== shownForfeitMicro) {
    throw AppError.refused('deletionForfeitChanged', { amount: displayUsdt(heldMicro) });
  }
  const cashbackAccounts = new Map<string, number>();
  let unbound = 0;
  for (const binding of bindings) {
    const ended = await unbindUid(tx, {
      platId: binding.platId,
      uid: binding.uid,
      reason: ACCOUNT_DELETED_REASON,
      operatorId: null,
      at,
      holderId: userId,
    });
    if (!ended) continue;
    unbound += 1;
    cashbackAccounts.set(accountCode.cashback(binding.platId, binding.uid), binding.platId);
  }

  let forfeitedMicro = 0n;
  const forfeit = async (account: string, source: string) => {
    const balance = balances.get(account) ?? 0n;
    if (balance <= 0n) return;
    await postJournal(tx, {
      kind: FORFEIT_JOURNAL_KIND,
      key: `${FORFEIT_JOURNAL_KIND}:${userId}:${account}`,
      lines: [
        { account, amount: -balance },
        { account: source, amount: balance },
      ],
      at,
      memo: 'not withdrawn when the account was deleted (terms, section 8)',
    });
    forfeitedMicro += balance;
  };
  for (const [account, platId] of cashbackAccounts) await forfeit(account, accountCode.commission(platId));
  await forfeit(rewardsAccount, accountCode.rewardsExpense);

  await eraseXmeUid(tx, userId);
  await forgetUidWatches(tx, userId);
  await eraseSocialAccounts(tx, userId);
  return { unbound, forfeitedMicro };
}
