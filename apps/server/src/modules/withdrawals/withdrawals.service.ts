import {
  DECIMALS,
  type DepositRecordPage,
  fromScaled,
  type Locale,
  State,
  toScaled,
  txHashSchema,
  usdtAmountSchema,
  WITHDRAWAL,
  type Withdrawable,
  type Withdrawal,
  type WithdrawalStatus,
} from '@elex/contract';
import { getAddress, isAddress, zeroAddress } from 'viem';
import type { z } from 'zod';
import type { Executor, Transaction } from '../../db/client.js';
import { isUniqueViolation } from '../../db/pg-errors.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../http/app-error.js';
import { sendAlert } from '../alerts/alerts.service.js';
import type { Member } from '../auth/auth.guard.js';
import {
  checkOwnAddressCode,
  isSuspended,
  memberContact,
  useCode,
  withdrawalLockedUntil,
  withdrawalLockedUntilInTransaction,
} from '../auth/auth.service.js';
import { liveBindingOf, liveBindingsOf, ownershipHeldUntil } from '../bindings/bindings.service.js';
import { loadPartners } from '../cashback/partners.js';
import {
  accountCode,
  balanceOf,
  balancesOf,
  InsufficientBalanceError,
  postJournal,
} from '../ledger/ledger.service.js';
import { enqueueMail } from '../mail/outbox.js';
import type { MailParams, WithdrawalMailParams } from '../mail/templates.js';
import { payoutMovingMoneyFor } from '../payouts/live-payout.js';
import { isUidFrozen } from '../support/frozen.js';
import {
  type Decision,
  decidePending,
  findByRequestId,
  findWithdrawal,
  findWithdrawalForUpdate,
  insertWithdrawalUnlessExists,
  selectMemberPage,
  selectPendingTotals,
} from './withdrawals.repository.js';
import type { DecidedVia, WithdrawalRow } from './withdrawals.tables.js';

/**
 * Withdrawals (issue 6, docs/withdrawals.md). A member asks to send a bound UID's cashback plus their
 * event rewards to a Polygon address, confirmed with an e-mailed code; the amount moves to
 * `hold:<id>` in the transaction that checks the balance; an operator pays it (the payout
 * transaction's hash; hold -> payout) or rejects it (hold -> back to where it came from); the member
 * may cancel it while it is under review (the same return). A result mail goes through the outbox in
 * the transaction of the decision.
 */

const usdt = (micro: bigint) => fromScaled(micro, DECIMALS.usdt);
const MINIMUM = WITHDRAWAL.minimumMicroUsdt;
const HOUR_MS = 60 * 60 * 1000;

/** Ledger journal kinds of a withdrawal's three movements. */
const WITHDRAWAL_JOURNAL_KINDS = {
  hold: 'withdrawalHold',
  payout: 'withdrawalPayout',
  release: 'withdrawalRelease',
} as const;

const journalKey = (id: number, movement: keyof typeof WITHDRAWAL_JOURNAL_KINDS) =>
  `withdrawal:${id}:${movement}`;

/** Event rewards booked into `rewards:<userId>` (cashback.service's list: the kinds that earn rewards). */

/**
 * Points where a test makes the flow fail, to see that a failure at any step leaves the whole change
 * or none (each runs inside the transaction, after the step it names), or changes something between
 * two steps ('request:beforeTransaction' runs after the checks outside the transaction, before it
 * opens: a password change landing there must still stop the request). Never set in production.
 */
export type WithdrawalFaultPoint =
  | 'request:beforeTransaction'
  | 'request:afterInsert'
  | 'request:afterCode'
  | 'request:afterHold'
  | 'request:afterMail'
  | 'decide:afterStatus'
  | 'decide:afterJournal'
  | 'decide:afterMail';

export type WithdrawalDeps = AppDeps & {
  withdrawalFaults?: Partial<Record<WithdrawalFaultPoint, () => void | Promise<void>>>;
};

