import { type Locale, State, txHashSchema, WITHDRAWAL, type Withdrawal } from '@elex/contract';
import type { Executor, Transaction } from '../../db/client.js';
import { isUniqueViolation } from '../../db/pg-errors.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../http/app-error.js';
import { displayTime } from '../../lib/display-time.js';
import { isSuspended, memberContact, withdrawalLockedUntil } from '../auth/auth.service.js';
import { loadPartners } from '../cashback/partners.js';
import { inMoneyTransaction } from '../ledger/account-lock-wait.js';
import { accountCode, balanceOf, postJournal } from '../ledger/ledger.service.js';
import { enqueueMail } from '../mail/outbox.js';
import type { MailParams } from '../mail/templates.js';
import { payoutMovingMoneyFor, payoutSignedAs } from '../payouts/live-payout.js';
import { isUidFrozen } from '../support/frozen.js';
import {
  checkpoint,
  journalKey,
  mailParams,
  parseField,
  parseWithdrawalId,
  pendingVersionOf,
  toSnapshot,
  toWithdrawal,
  WITHDRAWAL_JOURNAL_KINDS,
  type WithdrawalDeps,
  type WithdrawalSnapshot,
} from './withdrawals.model.js';
import {
  type Decision,
  decidePending,
  findWithdrawal,
  findWithdrawalForUpdate,
  selectPendingTotals,
} from './withdrawals.repository.js';
import type { DecidedVia, WithdrawalRow } from './withdrawals.tables.js';

const HOUR_MS = 60 * 60 * 1000;

/**
 * Deciding a withdrawal under review (docs/withdrawals.md, "Decisions"): the member cancels, an
 * operator (console or CLI) or the payout tracker pays or rejects it. Each is one transaction: the
 * status, the ledger (hold -> payout, or the exact return of the hold) and the result mail.
 */

/** /elex/user/cancelDeposit: the member takes back a withdrawal still under review; the funds return. */
export async function cancelWithdrawal(
  deps: WithdrawalDeps,
  userId: number,
  id: string | number,
): Promise<Withdrawal> {
  const withdrawalId = parseWithdrawalId(id);
  const { after } = await decide(deps, withdrawalId, {
    decision: { status: 'cancelled', decidedBy: null, decidedVia: 'member' },
    ownerId: userId,
    mail: undefined,
  });
  return toWithdrawal(after);
}

// ---------------------------------------------------------------------------------------------------
// Operator decisions (the console and the CLI call these)

export interface DecisionResult {
  before: WithdrawalSnapshot;
  after: WithdrawalSnapshot;
}

/**
 * Pays a pending withdrawal: records the payout transaction's hash, moves the hold to `payout` and
 * queues the result mail, in one transaction. Refuses a decided withdrawal ('withdrawalNotPending'),
 * a malformed hash ('txHashInvalid') and a hash recorded for another withdrawal ('txHashAlreadyUsed').
 * `via` says where it was decided (the command line names its operator too); without it, an
 * `operatorId` null means the command line.
 */
export async function approveWithdrawal(
  deps: WithdrawalDeps,
  input: {
    id: string | number;
    txHash: string;
    operatorId: number | null;
    via?: DecidedVia;
    /**
     * The on-chain payout that paid it (the payout tracker completing its own send): the money has
     * left already, so a dispute opened since the send does not stop the record of it.
     */
    payoutId?: number;
  },
): Promise<DecisionResult> {
  const withdrawalId = parseWithdrawalId(input.id);
  const txHash = parseField(txHashSchema, input.txHash).toLowerCase();
  const { before, after } = await decide(deps, withdrawalId, {
    decision: {
      status: 'completed',
      decidedBy: input.operatorId,
      decidedVia: input.via ?? (input.operatorId === null ? 'cli' : 'console'),
      txHash,
    },
    mail: 'withdrawalCompleted',
    ...(input.payoutId === undefined ? {} : { payoutId: input.payoutId }),
  });
  return { before: toSnapshot(before), after: toSnapshot(after) };
}

/** The longest reason an operator may give (it goes into a mail). */
const REJECTION_REASON_MAX = 500;

/**
 * Rejects a pending withdrawal with a reason the member reads: the hold returns to the cashback and
 * rewards it came from, exactly, and the result mail is queued, in one transaction.
 */
export async function rejectWithdrawal(
  deps: WithdrawalDeps,
  input: { id: string | number; reason: string; operatorId: number | null; via?: DecidedVia },
): Promise<DecisionResult> {
  const withdrawalId = parseWithdrawalId(input.id);
  const reason = input.reason.trim();
  if (reason.length === 0) throw AppError.refused('requiredInformation');
  if (reason.length > REJECTION_REASON_MAX) throw AppError.refused('invalidValue');
  const { before, after } = await decide(deps, withdrawalId, {
    decision: {
      status: 'failed',
      decidedBy: input.operatorId,
      decidedVia: input.via ?? (input.operatorId === null ? 'cli' : 'console'),
      failureReason: reason,
    },
    mail: 'withdrawalRejected',
  });
  return { before: toSnapshot(before), after: toSnapshot(after) };
}