async function checkpoint(deps: WithdrawalDeps, point: WithdrawalFaultPoint) {
  await deps.withdrawalFaults?.[point]?.();
}

/** Amounts in messages: at least two decimals, no trailing zeros beyond them ("12.50", "0.123456"). */
export function displayUsdt(micro: bigint): string {
  return usdt(micro).replace(/(\.\d{2}\d*?)0+$/, '$1');
}

/** Times in messages: UTC, minutes, said so ("2026-01-18 12:00 UTC"). */
function displayTime(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function parseWithdrawalId(id: string | number): number {
  const text = String(id).trim();
  if (!/^[1-9]\d{0,15}$/.test(text)) throw new AppError(State.NotFound, 'notFound');
  return Number(text);
}

function parseField<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const message = parsed.error.issues[0]?.message;
  throw AppError.refused((message as Parameters<typeof AppError.refused>[0]) ?? 'invalidValue');
}

/** A receiving address: EIP-55 checked (an all-lowercase one has no checksum), never the zero address. */
function receivingAddress(raw: string): string {
  const value = raw.trim();
  if (!isAddress(value, { strict: true }) || value.toLowerCase() === zeroAddress) {
    throw AppError.refused('walletAddressInvalid');
  }
  return getAddress(value);
}

// ---------------------------------------------------------------------------------------------------
// Snapshots: what the member sees, and the full row for the operator console's audit log.

function toWithdrawal(row: WithdrawalRow): Withdrawal {
  return {
    id: String(row.id),
    platId: row.platId,
    uid: row.uid,
    amount: usdt(row.amountMicro),
    address: row.address,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    txHash: row.txHash,
    failureReason: row.failureReason,
  };
}

/** The whole withdrawal, JSON-safe (amounts as 6-decimal strings): what the audit log records. */
export interface WithdrawalSnapshot extends Withdrawal {
  userId: number;
  requestId: string;
  /** The part taken from the UID's cashback (drawn first) and from the member's rewards. */
  cashbackPart: string;
  rewardsPart: string;
  decidedBy: number | null;
  decidedVia: DecidedVia | null;
}

export function toSnapshot(row: WithdrawalRow): WithdrawalSnapshot {
  return {
    ...toWithdrawal(row),
    userId: row.userId,
    requestId: row.requestId,
    cashbackPart: usdt(row.cashbackMicro),
    rewardsPart: usdt(row.rewardsMicro),
    decidedBy: row.decidedBy,
    decidedVia: row.decidedVia,
  };
}

/** The row as it was before a decision: pending, with no decision fields (the table's check says so). */
function pendingVersionOf(row: WithdrawalRow): WithdrawalRow {
  return {
    ...row,
    status: 'pending',
    decidedAt: null,
    decidedBy: null,
    decidedVia: null,
    txHash: null,
    failureReason: null,
  };
}

// ---------------------------------------------------------------------------------------------------
// Member calls

/** /elex/user/withdrawable: per live binding, its cashback, the member's rewards and what is still needed. */
export async function withdrawableOf(deps: AppDeps, userId: number): Promise<Withdrawable> {
  const bindings = await liveBindingsOf(deps.db, userId);
  const rewardsCode = accountCode.rewards(userId);
  const balances = await balancesOf(deps.db, [
    rewardsCode,
    ...bindings.map((binding) => accountCode.cashback(binding.platId, binding.uid)),
  ]);
  const rewards = balances.get(rewardsCode) ?? 0n;
  const lockedUntil = await withdrawalLockedUntil(deps, userId);
  const now = deps.clock.now();
  const frozen = await Promise.all(
    bindings.map((binding) => isUidFrozen(deps.db, binding.platId, binding.uid)),
  );
  return {
    minimum: usdt(MINIMUM),
    lockedUntil: lockedUntil?.toISOString() ?? null,
    rewards: usdt(rewards),
    bindings: bindings.map((binding, index) => {
      const cashback = balances.get(accountCode.cashback(binding.platId, binding.uid)) ?? 0n;
      const withdrawable = cashback + rewards;
      return {
        platId: binding.platId,
        uid: binding.uid,
        address: binding.address,
        cashback: usdt(cashback),
        withdrawable: usdt(withdrawable),
        shortfall: usdt(withdrawable >= MINIMUM ? 0n : MINIMUM - withdrawable),
        heldUntil: ownershipHeldUntil(binding, now)?.toISOString() ?? null,
        frozen: frozen[index] ?? false,
      };
    }),
  };
}

/** /elex/user/depositVerifyEmail: checks the module-3 code without using it up. */
export async function verifyWithdrawalCode(deps: AppDeps, member: Member, code: string): Promise<void> {
  await checkOwnAddressCode(deps, member, code);
}

export interface WithdrawalRequest {
  requestId: string;
  platId: number;
  uid: string;
  address: string;
  /** USDT, up to 6 decimals. */
  amount: string;
  /** The 6-digit module-3 code. */
  code: string;
}

export interface WithdrawalRequestOutcome {
  withdrawal: Withdrawal;
  /** False when this request id had made the withdrawal already (a retried click): nothing moved now. */
  created: boolean;
}

/**
 * A new binding's money waits for the ownership check (OWNERSHIP.holdDays, or an operator's
 * confirmation): a stranger who bound someone's UID cannot take its cashback before the owner disputes.
 */
function refuseUnlessOwnershipSettled(binding: Parameters<typeof ownershipHeldUntil>[0], now: Date): void {
  const heldUntil = ownershipHeldUntil(binding, now);
  if (heldUntil) throw AppError.refused('withdrawalOwnershipHeld', { time: displayTime(heldUntil) });
}

/** A retried request answers the withdrawal it made, if it asked for the same thing. */
function replay(row: WithdrawalRow, request: WithdrawalRequest, address: string, amountMicro: bigint) {
  if (
    row.platId !== request.platId ||
    row.uid !== request.uid ||
    row.address !== address ||
    row.amountMicro !== amountMicro
  ) {
    throw AppError.refused('withdrawalRequestReused');
  }
  return { withdrawal: toWithdrawal(row), created: false };
}

/**
 * /elex/user/applyDeposit. Checks (cheapest first): a retried request id answers its withdrawal; the
 * 72 h lock after a password change; the UID is the member's live binding; the amount is at least
 * 50 USDT; the code. Then, in one transaction under row locks on the UID's cashback and the member's
 * rewards accounts: the 72 h lock again (the user row held FOR SHARE, so a password change waits or
 * is seen), the balance check, the withdrawal row, the code used up, the hold journal
 * (cashback first, then rewards) and the confirmation mail. Requests of one member queue on the
 * rewards account's lock, on one instance or several, so none can overdraw.
 */