/**
 * One decision in one transaction: the status moves with `UPDATE ... WHERE status = 'pending'
 * RETURNING` (of racing decisions exactly one gets the row), the ledger follows (payout, or the
 * exact return of the hold), and the result mail is queued. A failure at any step rolls all back.
 */
async function decide(
  deps: WithdrawalDeps,
  id: number,
  options: {
    decision: Omit<Decision, 'decidedAt'>;
    ownerId?: number;
    mail: 'withdrawalCompleted' | 'withdrawalRejected' | undefined;
    /** Completing the on-chain payout of this id (the only decision a payout in flight allows). */
    payoutId?: number;
  },
): Promise<{ before: WithdrawalRow; after: WithdrawalRow }> {
  const partners = options.mail ? await loadPartners(deps) : undefined;
  // A person deciding waits a bounded time for the UID's account (inMoneyTransaction); the payout
  // tracker recording a landed payout runs inside its own transaction and waits as long as it takes.
  const transaction =
    options.payoutId === undefined
      ? <T>(work: (tx: Transaction) => Promise<T>) => inMoneyTransaction(deps, work)
      : <T>(work: (tx: Transaction) => Promise<T>) => deps.db.transaction(work);
  return transaction(async (tx) => {
    const now = deps.clock.now();
    let after: WithdrawalRow | undefined;
    try {
      after = await decidePending(tx, id, { ...options.decision, decidedAt: now }, options.ownerId);
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.refused('txHashAlreadyUsed');
      throw error;
    }
    if (!after) {
      const current = await findWithdrawal(tx, id);
      if (!current || (options.ownerId !== undefined && current.userId !== options.ownerId)) {
        throw new AppError(State.NotFound, 'notFound');
      }
      throw AppError.refused('withdrawalNotPending');
    }
    // Four eyes on money: an operator decides nobody's withdrawal of their own (they may cancel it as a
    // member). The owner never changes, so the row the update returned answers it; throwing rolls the
    // update back. The command line names its operator too (docs/withdrawals.md, "Decisions"); only a
    // decision without one (a service call of old, decidedBy null) has nobody to compare.
    if (options.decision.decidedBy !== null && after.userId === options.decision.decidedBy) {
      throw AppError.refused('withdrawalOwnDecision');
    }
    // A payout on its way on chain settles the withdrawal itself (docs/withdrawals.md, "On-chain
    // payouts"): nobody cancels, rejects or pays by hand what may land any block now. The send took
    // this row's lock to create the payout, and the update above took it too: one of them saw the other.
    const live = await payoutMovingMoneyFor(tx, id);
    if (live && live.id !== options.payoutId) {
      throw options.decision.decidedVia === 'member'
        ? AppError.refused('withdrawalBeingPaid')
        : AppError.refused('withdrawalPayoutInFlight', { payout: live.id });
    }
    if (options.payoutId !== undefined && live?.id !== options.payoutId) {
      throw new Error(`payout ${options.payoutId} is not the live payout of withdrawal ${id}`);
    }
    // A payment by hand is recorded with its own transaction, never one the payout wallet signed: that
    // one paid its own withdrawal (which the tracker completes with it) or nothing (reverted, dropped).
    // The console shows those hashes beside the withdrawals, so one pasted into the wrong row would
    // mark a withdrawal paid that was not, and leave the landed payout unable to complete its own.
    if (after.status === 'completed' && options.payoutId === undefined && after.txHash) {
      const signed = await payoutSignedAs(tx, after.txHash);
      if (signed) throw AppError.refused('txHashIsPayout', { withdrawal: String(signed.withdrawalId) });
    }
    // Frozen money is never paid: a dispute opened on the UID since the request must be decided first.
    // The UID's account lock orders this against a dispute being opened (it takes the same lock).
    // A payout that landed has paid already: the record follows the chain.
    if (after.status === 'completed' && options.payoutId === undefined) {
      await refuseWhileMemberPaused(tx, deps, after.userId);
      await balanceOf(tx, accountCode.cashback(after.platId, after.uid), { forUpdate: true, at: now });
      if (await isUidFrozen(tx, after.platId, after.uid)) throw AppError.refused('withdrawalFrozen');
    }
    await checkpoint(deps, 'decide:afterStatus');

    if (after.status === 'completed') {
      await postJournal(tx, {
        kind: WITHDRAWAL_JOURNAL_KINDS.payout,
        key: journalKey(id, 'payout'),
        lines: [
          { account: accountCode.hold(id), amount: -after.amountMicro },
          { account: accountCode.payout, amount: after.amountMicro },
        ],
        at: now,
        memo: `withdrawal ${id} paid in ${after.txHash}`,
      });
    } else {
      const lines = [{ account: accountCode.hold(id), amount: -after.amountMicro }];
      if (after.cashbackMicro > 0n) {
        lines.push({ account: accountCode.cashback(after.platId, after.uid), amount: after.cashbackMicro });
      }
      if (after.rewardsMicro > 0n) {
        lines.push({ account: accountCode.rewards(after.userId), amount: after.rewardsMicro });
      }
      await postJournal(tx, {
        kind: WITHDRAWAL_JOURNAL_KINDS.release,
        key: journalKey(id, 'release'),
        lines,
        at: now,
        memo: `withdrawal ${id} ${after.status}`,
      });
    }
    await checkpoint(deps, 'decide:afterJournal');

    if (options.mail) await queueResultMail(tx, deps, after, options.mail, partners);
    await checkpoint(deps, 'decide:afterMail');
    return { before: pendingVersionOf(after), after };
  });
}