export async function requestWithdrawal(
  deps: WithdrawalDeps,
  member: Member,
  request: WithdrawalRequest,
): Promise<WithdrawalRequestOutcome> {
  const { userId } = member;
  const amountMicro = toScaled(parseField(usdtAmountSchema, request.amount), DECIMALS.usdt);
  const address = receivingAddress(request.address);

  const earlier = await findByRequestId(deps.db, userId, request.requestId);
  if (earlier) return replay(earlier, request, address, amountMicro);

  if (await isSuspended(deps, userId)) throw AppError.refused('withdrawalSuspended');
  const lockedUntil = await withdrawalLockedUntil(deps, userId);
  if (lockedUntil) throw AppError.refused('withdrawalLocked', { time: displayTime(lockedUntil) });
  const binding = await liveBindingOf(deps.db, request.platId, request.uid);
  if (!binding || binding.userId !== userId) throw AppError.refused('withdrawalUidNotBound');
  refuseUnlessOwnershipSettled(binding, deps.clock.now());
  if (await isUidFrozen(deps.db, request.platId, request.uid)) throw AppError.refused('withdrawalFrozen');
  if (amountMicro < MINIMUM) {
    throw AppError.refused('withdrawalBelowMinimum', {
      minimum: WITHDRAWAL.minimumUsdt,
      shortfall: displayUsdt(MINIMUM - amountMicro),
    });
  }
  // Unlocked first look, so a balance too low is said before a code try is spent; the locked check
  // in the transaction below is the one that counts.
  refuseUnlessWithdrawable(
    amountMicro,
    await balancesOf(deps.db, [
      accountCode.cashback(request.platId, request.uid),
      accountCode.rewards(userId),
    ]).then((balances) => [...balances.values()].reduce((sum, value) => sum + value, 0n)),
  );
  const codeId = await checkOwnAddressCode(deps, member, request.code);
  const exchange = (await loadPartners(deps)).get(request.platId)?.name ?? String(request.platId);
  await checkpoint(deps, 'request:beforeTransaction');

  const outcome = await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const cashbackCode = accountCode.cashback(request.platId, request.uid);
    const rewardsCode = accountCode.rewards(userId);
    // Lock in code order ('cashback:' < 'rewards:'), the order postJournal locks in: no deadlock.
    const cashback = await balanceOf(tx, cashbackCode, { forUpdate: true, at: now });
    const rewards = await balanceOf(tx, rewardsCode, { forUpdate: true, at: now });
    // A twin of this request that held the locks first has committed by now: answer its withdrawal.
    const twin = await findByRequestId(tx, userId, request.requestId);
    if (twin) return { twin };
    // The lock looked at above may have been set since (a password change or reset committing in
    // between): this look, with the user row held until commit, is the one that counts.
    const lockedNow = await withdrawalLockedUntilInTransaction(tx, userId, now);
    if (lockedNow) throw AppError.refused('withdrawalLocked', { time: displayTime(lockedNow) });
    // Likewise the binding: an operator's unbind (or the account's deletion) committing since the first
    // look must stop the request, or it would draw on a UID the member no longer holds.
    const held = await liveBindingOf(tx, request.platId, request.uid);
    if (!held || held.userId !== userId) throw AppError.refused('withdrawalUidNotBound');
    // And the dispute: one opened since the first look froze the UID (it takes the same account lock).
    refuseUnlessOwnershipSettled(held, now);
    if (await isUidFrozen(tx, request.platId, request.uid)) throw AppError.refused('withdrawalFrozen');

    refuseUnlessWithdrawable(amountMicro, cashback + rewards);
    // docs/withdrawals.md: a withdrawal draws first from the UID's cashback, then from rewards.
    const cashbackPart = amountMicro < cashback ? amountMicro : cashback;
    const rewardsPart = amountMicro - cashbackPart;

    const row = await insertWithdrawalUnlessExists(tx, {
      userId,
      requestId: request.requestId,
      platId: request.platId,
      uid: request.uid,
      address,
      amountMicro,
      cashbackMicro: cashbackPart,
      rewardsMicro: rewardsPart,
      createdAt: now,
    });
    if (!row) return { twin: await findByRequestId(tx, userId, request.requestId) };
    await checkpoint(deps, 'request:afterInsert');

    if (!(await useCode(tx, deps, codeId))) throw AppError.refused('codeInvalid');
    await checkpoint(deps, 'request:afterCode');

    await postHold(tx, row, now);
    await checkpoint(deps, 'request:afterHold');

    const contact = await memberContact(tx, userId);
    if (contact) {
      await enqueueMail(tx, deps, {
        template: 'withdrawalRequested',
        locale: contact.locale,
        to: contact.email,
        params: { ...mailParams(row, exchange, now), reviewHours: WITHDRAWAL.reviewHours },
        userId,
      });
    }
    // The operators hear of it with the request: same transaction, sent by the outbox after commit.
    await sendAlert(tx, deps, 'withdrawalRequested', {
      withdrawalId: row.id,
      memberId: userId,
      amount: displayUsdt(row.amountMicro),
      exchange,
      uid: row.uid,
      address: row.address,
      at: now.toISOString(),
    });
    await checkpoint(deps, 'request:afterMail');
    return { created: row };
  });

  if ('created' in outcome && outcome.created)
    return { withdrawal: toWithdrawal(outcome.created), created: true };
  const twin = 'twin' in outcome ? outcome.twin : undefined;
  if (!twin) throw new Error('a withdrawal request vanished');
  return replay(twin, request, address, amountMicro);
}

/** spec: at least 50 USDT of the UID's cashback plus rewards, and never more than that. */
function refuseUnlessWithdrawable(amountMicro: bigint, withdrawable: bigint) {
  if (withdrawable < MINIMUM) {
    throw AppError.refused('withdrawalBelowMinimum', {
      minimum: WITHDRAWAL.minimumUsdt,
      shortfall: displayUsdt(MINIMUM - withdrawable),
    });
  }
  if (amountMicro > withdrawable) {
    throw AppError.refused('withdrawalOverBalance', { available: displayUsdt(withdrawable) });
  }
}

async function postHold(tx: Transaction, row: WithdrawalRow, at: Date) {
  const lines = [{ account: accountCode.hold(row.id), amount: row.amountMicro }];
  if (row.cashbackMicro > 0n) {
    lines.push({ account: accountCode.cashback(row.platId, row.uid), amount: -row.cashbackMicro });
  }
  if (row.rewardsMicro > 0n)
    lines.push({ account: accountCode.rewards(row.userId), amount: -row.rewardsMicro });
  try {
    await postJournal(tx, {
      kind: WITHDRAWAL_JOURNAL_KINDS.hold,
      key: journalKey(row.id, 'hold'),
      lines,
      at,
      memo: `withdrawal ${row.id} requested`,
    });
  } catch (error) {
    // The balance was checked under the same locks: this is the ledger's own guard speaking.
    if (error instanceof InsufficientBalanceError) {
      throw AppError.refused('withdrawalOverBalance', { available: displayUsdt(error.balance) });
    }
    throw error;
  }
}

function mailParams(row: WithdrawalRow, exchange: string, at: Date): WithdrawalMailParams {
  return {
    amount: displayUsdt(row.amountMicro),
    address: row.address,
    exchange,
    uid: row.uid,
    at: at.toISOString(),
  };
}

/**
 * /elex/exchange/depositRecord: the member's withdrawals, newest first (the route adds each one's
 * payout progress from the payouts module, which sits above this one).
 */
export async function memberWithdrawals(
  deps: AppDeps,
  userId: number,
  query: { status?: WithdrawalStatus | undefined; page: number; pageSize: number },
): Promise<Omit<DepositRecordPage, 'records'> & { records: Withdrawal[] }> {
  const { rows, total } = await selectMemberPage(deps.db, userId, query);
  return { records: rows.map(toWithdrawal), total, page: query.page, pageSize: query.pageSize };
}

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
  return deps.db.transaction(async (tx) => {
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
    // Frozen money is never paid: a dispute opened on the UID since the request must be decided first.
    // The UID's account lock orders this against a dispute being opened (it takes the same lock).
    // A payout that landed has paid already: the record follows the chain.
    if (after.status === 'completed' && options.payoutId === undefined) {
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
 * pending, not the operator's own, the member not suspended, the UID not under dispute (its account
 * lock taken, as the approval takes it).
 */
export async function refuseUnlessPayable(
  tx: Transaction,
  deps: AppDeps,
  row: WithdrawalRow,
  operatorId: number | null,
): Promise<void> {
  if (row.status !== 'pending') throw AppError.refused('withdrawalNotPending');
  if (operatorId !== null && row.userId === operatorId) throw AppError.refused('withdrawalOwnDecision');
  if (await isSuspended({ ...deps, db: tx }, row.userId)) throw AppError.refused('withdrawalSuspended');
  await balanceOf(tx, accountCode.cashback(row.platId, row.uid), { forUpdate: true, at: deps.clock.now() });
  if (await isUidFrozen(tx, row.platId, row.uid)) throw AppError.refused('withdrawalFrozen');
}