async function queueResultMail(
  tx: Executor,
  deps: AppDeps,
  row: WithdrawalRow,
  template: 'withdrawalCompleted' | 'withdrawalRejected',
  partners: Awaited<ReturnType<typeof loadPartners>> | undefined,
) {
  const contact = await memberContact(tx, row.userId);
  // A deleted account has no address to write to; the decision stands.
  if (!contact) return;
  const exchange = partners?.get(row.platId)?.name ?? String(row.platId);
  const base = mailParams(row, exchange, row.decidedAt ?? deps.clock.now());
  const locale: Locale = contact.locale;
  if (template === 'withdrawalCompleted') {
    const params: MailParams['withdrawalCompleted'] = { ...base, txHash: row.txHash ?? '' };
    await enqueueMail(tx, deps, { template, locale, to: contact.email, params, userId: row.userId });
  } else {
    const params: MailParams['withdrawalRejected'] = { ...base, reason: row.failureReason ?? '' };
    await enqueueMail(tx, deps, { template, locale, to: contact.email, params, userId: row.userId });
  }
}

/** One withdrawal for an operator (the console's detail view, the CLI's answer). */
export async function getWithdrawal(deps: AppDeps, id: string | number): Promise<WithdrawalSnapshot> {
  const row = await findWithdrawal(deps.db, parseWithdrawalId(id));
  if (!row) throw new AppError(State.NotFound, 'notFound');
  return toSnapshot(row);
}

/** Every withdrawal under review: how many and how much, as 6-decimal USDT micro units. */
export function pendingWithdrawalTotals(deps: Pick<AppDeps, 'db'>) {
  return selectPendingTotals(deps.db);
}

/** The review window after which a pending withdrawal is overdue (spec: reviewed and paid within 48 hours). */
export function isOverdue(createdAt: Date, now: Date): boolean {
  return now.getTime() - createdAt.getTime() > WITHDRAWAL.reviewHours * HOUR_MS;
}

/** The withdrawal with its row locked until the transaction ends (an on-chain send holds it). */
export async function lockWithdrawal(tx: Transaction, id: string | number): Promise<WithdrawalRow> {
  const row = await findWithdrawalForUpdate(tx, parseWithdrawalId(id));
  if (!row) throw new AppError(State.NotFound, 'notFound');
  return row;
}

/**
 * What an on-chain send checks on the locked withdrawal (the rules of a payment by hand): still
 * pending, not the operator's own, the member not suspended nor in the 72 h pause after a password
 * change or reset, the UID not under dispute (its account lock taken, as the approval takes it).
 */
export async function refuseUnlessPayable(
  tx: Transaction,
  deps: AppDeps,
  row: WithdrawalRow,
  operatorId: number | null,
): Promise<void> {
  if (row.status !== 'pending') throw AppError.refused('withdrawalNotPending');
  if (operatorId !== null && row.userId === operatorId) throw AppError.refused('withdrawalOwnDecision');
  await refuseWhileMemberPaused(tx, deps, row.userId);
  await balanceOf(tx, accountCode.cashback(row.platId, row.uid), { forUpdate: true, at: deps.clock.now() });
  if (await isUidFrozen(tx, row.platId, row.uid)) throw AppError.refused('withdrawalFrozen');
}

/**
 * No payment, by hand or on chain, to a suspended member (the operator rejects it or reinstates
 * first), nor while the member's withdrawals are paused after a password change or reset (spec
 * sections 4 and 9: 72 hours). A withdrawal pending then was asked for before the change, maybe by
 * whoever the member changed the password to keep out: the member cancels it, the operator rejects it,
 * or lifts the pause once the member confirmed it (found in review, 2026-11-29; it was paid before).
 */
async function refuseWhileMemberPaused(tx: Transaction, deps: AppDeps, userId: number): Promise<void> {
  const inTx = { ...deps, db: tx };
  if (await isSuspended(inTx, userId)) throw AppError.refused('withdrawalSuspended');
  const pausedUntil = await withdrawalLockedUntil(inTx, userId);
  if (pausedUntil) throw AppError.refused('withdrawalPausedForPassword', { time: displayTime(pausedUntil) });
}
